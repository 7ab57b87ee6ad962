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

/* A frame's command that fails after it was enqueued, as a device fault
 * does: libclfault's slow device (tests/clfault/slow.c) ends the N-th
 * command held in error, for every N of a short stream in turn. What a
 * user relies on: whenever a command of a frame failed, the stream ends in
 * exactly one ERROR of the element that names the OpenCL step and error,
 * even where the frame's output went downstream before the failure and the
 * sink never maps it (fakesink), and whatever frames are still in flight at
 * EOS; where nothing failed, no ERROR and every frame out; never a hang.
 * Runs with frames-in-flight=3 in every memory mode of tests/meson.build
 * (discrete: every frame in flight), and under the slow device's delays. */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "../harness.h"
#include "../../clfault/clfault.h"

#define N_FRAMES 6
/* Longer than the slow device's delays and the 20 ms by which a failed
 * command comes later (tests/clfault/clfault.h). */
#define FRAME_INTERVAL_US 40000

/* What the sink does with a frame. */
typedef enum
{
  SINK_DROPS,                   /* unrefs it unread (fakesink) */
  SINK_MAPS,                    /* maps it and checks it */
  SINK_HOLDS,                   /* keeps it unread until after EOS (a queue) */
} Sink;

static const gchar *const sink_names[] = { "a sink that never maps",
  "a sink that maps", "a sink that holds every frame unread"
};

/* What one stream came to. */
typedef struct
{
  gboolean command_failed;      /* the slow device failed a command */
  guint errors;                 /* ERROR messages of the element */
  gchar *text;                  /* the first one's text */
  guint outputs;                /* buffers that came out */
  gboolean stopped;             /* a push returned an error, or EOS was
                                 * refused */
  gulong held;                  /* commands of the frames (before EOS) */
  GPtrArray *kept;              /* the frames a holding sink keeps */
} Outcome;

static void
outcome_clear (Outcome * o)
{
  g_free (o->text);
}

/* The frames of a holding sink, let go of after EOS. */
static void
release_kept (Outcome * o)
{
  g_ptr_array_free (o->kept, TRUE);
  o->kept = NULL;
}

/* Takes @out as @sink does (checked against @exp where it maps). */
static void
consume (GstBuffer * out, const GstVideoInfo * info, GstBuffer * exp,
    Sink sink, Outcome * o)
{
  GstMapInfo map;

  o->outputs++;
  if (sink == SINK_HOLDS) {
    g_ptr_array_add (o->kept, out);
    return;
  }
  /* a map that fails is the element's fault to report, not a wrong frame */
  if (sink == SINK_MAPS && !o->command_failed)
    th_check_frame (info, out, exp, 0, "a frame of a stream where no "
        "command failed");
  else if (sink == SINK_MAPS && gst_buffer_map (out, &map, GST_MAP_READ))
    gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
}

/* N_FRAMES NV12 frames, then EOS, through a clepsilon at frames-in-flight=3
 * whose @nth command enqueued (1-based, counted from the second frame;
 * G_MAXULONG: none) fails after it was enqueued. */
static void
run_stream (gulong nth, Sink sink, Outcome * o)
{
  GRand *rand = g_rand_new_with_seed (0x41f0 + nth);
  GstElement *e = th_make_element ();
  GstBuffer *inputs[N_FRAMES], *exps[N_FRAMES], *out;
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  guint i;

  memset (o, 0, sizeof (*o));
  o->kept = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  th_params_init (&p, 30, 5, 20);
  rt_apply_params (e, &p, NULL);
  g_object_set (e, "frames-in-flight", 3, NULL);
  hr = th_harness_new (e, GST_VIDEO_FORMAT_NV12, 96, 49, 0, &info);
  for (i = 0; i < N_FRAMES; i++) {
    inputs[i] = th_make_input (&info, rand, TH_FILL_NOISE);
    exps[i] = rt_make_expected (&info, inputs[i], &p);
  }
  /* The first frame allocates the plan's buffers (and fills them for the
   * tuner, commands of no frame): the commands counted are the frames'. */
  GST_BUFFER_PTS (inputs[0]) = 0;
  consume (th_push_pull (hr, gst_buffer_ref (inputs[0]), "the first frame"),
      &info, exps[0], SINK_MAPS, o);
  clfault_slow_fail (nth, CL_OUT_OF_RESOURCES);
  for (i = 1; i < N_FRAMES && !o->stopped; i++) {
    GST_BUFFER_PTS (inputs[i]) = i * GST_SECOND / 25;
    o->stopped = gst_harness_push (hr, gst_buffer_ref (inputs[i])) !=
        GST_FLOW_OK;
    o->command_failed = clfault_slow_failed () > 0;
    while ((out = gst_harness_try_pull (hr)))
      consume (out, &info, exps[o->outputs], sink, o);
    /* at a live source's pace: each frame's commands are done before the
     * next frame's are enqueued, so that a failure is one frame's alone */
    if (sink == SINK_HOLDS)
      g_usleep (FRAME_INTERVAL_US);
  }
  /* what is enqueued from EOS on (unmapping staging memory) is no frame's */
  o->held = clfault_slow_held ();
  if (!gst_harness_push_event (hr, gst_event_new_eos ()))
    o->stopped = TRUE;
  o->command_failed = clfault_slow_failed () > 0;
  while ((out = gst_harness_try_pull (hr)))
    consume (out, &info, exps[o->outputs], sink, o);
  o->errors = rt_drain_errors (hr->element, &o->text);
  release_kept (o);
  clfault_slow_fail (0, 0);
  for (i = 0; i < N_FRAMES; i++) {
    gst_buffer_unref (inputs[i]);
    gst_buffer_unref (exps[i]);
  }
  rt_teardown (hr);
  g_rand_free (rand);
}

/* What a user relies on, for the stream of @nth. */
static void
check_outcome (gulong nth, Sink sink_kind, const Outcome * o)
{
  const gchar *sink = sink_names[sink_kind];

  if (!o->command_failed) {
    fail_unless (o->errors == 0, "command %lu (none failed), %s: %u ERRORs, "
        "the first: %s", nth, sink, o->errors, o->text);
    fail_unless (o->outputs == N_FRAMES && !o->stopped, "command %lu (none "
        "failed), %s: %u frames out of %u, stopped %d", nth, sink,
        o->outputs, N_FRAMES, o->stopped);
    return;
  }
  fail_unless (o->errors == 1, "command %lu of %lu failed, %s: %u ERRORs "
      "(the first: %s)", nth, o->held, sink, o->errors, o->text);
  fail_unless (strstr (o->text, "OpenCL ") != NULL &&
      strstr (o->text, "failed: ") != NULL, "command %lu, %s: the ERROR "
      "names no OpenCL step and error: %s", nth, sink, o->text);
  fail_unless (o->stopped, "command %lu failed, %s: the stream went on to "
      "EOS", nth, sink);
}

/* The commands a stream enqueues where none fails. */
static gulong
commands_of_a_stream (Sink sink)
{
  Outcome o;
  gulong held;

  run_stream (G_MAXULONG, sink, &o);
  check_outcome (0, sink, &o);
  held = o.held;
  outcome_clear (&o);
  fail_unless (held > N_FRAMES, "%lu commands held for %u frames", held,
      N_FRAMES);
  return held;
}

/* Every command of the frames failing in turn, behind @sink. */
static void
each_command_fails (Sink sink)
{
  gulong n = commands_of_a_stream (sink), nth;

  for (nth = 1; nth <= n; nth++) {
    Outcome o;

    run_stream (nth, sink, &o);
    check_outcome (nth, sink, &o);
    outcome_clear (&o);
  }
}

/* Behind a sink that never maps: the failures only the frames still in
 * flight at EOS carry, and those a later frame finds, are the element's
 * ERROR. */
GST_START_TEST (test_failed_command_never_mapped)
{
  each_command_fails (SINK_DROPS);
}

GST_END_TEST;

/* Behind a sink that maps every frame: the map waits for the frame, and a
 * failure found there is the element's ERROR too; frames of a stream where
 * nothing failed are right. */
GST_START_TEST (test_failed_command_mapped)
{
  each_command_fails (SINK_MAPS);
}

GST_END_TEST;

/* Behind a sink that keeps every frame unread until after EOS (a queue
 * that has not started), frames at a live source's pace: the element's pool
 * gives new buffers, and a failure of one frame is found only when its
 * slot comes round again, or at EOS. */
GST_START_TEST (test_failed_command_held)
{
  each_command_fails (SINK_HOLDS);
}

GST_END_TEST;

static Suite *
clepsiloninflight_suite (void)
{
  Suite *s = suite_create ("clepsiloninflight");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_failed_command_never_mapped);
  tcase_add_test (tc, test_failed_command_mapped);
  tcase_add_test (tc, test_failed_command_held);
  return s;
}

GST_CHECK_MAIN (clepsiloninflight);
