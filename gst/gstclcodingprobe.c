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

/* The coded pictures' types and quantisers, read where the pipeline's video
 * decoders take them (gstclcodingprobe-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclcodingprobe-private.h"

#include <gst/video/video.h>

#include "gstclcodinginfo-private.h"
#include "gstclcodingh264-private.h"
#include "gstclcodingmeta-private.h"
#include "gstcldebug-private.h"

#define GST_CAT_DEFAULT gst_cl_coding_debug

/* One decoder read: its sink pad and the probe there. */
typedef struct
{
  GstElement *decoder;
  GstPad *sink;
  gulong id;
} Probe;

/* The watch: the pipeline, its signal handlers, the probes; shared with
 * the handlers (a reference each), which may run in any thread until they
 * are disconnected. */
struct _GstClCodingWatch
{
  GMutex lock;
  gboolean stopped;
  GWeakRef pipeline;            /* the outermost bin, whose signals these are */
  gulong added_id, removed_id;
  GPtrArray *probes;            /* of Probe */
};

/* What the probe reads the coded stream with: the codec from the
 * decoder's caps and what its parser carries from one picture to the next.
 * Owned by the probe's hook, so that it lives as long as a call of the
 * probe may (the decoder's streaming thread). */
typedef struct
{
  gboolean have_caps;           /* the decoder's caps were read */
  GstClCodecFamily codec;
  GstClMpegVideoState mpeg;
  GstClMpeg4State mpeg4;
  GstClH263State h263;
  GstClH264State *h264;
} Reader;

static void
reader_free (gpointer data)
{
  Reader *reader = data;

  gst_cl_h264_state_free (reader->h264);
  g_free (reader);
}

/* h264parse's access units (alignment=au), as byte-stream or in AVC form
 * with the parameter sets in codec_data. */
static void
reader_set_h264 (Reader * reader, const GstStructure * s)
{
  const gchar *format = gst_structure_get_string (s, "stream-format");
  const GValue *v = gst_structure_get_value (s, "codec_data");
  GstMapInfo map;

  if (g_strcmp0 (gst_structure_get_string (s, "alignment"), "au") != 0)
    return;
  reader->codec = GST_CL_CODEC_H264;
  reader->h264 = gst_cl_h264_state_new (0);
  /* caps without a stream-format are AVC where they carry codec_data */
  if (g_strcmp0 (format, "avc") != 0 && g_strcmp0 (format, "avc3") != 0 &&
      (format != NULL || v == NULL))
    return;
  /* AVC form without a configuration record: nothing can be read */
  reader->codec = GST_CL_CODEC_UNKNOWN;
  if (v == NULL || !G_VALUE_HOLDS (v, GST_TYPE_BUFFER) ||
      !gst_buffer_map (gst_value_get_buffer (v), &map, GST_MAP_READ))
    return;
  if (gst_cl_h264_state_parse_config (reader->h264, map.data, map.size))
    reader->codec = GST_CL_CODEC_H264;
  gst_buffer_unmap (gst_value_get_buffer (v), &map);
}

/* The codec of @caps, the decoder's, and the headers of their codec_data
 * (MPEG-1/2: the sequence header and extension mpegvideoparse puts there;
 * MPEG-4 Part 2: the VOL): the reader starts afresh. */
static void
reader_set_caps (Reader * reader, GstCaps * caps)
{
  const GstStructure *s = caps && !gst_caps_is_empty (caps) ?
      gst_caps_get_structure (caps, 0) : NULL;
  gboolean systemstream = FALSE;
  gint version = 0;
  const GValue *v;
  GstMapInfo map;

  reader->have_caps = TRUE;
  reader->codec = GST_CL_CODEC_UNKNOWN;
  gst_cl_mpeg_video_state_init (&reader->mpeg);
  gst_cl_mpeg4_state_init (&reader->mpeg4);
  gst_cl_h263_state_init (&reader->h263);
  g_clear_pointer (&reader->h264, gst_cl_h264_state_free);
  if (s != NULL && gst_structure_has_name (s, "video/x-h264")) {
    reader_set_h264 (reader, s);
    return;
  }
  /* h263parse's: one picture a buffer, no codec_data */
  if (s != NULL && gst_structure_has_name (s, "video/x-h263") &&
      g_strcmp0 (gst_structure_get_string (s, "variant"), "itu") == 0) {
    reader->codec = GST_CL_CODEC_H263;
    return;
  }
  if (s == NULL || !gst_structure_has_name (s, "video/mpeg") ||
      !gst_structure_get_int (s, "mpegversion", &version) ||
      (gst_structure_get_boolean (s, "systemstream", &systemstream) &&
          systemstream))
    return;
  if (version == 1 || version == 2)
    reader->codec = GST_CL_CODEC_MPEG12;
  else if (version == 4)
    reader->codec = GST_CL_CODEC_MPEG4_PART2;
  else
    return;
  v = gst_structure_get_value (s, "codec_data");
  if (v == NULL || !G_VALUE_HOLDS (v, GST_TYPE_BUFFER) ||
      !gst_buffer_map (gst_value_get_buffer (v), &map, GST_MAP_READ))
    return;
  if (reader->codec == GST_CL_CODEC_MPEG12) {
    GstClCodingInfo ignored;

    gst_cl_coding_info_parse_mpeg_video (&reader->mpeg, map.data, map.size,
        &ignored);
  } else {
    gst_cl_mpeg4_state_parse_config (&reader->mpeg4, map.data, map.size);
  }
  gst_buffer_unmap (gst_value_get_buffer (v), &map);
}

/* Reads the coded picture in @buffer into @info; FALSE where its type is
 * not known. */
static gboolean
reader_read (Reader * reader, GstBuffer * buffer, GstClCodingInfo * info)
{
  GstMapInfo map;
  gboolean ok = FALSE;

  if (reader->codec == GST_CL_CODEC_UNKNOWN ||
      !gst_buffer_map (buffer, &map, GST_MAP_READ))
    return FALSE;
  if (reader->codec == GST_CL_CODEC_MPEG12)
    ok = gst_cl_coding_info_parse_mpeg_video (&reader->mpeg, map.data,
        map.size, info);
  else if (reader->codec == GST_CL_CODEC_H263)
    ok = gst_cl_coding_info_parse_h263 (&reader->h263, map.data, map.size,
        info);
  else if (reader->codec == GST_CL_CODEC_H264)
    ok = gst_cl_coding_info_parse_h264 (reader->h264, map.data, map.size, info);
  else
    ok = gst_cl_coding_info_parse_mpeg4 (&reader->mpeg4, map.data, map.size,
        info);
  gst_buffer_unmap (buffer, &map);
  return ok && info->picture_type != GST_CL_PICTURE_UNKNOWN;
}

/* The probe on the decoder's sink pad: caps set the codec (those the pad
 * had when the probe came, read at its first picture); each coded
 * picture's buffer gets its GstClCodingMeta (the buffer made writable
 * first, which copies its metadata, not its memory, where it is shared).
 * A meta the buffer carries already is overwritten: another element
 * downstream reads the same pictures, or the meta came with frames coded
 * again since (a decoder, an encoder, a parser: an untagged meta goes
 * through them). */
static GstPadProbeReturn
on_decoder_input (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Reader *reader = user_data;
  GstClCodingInfo coding;
  GstClCodingMeta *meta;
  GstBuffer *buffer;

  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);

    if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
      GstCaps *caps;

      gst_event_parse_caps (event, &caps);
      reader_set_caps (reader, caps);
    }
    return GST_PAD_PROBE_OK;
  }
  if (!(info->type & GST_PAD_PROBE_TYPE_BUFFER))
    return GST_PAD_PROBE_OK;
  if (!reader->have_caps) {
    GstCaps *caps = gst_pad_get_current_caps (pad);

    reader_set_caps (reader, caps);
    if (caps)
      gst_caps_unref (caps);
  }
  if (!reader_read (reader, GST_PAD_PROBE_INFO_BUFFER (info), &coding))
    return GST_PAD_PROBE_OK;
  buffer = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));
  GST_PAD_PROBE_INFO_DATA (info) = buffer;
  meta = gst_buffer_get_cl_coding_meta (buffer);
  if (meta)
    meta->info = coding;
  else
    gst_buffer_add_cl_coding_meta (buffer, &coding);
  return GST_PAD_PROBE_OK;
}

static void
probe_free (gpointer data)
{
  Probe *probe = data;

  /* the reader is freed with the hook, once no call of it runs */
  gst_pad_remove_probe (probe->sink, probe->id);
  gst_object_unref (probe->sink);
  gst_object_unref (probe->decoder);
  g_free (probe);
}

/* Reads what @element takes, where it is a video decoder with a sink pad;
 * with the watch's lock held. */
static void
watch_add_locked (GstClCodingWatch * watch, GstElement * element)
{
  GstPad *sink;
  Probe *probe;
  Reader *reader;
  guint i;

  if (watch->stopped || !GST_IS_VIDEO_DECODER (element))
    return;
  for (i = 0; i < watch->probes->len; i++)
    if (((Probe *) g_ptr_array_index (watch->probes, i))->decoder == element)
      return;
  sink = gst_element_get_static_pad (element, "sink");
  if (sink == NULL)
    return;
  reader = g_new0 (Reader, 1);
  probe = g_new0 (Probe, 1);
  probe->decoder = gst_object_ref (element);
  probe->sink = sink;
  probe->id = gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_decoder_input, reader,
      reader_free);
  g_ptr_array_add (watch->probes, probe);
  GST_DEBUG ("reading the coded pictures %" GST_PTR_FORMAT " takes", element);
}

static void
on_element_added (GstBin * bin, GstBin * sub_bin, GstElement * element,
    gpointer user_data)
{
  GstClCodingWatch *watch = user_data;

  g_mutex_lock (&watch->lock);
  watch_add_locked (watch, element);
  g_mutex_unlock (&watch->lock);
}

static void
on_element_removed (GstBin * bin, GstBin * sub_bin, GstElement * element,
    gpointer user_data)
{
  GstClCodingWatch *watch = user_data;
  guint i;

  g_mutex_lock (&watch->lock);
  for (i = 0; i < watch->probes->len; i++)
    if (((Probe *) g_ptr_array_index (watch->probes, i))->decoder == element) {
      g_ptr_array_remove_index_fast (watch->probes, i);
      break;
    }
  g_mutex_unlock (&watch->lock);
}

static void
watch_clear (gpointer data)
{
  GstClCodingWatch *watch = data;

  g_ptr_array_unref (watch->probes);
  g_weak_ref_clear (&watch->pipeline);
  g_mutex_clear (&watch->lock);
}

static GstClCodingWatch *
watch_ref (GstClCodingWatch * watch)
{
  return g_atomic_rc_box_acquire (watch);
}

static void
watch_unref (gpointer watch, GClosure * closure)
{
  g_atomic_rc_box_release_full (watch, watch_clear);
}

/* The outermost bin @element is in, or NULL. */
static GstBin *
outermost_bin (GstElement * element)
{
  GstObject *top = gst_object_ref (GST_OBJECT (element)), *parent;

  while ((parent = gst_object_get_parent (top))) {
    gst_object_unref (top);
    top = parent;
  }
  if (GST_IS_BIN (top) && top != GST_OBJECT (element))
    return GST_BIN (top);
  gst_object_unref (top);
  return NULL;
}

GstClCodingWatch *
gst_cl_coding_watch_start (GstElement * element)
{
  GstBin *pipeline = outermost_bin (element);
  GstClCodingWatch *watch;
  GstIterator *it;
  GValue item = G_VALUE_INIT;

  if (pipeline == NULL)
    return NULL;
  watch = g_atomic_rc_box_new0 (GstClCodingWatch);
  g_mutex_init (&watch->lock);
  g_weak_ref_init (&watch->pipeline, pipeline);
  watch->probes = g_ptr_array_new_with_free_func (probe_free);
  /* the decoders added from now on (decodebin's), then those there now */
  watch->added_id = g_signal_connect_data (pipeline, "deep-element-added",
      G_CALLBACK (on_element_added), watch_ref (watch), watch_unref, 0);
  watch->removed_id = g_signal_connect_data (pipeline,
      "deep-element-removed", G_CALLBACK (on_element_removed),
      watch_ref (watch), watch_unref, 0);
  it = gst_bin_iterate_recurse (pipeline);
  g_mutex_lock (&watch->lock);
  for (;;) {
    const GstIteratorResult r = gst_iterator_next (it, &item);

    if (r == GST_ITERATOR_OK) {
      watch_add_locked (watch, g_value_get_object (&item));
      g_value_reset (&item);
    } else if (r == GST_ITERATOR_RESYNC) {
      /* the bin changed: again from its start (decoders are added once) */
      gst_iterator_resync (it);
    } else {
      break;
    }
  }
  g_mutex_unlock (&watch->lock);
  g_value_unset (&item);
  gst_iterator_free (it);
  /* held by the element, which the pipeline holds: no reference of ours */
  gst_object_unref (pipeline);
  return watch;
}

void
gst_cl_coding_watch_stop (GstClCodingWatch * watch)
{
  GstBin *pipeline;

  if (watch == NULL)
    return;
  g_mutex_lock (&watch->lock);
  watch->stopped = TRUE;
  g_ptr_array_set_size (watch->probes, 0);
  g_mutex_unlock (&watch->lock);
  pipeline = g_weak_ref_get (&watch->pipeline);
  if (pipeline) {
    g_signal_handler_disconnect (pipeline, watch->added_id);
    g_signal_handler_disconnect (pipeline, watch->removed_id);
    gst_object_unref (pipeline);
  }
  g_atomic_rc_box_release_full (watch, watch_clear);
}
