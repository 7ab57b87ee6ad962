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

#ifndef __GST_CL_PTX_PRIVATE_H__
#define __GST_CL_PTX_PRIVATE_H__

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS
/* An OpenCL program's kernels as a CUDA module. NVIDIA's OpenCL writes a
 * program's binary as PTX text, and the GPU gives its OpenCL context and a
 * decoder's CUDA context turns (tests/gpu/cl-cuda-slices); the same PTX,
 * loaded into the decoder's context (cuModuleLoadDataEx), runs beside the
 * decoder's work, once what only NVIDIA's OpenCL runtime sets at a launch
 * is written into it. */
/* The PTX of @program as built for @device, where its binary is PTX text
 * (NVIDIA's OpenCL); NULL with @error set otherwise (another driver's
 * binary, or none). Free with g_free(). */
    gchar * gst_cl_ptx_of_program (cl_program program, cl_device_id device,
    GError ** error);

/* @ptx (of gst_cl_ptx_of_program()) rewritten for a CUDA launch of the
 * whole NDRange at once, with no global offset:
 *  - each `mov.b32 R, %envregN;` becomes R's value: 0 for N 0 to 2 (the
 *    groups' offset, where the runtime splits a launch) and 3 to 5 (the
 *    global work offset), %nctaid.x, .y, .z for 6 to 8 (the groups in each
 *    dimension);
 *  - a __local pointer parameter (one a kernel at most: clSetKernelArg
 *    with a size and no value) is no longer read: its one ld.param
 *    becomes the address of the launch's dynamic shared memory, an extern
 *    .shared array added to the module (aligned as the most any such
 *    parameter asked, 16 bytes at least), whose size the CUDA launch
 *    gives; the parameter stays, so that the arguments keep their places.
 * So a launch must cover the NDRange in one grid (CUDA's limits: 65535
 * groups in y and z), and more than 48 KB of dynamic shared memory needs
 * cuFuncSetAttribute. NULL with @error set (saying which) where the PTX
 * reads %envreg otherwise, where a kernel has two __local pointer
 * parameters or reads one otherwise, or where there is no .address_size
 * line: a runtime this does not know. Free with g_free(). */
gchar *gst_cl_ptx_for_cuda (const gchar * ptx, GError ** error);

/* Whether @binary, a program's binary, is PTX text (a .version and an
 * .entry): what NVIDIA's OpenCL writes. */
gboolean gst_cl_ptx_is_ptx (const gchar * binary);

/* Whether @ptx has an entry @name (`.entry @name(`), and how many
 * parameters it takes (@n_params, may be NULL): a kernel's argument count
 * where no OpenCL kernel can say it. */
gboolean gst_cl_ptx_find_entry (const gchar * ptx, const gchar * name,
    guint * n_params);

G_END_DECLS
#endif /* __GST_CL_PTX_PRIVATE_H__ */
