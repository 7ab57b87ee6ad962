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

#ifndef __GST_CL_CODING_H264_PRIVATE_H__
#define __GST_CL_CODING_H264_PRIVATE_H__

#include "gstclcodinginfo-private.h"

G_BEGIN_DECLS

/* What an H.264 access unit says about itself (gstclcodinginfo-private.h's
 * GstClCodingInfo, codec GST_CL_CODEC_H264): its slices' type and their
 * quantiser, read with codecparsers' H.264 parser from an access unit as
 * h264parse outputs it for a decoder (alignment=au, in byte-stream or AVC
 * form). Every input is taken as hostile: what cannot be read gives
 * GST_CL_PICTURE_UNKNOWN. */

/* What H.264 carries from one access unit to the next: the parameter sets
 * (which a slice header needs to be read) and, in AVC form, the size of
 * each NAL unit's length field. */
typedef struct _GstClH264State GstClH264State;

/* A state for a byte-stream (@nal_length_size 0) or for AVC form, whose
 * parameter sets come with gst_cl_h264_state_parse_config(). */
GstClH264State *gst_cl_h264_state_new (guint nal_length_size);

void gst_cl_h264_state_free (GstClH264State * state);

/* Reads an AVCDecoderConfigurationRecord (codec_data of video/x-h264,
 * stream-format=avc or avc3 caps): the length field's size and the
 * parameter sets. Returns TRUE where it was read. */
gboolean gst_cl_h264_state_parse_config (GstClH264State * state,
    const guint8 * data, gsize size);

/* Reads one access unit (@data, @size bytes) into @info, and keeps the
 * parameter sets it holds: @picture_type I where every slice is I or SI, B
 * where one is B, P else (P and SP); @quantiser the mean of the slices'
 * SliceQPY (26 + pic_init_qp_minus26 + slice_qp_delta) within 0..51
 * (deeper than 8 bits it goes below 0: 0 there); @field from
 * the first slice; @pictures 1. Returns TRUE where a slice header was
 * read; FALSE and @info of type GST_CL_PICTURE_UNKNOWN else (no slice, a
 * slice whose parameter sets were not seen, a header cut short). */
gboolean gst_cl_coding_info_parse_h264 (GstClH264State * state,
    const guint8 * data, gsize size, GstClCodingInfo * info);

G_END_DECLS

#endif /* __GST_CL_CODING_H264_PRIVATE_H__ */
