/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cl-roundtrip DEVICE WIDTH HEIGHT ITERATIONS
 *
 * The floor that clepsilon's luma-only frame is held against: the raw OpenCL
 * round trip of one 8-bit plane (upload, the 9x9 epsilon kernel at threshold
 * 20, download), without GStreamer. Prints the median over ITERATIONS of the
 * round trip from pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped) and
 * from pageable memory (malloc), and of the kernel alone. Then whether the
 * two directions overlap: ITERATIONS uploads from pinned memory back to
 * back, as many downloads, and both at once on two queues, ms a plane. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "gstclcontext-private.h"
#include "gstclvariant-private.h"

static int
compare_doubles (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static gdouble
median (gdouble * v, gint n)
{
  qsort (v, n, sizeof (gdouble), compare_doubles);
  return v[n / 2];
}

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
    if (!gst_cl_stage_run (stage, launch, &events, &error)) {
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
  size = (gsize) width * height;

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
    GstClPlaneRef src_ref = { src, 0, NULL, width, TRUE };
    GstClPlaneRef dst_ref = { dst, 0, NULL, width, TRUE };
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
  g_print ("  pageable round trip %.3f ms (kernel %.3f ms)\n", pageable_ms,
      k2);
  print_overlap (ctx, src, dst, pinned_ptr, size, iterations);

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
