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

#ifndef __GST_CL_CUDA_EXEC_PRIVATE_H__
#define __GST_CL_CUDA_EXEC_PRIVATE_H__

#include <gst/gst.h>
#include <CL/cl.h>
#include "gstclcontext-private.h"
#include "gstclcuda-private.h"
#include "gstclprogram-private.h"

G_BEGIN_DECLS
/* The element's OpenCL commands run in a CUDA context instead: NVIDIA's
 * OpenCL runs in a CUDA context of its own, which the GPU gives turns with
 * the decoders' (tests/gpu/cl-cuda-slices); frames in CUDA memory filtered
 * in the decoders' context run beside their work, and the kernels read and
 * write the frames where they are, with no copy. The kernels are the
 * OpenCL programs' own, their PTX loaded as CUDA modules (gstclptx.c);
 * each command of a frame (a launch, a fill, a copy, a read back) comes
 * here where its ordering carries an executor (GstClAfter, GstClStream),
 * and they run in order on one CUDA stream (a frame's download into
 * system memory on a second, after them). OpenCL buffers that a kernel
 * names get a CUDA twin at first use, which their contents are copied to
 * (the DCT stage's histograms, states and threshold): from then on only
 * the twin is used, until gst_cl_cuda_exec_forget(). Streaming thread
 * only. A frame is waited for at its end (gst_cl_cuda_exec_sync()), or
 * left in flight in a slot (gst_cl_cuda_exec_begin(), _mark(),
 * _wait_mark()). */
typedef struct _GstClCudaExec GstClCudaExec;

/* The most frames left in flight on one executor (the slots of
 * gstclinflight-private.h). */
#define GST_CL_CUDA_EXEC_SLOTS 8

/* Whether the element's kernels should run in the frames' CUDA context:
 * yes unless $GST_CL_CUDA_KERNELS=0 (the way back to OpenCL's own queue and
 * the imported pools, for a driver where the executor misbehaves). */
gboolean gst_cl_cuda_exec_wanted (void);

/* Whether frames from CUDA memory may have their kernels run in their
 * CUDA context on @context's device: asked for (above), and NVIDIA's
 * OpenCL (whose program binaries are PTX). Whether they do is known at
 * the first frame (its GPU must be the device's). */
gboolean gst_cl_cuda_exec_may_run (GstClContext * context);

/* An executor in @cuda_context for the programs of @context, whose device
 * must be that context's GPU and NVIDIA's (its program binaries are PTX).
 * NULL with @error set where the driver lacks a call, or the stream cannot
 * be made. */
GstClCudaExec *gst_cl_cuda_exec_new (CUcontext cuda_context,
    GstClContext * context, GError ** error);

/* Waits for what was enqueued, and frees the modules, twins and streams.
 * NULL is ignored. */
void gst_cl_cuda_exec_free (GstClCudaExec * self);

CUcontext gst_cl_cuda_exec_get_context (GstClCudaExec * self);
CUstream gst_cl_cuda_exec_get_stream (GstClCudaExec * self);

/* A stand-in cl_mem for the CUDA memory at @ptr, which commands here take
 * as a buffer: a buffer of a few bytes of the context's
 * (gst_cl_context_create_buffer(): OpenCL's, so that clSetKernelArg takes
 * it, or host memory without OpenCL), which only this executor may be
 * given in a command. @which (0
 * or 1) names the stand-in: an input frame and an output frame at once. */
cl_mem gst_cl_cuda_exec_bind (GstClCudaExec * self, guint which,
    CUdeviceptr ptr);

/* Lets go of the twins: their OpenCL buffers may have been written
 * through OpenCL since (settings applied, states reset) or freed; the next
 * use takes them anew. Waits for what was enqueued first. The modules stay
 * (the kernels they were taken from live as long as the plan, and the
 * executor no longer). */
void gst_cl_cuda_exec_forget (GstClCudaExec * self);

/* Writes the twins' contents back into their OpenCL buffers (waiting for
 * what was enqueued first), and lets go of them: before a frame of the
 * same plan goes through OpenCL (another CUDA context's frame), so that
 * the DCT stage's states go on from where they are. FALSE with @error set
 * where that fails (the twins are let go of all the same). */
gboolean gst_cl_cuda_exec_hand_back (GstClCudaExec * self, GError ** error);

/* Launches @kernel with the arguments of @args over @global work-items in
 * groups of @local (2-D; @global a multiple of @local), as
 * clEnqueueNDRangeKernel would. FALSE with @error set (naming @what) where
 * an argument was not recorded or a call fails. */
gboolean gst_cl_cuda_exec_launch (GstClCudaExec * self, GstClKernel * kernel,
    const GstClArgs * args, const size_t global[2], const size_t local[2],
    const gchar * what, GError ** error);

/* clEnqueueFillBuffer of @mem: @size bytes from @offset with @pattern of
 * 1 or 4 bytes; @what names it (NULL: "fill"). */
gboolean gst_cl_cuda_exec_fill (GstClCudaExec * self, cl_mem mem,
    const void *pattern, gsize pattern_size, gsize offset, gsize size,
    const gchar * what, GError ** error);

/* @height rows of @row_bytes from @src (at @src_offset, @src_pitch bytes a
 * row) to @dst. */
gboolean gst_cl_cuda_exec_copy (GstClCudaExec * self, cl_mem src,
    gsize src_offset, gsize src_pitch, cl_mem dst, gsize dst_offset,
    gsize dst_pitch, gsize row_bytes, gsize height, GError ** error);

/* A read back's completion (gst_cl_cuda_exec_read()): pending until the
 * wait that ends its frame, then done, or failed where a command failed.
 * No OpenCL object: the executor's frames need no OpenCL context. */
typedef struct _GstClCudaRead GstClCudaRead;

typedef enum
{
  GST_CL_CUDA_READ_PENDING,
  GST_CL_CUDA_READ_DONE,
  GST_CL_CUDA_READ_FAILED,
} GstClCudaReadStatus;

GstClCudaReadStatus gst_cl_cuda_read_status (GstClCudaRead * read);

/* Lets go of the caller's @read: one still pending is then not written
 * (its host memory may go). On the thread that waits for the frames. */
void gst_cl_cuda_read_unref (GstClCudaRead * read);

/* A read back of @size bytes of @mem from @offset into @host (any host
 * memory): written when gst_cl_cuda_exec_sync() returns, and @done (new,
 * the caller's) says so then. */
gboolean gst_cl_cuda_exec_read (GstClCudaExec * self, cl_mem mem,
    gsize offset, gsize size, gpointer host, GstClCudaRead ** done,
    GError ** error);

/* Waits on the host for everything enqueued, then completes the reads
 * back. FALSE with @error set where a command failed (the reads back are
 * then completed as failed). With @device_ms (the frame's end; NULL for a
 * wait within a frame), adds the current frame's GPU time to it (below). */
gboolean gst_cl_cuda_exec_sync (GstClCudaExec * self, gdouble * device_ms,
    GError ** error);

/* Frames left in flight: the commands that follow are of the frame of
 * @slot (< GST_CL_CUDA_EXEC_SLOTS: its reads back go to the slot's own
 * pinned memory); _mark() records where its commands end, and
 * _wait_mark() waits for them and completes the slot's reads back (FALSE
 * with @error set where a command failed or nothing was marked). The
 * reads back complete only so (or at gst_cl_cuda_exec_sync()).
 * _begin() also records the frame's start on the stream, so that
 * _wait_mark() adds to @device_ms (where not NULL) the frame's span on
 * the GPU: its kernels, fills, copies and reads back, and any time between
 * them, the stream waiting for the host or the GPU running other
 * processes' contexts (where OpenCL's profiling gives the kernels' time
 * alone). The upload of an input from system memory, enqueued when the
 * frame is opened, before its settings are applied, is not in it. */
void gst_cl_cuda_exec_begin (GstClCudaExec * self, guint slot);
gboolean gst_cl_cuda_exec_mark (GstClCudaExec * self, GError ** error);
gboolean gst_cl_cuda_exec_wait_mark (GstClCudaExec * self, guint slot,
    gdouble * device_ms, GError ** error);

/* With GST_CL_CUDA_COMMAND_TIMES=1 in the environment when the executor
 * is made, each command of a frame (a kernel by the name its caller gives,
 * "fill", "copy", "read back", "download") has its time on the GPU taken
 * at the frame's wait, from the end of the command before (or the frame's
 * start) to its own end: the frame's span (device-ms) split by command,
 * waits before a command included. Each command's count and mean are
 * said at GST_DEBUG=clcuda:4 when the executor is freed, with how long
 * after the frame's begin the host had enqueued it (when the call that
 * enqueued it returned), on average; this gives @what's total in ms and,
 * in @times and @enqueued_ms (each if not NULL), how many there were and
 * the total of their times enqueued. */
gdouble gst_cl_cuda_exec_get_command_ms (GstClCudaExec * self,
    const gchar * what, guint * times, gdouble * enqueued_ms);

/* Frames into system memory: a stand-in (@which, as gst_cl_cuda_exec_bind())
 * for @size bytes of device memory, which the frame's commands write;
 * gst_cl_cuda_exec_download() then reads it back into the frame's host
 * memory, through pinned memory of @slot's unless @pinned (the frame's
 * memory is pinned for CUDA, gstclcudahost-private.h). Made at the first
 * such frame (or a larger one), which must come after the slot's last
 * frame was waited for. NULL with @error set where the memory cannot be
 * had. */
cl_mem gst_cl_cuda_exec_bind_host_frame (GstClCudaExec * self, guint which,
    guint slot, gsize size, gboolean pinned, GError ** error);

/* The read back of the current frame's slot's memory (of
 * gst_cl_cuda_exec_bind_host_frame()) into @size bytes at @host, written
 * when the frame is waited for (_wait_mark(), _sync()): by DMA where @host
 * is pinned for CUDA (gstclcudahost-private.h), else through the slot's
 * pinned memory, so that nothing waits now. */
gboolean gst_cl_cuda_exec_download (GstClCudaExec * self, gpointer host,
    gsize size, gboolean pinned, GError ** error);

/* Frames from system memory: a stand-in (@which, as gst_cl_cuda_exec_bind())
 * for a copy in device memory of @size bytes at @host, which the frame's
 * commands read, copied to the device on the stream before the commands
 * that follow: by DMA from @host where it is pinned for CUDA
 * (gstclcudahost-private.h; the caller keeps it unchanged until the frame
 * is waited for), else copied now into pinned memory of @slot's first (the
 * slot's last frame must have been waited for). NULL with @error set where
 * the memory cannot be had or the copy be enqueued. */
cl_mem gst_cl_cuda_exec_upload_host_frame (GstClCudaExec * self,
    guint which, guint slot, gconstpointer host, gsize size,
    gboolean pinned, GError ** error);

G_END_DECLS
#endif /* __GST_CL_CUDA_EXEC_PRIVATE_H__ */
