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

#ifndef __CODED_STREAM_H__
#define __CODED_STREAM_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* What the suites of gst/gstclcodinginfo.c and gst/gstclcodingmeta.c
 * share: streams coded at test time by GStreamer's own encoders, the
 * picture types an encoder with a fixed GOP gives, and a bit writer for
 * headers made by hand. */

/* Raw video the encoders take at test time. */
#define CODED_STREAM_RAW_CAPS "video/x-raw,format=I420,width=176," \
    "height=144,framerate=25/1,pixel-aspect-ratio=1/1"

/* The buffers and caps an appsink named "sink" at the end of @description
 * received until EOS, or NULL (and a message logged) where an element is
 * missing or the pipeline fails. */
typedef struct
{
  GPtrArray *buffers;
  GstCaps *caps;
} CodedStream;

CodedStream *coded_stream_new (const gchar * description);
/* The same, with @setup called on the pipeline before it plays. */
CodedStream *coded_stream_new_full (const gchar * description,
    void (*setup) (GstElement * pipeline, gpointer data), gpointer data);
void coded_stream_free (CodedStream * stream);

/* The stream of tests/data/@name (CLEPSILON_TEST_DATA) through @parser. */
CodedStream *coded_stream_from_file (const gchar * name,
    const gchar * parser);

/* TRUE where @encoder codes a frame of CODED_STREAM_RAW_CAPS; prints why
 * not else (gst-libav 1.22.0 gives FFmpeg a time base of 1/GST_SECOND,
 * which its MPEG-1/2 encoders refuse as a frame rate). */
gboolean coded_stream_encoder_works (const gchar * encoder);

/* TRUE where every element factory of the NULL-terminated @names exists;
 * prints which one is missing else. */
gboolean coded_stream_have (const gchar * first, ...) G_GNUC_NULL_TERMINATED;

/* The types ('I', 'P', 'B') of @n frames in display order from FFmpeg's
 * encoders with gop_size @gop, @bframes B frames between references and
 * the default B-frame strategy: an I frame every @gop frames, a P frame
 * every @bframes + 1, the last frame of the stream a P frame where it would
 * be a B frame. @out holds @n + 1 characters. */
void fixed_gop_display_types (guint n, guint gop, guint bframes, gchar * out);

/* For each frame in coded order, its index in display order @display
 * (the order display_to_coded_order() gives). */
void display_to_coded_positions (const gchar * display, guint * positions);

/* The coded order of @display: each reference frame before the B frames
 * that precede it in display order. */
void display_to_coded_order (const gchar * display, gchar * coded);

/* A big-endian bit writer over a buffer of its own. */
typedef struct
{
  guint8 data[1024];
  guint bits;
} BitWriter;

void bit_writer_put (BitWriter * w, guint n, guint32 value);
/* A start code prefix and @code, byte aligned first (zero bits). */
void bit_writer_start_code (BitWriter * w, guint8 code);
/* MPEG-4's next_start_code() stuffing: a 0 bit, then 1 bits to a byte. */
void bit_writer_stuff_mpeg4 (BitWriter * w);
gsize bit_writer_bytes (const BitWriter * w);

G_END_DECLS

#endif /* __CODED_STREAM_H__ */
