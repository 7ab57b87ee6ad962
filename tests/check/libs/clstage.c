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

/* The kernels of one program (gst/gstclstage.c: GstClKernels) on their
 * own: every variant each program has, with every work-group size it
 * offers, at window radius 1..7, on 8-bit bytes and on 10-bit words (shift
 * 0 and 6, as I420_10LE and P010), planar and interleaved, on random planes
 * of odd sizes at odd offsets and padded pitches, against the CPU reference
 * (ref_epsilon_plane*, ref_convolve_plane* in reference.c); the padding of
 * the output, poisoned, stays as it was. The device is
 * $CLEPSILON_TEST_DEVICE (default "pocl"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <string.h>

#include "gstclconvkernel-private.h"
#include "gstclstage-private.h"
#include "gstclprogram-private.h"
#include "reference.h"
#include "fixture.h"
#include "robust.h"

#define POISON 0xa5

/* One plane on the device: @width x @height samples of @xstep interleaved
 * components, @bytes each, from @offset of a buffer, rows @pitch apart. */
typedef struct
{
  gint width, height, xstep, bytes;
  guint shift;
  gsize offset;
  gint pitch;
  gsize size;
  guint8 *host;                 /* the buffer's bytes */
  cl_mem mem;
  GstClPlaneRef ref;
} Plane;

static void
plane_init (Plane * p, gint width, gint height, gint xstep, gint bytes,
    guint shift, gsize offset, gint pad)
{
  GError *error = NULL;

  p->width = width;
  p->height = height;
  p->xstep = xstep;
  p->bytes = bytes;
  p->shift = shift;
  p->offset = offset;
  p->pitch = width * xstep * bytes + pad;
  p->size = offset + (gsize) p->pitch * height + 16;
  p->host = g_malloc (p->size);
  memset (p->host, POISON, p->size);
  p->mem = gst_cl_context_create_buffer (fixture_context, CL_MEM_READ_WRITE,
      p->size, "test plane", &error);
  fail_unless (p->mem != NULL, "%s", error ? error->message : "");
  p->ref = gst_cl_plane_ref_device (p->mem, p->pitch);
  p->ref.offset = offset;
}

static void
plane_clear (Plane * p)
{
  clReleaseMemObject (p->mem);
  g_free (p->host);
}

/* Sample @c of position (@x, @y): its value (10 bits of a word). */
static guint
plane_get (const Plane * p, gint x, gint y, gint c)
{
  const guint8 *s = p->host + p->offset + (gsize) y * p->pitch +
      (gsize) (x * p->xstep + c) * p->bytes;

  if (p->bytes == 1)
    return *s;
  return ((s[0] | (s[1] << 8)) >> p->shift) & 1023;
}

static void
plane_fill_random (Plane * p, GRand * rand)
{
  gint x, y, c;

  for (y = 0; y < p->height; y++)
    for (x = 0; x < p->width; x++)
      for (c = 0; c < p->xstep; c++) {
        guint8 *s = p->host + p->offset + (gsize) y * p->pitch +
            (gsize) (x * p->xstep + c) * p->bytes;

        if (p->bytes == 1) {
          *s = g_rand_int_range (rand, 0, 256);
        } else {
          guint16 w = g_rand_int_range (rand, 0, 1024) << p->shift;

          s[0] = w & 0xff;
          s[1] = w >> 8;
        }
      }
}

static void
plane_upload (Plane * p)
{
  fail_unless (clEnqueueWriteBuffer (gst_cl_context_get_queue (fixture_context),
          p->mem, CL_TRUE, 0, p->size, p->host, 0, NULL, NULL) == CL_SUCCESS);
}

static void
plane_download (Plane * p)
{
  fail_unless (clEnqueueReadBuffer (gst_cl_context_get_queue (fixture_context),
          p->mem, CL_TRUE, 0, p->size, p->host, 0, NULL, NULL) == CL_SUCCESS);
}

/* Component @c of @p as plain values, row after row (the reference's
 * input and output). */
static void
plane_values (const Plane * p, gint c, guint8 * v8, guint16 * v16)
{
  gint x, y;

  for (y = 0; y < p->height; y++)
    for (x = 0; x < p->width; x++) {
      if (v8)
        v8[y * p->width + x] = plane_get (p, x, y, c);
      else
        v16[y * p->width + x] = plane_get (p, x, y, c);
    }
}

/* Every sample of @got equals the reference's @want8 / @want16 (component
 * @c, packed rows), and every byte of @got outside its samples is still
 * poison. */
static void
check_plane (const Plane * got, gint c, const guint8 * want8,
    const guint16 * want16, const gchar * what)
{
  gsize i;
  gint x, y;

  for (y = 0; y < got->height; y++)
    for (x = 0; x < got->width; x++) {
      guint want = want8 ? want8[y * got->width + x] :
          want16[y * got->width + x];
      guint v = plane_get (got, x, y, c);

      fail_unless (v == want, "%s: component %d at %d,%d: %u, reference %u",
          what, c, x, y, v, want);
    }
  for (i = 0; i < got->size; i++) {
    gboolean in_sample = i >= got->offset &&
        (i - got->offset) / got->pitch < (gsize) got->height &&
        (i - got->offset) % got->pitch <
        (gsize) (got->width * got->xstep * got->bytes);

    if (!in_sample)
      fail_unless (got->host[i] == POISON, "%s: byte %" G_GSIZE_FORMAT
          " outside the plane written", what, i);
  }
}

static const GstClVariant variants[] = {
  GST_CL_VARIANT_PLAIN, GST_CL_VARIANT_TILED, GST_CL_VARIANT_VECTOR,
  GST_CL_VARIANT_WIDE, GST_CL_VARIANT_SEPARABLE,
};

/* Runs @variant of @kernels at every work-group size it offers on @in into
 * a poisoned @out, comparing with the reference each time. @conv: the
 * convolution's parameters, NULL for the epsilon filter. */
static guint
check_variant (GstClKernels * kernels, GstClVariant variant, Plane * in,
    Plane * out, guint threshold, const GstClConvParams * conv,
    const GstClConvKernel * kernel, const gchar * what)
{
  cl_command_queue queue = gst_cl_context_get_queue (fixture_context);
  gint window = 2 * gst_cl_kernels_get_radius (kernels) + 1;
  gsize n = (gsize) in->width * in->height;
  guint8 *src8 = NULL, *ref8 = NULL;
  guint16 *src16 = NULL, *ref16 = NULL;
  size_t sizes[8][2];
  guint n_sizes, s;
  gint c;

  n_sizes = gst_cl_kernels_local_sizes (kernels, conv != NULL, variant, sizes);
  fail_unless (n_sizes >= 1 && n_sizes <= 8, "%s: %u sizes", what, n_sizes);
  if (in->bytes == 1) {
    src8 = g_malloc (n);
    ref8 = g_malloc (n);
  } else {
    src16 = g_new (guint16, n);
    ref16 = g_new (guint16, n);
  }
  for (s = 0; s < n_sizes; s++) {
    GstClLaunch launch = { variant, {sizes[s][0], sizes[s][1]}
    };
    GstClStage stage = { kernels, conv != NULL,
      {&in->ref, &out->ref, in->width, in->height, in->xstep, in->shift},
      threshold, conv ? *conv : (GstClConvParams) {0,}
    };
    GstClEvents events = { {0,}, 0 };
    GError *error = NULL;
    gboolean ok;
    gchar *at;

    memset (out->host, POISON, out->size);
    plane_upload (out);
    ok = gst_cl_stage_run (&stage, &launch, &(GstClAfter) {
        0, NULL, &events}
        , &error);
    fail_unless (ok, "%s: %s", what, error ? error->message : "");
    fail_unless (clFinish (queue) == CL_SUCCESS);
    gst_cl_events_take_ms (&events);
    plane_download (out);

    at = g_strdup_printf ("%s, local %zux%zu", what, sizes[s][0], sizes[s][1]);
    for (c = 0; c < in->xstep; c++) {
      plane_values (in, c, src8, src16);
      if (conv && src8)
        ref_convolve_plane (src8, in->width, ref8, in->width, in->width,
            in->height, kernel->coeffs, kernel->width, kernel->height,
            conv->divisor, conv->bias);
      else if (conv)
        ref_convolve_plane16 (src16, in->width, ref16, in->width, in->width,
            in->height, kernel->coeffs, kernel->width, kernel->height,
            conv->divisor, conv->bias);
      else if (src8)
        ref_epsilon_plane (src8, in->width, ref8, in->width, in->width,
            in->height, 1, window, threshold);
      else
        ref_epsilon_plane16 (src16, in->width, ref16, in->width, in->width,
            in->height, 1, window, threshold);
      check_plane (out, c, ref8, ref16, at);
    }
    g_free (at);
  }
  g_free (src8);
  g_free (ref8);
  g_free (src16);
  g_free (ref16);
  return n_sizes;
}

/* The program of @radius for bytes or, @deep, 16-bit words; built or from
 * the program cache. */
static GstClKernels *
get_kernels (gint radius, gboolean deep)
{
  GError *error = NULL;
  gboolean from_cache = FALSE;
  GstClKernels *kernels = gst_cl_kernels_new (fixture_context, radius, deep,
      &from_cache, &error);

  fail_unless (kernels != NULL, "radius %d deep %d: %s", radius, deep,
      error ? error->message : "");
  fail_unless_equals_int (gst_cl_kernels_get_radius (kernels), radius);
  fail_unless_equals_int (gst_cl_kernels_is_deep (kernels), deep);
  return kernels;
}

/* The variants each program has: every one on bytes; plain, vector and
 * separable on words (gstclstage-private.h); never AUTO. */
GST_START_TEST (test_variants_present)
{
  gint deep;

  for (deep = 0; deep < 2; deep++) {
    GstClKernels *kernels = get_kernels (3, deep);

    fail_if (gst_cl_kernels_has_variant (kernels, FALSE, GST_CL_VARIANT_AUTO));
    fail_if (gst_cl_kernels_has_variant (kernels, TRUE, GST_CL_VARIANT_AUTO));
    fail_if (gst_cl_kernels_has_variant (kernels, FALSE,
            GST_CL_VARIANT_SEPARABLE));
    fail_unless (gst_cl_kernels_has_variant (kernels, FALSE,
            GST_CL_VARIANT_PLAIN));
    fail_unless (gst_cl_kernels_has_variant (kernels, FALSE,
            GST_CL_VARIANT_VECTOR));
    fail_unless (gst_cl_kernels_has_variant (kernels, TRUE,
            GST_CL_VARIANT_PLAIN));
    fail_unless (gst_cl_kernels_has_variant (kernels, TRUE,
            GST_CL_VARIANT_SEPARABLE));
    fail_unless_equals_int (gst_cl_kernels_has_variant (kernels, FALSE,
            GST_CL_VARIANT_TILED), !deep);
    fail_unless_equals_int (gst_cl_kernels_has_variant (kernels, FALSE,
            GST_CL_VARIANT_WIDE), !deep);
    gst_cl_kernels_free (kernels);
  }
}

GST_END_TEST;

/* The epsilon filter: every variant of every program, radius 1..7, 8 and
 * 10 bits (10: shifts 0 and 6), planar and interleaved. */
GST_START_TEST (test_epsilon)
{
  GRand *rand = g_rand_new_with_seed (0xe951);
  guint runs = 0;
  gint radius, deep;

  for (radius = 1; radius <= 7; radius++) {
    for (deep = 0; deep < 2; deep++) {
      GstClKernels *kernels = get_kernels (radius, deep);
      gint xstep;

      for (xstep = 1; xstep <= 2; xstep++) {
        guint shift = deep && xstep == 2 ? 6 : 0;
        guint threshold = g_rand_int_range (rand, 4, 40) << (deep ? 2 : 0);
        Plane in, out;
        guint v;

        /* odd sizes; odd offsets and pitches for bytes (words: even) */
        plane_init (&in, 37 - 2 * xstep, 23, xstep, deep ? 2 : 1, shift,
            deep ? 6 : 3, deep ? 10 : 7);
        plane_init (&out, in.width, in.height, xstep, in.bytes, shift,
            deep ? 4 : 5, deep ? 6 : 3);
        plane_fill_random (&in, rand);
        plane_upload (&in);
        for (v = 0; v < G_N_ELEMENTS (variants); v++) {
          gchar *what;

          if (!gst_cl_kernels_has_variant (kernels, FALSE, variants[v]))
            continue;
          what = g_strdup_printf ("epsilon %s, radius %d, %d bits, xstep %d,"
              " threshold %u", gst_cl_variant_to_string (variants[v]),
              radius, deep ? 10 : 8, xstep, threshold);
          runs += check_variant (kernels, variants[v], &in, &out, threshold,
              NULL, NULL, what);
          g_free (what);
        }
        plane_clear (&in);
        plane_clear (&out);
      }
      gst_cl_kernels_free (kernels);
    }
  }
  /* at least plain and vector of each, twice over */
  fail_unless (runs >= 7 * 2 * 2 * 2, "only %u runs", runs);
  g_rand_free (rand);
}

GST_END_TEST;

/* A device buffer holding @n floats of @values. */
static cl_mem
floats_buffer (const gdouble * values, gint n)
{
  gfloat f[GST_CL_CONV_KERNEL_MAX_SIDE * GST_CL_CONV_KERNEL_MAX_SIDE];
  GError *error = NULL;
  cl_mem mem;
  gint i;

  for (i = 0; i < n; i++)
    f[i] = values[i];
  mem = gst_cl_context_create_buffer (fixture_context, CL_MEM_READ_ONLY,
      sizeof (gfloat) * n, "coefficients", &error);
  fail_unless (mem != NULL, "%s", error ? error->message : "");
  fail_unless (clEnqueueWriteBuffer (gst_cl_context_get_queue
          (fixture_context), mem, CL_TRUE, 0, sizeof (gfloat) * n, f, 0, NULL,
          NULL) == CL_SUCCESS);
  return mem;
}

/* The convolution: every variant of every program (radius 1..7: each is
 * its own program), 8 and 10 bits, with a separable kernel, one that is
 * not, a wide one with a bias and a divisor of its own. */
GST_START_TEST (test_convolution)
{
  static const struct
  {
    const gchar *text;
    gdouble divisor, bias;
  } kernels_text[] = {
    {"1 2 1; 2 4 2; 1 2 1", 0, 0},
    {"0 -1 0; -1 5 -1; 0 -1 0", 0, 0},
    {"1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1", 7, 3},
    {"1 3 1", 0, -5},
  };
  GRand *rand = g_rand_new_with_seed (0xc0f7);
  guint runs = 0, separable_runs = 0;
  gint radius, deep;

  for (radius = 1; radius <= 7; radius++) {
    for (deep = 0; deep < 2; deep++) {
      GstClKernels *kernels = get_kernels (radius, deep);
      Plane in, out;
      guint k, v;

      plane_init (&in, 35, 21, 1, deep ? 2 : 1, deep ? 6 : 0, deep ? 2 : 1,
          deep ? 12 : 9);
      plane_init (&out, in.width, in.height, 1, in.bytes, in.shift,
          deep ? 8 : 7, deep ? 4 : 5);
      plane_fill_random (&in, rand);
      plane_upload (&in);
      for (k = 0; k < G_N_ELEMENTS (kernels_text); k++) {
        GstClConvKernel kernel;
        gdouble column[GST_CL_CONV_KERNEL_MAX_SIDE];
        gdouble row[GST_CL_CONV_KERNEL_MAX_SIDE];
        GstClConvParams conv = { 0, };
        GError *error = NULL;

        fail_unless (gst_cl_conv_kernel_parse (kernels_text[k].text, &kernel,
                &error), "%s", error ? error->message : "");
        conv.coeffs = floats_buffer (kernel.coeffs,
            kernel.width * kernel.height);
        conv.kw = kernel.width;
        conv.kh = kernel.height;
        conv.divisor = gst_cl_conv_kernel_effective_divisor (&kernel,
            kernels_text[k].divisor);
        fail_unless (conv.divisor == ref_effective_divisor (kernel.coeffs,
                kernel.width, kernel.height, kernels_text[k].divisor));
        conv.bias = kernels_text[k].bias;
        conv.separable = gst_cl_conv_kernel_factor (&kernel, column, row);
        if (conv.separable) {
          conv.row_factor = floats_buffer (row, kernel.width);
          conv.column_factor = floats_buffer (column, kernel.height);
          conv.scratch = gst_cl_context_create_buffer (fixture_context,
              CL_MEM_READ_WRITE, sizeof (gfloat) * in.width * in.height,
              "scratch", NULL);
          fail_unless (conv.scratch != NULL);
        }
        for (v = 0; v < G_N_ELEMENTS (variants); v++) {
          gchar *what;

          if (!gst_cl_kernels_has_variant (kernels, TRUE, variants[v]) ||
              (variants[v] == GST_CL_VARIANT_SEPARABLE && !conv.separable))
            continue;
          what = g_strdup_printf ("convolution %s, program radius %d, %d "
              "bits, kernel '%s'", gst_cl_variant_to_string (variants[v]),
              radius, deep ? 10 : 8, kernels_text[k].text);
          runs += check_variant (kernels, variants[v], &in, &out, 0, &conv,
              &kernel, what);
          if (variants[v] == GST_CL_VARIANT_SEPARABLE)
            separable_runs++;
          g_free (what);
        }
        clReleaseMemObject (conv.coeffs);
        if (conv.separable) {
          clReleaseMemObject (conv.row_factor);
          clReleaseMemObject (conv.column_factor);
          clReleaseMemObject (conv.scratch);
        }
      }
      plane_clear (&in);
      plane_clear (&out);
      gst_cl_kernels_free (kernels);
    }
  }
  /* two of the kernels separate, in every program */
  fail_unless_equals_int (separable_runs, 7 * 2 * 3);
  fail_unless (runs >= 7 * 2 * 4 * 2, "only %u runs", runs);
  g_rand_free (rand);
}

GST_END_TEST;

/* The binary a build left in the program cache is found again from the
 * device alone, with no context (gst_cl_program_cached_binary(): what
 * runs in CUDA where NVIDIA's OpenCL makes no context): the same bytes as
 * the built program's; none for other options, nor with the cache off (in
 * a cache folder of the test's own). */
GST_START_TEST (test_program_cached_binary)
{
  cl_device_id device = gst_cl_context_get_device (fixture_context);
  gchar *source = g_strdup_printf ("kernel void k (global uint * a)\n"
      "{ a[get_global_id (0)] = %u + X; }\n", g_random_int ());
  const gchar *sources[] = { source, NULL };
  GError *error = NULL;
  GstClProgram *program;
  RtCacheDir *cache = rt_cache_dir_new ();
  gchar *cached;
  guchar *binary;
  gsize size = 0, cached_size = 0;

  fail_if (gst_cl_program_cached_binary (device, sources, "-DX=1",
          &cached_size));
  program = gst_cl_program_build (fixture_context, sources, "-DX=1", NULL,
      &error);
  fail_unless (program != NULL, "%s", error ? error->message : "");
  fail_unless_equals_int (clGetProgramInfo (gst_cl_program_get_handle
          (program), CL_PROGRAM_BINARY_SIZES, sizeof (size), &size, NULL),
      CL_SUCCESS);
  binary = g_malloc (size);
  fail_unless_equals_int (clGetProgramInfo (gst_cl_program_get_handle
          (program), CL_PROGRAM_BINARIES,
          sizeof (binary), &binary, NULL), CL_SUCCESS);

  cached = gst_cl_program_cached_binary (device, sources, "-DX=1",
      &cached_size);
  fail_unless (cached != NULL);
  fail_unless_equals_uint64 (cached_size, size);
  fail_unless (memcmp (cached, binary, size) == 0);
  g_free (cached);
  fail_if (gst_cl_program_cached_binary (device, sources, "-DX=2",
          &cached_size));
  g_setenv ("GST_CL_CACHE_DIR", "", TRUE);
  fail_if (gst_cl_program_cached_binary (device, sources, "-DX=1",
          &cached_size));

  rt_cache_dir_free (cache);
  g_free (binary);
  gst_cl_program_free (program);
  g_free (source);
}

GST_END_TEST;

/* The filters' program as gst_cl_kernels_new() builds it is found in the
 * cache by gst_cl_kernels_cached_binary() (the same sources and options),
 * that of another radius not: in a cache folder of this test's own. */
GST_START_TEST (test_kernels_cached_binary)
{
  cl_device_id device = gst_cl_context_get_device (fixture_context);
  RtCacheDir *cache = rt_cache_dir_new ();
  GstClKernels *kernels;
  gchar *binary;
  gsize size = 0;

  fail_if (gst_cl_kernels_cached_binary (device, 2, FALSE, &size));
  kernels = get_kernels (2, FALSE);
  binary = gst_cl_kernels_cached_binary (device, 2, FALSE, &size);
  fail_unless (binary != NULL && size > 0);
  fail_if (gst_cl_kernels_cached_binary (device, 3, FALSE, &size));
  fail_if (gst_cl_kernels_cached_binary (device, 2, TRUE, &size));
  gst_cl_kernels_free (kernels);
  g_free (binary);
  rt_cache_dir_free (cache);
}

GST_END_TEST;

/* The arguments a launch outside OpenCL passes (gstclcudaexec.c) are those
 * set: each value's bytes, cl_mem told apart from a 64-bit scalar, local
 * memory by its size, and none recorded where clSetKernelArg refused it. */
GST_START_TEST (test_args_recorded)
{
  static const gchar *source =
      "kernel void k (global uchar * a, ulong b, local uchar * c,\n"
      "    uint16 d, float e)\n"
      "{ if (get_global_id (0) > 1000000) a[0] = (uchar) (b + c[0] + d.s0 + e); }\n";
  const gchar *sources[] = { source, NULL };
  GError *error = NULL;
  GstClProgram *program = gst_cl_program_build (fixture_context, sources, "",
      NULL, &error);
  GstClKernel *kernel;
  cl_mem mem;
  cl_ulong scalar = G_GUINT64_CONSTANT (0x0123456789abcdef);
  cl_uint16 packed;
  cl_float f = 2.5f;
  gint wrong = 7;
  GstClArgs args = GST_CL_ARGS_INIT, refused = GST_CL_ARGS_INIT;
  guint i;

  fail_unless (program != NULL, "%s", error ? error->message : "");
  kernel = gst_cl_program_create_kernel (program, "k", &error);
  fail_unless (kernel != NULL, "%s", error ? error->message : "");
  mem = gst_cl_context_create_buffer (fixture_context, CL_MEM_READ_WRITE, 64,
      "test", &error);
  fail_unless (mem != NULL, "%s", error ? error->message : "");
  for (i = 0; i < 16; i++)
    packed.s[i] = 1000 + i;

  GST_CL_ARG (kernel, 0, mem, &args);
  GST_CL_ARG (kernel, 1, scalar, &args);
  gst_cl_kernel_arg (kernel, 2, 48, NULL, FALSE, "local", &args);
  GST_CL_ARG (kernel, 3, packed, &args);
  GST_CL_ARG (kernel, 4, f, &args);
  fail_unless (gst_cl_args_check (&args, "k", &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (args.set, 0x1f);

  fail_unless (args.values[0].mem && !args.values[0].local);
  fail_unless_equals_int (args.values[0].size, sizeof (cl_mem));
  fail_unless (memcmp (args.values[0].value.bytes, &mem, sizeof (mem)) == 0);
  fail_if (args.values[1].mem);
  fail_unless_equals_int (args.values[1].size, 8);
  fail_unless (memcmp (args.values[1].value.bytes, &scalar, 8) == 0);
  fail_unless (args.values[2].local && !args.values[2].mem);
  fail_unless_equals_int (args.values[2].size, 48);
  fail_unless_equals_int (args.values[3].size, sizeof (packed));
  fail_unless (memcmp (args.values[3].value.bytes, &packed,
          sizeof (packed)) == 0);
  fail_if (args.values[4].mem);
  fail_unless (memcmp (args.values[4].value.bytes, &f, sizeof (f)) == 0);

  /* an int where a ulong is: refused by OpenCL, so neither recorded nor
   * any argument after the failure */
  GST_CL_ARG (kernel, 1, wrong, &refused);
  GST_CL_ARG (kernel, 4, f, &refused);
  fail_if (gst_cl_args_check (&refused, "k", NULL));
  fail_unless_equals_int (refused.set, 0);

  clReleaseMemObject (mem);
  gst_cl_kernel_free (kernel);
  gst_cl_program_free (program);
}

GST_END_TEST;

/* A made-up PTX of one kernel k with two parameters: what NVIDIA's OpenCL
 * leaves in the program cache, for a context without OpenCL. */
#define FAKE_PTX ".version 7.0\n.target sm_50\n.address_size 64\n\n" \
  ".entry k(\n\t.param .u64 .ptr .global .align 1 k_param_0,\n" \
  "\t.param .u32 k_param_1\n)\n{\n\tret;\n}\n"

/* In a context without OpenCL (NVIDIA MPS), a program comes from the cache
 * by key alone: an error naming the cache where it has none, or where its
 * binary is not PTX (PoCL's, built with OpenCL); else its kernels by
 * name, their argument counts from the PTX, the device's work-group limit,
 * and their arguments recorded for CUDA with no OpenCL kernel. */
GST_START_TEST (test_program_without_opencl)
{
  cl_device_id device = gst_cl_context_get_device (fixture_context);
  gchar *source = g_strdup_printf ("kernel void k (global uint * a, uint b)"
      "\n{ a[get_global_id (0)] = %u + b; }\n", g_random_int ());
  const gchar *sources[] = { source, NULL };
  RtCacheDir *cache = rt_cache_dir_new ();
  gchar *ptx;
  GstClContext *without = gst_cl_context_new_without_opencl (rt_device (),
      NULL);
  GstClArgs args = GST_CL_ARGS_INIT;
  GstClProgram *program;
  GstClKernel *kernel;
  GError *error = NULL;
  gboolean from_cache = FALSE;
  size_t most = 0, device_most = 0;
  guint n_args = 0, value = 7;
  cl_mem mem;

  fail_unless (without != NULL);
  fail_if (gst_cl_context_has_opencl (without));
  fail_if (gst_cl_program_build (without, sources, "", NULL, &error));
  fail_unless (error && strstr (error->message, "program cache"), "%s",
      error ? error->message : "(no error)");
  g_clear_error (&error);

  /* PoCL's binary of the same program: found, but not PTX */
  program = gst_cl_program_build (fixture_context, sources, "", NULL, &error);
  fail_unless (program != NULL, "%s", error ? error->message : "");
  gst_cl_program_free (program);
  fail_if (gst_cl_program_build (without, sources, "", NULL, &error));
  fail_unless (error && strstr (error->message, "not PTX"), "%s",
      error ? error->message : "(no error)");
  g_clear_error (&error);

  gst_cl_program_store_binary (device, sources, "", FAKE_PTX,
      strlen (FAKE_PTX));
  program = gst_cl_program_build (without, sources, "", &from_cache, &error);
  fail_unless (program != NULL, "%s", error ? error->message : "");
  fail_unless (from_cache);
  fail_unless (gst_cl_program_get_handle (program) == NULL);
  ptx = gst_cl_program_get_ptx (program, &error);
  fail_unless_equals_string (ptx, FAKE_PTX);
  g_free (ptx);
  fail_if (gst_cl_program_create_kernel (program, "j", &error));
  fail_unless (error && strstr (error->message, "no kernel j"), "%s",
      error ? error->message : "(no error)");
  g_clear_error (&error);

  kernel = gst_cl_program_create_kernel (program, "k", &error);
  fail_unless (kernel != NULL, "%s", error ? error->message : "");
  fail_unless (gst_cl_kernel_get_handle (kernel) == NULL);
  fail_unless_equals_string (gst_cl_kernel_get_name (kernel), "k");
  fail_unless (gst_cl_kernel_get_program (kernel) == program);
  fail_unless (gst_cl_kernel_get_n_args (kernel, &n_args, NULL));
  fail_unless_equals_int (n_args, 2);
  fail_unless (gst_cl_kernel_get_max_group (kernel, &most, NULL));
  fail_unless_equals_int (clGetDeviceInfo (device,
          CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof (device_most), &device_most,
          NULL), CL_SUCCESS);
  fail_unless_equals_uint64 (most, device_most);

  mem = gst_cl_context_create_buffer (without, CL_MEM_READ_WRITE, 64, "test",
      &error);
  fail_unless (mem != NULL, "%s", error ? error->message : "");
  GST_CL_ARG (kernel, 0, mem, &args);
  GST_CL_ARG (kernel, 1, value, &args);
  fail_unless (gst_cl_args_check (&args, "k", NULL));
  fail_unless_equals_int (args.set, 0x3);
  fail_unless (args.values[0].mem);
  fail_unless (memcmp (args.values[0].value.bytes, &mem, sizeof (mem)) == 0);
  fail_unless (memcmp (args.values[1].value.bytes, &value, 4) == 0);

  gst_cl_context_release_buffer (without, mem);
  gst_cl_kernel_free (kernel);
  gst_cl_program_free (program);
  gst_object_unref (without);
  rt_cache_dir_free (cache);
  g_free (source);
}

GST_END_TEST;

static Suite *
clstage_suite (void)
{
  Suite *s = suite_create ("clstage");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, fixture_setup, fixture_teardown);
  tcase_add_test (tc, test_variants_present);
  tcase_add_test (tc, test_epsilon);
  tcase_add_test (tc, test_convolution);
  tcase_add_test (tc, test_args_recorded);
  tcase_add_test (tc, test_program_cached_binary);
  tcase_add_test (tc, test_kernels_cached_binary);
  tcase_add_test (tc, test_program_without_opencl);
  return s;
}

GST_CHECK_MAIN (clstage);
