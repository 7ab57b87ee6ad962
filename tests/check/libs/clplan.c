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

/* The plan (gst/gstclplan.c) on its own, without an element: frames of
 * every layout, with padded strides and odd sizes, filtered with each
 * kind of settings and each forced kernel variant, against the CPU
 * reference (reference.c); settings changed between frames; a crop
 * rectangle; the untouched-plane mask. The device is $CLEPSILON_TEST_DEVICE
 * (default "pocl"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <math.h>
#include <string.h>

#include "gstclbufferpool-private.h"
#include "gstclmemory-private.h"
#include "gstcldct-private.h"
#include "gstclplan-private.h"
#include "gstclhostpin-private.h"
#include "gstclcodingmeta-private.h"
#include "dctpicture.h"
#include "reference.h"
#include "clfault.h"

static GstClContext *context;
static GstClStats *stats;
static GstClTuner *tuner;

static void
setup (void)
{
  const gchar *device = g_getenv ("CLEPSILON_TEST_DEVICE");
  GError *error = NULL;

  context = gst_cl_context_new (device ? device : "pocl", &error);
  fail_unless (context != NULL, "no device: %s", error ? error->message : "");
  stats = gst_cl_stats_new ();
  tuner = gst_cl_tuner_new (context, stats);
}

static void
teardown (void)
{
  gst_cl_tuner_free (tuner);
  gst_cl_stats_free (stats);
  gst_object_unref (context);
}

/* A frame of @info in system memory whose rows are @pad bytes longer than
 * the default layout's, described by a video meta; random samples (of the
 * format's depth) from @rand, or 0x5a everywhere (poison) when @rand is
 * NULL. */
static GstBuffer *
padded_frame (const GstVideoInfo * info, gint pad, GRand * rand)
{
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  gsize size = 0;
  GstBuffer *buf;
  GstMapInfo map;
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, i, comp);
    offset[i] = size;
    stride[i] = GST_VIDEO_INFO_PLANE_STRIDE (info, i) + pad;
    size += (gsize) stride[i] * GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
  }
  buf = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offset,
      stride);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  if (GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8) {
    guint16 *words = (guint16 *) map.data;
    guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, 0);

    for (i = 0; i < size / 2; i++)
      words[i] = rand ? g_rand_int_range (rand, 0, 1024) << shift : 0x5a5a;
  } else {
    for (i = 0; i < size; i++)
      map.data[i] = rand ? g_rand_int_range (rand, 0, 256) : 0x5a;
  }
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* The settings and reference parameters of one case. */
typedef struct
{
  const gchar *name;
  guint threshold, window, chroma_threshold;
  const gchar *kernel;
} Case;

static const Case cases[] = {
  {"defaults", 10, 3, 0, NULL},
  {"chroma", 20, 5, 12, NULL},
  {"kernel", 15, 7, 0, "1 2 1; 2 4 2; 1 2 1"},
  {"kernel only", 0, 3, 0, "0 -1 0; -1 5 -1; 0 -1 0"},
  {"wide window", 30, 15, 25, "1 1 1 1 1"},
};

static void
make_settings (const Case * c, GstClVariant variant, GstClPlanSettings * s,
    RefParams * p)
{
  memset (s, 0, sizeof (*s));
  ref_params_init (p);
  s->threshold = p->threshold = c->threshold;
  s->window_size = p->window = c->window;
  s->chroma_threshold = p->chroma_threshold = c->chroma_threshold;
  s->epsilon_variant = s->conv_variant = variant;
  if (c->kernel) {
    fail_unless (gst_cl_conv_kernel_parse (c->kernel, &s->kernel, NULL));
    s->have_kernel = TRUE;
    p->kernel_width = s->kernel.width;
    p->kernel_height = s->kernel.height;
    memcpy (p->kernel, s->kernel.coeffs,
        sizeof (gdouble) * s->kernel.width * s->kernel.height);
  }
}

/* Checks every sample of every component of @out against @ref. */
static void
compare_frames (const GstVideoFrame * out, const GstVideoFrame * ref,
    const gchar * what)
{
  const GstVideoInfo *info = &out->info;
  guint comp;
  gint x, y;

  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
    guint plane = GST_VIDEO_INFO_COMP_PLANE (info, comp);

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (out, comp); y++) {
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (out, comp); x++) {
        guint got = ref_get_sample (info, comp, out->data[plane],
            out->info.stride[plane], x, y);
        guint want = ref_get_sample (&ref->info, comp, ref->data[plane],
            ref->info.stride[plane], x, y);

        fail_unless (got == want, "%s: component %u at %d,%d: %u, "
            "reference %u", what, comp, x, y, got, want);
      }
    }
  }
}

/* The reference output of @in for @p, in a new frame: inside the crop
 * rectangle of @in (the whole frame if it has none) the reference filter,
 * field by field where @fields, and outside it the input as it is. */
static GstBuffer *
reference_frame (const GstVideoInfo * info, GstBuffer * in,
    const RefParams * p, gboolean fields)
{
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (in);
  void (*process) (const GstVideoInfo *, guint8 * const *, const gint *,
      guint8 * const *, const gint *, const RefParams *, gint, gint, gint,
      gint) = fields ? ref_process_region_fields : ref_process_region;
  GstBuffer *ref = padded_frame (info, 0, NULL);
  GstVideoFrame fin, fref;
  guint i;
  gint y;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, info, ref, GST_MAP_WRITE));
  if (crop) {
    /* Outside the rectangle the input, inside the reference of it. */
    for (i = 0; i < GST_VIDEO_FRAME_N_PLANES (&fin); i++)
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fin, i); y++)
        memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fref, i) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fref, i),
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, i) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, i),
            GST_VIDEO_INFO_PLANE_STRIDE (info, i));
    process (info, (guint8 **) fin.data, fin.info.stride,
        (guint8 **) fref.data,
        fref.info.stride, p, crop->x, crop->y, crop->width, crop->height);
  } else {
    process (info, (guint8 **) fin.data, fin.info.stride,
        (guint8 **) fref.data,
        fref.info.stride, p, 0, 0, GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info));
  }
  gst_video_frame_unmap (&fref);
  gst_video_frame_unmap (&fin);
  return ref;
}

/* Compares @out with the reference of @in for @p (reference_frame()). */
static void
check_output (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const RefParams * p, gboolean fields, const gchar * what)
{
  GstBuffer *ref = reference_frame (info, in, p, fields);
  GstVideoFrame fout, fref;

  fail_unless (gst_video_frame_map (&fref, info, ref, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  compare_frames (&fout, &fref, what);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fref);
  gst_buffer_unref (ref);
}

/* Runs @plan on @in and checks the output against the reference of @p,
 * with the crop rectangle of @in if it has one. The output goes to @out
 * (taken; NULL: a padded frame in system memory), the frame's stats to
 * @stats where not NULL. */
static void
check_frame (GstClPlan * plan, const GstVideoInfo * info, GstBuffer * in,
    GstBuffer * out, const RefParams * p, const gchar * what,
    GstClFrameStats * stats)
{
  gboolean fields = GST_VIDEO_INFO_INTERLACE_MODE (info) ==
      GST_VIDEO_INTERLACE_MODE_INTERLEAVED ||
      (GST_VIDEO_INFO_INTERLACE_MODE (info) == GST_VIDEO_INTERLACE_MODE_MIXED
      && GST_BUFFER_FLAG_IS_SET (in, GST_VIDEO_BUFFER_FLAG_INTERLACED));
  GstClFrameStats frame;
  GError *error = NULL;

  if (!out)
    out = padded_frame (info, 13, NULL);
  fail_unless (gst_cl_plan_process (plan, in, out, TRUE, &frame, &error),
      "%s: %s", what, error ? error->message : "");
  fail_unless (g_str_equal (frame.epsilon_launch, "none") ==
      (p->threshold == 0), "%s: epsilon launch %s", what, frame.epsilon_launch);
  fail_unless (g_str_equal (frame.conv_launch, "none") ==
      (p->kernel_width == 0), "%s: convolution launch %s", what,
      frame.conv_launch);
  fail_unless (frame.in_fields == fields, "%s: in fields %d", what,
      frame.in_fields);
  check_output (info, in, out, p, fields, what);
  gst_buffer_unref (out);
  if (stats)
    *stats = frame;
}

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21,
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_YUY2,
  GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I422_10LE,
  GST_VIDEO_FORMAT_Y444_10LE,
};

/* Every format and case, with the variant the tuner picks and with each
 * forced variant, on one plan per format (settings changed between
 * frames, as the element's properties do). */
GST_START_TEST (test_against_reference)
{
  GRand *rand = g_rand_new_with_seed (0x91a4);
  GstClVariant v;
  guint f, c;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoInfo info;
    GstClPlan *plan;
    GError *error = NULL;

    gst_video_info_set_format (&info, formats[f], 37, 23);
    fail_unless (gst_cl_plan_supports (&info));
    plan = gst_cl_plan_new (context, tuner, &info, 1, &error);
    fail_unless (plan != NULL, "%s", error ? error->message : "");
    for (c = 0; c < G_N_ELEMENTS (cases); c++) {
      for (v = GST_CL_VARIANT_AUTO; v <= GST_CL_VARIANT_SEPARABLE; v++) {
        GstBuffer *in = padded_frame (&info, 7, rand);
        GstClPlanSettings s;
        RefParams p;
        gchar *what;

        if (v == GST_CL_VARIANT_SEPARABLE && !cases[c].kernel)
          continue;
        make_settings (&cases[c], v, &s, &p);
        gst_cl_plan_set_settings (plan, &s);
        what = g_strdup_printf ("%s, %s, variant %s",
            gst_video_format_to_string (formats[f]), cases[c].name,
            gst_cl_variant_to_string (v));
        check_frame (plan, &info, in, NULL, &p, what, NULL);
        g_free (what);
        gst_buffer_unref (in);
      }
    }
    gst_cl_plan_free (plan);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* A crop meta: only its rectangle is filtered, the rest is the input. */
GST_START_TEST (test_crop)
{
  GRand *rand = g_rand_new_with_seed (0x77c3);
  GstClPlanSettings s;
  GstVideoInfo info;
  GstClPlan *plan;
  GstBuffer *in;
  GstVideoCropMeta *crop;
  RefParams p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 41, 29);
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  fail_unless (plan != NULL);
  make_settings (&cases[2], GST_CL_VARIANT_AUTO, &s, &p);
  p.chroma_threshold = s.chroma_threshold = 9;
  gst_cl_plan_set_settings (plan, &s);
  in = padded_frame (&info, 5, rand);
  crop = gst_buffer_add_video_crop_meta (in);
  crop->x = 5;
  crop->y = 3;
  crop->width = 21;
  crop->height = 17;
  check_frame (plan, &info, in, NULL, &p, "NV12 crop 5,3 21x17", NULL);
  gst_buffer_unref (in);
  gst_cl_plan_free (plan);
  g_rand_free (rand);
}

GST_END_TEST;

/* Interlaced frames, field by field: every format and case on an
 * interleaved stream with odd heights, crop rectangles with odd and even y
 * (one of a single row: a field with nothing to filter), frames in flight;
 * a mixed stream's frames filtered in fields only where flagged. */
static void
check_interlaced (GstVideoFormat format, GstVideoInterlaceMode mode,
    gint width, gint height, guint depth, GRand * rand)
{
  static const gint crops[][4] = { {3, 5, 20, 11}, {2, 4, 9, 1}, {0, 1, 7, 2} };
  GstVideoInfo info;
  GstClPlan *plan;
  guint c, k;

  gst_video_info_set_interlaced_format (&info, format, mode, width, height);
  plan = gst_cl_plan_new (context, tuner, &info, depth, NULL);
  fail_unless (plan != NULL);
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    for (k = 0; k <= G_N_ELEMENTS (crops); k++) {
      GstBuffer *in = padded_frame (&info, 3, rand);
      GstClPlanSettings s;
      RefParams p;
      gchar *what;

      if (k < G_N_ELEMENTS (crops)) {
        GstVideoCropMeta *crop = gst_buffer_add_video_crop_meta (in);

        crop->x = crops[k][0];
        crop->y = crops[k][1];
        crop->width = crops[k][2];
        crop->height = crops[k][3];
      }
      if (mode == GST_VIDEO_INTERLACE_MODE_MIXED && (c + k) % 2)
        GST_BUFFER_FLAG_SET (in, GST_VIDEO_BUFFER_FLAG_INTERLACED);
      make_settings (&cases[c], GST_CL_VARIANT_AUTO, &s, &p);
      gst_cl_plan_set_settings (plan, &s);
      what = g_strdup_printf ("%s %s %dx%d depth %u, %s, crop %u",
          gst_video_format_to_string (format),
          gst_video_interlace_mode_to_string (mode), width, height, depth,
          cases[c].name, k);
      check_frame (plan, &info, in, NULL, &p, what, NULL);
      g_free (what);
      gst_buffer_unref (in);
    }
  }
  gst_cl_plan_drain (plan, NULL, NULL);
  gst_cl_plan_free (plan);
}

GST_START_TEST (test_interlaced)
{
  GRand *rand = g_rand_new_with_seed (0x1f1e);
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    check_interlaced (formats[f], GST_VIDEO_INTERLACE_MODE_INTERLEAVED, 37,
        23, 1, rand);
  check_interlaced (GST_VIDEO_FORMAT_NV12, GST_VIDEO_INTERLACE_MODE_MIXED,
      36, 26, 1, rand);
  check_interlaced (GST_VIDEO_FORMAT_I420, GST_VIDEO_INTERLACE_MODE_INTERLEAVED,
      40, 31, 3, rand);
  g_rand_free (rand);
}

GST_END_TEST;

/* Which planes no stage touches, as the settings change. */
GST_START_TEST (test_untouched_planes)
{
  GstClPlanSettings s;
  GstVideoInfo info;
  GstClPlan *plan;
  RefParams p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 16, 16);
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  fail_unless (plan != NULL);
  make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
  gst_cl_plan_set_settings (plan, &s);
  fail_unless_equals_int (gst_cl_plan_untouched_planes (plan), 0x6);
  fail_if (gst_cl_plan_settings_are_identity (&s));
  s.chroma_threshold = 4;
  gst_cl_plan_set_settings (plan, &s);
  fail_unless_equals_int (gst_cl_plan_untouched_planes (plan), 0);
  s.threshold = s.chroma_threshold = 0;
  gst_cl_plan_set_settings (plan, &s);
  fail_unless_equals_int (gst_cl_plan_untouched_planes (plan), 0x7);
  fail_unless (gst_cl_plan_settings_are_identity (&s));
  gst_cl_plan_free (plan);
}

GST_END_TEST;

/* A buffer too small for the format is refused before any program is
 * built or any launch timed. */
GST_START_TEST (test_small_buffer_before_tuning)
{
  GstClPlanSettings s;
  GstVideoInfo info;
  GstClPlan *plan;
  GstBuffer *in, *out;
  GstClFrameStats frame;
  GstStructure *figures;
  GError *error = NULL;
  guint runs = G_MAXUINT;
  RefParams p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 640, 480);
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  fail_unless (plan != NULL);
  make_settings (&cases[4], GST_CL_VARIANT_AUTO, &s, &p);
  gst_cl_plan_set_settings (plan, &s);
  in = gst_buffer_new_allocate (NULL, 4096, NULL);
  out = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_if (gst_cl_plan_process (plan, in, out, FALSE, &frame, &error));
  fail_unless (error && strstr (error->message, "too small"), "%s",
      error ? error->message : "no error");
  g_clear_error (&error);
  figures = gst_cl_stats_to_structure (stats);
  fail_unless (gst_structure_get_uint (figures, "tuning-runs", &runs));
  fail_unless_equals_int (runs, 0);
  gst_structure_free (figures);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_cl_plan_free (plan);
}

GST_END_TEST;

/* A started pool of OpenCL buffers of @on for @info, as the element's
 * own. */
static GstBufferPool *
cl_pool_on (GstClContext * on, const GstVideoInfo * info)
{
  GstBufferPool *pool = gst_cl_buffer_pool_new (on, FALSE);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_video_info_to_caps (info);

  gst_buffer_pool_config_set_params (config, caps, info->size, 0, 0);
  gst_caps_unref (caps);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  return pool;
}

/* A started pool of OpenCL buffers of the test's context for @info. */
static GstBufferPool *
cl_pool (const GstVideoInfo * info)
{
  return cl_pool_on (context, info);
}

/* @in through @plan into a buffer of @pool, which it returns; the frame's
 * figures into @frame. Fails the test, naming @what and @i, where the plan
 * fails. */
static GstBuffer *
process_pooled (GstClPlan * plan, GstBufferPool * pool, GstBuffer * in,
    GstClFrameStats * frame, const gchar * what, guint i)
{
  GstBuffer *out;
  GError *error = NULL;

  fail_unless (gst_buffer_pool_acquire_buffer (pool, &out, NULL) ==
      GST_FLOW_OK);
  fail_unless (gst_cl_plan_process (plan, in, out, FALSE, frame, &error),
      "%s %u: %s", what, i, error ? error->message : "");
  return out;
}

/* An input whose planes lie in two memories of the pool: a share of one
 * buffer's luma and of another's chroma (as an element that shares its
 * input's untouched planes gives), into a buffer of the pool. Filtered to
 * the reference; on a discrete GPU its pinned memories are used in place,
 * with no copy by the CPU and no transfer from pageable memory (the
 * untouched chroma is shared on into the output). */
GST_START_TEST (test_split_input)
{
  GRand *rand = g_rand_new_with_seed (0x5b117);
  GstVideoInfo info;
  GstBufferPool *pool;
  GstBuffer *a = NULL, *b = NULL, *in, *out = NULL;
  GstClPlanSettings s;
  GstClFrameStats stats;
  GstClPlan *plan;
  GError *error = NULL;
  GstMapInfo map;
  RefParams p;
  gsize i, split;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 53, 31);
  split = GST_VIDEO_INFO_PLANE_OFFSET (&info, 1);
  pool = cl_pool (&info);
  fail_unless (gst_buffer_pool_acquire_buffer (pool, &a, NULL) == GST_FLOW_OK);
  fail_unless (gst_buffer_pool_acquire_buffer (pool, &b, NULL) == GST_FLOW_OK);
  for (i = 0; i < 2; i++) {
    fail_unless (gst_buffer_map (i ? b : a, &map, GST_MAP_WRITE));
    for (gsize j = 0; j < map.size; j++)
      map.data[j] = g_rand_int_range (rand, 0, 256);
    gst_buffer_unmap (i ? b : a, &map);
  }
  in = gst_buffer_new ();
  gst_buffer_append_memory (in, gst_memory_share (gst_buffer_peek_memory (a,
              0), 0, split));
  gst_buffer_append_memory (in, gst_memory_share (gst_buffer_peek_memory (b,
              0), split, info.size - split));

  make_settings (&cases[2], GST_CL_VARIANT_AUTO, &s, &p);
  plan = gst_cl_plan_new (context, tuner, &info, 0, &error);
  fail_unless (plan != NULL, "%s", error ? error->message : "");
  gst_cl_plan_set_settings (plan, &s);
  fail_unless (gst_buffer_pool_acquire_buffer (pool, &out, NULL) ==
      GST_FLOW_OK);
  check_frame (plan, &info, in, out, &p, "split input", &stats);
  if (!gst_cl_context_is_host_unified (context)) {
    fail_unless_equals_uint64 (stats.transfers.host_copy_bytes, 0);
    fail_unless_equals_string (stats.memory_path, "pinned");
  }
  fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
      error ? error->message : "");
  gst_cl_plan_free (plan);
  gst_buffer_unref (in);
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* Sets the coefficients of @kernel beyond its width x height, which are not
 * part of it, to @value + their index: what an element's copy of parsed
 * settings holds there is whatever its stack held. */
static void
scribble_unused_coefficients (GstClConvKernel * kernel, gdouble value)
{
  guint i;

  for (i = kernel->width * kernel->height; i < G_N_ELEMENTS (kernel->coeffs);
      i++)
    kernel->coeffs[i] = value + i;
}

/* A frame of @info from @pool, random samples from @rand. */
static GstBuffer *
random_pool_frame (GstBufferPool * pool, GRand * rand)
{
  GstBuffer *buf = NULL;
  GstMapInfo map;
  gsize i;

  fail_unless (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) ==
      GST_FLOW_OK);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int_range (rand, 0, 256);
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* The OpenCL calls the plan makes for one frame from @pool, into @pool,
 * checked against the reference of @p. */
static gulong
calls_of_frame (GstClPlan * plan, const GstVideoInfo * info,
    GstBufferPool * pool, GRand * rand, const RefParams * p, const gchar * what)
{
  GstBuffer *in = random_pool_frame (pool, rand), *out = NULL;
  gulong calls;

  fail_unless (gst_buffer_pool_acquire_buffer (pool, &out, NULL) ==
      GST_FLOW_OK);
  clfault_arm (0, CL_SUCCESS, NULL, FALSE);
  check_frame (plan, info, in, out, p, what, NULL);
  calls = clfault_calls ();
  clfault_reset ();
  gst_buffer_unref (in);
  return calls;
}

/* A kernel argument that cannot be set fails the frame with a message
 * that names it: the tenth argument of the epsilon kernel (after the two
 * planes' eight and the radius) is its threshold. */
GST_START_TEST (test_kernel_arg_named)
{
  GRand *rand = g_rand_new_with_seed (0xa5);
  GstClPlanSettings s;
  GstBufferPool *pool;
  GstVideoInfo info;
  GstClPlan *plan;
  GstBuffer *in, *out = NULL;
  GstClFrameStats frame;
  GError *error = NULL;
  RefParams p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 16);
  pool = cl_pool (&info);
  make_settings (&cases[0], GST_CL_VARIANT_PLAIN, &s, &p);
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  fail_unless (plan != NULL);
  gst_cl_plan_set_settings (plan, &s);
  calls_of_frame (plan, &info, pool, rand, &p, "first frame");
  in = random_pool_frame (pool, rand);
  fail_unless (gst_buffer_pool_acquire_buffer (pool, &out, NULL) ==
      GST_FLOW_OK);
  clfault_arm (10, CL_INVALID_ARG_VALUE, "clSetKernelArg", FALSE);
  fail_if (gst_cl_plan_process (plan, in, out, TRUE, &frame, &error));
  fail_unless_equals_int (clfault_failures (), 1);
  clfault_reset ();
  fail_unless (error != NULL);
  fail_unless (strstr (error->message,
          "clSetKernelArg (epsilon: argument 9, threshold)") != NULL,
      "%s", error->message);
  g_clear_error (&error);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_cl_plan_free (plan);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* Settings equal in every value the stages use, the kernel's unused
 * coefficients apart, given to the plan again: the next frame costs no
 * OpenCL call more than a frame with no new settings at all (compared over
 * all 225 coefficients, a kernel set again to the same text would count as
 * a new one: drained, applied and uploaded again, and every comparison
 * would read undefined memory, which memcheck flags). */
GST_START_TEST (test_same_settings_again)
{
  GRand *rand = g_rand_new_with_seed (0x5e7);
  GstClPlanSettings s, again;
  GstBufferPool *pool;
  GstVideoInfo info;
  GstClPlan *plan;
  gulong plain, repeated;
  RefParams p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 16);
  pool = cl_pool (&info);
  make_settings (&cases[2], GST_CL_VARIANT_AUTO, &s, &p);
  scribble_unused_coefficients (&s.kernel, 1.0);
  again = s;
  scribble_unused_coefficients (&again.kernel, -1000.0);
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  fail_unless (plan != NULL);
  gst_cl_plan_set_settings (plan, &s);
  calls_of_frame (plan, &info, pool, rand, &p, "first frame");
  plain = calls_of_frame (plan, &info, pool, rand, &p, "no new settings");
  gst_cl_plan_set_settings (plan, &again);
  repeated = calls_of_frame (plan, &info, pool, rand, &p, "the same again");
  fail_unless (plain > 0, "no OpenCL call counted (libclfault not in use?)");
  fail_unless_equals_uint64 (repeated, plain);
  gst_cl_plan_free (plan);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* The comparison the element makes on every property change: equal
 * whatever the unused coefficients hold, different where any value a stage
 * uses differs. */
GST_START_TEST (test_settings_equal)
{
  GstClPlanSettings a, b, changed[11];
  RefParams p;
  guint i;

  make_settings (&cases[2], GST_CL_VARIANT_AUTO, &a, &p);
  scribble_unused_coefficients (&a.kernel, 1.0);
  b = a;
  scribble_unused_coefficients (&b.kernel, -1000.0);
  fail_unless (gst_cl_plan_settings_equal (&a, &b));
  /* without a kernel, its coefficients are not compared at all */
  a.have_kernel = b.have_kernel = FALSE;
  b.kernel.coeffs[0] += 1;
  fail_unless (gst_cl_plan_settings_equal (&a, &b));
  b = a;
  b.have_kernel = TRUE;
  fail_if (gst_cl_plan_settings_equal (&a, &b));

  /* each value a stage uses, changed alone */
  a.have_kernel = TRUE;
  for (i = 0; i < G_N_ELEMENTS (changed); i++)
    changed[i] = a;
  changed[0].threshold++;
  changed[1].window_size += 2;
  changed[2].chroma_threshold++;
  changed[3].kernel.coeffs[8] += 0.5;
  changed[4].kernel.width = 1;
  changed[4].kernel.height = 9;
  changed[5].divisor = 3;
  changed[6].bias = -2;
  changed[7].epsilon_variant = GST_CL_VARIANT_TILED;
  changed[8].conv_variant = GST_CL_VARIANT_SEPARABLE;
  changed[9].dct_stage = TRUE;
  changed[10].kernel.coeffs[0] = -a.kernel.coeffs[0];
  for (i = 0; i < G_N_ELEMENTS (changed); i++)
    fail_if (gst_cl_plan_settings_equal (&a, &changed[i]), "change %u not "
        "seen", i);
}

GST_END_TEST;

/* The @n outputs of progressive frames left in flight on @plan, each
 * checked against the reference of its input for its parameters (@ps),
 * mapped in turn (a map waits for its frame); then drained, nothing holds
 * an input any more (ours is the last reference). Frees @plan and the
 * frames. */
static void
check_in_flight_outputs (GstClPlan * plan, const GstVideoInfo * info,
    GstBuffer ** ins, GstBuffer ** outs, const RefParams * ps, guint n)
{
  GError *error = NULL;
  guint i;

  for (i = 0; i < n; i++) {
    gchar *what = g_strdup_printf ("frame %u", i);

    check_output (info, ins[i], outs[i], &ps[i], FALSE, what);
    g_free (what);
  }
  fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
      error ? error->message : "");
  for (i = 0; i < n; i++) {
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (ins[i]), 1);
    gst_buffer_unref (ins[i]);
    gst_buffer_unref (outs[i]);
  }
  gst_cl_plan_free (plan);
}

/* Frames in flight (with GST_CL_DISCRETE=1, or on a discrete GPU): seven
 * frames enqueued before any output is read, from system memory and from
 * OpenCL memory, with the settings changed halfway; every output, mapped
 * afterwards (the map waits for the frame), matches the reference, and
 * the inputs come back to their pool once drained. */
GST_START_TEST (test_frames_in_flight)
{
  GRand *rand = g_rand_new_with_seed (0x3f1e);
  GstBuffer *ins[7], *outs[7];
  RefParams ps[7];
  GstClPlanSettings s;
  GstBufferPool *in_pool, *out_pool;
  GstVideoInfo info;
  GstClPlan *plan;
  GError *error = NULL;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 53, 31);
  in_pool = cl_pool (&info);
  out_pool = cl_pool (&info);
  plan = gst_cl_plan_new (context, tuner, &info, 3, &error);
  fail_unless (plan != NULL, "%s", error ? error->message : "");
  /* three asked for: one at a time only where the CPU maps frames with
   * commands */
  fail_unless_equals_int (gst_cl_plan_get_depth (plan),
      gst_cl_context_is_host_unified (context) &&
      !gst_cl_context_has_fine_svm (context) ? 1 : 3);
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    GstClFrameStats frame;
    GstMapInfo map;
    guint j;

    make_settings (&cases[i < 4 ? 0 : 2], GST_CL_VARIANT_AUTO, &s, &ps[i]);
    if (i >= 4)
      ps[i].chroma_threshold = s.chroma_threshold = 7;
    if (i == 2)
      ps[i].threshold = s.threshold = 25;       /* an argument only */
    /* settings given at frames 0, 2 and 4 only: frames 0-3 and 4-6 stay in
     * flight together (a new kernel at 4 waits for the frames before) */
    if (i == 0 || i == 2 || i == 4)
      gst_cl_plan_set_settings (plan, &s);
    if (i == 3)
      ps[i].threshold = 25;
    if (i % 2) {
      fail_unless (gst_buffer_pool_acquire_buffer (in_pool, &ins[i], NULL) ==
          GST_FLOW_OK);
    } else {
      ins[i] = gst_buffer_new_allocate (NULL, info.size, NULL);
    }
    fail_unless (gst_buffer_map (ins[i], &map, GST_MAP_WRITE));
    for (j = 0; j < map.size; j++)
      map.data[j] = g_rand_int_range (rand, 0, 256);
    gst_buffer_unmap (ins[i], &map);
    outs[i] = process_pooled (plan, out_pool, ins[i], &frame, "frame", i);
    /* in flight: on a discrete GPU every frame; in SVM only those from
     * the pool (the kernels read system memory in place) */
    if (gst_cl_plan_get_depth (plan) > 1 && (i % 2 ||
            !gst_cl_context_is_host_unified (context))) {
      /* what a map of the output will wait for */
      cl_event pending =
          gst_cl_memory_get_pending (gst_buffer_peek_memory (outs[i], 0));

      fail_unless (pending != NULL, "frame %u: nothing to wait for", i);
      clReleaseEvent (pending);
    }
    /* system memory is copied to pinned memory and let go at once; OpenCL
     * memory is held while its upload is in flight */
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (ins[i]),
        gst_cl_plan_get_depth (plan) > 1 && i % 2 ? 2 : 1);
  }
  check_in_flight_outputs (plan, &info, ins, outs, ps, G_N_ELEMENTS (ins));
  gst_buffer_pool_set_active (in_pool, FALSE);
  gst_buffer_pool_set_active (out_pool, FALSE);
  gst_object_unref (in_pool);
  gst_object_unref (out_pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* Waits until nothing but the caller holds @in (30 s at most). */
static void
wait_let_go (GstBuffer * in)
{
  gint64 until = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (GST_MINI_OBJECT_REFCOUNT_VALUE (in) > 1 &&
      g_get_monotonic_time () < until)
    g_usleep (200);
  fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (in), 1);
}

/* Whether @plan, on @on, holds frames of @in's size pinned once their
 * memory comes back: with GST_CL_DISCRETE=1 any size; on NVIDIA 8 MiB or
 * more (not the test's frames); never where frames are not in flight. */
static gboolean
pins_frames (GstClContext * on, GstClPlan * plan, GstBuffer * in)
{
  gsize min_size = gst_cl_context_get_host_pin_min_size (on);

  return min_size > 0 && min_size <= gst_buffer_get_size (in) &&
      gst_cl_plan_get_depth (plan) > 1;
}

/* Frames large enough that their staging copy is split over threads, from
 * system memory, in flight: the first plane of each is copied on the copy
 * threads while the frame is enqueued (its uploads wait for that copy), the
 * others at once; rows padded, chroma filtered too, every other frame
 * cropped (the CPU copies the rest of the plane from the staged one). Every
 * output matches the reference whatever the copies' timing; each input is
 * let go of once copied, before any output is mapped (the last three still
 * in their slots), and drained, nothing holds one. */
GST_START_TEST (test_staging_copy_in_flight)
{
  GRand *rand = g_rand_new_with_seed (0x57a9);
  GstBuffer *ins[4], *outs[4], *saved[4];
  RefParams p, ps[4];
  GstClPlanSettings s;
  GstBufferPool *out_pool;
  GstVideoInfo info;
  GstClPlan *plan;
  GError *error = NULL;
  gboolean staged;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 1024, 512);
  out_pool = cl_pool (&info);
  plan = gst_cl_plan_new (context, tuner, &info, 3, &error);
  fail_unless (plan != NULL, "%s", error ? error->message : "");
  staged = gst_cl_plan_get_depth (plan) > 1 &&
      !gst_cl_context_is_host_unified (context);
  make_settings (&cases[1], GST_CL_VARIANT_AUTO, &s, &p);
  gst_cl_plan_set_settings (plan, &s);
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    GstClFrameStats frame;

    ins[i] = padded_frame (&info, 24, rand);
    if (i % 2) {
      GstVideoCropMeta *crop = gst_buffer_add_video_crop_meta (ins[i]);

      crop->x = 6 * i;
      crop->y = 10;
      crop->width = 700;
      crop->height = 301;
    }
    saved[i] = gst_buffer_copy_deep (ins[i]);
    outs[i] = process_pooled (plan, out_pool, ins[i], &frame, "frame", i);
    if (!staged)
      continue;
    /* the three planes (none is untouched) through staging, and the CPU's
     * copies around a crop rectangle; luma (half a megabyte: two threads or
     * more) beside this thread */
    if (i % 2 == 0) {
      fail_unless_equals_uint64 (frame.transfers.host_copy_bytes,
          (guint64) 1024 * 512 * 3 / 2);
    } else {
      fail_unless (frame.transfers.host_copy_bytes >
          (guint64) 1024 * 512 * 3 / 2, "frame %u: no copy around the crop "
          "by the CPU", i);
    }
    if (g_get_num_processors () > 1)
      fail_unless_equals_uint64 (frame.transfers.host_copy_started_bytes,
          (guint64) 1024 * 512);
  }
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    /* the copy threads finish on their own: nothing here waits for them */
    wait_let_go (ins[i]);
    /* let go of: whatever it holds now reaches no output */
    gst_buffer_memset (ins[i], 0, 0xff, gst_buffer_get_size (ins[i]));
    gst_buffer_unref (ins[i]);
    ins[i] = saved[i];
    ps[i] = p;
  }
  check_in_flight_outputs (plan, &info, ins, outs, ps, G_N_ELEMENTS (ins));
  gst_buffer_pool_set_active (out_pool, FALSE);
  gst_object_unref (out_pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* Whether the frame written into @out is done (nothing pending, or its
 * event complete). */
static gboolean
output_done (GstBuffer * out)
{
  cl_event pending = gst_cl_memory_get_pending (gst_buffer_peek_memory (out,
          0));
  cl_int status = CL_COMPLETE;

  if (!pending)
    return TRUE;
  fail_unless (clGetEventInfo (pending, CL_EVENT_COMMAND_EXECUTION_STATUS,
          sizeof (status), &status, NULL) == CL_SUCCESS);
  clReleaseEvent (pending);
  return status == CL_COMPLETE;
}

/* Frames of @format from system memory that comes back (a ring of three,
 * each filled anew before each use), in flight, with @c's settings; a crop
 * rectangle on frames 4 and 7 (the CPU copies the rest), a drain
 * straight after frame 5. Where the context holds such frames pinned
 * (GST_CL_DISCRETE=1: any size) each memory is staged the first time (host
 * copies) and, from the second, held pinned and uploaded where it is (no
 * host copy, "pinned"); on another discrete device (NVIDIA: these are
 * under its size) every frame is staged and nothing is pinned. Every input is let go of once its frame is done, and by then
 * only (the output's event complete), by the element's own thread with no
 * later frame (upstream's pool may have no other buffer); what is written
 * into it then reaches no output; every output matches the reference of
 * its input as it was; the memories' wrappings go with them. */
static void
check_host_pinned (GstVideoFormat format, const Case * c, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  GstBuffer *ring[3], *ins[9], *outs[9];
  RefParams p, ps[9];
  GstClPlanSettings s;
  GstBufferPool *out_pool;
  GstVideoInfo info;
  GstClPlan *plan;
  GError *error = NULL;
  guint i, pins = gst_cl_host_pin_count ();
  gboolean pinning;

  gst_video_info_set_format (&info, format, 333, 199);
  out_pool = cl_pool (&info);
  plan = gst_cl_plan_new (context, tuner, &info, 3, &error);
  fail_unless (plan != NULL, "%s", error ? error->message : "");
  make_settings (c, GST_CL_VARIANT_AUTO, &s, &p);
  gst_cl_plan_set_settings (plan, &s);
  for (i = 0; i < G_N_ELEMENTS (ring); i++)
    ring[i] = padded_frame (&info, 24, rand);
  pinning = pins_frames (context, plan, ring[0]);
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    GstBuffer *in = ring[i % 3];
    GstClFrameStats frame;
    GstVideoCropMeta *crop;
    GstMapInfo map;
    gsize j;

    fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
    for (j = 0; j < map.size; j++)
      map.data[j] = g_rand_int_range (rand, 0, 256);
    gst_buffer_unmap (in, &map);
    while ((crop = gst_buffer_get_video_crop_meta (in)))
      gst_buffer_remove_meta (in, (GstMeta *) crop);
    if (i == 4 || i == 7) {
      crop = gst_buffer_add_video_crop_meta (in);
      crop->x = 5 + i;
      crop->y = 9;
      crop->width = 200;
      crop->height = 101;
    }
    ins[i] = gst_buffer_copy_deep (in);
    ps[i] = p;
    outs[i] = process_pooled (plan, out_pool, in, &frame, "frame", i);
    if (pinning && i >= 3 && i != 4 && i != 7) {
      fail_unless_equals_string (frame.memory_path, "pinned");
      fail_unless_equals_uint64 (frame.transfers.host_copy_bytes, 0);
    } else if (gst_cl_plan_get_depth (plan) > 1 &&
        !gst_cl_context_is_host_unified (context) && (i < 3 || !pinning)) {
      /* the first lap, or every frame where not held pinned: staged */
      fail_unless (frame.transfers.host_copy_bytes > 0, "frame %u: not "
          "staged", i);
    }
    /* the retire, not a thread, may let go of it then */
    if (i == 5)
      fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
          error ? error->message : "");
    /* nothing here but the wait */
    wait_let_go (in);
    /* (a staged input goes once copied) */
    fail_unless (!pinning || i < 3 || output_done (outs[i]), "frame %u: its "
        "input let go of before it was done", i);
    /* what upstream writes now reaches no output */
    gst_buffer_memset (in, 0, 0xff, gst_buffer_get_size (in));
  }
  fail_unless_equals_int (gst_cl_host_pin_count (), pins + (pinning ? 3 : 0));
  for (i = 0; i < G_N_ELEMENTS (ring); i++)
    gst_buffer_unref (ring[i]);
  fail_unless_equals_int (gst_cl_host_pin_count (), pins);
  check_in_flight_outputs (plan, &info, ins, outs, ps, G_N_ELEMENTS (ins));
  gst_buffer_pool_set_active (out_pool, FALSE);
  gst_object_unref (out_pool);
  g_rand_free (rand);
}

/* Memories read in turn by plans on sibling contexts (elements of one
 * device after a tee: one OpenCL context, queues of their own) and on a
 * context of its own (another OpenCL context), as the schedule below
 * says: a memory is staged the first time each plan sees it (seen once by
 * each is not a memory that comes back: wrapping it would cost more than
 * the copy), wrapped the second time one plan sees it, whichever saw it
 * first, and then read where it is by the siblings, in that one wrapping;
 * the other context stages it every time. Every output matches the
 * reference. */
GST_START_TEST (test_host_pinned_siblings)
{
  static const struct
  {
    guint memory, plan;
    gboolean pinned;
  } frames[] = {
    {0, 0, FALSE}, {0, 1, FALSE}, {0, 0, TRUE}, {0, 1, TRUE}, {0, 2, FALSE},
    {0, 2, FALSE}, {1, 0, FALSE}, {1, 1, FALSE}, {1, 1, TRUE}, {1, 0, TRUE},
  };
  GRand *rand = g_rand_new_with_seed (0x51b1);
  GstClContext *contexts[3];
  GstClTuner *tuners[3];
  GstClPlan *plans[3];
  GstBufferPool *out_pools[3];
  GstBuffer *ins[2], *outs[G_N_ELEMENTS (frames)];
  GstClPlanSettings s;
  GstVideoInfo info;
  RefParams p;
  guint i, pins = gst_cl_host_pin_count ();
  gboolean pinning;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 261, 87);
  contexts[0] = gst_object_ref (context);
  contexts[1] = gst_cl_context_new_sibling (context, NULL);
  contexts[2] = gst_cl_context_new (g_getenv ("CLEPSILON_TEST_DEVICE") ?
      g_getenv ("CLEPSILON_TEST_DEVICE") : "pocl", NULL);
  fail_unless (contexts[1] != NULL && contexts[2] != NULL);
  fail_if (gst_cl_context_is_sibling (contexts[2], context));
  make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
  for (i = 0; i < G_N_ELEMENTS (plans); i++) {
    out_pools[i] = cl_pool_on (contexts[i], &info);
    tuners[i] = gst_cl_tuner_new (contexts[i], stats);
    plans[i] = gst_cl_plan_new (contexts[i], tuners[i], &info, 3, NULL);
    fail_unless (plans[i] != NULL);
    gst_cl_plan_set_settings (plans[i], &s);
  }
  for (i = 0; i < G_N_ELEMENTS (ins); i++)
    ins[i] = padded_frame (&info, 8, rand);
  pinning = pins_frames (context, plans[0], ins[0]);
  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    GstClPlan *plan = plans[frames[i].plan];
    GstBuffer *in = ins[frames[i].memory];
    GstClFrameStats frame;

    outs[i] = process_pooled (plan, out_pools[frames[i].plan], in, &frame,
        "frame", i);
    if (pinning && frames[i].pinned) {
      fail_unless_equals_string (frame.memory_path, "pinned");
    } else if (gst_cl_plan_get_depth (plan) > 1 &&
        !gst_cl_context_is_host_unified (context)) {
      fail_unless (frame.transfers.host_copy_bytes > 0, "frame %u: not "
          "staged", i);
    }
    wait_let_go (in);
  }
  fail_unless_equals_int (gst_cl_host_pin_count (), pins + (pinning ? 2 : 0));
  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    gchar *what = g_strdup_printf ("frame %u", i);

    check_output (&info, ins[frames[i].memory], outs[i], &p, FALSE, what);
    gst_buffer_unref (outs[i]);
    g_free (what);
  }
  for (i = 0; i < G_N_ELEMENTS (plans); i++) {
    fail_unless (gst_cl_plan_drain (plans[i], NULL, NULL));
    gst_cl_plan_free (plans[i]);
    gst_cl_tuner_free (tuners[i]);
    gst_buffer_pool_set_active (out_pools[i], FALSE);
    gst_object_unref (out_pools[i]);
    gst_object_unref (contexts[i]);
  }
  for (i = 0; i < G_N_ELEMENTS (ins); i++)
    gst_buffer_unref (ins[i]);
  fail_unless_equals_int (gst_cl_host_pin_count (), pins);
  g_rand_free (rand);
}

GST_END_TEST;

/* One memory held pinned by a context (an element) that then goes away
 * with its OpenCL context, and read by a context of another (the next
 * pipeline, the memory an application's ring): the old wrapping is let go
 * of (it kept the old OpenCL context alive) at the first sight, and the
 * memory wrapped anew at the second, for the new context. */
GST_START_TEST (test_host_pinned_context_gone)
{
  const gchar *device = g_getenv ("CLEPSILON_TEST_DEVICE");
  GRand *rand = g_rand_new_with_seed (0x90e);
  GstVideoInfo info;
  GstBuffer *in;
  RefParams p;
  guint k, i, pins = gst_cl_host_pin_count ();
  gboolean pinning = FALSE;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 130, 66);
  in = padded_frame (&info, 8, rand);
  for (k = 0; k < 2; k++) {
    GstClContext *own = gst_cl_context_new (device ? device : "pocl", NULL);
    GstClTuner *own_tuner = gst_cl_tuner_new (own, stats);
    GstBufferPool *out_pool = cl_pool_on (own, &info);
    GstClPlan *plan = gst_cl_plan_new (own, own_tuner, &info, 3, NULL);
    GstClPlanSettings s;

    fail_unless (plan != NULL);
    make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
    gst_cl_plan_set_settings (plan, &s);
    pinning = pins_frames (own, plan, in);
    for (i = 0; i < 2; i++) {
      GstClFrameStats frame;
      GstBuffer *out = process_pooled (plan, out_pool, in, &frame,
          k ? "the new context, frame" : "the first context, frame", i);

      if (pinning)
        fail_unless_equals_string (frame.memory_path, i ? "pinned" : "copy");
      /* the old context's wrapping gone at the new one's first sight */
      fail_unless_equals_int (gst_cl_host_pin_count (), pins +
          (pinning && i ? 1 : 0));
      check_output (&info, in, out, &p, FALSE, "context gone");
      wait_let_go (in);
      gst_buffer_unref (out);
    }
    fail_unless (gst_cl_plan_drain (plan, NULL, NULL));
    gst_cl_plan_free (plan);
    gst_cl_tuner_free (own_tuner);
    gst_buffer_pool_set_active (out_pool, FALSE);
    gst_object_unref (out_pool);
    gst_object_unref (own);
  }
  gst_buffer_unref (in);
  fail_unless_equals_int (gst_cl_host_pin_count (), pins);
  g_rand_free (rand);
}

GST_END_TEST;

/* A memory whose wrapping fails (clCreateBuffer refused at its second
 * sight): staged that time and every time after, never wrapped again
 * (nothing pinned), every output right. */
GST_START_TEST (test_host_pin_refused)
{
  GRand *rand = g_rand_new_with_seed (0x7a1);
  GstBufferPool *out_pool;
  GstVideoInfo info;
  GstClPlanSettings s;
  GstClPlan *plan;
  GstBuffer *in;
  RefParams p;
  guint i, pins = gst_cl_host_pin_count ();
  gboolean pinning;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 98, 54);
  out_pool = cl_pool (&info);
  plan = gst_cl_plan_new (context, tuner, &info, 3, NULL);
  fail_unless (plan != NULL);
  make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
  gst_cl_plan_set_settings (plan, &s);
  in = padded_frame (&info, 8, rand);
  pinning = pins_frames (context, plan, in);
  for (i = 0; i < 4; i++) {
    GstClFrameStats frame;
    GstBuffer *out;
    GError *error = NULL;

    fail_unless (gst_buffer_pool_acquire_buffer (out_pool, &out, NULL) ==
        GST_FLOW_OK);
    /* (elsewhere a frame may make buffers of its own: nothing refused) */
    if (i == 1 && pinning)
      clfault_arm (1, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer",
          FALSE);
    fail_unless (gst_cl_plan_process (plan, in, out, FALSE, &frame, &error),
        "frame %u: %s", i, error ? error->message : "");
    if (i == 1 && pinning)
      fail_unless_equals_int (clfault_failures (), 1);
    clfault_reset ();
    fail_if (g_strcmp0 (frame.memory_path, "pinned") == 0, "frame %u", i);
    fail_unless_equals_int (gst_cl_host_pin_count (), pins);
    check_output (&info, in, out, &p, FALSE, "wrapping refused");
    wait_let_go (in);
    gst_buffer_unref (out);
  }
  fail_unless (gst_cl_plan_drain (plan, NULL, NULL));
  gst_cl_plan_free (plan);
  gst_buffer_unref (in);
  gst_buffer_pool_set_active (out_pool, FALSE);
  gst_object_unref (out_pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* check_host_pinned(): I420 with chroma filtered (every plane uploaded
 * from the input), NV12 with chroma untouched (copied by DMA through the
 * device from the input). */
GST_START_TEST (test_host_pinned_in_flight)
{
  check_host_pinned (GST_VIDEO_FORMAT_I420, &cases[1], 0x9172);
  check_host_pinned (GST_VIDEO_FORMAT_NV12, &cases[0], 0x9173);
}

GST_END_TEST;

/* A frame whose upload, or first kernel, cannot be enqueued after its
 * staging copy started on the copy threads: the frame fails, having waited
 * for the copy (its input let go of when it returns, nothing left waiting
 * on the copy's event); the frame in flight before it, and the next one
 * (in the failed frame's slot), are right. Where the copy's user event
 * cannot be made, the frame is copied on this thread, and right. */
GST_START_TEST (test_staging_copy_failed)
{
  static const struct
  {
    const gchar *call;
    gboolean fails;
  } faults[] = {
    {"clEnqueueWriteBuffer", TRUE}, {"clEnqueueNDRangeKernel", TRUE},
    {"clCreateUserEvent", FALSE},
  };
  const guint64 luma = 1024 * 512;
  GRand *rand = g_rand_new_with_seed (0x3b1d);
  GstBufferPool *out_pool;
  GstVideoInfo info;
  guint c;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 1024, 512);
  out_pool = cl_pool (&info);
  for (c = 0; c < G_N_ELEMENTS (faults); c++) {
    GstClPlan *plan = gst_cl_plan_new (context, tuner, &info, 3, NULL);
    GstBuffer *ins[3], *outs[3];
    GstClPlanSettings s;
    GstClFrameStats frame;
    GError *error = NULL;
    RefParams p;
    guint i;

    fail_unless (plan != NULL);
    /* nothing staged where the device works on host memory */
    if (gst_cl_plan_get_depth (plan) == 1 ||
        gst_cl_context_is_host_unified (context)) {
      gst_cl_plan_free (plan);
      break;
    }
    make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
    gst_cl_plan_set_settings (plan, &s);
    for (i = 0; i < 3; i++) {
      ins[i] = padded_frame (&info, 8, rand);
      fail_unless (gst_buffer_pool_acquire_buffer (out_pool, &outs[i],
              NULL) == GST_FLOW_OK);
    }
    fail_unless (gst_cl_plan_process (plan, ins[0], outs[0], FALSE, &frame,
            &error), "%s", error ? error->message : "");
    clfault_arm (1, CL_OUT_OF_RESOURCES, faults[c].call, FALSE);
    fail_unless (gst_cl_plan_process (plan, ins[1], outs[1], FALSE, &frame,
            &error) != faults[c].fails, "%s: %s", faults[c].call,
        error ? error->message : "the frame did not fail");
    fail_unless_equals_int (clfault_failures (), 1);
    clfault_reset ();
    /* the copy went beside this thread, but where the event failed */
    if (g_get_num_processors () > 1)
      fail_unless_equals_uint64 (frame.transfers.host_copy_started_bytes,
          faults[c].fails ? luma : 0);
    if (faults[c].fails) {
      fail_unless (strstr (error->message, faults[c].call) != NULL, "%s",
          error->message);
      g_clear_error (&error);
      fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (ins[1]), 1);
    }
    fail_unless (gst_cl_plan_process (plan, ins[2], outs[2], FALSE, &frame,
            &error), "%s, the next frame: %s", faults[c].call,
        error ? error->message : "");
    check_output (&info, ins[0], outs[0], &p, FALSE, faults[c].call);
    if (!faults[c].fails)
      check_output (&info, ins[1], outs[1], &p, FALSE, faults[c].call);
    check_output (&info, ins[2], outs[2], &p, FALSE, faults[c].call);
    fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
        error ? error->message : "");
    for (i = 0; i < 3; i++) {
      fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (ins[i]), 1);
      gst_buffer_unref (ins[i]);
      gst_buffer_unref (outs[i]);
    }
    gst_cl_plan_free (plan);
  }
  gst_buffer_pool_set_active (out_pool, FALSE);
  gst_object_unref (out_pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* One frame that went through a real JPEG encoder at low quality, from
 * GStreamer's own elements, in system memory (I420 @width x @height). */
static GstBuffer *
jpeg_frame (gint width, gint height, GstVideoInfo * info)
{
  gchar *desc = g_strdup_printf ("videotestsrc pattern=zone-plate kx2=20 "
      "ky2=20 kt=1 num-buffers=1 ! video/x-raw,format=I420,width=%d,height=%d "
      "! jpegenc quality=12 ! jpegdec ! video/x-raw,format=I420 ! appsink "
      "name=sink", width, height);
  /* an element missing is NULL, not a pipeline that never prerolls */
  GstElement *pipeline = gst_parse_launch_full (desc, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, NULL);
  GstElement *sink;
  GstSample *sample;
  GstBuffer *buf;

  g_free (desc);
  if (!pipeline)
    return NULL;
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  g_signal_emit_by_name (sink, "pull-sample", &sample);
  fail_unless (sample != NULL);
  fail_unless (gst_video_info_from_caps (info, gst_sample_get_caps (sample)));
  buf = gst_buffer_copy_deep (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return buf;
}

/* One frame @in of @mode through a new plan at strength=auto (the buffer
 * flag INTERLACED set where @flagged); its three planes, rows packed, into
 * @out[0..2]; returns luma's threshold. */
static guint
process_auto (GstVideoInterlaceMode mode, gboolean flagged, GstBuffer * in,
    gint w, gint h, guint8 ** out)
{
  GstClPlanSettings s;
  GstVideoInfo info;
  GstClPlan *plan;
  GstBuffer *outbuf;
  GstClFrameStats frame;
  GstVideoFrame fout;
  RefParams p;
  gint c, y;

  gst_video_info_set_interlaced_format (&info, GST_VIDEO_FORMAT_I420, mode,
      w, h);
  in = gst_buffer_make_writable (gst_buffer_ref (in));
  if (flagged)
    GST_BUFFER_FLAG_SET (in, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  else
    GST_BUFFER_FLAG_UNSET (in, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  outbuf = gst_buffer_new_allocate (NULL, info.size, NULL);
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  fail_unless (plan != NULL);
  make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
  s.dct_stage = TRUE;
  gst_cl_plan_set_settings (plan, &s);
  fail_unless (gst_cl_plan_process (plan, in, outbuf, FALSE, &frame, NULL));
  fail_unless (gst_video_frame_map (&fout, &info, outbuf, GST_MAP_READ));
  for (c = 0; c < 3; c++) {
    const gint cw = c ? w / 2 : w, ch = c ? h / 2 : h;

    for (y = 0; y < ch; y++)
      memcpy (out[c] + y * cw, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout,
              c) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, c), cw);
  }
  gst_video_frame_unmap (&fout);
  gst_buffer_unref (outbuf);
  gst_buffer_unref (in);
  gst_cl_plan_free (plan);
  return frame.auto_threshold;
}

/* Fills plane @c of @f with fields coded apart: each field's rows quantized
 * on its own 8x8 grid at @step. */
static void
fill_field_coded (GRand * rand, GstVideoFrame * f, guint c, gint step)
{
  const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (f, c);
  guint8 *p = GST_VIDEO_FRAME_PLANE_DATA (f, c);
  const gint w = GST_VIDEO_FRAME_COMP_WIDTH (f, c);
  const gint h = GST_VIDEO_FRAME_COMP_HEIGHT (f, c);

  dct_fill_quantized (rand, p, 2 * stride, w, h / 2, step);
  dct_fill_quantized (rand, p + stride, 2 * stride, w, h / 2, step);
}

/* Whether @got (rows packed) holds plane @c of @f as it is. */
static gboolean
plane_as_it_is (const guint8 * got, GstVideoFrame * f, guint c)
{
  const gint w = GST_VIDEO_FRAME_COMP_WIDTH (f, c);
  gint y;

  for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (f, c); y++)
    if (memcmp (got + y * w, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, c) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (f, c), w) != 0)
      return FALSE;
  return TRUE;
}

/* strength=auto on an interlaced frame whose planes are coded field by
 * field (each field's own grid quantized): the frame's grid shows no
 * lattice, its luma's macroblocks' histogram does, and luma's threshold is
 * that one's, the stage on each field alone; chroma, whose 4:2:0 blocks MPEG-2 codes as frames, is not
 * read by macroblock and is copied. The same for a frame of a mixed
 * stream flagged interlaced; one not flagged, and the frame declared
 * progressive, are left as they are. */
GST_START_TEST (test_strength_auto_interlaced)
{
  const gint w = 176, h = 144;
  GRand *rand = g_rand_new_with_seed (77);
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  GstClDctAutoParams params;
  GstVideoInfo info;
  GstVideoFrame fin;
  GstBuffer *in;
  guint8 *expected, *got[3];
  guint mb_threshold, c;
  gint stride;

  gst_video_info_set_interlaced_format (&info, GST_VIDEO_FORMAT_I420,
      GST_VIDEO_INTERLACE_MODE_INTERLEAVED, w, h);
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_WRITE));
  for (c = 0; c < 3; c++)
    fill_field_coded (rand, &fin, c, 72);
  gst_cl_dct_auto_params_init (&params);
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0);
  ref_dct_histogram (GST_VIDEO_FRAME_PLANE_DATA (&fin, 0), stride, w, h, hist);
  fail_unless_equals_int (gst_cl_dct_frame_threshold (hist, &params), 0);
  ref_dct_histogram_mb (GST_VIDEO_FRAME_PLANE_DATA (&fin, 0), stride, w, h,
      hist);
  mb_threshold = gst_cl_dct_frame_threshold (hist, &params);
  fail_unless (mb_threshold > 0, "the macroblocks show no lattice");
  /* chroma would be filtered, were it read by macroblock */
  ref_dct_histogram_mb (GST_VIDEO_FRAME_PLANE_DATA (&fin, 1),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 1), w / 2, h / 2, hist);
  fail_unless (gst_cl_dct_frame_threshold (hist, &params) > 0);
  expected = g_malloc ((gsize) w * h);
  ref_dct_threshold_fields (GST_VIDEO_FRAME_PLANE_DATA (&fin, 0), stride,
      expected, w, w, h, mb_threshold, GST_CL_DCT_MAX_PASSES);
  for (c = 0; c < 3; c++)
    got[c] = g_malloc ((gsize) w * h);

  fail_unless_equals_int (process_auto (GST_VIDEO_INTERLACE_MODE_INTERLEAVED,
          FALSE, in, w, h, got), mb_threshold);
  fail_unless (memcmp (got[0], expected, (gsize) w * h) == 0);
  fail_unless (plane_as_it_is (got[1], &fin, 1) &&
      plane_as_it_is (got[2], &fin, 2), "chroma filtered");
  fail_unless_equals_int (process_auto (GST_VIDEO_INTERLACE_MODE_MIXED, TRUE,
          in, w, h, got), mb_threshold);
  fail_unless (memcmp (got[0], expected, (gsize) w * h) == 0);
  fail_unless_equals_int (process_auto (GST_VIDEO_INTERLACE_MODE_MIXED, FALSE,
          in, w, h, got), 0);
  fail_unless (plane_as_it_is (got[0], &fin, 0));
  fail_unless_equals_int (process_auto (GST_VIDEO_INTERLACE_MODE_PROGRESSIVE,
          FALSE, in, w, h, got), 0);
  fail_unless (plane_as_it_is (got[0], &fin, 0), "the progressive frame's "
      "luma changed");

  gst_video_frame_unmap (&fin);
  gst_buffer_unref (in);
  g_free (expected);
  for (c = 0; c < 3; c++)
    g_free (got[c]);
  g_rand_free (rand);
}

GST_END_TEST;

/* strength=auto on a frame that went through jpegenc: the threshold of the
 * lattice read off the CPU reference's histogram, luma thresholded as the
 * CPU reference does at that strength, chroma (flat in a zone plate: no
 * lattice of its own) as it came; then a frame with
 * no coding takes hold_gain_untold_late / 16 of it (held: no distance between
 * intra frames known yet), and a plan for a new format
 * starts without one. */
GST_START_TEST (test_strength_auto)
{
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  GstClPlanSettings s;
  GstVideoInfo info;
  GstClPlan *plan;
  GstBuffer *in;
  RefParams p;
  guint frame_n, found = 0;

  in = jpeg_frame (160, 120, &info);
  if (!in) {
    GST_WARNING ("no videotestsrc, jpegenc or jpegdec: skipping");
    return;
  }
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  fail_unless (plan != NULL);
  make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
  s.dct_stage = TRUE;
  gst_cl_plan_set_settings (plan, &s);
  fail_if (gst_cl_plan_settings_are_identity (&s));
  /* I420's chroma planes get the stage too, each with its own estimate */
  fail_unless_equals_int (gst_cl_plan_untouched_planes (plan), 0);

  for (frame_n = 0; frame_n < 2; frame_n++) {
    GstVideoFrame fin, fout;
    GstBuffer *out = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstClFrameStats frame;
    guint8 *expected;
    guint threshold, own, i;
    gint x, y;

    if (frame_n == 1) {
      /* no comb at all: a flat frame with noise of one level */
      GstMapInfo map;

      gst_buffer_map (in, &map, GST_MAP_WRITE);
      for (i = 0; i < map.size; i++)
        map.data[i] = 100 + (i * 7919 % 3);
      gst_buffer_unmap (in, &map);
    }
    fail_unless (gst_cl_plan_process (plan, in, out, FALSE, &frame, NULL));
    /* only the DCT stage and its histogram run: their kernels' time is
     * the frame's device time */
    fail_unless (g_str_equal (frame.epsilon_launch, "none") &&
        g_str_equal (frame.conv_launch, "none"));
    fail_unless (frame.device_ms > 0, "frame %u: the DCT kernels' time "
        "left out of device_ms", frame_n);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    ref_dct_histogram (GST_VIDEO_FRAME_PLANE_DATA (&fin, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0), 160, 120, hist);
    {
      GstClDctAutoParams params;

      gst_cl_dct_auto_params_init (&params);
      own = gst_cl_dct_frame_threshold (hist, &params);
    }
    if (frame_n == 0)
      fail_unless (own > 0, "jpegenc quality=12 left no lattice to find");
    else
      fail_unless (own == 0, "a flat frame has a lattice: %u", own);
    threshold = frame.auto_threshold;
    fail_unless (threshold > 0, "frame %u: no threshold", frame_n);
    if (frame_n == 0) {
      fail_unless_equals_int (threshold, own);
    } else {
      fail_unless_equals_int (threshold, (found *
              GST_CL_DCT_DEFAULT_HOLD_GAIN_UNTOLD_LATE + 8) >> 4);
    }
    found = threshold;
    expected = g_malloc (160 * 120);
    ref_dct_threshold_plane (GST_VIDEO_FRAME_PLANE_DATA (&fin, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0), expected, 160, 160, 120,
        threshold, GST_CL_DCT_MAX_PASSES);
    for (y = 0; y < 120; y++)
      for (x = 0; x < 160; x++) {
        guint got = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, 0))[y *
            GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0) + x];

        fail_unless (got == expected[y * 160 + x], "frame %u, luma at %d,%d: "
            "%u, reference %u (threshold %u)", frame_n, x, y, got,
            expected[y * 160 + x], threshold);
      }
    for (i = 1; i < 3; i++)
      for (y = 0; y < 60; y++)
        fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, i) +
                y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, i),
                (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, i) +
                y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, i), 80) == 0);
    g_free (expected);
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
    gst_buffer_unref (out);
  }
  /* a drain (EOS, a flushing seek) forgets the step held */
  fail_unless (gst_cl_plan_drain (plan, NULL, NULL));
  {
    GstBuffer *out = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstClFrameStats frame;

    fail_unless (gst_cl_plan_process (plan, in, out, FALSE, &frame, NULL));
    fail_unless_equals_int (frame.auto_threshold, 0);
    gst_buffer_unref (out);
  }
  gst_cl_plan_free (plan);

  /* a new plan (new caps) holds no step: the flat frame is left as it is */
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  gst_cl_plan_set_settings (plan, &s);
  {
    GstBuffer *out = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstClFrameStats frame;
    GstMapInfo a, b;

    fail_unless (gst_cl_plan_process (plan, in, out, FALSE, &frame, NULL));
    fail_unless_equals_int (frame.auto_threshold, 0);
    gst_buffer_map (in, &a, GST_MAP_READ);
    gst_buffer_map (out, &b, GST_MAP_READ);
    fail_unless (memcmp (a.data, b.data, info.offset[1]) == 0);
    gst_buffer_unmap (out, &b);
    gst_buffer_unmap (in, &a);
    gst_buffer_unref (out);
  }
  gst_cl_plan_free (plan);
  gst_buffer_unref (in);
}

GST_END_TEST;

/* Component @c's first sample in @frame: the second of an interleaved pair
 * half its pixel stride in (GStreamer 1.22's poffset of P010's V is 1, a
 * byte, where its samples are words). */
static guint8 *
comp_data (GstVideoFrame * frame, guint c)
{
  return (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame,
      GST_VIDEO_FRAME_COMP_PLANE (frame, c)) +
      (GST_VIDEO_FRAME_COMP_POFFSET (frame, c) > 0 ?
      GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c) / 2 : 0);
}

/* An NV12 or P010 frame (@info) whose components are coded at steps of
 * their own (@steps, quarter levels; 0: a plane that shows no coding, a
 * ramp and an edge with noise), the stream's picture type @type and
 * quantiser 4 on it. P010 holds 4 times the 8-bit pattern (the same
 * coefficients: kernels/dct.cl), bits of a pattern below the value. */
static GstBuffer *
interleaved_coded (const GstVideoInfo * info, GRand * rand,
    const gint * steps, GstClPictureType type)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstClCodingInfo coding = { GST_CL_CODEC_MPEG12, type, GST_CL_FIELD_FRAME,
    1, 4.0
  };
  GstVideoFrame frame;
  guint c;

  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  for (c = 0; c < 3; c++) {
    guint8 *data = comp_data (&frame, c);
    const gint stride = GST_VIDEO_FRAME_COMP_STRIDE (&frame, c);
    const gint step = GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c);
    const gint w = GST_VIDEO_FRAME_COMP_WIDTH (&frame, c);
    const gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, c);
    guint8 *p = g_malloc ((gsize) w * h);
    gint x, y;

    dct_fill_plane (rand, p, w, w, h, 6);
    if (steps[c])
      dct_fill_quantized (rand, p, w, w, h, steps[c]);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        guint8 *at = data + y * stride + x * step;

        if (GST_VIDEO_FRAME_COMP_DEPTH (&frame, c) == 8)
          *at = p[y * w + x];
        else
          GST_WRITE_UINT16_LE (at, (p[y * w + x] << 8) | ((x * 7 + y * 13) &
                  63));
      }
    g_free (p);
  }
  gst_video_frame_unmap (&frame);
  gst_buffer_add_cl_coding_meta (buf, &coding);
  return buf;
}

/* Component @c of @in (8-bit) through the reference's stage at @threshold
 * (a copy at 0), against the same component of @out; for P010, the 10-bit
 * values through the 10-bit reference, the bits below a filtered value 0,
 * a copied word whole. */
static void
check_component (GstVideoFrame * in, GstVideoFrame * out, guint c,
    guint threshold, const gchar * what)
{
  const gint w = GST_VIDEO_FRAME_COMP_WIDTH (in, c);
  const gint h = GST_VIDEO_FRAME_COMP_HEIGHT (in, c);
  const gint step = GST_VIDEO_FRAME_COMP_PSTRIDE (in, c);
  guint16 *src = g_new (guint16, (gsize) w * h);
  guint16 *want = g_new (guint16, (gsize) w * h);
  gboolean deep = GST_VIDEO_FRAME_COMP_DEPTH (in, c) > 8;
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const guint8 *at = comp_data (in, c) +
          y * GST_VIDEO_FRAME_COMP_STRIDE (in, c) + x * step;

      src[y * w + x] = deep ? GST_READ_UINT16_LE (at) >> 6 : *at;
    }
  if (threshold == 0) {
    memcpy (want, src, sizeof (guint16) * w * h);
  } else if (deep) {
    ref_dct_threshold_plane16 (src, w, want, w, w, h, threshold,
        GST_CL_DCT_MAX_PASSES);
  } else {
    guint8 *s8 = g_malloc ((gsize) w * h), *w8 = g_malloc ((gsize) w * h);

    for (x = 0; x < w * h; x++)
      s8[x] = src[x];
    ref_dct_threshold_plane (s8, w, w8, w, w, h, threshold,
        GST_CL_DCT_MAX_PASSES);
    for (x = 0; x < w * h; x++)
      want[x] = w8[x];
    g_free (s8);
    g_free (w8);
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const gsize off = (gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (in, c) +
          x * step;
      const guint8 *i = comp_data (in, c) + off;
      const guint8 *o = comp_data (out, c) + off;
      const guint got = deep ? GST_READ_UINT16_LE (o) : *o;
      const guint expect = !deep ? want[y * w + x] : threshold == 0 ?
          GST_READ_UINT16_LE (i) : (guint) want[y * w + x] << 6;

      fail_unless (got == expect, "%s, component %u at threshold %u: "
          "sample (%d, %d) is %u, the reference %u", what, c, threshold, x,
          y, got, expect);
    }
  g_free (src);
  g_free (want);
}

/* strength=auto on interleaved chroma (NV12, and P010's 10-bit words):
 * each component with its own estimate. An intra frame whose U and V are
 * coded at different steps gets each component's own threshold; then a P
 * frame that shows no coding (the same quantiser, the stream says) holds
 * each component's own, as a P frame of the first group of pictures takes
 * it: floor (step x HOLD_GAIN_P / 16 x FIRST_GOP / 16 + 1/2)
 * (gstcldctestimate-private.h). Each component of the output is the
 * reference's stage on the input's at that threshold. Then, on a new
 * plan, an intra frame that shows no coding: each component as it is
 * (threshold 0). Both DCT shapes: tests/meson.build runs this suite with
 * GST_CL_DCT_KERNEL=tiles too, which reads the components in place. */
static void
check_auto_interleaved (GstVideoFormat format, gint w, gint h, guint32 seed)
{
  static const gint intra_steps[3] = { 40, 56, 100 };
  static const gint flat[3] = { 0, 0, 0 };
  const gchar *what = gst_video_format_to_string (format);
  GRand *rand = g_rand_new_with_seed (seed);
  GstClPlanSettings s;
  GstVideoInfo info;
  GstClPlan *plan;
  RefParams p;
  guint held[3] = { 0, }, frame_n, c;

  gst_video_info_set_format (&info, format, w, h);
  plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
  fail_unless (plan != NULL);
  make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
  s.dct_stage = TRUE;
  gst_cl_plan_set_settings (plan, &s);
  fail_unless_equals_int (gst_cl_plan_untouched_planes (plan), 0);
  for (frame_n = 0; frame_n < 3; frame_n++) {
    GstBuffer *in = interleaved_coded (&info, rand, frame_n == 0 ?
        intra_steps : flat, frame_n == 1 ? GST_CL_PICTURE_P : GST_CL_PICTURE_I);
    GstBuffer *out = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstVideoFrame fin, fout;
    GstClFrameStats frame;

    if (frame_n == 2) {
      /* no step seen before: nothing to hold */
      gst_cl_plan_free (plan);
      plan = gst_cl_plan_new (context, tuner, &info, 1, NULL);
      fail_unless (plan != NULL);
      gst_cl_plan_set_settings (plan, &s);
    }
    fail_unless (gst_cl_plan_process (plan, in, out, FALSE, &frame, NULL));
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    for (c = 0; c < 3; c++) {
      const gint cw = GST_VIDEO_FRAME_COMP_WIDTH (&fin, c);
      const gint ch = GST_VIDEO_FRAME_COMP_HEIGHT (&fin, c);
      const gboolean deep = GST_VIDEO_INFO_COMP_DEPTH (&info, c) > 8;
      guint8 *src = g_malloc ((gsize) cw * ch);
      guint own, threshold;
      gint i;

      /* the 8-bit pattern (P010: the high byte of each word, the value
       * being 4 times the pattern) */
      for (i = 0; i < cw * ch; i++) {
        const guint8 *at = comp_data (&fin, c) + (i / cw) *
            GST_VIDEO_FRAME_COMP_STRIDE (&fin, c) + (i % cw) *
            GST_VIDEO_FRAME_COMP_PSTRIDE (&fin, c);

        src[i] = deep ? GST_READ_UINT16_LE (at) >> 8 : *at;
      }
      own = ref_dct_frame_threshold (src, cw, cw, ch);
      if (frame_n == 0) {
        fail_unless (own > 0, "%s, component %u: no step to find", what, c);
        threshold = held[c] = own;
      } else if (frame_n == 2) {
        fail_unless_equals_int (own, 0);
        threshold = 0;
      } else {
        fail_unless_equals_int (own, 0);
        threshold = (guint) floor (held[c] * GST_CL_DCT_DEFAULT_HOLD_GAIN_P /
            16.0 * GST_CL_DCT_DEFAULT_FIRST_GOP / 16.0 + 0.5);
      }
      if (c == 0)
        fail_unless_equals_int (frame.auto_threshold, threshold);
      check_component (&fin, &fout, c, threshold, what);
      g_free (src);
    }
    fail_unless (held[1] != held[2], "%s: U and V found the same step", what);
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_cl_plan_free (plan);
  g_rand_free (rand);
}

/* Frame @k of check_p010_as_planar(): @pats (each component's 8-bit
 * pattern) times 4 in a frame of @info whose rows are @pad bytes longer,
 * an intra frame (even @k) or a P frame, cropped to @crop where given. */
static GstBuffer *
pattern_frame (const GstVideoInfo * info, gint pad, guint8 ** pats, guint k,
    const GstVideoRectangle * crop)
{
  GstBuffer *buf = padded_frame (info, pad, NULL);
  GstClCodingInfo coding = { GST_CL_CODEC_MPEG12, k & 1 ? GST_CL_PICTURE_P :
        GST_CL_PICTURE_I, GST_CL_FIELD_FRAME, 1, 4.0
  };
  GstVideoFrame f;
  guint c;
  gint x, y;

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (c = 0; c < 3; c++) {
    const gint w = GST_VIDEO_FRAME_COMP_WIDTH (&f, c);
    const guint p = GST_VIDEO_FRAME_COMP_PLANE (&f, c);

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
      for (x = 0; x < w; x++)
        ref_set_sample (info, c, f.data[p], GST_VIDEO_FRAME_PLANE_STRIDE (&f,
                p), x, y, pats[c][y * w + x] << 2);
  }
  gst_video_frame_unmap (&f);
  gst_buffer_add_cl_coding_meta (buf, &coding);
  if (crop) {
    GstVideoCropMeta *m = gst_buffer_add_video_crop_meta (buf);

    m->x = crop->x;
    m->y = crop->y;
    m->width = crop->w;
    m->height = crop->h;
  }
  return buf;
}

/* P010_10LE under strength=auto gives, sample for sample, what I420_10LE
 * (chroma planes of their own) gives on the same values, frame after frame
 * (an intra frame coded at steps of its own in each component, a P frame
 * that holds them, again): a @w x @h frame of @mode, rows @pad bytes
 * longer, cropped to @crop where given; a crop's origin moves the
 * interleaved samples' addresses the packing kernels see. */
static void
check_p010_as_planar (gint w, gint h, gint pad, const GstVideoRectangle * crop,
    GstVideoInterlaceMode mode)
{
  static const gint steps[2][3] = { {40, 56, 100}, {0, 0, 0} };
  static const GstVideoFormat formats[2] = { GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_I420_10LE
  };
  GRand *rand = g_rand_new_with_seed (w * 1000 + h + pad);
  GstVideoInfo info[2];
  GstClPlan *plan[2];
  GstClPlanSettings s;
  RefParams rp;
  guint i, k, c;
  gint x, y;

  make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &rp);
  s.dct_stage = TRUE;
  for (i = 0; i < 2; i++) {
    gst_video_info_set_interlaced_format (&info[i], formats[i], mode, w, h);
    plan[i] = gst_cl_plan_new (context, tuner, &info[i], 1, NULL);
    fail_unless (plan[i] != NULL);
    gst_cl_plan_set_settings (plan[i], &s);
  }
  for (k = 0; k < 4; k++) {
    GstBuffer *out[2];
    GstVideoFrame f[2];
    guint8 *pats[3];

    for (c = 0; c < 3; c++) {
      const gint cw = GST_VIDEO_INFO_COMP_WIDTH (&info[0], c);
      const gint ch = GST_VIDEO_INFO_COMP_HEIGHT (&info[0], c);

      pats[c] = g_malloc ((gsize) cw * ch);
      dct_fill_plane (rand, pats[c], cw, cw, ch, 6);
      if (steps[k & 1][c])
        dct_fill_quantized (rand, pats[c], cw, cw, ch, steps[k & 1][c]);
    }
    for (i = 0; i < 2; i++) {
      GstBuffer *in = pattern_frame (&info[i], pad, pats, k, crop);
      GstClFrameStats st;
      GError *error = NULL;

      out[i] = padded_frame (&info[i], pad, NULL);
      fail_unless (gst_cl_plan_process (plan[i], in, out[i], FALSE, &st,
              &error), "%s: %s", gst_video_format_to_string (formats[i]),
          error ? error->message : "");
      gst_buffer_unref (in);
      fail_unless (gst_video_frame_map (&f[i], &info[i], out[i], GST_MAP_READ));
    }
    for (c = 0; c < 3; c++)
      for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&info[0], c); y++)
        for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&info[0], c); x++) {
          guint v[2];

          for (i = 0; i < 2; i++) {
            const guint p = GST_VIDEO_FRAME_COMP_PLANE (&f[i], c);

            v[i] = ref_get_sample (&info[i], c, f[i].data[p],
                GST_VIDEO_FRAME_PLANE_STRIDE (&f[i], p), x, y);
          }
          fail_unless (v[0] == v[1], "%dx%d pad %d crop %s, %s, frame %u, "
              "component %u: sample (%d, %d) is %u in P010, %u in "
              "I420_10LE", w, h, pad, crop ? "yes" : "no",
              gst_video_interlace_mode_to_string (mode), k, c, x, y, v[0],
              v[1]);
        }
    for (i = 0; i < 2; i++) {
      gst_video_frame_unmap (&f[i]);
      gst_buffer_unref (out[i]);
    }
    for (c = 0; c < 3; c++)
      g_free (pats[c]);
  }
  for (i = 0; i < 2; i++)
    gst_cl_plan_free (plan[i]);
  g_rand_free (rand);
}

/* check_p010_as_planar() at odd sizes, padded rows (2 bytes: words still
 * aligned; 1 byte: the planes go through the device buffers), crop
 * rectangles with odd origins and to the frame's right and bottom edges,
 * and interlaced frames, whole and cropped. */
GST_START_TEST (test_strength_auto_p010_layouts)
{
  static const GstVideoRectangle crops[] = {
    {3, 1, 101, 60}, {16, 8, 64, 48}, {33, 17, 145, 81},
  };
  guint i;

  check_p010_as_planar (178, 98, 0, NULL, GST_VIDEO_INTERLACE_MODE_PROGRESSIVE);
  check_p010_as_planar (179, 97, 2, NULL, GST_VIDEO_INTERLACE_MODE_PROGRESSIVE);
  check_p010_as_planar (178, 98, 1, NULL, GST_VIDEO_INTERLACE_MODE_PROGRESSIVE);
  for (i = 0; i < G_N_ELEMENTS (crops); i++)
    check_p010_as_planar (178, 98, 2 * (i & 1), &crops[i],
        GST_VIDEO_INTERLACE_MODE_PROGRESSIVE);
  check_p010_as_planar (178, 98, 0, NULL, GST_VIDEO_INTERLACE_MODE_INTERLEAVED);
  check_p010_as_planar (178, 98, 0, &crops[0],
      GST_VIDEO_INTERLACE_MODE_INTERLEAVED);
}

GST_END_TEST;

GST_START_TEST (test_strength_auto_interleaved)
{
  check_auto_interleaved (GST_VIDEO_FORMAT_NV12, 208, 144, 0x6e763132);
  check_auto_interleaved (GST_VIDEO_FORMAT_P010_10LE, 208, 144, 0x6e763132);
  /* a width whose chroma rows end in a run of the packing kernels that is
   * not whole, and rows of an odd number of blocks */
  check_auto_interleaved (GST_VIDEO_FORMAT_P010_10LE, 178, 98, 0x70303131);
}

GST_END_TEST;

/* GstClEvents holds every event it is given, past its inline ones too (a
 * frame's 16 DCT passes and histogram with its other stages), and gives
 * them all back. */
GST_START_TEST (test_events_hold_all)
{
  GstClEvents events = { {0,}, 0 };
  cl_event made[GST_CL_EVENTS_INLINE + 5];
  cl_uint refs = 0;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (made); i++) {
    made[i] = clCreateUserEvent (gst_cl_context_get_handle (context), NULL);
    fail_unless (made[i] != NULL);
    clRetainEvent (made[i]);
    clSetUserEventStatus (made[i], CL_COMPLETE);
    gst_cl_events_add (&events, made[i]);
    fail_unless (gst_cl_events_last (&events) == made[i]);
  }
  fail_unless_equals_int (events.n_events, G_N_ELEMENTS (made));
  /* user events have no profiling times: 0 ms, but every one released */
  fail_unless (gst_cl_events_take_ms (&events) == 0.0);
  fail_unless_equals_int (events.n_events, 0);
  fail_unless (events.more == NULL);
  fail_unless (gst_cl_events_last (&events) == NULL);
  for (i = 0; i < G_N_ELEMENTS (made); i++) {
    fail_unless (clGetEventInfo (made[i], CL_EVENT_REFERENCE_COUNT,
            sizeof (refs), &refs, NULL) == CL_SUCCESS);
    fail_unless_equals_int (refs, 1);
    clReleaseEvent (made[i]);
  }
}

GST_END_TEST;

/* ---- The estimate on frames coded by real encoders ---------------------- */

/* ITU-T T.81 Annex K, table K.1: the JPEG luminance quantization table,
 * row v, column u. */
static const guint jpeg_luma_table[2][2] = {
  {16, 11},
  {12, 12},
};

/* What libjpeg's jpeg_set_quality (@quality, force_baseline) makes of
 * @base: the table scaled by 5000 / quality below 50, 200 - 2 quality from
 * 50, rounded, kept within 1..255. */
static guint
jpeg_quantizer (guint base, guint quality)
{
  guint scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;

  return CLAMP ((base * scale + 50) / 100, 1, 255);
}

/* MPEG-4 Visual (ISO/IEC 14496-2, 6.3.7): the default intra quantization
 * matrix, row v, column u. */
static const guint mpeg4_intra_matrix[2][2] = {
  {8, 17},
  {17, 18},
};

/* The coefficients of the estimate's histogram, in its order, as (u, v). */
static const guint hist_coeffs[GST_CL_DCT_HIST_COEFFS][2] = {
  {1, 0}, {0, 1}, {1, 1},
};

/* A frame of @info (I420, sides multiples of 8) whose every 8x8 luma block
 * is 128 plus the orthonormal DCT basis images of the histogram's three
 * coefficients, each with an amplitude random in -200..200 levels (within
 * 0..255 at every sample), chroma flat: before coding, those coefficients
 * are spread evenly over many multiples of any quantizer step, so that a
 * step a little larger than the encoder's fits none but the first few. */
static GstBuffer *
basis_frame (const GstVideoInfo * info, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame frame;
  guint8 *luma;
  gint stride, bx, by, x, y, k;

  gst_buffer_memset (buf, 0, 128, info->size);
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  luma = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  for (by = 0; by < GST_VIDEO_INFO_HEIGHT (info); by += 8) {
    for (bx = 0; bx < GST_VIDEO_INFO_WIDTH (info); bx += 8) {
      gdouble amp[GST_CL_DCT_HIST_COEFFS];

      for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
        amp[k] = g_rand_double_range (rand, -200, 200);
      for (y = 0; y < 8; y++) {
        for (x = 0; x < 8; x++) {
          gdouble v = 128;

          /* basis (u, v): c(u) c(v) cos ((2x + 1) u pi / 16)
           * cos ((2y + 1) v pi / 16), c(0) = sqrt (1/8), else 1/2 */
          for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++) {
            guint u = hist_coeffs[k][0], w = hist_coeffs[k][1];

            v += amp[k] * (u ? 0.5 : sqrt (0.125)) * (w ? 0.5 :
                sqrt (0.125)) * cos ((2 * x + 1) * u * G_PI / 16) *
                cos ((2 * y + 1) * w * G_PI / 16);
          }
          luma[(by + y) * stride + bx + x] = (guint8) CLAMP (lrint (v), 0, 255);
        }
      }
    }
  }
  gst_video_frame_unmap (&frame);
  g_rand_free (rand);
  return buf;
}

/* @in coded and decoded by the elements of @launch (an encoder and its
 * decoder), in a new buffer of the default I420 layout, or NULL where an
 * element is missing. */
static GstBuffer *
code_frame (const gchar * launch, const GstVideoInfo * info, GstBuffer * in)
{
  GstHarness *h;
  GstBuffer *out, *copy;
  GstVideoFrame from, to;
  GstVideoInfo out_info;
  GstFlowReturn ret;
  GstElement *bin;
  GstCaps *caps;

  /* gst_harness_new_parse() aborts where an element is missing */
  bin = gst_parse_bin_from_description_full (launch, TRUE, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, NULL);
  if (!bin)
    return NULL;
  gst_object_unref (bin);
  h = gst_harness_new_parse (launch);
  caps = gst_video_info_to_caps (info);
  gst_harness_set_src_caps (h, caps);
  GST_BUFFER_PTS (in) = 0;
  GST_BUFFER_DURATION (in) = GST_SECOND / 25;
  ret = gst_harness_push (h, gst_buffer_ref (in));
  fail_unless (ret == GST_FLOW_OK, "%s: push returned %s", launch,
      gst_flow_get_name (ret));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no frame out", launch);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (&out_info, caps));
  gst_caps_unref (caps);
  fail_unless (GST_VIDEO_INFO_FORMAT (&out_info) == GST_VIDEO_FORMAT_I420 &&
      GST_VIDEO_INFO_WIDTH (&out_info) == GST_VIDEO_INFO_WIDTH (info) &&
      GST_VIDEO_INFO_HEIGHT (&out_info) == GST_VIDEO_INFO_HEIGHT (info),
      "%s: decoded as another format or size", launch);
  copy = gst_buffer_new_allocate (NULL, info->size, NULL);
  fail_unless (gst_video_frame_map (&from, &out_info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&to, info, copy, GST_MAP_WRITE));
  fail_unless (gst_video_frame_copy (&to, &from));
  gst_video_frame_unmap (&to);
  gst_video_frame_unmap (&from);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  return copy;
}

/* One coded frame and the quantizer steps its encoder used, in quarter
 * levels of the orthonormal DCT, one per coefficient of the histogram. */
typedef struct
{
  const gchar *launch;
  guint steps[GST_CL_DCT_HIST_COEFFS];
} Coded;

/* Checks the estimate on @in, coded as @c says: each coefficient's values
 * lie on multiples of its own step (gst_cl_dct_lattice, spacing 4 x the
 * step in quarter-quarter levels); the stage's threshold is the median of
 * the coefficients' thresholds from those steps
 * (ref_dct_coefficient_threshold); and the plan, histogram on the device,
 * uses that threshold. */
static void
check_estimate (const Coded * c, const GstVideoInfo * info, GstBuffer * in)
{
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  guint t[GST_CL_DCT_HIST_COEFFS], i, threshold;
  GstBuffer *coded = code_frame (c->launch, info, in), *out;
  GstClFrameStats frame;
  GstClPlanSettings s;
  GstVideoFrame f;
  GstClPlan *plan;
  RefParams p;

  if (!coded) {
    GST_WARNING ("%s: an element is missing, skipping", c->launch);
    return;
  }
  fail_unless (gst_video_frame_map (&f, info, coded, GST_MAP_READ));
  ref_dct_histogram (GST_VIDEO_FRAME_PLANE_DATA (&f, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), hist);
  gst_video_frame_unmap (&f);
  for (i = 0; i < GST_CL_DCT_HIST_COEFFS; i++) {
    guint spacing = 0;
    const GstClDctLattice kind = gst_cl_dct_lattice (hist +
        i * GST_CL_DCT_BINS, GST_CL_DCT_DEFAULT_MIN_COUNT, &spacing);

    fail_unless (kind == GST_CL_DCT_LATTICE_MULTIPLES &&
        spacing == 4 * c->steps[i], "%s: coefficient (%u, %u) quantized by "
        "%u, lattice %d of spacing %u/4", c->launch, hist_coeffs[i][0],
        hist_coeffs[i][1], c->steps[i], kind, spacing);
    t[i] = ref_dct_coefficient_threshold (hist + i * GST_CL_DCT_BINS,
        GST_CL_DCT_LATTICE_MULTIPLES, 4 * c->steps[i],
        GST_CL_DCT_DEFAULT_GAIN, GST_CL_DCT_DEFAULT_STRONG_GAIN,
        GST_CL_DCT_DEFAULT_STRONG_LEVEL);
  }
  threshold = ref_dct_median_threshold (t, GST_CL_DCT_HIST_COEFFS);

  plan = gst_cl_plan_new (context, tuner, info, 1, NULL);
  fail_unless (plan != NULL);
  make_settings (&cases[0], GST_CL_VARIANT_AUTO, &s, &p);
  s.dct_stage = TRUE;
  gst_cl_plan_set_settings (plan, &s);
  out = gst_buffer_new_allocate (NULL, info->size, NULL);
  fail_unless (gst_cl_plan_process (plan, coded, out, FALSE, &frame, NULL));
  fail_unless (frame.auto_threshold == threshold, "%s: threshold %u, "
      "expected %u", c->launch, frame.auto_threshold, threshold);
  gst_buffer_unref (out);
  gst_cl_plan_free (plan);
  gst_buffer_unref (coded);
}

/* strength=auto's estimate on frames coded by jpegenc at a few qualities
 * and by avenc_mpeg4 at a fixed quantizer, against the steps those encoders
 * are known to use, in quarter levels: JPEG's are 4 x table K.1 scaled by
 * the quality (libjpeg's rule); MPEG-4's intra AC coefficients with MPEG
 * quantization are reconstructed as level x 2 qscale x W / 16 levels, W
 * from the default intra matrix, so qscale x W / 2 quarter levels (exact for
 * qscale a multiple of 8). The frame's threshold is the median of the
 * three coefficients' (check_estimate()). (avenc_mpeg2video of gst-libav 1.22.0 refuses every raw caps:
 * "MPEG-1/2 does not support 1000000000/1 fps".) */
GST_START_TEST (test_estimate_real_encoders)
{
  static const guint qualities[] = { 25, 35, 40, 45, 60 };
  static const guint qscales[] = { 8, 16 };
  GstVideoInfo info;
  GstBuffer *in;
  guint i, k;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 320, 240);
  GST_VIDEO_INFO_FPS_N (&info) = 25;
  GST_VIDEO_INFO_FPS_D (&info) = 1;
  in = basis_frame (&info, 0xe571);
  for (i = 0; i < G_N_ELEMENTS (qualities); i++) {
    Coded c;

    c.launch = g_strdup_printf ("jpegenc quality=%u ! jpegdec "
        "idct-method=islow", qualities[i]);
    for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
      c.steps[k] = 4 * jpeg_quantizer (jpeg_luma_table[hist_coeffs[k][1]]
          [hist_coeffs[k][0]], qualities[i]);
    check_estimate (&c, &info, in);
    g_free ((gchar *) c.launch);
  }
  for (i = 0; i < G_N_ELEMENTS (qscales); i++) {
    Coded c;

    c.launch = g_strdup_printf ("avenc_mpeg4 mpeg-quant=1 pass=quant "
        "quantizer=%u gop-size=1 max-bframes=0 ! avdec_mpeg4", qscales[i]);
    for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
      c.steps[k] = qscales[i] * mpeg4_intra_matrix[hist_coeffs[k][1]]
          [hist_coeffs[k][0]] / 2;
    check_estimate (&c, &info, in);
    g_free ((gchar *) c.launch);
  }
  gst_buffer_unref (in);
}

GST_END_TEST;

static Suite *
clplan_suite (void)
{
  Suite *s = suite_create ("clplan");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_against_reference);
  tcase_add_test (tc, test_crop);
  tcase_add_test (tc, test_untouched_planes);
  tcase_add_test (tc, test_small_buffer_before_tuning);
  tcase_add_test (tc, test_frames_in_flight);
  tcase_add_test (tc, test_staging_copy_in_flight);
  tcase_add_test (tc, test_staging_copy_failed);
  tcase_add_test (tc, test_host_pinned_in_flight);
  tcase_add_test (tc, test_host_pinned_siblings);
  tcase_add_test (tc, test_host_pinned_context_gone);
  tcase_add_test (tc, test_host_pin_refused);
  tcase_add_test (tc, test_split_input);
  tcase_add_test (tc, test_strength_auto);
  tcase_add_test (tc, test_strength_auto_interlaced);
  tcase_add_test (tc, test_strength_auto_interleaved);
  tcase_add_test (tc, test_strength_auto_p010_layouts);
  tcase_add_test (tc, test_events_hold_all);
  tcase_add_test (tc, test_interlaced);
  tcase_add_test (tc, test_same_settings_again);
  tcase_add_test (tc, test_kernel_arg_named);
  tcase_add_test (tc, test_settings_equal);
  tcase_add_test (tc, test_estimate_real_encoders);
  return s;
}

GST_CHECK_MAIN (clplan);
