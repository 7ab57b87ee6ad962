/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
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
#include <string.h>

#include "gstclbufferpool-private.h"
#include "gstclmemory-private.h"
#include "gstclplan-private.h"
#include "reference.h"

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

/* Runs @plan on @in and checks the output against the reference of @p,
 * with the crop rectangle of @in if it has one. */
static void
check_frame (GstClPlan * plan, const GstVideoInfo * info, GstBuffer * in,
    const RefParams * p, const gchar * what)
{
  GstBuffer *out = padded_frame (info, 13, NULL);
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (in);
  GstVideoFrame fin, fout, fref;
  GstBuffer *ref = padded_frame (info, 0, NULL);
  GstClFrameStats frame;
  GError *error = NULL;
  guint i, comp;
  gint x, y;

  fail_unless (gst_cl_plan_process (plan, in, out, TRUE, &frame, &error),
      "%s: %s", what, error ? error->message : "");
  fail_unless (g_str_equal (frame.epsilon_launch, "none") ==
      (p->threshold == 0), "%s: epsilon launch %s", what,
      frame.epsilon_launch);
  fail_unless (g_str_equal (frame.conv_launch, "none") ==
      (p->kernel_width == 0), "%s: convolution launch %s", what,
      frame.conv_launch);

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, info, ref, GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  if (crop) {
    /* Outside the rectangle the input, inside the reference of it. */
    for (i = 0; i < GST_VIDEO_FRAME_N_PLANES (&fin); i++)
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fin, i); y++)
        memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fref, i) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fref, i),
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, i) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, i),
            GST_VIDEO_INFO_PLANE_STRIDE (info, i));
    ref_process_region (info, (guint8 **) fin.data, fin.info.stride,
        (guint8 **) fref.data,
        fref.info.stride, p, crop->x, crop->y, crop->width, crop->height);
  } else {
    ref_process_region (info, (guint8 **) fin.data, fin.info.stride,
        (guint8 **) fref.data,
        fref.info.stride, p, 0, 0, GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info));
  }
  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fin, comp); y++) {
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fin, comp); x++) {
        guint plane = GST_VIDEO_INFO_COMP_PLANE (info, comp);
        guint got = ref_get_sample (info, comp, fout.data[plane],
            fout.info.stride[plane], x, y);
        guint want = ref_get_sample (info, comp, fref.data[plane],
            fref.info.stride[plane], x, y);

        fail_unless (got == want, "%s: component %u at %d,%d: %u, "
            "reference %u", what, comp, x, y, got, want);
      }
    }
  }
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fref);
  gst_video_frame_unmap (&fin);
  gst_buffer_unref (ref);
  gst_buffer_unref (out);
}

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21,
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_P010_10LE,
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
        check_frame (plan, &info, in, &p, what);
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
  check_frame (plan, &info, in, &p, "NV12 crop 5,3 21x17");
  gst_buffer_unref (in);
  gst_cl_plan_free (plan);
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

/* A started pool of OpenCL buffers for @info, as the element's own. */
static GstBufferPool *
cl_pool (const GstVideoInfo * info)
{
  GstBufferPool *pool = gst_cl_buffer_pool_new (context, FALSE);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_video_info_to_caps (info);

  gst_buffer_pool_config_set_params (config, caps, info->size, 0, 0);
  gst_caps_unref (caps);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  return pool;
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
  fail_unless_equals_int (gst_cl_plan_get_depth (plan),
      gst_cl_context_is_host_unified (context) ? 1 : 3);
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    GstClFrameStats frame;
    GstMapInfo map;
    guint j;

    make_settings (&cases[i < 4 ? 0 : 2], GST_CL_VARIANT_AUTO, &s, &ps[i]);
    if (i >= 4)
      ps[i].chroma_threshold = s.chroma_threshold = 7;
    gst_cl_plan_set_settings (plan, &s);
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
    fail_unless (gst_buffer_pool_acquire_buffer (out_pool, &outs[i], NULL) ==
        GST_FLOW_OK);
    fail_unless (gst_cl_plan_process (plan, ins[i], outs[i], FALSE, &frame,
            &error), "frame %u: %s", i, error ? error->message : "");
    if (gst_cl_plan_get_depth (plan) > 1) {
      /* what a map of the output will wait for */
      cl_event pending =
          gst_cl_memory_get_pending (gst_buffer_peek_memory (outs[i], 0));

      fail_unless (pending != NULL, "frame %u: nothing to wait for", i);
      clReleaseEvent (pending);
    }
  }
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    GstVideoFrame fin, fout, fref;
    GstBuffer *ref = padded_frame (&info, 0, NULL);
    gint x, y, comp;

    fail_unless (gst_video_frame_map (&fin, &info, ins[i], GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, outs[i], GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fref, &info, ref, GST_MAP_WRITE));
    ref_process_region (&info, (guint8 **) fin.data, fin.info.stride,
        (guint8 **) fref.data, fref.info.stride, &ps[i], 0, 0, 53, 31);
    for (comp = 0; comp < 3; comp++)
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fin, comp); y++)
        for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&fin, comp); x++) {
          guint plane = GST_VIDEO_INFO_COMP_PLANE (&info, comp);
          guint got = ref_get_sample (&info, comp, fout.data[plane],
              fout.info.stride[plane], x, y);
          guint want = ref_get_sample (&info, comp, fref.data[plane],
              fref.info.stride[plane], x, y);

          fail_unless (got == want, "frame %u, component %d at %d,%d: %u, "
              "reference %u", i, comp, x, y, got, want);
        }
    gst_video_frame_unmap (&fref);
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
    gst_buffer_unref (ref);
  }
  fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
      error ? error->message : "");
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    /* nothing holds the inputs any more: ours is the last reference */
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (ins[i]), 1);
    gst_buffer_unref (ins[i]);
    gst_buffer_unref (outs[i]);
  }
  gst_cl_plan_free (plan);
  gst_buffer_pool_set_active (in_pool, FALSE);
  gst_buffer_pool_set_active (out_pool, FALSE);
  gst_object_unref (in_pool);
  gst_object_unref (out_pool);
  g_rand_free (rand);
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
  return s;
}

GST_CHECK_MAIN (clplan);
