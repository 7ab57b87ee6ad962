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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/* clCreateBufferWithProperties is OpenCL 3.0: this file alone asks for it
 * (the ICD loader has it; only devices that import memory see the call). */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300

#include "gstcldebug-private.h"
#include "gstclcuda-private.h"
#include "gstclcudaapi-private.h"
#include "gstclerror-private.h"
#include "gstclwaits-private.h"

#include <CL/cl_ext.h>
#include <gmodule.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define GST_CAT_DEFAULT gst_cl_cuda_debug

/* Older headers name the list CL_DEVICE_HANDLE_LIST_KHR. */
#ifndef CL_MEM_DEVICE_HANDLE_LIST_KHR
#define CL_MEM_DEVICE_HANDLE_LIST_KHR 0x2051
#define CL_MEM_DEVICE_HANDLE_LIST_END_KHR 0
#endif

#define DECLARE_CALL(field, symbol, params) CUresult (*field) params;
typedef struct
{
CUDA_CALLS (DECLARE_CALL)} CudaCalls;

#define CALL_ENTRY(field, symbol, params) \
  { symbol, G_STRUCT_OFFSET (CudaCalls, field) },
static const struct
{
  const gchar *symbol;
  glong offset;
} entries[] = {
  CUDA_CALLS (CALL_ENTRY)
};

/* Set once by gst_cl_cuda_load(), read-only afterwards. */
static CudaCalls cu;
static GModule *cuda_module;

typedef struct
{
  cl_mem mem;
  CUmemGenericAllocationHandle handle;
  CUdeviceptr ptr;
  gboolean created, reserved, mapped;
  gint copy_in_status;          /* CUresult of the wait for the last copy
                                 * in, set by the waiter thread */
} PoolBuffer;

struct _GstClCudaPool
{
  CUcontext cuda_context;
  cl_context context;
  cl_device_id device;
  CUstream stream;
  gsize size;
  gsize granularity;
  clEnqueueAcquireExternalMemObjectsKHR_fn acquire;
  clEnqueueReleaseExternalMemObjectsKHR_fn release;
  /* one thread that waits for the copies in (finish_copy_in()) */
  GThreadPool *waiter;
  guint n_buffers;
  PoolBuffer buffers[];
};

/* Opens @name, fills @calls, calls cuInit; else FALSE and a new @reason. */
static gboolean
open_driver (const gchar * name, CudaCalls * calls, GModule ** module,
    gchar ** reason)
{
  const gchar *error_name = NULL;
  CUresult status;
  guint i;

  *module = g_module_open (name, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (!*module) {
    *reason = g_strdup_printf ("the CUDA driver %s could not be loaded: %s",
        name, g_module_error ());
    return FALSE;
  }
  for (i = 0; i < G_N_ELEMENTS (entries); i++) {
    gpointer *slot = G_STRUCT_MEMBER_P (calls, entries[i].offset);

    if (!g_module_symbol (*module, entries[i].symbol, slot) || !*slot) {
      *reason = g_strdup_printf ("the CUDA driver %s lacks %s (too old?)",
          name, entries[i].symbol);
      goto failed;
    }
  }
  status = calls->Init (0);
  if (status != CUDA_SUCCESS) {
    calls->GetErrorName (status, &error_name);  /* NULL if unknown */
    *reason = g_strdup_printf ("cuInit failed: %s (%d)",
        error_name ? error_name : "unknown CUDA error", status);
    goto failed;
  }
  return TRUE;

failed:
  g_module_close (*module);
  *module = NULL;
  return FALSE;
}

gboolean
gst_cl_cuda_probe_library (const gchar * name, gchar ** reason)
{
  CudaCalls calls = { 0, };
  GModule *module;

  if (!open_driver (name, &calls, &module, reason))
    return FALSE;
  g_module_close (module);
  return TRUE;
}

gboolean
gst_cl_cuda_load (const gchar ** reason)
{
  static gsize done = 0;
  static gchar *why = NULL;

  if (g_once_init_enter (&done)) {
    const gchar *name = g_getenv ("GST_CL_CUDA_LIBRARY");
    CudaCalls calls = { 0, };

    gst_cl_debug_init ();
    if (!name || !*name)
      name = "libcuda.so.1";
    /* cu is filled from a whole good table alone: a failed one is closed */
    if (open_driver (name, &calls, &cuda_module, &why)) {
      cu = calls;
      GST_INFO ("CUDA driver %s loaded", name);
    } else {
      GST_INFO ("no CUDA: %s", why);
    }
    g_once_init_leave (&done, 1);
  }
  if (reason)
    *reason = why;
  return cuda_module != NULL;
}

gpointer
gst_cl_gstcuda_symbol (const gchar * name)
{
  static GModule *module;
  static gsize loaded;
  gpointer symbol = NULL;

  if (g_once_init_enter (&loaded)) {
    /* a CUDA element's plugin has loaded it already: this finds that copy,
     * and keeps it open */
    module = g_module_open ("libgstcuda-1.0.so.0", G_MODULE_BIND_LAZY);
    g_once_init_leave (&loaded, 1);
  }
  if (!module || !g_module_symbol (module, name, &symbol))
    return NULL;
  return symbol;
}

gpointer
gst_cl_cuda_symbol (const gchar * name)
{
  gpointer symbol = NULL;

  if (gst_cl_cuda_load (NULL))
    g_module_symbol (cuda_module, name, &symbol);
  return symbol;
}

gboolean
gst_cl_cuda_set_error (GError ** error, CUresult status,
    const gchar * step_format, ...)
{
  const gchar *name = NULL;
  gchar *step;
  va_list args;

  if (!cu.GetErrorName || cu.GetErrorName (status, &name) != CUDA_SUCCESS)
    name = NULL;
  va_start (args, step_format);
  step = g_strdup_vprintf (step_format, args);
  va_end (args);
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "CUDA %s failed: %s (%d)", step, name ? name : "unknown CUDA error",
      status);
  g_free (step);
  return FALSE;
}

/* Fails with a plain message where the driver is missing. */
static gboolean
require_driver (GError ** error)
{
  const gchar *reason;

  if (gst_cl_cuda_load (&reason))
    return TRUE;
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
      "CUDA is not available: %s", reason);
  return FALSE;
}

static gboolean
push_context (CUcontext context, GError ** error)
{
  CUresult status = cu.CtxPushCurrent (context);

  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "cuCtxPushCurrent");
  return TRUE;
}

gboolean
gst_cl_cuda_context_get_uuid (CUcontext context, guint8 uuid[16],
    GError ** error)
{
  CUdevice device;
  CUresult status;

  if (!require_driver (error) || !push_context (context, error))
    return FALSE;
  status = cu.CtxGetDevice (&device);
  cu.CtxPopCurrent (NULL);
  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "cuCtxGetDevice");
  status = cu.DeviceGetUuid (uuid, device);
  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "cuDeviceGetUuid");
  return TRUE;
}

CUcontext
gst_cl_cuda_pointer_get_context (CUdeviceptr ptr, GError ** error)
{
  CUcontext context = NULL;
  CUresult status;

  if (!require_driver (error))
    return NULL;
  status = cu.PointerGetAttribute (&context, CU_POINTER_ATTRIBUTE_CONTEXT, ptr);
  if (status == CUDA_SUCCESS && !context)
    status = CUDA_ERROR_INVALID_VALUE;
  if (status != CUDA_SUCCESS) {
    gst_cl_cuda_set_error (error, status,
        "cuPointerGetAttribute (CU_POINTER_ATTRIBUTE_CONTEXT)");
    return NULL;
  }
  return context;
}

/* The reason @device cannot import CUDA's file descriptors, or NULL. */
static gchar *
import_problem (cl_device_id device)
{
  static const gchar *needed[] = { "cl_khr_device_uuid",
    "cl_khr_external_memory", "cl_khr_external_memory_opaque_fd"
  };
  cl_external_memory_handle_type_khr types[16];
  gchar *text, **extensions;
  size_t size = 0;
  guint i;

  if (clGetDeviceInfo (device, CL_DEVICE_EXTENSIONS, 0, NULL, &size))
    return g_strdup ("its extensions cannot be read");
  text = g_malloc0 (size + 1);
  clGetDeviceInfo (device, CL_DEVICE_EXTENSIONS, size, text, NULL);
  extensions = g_strsplit (text, " ", -1);
  g_free (text);
  for (i = 0; i < G_N_ELEMENTS (needed); i++) {
    if (!g_strv_contains ((const gchar * const *) extensions, needed[i]))
      break;
  }
  g_strfreev (extensions);
  if (i < G_N_ELEMENTS (needed))
    return g_strdup_printf ("it lacks %s", needed[i]);
  if (clGetDeviceInfo (device,
          CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR, sizeof (types),
          types, &size) != CL_SUCCESS)
    size = 0;
  for (i = 0; i < size / sizeof (types[0]); i++) {
    if (types[i] == CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR)
      return NULL;
  }
  return g_strdup ("it imports no opaque file descriptors");
}

gboolean
gst_cl_cuda_device_matches (cl_device_id device, const guint8 uuid[16],
    gchar ** reason)
{
  guint8 cl_uuid[CL_UUID_SIZE_KHR];
  gchar name[256] = "";
  gchar *problem = import_problem (device);
  cl_int status;

  clGetDeviceInfo (device, CL_DEVICE_NAME, sizeof (name) - 1, name, NULL);
  if (!problem) {
    status = clGetDeviceInfo (device, CL_DEVICE_UUID_KHR, sizeof (cl_uuid),
        cl_uuid, NULL);
    if (status != CL_SUCCESS)
      problem = g_strdup_printf ("its UUID cannot be read: %s",
          gst_cl_error_name (status));
    else if (memcmp (cl_uuid, uuid, sizeof (cl_uuid)) != 0)
      problem = g_strdup ("it is another device than the CUDA context's");
  }
  if (!problem)
    return TRUE;
  if (reason)
    *reason = g_strdup_printf ("OpenCL device %s cannot take CUDA memory: %s",
        name, problem);
  g_free (problem);
  return FALSE;
}

/* Imports @fd, an exported allocation, as an OpenCL buffer. On success the
 * descriptor is OpenCL's: NVIDIA's driver keeps it while the buffer lives
 * and closes it with the buffer (tests/gpu/cl-cuda-import counts them); on
 * failure it is closed here. */
static cl_mem
import_fd (GstClCudaPool * pool, gint fd, GError ** error)
{
  cl_mem_properties props[] = {
    CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, (cl_mem_properties) fd,
    CL_MEM_DEVICE_HANDLE_LIST_KHR, (cl_mem_properties) pool->device,
    CL_MEM_DEVICE_HANDLE_LIST_END_KHR, 0
  };
  cl_int status = CL_SUCCESS;
  cl_mem mem;

  mem = clCreateBufferWithProperties (pool->context, props,
      CL_MEM_READ_WRITE, pool->size, NULL, &status);
  if (!mem || status != CL_SUCCESS) {
    close (fd);
    gst_cl_set_error (error, status, "clCreateBufferWithProperties "
        "(CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, %" G_GSIZE_FORMAT
        " bytes)", pool->size);
    return NULL;
  }
  GST_DEBUG ("imported fd %d (%s after the import)", fd,
      fcntl (fd, F_GETFD) == -1 ? "closed" : "open");
  return mem;
}

/* Makes buffer @i: allocation, address range, access, export, import. */
static gboolean
make_buffer (GstClCudaPool * pool, guint i, const CUmemAllocationProp * prop,
    GError ** error)
{
  PoolBuffer *buf = &pool->buffers[i];
  CUmemAccessDesc access = { prop->location,
    CU_MEM_ACCESS_FLAGS_PROT_READWRITE
  };
  const gchar *step;
  CUresult status;
  gint fd = -1;

  step = "cuMemCreate";
  if ((status = cu.MemCreate (&buf->handle, pool->size, prop, 0)))
    goto cuda_error;
  buf->created = TRUE;
  step = "cuMemAddressReserve";
  if ((status = cu.MemAddressReserve (&buf->ptr, pool->size,
              pool->granularity, 0, 0)))
    goto cuda_error;
  buf->reserved = TRUE;
  step = "cuMemMap";
  if ((status = cu.MemMap (buf->ptr, pool->size, 0, buf->handle, 0)))
    goto cuda_error;
  buf->mapped = TRUE;
  step = "cuMemSetAccess";
  if ((status = cu.MemSetAccess (buf->ptr, pool->size, &access, 1)))
    goto cuda_error;
  step = "cuMemExportToShareableHandle";
  if ((status = cu.MemExportToShareableHandle (&fd, buf->handle,
              CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0)))
    goto cuda_error;
  buf->mem = import_fd (pool, fd, error);
  return buf->mem != NULL;

  /* ERRORS */
cuda_error:
  return gst_cl_cuda_set_error (error, status, "%s (pool buffer %u of %u, %"
      G_GSIZE_FORMAT " bytes)", step, i + 1, pool->n_buffers, pool->size);
}

/* The acquire and release entry points of @device's platform. */
static gboolean
get_entry_points (GstClCudaPool * pool, GError ** error)
{
  cl_platform_id platform;
  cl_int status;

  status = clGetDeviceInfo (pool->device, CL_DEVICE_PLATFORM,
      sizeof (platform), &platform, NULL);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clGetDeviceInfo (platform)");
  pool->acquire = (clEnqueueAcquireExternalMemObjectsKHR_fn)
      clGetExtensionFunctionAddressForPlatform (platform,
      "clEnqueueAcquireExternalMemObjectsKHR");
  pool->release = (clEnqueueReleaseExternalMemObjectsKHR_fn)
      clGetExtensionFunctionAddressForPlatform (platform,
      "clEnqueueReleaseExternalMemObjectsKHR");
  if (pool->acquire && pool->release)
    return TRUE;
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "The OpenCL platform has no clEnqueueAcquireExternalMemObjectsKHR");
  return FALSE;
}

/* In the pushed context: the stream, the granularity and the buffers. */
static gboolean
make_buffers (GstClCudaPool * pool, gsize size, GError ** error)
{
  CUmemAllocationProp prop = { CU_MEM_ALLOCATION_TYPE_PINNED,
    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, {CU_MEM_LOCATION_TYPE_DEVICE, 0}
  };
  CUresult status;
  guint i;

  if ((status = cu.CtxGetDevice (&prop.location.id)))
    return gst_cl_cuda_set_error (error, status, "cuCtxGetDevice");
  if ((status = cu.MemGetAllocationGranularity (&pool->granularity, &prop,
              CU_MEM_ALLOC_GRANULARITY_MINIMUM)))
    return gst_cl_cuda_set_error (error, status,
        "cuMemGetAllocationGranularity");
  pool->granularity = MAX (pool->granularity, 1);
  pool->size = (size + pool->granularity - 1) / pool->granularity *
      pool->granularity;
  if ((status = cu.StreamCreate (&pool->stream, CU_STREAM_NON_BLOCKING)))
    return gst_cl_cuda_set_error (error, status, "cuStreamCreate");
  for (i = 0; i < pool->n_buffers; i++) {
    if (!make_buffer (pool, i, &prop, error))
      return FALSE;
  }
  return TRUE;
}

/* A frame's copy in, waited for on the pool's waiter thread. */
typedef struct
{
  guint index;
  CUevent copied;
  cl_event ready;
  GDestroyNotify done;
  gpointer data;
} CopyIn;

/* Waits for @data's copy (a CopyIn), keeps how that went for
 * gst_cl_cuda_pool_copied_in(), completes its user event and lets the
 * frame go. The event completes even where the wait failed: an event
 * failed under commands already enqueued left them queued for ever on
 * NVIDIA's driver, and the pipeline hung on its way to NULL after the
 * ERROR (tests/gpu/gpu-cuda-checks.sh). Where the CUDA context cannot be
 * made current (it is gone, and the decoder's memory with it) the copy
 * cannot be waited for: the frame fails. The OpenCL specification leaves
 * undefined the release of other objects than events while commands wait
 * on an unset user event; the element releases none a frame, and
 * NVIDIA's driver (the only one that takes this path) keeps to the
 * order. */
static void
finish_copy_in (gpointer data, gpointer user_data)
{
  CopyIn *c = data;
  GstClCudaPool *pool = user_data;
  CUresult status = cu.CtxPushCurrent (pool->cuda_context);
  const gchar *name = NULL;
  cl_int set;

  if (status == CUDA_SUCCESS) {
    status = cu.EventSynchronize (c->copied);
    cu.EventDestroy (c->copied);
    cu.CtxPopCurrent (NULL);
  }
  if (status != CUDA_SUCCESS) {
    if (!cu.GetErrorName || cu.GetErrorName (status, &name) != CUDA_SUCCESS)
      name = NULL;
    GST_ERROR ("waiting for a frame's copy into the pool failed: %s (%d)",
        name ? name : "unknown CUDA error", status);
  }
  g_atomic_int_set (&pool->buffers[c->index].copy_in_status, (gint) status);
  set = clSetUserEventStatus (c->ready, CL_COMPLETE);
  /* only for an event set already or not a user event: never here */
  if (set != CL_SUCCESS)
    GST_ERROR ("clSetUserEventStatus failed: %d", set);
  clReleaseEvent (c->ready);
  c->done (c->data);
  g_free (c);
}

GstClCudaPool *
gst_cl_cuda_pool_new (CUcontext cuda_context, cl_context context,
    cl_device_id device, guint n_buffers, gsize size, GError ** error)
{
  GstClCudaPool *pool;
  gboolean ok;

  g_return_val_if_fail (n_buffers > 0 && size > 0, NULL);

  if (!require_driver (error))
    return NULL;
  pool = g_malloc0 (sizeof (GstClCudaPool) + n_buffers * sizeof (PoolBuffer));
  pool->cuda_context = cuda_context;
  pool->context = context;
  clRetainContext (context);
  pool->device = device;
  pool->n_buffers = n_buffers;
  ok = get_entry_points (pool, error) && push_context (cuda_context, error);
  if (ok) {
    ok = make_buffers (pool, size, error);
    cu.CtxPopCurrent (NULL);
  }
  if (!ok) {
    gst_cl_cuda_pool_free (pool);
    return NULL;
  }
  GST_DEBUG ("pool of %u buffers of %" G_GSIZE_FORMAT " bytes (granularity %"
      G_GSIZE_FORMAT ")", n_buffers, pool->size, pool->granularity);
  return pool;
}

void
gst_cl_cuda_pool_free (GstClCudaPool * pool)
{
  guint i;

  if (!pool)
    return;
  /* the copies in still waited for end first: their frames are let go */
  if (pool->waiter)
    g_thread_pool_free (pool->waiter, FALSE, TRUE);
  for (i = 0; i < pool->n_buffers; i++) {
    if (pool->buffers[i].mem)
      clReleaseMemObject (pool->buffers[i].mem);
  }
  if (cu.CtxPushCurrent && cu.CtxPushCurrent (pool->cuda_context) ==
      CUDA_SUCCESS) {
    for (i = 0; i < pool->n_buffers; i++) {
      PoolBuffer *buf = &pool->buffers[i];

      if (buf->mapped)
        cu.MemUnmap (buf->ptr, pool->size);
      if (buf->reserved)
        cu.MemAddressFree (buf->ptr, pool->size);
      if (buf->created)
        cu.MemRelease (buf->handle);
    }
    if (pool->stream)
      cu.StreamDestroy (pool->stream);
    cu.CtxPopCurrent (NULL);
  }
  clReleaseContext (pool->context);
  g_free (pool);
}

gsize
gst_cl_cuda_pool_get_size (GstClCudaPool * pool)
{
  return pool->size;
}

cl_mem
gst_cl_cuda_pool_get_buffer (GstClCudaPool * pool, guint index)
{
  g_return_val_if_fail (index < pool->n_buffers, NULL);

  return pool->buffers[index].mem;
}

CUstream
gst_cl_cuda_pool_get_stream (GstClCudaPool * pool)
{
  return pool->stream;
}

gboolean
gst_cl_cuda_stream_wait (CUcontext context, CUstream stream,
    CUstream producer, GError ** error)
{
  const gchar *step = "cuEventCreate";
  CUevent event = NULL;
  CUresult status;

  if (!require_driver (error) || !push_context (context, error))
    return FALSE;
  /* The wait takes the event as it is when enqueued: an event of its own
   * each time may be destroyed at once (the driver keeps it until done). */
  status = cu.EventCreate (&event, CU_EVENT_DISABLE_TIMING);
  if (status == CUDA_SUCCESS) {
    step = "cuEventRecord";
    status = cu.EventRecord (event, producer);
  }
  if (status == CUDA_SUCCESS) {
    step = "cuStreamWaitEvent";
    status = cu.StreamWaitEvent (stream, event, 0);
  }
  if (event)
    cu.EventDestroy (event);
  cu.CtxPopCurrent (NULL);
  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "%s (a stream waiting for "
        "another)", step);
  return TRUE;
}

/* Whether @plane lies inside a pool buffer, its rows within their pitches. */
static gboolean
plane_fits (GstClCudaPool * pool, const GstClCudaPlaneCopy * plane,
    guint i, GError ** error)
{
  gsize last_row;

  if (plane->height == 0 || plane->width_in_bytes == 0)
    return TRUE;
  last_row = plane->pitch * (plane->height - 1);
  if (plane->width_in_bytes <= plane->pitch &&
      plane->width_in_bytes <= plane->cuda_pitch &&
      plane->offset <= pool->size &&
      last_row / plane->pitch == plane->height - 1 &&
      last_row + plane->width_in_bytes <= pool->size - plane->offset)
    return TRUE;
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "Plane %u (%" G_GSIZE_FORMAT " bytes by %" G_GSIZE_FORMAT " rows, pitch %"
      G_GSIZE_FORMAT " at %" G_GSIZE_FORMAT ") does not fit a CUDA pool "
      "buffer of %" G_GSIZE_FORMAT " bytes", i, plane->width_in_bytes,
      plane->height, plane->pitch, plane->offset, pool->size);
  return FALSE;
}

/* Copies the planes into (@in) or out of buffer @index on the pool's
 * stream, and waits for them where @wait; else, where @copied, records
 * there a new event that completes with them. A copy enqueued before a
 * later call failed is waited for (the caller lets its memory go). */
static gboolean
copy_planes (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, gboolean in,
    gboolean wait, CUevent * copied, GError ** error)
{
  CUdeviceptr buffer = pool->buffers[index].ptr;
  const gchar *step = "cuMemcpy2DAsync";
  CUresult status = CUDA_SUCCESS;
  guint i;

  for (i = 0; i < n_planes; i++) {
    if (!plane_fits (pool, &planes[i], i, error))
      return FALSE;
  }
  if (!push_context (pool->cuda_context, error))
    return FALSE;
  for (i = 0; i < n_planes && status == CUDA_SUCCESS; i++) {
    const GstClCudaPlaneCopy *p = &planes[i];
    CUDA_MEMCPY2D copy = {.srcMemoryType = CU_MEMORYTYPE_DEVICE,
      .dstMemoryType = CU_MEMORYTYPE_DEVICE,
      .srcDevice = in ? p->cuda_ptr : buffer + p->offset,
      .srcPitch = in ? p->cuda_pitch : p->pitch,
      .dstDevice = in ? buffer + p->offset : p->cuda_ptr,
      .dstPitch = in ? p->pitch : p->cuda_pitch,
      .WidthInBytes = p->width_in_bytes,.Height = p->height
    };

    if (p->height > 0 && p->width_in_bytes > 0)
      status = cu.Memcpy2DAsync (&copy, pool->stream);
  }
  if (status == CUDA_SUCCESS && wait) {
    gint64 began = gst_cl_wait_begin ();

    step = "cuStreamSynchronize";
    status = cu.StreamSynchronize (pool->stream);
    gst_cl_wait_end (in ? GST_CL_WAIT_CUDA_COPY_IN : GST_CL_WAIT_CUDA_COPY_OUT,
        began);
  } else if (status == CUDA_SUCCESS && copied) {
    step = "cuEventCreate";
    /* its waiter sleeps (a spinning wait took a core a stream) */
    status = cu.EventCreate (copied, CU_EVENT_DISABLE_TIMING |
        CU_EVENT_BLOCKING_SYNC);
    if (status == CUDA_SUCCESS) {
      step = "cuEventRecord";
      if ((status = cu.EventRecord (*copied, pool->stream)) != CUDA_SUCCESS)
        cu.EventDestroy (*copied);
    }
  }
  if (status != CUDA_SUCCESS)
    cu.StreamSynchronize (pool->stream);
  cu.CtxPopCurrent (NULL);
  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "%s (plane copies %s pool "
        "buffer %u)", step, in ? "into" : "out of", index);
  return TRUE;
}

gboolean
gst_cl_cuda_pool_copy_in (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, GError ** error)
{
  g_return_val_if_fail (index < pool->n_buffers, FALSE);

  g_atomic_int_set (&pool->buffers[index].copy_in_status, CUDA_SUCCESS);
  return copy_planes (pool, index, planes, n_planes, TRUE, TRUE, NULL, error);
}

gboolean
gst_cl_cuda_pool_copy_in_start (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, GDestroyNotify done,
    gpointer data, cl_event * ready, GError ** error)
{
  CopyIn *c;
  cl_int status;

  g_return_val_if_fail (index < pool->n_buffers, FALSE);

  /* a thread of its own, started at the first copy (a pool of outputs has
   * none): a push cannot fail then */
  if (!pool->waiter) {
    GError *failed = NULL;

    pool->waiter = g_thread_pool_new (finish_copy_in, pool, 1, TRUE, &failed);
    if (failed) {
      /* GLib returns the pool, threadless */
      if (pool->waiter)
        g_thread_pool_free (pool->waiter, TRUE, FALSE);
      pool->waiter = NULL;
      g_propagate_error (error, failed);
      return FALSE;
    }
  }
  g_atomic_int_set (&pool->buffers[index].copy_in_status, CUDA_SUCCESS);
  c = g_new0 (CopyIn, 1);
  c->index = index;
  c->ready = clCreateUserEvent (pool->context, &status);
  if (status != CL_SUCCESS) {
    g_free (c);
    return gst_cl_set_error (error, status, "clCreateUserEvent (a frame's "
        "copy into the pool)");
  }
  if (!copy_planes (pool, index, planes, n_planes, TRUE, FALSE, &c->copied,
          error)) {
    clSetUserEventStatus (c->ready, CL_OUT_OF_RESOURCES);
    clReleaseEvent (c->ready);
    g_free (c);
    return FALSE;
  }
  c->done = done;
  c->data = data;
  clRetainEvent (c->ready);
  *ready = c->ready;
  g_thread_pool_push (pool->waiter, c, NULL);
  return TRUE;
}

gboolean
gst_cl_cuda_pool_copied_in (GstClCudaPool * pool, guint index, GError ** error)
{
  CUresult status;

  g_return_val_if_fail (index < pool->n_buffers, FALSE);

  status = (CUresult) g_atomic_int_get (&pool->buffers[index].copy_in_status);
  return status == CUDA_SUCCESS || gst_cl_cuda_set_error (error, status,
      "cuEventSynchronize (a frame's copy into pool buffer %u)", index);
}

gboolean
gst_cl_cuda_pool_copy_out (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, GError ** error)
{
  g_return_val_if_fail (index < pool->n_buffers, FALSE);

  return copy_planes (pool, index, planes, n_planes, FALSE, TRUE, NULL, error);
}

gboolean
gst_cl_cuda_pool_copy_out_start (GstClCudaPool * pool, guint index,
    const GstClCudaPlaneCopy * planes, guint n_planes, GError ** error)
{
  g_return_val_if_fail (index < pool->n_buffers, FALSE);

  return copy_planes (pool, index, planes, n_planes, FALSE, FALSE, NULL, error);
}

gboolean
gst_cl_cuda_pool_sync (GstClCudaPool * pool, GError ** error)
{
  gint64 began;
  CUresult status;

  if (!push_context (pool->cuda_context, error))
    return FALSE;
  began = gst_cl_wait_begin ();
  status = cu.StreamSynchronize (pool->stream);
  gst_cl_wait_end (GST_CL_WAIT_CUDA_COPY_OUT, began);
  cu.CtxPopCurrent (NULL);
  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "cuStreamSynchronize (plane "
        "copies out of the pool)");
  return TRUE;
}

/* Enqueues @enqueue, the acquire or the release call named @call, on
 * buffer @index. */
static gboolean
enqueue_external (GstClCudaPool * pool, guint index,
    clEnqueueAcquireExternalMemObjectsKHR_fn enqueue, const gchar * call,
    cl_command_queue queue, cl_uint n_wait, const cl_event * wait_list,
    cl_event * event, GError ** error)
{
  cl_int status;

  g_return_val_if_fail (index < pool->n_buffers, FALSE);

  status = enqueue (queue, 1, &pool->buffers[index].mem, n_wait, wait_list,
      event);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "%s (pool buffer %u)", call, index);
  return TRUE;
}

gboolean
gst_cl_cuda_pool_acquire (GstClCudaPool * pool, guint index,
    cl_command_queue queue, cl_uint n_wait, const cl_event * wait_list,
    cl_event * event, GError ** error)
{
  return enqueue_external (pool, index, pool->acquire,
      "clEnqueueAcquireExternalMemObjectsKHR", queue, n_wait, wait_list,
      event, error);
}

gboolean
gst_cl_cuda_pool_release (GstClCudaPool * pool, guint index,
    cl_command_queue queue, cl_uint n_wait, const cl_event * wait_list,
    cl_event * event, GError ** error)
{
  return enqueue_external (pool, index, pool->release,
      "clEnqueueReleaseExternalMemObjectsKHR", queue, n_wait, wait_list,
      event, error);
}
