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

/* clfault-launch PIPELINE...: runs a gst-launch-1.0 style pipeline to EOS
 * or to its first ERROR, as an application that treats an ERROR as fatal
 * does: the pipeline goes to PLAYING at once and then to NULL; exits 0 at
 * EOS, 1 at an ERROR (printed as gst-launch-1.0 prints it), 2 when the
 * description does not parse. The fault sweep (sweep.py) runs it rather
 * than gst-launch-1.0, whose main loop can miss the quit of an ERROR
 * posted while the pipeline prerolls, and then hangs (a stock element that
 * errors out, identity error-after=1, does that too). */

#include <gst/gst.h>

static void
print_error (GstMessage * msg)
{
  GError *error = NULL;
  gchar *debug = NULL;
  gchar *path = gst_object_get_path_string (GST_MESSAGE_SRC (msg));

  gst_message_parse_error (msg, &error, &debug);
  g_printerr ("ERROR: from element %s: %s\nAdditional debug info:\n%s\n",
      path, error->message, debug ? debug : "");
  g_free (path);
  g_free (debug);
  g_error_free (error);
}

int
main (int argc, char **argv)
{
  GstElement *pipeline;
  GstMessage *msg;
  GError *error = NULL;
  int status;

  gst_init (&argc, &argv);
  pipeline = gst_parse_launchv ((const gchar **) argv + 1, &error);
  if (!pipeline || error) {
    g_printerr ("could not parse the pipeline: %s\n",
        error ? error->message : "?");
    return 2;
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  status = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS ? 0 : 1;
  gst_element_set_state (pipeline, GST_STATE_NULL);
  /* every ERROR, the first and those posted before the pipeline stopped */
  while (msg) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      print_error (msg);
    gst_message_unref (msg);
    msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline), GST_MESSAGE_ERROR);
  }
  gst_object_unref (pipeline);
  return status;
}
