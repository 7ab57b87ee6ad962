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

/* A stand-in for a filter that runs its kernels in the decoder's CUDA
 * context and needs no OpenCL (cl-cuda-seek's CL_CUDA_SEEK_KERNEL): how
 * separate processes, each decoding and filtering, share the GPU when the
 * filter's GPU time a frame is known and nothing else of the element's is
 * there (docs/benchmarks.md). Per frame in CUDA memory at a sink, on a
 * stream of its own in the frame's context, with up to CUDA_STAND_IN_DEPTH
 * frames in flight (as the element's slots); one stand-in a process, for
 * processes of one chain (several chains would share its stream and
 * slots, and all must be on one GPU):
 *  - LAUNCHES (1) launches, GAP_US microseconds apart on the host (0), of
 *    a kernel in which each work-item reads 4 bytes of the frame and does
 *    LOOPS rounds of arithmetic on them (the frame is not written);
 *  - with COPIES, the rest of the element's commands a frame under
 *    strength=auto: two fills of 16 KB before the launches (its
 *    histograms) and a read back of 16 KB into pinned memory after them;
 *  - with HOLD, the frame's buffer held until its kernels are done (as the
 *    element holds its input);
 *  - with OPENCL (1, 2 or 3), an OpenCL context and queue on NVIDIA's GPU
 *    beside it, as the element has: idle (1), flushed once a frame (2), or
 *    with a user event made, completed and released a frame (3).
 * The settings are CL_CUDA_SEEK_LAUNCHES, _GAP_US, _COPIES, _HOLD and
 * _OPENCL. Prints at the end its frames' mean time on the GPU, from its
 * first command to its last. */

#ifndef __GPU_CUDA_STAND_IN_H__
#define __GPU_CUDA_STAND_IN_H__

#include <gst/gst.h>

#include "cuda-probe.h"
#include "nvidia-device.h"

#define CUDA_STAND_IN_DEPTH 3
#define CUDA_STAND_IN_COPY_BYTES 16384
/* GstCudaMemory's map flag for the device pointer (1.22's) */
#define CUDA_STAND_IN_MAP_CUDA (GST_MAP_FLAG_LAST << 1)

static const gchar cuda_stand_in_ptx[] =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry touch (.param .u64 frame, .param .u32 loops,"
    " .param .u32 count, .param .u64 sink)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %a<4>;\n  .reg .pred %p;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n"
    "  mov.u32 %r3, %tid.x;\n  mad.lo.u32 %r1, %r1, %r2, %r3;\n"
    "  ld.param.u32 %r4, [count];\n  setp.ge.u32 %p, %r1, %r4;\n"
    "  @%p bra DONE;\n  ld.param.u64 %a1, [frame];\n"
    "  mul.wide.u32 %a2, %r1, 4;\n  add.u64 %a1, %a1, %a2;\n"
    "  ld.global.u32 %r5, [%a1];\n  ld.param.u32 %r4, [loops];\n"
    "  mov.u32 %r2, 0;\n  setp.eq.u32 %p, %r4, 0;\n  @%p bra CHECK;\n"
    "LOOP:\n  mad.lo.u32 %r5, %r5, 1664525, 1013904223;\n"
    "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p, %r2, %r4;\n"
    "  @%p bra LOOP;\n"
    /* a store that (almost) never happens keeps the loop */
    "CHECK:\n  setp.ne.u32 %p, %r5, 12345;\n  @%p bra DONE;\n"
    "  ld.param.u64 %a3, [sink];\n  st.global.u32 [%a3], %r5;\n"
    "DONE:\n  ret;\n}\n";

typedef struct
{
  gint loops, launches, gap_us, opencl;
  gboolean hold, copies;
  CudaProbe cu;
  CUresult (*elapsed) (gfloat * ms, CUevent start, CUevent end);
  CUresult (*memset_d32_async) (CUdeviceptr ptr, guint32 value, gsize n,
      CUstream stream);
  CUresult (*memcpy_dtoh_async) (gpointer dst, CUdeviceptr src, gsize size,
      CUstream stream);
  CUresult (*mem_alloc_host) (gpointer * ptr, gsize size);
  CUdeviceptr scratch;          /* COPIES: what is filled and read back */
  gpointer pinned;
  CUcontext context;            /* the first frame's */
  CUfunction touch;
  CUstream stream;
  CUdeviceptr sink;
  CUevent start[CUDA_STAND_IN_DEPTH], done[CUDA_STAND_IN_DEPTH];
  gboolean queued[CUDA_STAND_IN_DEPTH];
  GstBuffer *held[CUDA_STAND_IN_DEPTH];
  guint next;
  cl_context cl;
  cl_command_queue queue;
  gdouble ms;
  guint timed;
  gboolean failed;
  GMutex lock;                  /* sinks of several chains */
} CudaStandIn;

/* From the environment: FALSE where CL_CUDA_SEEK_KERNEL is not set;
 * exits 2, said, where it is and the driver or OpenCL is missing. */
static inline gboolean
cuda_stand_in_init (CudaStandIn * s)
{
  const gchar *loops = g_getenv ("CL_CUDA_SEEK_KERNEL");
  GModule *m;

  if (!loops)
    return FALSE;
  s->loops = MAX (atoi (loops), 0);
  s->launches = MAX (atoi (g_getenv ("CL_CUDA_SEEK_LAUNCHES") ?: "1"), 1);
  s->gap_us = atoi (g_getenv ("CL_CUDA_SEEK_GAP_US") ?: "0");
  s->hold = g_getenv ("CL_CUDA_SEEK_HOLD") != NULL;
  s->copies = g_getenv ("CL_CUDA_SEEK_COPIES") != NULL;
  s->opencl = atoi (g_getenv ("CL_CUDA_SEEK_OPENCL") ?: "0");
  g_mutex_init (&s->lock);
  if (!cuda_probe_load (&s->cu) ||
      !(m = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY)) ||
      !g_module_symbol (m, "cuEventElapsedTime", (gpointer *) & s->elapsed)
      || !g_module_symbol (m, "cuMemsetD32Async",
          (gpointer *) & s->memset_d32_async)
      || !g_module_symbol (m, "cuMemcpyDtoHAsync_v2",
          (gpointer *) & s->memcpy_dtoh_async)
      || !g_module_symbol (m, "cuMemAllocHost_v2",
          (gpointer *) & s->mem_alloc_host)) {
    g_printerr ("stand-in: no CUDA driver\n");
    exit (2);
  }
  if (s->opencl > 0) {
    cl_device_id device = nvidia_device ();
    cl_int err;

    if (!device || !(s->cl = clCreateContext (NULL, 1, &device, NULL, NULL,
                &err)) || !(s->queue = clCreateCommandQueue (s->cl, device,
                0, &err))) {
      g_printerr ("stand-in: no OpenCL context on NVIDIA's GPU\n");
      exit (2);
    }
  }
  return TRUE;
}

/* The kernel, a stream, events and the sink word in @context, current. */
static inline gboolean
cuda_stand_in_setup (CudaStandIn * s, CUcontext context)
{
  CUmodule module;
  guint i;

  if (s->cu.ctx_set_current (context) != 0 ||
      !(module = cuda_probe_load_module (&s->cu, cuda_stand_in_ptx)) ||
      s->cu.module_get_function (&s->touch, module, "touch") != 0 ||
      s->cu.stream_create (&s->stream, 1) != 0 ||
      s->cu.mem_alloc (&s->sink, 4) != 0 ||
      s->cu.mem_alloc (&s->scratch, CUDA_STAND_IN_COPY_BYTES * 2) != 0 ||
      s->mem_alloc_host (&s->pinned, CUDA_STAND_IN_COPY_BYTES) != 0)
    return FALSE;
  for (i = 0; i < CUDA_STAND_IN_DEPTH; i++)
    if (s->cu.event_create (&s->start[i], 0) != 0 ||
        s->cu.event_create (&s->done[i], 0) != 0)
      return FALSE;
  s->context = context;
  return TRUE;
}

/* Waits for the frame in @slot, if any, and takes its time. */
static inline void
cuda_stand_in_retire (CudaStandIn * s, guint slot)
{
  gfloat ms = 0;

  if (!s->queued[slot])
    return;
  s->cu.event_synchronize (s->done[slot]);
  if (s->elapsed (&ms, s->start[slot], s->done[slot]) == 0) {
    s->ms += ms;
    s->timed++;
  }
  gst_clear_buffer (&s->held[slot]);
  s->queued[slot] = FALSE;
}

/* The OpenCL calls of a frame (OPENCL 2 or 3). */
static inline void
cuda_stand_in_opencl (CudaStandIn * s)
{
  cl_event event;
  cl_int err;

  if (s->opencl == 2)
    clFlush (s->queue);
  if (s->opencl == 3 && (event = clCreateUserEvent (s->cl, &err))) {
    clSetUserEventStatus (event, CL_COMPLETE);
    clReleaseEvent (event);
  }
}

/* The stand-in's work on @buf, where it is CUDA memory. */
static inline void
cuda_stand_in_frame (CudaStandIn * s, GstBuffer * buf)
{
  CUcontext context = NULL;
  CUdeviceptr frame;
  GstMapInfo map;
  guint count, slot;
  gpointer params[4];
  gint k;

  if (s->failed || !gst_buffer_map (buf, &map, GST_MAP_READ |
          CUDA_STAND_IN_MAP_CUDA))
    return;
  frame = (CUdeviceptr) (guintptr) map.data;
  count = map.size / 4;
  g_mutex_lock (&s->lock);
  if (s->cu.pointer_get_attribute (&context, CU_POINTER_ATTRIBUTE_CONTEXT,
          frame) != 0 || (!s->context && !cuda_stand_in_setup (s, context))
      || context != s->context || s->cu.ctx_set_current (context) != 0) {
    g_printerr ("stand-in: the frame is not in CUDA memory of one context\n");
    s->failed = TRUE;
    goto done;
  }
  slot = s->next++ % CUDA_STAND_IN_DEPTH;
  cuda_stand_in_retire (s, slot);
  if (s->hold)
    s->held[slot] = gst_buffer_ref (buf);
  params[0] = &frame;
  params[1] = &s->loops;
  params[2] = &count;
  params[3] = &s->sink;
  s->failed = s->cu.event_record (s->start[slot], s->stream) != 0 ||
      (s->copies && (s->memset_d32_async (s->scratch, 0,
              CUDA_STAND_IN_COPY_BYTES / 4, s->stream) != 0 ||
          s->memset_d32_async (s->scratch + CUDA_STAND_IN_COPY_BYTES, 0,
              CUDA_STAND_IN_COPY_BYTES / 4, s->stream) != 0));
  for (k = 0; k < s->launches && !s->failed; k++) {
    const gint64 until = g_get_monotonic_time () + s->gap_us;

    while (k > 0 && g_get_monotonic_time () < until);
    s->failed = s->cu.launch_kernel (s->touch, (count + 255) / 256, 1, 1,
        256, 1, 1, 0, s->stream, params, NULL) != 0;
  }
  s->failed = s->failed || (s->copies && s->memcpy_dtoh_async (s->pinned,
          s->scratch, CUDA_STAND_IN_COPY_BYTES, s->stream) != 0) ||
      s->cu.event_record (s->done[slot], s->stream) != 0;
  if (s->failed)
    g_printerr ("stand-in: a command failed\n");
  s->queued[slot] = !s->failed;
  if (s->failed)
    gst_clear_buffer (&s->held[slot]);
  cuda_stand_in_opencl (s);
done:
  g_mutex_unlock (&s->lock);
  gst_buffer_unmap (buf, &map);
}

/* Waits for the frames in flight and prints their mean time. */
static inline void
cuda_stand_in_finish (CudaStandIn * s)
{
  guint i;

  g_mutex_lock (&s->lock);
  for (i = 0; i < CUDA_STAND_IN_DEPTH; i++)
    cuda_stand_in_retire (s, i);
  g_mutex_unlock (&s->lock);
  if (s->timed)
    g_print ("stand-in: %.4f ms a frame on the GPU (%u frames)\n",
        s->ms / s->timed, s->timed);
}

#endif /* __GPU_CUDA_STAND_IN_H__ */
