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

/* GstClCodingMeta (gst/gstclcodingmeta.c): its API without tags, its
 * copy; and the path it is for, through real elements nobody here wrote:
 * a pad probe (standing in for what will parse the coded stream) reads
 * each access unit that mpegvideoparse or mpeg4videoparse hands to
 * avdec_mpeg2video or avdec_mpeg4 and puts the meta on it, and every frame
 * the decoder outputs must carry the meta of the access unit it was decoded
 * from (the same timestamp), so with the picture types in display order:
 * B frames coded after the reference they precede come out before it
 * (system plugins: videotestsrc, gst-libav's encoders and decoders,
 * -bad's parsers). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>

#include "gstclcodingmeta-private.h"
#include "codedstream.h"

#define RAW_CAPS CODED_STREAM_RAW_CAPS

GST_START_TEST (test_meta_api)
{
  const gchar *const *tags = gst_meta_api_type_get_tags
      (GST_CL_CODING_META_API_TYPE);
  GstClCodingInfo info = { GST_CL_CODEC_MPEG12, GST_CL_PICTURE_B,
    GST_CL_FIELD_BOTTOM, 1, 37.5
  };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16, NULL);
  GstBuffer *copy, *part;
  GstClCodingMeta *meta;

  /* No tags (GStreamer answers NULL for none): GstVideoDecoder's default
   * transform_meta copies it. */
  fail_unless (tags == NULL || tags[0] == NULL);
  /* Registered under the names a second copy of the library looks up. */
  fail_unless (GST_CL_CODING_META_INFO != NULL);
  fail_unless (g_type_from_name ("GstClCodingMetaAPI") ==
      GST_CL_CODING_META_API_TYPE);
  fail_unless (gst_meta_get_info ("GstClCodingMeta") ==
      GST_CL_CODING_META_INFO);
  fail_unless (gst_buffer_get_cl_coding_meta (buf) == NULL);
  fail_unless (gst_buffer_add_cl_coding_meta (buf, &info) != NULL);

  copy = gst_buffer_copy (buf);
  part = gst_buffer_copy_region (buf, GST_BUFFER_COPY_ALL, 4, 8);
  meta = gst_buffer_get_cl_coding_meta (copy);
  fail_unless (meta != NULL);
  fail_unless (memcmp (&meta->info, &info, sizeof (info)) == 0);
  meta = gst_buffer_get_cl_coding_meta (part);
  fail_unless (meta != NULL);
  fail_unless_equals_float (meta->info.quantiser, 37.5);

  /* A transform other than a copy (here a video scale) is refused. */
  meta = gst_buffer_get_cl_coding_meta (buf);
  fail_if (meta->meta.info->transform_func (copy, &meta->meta, buf,
          g_quark_from_static_string ("gst-video-scale"), NULL));

  gst_buffer_unref (part);
  gst_buffer_unref (copy);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* What the probe on the decoder's sink pad keeps: the parsers' states and
 * what it put on each access unit, in the order they came (coded order). */
typedef struct
{
  gboolean mpeg4;
  GstClMpegVideoState mpeg_state;
  GstClMpeg4State mpeg4_state;
  GArray *tagged;
} Tagger;

static void
tagger_read_caps (Tagger * tagger, GstEvent * event)
{
  const GValue *value;
  GstCaps *caps;
  GstMapInfo map;

  gst_event_parse_caps (event, &caps);
  value = gst_structure_get_value (gst_caps_get_structure (caps, 0),
      "codec_data");
  if (!tagger->mpeg4 || value == NULL)
    return;
  gst_buffer_map (gst_value_get_buffer (value), &map, GST_MAP_READ);
  gst_cl_mpeg4_state_parse_config (&tagger->mpeg4_state, map.data, map.size);
  gst_buffer_unmap (gst_value_get_buffer (value), &map);
}

static GstClCodingInfo
tagger_parse (Tagger * tagger, GstBuffer * buf)
{
  GstClCodingInfo info;
  GstMapInfo map;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  if (tagger->mpeg4)
    gst_cl_coding_info_parse_mpeg4 (&tagger->mpeg4_state, map.data,
        map.size, &info);
  else
    gst_cl_coding_info_parse_mpeg_video (&tagger->mpeg_state, map.data,
        map.size, &info);
  gst_buffer_unmap (buf, &map);
  return info;
}

static GstPadProbeReturn
tag_access_unit (GstPad * pad, GstPadProbeInfo * probe, gpointer data)
{
  Tagger *tagger = data;
  GstBuffer *buf;
  GstClCodingInfo info;

  if (probe->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (probe)) == GST_EVENT_CAPS)
      tagger_read_caps (tagger, GST_PAD_PROBE_INFO_EVENT (probe));
    return GST_PAD_PROBE_OK;
  }
  buf = GST_PAD_PROBE_INFO_BUFFER (probe);
  info = tagger_parse (tagger, buf);
  /* The parser's buffer may be shared: the meta goes on a writable one. */
  buf = gst_buffer_make_writable (buf);
  gst_buffer_add_cl_coding_meta (buf, &info);
  GST_PAD_PROBE_INFO_DATA (probe) = buf;
  g_array_append_val (tagger->tagged, info);
  return GST_PAD_PROBE_OK;
}

static void
add_tagger (GstElement * pipeline, gpointer data)
{
  GstElement *dec = gst_bin_get_by_name (GST_BIN (pipeline), "dec");
  GstPad *sink = gst_element_get_static_pad (dec, "sink");

  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, tag_access_unit, data, NULL);
  gst_object_unref (sink);
  gst_object_unref (dec);
}

/* Decodes the @n frames that @source gives (a parsed stream of FFmpeg's
 * pattern with a GOP of 12 and two B frames) with @decoder, the meta put
 * on each access unit on its way in; checks that the k-th frame out in
 * display order carries the meta of the access unit that holds it, found
 * from the pattern (timestamps do not say: gst-libav 1.22.0's encoders
 * leave the PTS of all but the first access unit unset). */
static void
check_decoded_frames (const gchar * source, const gchar * decoder,
    gboolean mpeg4, guint n)
{
  gchar display[64], types[64];
  guint positions[64];
  Tagger tagger = { mpeg4 };
  gchar *desc = g_strdup_printf ("%s ! %s name=dec ! appsink name=sink",
      source, decoder);
  CodedStream *stream;
  guint k;

  g_assert (n < G_N_ELEMENTS (positions));
  gst_cl_mpeg_video_state_init (&tagger.mpeg_state);
  gst_cl_mpeg4_state_init (&tagger.mpeg4_state);
  tagger.tagged = g_array_new (FALSE, TRUE, sizeof (GstClCodingInfo));
  stream = coded_stream_new_full (desc, add_tagger, &tagger);
  fail_unless (stream != NULL);
  fail_unless_equals_int (stream->buffers->len, n);
  fail_unless_equals_int (tagger.tagged->len, n);
  fixed_gop_display_types (n, 12, 2, display);
  display_to_coded_positions (display, positions);
  for (k = 0; k < n; k++) {
    GstClCodingInfo *in = &g_array_index (tagger.tagged, GstClCodingInfo, k);
    GstBuffer *frame = g_ptr_array_index (stream->buffers, positions[k]);
    GstClCodingMeta *meta = gst_buffer_get_cl_coding_meta (frame);

    fail_unless (meta != NULL, "frame %u has no meta", positions[k]);
    fail_unless (memcmp (&meta->info, in, sizeof (*in)) == 0,
        "frame %u: not the meta of access unit %u", positions[k], k);
    fail_unless_equals_int (meta->info.codec, mpeg4 ?
        GST_CL_CODEC_MPEG4_PART2 : GST_CL_CODEC_MPEG12);
    fail_unless (meta->info.quantiser > 0, "access unit %u: no quantiser", k);
    types[positions[k]] = gst_cl_picture_type_name (meta->info.picture_type)[0];
  }
  types[n] = '\0';
  fail_unless_equals_string (types, display);
  coded_stream_free (stream);
  g_array_unref (tagger.tagged);
  g_free (desc);
}

/* A rate-controlled sample (tests/data/mpeg2-rate.m2v: the quantiser
 * changes from frame to frame, so that a meta on the wrong frame shows) by
 *   ffmpeg -f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 26
 *     -c:v mpeg2video -b:v 100k -bf 2 -g 12 -f mpeg2video
 * as avenc_mpeg2video of gst-libav 1.22.0 codes nothing
 * (tests/check/libs/codedstream.h). */
GST_START_TEST (test_avdec_mpeg2video)
{
  const gchar *dir = g_getenv ("CLEPSILON_TEST_DATA");
  gchar *path, *source;

  if (!coded_stream_have ("mpegvideoparse", "avdec_mpeg2video", NULL))
    return;
  path = g_build_filename (dir ? dir : "tests/data", "mpeg2-rate.m2v", NULL);
  source = g_strdup_printf ("filesrc location=\"%s\" ! mpegvideoparse", path);
  check_decoded_frames (source, "avdec_mpeg2video", FALSE, 26);
  g_free (source);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_avdec_mpeg4)
{
  if (!coded_stream_have ("avenc_mpeg4", "mpeg4videoparse", "avdec_mpeg4",
          NULL))
    return;
  check_decoded_frames ("videotestsrc num-buffers=26 pattern=ball ! "
      RAW_CAPS " ! avenc_mpeg4 gop-size=12 max-bframes=2 bitrate=300000 ! "
      "mpeg4videoparse", "avdec_mpeg4", TRUE, 26);
}

GST_END_TEST;

static Suite *
clcodingmeta_suite (void)
{
  Suite *s = suite_create ("clcodingmeta");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_meta_api);
  tcase_add_test (tc, test_avdec_mpeg2video);
  tcase_add_test (tc, test_avdec_mpeg4);
  return s;
}

GST_CHECK_MAIN (clcodingmeta);
