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

#ifndef __GST_CL_CODING_PROBE_PRIVATE_H__
#define __GST_CL_CODING_PROBE_PRIVATE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Each decoded frame's picture type and quantiser for strength=auto,
 * without a special pipeline: the element watches the video decoders of
 * its pipeline (those there when it starts, and those decodebin or playbin
 * add later, before they take any data; where the element itself starts
 * late, as playbin's video-filter does once decodebin has its pads, the
 * pictures taken before go unread and their frames hold by position) and
 * reads every coded picture
 * each takes (MPEG-1/2 as mpegvideoparse gives it, MPEG-4 Part 2 as
 * mpeg4videoparse gives it, H.263 as h263parse does,
 * gstclcodinginfo-private.h; H.264's access units as h264parse gives
 * them, gstclcodingh264-private.h) in a buffer probe
 * on its sink pad, where it puts a GstClCodingMeta on the picture's buffer;
 * GstVideoDecoder copies that meta to the decoded frame
 * (gstclcodingmeta.c), which the element reads (gstclplan.c). Pictures of
 * other codecs, and decoders of other kinds, are left alone. */
typedef struct _GstClCodingWatch GstClCodingWatch;

/* Starts watching the video decoders of the pipeline (the outermost bin)
 * @element is in; NULL where it is in none. */
GstClCodingWatch *gst_cl_coding_watch_start (GstElement * element);

/* Stops reading and watching, and lets go of @watch (NULL: nothing). */
void gst_cl_coding_watch_stop (GstClCodingWatch * watch);

G_END_DECLS

#endif /* __GST_CL_CODING_PROBE_PRIVATE_H__ */
