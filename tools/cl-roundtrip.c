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
 * from pageable memory (malloc), and of the kernel alone. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "gstclcontext-private.h"
#include "gstclprogram-private.h"
#include "gstclkernels.h"

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
round_trip (cl_command_queue queue, cl_kernel kernel, const size_t * global,
    cl_mem src, cl_mem dst, guint8 * host, gsize size, gint iterations,
    gdouble * kernel_ms)
{
  const size_t local[2] = { 64, 4 };
  gdouble *total = g_new (gdouble, iterations);
  gdouble *kern = g_new (gdouble, iterations);
  gdouble result;
  gint i;

  for (i = 0; i < iterations; i++) {
    gint64 t0 = g_get_monotonic_time ();
    cl_ulong s = 0, e = 0;
    cl_event ev;

    check (clEnqueueWriteBuffer (queue, src, CL_FALSE, 0, size, host, 0, NULL,
            NULL), "upload");
    check (clEnqueueNDRangeKernel (queue, kernel, 2, NULL, global, local, 0,
            NULL, &ev), "kernel");
    check (clEnqueueReadBuffer (queue, dst, CL_TRUE, 0, size, host, 0, NULL,
            NULL), "download");
    total[i] = (g_get_monotonic_time () - t0) / 1e3;
    clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_START, sizeof (s), &s,
        NULL);
    clGetEventProfilingInfo (ev, CL_PROFILING_COMMAND_END, sizeof (e), &e,
        NULL);
    kern[i] = (e - s) / 1e6;
    clReleaseEvent (ev);
  }
  result = median (total, iterations);
  *kernel_ms = median (kern, iterations);
  g_free (total);
  g_free (kern);
  return result;
}

int
main (int argc, char **argv)
{
  static const gchar *sources[] = {
    gst_cl_kernel_common, gst_cl_kernel_epsilon, gst_cl_kernel_convolve, NULL
  };
  GError *error = NULL;
  GstClContext *ctx;
  cl_command_queue queue;
  cl_program program;
  cl_kernel kernel;
  cl_mem src, dst, pinned;
  cl_int width, height, radius = 4, status;
  cl_uint threshold = 20, zero = 0;
  size_t global[2];
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
  if (!ctx || !(program = gst_cl_program_build (ctx, sources, NULL, NULL, &error))
      || !(kernel = gst_cl_program_create_kernel (program, "epsilon_planar",
              &error))) {
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

  check (clSetKernelArg (kernel, 0, sizeof (cl_mem), &src), "arg");
  check (clSetKernelArg (kernel, 1, sizeof (cl_uint), &zero), "arg");
  check (clSetKernelArg (kernel, 2, sizeof (cl_int), &width), "arg");
  check (clSetKernelArg (kernel, 3, sizeof (cl_mem), &dst), "arg");
  check (clSetKernelArg (kernel, 4, sizeof (cl_uint), &zero), "arg");
  check (clSetKernelArg (kernel, 5, sizeof (cl_int), &width), "arg");
  check (clSetKernelArg (kernel, 6, sizeof (cl_int), &width), "arg");
  check (clSetKernelArg (kernel, 7, sizeof (cl_int), &height), "arg");
  check (clSetKernelArg (kernel, 8, sizeof (cl_int), &radius), "arg");
  check (clSetKernelArg (kernel, 9, sizeof (cl_uint), &threshold), "arg");
  global[0] = GST_ROUND_UP_N ((size_t) width, 64);
  global[1] = GST_ROUND_UP_N ((size_t) height, 4);

  /* Warm up once, untimed. */
  round_trip (queue, kernel, global, src, dst, pinned_ptr, size, 1, &k1);
  pinned_ms = round_trip (queue, kernel, global, src, dst, pinned_ptr, size,
      iterations, &k1);
  pageable_ms = round_trip (queue, kernel, global, src, dst, pageable, size,
      iterations, &k2);

  g_print ("%s, %dx%d 8-bit plane, 9x9 epsilon, median of %d:\n",
      gst_cl_context_get_device_name (ctx), width, height, iterations);
  g_print ("  pinned   round trip %.3f ms (kernel %.3f ms)\n", pinned_ms, k1);
  g_print ("  pageable round trip %.3f ms (kernel %.3f ms)\n", pageable_ms,
      k2);

  clEnqueueUnmapMemObject (queue, pinned, pinned_ptr, 0, NULL, NULL);
  clFinish (queue);
  clReleaseMemObject (pinned);
  clReleaseMemObject (src);
  clReleaseMemObject (dst);
  clReleaseKernel (kernel);
  clReleaseProgram (program);
  gst_object_unref (ctx);
  g_free (pageable);
  return 0;
}
