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

/* Ordering (gst/gstclstream.c, gst/gstclinflight.c) on its own:
 * streams ordered by their commands' events across two queues, held back
 * by a user event until it completes, a failed wait reported; frames left
 * in flight (depth 3) through a plan, each output equal to the CPU
 * reference of its own input (reference.c), every slot given back at the
 * drain; a failed command of a frame that already left raised at the frame
 * that takes its slot (libclfault fails its wait), a fault kept for an
 * output (GstClFaults) raised at the next frame and at the drain, and an
 * input whose pending work failed refused before anything of its frame is
 * enqueued. In plain, discrete and mapped mode
 * (where the depth is 1: each frame waited for). The device is
 * $CLEPSILON_TEST_DEVICE (default "pocl"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <string.h>

#include "gstclmemory-private.h"
#include "gstclplan-private.h"
#include "reference.h"
#include "robust.h"
#include "fixture.h"
#include "clfault.h"

/* A device buffer of @size bytes. */
static cl_mem
device_buffer (gsize size)
{
  GError *error = NULL;
  cl_mem mem = gst_cl_context_create_buffer (fixture_context,
      CL_MEM_READ_WRITE, size, "stream test", &error);

  fail_unless (mem != NULL, "%s", error ? error->message : "");
  return mem;
}

static cl_int
event_status (cl_event event)
{
  cl_int status = CL_COMPLETE;

  fail_unless (clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS,
          sizeof (status), &status, NULL) == CL_SUCCESS);
  return status;
}

/* Two streams on two queues: the first held back by a user event, the
 * second following it. Nothing of either runs before the user event
 * completes; then the second reads what the first wrote. */
GST_START_TEST (test_streams_ordered)
{
  const gsize rows = 19, row_bytes = 37, pitch = 41;
  GstClTransferStats stats = { 0, };
  GstClStream a, b;
  cl_event gate, done = NULL;
  cl_int status;
  cl_mem x = device_buffer (pitch * rows), y = device_buffer (pitch * rows);
  guint8 *data = g_malloc (pitch * rows), *back = g_malloc0 (pitch * rows);
  GstClPlaneRef host = {.kind = GST_CL_PLANE_MAPPED,.host = data,
    .pitch = pitch
  };
  GstClPlaneRef hback = {.kind = GST_CL_PLANE_MAPPED,.host = back,
    .pitch = pitch
  };
  GstClPlaneRef rx = gst_cl_plane_ref_device (x, pitch);
  GstClPlaneRef ry = gst_cl_plane_ref_device (y, pitch);
  GError *error = NULL;
  gsize i;

  for (i = 0; i < pitch * rows; i++)
    data[i] = i * 7 + 3;
  gate = clCreateUserEvent (gst_cl_context_get_handle (fixture_context),
      &status);
  fail_unless (status == CL_SUCCESS);

  gst_cl_stream_init (&a, gst_cl_context_get_queue (fixture_context), &gate, 1);
  gst_cl_stream_init (&b, gst_cl_context_get_host_queue (fixture_context),
      NULL, 0);
  fail_unless (gst_cl_stream_copy (&a, &(GstClPlaneCopy) {
          &host, &rx, row_bytes, rows}
          , &stats, &error), "%s", error ? error->message : "");
  fail_unless (a.last != NULL && a.n_wait == 0, "the wait list was not used");
  gst_cl_stream_follow (&b, &a);
  fail_unless (gst_cl_stream_copy (&b, &(GstClPlaneCopy) {
          &rx, &ry, row_bytes, rows}
          , &stats, &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_stream_join (&b, &done, &error));
  clFlush (gst_cl_context_get_queue (fixture_context));
  clFlush (gst_cl_context_get_host_queue (fixture_context));
  g_usleep (50 * 1000);
  /* held back: neither copy has run */
  fail_if (event_status (a.last) == CL_COMPLETE, "ran before its wait");
  fail_if (event_status (done) == CL_COMPLETE, "the follower ran first");

  fail_unless (clSetUserEventStatus (gate, CL_COMPLETE) == CL_SUCCESS);
  fail_unless (clWaitForEvents (1, &done) == CL_SUCCESS);
  fail_unless (clEnqueueReadBuffer (gst_cl_context_get_queue (fixture_context),
          y, CL_TRUE, 0, pitch * rows, back, 0, NULL, NULL) == CL_SUCCESS);
  for (i = 0; i < rows; i++)
    fail_unless (memcmp (back + i * pitch, data + i * pitch, row_bytes) == 0,
        "row %" G_GSIZE_FORMAT " not what the first stream wrote", i);
  fail_unless_equals_uint64 (stats.upload_bytes, row_bytes * rows);
  fail_unless_equals_uint64 (stats.device_copy_bytes, row_bytes * rows);

  /* the CPU's own copies, once what writes them is done (the caller's
   * wait, as placement's cpu_waits does) */
  memset (back, 0, pitch * rows);
  gst_cl_stream_clear (&a);
  fail_unless (clWaitForEvents (1, &done) == CL_SUCCESS);
  gst_cl_stream_init (&a, gst_cl_context_get_queue (fixture_context), NULL, 0);
  fail_unless (gst_cl_stream_copy (&a, &(GstClPlaneCopy) {
          &host, &hback, row_bytes, rows}
          , &stats, &error));
  fail_unless (a.last == NULL, "a CPU copy has no event");
  fail_unless (memcmp (back, data, row_bytes) == 0);
  gst_cl_stream_clear (&a);
  gst_cl_stream_clear (&b);
  clReleaseEvent (done);
  clReleaseEvent (gate);
  clReleaseMemObject (x);
  clReleaseMemObject (y);
  g_free (data);
  g_free (back);
}

GST_END_TEST;

static GstClStats *stats;
static GstClTuner *tuner;

static void
setup (void)
{
  fixture_setup ();
  stats = gst_cl_stats_new ();
  tuner = gst_cl_tuner_new (fixture_context, stats);
}

static void
teardown (void)
{
  gst_cl_tuner_free (tuner);
  gst_cl_stats_free (stats);
  fixture_teardown ();
}

/* Settings of frame @i and their reference parameters: the thresholds
 * change between frames (arguments only: no drain between them). */
static void
frame_settings (guint i, GstClPlanSettings * s, RefParams * p)
{
  memset (s, 0, sizeof (*s));
  ref_params_init (p);
  s->threshold = p->threshold = 8 + 5 * i;
  s->chroma_threshold = p->chroma_threshold = 6 + i;
  s->window_size = p->window = 5;
}

/* @out equals the reference of @in under @p. */
static void
check_reference (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const RefParams * p, const gchar * what)
{
  GstBuffer *expected = rt_make_expected (info, in, p);
  gchar *first = NULL;
  guint n = rt_compare (info, out, expected, 0, &first);

  fail_unless (n == 0, "%s: %u samples differ from the reference, first %s",
      what, n, first);
  g_free (first);
  gst_buffer_unref (expected);
}

#define N_FRAMES 8

/* Eight frames pushed ahead at depth 3, from and into our pool, none read
 * before the last is enqueued: each output is the reference of its own
 * input; frames in flight hold their inputs, and the drain lets every one
 * go with its frame's last command complete. (Reading an output maps it:
 * its unmap may then be pending, which a later map waits for; not the
 * frame's.) */
GST_START_TEST (test_frames_ahead)
{
  GRand *rand = g_rand_new_with_seed (0x1f17);
  GstBuffer *ins[N_FRAMES], *outs[N_FRAMES];
  RefParams ps[N_FRAMES];
  GstVideoInfo info;
  GstBufferPool *in_pool, *out_pool;
  GstClPlan *plan;
  GError *error = NULL;
  cl_event done[N_FRAMES] = { NULL, };
  guint i, held = 0, depth;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 45, 27);
  in_pool = fixture_cl_pool (&info, FALSE, 0);
  out_pool = fixture_cl_pool (&info, FALSE, 0);
  plan = gst_cl_plan_new (fixture_context, tuner, &info, 3, &error);
  fail_unless (plan != NULL, "%s", error ? error->message : "");
  depth = gst_cl_plan_get_depth (plan);
  /* one at a time only where the CPU maps frames with commands */
  fail_unless_equals_int (depth, gst_cl_context_is_host_unified
      (fixture_context) && !gst_cl_context_has_fine_svm (fixture_context) ?
      1 : 3);

  for (i = 0; i < N_FRAMES; i++) {
    GstClPlanSettings s;
    GstClFrameStats frame;

    frame_settings (i, &s, &ps[i]);
    gst_cl_plan_set_settings (plan, &s);
    ins[i] = fixture_pool_frame (in_pool, rand);
    fail_unless (gst_buffer_pool_acquire_buffer (out_pool, &outs[i], NULL) ==
        GST_FLOW_OK);
    gst_buffer_memset (outs[i], 0, 0xa5, gst_buffer_get_size (outs[i]));
    fail_unless (gst_cl_plan_process (plan, ins[i], outs[i], FALSE, &frame,
            &error), "frame %u: %s", i, error ? error->message : "");
    if (depth > 1) {
      cl_event pending =
          gst_cl_memory_get_pending (gst_buffer_peek_memory (outs[i], 0));

      fail_unless (pending != NULL, "frame %u: not in flight", i);
      done[i] = pending;
    }
  }
  /* the last depth frames' inputs are held by their slots */
  for (i = 0; i < N_FRAMES; i++)
    if (GST_MINI_OBJECT_REFCOUNT_VALUE (ins[i]) > 1)
      held++;
  fail_unless_equals_int (held, depth > 1 ? depth : 0);

  for (i = 0; i < N_FRAMES; i++) {
    gchar *what = g_strdup_printf ("frame %u of %u, depth %u", i, N_FRAMES,
        depth);

    check_reference (&info, ins[i], outs[i], &ps[i], what);
    g_free (what);
  }
  fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
      error ? error->message : "");
  for (i = 0; i < N_FRAMES; i++) {
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (ins[i]), 1);
    if (done[i]) {
      fail_unless_equals_int (event_status (done[i]), CL_COMPLETE);
      clReleaseEvent (done[i]);
    }
    gst_buffer_unref (ins[i]);
    gst_buffer_unref (outs[i]);
  }
  /* a second drain has nothing to do */
  fail_unless (gst_cl_plan_drain (plan, NULL, NULL));
  gst_cl_plan_free (plan);
  fixture_free_pool (in_pool);
  fixture_free_pool (out_pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* The wait for frame 0 fails (libclfault fails the next clWaitForEvents,
 * the one that retires a slot): at depth 3 frame 0 has left by then, frames
 * 1 and 2 pass, and frame 3, which takes slot 0, fails with that error,
 * once; frames pass again after it. A drain whose wait fails reports it
 * too. (At depth 1 no frame is left in flight: nothing to raise later.) */
GST_START_TEST (test_error_of_frame_that_left)
{
  GRand *rand = g_rand_new_with_seed (0xe7e7);
  GstVideoInfo info;
  GstBufferPool *pool, *out_pool;
  GstClPlanSettings s;
  GstClPlan *plan;
  RefParams p;
  GstClFrameStats frame;
  GError *error = NULL;
  guint i, depth;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 33, 17);
  pool = fixture_cl_pool (&info, FALSE, 0);
  out_pool = fixture_cl_pool (&info, FALSE, 0);
  plan = gst_cl_plan_new (fixture_context, tuner, &info, 3, &error);
  fail_unless (plan != NULL);
  depth = gst_cl_plan_get_depth (plan);
  frame_settings (1, &s, &p);
  gst_cl_plan_set_settings (plan, &s);

  for (i = 0; depth > 1 && i < 2 * depth + 2; i++) {
    GstBuffer *in = fixture_pool_frame (pool, rand), *out = NULL;
    gboolean ok;

    fail_unless (gst_buffer_pool_acquire_buffer (out_pool, &out, NULL) ==
        GST_FLOW_OK);
    /* frame depth takes frame 0's slot: its wait fails */
    if (i == depth)
      clfault_arm (1, CL_OUT_OF_RESOURCES, "clWaitForEvents", FALSE);
    ok = gst_cl_plan_process (plan, in, out, FALSE, &frame, &error);
    clfault_reset ();
    if (i == depth) {
      fail_if (ok, "the failure of frame 0 was not raised");
      fail_unless (error != NULL && strstr (error->message,
              "CL_OUT_OF_RESOURCES") != NULL, "raised: %s",
          error ? error->message : "nothing");
      g_clear_error (&error);
      /* raised once: every frame was drained */
      fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
          error ? error->message : "");
    } else {
      fail_unless (ok, "frame %u: %s", i, error ? error->message : "");
      check_reference (&info, in, out, &p, "a frame around the failure");
    }
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }

  /* frames in flight, and the drain's wait fails */
  for (i = 0; depth > 1 && i < depth; i++) {
    GstBuffer *in = fixture_pool_frame (pool, rand), *out = NULL;

    fail_unless (gst_buffer_pool_acquire_buffer (out_pool, &out, NULL) ==
        GST_FLOW_OK);
    fail_unless (gst_cl_plan_process (plan, in, out, FALSE, &frame, &error));
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  if (depth > 1) {
    clfault_arm (1, CL_OUT_OF_RESOURCES, "clWaitForEvents", FALSE);
    fail_if (gst_cl_plan_drain (plan, NULL, &error), "a failed drain passed");
    clfault_reset ();
    fail_unless (error != NULL);
    g_clear_error (&error);
  }
  fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
      error ? error->message : "");
  gst_cl_plan_free (plan);
  fixture_free_pool (pool);
  fixture_free_pool (out_pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* A fault kept for an output that already left (a failed map downstream):
 * the next frame fails with it, and so does every drain after. */
GST_START_TEST (test_fault_kept)
{
  GRand *rand = g_rand_new_with_seed (0xfa17);
  GstElement *element = gst_bin_new ("faulty");
  GstClFaults *faults = gst_cl_faults_new (element);
  GError *kept = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "a map of frame 0 failed");
  GstVideoInfo info;
  GstClPlanSettings s;
  GstClFrameStats frame;
  GstClPlan *plan;
  RefParams p;
  GstBuffer *in, *out;
  GError *error = NULL;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 31, 15);
  plan = gst_cl_plan_new (fixture_context, tuner, &info, 3, NULL);
  fail_unless (plan != NULL);
  gst_cl_plan_set_faults (plan, faults);
  frame_settings (2, &s, &p);
  gst_cl_plan_set_settings (plan, &s);
  in = rt_make_input (&info, rand, 0, FALSE);
  out = rt_make_input (&info, rand, 0, FALSE);
  fail_unless (gst_cl_plan_process (plan, in, out, FALSE, &frame, &error));
  check_reference (&info, in, out, &p, "before the fault");
  gst_buffer_unref (out);

  gst_cl_faults_keep (faults, kept, "frame 0");
  out = rt_make_input (&info, rand, 0, FALSE);
  fail_if (gst_cl_plan_process (plan, in, out, FALSE, &frame, &error));
  fail_unless (error != NULL && strstr (error->message,
          "a map of frame 0 failed") != NULL, "raised: %s",
      error ? error->message : "nothing");
  g_clear_error (&error);
  fail_if (gst_cl_plan_drain (plan, NULL, &error));
  fail_unless (error != NULL);
  g_clear_error (&error);

  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_cl_plan_free (plan);
  gst_cl_faults_unref (faults);
  gst_object_unref (element);
  g_error_free (kept);
  g_rand_free (rand);
}

GST_END_TEST;

/* An input whose pending work (an OpenCL element upstream) has failed
 * before the frame: the frame fails at once, naming it, with nothing
 * enqueued and the input not held (on PoCL 3.1 a command enqueued after a
 * failed event never runs, and the wait for it, or the drain of frames in
 * flight, would hang: the suite's timeout); the next frame, from an input
 * with nothing pending, is right. */
GST_START_TEST (test_failed_input_work)
{
  GRand *rand = g_rand_new_with_seed (0xfa11);
  GstVideoInfo info;
  GstBufferPool *in_pool, *out_pool;
  GstClPlanSettings s;
  GstClFrameStats frame;
  GstClPlan *plan;
  RefParams p;
  GstBuffer *in, *out;
  GError *error = NULL;
  cl_event upstream;
  long events;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 33, 17);
  in_pool = fixture_cl_pool (&info, FALSE, 0);
  out_pool = fixture_cl_pool (&info, FALSE, 0);
  plan = gst_cl_plan_new (fixture_context, tuner, &info, 3, &error);
  fail_unless (plan != NULL, "%s", error ? error->message : "");
  frame_settings (0, &s, &p);
  gst_cl_plan_set_settings (plan, &s);
  in = fixture_pool_frame (in_pool, rand);
  upstream = clCreateUserEvent (gst_cl_context_get_handle (fixture_context),
      NULL);
  fail_unless (upstream != NULL);
  gst_cl_memory_set_pending (gst_buffer_peek_memory (in, 0), upstream);
  fail_unless (clSetUserEventStatus (upstream, CL_OUT_OF_RESOURCES) ==
      CL_SUCCESS);
  fail_unless (gst_buffer_pool_acquire_buffer (out_pool, &out, NULL) ==
      GST_FLOW_OK);
  events = clfault_live (CLFAULT_EVENT);
  fail_if (gst_cl_plan_process (plan, in, out, FALSE, &frame, &error));
  fail_unless (error != NULL && strstr (error->message,
          "work still writing the input frame") != NULL &&
      strstr (error->message, "CL_OUT_OF_RESOURCES") != NULL, "raised: %s",
      error ? error->message : "nothing");
  g_clear_error (&error);
  /* nothing of the frame enqueued, its input not held */
  fail_unless (clfault_live (CLFAULT_EVENT) == events);
  fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (in), 1);
  fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
      error ? error->message : "");
  gst_buffer_unref (out);

  /* the failed work forgotten, as a new buffer from upstream would have it */
  gst_cl_memory_set_pending (gst_buffer_peek_memory (in, 0), NULL);
  clReleaseEvent (upstream);
  fail_unless (gst_buffer_pool_acquire_buffer (out_pool, &out, NULL) ==
      GST_FLOW_OK);
  fail_unless (gst_cl_plan_process (plan, in, out, FALSE, &frame, &error),
      "%s", error ? error->message : "");
  fail_unless (gst_cl_plan_drain (plan, NULL, &error), "%s",
      error ? error->message : "");
  check_reference (&info, in, out, &p, "the frame after");
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_cl_plan_free (plan);
  fixture_free_pool (in_pool);
  fixture_free_pool (out_pool);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
clinflight_suite (void)
{
  Suite *s = suite_create ("clinflight");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_streams_ordered);
  tcase_add_test (tc, test_frames_ahead);
  tcase_add_test (tc, test_error_of_frame_that_left);
  tcase_add_test (tc, test_fault_kept);
  tcase_add_test (tc, test_failed_input_work);
  return s;
}

GST_CHECK_MAIN (clinflight);
