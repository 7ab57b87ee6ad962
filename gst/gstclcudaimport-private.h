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

#ifndef __GST_CL_CUDA_IMPORT_PRIVATE_H__
#define __GST_CL_CUDA_IMPORT_PRIVATE_H__

#include <gst/video/video.h>
#include "gstclcontext-private.h"
#include "gstclcuda-private.h"

G_BEGIN_DECLS

/* GStreamer's CUDA memory (GStreamer 1.22's libgstcuda, which the plugin
 * never links: its names and values are repeated here) as frames of the
 * element: whether the element's device can take it, and the frames of one
 * format copied on the device into, or out of, a pool of OpenCL-imported
 * CUDA buffers (gstclcuda.c), one buffer a slot of frames in flight. */

/* The caps feature, the GstContext type and GST_MAP_CUDA of libgstcuda. */
#define GST_CL_CAPS_FEATURE_MEMORY_CUDA "memory:CUDAMemory"
#define GST_CL_CUDA_CONTEXT_TYPE "gst.cuda.context"
#define GST_CL_MAP_CUDA (GST_MAP_FLAG_LAST << 1)

/* Whether @mem is GStreamer's CUDA memory (its allocator's memory type). */
gboolean gst_cl_is_cuda_memory (GstMemory * mem);

/* Whether frames in CUDA memory can reach the device of @context with no
 * trip through host memory: the CUDA driver loads, and one CUDA device is
 * that OpenCL device (same UUID) and can be imported from
 * (gst_cl_cuda_device_matches()). When not, FALSE and a new sentence in
 * @reason: no CUDA, another device, an extension missing. */
gboolean gst_cl_cuda_usable (GstClContext * context, gchar ** reason);

/* gst_cl_cuda_usable() for @element on @context's device, said in one log
 * line (INFO, category clcudaimport) either way. */
gboolean gst_cl_cuda_offer (GstElement * element, GstClContext * context);

/* Where a decoder upstream has a CUDA context (asked of @element's
 * upstream peers at each call and kept in @cuda_context:
 * gst_cl_cuda_query_upstream()), the OpenCL device of that context's GPU
 * as a "device" string of its index, if @device_spec could choose it
 * ("auto", or a text that names it): frames then stay on the GPU that
 * decodes them. NULL otherwise, and where CUDA does not load. Free with
 * g_free(). */
gchar *gst_cl_cuda_follow_upstream (GstElement * element,
    const gchar * device_spec, GstContext ** cuda_context);

/* The ordinal of the CUDA device of the GstCudaContext in @cuda_context:
 * the structure's "cuda-device-id", else the object's property of that
 * name; FALSE where neither is there. */
gboolean gst_cl_cuda_context_ordinal (GstContext * cuda_context,
    guint * ordinal);

/* The CUcontext of the GstCudaContext in @cuda_context
 * (gst_cuda_context_get_handle() of libgstcuda), or NULL. It lives as long
 * as that GstCudaContext. */
CUcontext gst_cl_cuda_context_handle (GstContext * cuda_context);

/* A GstCudaBufferPool of libgstcuda for the GstCudaContext that
 * @cuda_context (of GST_CL_CUDA_CONTEXT_TYPE) holds, or NULL where either
 * is missing. */
GstBufferPool *gst_cl_cuda_buffer_pool_new (GstContext * cuda_context);

/* The frames of one format in CUDA memory, as OpenCL buffers of @context:
 * a pool of @n_slots buffers of the size of @info's frames, made at the
 * first frame in the CUDA context of that frame. Streaming thread only. */
typedef struct _GstClCudaImport GstClCudaImport;

GstClCudaImport *gst_cl_cuda_import_new (GstClContext * context,
    const GstVideoInfo * info, guint n_slots);

/* Frees the pool; no command may still use its buffers. NULL ignored. */
void gst_cl_cuda_import_free (GstClCudaImport * self);

/* What gst_cl_cuda_import_open() did with a frame. */
typedef enum
{
  GST_CL_CUDA_IMPORT_FAILED,    /* @error is set */
  GST_CL_CUDA_IMPORT_DONE,      /* the frame is in the buffer of @slot */
  GST_CL_CUDA_IMPORT_NOT,       /* a frame of another GPU: map it instead */
} GstClCudaImportResult;

/* Opens @buffer (CUDA memory of @info) for slot @slot: for GST_MAP_READ its
 * planes are copied into the slot's buffer, after the writes its
 * producer's stream may still make (gst_cl_cuda_sync_wait_producers()).
 * With @ready NULL the copy is done when this returns (the CUDA memory may
 * then be reused); else it is enqueued, and @ready (a new user event, the
 * caller's reference) completes once it is done or its wait failed
 * (gst_cl_cuda_pool_copy_in_start(): gst_cl_cuda_pool_copied_in() tells
 * which, once the commands that wait for it are done); the buffer is held
 * until then. For GST_MAP_WRITE @buffer is mapped in @vframe (GST_MAP_WRITE
 * | GST_CL_MAP_CUDA) until gst_cl_cuda_import_commit(). The slot's buffer
 * is @mem, in @info's layout; @bytes gets the bytes copied. The first
 * frame makes the pool, or finds that its GPU is not the element's:
 * GST_CL_CUDA_IMPORT_NOT, then and for every later frame, said once in the
 * log. */
GstClCudaImportResult gst_cl_cuda_import_open (GstClCudaImport * self,
    GstBuffer * buffer, GstMapFlags flags, guint slot, GstVideoFrame * vframe,
    cl_mem * mem, cl_event * ready, guint64 * bytes, GError ** error);

/* Copies the slot's buffer, which OpenCL wrote and released (the release
 * complete), into the CUDA frame mapped in @vframe by
 * gst_cl_cuda_import_open(); returns when it is there, the memory no
 * longer flagged as needing a sync (gst_cl_cuda_sync_mark_finished()). */
gboolean gst_cl_cuda_import_commit (GstClCudaImport * self, guint slot,
    GstVideoFrame * vframe, guint64 * bytes, GError ** error);

/* gst_cl_cuda_import_commit() in two: the copies enqueued (the copy back
 * of a frame held in flight starts as soon as its commands are done), and
 * waited for (before the frame goes downstream). The pool's stream runs
 * them in order: a wait takes every copy started before it. */
gboolean gst_cl_cuda_import_commit_start (GstClCudaImport * self, guint slot,
    GstVideoFrame * vframe, guint64 * bytes, GError ** error);
gboolean gst_cl_cuda_import_commit_finish (GstClCudaImport * self,
    GstVideoFrame * vframe, GError ** error);

/* The pool of imported buffers (acquired and released for OpenCL around a
 * frame's commands by ordering, gst_cl_cuda_pool_acquire()), or NULL
 * before the first frame. */
GstClCudaPool *gst_cl_cuda_import_get_pool (GstClCudaImport * self);

G_END_DECLS

#endif /* __GST_CL_CUDA_IMPORT_PRIVATE_H__ */
