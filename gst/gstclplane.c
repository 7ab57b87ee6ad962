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

/* The geometry of a plane: what gst_cl_plane_describe() reads off GstVideoInfo,
 * the region a crop rectangle leaves, and references moved within a
 * plane. No OpenCL calls here. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclplane-private.h"
#include "gstclerror-private.h"

#define GST_CAT_DEFAULT gst_cl_plane_debug

gsize
gst_cl_plane_row_bytes (const GstVideoInfo * info, guint index)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  gsize row_bytes = 0;
  guint i;

  /* the widest of its components' rows: YUY2's chroma rows cover whole
   * pairs where its luma row stops at the last sample */
  gst_video_format_info_component (info->finfo, index, comp);
  for (i = 0; i < GST_VIDEO_MAX_COMPONENTS && comp[i] >= 0; i++)
    row_bytes = MAX (row_bytes, (gsize) GST_VIDEO_INFO_COMP_WIDTH (info,
            comp[i]) * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[i]));
  return row_bytes;
}

gsize
gst_cl_plane_span (const GstClPlane * plane, gint x, gint width)
{
  const gsize sample = (gsize) plane->xstep * plane->bytes;

  if (x + width >= plane->width)
    return plane->row_bytes - x * sample;
  return width * sample;
}

gboolean
gst_cl_plane_describe (GstClPlane * plane, const GstVideoInfo * info,
    guint index)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, index, comp);
  plane->index = index;
  plane->is_luma = comp[0] == GST_VIDEO_COMP_Y;
  plane->width = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
  plane->height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
  plane->depth = GST_VIDEO_INFO_COMP_DEPTH (info, comp[0]);
  plane->bytes = plane->depth > 8 ? 2 : 1;
  plane->shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, comp[0]);
  plane->wsub = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, comp[0]);
  plane->hsub = GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, comp[0]);
  plane->xstep = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) / plane->bytes;
  /* luma sharing its plane with chroma */
  plane->packed = plane->is_luma && comp[1] >= 0;
  plane->component = GST_VIDEO_FORMAT_INFO_POFFSET (info->finfo, comp[0]);
  /* two chroma components a plane, a sample each (NV12's bytes, P010's
   * words) */
  plane->interleaved = !plane->is_luma && comp[1] >= 0 && comp[2] < 0 &&
      plane->xstep == 2;
  if (plane->interleaved) {
    guint i;

    /* the second of a pair one sample in: not its poffset, which GStreamer
     * 1.22 gives as 1 (a byte) for P010's V */
    for (i = 0; i < 2; i++) {
      plane->chroma_comp[i] = comp[i];
      plane->chroma_offset[i] =
          GST_VIDEO_FORMAT_INFO_POFFSET (info->finfo, comp[i]) > 0 ?
          plane->bytes : 0;
    }
  }

  if ((plane->depth != 8 && plane->depth != 10) || plane->xstep < 1 ||
      plane->xstep > 2 || (plane->packed && plane->bytes != 1) ||
      (gint64) gst_cl_plane_row_bytes (info, index) * plane->height >
      G_MAXINT32 || GST_VIDEO_INFO_PLANE_STRIDE (info, index) <
      (gint64) gst_cl_plane_row_bytes (info, index) || info->size > G_MAXUINT32)
    return FALSE;
  plane->row_bytes = gst_cl_plane_row_bytes (info, index);
  return TRUE;
}

gsize
gst_cl_plane_size (const GstClPlane * plane)
{
  return (gsize) plane->row_bytes * plane->height;
}

guint
gst_cl_plane_threshold (const GstClPlane * plane, guint threshold)
{
  return threshold << (plane->depth - 8);
}

void
gst_cl_plane_regions (const GstClPlane * planes, guint n,
    const GstVideoInfo * info, const GstVideoCropMeta * crop,
    GstClRegion * regions)
{
  guint i, x = 0, y = 0, w = 0, h = 0;

  gst_cl_debug_init ();
  if (crop) {
    x = MIN (crop->x, (guint) GST_VIDEO_INFO_WIDTH (info));
    y = MIN (crop->y, (guint) GST_VIDEO_INFO_HEIGHT (info));
    w = MIN (crop->width, GST_VIDEO_INFO_WIDTH (info) - x);
    h = MIN (crop->height, GST_VIDEO_INFO_HEIGHT (info) - y);
    GST_LOG ("crop meta %u,%u %ux%u: filtering %u,%u %ux%u", crop->x,
        crop->y, crop->width, crop->height, x, y, w, h);
    if (w == 0 || h == 0)
      crop = NULL;
  }
  for (i = 0; i < n; i++) {
    const GstClPlane *plane = &planes[i];
    GstClRegion *r = &regions[i];

    if (!crop) {
      *r = (GstClRegion) {
      0, 0, plane->width, plane->height};
    } else {
      r->x = x >> plane->wsub;
      r->y = y >> plane->hsub;
      r->width = ((x + w - 1) >> plane->wsub) - r->x + 1;
      r->height = ((y + h - 1) >> plane->hsub) - r->y + 1;
    }
  }
}

GstClPlaneRef
gst_cl_plane_device_ref (const GstClPlane * plane, cl_mem mem)
{
  return gst_cl_plane_ref_device (mem, plane->row_bytes);
}

/* @ref moved on by @bytes. */
static GstClPlaneRef
ref_moved (const GstClPlaneRef * ref, gsize bytes)
{
  GstClPlaneRef moved = *ref;

  if (moved.mem)
    moved.offset += bytes;
  else
    moved.host += bytes;
  return moved;
}

GstClPlane
gst_cl_plane_field (const GstClPlane * plane, gint field)
{
  GstClPlane geometry = *plane;

  if (field != GST_CL_FRAME)
    geometry.height = (plane->height - field + 1) / 2;
  return geometry;
}

GstClPlaneRef
gst_cl_plane_ref_field (const GstClPlaneRef * ref, gint field)
{
  GstClPlaneRef view;

  if (field == GST_CL_FRAME)
    return *ref;
  view = ref_moved (ref, (gsize) field * ref->pitch);
  view.pitch = 2 * ref->pitch;
  return view;
}

GstClRegion
gst_cl_region_field (const GstClRegion * region, gint field)
{
  GstClRegion r = *region;

  if (field == GST_CL_FRAME)
    return r;
  /* rows of the field's parity in [y, y + height): from the first at or
   * after y to the last before y + height */
  r.y = (region->y - field + 1) / 2;
  r.height = (region->y + region->height - field + 1) / 2 - r.y;
  return r;
}

GstClPlaneRef
gst_cl_plane_device_field_ref (const GstClPlane * plane, cl_mem mem, gint field)
{
  GstClPlaneRef ref = gst_cl_plane_device_ref (plane, mem);

  if (field == 1)
    ref.offset = (gsize) plane->row_bytes * ((plane->height + 1) / 2);
  return ref;
}

GstClPlaneRef
gst_cl_plane_ref_at (const GstClPlane * plane, const GstClPlaneRef * ref,
    gint x, gint y)
{
  return ref_moved (ref, (gsize) y * ref->pitch + (gsize) x * plane->xstep *
      plane->bytes);
}
