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

/* cl-cuda-seek PIPELINE SEEK_AFTER
 *
 * With SEEK_AFTER 0: no seek and no checksums (the sink may get CUDA
 * memory); prints the frames and the real time (microseconds since the
 * epoch) of the first and the last at the sinks (every element whose name
 * starts with "sink": one process may run several chains), so that the
 * aggregate frame rate of several processes at once can be computed; and
 * the "stats" of each clepsilon. With CL_CUDA_SEEK_BARRIER=DIR:N set, the
 * pipeline prerolls first, says so in folder DIR (a file ready-PID), and
 * plays once N processes have (the last to be ready writes DIR/start, a
 * real time 0.3 s ahead that all wait for), counting only the frames
 * after: processes started together (their CUDA and OpenCL set-ups take
 * seconds, and not the same) then decode at once, and none waits longer
 * than the slowest set-up. A process that stops before it is ready (a
 * pipeline that does not parse) counts as ready, so that none waits for
 * it. Where the N are not ready 60 s after this one is, where the folder
 * cannot be written, or where this one starts more than 20 ms late, it
 * says "barrier: late" on stderr (and plays at once). A PIPELINE that is
 * one bin, "( ... )", is put in a pipeline, as gst-launch-1.0 does. With
 * CL_CUDA_SEEK_ROUNDS=R (default 1) it plays R times: after each EOS a
 * flushing seek back to 0, a preroll and the barrier again (in DIR/round-K
 * for round K), so that repeated measures pay the set-up once; a line
 * "frames ..." a round, each ending "round K" (with SEEK_AFTER 0 only:
 * otherwise it plays once).
 *
 * Runs PIPELINE (gst-launch-1.0 syntax, ending in an element named "sink"
 * whose buffers are in system memory), and after SEEK_AFTER frames a
 * flushing seek back to 0; then to EOS. Every frame's checksum is kept by
 * its PTS: a frame seen again after the seek must be the same. Prints the
 * frames before and after the seek, how many came again and differed, and
 * whether EOS came without an ERROR; exits 0 only then. Example:
 *   cl-cuda-seek "filesrc location=clip.mp4 ! qtdemux ! h264parse ! nvh264dec
 *     ! clepsilon device=nvidia ! video/x-raw ! fakesink name=sink" 10
 *
 * With CL_CUDA_SEEK_KERNEL=LOOPS set, each frame in CUDA memory at a sink
 * also goes through a stand-in for a filter that needs no OpenCL
 * (cuda-stand-in.h, which says its settings), and its frames' time on the
 * GPU is printed. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda-stand-in.h"

static GHashTable *sums;        /* PTS -> checksum */
static gint frames, again, differ, seek_after;
static gint64 first_us, last_us;
static gboolean seeking;
static GstElement *pipeline;
static GMutex lock;             /* the counters, where chains run at once */
static CudaStandIn stand_in;
static gboolean with_stand_in;

static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMapInfo map;
  gchar *sum;
  const gchar *before;

  g_mutex_lock (&lock);
  last_us = g_get_real_time ();
  if (frames++ == 0)
    first_us = last_us;
  g_mutex_unlock (&lock);
  if (with_stand_in)
    cuda_stand_in_frame (&stand_in, buf);
  if (seek_after == 0)
    return GST_PAD_PROBE_OK;
  frames--;
  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return GST_PAD_PROBE_OK;
  sum = g_compute_checksum_for_data (G_CHECKSUM_MD5, map.data, map.size);
  gst_buffer_unmap (buf, &map);
  before = g_hash_table_lookup (sums, GINT_TO_POINTER (GST_BUFFER_PTS (buf)));
  if (before) {
    again++;
    differ += g_strcmp0 (before, sum) != 0;
    g_free (sum);
  } else {
    g_hash_table_insert (sums, GINT_TO_POINTER (GST_BUFFER_PTS (buf)), sum);
  }
  if (++frames == seek_after)
    seeking = TRUE;
  return GST_PAD_PROBE_OK;
}

/* Counts the buffers of @element where it is a sink of the measure. */
static void
probe_sink (const GValue * value, gpointer user_data)
{
  GstElement *element = g_value_get_object (value);
  GstPad *pad;

  if (!g_str_has_prefix (GST_ELEMENT_NAME (element), "sink") ||
      !(pad = gst_element_get_static_pad (element, "sink")))
    return;
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, NULL, NULL);
  gst_object_unref (pad);
  (*(gint *) user_data)++;
}

/* Prints the "stats" of @element where it is a clepsilon. */
static void
print_stats (const GValue * value, gpointer user_data)
{
  GstElement *element = g_value_get_object (value);
  GstElementFactory *factory = gst_element_get_factory (element);
  GstStructure *stats;
  gchar *text;

  if (!factory || g_strcmp0 (GST_OBJECT_NAME (factory), "clepsilon") != 0)
    return;
  g_object_get (element, "stats", &stats, NULL);
  text = gst_structure_to_string (stats);
  g_print ("stats %s: %s\n", GST_ELEMENT_NAME (element), text);
  g_free (text);
  gst_structure_free (stats);
}

/* How long a party waits for the others once it is ready (within the
 * 300 s a round that gpu-streams.sh gives a process, preroll included), and how
 * far ahead the last one sets the start. */
#define BARRIER_SECONDS 60
#define BARRIER_LEAD_US 300000
/* A start later than this is said ("barrier: late"). */
#define BARRIER_LATE_US 20000

/* The barrier's folder and parties of @spec (DIR:N); FALSE where it is
 * malformed (an empty folder, no parties). */
static gboolean
barrier_parse (const gchar * spec, gchar ** dir, guint * parties)
{
  const gchar *colon = strrchr (spec, ':');

  if (!colon || colon == spec || atoi (colon + 1) < 1)
    return FALSE;
  *dir = g_strndup (spec, colon - spec);
  *parties = (guint) atoi (colon + 1);
  return TRUE;
}

/* Says in @dir that this process is ready (or gives up: it will not
 * come): an empty file ready-PID, made at once (no temporary name that
 * count_ready() could see). FALSE where it cannot be written. */
static gboolean
barrier_arrive (const gchar * dir)
{
  gchar *ready = g_strdup_printf ("%s/ready-%d", dir, (gint) getpid ());
  const gint fd = g_open (ready, O_WRONLY | O_CREAT, 0644);

  if (fd >= 0)
    close (fd);
  else
    g_printerr ("barrier: cannot write %s\n", ready);
  g_free (ready);
  return fd >= 0;
}

/* How many parties of @dir are ready: its files ready-PID. */
static guint
count_ready (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  guint n = 0;

  while (d && (name = g_dir_read_name (d)))
    n += g_str_has_prefix (name, "ready-") && strchr (name, '.') == NULL;
  if (d)
    g_dir_close (d);
  return n;
}

/* The start time in @dir's file "start", once there; the last party to be
 * ready writes it, whole (a link made once: whoever comes second keeps the
 * first's; a rename where the folder takes no links). */
static gboolean
read_or_write_start (const gchar * dir, guint parties, gint64 * start_us)
{
  gchar *start = g_build_filename (dir, "start", NULL), *text = NULL;
  gboolean found = g_file_get_contents (start, &text, NULL, NULL) &&
      *text != '\0';

  if (found) {
    *start_us = g_ascii_strtoll (text, NULL, 10);
  } else if (count_ready (dir) >= parties) {
    gchar *tmp = g_strdup_printf ("%s/start.%d", dir, (gint) getpid ());
    gchar *when = g_strdup_printf ("%" G_GINT64_FORMAT,
        g_get_real_time () + BARRIER_LEAD_US);

    if (g_file_set_contents (tmp, when, -1, NULL) && link (tmp, start) != 0
        && errno != EEXIST)
      g_rename (tmp, start);
    g_unlink (tmp);
    g_free (tmp);
    g_free (when);
  }
  g_free (text);
  g_free (start);
  return found;
}

/* The real time at which the parties of @spec (DIR:N) play together: now
 * where the barrier cannot be used, said on stderr. */
static gint64
barrier_start (const gchar * spec)
{
  const gint64 deadline = g_get_monotonic_time () +
      BARRIER_SECONDS * G_USEC_PER_SEC;
  gint64 start_us = 0;
  guint parties;
  gchar *dir;

  if (!barrier_parse (spec, &dir, &parties)) {
    g_printerr ("barrier: late: %s is not DIR:N\n", spec);
    return g_get_real_time ();
  }
  if (!barrier_arrive (dir)) {
    g_printerr ("barrier: late: starting alone\n");
    start_us = g_get_real_time ();
  }
  while (!start_us && !read_or_write_start (dir, parties, &start_us)) {
    if (g_get_monotonic_time () > deadline) {
      g_printerr ("barrier: late: %u of %u ready after %d s\n",
          count_ready (dir), parties, BARRIER_SECONDS);
      start_us = g_get_real_time ();
      break;
    }
    g_usleep (5000);
  }
  g_free (dir);
  return start_us;
}

/* The barrier of round @round (1, 2, ...): CL_CUDA_SEEK_BARRIER's DIR:N,
 * then DIR/round-K:N (the folder made here); NULL where none is set. */
static gchar *
barrier_of_round (gint round)
{
  const gchar *spec = g_getenv ("CL_CUDA_SEEK_BARRIER");
  guint parties;
  gchar *dir, *sub, *of_round;

  if (!spec)
    return NULL;
  if (round == 1 || !barrier_parse (spec, &dir, &parties))
    return g_strdup (spec);
  sub = g_strdup_printf ("%s/round-%d", dir, round);
  g_mkdir_with_parents (sub, 0755);
  of_round = g_strdup_printf ("%s:%u", sub, parties);
  g_free (sub);
  g_free (dir);
  return of_round;
}

/* Where this process will not reach the barriers of rounds @from to @to
 * (it stops early): ready all the same, so that the others do not wait
 * for it. */
static void
barrier_leave (gint from, gint to)
{
  guint parties;
  gchar *dir, *spec;

  for (; from <= to; from++) {
    spec = barrier_of_round (from);
    if (spec && barrier_parse (spec, &dir, &parties)) {
      barrier_arrive (dir);
      g_free (dir);
    }
    g_free (spec);
  }
}

/* Forgets the frames seen so far (a preroll's, an earlier round's). */
static void
forget_frames (void)
{
  g_mutex_lock (&lock);
  frames = 0;
  first_us = last_us = 0;
  g_mutex_unlock (&lock);
}

/* Prerolls, waits for the other parties of @spec (barrier_start()), and
 * forgets the frames seen so far (the preroll's). */
static void
start_together (const gchar * spec)
{
  gint64 start_us, now;

  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  gst_element_get_state (pipeline, NULL, NULL, 120 * GST_SECOND);
  start_us = barrier_start (spec);
  now = g_get_real_time ();
  if (start_us > now)
    g_usleep (start_us - now);
  else if (now - start_us > BARRIER_LATE_US)
    g_printerr ("barrier: late by %.1f ms\n", (now - start_us) / 1000.0);
  forget_frames ();
}

/* Plays until EOS (TRUE) or an ERROR (FALSE, said), seeking back to 0
 * once after SEEK_AFTER frames (on_buffer()); @before: the frames then. */
static gboolean
play_to_end (GstBus * bus, gint * before)
{
  GError *error = NULL;
  GstMessage *msg;
  GstMessageType type;

  while (TRUE) {
    msg = gst_bus_timed_pop (bus, 20 * GST_MSECOND);
    if (seeking) {
      seeking = FALSE;
      *before = frames;
      if (!gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
              GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT, 0))
        g_printerr ("the seek was refused\n");
    }
    if (!msg)
      continue;
    type = GST_MESSAGE_TYPE (msg);
    if (type == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &error, NULL);
      g_printerr ("ERROR: %s\n", error->message);
      g_clear_error (&error);
    }
    gst_message_unref (msg);
    if (type == GST_MESSAGE_EOS || type == GST_MESSAGE_ERROR)
      return type == GST_MESSAGE_EOS;
  }
}

/* The round's line: its frames and the real times of the first and last,
 * ending "round @round" where that is not 0; out at once (a process ended
 * by a limit keeps its earlier rounds). */
static void
print_frames (gboolean eos, gint round)
{
  gchar label[32] = "";

  if (round > 0)
    g_snprintf (label, sizeof (label), " round %d", round);
  g_print ("frames %d first %" G_GINT64_FORMAT " last %" G_GINT64_FORMAT
      " fps %.1f EOS %s%s\n", frames, first_us, last_us, frames > 1 ?
      (frames - 1) * 1e6 / MAX (last_us - first_us, 1) : 0.0,
      eos ? "yes" : "no", label);
  fflush (stdout);
}

/* After round @round's EOS, the next: a flushing seek back to 0, the
 * preroll and the next round's barrier (or none), then playing; FALSE,
 * said, where the seek is refused or the preroll fails. */
static gboolean
play_again (gint round)
{
  gchar *spec = barrier_of_round (round + 1);
  GstStateChangeReturn prerolled = GST_STATE_CHANGE_FAILURE;

  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  if (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, 0))
    prerolled = gst_element_get_state (pipeline, NULL, NULL, 120 * GST_SECOND);
  /* not prerolled within the limit (ASYNC) fails too */
  if (prerolled != GST_STATE_CHANGE_SUCCESS &&
      prerolled != GST_STATE_CHANGE_NO_PREROLL) {
    g_printerr ("round %d: the seek back to 0 failed\n", round + 1);
    g_free (spec);
    return FALSE;
  }
  if (spec)
    start_together (spec);
  else
    forget_frames ();
  g_free (spec);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  return TRUE;
}

/* @description as a pipeline: one bin alone, "( ... )", is put in one as
 * gst-launch-1.0 does (a bin has no bus); NULL, said, where it does not
 * parse whole (a missing element too). */
static GstElement *
parse_pipeline (const gchar * description)
{
  GError *error = NULL;
  GstElement *parsed = gst_parse_launch (description, &error), *top;

  if (error) {                  /* even where a part was made, as gst-launch */
    g_printerr ("erroneous pipeline: %s\n", error->message);
    g_clear_error (&error);
    gst_clear_object (&parsed);
    return NULL;
  }
  if (GST_IS_PIPELINE (parsed))
    return parsed;
  top = gst_pipeline_new (NULL);
  gst_bin_add (GST_BIN (top), parsed);
  return top;
}

int
main (int argc, char **argv)
{
  const gchar *rounds_text = g_getenv ("CL_CUDA_SEEK_ROUNDS");
  GstIterator *it;
  GstBus *bus;
  gint sinks = 0, before = 0, round = 1, rounds;
  gboolean eos, label;
  gchar *spec;

  gst_init (&argc, &argv);
  rounds = rounds_text ? MAX (atoi (rounds_text), 1) : 1;
  if (argc != 3) {
    g_printerr ("usage: cl-cuda-seek PIPELINE SEEK_AFTER\n");
    barrier_leave (1, rounds);
    return 2;
  }
  seek_after = atoi (argv[2]);
  if (seek_after != 0)
    rounds = 1;
  /* with CL_CUDA_SEEK_ROUNDS set, every line says its round, 1 too */
  label = seek_after == 0 && rounds_text != NULL;
  with_stand_in = cuda_stand_in_init (&stand_in);
  sums = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  if (!(pipeline = parse_pipeline (argv[1]))) {
    barrier_leave (1, rounds);
    return 2;
  }
  it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  gst_iterator_foreach (it, probe_sink, &sinks);
  gst_iterator_free (it);
  if (sinks == 0 || (seek_after > 0 && sinks > 1)) {
    g_printerr ("the pipeline needs one sink named \"sink\"%s\n",
        seek_after > 0 ? "" : " (or several, sink0, sink1...)");
    barrier_leave (1, rounds);
    return 2;
  }
  bus = gst_element_get_bus (pipeline);
  spec = barrier_of_round (1);
  if (seek_after == 0 && spec)
    start_together (spec);
  g_free (spec);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((eos = play_to_end (bus, &before)) && round < rounds) {
    print_frames (eos, label ? round : 0);
    if (!play_again (round)) {
      /* the round not played: its line says no frames, no EOS */
      forget_frames ();
      eos = FALSE;
      barrier_leave (round + 1, round + 1);
      round++;
      break;
    }
    round++;
  }
  /* the others do not wait for the rounds this one will not play */
  barrier_leave (round + 1, rounds);
  /* while the decoders' CUDA contexts are still there */
  if (with_stand_in)
    cuda_stand_in_finish (&stand_in);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  gst_iterator_foreach (it, print_stats, NULL);
  gst_iterator_free (it);
  if (seek_after == 0) {
    print_frames (eos, label ? round : 0);
    return eos ? 0 : 1;
  }
  g_print ("frames before the seek %d, after %d, seen again %d, differing "
      "%d, EOS %s\n", before, frames - before, again, differ,
      eos ? "yes" : "no");
  return eos && differ == 0 && again > 0 ? 0 : 1;
}
