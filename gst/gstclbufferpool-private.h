/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
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

/* Points planes @planes (a bit mask) of @buffer, a buffer of a
 * GstClBufferPool with a video meta, at the same planes of @source (laid
 * out as its video meta, or @info, says), by appending @source's memory to
 * @buffer: a frame's untouched planes go downstream without a copy. The
 * pool takes the memory off again when @buffer comes back. FALSE (and
 * @buffer untouched) where that does not apply: another pool, no video
 * meta, more than one memory in either buffer, shared already. */
gboolean gst_cl_buffer_pool_share_planes (GstBuffer * buffer,
    GstBuffer * source, const GstVideoInfo * info, guint planes);

G_END_DECLS

#endif /* __GST_CL_BUFFER_POOL_PRIVATE_H__ */
