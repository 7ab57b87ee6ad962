/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* clepsilon-bench FORMAT WIDTH HEIGHT FRAMES [PROPERTIES...]
 *
 * Pushes FRAMES frames from videotestsrc (a solid colour, cheap to make)
 * through `identity` and through `clepsilon PROPERTIES`, each into fakesink,
 * one pipeline after the other in the same process, and prints the wall time
 * per frame of each, their difference (what clepsilon costs per frame), and
 * clepsilon's stats property. Example:
 *   clepsilon-bench NV12 3840 2160 300 device=nvidia threshold=20 */

#include <gst/gst.h>
#include <stdlib.h>

static gdouble
run (const gchar * desc, GstStructure ** stats)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstElement *filter;
  GstMessage *msg;
  gint64 start;
  gdouble seconds;

  if (!pipeline || error) {
    g_printerr ("%s: %s\n", desc, error->message);
    exit (1);
  }
  /* Preroll first, so that start-up (device, program build) is not timed. */
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

  filter = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  if (stats && filter)
    g_object_get (filter, "stats", stats, NULL);
  gst_clear_object (&filter);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return seconds;
}

int
main (int argc, char **argv)
{
  GstStructure *stats = NULL;
  gchar *src, *props, *desc, *text;
  gdouble base, filt;
  gint frames;

  gst_init (&argc, &argv);
  if (argc < 5) {
    g_printerr ("usage: %s FORMAT WIDTH HEIGHT FRAMES [PROPERTIES...]\n",
        argv[0]);
    return 2;
  }
  frames = atoi (argv[4]);
  /* The first frame is counted in preroll: push one more. */
  src = g_strdup_printf ("videotestsrc pattern=solid-color num-buffers=%d ! "
      "video/x-raw,format=%s,width=%s,height=%s,framerate=0/1",
      frames + 1, argv[1], argv[2], argv[3]);
  props = g_strjoinv (" ", argv + 5);

  desc = g_strdup_printf ("%s ! identity ! fakesink", src);
  base = run (desc, NULL);
  g_free (desc);
  desc = g_strdup_printf ("%s ! clepsilon name=f %s ! fakesink", src, props);
  filt = run (desc, &stats);
  g_free (desc);

  g_print ("%s %sx%s, %d frames, clepsilon %s\n", argv[1], argv[2], argv[3],
      frames, props);
  g_print ("  identity:  %8.3f ms/frame\n", base * 1e3 / frames);
  g_print ("  clepsilon: %8.3f ms/frame (%.1f fps)\n", filt * 1e3 / frames,
      frames / filt);
  g_print ("  clepsilon costs %.3f ms/frame over identity\n",
      (filt - base) * 1e3 / frames);
  text = gst_structure_to_string (stats);
  g_print ("  stats: %s\n", text);
  g_free (text);
  gst_structure_free (stats);
  g_free (props);
  g_free (src);
  return 0;
}
