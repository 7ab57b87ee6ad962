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

/* A picture's coding type and quantiser from its bytes
 * (gst/gstclcodinginfo.c), without a device: on streams that GStreamer's
 * own encoders (gst-libav) code at test time with a fixed GOP and a fixed
 * quantiser, through mpegvideoparse and mpeg4videoparse, against the
 * encoder's pattern in coded order (system plugins); on samples of
 * tests/data for what those encoders cannot make: avenc_mpeg1video and
 * avenc_mpeg2video of gst-libav 1.22.0 code nothing (FFmpeg refuses their
 * time base of 1/GST_SECOND as a frame rate; the avenc_mpeg2video cases
 * skip there and run where they code), and avenc_mpeg4 writes
 * vop_time_increment_resolution 65535 whatever the rate:
 *   mpeg2-q5.m2v, mpeg1-q5.m1v (quantiser_scale_code 5):
 *     ffmpeg -f lavfi -i testsrc2=size=128x96:rate=25 -frames:v 14
 *       -c:v mpeg2video (mpeg1video) -q:v 5 -qmin 5 -qmax 5 -bf 2 -g 12
 *       -f mpeg2video (mpeg1video)
 *   mpeg2-nonlinear-q25.m2v (q_scale_type 1, code 25):
 *     ffmpeg -f lavfi -i testsrc2=size=128x96:rate=25 -frames:v 8
 *       -c:v mpeg2video -non_linear_quant 1 -q:v 25 -qmin 25 -qmax 25
 *       -bf 0 -g 4 -f mpeg2video
 *   mpeg4-16fps-q7.m4v (a resolution of 16, a power of two, where
 *   codecparsers' VOP parser reads one bit too many):
 *     ffmpeg -f lavfi -i testsrc2=size=128x96:rate=16 -frames:v 14
 *       -c:v mpeg4 -q:v 7 -qmin 7 -qmax 7 -bf 2 -g 12 -f m4v
 *   mpeg2-rate.m2v (rate-controlled; tests/check/libs/clcodingmeta.c);
 *   pan-h264.h264 (H.264, x264 at fixed QPs; its command in
 *     tests/check/elements/clepsiloncoding.c), through h264parse as
 *     byte-stream and in AVC form, with h264parse's 4-byte NAL lengths
 *     and rewritten with 2-byte ones;
 * on headers made by hand for what no encoder here makes (field pictures,
 * MPEG-1's D pictures, reduced resolution, sprites), and on hostile input:
 * random bytes, every truncation and bit flips of real access units,
 * empty buffers. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>

#include "gstclcodinginfo-private.h"
#include "gstclcodingh264-private.h"
#include "codedstream.h"

#define RAW_CAPS CODED_STREAM_RAW_CAPS

/* Parses every buffer of @stream as MPEG-1/2 into @types (one character a
 * buffer) and checks each quantiser against @quantiser. */
static void
check_mpeg_video_stream (CodedStream * stream, const gchar * coded_types,
    gdouble quantiser, gboolean mpeg2)
{
  GstClMpegVideoState state;
  gchar *types = g_malloc0 (stream->buffers->len + 1);
  guint i;

  gst_cl_mpeg_video_state_init (&state);
  for (i = 0; i < stream->buffers->len; i++) {
    GstBuffer *buf = g_ptr_array_index (stream->buffers, i);
    GstClCodingInfo info;
    GstMapInfo map;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless (gst_cl_coding_info_parse_mpeg_video (&state, map.data,
            map.size, &info), "access unit %u not read", i);
    gst_buffer_unmap (buf, &map);
    types[i] = gst_cl_picture_type_name (info.picture_type)[0];
    fail_unless_equals_int (info.codec, GST_CL_CODEC_MPEG12);
    fail_unless_equals_int (info.field, GST_CL_FIELD_FRAME);
    fail_unless_equals_int (info.pictures, 1);
    fail_unless (info.quantiser == quantiser,
        "access unit %u (%c): quantiser %g, not %g", i, types[i],
        info.quantiser, quantiser);
  }
  fail_unless_equals_int (state.mpeg2, mpeg2);
  fail_unless_equals_string (types, coded_types);
  g_free (types);
}

/* The pattern of FFmpeg's encoders with a GOP of 12 and two B frames,
 * @n frames, in coded order. */
static void
coded_types_gop12 (guint n, gchar * coded)
{
  gchar display[64];

  g_assert (n < sizeof (display));
  fixed_gop_display_types (n, 12, 2, display);
  display_to_coded_order (display, coded);
}

GST_START_TEST (test_mpeg2_fixed_gop)
{
  gchar coded[32];
  CodedStream *stream;

  if (!coded_stream_have ("avenc_mpeg2video", "mpegvideoparse", NULL)
      || !coded_stream_encoder_works ("avenc_mpeg2video"))
    return;
  /* quantiser_scale_code 5 in every slice (qmin = qmax): linear scale, 10. */
  stream = coded_stream_new ("videotestsrc num-buffers=26 pattern=ball ! "
      RAW_CAPS " ! avenc_mpeg2video gop-size=12 max-bframes=2 pass=quant "
      "quantizer=5 qmin=5 qmax=5 ! mpegvideoparse ! appsink name=sink");
  fail_unless (stream != NULL);
  fail_unless_equals_int (stream->buffers->len, 26);
  coded_types_gop12 (26, coded);
  check_mpeg_video_stream (stream, coded, 10.0, TRUE);
  coded_stream_free (stream);
}

GST_END_TEST;

GST_START_TEST (test_mpeg2_non_linear)
{
  CodedStream *stream;

  if (!coded_stream_have ("avenc_mpeg2video", "mpegvideoparse", NULL)
      || !coded_stream_encoder_works ("avenc_mpeg2video"))
    return;
  /* q_scale_type 1, code 25: 64 by Table 7-6, where the linear scale would
   * give 50 (FFmpeg takes codes up to 28 only with the non-linear scale). */
  stream = coded_stream_new ("videotestsrc num-buffers=8 pattern=ball ! "
      RAW_CAPS " ! avenc_mpeg2video non-linear-quant=true gop-size=4 "
      "max-bframes=0 pass=quant quantizer=25 qmin=25 qmax=25 ! "
      "mpegvideoparse ! appsink name=sink");
  fail_unless (stream != NULL);
  check_mpeg_video_stream (stream, "IPPPIPPP", 64.0, TRUE);
  coded_stream_free (stream);
}

GST_END_TEST;

/* The samples of tests/data: the same by FFmpeg's command line. */
GST_START_TEST (test_mpeg_video_samples)
{
  gchar coded[16];
  CodedStream *stream;

  if (!coded_stream_have ("mpegvideoparse", NULL))
    return;
  coded_types_gop12 (14, coded);

  stream = coded_stream_from_file ("mpeg2-q5.m2v", "mpegvideoparse");
  fail_unless (stream != NULL);
  fail_unless_equals_int (stream->buffers->len, 14);
  check_mpeg_video_stream (stream, coded, 10.0, TRUE);
  coded_stream_free (stream);

  stream = coded_stream_from_file ("mpeg2-nonlinear-q25.m2v", "mpegvideoparse");
  fail_unless (stream != NULL);
  check_mpeg_video_stream (stream, "IPPPIPPP", 64.0, TRUE);
  coded_stream_free (stream);

  /* MPEG-1: quantizer_scale is the code itself. */
  stream = coded_stream_from_file ("mpeg1-q5.m1v", "mpegvideoparse");
  fail_unless (stream != NULL);
  fail_unless_equals_int (stream->buffers->len, 14);
  check_mpeg_video_stream (stream, coded, 5.0, FALSE);
  coded_stream_free (stream);
}

GST_END_TEST;

/* Reads the VOL of @caps' codec_data; FALSE where there is none. */
static gboolean
mpeg4_state_from_caps (GstClMpeg4State * state, GstCaps * caps)
{
  const GValue *value;
  GstMapInfo map;
  GstBuffer *config;
  gboolean read;

  if (caps == NULL)
    return FALSE;
  value = gst_structure_get_value (gst_caps_get_structure (caps, 0),
      "codec_data");
  if (value == NULL)
    return FALSE;
  config = gst_value_get_buffer (value);
  fail_unless (gst_buffer_map (config, &map, GST_MAP_READ));
  read = gst_cl_mpeg4_state_parse_config (state, map.data, map.size);
  gst_buffer_unmap (config, &map);
  return read;
}

static void
check_mpeg4_stream (CodedStream * stream, const gchar * coded_types,
    gdouble quantiser)
{
  GstClMpeg4State state;
  gchar *types = g_malloc0 (stream->buffers->len + 1);
  guint i;

  gst_cl_mpeg4_state_init (&state);
  /* mpeg4videoparse puts the VOL in codec_data, and in-band too. */
  fail_unless (mpeg4_state_from_caps (&state, stream->caps));
  for (i = 0; i < stream->buffers->len; i++) {
    GstBuffer *buf = g_ptr_array_index (stream->buffers, i);
    GstClCodingInfo info;
    GstMapInfo map;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless (gst_cl_coding_info_parse_mpeg4 (&state, map.data, map.size,
            &info), "VOP %u not read", i);
    gst_buffer_unmap (buf, &map);
    types[i] = gst_cl_picture_type_name (info.picture_type)[0];
    fail_unless_equals_int (info.codec, GST_CL_CODEC_MPEG4_PART2);
    fail_unless_equals_int (info.pictures, 1);
    fail_unless (info.quantiser == quantiser,
        "VOP %u (%c): quantiser %g, not %g", i, types[i], info.quantiser,
        quantiser);
  }
  fail_unless_equals_string (types, coded_types);
  g_free (types);
}

GST_START_TEST (test_mpeg4_fixed_gop)
{
  gchar coded[32];
  CodedStream *stream;

  if (!coded_stream_have ("avenc_mpeg4", "mpeg4videoparse", NULL))
    return;
  stream = coded_stream_new ("videotestsrc num-buffers=26 pattern=ball ! "
      RAW_CAPS " ! avenc_mpeg4 gop-size=12 max-bframes=2 pass=quant "
      "quantizer=7 qmin=7 qmax=7 ! mpeg4videoparse ! appsink name=sink");
  fail_unless (stream != NULL);
  fail_unless_equals_int (stream->buffers->len, 26);
  coded_types_gop12 (26, coded);
  check_mpeg4_stream (stream, coded, 7.0);
  coded_stream_free (stream);
}

GST_END_TEST;

GST_START_TEST (test_mpeg4_power_of_two_rate)
{
  gchar coded[16];
  CodedStream *stream;

  if (!coded_stream_have ("mpeg4videoparse", NULL))
    return;
  stream = coded_stream_from_file ("mpeg4-16fps-q7.m4v", "mpeg4videoparse");
  fail_unless (stream != NULL);
  fail_unless_equals_int (stream->buffers->len, 14);
  coded_types_gop12 (14, coded);
  check_mpeg4_stream (stream, coded, 7.0);
  coded_stream_free (stream);
}

GST_END_TEST;

/* ---- Headers made by hand ---- */

/* An MPEG-1 or MPEG-2 sequence header of 176x144 (MPEG-2: with its
 * extension). */
static void
put_mpeg_sequence (BitWriter * w, gboolean mpeg2)
{
  bit_writer_start_code (w, 0xb3);
  bit_writer_put (w, 12, 176);
  bit_writer_put (w, 12, 144);
  bit_writer_put (w, 4, 1);     /* aspect_ratio_information */
  bit_writer_put (w, 4, 3);     /* frame_rate_code: 25 */
  bit_writer_put (w, 18, 0x3ffff);
  bit_writer_put (w, 1, 1);     /* marker */
  bit_writer_put (w, 10, 20);   /* vbv_buffer_size */
  bit_writer_put (w, 3, 0);     /* constrained, no matrices */
  if (!mpeg2)
    return;
  bit_writer_start_code (w, 0xb5);
  bit_writer_put (w, 4, 1);     /* sequence extension */
  bit_writer_put (w, 8, 0x48);  /* main profile, main level */
  bit_writer_put (w, 1, 0);     /* progressive_sequence */
  bit_writer_put (w, 2, 1);     /* 4:2:0 */
  bit_writer_put (w, 4, 0);     /* size extensions */
  bit_writer_put (w, 12, 0);    /* bit_rate_extension */
  bit_writer_put (w, 1, 1);     /* marker */
  bit_writer_put (w, 8, 0);     /* vbv_buffer_size_extension */
  bit_writer_put (w, 5, 0);     /* low_delay, frame rate extensions */
}

/* A picture header of @type (1 I, 2 P, 3 B, 4 D). */
static void
put_mpeg_picture (BitWriter * w, guint type)
{
  bit_writer_start_code (w, 0x00);
  bit_writer_put (w, 10, 0);    /* temporal_reference */
  bit_writer_put (w, 3, type);
  bit_writer_put (w, 16, 0xffff);       /* vbv_delay */
  if (type == 2 || type == 3)
    bit_writer_put (w, 4, 7);   /* full_pel_forward_vector, f_code */
  if (type == 3)
    bit_writer_put (w, 4, 7);
  bit_writer_put (w, 1, 0);     /* extra_bit_picture */
}

/* A picture coding extension of @structure (1 top, 2 bottom, 3 frame). */
static void
put_mpeg_picture_extension (BitWriter * w, guint structure, gboolean non_linear)
{
  bit_writer_start_code (w, 0xb5);
  bit_writer_put (w, 4, 8);
  bit_writer_put (w, 16, 0xffff);       /* f_codes */
  bit_writer_put (w, 2, 0);     /* intra_dc_precision */
  bit_writer_put (w, 2, structure);
  bit_writer_put (w, 1, 1);     /* top_field_first */
  bit_writer_put (w, 1, structure == 3);        /* frame_pred_frame_dct */
  bit_writer_put (w, 1, 0);     /* concealment_motion_vectors */
  bit_writer_put (w, 1, non_linear);
  bit_writer_put (w, 6, 0);     /* intra_vlc .. progressive_frame */
  bit_writer_put (w, 1, 0);     /* composite_display_flag */
}

/* A slice of row @row with quantiser_scale_code @code and one macroblock
 * address increment of 1. */
static void
put_mpeg_slice (BitWriter * w, guint row, guint code)
{
  bit_writer_start_code (w, row);
  bit_writer_put (w, 5, code);
  bit_writer_put (w, 1, 0);     /* extra_bit_slice */
  bit_writer_put (w, 1, 1);     /* macroblock_address_increment 1 */
  bit_writer_put (w, 15, 0x5555);
}

static GstClCodingInfo
parse_mpeg_written (GstClMpegVideoState * state, const BitWriter * w,
    gboolean expect)
{
  GstClCodingInfo info;

  fail_unless_equals_int (gst_cl_coding_info_parse_mpeg_video (state,
          w->data, bit_writer_bytes (w), &info), expect);
  return info;
}

GST_START_TEST (test_mpeg2_field_pair)
{
  GstClMpegVideoState state;
  GstClCodingInfo info;
  BitWriter w = { {0}, 0 };

  /* I top field, linear code 5 (10) twice; P bottom field, non-linear code
   * 25 (64): the first field's type and structure, the slices' mean. */
  gst_cl_mpeg_video_state_init (&state);
  put_mpeg_sequence (&w, TRUE);
  put_mpeg_picture (&w, 1);
  put_mpeg_picture_extension (&w, 1, FALSE);
  put_mpeg_slice (&w, 1, 5);
  put_mpeg_slice (&w, 2, 5);
  put_mpeg_picture (&w, 2);
  put_mpeg_picture_extension (&w, 2, TRUE);
  put_mpeg_slice (&w, 1, 25);
  info = parse_mpeg_written (&state, &w, TRUE);
  fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_I);
  fail_unless_equals_int (info.field, GST_CL_FIELD_TOP);
  fail_unless_equals_int (info.pictures, 2);
  fail_unless_equals_float (info.quantiser, (10.0 + 10.0 + 64.0) / 3);
  fail_unless (state.mpeg2);

  /* A bottom field alone, B, the state's MPEG-2 from before. */
  memset (&w, 0, sizeof (w));
  put_mpeg_picture (&w, 3);
  put_mpeg_picture_extension (&w, 2, FALSE);
  put_mpeg_slice (&w, 1, 31);
  info = parse_mpeg_written (&state, &w, TRUE);
  fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_B);
  fail_unless_equals_int (info.field, GST_CL_FIELD_BOTTOM);
  fail_unless_equals_float (info.quantiser, 62.0);

  /* MPEG-2 without its picture coding extension: the type, no quantiser. */
  memset (&w, 0, sizeof (w));
  put_mpeg_picture (&w, 2);
  put_mpeg_slice (&w, 1, 8);
  info = parse_mpeg_written (&state, &w, TRUE);
  fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_P);
  fail_unless_equals_float (info.quantiser, 0.0);
}

GST_END_TEST;

GST_START_TEST (test_mpeg1_d_picture)
{
  GstClMpegVideoState state;
  GstClCodingInfo info;
  BitWriter w = { {0}, 0 };

  /* A sequence header without extension makes the state MPEG-1 again. */
  gst_cl_mpeg_video_state_init (&state);
  state.mpeg2 = TRUE;
  put_mpeg_sequence (&w, FALSE);
  put_mpeg_picture (&w, 4);
  put_mpeg_slice (&w, 1, 9);
  put_mpeg_slice (&w, 2, 0);    /* forbidden code 0: not counted */
  info = parse_mpeg_written (&state, &w, TRUE);
  fail_unless (!state.mpeg2);
  fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_I);
  fail_unless_equals_float (info.quantiser, 9.0);
  fail_unless_equals_int (state.vertical_size, 144);

  /* Picture type 0 and 5..7 are forbidden or reserved. */
  memset (&w, 0, sizeof (w));
  put_mpeg_picture (&w, 5);
  put_mpeg_slice (&w, 1, 9);
  info = parse_mpeg_written (&state, &w, FALSE);
  fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_UNKNOWN);
}

GST_END_TEST;

/* A visual object of version @verid, then a VOL without its own
 * identifier (so of @verid too) of 176x144 at @resolution ticks a second
 * (fixed rate), interlaced, its quant_type 1 with a short intra matrix,
 * sprite @sprite, and, where @verid is 2, NEWPRED where @newpred and
 * reduced resolution on. */
static void
put_mpeg4_config (BitWriter * w, guint verid, guint resolution, guint sprite,
    gboolean newpred)
{
  guint bits = resolution > 1 ? g_bit_storage (resolution - 1) : 1;

  bit_writer_start_code (w, 0xb0);
  bit_writer_put (w, 8, 0xf5);  /* advanced simple, level 5 */
  bit_writer_start_code (w, 0xb5);
  bit_writer_put (w, 1, 1);     /* is_visual_object_identifier */
  bit_writer_put (w, 4, verid);
  bit_writer_put (w, 3, 1);     /* priority */
  bit_writer_put (w, 4, 1);     /* video */
  bit_writer_put (w, 1, 0);     /* video_signal_type */
  bit_writer_stuff_mpeg4 (w);
  bit_writer_start_code (w, 0x20);
  bit_writer_put (w, 1, 0);     /* random_accessible_vol */
  bit_writer_put (w, 8, 17);    /* advanced simple */
  bit_writer_put (w, 1, 0);     /* is_object_layer_identifier */
  bit_writer_put (w, 4, 1);     /* square pixels */
  bit_writer_put (w, 1, 0);     /* vol_control_parameters */
  bit_writer_put (w, 2, 0);     /* rectangular */
  bit_writer_put (w, 1, 1);
  bit_writer_put (w, 16, resolution);
  bit_writer_put (w, 1, 1);
  bit_writer_put (w, 1, 1);     /* fixed_vop_rate */
  bit_writer_put (w, bits, 1);
  bit_writer_put (w, 1, 1);
  bit_writer_put (w, 13, 176);
  bit_writer_put (w, 1, 1);
  bit_writer_put (w, 13, 144);
  bit_writer_put (w, 1, 1);
  bit_writer_put (w, 1, 1);     /* interlaced */
  bit_writer_put (w, 1, 1);     /* obmc_disable */
  bit_writer_put (w, verid == 1 ? 1 : 2, sprite);
  if (sprite == 2) {
    bit_writer_put (w, 6, 3);   /* GMC: warping points, accuracy, .. */
    bit_writer_put (w, 3, 0);
  }
  bit_writer_put (w, 1, 0);     /* not_8_bit */
  bit_writer_put (w, 1, 1);     /* quant_type */
  bit_writer_put (w, 1, 1);     /* load_intra_quant_mat */
  bit_writer_put (w, 24, 0x081000);     /* 8, 16, end */
  bit_writer_put (w, 1, 0);     /* load_nonintra_quant_mat */
  if (verid != 1)
    bit_writer_put (w, 1, 0);   /* quarter_sample */
  bit_writer_put (w, 1, 1);     /* complexity_estimation_disable */
  bit_writer_put (w, 1, 1);     /* resync_marker_disable */
  bit_writer_put (w, 1, 0);     /* data_partitioned */
  if (verid != 1) {
    bit_writer_put (w, 1, newpred);
    if (newpred)
      bit_writer_put (w, 3, 0); /* upstream message, segment type */
    bit_writer_put (w, 1, 1);   /* reduced_resolution_vop_enable */
  }
  bit_writer_put (w, 1, 0);     /* scalability */
  bit_writer_stuff_mpeg4 (w);
}

/* A VOP of @type (0 I, 1 P, 2 B, 3 S), coded or not, of an interlaced VOL
 * with @bits of time increment, reduced resolution where @reduced, NEWPRED
 * where @newpred (with a vop_id_for_prediction). */
static void
put_mpeg4_vop_full (BitWriter * w, guint type, gboolean coded, guint bits,
    gboolean reduced, gboolean newpred, guint quant)
{
  guint id_bits = MIN (bits + 3, 15);

  bit_writer_start_code (w, 0xb6);
  bit_writer_put (w, 2, type);
  bit_writer_put (w, 2, 2);     /* modulo_time_base 1, 0 */
  bit_writer_put (w, 1, 1);
  bit_writer_put (w, bits, 1);
  bit_writer_put (w, 1, 1);
  bit_writer_put (w, 1, coded);
  if (coded && newpred) {
    bit_writer_put (w, id_bits, 5);     /* vop_id */
    bit_writer_put (w, 1, 1);   /* vop_id_for_prediction_indication */
    bit_writer_put (w, id_bits, 4);
    bit_writer_put (w, 1, 1);   /* marker */
  }
  if (coded) {
    if (type == 1)
      bit_writer_put (w, 1, 1); /* vop_rounding_type */
    if (reduced && type < 2)
      bit_writer_put (w, 1, 0);
    bit_writer_put (w, 3, 0);   /* intra_dc_vlc_thr */
    bit_writer_put (w, 2, 3);   /* top_field_first, alternate scan */
    bit_writer_put (w, 5, quant);
    bit_writer_put (w, 3, 1);   /* vop_fcode_forward */
  }
  bit_writer_stuff_mpeg4 (w);
}

static void
put_mpeg4_vop (BitWriter * w, guint type, gboolean coded, guint bits,
    gboolean reduced, guint quant)
{
  put_mpeg4_vop_full (w, type, coded, bits, reduced, FALSE, quant);
}

static GstClCodingInfo
parse_mpeg4_written (GstClMpeg4State * state, const BitWriter * w,
    gboolean expect)
{
  GstClCodingInfo info;

  fail_unless_equals_int (gst_cl_coding_info_parse_mpeg4 (state, w->data,
          bit_writer_bytes (w), &info), expect);
  return info;
}

GST_START_TEST (test_mpeg4_headers)
{
  static const guint resolutions[] = { 1, 2, 16, 25, 30000, 65535 };
  GstClMpeg4State state;
  GstClCodingInfo info;
  guint verid, r;

  for (verid = 1; verid <= 2; verid++)
    for (r = 0; r < G_N_ELEMENTS (resolutions); r++) {
      guint res = resolutions[r];
      guint bits = res > 1 ? g_bit_storage (res - 1) : 1;
      BitWriter w = { {0}, 0 };

      gst_cl_mpeg4_state_init (&state);
      put_mpeg4_config (&w, verid, res, 0, FALSE);
      put_mpeg4_vop (&w, 1, TRUE, bits, verid == 2, 13);
      info = parse_mpeg4_written (&state, &w, TRUE);
      fail_unless_equals_int (state.verid, verid);
      fail_unless_equals_int (state.vop_time_increment_bits, bits);
      fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_P);
      fail_unless (info.quantiser == 13.0, "verid %u resolution %u: %g",
          verid, res, info.quantiser);

      /* The same VOL, then a B VOP that is not coded: no quantiser. */
      memset (&w, 0, sizeof (w));
      put_mpeg4_vop (&w, 2, FALSE, bits, verid == 2, 0);
      info = parse_mpeg4_written (&state, &w, TRUE);
      fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_B);
      fail_unless_equals_float (info.quantiser, 0.0);
    }

  /* NEWPRED: vop_id and vop_id_for_prediction of time increment bits + 3
   * (at most 15) before the rest. */
  for (r = 0; r < G_N_ELEMENTS (resolutions); r++) {
    guint res = resolutions[r];
    guint bits = res > 1 ? g_bit_storage (res - 1) : 1;
    BitWriter w = { {0}, 0 };

    gst_cl_mpeg4_state_init (&state);
    put_mpeg4_config (&w, 2, res, 0, TRUE);
    put_mpeg4_vop_full (&w, 0, TRUE, bits, TRUE, TRUE, 21);
    info = parse_mpeg4_written (&state, &w, TRUE);
    fail_unless (state.newpred);
    fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_I);
    fail_unless (info.quantiser == 21.0, "NEWPRED resolution %u: %g", res,
        info.quantiser);
  }
}

GST_END_TEST;

GST_START_TEST (test_mpeg4_unsupported)
{
  GstClMpeg4State state;
  GstClCodingInfo info;
  BitWriter w = { {0}, 0 };

  /* A VOP before any VOL. */
  gst_cl_mpeg4_state_init (&state);
  put_mpeg4_vop (&w, 0, TRUE, 5, FALSE, 4);
  info = parse_mpeg4_written (&state, &w, FALSE);
  fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_UNKNOWN);

  /* Global motion compensation (sprite_enable 2): its VOPs unknown. */
  memset (&w, 0, sizeof (w));
  put_mpeg4_config (&w, 2, 25, 2, FALSE);
  fail_unless (gst_cl_mpeg4_state_parse_config (&state, w.data,
          bit_writer_bytes (&w)));
  fail_unless (state.have_vol && !state.supported);
  memset (&w, 0, sizeof (w));
  put_mpeg4_vop (&w, 3, TRUE, 5, TRUE, 4);
  parse_mpeg4_written (&state, &w, FALSE);
  memset (&w, 0, sizeof (w));
  put_mpeg4_vop (&w, 0, TRUE, 5, TRUE, 4);
  parse_mpeg4_written (&state, &w, FALSE);

  /* An S VOP where sprites are off is invalid. */
  memset (&w, 0, sizeof (w));
  put_mpeg4_config (&w, 2, 25, 0, FALSE);
  put_mpeg4_vop (&w, 3, TRUE, 5, TRUE, 4);
  parse_mpeg4_written (&state, &w, FALSE);

  /* H.263's short header is not read. */
  memset (&w, 0, sizeof (w));
  bit_writer_put (&w, 22, 0x20);
  bit_writer_put (&w, 26, 0x123456);
  parse_mpeg4_written (&state, &w, FALSE);
}

GST_END_TEST;

/* ---- Hostile input ---- */

/* What must hold of any answer: no type without TRUE, a quantiser in the
 * standards' range. */
static void
check_sane (gboolean read, const GstClCodingInfo * info)
{
  fail_unless (read == (info->picture_type != GST_CL_PICTURE_UNKNOWN));
  fail_unless (info->quantiser >= 0.0 && info->quantiser < 512.0);
  fail_unless (info->pictures < 1024);
}

static void
parse_both (const guint8 * data, gsize size, GstClMpegVideoState * mpeg,
    GstClMpeg4State * mpeg4)
{
  GstClH263State h263;
  GstClCodingInfo info;
  gboolean read;

  read = gst_cl_coding_info_parse_mpeg_video (mpeg, data, size, &info);
  check_sane (read, &info);
  read = gst_cl_coding_info_parse_mpeg4 (mpeg4, data, size, &info);
  check_sane (read, &info);
  gst_cl_mpeg4_state_parse_config (mpeg4, data, size);
  gst_cl_h263_state_init (&h263);
  read = gst_cl_coding_info_parse_h263 (&h263, data, size, &info);
  check_sane (read, &info);
  fail_unless (info.quantiser <= 31.0);
}

/* A copy of @size bytes of @data in a block of exactly that size, so that
 * a read past it shows under ASan and valgrind. */
static guint8 *
copy_exact (const guint8 * data, gsize size)
{
  guint8 *copy = g_malloc (MAX (size, 1));

  memcpy (copy, data, size);
  return copy;
}

/* An H.263 picture header by hand (H.263 5.1): @junk bytes before the
 * PSC, TR, PTYPE with source format @format and coding type @inter, PQUANT
 * @quant, then a GOB's worth of bits. */
static GstClCodingInfo
parse_h263_written (guint junk, guint format, guint inter, guint quant,
    gboolean cut, gboolean * read)
{
  BitWriter w = { {0}, 0 };
  GstClH263State state;
  GstClCodingInfo info;
  guint i;

  for (i = 0; i < junk; i++)
    bit_writer_put (&w, 8, 0x47 + i);
  bit_writer_put (&w, 22, 0x20);        /* PSC */
  bit_writer_put (&w, 8, 0x5a); /* TR */
  bit_writer_put (&w, 2, 2);    /* "10" */
  bit_writer_put (&w, 3, 0);    /* split, document, freeze */
  bit_writer_put (&w, 3, format);
  if (format == 7) {
    /* PLUSPTYPE: UFEP 1, an OPPTYPE (QCIF, advanced prediction: bits
     * that a version 1 reader would take for a PQUANT of 1), an MPPTYPE
     * of an I picture */
    bit_writer_put (&w, 3, 1);
    bit_writer_put (&w, 18, (2 << 15) | (1 << 11) | 8);
    bit_writer_put (&w, 9, 1);
    bit_writer_put (&w, 1, 0);  /* CPM, before PQUANT there */
  } else {
    bit_writer_put (&w, 1, inter);
    bit_writer_put (&w, 4, 0);  /* UMV, SAC, AP, PB */
  }
  if (!cut) {
    bit_writer_put (&w, 5, quant);
    if (format != 7)
      bit_writer_put (&w, 1, 0);        /* CPM */
    bit_writer_put (&w, 1, 0);  /* PEI */
    for (i = 0; i < 8; i++)
      bit_writer_put (&w, 16, 0xa5c3);
  }
  gst_cl_h263_state_init (&state);
  *read = gst_cl_coding_info_parse_h263 (&state, w.data, bit_writer_bytes (&w),
      &info);
  return info;
}

/* Headers made by hand: the coding type and PQUANT of H.263's standard
 * source formats, after bytes that are no PSC, and of a PLUSPTYPE picture;
 * nothing of a forbidden format, PQUANT 0, or cut short before PQUANT. */
GST_START_TEST (test_h263_headers)
{
  GstClCodingInfo info;
  gboolean read;
  guint format;

  for (format = 1; format <= 5; format++) {
    info = parse_h263_written (format - 1, format, 0, 4 + format, FALSE, &read);
    fail_unless (read, "format %u", format);
    fail_unless_equals_int (info.codec, GST_CL_CODEC_H263);
    fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_I);
    fail_unless_equals_int (info.pictures, 1);
    fail_unless_equals_float (info.quantiser, 4.0 + format);
    info = parse_h263_written (3, format, 1, 31, FALSE, &read);
    fail_unless (read);
    fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_P);
    fail_unless_equals_float (info.quantiser, 31.0);
  }
  /* PLUSPTYPE's PQUANT, not what a version 1 reader takes for it */
  info = parse_h263_written (0, 7, 0, 8, FALSE, &read);
  fail_unless (read);
  fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_I);
  fail_unless_equals_float (info.quantiser, 8.0);
  info = parse_h263_written (0, 0, 0, 8, FALSE, &read);
  fail_if (read);
  info = parse_h263_written (0, 6, 1, 8, FALSE, &read);
  fail_if (read);
  info = parse_h263_written (0, 2, 1, 0, FALSE, &read);
  fail_if (read);
  fail_unless_equals_float (info.quantiser, 0.0);
  info = parse_h263_written (1, 2, 1, 9, TRUE, &read);
  fail_if (read);
  fail_unless_equals_int (info.picture_type, GST_CL_PICTURE_UNKNOWN);
  {
    static const guint8 none[] = { 0, 0, 0x7f, 0, 0, 0x84 >> 1, 1, 2 };

    GstClH263State state;

    gst_cl_h263_state_init (&state);
    fail_if (gst_cl_coding_info_parse_h263 (&state, none, sizeof (none),
            &info));
    fail_if (gst_cl_coding_info_parse_h263 (&state, none, 0, &info));
  }
}

GST_END_TEST;

/* A PLUSPTYPE picture header (H.263 5.1.4 to 5.1.19) by hand: @ufep 1
 * writes an OPPTYPE of the modes given, 0 none; @custom_pcf and @ss say
 * the modes in force either way (ETR and SSS follow them). */
typedef struct
{
  guint ufep, format, type, quant;
  gboolean custom_pcf, umv, ss, rpr, cpm, par_extended;
} H263Plus;

static gboolean
parse_h263_plus (GstClH263State * state, const H263Plus * h,
    GstClCodingInfo * info)
{
  BitWriter w = { {0}, 0 };
  guint i;

  bit_writer_put (&w, 22, 0x20);        /* PSC */
  bit_writer_put (&w, 8, 0x11); /* TR */
  bit_writer_put (&w, 5, 2 << 3);       /* "10", split, document, freeze */
  bit_writer_put (&w, 3, 7);    /* PLUSPTYPE */
  bit_writer_put (&w, 3, h->ufep);
  if (h->ufep == 1)
    bit_writer_put (&w, 18, (h->format << 15) | (h->custom_pcf << 14) |
        (h->umv << 13) | (h->ss << 8) | 8);
  bit_writer_put (&w, 9, (h->type << 6) | (h->rpr << 5) | 1);
  bit_writer_put (&w, 1, h->cpm);
  if (h->cpm)
    bit_writer_put (&w, 2, 3);  /* PSBI */
  if (h->ufep == 1 && h->format == 6) {
    bit_writer_put (&w, 4, h->par_extended ? 15 : 2);
    bit_writer_put (&w, 9, 175);        /* 704 / 4 - 1 */
    bit_writer_put (&w, 1, 1);
    bit_writer_put (&w, 9, 143);        /* 576 / 4 */
    if (h->par_extended)
      bit_writer_put (&w, 16, 0x0b0b);  /* EPAR */
  }
  if (h->ufep == 1 && h->custom_pcf)
    bit_writer_put (&w, 8, 72); /* CPCFC: 25 Hz */
  if (h->custom_pcf)
    bit_writer_put (&w, 2, 1);  /* ETR */
  if (h->ufep == 1 && h->umv)
    bit_writer_put (&w, 2, 1);  /* UUI "01" */
  if (h->ss)
    bit_writer_put (&w, 2, 0);  /* SSS */
  bit_writer_put (&w, 5, h->quant);
  bit_writer_put (&w, 1, 0);    /* PEI */
  for (i = 0; i < 8; i++)
    bit_writer_put (&w, 16, 0x5a3c);
  return gst_cl_coding_info_parse_h263 (state, w.data, bit_writer_bytes (&w),
      info);
}

static void
assert_h263_plus (GstClH263State * state, const H263Plus * h,
    GstClPictureType type, gdouble quant)
{
  GstClCodingInfo info;
  gboolean read = parse_h263_plus (state, h, &info);

  fail_unless (read == (type != GST_CL_PICTURE_UNKNOWN), "read %d", read);
  fail_unless_equals_int (info.picture_type, type);
  fail_unless_equals_float (info.quantiser, quant);
}

/* PLUSPTYPE pictures: each optional field the modes add (CPM's PSBI, a
 * custom format's CPFMT and EPAR, CPCFC and ETR of a custom clock, UUI,
 * SSS) passed over; the modes of the last OPPTYPE kept for the pictures
 * without one, and nothing read before the first; improved PB as P; B,
 * EI and EP pictures, reference picture resampling and a broken OPPTYPE
 * not read. */
GST_START_TEST (test_h263_plus_headers)
{
  const H263Plus p_first = {.ufep = 0,.type = 1,.quant = 12 };
  const H263Plus i_cif = {.ufep = 1,.format = 3,.type = 0,.quant = 10,
    .custom_pcf = TRUE,.ss = TRUE
  };
  const H263Plus p_held = {.ufep = 0,.type = 1,.quant = 12,
    .custom_pcf = TRUE,.ss = TRUE
  };
  const H263Plus p_custom = {.ufep = 1,.format = 6,.type = 1,.quant = 17,
    .umv = TRUE,.cpm = TRUE,.par_extended = TRUE
  };
  const H263Plus i_plain = {.ufep = 0,.type = 0,.quant = 5 };
  const H263Plus pb = {.ufep = 0,.type = 2,.quant = 9 };
  const H263Plus b = {.ufep = 0,.type = 3,.quant = 9 };
  const H263Plus ei = {.ufep = 0,.type = 4,.quant = 9 };
  const H263Plus resampled = {.ufep = 0,.type = 1,.quant = 9,.rpr = TRUE };
  const H263Plus format7 = {.ufep = 1,.format = 7,.type = 0,.quant = 9 };
  GstClH263State state;

  gst_cl_h263_state_init (&state);
  assert_h263_plus (&state, &p_first, GST_CL_PICTURE_UNKNOWN, 0.0);
  assert_h263_plus (&state, &i_cif, GST_CL_PICTURE_I, 10.0);
  assert_h263_plus (&state, &p_held, GST_CL_PICTURE_P, 12.0);
  assert_h263_plus (&state, &p_custom, GST_CL_PICTURE_P, 17.0);
  /* no custom clock nor slices from there on */
  assert_h263_plus (&state, &i_plain, GST_CL_PICTURE_I, 5.0);
  assert_h263_plus (&state, &pb, GST_CL_PICTURE_P, 9.0);
  assert_h263_plus (&state, &b, GST_CL_PICTURE_UNKNOWN, 0.0);
  assert_h263_plus (&state, &ei, GST_CL_PICTURE_UNKNOWN, 0.0);
  assert_h263_plus (&state, &resampled, GST_CL_PICTURE_UNKNOWN, 0.0);
  assert_h263_plus (&state, &format7, GST_CL_PICTURE_UNKNOWN, 0.0);
  /* the modes stay those of the last OPPTYPE read */
  assert_h263_plus (&state, &i_plain, GST_CL_PICTURE_I, 5.0);
}

GST_END_TEST;

/* FFmpeg's H.263 encoder @encoder at a fixed quantiser through h263parse:
 * one picture a buffer, with PLUSPTYPE (@plus) or not, an intra picture
 * every 12, P pictures between, every PQUANT 7. */
static void
check_h263_fixed_gop (const gchar * encoder, gboolean plus)
{
  CodedStream *stream;
  GstClH263State state;
  gchar *desc;
  guint i;

  gst_cl_h263_state_init (&state);
  if (!coded_stream_have (encoder, "h263parse", NULL))
    return;
  desc = g_strdup_printf ("videotestsrc num-buffers=26 pattern=ball ! "
      RAW_CAPS " ! %s gop-size=12 pass=quant quantizer=7 qmin=7 qmax=7 ! "
      "h263parse ! appsink name=sink", encoder);
  stream = coded_stream_new (desc);
  g_free (desc);
  fail_unless (stream != NULL);
  fail_unless_equals_int (stream->buffers->len, 26);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (stream->caps, 0), "variant"), "itu");
  for (i = 0; i < stream->buffers->len; i++) {
    GstBuffer *buf = g_ptr_array_index (stream->buffers, i);
    GstClCodingInfo info;
    GstMapInfo map;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    /* PTYPE's source format, 7 for PLUSPTYPE (the PSC starts the buffer) */
    fail_unless ((((map.data[4] >> 2) & 7) == 7) == plus,
        "%s, picture %u: PLUSPTYPE %s", encoder, i, plus ? "missing" : "there");
    fail_unless (gst_cl_coding_info_parse_h263 (&state, map.data, map.size,
            &info), "%s: picture %u not read", encoder, i);
    gst_buffer_unmap (buf, &map);
    fail_unless_equals_int (info.picture_type, i % 12 == 0 ?
        GST_CL_PICTURE_I : GST_CL_PICTURE_P);
    fail_unless_equals_float (info.quantiser, 7.0);
  }
  coded_stream_free (stream);
}

GST_START_TEST (test_h263_fixed_gop)
{
  check_h263_fixed_gop ("avenc_h263", FALSE);
}

GST_END_TEST;

/* The same with H.263+ (PLUSPTYPE with UFEP 1 in every picture, FFmpeg's
 * custom clock for 25 Hz and slice structure). */
GST_START_TEST (test_h263_plus_fixed_gop)
{
  check_h263_fixed_gop ("avenc_h263p", TRUE);
}

GST_END_TEST;

/* Each truncation of each buffer of @stream (every length up to 256
 * bytes, sparser after), and one bit flipped at a time in its first 64
 * bytes. */
static void
parse_cut_and_flipped (CodedStream * stream)
{
  GstClMpegVideoState mpeg;
  GstClMpeg4State mpeg4;
  guint i;
  gsize len, bit;

  gst_cl_mpeg_video_state_init (&mpeg);
  gst_cl_mpeg4_state_init (&mpeg4);
  mpeg4_state_from_caps (&mpeg4, stream->caps);
  for (i = 0; i < stream->buffers->len; i++) {
    GstMapInfo map;

    gst_buffer_map (g_ptr_array_index (stream->buffers, i), &map, GST_MAP_READ);
    for (len = 0; len <= map.size; len += 1 + len / 256) {
      guint8 *cut = copy_exact (map.data, len);

      parse_both (cut, len, &mpeg, &mpeg4);
      g_free (cut);
    }
    for (bit = 0; bit < MIN (map.size, 64) * 8; bit++) {
      guint8 *flipped = copy_exact (map.data, map.size);

      flipped[bit / 8] ^= 1 << (bit % 8);
      parse_both (flipped, map.size, &mpeg, &mpeg4);
      g_free (flipped);
    }
    gst_buffer_unmap (g_ptr_array_index (stream->buffers, i), &map);
  }
}

GST_START_TEST (test_hostile_real_units)
{
  static const gchar *const samples[] = { "mpeg2-rate.m2v", "mpeg1-q5.m1v",
    "mpeg2-nonlinear-q25.m2v", "mpeg4-16fps-q7.m4v", "pan-h263.h263",
    "pan-h263p.h263"
  };
  CodedStream *stream;
  guint i;

  if (!coded_stream_have ("avenc_mpeg4", "mpegvideoparse",
          "mpeg4videoparse", "h263parse", NULL))
    return;
  for (i = 0; i < G_N_ELEMENTS (samples); i++) {
    stream = coded_stream_from_file (samples[i],
        g_str_has_suffix (samples[i], ".m4v") ? "mpeg4videoparse" :
        g_str_has_suffix (samples[i], ".h263") ? "h263parse" :
        "mpegvideoparse");
    fail_unless (stream != NULL);
    parse_cut_and_flipped (stream);
    coded_stream_free (stream);
  }
  stream = coded_stream_new ("videotestsrc num-buffers=6 pattern=ball ! "
      RAW_CAPS " ! avenc_mpeg4 gop-size=6 max-bframes=2 ! mpeg4videoparse "
      "! appsink name=sink");
  fail_unless (stream != NULL);
  parse_cut_and_flipped (stream);
  coded_stream_free (stream);
}

GST_END_TEST;

/* Up to 95 random bytes (in @size; a block of at least one byte), with a
 * start code 00 00 01 followed by one of @codes planted every 4 to 23
 * bytes, so that the header parsers run on garbage. */
static guint8 *
random_units (GRand * rand, const guint8 * codes, guint n_codes, gsize * size)
{
  gsize i, n = g_rand_int_range (rand, 0, 96);
  guint8 *data = g_malloc (MAX (n, 1));

  for (i = 0; i < n; i++)
    data[i] = g_rand_int_range (rand, 0, 256);
  for (i = 0; i + 4 <= n; i += g_rand_int_range (rand, 4, 24)) {
    data[i] = data[i + 1] = 0;
    data[i + 2] = 1;
    data[i + 3] = codes[g_rand_int_range (rand, 0, n_codes)];
  }
  *size = n;
  return data;
}

/* Random bytes, with start codes planted so that the header parsers run on
 * garbage, from a fixed seed printed on failure. */
GST_START_TEST (test_hostile_random)
{
  static const guint8 codes[] = { 0x00, 0x01, 0x20, 0xaf, 0xb0, 0xb3, 0xb5,
    0xb6, 0xb8
  };
  const guint32 seed = 0x38c0d1;
  GRand *rand = g_rand_new_with_seed (seed);
  GstClMpegVideoState mpeg;
  GstClMpeg4State mpeg4;
  guint round;

  gst_cl_mpeg_video_state_init (&mpeg);
  gst_cl_mpeg4_state_init (&mpeg4);
  parse_both (NULL, 0, &mpeg, &mpeg4);
  for (round = 0; round < 20000; round++) {
    gsize size;
    guint8 *data = random_units (rand, codes, G_N_ELEMENTS (codes), &size);

    parse_both (size ? data : NULL, size, &mpeg, &mpeg4);
    parse_both (data, size, &mpeg, &mpeg4);
    g_free (data);
    if (round % 1000 == 0) {
      gst_cl_mpeg_video_state_init (&mpeg);
      gst_cl_mpeg4_state_init (&mpeg4);
    }
  }
  g_rand_free (rand);
  GST_INFO ("seed %u: 20000 random buffers", seed);
}

GST_END_TEST;

/* pan-h264.h264 in display order, and each type's QP (FFmpeg's: ffprobe
 * -show_frames, ffmpeg -debug qp; x264 coded every macroblock at its
 * frame's QP: aq-mode=0) */
static const gchar h264_display[] = "IBBPBBPBPIBBPBBPBPIBBPBBPP";

static gdouble
h264_qp (gchar type)
{
  return type == 'I' ? 31 : type == 'P' ? 34 : 36;
}

/* A state for @stream: byte-stream, or in AVC form the configuration
 * record of its caps. */
static GstClH264State *
h264_state_for (CodedStream * stream)
{
  const GstStructure *s = gst_caps_get_structure (stream->caps, 0);
  const GValue *v = gst_structure_get_value (s, "codec_data");
  GstClH264State *state = gst_cl_h264_state_new (0);
  GstMapInfo map;

  if (v != NULL) {
    fail_unless (gst_buffer_map (gst_value_get_buffer (v), &map, GST_MAP_READ));
    fail_unless (gst_cl_h264_state_parse_config (state, map.data, map.size));
    gst_buffer_unmap (gst_value_get_buffer (v), &map);
  }
  return state;
}

/* Access units of several slices, made of two of @stream's (byte-stream)
 * one after the other: the type is I only where every slice is I, B where
 * one is B, P else; the QP is the slices' mean. */
static void
check_h264_slices (CodedStream * stream, GstClH264State * state,
    const gchar * coded)
{
  static const gchar pairs[][2] = { {'I', 'I'}, {'I', 'P'}, {'P', 'I'},
  {'P', 'B'}, {'B', 'I'}, {'P', 'P'}
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (pairs); k++) {
    const gchar a = pairs[k][0], b = pairs[k][1];
    const gchar want = a == 'B' || b == 'B' ? 'B' : a == 'I' && b == 'I' ?
        'I' : 'P';
    const gchar *second = strchr (coded + 1, b);
    GstBuffer *both = gst_buffer_append (gst_buffer_ref
        (g_ptr_array_index (stream->buffers, strchr (coded, a) - coded)),
        gst_buffer_ref (g_ptr_array_index (stream->buffers, second - coded)));
    GstClCodingInfo info;
    GstMapInfo map;

    fail_unless (gst_buffer_map (both, &map, GST_MAP_READ));
    fail_unless (gst_cl_coding_info_parse_h264 (state, map.data, map.size,
            &info));
    gst_buffer_unmap (both, &map);
    gst_buffer_unref (both);
    fail_unless_equals_int (gst_cl_picture_type_name (info.picture_type)[0],
        want);
    fail_unless (info.quantiser == (h264_qp (a) + h264_qp (b)) / 2,
        "%c then %c: QP %g", a, b, info.quantiser);
  }
}

/* @stream (AVC form, 4-byte lengths as h264parse writes them) rewritten
 * with 2-byte lengths, its configuration record saying so. */
static void
avc_to_2_byte_lengths (CodedStream * stream)
{
  GstStructure *s;
  GstBuffer *config;
  GstMapInfo map;
  guint i;

  stream->caps = gst_caps_make_writable (stream->caps);
  s = gst_caps_get_structure (stream->caps, 0);
  config = gst_buffer_copy_deep (gst_value_get_buffer
      (gst_structure_get_value (s, "codec_data")));
  fail_unless (gst_buffer_map (config, &map, GST_MAP_WRITE));
  fail_unless_equals_int (map.data[4] & 3, 3);
  map.data[4] = (map.data[4] & ~3) | 1;
  gst_buffer_unmap (config, &map);
  gst_structure_set (s, "codec_data", GST_TYPE_BUFFER, config, NULL);
  gst_buffer_unref (config);
  for (i = 0; i < stream->buffers->len; i++) {
    GstBuffer *buf = g_ptr_array_index (stream->buffers, i);
    guint8 *out;
    gsize in = 0, n = 0;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    out = g_malloc (map.size);
    while (in + 4 <= map.size) {
      const guint32 len = GST_READ_UINT32_BE (map.data + in);

      fail_unless (len < 65536 && in + 4 + len <= map.size);
      GST_WRITE_UINT16_BE (out + n, len);
      memcpy (out + n + 2, map.data + in + 4, len);
      in += 4 + len;
      n += 2 + len;
    }
    fail_unless_equals_int (in, map.size);
    gst_buffer_unmap (buf, &map);
    g_ptr_array_index (stream->buffers, i) = gst_buffer_new_wrapped (out, n);
    gst_buffer_unref (buf);
  }
}

/* pan-h264's access units through @parser (rewritten with 2-byte NAL
 * lengths where @short_lengths): each one's type, in coded order, and
 * QP. */
static void
check_h264_sample (const gchar * parser, gboolean avc, gboolean short_lengths)
{
  CodedStream *stream = coded_stream_from_file ("pan-h264.h264", parser);
  gchar coded[sizeof (h264_display)], types[sizeof (h264_display)] = { 0 };
  GstClH264State *state;
  guint i;

  fail_unless (stream != NULL);
  if (short_lengths)
    avc_to_2_byte_lengths (stream);
  fail_unless_equals_int (gst_structure_has_field (gst_caps_get_structure
          (stream->caps, 0), "codec_data"), avc);
  display_to_coded_order (h264_display, coded);
  fail_unless_equals_int (stream->buffers->len, strlen (coded));
  state = h264_state_for (stream);
  for (i = 0; i < stream->buffers->len; i++) {
    GstBuffer *buf = g_ptr_array_index (stream->buffers, i);
    GstClCodingInfo info;
    GstMapInfo map;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless (gst_cl_coding_info_parse_h264 (state, map.data, map.size,
            &info), "%s: access unit %u not read", parser, i);
    gst_buffer_unmap (buf, &map);
    types[i] = gst_cl_picture_type_name (info.picture_type)[0];
    fail_unless_equals_int (info.codec, GST_CL_CODEC_H264);
    fail_unless_equals_int (info.field, GST_CL_FIELD_FRAME);
    fail_unless_equals_int (info.pictures, 1);
    fail_unless (info.quantiser == h264_qp (coded[i]),
        "%s: access unit %u (%c): QP %g", parser, i, coded[i], info.quantiser);
  }
  fail_unless_equals_string (types, coded);
  if (!avc)
    check_h264_slices (stream, state, coded);
  gst_cl_h264_state_free (state);
  coded_stream_free (stream);
}

GST_START_TEST (test_h264_sample)
{
  if (!coded_stream_have ("h264parse", NULL))
    return;
  check_h264_sample ("h264parse ! video/x-h264,stream-format=byte-stream,"
      "alignment=au", FALSE, FALSE);
  check_h264_sample ("h264parse ! video/x-h264,stream-format=avc,"
      "alignment=au", TRUE, FALSE);
  check_h264_sample ("h264parse ! video/x-h264,stream-format=avc,"
      "alignment=au", TRUE, TRUE);
}

GST_END_TEST;

/* H.264 on hostile input: every truncation and bit flips of the sample's
 * access units, in both forms, after the parameter sets were read (the
 * flips reach them too); access units without them; random bytes with
 * NAL unit headers planted. What is read is a type and a QP of 0..51. */
static void
parse_h264 (GstClH264State * state, const guint8 * data, gsize size)
{
  GstClCodingInfo info;
  const gboolean read = gst_cl_coding_info_parse_h264 (state, data, size,
      &info);

  check_sane (read, &info);
  fail_unless (info.quantiser <= 51.0);
  fail_unless (!read || info.codec == GST_CL_CODEC_H264);
}

static void
h264_cut_and_flipped (const gchar * parser)
{
  CodedStream *stream = coded_stream_from_file ("pan-h264.h264", parser);
  GstClH264State *state, *fresh;
  gchar coded[sizeof (h264_display)];
  GstClCodingInfo info;
  guint i;
  gsize len, bit;

  fail_unless (stream != NULL);
  display_to_coded_order (h264_display, coded);
  state = h264_state_for (stream);
  for (i = 0; i < stream->buffers->len; i++) {
    GstMapInfo map;

    gst_buffer_map (g_ptr_array_index (stream->buffers, i), &map, GST_MAP_READ);
    for (len = 0; len <= map.size; len += 1 + len / 64) {
      guint8 *cut = copy_exact (map.data, len);

      parse_h264 (state, cut, len);
      g_free (cut);
    }
    for (bit = 0; bit < MIN (map.size, 96) * 8; bit++) {
      guint8 *flipped = copy_exact (map.data, map.size);

      flipped[bit / 8] ^= 1 << (bit % 8);
      parse_h264 (state, flipped, map.size);
      g_free (flipped);
    }
    /* no parameter sets seen (an intra frame may carry them): a slice
     * cannot be read */
    fresh = gst_cl_h264_state_new (0);
    fail_unless (coded[i] == 'I' || !gst_cl_coding_info_parse_h264 (fresh,
            map.data, map.size, &info), "access unit %u read", i);
    gst_cl_h264_state_free (fresh);
    gst_buffer_unmap (g_ptr_array_index (stream->buffers, i), &map);
  }
  gst_cl_h264_state_free (state);
  coded_stream_free (stream);
}

GST_START_TEST (test_h264_hostile)
{
  static const guint8 nal_headers[] = { 0x67, 0x68, 0x65, 0x41, 0x01, 0x06,
    0x09
  };
  const guint32 seed = 0x264;
  GRand *rand;
  GstClH264State *state, *avc;
  guint round;

  if (!coded_stream_have ("h264parse", NULL))
    return;
  rand = g_rand_new_with_seed (seed);
  state = gst_cl_h264_state_new (0);
  avc = gst_cl_h264_state_new (4);
  h264_cut_and_flipped ("h264parse ! video/x-h264,stream-format=byte-stream,"
      "alignment=au");
  h264_cut_and_flipped ("h264parse ! video/x-h264,stream-format=avc,"
      "alignment=au");
  parse_h264 (state, NULL, 0);
  fail_if (gst_cl_h264_state_parse_config (state, NULL, 0));
  for (round = 0; round < 20000; round++) {
    gsize size;
    guint8 *data = random_units (rand, nal_headers,
        G_N_ELEMENTS (nal_headers), &size);

    parse_h264 (state, data, size);
    parse_h264 (avc, data, size);
    gst_cl_h264_state_parse_config (avc, data, size);
    g_free (data);
  }
  gst_cl_h264_state_free (avc);
  gst_cl_h264_state_free (state);
  g_rand_free (rand);
  GST_INFO ("seed %u: 20000 random buffers", seed);
}

GST_END_TEST;

static Suite *
clcodinginfo_suite (void)
{
  Suite *s = suite_create ("clcodinginfo");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_mpeg2_fixed_gop);
  tcase_add_test (tc, test_mpeg2_non_linear);
  tcase_add_test (tc, test_mpeg_video_samples);
  tcase_add_test (tc, test_mpeg4_fixed_gop);
  tcase_add_test (tc, test_mpeg4_power_of_two_rate);
  tcase_add_test (tc, test_mpeg2_field_pair);
  tcase_add_test (tc, test_mpeg1_d_picture);
  tcase_add_test (tc, test_mpeg4_headers);
  tcase_add_test (tc, test_mpeg4_unsupported);
  tcase_add_test (tc, test_h263_headers);
  tcase_add_test (tc, test_h263_fixed_gop);
  tcase_add_test (tc, test_h263_plus_headers);
  tcase_add_test (tc, test_h263_plus_fixed_gop);
  tcase_add_test (tc, test_hostile_real_units);
  tcase_add_test (tc, test_hostile_random);
  tcase_add_test (tc, test_h264_sample);
  tcase_add_test (tc, test_h264_hostile);
  return s;
}

GST_CHECK_MAIN (clcodinginfo);
