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

/* Frames held in the element until their commands are done, as frames into
 * CUDA memory are on an NVIDIA GPU (gst/gstclepsilonheld.c), here on PoCL
 * taken as a discrete GPU with every frame left in flight held
 * (GST_CL_DISCRETE=1 GST_CL_HOLD_FRAMES=1, set by tests/meson.build):
 * through appsrc and appsink, a stream whose size changes mid-stream comes
 * out whole, in order, each frame under its own caps and equal to the
 * reference, and the LATENCY query says the two frames held; pushed from
 * the test's own thread, frames come out only once three are in flight. */

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "../harness.h"
#include "../live.h"

#define N_FIRST 5               /* frames before the size changes */
#define N_SECOND 4
#define FPS 25

typedef struct
{
  GstVideoInfo info;
  GstBuffer *expected;
} Frame;

/* appsrc ! clepsilon ! appsink, paused; @e is the clepsilon. */
static GstElement *
make_pipeline (GstElement * e, GstElement ** src, GstElement ** sink)
{
  GstElement *pipeline = gst_pipeline_new (NULL);

  *src = gst_element_factory_make ("appsrc", NULL);
  *sink = gst_element_factory_make ("appsink", NULL);
  fail_unless (*src && *sink, "appsrc and appsink (gst-plugins-base)");
  g_object_set (*src, "format", GST_FORMAT_TIME, NULL);
  g_object_set (*sink, "sync", FALSE, NULL);
  gst_bin_add_many (GST_BIN (pipeline), *src, e, *sink, NULL);
  fail_unless (gst_element_link_many (*src, e, *sink, NULL));
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  return pipeline;
}

/* Pushes @n random frames of @w x @h from @src, from frame @first on. */
static void
push_frames (GstElement * src, gint w, gint h, guint first, guint n,
    const RefParams * p, GRand * rand, Frame * frames)
{
  GstCaps *caps;
  guint i;

  gst_video_info_set_format (&frames[first].info, GST_VIDEO_FORMAT_NV12, w, h);
  GST_VIDEO_INFO_FPS_N (&frames[first].info) = FPS;
  GST_VIDEO_INFO_FPS_D (&frames[first].info) = 1;
  caps = gst_video_info_to_caps (&frames[first].info);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  for (i = first; i < first + n; i++) {
    GstBuffer *in;
    GstFlowReturn ret;

    frames[i].info = frames[first].info;
    in = th_make_input (&frames[i].info, rand, TH_FILL_NOISE);
    GST_BUFFER_PTS (in) = i * GST_SECOND / FPS;
    GST_BUFFER_DURATION (in) = GST_SECOND / FPS;
    frames[i].expected = rt_make_expected (&frames[i].info, in, p);
    g_signal_emit_by_name (src, "push-buffer", in, &ret);
    gst_buffer_unref (in);
    fail_unless_equals_int (ret, GST_FLOW_OK);
  }
}

/* The next sample of @sink, checked against frame @i of @frames. */
static void
check_next (GstElement * sink, guint i, const Frame * frames)
{
  GstSample *sample = NULL;
  GstVideoInfo info;
  GstBuffer *out;
  gchar *ctx;

  g_signal_emit_by_name (sink, "try-pull-sample", 30 * GST_SECOND, &sample);
  fail_unless (sample != NULL, "frame %u of %u did not come out", i,
      N_FIRST + N_SECOND);
  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless (info.width == frames[i].info.width &&
      info.height == frames[i].info.height, "frame %u (%dx%d) came out under "
      "caps of %dx%d", i, frames[i].info.width, frames[i].info.height,
      info.width, info.height);
  out = gst_sample_get_buffer (sample);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / FPS);
  ctx = g_strdup_printf ("frame %u, held in the element", i);
  th_check_frame (&frames[i].info, out, frames[i].expected, 0, ctx);
  g_free (ctx);
  gst_sample_unref (sample);
}

/* The minimum latency the pipeline's sink is told (the element's part:
 * appsrc, not live, adds none). */
static GstClockTime
latency_at (GstElement * sink)
{
  GstQuery *query = gst_query_new_latency ();
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstClockTime min = GST_CLOCK_TIME_NONE, max;
  gboolean live;

  fail_unless (gst_pad_peer_query (pad, query));
  gst_query_parse_latency (query, &live, &min, &max);
  gst_query_unref (query);
  gst_object_unref (pad);
  return min;
}

/* One stream with outputs held where @hold (GST_CL_HOLD_FRAMES), checked;
 * returns the latency told while the first size plays. */
static GstClockTime
run_stream (gboolean hold)
{
  Frame frames[N_FIRST + N_SECOND];
  GRand *rand = g_rand_new_with_seed (0x4e1d);
  GstElement *e = th_make_element (), *src, *sink, *pipeline;
  GstClockTime latency;
  GstMessage *msg;
  gboolean eos;
  RefParams p;
  guint i;

  if (hold)
    g_setenv ("GST_CL_HOLD_FRAMES", "1", TRUE);
  else
    g_unsetenv ("GST_CL_HOLD_FRAMES");
  th_params_init (&p, 30, 5, 20);
  rt_apply_params (e, &p, NULL);
  g_object_set (e, "frames-in-flight", 3, NULL);
  pipeline = make_pipeline (e, &src, &sink);
  push_frames (src, 96, 49, 0, N_FIRST, &p, rand, frames);
  check_next (sink, 0, frames);
  latency = latency_at (sink);
  push_frames (src, 66, 35, N_FIRST, N_SECOND, &p, rand, frames);
  g_signal_emit_by_name (src, "end-of-stream", &(GstFlowReturn) {
      0}
  );
  for (i = 1; i < N_FIRST + N_SECOND; i++)
    check_next (sink, i, frames);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  eos = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  fail_unless (eos, "the stream did not end in EOS: %" GST_PTR_FORMAT, msg);
  gst_message_unref (msg);
  g_object_get (sink, "eos", &eos, NULL);
  fail_unless (eos);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  for (i = 0; i < N_FIRST + N_SECOND; i++)
    gst_buffer_unref (frames[i].expected);
  g_rand_free (rand);
  g_unsetenv ("GST_CL_HOLD_FRAMES");
  return latency;
}

GST_START_TEST (test_held_stream)
{
  /* frames-in-flight=3: two frames held, at 25 frames a second */
  fail_unless_equals_uint64 (run_stream (TRUE), 2 * GST_SECOND / FPS);
}

GST_END_TEST;

GST_START_TEST (test_not_held_stream)
{
  fail_unless_equals_uint64 (run_stream (FALSE), 0);
}

GST_END_TEST;

/* A harness of a clepsilon holding its frames, three in flight, NV12
 * 96x49 (@info) with the settings @p. */
static GstHarness *
held_harness_new (RefParams * p, GstVideoInfo * info)
{
  GstElement *e = th_make_element ();

  g_setenv ("GST_CL_HOLD_FRAMES", "1", TRUE);
  th_params_init (p, 30, 5, 20);
  rt_apply_params (e, p, NULL);
  g_object_set (e, "frames-in-flight", 3, NULL);
  return th_harness_new (e, GST_VIDEO_FORMAT_NV12, 96, 49, 0, info);
}

/* Pushed from the test's thread (GstHarness), frames come out only once
 * three are in flight, the oldest first, and the rest at EOS. */
static void
run_harnessed (void)
{
  GRand *rand = g_rand_new_with_seed (0x4e1e);
  GstBuffer *exps[4];
  GstVideoInfo info;
  RefParams p;
  GstHarness *hr = held_harness_new (&p, &info);
  guint i;

  for (i = 0; i < 4; i++) {
    GstBuffer *in = th_make_input (&info, rand, TH_FILL_NOISE);

    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    exps[i] = rt_make_expected (&info, in, &p);
    fail_unless_equals_int (gst_harness_push (hr, in), GST_FLOW_OK);
    /* held: frames 0 and 1 wait for frame 2, then one out a frame */
    fail_unless_equals_int (gst_harness_buffers_received (hr),
        i < 2 ? 0 : i - 1);
  }
  fail_unless (gst_harness_push_event (hr, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (hr), 4);
  for (i = 0; i < 4; i++) {
    GstBuffer *out = gst_harness_pull (hr);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 30);
    th_check_frame (&info, out, exps[i], 0, "a frame held until three were "
        "in flight");
    gst_buffer_unref (out);
    gst_buffer_unref (exps[i]);
  }
  th_teardown_checked (hr);
  g_rand_free (rand);
  g_unsetenv ("GST_CL_HOLD_FRAMES");
}

/* ... and nothing of a held frame is left behind (the second run: the
 * first one's programs and shared context stay). */
GST_START_TEST (test_held_until_depth)
{
  Live before;

  run_harnessed ();
  before = live_now ();
  run_harnessed ();
  check_no_leak (before, "a stream of held frames");
}

GST_END_TEST;

/* A discontinuity goes on the first frame after it, not on a held one from
 * before: frame 4 comes flagged DISCONT, QoS drops frame 5, and only 4 and
 * 6 go out flagged. */
GST_START_TEST (test_held_discont)
{
  GRand *rand = g_rand_new_with_seed (0x4e1f);
  const guint expected[] = { 0, 1, 2, 3, 4, 6 };
  GstVideoInfo info;
  RefParams p;
  GstHarness *hr = held_harness_new (&p, &info);
  guint i;

  for (i = 0; i < 7; i++) {
    GstBuffer *in = th_make_input (&info, rand, TH_FILL_NOISE);

    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    if (i == 4)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
    /* late by one frame from frame 4 on: frame 5 is dropped */
    if (i == 5)
      gst_harness_push_upstream_event (hr,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 1.0, GST_SECOND / 30,
              4 * GST_SECOND / 30));
    fail_unless_equals_int (gst_harness_push (hr, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (hr, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (hr),
      G_N_ELEMENTS (expected));
  for (i = 0; i < G_N_ELEMENTS (expected); i++) {
    GstBuffer *out = gst_harness_pull (hr);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
        expected[i] * GST_SECOND / 30);
    fail_unless (GST_BUFFER_IS_DISCONT (out) == (expected[i] >= 4 &&
            expected[i] != 5), "frame %u: DISCONT %d", expected[i],
        GST_BUFFER_IS_DISCONT (out));
    gst_buffer_unref (out);
  }
  th_teardown_checked (hr);
  g_rand_free (rand);
  g_unsetenv ("GST_CL_HOLD_FRAMES");
}

GST_END_TEST;

/* In passthrough (strength=off) nothing is held: frames out at once, and
 * no latency added. */
GST_START_TEST (test_held_passthrough)
{
  GRand *rand = g_rand_new_with_seed (0x4e20);
  GstElement *e = th_make_element ();
  GstVideoInfo info;
  GstHarness *hr;
  guint i;

  g_setenv ("GST_CL_HOLD_FRAMES", "1", TRUE);
  gst_util_set_object_arg (G_OBJECT (e), "strength", "off");
  g_object_set (e, "frames-in-flight", 3, NULL);
  hr = th_harness_new (e, GST_VIDEO_FORMAT_NV12, 96, 49, 0, &info);
  for (i = 0; i < 2; i++) {
    GstBuffer *in = th_make_input (&info, rand, TH_FILL_NOISE);

    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    fail_unless_equals_int (gst_harness_push (hr, in), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_received (hr), i + 1);
  }
  fail_unless_equals_uint64 (gst_harness_query_latency (hr), 0);
  th_teardown_checked (hr);
  g_rand_free (rand);
  g_unsetenv ("GST_CL_HOLD_FRAMES");
}

GST_END_TEST;

static Suite *
clepsilonheld_suite (void)
{
  Suite *s = suite_create ("clepsilonheld");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_held_stream);
  tcase_add_test (tc, test_not_held_stream);
  tcase_add_test (tc, test_held_until_depth);
  tcase_add_test (tc, test_held_discont);
  tcase_add_test (tc, test_held_passthrough);
  return s;
}

GST_CHECK_MAIN (clepsilonheld);
