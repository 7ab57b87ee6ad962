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

/* What both fake CUDA drivers (fakecuda.c, fakecudahost.c) leave out: the
 * calls of the imported pools (gst/gstclcuda.c), which fail there
 * (CUDA_ERROR_NOT_SUPPORTED). */

#ifndef __FAKECUDA_H__
#define __FAKECUDA_H__

#define FAKECUDA_POOL_CALLS(X) \
  X (cuCtxGetDevice) X (cuDeviceGetUuid) X (cuPointerGetAttribute) \
  X (cuMemGetAllocationGranularity) X (cuMemCreate) X (cuMemRelease) \
  X (cuMemAddressReserve) X (cuMemAddressFree) X (cuMemMap) X (cuMemUnmap) \
  X (cuMemSetAccess) X (cuMemExportToShareableHandle)

/* fakecudahost.c's record of the last launch of a kernel other than its
 * one (gst_cl_copy_words), which it does not run: the kernel's name, the
 * grid, block and shared bytes, and its first parameters, each read as 64
 * bits (a device address) and as 32 (fakecudahost_last_launch; their
 * count: fakecudahost_launches). */
typedef struct
{
  const char *name;
  unsigned grid[3], block[3], shared;
  unsigned long long param64[4];
  unsigned param32[4];
} FakeLaunch;

#endif /* __FAKECUDA_H__ */
