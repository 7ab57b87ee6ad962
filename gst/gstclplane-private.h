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

#ifndef __GST_CL_PLANE_PRIVATE_H__
#define __GST_CL_PLANE_PRIVATE_H__

#include <gst/video/video.h>
#include "gstclframe-private.h"

G_BEGIN_DECLS

/* One plane of a video format as the kernels see it: its samples, their
 * size and bits, and where it sits against luma. Plain data, described
 * once per format (gst_cl_plane_describe()). */
typedef struct
{
  guint index;                  /* plane of the GstVideoFrame */
  gint width;                   /* samples of one component per row */
  gint height;
  gint xstep;                   /* components interleaved in the plane */
  gint bytes;                   /* per sample: 1, or 2 (10-bit in 16-bit words) */
  guint depth;                  /* bits per sample: 8 or 10 */
  guint shift;                  /* 10-bit value's lowest bit in its word */
  guint wsub, hsub;             /* log2 of the subsampling against luma */
  gint row_bytes;               /* gst_cl_plane_row_bytes(): rows are packed
                                 * on the device */
  gboolean is_luma;
  /* Packed 4:2:2 (YUY2, UYVY): luma every other byte, from byte @component
   * of each pair, chroma between. The stages see the luma alone, unpacked
   * into a plane of its own (gstclpacked-private.h); chroma stays as it is. */
  gboolean packed;
  gint component;
  /* Interleaved chroma (NV12, NV21, P010): two components a pair, from
   * byte @chroma_offset[i] of each; @chroma_comp[i] is each one's
   * GstVideoFormatInfo component (1: U, 2: V). The DCT stage sees each
   * alone: in place in the GPU shape (gst_cl_dct_reads_interleaved()),
   * else unpacked as packed luma is; the other stages work on the plane
   * as it is. */
  gboolean interleaved;
  gint chroma_offset[2];
  guint chroma_comp[2];
} GstClPlane;

/* A rectangle of one plane, in samples of one component: the part a frame
 * filters (all of it, or what lies under the input's crop rectangle). */
typedef struct
{
  gint x, y;
  gint width, height;
} GstClRegion;

/* The bytes of one row of plane @index of @info: the widest of its
 * components' rows, so that where it packs luma with subsampled chroma
 * (YUY2, UYVY) whole pairs of pixels (an odd width ends in a pair whose
 * second luma sample is padding). */
gsize gst_cl_plane_row_bytes (const GstVideoInfo * info, guint index);

/* The bytes of the samples @x .. @x + @width - 1 of a row of @plane, and
 * where they reach its last sample, the rest of the row (the padding of a
 * pair, gst_cl_plane_row_bytes()): what copies of a region move. */
gsize gst_cl_plane_span (const GstClPlane * plane, gint x, gint width);

/* Describes plane @index of @info into @plane; FALSE if it has neither 8
 * nor 10 bits a sample, more than two interleaved components, is too large
 * for the 32-bit offsets the kernels compute with, or if GstVideoInfo's own
 * size math overflowed (a row of 2^31 - 1 bytes gets a negative stride and
 * a size near 2^64). */
gboolean gst_cl_plane_describe (GstClPlane * plane, const GstVideoInfo * info,
    guint index);

/* The bytes of one device buffer of @plane (its rows packed). */
gsize gst_cl_plane_size (const GstClPlane * plane);

/* A threshold of the properties' 8-bit scale on @plane's samples. */
guint gst_cl_plane_threshold (const GstClPlane * plane, guint threshold);

/* The part of each of the @n @planes of @info that a frame filters: all of
 * it or, with @crop, what lies under the crop rectangle (clipped to the
 * frame): for subsampled chroma, every chroma sample that covers one of
 * its luma samples. A rectangle that is empty once clipped is ignored: a
 * malformed meta must not turn the filter off. */
void gst_cl_plane_regions (const GstClPlane * planes, guint n,
    const GstVideoInfo * info, const GstVideoCropMeta * crop,
    GstClRegion * regions);

/* Interlaced frames are filtered field by field: a field is every other
 * row of each plane (4:2:0 chroma too), field 0 the rows 0, 2, 4..., field
 * 1 the rows 1, 3, 5...; which of them is the top field does not matter to
 * filters that see one field at a time. */
#define GST_CL_FRAME -1

/* @plane's geometry as field @field (0 or 1) sees it: its rows, (height -
 * field + 1) / 2 of them; @plane itself for GST_CL_FRAME. */
GstClPlane gst_cl_plane_field (const GstClPlane * plane, gint field);

/* @ref seen as field @field of its plane: from the field's first row, rows
 * twice the pitch apart; @ref itself for GST_CL_FRAME. */
GstClPlaneRef gst_cl_plane_ref_field (const GstClPlaneRef * ref, gint field);

/* The part of field @field that lies in @region of the whole plane: the
 * rows of @region of the field's parity, in the field's rows; height 0
 * where there are none. @region itself for GST_CL_FRAME. */
GstClRegion gst_cl_region_field (const GstClRegion * region, gint field);

/* A packed device buffer of @plane, as a plane reference. */
GstClPlaneRef gst_cl_plane_device_ref (const GstClPlane * plane, cl_mem mem);

/* Field @field of @plane in a device buffer of the whole plane (@mem): the
 * two fields packed one after the other; the whole plane for
 * GST_CL_FRAME. */
GstClPlaneRef gst_cl_plane_device_field_ref (const GstClPlane * plane,
    cl_mem mem, gint field);

/* @ref moved on to the sample at (@x, @y) of @plane. */
GstClPlaneRef gst_cl_plane_ref_at (const GstClPlane * plane,
    const GstClPlaneRef * ref, gint x, gint y);

G_END_DECLS

#endif /* __GST_CL_PLANE_PRIVATE_H__ */
