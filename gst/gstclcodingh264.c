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

/* An H.264 access unit's slice types and quantiser
 * (gstclcodingh264-private.h), through codecparsers' H.264 parser, which
 * keeps the parameter sets a slice header is read with. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/codecparsers/gsth264parser.h>

#include "gstclcodingh264-private.h"

struct _GstClH264State
{
  GstH264NalParser *parser;
  guint nal_length_size;        /* 0: byte-stream */
};

GstClH264State *
gst_cl_h264_state_new (guint nal_length_size)
{
  GstClH264State *state = g_new0 (GstClH264State, 1);

  state->parser = gst_h264_nal_parser_new ();
  state->nal_length_size = nal_length_size <= 4 ? nal_length_size : 0;
  return state;
}

void
gst_cl_h264_state_free (GstClH264State * state)
{
  if (state == NULL)
    return;
  gst_h264_nal_parser_free (state->parser);
  g_free (state);
}

/* Keeps @nalu's parameter set where it is one: the parser stores its own
 * copy, and the one parsed here is cleared (gst_h264_parser_parse_nal()
 * leaks a PPS's slice group ids). A hostile PPS may make codecparsers
 * allocate up to 4 GiB for them, as it would in h264parse upstream. */
static void
read_parameter_set (GstClH264State * state, GstH264NalUnit * nalu)
{
  if (nalu->type == GST_H264_NAL_SPS) {
    GstH264SPS sps;

    if (gst_h264_parser_parse_sps (state->parser, nalu, &sps) ==
        GST_H264_PARSER_OK)
      gst_h264_sps_clear (&sps);
  } else if (nalu->type == GST_H264_NAL_PPS) {
    GstH264PPS pps;

    memset (&pps, 0, sizeof (pps));
    if (gst_h264_parser_parse_pps (state->parser, nalu, &pps) ==
        GST_H264_PARSER_OK)
      gst_h264_pps_clear (&pps);
  }
}

gboolean
gst_cl_h264_state_parse_config (GstClH264State * state, const guint8 * data,
    gsize size)
{
  GstH264DecoderConfigRecord *config = NULL;
  guint i;

  if (data == NULL || size == 0 ||
      gst_h264_parser_parse_decoder_config_record (state->parser, data, size,
          &config) != GST_H264_PARSER_OK)
    return FALSE;
  state->nal_length_size = config->length_size_minus_one + 1;
  for (i = 0; i < config->sps->len; i++)
    read_parameter_set (state, &g_array_index (config->sps, GstH264NalUnit, i));
  for (i = 0; i < config->pps->len; i++)
    read_parameter_set (state, &g_array_index (config->pps, GstH264NalUnit, i));
  gst_h264_decoder_config_record_free (config);
  return TRUE;
}

/* The next NAL unit of @data from @offset into @nalu. */
static gboolean
next_nal (GstClH264State * state, const guint8 * data, gsize size,
    guint offset, GstH264NalUnit * nalu)
{
  GstH264ParserResult r;

  if (offset >= size)
    return FALSE;
  if (state->nal_length_size > 0)
    r = gst_h264_parser_identify_nalu_avc (state->parser, data, offset, size,
        state->nal_length_size, nalu);
  else
    r = gst_h264_parser_identify_nalu (state->parser, data, offset, size, nalu);
  /* the last NAL unit of a byte-stream buffer has no start code after it */
  return r == GST_H264_PARSER_OK || (r == GST_H264_PARSER_NO_NAL_END &&
      state->nal_length_size == 0 && nalu->size > 0);
}

gboolean
gst_cl_coding_info_parse_h264 (GstClH264State * state, const guint8 * data,
    gsize size, GstClCodingInfo * info)
{
  GstH264NalUnit nalu;
  guint offset = 0, slices = 0, intra = 0, b = 0;
  gdouble qp_sum = 0;

  memset (info, 0, sizeof (*info));
  info->codec = GST_CL_CODEC_H264;
  memset (&nalu, 0, sizeof (nalu));
  while (size <= G_MAXUINT && next_nal (state, data, size, offset, &nalu)) {
    GstH264SliceHdr slice;

    offset = nalu.offset + nalu.size;
    if (nalu.type != GST_H264_NAL_SLICE && nalu.type != GST_H264_NAL_SLICE_IDR) {
      read_parameter_set (state, &nalu);
      continue;
    }
    if (gst_h264_parser_parse_slice_hdr (state->parser, &nalu, &slice, FALSE,
            FALSE) != GST_H264_PARSER_OK)
      continue;
    if (slices == 0)
      info->field = !slice.field_pic_flag ? GST_CL_FIELD_FRAME :
          slice.bottom_field_flag ? GST_CL_FIELD_BOTTOM : GST_CL_FIELD_TOP;
    intra += GST_H264_IS_I_SLICE (&slice) || GST_H264_IS_SI_SLICE (&slice);
    b += GST_H264_IS_B_SLICE (&slice);
    qp_sum += 26 + slice.pps->pic_init_qp_minus26 + slice.slice_qp_delta;
    slices++;
  }
  if (slices == 0)
    return FALSE;
  info->picture_type = intra == slices ? GST_CL_PICTURE_I : b > 0 ?
      GST_CL_PICTURE_B : GST_CL_PICTURE_P;
  info->pictures = 1;
  /* deeper than 8 bits, QP goes below 0, where a threshold is 0 anyway */
  info->quantiser = CLAMP (qp_sum / slices, 0, 51);
  return TRUE;
}
