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

#ifndef __GST_CL_CUDA_SYNC_PRIVATE_H__
#define __GST_CL_CUDA_SYNC_PRIVATE_H__

#include <gst/gst.h>
#include "gstclcuda-private.h"

G_BEGIN_DECLS

/* GStreamer 1.24 and later leave CUDA memory stream-ordered: a decoder
 * pushes a frame whose writes may still run on the memory's own CUDA stream,
 * and flags the memory GST_CUDA_MEMORY_TRANSFER_NEED_SYNC. The calls that
 * tell that stream (gst_cuda_memory_get_stream, gst_cuda_stream_get_handle)
 * are found at run time in the libgstcuda-1.0 that nvcodec loaded; 1.22's
 * has neither them nor the flag, and its decoders finish before they push. */

/* libgstcuda's flag (1.24's gstcudamemory.h), the same value on 1.26. */
#define GST_CL_CUDA_MEMORY_NEED_SYNC (GST_MEMORY_FLAG_LAST << 2)

/* Makes @stream, of @context, wait on the device for the streams that are
 * still writing @buffer's flagged CUDA memory; the calling thread does not
 * wait. Where that cannot be done (libgstcuda lacks the calls, a CUDA call
 * fails: logged) it waits on the host (gst_cuda_memory_sync). Memory that is
 * not flagged, or not CUDA memory, is left alone. */
void gst_cl_cuda_sync_wait_producers (GstBuffer * buffer, CUcontext context,
    CUstream stream);

/* Says that @buffer's CUDA memory, which the element wrote through a stream
 * that waited for it (gst_cl_cuda_sync_wait_producers()) and then finished,
 * needs no sync: clears the flag that mapping it for CUDA writes set, so
 * that downstream does not wait for a stream that has nothing left of it. */
void gst_cl_cuda_sync_mark_finished (GstBuffer * buffer);

G_END_DECLS

#endif /* __GST_CL_CUDA_SYNC_PRIVATE_H__ */
