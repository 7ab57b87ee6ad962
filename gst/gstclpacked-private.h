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

#ifndef __GST_CL_PACKED_PRIVATE_H__
#define __GST_CL_PACKED_PRIVATE_H__

#include "gstclstage-private.h"

G_BEGIN_DECLS

/* One component of a plane that interleaves two, unpacked into a plane of
 * its own before the stages and packed back after them (kernels/packed.cl):
 * packed 4:2:2 luma (YUY2, UYVY), so that every stage (epsilon,
 * convolution, DCT and its estimate) runs on it as on I420's luma, and
 * chroma goes out as it came in; and each chroma component of NV12, NV21
 * and P010 for the DCT stage where it does not read them in place. */
typedef struct _GstClPacked GstClPacked;

/* Builds the program on @context's device (or loads it from the program
 * cache), for samples of @depth bits: 8 (bytes), or 10 (16-bit words,
 * copied whole). NULL with @error set on failure. */
GstClPacked *gst_cl_packed_new (GstClContext * context, guint depth,
    GError ** error);
void gst_cl_packed_free (GstClPacked * self);

/* A region of an interleaved plane and one component alone: @packed its
 * first pair (gst_cl_plane_ref_at()), @luma where the component's samples
 * are alone, from the first; @width x @height samples of the component,
 * each sample @component (0 or 1) of its pair. */
typedef struct
{
  const GstClPlaneRef *packed;
  const GstClPlaneRef *luma;
  gint width;
  gint height;
  gint component;
} GstClPackedRegion;

/* Enqueues the copy of @region's luma from @region->packed to
 * @region->luma, after @after's wait list, its event added to @after's
 * events (as gst_cl_stage_run()'s). FALSE with @error set on failure. */
gboolean gst_cl_packed_unpack (GstClPacked * self,
    const GstClPackedRegion * region, const GstClAfter * after,
    GError ** error);

/* Enqueues the first @span bytes of each of @region's rows into @dst: the
 * component's samples from @region->luma, the others from @region->packed
 * as they are (gst_cl_plane_span() says how far a region's rows reach). As
 * gst_cl_packed_unpack() otherwise. */
gboolean gst_cl_packed_pack (GstClPacked * self,
    const GstClPackedRegion * region, const GstClPlaneRef * dst, gsize span,
    const GstClAfter * after, GError ** error);

G_END_DECLS

#endif /* __GST_CL_PACKED_PRIVATE_H__ */
