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

/* Robustness of clepsilon as a long-running element sees it: state changes,
 * renegotiation, odd sizes and layouts, sizes that overflow, flushing and
 * EOS with work in flight, metadata, properties changed from another thread
 * while frames flow, and malformed property values. Outputs are compared
 * with the plain C reference in ../reference.c.
 *
 * Leaks: the test links libclfault (tests/clfault), which counts the OpenCL
 * objects the process holds, and runs with GST_TRACERS=leaks, whose live
 * objects it reads; both must come back to where they were. Without the
 * leaks tracer (run by hand) only the OpenCL counts are checked.
 *
 * The OpenCL device is taken from $CLEPSILON_TEST_DEVICE (default "pocl"). */

#include <locale.h>
#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "../harness.h"
#include "../live.h"
#include "../../clfault/clfault.h"

/* Set in a child this program runs of itself (rt_run_child()). */
#define CHILD_ENV "CLEPSILON_ROBUST_CHILD"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/* A started clepsilon with @p and @kernel in a harness. */
static GstHarness *
new_harness (const RefParams * p, const gchar * kernel)
{
  GstElement *e = th_make_element ();

  /* Under valgrind every new window or kernel would be timed, kernels run
   * hundreds of times each: the churn alone would take hours. */
  th_plain_variants_under_valgrind (e);
  if (p)
    rt_apply_params (e, p, kernel);
  return th_harness_from_element (e);
}

static const gchar *const k_blur = "1 2 1; 2 4 2; 1 2 1";
static const gchar *const k_sharpen = "0 -1 0; -1 5 -1; 0 -1 0";

/* Runs one small element life, so that what is created once per process
 * (types, caches, the PoCL program cache) exists before a leak baseline. */
static void
warm_up (void)
{
  RefParams p;
  GstVideoInfo info;
  GstHarness *hr;
  GRand *rand = g_rand_new_with_seed (1);

  th_params_init (&p, 20, 5, 10);
  hr = new_harness (&p, k_blur);
  fail_unless (rt_params_set_kernel (&p, k_blur));
  th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 16, 8, &info);
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
      "warm-up");
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 0, TRUE), &p,
      "warm-up");
  th_teardown_checked (hr);
  g_rand_free (rand);
}

/* ------------------------------------------------------------------------ */
/* States                                                                   */

static gboolean
started (GstElement * e)
{
  gchar *name = NULL;
  gboolean has;

  g_object_get (e, "device-name", &name, NULL);
  has = name != NULL && name[0] != '\0';
  g_free (name);
  return has;
}

/* Walks a lone element through sequences of states, up, down and mixed:
 * every change succeeds, the device is held exactly in PAUSED and PLAYING,
 * and going back to NULL leaves nothing behind. */
GST_START_TEST (test_state_sequences)
{
  static const GstState seqs[][8] = {
    {GST_STATE_READY, GST_STATE_NULL},
    {GST_STATE_PAUSED, GST_STATE_NULL},
    {GST_STATE_PLAYING, GST_STATE_NULL},
    {GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED,
        GST_STATE_READY, GST_STATE_NULL},
    {GST_STATE_PLAYING, GST_STATE_READY, GST_STATE_PLAYING, GST_STATE_PAUSED,
        GST_STATE_NULL},
    {GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING,
        GST_STATE_READY, GST_STATE_NULL},
    {GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_PLAYING,
        GST_STATE_NULL, GST_STATE_PLAYING, GST_STATE_NULL},
    {GST_STATE_READY, GST_STATE_NULL, GST_STATE_PAUSED, GST_STATE_NULL,
        GST_STATE_PLAYING, GST_STATE_NULL},
  };
  Live before;
  guint s, i;

  warm_up ();
  before = live_now ();
  for (s = 0; s < G_N_ELEMENTS (seqs); s++) {
    GstElement *e = gst_element_factory_make ("clepsilon", NULL);
    GstBus *bus = gst_bus_new ();
    GString *path = g_string_new ("NULL");

    g_object_set (e, "device", rt_device (), NULL);
    gst_element_set_bus (e, bus);
    for (i = 0; i < G_N_ELEMENTS (seqs[s]); i++) {
      GstState target = seqs[s][i], cur = GST_STATE_VOID_PENDING;
      GstStateChangeReturn ret;

      if (i > 0 && target == GST_STATE_VOID_PENDING)
        break;
      g_string_append_printf (path, " -> %s",
          gst_element_state_get_name (target));
      ret = gst_element_set_state (e, target);
      fail_unless (ret == GST_STATE_CHANGE_SUCCESS, "%s returned %s",
          path->str, gst_element_state_change_return_get_name (ret));
      gst_element_get_state (e, &cur, NULL, 0);
      fail_unless (cur == target, "%s: element is in %s", path->str,
          gst_element_state_get_name (cur));
      fail_unless (started (e) == (target >= GST_STATE_PAUSED),
          "%s: device-name %s", path->str, started (e) ? "set" : "unset");
      if (target == GST_STATE_NULL)
        fail_unless (clfault_live_total () == before.cl, "%s: OpenCL "
            "objects left: %s", path->str, clfault_describe_live ());
    }
    fail_unless (rt_drain_errors (e, NULL) == 0, "%s: an error was posted",
        path->str);
    gst_bus_set_flushing (bus, TRUE);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
    g_string_free (path, TRUE);
  }
  check_no_leak (before, "state sequences");
}

GST_END_TEST;

/* Frames flow in PAUSED and PLAYING across state changes; after a trip
 * through READY or NULL the element starts over and needs caps again. */
GST_START_TEST (test_state_changes_with_data)
{
  static const GstState walk[] = {
    GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_READY, GST_STATE_PLAYING,
    GST_STATE_PAUSED, GST_STATE_NULL, GST_STATE_PAUSED, GST_STATE_READY,
    GST_STATE_PAUSED, GST_STATE_PLAYING,
  };
  GRand *rand = g_rand_new_with_seed (0x57a7e);
  GstState prev = GST_STATE_PLAYING;
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  guint i;

  th_params_init (&p, 20, 5, 10);
  hr = new_harness (&p, k_sharpen);
  fail_unless (rt_params_set_kernel (&p, k_sharpen));
  th_harness_set_format (hr, GST_VIDEO_FORMAT_I420, 23, 17, &info);
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
      "PLAYING");

  for (i = 0; i < G_N_ELEMENTS (walk); i++) {
    gchar *ctx = g_strdup_printf ("step %u: %s -> %s", i,
        gst_element_state_get_name (prev),
        gst_element_state_get_name (walk[i]));

    fail_unless (gst_element_set_state (hr->element, walk[i]) ==
        GST_STATE_CHANGE_SUCCESS, "%s failed", ctx);
    if (walk[i] >= GST_STATE_PAUSED) {
      if (prev <= GST_STATE_READY)
        rt_push_caps (hr, rt_caps (GST_VIDEO_FORMAT_I420, 23, 17));
      th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, i & 1),
          &p, ctx);
    } else {
      GstBuffer *in = rt_make_input (&info, rand, 127, FALSE);
      GstFlowReturn ret = gst_harness_push (hr, in);

      fail_unless (ret == GST_FLOW_FLUSHING, "%s: push returned %s", ctx,
          gst_flow_get_name (ret));
    }
    prev = walk[i];
    g_free (ctx);
  }
  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

static const struct
{
  GstVideoFormat fmt;
  gint w, h;
} cycle_formats[] = {
  {GST_VIDEO_FORMAT_NV12, 64, 48},
  {GST_VIDEO_FORMAT_I420, 33, 17},
  {GST_VIDEO_FORMAT_GRAY8, 1, 1},
  {GST_VIDEO_FORMAT_NV21, 40, 2},
  {GST_VIDEO_FORMAT_YV12, 17, 31},
  {GST_VIDEO_FORMAT_NV12, 1, 9},
};

/* 40 times PLAYING -> NULL, each time with new caps and frames, then a
 * leak check: the OpenCL context, queue, programs, kernels and buffers
 * are released at every NULL, and no GStreamer object survives the test. */
GST_START_TEST (test_playing_null_cycles)
{
  GRand *rand = g_rand_new_with_seed (0xc1c1e);
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  Live before;
  guint i;

  warm_up ();
  before = live_now ();
  th_params_init (&p, 25, 7, 12);
  hr = new_harness (&p, k_blur);
  fail_unless (rt_params_set_kernel (&p, k_blur));

  for (i = 0; i < 40; i++) {
    guint f = i % G_N_ELEMENTS (cycle_formats);
    gchar *ctx = g_strdup_printf ("cycle %u: %s %dx%d", i,
        gst_video_format_to_string (cycle_formats[f].fmt),
        cycle_formats[f].w, cycle_formats[f].h);
    GstCaps *caps = rt_caps (cycle_formats[f].fmt, cycle_formats[f].w,
        cycle_formats[f].h);

    if (i > 0)
      fail_unless (gst_element_set_state (hr->element, GST_STATE_PLAYING) ==
          GST_STATE_CHANGE_SUCCESS, "%s: PLAYING failed", ctx);
    fail_unless (gst_video_info_from_caps (&info, caps));
    rt_push_caps (hr, caps);
    th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
        ctx);
    th_push_check_unref (hr, &info, rt_make_input (&info, rand, 0, TRUE), &p,
        ctx);
    fail_unless (gst_element_set_state (hr->element, GST_STATE_NULL) ==
        GST_STATE_CHANGE_SUCCESS, "%s: NULL failed", ctx);
    fail_unless (clfault_live_total () == before.cl,
        "%s: OpenCL objects alive in NULL: %s", ctx, clfault_describe_live ());
    g_free (ctx);
  }
  th_teardown_checked (hr);
  check_no_leak (before, "40 PLAYING -> NULL cycles");
  g_rand_free (rand);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Renegotiation                                                            */

/* The image of @buf (mapped with its video meta, which may describe a larger
 * frame) cut to @info's size, in @info's default layout. */
static GstBuffer *
crop_copy (const GstVideoInfo * info, GstBuffer * buf)
{
  GstBuffer *out = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame src, dst;
  guint plane, y;

  fail_unless (gst_video_frame_map (&src, info, buf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, info, out, GST_MAP_WRITE));
  for (plane = 0; plane < GST_VIDEO_INFO_N_PLANES (info); plane++) {
    gint comps[GST_VIDEO_MAX_COMPONENTS], row_bytes;

    gst_video_format_info_component (info->finfo, plane, comps);
    row_bytes = GST_VIDEO_INFO_COMP_WIDTH (info, comps[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comps[0]);
    for (y = 0; y < (guint) GST_VIDEO_INFO_COMP_HEIGHT (info, comps[0]); y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&dst, plane) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&dst, plane),
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, plane) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&src, plane), row_bytes);
  }
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  return out;
}

/* Caps change mid-stream: size up, down, to 1x1, between formats. Frames
 * from system memory and from the pool the element proposes for the new
 * caps are right; the device buffers are rebuilt, not piled up (the same
 * step of two rounds holds the same OpenCL objects); a frame from the pool
 * of the previous caps is either right or refused, never read past. */
GST_START_TEST (test_renegotiate_midstream)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
  } steps[] = {
    {GST_VIDEO_FORMAT_NV12, 64, 48},
    {GST_VIDEO_FORMAT_NV12, 640, 480},
    {GST_VIDEO_FORMAT_NV12, 32, 16},
    {GST_VIDEO_FORMAT_NV12, 1, 1},
    {GST_VIDEO_FORMAT_I420, 1, 1},
    {GST_VIDEO_FORMAT_I420, 97, 61},
    {GST_VIDEO_FORMAT_NV12, 97, 61},
    {GST_VIDEO_FORMAT_GRAY8, 200, 3},
    {GST_VIDEO_FORMAT_NV21, 7, 5},
    {GST_VIDEO_FORMAT_YV12, 9, 9},
  };
  glong held[2][G_N_ELEMENTS (steps)];
  /* a stale frame refused: the error restarted the stream (new OpenCL
   * objects), which only the same step of the other round can match */
  gboolean restarted[2][G_N_ELEMENTS (steps)] = { {FALSE,}, };
  GRand *rand = g_rand_new_with_seed (0x4e60);
  GstBufferPool *prev_pool = NULL;
  GstVideoInfo info, prev_info = { 0, };
  GstHarness *hr;
  RefParams p;
  guint round, i;

  th_params_init (&p, 20, 5, 9);
  hr = new_harness (&p, k_sharpen);
  fail_unless (rt_params_set_kernel (&p, k_sharpen));

  for (round = 0; round < 2; round++) {
    for (i = 0; i < G_N_ELEMENTS (steps); i++) {
      gchar *ctx = g_strdup_printf ("round %u step %u: %s %dx%d", round, i,
          gst_video_format_to_string (steps[i].fmt), steps[i].w, steps[i].h);
      GstCaps *caps;
      GstQuery *query;
      GstBufferPool *pool = NULL;
      GstBuffer *in = NULL;
      GstStructure *config;
      GstCaps *pool_caps = NULL;

      th_harness_set_format (hr, steps[i].fmt, steps[i].w, steps[i].h, &info);
      th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE),
          &p, ctx);

      /* the pool proposed now is for these caps */
      caps = gst_pad_get_current_caps (hr->srcpad);
      query = gst_query_new_allocation (caps, TRUE);
      fail_unless (gst_pad_peer_query (hr->srcpad, query), "%s: ALLOCATION "
          "query not answered", ctx);
      fail_unless (gst_query_get_n_allocation_pools (query) > 0);
      gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
      config = gst_buffer_pool_get_config (pool);
      gst_buffer_pool_config_get_params (config, &pool_caps, NULL, NULL, NULL);
      fail_unless (gst_caps_is_equal (pool_caps, caps), "%s: pool for other "
          "caps", ctx);
      gst_structure_free (config);
      gst_query_unref (query);
      gst_caps_unref (caps);
      fail_unless (gst_buffer_pool_set_active (pool, TRUE));
      fail_unless (gst_buffer_pool_acquire_buffer (pool, &in, NULL) ==
          GST_FLOW_OK);
      rt_fill_random (in, rand);
      th_push_check_unref (hr, &info, in, &p, ctx);

      /* a frame of the previous caps' pool, as a slow upstream might push */
      if (prev_pool != NULL) {
        GstBuffer *old = NULL;
        GstFlowReturn ret;

        fail_unless (gst_buffer_pool_acquire_buffer (prev_pool, &old, NULL) ==
            GST_FLOW_OK);
        rt_fill_random (old, rand);
        if (gst_buffer_get_size (old) >= info.size &&
            gst_buffer_get_video_meta (old)->n_planes ==
            GST_VIDEO_INFO_N_PLANES (&info) &&
            GST_VIDEO_INFO_FORMAT (&prev_info) == GST_VIDEO_INFO_FORMAT (&info)
            && GST_VIDEO_INFO_WIDTH (&prev_info) >= GST_VIDEO_INFO_WIDTH (&info)
            && GST_VIDEO_INFO_HEIGHT (&prev_info) >=
            GST_VIDEO_INFO_HEIGHT (&info)) {
          /* the top-left part of a larger frame, as gst_video_frame_map
           * reads it */
          GstBuffer *crop = crop_copy (&info, old);
          GstBuffer *exp = rt_make_expected (&info, crop, &p), *out;
          gchar *first = NULL;
          guint bad;

          fail_unless (gst_harness_push (hr, old) == GST_FLOW_OK, "%s: a "
              "frame of the previous pool was refused", ctx);
          out = gst_harness_pull (hr);
          bad = rt_compare (&info, out, exp, 0, &first);
          fail_unless (bad == 0, "%s: previous-pool frame: %u samples differ, "
              "first %s", ctx, bad, first);
          gst_buffer_unref (out);
          gst_buffer_unref (exp);
          gst_buffer_unref (crop);
        } else {
          ret = gst_harness_push (hr, old);
          if (ret == GST_FLOW_OK) {
            gst_buffer_unref (gst_harness_pull (hr));
          } else {
            fail_unless (ret == GST_FLOW_ERROR, "%s: a stale pool frame "
                "gave %s", ctx, gst_flow_get_name (ret));
            fail_unless (rt_drain_errors (hr->element, NULL) == 1);
            /* the error stopped the stream */
            th_restart_stream (hr, &info);
            restarted[round][i] = TRUE;
          }
        }
        fail_unless (gst_buffer_pool_set_active (prev_pool, FALSE));
        gst_object_unref (prev_pool);
      }
      prev_pool = pool;
      prev_info = info;
      held[round][i] = clfault_live_total ();
      g_free (ctx);
    }
  }
  for (i = 0; i < G_N_ELEMENTS (steps); i++)
    fail_unless (held[1][i] == held[0][i] ||
        restarted[1][i] != restarted[0][i], "step %u: %ld OpenCL objects "
        "held in the second round, %ld in the first", i, held[1][i],
        held[0][i]);

  fail_unless (gst_buffer_pool_set_active (prev_pool, FALSE));
  gst_object_unref (prev_pool);
  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* Caps the element cannot take: formats and memory it does not support
 * (refused by the accept-caps query), sizes GstVideoInfo itself refuses, and
 * sizes whose byte counts overflow what the element computes with, which
 * the element refuses with an error saying so, which stops the stream until
 * READY. Every time the next frame gets GST_FLOW_NOT_NEGOTIATED, no device
 * memory is asked for, and supported caps afterwards work again (after a
 * restart where an error was posted). */
GST_START_TEST (test_unsupported_caps)
{
  static const struct
  {
    const gchar *caps;
    gboolean acceptable;        /* passes the accept-caps query */
  } bad[] = {
    {"video/x-raw, format=RGBA, width=64, height=48, framerate=30/1", FALSE},
    {"video/x-raw, format=v210, width=64, height=48, framerate=30/1", FALSE},
    {"video/x-raw(memory:GLMemory), format=NV12, width=64, height=48, "
          "framerate=30/1", FALSE},
    /* GstVideoInfo refuses these (2^32 and 2^31 bytes of luma) */
    {"video/x-raw, format=GRAY8, width=65536, height=65536, framerate=30/1",
        TRUE},
    {"video/x-raw, format=I420, width=46341, height=46341, framerate=30/1",
        TRUE},
    /* a 2^31-byte plane: beyond the kernels' 32-bit offsets */
    {"video/x-raw, format=GRAY8, width=65536, height=32768, framerate=30/1",
        TRUE},
    {"video/x-raw, format=YUY2, width=32768, height=32768, framerate=30/1",
        TRUE},
    /* GstVideoInfo takes it, with a negative stride and a size of ~2^64 */
    {"video/x-raw, format=GRAY8, width=2147483647, height=1, framerate=30/1",
        TRUE},
    {"video/x-raw, format=GRAY8, width=2147483647, height=3, framerate=30/1",
        TRUE},
    {"video/x-raw, format=NV21, width=2147483647, height=1, framerate=30/1",
        TRUE},
  };
  GRand *rand = g_rand_new_with_seed (0xbadca95);
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  guint i;

  th_params_init (&p, 20, 5, 10);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 64, 48, &info);
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
      "before");

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstCaps *caps = gst_caps_from_string (bad[i].caps);
    gchar *text = NULL;
    GstFlowReturn ret;
    guint n_errors;
    GstVideoInfo big;
    /* caps GstVideoInfo takes reach the element, which must say why not */
    gboolean posts_error = bad[i].acceptable &&
        gst_video_info_from_caps (&big, caps);

    fail_unless (caps != NULL);
    fail_unless (gst_pad_peer_query_accept_caps (hr->srcpad, caps) ==
        bad[i].acceptable, "%s: accept-caps answered %d", bad[i].caps,
        !bad[i].acceptable);
    clfault_arm (0, CL_SUCCESS, "clCreateBuffer", FALSE);
    /* downstream takes any video, so that the element itself decides */
    gst_harness_set_sink_caps_str (hr, "video/x-raw");
    rt_push_caps (hr, caps);
    ret = gst_harness_push (hr, gst_buffer_new_allocate (NULL, 64, NULL));
    fail_unless (ret == GST_FLOW_NOT_NEGOTIATED, "%s: push returned %s",
        bad[i].caps, gst_flow_get_name (ret));
    fail_unless (gst_harness_try_pull (hr) == NULL);
    fail_unless (clfault_calls () == 0, "%s: %lu device buffers asked for",
        bad[i].caps, clfault_calls ());
    clfault_reset ();
    n_errors = rt_drain_errors (hr->element, &text);
    if (posts_error) {
      fail_unless (n_errors >= 1, "%s: no error posted", bad[i].caps);
      fail_unless (strstr (text, "too large") != NULL, "%s: error \"%s\"",
          bad[i].caps, text);
      /* the error stopped the stream: frames with caps that fit fail too */
      th_harness_set_format (hr, GST_VIDEO_FORMAT_I420, 31, 7, &info);
      ret = gst_harness_push (hr, rt_make_input (&info, rand, 127, FALSE));
      fail_unless (ret == GST_FLOW_ERROR || ret == GST_FLOW_NOT_NEGOTIATED,
          "%s: after the error, a push returned %s", bad[i].caps,
          gst_flow_get_name (ret));
      th_restart_stream (hr, &info);
    } else {
      fail_unless (n_errors == 0, "%s: error \"%s\"", bad[i].caps, text);
    }
    GST_INFO ("%s: %s", bad[i].caps, text ? text : "(no error message)");
    g_free (text);

    /* and back */
    th_harness_set_format (hr, GST_VIDEO_FORMAT_I420, 31, 7, &info);
    th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
        bad[i].caps);
  }
  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* A frame from the pool the element proposes, copied whole (what
 * GstVideoDecoder does to an output frame libav still holds as a
 * reference), with the device's memory (@fail: every clCreateBuffer fails)
 * or without: the same bytes, in OpenCL memory or else in system memory,
 * never no copy (1.22's decoder crashes on that). */
static void
check_pool_frame_copy (GstHarness * hr, gboolean fail)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=I420,width=64,"
      "height=48,framerate=25/1");
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstBuffer *frame = NULL, *copy;
  GstMapInfo a, b;
  gsize i;

  fail_unless (gst_pad_peer_query (hr->srcpad, query));
  fail_unless (gst_query_get_n_allocation_pools (query) > 0);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  fail_unless (pool != NULL && gst_buffer_pool_set_active (pool, TRUE));
  fail_unless (gst_buffer_pool_acquire_buffer (pool, &frame, NULL) ==
      GST_FLOW_OK);
  fail_unless (gst_buffer_map (frame, &a, GST_MAP_WRITE));
  for (i = 0; i < a.size; i++)
    a.data[i] = (guint8) (i * 7 + 3);
  gst_buffer_unmap (frame, &a);

  if (fail)
    clfault_arm (1, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer", TRUE);
  copy = gst_buffer_copy_deep (frame);
  clfault_reset ();
  fail_unless (copy != NULL, "no copy (device memory %s)",
      fail ? "refused" : "given");
  fail_unless_equals_string (gst_buffer_peek_memory (copy,
          0)->allocator->mem_type,
      fail ? GST_ALLOCATOR_SYSMEM : "OpenCLBuffer");
  fail_unless (gst_buffer_map (frame, &a, GST_MAP_READ));
  fail_unless (gst_buffer_map (copy, &b, GST_MAP_READ));
  fail_unless_equals_uint64 (a.size, b.size);
  fail_unless (memcmp (a.data, b.data, a.size) == 0);
  gst_buffer_unmap (copy, &b);
  gst_buffer_unmap (frame, &a);

  gst_buffer_unref (copy);
  gst_buffer_unref (frame);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_query_unref (query);
  gst_caps_unref (caps);
}

GST_START_TEST (test_pool_frame_copy)
{
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;

  th_params_init (&p, 20, 5, 10);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_I420, 64, 48, &info);
  check_pool_frame_copy (hr, FALSE);
  check_pool_frame_copy (hr, TRUE);
  th_teardown_checked (hr);
}

GST_END_TEST;

/* The pool the element proposes for system-memory caps, when the device
 * gives no more frame memory: the frame it hands upstream is in system
 * memory, laid out as its own, rather than none (avdec_* of GStreamer 1.22
 * crash draining after a failed allocation); the element still stops the
 * stream with an ERROR that names the call. */
GST_START_TEST (test_pool_out_of_device_memory)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=I420,width=64,"
      "height=48,framerate=25/1");
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstBuffer *frame = NULL;
  GstVideoMeta *meta;
  GstVideoInfo info;
  GstHarness *hr;
  GstFlowReturn ret;
  gchar *text = NULL;
  RefParams p;

  th_params_init (&p, 20, 5, 10);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_I420, 64, 48, &info);
  fail_unless (gst_pad_peer_query (hr->srcpad, query));
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  fail_unless (pool != NULL && gst_buffer_pool_set_active (pool, TRUE));

  clfault_arm (1, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer", TRUE);
  fail_unless (gst_buffer_pool_acquire_buffer (pool, &frame, NULL) ==
      GST_FLOW_OK);
  fail_unless (clfault_failures () > 0);
  clfault_reset ();
  fail_unless_equals_string (gst_buffer_peek_memory (frame,
          0)->allocator->mem_type, GST_ALLOCATOR_SYSMEM);
  fail_unless (gst_buffer_get_size (frame) >= GST_VIDEO_INFO_SIZE (&info));
  meta = gst_buffer_get_video_meta (frame);
  fail_unless (meta != NULL && meta->n_planes == 3);
  fail_unless_equals_uint64 (meta->offset[2], info.offset[2]);
  fail_unless_equals_int (meta->stride[1], info.stride[1]);

  /* the element was told: its stream stops, the call named */
  ret = gst_harness_push (hr, frame);
  fail_unless (ret == GST_FLOW_ERROR, "push returned %s",
      gst_flow_get_name (ret));
  fail_unless (rt_drain_errors (hr->element, &text) >= 1);
  fail_unless (text && strstr (text, "clCreateBuffer") != NULL, "error: %s",
      GST_STR_NULL (text));
  g_free (text);

  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_element_set_state (hr->element, GST_STATE_NULL);
  rt_teardown (hr);
}

GST_END_TEST;

/* An ALLOCATION query for caps the element would refuse (a frame whose size
 * GstVideoInfo computed as ~2^64, one with a 2 GiB plane) gets no pool, in
 * particular none whose 32-bit buffer size is a truncated frame size. */
GST_START_TEST (test_allocation_query_huge_caps)
{
  static const gchar *const huge[] = {
    "video/x-raw, format=GRAY8, width=2147483647, height=1, framerate=30/1",
    "video/x-raw, format=GRAY8, width=65536, height=32768, framerate=30/1",
  };
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  guint i;

  th_params_init (&p, 20, 5, 0);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 64, 48, &info);
  for (i = 0; i < G_N_ELEMENTS (huge); i++) {
    GstCaps *caps = gst_caps_from_string (huge[i]);
    GstQuery *query = gst_query_new_allocation (caps, TRUE);
    GstVideoInfo big;
    guint n, j;

    fail_unless (gst_video_info_from_caps (&big, caps));
    gst_pad_peer_query (hr->srcpad, query);
    n = gst_query_get_n_allocation_pools (query);
    for (j = 0; j < n; j++) {
      GstBufferPool *pool = NULL;
      guint size = 0;

      gst_query_parse_nth_allocation_pool (query, j, &pool, &size, NULL, NULL);
      fail_unless (pool == NULL, "%s: a pool of %u-byte buffers proposed for "
          "%" G_GSIZE_FORMAT "-byte frames", huge[i], size, big.size);
      if (pool)
        gst_object_unref (pool);
    }
    gst_query_unref (query);
    gst_caps_unref (caps);
  }
  th_teardown_checked (hr);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Sizes and layouts                                                        */

/* Every 8-bit format at 1x1, 2x2, 1xN, Nx1 and odd sizes, in the default layout
 * and with padded strides and plane offsets through a GstVideoMeta; the
 * padded input is not written to. One element per format, renegotiated from
 * size to size. */
GST_START_TEST (test_sizes_and_layouts)
{
  static const gint sizes[][2] = {
    {1, 1}, {2, 2}, {1, 37}, {37, 1}, {3, 7}, {7, 3}, {33, 17}, {2, 1},
    {1, 2},
  };
  GRand *rand = g_rand_new_with_seed (0x512e5);
  guint f, s, cases = 0;

  RT_FOR_EACH_FORMAT (f, rt_formats_8bit) {
    GstHarness *hr;
    RefParams p;

    th_params_init (&p, 30, 7, 20);
    hr = new_harness (&p, k_blur);
    fail_unless (rt_params_set_kernel (&p, k_blur));
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gchar *ctx = g_strdup_printf ("%s %dx%d",
          gst_video_format_to_string (rt_formats_8bit[f]), sizes[s][0],
          sizes[s][1]);
      gchar *pctx = g_strdup_printf ("%s, padded", ctx);
      GstVideoInfo info;
      GstBuffer *in, *copy;

      th_harness_set_format (hr, rt_formats_8bit[f], sizes[s][0], sizes[s][1],
          &info);
      th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE),
          &p, ctx);
      th_push_check_unref (hr, &info, rt_make_input (&info, rand, 0, TRUE), &p,
          ctx);

      in = rt_make_padded_input (&info, rand, 13, 29, 0xa5);
      copy = gst_buffer_copy_deep (in);
      gst_buffer_ref (in);
      th_push_check_unref (hr, &info, in, &p, pctx);
      {
        GstMapInfo a, b;

        fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
        fail_unless (gst_buffer_map (copy, &b, GST_MAP_READ));
        fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
            "%s: the input buffer was written to", pctx);
        gst_buffer_unmap (copy, &b);
        gst_buffer_unmap (in, &a);
      }
      gst_buffer_unref (in);
      gst_buffer_unref (copy);
      cases += 3;
      g_free (pctx);
      g_free (ctx);
    }
    th_teardown_checked (hr);
  }
  GST_INFO ("%u frames checked", cases);
  g_rand_free (rand);
}

GST_END_TEST;

/* @size bytes of 0x11 that end right at an inaccessible page. */
static GstMemory *
guarded_memory (gsize size)
{
  GstMemory *mem = th_guarded_memory_new (size, 1, FALSE);
  GstMapInfo map;

  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  memset (map.data, 0x11, map.size);
  gst_memory_unmap (mem, &map);
  return mem;
}

/* For every 8-bit format and every plane, a GstVideoMeta layout in which that
 * plane's last row runs one byte past the end of the buffer: refused with a
 * stream error, never read past (the next byte is an inaccessible page),
 * at an aligned and at an odd address. */
GST_START_TEST (test_undersized_each_plane)
{
  GRand *rand = g_rand_new_with_seed (0x0dd);
  guint f, plane, odd, cases = 0;

  RT_FOR_EACH_FORMAT (f, rt_formats_8bit) {
    GstVideoInfo info;
    GstHarness *hr;
    RefParams p;

    th_params_init (&p, 20, 5, 10);
    hr = new_harness (&p, NULL);
    th_harness_set_format (hr, rt_formats_8bit[f], 30, 20, &info);
    for (plane = 0; plane < GST_VIDEO_INFO_N_PLANES (&info); plane++) {
      for (odd = 0; odd < 2; odd++) {
        gsize offset[GST_VIDEO_MAX_PLANES];
        gint stride[GST_VIDEO_MAX_PLANES];
        gint comps[GST_VIDEO_MAX_COMPONENTS];
        gchar *ctx, *text = NULL;
        GstBuffer *buf;
        GstFlowReturn ret;
        gsize end = 0, q, lead;
        guint n;

        /* the planes in reverse order, so that @plane can be the last one
         * in memory */
        for (q = 0; q < GST_VIDEO_INFO_N_PLANES (&info); q++) {
          stride[q] = GST_VIDEO_INFO_PLANE_STRIDE (&info, q);
          offset[q] = 0;
        }
        for (q = 0; q < GST_VIDEO_INFO_N_PLANES (&info); q++) {
          gint rows;

          if (q == plane)
            continue;
          gst_video_format_info_component (info.finfo, q, comps);
          rows = GST_VIDEO_INFO_COMP_HEIGHT (&info, comps[0]);
          offset[q] = end;
          end += (gsize) stride[q] * rows;
        }
        gst_video_format_info_component (info.finfo, plane, comps);
        offset[plane] = end;
        /* the plane's rows, its last row one byte short */
        end += (gsize) stride[plane] *
            (GST_VIDEO_INFO_COMP_HEIGHT (&info, comps[0]) - 1) +
            GST_VIDEO_INFO_COMP_WIDTH (&info, comps[0]) *
            GST_VIDEO_INFO_COMP_PSTRIDE (&info, comps[0]) - 1;

        /* lead bytes so that the buffer starts 128-byte aligned (the element
         * wraps it) or at an odd address (the element maps it) */
        lead = odd ? (end % 2 == 0) : (128 - end % 128) % 128;
        for (q = 0; q < GST_VIDEO_INFO_N_PLANES (&info); q++)
          offset[q] += lead;
        end += lead;
        buf = gst_buffer_new ();
        gst_buffer_append_memory (buf, guarded_memory (end));
        gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
            GST_VIDEO_INFO_FORMAT (&info), 30, 20,
            GST_VIDEO_INFO_N_PLANES (&info), offset, stride);
        ctx = g_strdup_printf ("%s 30x20, plane %u short by one byte, %s",
            gst_video_format_to_string (rt_formats_8bit[f]), plane,
            odd ? "odd address" : "aligned");
        ret = gst_harness_push (hr, buf);
        fail_unless (ret == GST_FLOW_ERROR, "%s: push returned %s", ctx,
            gst_flow_get_name (ret));
        fail_unless (gst_harness_try_pull (hr) == NULL);
        n = rt_drain_errors (hr->element, &text);
        fail_unless (n == 1, "%s: %u errors", ctx, n);
        fail_unless (strstr (text, "too small") != NULL, "%s: error \"%s\"",
            ctx, text);
        g_free (text);
        g_free (ctx);
        cases++;
        /* the error stopped the stream */
        th_restart_stream (hr, &info);
      }
    }
    /* still working */
    th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
        "after the refused frames");
    th_teardown_checked (hr);
  }
  GST_INFO ("%u undersized layouts refused", cases);
  g_rand_free (rand);
}

GST_END_TEST;

/* A 4 KB buffer under 16000x16000 caps, with the cache off: refused before
 * any program is built or kernel variant timed for those caps (tuning for
 * them first would take tens of seconds for a frame that is refused
 * anyway). */
GST_START_TEST (test_undersized_before_tuning)
{
  gchar *cache = rt_cache_off (), *text = NULL;
  GstStructure *stats = NULL;
  guint before = 0, compiled = G_MAXUINT, runs = G_MAXUINT, n;
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  GstFlowReturn ret;

  th_params_init (&p, 20, 9, 0);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_GRAY8, 16000, 16000, &info);
  g_object_get (hr->element, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint (stats, "programs-compiled", &before));
  gst_structure_free (stats);
  ret = gst_harness_push (hr, gst_buffer_new_allocate (NULL, 4096, NULL));
  fail_unless (ret == GST_FLOW_ERROR, "push returned %s",
      gst_flow_get_name (ret));
  n = rt_drain_errors (hr->element, &text);
  fail_unless (n == 1 && strstr (text, "too small") != NULL, "%u errors: %s",
      n, text);
  g_object_get (hr->element, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint (stats, "programs-compiled", &compiled)
      && gst_structure_get_uint (stats, "tuning-runs", &runs));
  fail_unless (compiled == before && runs == 0, "before refusing the "
      "buffer: %u programs compiled (%u at start), %u tuning runs", compiled,
      before, runs);
  gst_structure_free (stats);
  g_free (text);
  rt_teardown (hr);
  rt_cache_restore (cache);
}

GST_END_TEST;

/* A frame whose planes are split over several memories with a GstVideoMeta,
 * the first memory ending at an inaccessible page inside the luma plane:
 * the element must read the rows from both memories (or refuse the frame),
 * never past the end of the first one. */
GST_START_TEST (test_plane_across_memories)
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_GRAY8,
  };
  GRand *rand = g_rand_new_with_seed (0x5917);
  guint f, split;

  RT_FOR_EACH_FORMAT (f, formats) {
    GstVideoInfo info;
    GstHarness *hr;
    RefParams p;

    th_params_init (&p, 20, 5, 10);
    hr = new_harness (&p, k_blur);
    fail_unless (rt_params_set_kernel (&p, k_blur));
    th_harness_set_format (hr, formats[f], 40, 30, &info);
    for (split = 1; split < 4; split++) {
      /* split inside the luma plane, at a row boundary and mid-row */
      gsize cut = split == 1 ? 40 * 10 : split == 2 ? 40 * 10 + 17 :
          info.size - 5;
      GstBuffer *whole = rt_make_input (&info, rand, 127, FALSE);
      GstBuffer *buf = gst_buffer_new ();
      GstMemory *first = guarded_memory (cut);
      GstMemory *rest = gst_allocator_alloc (NULL, info.size - cut, NULL);
      gchar *ctx = g_strdup_printf ("%s 40x30 in two memories cut at %"
          G_GSIZE_FORMAT, gst_video_format_to_string (formats[f]), cut);
      GstMapInfo map;
      GstFlowReturn ret;
      GstBuffer *exp;

      fail_unless (gst_memory_map (first, &map, GST_MAP_WRITE));
      gst_buffer_extract (whole, 0, map.data, cut);
      gst_memory_unmap (first, &map);
      fail_unless (gst_memory_map (rest, &map, GST_MAP_WRITE));
      gst_buffer_extract (whole, cut, map.data, info.size - cut);
      gst_memory_unmap (rest, &map);
      gst_buffer_append_memory (buf, first);
      gst_buffer_append_memory (buf, rest);
      gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
          GST_VIDEO_INFO_FORMAT (&info), 40, 30,
          GST_VIDEO_INFO_N_PLANES (&info), info.offset, info.stride);

      exp = rt_make_expected (&info, whole, &p);
      ret = gst_harness_push (hr, buf);
      if (ret == GST_FLOW_OK) {
        GstBuffer *out = gst_harness_pull (hr);
        gchar *first_bad = NULL;
        guint bad = rt_compare (&info, out, exp, 0, &first_bad);

        fail_unless (bad == 0, "%s: %u samples differ; first %s", ctx, bad,
            first_bad);
        gst_buffer_unref (out);
      } else {
        gchar *text = NULL;

        fail_unless (ret == GST_FLOW_ERROR, "%s: push returned %s", ctx,
            gst_flow_get_name (ret));
        fail_unless (rt_drain_errors (hr->element, &text) == 1);
        GST_INFO ("%s: refused: %s", ctx, text);
        g_free (text);
      }
      gst_buffer_unref (exp);
      gst_buffer_unref (whole);
      g_free (ctx);
    }
    th_teardown_checked (hr);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* A GstVideoMeta that disagrees with the caps (another format, a smaller
 * frame, another number of planes): refused with a stream error, with no
 * critical warning (gst_video_frame_map would give one), whether the
 * element wraps, maps or copies the buffer. */
GST_START_TEST (test_meta_mismatch)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
    guint n_planes;
  } metas[] = {
    {GST_VIDEO_FORMAT_YV12, 30, 20, 3},
    {GST_VIDEO_FORMAT_NV12, 30, 20, 2},
    {GST_VIDEO_FORMAT_I420, 29, 20, 3},
    {GST_VIDEO_FORMAT_I420, 30, 19, 3},
    {GST_VIDEO_FORMAT_I420, 30, 20, 2},
    {GST_VIDEO_FORMAT_I420, 30, 20, 4},
  };
  GRand *rand = g_rand_new_with_seed (0x3e7a);
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  guint i, path;

  th_params_init (&p, 20, 5, 10);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_I420, 30, 20, &info);
  for (i = 0; i < G_N_ELEMENTS (metas); i++) {
    for (path = 0; path < 2; path++) {
      GstBuffer *buf = rt_make_input (&info, rand, 127, path == 1);
      gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 0, 0, 0 };
      gint stride[GST_VIDEO_MAX_PLANES] = { 32, 16, 16, 16 };
      gchar *ctx = g_strdup_printf ("I420 30x20 caps, meta %s %dx%d with %u "
          "planes, %s", gst_video_format_to_string (metas[i].fmt), metas[i].w,
          metas[i].h, metas[i].n_planes, path ? "odd address" : "aligned");
      gchar *text = NULL;
      GstFlowReturn ret;

      offset[1] = 32 * 20;
      offset[2] = offset[1] + 16 * 10;
      offset[3] = offset[2] + 16 * 10;
      gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
          metas[i].fmt, metas[i].w, metas[i].h, metas[i].n_planes, offset,
          stride);
      ret = gst_harness_push (hr, buf);
      fail_unless (ret == GST_FLOW_ERROR, "%s: push returned %s", ctx,
          gst_flow_get_name (ret));
      fail_unless (rt_drain_errors (hr->element, &text) == 1, "%s", ctx);
      fail_unless (strstr (text, "does not match") != NULL, "%s: error "
          "\"%s\"", ctx, text);
      g_free (text);
      g_free (ctx);
      /* the error stopped the stream */
      th_restart_stream (hr, &info);
    }
  }
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
      "after the mismatched metas");
  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Flushing and EOS                                                         */

typedef struct
{
  GMutex lock;
  GCond cond;
  GstClockTime target;          /* the seek position */
  GstClockTime frame;           /* frame duration */
  gboolean flushed;             /* FLUSH_STOP of the last seek seen */
  guint after_flush;            /* buffers since */
  GstClockTime last;            /* PTS of the last of those */
  guint stale;
  GstClockTime stale_pts;
  guint buffers;
  gboolean eos;
  guint after_eos;
} FlowWatch;

/* After a flushing seek the first frame is the one at the seek position
 * (within a frame: the source rounds it), and the next ones follow it frame
 * by frame; a frame from before the seek breaks that. */
static GstPadProbeReturn
watch_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  FlowWatch *w = user_data;

  g_mutex_lock (&w->lock);
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    GstClockTime pts = GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info));
    gboolean ok = TRUE;

    w->buffers++;
    if (w->eos)
      w->after_eos++;
    if (w->flushed) {
      if (w->after_flush == 0)
        ok = pts + w->frame >= w->target && pts <= w->target;
      else
        ok = pts > w->last && pts <= w->last + w->frame + 1;
      if (!ok && w->stale++ == 0)
        w->stale_pts = pts;
      w->last = pts;
      w->after_flush++;
    }
  } else if (GST_PAD_PROBE_INFO_TYPE (info) &
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);

    if (GST_EVENT_TYPE (ev) == GST_EVENT_FLUSH_STOP) {
      w->flushed = TRUE;
      w->after_flush = 0;
    } else if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS) {
      w->eos = TRUE;
    }
  }
  g_cond_broadcast (&w->cond);
  g_mutex_unlock (&w->lock);
  return GST_PAD_PROBE_OK;
}

static GstElement *
watched_pipeline (const gchar * desc, FlowWatch * w)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstElement *f;
  GstPad *pad;

  if (pipeline == NULL || error != NULL)
    return NULL;
  f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  pad = gst_element_get_static_pad (f, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
      watch_probe, w, NULL);
  gst_object_unref (pad);
  gst_object_unref (f);
  return pipeline;
}

static void
fail_on_bus_error (GstElement * pipeline, const gchar * ctx)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  gst_object_unref (bus);
  if (msg) {
    gchar *text = rt_error_text (msg);
    fail ("%s: %s", ctx, text);
  }
}

/* Flushing seeks while frames are queued before and after the element and
 * one is being filtered: after each flush every frame is from the new
 * position (no stale frame), frames keep coming (no deadlock). Seeks in
 * PLAYING and in PAUSED. */
GST_START_TEST (test_flushing_seeks)
{
  gchar *desc = g_strdup_printf ("videotestsrc pattern=ball ! video/x-raw,"
      "format=NV12,width=160,height=120,framerate=30/1 ! "
      "queue max-size-buffers=3 ! clepsilon name=f device=%s threshold=20 "
      "epsilon-variant=plain "
      "chroma-threshold=10 ! queue max-size-buffers=3 ! "
      "fakesink sync=false", rt_device ());
  FlowWatch w = { 0, };
  GstElement *pipeline;
  guint i;

  g_mutex_init (&w.lock);
  g_cond_init (&w.cond);
  w.frame = gst_util_uint64_scale (1, GST_SECOND, 30);
  pipeline = watched_pipeline (desc, &w);
  if (pipeline == NULL) {
    g_print ("clepsilonrobust: videotestsrc missing, flushing seeks "
        "skipped\n");
    goto out;
  }
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipeline, NULL, NULL,
          30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);

  for (i = 0; i < 30; i++) {
    guint frame = (i * 37) % 90;
    GstClockTime target = gst_util_uint64_scale (frame, GST_SECOND, 30);
    gint64 deadline;
    gboolean paused = i % 5 == 4;

    if (paused)
      fail_unless (gst_element_set_state (pipeline, GST_STATE_PAUSED) !=
          GST_STATE_CHANGE_FAILURE);
    g_mutex_lock (&w.lock);
    w.target = target;
    w.flushed = FALSE;
    g_mutex_unlock (&w.lock);
    fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, target),
        "seek %u refused", i);
    if (paused) {
      fail_unless (gst_element_get_state (pipeline, NULL, NULL,
              30 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS,
          "seek %u: no preroll in PAUSED", i);
      fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
          GST_STATE_CHANGE_FAILURE);
    }

    /* three frames from the new position; 30 s without one is a deadlock */
    deadline = g_get_monotonic_time () + 30 * G_TIME_SPAN_SECOND;
    g_mutex_lock (&w.lock);
    while (!(w.flushed && w.after_flush >= 3))
      if (!g_cond_wait_until (&w.cond, &w.lock, deadline))
        break;
    fail_unless (w.flushed && w.after_flush >= 3, "seek %u to %"
        GST_TIME_FORMAT ": no frames after the flush (%u buffers in all)", i,
        GST_TIME_ARGS (target), w.buffers);
    fail_unless (w.stale == 0, "seek %u to %" GST_TIME_FORMAT ": %u frames "
        "out of place after the flush, the first at %" GST_TIME_FORMAT, i,
        GST_TIME_ARGS (target), w.stale, GST_TIME_ARGS (w.stale_pts));
    g_mutex_unlock (&w.lock);
    fail_on_bus_error (pipeline, "flushing seeks");
  }
  fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
out:
  g_free (desc);
  g_mutex_clear (&w.lock);
  g_cond_clear (&w.cond);
}

GST_END_TEST;

typedef struct
{
  GstHarness *hr;
  GstVideoInfo info;
  guint n;
  GstBuffer **inputs;           /* what was pushed, for the reference */
  GstFlowReturn *rets;
  gint done;
} Pusher;

static gpointer
push_thread (gpointer data)
{
  Pusher *p = data;
  guint i;

  for (i = 0; i < p->n; i++)
    p->rets[i] = gst_harness_push (p->hr, gst_buffer_ref (p->inputs[i]));
  g_atomic_int_set (&p->done, 1);
  return NULL;
}

/* Flush-start and flush-stop from another thread while frames are pushed:
 * a push that returned GST_FLOW_OK has exactly one output, right for its
 * input; a flushed one has none. */
GST_START_TEST (test_flush_while_pushing)
{
  GRand *rand = g_rand_new_with_seed (0xf105);
  Pusher ps = { 0, };
  GstPad *sinkpad;
  GThread *thread;
  RefParams p;
  guint i, ok = 0, flushed = 0, flushes = 0;

  th_params_init (&p, 20, 5, 10);
  ps.hr = new_harness (&p, k_blur);
  fail_unless (rt_params_set_kernel (&p, k_blur));
  th_harness_set_format (ps.hr, GST_VIDEO_FORMAT_NV12, 48, 32, &ps.info);
  ps.n = 300;
  ps.inputs = g_new0 (GstBuffer *, ps.n);
  ps.rets = g_new0 (GstFlowReturn, ps.n);
  for (i = 0; i < ps.n; i++) {
    ps.inputs[i] = rt_make_input (&ps.info, rand, 127, i % 3 == 2);
    GST_BUFFER_PTS (ps.inputs[i]) = i * GST_MSECOND;
  }
  sinkpad = gst_element_get_static_pad (ps.hr->element, "sink");

  thread = g_thread_new ("pusher", push_thread, &ps);
  while (!g_atomic_int_get (&ps.done)) {
    GstSegment segment;

    /* sent to the element's sink pad: the harness's source pad keeps its
     * events and the pusher keeps pushing */
    gst_pad_send_event (sinkpad, gst_event_new_flush_start ());
    g_thread_yield ();
    /* flush-stop and the new segment together, before the next frame */
    GST_PAD_STREAM_LOCK (sinkpad);
    gst_pad_send_event (sinkpad, gst_event_new_flush_stop (FALSE));
    gst_segment_init (&segment, GST_FORMAT_TIME);
    gst_pad_send_event (sinkpad, gst_event_new_segment (&segment));
    GST_PAD_STREAM_UNLOCK (sinkpad);
    flushes++;
    g_usleep (500);
  }
  g_thread_join (thread);
  gst_object_unref (sinkpad);

  for (i = 0; i < ps.n; i++) {
    if (ps.rets[i] == GST_FLOW_OK) {
      GstBuffer *out = gst_harness_try_pull (ps.hr), *exp;
      gchar *first = NULL;
      guint bad;

      fail_unless (out != NULL, "frame %u: pushed fine, no output", i);
      fail_unless (GST_BUFFER_PTS (out) == i * GST_MSECOND, "frame %u: "
          "output %" GST_TIME_FORMAT " instead", i,
          GST_TIME_ARGS (GST_BUFFER_PTS (out)));
      exp = rt_make_expected (&ps.info, ps.inputs[i], &p);
      bad = rt_compare (&ps.info, out, exp, 0, &first);
      fail_unless (bad == 0, "frame %u: %u samples differ, first %s", i,
          bad, first);
      gst_buffer_unref (exp);
      gst_buffer_unref (out);
      ok++;
    } else {
      fail_unless (ps.rets[i] == GST_FLOW_FLUSHING, "frame %u: push "
          "returned %s", i, gst_flow_get_name (ps.rets[i]));
      flushed++;
    }
  }
  fail_unless (gst_harness_try_pull (ps.hr) == NULL, "more outputs than "
      "frames pushed fine");
  GST_INFO ("%u flushes: %u frames through, %u flushed", flushes, ok, flushed);
  for (i = 0; i < ps.n; i++)
    gst_buffer_unref (ps.inputs[i]);
  g_free (ps.inputs);
  g_free (ps.rets);
  th_teardown_checked (ps.hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* EOS after frames: every frame comes out before EOS, a frame after EOS
 * gets GST_FLOW_EOS and no output, a flush makes the element usable again.
 * Then a pipeline with queues on both sides runs to EOS: all frames, none
 * after EOS, no deadlock. */
/* Upstream with a small pool of its own in system memory (a capture
 * source, a decoder downloading into its pool): the element must give
 * every buffer back once it has pushed the frame's output, whether frames
 * stay in flight (a discrete GPU, or GST_CL_DISCRETE=1) or not, without
 * waiting for its next frame (none comes while upstream waits: its pool
 * may have no other buffer). A buffer the device reads where it is (held
 * pinned) comes back from the element's own thread once its frame is
 * done, so upstream may wait a moment for it, as a source's blocking
 * acquire would. */
GST_START_TEST (test_upstream_small_pool)
{
  GRand *rand = g_rand_new_with_seed (0x5e11);
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config;
  GstVideoInfo info;
  GstHarness *hr;
  GstCaps *caps;
  RefParams p;
  guint i;

  th_params_init (&p, 20, 5, 0);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 64, 48, &info);
  caps = gst_video_info_to_caps (&info);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, 3, 3);
  gst_caps_unref (caps);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  for (i = 0; i < 12; i++) {
    GstBufferPoolAcquireParams params = { GST_FORMAT_UNDEFINED, 0, 0,
      GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT
    };
    gint64 until = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
    GstBuffer *all[3];
    gchar *ctx = g_strdup_printf ("[upstream pool of 3] frame %u", i);
    guint j;

    fail_unless (gst_buffer_pool_acquire_buffer (pool, &all[0], &params) ==
        GST_FLOW_OK, "%s: upstream's pool is exhausted", ctx);
    th_fill_buffer (&info, all[0], rand, TH_FILL_NOISE);
    th_push_check_unref (hr, &info, all[0], &p, ctx);
    /* all three back, with no later frame */
    for (j = 0; j < G_N_ELEMENTS (all); j++) {
      GstFlowReturn ret;

      while ((ret = gst_buffer_pool_acquire_buffer (pool, &all[j],
                  &params)) == GST_FLOW_EOS && g_get_monotonic_time () < until)
        g_usleep (200);
      fail_unless (ret == GST_FLOW_OK, "%s: %u of upstream's 3 buffers "
          "still held after 30 s", ctx, G_N_ELEMENTS (all) - j);
    }
    for (j = 0; j < G_N_ELEMENTS (all); j++)
      gst_buffer_unref (all[j]);
    g_free (ctx);
  }
  fail_unless (gst_harness_push_event (hr, gst_event_new_eos ()));
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  rt_teardown (hr);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_eos)
{
  GRand *rand = g_rand_new_with_seed (0xe05);
  GstVideoInfo info;
  GstHarness *hr;
  GstEvent *ev;
  RefParams p;
  GstSegment segment;
  guint i;
  gchar *desc;
  FlowWatch w = { 0, };
  GstElement *pipeline;

  th_params_init (&p, 20, 5, 10);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_I420, 20, 10, &info);
  for (i = 0; i < 5; i++)
    fail_unless (gst_harness_push (hr, rt_make_input (&info, rand, 127,
                FALSE)) == GST_FLOW_OK);
  fail_unless (gst_harness_push_event (hr, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (hr), 5);
  while ((ev = gst_harness_try_pull_event (hr)) != NULL) {
    gboolean eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;

    gst_event_unref (ev);
    if (eos)
      break;
  }
  fail_unless (ev != NULL, "no EOS downstream");
  fail_unless (gst_harness_push (hr, rt_make_input (&info, rand, 127,
              FALSE)) == GST_FLOW_EOS, "a frame after EOS was taken");
  fail_unless_equals_int (gst_harness_buffers_in_queue (hr), 5);
  for (i = 0; i < 5; i++)
    gst_buffer_unref (gst_harness_pull (hr));

  gst_harness_push_event (hr, gst_event_new_flush_start ());
  gst_harness_push_event (hr, gst_event_new_flush_stop (TRUE));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_harness_push_event (hr, gst_event_new_segment (&segment));
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
      "after EOS and a flush");
  th_teardown_checked (hr);

  desc = g_strdup_printf ("videotestsrc num-buffers=60 ! video/x-raw,"
      "format=NV12,width=96,height=64 ! queue max-size-buffers=4 ! "
      "clepsilon name=f device=%s threshold=15 epsilon-variant=plain ! "
      "queue max-size-buffers=4 ! " "fakesink sync=false", rt_device ());
  g_mutex_init (&w.lock);
  g_cond_init (&w.cond);
  pipeline = watched_pipeline (desc, &w);
  if (pipeline != NULL) {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg;

    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "no EOS after 60 s");
    fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "error: %s",
        rt_error_text (msg));
    gst_message_unref (msg);
    gst_object_unref (bus);
    fail_unless (gst_element_set_state (pipeline, GST_STATE_NULL) ==
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (w.buffers, 60);
    fail_unless (w.eos);
    fail_unless_equals_int (w.after_eos, 0);
    gst_object_unref (pipeline);
  } else {
    g_print ("clepsilonrobust: videotestsrc missing, pipeline EOS check "
        "skipped\n");
  }
  g_free (desc);
  g_mutex_clear (&w.lock);
  g_cond_clear (&w.cond);
  g_rand_free (rand);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Nothing lost                                                             */

/* The reference for metadata: a plain GstVideoFilter that copies frames. */
typedef GstVideoFilter RtVideoCopy;
typedef GstVideoFilterClass RtVideoCopyClass;
static GType rt_video_copy_get_type (void);
G_DEFINE_TYPE (RtVideoCopy, rt_video_copy, GST_TYPE_VIDEO_FILTER);

static GstFlowReturn
rt_video_copy_transform_frame (GstVideoFilter * filter, GstVideoFrame * in,
    GstVideoFrame * out)
{
  return gst_video_frame_copy (out, in) ? GST_FLOW_OK : GST_FLOW_ERROR;
}

static void
rt_video_copy_class_init (RtVideoCopyClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCaps *caps = gst_caps_from_string (GST_VIDEO_CAPS_MAKE
      ("{ NV12, I420, YV12, NV21, GRAY8 }"));

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  gst_element_class_set_static_metadata (element_class, "copy", "Filter",
      "copies", "tests");
  klass->transform_frame = rt_video_copy_transform_frame;
}

static void
rt_video_copy_init (RtVideoCopy * self)
{
}

static GType
custom_meta (const gchar * name, const gchar ** tags)
{
  const GstMetaInfo *info = gst_meta_get_info (name);

  if (info == NULL)
    info = gst_meta_register_custom (name, tags, NULL, NULL, NULL);
  return info->api;
}

static gboolean
collect_meta (GstBuffer * buf, GstMeta ** meta, gpointer user_data)
{
  GString *s = user_data;
  GType api = (*meta)->info->api;

  if (api == GST_VIDEO_META_API_TYPE)
    return TRUE;                /* describes the buffer's own layout */
  g_string_append_printf (s, "%s", g_type_name (api));
  if (gst_meta_info_is_custom ((*meta)->info)) {
    gchar *st = gst_structure_to_string (gst_custom_meta_get_structure (
            (GstCustomMeta *) * meta));

    g_string_append_printf (s, "[%s]", st);
    g_free (st);
  } else if (api == GST_VIDEO_CROP_META_API_TYPE) {
    GstVideoCropMeta *c = (GstVideoCropMeta *) * meta;

    g_string_append_printf (s, "[%u,%u,%u,%u]", c->x, c->y, c->width,
        c->height);
  }
  g_string_append (s, "; ");
  return TRUE;
}

static gchar *
describe_metas (GstBuffer * buf)
{
  GString *s = g_string_new (NULL);

  gst_buffer_foreach_meta (buf, collect_meta, s);
  return g_string_free (s, FALSE);
}

#define MS ((GstClockTime) GST_MSECOND)

#define CHECKED_FLAGS (GST_BUFFER_FLAG_LIVE | GST_BUFFER_FLAG_DECODE_ONLY | \
    GST_BUFFER_FLAG_DISCONT | GST_BUFFER_FLAG_RESYNC | \
    GST_BUFFER_FLAG_CORRUPTED | GST_BUFFER_FLAG_MARKER | \
    GST_BUFFER_FLAG_HEADER | GST_BUFFER_FLAG_GAP | GST_BUFFER_FLAG_DROPPABLE | \
    GST_BUFFER_FLAG_DELTA_UNIT | GST_BUFFER_FLAG_SYNC_AFTER | \
    GST_BUFFER_FLAG_NON_DROPPABLE)

/* One output per input, with its PTS, DTS, duration, offsets and flags
 * (some timestamps invalid, random flags), and the metas a plain
 * GstVideoFilter keeps: compared, frame by frame, with what such a filter
 * does to the same input. Filtering and passthrough. */
GST_START_TEST (test_nothing_lost)
{
  const gchar *video_tags[] = { GST_META_TAG_VIDEO_STR, NULL };
  const gchar *size_tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_SIZE_STR, NULL
  };
  const gchar *memory_tags[] = { GST_META_TAG_MEMORY_STR, NULL };
  const gchar *no_tags[] = { NULL };
  const gchar *meta_names[] = { "RtNoTagMeta", "RtVideoTagMeta",
    "RtSizeTagMeta", "RtMemoryTagMeta"
  };
  GstCaps *ts_caps = gst_caps_from_string ("timestamp/x-test");
  GRand *rand = g_rand_new_with_seed (0x105e);
  guint mode;

  custom_meta (meta_names[0], no_tags);
  custom_meta (meta_names[1], video_tags);
  custom_meta (meta_names[2], size_tags);
  custom_meta (meta_names[3], memory_tags);

  for (mode = 0; mode < 2; mode++) {
    GstVideoInfo info;
    GstHarness *hr, *ref;
    RefParams p;
    guint i;
    const guint n = 50;

    th_params_init (&p, mode == 0 ? 20 : 0, 5, 0);
    hr = new_harness (&p, NULL);
    th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 24, 16, &info);
    {
      GstElement *copy = g_object_new (rt_video_copy_get_type (), NULL);

      ref = gst_harness_new_with_element (copy, "sink", "src");
      gst_object_unref (copy);
    }
    th_harness_set_format (ref, GST_VIDEO_FORMAT_NV12, 24, 16, &info);

    for (i = 0; i < n; i++) {
      GstBuffer *in = rt_make_input (&info, rand, 127, i % 4 == 3), *out, *rout;
      gchar *ms, *rms, *ims;
      guint k;

      GST_BUFFER_PTS (in) = i % 7 == 3 ? GST_CLOCK_TIME_NONE :
          1000 + i * 33 * MS;
      GST_BUFFER_DTS (in) = i % 5 == 1 ? GST_CLOCK_TIME_NONE :
          500 + i * 33 * MS;
      GST_BUFFER_DURATION (in) = i % 9 == 8 ? GST_CLOCK_TIME_NONE : 33 * MS + i;
      GST_BUFFER_OFFSET (in) = i % 6 == 2 ? GST_BUFFER_OFFSET_NONE : 100 + i;
      GST_BUFFER_OFFSET_END (in) = i % 8 == 5 ? GST_BUFFER_OFFSET_NONE :
          101 + i;
      GST_BUFFER_FLAGS (in) = g_rand_int (rand) & CHECKED_FLAGS;
      for (k = 0; k < G_N_ELEMENTS (meta_names); k++) {
        if (g_rand_boolean (rand)) {
          GstCustomMeta *m = gst_buffer_add_custom_meta (in, meta_names[k]);

          fail_unless (m != NULL);
          gst_structure_set (gst_custom_meta_get_structure (m), "frame",
              G_TYPE_UINT, i, NULL);
        }
      }
      if (i % 3 == 0)
        gst_buffer_add_video_crop_meta (in)->width = 10 + i % 5;
      if (i % 4 == 1)
        gst_buffer_add_reference_timestamp_meta (in, ts_caps, i * GST_SECOND,
            GST_CLOCK_TIME_NONE);

      ims = describe_metas (in);
      fail_unless (gst_harness_push (ref, gst_buffer_copy (in)) == GST_FLOW_OK);
      gst_buffer_ref (in);
      fail_unless (gst_harness_push (hr, in) == GST_FLOW_OK, "frame %u", i);
      out = gst_harness_try_pull (hr);
      rout = gst_harness_pull (ref);
      fail_unless (out != NULL, "frame %u: no output", i);
      fail_unless (gst_harness_try_pull (hr) == NULL, "frame %u: two "
          "outputs", i);
      fail_unless (GST_BUFFER_PTS (out) == GST_BUFFER_PTS (in) &&
          GST_BUFFER_DTS (out) == GST_BUFFER_DTS (in) &&
          GST_BUFFER_DURATION (out) == GST_BUFFER_DURATION (in) &&
          GST_BUFFER_OFFSET (out) == GST_BUFFER_OFFSET (in) &&
          GST_BUFFER_OFFSET_END (out) == GST_BUFFER_OFFSET_END (in),
          "frame %u: timestamps or offsets changed", i);
      if (mode == 1) {
        /* passthrough, as a GstVideoFilter in passthrough: the same buffer */
        fail_unless (out == in, "frame %u: passthrough made a new buffer", i);
        gst_buffer_unref (rout);
        rout = gst_buffer_ref (in);
      }
      fail_unless ((GST_BUFFER_FLAGS (out) & CHECKED_FLAGS) ==
          (GST_BUFFER_FLAGS (rout) & CHECKED_FLAGS),
          "frame %u: flags 0x%x, a GstVideoFilter gives 0x%x (input 0x%x)", i,
          GST_BUFFER_FLAGS (out) & CHECKED_FLAGS,
          GST_BUFFER_FLAGS (rout) & CHECKED_FLAGS, GST_BUFFER_FLAGS (in));
      if (mode != 1) {
        /* clepsilon keeps the crop meta, which a plain GstVideoFilter drops
         * (docs/filters.md, "Crop"): checked here, then left out of the
         * comparison. */
        GstVideoCropMeta *ic = gst_buffer_get_video_crop_meta (in);
        GstVideoCropMeta *oc = gst_buffer_get_video_crop_meta (out);

        fail_unless ((ic != NULL) == (oc != NULL), "frame %u: crop meta %s",
            i, ic ? "lost" : "appeared");
        if (oc) {
          fail_unless (oc->x == ic->x && oc->y == ic->y &&
              oc->width == ic->width && oc->height == ic->height,
              "frame %u: crop meta changed", i);
          fail_unless (gst_buffer_is_writable (out));
          gst_buffer_remove_meta (out, (GstMeta *) oc);
        }
      }
      ms = describe_metas (out);
      rms = describe_metas (rout);
      fail_unless (g_str_equal (ms, rms), "frame %u (%s): metas \"%s\", a "
          "GstVideoFilter keeps \"%s\" of \"%s\"", i,
          mode ? "passthrough" : "filtering", ms, rms, ims);
      g_free (ms);
      g_free (rms);
      g_free (ims);
      gst_buffer_unref (rout);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
    gst_harness_teardown (ref);
    th_teardown_checked (hr);
  }
  gst_caps_unref (ts_caps);
  g_rand_free (rand);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Properties under churn                                                   */

static const guint churn_thresholds[] = { 0, 12, 60 };
static const guint churn_windows[] = { 3, 7, 15 };
static const guint churn_chromas[] = { 0, 25 };

static const gchar *const churn_kernels[] = { "", "1 2 1; 2 4 2; 1 2 1",
  "0 -1 0; -1 5 -1; 0 -1 0"
};
static const gdouble churn_divisors[] = { 0, 3, -2 };
static const gdouble churn_biases[] = { 0, 10 };

typedef struct
{
  GstElement *element;
  guint iterations;
  gint done;
  guint32 seed;
} Churn;

static gpointer
churn_thread (gpointer data)
{
  Churn *c = data;
  GRand *rand = g_rand_new_with_seed (c->seed);
  guint i;

#define PICK(a) a[g_rand_int_range (rand, 0, G_N_ELEMENTS (a))]
  for (i = 0; i < c->iterations; i++) {
    g_object_set (c->element, "threshold", PICK (churn_thresholds), NULL);
    g_object_set (c->element, "window-size", PICK (churn_windows), NULL);
    g_object_set (c->element, "kernel", PICK (churn_kernels), NULL);
    g_object_set (c->element, "divisor", PICK (churn_divisors), NULL);
    g_object_set (c->element, "bias", PICK (churn_biases), NULL);
    g_object_set (c->element, "chroma-threshold", PICK (churn_chromas), NULL);
    if (i % 50 == 0) {
      GstStructure *s = NULL;

      g_object_get (c->element, "stats", &s, NULL);
      gst_structure_free (s);
    }
    g_usleep (100);
  }
#undef PICK
  g_rand_free (rand);
  g_atomic_int_set (&c->done, 1);
  return NULL;
}

static gboolean
plane_equal (const guint8 * a, gint as, const guint8 * b, gint bs, gint w,
    gint h, gint xstep)
{
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (a[y * as + x * xstep] != b[y * bs + x * xstep])
        return FALSE;
  return TRUE;
}

/* Whether @out (NV12, mapped) is @in filtered with one of the combinations
 * of the churned values; the same window for luma and chroma. */
static gboolean
matches_some_combination (const GstVideoFrame * in, const GstVideoFrame * out,
    gchar ** which)
{
  gint w = GST_VIDEO_FRAME_WIDTH (in), h = GST_VIDEO_FRAME_HEIGHT (in);
  gint cw = (w + 1) / 2, ch = (h + 1) / 2;
  const guint8 *iy = GST_VIDEO_FRAME_PLANE_DATA (in, 0);
  const guint8 *iuv = GST_VIDEO_FRAME_PLANE_DATA (in, 1);
  const guint8 *oy = GST_VIDEO_FRAME_PLANE_DATA (out, 0);
  const guint8 *ouv = GST_VIDEO_FRAME_PLANE_DATA (out, 1);
  gint is0 = GST_VIDEO_FRAME_PLANE_STRIDE (in, 0);
  gint is1 = GST_VIDEO_FRAME_PLANE_STRIDE (in, 1);
  gint os0 = GST_VIDEO_FRAME_PLANE_STRIDE (out, 0);
  gint os1 = GST_VIDEO_FRAME_PLANE_STRIDE (out, 1);
  guint8 *uv = g_malloc (cw * 2 * ch), *eps = g_malloc (w * h),
      *conv = g_malloc (w * h);
  guint wi, ci, ti, ki, di, bi;
  gboolean found = FALSE;

  for (wi = 0; wi < G_N_ELEMENTS (churn_windows) && !found; wi++) {
    guint win = churn_windows[wi];
    gboolean chroma_ok = FALSE;

    for (ci = 0; ci < G_N_ELEMENTS (churn_chromas) && !chroma_ok; ci++) {
      guint c;

      for (c = 0; c < 2; c++) {
        if (churn_chromas[ci] == 0) {
          gint x, y;
          for (y = 0; y < ch; y++)
            for (x = 0; x < cw; x++)
              uv[y * cw * 2 + x * 2 + c] = iuv[y * is1 + x * 2 + c];
        } else {
          ref_epsilon_plane (iuv + c, is1, uv + c, cw * 2, cw, ch, 2, win,
              churn_chromas[ci]);
        }
      }
      chroma_ok = plane_equal (uv, cw * 2, ouv, os1, cw * 2, ch, 1);
    }
    if (!chroma_ok)
      continue;

    for (ti = 0; ti < G_N_ELEMENTS (churn_thresholds) && !found; ti++) {
      guint thr = churn_thresholds[ti];
      gint y;

      if (thr == 0)
        for (y = 0; y < h; y++)
          memcpy (eps + y * w, iy + y * is0, w);
      else
        ref_epsilon_plane (iy, is0, eps, w, w, h, 1, win, thr);
      for (ki = 0; ki < G_N_ELEMENTS (churn_kernels) && !found; ki++) {
        for (di = 0; di < G_N_ELEMENTS (churn_divisors) && !found; di++) {
          for (bi = 0; bi < G_N_ELEMENTS (churn_biases) && !found; bi++) {
            RefParams p;

            ref_params_init (&p);
            if (ki == 0) {
              if (di > 0 || bi > 0)
                continue;
              found = plane_equal (eps, w, oy, os0, w, h, 1);
            } else {
              fail_unless (rt_params_set_kernel (&p, churn_kernels[ki]));
              ref_convolve_plane (eps, w, conv, w, w, h, p.kernel,
                  p.kernel_width, p.kernel_height, churn_divisors[di],
                  churn_biases[bi]);
              found = plane_equal (conv, w, oy, os0, w, h, 1);
            }
            if (found)
              *which = g_strdup_printf ("threshold=%u window-size=%u "
                  "chroma-threshold=%u kernel=\"%s\" divisor=%g bias=%g", thr,
                  win, churn_chromas[ci - 1], churn_kernels[ki],
                  churn_divisors[di], churn_biases[bi]);
          }
        }
      }
    }
  }
  g_free (uv);
  g_free (eps);
  g_free (conv);
  return found;
}

/* threshold, window-size, kernel, divisor, bias (and chroma-threshold) set
 * 1000 times each from another thread while frames flow: every output is
 * its input filtered with one consistent set of the values set, never a
 * mix within a frame (half the rows with one window, or luma with one and
 * chroma with another). Passthrough comes and goes with the values. */
GST_START_TEST (test_property_churn)
{
  GRand *rand = g_rand_new_with_seed (0xc4242);
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  Churn churn = { 0, };
  GstVideoInfo info;
  GstHarness *hr;
  GThread *thread;
  RefParams p;
  guint frames = 0;

  th_params_init (&p, 12, 3, 0);
  hr = new_harness (&p, NULL);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 24, 14, &info);
  churn.element = hr->element;
  churn.iterations = 1000;
  churn.seed = 0xc4243;
  thread = g_thread_new ("churn", churn_thread, &churn);

  while (!g_atomic_int_get (&churn.done) || frames < 100) {
    GstBuffer *in = rt_make_input (&info, rand, 127, frames % 3 == 2), *out;
    GstVideoFrame inf, outf;
    gchar *which = NULL;

    gst_buffer_ref (in);
    fail_unless (gst_harness_push (hr, in) == GST_FLOW_OK, "frame %u", frames);
    out = gst_harness_pull (hr);
    fail_unless (gst_video_frame_map (&inf, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&outf, &info, out, GST_MAP_READ));
    fail_unless (matches_some_combination (&inf, &outf, &which),
        "frame %u is not its input filtered with any one set of the "
        "property values", frames);
    g_hash_table_add (seen, which);
    gst_video_frame_unmap (&outf);
    gst_video_frame_unmap (&inf);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    frames++;
  }
  g_thread_join (thread);
  GST_INFO ("%u frames, %u distinct sets of values seen", frames,
      g_hash_table_size (seen));
  fail_unless (g_hash_table_size (seen) > 1, "the frames all saw the same "
      "values: the churn did not reach them");
  g_hash_table_unref (seen);
  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Malformed values                                                         */

typedef struct
{
  GMutex lock;
  GPtrArray *warnings;
} LogCapture;

static LogCapture capture;

static void
capture_log (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  if (level != GST_LEVEL_WARNING ||
      !g_str_equal (gst_debug_category_get_name (category), "clepsilon"))
    return;
  g_mutex_lock (&capture.lock);
  g_ptr_array_add (capture.warnings,
      g_strdup (gst_debug_message_get (message)));
  g_mutex_unlock (&capture.lock);
}

static void
capture_start (void)
{
  g_mutex_init (&capture.lock);
  capture.warnings = g_ptr_array_new_with_free_func (g_free);
  gst_debug_set_active (TRUE);
  gst_debug_set_threshold_for_name ("clepsilon", GST_LEVEL_WARNING);
  gst_debug_add_log_function (capture_log, NULL, NULL);
}

static void
capture_stop (void)
{
  gst_debug_remove_log_function (capture_log);
  g_ptr_array_unref (capture.warnings);
  g_mutex_clear (&capture.lock);
}

/* The one warning logged since the last call, or fails. */
static gchar *
take_warning (const gchar * ctx)
{
  gchar *w;

  g_mutex_lock (&capture.lock);
  fail_unless (capture.warnings->len == 1, "%s: %u warnings logged, "
      "expected one", ctx, capture.warnings->len);
  w = g_strdup (g_ptr_array_index (capture.warnings, 0));
  g_ptr_array_set_size (capture.warnings, 0);
  g_mutex_unlock (&capture.lock);
  return w;
}

static void
no_warning (const gchar * ctx)
{
  g_mutex_lock (&capture.lock);
  fail_unless (capture.warnings->len == 0, "%s: warning \"%s\"", ctx,
      capture.warnings->len ?
      (gchar *) g_ptr_array_index (capture.warnings, 0) : "");
  g_mutex_unlock (&capture.lock);
}

static const gchar *comma_locales[] = {
  "de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8",
  "nl_NL.UTF-8", "es_ES.UTF-8", "it_IT.UTF-8", "ru_RU.UTF-8",
};

/* A device string that is not valid UTF-8 (possible from code) is refused
 * with a warning and the previous one kept (matching devices against it
 * could read past its end); the element still starts on the old one. */
GST_START_TEST (test_device_not_utf8)
{
  GstElement *e = gst_element_factory_make ("clepsilon", NULL);
  gchar *device = NULL, *w;

  capture_start ();
  g_object_set (e, "device", rt_device (), NULL);
  g_object_set (e, "device", "\xff\xfe\xc3(pocl\xe2\x82", NULL);
  w = take_warning ("device not UTF-8");
  fail_unless (strstr (w, "UTF-8") != NULL, "warning \"%s\"", w);
  g_free (w);
  g_object_get (e, "device", &device, NULL);
  fail_unless_equals_string (device, rt_device ());
  fail_unless (rt_start (e) != GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_set_state (e, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  /* The bus's messages hold the element: drop them with the bus. */
  gst_element_set_bus (e, NULL);
  g_free (device);
  gst_object_unref (e);
  capture_stop ();
}

GST_END_TEST;

/* Malformed kernel strings, each rejected with a warning saying why, the
 * previous kernel kept and frames still right; and the decimal point is
 * '.' in a comma-decimal locale too. */
GST_START_TEST (test_malformed_kernels)
{
  GString *big = g_string_sized_new (3 * 1024 * 1024 + 16);
  GString *k16 = g_string_new (NULL);
  const gchar *bad[] = {
    "1 2", "abc", "nan 1 1 1 1 1 1 1 1", "inf 1 1 1 1 1 1 1 1",
    "1 1 1 1 -inf 1 1 1 1", "1e999 1 1", "-1e999 1 1", "1 2 1; 2 4",
    "1 2 1; 2 4 2; 1 2", "1 1; 1 1", "1 1 1 1", "1,,2 1", ",1 2 1",
    "1 2 1,", "1 2 1;;1 2 1", ";", " ; ", "1 2 1 $", "\xff\xfe",
    "1e7 1 1", "1 -1 0.0000001", NULL, NULL,
  };
  const gchar *good = "0 -1 0; -1 5 -1; 0 -1 0";
  GRand *rand = g_rand_new_with_seed (0x6a1f);
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  gchar *old_locale;
  const gchar *used = NULL;
  guint i, n_bad;
  gint r, c;

  /* a 16x16 matrix, and 3 MB of coefficients */
  for (r = 0; r < 16; r++)
    for (c = 0; c < 16; c++)
      g_string_append (k16, c ? " 1" : (r ? "; 1" : "1"));
  while (big->len < 3 * 1024 * 1024)
    g_string_append (big, "1 ");
  n_bad = G_N_ELEMENTS (bad) - 2;
  bad[n_bad++] = k16->str;
  bad[n_bad++] = big->str;

  capture_start ();
  th_params_init (&p, 20, 5, 10);
  hr = new_harness (&p, good);
  fail_unless (rt_params_set_kernel (&p, good));
  th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 30, 20, &info);
  no_warning ("a good kernel");

  for (i = 0; i < n_bad; i++) {
    gchar *ctx = g_strdup_printf ("kernel \"%.40s%s\"", bad[i],
        strlen (bad[i]) > 40 ? "..." : "");
    gchar *kernel = NULL, *w;

    g_object_set (hr->element, "kernel", bad[i], NULL);
    w = take_warning (ctx);
    fail_unless (strstr (w, "Ignoring kernel") != NULL && strchr (w, ':') !=
        NULL && strlen (strchr (w, ':')) > 5, "%s: warning \"%s\" does not "
        "say why", ctx, w);
    GST_INFO ("%s: %s", ctx, w);
    g_free (w);
    g_object_get (hr->element, "kernel", &kernel, NULL);
    fail_unless (g_strcmp0 (kernel, good) == 0, "%s: the kernel reads back "
        "\"%.40s\"", ctx, kernel);
    g_free (kernel);
    th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, i & 1), &p,
        ctx);
    g_free (ctx);
  }

  /* "" is not malformed: it is how the kernel is turned off */
  g_object_set (hr->element, "kernel", "", NULL);
  no_warning ("empty kernel");
  ref_params_init (&p);
  p.threshold = 20;
  p.window = 5;
  p.chroma_threshold = 10;
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
      "empty kernel");

  /* a comma-decimal locale: '.' still is the decimal point */
  old_locale = g_strdup (setlocale (LC_NUMERIC, NULL));
  for (i = 0; i < G_N_ELEMENTS (comma_locales) && used == NULL; i++)
    if (setlocale (LC_NUMERIC, comma_locales[i]) != NULL &&
        g_str_equal (localeconv ()->decimal_point, ","))
      used = comma_locales[i];
  if (used != NULL) {
    const gchar *k = "0.5 1.5 0.5; 1 2.25 1; 0.5 1.5 0.5";

    g_object_set (hr->element, "kernel", k, NULL);
    no_warning (used);
    fail_unless (rt_params_set_kernel (&p, k));
    th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
        used);
    /* "0,5" is two numbers there too, as documented */
    g_object_set (hr->element, "kernel", "0,5", NULL);
    g_free (take_warning ("\"0,5\" in a comma locale"));
  } else {
    g_print ("clepsilonrobust: no comma-decimal locale (set LOCPATH or "
        "install de_DE.UTF-8); locale check skipped\n");
  }
  setlocale (LC_NUMERIC, old_locale);
  g_free (old_locale);

  th_teardown_checked (hr);
  capture_stop ();
  g_string_free (big, TRUE);
  g_string_free (k16, TRUE);
  g_rand_free (rand);
}

GST_END_TEST;

/* GObject's refusal of a value outside a property's declared range: GLib
 * 2.74 (Debian 12) raises a g_warning that gst-check's log handler records;
 * GLib 2.84 (Debian 13) logs a g_critical that gst-check's flags did not
 * show in the suite's forked runs, and that G_DEBUG=fatal-criticals makes
 * fatal. The message is demanded where the running GLib is 2.74 or older;
 * newer, the critical is made non-fatal for the call. On every GLib the
 * test checks the refusal itself after each call: the old value kept. */
/* *INDENT-OFF* */
#define ASSERT_GOBJECT_REFUSES(code) G_STMT_START {                   \
  if (glib_check_version (2, 75, 0) == NULL) {                        \
    GLogLevelFlags fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK); \
    _gst_check_expecting_log = TRUE;                                  \
    code;                                                             \
    _gst_check_expecting_log = FALSE;                                 \
    g_log_set_always_fatal (fatal);                                   \
  } else {                                                            \
    ASSERT_WARNING (code);                                            \
  }                                                                   \
} G_STMT_END
/* *INDENT-ON* */

/* Out-of-range numbers for every property: GObject refuses those outside
 * the declared range with a message that names the property and the value;
 * the element refuses even windows, tiny divisors and NaN with a warning
 * that says why. Every time the old value stays and frames stay right. */
GST_START_TEST (test_out_of_range_values)
{
  GRand *rand = g_rand_new_with_seed (0x0a7);
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  guint u, i;
  gdouble d;
  gchar *w, *kernel = NULL;
  static const guint bad_thresholds[] = { 256, 1000, G_MAXUINT };
  static const guint bad_windows_range[] = { 0, 1, 2, 16, 17, 1001,
    G_MAXUINT
  };
  static const guint bad_windows_even[] = { 4, 6, 8, 10, 12, 14 };
  const gdouble bad_divisors_range[] = { 1e6 * 1.5, -1e7, INFINITY, -INFINITY,
    G_MAXDOUBLE, NAN
  };
  const gdouble bad_divisors_element[] = { 1e-9, -1e-7, 1e-300 };
  const gdouble bad_biases_range[] = { 2e6, -2e6, INFINITY, -INFINITY, NAN };

  capture_start ();
  th_params_init (&p, 20, 7, 10);
  p.divisor = 3;
  p.bias = 5;
  hr = new_harness (&p, k_blur);
  fail_unless (rt_params_set_kernel (&p, k_blur));
  th_harness_set_format (hr, GST_VIDEO_FORMAT_I420, 26, 18, &info);

#define FRAME(what) th_push_check_unref (hr, &info, \
      rt_make_input (&info, rand, 127, FALSE), &p, what)

  for (i = 0; i < G_N_ELEMENTS (bad_thresholds); i++) {
    ASSERT_GOBJECT_REFUSES (g_object_set (hr->element, "threshold",
            bad_thresholds[i], NULL));
    ASSERT_GOBJECT_REFUSES (g_object_set (hr->element, "chroma-threshold",
            bad_thresholds[i], NULL));
    g_object_get (hr->element, "threshold", &u, NULL);
    fail_unless_equals_int (u, 20);
    g_object_get (hr->element, "chroma-threshold", &u, NULL);
    fail_unless_equals_int (u, 10);
    FRAME ("threshold out of range");
  }
  for (i = 0; i < G_N_ELEMENTS (bad_windows_range); i++) {
    ASSERT_GOBJECT_REFUSES (g_object_set (hr->element, "window-size",
            bad_windows_range[i], NULL));
    g_object_get (hr->element, "window-size", &u, NULL);
    fail_unless_equals_int (u, 7);
    FRAME ("window out of range");
  }
  for (i = 0; i < G_N_ELEMENTS (bad_windows_even); i++) {
    g_object_set (hr->element, "window-size", bad_windows_even[i], NULL);
    w = take_warning ("even window");
    fail_unless (strstr (w, "odd") != NULL, "warning \"%s\"", w);
    g_free (w);
    g_object_get (hr->element, "window-size", &u, NULL);
    fail_unless_equals_int (u, 7);
    FRAME ("even window");
  }
  for (i = 0; i < G_N_ELEMENTS (bad_divisors_range); i++) {
    ASSERT_GOBJECT_REFUSES (g_object_set (hr->element, "divisor",
            bad_divisors_range[i], NULL));
    g_object_get (hr->element, "divisor", &d, NULL);
    fail_unless (d == 3.0);
    FRAME ("divisor out of range");
  }
  for (i = 0; i < G_N_ELEMENTS (bad_divisors_element); i++) {
    g_object_set (hr->element, "divisor", bad_divisors_element[i], NULL);
    w = take_warning ("divisor");
    fail_unless (strstr (w, "Ignoring divisor") != NULL &&
        strstr (w, "must be") != NULL, "warning \"%s\"", w);
    g_free (w);
    g_object_get (hr->element, "divisor", &d, NULL);
    fail_unless (d == 3.0);
    FRAME ("divisor refused");
  }
  for (i = 0; i < G_N_ELEMENTS (bad_biases_range); i++) {
    ASSERT_GOBJECT_REFUSES (g_object_set (hr->element, "bias",
            bad_biases_range[i], NULL));
    g_object_get (hr->element, "bias", &d, NULL);
    fail_unless (d == 5.0);
    FRAME ("bias out of range");
  }

  /* the same through strings, as gst-launch sets them */
  ASSERT_GOBJECT_REFUSES (gst_util_set_object_arg (G_OBJECT (hr->element),
          "threshold", "300"));
  ASSERT_GOBJECT_REFUSES (gst_util_set_object_arg (G_OBJECT (hr->element),
          "window-size", "99"));
  g_object_get (hr->element, "threshold", &u, NULL);
  fail_unless_equals_int (u, 20);
  g_object_get (hr->element, "kernel", &kernel, NULL);
  fail_unless_equals_string (kernel, k_blur);
  g_free (kernel);
  FRAME ("after the strings");
  no_warning ("the end");
#undef FRAME

  th_teardown_checked (hr);
  capture_stop ();
  g_rand_free (rand);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Pipelines starting at the same moment                                    */

#define STARTS 4

typedef struct
{
  GMutex lock;
  GCond cond;
  guint waiting;
  GstElement *pipelines[STARTS];
} StartLine;

/* Waits until every thread is at the line, then sets its pipeline going:
 * the elements' starts (device enumeration, context) overlap. */
static gpointer
start_at_once (gpointer data)
{
  StartLine *line = data;
  guint me;

  g_mutex_lock (&line->lock);
  me = line->waiting++;
  if (line->waiting == STARTS)
    g_cond_broadcast (&line->cond);
  while (line->waiting < STARTS)
    g_cond_wait (&line->cond, &line->lock);
  g_mutex_unlock (&line->lock);
  gst_element_set_state (line->pipelines[me], GST_STATE_PLAYING);
  return NULL;
}

/* Child, in a process that has not used OpenCL yet: STARTS pipelines with
 * a clepsilon each reach PLAYING at the same moment, and all play to the
 * end (PoCL's first enumeration, run by several threads at once, can crash
 * or find no device: gst/gstclcontext.c serialises it). */
GST_START_TEST (test_child_concurrent_starts)
{
  GThread *threads[STARTS];
  StartLine line = { 0, };
  guint i;

  for (i = 0; i < STARTS; i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
        "video/x-raw,format=NV12,width=64,height=48 ! clepsilon device=%s ! "
        "fakesink", rt_device ());

    line.pipelines[i] = gst_parse_launch (desc, NULL);
    fail_unless (line.pipelines[i] != NULL);
    g_free (desc);
  }
  for (i = 0; i < STARTS; i++)
    threads[i] = g_thread_new ("start", start_at_once, &line);
  for (i = 0; i < STARTS; i++)
    g_thread_join (threads[i]);
  for (i = 0; i < STARTS; i++) {
    GstBus *bus = gst_element_get_bus (line.pipelines[i]);
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    gchar *text = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR ?
        rt_error_text (msg) : NULL;

    fail_unless (msg != NULL && text == NULL, "pipeline %u of %u: %s", i,
        STARTS, msg ? text : "no EOS within 60 s");
    gst_message_unref (msg);
    gst_element_set_state (line.pipelines[i], GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (line.pipelines[i]);
  }
}

GST_END_TEST;

GST_START_TEST (test_concurrent_starts)
{
  guint run;

  /* Each run a new process, whose first use of OpenCL is the race. */
  for (run = 0; run < 10; run++)
    rt_run_child (CHILD_ENV, "test_child_concurrent_starts",
        "CLEPSILON_STARTS_RUN", "1");
}

GST_END_TEST;

static Suite *
clepsilonrobust_suite (void)
{
  Suite *s = suite_create ("clepsilonrobust");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  if (g_getenv (CHILD_ENV)) {
    tcase_add_test (tc, test_child_concurrent_starts);
    return s;
  }
  tcase_add_test (tc, test_state_sequences);
  tcase_add_test (tc, test_state_changes_with_data);
  tcase_add_test (tc, test_playing_null_cycles);
  tcase_add_test (tc, test_renegotiate_midstream);
  tcase_add_test (tc, test_unsupported_caps);
  tcase_add_test (tc, test_allocation_query_huge_caps);
  tcase_add_test (tc, test_sizes_and_layouts);
  tcase_add_test (tc, test_undersized_each_plane);
  tcase_add_test (tc, test_undersized_before_tuning);
  tcase_add_test (tc, test_plane_across_memories);
  tcase_add_test (tc, test_meta_mismatch);
  tcase_add_test (tc, test_flushing_seeks);
  tcase_add_test (tc, test_flush_while_pushing);
  tcase_add_test (tc, test_eos);
  tcase_add_test (tc, test_upstream_small_pool);
  tcase_add_test (tc, test_nothing_lost);
  tcase_add_test (tc, test_property_churn);
  tcase_add_test (tc, test_malformed_kernels);
  tcase_add_test (tc, test_out_of_range_values);
  tcase_add_test (tc, test_device_not_utf8);
  tcase_add_test (tc, test_concurrent_starts);
  tcase_add_test (tc, test_pool_frame_copy);
  tcase_add_test (tc, test_pool_out_of_device_memory);

  return s;
}

GST_CHECK_MAIN (clepsilonrobust);
