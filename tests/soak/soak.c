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

/* Soak: videotestsrc ! clepsilon ! fakesink for FRAMES frames while another
 * thread changes clepsilon's properties, then NULL. Prints the resident
 * memory after a warm-up and along the way, and at the end the GStreamer
 * objects the leaks tracer still counts (run with GST_TRACERS=leaks) and the
 * OpenCL objects still held (libclfault, linked in, counts them).
 *
 *   clepsilon-soak [FRAMES [WIDTH HEIGHT [FORMAT]]]
 *
 * Defaults: 100000 frames of 1920x1080 NV12. scripts/soak.sh runs it.
 * Exits 1 if objects are left after NULL or an error was posted. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

#include "clfault.h"

static guint64 frames_seen;
static gint stop_churn;

static GstPadProbeReturn
count_frame (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  g_atomic_pointer_add (&frames_seen, 1);
  return GST_PAD_PROBE_OK;
}

static gdouble
rss_mib (void)
{
  gchar *status = NULL, *line;
  gdouble kib = 0;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL) &&
      (line = strstr (status, "VmRSS:")) != NULL)
    kib = g_ascii_strtod (line + 6, NULL);
  g_free (status);
  return kib / 1024.0;
}

static gpointer
churn (gpointer data)
{
  static const gchar *const kernels[] = { "", "1 2 1; 2 4 2; 1 2 1",
    "0 -1 0; -1 5 -1; 0 -1 0", "1 1 1 1 1", "1; 2; 1"
  };
  GstElement *f = data;
  GRand *rand = g_rand_new_with_seed (0x50a4);
  guint64 changes = 0;

  while (!g_atomic_int_get (&stop_churn)) {
    switch (g_rand_int_range (rand, 0, 6)) {
      case 0:
        g_object_set (f, "threshold", g_rand_int_range (rand, 0, 64), NULL);
        break;
      case 1:
        g_object_set (f, "window-size", 3 + 2 * g_rand_int_range (rand, 0, 7),
            NULL);
        break;
      case 2:
        g_object_set (f, "chroma-threshold", g_rand_int_range (rand, 0, 32),
            NULL);
        break;
      case 3:
        g_object_set (f, "kernel", kernels[g_rand_int_range (rand, 0,
                    G_N_ELEMENTS (kernels))], NULL);
        break;
      case 4:
        g_object_set (f, "divisor", (gdouble) g_rand_int_range (rand, 0, 20),
            NULL);
        break;
      default:
        g_object_set (f, "bias", (gdouble) g_rand_int_range (rand, -20, 20),
            NULL);
        break;
    }
    changes++;
    g_usleep (20 * 1000);
  }
  g_rand_free (rand);
  return GUINT_TO_POINTER ((guint) changes);
}

static gint
live_gst_objects (void)
{
  GList *tracers = gst_tracing_get_active_tracers (), *l;
  gint n = -1;

  for (l = tracers; l; l = l->next) {
    if (g_str_equal (G_OBJECT_TYPE_NAME (l->data), "GstLeaksTracer")) {
      GstStructure *info = NULL;

      g_signal_emit_by_name (l->data, "get-live-objects", &info);
      n = gst_value_list_get_size (gst_structure_get_value (info,
              "live-objects-list"));
      gst_structure_free (info);
    }
  }
  g_list_free_full (tracers, gst_object_unref);
  return n;
}

int
main (int argc, char **argv)
{
  guint64 frames = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 100000;
  gint w = argc > 3 ? atoi (argv[2]) : 1920, h = argc > 3 ? atoi (argv[3]) :
      1080;
  const gchar *format = argc > 4 ? argv[4] : "NV12";
  const gchar *device = g_getenv ("CLEPSILON_TEST_DEVICE");
  guint64 warm = MIN (200, frames / 10), next_report;
  gdouble rss_start = 0, rss_end, rss_max = 0;
  gint64 t0 = 0, t1;
  GstElement *pipeline, *f;
  GstPad *pad;
  GstBus *bus;
  GThread *thread;
  gchar *desc;
  gint leaked, status = 0;
  guint changes;
  gboolean done = FALSE;

  gst_init (&argc, &argv);
  desc = g_strdup_printf ("videotestsrc num-buffers=%" G_GUINT64_FORMAT
      " ! video/x-raw,format=%s,width=%d,height=%d,framerate=60/1 ! "
      "clepsilon name=f device=%s threshold=20 ! fakesink name=sink "
      "sync=false", frames, format, w, h, device && *device ? device : "pocl");
  pipeline = gst_parse_launch (desc, NULL);
  if (pipeline == NULL) {
    g_printerr ("cannot build: %s\n", desc);
    return 2;
  }
  f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  {
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");

    pad = gst_element_get_static_pad (sink, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, NULL, NULL);
    gst_object_unref (pad);
    gst_object_unref (sink);
  }
  g_print ("soak: %s\n", desc);
  g_print ("soak: %" G_GUINT64_FORMAT " frames, properties changed every "
      "20 ms; resident memory after %" G_GUINT64_FORMAT " frames, then every "
      "10%%\n", frames, warm);

  bus = gst_element_get_bus (pipeline);
  thread = g_thread_new ("churn", churn, f);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  next_report = warm;
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 500 * GST_MSECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    guint64 seen = g_atomic_pointer_get (&frames_seen);

    if (seen >= next_report || msg) {
      gdouble rss = rss_mib ();

      if (rss_start == 0 && seen >= warm) {
        rss_start = rss;
        t0 = g_get_monotonic_time ();
      }
      rss_max = MAX (rss_max, rss);
      if (seen >= next_report) {
        g_print ("soak: %8" G_GUINT64_FORMAT " frames  RSS %7.1f MiB\n",
            seen, rss);
        next_report = seen + MAX (frames / 10, 1);
      }
    }
    if (msg) {
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        GError *err = NULL;

        gst_message_parse_error (msg, &err, NULL);
        g_printerr ("soak: error: %s\n", err->message);
        g_error_free (err);
        status = 1;
      }
      gst_message_unref (msg);
      done = TRUE;
    }
  }
  t1 = g_get_monotonic_time ();
  rss_end = rss_mib ();
  g_atomic_int_set (&stop_churn, 1);
  changes = GPOINTER_TO_UINT (g_thread_join (thread));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (f);
  gst_object_unref (pipeline);

  leaked = live_gst_objects ();
  g_print ("soak: %" G_GUINT64_FORMAT " frames through, %u property changes, "
      "%.1f ms/frame after the warm-up\n", frames_seen, changes,
      frames_seen > warm ? (t1 - t0) / 1000.0 / (frames_seen - warm) : 0.0);
  g_print ("soak: RSS %.1f MiB after %" G_GUINT64_FORMAT " frames, %.1f MiB "
      "at the end (%+.1f MiB), %.1f MiB at most\n", rss_start, warm, rss_end,
      rss_end - rss_start, rss_max);
  if (leaked >= 0)
    g_print ("soak: leaks tracer: %d GStreamer objects alive after NULL\n",
        leaked);
  else
    g_print ("soak: leaks tracer not active (set GST_TRACERS=leaks)\n");
  g_print ("soak: OpenCL objects held after NULL: %ld (%s)\n",
      clfault_live_total (), clfault_describe_live ());
  if (leaked > 0 || clfault_live_total () != 0 || frames_seen != frames)
    status = 1;
  return status;
}
