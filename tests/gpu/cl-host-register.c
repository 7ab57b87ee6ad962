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

/* cl-host-register [ITERATIONS]
 *
 * Whether a frame in system memory could go to an NVIDIA GPU without the
 * CPU's copy into pinned staging (gst/gstclplacement.c, stage_plane) by
 * pinning its own pages with CUDA: the median ms over ITERATIONS (default
 * 30) of a blocking clEnqueueWriteBuffer of a 4K NV12 frame (12.4 MB) on
 * the first NVIDIA OpenCL device, from pageable memory, from OpenCL's
 * pinned memory (CL_MEM_ALLOC_HOST_PTR, mapped), the copy into it and the
 * write together (what the element does), and from the same pageable
 * memory once CUDA pinned it (cuMemHostRegister, portable to every
 * context), page-aligned and not, with the time the registration itself
 * took; and from pageable memory that a CL_MEM_USE_HOST_PTR buffer wraps
 * (NVIDIA's OpenCL pins the pages for the buffer's life), with what the
 * wrapping took and whether a write from those pages, and a copy from the
 * wrapping buffer, see what the CPU wrote into them after the wrapping;
 * and the same for two frames of one block, not page-aligned, that share
 * a page (GStreamer's system memory).
 * Exits 1 where there is no NVIDIA device or no CUDA driver. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <CL/cl.h>
#include <gmodule.h>
#include <stdio.h>
#include <string.h>

#include "median.h"
#include "nvidia-device.h"

#define CU_MEMHOSTREGISTER_PORTABLE 0x01

typedef int (*CuInit) (guint flags);
typedef int (*CuDeviceGet) (gint * device, gint ordinal);
typedef int (*CuPrimaryCtxRetain) (gpointer * context, gint device);
typedef int (*CuCtxSetCurrent) (gpointer context);
typedef int (*CuMemHostRegister) (gpointer ptr, gsize size, guint flags);

typedef struct
{
  cl_command_queue queue;
  cl_mem device;
  gsize size;
  gint iterations;
} Bench;

/* The median ms of a blocking write of @b's frame from @host, after a
 * copy into it from @copy_from where not NULL. */
static gdouble
time_writes (const Bench * b, gpointer host, gconstpointer copy_from)
{
  gdouble *ms = g_new (gdouble, b->iterations), m;
  gint i;

  for (i = 0; i < b->iterations; i++) {
    const gint64 t0 = g_get_monotonic_time ();

    if (copy_from)
      memcpy (host, copy_from, b->size);
    clEnqueueWriteBuffer (b->queue, b->device, CL_TRUE, 0, b->size, host, 0,
        NULL, NULL);
    ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
  }
  m = median (ms, b->iterations);
  g_free (ms);
  return m;
}

/* Registers @ptr (@size bytes) with CUDA, printing what it took. */
static void
register_pages (CuMemHostRegister host_register, gpointer ptr, gsize size,
    const gchar * what)
{
  const gint64 t0 = g_get_monotonic_time ();
  const int status = host_register (ptr, size, CU_MEMHOSTREGISTER_PORTABLE);

  g_print ("cuMemHostRegister (%s): %d, %.3f ms\n", what, status,
      (g_get_monotonic_time () - t0) / 1000.0);
}

/* Whether the device buffer of @b starts with @value, read back. */
static gboolean
device_holds (const Bench * b, guint8 value)
{
  guint8 first[64];
  guint i;

  clEnqueueReadBuffer (b->queue, b->device, CL_TRUE, 0, sizeof (first), first,
      0, NULL, NULL);
  for (i = 0; i < sizeof (first); i++)
    if (first[i] != value)
      return FALSE;
  return TRUE;
}

/* Wraps pageable memory as a CL_MEM_USE_HOST_PTR buffer of @cl and times
 * writes from its pages; then changes them on the CPU and says whether a
 * write from them, and a copy from the wrapping buffer, carry the change. */
static void
time_wrapped (Bench * b, cl_context cl)
{
  guint8 *block = g_malloc (b->size + 4096);
  guint8 *pages = (guint8 *) (((guintptr) block + 4095) & ~(guintptr) 4095);
  gint64 t0;
  cl_mem wrap;
  cl_int status;

  memset (pages, 3, b->size);
  t0 = g_get_monotonic_time ();
  wrap = clCreateBuffer (cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, b->size,
      pages, &status);
  g_print ("clCreateBuffer (CL_MEM_USE_HOST_PTR): %d, %.3f ms\n", status,
      (g_get_monotonic_time () - t0) / 1000.0);
  if (status != CL_SUCCESS)
    return;
  g_print ("write from pageable memory a CL_MEM_USE_HOST_PTR buffer wraps: "
      "%.3f ms\n", time_writes (b, pages, NULL));
  memset (pages, 4, b->size);
  clEnqueueWriteBuffer (b->queue, b->device, CL_TRUE, 0, b->size, pages, 0,
      NULL, NULL);
  g_print ("that write carries the CPU's later change: %s\n",
      device_holds (b, 4) ? "yes" : "NO");
  memset (pages, 5, b->size);
  clEnqueueCopyBuffer (b->queue, wrap, b->device, 0, 0, b->size, 0, NULL, NULL);
  clFinish (b->queue);
  g_print ("a copy from the wrapping buffer carries it: %s\n",
      device_holds (b, 5) ? "yes" : "no (the buffer is not the pages)");
  t0 = g_get_monotonic_time ();
  clReleaseMemObject (wrap);
  g_print ("clReleaseMemObject (the wrapping buffer): %.3f ms\n",
      (g_get_monotonic_time () - t0) / 1000.0);
  g_free (block);
}

/* As GStreamer's system memory lays out frames: two frames of one block,
 * neither page-aligned, the second starting in the first one's last page;
 * each wrapped, then writes from the second timed. */
static void
time_wrapped_neighbours (Bench * b, cl_context cl)
{
  guint8 *block = g_malloc (2 * b->size + 256);
  guint8 *first = block + 112, *second = first + b->size + 16;
  cl_mem wraps[2];
  cl_int status[2];

  memset (block, 6, 2 * b->size + 256);
  wraps[0] = clCreateBuffer (cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
      b->size, first, &status[0]);
  wraps[1] = clCreateBuffer (cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
      b->size, second, &status[1]);
  g_print ("two neighbours wrapped, not page-aligned, sharing a page: %d %d\n",
      status[0], status[1]);
  g_print ("write from the second: %.3f ms\n", time_writes (b, second, NULL));
  memset (second, 7, b->size);
  clEnqueueWriteBuffer (b->queue, b->device, CL_TRUE, 0, b->size, second, 0,
      NULL, NULL);
  g_print ("that write carries the CPU's later change: %s\n",
      device_holds (b, 7) ? "yes" : "NO");
  if (status[0] == CL_SUCCESS)
    clReleaseMemObject (wraps[0]);
  g_print ("write from the second, the first let go of: %.3f ms\n",
      time_writes (b, second, NULL));
  if (status[1] == CL_SUCCESS)
    clReleaseMemObject (wraps[1]);
  g_free (block);
}

int
main (int argc, char **argv)
{
  Bench b = { NULL, NULL, 3840 * 2160 * 3 / 2, argc > 1 ? atoi (argv[1]) : 30 };
  cl_device_id device = nvidia_device ();
  GModule *cuda = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);
  gpointer init, get, retain, set_current, host_register, context;
  guint8 *pageable, *unaligned;
  gpointer pinned;
  cl_context cl;
  cl_mem staging;
  cl_int status;
  gint cu_device;

  if (!device || !cuda || !g_module_symbol (cuda, "cuInit", &init) ||
      !g_module_symbol (cuda, "cuDeviceGet", &get) ||
      !g_module_symbol (cuda, "cuDevicePrimaryCtxRetain", &retain) ||
      !g_module_symbol (cuda, "cuCtxSetCurrent", &set_current) ||
      !g_module_symbol (cuda, "cuMemHostRegister_v2", &host_register)) {
    g_printerr ("no NVIDIA OpenCL device or no CUDA driver\n");
    return 1;
  }
  b.iterations = MAX (b.iterations, 1);
  cl = clCreateContext (NULL, 1, &device, NULL, NULL, &status);
  b.queue = clCreateCommandQueue (cl, device, 0, &status);
  b.device = clCreateBuffer (cl, CL_MEM_READ_WRITE, b.size, NULL, &status);
  staging = clCreateBuffer (cl, CL_MEM_ALLOC_HOST_PTR, b.size, NULL, &status);
  pinned = clEnqueueMapBuffer (b.queue, staging, CL_TRUE, CL_MAP_WRITE, 0,
      b.size, 0, NULL, NULL, &status);
  pageable = (guint8 *) (((guintptr) g_malloc (b.size + 4096) + 4095) &
      ~(guintptr) 4095);
  unaligned = (guint8 *) g_malloc (b.size + 64) + 17;
  memset (pageable, 1, b.size);
  memset (unaligned, 2, b.size);
  g_print ("write from pageable memory: %.3f ms\n",
      time_writes (&b, pageable, NULL));
  g_print ("write from pinned staging: %.3f ms\n",
      time_writes (&b, pinned, NULL));
  g_print ("copy into pinned staging, then write: %.3f ms\n",
      time_writes (&b, pinned, pageable));
  time_wrapped (&b, cl);
  time_wrapped_neighbours (&b, cl);
  ((CuInit) init) (0);
  ((CuDeviceGet) get) (&cu_device, 0);
  ((CuPrimaryCtxRetain) retain) (&context, cu_device);
  ((CuCtxSetCurrent) set_current) (context);
  register_pages ((CuMemHostRegister) host_register, pageable, b.size,
      "page-aligned");
  g_print ("write from pageable memory pinned by CUDA: %.3f ms\n",
      time_writes (&b, pageable, NULL));
  register_pages ((CuMemHostRegister) host_register, unaligned, b.size,
      "not aligned");
  g_print ("write from unaligned memory pinned by CUDA: %.3f ms\n",
      time_writes (&b, unaligned, NULL));
  return 0;
}
