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

#ifndef __GST_CL_CUDA_SHARE_PRIVATE_H__
#define __GST_CL_CUDA_SHARE_PRIVATE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* One CUDA context a GPU for the whole process, offered to the CUDA
 * decoder upstream that asks for one.
 *
 * GStreamer's CUDA elements (gst_cuda_ensure_element_context) ask
 * downstream for a context, then upstream, then their bin, which keeps the
 * last one posted, of whichever GPU; a decoder of another GPU refuses that
 * one and makes a context of its own. With the streams of two GPUs in one
 * bin, every decoder then has its own, and a GPU turns between them. The
 * element answers its decoder's query instead, when nothing downstream
 * has: with a context of the decoder's GPU ("cuda-device-id") that a bin
 * above it keeps, else with the process's, made at the first such query
 * and shared while anything holds it.
 *
 * Where the decoder starts before it is linked (decodebin, playbin), the
 * query does not reach the element. An application's own CUDA context is
 * taken when it is set on the pipeline before the start; one given only
 * on "need-context" is not asked for, as the decoder has one by then. */

/* Whether @query is a GST_QUERY_CONTEXT for "gst.cuda.context". */
gboolean gst_cl_cuda_share_asks (GstQuery * query);

/* Answers @query (gst_cl_cuda_share_asks()), which reached @element's sink
 * pad: with the context kept in @cuda_context (under @element's object
 * lock) where it is of the GPU of the asking decoder, else with what the
 * peer of @element's "src" pad answers where that is of the decoder's GPU,
 * else as above. The decoder is the
 * nearest element upstream with a "cuda-device-id" (through the pads named
 * "sink", queues and ghost pads) if that is read-only and 0 or more: a
 * decoder of one GPU; where there is none, the kept context answers
 * whatever its GPU, and no other is made. FALSE where none answers. */
gboolean gst_cl_cuda_share_handle_context_query (GstElement * element,
    GstQuery * query, GstContext ** cuda_context);

G_END_DECLS

#endif /* __GST_CL_CUDA_SHARE_PRIVATE_H__ */
