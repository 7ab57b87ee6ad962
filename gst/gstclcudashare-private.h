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
 * element upstream that asks for one.
 *
 * GStreamer's CUDA elements (gst_cuda_ensure_element_context) ask
 * downstream for a context, then upstream, then their bin, which keeps
 * the last one posted, of whichever GPU; a decoder of another GPU refuses
 * that one and makes a context of its own. With the streams of two GPUs
 * in one bin, every decoder then has its own, and a GPU turns between
 * them. The element answers its decoder's query instead, with the context
 * of the decoder's GPU ("cuda-device-id"), made at the first query and
 * shared while any element holds it. */
/* Answers @query, a GST_QUERY_CONTEXT for "gst.cuda.context" that reached
 * @element's sink pad, with the process's context of the GPU of the
 * nearest element upstream that has a "cuda-device-id" property: TRUE
 * where it did. FALSE for other queries, where there is no such element,
 * or where CUDA or GStreamer's CUDA library does not load. */
    gboolean gst_cl_cuda_share_answer (GstElement * element, GstQuery * query);

/* A symbol of GStreamer's CUDA library (libgstcuda-1.0, which the plugin
 * does not link; where a CUDA element is upstream its plugin has loaded
 * it), or NULL. */
gpointer gst_cl_gstcuda_symbol (const gchar * name);

G_END_DECLS
#endif /* __GST_CL_CUDA_SHARE_PRIVATE_H__ */
