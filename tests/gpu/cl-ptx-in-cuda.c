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
 * cl-ptx-in-cuda --programs DIR
 *
 * Whether the element's kernels run in a CUDA context (a decoder's)
 * instead of an OpenCL context of their own, which the GPU time-slices
 * with the decoder's (cl-cuda-slices): kernels of two kinds, each built
 * with NVIDIA's OpenCL and run on an 8-bit plane of bands, ramps and
 * noise (default 1920x1080), then the program's binary, PTX, made a CUDA module's by
 * gst_cl_ptx_for_cuda() (gst/gstclptx-private.h), loaded into a CUDA
 * context of its own on the same GPU and launched with the same arguments
 * and geometry; the outputs compared byte for byte:
 *   - dct_tile, the DCT stage's (kernels/dct-tiles.cl: 64-sample tiles,
 *     work-groups of 256, local memory of its own), 16 passes at
 *     threshold 39;
 *   - epsilon_tiled_planar, the 3x3 epsilon filter at threshold 10 in
 *     work-groups of 32x8, whose tile is a __local pointer parameter
 *     (clSetKernelArg with a size: CUDA's dynamic shared memory).
 * Prints for each the median wall ms of a launch and its wait over
 * ITERATIONS (default 200) both ways, how many bytes differ and where the
 * first is. CL_PTX_FILE=PATH writes dct_tile's PTX there. Exits 0 where
 * every CUDA output equals OpenCL's, 1 where one does not or a step fails
 * (named).
 *
 * With --programs: every program in DIR, a cache folder the element wrote
 * on NVIDIA's OpenCL (GST_CL_CACHE_DIR; its program-* entries hold the
 * binaries, PTX), rewritten by gst_cl_ptx_for_cuda() and loaded as a CUDA
 * module with each of its kernels: prints, a program a line, its kernels,
 * the %envreg registers it reads, its __local pointer parameters with the
 * lines that read them, and whether the rewrite, the module and each
 * kernel were taken (the JIT's log where not). Exits 0 where all were. */

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
#include "gstclptx-private.h"
#include "median.h"
#include "nvidia-device.h"

/* What a kernel of a case takes, in order: the source plane, the
 * destination plane, a buffer holding the threshold, 32- and 64-bit
 * values, local memory of @value bytes. */
typedef enum
{ ARG_SRC, ARG_DST, ARG_THRESHOLD, ARG_U32, ARG_U64, ARG_LOCAL } ArgKind;

typedef struct
{
  ArgKind kind;
  guint64 value;
} Arg;

/* A kernel, its program and its launch over one 8-bit plane: work-groups
 * of @local items, each covering @covers samples. */
typedef struct
{
  const gchar *kernel;
  const gchar *sources[5];
  const gchar *options;
  guint local[2], covers[2];
  guint threshold;
  Arg args[20];
  guint n_args;
} Case;

#define DCT_TILE_SIDE 64
#define EPS_LOCAL_W 32
#define EPS_LOCAL_H 8

/* dct_tile as gst/gstcldct.c launches it (threshold_tiles) on a plane of
 * @width x @height, pitch @width: 16 passes at 39 (the passes' offsets
 * packed in pass order, not sorted by x as the element packs them: the
 * mean is the same). */
static Case
dct_case (gint width, gint height)
{
  Case c = { "dct_tile", {gst_cl_kernel_common, gst_cl_kernel_dct_shared,
      gst_cl_kernel_dct, gst_cl_kernel_dct_tiles},
  "-DDCT_TILE=64 -DDCT_WG=256", {256, 1}, {DCT_TILE_SIDE, DCT_TILE_SIDE},
  39
  };
  guint64 sxs = 0, sys = 0;
  gint i, sx, sy;

  for (i = 0; i < 16; i++) {
    gst_cl_dct_pass_offset (16, i, &sx, &sy);
    sxs |= (guint64) sx << (4 * i);
    sys |= (guint64) sy << (4 * i);
  }
  {
    const Arg args[] = { {ARG_SRC}, {ARG_U32, 0}, {ARG_U32, width},
    {ARG_DST}, {ARG_U32, 0}, {ARG_U32, width}, {ARG_U32, width},
    {ARG_U32, height}, {ARG_U64, sxs}, {ARG_U64, sys}, {ARG_U32, 16},
    {ARG_THRESHOLD}, {ARG_U32, 4}, {ARG_U32, 0}, {ARG_U32, 1}, {ARG_U32, 0},
    {ARG_U32, 0}
    };

    memcpy (c.args, args, sizeof (args));
    c.n_args = G_N_ELEMENTS (args);
  }
  return c;
}

/* epsilon_tiled_planar as gst/gstclstage.c launches it (run_epsilon): 3x3
 * at threshold 10, its tile's bytes as tile_bytes() says. */
static Case
epsilon_case (gint width, gint height)
{
  Case c = { "epsilon_tiled_planar", {gst_cl_kernel_filters_shared,
          gst_cl_kernel_common, gst_cl_kernel_epsilon,
      gst_cl_kernel_convolve}, "-DRADIUS=1", {EPS_LOCAL_W, EPS_LOCAL_H},
  {EPS_LOCAL_W, EPS_LOCAL_H}, 10
  };
  const Arg args[] = { {ARG_SRC}, {ARG_U32, 0}, {ARG_U32, width}, {ARG_DST},
  {ARG_U32, 0}, {ARG_U32, width}, {ARG_U32, width}, {ARG_U32, height},
  {ARG_U32, 1}, {ARG_U32, 10}, {ARG_U32, 0},
  {ARG_LOCAL, (EPS_LOCAL_W + 4) * (EPS_LOCAL_H + 2) * 4}
  };

  memcpy (c.args, args, sizeof (args));
  c.n_args = G_N_ELEMENTS (args);
  return c;
}

static gsize
arg_size (const Arg * a)
{
  return a->kind == ARG_U64 ? 8 : a->kind == ARG_LOCAL ? a->value : 4;
}

/* The OpenCL side: @in through @c's kernel into @out, its program's PTX
 * into @ptx, the median ms into @ms. */
static gboolean
run_opencl (cl_device_id device, const Case * c, const guint8 * in,
    guint8 * out, gint width, gint height, gint iterations, gchar ** ptx,
    gdouble * ms)
{
  const gsize size = (gsize) width * height;
  const size_t local[2] = { c->local[0], c->local[1] };
  const size_t global[2] = {
    (width + c->covers[0] - 1) / c->covers[0] * c->local[0],
    (height + c->covers[1] - 1) / c->covers[1] * c->local[1]
  };
  gdouble *times = g_new (gdouble, iterations);
  cl_int s = CL_SUCCESS;
  cl_context context = clCreateContext (NULL, 1, &device, NULL, NULL, &s);
  cl_command_queue queue = clCreateCommandQueue (context, device, 0, &s);
  cl_program program = clCreateProgramWithSource (context,
      g_strv_length ((gchar **) c->sources), (const gchar **) c->sources,
      NULL, &s);
  cl_mem src, dst, thr;
  cl_kernel k = NULL;
  GError *error = NULL;
  guint i;

  if (s == CL_SUCCESS)
    s = clBuildProgram (program, 1, &device, c->options, NULL, NULL);
  if (s != CL_SUCCESS || !(k = clCreateKernel (program, c->kernel, &s))) {
    gchar log[16384] = "";

    clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG,
        sizeof (log) - 1, log, NULL);
    g_printerr ("OpenCL: %s does not build (%d)\n%s\n", c->kernel, s, log);
    return FALSE;
  }
  src = clCreateBuffer (context, CL_MEM_COPY_HOST_PTR, size, (gpointer) in, &s);
  dst = clCreateBuffer (context, CL_MEM_READ_WRITE, size, NULL, &s);
  thr = clCreateBuffer (context, CL_MEM_COPY_HOST_PTR, sizeof (guint),
      (gpointer) & c->threshold, &s);
  for (i = 0; i < c->n_args && s == CL_SUCCESS; i++) {
    const Arg *a = &c->args[i];
    const cl_mem *mem = a->kind == ARG_SRC ? &src : a->kind == ARG_DST ? &dst
        : &thr;

    if (a->kind <= ARG_THRESHOLD)
      s = clSetKernelArg (k, i, sizeof (cl_mem), mem);
    else                        /* little-endian: the low bytes first */
      s = clSetKernelArg (k, i, arg_size (a), a->kind == ARG_LOCAL ? NULL :
          &a->value);
  }
  for (i = 0; i < (guint) iterations && s == CL_SUCCESS; i++) {
    const gint64 t0 = g_get_monotonic_time ();

    s = clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
        NULL);
    clFinish (queue);
    times[i] = (g_get_monotonic_time () - t0) / 1000.0;
  }
  if (s != CL_SUCCESS || clEnqueueReadBuffer (queue, dst, CL_TRUE, 0, size,
          out, 0, NULL, NULL) != CL_SUCCESS) {
    g_printerr ("OpenCL: %s failed (%d)\n", c->kernel, s);
    return FALSE;
  }
  *ms = median (times, iterations);
  g_free (times);
  if (!(*ptx = gst_cl_ptx_of_program (program, device, &error))) {
    g_printerr ("%s\n", error->message);
    g_clear_error (&error);
    return FALSE;
  }
  return TRUE;
}

/* Prints the %envreg registers @ptx reads. */
static void
print_envregs (const gchar * ptx)
{
  GRegex *reg = g_regex_new ("%envreg\\d+", 0, 0, NULL);
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GMatchInfo *match;
  GList *names, *l;

  g_regex_match (reg, ptx, 0, &match);
  while (g_match_info_matches (match)) {
    g_hash_table_add (seen, g_match_info_fetch (match, 0));
    g_match_info_next (match, NULL);
  }
  names = g_list_sort (g_hash_table_get_keys (seen), (GCompareFunc) strcmp);
  g_print ("the PTX reads:");
  for (l = names; l; l = l->next)
    g_print (" %s", (const gchar *) l->data);
  g_print ("%s\n", names ? "" : " no %envreg");
  g_list_free (names);
  g_hash_table_unref (seen);
  g_match_info_free (match);
  g_regex_unref (reg);
}

/* The CUDA side, in the current context: @image's kernel of @c on @in
 * into @out (new buffers, the output filled with 0xaa first), the median
 * ms into @ms. */
static gboolean
run_cuda (const CudaProbe * cu, const Case * c, const gchar * image,
    const guint8 * in, guint8 * out, gint width, gint height,
    gint iterations, gdouble * ms)
{
  const gsize size = (gsize) width * height;
  gdouble *times = g_new (gdouble, iterations);
  gpointer params[G_N_ELEMENTS (c->args)];
  CUdeviceptr src, dst, thr, unused = 0;
  guint shared = 0;
  CUfunction f;
  CUmodule module;
  CUstream stream;
  CUresult r = 0;
  guint i;

  memset (out, 0xaa, size);
  if (!(module = cuda_probe_load_module (cu, image)))
    return FALSE;
  if ((r = cu->module_get_function (&f, module, c->kernel)) != 0 ||
      (r = cu->stream_create (&stream, 1)) != 0 ||
      (r = cu->mem_alloc (&src, size)) != 0 ||
      (r = cu->mem_alloc (&dst, size)) != 0 ||
      (r = cu->mem_alloc (&thr, sizeof (guint))) != 0 ||
      (r = cu->memcpy_htod (src, in, size)) != 0 ||
      (r = cu->memcpy_htod (dst, out, size)) != 0 ||
      (r = cu->memcpy_htod (thr, &c->threshold, sizeof (guint))) != 0) {
    g_printerr ("CUDA: set-up failed (%d)\n", r);
    return FALSE;
  }
  for (i = 0; i < c->n_args; i++) {
    const Arg *a = &c->args[i];

    /* a __local pointer's parameter stays, unread: any value */
    params[i] = a->kind == ARG_SRC ? (gpointer) & src : a->kind == ARG_DST ?
        (gpointer) & dst : a->kind == ARG_THRESHOLD ? (gpointer) & thr :
        a->kind == ARG_LOCAL ? (gpointer) & unused : (gpointer) & a->value;
    if (a->kind == ARG_LOCAL)
      shared += a->value;
  }
  for (i = 0; i < (guint) iterations && r == 0; i++) {
    const gint64 t0 = g_get_monotonic_time ();

    r = cu->launch_kernel (f, (width + c->covers[0] - 1) / c->covers[0],
        (height + c->covers[1] - 1) / c->covers[1], 1, c->local[0],
        c->local[1], 1, shared, stream, params, NULL);
    if (r == 0)
      r = cu->stream_synchronize (stream);
    times[i] = (g_get_monotonic_time () - t0) / 1000.0;
  }
  if (r != 0 || (r = cu->memcpy_dtoh (out, dst, size)) != 0) {
    g_printerr ("CUDA: %s failed (%d)\n", c->kernel, r);
    return FALSE;
  }
  *ms = median (times, iterations);
  g_free (times);
  return TRUE;
}

/* Prints how many bytes of @out differ from @want, and where the first
 * is; TRUE where none does. */
static gboolean
compare (const Case * c, const guint8 * want, const guint8 * out,
    gint width, gint height, gdouble cl_ms, gdouble cu_ms)
{
  const gsize size = (gsize) width * height;
  gsize i, differ = 0, first = size;

  for (i = 0; i < size; i++)
    if (want[i] != out[i] && differ++ == 0)
      first = i;
  g_print ("%s %dx%d: OpenCL %.3f ms, CUDA %.3f ms (medians); %zu of %zu "
      "bytes differ", c->kernel, width, height, cl_ms, cu_ms, differ, size);
  if (differ)
    g_print (", the first at x %zu y %zu: %u against %u", first % width,
        first / width, out[first], want[first]);
  g_print ("\n");
  return differ == 0;
}

/* @c both ways on @in; TRUE where the outputs are equal. */
static gboolean
run_case (const CudaProbe * cu, cl_device_id device, const Case * c,
    const guint8 * in, gint width, gint height, gint iterations)
{
  const gsize size = (gsize) width * height;
  guint8 *cl_out = g_malloc (size), *cu_out = g_malloc (size);
  const gchar *ptx_file = g_getenv ("CL_PTX_FILE");
  gchar *ptx = NULL, *patched = NULL;
  GError *error = NULL;
  gdouble cl_ms, cu_ms;
  gboolean same = FALSE;

  if (!run_opencl (device, c, in, cl_out, width, height, iterations, &ptx,
          &cl_ms))
    goto done;
  if (ptx_file && strcmp (c->kernel, "dct_tile") == 0)
    g_file_set_contents (ptx_file, ptx, -1, NULL);
  print_envregs (ptx);
  if (!(patched = gst_cl_ptx_for_cuda (ptx, &error)))
    g_printerr ("%s: %s\n", c->kernel, error->message);
  else if (run_cuda (cu, c, patched, in, cu_out, width, height, iterations,
          &cu_ms))
    same = compare (c, cl_out, cu_out, width, height, cl_ms, cu_ms);
done:
  g_clear_error (&error);
  g_free (patched);
  g_free (ptx);
  g_free (cl_out);
  g_free (cu_out);
  return same;
}

/* Prints @ptx's parameters of pointers into the .shared space (__local),
 * each with the lines that name it. */
static void
print_local_params (const gchar * ptx)
{
  GRegex *decl = g_regex_new ("\\.param\\s+\\.\\w+\\s+\\.ptr\\s+\\.shared"
      "[^,\\n]*?(\\w+)\\s*[,\\n)]", 0, 0, NULL);
  GMatchInfo *match;
  gchar **lines = g_strsplit (ptx, "\n", -1);
  guint i;

  g_regex_match (decl, ptx, 0, &match);
  while (g_match_info_matches (match)) {
    gchar *name = g_match_info_fetch (match, 1);

    g_print ("  __local parameter %s:\n", name);
    for (i = 0; lines[i]; i++)
      if (strstr (lines[i], name))
        g_print ("    %s\n", g_strstrip (lines[i]));
    g_free (name);
    g_match_info_next (match, NULL);
  }
  g_match_info_free (match);
  g_regex_unref (decl);
  g_strfreev (lines);
}

/* @ptx's kernels, rewritten, as a module of the current context; prints
 * what was taken. TRUE where everything was. */
static gboolean
load_program (const CudaProbe * cu, const gchar * ptx)
{
  GRegex *entry = g_regex_new ("\\.entry\\s+(\\w+)", 0, 0, NULL);
  GError *error = NULL;
  gchar *patched = gst_cl_ptx_for_cuda (ptx, &error);
  CUmodule module = NULL;
  GMatchInfo *match;
  gboolean ok;

  print_envregs (ptx);
  print_local_params (ptx);
  if (!patched)
    g_print ("  rewrite refused: %s\n", error->message);
  else if (!(module = cuda_probe_load_module (cu, patched)))
    g_print ("  module refused (the JIT's log above)\n");
  ok = module != NULL;
  g_regex_match (entry, ptx, 0, &match);
  while (g_match_info_matches (match)) {
    gchar *name = g_match_info_fetch (match, 1);
    CUfunction f;
    CUresult r = module ? cu->module_get_function (&f, module, name) : -1;

    g_print ("  kernel %s: %s (%d)\n", name, r == 0 ? "taken" : "not taken", r);
    ok &= r == 0;
    g_free (name);
    g_match_info_next (match, NULL);
  }
  g_match_info_free (match);
  g_regex_unref (entry);
  g_clear_error (&error);
  g_free (patched);
  return ok;
}

/* --programs DIR, in the current context. */
static gint
load_programs (const CudaProbe * cu, const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;
  guint n = 0, taken = 0;

  while (dir && (name = g_dir_read_name (dir))) {
    gchar *file = g_build_filename (path, name, NULL), *contents = NULL;
    const gchar *ptx;

    if (g_str_has_prefix (name, "program-") &&
        g_file_get_contents (file, &contents, NULL, NULL)) {
      n++;
      if (!(ptx = strstr (contents, ".version"))) {
        g_print ("%s: no PTX\n", name);
      } else {
        g_print ("%s:\n", name);
        taken += load_program (cu, ptx);
      }
    }
    g_free (contents);
    g_free (file);
  }
  if (dir)
    g_dir_close (dir);
  g_print ("%u programs, %u taken whole\n", n, taken);
  return n > 0 && taken == n ? 0 : 1;
}

int
main (int argc, char **argv)
{
  const gboolean programs = argc > 1 && strcmp (argv[1], "--programs") == 0;
  const gint width = !programs && argc > 2 ? atoi (argv[1]) : 1920;
  const gint height = !programs && argc > 2 ? atoi (argv[2]) : 1080;
  const gint iterations = argc > 3 ? MAX (atoi (argv[3]), 1) : 200;
  const cl_device_id device = nvidia_device ();
  GRand *rand = g_rand_new_with_seed (1);
  CudaProbe cu = { 0 };
  CUcontext context;
  gint ordinal, cu_device;
  gboolean same;
  Case dct, epsilon;
  guint8 *in;
  gsize i, size;

  if (programs && argc != 3) {
    g_printerr ("usage: cl-ptx-in-cuda --programs DIR\n");
    return 2;
  }
  if (!device || width < 8 || height < 8) {
    g_printerr ("no NVIDIA OpenCL device, or a plane under 8x8\n");
    return 1;
  }
  if (!cuda_probe_load (&cu) ||
      (ordinal = cuda_probe_device_of (&cu, device)) < 0 ||
      cu.device_get (&cu_device, ordinal) != 0 ||
      cu.ctx_create (&context, 0, cu_device) != 0) {
    g_printerr ("CUDA: no driver, no device of the OpenCL device's UUID, or "
        "no context\n");
    return 1;
  }
  if (programs)
    return load_programs (&cu, argv[2]);
  size = (gsize) width *height;
  in = g_malloc (size);
  /* smooth areas with noise and edges, as decoded pictures have */
  for (i = 0; i < size; i++)
    in[i] = (guint8) CLAMP ((gint) (i % width / 8 + (i / width % 64 < 32 ?
                40 : 0)) + g_rand_int_range (rand, -6, 7), 0, 255);
  dct = dct_case (width, height);
  epsilon = epsilon_case (width, height);
  same = run_case (&cu, device, &dct, in, width, height, iterations);
  same &= run_case (&cu, device, &epsilon, in, width, height, iterations);
  g_free (in);
  g_rand_free (rand);
  return same ? 0 : 1;
}
