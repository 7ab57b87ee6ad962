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

/* Fuzz target of the coded-picture parsers (gst/gstclcodinginfo.c): each
 * input is read as an MPEG-1/2 access unit, as an MPEG-4 Part 2 buffer, as
 * an H.263 picture and as MPEG-4 codec_data, with the parsers' states kept from input to input
 * as along a stream (an input whose first byte is odd starts afresh). The
 * parsers must never read out of the input nor crash, and what they answer
 * must hold together: a type exactly where they say they read one, a
 * quantiser in the standards' range. Built as the clepsilon target is
 * (tests/fuzz/clepsilon_fuzz.c): with libFuzzer by tests/fuzz/build.sh,
 * and with tests/fuzz/driver.c for meson test (fuzz/codinginfo). */

#include <string.h>

#include <glib.h>

#include "gstclcodinginfo-private.h"
#include "gstclcodingh264-private.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

static GstClMpegVideoState mpeg_state;
static GstClMpeg4State mpeg4_state;
static GstClH263State h263_state;
/* H.264 as byte-stream, and in AVC form with 4-byte lengths, whose
 * configuration records are fuzzed too */
static GstClH264State *h264_state, *avc_state;

/* A broken promise: a trap, which libFuzzer catches and keeps the input of
 * (as clepsilon_fuzz.c does). */
static void
check (gboolean promise)
{
  if (!promise)
    __builtin_trap ();
}

static void
check_answer (gboolean read, const GstClCodingInfo * info, gdouble most)
{
  check (read == (info->picture_type != GST_CL_PICTURE_UNKNOWN));
  check (info->quantiser >= 0.0 && info->quantiser <= most);
  check (read || (info->quantiser == 0.0 && info->pictures == 0));
}

int
LLVMFuzzerInitialize (int *argc, char **argv[])
{
  gst_cl_mpeg_video_state_init (&mpeg_state);
  gst_cl_mpeg4_state_init (&mpeg4_state);
  gst_cl_h263_state_init (&h263_state);
  h264_state = gst_cl_h264_state_new (0);
  avc_state = gst_cl_h264_state_new (4);
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  /* An exact copy: a read past the input shows under ASan. */
  guint8 *copy = g_malloc (MAX (size, 1));
  GstClCodingInfo info;
  gboolean read;

  memcpy (copy, data, size);
  if (size > 0 && (data[0] & 1)) {
    gst_cl_mpeg_video_state_init (&mpeg_state);
    gst_cl_mpeg4_state_init (&mpeg4_state);
    gst_cl_h263_state_init (&h263_state);
    gst_cl_h264_state_free (h264_state);
    gst_cl_h264_state_free (avc_state);
    h264_state = gst_cl_h264_state_new (0);
    avc_state = gst_cl_h264_state_new (4);
  }
  /* quantiser_scale: at most 112 (MPEG-2's non-linear scale); vop_quant:
   * quant_precision bits, at most 9. */
  read = gst_cl_coding_info_parse_mpeg_video (&mpeg_state, copy, size, &info);
  check_answer (read, &info, 112.0);
  read = gst_cl_coding_info_parse_mpeg4 (&mpeg4_state, copy, size, &info);
  check_answer (read, &info, 511.0);
  read = gst_cl_coding_info_parse_h263 (&h263_state, copy, size, &info);
  check_answer (read, &info, 31.0);
  check (!read || info.picture_type == GST_CL_PICTURE_I ||
      info.picture_type == GST_CL_PICTURE_P);
  gst_cl_mpeg4_state_parse_config (&mpeg4_state, copy, size);
  /* SliceQPY, within 0..51 */
  read = gst_cl_coding_info_parse_h264 (h264_state, copy, size, &info);
  check_answer (read, &info, 51.0);
  read = gst_cl_coding_info_parse_h264 (avc_state, copy, size, &info);
  check_answer (read, &info, 51.0);
  gst_cl_h264_state_parse_config (avc_state, copy, size);
  g_free (copy);
  return 0;
}
