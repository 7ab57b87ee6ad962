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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/app/gstappsink.h>

#include "codedstream.h"

gboolean
coded_stream_have (const gchar * first, ...)
{
  const gchar *name;
  gboolean all = TRUE;
  va_list args;

  va_start (args, first);
  for (name = first; name != NULL; name = va_arg (args, const gchar *))
  {
    GstElementFactory *factory = gst_element_factory_find (name);

    if (factory == NULL) {
      g_print ("no element %s (gstreamer1.0-libav, -plugins-bad): "
          "skipped\n", name);
      all = FALSE;
      continue;
    }
    gst_object_unref (factory);
  }
  va_end (args);
  return all;
}

static void
coded_stream_pull (CodedStream * stream, GstAppSink * sink)
{
  GstSample *sample;

  while ((sample = gst_app_sink_pull_sample (sink)) != NULL) {
    if (stream->caps == NULL && gst_sample_get_caps (sample) != NULL)
      stream->caps = gst_caps_ref (gst_sample_get_caps (sample));
    g_ptr_array_add (stream->buffers,
        gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
}

/* FALSE where the bus said ERROR before EOS. */
static gboolean
coded_stream_ended_well (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 0,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  gboolean ok = msg == NULL || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;

  if (!ok) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    g_print ("pipeline error: %s\n", err->message);
    g_clear_error (&err);
  }
  if (msg != NULL)
    gst_message_unref (msg);
  gst_object_unref (bus);
  return ok;
}

CodedStream *
coded_stream_new (const gchar * description)
{
  return coded_stream_new_full (description, NULL, NULL);
}

CodedStream *
coded_stream_new_full (const gchar * description,
    void (*setup) (GstElement * pipeline, gpointer data), gpointer data)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  GstElement *sink;
  CodedStream *stream;
  gboolean ok;

  if (pipeline == NULL) {
    g_print ("%s: %s\n", description, err ? err->message : "?");
    g_clear_error (&err);
    return NULL;
  }
  g_clear_error (&err);
  stream = g_new0 (CodedStream, 1);
  stream->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (sink, "sync", FALSE, NULL);
  if (setup != NULL)
    setup (pipeline, data);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  coded_stream_pull (stream, GST_APP_SINK (sink));
  ok = coded_stream_ended_well (pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  if (!ok || stream->buffers->len == 0) {
    coded_stream_free (stream);
    return NULL;
  }
  return stream;
}

CodedStream *
coded_stream_from_file (const gchar * name, const gchar * parser)
{
  const gchar *dir = g_getenv ("CLEPSILON_TEST_DATA");
  gchar *path = g_build_filename (dir ? dir : "tests/data", name, NULL);
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! %s ! "
      "appsink name=sink", path, parser);
  CodedStream *stream = coded_stream_new (desc);

  g_free (desc);
  g_free (path);
  return stream;
}

gboolean
coded_stream_encoder_works (const gchar * encoder)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
      CODED_STREAM_RAW_CAPS " ! %s ! appsink name=sink", encoder);
  CodedStream *stream = coded_stream_new (desc);
  gboolean works = stream != NULL;

  if (!works)
    g_print ("%s codes nothing here (gst-libav 1.22.0 refuses MPEG-1/2 at "
        "any frame rate): skipped\n", encoder);
  coded_stream_free (stream);
  g_free (desc);
  return works;
}

void
coded_stream_free (CodedStream * stream)
{
  if (stream == NULL)
    return;
  g_ptr_array_unref (stream->buffers);
  gst_clear_caps (&stream->caps);
  g_free (stream);
}

void
fixed_gop_display_types (guint n, guint gop, guint bframes, gchar * out)
{
  guint i;

  for (i = 0; i < n; i++) {
    if (i % gop == 0)
      out[i] = 'I';
    else if ((i % gop) % (bframes + 1) == 0)
      out[i] = 'P';
    else
      out[i] = 'B';
  }
  if (n > 0 && out[n - 1] == 'B')
    out[n - 1] = 'P';
  out[n] = '\0';
}

void
display_to_coded_positions (const gchar * display, guint * positions)
{
  guint n = strlen (display), i, j, pending = 0, k = 0;

  for (i = 0; i < n; i++) {
    if (display[i] == 'B')
      continue;
    positions[k++] = i;
    for (j = pending; j < i; j++)
      positions[k++] = j;
    pending = i + 1;
  }
  /* B frames after the last reference: none where the last is forced to
   * P, kept for completeness. */
  for (j = pending; j < n; j++)
    positions[k++] = j;
}

void
display_to_coded_order (const gchar * display, gchar * coded)
{
  guint n = strlen (display), k;
  guint *positions = g_new (guint, n + 1);

  display_to_coded_positions (display, positions);
  for (k = 0; k < n; k++)
    coded[k] = display[positions[k]];
  coded[n] = '\0';
  g_free (positions);
}

void
bit_writer_put (BitWriter * w, guint n, guint32 value)
{
  guint i;

  for (i = 0; i < n; i++) {
    guint bit = (value >> (n - 1 - i)) & 1;
    guint byte = w->bits / 8;

    g_assert (byte < sizeof (w->data));
    if (w->bits % 8 == 0)
      w->data[byte] = 0;
    w->data[byte] |= bit << (7 - w->bits % 8);
    w->bits++;
  }
}

void
bit_writer_start_code (BitWriter * w, guint8 code)
{
  while (w->bits % 8)
    bit_writer_put (w, 1, 0);
  bit_writer_put (w, 24, 0x000001);
  bit_writer_put (w, 8, code);
}

void
bit_writer_stuff_mpeg4 (BitWriter * w)
{
  bit_writer_put (w, 1, 0);
  while (w->bits % 8)
    bit_writer_put (w, 1, 1);
}

gsize
bit_writer_bytes (const BitWriter * w)
{
  return (w->bits + 7) / 8;
}
