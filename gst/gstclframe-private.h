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

#ifndef __GST_CL_FRAME_PRIVATE_H__
#define __GST_CL_FRAME_PRIVATE_H__

#include <gst/video/video.h>
#include "gstclcontext-private.h"
#include "gstclcudaexec-private.h"
#include "gstclcudaimport-private.h"

G_BEGIN_DECLS

/* What memory a plane is in, sorted once when its buffer is opened
 * (gst_cl_frame_open()); the plan never asks the buffer again. The first
 * two are host pointers (@host), the others OpenCL buffers (@mem). */
typedef enum
{
  GST_CL_PLANE_MAPPED,          /* host memory mapped for the frame: pageable */
  GST_CL_PLANE_PINNED,          /* pinned host memory: of one of our
                                 * OpenCL memories, or system memory the
                                 * driver holds pinned (host_pinned below);
                                 * DMA, never staged */
  GST_CL_PLANE_WRAPPED,         /* system memory wrapped as a
                                 * CL_MEM_USE_HOST_PTR buffer (host-unified) */
  GST_CL_PLANE_SVM,             /* an OpenCL memory whose host pointer is SVM:
                                 * the CPU reaches it without a map */
  GST_CL_PLANE_HOST_BUFFER,     /* an OpenCL memory in host-visible memory,
                                 * that the CPU maps per use */
  GST_CL_PLANE_DEVICE,          /* an OpenCL buffer in device memory (an
                                 * element's, or a plan's own) */
} GstClPlaneKind;

/* Where one plane's rows are: in an OpenCL buffer (@mem, from @offset) or,
 * when @mem is NULL, in host memory at @host. Rows are @pitch bytes apart.
 * @kind says which memory it is. */
typedef struct
{
  GstClPlaneKind kind;
  cl_mem mem;
  gsize offset;
  guint8 *host;
  gint pitch;
} GstClPlaneRef;

/* A reference to the rows of @mem, a buffer in device memory, from its
 * first byte, @pitch bytes apart. */
GstClPlaneRef gst_cl_plane_ref_device (cl_mem mem, gint pitch);

/* A GstBuffer opened for OpenCL work: one GstClPlaneRef per plane, and
 * what the memories of the buffer say about the frame as a whole. This is
 * the one place where a buffer's memory is looked at: a new kind of input
 * memory is one more branch of gst_cl_frame_open() and one more
 * GstClPlaneKind.
 *  - One OpenCL memory of the context: its buffer, with no map at all, or
 *    on a discrete device its pinned host memory (mapped for good).
 *  - Several pinned OpenCL memories of the context (planes shared by an
 *    element before): their pinned pointers.
 *  - One CUDA memory (GStreamer's memory:CUDAMemory) of the GPU that is the
 *    device, where a GstClCudaImport is given: copied on the device into the
 *    imported buffer of its slot (read), or mapped for a copy back after
 *    the kernels (gst_cl_frame_commit()); the planes are DEVICE planes of
 *    that buffer, which ordering acquires and releases around the frame's
 *    commands (@cuda). CUDA memory of another GPU is mapped as below.
 *  - Else, on a host-unified device, one system memory at an aligned address:
 *    wrapped as a CL_MEM_USE_HOST_PTR buffer, no copy.
 *  - Else: the GstVideoFrame mapped, planes as host pointers (transfers then
 *    use pageable memory); on NVIDIA, an input in one system memory of
 *    gst_cl_context_get_host_pin_min_size() or more seen before is held
 *    pinned by the driver and its planes are PINNED (@host_pinned).
 * Plane layout comes from the buffer's GstVideoMeta, or @info. */
typedef struct
{
  GstClContext *context;
  GstBuffer *buffer;
  GstMapFlags flags;
  GstMapInfo map;               /* while a system memory is wrapped */
  cl_mem wrapped;
  GstVideoFrame frame;          /* while the frame is mapped */
  gboolean frame_mapped;
  GstClPlaneRef planes[GST_VIDEO_MAX_PLANES];
  /* The buffer's one OpenCL memory of the context, or NULL: the memory
   * that carries the pending event of a frame written into it. */
  GstMemory *cl_memory;
  /* Every memory of the buffer is OpenCL memory of the context: commands
   * may still write it, and frames in flight hold it until they read it. */
  gboolean all_cl_memory;
  /* What still writes those memories (their pending events, new
   * references; one a memory at most, the others waited for on open), or
   * the copy of a CUDA frame into @cuda's buffer. */
  cl_event pending[GST_VIDEO_MAX_PLANES];
  guint n_pending;
  /* the failure of what wrote a memory past those (waited for at open),
   * or CL_SUCCESS */
  cl_int pending_failed;
  /* A CUDA frame imported into the buffer of @cuda_slot of @cuda (not
   * owned), or NULL; the bytes copied on the device for it. */
  GstClCudaImport *cuda;
  guint cuda_slot;
  guint64 cuda_bytes;
  gboolean commit_started;      /* its copy back is enqueued */
  gboolean commit_failed;       /* ... or failed to be */
  /* A CUDA frame whose planes the executor's commands take where they are
   * (gst_cl_frame_open_on_cuda(); not owned), or a frame in system
   * memory that they read or write in device memory of theirs
   * (gst_cl_frame_open_host_on_cuda()), or NULL */
  GstClCudaExec *exec;
  /* that frame's host memory, from its first plane's start, and size;
   * whether CUDA holds it pinned (copied by DMA where it is) */
  guint8 *exec_host;
  gsize exec_host_size;
  gboolean exec_host_pinned;
  /* an input in one system memory that the driver holds pinned
   * (gstclhostpin-private.h): its planes PINNED, read by DMA where they
   * are, so that the frame stays open until its commands are done */
  gboolean host_pinned;
} GstClFrame;

/* Opens @buffer as described above, for @flags (GST_MAP_READ or
 * GST_MAP_WRITE). FALSE with @error set if it cannot be mapped or is smaller
 * than @info needs. Pair with gst_cl_frame_close() after the queue is
 * drained. */
gboolean gst_cl_frame_open (GstClFrame * frame, GstClContext * context,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GError ** error);

/* gst_cl_frame_open() that imports a buffer of CUDA memory through @cuda
 * (may be NULL: mapped then) into the buffer of @slot. An input's copy is
 * done when this returns where @wait_copy; else the frame's pending event
 * is the copy, and whether it went well is known once the frame's
 * commands are done (gst_cl_cuda_pool_copied_in()). */
gboolean gst_cl_frame_open_full (GstClFrame * frame, GstClContext * context,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GstClCudaImport * cuda, guint slot, gboolean wait_copy, GError ** error);

/* Opens @buffer, one CUDA memory of @exec's CUDA context, for @exec's
 * commands (gstclcudaexec-private.h): its planes are DEVICE planes where
 * they are, of @exec's stand-in @which (gst_cl_cuda_exec_bind()), mapped
 * for CUDA until closed; the commands come after what the memory's stream
 * still does with it (gst_cl_cuda_sync_wait_producers()). FALSE with
 * @error unset where @buffer is not such memory (open it as usual then),
 * or set where it cannot be mapped. */
gboolean gst_cl_frame_open_on_cuda (GstClFrame * frame,
    GstClContext * context, const GstVideoInfo * info, GstBuffer * buffer,
    GstMapFlags flags, GstClCudaExec * exec, guint which, GError ** error);

/* Opens @buffer, a frame in one memory of system memory (no CUDA memory,
 * nor an OpenCL buffer in device memory), for @exec's commands: its planes
 * are DEVICE planes of the executor's device memory, laid out as in
 * @buffer, which is mapped for @flags until closed. For GST_MAP_READ (an
 * input, stand-in 0) its contents are copied there now (through @slot's
 * pinned memory, gst_cl_cuda_exec_upload_host_frame()); for GST_MAP_WRITE
 * (an output, stand-in 1, gst_cl_cuda_exec_bind_host_frame())
 * gst_cl_frame_download_on_cuda() reads them back into it. FALSE with
 * @error unset where @buffer is not such memory, or the executor's memory
 * cannot be had (open it as usual then; where @context has no OpenCL, set
 * with the CUDA call that failed), or set where it cannot be mapped. */
gboolean gst_cl_frame_open_host_on_cuda (GstClFrame * frame,
    GstClContext * context, const GstVideoInfo * info, GstBuffer * buffer,
    GstMapFlags flags, GstClCudaExec * exec, guint slot, GError ** error);

/* After the frame's last command that writes @frame, opened by
 * gst_cl_frame_open_host_on_cuda(): its read back into its host memory
 * (gst_cl_cuda_exec_download()), which is written once the frame is waited
 * for. TRUE where there is nothing to read back. */
gboolean gst_cl_frame_download_on_cuda (GstClFrame * frame, GError ** error);

/* After every command that writes @frame has completed: an imported CUDA
 * output is copied back into its CUDA memory (nothing to do otherwise).
 * FALSE with @error set when that fails. */
gboolean gst_cl_frame_commit (GstClFrame * frame, GError ** error);

/* The copy back of gst_cl_frame_commit() enqueued, not waited for (the
 * commit then waits); the same conditions. Where it fails, the commit
 * still waits for what was enqueued, and fails too (the frame is not
 * written). */
gboolean gst_cl_frame_commit_start (GstClFrame * frame, GError ** error);

/* Releases what gst_cl_frame_open() took. Call only once every command that
 * uses the frame has completed. */
void gst_cl_frame_close (GstClFrame * frame);

G_END_DECLS

#endif /* __GST_CL_FRAME_PRIVATE_H__ */
