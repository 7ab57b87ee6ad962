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

/* cl-variants DEVICE WIDTH HEIGHT [OPTIONS]
 *
 * The kernels alone, without GStreamer: times every variant of the epsilon
 * filter (and with --kernel, of the convolution) with each work-group size
 * the element's tuner would try, on one 8-bit plane of WIDTH x HEIGHT in
 * device memory, and checks each output against the plain variant's (equal
 * for epsilon; within 1 for convolution). Prints the median kernel time of
 * each, from profiling events, and its speed-up over the plain kernel.
 *   --window N      epsilon window side (default 9)
 *   --threshold N   epsilon threshold (default 20)
 *   --kernel TEXT   also time the convolution with this matrix
 *   --iterations N  timed runs per launch (default 20)
 *   --lanes N       32-bit lanes per compute unit: also print the epsilon
 *                   filter's arithmetic floor, 4 operations per tap per
 *                   sample at compute units x lanes x clock
 * Example: cl-variants pocl 1920 1080 --kernel "1 4 6 4 1; ..." */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "gstclcontext-private.h"
#include "gstclconvkernel-private.h"
#include "gstclstage-private.h"

typedef struct
{
  GstClContext *ctx;
  GstClKernels *kernels;
  cl_mem src, dst, scratch;
  GstClPlaneRef src_ref, dst_ref;
  gint width, height, iterations;
  guint threshold;
  gboolean convolve;
  GstClConvParams conv;
  guint8 *reference;            /* the plain variant's output */
  guint8 *out;
} Bench;

static void
die (GError * error)
{
  g_printerr ("%s\n", error->message);
  exit (1);
}

static int
compare_doubles (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static gboolean
run_once (Bench * b, const GstClLaunch * launch, GstClEvents * events,
    GError ** error)
{
  GstClStage stage = { b->kernels, b->convolve,
    {&b->src_ref, &b->dst_ref, b->width, b->height, 1}, b->threshold, b->conv
  };

  return gst_cl_stage_run (&stage, launch, &(GstClAfter) {
      0, NULL, events}
      , error);
}

/* Median ms of @launch, leaving its output in b->out. */
static gdouble
time_launch (Bench * b, const GstClLaunch * launch)
{
  cl_command_queue queue = gst_cl_context_get_queue (b->ctx);
  gdouble *ms = g_new (gdouble, b->iterations), median;
  GstClEvents events = { {0,}, 0 };
  GError *error = NULL;
  gint i;

  for (i = -1; i < b->iterations; i++) {
    if (!run_once (b, launch, &events, &error))
      die (error);
    clFinish (queue);
    if (i >= 0)
      ms[i] = gst_cl_events_take_ms (&events);
    else
      gst_cl_events_take_ms (&events);
  }
  qsort (ms, b->iterations, sizeof (gdouble), compare_doubles);
  median = ms[b->iterations / 2];
  g_free (ms);
  clEnqueueReadBuffer (queue, b->dst, CL_TRUE, 0,
      (gsize) b->width * b->height, b->out, 0, NULL, NULL);
  return median;
}

static guint
count_differences (const Bench * b, guint tolerance)
{
  gsize i, n = (gsize) b->width * b->height;
  guint bad = 0;

  for (i = 0; i < n; i++)
    bad += (guint) ABS ((gint) b->out[i] - (gint) b->reference[i]) > tolerance;
  return bad;
}

/* Prints the floor of @taps taps per sample at 4 operations each, for the
 * device's compute units and clock and @lanes 32-bit lanes per unit. */
static void
print_floor (Bench * b, gint taps, gint lanes, gdouble best_ms)
{
  cl_device_id device = gst_cl_context_get_device (b->ctx);
  cl_uint units = 0, mhz = 0;
  gdouble ops, rate, floor_ms;

  clGetDeviceInfo (device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (units),
      &units, NULL);
  clGetDeviceInfo (device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof (mhz), &mhz,
      NULL);
  ops = (gdouble) b->width * b->height * taps * 4;
  rate = ((gdouble) units) * lanes * mhz * 1e6;
  floor_ms = ops / rate * 1e3;
  g_print ("  floor: %dx%d x %d taps x 4 ops = %.3g ops; %u units x %d lanes "
      "x %u MHz = %.3g ops/s; %.3f ms; fastest is %.2fx the floor\n",
      b->width, b->height, taps, ops, units, lanes, mhz, rate, floor_ms,
      best_ms / floor_ms);
}

static gdouble
bench_stage (Bench * b, const gchar * title)
{
  GstClVariant v, last = b->convolve && b->conv.separable ?
      GST_CL_VARIANT_SEPARABLE : GST_CL_VARIANT_WIDE;
  GstClLaunch launch = { GST_CL_VARIANT_PLAIN, {0, 0} };
  size_t sizes[8][2];
  gdouble plain_ms = 0, best_ms = G_MAXDOUBLE;
  gchar best[32] = "";
  guint i, n;

  g_print ("%s\n  %-10s %-8s %10s %9s %s\n", title, "variant", "group",
      "median ms", "vs plain", "output");
  for (v = GST_CL_VARIANT_PLAIN; v <= last; v++) {
    if (!gst_cl_kernels_has_variant (b->kernels, b->convolve, v))
      continue;
    n = gst_cl_kernels_local_sizes (b->kernels, b->convolve, v, sizes);
    for (i = 0; i < n; i++) {
      gdouble ms;
      guint bad;

      launch.variant = v;
      launch.local[0] = sizes[i][0];
      launch.local[1] = sizes[i][1];
      ms = time_launch (b, &launch);
      if (v == GST_CL_VARIANT_PLAIN && i == 0) {
        /* The plain kernel with the element's old fixed work-group: the
         * baseline and the reference output. */
        plain_ms = ms;
        memcpy (b->reference, b->out, (gsize) b->width * b->height);
      }
      bad = count_differences (b, b->convolve ? 1 : 0);
      g_print ("  %-10s %3zux%-4zu %10.3f %8.2fx %s\n",
          gst_cl_variant_to_string (v), sizes[i][0], sizes[i][1], ms,
          plain_ms / ms, bad ? "DIFFERS" : "same");
      if (bad) {
        g_printerr ("%s %zux%zu: %u samples differ from plain\n",
            gst_cl_variant_to_string (v), sizes[i][0], sizes[i][1], bad);
        exit (1);
      }
      if (ms < best_ms) {
        best_ms = ms;
        g_snprintf (best, sizeof (best), "%s %zux%zu",
            gst_cl_variant_to_string (v), sizes[i][0], sizes[i][1]);
      }
    }
  }
  g_print ("  fastest: %s, %.3f ms, %.2fx the plain kernel\n", best, best_ms,
      plain_ms / best_ms);
  return best_ms;
}

/* A picture-like plane: gradients, hard edges and noise. */
static void
fill_plane (guint8 * data, gint width, gint height)
{
  GRand *rand = g_rand_new_with_seed (0x5eed);
  gint x, y;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      gint v = ((x / 64 + y / 64) & 1) ? 180 : 60;

      v += (x % 64) / 4 + g_rand_int_range (rand, -12, 13);
      data[(gsize) y * width + x] = CLAMP (v, 0, 255);
    }
  }
  g_rand_free (rand);
}

static void
setup_convolution (Bench * b, const gchar * text)
{
  GstClConvKernel k;
  gdouble column[GST_CL_CONV_KERNEL_MAX_SIDE], row[GST_CL_CONV_KERNEL_MAX_SIDE];
  gfloat f[GST_CL_CONV_KERNEL_MAX_SIDE * GST_CL_CONV_KERNEL_MAX_SIDE];
  cl_command_queue queue = gst_cl_context_get_queue (b->ctx);
  GError *error = NULL;
  gint i;

  if (!gst_cl_conv_kernel_parse (text, &k, &error))
    die (error);
  b->conv.kw = k.width;
  b->conv.kh = k.height;
  b->conv.divisor = gst_cl_conv_kernel_effective_divisor (&k, 0.0);
  b->conv.bias = 0.0f;
  b->conv.separable = gst_cl_conv_kernel_factor (&k, column, row);
  b->conv.coeffs = gst_cl_context_create_buffer (b->ctx, CL_MEM_READ_ONLY,
      sizeof (f), "coeffs", &error);
  b->conv.row_factor = gst_cl_context_create_buffer (b->ctx,
      CL_MEM_READ_ONLY, sizeof (gfloat) * 16, "row", &error);
  b->conv.column_factor = gst_cl_context_create_buffer (b->ctx,
      CL_MEM_READ_ONLY, sizeof (gfloat) * 16, "column", &error);
  b->conv.scratch = gst_cl_context_create_buffer (b->ctx, CL_MEM_READ_WRITE,
      sizeof (gfloat) * b->width * b->height, "scratch", &error);
  if (error)
    die (error);
  for (i = 0; i < k.width * k.height; i++)
    f[i] = k.coeffs[i];
  clEnqueueWriteBuffer (queue, b->conv.coeffs, CL_TRUE, 0, sizeof (f), f, 0,
      NULL, NULL);
  for (i = 0; i < k.width; i++)
    f[i] = row[i];
  clEnqueueWriteBuffer (queue, b->conv.row_factor, CL_TRUE, 0,
      sizeof (gfloat) * k.width, f, 0, NULL, NULL);
  for (i = 0; i < k.height; i++)
    f[i] = column[i];
  clEnqueueWriteBuffer (queue, b->conv.column_factor, CL_TRUE, 0,
      sizeof (gfloat) * k.height, f, 0, NULL, NULL);
}

int
main (int argc, char **argv)
{
  gint window = 9, threshold = 20, iterations = 20, lanes = 0;
  gdouble best_ms;
  gchar *kernel_text = NULL, *title;
  GOptionEntry entries[] = {
    {"window", 0, 0, G_OPTION_ARG_INT, &window, "Epsilon window side", "N"},
    {"threshold", 0, 0, G_OPTION_ARG_INT, &threshold, "Epsilon threshold",
        "N"},
    {"kernel", 0, 0, G_OPTION_ARG_STRING, &kernel_text,
        "Also time the convolution with this matrix", "TEXT"},
    {"iterations", 0, 0, G_OPTION_ARG_INT, &iterations, "Timed runs", "N"},
    {"lanes", 0, 0, G_OPTION_ARG_INT, &lanes,
        "32-bit lanes per compute unit, for the arithmetic floor", "N"},
    {NULL}
  };
  GOptionContext *octx = g_option_context_new ("DEVICE WIDTH HEIGHT");
  GError *error = NULL;
  Bench b = { 0, };
  gsize size;

  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &error) || argc != 4 ||
      window < 3 || window > 15 || !(window & 1) || iterations < 1) {
    g_printerr ("%s\n", error ? error->message :
        "usage: cl-variants DEVICE WIDTH HEIGHT [--window N] [--threshold N] "
        "[--kernel TEXT] [--iterations N]");
    return 2;
  }
  gst_init (NULL, NULL);
  b.width = atoi (argv[2]);
  b.height = atoi (argv[3]);
  b.iterations = iterations;
  b.threshold = threshold;
  size = (gsize) b.width * b.height;
  if (b.width < 1 || b.height < 1)
    return 2;

  if (!(b.ctx = gst_cl_context_new (argv[1], &error)) ||
      !(b.kernels = gst_cl_kernels_new (b.ctx, window / 2, FALSE, NULL,
              &error)))
    die (error);
  b.src = gst_cl_context_create_buffer (b.ctx, CL_MEM_READ_WRITE, size, "src",
      &error);
  b.dst = gst_cl_context_create_buffer (b.ctx, CL_MEM_READ_WRITE, size, "dst",
      &error);
  if (error)
    die (error);
  b.src_ref = gst_cl_plane_ref_device (b.src, b.width);
  b.dst_ref = gst_cl_plane_ref_device (b.dst, b.width);
  b.reference = g_malloc (size);
  b.out = g_malloc (size);
  fill_plane (b.out, b.width, b.height);
  clEnqueueWriteBuffer (gst_cl_context_get_queue (b.ctx), b.src, CL_TRUE, 0,
      size, b.out, 0, NULL, NULL);

  g_print ("%s, %dx%d 8-bit plane, median of %d runs\n",
      gst_cl_context_get_device_name (b.ctx), b.width, b.height, iterations);
  title = g_strdup_printf ("epsilon %dx%d, threshold %d:", window, window,
      threshold);
  best_ms = bench_stage (&b, title);
  g_free (title);
  if (lanes > 0)
    print_floor (&b, window * window, lanes, best_ms);

  if (kernel_text) {
    setup_convolution (&b, kernel_text);
    b.convolve = TRUE;
    title = g_strdup_printf ("convolution %dx%d (%s):", b.conv.kw, b.conv.kh,
        b.conv.separable ? "rank 1" : "not separable");
    bench_stage (&b, title);
    g_free (title);
  }

  gst_cl_kernels_free (b.kernels);
  gst_object_unref (b.ctx);
  return 0;
}
