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

#ifndef __GST_CL_CUDA_PRIVATE_H__
#define __GST_CL_CUDA_PRIVATE_H__

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

/* CUDA frames into OpenCL on the same GPU, with no trip through host
 * memory. The CUDA driver is loaded at run time (libcuda.so.1): nothing
 * of CUDA is needed to build or load the plugin.
 *
 * Memory that GStreamer 1.22's CUDA elements allocate (cuMemAllocPitch)
 * cannot be exported, so frames are copied on the device into a pool of
 * exportable allocations (cuMemCreate) that OpenCL imported once each
 * (cl_khr_external_memory_opaque_fd), and out again for CUDA output. */

/* The few types of NVIDIA's driver API (cuda.h) that the callers here
 * need, with its ABI (64-bit builds). */
typedef gint CUresult;
typedef gint CUdevice;
typedef gpointer CUcontext;
typedef gpointer CUstream;
typedef guint64 CUdeviceptr;

#define CUDA_SUCCESS 0

typedef enum
{
  CU_MEMORYTYPE_HOST = 1,
  CU_MEMORYTYPE_DEVICE = 2,
} CUmemorytype;

typedef struct
{
  gsize srcXInBytes;
  gsize srcY;
  CUmemorytype srcMemoryType;
  gconstpointer srcHost;
  CUdeviceptr srcDevice;
  gpointer srcArray;
  gsize srcPitch;
  gsize dstXInBytes;
  gsize dstY;
  CUmemorytype dstMemoryType;
  gpointer dstHost;
  CUdeviceptr dstDevice;
  gpointer dstArray;
  gsize dstPitch;
  gsize WidthInBytes;
  gsize Height;
} CUDA_MEMCPY2D;

/* Loads the CUDA driver once for the process, thread-safe, and calls
 * cuInit. Returns TRUE when it can be used; otherwise FALSE, and @reason
 * (may be NULL) points to a static sentence saying why: no library, a
 * missing entry point, or cuInit's error. The reason is logged once (INFO,
 * category clcuda). $GST_CL_CUDA_LIBRARY names another library than
 * libcuda.so.1. */
gboolean gst_cl_cuda_load (const gchar ** reason);

/* The same steps as gst_cl_cuda_load() on the library @name, uncached and
 * without touching the process's loaded driver: for tests. Returns TRUE
 * where it could be used, else FALSE with a new string in @reason (not
 * NULL). */
gboolean gst_cl_cuda_probe_library (const gchar * name, gchar ** reason);

/* An entry point of the loaded driver by its exported name (e.g.
 * "cuMemAllocPitch_v2"), or NULL; only after gst_cl_cuda_load() succeeded.
 * For tools that need calls the library does not wrap. */
gpointer gst_cl_cuda_symbol (const gchar * name);

/* A symbol of GStreamer's CUDA library (libgstcuda-1.0 of 1.22 on, which
 * the plugin does not link; where CUDA memory or a CUDA element is about,
 * its plugin has loaded it), or NULL. */
gpointer gst_cl_gstcuda_symbol (const gchar * name);

/* Fills @error (GST_RESOURCE_ERROR_FAILED) with "CUDA <step> failed:
 * <CUDA_ERROR_NAME> (<code>)" and returns FALSE. */
gboolean gst_cl_cuda_set_error (GError ** error, CUresult status,
    const gchar * step_format, ...) G_GNUC_PRINTF (3, 4);

/* The 16-byte UUID of the device of @context (cuCtxGetDevice,
 * cuDeviceGetUuid) into @uuid. FALSE with @error set on failure. */
gboolean gst_cl_cuda_context_get_uuid (CUcontext context, guint8 uuid[16],
    GError ** error);

/* The CUDA context a device pointer was allocated in
 * (CU_POINTER_ATTRIBUTE_CONTEXT): how to find the CUcontext of a frame of
 * GStreamer's CUDA memory without libgstcuda. NULL with @error set when
 * @ptr is not CUDA device memory. */
CUcontext gst_cl_cuda_pointer_get_context (CUdeviceptr ptr, GError ** error);

/* Whether the OpenCL @device is the GPU whose CUDA UUID is @uuid and can
 * import CUDA's memory: it has cl_khr_device_uuid, cl_khr_external_memory
 * and cl_khr_external_memory_opaque_fd, and its CL_DEVICE_UUID_KHR is
 * @uuid. When not, FALSE and a new sentence in @reason (may be NULL). */
gboolean gst_cl_cuda_device_matches (cl_device_id device,
    const guint8 uuid[16], gchar ** reason);

/* A pool of @n_buffers device allocations of at least @size bytes each,
 * made in CUDA (cuMemCreate, exportable as file descriptors, rounded up to
 * the allocation granularity) and imported once each into the OpenCL
 * @context for @device, which must match the CUDA device
 * (gst_cl_cuda_device_matches()). @cuda_context must outlive the pool.
 * Not thread-safe: one thread uses a pool at a time (its own waiter
 * thread aside: gst_cl_cuda_pool_copy_in_start()). Returns NULL with
 * @error set naming the call that failed. */
typedef struct _GstClCudaPool GstClCudaPool;

GstClCudaPool *gst_cl_cuda_pool_new (CUcontext cuda_context,
    cl_context context, cl_device_id device, guint n_buffers, gsize size,
    GError ** error);

/* Releases the OpenCL buffers and the CUDA allocations. No command may
 * still use a buffer. NULL is ignored. */
void gst_cl_cuda_pool_free (GstClCudaPool * pool);

/* The usable size of each buffer (>= the size asked for). */
gsize gst_cl_cuda_pool_get_size (GstClCudaPool * pool);

/* Buffer @index as an OpenCL buffer, owned by the pool. Kernels may use
 * it only between gst_cl_cuda_pool_acquire() and _release(). */
cl_mem gst_cl_cuda_pool_get_buffer (GstClCudaPool * pool, guint index);

/* The CUDA stream on which the pool's copies in and out run, owned by the
 * pool. */
CUstream gst_cl_cuda_pool_get_stream (GstClCudaPool * pool);

/* Makes @stream wait, on the device, for the work enqueued so far on
 * @producer (cuEventRecord on @producer, cuStreamWaitEvent on @stream),
 * both streams of @context; the calling thread does not wait. FALSE with
 * @error set naming the call that failed. */
gboolean gst_cl_cuda_stream_wait (CUcontext context, CUstream stream,
    CUstream producer, GError ** error);

/* One plane between CUDA memory and a pool buffer: @width_in_bytes by
 * @height rows, at @cuda_ptr with @cuda_pitch bytes a row on the CUDA
 * side, at byte @offset of the pool buffer with @pitch bytes a row. */
typedef struct
{
  CUdeviceptr cuda_ptr;
  gsize cuda_pitch;
  gsize offset;
  gsize pitch;
  gsize width_in_bytes;
  gsize height;
} GstClCudaPlaneCopy;

/* Copies @n_planes planes of CUDA memory into buffer @index on the device
 * (cuMemcpy2DAsync on the pool's stream) and returns when they are there:
 * the CUDA memory may then be reused, and the buffer acquired for OpenCL.
 * The buffer must not be acquired by OpenCL. FALSE with @error set when a
 * plane lies outside the buffer or a call fails. */
gboolean gst_cl_cuda_pool_copy_in (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, GError ** error);

/* gst_cl_cuda_pool_copy_in() that returns once the copies are enqueued:
 * @ready (a new user event of the pool's OpenCL context, to wait on before
 * the buffer is acquired) completes once they are done, or once waiting
 * for them failed (gst_cl_cuda_pool_copied_in() tells which), and @done
 * (@data) is called then,
 * from the pool's waiter thread: the CUDA memory may be reused from there
 * on (where the wait failed, the copy may not be done). The caller owns a
 * reference to @ready. No command may still read or write buffer @index
 * (the frames in flight see to it), and the last copy into it has been
 * told apart by gst_cl_cuda_pool_copied_in(). FALSE with @error
 * set (and @done not called) when a plane lies outside the buffer or a
 * call fails; nothing is left copying then. The pool waits for the copies
 * still running when freed. */
gboolean gst_cl_cuda_pool_copy_in_start (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, GDestroyNotify done,
    gpointer data, cl_event * ready, GError ** error);

/* Whether the last copy into buffer @index that
 * gst_cl_cuda_pool_copy_in_start() enqueued was waited for without error;
 * else FALSE with @error set (what OpenCL read there is not the frame).
 * Only once its @ready has completed. */
gboolean gst_cl_cuda_pool_copied_in (GstClCudaPool * pool, guint index,
    GError ** error);

/* The reverse: buffer @index, which OpenCL wrote and released (its release
 * command complete), into the CUDA planes; returns when they are there. */
gboolean gst_cl_cuda_pool_copy_out (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, GError ** error);

/* gst_cl_cuda_pool_copy_out() that returns once the copies are enqueued;
 * gst_cl_cuda_pool_sync() waits for them (for every copy on the pool's
 * stream), before the planes are read or the buffer is written again. */
gboolean gst_cl_cuda_pool_copy_out_start (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, GError ** error);
gboolean gst_cl_cuda_pool_sync (GstClCudaPool * pool, GError ** error);

/* Enqueues clEnqueueAcquireExternalMemObjectsKHR (or ...Release...) of
 * buffer @index on @queue, after the events of @wait_list; @event (may be
 * NULL) gets the command's event. FALSE with @error set on failure. */
gboolean gst_cl_cuda_pool_acquire (GstClCudaPool * pool, guint index,
    cl_command_queue queue, cl_uint n_wait, const cl_event * wait_list,
    cl_event * event, GError ** error);
gboolean gst_cl_cuda_pool_release (GstClCudaPool * pool, guint index,
    cl_command_queue queue, cl_uint n_wait, const cl_event * wait_list,
    cl_event * event, GError ** error);

G_END_DECLS

#endif /* __GST_CL_CUDA_PRIVATE_H__ */
