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

#ifndef __GST_CL_CODING_INFO_PRIVATE_H__
#define __GST_CL_CODING_INFO_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* What a coded picture says about itself: its coding type and its
 * quantiser, read from one access unit of the coded stream as the parsers
 * mpegvideoparse and mpeg4videoparse output it (one picture a buffer).
 * strength=auto wants them because B pictures of rate-controlled MPEG-2
 * want about half the threshold of P pictures, and a predicted picture's
 * threshold follows its quantiser relative to the last intra picture's.
 * Pure functions of bytes and of a small state the caller owns; every input
 * is taken as hostile: reads are bounded by the size given, and what cannot
 * be read, or uses a feature not handled, gives GST_CL_PICTURE_UNKNOWN. */

typedef enum
{
  GST_CL_PICTURE_UNKNOWN = 0,
  GST_CL_PICTURE_I,
  GST_CL_PICTURE_P,
  GST_CL_PICTURE_B,
  /* MPEG-4 Part 2's sprite VOP (global motion compensation). */
  GST_CL_PICTURE_S,
} GstClPictureType;

typedef enum
{
  GST_CL_CODEC_UNKNOWN = 0,
  /* ISO 11172-2 and ISO 13818-2 video. */
  GST_CL_CODEC_MPEG12,
  /* ISO 14496-2 video (DivX, Xvid, FFmpeg's mpeg4). */
  GST_CL_CODEC_MPEG4_PART2,
  /* ITU-T H.263 (3GP phones, video calls; FFmpeg's h263). */
  GST_CL_CODEC_H263,
  /* ITU-T H.264 | ISO 14496-10 (gstclcodingh264-private.h). */
  GST_CL_CODEC_H264,
} GstClCodecFamily;

/* The picture structure of MPEG-2's picture coding extension; MPEG-1 and
 * MPEG-4 Part 2 code frames only (an interlaced VOP is a frame). */
typedef enum
{
  GST_CL_FIELD_FRAME = 0,
  GST_CL_FIELD_TOP,
  GST_CL_FIELD_BOTTOM,
} GstClFieldStructure;

/* One access unit's coding. @picture_type, @field: the first picture's of
 * the unit; @pictures: how many picture headers the unit holds (2 where
 * both fields of a frame came in one buffer); @quantiser: the mean over the
 * unit's slices (MPEG-1/2) of their quantiser_scale, or the VOP's vop_quant
 * (MPEG-4), in the standard's own units: MPEG-1 and MPEG-4 1..31, MPEG-2
 * 2..62 (linear) or 1..112 (non-linear), twice MPEG-1's for the same step;
 * H.264: the mean of its slices' QP (gstclcodingh264-private.h), whose
 * step doubles every 6; 0 where unknown (no slice could be read, a VOP
 * that is not coded). */
typedef struct
{
  GstClCodecFamily codec;
  GstClPictureType picture_type;
  GstClFieldStructure field;
  guint pictures;
  gdouble quantiser;
} GstClCodingInfo;

/* What MPEG-1/2 carries from one access unit to the next: whether the last
 * sequence header was followed by a sequence extension (MPEG-2), and what
 * the slice header's syntax depends on. Zeroed (or
 * gst_cl_mpeg_video_state_init()) before the first unit. */
typedef struct
{
  gboolean mpeg2;
  guint vertical_size;
  gboolean data_partitioning;
} GstClMpegVideoState;

/* What MPEG-4 Part 2 carries from one VOP to the next: the fields of the
 * last video object layer header that the VOP header's syntax depends on.
 * @have_vol is FALSE until a VOL header was read; @supported is FALSE where
 * the VOL uses what the VOP parser does not handle (shapes other than
 * rectangular, sprites, scalability, complexity estimation, studio and
 * fine granularity scalable profiles). */
typedef struct
{
  gboolean have_vol;
  gboolean supported;
  guint8 visual_object_verid;
  guint8 verid;
  guint vop_time_increment_bits;
  gboolean interlaced;
  guint quant_precision;
  gboolean newpred;
  gboolean reduced_resolution;
} GstClMpeg4State;

void gst_cl_mpeg_video_state_init (GstClMpegVideoState * state);

/* Reads one MPEG-1/2 access unit (@data, @size bytes: possibly a sequence
 * header and its extensions, a GOP header, then one picture header or the
 * two of a field pair, their extensions and slices) into @info, and updates
 * @state from the sequence headers it holds. Returns TRUE where a picture
 * header was read; FALSE and @info of type GST_CL_PICTURE_UNKNOWN else. */
gboolean gst_cl_coding_info_parse_mpeg_video (GstClMpegVideoState * state,
    const guint8 * data, gsize size, GstClCodingInfo * info);

void gst_cl_mpeg4_state_init (GstClMpeg4State * state);

/* Reads the visual object and video object layer headers among @data
 * (codec_data of video/mpeg, mpegversion=4 caps, or any buffer) into
 * @state. Returns TRUE where a VOL header was read. */
gboolean gst_cl_mpeg4_state_parse_config (GstClMpeg4State * state,
    const guint8 * data, gsize size);

/* Reads one MPEG-4 Part 2 buffer as mpeg4videoparse outputs it (headers
 * in-band, which update @state, then one VOP) into @info. Returns TRUE
 * where the VOP's coding type was read (with a quantiser of 0 where the VOP
 * is cut short after it); FALSE and @info of type GST_CL_PICTURE_UNKNOWN
 * else (no VOP, no VOL before it, a VOL not supported, a VOP cut short
 * before its type). */
gboolean gst_cl_coding_info_parse_mpeg4 (GstClMpeg4State * state,
    const guint8 * data, gsize size, GstClCodingInfo * info);

/* What an H.263 picture's header depends on from an earlier one: the
 * optional modes of PLUSPTYPE's last OPPTYPE (H.263 5.1.4.2), sent with
 * UFEP "001" and in force until the next. */
typedef struct
{
  gboolean have_modes;          /* an OPPTYPE was read */
  gboolean custom_pcf;          /* ETR in every picture header */
  gboolean slice_structured;    /* SSS in every picture header (Annex K) */
} GstClH263State;

void gst_cl_h263_state_init (GstClH263State * state);

/* Reads one H.263 picture as h263parse outputs it (video/x-h263,
 * variant=itu: one picture a buffer) into @info: the picture layer's PSC,
 * TR and PTYPE; for the source formats of H.263's first version (sub-QCIF
 * to 16CIF) the picture coding type (INTRA or INTER; a PB-frame counts as
 * its P picture), for PLUSPTYPE (the later versions' optional modes) its
 * UFEP, OPPTYPE (kept in @state) and MPPTYPE and the fields they add (an
 * improved PB-frame counts as its P picture); then PQUANT (1..31). Returns
 * TRUE where they were read; FALSE and @info of type
 * GST_CL_PICTURE_UNKNOWN else (no PSC, a forbidden format, PLUSPTYPE with
 * no OPPTYPE read yet, a B, EI or EP picture, reference picture
 * resampling, a picture cut short, PQUANT 0). */
gboolean gst_cl_coding_info_parse_h263 (GstClH263State * state,
    const guint8 * data, gsize size, GstClCodingInfo * info);

const gchar *gst_cl_picture_type_name (GstClPictureType type);

G_END_DECLS

#endif /* __GST_CL_CODING_INFO_PRIVATE_H__ */
