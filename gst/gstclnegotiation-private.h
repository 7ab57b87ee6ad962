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

#ifndef __GST_CL_NEGOTIATION_PRIVATE_H__
#define __GST_CL_NEGOTIATION_PRIVATE_H__

#include <gst/video/video.h>
#include "gstclcontext-private.h"
#include "gstclfaults-private.h"

G_BEGIN_DECLS

/* The rules of a filter element's caps and allocation, in the order the
 * GStreamer allocation model applies them (docs/design.md):
 *  1. caps: frames may come and go in system memory or stay on the device
 *     (memory:OpenCLBuffer), whatever the other side takes; and in CUDA
 *     memory (memory:CUDAMemory) only where the device is the GPU of CUDA
 *     (gst_cl_cuda_usable(): the element's start decides, and logs why
 *     not);
 *  2. fixation, the fewest crossings: output stays on the device as
 *     memory:OpenCLBuffer for a peer that names it (the next OpenCL element
 *     reads it with no copy at all); else in CUDA memory for a peer that
 *     names memory:CUDAMemory (a copy on the device), or that takes ANY
 *     caps (fakesink, filesink) when the input is in CUDA memory (nothing
 *     crosses unless it maps the frame); every other element gets system
 *     memory;
 *  3. upstream is offered a pool of OpenCL buffers with the video meta
 *     (frames written there reach the device without a copy); for CUDA
 *     caps no pool (NVIDIA's decoders take only their own kind of pool),
 *     the video meta only;
 *  4. output frames come from a pool of ours too, with a video meta only if
 *     downstream takes one, and untouched planes may be shared with the
 *     input only where downstream reads the meta (the placement then
 *     shares them where that pays: gst_cl_placement_select()); CUDA
 *     output from downstream's CUDA pool, or a CUDA pool of libgstcuda for
 *     the pipeline's CUDA context. */

/* Whether @caps (fixed) carry frames in device-resident OpenCL buffers. */
gboolean gst_cl_caps_in_device_memory (GstCaps * caps);

/* Whether @caps (fixed) carry frames in CUDA memory. */
gboolean gst_cl_caps_in_cuda_memory (GstCaps * caps);

/* Whether @in and @out carry frames in the same kind of memory; TRUE where
 * either is NULL (not negotiated yet). */
gboolean gst_cl_caps_same_memory (GstCaps * in, GstCaps * out);

/* Rule 1: @caps in device memory (where @device: not in a context without
 * OpenCL), then (@cuda) in CUDA memory, then in system memory, intersected
 * with @filter if given. Returns new caps. */
GstCaps *gst_cl_caps_transform (GstCaps * caps, GstCaps * filter,
    gboolean device, gboolean cuda);

/* Rule 2: of @othercaps (taken), the structures in the memory the peer of
 * @srcpad should get for input of @incaps, or @othercaps as they are where
 * none is. */
GstCaps *gst_cl_caps_keep_peer_memory (GstPad * srcpad, GstCaps * incaps,
    GstCaps * othercaps);

/* Rule 3: answers an ALLOCATION query from upstream with our pool and the
 * video meta, and the crop meta where @decide_query (downstream's answer)
 * has it; failures of the pool's frames upstream go to @faults. For CUDA
 * caps, no pool but the @held input frames the element keeps
 * (gstclepsilonheld.c). Where @host_cuda is given (the CUDA context the
 * frames' kernels run in), system memory that CUDA holds pinned
 * (gstclcudahost-private.h). FALSE for caps the element cannot filter. */
gboolean gst_cl_allocation_propose (GstClContext * context,
    GstQuery * decide_query, GstQuery * query, GstClFaults * faults,
    guint held, GstContext * host_cuda);

/* Rule 4: puts our pool for the caps of @query (downstream's answer) first
 * in it, its frames' failures going to @faults; for CUDA caps, downstream's
 * CUDA pool or one for @cuda_context (FALSE where there is neither), with
 * room for the @held frames the element holds (gstclepsilonheld.c); for
 * system memory where @host_cuda is given, a pool of memory that CUDA
 * holds pinned (as gst_cl_allocation_propose()).
 * @share_untouched: whether the planes no stage touches may go out as a
 * share of the input's memory, for input of @sinkcaps. */
gboolean gst_cl_allocation_decide (GstClContext * context,
    GstClFaults * faults, GstQuery * query, GstCaps * sinkcaps,
    GstContext * cuda_context, guint held, gboolean * share_untouched,
    GstContext * host_cuda);

G_END_DECLS

#endif /* __GST_CL_NEGOTIATION_PRIVATE_H__ */
