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
 * Whether the GPU makes a CUDA context wait for its turn behind an OpenCL
 * context of the same process, as a decoder's GstCudaContext beside the
 * element's OpenCL context (docs/benchmarks.md, many streams on one GPU).
 * A CUDA context of its own (cuCtxCreate, as GStreamer's), on the GPU of
 * the first NVIDIA OpenCL device, launches an empty kernel on a stream of
 * the highest priority and waits for it, ITERATIONS times (default 2000),
 * and copies 3 MB (a 1080p NV12 frame) device to device and waits: the
 * median, 90th percentile and largest round trip in microseconds, while
 *   - the GPU is idle;
 *   - OpenCL keeps long kernels queued (two at a time, each milliseconds
 *     long, in work-groups of some tens of microseconds);
 *   - OpenCL keeps short kernels queued (four at a time, each some tens
 *     of microseconds, as several elements' stages: 0.04 ms on an H200);
 *   - another stream of the same CUDA context keeps the long kernels
 *     queued, at the default priority;
 *   - a second CUDA context keeps them queued, at the default priority;
 * and then the two OpenCL rows with the measured context the one NVIDIA's
 * OpenCL itself runs in, where CUDA can find it (the ways tried are said:
 * a decoder given that context would take no turns with the element).
 * A row stops after 10 s, saying how many round trips it made.
 * Each load prints its kernels' length. How to read it: beside the same
 * context's load the empty kernel waits for a free place, about one
 * work-group's time (tens of microseconds); if it waits about as long under OpenCL's load and
 * the second context's (a time slice, or the load kernel's end), the GPU
 * gives the contexts turns, and a decoder's kernels wait behind the
 * element's: the way out is to run the element's kernels in the decoder's
 * context (cl-ptx-in-cuda asks whether they can). If the kernels wait but
 * the copies do not, the decoder's copies (copy engines) are not held up,
 * only its kernels. The CUDA kernels are PTX written here, compiled by the
 * driver. Exits 1 where there is no NVIDIA OpenCL device or no CUDA
 * driver, or a call fails (named). */

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

/* Each work-item's count: a work-group of 256 lasts some tens of
 * microseconds. A long load kernel's work-groups (milliseconds of the
 * whole GPU) and a short one's (a few waves of work-groups). */
#define LOAD_COUNT 2000
#define LONG_GROUPS (16 * 32768)
#define SHORT_GROUPS 3072
#define MAX_DEPTH 4
/* The longest a row measures. */
#define ROW_SECONDS 10

#define CU_OK(call) cu_ok ((call), #call)
#define CL_OK(call) cl_ok ((call), #call)

static void
cu_ok (CUresult r, const gchar * what)
{
  if (r != 0) {
    g_printerr ("%s failed: %d\n", what, r);
    exit (1);
  }
}

static void
cl_ok (cl_int s, const gchar * what)
{
  if (s != CL_SUCCESS) {
    g_printerr ("%s failed: %d\n", what, s);
    exit (1);
  }
}

/* A context with the two kernels and a stream. */
typedef struct
{
  CUcontext context;
  CUfunction nothing, spin;
  CUstream stream;
} Side;

typedef enum
{ LOAD_NONE, LOAD_OPENCL, LOAD_CUDA } LoadKind;

typedef struct
{
  const CudaProbe *cu;
  LoadKind kind;
  guint groups, depth;          /* a kernel's work-groups, kernels queued */
  Side *side;                   /* LOAD_CUDA: the context */
  CUstream stream;              /* and its stream */
  CUdeviceptr out;
  cl_command_queue queue;       /* LOAD_OPENCL */
  cl_kernel kernel;
  gint stop;                    /* atomic */
  guint kernels;                /* how many it completed */
  gdouble seconds;
} Load;

/* @context, made current, with the kernels and a stream of the highest
 * priority (the one measured). */
static void
side_init (const CudaProbe * cu, CUcontext context, Side * side)
{
  CUmodule module;
  gint least, greatest;

  side->context = context;
  CU_OK (cu->ctx_set_current (context));
  if (!(module = cuda_probe_load_module (cu, ptx)))
    exit (1);
  CU_OK (cu->module_get_function (&side->nothing, module, "nothing"));
  CU_OK (cu->module_get_function (&side->spin, module, "spin"));
  CU_OK (cu->ctx_get_stream_priority_range (&least, &greatest));
  CU_OK (cu->stream_create_with_priority (&side->stream, 1, greatest));
}

/* A new context on CUDA device @ordinal (cuCtxCreate, as GStreamer's). */
static void
side_new (const CudaProbe * cu, gint ordinal, Side * side)
{
  CUcontext context;
  gint device;

  CU_OK (cu->device_get (&device, ordinal));
  CU_OK (cu->ctx_create (&context, 0, device));
  side_init (cu, context, side);
}

/* Keeps l->depth kernels queued until told to stop, waiting for the oldest
 * before the next. */
static gpointer
run_load (gpointer data)
{
  Load *l = data;
  const gint64 t0 = g_get_monotonic_time ();
  const size_t global = (size_t) l->groups * 256, local = 256;
  cl_event cl_done[MAX_DEPTH] = { NULL };
  CUevent cu_done[MAX_DEPTH];
  guint n = LOAD_COUNT, i, queued = 0;

  if (l->kind == LOAD_CUDA) {
    CU_OK (l->cu->ctx_set_current (l->side->context));
    for (i = 0; i < l->depth; i++)
      CU_OK (l->cu->event_create (&cu_done[i], 0));
  }
  for (i = 0; !g_atomic_int_get (&l->stop); i = (i + 1) % l->depth) {
    if (queued == l->depth) {   /* the oldest, in slot i */
      if (l->kind == LOAD_OPENCL) {
        CL_OK (clWaitForEvents (1, &cl_done[i]));
        clReleaseEvent (cl_done[i]);
      } else {
        CU_OK (l->cu->event_synchronize (cu_done[i]));
      }
      l->kernels++;
      queued--;
    }
    if (l->kind == LOAD_OPENCL) {
      CL_OK (clEnqueueNDRangeKernel (l->queue, l->kernel, 1, NULL, &global,
              &local, 0, NULL, &cl_done[i]));
      CL_OK (clFlush (l->queue));
    } else {
      gpointer params[] = { &l->out, &n };

      CU_OK (l->cu->launch_kernel (l->side->spin, l->groups, 1, 1, 256, 1, 1,
              0, l->stream, params, NULL));
      CU_OK (l->cu->event_record (cu_done[i], l->stream));
    }
    queued++;
  }
  if (l->kind == LOAD_OPENCL)
    CL_OK (clFinish (l->queue));
  else
    CU_OK (l->cu->stream_synchronize (l->stream));
  l->kernels += queued;         /* the time below drained them too */
  l->seconds = (g_get_monotonic_time () - t0) / 1e6;
  for (i = 0; l->kind == LOAD_OPENCL && i < l->depth; i++)
    if (cl_done[i])
      clReleaseEvent (cl_done[i]);
  return NULL;
}

/* Prints the median, 90th percentile and largest of @us (@n values). */
static void
print_round_trips (const gchar * what, gdouble * us, gint n)
{
  const gdouble mid = median (us, n);   /* sorts */

  g_print ("  %-34s median %8.1f  p90 %8.1f  max %8.1f us\n", what, mid,
      us[n * 9 / 10], us[n - 1]);
}

/* Round trips of @s's empty kernel and of a copy between @a and @b, into
 * @kernel_us and @copy_us (NULL: not kept): @iterations of them, or as
 * many as ROW_SECONDS allow (a loaded GPU may make each wait long);
 * returns how many. */
static gint
round_trips (const CudaProbe * cu, const Side * s, CUdeviceptr a,
    CUdeviceptr b, gint iterations, gdouble * kernel_us, gdouble * copy_us)
{
  const gint64 end = g_get_monotonic_time () + ROW_SECONDS * G_USEC_PER_SEC;
  gint i;

  CU_OK (cu->ctx_set_current (s->context));
  for (i = 0; i < iterations && g_get_monotonic_time () < end; i++) {
    gint64 t0 = g_get_monotonic_time ();

    CU_OK (cu->launch_kernel (s->nothing, 1, 1, 1, 32, 1, 1, 0, s->stream,
            NULL, NULL));
    CU_OK (cu->stream_synchronize (s->stream));
    if (kernel_us)
      kernel_us[i] = g_get_monotonic_time () - t0;
    t0 = g_get_monotonic_time ();
    CU_OK (cu->memcpy_dtod_async (b, a, 1920 * 1080 * 3 / 2, s->stream));
    CU_OK (cu->stream_synchronize (s->stream));
    if (copy_us)
      copy_us[i] = g_get_monotonic_time () - t0;
  }
  return i;
}

/* The round trips of @s under @l's load, printed under @name. */
static void
measure (const CudaProbe * cu, const Side * s, CUdeviceptr a, CUdeviceptr b,
    gint iterations, Load * l, const gchar * name)
{
  gdouble *kernel_us = g_new (gdouble, iterations);
  gdouble *copy_us = g_new (gdouble, iterations);
  GThread *thread = NULL;
  gint n;

  l->stop = 0;
  l->kernels = 0;
  if (l->kind != LOAD_NONE) {
    thread = g_thread_new ("load", run_load, l);
    g_usleep (300000);          /* the load under way */
  }
  n = round_trips (cu, s, a, b, iterations, kernel_us, copy_us);
  if (thread) {
    g_atomic_int_set (&l->stop, 1);
    g_thread_join (thread);
  }
  g_print ("%s, %d round trips", name, n);
  if (l->kind != LOAD_NONE && l->kernels > 0)
    g_print (" (the load: %u kernels, %.3f ms each)", l->kernels,
        l->seconds * 1000 / l->kernels);
  g_print ("\n");
  print_round_trips ("empty kernel, launch and wait:", kernel_us, n);
  print_round_trips ("3 MB copy on the GPU, and wait:", copy_us, n);
  g_free (kernel_us);
  g_free (copy_us);
}

/* The rows under OpenCL's long kernels, then its short ones. */
static void
measure_under_opencl (const CudaProbe * cu, const Side * s, CUdeviceptr a,
    CUdeviceptr b, gint iterations, Load * l, const gchar * where)
{
  gchar *name = g_strdup_printf ("OpenCL, long kernels, %s", where);

  l->kind = LOAD_OPENCL;
  l->groups = LONG_GROUPS;
  l->depth = 2;
  measure (cu, s, a, b, iterations, l, name);
  g_free (name);
  name = g_strdup_printf ("OpenCL, short kernels, %s", where);
  l->groups = SHORT_GROUPS;
  l->depth = 4;
  measure (cu, s, a, b, iterations, l, name);
  g_free (name);
}

/* The OpenCL load's kernel on @device; exits where it does not build. */
static cl_kernel
opencl_load_kernel (cl_device_id device, cl_command_queue * queue,
    cl_context * context)
{
  const gchar *source = cl_source;
  const cl_uint n = LOAD_COUNT;
  cl_int s = CL_SUCCESS;
  cl_context cl = clCreateContext (NULL, 1, &device, NULL, NULL, &s);
  cl_program program;
  cl_kernel kernel;
  cl_mem out;

  CL_OK (s);
  *queue = clCreateCommandQueue (cl, device, 0, &s);
  CL_OK (s);
  program = clCreateProgramWithSource (cl, 1, &source, NULL, &s);
  CL_OK (s);
  CL_OK (clBuildProgram (program, 1, &device, NULL, NULL, NULL));
  kernel = clCreateKernel (program, "spin", &s);
  CL_OK (s);
  out = clCreateBuffer (cl, CL_MEM_READ_WRITE, 4, NULL, &s);
  CL_OK (s);
  CL_OK (clSetKernelArg (kernel, 0, sizeof (out), &out));
  CL_OK (clSetKernelArg (kernel, 1, sizeof (n), &n));
  *context = cl;
  return kernel;
}

/* What the calling thread has current in an OpenCL event's callback. */
static void CL_CALLBACK
current_in_callback (cl_event event, cl_int status, void *data)
{
  gpointer *slot = data;
  const CudaProbe *cu = slot[0];
  CUcontext current = NULL;

  cu->ctx_get_current (&current);
  g_atomic_pointer_set (&slot[1], current ? current : GINT_TO_POINTER (1));
}

/* The CUDA context of @cl (on @device, CUDA device @cu_device), found by
 * the first way that works, each said on stderr: the context that owns
 * an OpenCL buffer's address; the device's primary context, where OpenCL
 * made it active; the one current on this thread after OpenCL's calls; the
 * one current in an OpenCL event's callback. NULL where none works. */
static CUcontext
opencl_cuda_context (const CudaProbe * cu, cl_context cl, cl_device_id device,
    gint cu_device)
{
  const gchar *source = "__kernel void address_of (__global ulong *out) {\n"
      "  out[0] = (ulong) out;\n}\n";
  const size_t one = 1;
  cl_int s = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueue (cl, device, 0, &s);
  cl_program program = clCreateProgramWithSource (cl, 1, &source, NULL, &s);
  cl_kernel kernel = NULL;
  cl_mem out = clCreateBuffer (cl, CL_MEM_READ_WRITE, 8, NULL, &s);
  cl_event done = NULL;
  guint64 address = 0;
  CUcontext context = NULL;
  static gpointer slot[2];      /* the callback may come late */
  guint flags = 0;
  gint active = 0, i;
  CUresult r;

  slot[0] = (gpointer) cu;
  if (s == CL_SUCCESS)
    s = clBuildProgram (program, 1, &device, NULL, NULL, NULL);
  if (s == CL_SUCCESS)
    kernel = clCreateKernel (program, "address_of", &s);
  if (s == CL_SUCCESS)
    s = clSetKernelArg (kernel, 0, sizeof (out), &out);
  if (s == CL_SUCCESS)
    s = clEnqueueNDRangeKernel (queue, kernel, 1, NULL, &one, &one, 0, NULL,
        &done);
  if (s == CL_SUCCESS)
    s = clSetEventCallback (done, CL_COMPLETE, current_in_callback, slot);
  if (s == CL_SUCCESS)
    s = clEnqueueReadBuffer (queue, out, CL_TRUE, 0, 8, &address, 0, NULL,
        NULL);
  if (s != CL_SUCCESS) {
    g_printerr ("OpenCL: a buffer's address: error %d\n", s);
    return NULL;
  }
  for (i = 0; i < 1000 && !g_atomic_pointer_get (&slot[1]); i++)
    g_usleep (1000);
  r = cu->pointer_get_attribute (&context, CU_POINTER_ATTRIBUTE_CONTEXT,
      address);
  g_printerr ("OpenCL's buffer at 0x%" G_GINT64_MODIFIER "x: "
      "cuPointerGetAttribute (CONTEXT) %d, %p\n", address, r, context);
  if (r == 0 && context)
    return context;
  r = cu->primary_ctx_get_state (cu_device, &flags, &active);
  g_printerr ("the primary context: %s (%d)\n", active ? "active" : "inactive",
      r);
  if (r == 0 && active && cu->primary_ctx_retain (&context, cu_device) == 0)
    return context;
  r = cu->ctx_get_current (&context);
  g_printerr ("current after OpenCL's calls: %p (%d)\n", context, r);
  if (r == 0 && context)
    return context;
  context = g_atomic_pointer_get (&slot[1]);
  g_printerr ("current in OpenCL's callback: %p\n", context);
  return context == GINT_TO_POINTER (1) ? NULL : context;
}

int
main (int argc, char **argv)
{
  const gint iterations = argc > 1 ? MAX (atoi (argv[1]), 10) : 2000;
  const cl_device_id device = nvidia_device ();
  CudaProbe cu = { 0 };
  Side measured, other, opencls;
  Load l = { &cu };
  CUcontext own;
  cl_context cl;
  gint device_handle;
  CUdeviceptr a, b, other_out;
  CUstream other_stream;
  gint ordinal;

  if (!device || !cuda_probe_load (&cu)) {
    g_printerr ("no NVIDIA OpenCL device or no CUDA driver\n");
    return 1;
  }
  if ((ordinal = cuda_probe_device_of (&cu, device)) < 0) {
    g_printerr ("no CUDA device is the OpenCL device\n");
    return 1;
  }
  /* before any context of this probe's: what is current after OpenCL's
   * calls is then OpenCL's */
  CU_OK (cu.device_get (&device_handle, ordinal));
  l.kernel = opencl_load_kernel (device, &l.queue, &cl);
  own = opencl_cuda_context (&cu, cl, device, device_handle);
  side_new (&cu, ordinal, &measured);
  side_new (&cu, ordinal, &other);
  CU_OK (cu.ctx_set_current (other.context));
  CU_OK (cu.mem_alloc (&other_out, 4));
  CU_OK (cu.stream_create (&other_stream, 1));  /* default priority */
  CU_OK (cu.ctx_set_current (measured.context));
  CU_OK (cu.mem_alloc (&a, 1920 * 1080 * 3 / 2));
  CU_OK (cu.mem_alloc (&b, 1920 * 1080 * 3 / 2));
  CU_OK (cu.mem_alloc (&l.out, 4));
  CU_OK (cu.stream_create (&l.stream, 1));      /* default priority */
  g_print ("CUDA device %d, its OpenCL device's GPU; %d round trips a row\n",
      ordinal, iterations);

  round_trips (&cu, &measured, a, b, 50, NULL, NULL);   /* warm-up */
  l.kind = LOAD_NONE;
  measure (&cu, &measured, a, b, iterations, &l, "idle GPU");
  measure_under_opencl (&cu, &measured, a, b, iterations, &l, "same process");
  l.kind = LOAD_CUDA;
  l.groups = LONG_GROUPS;
  l.depth = 2;
  l.side = &measured;
  measure (&cu, &measured, a, b, iterations, &l,
      "CUDA, long kernels, same context");
  l.side = &other;
  l.stream = other_stream;
  l.out = other_out;
  measure (&cu, &measured, a, b, iterations, &l,
      "CUDA, long kernels, a second context");

  /* The OpenCL rows again with the measured context OpenCL's own. */
  if (!own) {
    g_print ("OpenCL's own CUDA context: not found\n");
    return 0;
  }
  g_print ("OpenCL's own CUDA context: %p\n", own);
  side_init (&cu, own, &opencls);
  CU_OK (cu.mem_alloc (&a, 1920 * 1080 * 3 / 2));
  CU_OK (cu.mem_alloc (&b, 1920 * 1080 * 3 / 2));
  round_trips (&cu, &opencls, a, b, 50, NULL, NULL);    /* warm-up */
  measure_under_opencl (&cu, &opencls, a, b, iterations, &l,
      "measured in OpenCL's own context");
  return 0;
}
