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

/* clepsilon-chain FORMAT WIDTH HEIGHT FRAMES DEVICE
 *
 * Two clepsilon in a row, chained (the frame stays on the device between
 * them, memory:OpenCLBuffer) and unchained (a capsfilter forces system
 * memory between them), one after the other in the same process: prints
 * the wall time per frame of each pipeline and, per element, the bytes
 * uploaded and downloaded per frame and transform-ms per frame. The first
 * element runs the epsilon filter, the second a 5x5 gaussian. Example:
 *   clepsilon-chain NV12 3840 2160 300 nvidia */

#include <gst/gst.h>
#include <stdlib.h>

static void
print_stats (GstElement * pipeline, const gchar * name, gint frames)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstStructure *st = NULL;
  guint64 up = 0, down = 0, n = 0;
  gdouble ms = 0;

  g_object_get (e, "stats", &st, NULL);
  gst_structure_get (st, "upload-bytes", G_TYPE_UINT64, &up,
      "download-bytes", G_TYPE_UINT64, &down, "frames", G_TYPE_UINT64, &n,
      "transform-ms", G_TYPE_DOUBLE, &ms, NULL);
  n = MAX (n, 1);
  g_print ("    %s: upload %" G_GUINT64_FORMAT " B/frame, download %"
      G_GUINT64_FORMAT " B/frame, transform %.3f ms/frame\n", name, up / n,
      down / n, ms / n);
  gst_structure_free (st);
  gst_object_unref (e);
}

static void
run (const gchar * title, const gchar * desc, gint frames)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstMessage *msg;
  gint64 start;
  gdouble seconds;

  if (!pipeline || error) {
    g_printerr ("%s: %s\n", desc, error ? error->message : "?");
    exit (1);
  }
  /* Preroll first, so that start-up (device, programs) is not timed. */
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  gst_element_get_state (pipeline, NULL, NULL, GST_CLOCK_TIME_NONE);
  start = g_get_monotonic_time ();
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    g_printerr ("%s: %s\n", desc, error->message);
    exit (1);
  }
  gst_message_unref (msg);
  g_print ("  %s: %.3f ms/frame\n", title, seconds * 1e3 / frames);
  print_stats (pipeline, "a", frames);
  print_stats (pipeline, "b", frames);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

int
main (int argc, char **argv)
{
  const gchar *gauss = "1 4 6 4 1; 4 16 24 16 4; 6 24 36 24 6; "
      "4 16 24 16 4; 1 4 6 4 1";
  gchar *src, *a, *b, *desc;
  gint frames;

  gst_init (&argc, &argv);
  if (argc != 6) {
    g_printerr ("usage: %s FORMAT WIDTH HEIGHT FRAMES DEVICE\n", argv[0]);
    return 2;
  }
  frames = atoi (argv[4]);
  /* The first frame is counted in preroll: push one more. */
  src = g_strdup_printf ("videotestsrc pattern=solid-color num-buffers=%d ! "
      "video/x-raw,format=%s,width=%s,height=%s,framerate=0/1", frames + 1,
      argv[1], argv[2], argv[3]);
  a = g_strdup_printf ("clepsilon name=a device=%s threshold=20 "
      "window-size=9", argv[5]);
  b = g_strdup_printf ("clepsilon name=b device=%s threshold=0 kernel=\"%s\"",
      argv[5], gauss);

  g_print ("%s %sx%s, %d frames, on %s\n", argv[1], argv[2], argv[3], frames,
      argv[5]);
  desc = g_strdup_printf ("%s ! %s ! %s ! fakesink", src, a, b);
  run ("chained (memory:OpenCLBuffer between a and b)", desc, frames);
  g_free (desc);
  desc = g_strdup_printf ("%s ! %s ! video/x-raw ! %s ! fakesink", src, a, b);
  run ("unchained (system memory between a and b)", desc, frames);
  g_free (desc);

  g_free (a);
  g_free (b);
  g_free (src);
  return 0;
}
