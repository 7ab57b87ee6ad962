/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with this library; if not, see
 * <https://www.gnu.org/licenses/>.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gst/check/gstcheck.h>

#include "harness.h"

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */

void
th_params_init (RefParams * p, guint threshold, guint window,
    guint chroma_threshold)
{
  ref_params_init (p);
  p->threshold = threshold;
  p->window = window;
  p->chroma_threshold = chroma_threshold;
}

void
th_config_init (ThConfig * cfg, guint threshold, guint window,
    guint chroma_threshold)
{
  memset (cfg, 0, sizeof (*cfg));
  th_params_init (&cfg->ref, threshold, window, chroma_threshold);
}

void
th_config_set_kernel_str (ThConfig * cfg, const gchar * str, gint kw,
    gint kh, const gdouble * coeffs, gdouble divisor, gdouble bias)
{
  g_assert (kw >= 1 && kw <= REF_KERNEL_MAX_SIDE && (kw & 1));
  g_assert (kh >= 1 && kh <= REF_KERNEL_MAX_SIDE && (kh & 1));
  g_assert (strlen (str) < sizeof (cfg->kernel_str));
  g_strlcpy (cfg->kernel_str, str, sizeof (cfg->kernel_str));
  cfg->ref.kernel_width = kw;
  cfg->ref.kernel_height = kh;
  memcpy (cfg->ref.kernel, coeffs, sizeof (gdouble) * kw * kh);
  cfg->ref.divisor = divisor;
  cfg->ref.bias = bias;
}

void
th_config_set_kernel (ThConfig * cfg, gint kw, gint kh,
    const gdouble * coeffs, gdouble divisor, gdouble bias)
{
  GString *s = g_string_new (NULL);
  gchar num[G_ASCII_DTOSTR_BUF_SIZE];
  gint r, c;

  for (r = 0; r < kh; r++) {
    if (r > 0)
      g_string_append (s, "; ");
    for (c = 0; c < kw; c++) {
      if (c > 0)
        g_string_append_c (s, ' ');
      g_string_append (s, g_ascii_formatd (num, sizeof (num), "%.17g",
              coeffs[r * kw + c]));
    }
  }
  th_config_set_kernel_str (cfg, s->str, kw, kh, coeffs, divisor, bias);
  g_string_free (s, TRUE);
}

void
th_config_apply (const ThConfig * cfg, GstElement * element)
{
  g_object_set (element,
      "threshold", cfg->ref.threshold,
      "window-size", cfg->ref.window,
      "chroma-threshold", cfg->ref.chroma_threshold,
      "kernel", cfg->kernel_str,
      "divisor", cfg->ref.divisor, "bias", cfg->ref.bias, NULL);
  if (cfg->epsilon_variant)
    gst_util_set_object_arg (G_OBJECT (element), "epsilon-variant",
        cfg->epsilon_variant);
  if (cfg->conv_variant)
    gst_util_set_object_arg (G_OBJECT (element), "convolution-variant",
        cfg->conv_variant);
}

gchar *
th_config_describe (const ThConfig * cfg)
{
  gchar *k = g_strndup (cfg->kernel_str, 80);
  gchar *d = g_strdup_printf ("threshold=%u window-size=%u "
      "chroma-threshold=%u kernel=\"%s%s\" (%dx%d) divisor=%g bias=%g "
      "epsilon-variant=%s convolution-variant=%s",
      cfg->ref.threshold, cfg->ref.window, cfg->ref.chroma_threshold, k,
      strlen (cfg->kernel_str) > 80 ? "..." : "", cfg->ref.kernel_width,
      cfg->ref.kernel_height, cfg->ref.divisor, cfg->ref.bias,
      cfg->epsilon_variant ? cfg->epsilon_variant : "auto",
      cfg->conv_variant ? cfg->conv_variant : "auto");

  g_free (k);
  return d;
}

gchar *
th_config_ctx (const gchar * what, GstVideoFormat fmt, gint w, gint h,
    guint32 seed, const ThConfig * cfg)
{
  gchar *d = th_config_describe (cfg);
  gchar *ctx = g_strdup_printf ("[%s] %s %dx%d seed=0x%08x %s device=%s",
      what, gst_video_format_to_string (fmt), w, h, seed, d, rt_device ());

  g_free (d);
  return ctx;
}

/* ------------------------------------------------------------------------ */
/* Element and harness                                                      */

GstElement *
th_make_element (void)
{
  GstElement *e = gst_element_factory_make ("clepsilon", NULL);

  fail_unless (e != NULL, "cannot create clepsilon (is the plugin built?)");
  g_object_set (e, "device", rt_device (), NULL);
  return e;
}

void
th_plain_variants_under_valgrind (GstElement * e)
{
  if (g_getenv ("CLEPSILON_UNDER_VALGRIND"))
    g_object_set (e, "epsilon-variant", 1, "convolution-variant", 1, NULL);
}

GstHarness *
th_harness_from_element (GstElement * e)
{
  GstHarness *hr;

  /* a bus of its own, so that a failure to start shows the element's
   * message instead of a harness assertion */
  if (rt_start (e) == GST_STATE_CHANGE_FAILURE) {
    gchar *text = NULL;
    gchar *device = NULL;

    rt_drain_errors (e, &text);
    g_object_get (e, "device", &device, NULL);
    fail ("clepsilon with device=\"%s\" failed to start: %s", device,
        text ? text : "no error message");
  }
  hr = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return hr;
}

void
th_harness_set_format (GstHarness * hr, GstVideoFormat fmt, gint w, gint h,
    GstVideoInfo * info)
{
  gchar *caps = rt_caps_string (fmt, w, h);

  gst_harness_set_caps_str (hr, caps, caps);
  g_free (caps);
  gst_video_info_init (info);
  fail_unless (gst_video_info_set_format (info, fmt, w, h));
}

void
th_restart_stream (GstHarness * hr, const GstVideoInfo * info)
{
  fail_unless (gst_element_set_state (hr->element, GST_STATE_READY) ==
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_set_state (hr->element, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_SUCCESS);
  rt_push_caps (hr, rt_caps (GST_VIDEO_INFO_FORMAT (info),
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info)));
}

GstHarness *
th_harness_new (GstElement * e, GstVideoFormat fmt, gint w, gint h,
    GType downstream_meta, GstVideoInfo * info)
{
  GstHarness *hr = th_harness_from_element (e);

  if (downstream_meta != 0)
    gst_harness_add_propose_allocation_meta (hr, downstream_meta, NULL);
  th_harness_set_format (hr, fmt, w, h, info);
  return hr;
}

GstMessage *
th_pop_error (GstHarness * hr)
{
  GstBus *bus = gst_element_get_bus (hr->element);

  fail_unless (bus != NULL, "the element has no bus");
  gst_object_unref (bus);
  return rt_pop_error (hr->element);
}

void
th_teardown_checked (GstHarness * hr)
{
  GstMessage *msg = th_pop_error (hr);

  if (msg != NULL) {
    gchar *text = rt_error_text (msg);

    fail ("clepsilon posted an error: %s", text);
  }
  rt_teardown (hr);
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */

void
th_fill_bytes (GstBuffer * buf, GRand * rand)
{
  guint m;

  for (m = 0; m < gst_buffer_n_memory (buf); m++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, m);
    GstMapInfo map;
    gsize i;

    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE),
        "cannot map memory %u of the input for writing", m);
    for (i = 0; i < map.size; i++)
      map.data[i] = (guint8) g_rand_int_range (rand, 0, 256);
    gst_memory_unmap (mem, &map);
  }
}

void
th_fill_frame (GstVideoFrame * frame, GRand * rand, ThFill mode)
{
  guint comp, x, y;

  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (frame); comp++) {
    guint8 *data = GST_VIDEO_FRAME_COMP_DATA (frame, comp);
    gint stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, comp);
    gint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp);
    guint w = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp);
    guint h = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp);

    for (y = 0; y < h; y++) {
      for (x = 0; x < w; x++) {
        gint v;

        if (mode == TH_FILL_NOISE) {
          v = g_rand_int_range (rand, 0, 256);
        } else {
          /* both flat areas and edges for the epsilon filter */
          v = (gint) ((x * 5 + y * 3 + comp * 60) % 256);
          v += g_rand_int_range (rand, -24, 25);
          v = CLAMP (v, 0, 255);
        }
        data[y * stride + x * pstride] = (guint8) v;
      }
    }
  }
}

void
th_fill_buffer (const GstVideoInfo * info, GstBuffer * buf, GRand * rand,
    ThFill mode)
{
  GstVideoFrame frame;

  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE),
      "cannot map the input as a video frame for writing");
  th_fill_frame (&frame, rand, mode);
  gst_video_frame_unmap (&frame);
}

GstBuffer *
th_make_input (const GstVideoInfo * info, GRand * rand, ThFill mode)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);

  /* random padding too: it must not matter */
  th_fill_bytes (buf, rand);
  th_fill_buffer (info, buf, rand, mode);
  return buf;
}

gchar *
th_compare_frame (const GstVideoInfo * info, GstBuffer * out,
    GstBuffer * exp, guint luma_tol)
{
  gchar *first = NULL, *result = NULL;
  guint n_bad = rt_compare (info, out, exp, luma_tol, &first);

  if (n_bad == G_MAXUINT)
    result = g_strdup (first);
  else if (n_bad > 0)
    result = g_strdup_printf ("%u samples differ from the reference "
        "(tolerance %u on luma); first: %s", n_bad, luma_tol, first);
  g_free (first);
  return result;
}

void
th_check_frame (const GstVideoInfo * info, GstBuffer * out, GstBuffer * exp,
    guint luma_tol, const gchar * ctx)
{
  gchar *err = th_compare_frame (info, out, exp, luma_tol);

  fail_unless (err == NULL, "%s: %s", ctx, err);
}

GstBuffer *
th_push_pull (GstHarness * hr, GstBuffer * in, const gchar * ctx)
{
  GstFlowReturn ret = gst_harness_push (hr, in);
  GstBuffer *out;

  fail_unless (ret == GST_FLOW_OK, "%s: push returned %s", ctx,
      gst_flow_get_name (ret));
  out = gst_harness_pull (hr);
  fail_unless (out != NULL, "%s: no output buffer", ctx);
  return out;
}

GstBuffer *
th_push_check (GstHarness * hr, const GstVideoInfo * info, GstBuffer * in,
    const RefParams * p, const gchar * ctx)
{
  GstBuffer *exp = rt_make_expected (info, in, p);
  GstBuffer *out = th_push_pull (hr, in, ctx);

  th_check_frame (info, out, exp, 0, ctx);
  fail_unless (gst_harness_try_pull (hr) == NULL, "%s: two outputs", ctx);
  gst_buffer_unref (exp);
  return out;
}

void
th_push_check_unref (GstHarness * hr, const GstVideoInfo * info,
    GstBuffer * in, const RefParams * p, const gchar * ctx)
{
  gst_buffer_unref (th_push_check (hr, info, in, p, ctx));
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                   */

typedef struct
{
  gpointer base;
  gsize length;
} GuardedBlock;

static void
guarded_block_free (gpointer data)
{
  GuardedBlock *block = data;

  munmap (block->base, block->length);
  g_free (block);
}

GstMemory *
th_guarded_memory_new (gsize size, gsize align, gboolean odd)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  gsize data_pages = (size + align + 1 + page - 1) / page;
  GuardedBlock *block = g_new0 (GuardedBlock, 1);
  guint8 *guard, *data;

  block->length = (data_pages + 1) * page;
  block->base = mmap (NULL, block->length, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  fail_unless (block->base != MAP_FAILED, "mmap failed");
  guard = (guint8 *) block->base + data_pages * page;
  fail_unless (mprotect (guard, page, PROT_NONE) == 0, "mprotect failed");

  data = guard - size;
  if (align > 1)
    data = (guint8 *) ((guintptr) data & ~(guintptr) (align - 1));
  if (odd && ((guintptr) data & 1) == 0)
    data--;
  fail_unless (data >= (guint8 *) block->base);

  return gst_memory_new_wrapped (0, data, size, 0, size, block,
      guarded_block_free);
}
