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

/* Fuzz target: turns bytes into caps, a buffer layout (strides, plane
 * offsets, a short buffer, several memories, an odd address), property
 * values and a frame, and pushes it through one long-lived clepsilon. The
 * element must never crash, and:
 *  - a frame whose layout covers its caps must come out, right against the
 *    C reference (when the kernel is tame enough for float and double to
 *    agree within one level);
 *  - a frame that does not fit must be refused with GST_FLOW_ERROR;
 *  - a frame after caps it cannot take is refused.
 * A broken promise aborts (libFuzzer then keeps the input).
 *
 * Built two ways: with clang -fsanitize=fuzzer (tests/fuzz/build.sh) as a
 * libFuzzer target, and with the project's compiler as a driver
 * (CLEPSILON_FUZZ_DRIVER) that replays files and folders given on the
 * command line, and can add deterministic random inputs (--random N), for
 * meson test. Environment: GST_PLUGIN_PATH to the built plugin,
 * CLEPSILON_TEST_DEVICE (default "pocl"), CLEPSILON_FUZZ_VERBOSE=1 to print
 * what each input does. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "../check/reference.h"
#include "../check/robust.h"
#include "gstclconvkernel-private.h"

/* A broken promise: a crash libFuzzer catches and keeps the input of. Not
 * abort (): LLVM, inside PoCL's compiler, handles signals first, and after
 * its handler glibc's abort () dies with the default action; a trap is
 * raised again, and reaches libFuzzer's handler. */
static void
fuzz_fail (void)
{
  fflush (stderr);
  __builtin_trap ();
}

/* ---- Reading the input -------------------------------------------------- */

typedef struct
{
  const guint8 *data;
  gsize size, pos;
} Reader;

static guint
take_u8 (Reader * r)
{
  return r->pos < r->size ? r->data[r->pos++] : 0;
}

static guint
take_u16 (Reader * r)
{
  guint v = take_u8 (r);

  return v | (take_u8 (r) << 8);
}

static guint32
take_u32 (Reader * r)
{
  guint32 v = take_u16 (r);

  return v | ((guint32) take_u16 (r) << 16);
}

/* ---- The element ---------------------------------------------------------- */

static GstHarness *hr;
static gboolean verbose;
static gchar *last_caps;

/* The 8-bit formats: random bytes are valid samples of them */
static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY,
};

static const gchar *const unsupported_caps[] = {
  "video/x-raw, format=RGBA, width=16, height=16, framerate=30/1",
  "video/x-raw, format=v210, width=16, height=16, framerate=30/1",
  "video/x-raw, format=GRAY8, width=65536, height=32768, framerate=30/1",
  "video/x-raw, format=GRAY8, width=2147483647, height=1, framerate=30/1",
  "video/x-raw, format=NV12, width=1073741825, height=1, framerate=30/1",
};

/* Drops the element's error messages. An ERROR (a frame refused, caps that
 * could not be planned) stops its stream until READY: where one was posted,
 * a new stream, as an application would start one. */
static void
drain_bus (void)
{
  GstBus *bus = gst_element_get_bus (hr->element);
  GstMessage *msg;
  gboolean failed = FALSE;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
    failed = TRUE;
    if (verbose) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("  error: %s\n", err->message);
      g_error_free (err);
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  if (failed) {
    gst_element_set_state (hr->element, GST_STATE_READY);
    gst_element_set_state (hr->element, GST_STATE_PLAYING);
    g_clear_pointer (&last_caps, g_free);
  }
}

static void
setup (void)
{
  const gchar *device = g_getenv ("CLEPSILON_TEST_DEVICE");
  GstElement *e;
  GstBus *bus;

  gst_init (NULL, NULL);
  verbose = g_getenv ("CLEPSILON_FUZZ_VERBOSE") != NULL;
  e = gst_element_factory_make ("clepsilon", NULL);
  if (e == NULL) {
    g_printerr ("clepsilon not found: set GST_PLUGIN_PATH to build/gst\n");
    fuzz_fail ();
  }
  /* explicit variants: "auto" times the variants for every new size and
   * window, which would take most of the fuzzing time; strength=medium:
   * the epsilon filter and the convolution, which the reference checks,
   * from the expert properties' defaults (nothing set runs the DCT stage) */
  g_object_set (e, "device", device && *device ? device : "pocl",
      "epsilon-variant", 1, "convolution-variant", 1, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "strength", "medium");
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  gst_object_unref (bus);
  if (gst_element_set_state (e, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    g_printerr ("clepsilon does not start on this machine\n");
    fuzz_fail ();
  }
  hr = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  /* downstream takes any video: the element itself decides */
  gst_harness_set_sink_caps_str (hr, "video/x-raw");
}

static gboolean
set_caps (const gchar * caps_str)
{
  static guint n;
  GstSegment segment;
  GstCaps *caps;
  gchar *id;

  if (g_strcmp0 (caps_str, last_caps) == 0)
    return TRUE;
  g_free (last_caps);
  last_caps = g_strdup (caps_str);
  id = g_strdup_printf ("fuzz-%u", ++n);
  gst_pad_push_event (hr->srcpad, gst_event_new_stream_start (id));
  g_free (id);
  caps = gst_caps_from_string (caps_str);
  gst_pad_push_event (hr->srcpad, gst_event_new_caps (caps));
  gst_caps_unref (caps);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_push_event (hr->srcpad, gst_event_new_segment (&segment));
  return TRUE;
}

/* Sets properties from the input, as a user might, but only values GObject
 * takes (out-of-range ones are a GObject warning, tested elsewhere). */
static void
set_properties (Reader * r)
{
  guint flags = take_u8 (r);

  if (flags & 1)
    g_object_set (hr->element, "threshold", take_u8 (r), NULL);
  if (flags & 2)
    g_object_set (hr->element, "window-size", 3 + take_u8 (r) % 13, NULL);
  if (flags & 4)
    g_object_set (hr->element, "chroma-threshold", take_u8 (r), NULL);
  if (flags & 8) {
    gchar kernel[96];
    guint len = take_u8 (r) % sizeof (kernel), i;
    static const gchar alphabet[] = "0123456789 ;,.-+e\t";

    /* mostly kernel-like text, now and then any bytes */
    for (i = 0; i < len; i++) {
      guint c = take_u8 (r);

      kernel[i] = (c & 0x80) ? (gchar) (c & 0x7f ? c & 0x7f : ' ') :
          alphabet[c % (sizeof (alphabet) - 1)];
    }
    kernel[len] = '\0';
    g_object_set (hr->element, "kernel", kernel, NULL);
  }
  if (flags & 16) {
    gint v = (gint16) take_u16 (r);

    g_object_set (hr->element, "divisor", v / 8.0, NULL);
  }
  if (flags & 32) {
    gint v = (gint16) take_u16 (r);

    g_object_set (hr->element, "bias", v / 16.0, NULL);
  }
  if (flags & 64) {
    guint v = take_u8 (r);

    /* plain, tiled, vector (separable for the convolution); auto rarely */
    g_object_set (hr->element, "epsilon-variant", v == 0 ? 0 : 1 + v % 3,
        "convolution-variant", v == 0 ? 0 : 1 + (v >> 4) % 4, NULL);
  }
}

/* The reference parameters for what the element holds now; FALSE when its
 * kernel is too wild for float and double to agree within one level. */
static gboolean
element_params (RefParams * p, guint * luma_tol)
{
  GstClConvKernel kernel;
  gchar *text = NULL;
  gdouble divisor, bias;
  gboolean tame = TRUE;
  gint i;

  ref_params_init (p);
  g_object_get (hr->element, "threshold", &p->threshold, "window-size",
      &p->window, "chroma-threshold", &p->chroma_threshold, "kernel", &text,
      "divisor", &divisor, "bias", &bias, NULL);
  *luma_tol = 0;
  if (text && *text && text[strspn (text, " \t\r\n")] != '\0') {
    if (!gst_cl_conv_kernel_parse (text, &kernel, NULL)) {
      g_printerr ("the element holds a kernel its parser refuses: \"%s\"\n",
          text);
      fuzz_fail ();
    }
    p->kernel_width = kernel.width;
    p->kernel_height = kernel.height;
    /* sums of at most 225 products in eighths, exact in float */
    for (i = 0; i < kernel.width * kernel.height; i++) {
      p->kernel[i] = kernel.coeffs[i];
      tame = tame && fabs (kernel.coeffs[i]) <= 16 &&
          kernel.coeffs[i] * 8 == floor (kernel.coeffs[i] * 8);
    }
    p->divisor = divisor;
    p->bias = bias;
    divisor = gst_cl_conv_kernel_effective_divisor (&kernel, divisor);
    tame = tame && fabs (divisor) >= 0.5 && fabs (bias) <= 1024;
    *luma_tol = 1;
  }
  g_free (text);
  return tame;
}

/* ---- One input ------------------------------------------------------------ */

static gsize
plane_rows_bytes (const GstVideoInfo * info, guint plane, gsize * row_bytes)
{
  gint comps[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comps);
  *row_bytes = rt_row_bytes (info, plane);
  return GST_VIDEO_INFO_COMP_HEIGHT (info, comps[0]);
}

static gchar *
caps_for (const GstVideoInfo * info)
{
  GstCaps *c = gst_video_info_to_caps (info);
  gchar *s;

  gst_caps_set_simple (c, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  s = gst_caps_to_string (c);
  gst_caps_unref (c);
  return s;
}

static void
one_input (const guint8 * data, gsize size)
{
  Reader r = { data, size, 0 };
  guint kind = take_u8 (&r);
  GstVideoFormat fmt = formats[take_u8 (&r) % G_N_ELEMENTS (formats)];
  gint w = 1 + take_u8 (&r) % 48, h = 1 + take_u8 (&r) % 40;
  guint layout = take_u8 (&r);
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  gboolean fits = TRUE, use_meta, odd, split;
  gsize total, end = 0, k;
  GstVideoInfo info;
  GstBuffer *bytes, *in, *exp = NULL, *out = NULL;
  GstFlowReturn ret;
  GstMapInfo map;
  RefParams p;
  guint luma_tol = 0, i;
  gchar *caps;

  set_properties (&r);

  if (kind % 16 == 15) {
    /* caps the element refuses, and a frame after them */
    GstBuffer *small = gst_buffer_new_allocate (NULL, 64, NULL);

    set_caps (unsupported_caps[take_u8 (&r) % G_N_ELEMENTS (unsupported_caps)]);
    ret = gst_harness_push (hr, gst_buffer_ref (small));
    out = gst_harness_try_pull (hr);
    /* refused at the caps, or (caps only too large for the device's
     * buffers) at the frame, which is too small; in passthrough, caps the
     * element could filter pass, and the frame with them, untouched */
    if (!(ret == GST_FLOW_NOT_NEGOTIATED || ret == GST_FLOW_ERROR ||
            (ret == GST_FLOW_OK && out == small &&
                gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
                    (hr->element))))) {
      g_printerr ("unsupported caps %s: push gave %s\n", last_caps,
          gst_flow_get_name (ret));
      fuzz_fail ();
    }
    if (out)
      gst_buffer_unref (out);
    gst_buffer_unref (small);
    drain_bus ();
    return;
  }
  if (kind % 16 == 14) {
    /* now and then a larger frame */
    w = 1 + take_u16 (&r) % 700;
    h = 1 + take_u16 (&r) % 500;
  }
  gst_video_info_set_format (&info, fmt, w, h);
  caps = caps_for (&info);
  set_caps (caps);
  g_free (caps);

  /* the layout: the default one, or a video meta with strides and offsets
   * from the input, which may not fit */
  use_meta = layout & 1;
  odd = (layout & 2) != 0;
  split = (layout & 4) != 0;
  if (use_meta) {
    gsize pos = take_u8 (&r) % 64;

    for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&info); i++) {
      gsize row_bytes, rows = plane_rows_bytes (&info, i, &row_bytes);
      gint extra = (gint8) take_u8 (&r);

      /* mostly wider than needed, now and then narrower */
      stride[i] = (gint) row_bytes + (extra >= -96 ? ABS (extra) % 64 :
          extra / 32);
      offset[i] = (layout & 8) && i > 0 ? offset[i - 1] + take_u8 (&r) : pos;
      pos = offset[i] + (gsize) MAX (stride[i], 1) * rows + take_u8 (&r) % 16;
    }
    total = pos;
  } else {
    for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&info); i++) {
      offset[i] = info.offset[i];
      stride[i] = info.stride[i];
    }
    total = info.size;
  }
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&info); i++) {
    gsize row_bytes, rows = plane_rows_bytes (&info, i, &row_bytes);

    if (stride[i] < 0 || (gsize) stride[i] < row_bytes)
      fits = FALSE;
    else
      end = MAX (end, offset[i] + (gsize) stride[i] * (rows - 1) + row_bytes);
  }
  if ((layout & 48) == 48) {
    /* a buffer cut short, or a little longer */
    gint delta = (gint8) take_u8 (&r);

    total = delta < 0 && (gsize) (-delta) >= total ? 1 : total + delta;
  }
  if (total < end)
    fits = FALSE;

  /* the frame's bytes: the rest of the input, repeated; room for the
   * reference to map the default layout */
  bytes = gst_buffer_new_allocate (NULL, MAX (total, info.size), NULL);
  gst_buffer_map (bytes, &map, GST_MAP_WRITE);
  for (k = 0; k < map.size; k++)
    map.data[k] = r.pos < r.size ? r.data[r.pos + k % (r.size - r.pos)] :
        (guint8) (k * 31 + 7);
  gst_buffer_unmap (bytes, &map);
  if (use_meta)
    gst_buffer_add_video_meta_full (bytes, GST_VIDEO_FRAME_FLAG_NONE, fmt, w,
        h, GST_VIDEO_INFO_N_PLANES (&info), offset, stride);
  if (fits && element_params (&p, &luma_tol))
    exp = rt_make_expected (&info, bytes, &p);

  /* the buffer pushed: the same bytes, in one memory at an aligned or odd
   * address, or in two memories */
  in = gst_buffer_new ();
  if (split && total >= 2) {
    gsize cut = 1 + take_u32 (&r) % (total - 1);

    gst_buffer_append_memory (in, gst_allocator_alloc (NULL, cut, NULL));
    gst_buffer_append_memory (in, gst_allocator_alloc (NULL, total - cut,
            NULL));
  } else if (odd) {
    GstMemory *mem = gst_allocator_alloc (NULL, total + 1, NULL);

    gst_memory_resize (mem, 1, total);
    gst_buffer_append_memory (in, mem);
  } else {
    GstAllocationParams params = { 0, 127, 0, 0, };

    gst_buffer_append_memory (in, gst_allocator_alloc (NULL, total, &params));
  }
  gst_buffer_map (bytes, &map, GST_MAP_READ);
  gst_buffer_fill (in, 0, map.data, total);
  gst_buffer_unmap (bytes, &map);
  if (use_meta)
    gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE, fmt, w, h,
        GST_VIDEO_INFO_N_PLANES (&info), offset, stride);

  if (verbose)
    g_printerr ("%s %dx%d, %s layout, %" G_GSIZE_FORMAT " bytes (%s), %s\n",
        gst_video_format_to_string (fmt), w, h, use_meta ? "meta" : "default",
        total, fits ? "fits" : "does not fit", split ? "two memories" :
        odd ? "odd address" : "aligned");

  gst_buffer_ref (in);
  ret = gst_harness_push (hr, in);
  out = gst_harness_try_pull (hr);
  drain_bus ();
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (hr->element))) {
    /* nothing to filter: the frame passes untouched, fitting or not */
    if (ret != GST_FLOW_OK || out != in) {
      g_printerr ("passthrough: %s, %s\n", gst_flow_get_name (ret),
          out == in ? "same buffer" : "another buffer");
      fuzz_fail ();
    }
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    if (exp)
      gst_buffer_unref (exp);
    gst_buffer_unref (bytes);
    return;
  }
  gst_buffer_unref (in);
  if (fits ? ret != GST_FLOW_OK : ret != GST_FLOW_ERROR) {
    g_printerr ("%s %dx%d, %s layout, %" G_GSIZE_FORMAT " bytes: a frame that "
        "%s gave %s\n", gst_video_format_to_string (fmt), w, h,
        use_meta ? "meta" : "default", total, fits ? "fits" : "does not fit",
        gst_flow_get_name (ret));
    fuzz_fail ();
  }
  if ((ret == GST_FLOW_OK) != (out != NULL)) {
    g_printerr ("%s with%s an output\n", gst_flow_get_name (ret),
        out ? "" : "out");
    fuzz_fail ();
  }
  if (out && exp) {
    gchar *first = NULL;
    guint bad = rt_compare (&info, out, exp, luma_tol, &first);

    if (bad) {
      g_printerr ("%s %dx%d: %u samples differ from the reference, first %s\n",
          gst_video_format_to_string (fmt), w, h, bad, first);
      fuzz_fail ();
    }
  }
  if (out)
    gst_buffer_unref (out);
  if (exp)
    gst_buffer_unref (exp);
  gst_buffer_unref (bytes);
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

/* The element is set up at the first input, not here: libFuzzer installs
 * its crash handlers after this, and LLVM (inside PoCL's compiler) passes
 * signals on to the handlers it found at its first compile. */
int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  if (hr == NULL)
    setup ();
  one_input (data, size);
  return 0;
}
