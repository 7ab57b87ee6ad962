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

/* How the meta reaches the decoded frame. GstVideoDecoder
 * (gst-libs/gst/video/gstvideodecoder.c, 1.22 as later),
 * gst_video_decoder_finish_frame() -> gst_video_decoder_copy_metas(): for
 * each meta of the frame's input buffer (frame->input_buffer, what
 * handle_frame got) whose API has no GST_META_TAG_MEMORY_STR tag, it asks
 * the class's transform_meta; the default,
 * gst_video_decoder_transform_meta_default(), says yes where the API has no
 * tags at all, or only "video", "orientation" and "size"; the meta's own
 * transform_func is then called with _gst_meta_transform_copy and a
 * GstMetaTransformCopy of { region FALSE, offset 0, size -1 } onto the
 * output buffer. The same copy happens from an older input buffer to a newer
 * one where a subclass replaces a frame's input buffer
 * (gst_video_decoder_replace_input_buffer). So decoders that keep the
 * default (gst-libav's avdec_mpeg2video, avdec_mpeg4) copy this meta, which
 * is registered with no tags and copies itself; each output frame carries
 * the meta of the input buffer it was decoded from, so they come in display
 * order (tests/check/libs/clcodingmeta.c checks both). GstBaseTransform's
 * default transform_meta copies metas without tags too, so a converter
 * between the decoder and clepsilon (videoconvert) passes it on. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstclcodingmeta-private.h"

/* The private library is linked into the plugin and into programs that
 * use it directly (the tests); where two copies meet in one process, the
 * second takes the API and the implementation the first registered (the
 * same source, so the same layout) instead of registering the names again,
 * which GLib refuses with a critical. */
GType
gst_cl_coding_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    GType api = g_type_from_name ("GstClCodingMetaAPI");

    if (api == 0)
      api = gst_meta_api_type_register ("GstClCodingMetaAPI", tags);
    g_once_init_leave (&type, api);
  }
  return type;
}

static gboolean
coding_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstClCodingMeta *coding = (GstClCodingMeta *) meta;

  memset (&coding->info, 0, sizeof (coding->info));
  return TRUE;
}

/* Copies, whole or in part: the coding of a picture holds for any part of
 * its buffer. Other transforms (a scale, a conversion) are refused. */
static gboolean
coding_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstClCodingMeta *coding = (GstClCodingMeta *) meta;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_cl_coding_meta (dest, &coding->info) != NULL;
}

const GstMetaInfo *
gst_cl_coding_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *registered = gst_meta_get_info ("GstClCodingMeta");

    if (registered == NULL)
      registered = gst_meta_register (GST_CL_CODING_META_API_TYPE,
          "GstClCodingMeta", sizeof (GstClCodingMeta), coding_meta_init, NULL,
          coding_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) registered);
  }
  return info;
}

GstClCodingMeta *
gst_buffer_add_cl_coding_meta (GstBuffer * buffer, const GstClCodingInfo * info)
{
  GstClCodingMeta *coding;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (info != NULL, NULL);

  coding = (GstClCodingMeta *) gst_buffer_add_meta (buffer,
      GST_CL_CODING_META_INFO, NULL);
  if (coding != NULL)
    coding->info = *info;
  return coding;
}

GstClCodingMeta *
gst_buffer_get_cl_coding_meta (GstBuffer * buffer)
{
  return (GstClCodingMeta *) gst_buffer_get_meta (buffer,
      GST_CL_CODING_META_API_TYPE);
}
