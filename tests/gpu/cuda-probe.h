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

/* The CUDA driver's entry points that the GPU machine's probes
 * (cl-cuda-slices, cl-ptx-in-cuda) call, loaded at run time as the plugin
 * loads them (gst/gstclcudaapi-private.h keeps the plugin's own), so that
 * the probes build without CUDA. */

#ifndef __GPU_CUDA_PROBE_H__
#define __GPU_CUDA_PROBE_H__

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <gmodule.h>
#include <string.h>

typedef int CUresult;
typedef gpointer CUcontext, CUmodule, CUfunction, CUstream, CUevent;
typedef guint64 CUdeviceptr;

typedef struct
{
  CUresult (*init) (guint flags);
  CUresult (*device_get) (gint * device, gint ordinal);
  CUresult (*device_get_count) (gint * count);
  CUresult (*device_get_uuid) (guint8 uuid[16], gint device);
  CUresult (*ctx_create) (CUcontext * context, guint flags, gint device);
  CUresult (*ctx_set_current) (CUcontext context);
  CUresult (*module_load_data_ex) (CUmodule * module, gconstpointer image,
      guint n_options, gint * options, gpointer * values);
  CUresult (*module_get_function) (CUfunction * function, CUmodule module,
      const gchar * name);
  CUresult (*launch_kernel) (CUfunction f, guint gx, guint gy, guint gz,
      guint bx, guint by, guint bz, guint shared, CUstream stream,
      gpointer * params, gpointer * extra);
  CUresult (*stream_create) (CUstream * stream, guint flags);
  CUresult (*stream_create_with_priority) (CUstream * stream, guint flags,
      gint priority);
  CUresult (*ctx_get_stream_priority_range) (gint * least, gint * greatest);
  CUresult (*event_create) (CUevent * event, guint flags);
  CUresult (*event_record) (CUevent event, CUstream stream);
  CUresult (*event_synchronize) (CUevent event);
  CUresult (*stream_synchronize) (CUstream stream);
  CUresult (*mem_alloc) (CUdeviceptr * ptr, gsize size);
  CUresult (*memcpy_htod) (CUdeviceptr dst, gconstpointer src, gsize size);
  CUresult (*memcpy_dtoh) (gpointer dst, CUdeviceptr src, gsize size);
  CUresult (*memcpy_dtod_async) (CUdeviceptr dst, CUdeviceptr src,
      gsize size, CUstream stream);
  CUresult (*pointer_get_attribute) (gpointer value, gint attribute,
      CUdeviceptr ptr);
  CUresult (*primary_ctx_retain) (CUcontext * context, gint device);
  CUresult (*primary_ctx_get_state) (gint device, guint * flags, gint * active);
  CUresult (*ctx_get_current) (CUcontext * context);
} CudaProbe;

#define CU_POINTER_ATTRIBUTE_CONTEXT 1

/* cuModuleLoadDataEx's options for the JIT's error log */
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6

/* Fills @cu from libcuda.so.1 and initialises the driver; FALSE where
 * there is no driver or it lacks an entry point. */
static inline gboolean
cuda_probe_load (CudaProbe * cu)
{
  GModule *m = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);
  const struct
  {
    const gchar *name;
    gpointer *slot;
  } symbols[] = {
    {"cuInit", (gpointer *) & cu->init},
    {"cuDeviceGet", (gpointer *) & cu->device_get},
    {"cuDeviceGetCount", (gpointer *) & cu->device_get_count},
    {"cuDeviceGetUuid", (gpointer *) & cu->device_get_uuid},
    {"cuCtxCreate_v2", (gpointer *) & cu->ctx_create},
    {"cuCtxSetCurrent", (gpointer *) & cu->ctx_set_current},
    {"cuModuleLoadDataEx", (gpointer *) & cu->module_load_data_ex},
    {"cuModuleGetFunction", (gpointer *) & cu->module_get_function},
    {"cuLaunchKernel", (gpointer *) & cu->launch_kernel},
    {"cuStreamCreate", (gpointer *) & cu->stream_create},
    {"cuStreamCreateWithPriority",
        (gpointer *) & cu->stream_create_with_priority},
    {"cuCtxGetStreamPriorityRange",
        (gpointer *) & cu->ctx_get_stream_priority_range},
    {"cuEventCreate", (gpointer *) & cu->event_create},
    {"cuEventRecord", (gpointer *) & cu->event_record},
    {"cuEventSynchronize", (gpointer *) & cu->event_synchronize},
    {"cuStreamSynchronize", (gpointer *) & cu->stream_synchronize},
    {"cuMemAlloc_v2", (gpointer *) & cu->mem_alloc},
    {"cuMemcpyHtoD_v2", (gpointer *) & cu->memcpy_htod},
    {"cuMemcpyDtoH_v2", (gpointer *) & cu->memcpy_dtoh},
    {"cuMemcpyDtoDAsync_v2", (gpointer *) & cu->memcpy_dtod_async},
    {"cuPointerGetAttribute", (gpointer *) & cu->pointer_get_attribute},
    {"cuDevicePrimaryCtxRetain", (gpointer *) & cu->primary_ctx_retain},
    {"cuDevicePrimaryCtxGetState", (gpointer *) & cu->primary_ctx_get_state},
    {"cuCtxGetCurrent", (gpointer *) & cu->ctx_get_current},
  };
  guint i;

  for (i = 0; m && i < G_N_ELEMENTS (symbols); i++)
    if (!g_module_symbol (m, symbols[i].name, symbols[i].slot))
      return FALSE;
  return m != NULL && cu->init (0) == 0;
}

/* The CUDA device that is OpenCL's @device (the same UUID,
 * cl_khr_device_uuid), so that both APIs work on one GPU of several; -1
 * where none is. */
static inline gint
cuda_probe_device_of (const CudaProbe * cu, cl_device_id device)
{
  guint8 cl_uuid[CL_UUID_SIZE_KHR], uuid[16];
  gint n = 0, i, d;

  if (clGetDeviceInfo (device, CL_DEVICE_UUID_KHR, sizeof (cl_uuid), cl_uuid,
          NULL) != CL_SUCCESS || cu->device_get_count (&n) != 0)
    return -1;
  for (i = 0; i < n; i++)
    if (cu->device_get (&d, i) == 0 && cu->device_get_uuid (uuid, d) == 0 &&
        memcmp (uuid, cl_uuid, sizeof (uuid)) == 0)
      return i;
  return -1;
}

/* @image (PTX) into a module of the current context; NULL with the JIT's
 * log printed where the driver refuses it. */
static inline CUmodule
cuda_probe_load_module (const CudaProbe * cu, gconstpointer image)
{
  gchar log[8192] = "";
  gint options[] = { CU_JIT_ERROR_LOG_BUFFER,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
  };
  gpointer values[] = { log, GSIZE_TO_POINTER (sizeof (log)) };
  CUmodule module = NULL;
  const CUresult r = cu->module_load_data_ex (&module, image,
      G_N_ELEMENTS (options), options, values);

  if (r != 0) {
    g_printerr ("cuModuleLoadDataEx: %d\n%s\n", r, log);
    return NULL;
  }
  return module;
}

#endif /* __GPU_CUDA_PROBE_H__ */
