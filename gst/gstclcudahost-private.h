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

#ifndef __GST_CL_CUDA_HOST_PRIVATE_H__
#define __GST_CL_CUDA_HOST_PRIVATE_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "gstclcuda-private.h"

G_BEGIN_DECLS

/* Frames in system memory that CUDA holds pinned (cuMemHostAlloc,
 * portable: pinned for every CUDA context of the process). A decoder that
 * gives system memory copies into it by DMA, and the element's kernels in
 * the decoder's CUDA context (gstclcudaexec-private.h) read it and write
 * it by DMA, with no copy by the CPU. */
#define GST_TYPE_CL_CUDA_HOST_ALLOCATOR (gst_cl_cuda_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstClCudaHostAllocator, gst_cl_cuda_host_allocator,
    GST, CL_CUDA_HOST_ALLOCATOR, GstAllocator);

/* An allocator of such memory in the CUDA context of @cuda_context (a
 * GstContext of a GstCudaContext; a reference is kept, so that the memory
 * can be freed there for as long as it lives), or NULL where that context
 * has no handle. Returns a new reference. */
GstAllocator *gst_cl_cuda_host_allocator_new (GstContext * cuda_context);

/* Whether @mem is memory of such an allocator. */
gboolean gst_cl_is_cuda_host_memory (GstMemory * mem);

/* A video buffer pool of @caps whose memory is such, from @cuda_context,
 * with the video meta where @video_meta; NULL where it cannot be made. */
GstBufferPool *gst_cl_cuda_host_pool_new (GstContext * cuda_context,
    GstCaps * caps, guint size, guint min, guint max, gboolean video_meta);

G_END_DECLS

#endif /* __GST_CL_CUDA_HOST_PRIVATE_H__ */
