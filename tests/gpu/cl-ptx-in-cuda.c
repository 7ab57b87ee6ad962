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

/* cl-ptx-in-cuda [WIDTH HEIGHT [ITERATIONS]]
 *
 * Whether the element's kernels could run in a CUDA context (a decoder's)
 * instead of an OpenCL context of their own, which the GPU time-slices
 * with the decoder's (cl-cuda-slices): builds the DCT stage's tiles
 * program (kernels/dct-tiles.cl: 64-sample tiles, work-groups of 256) with
 * NVIDIA's OpenCL and runs dct_tile, 16 passes at threshold 39, on a
 * random 8-bit plane (default 1920x1080); then loads the program's binary,
 * which NVIDIA's OpenCL writes as PTX, into a CUDA context of its own on
 * the same GPU (cuModuleLoadDataEx), launches the same kernel there with the same
 * arguments and geometry, and compares the two outputs byte for byte.
 * Prints the median wall ms of each launch and its wait over ITERATIONS
 * (default 200). Exits 0 where the outputs are equal, 1 where they differ
 * or a step fails (named). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda-probe.h"
#include "gstcldct-private.h"
#include "gstclkernels.h"
#include "median.h"
#include "nvidia-device.h"

#define TILE 64
#define GROUP 256
#define PASSES 16
#define THRESHOLD 39

/* dct_tile's arguments after its buffers' (gst/gstcldct.c, threshold_tiles),
 * for one 8-bit plane of @width x @height, pitch @width */
typedef struct
{
  cl_uint src_offset;
  cl_int src_pitch;
  cl_uint dst_offset;
  cl_int dst_pitch, width, height;
  cl_ulong sxs, sys;
  cl_int passes, passes_log2, shift, xstep, component_step, fields;
} StageArgs;

static StageArgs
stage_args (gint width, gint height)
{
  StageArgs a = { 0, width, 0, width, width, height, 0, 0, PASSES, 4, 0, 1,
    0, 0
  };
  gint i, sx, sy;

  for (i = 0; i < PASSES; i++) {
    gst_cl_dct_pass_offset (PASSES, i, &sx, &sy);
    a.sxs |= (cl_ulong) sx << (4 * i);
    a.sys |= (cl_ulong) sy << (4 * i);
  }
  return a;
}

/* The OpenCL side: @in through dct_tile into @out, the program's binary
 * (PTX) into @ptx, the median ms into @ms. */
static gboolean
run_opencl (cl_device_id device, const guint8 * in, guint8 * out, gint width,
    gint height, gint iterations, gchar ** ptx, gdouble * ms)
{
  const gchar *sources[] = { gst_cl_kernel_common, gst_cl_kernel_dct_shared,
    gst_cl_kernel_dct, gst_cl_kernel_dct_tiles
  };
  const gchar *options = "-DDCT_TILE=64 -DDCT_WG=256";
  const StageArgs a = stage_args (width, height);
  const gsize size = (gsize) width * height;
  const size_t global[2] = { (width + TILE - 1) / TILE * GROUP,
    (height + TILE - 1) / TILE
  }, local[2] = { GROUP, 1 };
  const cl_uint threshold = THRESHOLD;
  gdouble *times = g_new (gdouble, iterations);
  cl_int s = CL_SUCCESS;
  cl_context context = clCreateContext (NULL, 1, &device, NULL, NULL, &s);
  cl_command_queue queue = clCreateCommandQueue (context, device, 0, &s);
  cl_program program = clCreateProgramWithSource (context,
      G_N_ELEMENTS (sources), sources, NULL, &s);
  cl_mem src, dst, thr;
  cl_kernel k = NULL;
  gsize ptx_size = 0;
  cl_uint n = 0;
  gint i;

  if (s != CL_SUCCESS || clBuildProgram (program, 1, &device, options, NULL,
          NULL) != CL_SUCCESS || !(k = clCreateKernel (program, "dct_tile",
              &s))) {
    g_printerr ("OpenCL: the program does not build (%d)\n", s);
    return FALSE;
  }
  src = clCreateBuffer (context, CL_MEM_COPY_HOST_PTR, size, (gpointer) in, &s);
  dst = clCreateBuffer (context, CL_MEM_READ_WRITE, size, NULL, &s);
  thr = clCreateBuffer (context, CL_MEM_COPY_HOST_PTR, sizeof (threshold),
      (gpointer) & threshold, &s);
  clSetKernelArg (k, n++, sizeof (src), &src);
  clSetKernelArg (k, n++, sizeof (cl_uint), &a.src_offset);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.src_pitch);
  clSetKernelArg (k, n++, sizeof (dst), &dst);
  clSetKernelArg (k, n++, sizeof (cl_uint), &a.dst_offset);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.dst_pitch);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.width);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.height);
  clSetKernelArg (k, n++, sizeof (cl_ulong), &a.sxs);
  clSetKernelArg (k, n++, sizeof (cl_ulong), &a.sys);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.passes);
  clSetKernelArg (k, n++, sizeof (thr), &thr);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.passes_log2);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.shift);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.xstep);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.component_step);
  s = clSetKernelArg (k, n++, sizeof (cl_int), &a.fields);
  for (i = 0; i < iterations && s == CL_SUCCESS; i++) {
    const gint64 t0 = g_get_monotonic_time ();

    s = clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
        NULL);
    clFinish (queue);
    times[i] = (g_get_monotonic_time () - t0) / 1000.0;
  }
  if (s != CL_SUCCESS || clEnqueueReadBuffer (queue, dst, CL_TRUE, 0, size,
          out, 0, NULL, NULL) != CL_SUCCESS) {
    g_printerr ("OpenCL: dct_tile failed (%d)\n", s);
    return FALSE;
  }
  *ms = median (times, iterations);
  g_free (times);
  clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES, sizeof (ptx_size),
      &ptx_size, NULL);
  *ptx = g_malloc0 (ptx_size + 1);
  return clGetProgramInfo (program, CL_PROGRAM_BINARIES, sizeof (*ptx), ptx,
      NULL) == CL_SUCCESS && ptx_size > 0;
}

/* The CUDA side: @ptx's dct_tile on @in into @out, in a context of its
 * own on the GPU of OpenCL's @cl_device, the median ms into @ms. */
static gboolean
run_cuda (cl_device_id cl_device, const gchar * ptx, const guint8 * in,
    guint8 * out, gint width, gint height, gint iterations, gdouble * ms)
{
  StageArgs a = stage_args (width, height);
  const gsize size = (gsize) width * height;
  const guint threshold = THRESHOLD;
  gdouble *times = g_new (gdouble, iterations);
  CudaProbe cu = { 0 };
  CUdeviceptr src, dst, thr;
  CUcontext context;
  CUfunction f;
  CUmodule module;
  CUstream stream;
  CUresult r = 0;
  gint ordinal = -1, device, i;

  if (!cuda_probe_load (&cu) ||
      (ordinal = cuda_probe_device_of (&cu, cl_device)) < 0 ||
      cu.device_get (&device, ordinal) != 0 ||
      cu.ctx_create (&context, 0, device) != 0) {
    g_printerr ("CUDA: no driver or no context\n");
    return FALSE;
  }
  if (!(module = cuda_probe_load_module (&cu, ptx)))
    return FALSE;
  if ((r = cu.module_get_function (&f, module, "dct_tile")) != 0 ||
      (r = cu.stream_create (&stream, 1)) != 0 ||
      (r = cu.mem_alloc (&src, size)) != 0 ||
      (r = cu.mem_alloc (&dst, size)) != 0 ||
      (r = cu.mem_alloc (&thr, sizeof (threshold))) != 0 ||
      (r = cu.memcpy_htod (src, in, size)) != 0 ||
      (r = cu.memcpy_htod (thr, &threshold, sizeof (threshold))) != 0) {
    g_printerr ("CUDA: set-up failed (%d)\n", r);
    return FALSE;
  }
  {
    gpointer params[] = { &src, &a.src_offset, &a.src_pitch, &dst,
      &a.dst_offset, &a.dst_pitch, &a.width, &a.height, &a.sxs, &a.sys,
      &a.passes, &thr, &a.passes_log2, &a.shift, &a.xstep, &a.component_step,
      &a.fields
    };

    for (i = 0; i < iterations && r == 0; i++) {
      const gint64 t0 = g_get_monotonic_time ();

      r = cu.launch_kernel (f, (width + TILE - 1) / TILE,
          (height + TILE - 1) / TILE, 1, GROUP, 1, 1, 0, stream, params, NULL);
      if (r == 0)
        r = cu.stream_synchronize (stream);
      times[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  }
  if (r != 0 || (r = cu.memcpy_dtoh (out, dst, size)) != 0) {
    g_printerr ("CUDA: dct_tile failed (%d)\n", r);
    return FALSE;
  }
  *ms = median (times, iterations);
  g_free (times);
  return TRUE;
}

int
main (int argc, char **argv)
{
  const gint width = argc > 2 ? atoi (argv[1]) : 1920;
  const gint height = argc > 2 ? atoi (argv[2]) : 1080;
  const gint iterations = argc > 3 ? MAX (atoi (argv[3]), 1) : 200;
  const cl_device_id device = nvidia_device ();
  GRand *rand = g_rand_new_with_seed (1);
  guint8 *in, *cl_out, *cu_out;
  gchar *ptx = NULL;
  gdouble cl_ms, cu_ms;
  gsize i, size, differ = 0;

  if (!device || width < 8 || height < 8) {
    g_printerr ("no NVIDIA OpenCL device, or a plane under 8x8\n");
    return 1;
  }
  size = (gsize) width *height;
  in = g_malloc (size);
  cl_out = g_malloc (size);
  cu_out = g_malloc (size);
  /* smooth areas with noise and edges, as decoded pictures have */
  for (i = 0; i < size; i++)
    in[i] = (guint8) CLAMP ((gint) (i % width / 8 + (i / width % 64 < 32 ?
                40 : 0)) + g_rand_int_range (rand, -6, 7), 0, 255);
  if (!run_opencl (device, in, cl_out, width, height, iterations, &ptx, &cl_ms))
    return 1;
  g_print ("OpenCL: dct_tile %dx%d, %d passes at %d: %.3f ms (median of %d); "
      "the binary: %zu bytes, %s\n", width, height, PASSES, THRESHOLD, cl_ms,
      iterations, strlen (ptx), strstr (ptx, ".entry dct_tile") ?
      "PTX with dct_tile" : "no PTX entry dct_tile in it");
  if (!run_cuda (device, ptx, in, cu_out, width, height, iterations, &cu_ms))
    return 1;
  for (i = 0; i < size; i++)
    differ += cl_out[i] != cu_out[i];
  g_print ("CUDA: the same PTX, %.3f ms (median of %d); %zu of %zu bytes "
      "differ from OpenCL's\n", cu_ms, iterations, differ, size);
  return differ == 0 ? 0 : 1;
}
