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

#ifndef __GST_CL_SHARING_PRIVATE_H__
#define __GST_CL_SHARING_PRIVATE_H__

#include "gstclcontext-private.h"

G_BEGIN_DECLS

/* One OpenCL device per pipeline: elements share their GstClContext through
 * GstContext, as GStreamer's GL and CUDA elements do.
 *
 * The GstContext type is GST_CL_CONTEXT_TYPE. Its structure holds either
 *  - "context" (GstClContext): what the project's elements pass each other;
 *  - or "cl-context" and "cl-device" (G_TYPE_POINTER: a cl_context and one
 *    of its cl_device_id): what an application provides on "need-context",
 *    wrapped (and retained) by the element that takes it. */
#define GST_CL_CONTEXT_TYPE "gst.opencl.context"

/* Finds or makes the context for @element (steps in gstclsharing.c) into
 * @context unless it is already set for a device @device_spec accepts (one
 * set earlier for another device is dropped); under @element's object lock,
 * like every write of @context here. */
gboolean gst_cl_context_ensure_for_element (GstElement * element,
    const gchar * device_spec, GstClContext ** context, GError ** error);

/* For GstElement::set_context: takes the OpenCL context out of @context
 * into @cl_context if that is still NULL and the device fits
 * @device_spec. */
void gst_cl_context_handle_set_context (GstElement * element,
    GstContext * context, const gchar * device_spec,
    GstClContext ** cl_context);

/* Answers a GST_QUERY_CONTEXT for GST_CL_CONTEXT_TYPE with @cl_context;
 * FALSE for other queries or when @cl_context is NULL. */
gboolean gst_cl_context_handle_context_query (GstElement * element,
    GstQuery * query, GstClContext * cl_context);

/* GStreamer's CUDA context ("gst.cuda.context", GstCudaContext of
 * libgstcuda) is passed on as the decoders made it: an element that takes
 * CUDA memory keeps the GstContext it is given and answers queries for it
 * (a later cudadownload or encoder then shares the decoder's). The one
 * context it makes is of the decoder's GPU, for a decoder upstream that
 * has none (gstclcudashare-private.h). */

/* For GstElement::set_context: where @context is a CUDA context, keeps a
 * reference in @cuda_context (replacing one kept before; under @element's
 * object lock) and returns TRUE. */
gboolean gst_cl_cuda_handle_set_context (GstElement * element,
    GstContext * context, GstContext ** cuda_context);

/* A new reference to the CUDA context kept in @cuda_context, or NULL.
 * Where none is kept and @ask: asks the peers upstream, then downstream,
 * for it first (a decoder answers with its own: GstBin does not hand an
 * element a context posted after it went to READY) and keeps it. */
GstContext *gst_cl_cuda_get_context (GstElement * element,
    GstContext ** cuda_context, gboolean ask);

/* The CUDA context of @element's upstream peers, asked now (a decoder
 * answers with its own), kept in @cuda_context as set_context would, and
 * returned as a new reference; NULL where none answers (what is kept then
 * stays). */
GstContext *gst_cl_cuda_query_upstream (GstElement * element,
    GstContext ** cuda_context);

/* Answers a GST_QUERY_CONTEXT for the CUDA context with the one kept in
 * @cuda_context; FALSE for other queries or when none is kept. */
gboolean gst_cl_cuda_handle_context_query (GstElement * element,
    GstQuery * query, GstContext ** cuda_context);

G_END_DECLS

#endif /* __GST_CL_SHARING_PRIVATE_H__ */
