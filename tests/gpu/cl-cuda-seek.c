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
 * the "stats" of each clepsilon. With CL_CUDA_SEEK_START_AT set (a real
 * time, microseconds since the epoch), the pipeline prerolls first, then
 * waits for that time before it plays, and counts only the frames after:
 * processes started together (their CUDA and OpenCL set-ups take seconds,
 * and not the same) then decode at once from that time on.
 *
 * Runs PIPELINE (gst-launch-1.0 syntax, ending in an element named "sink"
 * whose buffers are in system memory), and after SEEK_AFTER frames a
 * flushing seek back to 0; then to EOS. Every frame's checksum is kept by
 * its PTS: a frame seen again after the seek must be the same. Prints the
 * frames before and after the seek, how many came again and differed, and
 * whether EOS came without an ERROR; exits 0 only then. Example:
 *   cl-cuda-seek "filesrc location=clip.mp4 ! qtdemux ! h264parse ! nvh264dec
 *     ! clepsilon device=nvidia ! video/x-raw ! fakesink name=sink" 10 */

#include <gst/gst.h>
#include <stdlib.h>

static GHashTable *sums;        /* PTS -> checksum */
static gint frames, again, differ, seek_after;
static gint64 first_us, last_us;
static gboolean seeking;
static GstElement *pipeline;
static GMutex lock;             /* the counters, where chains run at once */

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

/* Prerolls, waits for @start_us (real time), and forgets the frames seen
 * so far (the preroll's). */
static void
start_together (gint64 start_us)
{
  gint64 now;

  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  gst_element_get_state (pipeline, NULL, NULL, 120 * GST_SECOND);
  now = g_get_real_time ();
  if (start_us > now)
    g_usleep (start_us - now);
  else
    g_printerr ("ready %.1f s after the start time\n", (now - start_us) / 1e6);
  g_mutex_lock (&lock);
  frames = 0;
  first_us = last_us = 0;
  g_mutex_unlock (&lock);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GstIterator *it;
  GstBus *bus;
  gint sinks = 0;
  GstMessage *msg;
  gint before = 0;
  gboolean eos = FALSE, done = FALSE;

  gst_init (&argc, &argv);
  if (argc != 3) {
    g_printerr ("usage: cl-cuda-seek PIPELINE SEEK_AFTER\n");
    return 2;
  }
  seek_after = atoi (argv[2]);
  sums = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  pipeline = gst_parse_launch (argv[1], &error);
  if (!pipeline) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  gst_iterator_foreach (it, probe_sink, &sinks);
  gst_iterator_free (it);
  if (sinks == 0 || (seek_after > 0 && sinks > 1)) {
    g_printerr ("the pipeline needs one sink named \"sink\"%s\n",
        seek_after > 0 ? "" : " (or several, sink0, sink1...)");
    return 2;
  }
  bus = gst_element_get_bus (pipeline);
  if (seek_after == 0 && g_getenv ("CL_CUDA_SEEK_START_AT"))
    start_together (g_ascii_strtoll (g_getenv ("CL_CUDA_SEEK_START_AT"), NULL,
            10));
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!done) {
    msg = gst_bus_timed_pop (bus, 20 * GST_MSECOND);
    if (seeking) {
      seeking = FALSE;
      before = frames;
      if (!gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
              GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT, 0))
        g_printerr ("the seek was refused\n");
    }
    if (!msg)
      continue;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      eos = done = TRUE;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &error, NULL);
      g_printerr ("ERROR: %s\n", error->message);
      done = TRUE;
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  gst_iterator_foreach (it, print_stats, NULL);
  gst_iterator_free (it);
  if (seek_after == 0) {
    g_print ("frames %d first %" G_GINT64_FORMAT " last %" G_GINT64_FORMAT
        " fps %.1f EOS %s\n", frames, first_us, last_us, frames > 1 ?
        (frames - 1) * 1e6 / MAX (last_us - first_us, 1) : 0.0,
        eos ? "yes" : "no");
    return eos ? 0 : 1;
  }
  g_print ("frames before the seek %d, after %d, seen again %d, differing "
      "%d, EOS %s\n", before, frames - before, again, differ,
      eos ? "yes" : "no");
  return eos && differ == 0 && again > 0 ? 0 : 1;
}
