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

/* The GPU machine's probes (cl-host-register, cl-cuda-slices,
 * cl-ptx-in-cuda) take the first GPU of NVIDIA's OpenCL platform; those
 * that use CUDA too find its CUDA device by UUID (cuda-probe.h). */

#ifndef __GPU_NVIDIA_DEVICE_H__
#define __GPU_NVIDIA_DEVICE_H__

#include <CL/cl.h>
#include <glib.h>
#include <string.h>

/* The first GPU of NVIDIA's OpenCL platform; NULL where there is none. */
static inline cl_device_id
nvidia_device (void)
{
  cl_platform_id platforms[8];
  cl_device_id device = NULL;
  cl_uint n = 0, i;

  clGetPlatformIDs (G_N_ELEMENTS (platforms), platforms, &n);
  for (i = 0; i < MIN (n, G_N_ELEMENTS (platforms)) && !device; i++) {
    gchar name[256] = "";

    clGetPlatformInfo (platforms[i], CL_PLATFORM_NAME, sizeof (name), name,
        NULL);
    if (strstr (name, "NVIDIA"))
      clGetDeviceIDs (platforms[i], CL_DEVICE_TYPE_GPU, 1, &device, NULL);
  }
  return device;
}

#endif /* __GPU_NVIDIA_DEVICE_H__ */
