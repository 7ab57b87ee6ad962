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

/* A CUDA driver whose device is the host, for libs/clcudaexec: device
 * pointers are host addresses (cuMemAlloc is g_malloc), every command runs
 * at once on the calling thread (streams and events are names), and the
 * memory commands of gst/gstclcudaexec.c do what the driver's do: fills,
 * plane copies, copies to and from the host. Modules and launches fail
 * (nothing here runs PTX), as do the calls of the imported pools; cuInit
 * succeeds, so that the driver loads (gst_cl_cuda_load()). */

#include <gmodule.h>

#include "fakecuda.h"
#include <string.h>

#define CUDA_ERROR_NOT_SUPPORTED 801

typedef struct
{
  gsize srcXInBytes, srcY;
  gint srcMemoryType;
  gconstpointer srcHost;
  guint64 srcDevice;
  gpointer srcArray;
  gsize srcPitch;
  gsize dstXInBytes, dstY;
  gint dstMemoryType;
  gpointer dstHost;
  guint64 dstDevice;
  gpointer dstArray;
  gsize dstPitch;
  gsize WidthInBytes, Height;
} Copy2D;

#define HOST_MEMORY 1

#define OK(symbol, params) \
  G_MODULE_EXPORT int symbol params; \
  int symbol params { return 0; }
#define UNSUPPORTED(symbol) \
  G_MODULE_EXPORT int symbol (void); \
  int symbol (void) { return CUDA_ERROR_NOT_SUPPORTED; }

G_MODULE_EXPORT int cuGetErrorName (int status, const char **name);
G_MODULE_EXPORT int cuStreamCreate (gpointer * stream, unsigned flags);
G_MODULE_EXPORT int cuEventCreate (gpointer * event, unsigned flags);
G_MODULE_EXPORT int cuMemAlloc_v2 (guint64 * ptr, gsize size);
G_MODULE_EXPORT int cuMemFree_v2 (guint64 ptr);
G_MODULE_EXPORT int cuMemAllocHost_v2 (gpointer * ptr, gsize size);
G_MODULE_EXPORT int cuMemHostAlloc (gpointer * ptr, gsize size, unsigned flags);
G_MODULE_EXPORT int cuMemFreeHost (gpointer ptr);
G_MODULE_EXPORT int cuMemsetD8Async (guint64 ptr, guint8 value, gsize n,
    gpointer stream);
G_MODULE_EXPORT int cuMemsetD32Async (guint64 ptr, guint32 value, gsize n,
    gpointer stream);
G_MODULE_EXPORT int cuMemcpyHtoD_v2 (guint64 dst, gconstpointer src,
    gsize size);
G_MODULE_EXPORT int cuMemcpyDtoH_v2 (gpointer dst, guint64 src, gsize size);
G_MODULE_EXPORT int cuMemcpyHtoDAsync_v2 (guint64 dst, gconstpointer src,
    gsize size, gpointer stream);
G_MODULE_EXPORT int cuMemcpyDtoHAsync_v2 (gpointer dst, guint64 src,
    gsize size, gpointer stream);
G_MODULE_EXPORT int cuMemcpy2DAsync_v2 (const Copy2D * copy, gpointer stream);

int
cuGetErrorName (int status, const char **name)
{
  *name = status == CUDA_ERROR_NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED" :
      "CUDA_ERROR_UNKNOWN";
  return 0;
}

int
cuStreamCreate (gpointer * stream, unsigned flags)
{
  *stream = GUINT_TO_POINTER (1);
  return 0;
}

int
cuEventCreate (gpointer * event, unsigned flags)
{
  *event = GUINT_TO_POINTER (1);
  return 0;
}

int
cuMemAlloc_v2 (guint64 * ptr, gsize size)
{
  *ptr = (guint64) (guintptr) g_malloc (size);
  return 0;
}

int
cuMemFree_v2 (guint64 ptr)
{
  g_free ((gpointer) (guintptr) ptr);
  return 0;
}

int
cuMemAllocHost_v2 (gpointer * ptr, gsize size)
{
  *ptr = g_malloc (size);
  return 0;
}

int
cuMemHostAlloc (gpointer * ptr, gsize size, unsigned flags)
{
  return cuMemAllocHost_v2 (ptr, size);
}

int
cuMemFreeHost (gpointer ptr)
{
  g_free (ptr);
  return 0;
}

int
cuMemsetD8Async (guint64 ptr, guint8 value, gsize n, gpointer stream)
{
  memset ((gpointer) (guintptr) ptr, value, n);
  return 0;
}

int
cuMemsetD32Async (guint64 ptr, guint32 value, gsize n, gpointer stream)
{
  guint32 *words = (guint32 *) (guintptr) ptr;
  gsize i;

  for (i = 0; i < n; i++)
    words[i] = value;
  return 0;
}

int
cuMemcpyHtoD_v2 (guint64 dst, gconstpointer src, gsize size)
{
  memcpy ((gpointer) (guintptr) dst, src, size);
  return 0;
}

int
cuMemcpyDtoH_v2 (gpointer dst, guint64 src, gsize size)
{
  memcpy (dst, (gconstpointer) (guintptr) src, size);
  return 0;
}

int
cuMemcpyHtoDAsync_v2 (guint64 dst, gconstpointer src, gsize size,
    gpointer stream)
{
  return cuMemcpyHtoD_v2 (dst, src, size);
}

int
cuMemcpyDtoHAsync_v2 (gpointer dst, guint64 src, gsize size, gpointer stream)
{
  return cuMemcpyDtoH_v2 (dst, src, size);
}

int
cuMemcpy2DAsync_v2 (const Copy2D * copy, gpointer stream)
{
  const guint8 *src = copy->srcMemoryType == HOST_MEMORY ? copy->srcHost :
      (gconstpointer) (guintptr) copy->srcDevice;
  guint8 *dst = copy->dstMemoryType == HOST_MEMORY ? copy->dstHost :
      (gpointer) (guintptr) copy->dstDevice;
  gsize y;

  for (y = 0; y < copy->Height; y++)
    memcpy (dst + (copy->dstY + y) * copy->dstPitch + copy->dstXInBytes,
        src + (copy->srcY + y) * copy->srcPitch + copy->srcXInBytes,
        copy->WidthInBytes);
  return 0;
}

/* *INDENT-OFF* */
FAKECUDA_POOL_CALLS (UNSUPPORTED)
OK (cuInit, (unsigned flags))
OK (cuCtxPushCurrent_v2, (gpointer context))
OK (cuCtxPopCurrent_v2, (gpointer * context))
OK (cuStreamDestroy_v2, (gpointer stream))
OK (cuStreamSynchronize, (gpointer stream))
OK (cuStreamWaitEvent, (gpointer stream, gpointer event, unsigned flags))
OK (cuEventRecord, (gpointer event, gpointer stream))
OK (cuEventSynchronize, (gpointer event))
OK (cuEventDestroy_v2, (gpointer event))
UNSUPPORTED (cuModuleLoadData)
UNSUPPORTED (cuModuleUnload)
UNSUPPORTED (cuModuleGetFunction)
UNSUPPORTED (cuLaunchKernel)
/* *INDENT-ON* */
