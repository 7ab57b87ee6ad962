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

/* clepsilon-player: plays a file with playbin and de-noises its video with
 * clepsilon, installed through playbin's video-filter property. The
 * threshold can be changed while it plays:
 *
 *   - from standard input: a number and Enter sets the threshold, "+" or "-"
 *     and Enter raise or lower it by 1, "q" and Enter quits;
 *   - at a point of the stream: --change=SECONDS:THRESHOLD (repeatable), for
 *     scripted, headless runs.
 *
 * Every change is read back from the element and printed with the number of
 * frames it had filtered, e.g.
 *   threshold 12 at 0:00:00.500000000 (frames filtered so far: 13)
 * and at the end the element's stats (frames filtered in all).
 *
 * Usage:
 *   clepsilon-player [--threshold=N] [--window-size=N] [--device=DEV]
 *       [--video-sink=DESC] [--audio-sink=DESC] [--change=SEC:N ...] FILE|URI
 *
 * --video-sink and --audio-sink take gst-launch descriptions, e.g.
 * "fakesink sync=true" to play headless at the stream's pace.
 *
 * Build: part of the project's meson build (build/examples/clepsilon-player).
 * The plugin must be found: GST_PLUGIN_PATH=build/gst when not installed.
 */

#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  gdouble at;                   /* stream time, seconds */
  guint threshold;
  gboolean done;
} Change;

typedef struct
{
  GMainLoop *loop;
  GstElement *playbin;
  GstElement *filter;           /* the clepsilon inside playbin */
  GArray *changes;              /* of Change */
  gint exit_code;
} Player;

static guint64
frames_filtered (GstElement * filter)
{
  GstStructure *stats = NULL;
  guint64 frames = 0;

  g_object_get (filter, "stats", &stats, NULL);
  if (stats) {
    gst_structure_get_uint64 (stats, "frames", &frames);
    gst_structure_free (stats);
  }
  return frames;
}

/* Sets the threshold and prints what the element now holds, so that a
 * script can check that the change took. */
static void
set_threshold (Player * p, gint threshold)
{
  gint64 pos = -1;
  guint now;

  threshold = CLAMP (threshold, 0, 255);
  g_object_set (p->filter, "threshold", (guint) threshold, NULL);
  g_object_get (p->filter, "threshold", &now, NULL);
  gst_element_query_position (p->playbin, GST_FORMAT_TIME, &pos);
  g_print ("threshold %u at %" GST_TIME_FORMAT
      " (frames filtered so far: %" G_GUINT64_FORMAT ")\n", now,
      GST_TIME_ARGS (pos), frames_filtered (p->filter));
}

/* Applies the scripted changes whose time has come. */
static gboolean
on_tick (gpointer data)
{
  Player *p = data;
  gint64 pos;
  guint i;

  if (!gst_element_query_position (p->playbin, GST_FORMAT_TIME, &pos))
    return G_SOURCE_CONTINUE;
  for (i = 0; i < p->changes->len; i++) {
    Change *c = &g_array_index (p->changes, Change, i);

    if (!c->done && pos >= c->at * GST_SECOND) {
      c->done = TRUE;
      set_threshold (p, c->threshold);
    }
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_stdin (GIOChannel * source, GIOCondition cond, gpointer data)
{
  Player *p = data;
  gchar *line = NULL;
  guint now;
  GIOStatus status;

  status = g_io_channel_read_line (source, &line, NULL, NULL, NULL);
  if (status == G_IO_STATUS_EOF || status == G_IO_STATUS_ERROR)
    return G_SOURCE_REMOVE;     /* no more input; keep playing */
  if (!line)
    return G_SOURCE_CONTINUE;
  g_strstrip (line);
  g_object_get (p->filter, "threshold", &now, NULL);
  if (g_strcmp0 (line, "q") == 0)
    g_main_loop_quit (p->loop);
  else if (g_strcmp0 (line, "+") == 0)
    set_threshold (p, now + 1);
  else if (g_strcmp0 (line, "-") == 0)
    set_threshold (p, (gint) now - 1);
  else if (g_ascii_isdigit (line[0]))
    set_threshold (p, atoi (line));
  else if (line[0])
    g_printerr ("type a threshold (0..255), + or -, then Enter; q quits\n");
  g_free (line);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  Player *p = data;
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
          err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      p->exit_code = 1;
      g_main_loop_quit (p->loop);
      break;
    case GST_MESSAGE_EOS:
      g_main_loop_quit (p->loop);
      break;
    case GST_MESSAGE_STATE_CHANGED:
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (p->playbin)) {
        GstState old, new;
        gchar *device = NULL;

        gst_message_parse_state_changed (msg, &old, &new, NULL);
        if (old == GST_STATE_READY && new == GST_STATE_PAUSED) {
          g_object_get (p->filter, "device-name", &device, NULL);
          g_print ("clepsilon on %s\n", device ? device : "?");
          g_free (device);
        }
      }
      break;
    default:
      break;
  }
  return TRUE;
}

static gboolean
parse_change (const gchar * text, Change * c)
{
  gchar *end;

  c->at = g_ascii_strtod (text, &end);
  if (end == text || *end != ':' || c->at < 0)
    return FALSE;
  c->threshold = strtoul (end + 1, &end, 10);
  c->done = FALSE;
  return *end == '\0' && c->threshold <= 255;
}

/* Gives playbin the sink described by @desc (a gst-launch description),
 * if any. */
static gboolean
set_sink (GstElement * playbin, const gchar * property, const gchar * desc)
{
  GError *err = NULL;
  GstElement *sink;

  if (!desc)
    return TRUE;
  sink = gst_parse_bin_from_description (desc, TRUE, &err);
  if (!sink) {
    g_printerr ("%s \"%s\": %s\n", property, desc, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  g_object_set (playbin, property, sink, NULL);
  return TRUE;
}

int
main (int argc, char **argv)
{
  Player p = { 0, };
  gint threshold = -1, window_size = -1;
  gchar *device = NULL, *sink_desc = NULL, *audio_desc = NULL;
  gchar **changes = NULL, *uri;
  GOptionEntry entries[] = {
    {"threshold", 't', 0, G_OPTION_ARG_INT, &threshold,
        "Initial threshold (default: the element's)", "N"},
    {"window-size", 'w', 0, G_OPTION_ARG_INT, &window_size,
        "Window size, odd 3..15 (default: the element's)", "N"},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device,
        "OpenCL device: auto, an index, or part of its name", "DEV"},
    {"video-sink", 0, 0, G_OPTION_ARG_STRING, &sink_desc,
        "Video sink description (default: playbin's choice)", "DESC"},
    {"audio-sink", 0, 0, G_OPTION_ARG_STRING, &audio_desc,
        "Audio sink description (default: playbin's choice)", "DESC"},
    {"change", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &changes,
        "Set the threshold to N at SEC seconds of the stream (repeatable)",
        "SEC:N"},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GIOChannel *in;
  GstBus *bus;
  guint i;

  ctx = g_option_context_new ("FILE|URI - play a file through clepsilon");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || argc != 2) {
    g_printerr ("%s\n", err ? err->message :
        "give one file or URI to play (--help for the options)");
    return 2;
  }
  g_option_context_free (ctx);

  p.changes = g_array_new (FALSE, FALSE, sizeof (Change));
  for (i = 0; changes && changes[i]; i++) {
    Change c;

    if (!parse_change (changes[i], &c)) {
      g_printerr ("--change wants SECONDS:THRESHOLD, not %s\n", changes[i]);
      return 2;
    }
    g_array_append_val (p.changes, c);
  }

  p.playbin = gst_element_factory_make ("playbin", NULL);
  p.filter = gst_element_factory_make ("clepsilon", NULL);
  if (!p.playbin || !p.filter) {
    g_printerr ("playbin or clepsilon not found: install "
        "gstreamer1.0-plugins-base, and set GST_PLUGIN_PATH to the folder "
        "of libgstclfilters.so\n");
    return 1;
  }
  if (threshold >= 0)
    g_object_set (p.filter, "threshold", (guint) threshold, NULL);
  if (window_size >= 0)
    g_object_set (p.filter, "window-size", (guint) window_size, NULL);
  if (device)
    g_object_set (p.filter, "device", device, NULL);
  /* playbin puts a converter in front of the filter, so any decoded format
   * reaches clepsilon as one it takes. */
  g_object_set (p.playbin, "video-filter", p.filter, NULL);
  if (!set_sink (p.playbin, "video-sink", sink_desc) ||
      !set_sink (p.playbin, "audio-sink", audio_desc))
    return 2;

  uri = gst_uri_is_valid (argv[1]) ? g_strdup (argv[1]) :
      gst_filename_to_uri (argv[1], &err);
  if (!uri) {
    g_printerr ("%s: %s\n", argv[1], err->message);
    return 2;
  }
  g_object_set (p.playbin, "uri", uri, NULL);
  g_free (uri);

  p.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (p.playbin);
  gst_bus_add_watch (bus, on_message, &p);
  gst_object_unref (bus);
  if (p.changes->len)
    g_timeout_add (10, on_tick, &p);
  in = g_io_channel_unix_new (fileno (stdin));
  g_io_add_watch (in, G_IO_IN | G_IO_HUP, on_stdin, &p);

  if (gst_element_set_state (p.playbin, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    GstMessage *msg;

    /* The error that says why is already on the bus. */
    bus = gst_element_get_bus (p.playbin);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      on_message (bus, msg, &p);
      gst_message_unref (msg);
    } else {
      g_printerr ("could not start playing (run with GST_DEBUG=3)\n");
    }
    gst_object_unref (bus);
    p.exit_code = 1;
  } else {
    g_main_loop_run (p.loop);
  }

  for (i = 0; i < p.changes->len; i++)
    if (!g_array_index (p.changes, Change, i).done)
      g_printerr ("change at %.3f s not applied: the stream ended first\n",
          g_array_index (p.changes, Change, i).at);
  g_print ("frames filtered: %" G_GUINT64_FORMAT "\n",
      frames_filtered (p.filter));

  gst_element_set_state (p.playbin, GST_STATE_NULL);
  g_io_channel_unref (in);
  gst_object_unref (p.playbin);
  g_main_loop_unref (p.loop);
  g_array_unref (p.changes);
  g_strfreev (changes);
  g_free (device);
  g_free (sink_desc);
  g_free (audio_desc);
  return p.exit_code;
}
