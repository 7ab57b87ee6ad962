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

#ifndef __GST_CL_BUFFER_POOL_PRIVATE_H__
#define __GST_CL_BUFFER_POOL_PRIVATE_H__

#include <gst/video/video.h>
#include "gstclcontext-private.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BUFFER_POOL (gst_cl_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST,
    CL_BUFFER_POOL, GstVideoBufferPool);

/* A video buffer pool whose buffers hold one OpenCL buffer memory of
 * @context (see gst_cl_allocator_new()) with the whole frame, laid out as
 * GstVideoInfo (and the pool's GstVideoAlignment, if set) says, with a
 * GstVideoMeta when the config has GST_BUFFER_POOL_OPTION_VIDEO_META. Whatever
 * allocator a config names, the pool's own is used; @device_resident as for
 * gst_cl_allocator_new(). Returns a new reference. */
GstBufferPool *gst_cl_buffer_pool_new (GstClContext * context,
    gboolean device_resident);

/* Where @pool (a GstClBufferPool) cannot allocate a frame's device memory,
 * it hands out the frame in system memory instead, laid out the same, with
 * the same video meta: for a pool of system-memory caps proposed upstream,
 * whose decoder may not survive a failed allocation (avdec_* of GStreamer
 * 1.22 crashes draining after one). The allocator still keeps the error
 * for the element, whose stream it stops. */
void gst_cl_buffer_pool_set_system_fallback (GstBufferPool * pool);

/* Whether gst_cl_buffer_pool_share_planes() applies: @buffer is a
 * GstClBufferPool buffer of one memory, not shared into yet; @buffer and
 * @source both hold the frame in @info's default layout (no video meta, or
 * one that says the same); @planes (a bit mask) are the tail of that layout
 * (every other plane lies before them), and @source holds that tail in one
 * shareable memory. */
gboolean gst_cl_buffer_pool_can_share_planes (GstBuffer * buffer,
    GstBuffer * source, const GstVideoInfo * info, guint planes);

/* Makes planes @planes of @buffer those of @source, without a copy: the
 * buffer's own memory is cut to the planes before them and a share of
 * @source's memory holding exactly those planes' bytes is appended, so
 * that the buffer read whole is still one frame in @info's default layout.
 * @source is held until @buffer comes back to its pool, which then takes
 * the share off. FALSE, and @buffer untouched, where
 * gst_cl_buffer_pool_can_share_planes() says no or the share fails: the
 * caller then copies those planes. */
gboolean gst_cl_buffer_pool_share_planes (GstBuffer * buffer,
    GstBuffer * source, const GstVideoInfo * info, guint planes);

G_END_DECLS

#endif /* __GST_CL_BUFFER_POOL_PRIVATE_H__ */
