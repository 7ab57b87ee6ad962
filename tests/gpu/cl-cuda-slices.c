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

/* cl-cuda-slices [ITERATIONS]
 *
 * Whether the GPU time-slices between a CUDA context and an OpenCL context
 * of the same process, as between a decoder's GstCudaContext and the
 * element's OpenCL context (docs/benchmarks.md, many streams on one GPU).
 * A CUDA context of its own (cuCtxCreate, as GStreamer's) launches an
 * empty kernel and waits for it, ITERATIONS times (default 2000), and
 * copies 3 MB (a 1080p NV12 frame) device to device and waits for that:
 * the median, 90th percentile and largest round trip in microseconds,
 * while the GPU
 *   - is idle;
 *   - runs kernels back to back from a thread on an OpenCL queue of the
 *     same GPU (each filling the GPU for milliseconds);
 *   - runs the same load as a CUDA kernel from another stream of the same
 *     CUDA context (which the GPU may run beside the empty kernel);
 *   - runs it from a second CUDA context.
 * Each load also prints how many of its kernels a second completed. Round
 * trips of about a time slice (milliseconds) under the OpenCL load and the
 * second context, against tens of microseconds beside the same context's
 * stream, say that the contexts take turns on the whole GPU: the
 * decoders' work waits behind the element's, and the way out is to run
 * the element's kernels in the decoder's context. The CUDA kernels are
 * PTX written here, compiled by the driver. Exits 1 where there is no
 * NVIDIA OpenCL device or no CUDA driver. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <CL/cl.h>
#include <gmodule.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda-probe.h"
#include "median.h"
#include "nvidia-device.h"

/* A context's kernels: an empty one, and one whose every work-item counts
 * to its argument (the store that never happens keeps the loop). */
static const gchar ptx[] =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry nothing () { ret; }\n"
    ".visible .entry spin (.param .u64 spin_out, .param .u32 spin_n)\n{\n"
    "  .reg .u32 %r<4>;\n  .reg .u64 %a;\n  .reg .pred %p;\n"
    "  ld.param.u32 %r1, [spin_n];\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 1;\n"
    "LOOP:\n  mad.lo.u32 %r3, %r3, 1664525, 1013904223;\n"
    "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p, %r2, %r1;\n"
    "  @%p bra LOOP;\n  setp.ne.u32 %p, %r3, 12345;\n  @%p bra DONE;\n"
    "  ld.param.u64 %a, [spin_out];\n  st.global.u32 [%a], %r3;\n"
    "DONE:\n  ret;\n}\n";

static const gchar cl_source[] =
    "__kernel void spin (__global uint *out, uint n) {\n"
    "  uint x = 1;\n"
    "  for (uint i = 0; i < n; i++) x = x * 1664525u + 1013904223u;\n"
    "  if (x == 12345u) out[0] = x;\n}\n";

/* Work-groups of 256 a load kernel takes, and each work-item's count:
 * milliseconds of the whole GPU a kernel, in work-groups short enough
 * (about a tenth of a millisecond) that a kernel of the same context
 * finds a free place soon. */
#define LOAD_GROUPS 32768
#define LOAD_COUNT 2000

/* A context with the two kernels. */
typedef struct
{
  CUcontext context;
  CUfunction nothing, spin;
  CUstream stream;
} Side;

typedef enum
{ LOAD_NONE, LOAD_OPENCL, LOAD_SAME_CONTEXT, LOAD_OTHER_CONTEXT } Load;

typedef struct
{
  const CudaProbe *cu;
  Load load;
  Side *side;                   /* the CUDA load's context */
  CUstream stream;              /* and its stream */
  CUdeviceptr out;
  cl_command_queue queue;
  cl_kernel kernel;
  gint stop;                    /* atomic */
  gint kernels;                 /* how many it completed */
  gdouble seconds;
} Loader;

/* A new context on CUDA device 0 with the kernels and a stream; FALSE with
 * a message where the driver refuses. */
static gboolean
side_new (const CudaProbe * cu, Side * side)
{
  CUmodule module;
  gint device;
  CUresult r = 0;

  if ((r = cu->device_get (&device, 0)) != 0 ||
      (r = cu->ctx_create (&side->context, 0, device)) != 0 ||
      !(module = cuda_probe_load_module (cu, ptx)) ||
      (r = cu->module_get_function (&side->nothing, module, "nothing")) != 0
      || (r = cu->module_get_function (&side->spin, module, "spin")) != 0 ||
      (r = cu->stream_create (&side->stream, 1)) != 0) {
    g_printerr ("CUDA set-up failed: %d\n", r);
    return FALSE;
  }
  return TRUE;
}

static gpointer
run_load (gpointer data)
{
  Loader *l = data;
  const gint64 t0 = g_get_monotonic_time ();
  guint n = LOAD_COUNT;

  if (l->load == LOAD_SAME_CONTEXT || l->load == LOAD_OTHER_CONTEXT)
    l->cu->ctx_set_current (l->side->context);
  while (!g_atomic_int_get (&l->stop)) {
    if (l->load == LOAD_OPENCL) {
      const size_t global = LOAD_GROUPS * 256, local = 256;

      clEnqueueNDRangeKernel (l->queue, l->kernel, 1, NULL, &global, &local,
          0, NULL, NULL);
      clFinish (l->queue);
    } else {
      gpointer params[] = { &l->out, &n };

      l->cu->launch_kernel (l->side->spin, LOAD_GROUPS, 1, 1, 256, 1, 1, 0,
          l->stream, params, NULL);
      l->cu->stream_synchronize (l->stream);
    }
    l->kernels++;
  }
  l->seconds = (g_get_monotonic_time () - t0) / 1e6;
  return NULL;
}

/* Prints the median, 90th percentile and largest of @us (@n values). */
static void
print_round_trips (const gchar * what, gdouble * us, gint n)
{
  const gdouble mid = median (us, n);   /* sorts */

  g_print ("  %-36s median %8.1f  p90 %8.1f  max %8.1f us\n", what, mid,
      us[n * 9 / 10], us[n - 1]);
}

/* @main's round trips, @iterations of each kind, under @l's load. */
static void
measure (const CudaProbe * cu, const Side * main_side, CUdeviceptr a,
    CUdeviceptr b, gint iterations, Loader * l, const gchar * name)
{
  gdouble *kernel_us = g_new (gdouble, iterations);
  gdouble *copy_us = g_new (gdouble, iterations);
  GThread *thread = NULL;
  gint i;

  l->stop = 0;
  l->kernels = 0;
  if (l->load != LOAD_NONE) {
    thread = g_thread_new ("load", run_load, l);
    g_usleep (200000);          /* the load under way */
  }
  cu->ctx_set_current (main_side->context);
  for (i = 0; i < iterations; i++) {
    gint64 t0 = g_get_monotonic_time ();

    cu->launch_kernel (main_side->nothing, 1, 1, 1, 32, 1, 1, 0,
        main_side->stream, NULL, NULL);
    cu->stream_synchronize (main_side->stream);
    kernel_us[i] = g_get_monotonic_time () - t0;
    t0 = g_get_monotonic_time ();
    cu->memcpy_dtod_async (b, a, 1920 * 1080 * 3 / 2, main_side->stream);
    cu->stream_synchronize (main_side->stream);
    copy_us[i] = g_get_monotonic_time () - t0;
  }
  if (thread) {
    g_atomic_int_set (&l->stop, 1);
    g_thread_join (thread);
  }
  g_print ("%s", name);
  if (l->load != LOAD_NONE)
    g_print (" (the load: %.0f kernels a second)", l->kernels / l->seconds);
  g_print ("\n");
  print_round_trips ("empty kernel, launch and wait:", kernel_us, iterations);
  print_round_trips ("3 MB copy on the GPU, and wait:", copy_us, iterations);
  g_free (kernel_us);
  g_free (copy_us);
}

int
main (int argc, char **argv)
{
  const gint iterations = argc > 1 ? MAX (atoi (argv[1]), 10) : 2000;
  const cl_device_id device = nvidia_device ();
  const gchar *source = cl_source;
  CudaProbe cu = { 0 };
  Side main_side, other_side;
  Loader l = { &cu };
  CUdeviceptr a, b;
  cl_context cl;
  cl_program program;
  cl_mem out;
  cl_int status;
  guint n = LOAD_COUNT;

  if (!device || !cuda_probe_load (&cu)) {
    g_printerr ("no NVIDIA OpenCL device or no CUDA driver\n");
    return 1;
  }
  if (!side_new (&cu, &main_side) || !side_new (&cu, &other_side))
    return 1;
  cu.ctx_set_current (main_side.context);
  cu.mem_alloc (&a, 1920 * 1080 * 3 / 2);
  cu.mem_alloc (&b, 1920 * 1080 * 3 / 2);
  cu.mem_alloc (&l.out, 4);
  cu.stream_create (&l.stream, 1);      /* main_side's second stream */

  cl = clCreateContext (NULL, 1, &device, NULL, NULL, &status);
  l.queue = clCreateCommandQueue (cl, device, 0, &status);
  program = clCreateProgramWithSource (cl, 1, &source, NULL, &status);
  status = clBuildProgram (program, 1, &device, NULL, NULL, NULL);
  l.kernel = clCreateKernel (program, "spin", &status);
  out = clCreateBuffer (cl, CL_MEM_READ_WRITE, 4, NULL, &status);
  clSetKernelArg (l.kernel, 0, sizeof (out), &out);
  clSetKernelArg (l.kernel, 1, sizeof (n), &n);
  if (status != CL_SUCCESS) {
    g_printerr ("OpenCL set-up failed: %d\n", status);
    return 1;
  }

  l.load = LOAD_NONE;
  measure (&cu, &main_side, a, b, iterations, &l, "idle GPU");
  l.load = LOAD_OPENCL;
  measure (&cu, &main_side, a, b, iterations, &l,
      "OpenCL kernels back to back, same process");
  l.load = LOAD_SAME_CONTEXT;
  l.side = &main_side;
  measure (&cu, &main_side, a, b, iterations, &l,
      "CUDA kernels, another stream of the same context");
  /* the other context's own stream and buffer */
  cu.ctx_set_current (other_side.context);
  cu.mem_alloc (&l.out, 4);
  l.stream = other_side.stream;
  l.load = LOAD_OTHER_CONTEXT;
  l.side = &other_side;
  measure (&cu, &main_side, a, b, iterations, &l,
      "CUDA kernels, a second CUDA context");
  return 0;
}
