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

#endif /* __FAKECUDA_H__ */
