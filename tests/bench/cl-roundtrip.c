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

/* cl-roundtrip DEVICE WIDTH HEIGHT ITERATIONS
 *
 * The floor that clepsilon's luma-only frame is held against: the raw OpenCL
 * round trip of one 8-bit plane (upload, the 9x9 epsilon kernel at threshold
 * 20, download), without GStreamer. Prints the median over ITERATIONS of the
 * round trip from pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped) and
 * from pageable memory (malloc), and of the kernel alone. Then whether the
 * two directions overlap: ITERATIONS uploads from pinned memory back to
 * back, as many downloads, and both at once on two queues, ms a plane.
 * Last, frames in flight as clepsilon enqueues them (3 in flight, a ring of
 * 8 pinned inputs and outputs, upload, kernel and download on three
 * queues), ordered in three ways: markers and barriers between the queues
 * (what the element did first), events passed as wait lists to the next
 * command, and no order at all (wrong output; how far the device's engines
 * overlap); ms a frame, and the device's timeline of four frames. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "gstclcontext-private.h"
#include "gstclstage-private.h"

#include "median.h"

static void
check (cl_int status, const gchar * what)
{
  if (status != CL_SUCCESS) {
    g_printerr ("%s failed: %d\n", what, status);
    exit (1);
  }
}

/* Median ms of upload + kernel + download with @host as host memory; the
 * kernel's own median time goes to @kernel_ms. */
static gdouble
round_trip (cl_command_queue queue, const GstClStage * stage,
    const GstClLaunch * launch, cl_mem src, cl_mem dst, guint8 * host,
    gsize size, gint iterations, gdouble * kernel_ms)
{
  gdouble *total = g_new (gdouble, iterations);
  gdouble *kern = g_new (gdouble, iterations);
  GstClEvents events = { {0,}, 0 };
  GError *error = NULL;
  gdouble result;
  gint i;

  for (i = 0; i < iterations; i++) {
    gint64 t0 = g_get_monotonic_time ();

    check (clEnqueueWriteBuffer (queue, src, CL_FALSE, 0, size, host, 0, NULL,
            NULL), "upload");
    if (!gst_cl_stage_run (stage, launch, &(GstClAfter) {
            0, NULL, &events}
            , &error)) {
      g_printerr ("%s\n", error->message);
      exit (1);
    }
    check (clEnqueueReadBuffer (queue, dst, CL_TRUE, 0, size, host, 0, NULL,
            NULL), "download");
    total[i] = (g_get_monotonic_time () - t0) / 1e3;
    kern[i] = gst_cl_events_take_ms (&events);
  }
  result = median (total, iterations);
  *kernel_ms = median (kern, iterations);
  g_free (total);
  g_free (kern);
  return result;
}

/* Wall ms a plane of @n uploads from @up_host into @up on @qa (if @up) and
 * @n downloads from @down into @down_host on @qb (if @down), all enqueued
 * before any is waited for. */
static gdouble
transfers (cl_command_queue qa, cl_command_queue qb, cl_mem up,
    guint8 * up_host, cl_mem down, guint8 * down_host, gsize size, gint n)
{
  gint64 t0 = g_get_monotonic_time ();
  gint i;

  for (i = 0; i < n; i++) {
    if (up)
      check (clEnqueueWriteBuffer (qa, up, CL_FALSE, 0, size, up_host, 0,
              NULL, NULL), "upload");
    if (down)
      check (clEnqueueReadBuffer (qb, down, CL_FALSE, 0, size, down_host, 0,
              NULL, NULL), "download");
  }
  check (clFlush (qa), "clFlush");
  check (clFlush (qb), "clFlush");
  check (clFinish (qa), "clFinish");
  check (clFinish (qb), "clFinish");
  return (g_get_monotonic_time () - t0) / 1e3 / n;
}

/* Prints whether uploads and downloads from pinned memory overlap. */
static void
print_overlap (GstClContext * ctx, cl_mem src, cl_mem dst, guint8 * pinned,
    gsize size, gint n)
{
  cl_command_queue qa = gst_cl_context_get_queue (ctx);
  cl_command_queue qb = gst_cl_context_get_host_queue (ctx);
  guint8 *other = pinned + size / 2;
  gsize half = size / 2;
  gdouble up, down, both;

  /* halves of the pinned buffer as the two host sides, half a plane each */
  transfers (qa, qb, src, pinned, dst, other, half, 2);
  up = transfers (qa, qb, src, pinned, NULL, NULL, half, n);
  down = transfers (qa, qb, NULL, NULL, dst, other, half, n);
  both = transfers (qa, qb, src, pinned, dst, other, half, n);
  g_print ("  %" G_GSIZE_FORMAT " bytes from and to pinned memory: upload "
      "%.3f ms, download %.3f ms, both at once on two queues %.3f ms (%s)\n",
      half, up, down, both, both < 0.75 * (up + down) ? "they overlap" :
      "they do not overlap");
}

typedef enum
{
  ORDER_BARRIERS,
  ORDER_WAIT_LISTS,
  ORDER_NONE,
} Order;

static const gchar *order_names[] = { "markers and barriers",
  "wait lists", "no order (output wrong)"
};

#define DEPTH 3
#define RING 8

typedef struct
{
  GstClContext *ctx;
  const GstClStage *stage;
  const GstClLaunch *launch;
  cl_command_queue up, down;    /* the compute queue is the context's */
  cl_mem src[DEPTH], dst[DEPTH];
  GstClPlaneRef src_ref[DEPTH], dst_ref[DEPTH];
  guint8 *in, *out;             /* RING planes each, pinned */
  gsize size;
} Pipeline;

static cl_ulong
event_time (cl_event event, cl_profiling_info what)
{
  cl_ulong t = 0;

  clGetEventProfilingInfo (event, what, sizeof (t), &t, NULL);
  return t;
}

/* Enqueues frame @i of the pipeline in @order; its last event goes to
 * @done, its upload, kernel and download events to @times (retained). */
static void
pipeline_frame (Pipeline * p, Order order, gint i, cl_event * done,
    cl_event times[3])
{
  const gint k = i % DEPTH;
  GstClStage stage = *p->stage;
  GstClEvents events = { {0,}, 0 };
  cl_uint n_wait = 0;
  cl_event up = NULL, computed = NULL;
  GError *error = NULL;

  stage.plane.src = &p->src_ref[k];
  stage.plane.dst = &p->dst_ref[k];
  check (clEnqueueWriteBuffer (p->up, p->src[k], CL_FALSE, 0, p->size,
          p->in + (i % RING) * p->size, 0, NULL, &times[0]), "upload");
  if (order == ORDER_BARRIERS) {
    check (clEnqueueMarkerWithWaitList (p->up, 0, NULL, &up), "marker");
    check (clEnqueueBarrierWithWaitList (gst_cl_context_get_queue (p->ctx),
            1, &up, NULL), "barrier");
  } else if (order == ORDER_WAIT_LISTS) {
    n_wait = 1;
  }
  if (!gst_cl_stage_run (&stage, p->launch, &(GstClAfter) {
          n_wait, &times[0], &events}
          , &error)) {
    g_printerr ("%s\n", error->message);
    exit (1);
  }
  times[1] = events.events[0];
  if (order == ORDER_BARRIERS) {
    check (clEnqueueMarkerWithWaitList (gst_cl_context_get_queue (p->ctx), 0,
            NULL, &computed), "marker");
    check (clEnqueueBarrierWithWaitList (p->down, 1, &computed, NULL),
        "barrier");
  }
  check (clEnqueueReadBuffer (p->down, p->dst[k], CL_FALSE, 0, p->size,
          p->out + (i % RING) * p->size, order == ORDER_WAIT_LISTS ? 1 : 0,
          order == ORDER_WAIT_LISTS ? &times[1] : NULL, &times[2]), "download");
  if (order == ORDER_BARRIERS)
    check (clEnqueueMarkerWithWaitList (p->down, 0, NULL, done), "marker");
  else
    check (clRetainEvent (*done = times[2]), "clRetainEvent");
  check (clFlush (p->up), "clFlush");
  check (clFlush (gst_cl_context_get_queue (p->ctx)), "clFlush");
  check (clFlush (p->down), "clFlush");
  if (up)
    clReleaseEvent (up);
  if (computed)
    clReleaseEvent (computed);
}

/* Runs @n frames in @order, DEPTH in flight (the CPU waits for frame i -
 * DEPTH before it enqueues frame i), and prints ms a frame and the
 * timeline of four frames in the middle. */
static void
pipeline_run (Pipeline * p, Order order, gint n, gboolean quiet)
{
  cl_event done[DEPTH] = { NULL, };
  cl_event (*times)[3] = g_malloc0_n (n, sizeof (cl_event[3]));
  gint64 t0 = g_get_monotonic_time ();
  gint i, j, first = n / 2;
  cl_ulong origin;

  for (i = 0; i < n; i++) {
    if (done[i % DEPTH]) {
      check (clWaitForEvents (1, &done[i % DEPTH]), "clWaitForEvents");
      clReleaseEvent (done[i % DEPTH]);
    }
    pipeline_frame (p, order, i, &done[i % DEPTH], times[i]);
  }
  for (i = 0; i < DEPTH; i++)
    if (done[i]) {
      check (clWaitForEvents (1, &done[i]), "clWaitForEvents");
      clReleaseEvent (done[i]);
    }
  check (clFinish (gst_cl_context_get_queue (p->ctx)), "clFinish");
  if (!quiet)
    g_print ("  %-24s %.3f ms a frame; timeline (ms, up/kernel/down "
        "start-end):\n", order_names[order],
        (g_get_monotonic_time () - t0) / 1e3 / n);
  origin = event_time (times[first][0], CL_PROFILING_COMMAND_START);
  for (i = first; !quiet && i < first + 4 && i < n; i++) {
    g_print ("    frame %d:", i);
    for (j = 0; j < 3; j++)
      g_print ("  %.3f-%.3f", (event_time (times[i][j],
                  CL_PROFILING_COMMAND_START) - (gdouble) origin) / 1e6,
          (event_time (times[i][j], CL_PROFILING_COMMAND_END) -
              (gdouble) origin) / 1e6);
    g_print ("\n");
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < 3; j++)
      clReleaseEvent (times[i][j]);
  g_free (times);
}

static cl_mem
pinned_buffer (GstClContext * ctx, gsize size, guint8 ** host)
{
  GError *error = NULL;
  cl_mem mem = gst_cl_context_create_buffer (ctx,
      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, "pinned ring", &error);
  cl_int status;

  if (!mem) {
    g_printerr ("%s\n", error->message);
    exit (1);
  }
  *host = clEnqueueMapBuffer (gst_cl_context_get_queue (ctx), mem, CL_TRUE,
      CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &status);
  check (status, "clEnqueueMapBuffer");
  memset (*host, 128, size);
  return mem;
}

/* Frames in flight on three queues, in each order. */
static void
print_pipeline (GstClContext * ctx, const GstClStage * stage,
    const GstClLaunch * launch, gint width, gint height, gint n)
{
  cl_context handle = gst_cl_context_get_handle (ctx);
  cl_device_id device = gst_cl_context_get_device (ctx);
  Pipeline p = { ctx, stage, launch };
  cl_mem in, out;
  cl_int status;
  gint i, order;

  p.size = ((gsize) width) * height;
  p.up = clCreateCommandQueue (handle, device, CL_QUEUE_PROFILING_ENABLE,
      &status);
  check (status, "clCreateCommandQueue");
  p.down = clCreateCommandQueue (handle, device, CL_QUEUE_PROFILING_ENABLE,
      &status);
  check (status, "clCreateCommandQueue");
  for (i = 0; i < DEPTH; i++) {
    p.src[i] = clCreateBuffer (handle, CL_MEM_READ_WRITE, p.size, NULL,
        &status);
    check (status, "clCreateBuffer");
    p.dst[i] = clCreateBuffer (handle, CL_MEM_READ_WRITE, p.size, NULL,
        &status);
    check (status, "clCreateBuffer");
    p.src_ref[i] = gst_cl_plane_ref_device (p.src[i], width);
    p.dst_ref[i] = gst_cl_plane_ref_device (p.dst[i], width);
  }
  in = pinned_buffer (ctx, RING * p.size, &p.in);
  out = pinned_buffer (ctx, RING * p.size, &p.out);
  g_print ("  %d frames, %d in flight, upload, kernel, download on three "
      "queues:\n", n, DEPTH);
  for (order = ORDER_BARRIERS; order <= ORDER_NONE; order++) {
    pipeline_run (&p, order, 10, TRUE); /* warm-up */
    pipeline_run (&p, order, n, FALSE);
  }
  clEnqueueUnmapMemObject (gst_cl_context_get_queue (ctx), in, p.in, 0, NULL,
      NULL);
  clEnqueueUnmapMemObject (gst_cl_context_get_queue (ctx), out, p.out, 0,
      NULL, NULL);
  clFinish (gst_cl_context_get_queue (ctx));
  clReleaseMemObject (in);
  clReleaseMemObject (out);
  for (i = 0; i < DEPTH; i++) {
    clReleaseMemObject (p.src[i]);
    clReleaseMemObject (p.dst[i]);
  }
  clReleaseCommandQueue (p.up);
  clReleaseCommandQueue (p.down);
}

int
main (int argc, char **argv)
{
  /* The plain variant in 64x4 work-groups, as the element may choose it. */
  const GstClLaunch launch = { GST_CL_VARIANT_PLAIN, {64, 4} };
  GError *error = NULL;
  GstClContext *ctx;
  GstClKernels *kernels = NULL;
  cl_command_queue queue;
  cl_mem src, dst, pinned;
  cl_int width, height, status;
  guint8 *pinned_ptr, *pageable;
  gdouble pinned_ms, pageable_ms, k1, k2;
  gsize size;
  gint iterations;

  gst_init (&argc, &argv);
  if (argc != 5) {
    g_printerr ("usage: %s DEVICE WIDTH HEIGHT ITERATIONS\n", argv[0]);
    return 2;
  }
  width = atoi (argv[2]);
  height = atoi (argv[3]);
  iterations = MAX (atoi (argv[4]), 1);
  size = ((gsize) width) * height;

  ctx = gst_cl_context_new (argv[1], &error);
  if (!ctx || !(kernels = gst_cl_kernels_new (ctx, 4, FALSE, NULL, &error))) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  queue = gst_cl_context_get_queue (ctx);
  src = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, size, "src",
      &error);
  dst = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, size, "dst",
      &error);
  pinned = gst_cl_context_create_buffer (ctx,
      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, "pinned", &error);
  if (!src || !dst || !pinned) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  pinned_ptr = clEnqueueMapBuffer (queue, pinned, CL_TRUE,
      CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &status);
  check (status, "clEnqueueMapBuffer");
  pageable = g_malloc (size);
  memset (pinned_ptr, 128, size);
  memset (pageable, 128, size);

  {
    GstClPlaneRef src_ref = gst_cl_plane_ref_device (src, width);
    GstClPlaneRef dst_ref = gst_cl_plane_ref_device (dst, width);
    /* 9x9 (radius 4 program) at threshold 20 */
    GstClStage stage = { kernels, FALSE, {&src_ref, &dst_ref, width, height,
        1, 0}, 20
    };

    /* Warm up once, untimed. */
    round_trip (queue, &stage, &launch, src, dst, pinned_ptr, size, 1, &k1);
    pinned_ms = round_trip (queue, &stage, &launch, src, dst, pinned_ptr,
        size, iterations, &k1);
    pageable_ms = round_trip (queue, &stage, &launch, src, dst, pageable,
        size, iterations, &k2);
  }
  g_print ("%s, %dx%d 8-bit plane, 9x9 epsilon, median of %d:\n",
      gst_cl_context_get_device_name (ctx), width, height, iterations);
  g_print ("  pinned   round trip %.3f ms (kernel %.3f ms)\n", pinned_ms, k1);
  g_print ("  pageable round trip %.3f ms (kernel %.3f ms)\n", pageable_ms, k2);
  print_overlap (ctx, src, dst, pinned_ptr, size, iterations);
  {
    GstClPlaneRef none = gst_cl_plane_ref_device (NULL, width);
    GstClStage stage = { kernels, FALSE, {&none, &none, width, height, 1, 0},
    20
    };

    print_pipeline (ctx, &stage, &launch, width, height, iterations);
  }

  clEnqueueUnmapMemObject (queue, pinned, pinned_ptr, 0, NULL, NULL);
  clFinish (queue);
  clReleaseMemObject (pinned);
  clReleaseMemObject (src);
  clReleaseMemObject (dst);
  gst_cl_kernels_free (kernels);
  gst_object_unref (ctx);
  g_free (pageable);
  return 0;
}
