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

/* A CUDA driver with every entry point gst/gstclcuda.c resolves, on a
 * machine with no GPU: cuInit says CUDA_ERROR_NO_DEVICE, as the real
 * libcuda.so.1 does where the kernel module is loaded but no device is
 * there. The other calls are never reached; they fail. */

#include <gmodule.h>

#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_NOT_SUPPORTED 801

G_MODULE_EXPORT int cuInit (unsigned flags);
G_MODULE_EXPORT int cuGetErrorName (int status, const char **name);

int
cuInit (unsigned flags)
{
  return CUDA_ERROR_NO_DEVICE;
}

int
cuGetErrorName (int status, const char **name)
{
  *name = status == CUDA_ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" :
      "CUDA_ERROR_NOT_SUPPORTED";
  return 0;
}

#define UNSUPPORTED(symbol) \
  G_MODULE_EXPORT int symbol (void); \
  int symbol (void) { return CUDA_ERROR_NOT_SUPPORTED; }

/* *INDENT-OFF* */
UNSUPPORTED (cuCtxPushCurrent_v2)
UNSUPPORTED (cuCtxPopCurrent_v2)
UNSUPPORTED (cuCtxGetDevice)
UNSUPPORTED (cuDeviceGetUuid)
UNSUPPORTED (cuPointerGetAttribute)
UNSUPPORTED (cuMemGetAllocationGranularity)
UNSUPPORTED (cuMemCreate)
UNSUPPORTED (cuMemRelease)
UNSUPPORTED (cuMemAddressReserve)
UNSUPPORTED (cuMemAddressFree)
UNSUPPORTED (cuMemMap)
UNSUPPORTED (cuMemUnmap)
UNSUPPORTED (cuMemSetAccess)
UNSUPPORTED (cuMemExportToShareableHandle)
UNSUPPORTED (cuMemcpy2DAsync_v2)
UNSUPPORTED (cuStreamCreate)
UNSUPPORTED (cuStreamDestroy_v2)
UNSUPPORTED (cuStreamSynchronize)
/* *INDENT-ON* */
