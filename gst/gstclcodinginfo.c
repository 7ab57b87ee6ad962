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

/* A picture's coding type and quantiser from its coded bytes.
 *
 * MPEG-1/2 through GStreamer's codecparsers (gstmpegvideoparser.h): it
 * finds the start codes and reads the picture header, the picture coding
 * extension (q_scale_type, picture_structure) and each slice header
 * (quantiser_scale_code), all with bounded readers.
 *
 * MPEG-4 Part 2 by hand over GstBitReader: codecparsers' VOL parser
 * (gstmpeg4parser.c, GStreamer 1.22) takes g_bit_storage
 * (vop_time_increment_resolution) bits for vop_time_increment where ISO
 * 14496-2 takes the bits of resolution - 1, one bit too many for a
 * resolution that is a power of two: on FFmpeg's mpeg4 at 16 frames/s and
 * -q:v 7 its vop_quant read 24844 and 14; it also reads
 * reduced_resolution_vop_enable from VOLs of verid 1, which have none.
 * Only the headers up to vop_quant are read, as ISO 14496-2 6.2.3 and
 * 6.2.5 lay them out. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/base/gstbitreader.h>
#include <gst/base/gstbytereader.h>
#include <gst/codecparsers/gstmpegvideoparser.h>

#include "gstclcodinginfo-private.h"

/* ISO 13818-2 Table 7-6: quantiser_scale of quantiser_scale_code where
 * q_scale_type is 1 (code 0 is forbidden). */
static const guint8 mpeg2_non_linear_quantiser_scale[32] = {
  0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 18, 20, 22,
  24, 28, 32, 36, 40, 44, 48, 52, 56, 64, 72, 80, 88, 96, 104, 112
};

const gchar *
gst_cl_picture_type_name (GstClPictureType type)
{
  switch (type) {
    case GST_CL_PICTURE_I:
      return "I";
    case GST_CL_PICTURE_P:
      return "P";
    case GST_CL_PICTURE_B:
      return "B";
    case GST_CL_PICTURE_S:
      return "S";
    default:
      return "?";
  }
}

static void
coding_info_clear (GstClCodingInfo * info, GstClCodecFamily codec)
{
  memset (info, 0, sizeof (*info));
  info->codec = codec;
}

/* ---- MPEG-1/2 ---- */

void
gst_cl_mpeg_video_state_init (GstClMpegVideoState * state)
{
  memset (state, 0, sizeof (*state));
}

/* What one access unit gathers while its packets are read in turn. */
typedef struct
{
  GstClMpegVideoState *state;
  GstClCodingInfo *info;
  /* The current picture: whether it had a coding extension, and its
   * q_scale_type. */
  gboolean picture_extension;
  gboolean non_linear;
  gdouble quantiser_sum;
  guint slices;
} MpegVideoUnit;

static GstClPictureType
mpeg_picture_type (GstMpegVideoPictureType type)
{
  switch (type) {
    case GST_MPEG_VIDEO_PICTURE_TYPE_I:
    case GST_MPEG_VIDEO_PICTURE_TYPE_D:
      /* MPEG-1's DC-only pictures are coded without prediction. */
      return GST_CL_PICTURE_I;
    case GST_MPEG_VIDEO_PICTURE_TYPE_P:
      return GST_CL_PICTURE_P;
    case GST_MPEG_VIDEO_PICTURE_TYPE_B:
      return GST_CL_PICTURE_B;
    default:
      return GST_CL_PICTURE_UNKNOWN;
  }
}

static void
mpeg_read_sequence_header (MpegVideoUnit * unit,
    const GstMpegVideoPacket * packet)
{
  GstMpegVideoSequenceHdr hdr;

  if (!gst_mpeg_video_packet_parse_sequence_header (packet, &hdr))
    return;
  /* MPEG-1 until a sequence extension follows (ISO 13818-2 6.1.1.6). */
  unit->state->mpeg2 = FALSE;
  unit->state->vertical_size = hdr.height;
  unit->state->data_partitioning = FALSE;
}

static void
mpeg_read_picture_extension (MpegVideoUnit * unit,
    const GstMpegVideoPacket * packet)
{
  GstMpegVideoPictureExt ext;

  if (unit->info->pictures == 0
      || !gst_mpeg_video_packet_parse_picture_extension (packet, &ext))
    return;
  unit->picture_extension = TRUE;
  unit->non_linear = ext.q_scale_type;
  if (unit->info->pictures > 1)
    return;
  if (ext.picture_structure == GST_MPEG_VIDEO_PICTURE_STRUCTURE_TOP_FIELD)
    unit->info->field = GST_CL_FIELD_TOP;
  else if (ext.picture_structure ==
      GST_MPEG_VIDEO_PICTURE_STRUCTURE_BOTTOM_FIELD)
    unit->info->field = GST_CL_FIELD_BOTTOM;
}

static void
mpeg_read_extension (MpegVideoUnit * unit, const GstMpegVideoPacket * packet)
{
  GstMpegVideoSequenceExt seqext;
  GstMpegVideoSequenceScalableExt scalable;
  guint8 id;

  if (packet->size < 1)
    return;
  id = packet->data[packet->offset] >> 4;
  switch (id) {
    case GST_MPEG_VIDEO_PACKET_EXT_SEQUENCE:
      if (!gst_mpeg_video_packet_parse_sequence_extension (packet, &seqext))
        return;
      unit->state->mpeg2 = TRUE;
      unit->state->vertical_size =
          (unit->state->vertical_size & 0xfff) | (seqext.vert_size_ext << 12);
      break;
    case GST_MPEG_VIDEO_PACKET_EXT_SEQUENCE_SCALABLE:
      if (gst_mpeg_video_packet_parse_sequence_scalable_extension (packet,
              &scalable))
        unit->state->data_partitioning = scalable.scalable_mode ==
            GST_MPEG_VIDEO_SEQ_SCALABLE_MODE_DATA_PARTITIONING;
      break;
    case GST_MPEG_VIDEO_PACKET_EXT_PICTURE:
      mpeg_read_picture_extension (unit, packet);
      break;
    default:
      break;
  }
}

static void
mpeg_read_picture_header (MpegVideoUnit * unit,
    const GstMpegVideoPacket * packet)
{
  GstMpegVideoPictureHdr hdr;

  if (!gst_mpeg_video_packet_parse_picture_header (packet, &hdr))
    return;
  unit->info->pictures++;
  unit->picture_extension = FALSE;
  unit->non_linear = FALSE;
  if (unit->info->pictures == 1)
    unit->info->picture_type = mpeg_picture_type (hdr.pic_type);
}

/* quantiser_scale of @code in the current picture's syntax, 0 where it
 * cannot be told: an MPEG-2 picture whose coding extension is missing. */
static guint
mpeg_quantiser_scale (const MpegVideoUnit * unit, guint code)
{
  if (unit->picture_extension)
    return unit->non_linear ? mpeg2_non_linear_quantiser_scale[code & 31]
        : 2 * code;
  if (unit->state->mpeg2)
    return 0;
  return code;
}

static void
mpeg_read_slice_header (MpegVideoUnit * unit, const GstMpegVideoPacket * packet)
{
  GstMpegVideoSequenceHdr sequence = { 0 };
  GstMpegVideoSequenceScalableExt scalable = { 0 };
  GstMpegVideoSliceHdr slice;
  guint scale;

  if (unit->info->pictures == 0)
    return;
  /* What the slice header's syntax depends on: the vertical size (a slice
   * vertical position extension above 2800 lines) and data partitioning
   * (a priority breakpoint). */
  sequence.height = unit->state->vertical_size;
  scalable.scalable_mode = unit->state->data_partitioning ?
      GST_MPEG_VIDEO_SEQ_SCALABLE_MODE_DATA_PARTITIONING :
      GST_MPEG_VIDEO_SEQ_SCALABLE_MODE_SPATIAL;
  if (!gst_mpeg_video_packet_parse_slice_header (packet, &slice, &sequence,
          &scalable))
    return;
  scale = mpeg_quantiser_scale (unit, slice.quantiser_scale_code);
  if (scale == 0)
    return;
  unit->quantiser_sum += scale;
  unit->slices++;
}

static void
mpeg_read_packet (MpegVideoUnit * unit, const GstMpegVideoPacket * packet)
{
  if (packet->type == GST_MPEG_VIDEO_PACKET_SEQUENCE)
    mpeg_read_sequence_header (unit, packet);
  else if (packet->type == GST_MPEG_VIDEO_PACKET_EXTENSION)
    mpeg_read_extension (unit, packet);
  else if (packet->type == GST_MPEG_VIDEO_PACKET_PICTURE)
    mpeg_read_picture_header (unit, packet);
  else if (GST_MPEG_VIDEO_PACKET_IS_SLICE (packet->type))
    mpeg_read_slice_header (unit, packet);
}

gboolean
gst_cl_coding_info_parse_mpeg_video (GstClMpegVideoState * state,
    const guint8 * data, gsize size, GstClCodingInfo * info)
{
  MpegVideoUnit unit = { state, info, FALSE, FALSE, 0.0, 0 };
  GstMpegVideoPacket packet;
  guint offset = 0;

  coding_info_clear (info, GST_CL_CODEC_MPEG12);
  /* Packet sizes are gint in codecparsers. */
  if (data == NULL || size > G_MAXINT)
    return FALSE;
  while (gst_mpeg_video_parse (&packet, data, size, offset)) {
    /* The last packet runs to the end of the unit. */
    if (packet.size < 0)
      packet.size = size - packet.offset;
    mpeg_read_packet (&unit, &packet);
    offset = packet.offset + packet.size;
  }
  if (info->picture_type == GST_CL_PICTURE_UNKNOWN) {
    coding_info_clear (info, GST_CL_CODEC_MPEG12);
    return FALSE;
  }
  if (unit.slices > 0)
    info->quantiser = unit.quantiser_sum / unit.slices;
  return TRUE;
}

/* ---- MPEG-4 Part 2 ---- */

#define MPEG4_VISUAL_OBJECT 0xb5
#define MPEG4_VOP 0xb6
#define MPEG4_VOL_FIRST 0x20
#define MPEG4_VOL_LAST 0x2f

/* ISO 14496-2 6.3.3: video_object_layer_shape, sprite_enable, and the
 * object types whose VOL syntax differs (studio, fine granularity
 * scalable). */
#define MPEG4_SHAPE_RECTANGULAR 0
#define MPEG4_SPRITE_NONE 0
#define MPEG4_EXTENDED_PAR 0xf
#define MPEG4_OBJECT_SIMPLE_STUDIO 14
#define MPEG4_OBJECT_CORE_STUDIO 15
#define MPEG4_OBJECT_FGS 18

void
gst_cl_mpeg4_state_init (GstClMpeg4State * state)
{
  memset (state, 0, sizeof (*state));
  state->visual_object_verid = 1;
}

static gboolean
get_bits (GstBitReader * br, guint n, guint * value)
{
  guint32 v;

  if (!gst_bit_reader_get_bits_uint32 (br, &v, n))
    return FALSE;
  *value = v;
  return TRUE;
}

/* Marker bits are skipped, not checked: encoders that break them are
 * decoded by FFmpeg all the same. */
static gboolean
skip_bits (GstBitReader * br, guint n)
{
  return gst_bit_reader_skip (br, n);
}

/* The bits of vop_time_increment: those of resolution - 1, at least one
 * (ISO 14496-2 6.3.3). */
static guint
mpeg4_time_increment_bits (guint resolution)
{
  return resolution > 1 ? g_bit_storage (resolution - 1) : 1;
}

static gboolean
mpeg4_read_visual_object (GstClMpeg4State * state, GstBitReader * br)
{
  guint identified, verid;

  if (!get_bits (br, 1, &identified))
    return FALSE;
  if (!identified) {
    state->visual_object_verid = 1;
    return TRUE;
  }
  if (!get_bits (br, 4, &verid))
    return FALSE;
  state->visual_object_verid = verid;
  return TRUE;
}

/* From random_accessible_vol to vol_control_parameters' VBV fields. */
static gboolean
mpeg4_read_vol_identity (GstClMpeg4State * state, GstBitReader * br,
    guint * object_type)
{
  guint identified, verid, aspect, control, vbv;

  if (!skip_bits (br, 1) || !get_bits (br, 8, object_type)
      || !get_bits (br, 1, &identified))
    return FALSE;
  state->verid = state->visual_object_verid;
  if (identified) {
    if (!get_bits (br, 4, &verid) || !skip_bits (br, 3))
      return FALSE;
    state->verid = verid;
  }
  if (!get_bits (br, 4, &aspect))
    return FALSE;
  if (aspect == MPEG4_EXTENDED_PAR && !skip_bits (br, 16))
    return FALSE;
  if (!get_bits (br, 1, &control))
    return FALSE;
  if (!control)
    return TRUE;
  /* chroma_format, low_delay; the VBV parameters are 79 bits. */
  if (!skip_bits (br, 3) || !get_bits (br, 1, &vbv))
    return FALSE;
  return !vbv || skip_bits (br, 79);
}

/* From video_object_layer_shape to the frame size. */
static gboolean
mpeg4_read_vol_timing (GstClMpeg4State * state, GstBitReader * br,
    gboolean * rectangular)
{
  guint shape, resolution, fixed_rate;

  if (!get_bits (br, 2, &shape))
    return FALSE;
  *rectangular = shape == MPEG4_SHAPE_RECTANGULAR;
  if (!*rectangular)
    return TRUE;
  if (!skip_bits (br, 1) || !get_bits (br, 16, &resolution)
      || resolution == 0 || !skip_bits (br, 1)
      || !get_bits (br, 1, &fixed_rate))
    return FALSE;
  state->vop_time_increment_bits = mpeg4_time_increment_bits (resolution);
  if (fixed_rate && !skip_bits (br, state->vop_time_increment_bits))
    return FALSE;
  /* marker, width 13, marker, height 13, marker */
  return skip_bits (br, 29);
}

/* A quantiser matrix of the VOL: up to 64 values, ended early by a 0. */
static gboolean
mpeg4_skip_quant_matrix (GstBitReader * br)
{
  guint load, value, i;

  if (!get_bits (br, 1, &load))
    return FALSE;
  for (i = 0; load && i < 64; i++) {
    if (!get_bits (br, 8, &value))
      return FALSE;
    if (value == 0)
      break;
  }
  return TRUE;
}

/* From interlaced to quant_type and its matrices; *supported FALSE for
 * sprites. */
static gboolean
mpeg4_read_vol_picture (GstClMpeg4State * state, GstBitReader * br,
    gboolean * supported)
{
  guint interlaced, sprite, not_8_bit, precision, quant_type;

  if (!get_bits (br, 1, &interlaced) || !skip_bits (br, 1)
      || !get_bits (br, state->verid == 1 ? 1 : 2, &sprite))
    return FALSE;
  state->interlaced = interlaced;
  *supported = sprite == MPEG4_SPRITE_NONE;
  if (!*supported)
    return TRUE;
  if (!get_bits (br, 1, &not_8_bit))
    return FALSE;
  state->quant_precision = 5;
  if (not_8_bit) {
    if (!get_bits (br, 4, &precision) || precision < 3 || precision > 9
        || !skip_bits (br, 4))
      return FALSE;
    state->quant_precision = precision;
  }
  if (!get_bits (br, 1, &quant_type))
    return FALSE;
  return !quant_type || (mpeg4_skip_quant_matrix (br)
      && mpeg4_skip_quant_matrix (br));
}

/* From quarter_sample to scalability; *supported FALSE for complexity
 * estimation and scalability. */
static gboolean
mpeg4_read_vol_tools (GstClMpeg4State * state, GstBitReader * br,
    gboolean * supported)
{
  guint no_estimation, partitioned, newpred = 0, reduced = 0, scalability;

  if (state->verid != 1 && !skip_bits (br, 1))
    return FALSE;
  if (!get_bits (br, 1, &no_estimation))
    return FALSE;
  *supported = no_estimation;
  if (!*supported)
    return TRUE;
  /* resync_marker_disable, data_partitioned, reversible_vlc */
  if (!skip_bits (br, 1) || !get_bits (br, 1, &partitioned)
      || (partitioned && !skip_bits (br, 1)))
    return FALSE;
  if (state->verid != 1) {
    if (!get_bits (br, 1, &newpred) || (newpred && !skip_bits (br, 3))
        || !get_bits (br, 1, &reduced))
      return FALSE;
  }
  state->newpred = newpred;
  state->reduced_resolution = reduced;
  if (!get_bits (br, 1, &scalability))
    return FALSE;
  *supported = !scalability;
  return TRUE;
}

/* Reads a VOL header (after its start code) into @state; FALSE where it is
 * cut short or invalid, which leaves no VOL to parse VOPs with. */
static gboolean
mpeg4_read_vol (GstClMpeg4State * state, GstBitReader * br)
{
  guint object_type;
  gboolean supported = FALSE;

  state->have_vol = FALSE;
  state->supported = FALSE;
  if (!mpeg4_read_vol_identity (state, br, &object_type))
    return FALSE;
  if (object_type == MPEG4_OBJECT_SIMPLE_STUDIO
      || object_type == MPEG4_OBJECT_CORE_STUDIO
      || object_type == MPEG4_OBJECT_FGS)
    goto unsupported;
  if (!mpeg4_read_vol_timing (state, br, &supported))
    return FALSE;
  if (!supported)
    goto unsupported;
  if (!mpeg4_read_vol_picture (state, br, &supported))
    return FALSE;
  if (!supported)
    goto unsupported;
  if (!mpeg4_read_vol_tools (state, br, &supported))
    return FALSE;
  if (!supported)
    goto unsupported;
  state->have_vol = TRUE;
  state->supported = TRUE;
  return TRUE;

unsupported:
  state->have_vol = TRUE;
  return TRUE;
}

static GstClPictureType
mpeg4_picture_type (guint vop_coding_type)
{
  static const GstClPictureType types[4] = { GST_CL_PICTURE_I,
    GST_CL_PICTURE_P, GST_CL_PICTURE_B, GST_CL_PICTURE_S
  };

  return types[vop_coding_type & 3];
}

/* From vop_coding_type to vop_coded. */
static gboolean
mpeg4_read_vop_timing (const GstClMpeg4State * state, GstBitReader * br,
    guint * coding_type, guint * coded)
{
  guint modulo;

  if (!get_bits (br, 2, coding_type))
    return FALSE;
  do {
    if (!get_bits (br, 1, &modulo))
      return FALSE;
  } while (modulo);
  /* marker, vop_time_increment, marker */
  if (!skip_bits (br, state->vop_time_increment_bits + 2))
    return FALSE;
  return get_bits (br, 1, coded);
}

/* From the vop_id of NEWPRED to vop_quant. */
static gboolean
mpeg4_read_vop_quant (const GstClMpeg4State * state, GstBitReader * br,
    GstClPictureType type, guint * quant)
{
  guint id_bits = MIN (state->vop_time_increment_bits + 3, 15);
  guint indication;

  if (state->newpred) {
    if (!skip_bits (br, id_bits) || !get_bits (br, 1, &indication)
        || (indication && !skip_bits (br, id_bits + 1)))
      return FALSE;
  }
  /* vop_rounding_type */
  if (type == GST_CL_PICTURE_P && !skip_bits (br, 1))
    return FALSE;
  /* vop_reduced_resolution */
  if (state->reduced_resolution && (type == GST_CL_PICTURE_P
          || type == GST_CL_PICTURE_I) && !skip_bits (br, 1))
    return FALSE;
  /* intra_dc_vlc_thr; top_field_first, alternate_vertical_scan_flag */
  if (!skip_bits (br, 3) || (state->interlaced && !skip_bits (br, 2)))
    return FALSE;
  return get_bits (br, state->quant_precision, quant);
}

/* Reads a VOP header (after its start code) into @info; FALSE where it is
 * cut short, or an S-VOP (sprites are not supported, so none is valid). */
static gboolean
mpeg4_read_vop (const GstClMpeg4State * state, GstBitReader * br,
    GstClCodingInfo * info)
{
  guint coding_type, coded, quant;
  GstClPictureType type;

  if (!mpeg4_read_vop_timing (state, br, &coding_type, &coded))
    return FALSE;
  type = mpeg4_picture_type (coding_type);
  if (type == GST_CL_PICTURE_S)
    return FALSE;
  info->picture_type = type;
  /* A VOP that is not coded repeats the previous one: no quantiser. */
  if (!coded)
    return TRUE;
  if (mpeg4_read_vop_quant (state, br, type, &quant))
    info->quantiser = quant;
  return TRUE;
}

/* What one buffer gathers while its start codes are read in turn. */
typedef struct
{
  GstClMpeg4State *state;
  GstClCodingInfo *info;
  gboolean vol_read;
} Mpeg4Unit;

/* The first VOP of a buffer says; a packed bitstream (DivX 5) holds a
 * second one, which is only counted. */
static void
mpeg4_read_vop_unit (Mpeg4Unit * unit, GstBitReader * br)
{
  GstClCodingInfo *info = unit->info;

  if (info->pictures > 0) {
    info->pictures++;
    return;
  }
  if (!unit->state->have_vol || !unit->state->supported)
    return;
  if (mpeg4_read_vop (unit->state, br, info))
    info->pictures = 1;
  else
    coding_info_clear (info, GST_CL_CODEC_MPEG4_PART2);
}

static void
mpeg4_read_unit (Mpeg4Unit * unit, guint8 code, const guint8 * payload,
    gsize size)
{
  GstBitReader br;

  gst_bit_reader_init (&br, payload, size);
  if (code == MPEG4_VISUAL_OBJECT)
    mpeg4_read_visual_object (unit->state, &br);
  else if (code >= MPEG4_VOL_FIRST && code <= MPEG4_VOL_LAST)
    unit->vol_read |= mpeg4_read_vol (unit->state, &br);
  else if (code == MPEG4_VOP && unit->info != NULL)
    mpeg4_read_vop_unit (unit, &br);
}

/* The offset of the first start code prefix (00 00 01) at or after @from
 * in @reader's @size bytes, -1 where there is none. */
static gint
next_start_code (GstByteReader * reader, gsize from, gsize size)
{
  if (from + 4 > size)
    return -1;
  return gst_byte_reader_masked_scan_uint32 (reader, 0xffffff00, 0x00000100,
      from, size - from);
}

/* Calls mpeg4_read_unit on each start code of @data with its payload, up
 * to the next start code. */
static void
mpeg4_read_start_codes (Mpeg4Unit * unit, const guint8 * data, gsize size)
{
  GstByteReader reader;
  gint start, next;
  gsize payload;

  if (data == NULL || size > G_MAXINT)
    return;
  gst_byte_reader_init (&reader, data, size);
  for (start = next_start_code (&reader, 0, size); start >= 0; start = next) {
    payload = (gsize) start + 4;
    next = next_start_code (&reader, payload, size);
    mpeg4_read_unit (unit, data[start + 3], data + payload,
        (next >= 0 ? (gsize) next : size) - payload);
  }
}

gboolean
gst_cl_mpeg4_state_parse_config (GstClMpeg4State * state,
    const guint8 * data, gsize size)
{
  Mpeg4Unit unit = { state, NULL, FALSE };

  mpeg4_read_start_codes (&unit, data, size);
  return unit.vol_read;
}

gboolean
gst_cl_coding_info_parse_mpeg4 (GstClMpeg4State * state,
    const guint8 * data, gsize size, GstClCodingInfo * info)
{
  Mpeg4Unit unit = { state, info, FALSE };

  coding_info_clear (info, GST_CL_CODEC_MPEG4_PART2);
  mpeg4_read_start_codes (&unit, data, size);
  return info->picture_type != GST_CL_PICTURE_UNKNOWN;
}

/* ---- H.263 ---- */

/* The picture start code's 22 bits, 0000 0000 0000 0000 1000 00, byte
 * aligned (H.263 5.1.1): the offset of the first in @data, or @size. */
static gsize
h263_find_psc (const guint8 * data, gsize size)
{
  gsize i;

  for (i = 0; i + 3 <= size; i++)
    if (data[i] == 0 && data[i + 1] == 0 && (data[i + 2] & 0xfc) == 0x80)
      return i;
  return size;
}

void
gst_cl_h263_state_init (GstClH263State * state)
{
  memset (state, 0, sizeof (*state));
}

/* The optional part of PLUSPTYPE (H.263 5.1.4), OPPTYPE, where UFEP says
 * it is there: the source format (bits 1-3), then one bit a mode, of
 * which the custom picture clock frequency (bit 4), unrestricted motion
 * vectors (5) and slice structure (10) add fields to the picture header;
 * bits 15-18 are "1000". Keeps in @state the modes later pictures' headers
 * depend on; the source format to @format, whether UUI follows to @umv. */
static gboolean
h263_read_opptype (GstClH263State * state, GstBitReader * br,
    guint * format, gboolean * umv)
{
  guint opp;

  if (!get_bits (br, 18, &opp) || (opp & 0xf) != 0x8)
    return FALSE;
  *format = opp >> 15;
  if (*format == 0 || *format == 7)
    return FALSE;
  *umv = (opp >> 13) & 1;
  state->custom_pcf = (opp >> 14) & 1;
  state->slice_structured = (opp >> 8) & 1;
  state->have_modes = TRUE;
  return TRUE;
}

/* The fields of a PLUSPTYPE picture header up to PQUANT (H.263 5.1.4 to
 * 5.1.19), after PTYPE, for INTRA, INTER and improved PB pictures without
 * reference picture resampling (the others: FALSE). @type gets the
 * picture coding type. */
static gboolean
h263_read_plus (GstClH263State * state, GstBitReader * br, guint * type)
{
  guint ufep, mpp, cpm, par, marker, uui, format = 0;
  gboolean umv = FALSE;

  if (!get_bits (br, 3, &ufep) || ufep > 1 || (ufep == 0 &&
          !state->have_modes) || (ufep == 1 &&
          !h263_read_opptype (state, br, &format, &umv)))
    return FALSE;
  /* MPPTYPE: the coding type (3 bits), reference picture resampling,
   * reduced-resolution update, rounding type, then "001" */
  if (!get_bits (br, 9, &mpp) || (mpp & 7) != 1)
    return FALSE;
  *type = mpp >> 6;
  if (*type > 2 || (mpp >> 5) & 1)
    return FALSE;
  /* CPM and PSBI; CPFMT (pixel aspect ratio code, width, "1", height) and
   * EPAR for a custom source format; CPCFC; ETR; UUI ("1" or "01"); SSS */
  if (!get_bits (br, 1, &cpm) || (cpm && !skip_bits (br, 2)))
    return FALSE;
  if (ufep == 1 && format == 6 && (!get_bits (br, 4, &par) ||
          !skip_bits (br, 9) || !get_bits (br, 1, &marker) || marker != 1 ||
          !skip_bits (br, 9) || (par == 15 && !skip_bits (br, 16))))
    return FALSE;
  if ((ufep == 1 && state->custom_pcf && !skip_bits (br, 8)) ||
      (state->custom_pcf && !skip_bits (br, 2)))
    return FALSE;
  if (ufep == 1 && umv && (!get_bits (br, 1, &uui) || (uui == 0 &&
              (!get_bits (br, 1, &uui) || uui != 1))))
    return FALSE;
  return !state->slice_structured || skip_bits (br, 2);
}

gboolean
gst_cl_coding_info_parse_h263 (GstClH263State * state, const guint8 * data,
    gsize size, GstClCodingInfo * info)
{
  const gsize psc = h263_find_psc (data, size);
  guint options, format, inter, quant;
  GstBitReader br;

  coding_info_clear (info, GST_CL_CODEC_H263);
  if (psc == size)
    return FALSE;
  /* after the PSC's first 16 bits: its last 6, TR (8 bits), then PTYPE:
   * "10", split screen, document camera, freeze release, the source
   * format (3 bits; 1..5 the standard sizes, 7 PLUSPTYPE), and for those
   * five the picture coding type (0 INTRA, 1 INTER), then unrestricted
   * motion vectors, syntax-based arithmetic coding, advanced prediction
   * and PB-frames; then PQUANT (5 bits) */
  gst_bit_reader_init (&br, data + psc + 2, size - psc - 2);
  if (!skip_bits (&br, 6 + 8) || !get_bits (&br, 5, &options) ||
      !get_bits (&br, 3, &format) || (options >> 3) != 2 || format < 1 ||
      format == 6)
    return FALSE;
  if (format == 7 ? !h263_read_plus (state, &br, &inter) :
      !get_bits (&br, 1, &inter) || !skip_bits (&br, 4))
    return FALSE;
  if (!get_bits (&br, 5, &quant) || quant == 0)
    return FALSE;
  info->picture_type = inter ? GST_CL_PICTURE_P : GST_CL_PICTURE_I;
  info->field = GST_CL_FIELD_FRAME;
  info->pictures = 1;
  info->quantiser = quant;
  return TRUE;
}
