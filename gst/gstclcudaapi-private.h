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

#ifndef __GST_CL_CUDA_API_PRIVATE_H__
#define __GST_CL_CUDA_API_PRIVATE_H__

#include "gstclcuda-private.h"

G_BEGIN_DECLS

/* The part of NVIDIA's CUDA driver API that gstclcuda.c loads at run time,
 * declared here so that nothing of CUDA is needed to build the plugin (as
 * GStreamer's CUDA library has its stub/cuda.h); the types the rest of the
 * library shares are in gstclcuda-private.h. For gstclcuda.c alone. */

/* The rest of cuda.h that gstclcuda.c uses (values of NVIDIA's ABI). */
typedef guint64 CUmemGenericAllocationHandle;
typedef gpointer CUevent;
#define CUDA_ERROR_INVALID_VALUE 1
#define CU_MEM_ALLOCATION_TYPE_PINNED 0x1
#define CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR 0x1
#define CU_MEM_LOCATION_TYPE_DEVICE 0x1
#define CU_MEM_ACCESS_FLAGS_PROT_READWRITE 0x3
#define CU_MEM_ALLOC_GRANULARITY_MINIMUM 0x0
#define CU_POINTER_ATTRIBUTE_CONTEXT 1
#define CU_STREAM_NON_BLOCKING 0x1
#define CU_EVENT_BLOCKING_SYNC 0x1
#define CU_EVENT_DISABLE_TIMING 0x2
typedef struct
{
  gint type;
  gint id;
} CUmemLocation;
typedef struct
{
  gint type;
  gint requestedHandleTypes;
  CUmemLocation location;
  gpointer win32HandleMetaData;
  guint8 allocFlags[8];
} CUmemAllocationProp;
typedef struct
{
  CUmemLocation location;
  gint flags;
} CUmemAccessDesc;

/* The driver's entry points gstclcuda.c calls: a field of CudaCalls, the
 * exported name (cuda.h maps some calls to their 64-bit _v2 names), the
 * parameters. cuDeviceGetUuid is the device's own UUID, the one that
 * CL_DEVICE_UUID_KHR reports (its _v2 gives a MIG instance's). */
#define CUDA_CALLS(X) \
  X (Init, "cuInit", (guint flags)) \
  X (GetErrorName, "cuGetErrorName", (CUresult status, const gchar ** name)) \
  X (CtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext ctx)) \
  X (CtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext * ctx)) \
  X (CtxGetDevice, "cuCtxGetDevice", (CUdevice * device)) \
  X (DeviceGetUuid, "cuDeviceGetUuid", (guint8 * uuid, CUdevice device)) \
  X (PointerGetAttribute, "cuPointerGetAttribute", (gpointer data, gint attr, \
          CUdeviceptr ptr)) \
  X (MemGetAllocationGranularity, "cuMemGetAllocationGranularity", \
      (gsize * granularity, const CUmemAllocationProp * prop, gint option)) \
  X (MemCreate, "cuMemCreate", (CUmemGenericAllocationHandle * handle, \
          gsize size, const CUmemAllocationProp * prop, guint64 flags)) \
  X (MemRelease, "cuMemRelease", (CUmemGenericAllocationHandle handle)) \
  X (MemAddressReserve, "cuMemAddressReserve", (CUdeviceptr * ptr, \
          gsize size, gsize align, CUdeviceptr addr, guint64 flags)) \
  X (MemAddressFree, "cuMemAddressFree", (CUdeviceptr ptr, gsize size)) \
  X (MemMap, "cuMemMap", (CUdeviceptr ptr, gsize size, gsize offset, \
          CUmemGenericAllocationHandle handle, guint64 flags)) \
  X (MemUnmap, "cuMemUnmap", (CUdeviceptr ptr, gsize size)) \
  X (MemSetAccess, "cuMemSetAccess", (CUdeviceptr ptr, gsize size, \
          const CUmemAccessDesc * desc, gsize count)) \
  X (MemExportToShareableHandle, "cuMemExportToShareableHandle", \
      (gpointer out, CUmemGenericAllocationHandle handle, gint type, \
          guint64 flags)) \
  X (Memcpy2DAsync, "cuMemcpy2DAsync_v2", (const CUDA_MEMCPY2D * copy, \
          CUstream stream)) \
  X (StreamCreate, "cuStreamCreate", (CUstream * stream, guint flags)) \
  X (StreamDestroy, "cuStreamDestroy_v2", (CUstream stream)) \
  X (StreamSynchronize, "cuStreamSynchronize", (CUstream stream)) \
  X (StreamWaitEvent, "cuStreamWaitEvent", (CUstream stream, CUevent event, \
          guint flags)) \
  X (EventCreate, "cuEventCreate", (CUevent * event, guint flags)) \
  X (EventRecord, "cuEventRecord", (CUevent event, CUstream stream)) \
  X (EventSynchronize, "cuEventSynchronize", (CUevent event)) \
  X (EventDestroy, "cuEventDestroy_v2", (CUevent event))

G_END_DECLS

#endif /* __GST_CL_CUDA_API_PRIVATE_H__ */
