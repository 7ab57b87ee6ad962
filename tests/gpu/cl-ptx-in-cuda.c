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
 * Whether the element's kernels could run in a CUDA context (a decoder's)
 * instead of an OpenCL context of their own, which the GPU time-slices
 * with the decoder's (cl-cuda-slices): builds the DCT stage's tiles
 * program (kernels/dct-tiles.cl: 64-sample tiles, work-groups of 256) with
 * NVIDIA's OpenCL and runs dct_tile, 16 passes at threshold 39, on a
 * random 8-bit plane (default 1920x1080); then loads the program's binary,
 * which NVIDIA's OpenCL writes as PTX, into a CUDA context of its own on
 * the same GPU (cuModuleLoadDataEx), launches the same kernel there with the same
 * arguments and geometry, and compares the two outputs byte for byte.
 * NVIDIA's OpenCL PTX reads the group offsets and counts from %envreg
 * registers that only its runtime sets: the probe prints those it reads,
 * and launches a copy with their values written in (the offsets 0, the
 * counts %nctaid) first, then the PTX as it is. Prints the median wall ms
 * of each launch and its wait over ITERATIONS (default 200), and where
 * the first byte that differs is. CL_PTX_FILE=PATH writes the PTX there.
 * Exits 0 where one of the CUDA outputs equals OpenCL's, 1 where none does
 * or a step fails (named).
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

#define TILE 64
#define GROUP 256
#define PASSES 16
#define THRESHOLD 39

/* dct_tile's arguments after its buffers' (gst/gstcldct.c, threshold_tiles),
 * for one 8-bit plane of @width x @height, pitch @width */
typedef struct
{
  cl_uint src_offset;
  cl_int src_pitch;
  cl_uint dst_offset;
  cl_int dst_pitch, width, height;
  cl_ulong sxs, sys;
  cl_int passes, passes_log2, shift, xstep, component_step, fields;
} StageArgs;

static StageArgs
stage_args (gint width, gint height)
{
  StageArgs a = { 0, width, 0, width, width, height, 0, 0, PASSES, 4, 0, 1,
    0, 0
  };
  gint i, sx, sy;

  for (i = 0; i < PASSES; i++) {
    gst_cl_dct_pass_offset (PASSES, i, &sx, &sy);
    a.sxs |= (cl_ulong) sx << (4 * i);
    a.sys |= (cl_ulong) sy << (4 * i);
  }
  return a;
}

/* The OpenCL side: @in through dct_tile into @out, the program's binary
 * (PTX) into @ptx, the median ms into @ms. */
static gboolean
run_opencl (cl_device_id device, const guint8 * in, guint8 * out, gint width,
    gint height, gint iterations, gchar ** ptx, gdouble * ms)
{
  const gchar *sources[] = { gst_cl_kernel_common, gst_cl_kernel_dct_shared,
    gst_cl_kernel_dct, gst_cl_kernel_dct_tiles
  };
  const gchar *options = "-DDCT_TILE=64 -DDCT_WG=256";
  const StageArgs a = stage_args (width, height);
  const gsize size = (gsize) width * height;
  const size_t global[2] = { (width + TILE - 1) / TILE * GROUP,
    (height + TILE - 1) / TILE
  }, local[2] = { GROUP, 1 };
  const cl_uint threshold = THRESHOLD;
  gdouble *times = g_new (gdouble, iterations);
  cl_int s = CL_SUCCESS;
  cl_context context = clCreateContext (NULL, 1, &device, NULL, NULL, &s);
  cl_command_queue queue = clCreateCommandQueue (context, device, 0, &s);
  cl_program program = clCreateProgramWithSource (context,
      G_N_ELEMENTS (sources), sources, NULL, &s);
  cl_mem src, dst, thr;
  cl_kernel k = NULL;
  GError *error = NULL;
  cl_uint n = 0;
  gint i;

  if (s != CL_SUCCESS || clBuildProgram (program, 1, &device, options, NULL,
          NULL) != CL_SUCCESS || !(k = clCreateKernel (program, "dct_tile",
              &s))) {
    gchar log[16384] = "";

    clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG,
        sizeof (log) - 1, log, NULL);
    g_printerr ("OpenCL: the program does not build (%d)\n%s\n", s, log);
    return FALSE;
  }
  src = clCreateBuffer (context, CL_MEM_COPY_HOST_PTR, size, (gpointer) in, &s);
  dst = clCreateBuffer (context, CL_MEM_READ_WRITE, size, NULL, &s);
  thr = clCreateBuffer (context, CL_MEM_COPY_HOST_PTR, sizeof (threshold),
      (gpointer) & threshold, &s);
  clSetKernelArg (k, n++, sizeof (src), &src);
  clSetKernelArg (k, n++, sizeof (cl_uint), &a.src_offset);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.src_pitch);
  clSetKernelArg (k, n++, sizeof (dst), &dst);
  clSetKernelArg (k, n++, sizeof (cl_uint), &a.dst_offset);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.dst_pitch);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.width);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.height);
  clSetKernelArg (k, n++, sizeof (cl_ulong), &a.sxs);
  clSetKernelArg (k, n++, sizeof (cl_ulong), &a.sys);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.passes);
  clSetKernelArg (k, n++, sizeof (thr), &thr);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.passes_log2);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.shift);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.xstep);
  clSetKernelArg (k, n++, sizeof (cl_int), &a.component_step);
  s = clSetKernelArg (k, n++, sizeof (cl_int), &a.fields);
  for (i = 0; i < iterations && s == CL_SUCCESS; i++) {
    const gint64 t0 = g_get_monotonic_time ();

    s = clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local, 0, NULL,
        NULL);
    clFinish (queue);
    times[i] = (g_get_monotonic_time () - t0) / 1000.0;
  }
  if (s != CL_SUCCESS || clEnqueueReadBuffer (queue, dst, CL_TRUE, 0, size,
          out, 0, NULL, NULL) != CL_SUCCESS) {
    g_printerr ("OpenCL: dct_tile failed (%d)\n", s);
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

/* @image as a module of the current context; where the driver refuses it,
 * once more without the OpenCL qualifiers of pointer parameters (`.ptr
 * .global .align N`). */
static CUmodule
load_module (const CudaProbe * cu, const gchar * image)
{
  CUmodule module = cuda_probe_load_module (cu, image);
  GRegex *ptr;
  gchar *plain;

  if (module)
    return module;
  ptr = g_regex_new ("\\.ptr(\\s+\\.\\w+)?\\s+\\.align\\s+\\d+", 0, 0, NULL);
  plain = g_regex_replace_literal (ptr, image, -1, 0, "", 0, NULL);
  g_print ("CUDA: refused; again without the pointers' .ptr qualifiers\n");
  module = cuda_probe_load_module (cu, plain);
  g_free (plain);
  g_regex_unref (ptr);
  return module;
}

/* The CUDA side, in the current context: @image's dct_tile on @in into
 * @out (new buffers, the output filled with 0xaa first), the median ms
 * into @ms. */
static gboolean
run_cuda (const CudaProbe * cu, const gchar * image, const guint8 * in,
    guint8 * out, gint width, gint height, gint iterations, gdouble * ms)
{
  StageArgs a = stage_args (width, height);
  const gsize size = (gsize) width * height;
  const guint threshold = THRESHOLD;
  gdouble *times = g_new (gdouble, iterations);
  CUdeviceptr src, dst, thr;
  CUfunction f;
  CUmodule module;
  CUstream stream;
  CUresult r = 0;
  gint i;

  memset (out, 0xaa, size);
  if (!(module = load_module (cu, image)))
    return FALSE;
  if ((r = cu->module_get_function (&f, module, "dct_tile")) != 0 ||
      (r = cu->stream_create (&stream, 1)) != 0 ||
      (r = cu->mem_alloc (&src, size)) != 0 ||
      (r = cu->mem_alloc (&dst, size)) != 0 ||
      (r = cu->mem_alloc (&thr, sizeof (threshold))) != 0 ||
      (r = cu->memcpy_htod (src, in, size)) != 0 ||
      (r = cu->memcpy_htod (dst, out, size)) != 0 ||
      (r = cu->memcpy_htod (thr, &threshold, sizeof (threshold))) != 0) {
    g_printerr ("CUDA: set-up failed (%d)\n", r);
    return FALSE;
  }
  {
    gpointer params[] = { &src, &a.src_offset, &a.src_pitch, &dst,
      &a.dst_offset, &a.dst_pitch, &a.width, &a.height, &a.sxs, &a.sys,
      &a.passes, &thr, &a.passes_log2, &a.shift, &a.xstep, &a.component_step,
      &a.fields
    };

    for (i = 0; i < iterations && r == 0; i++) {
      const gint64 t0 = g_get_monotonic_time ();

      r = cu->launch_kernel (f, (width + TILE - 1) / TILE,
          (height + TILE - 1) / TILE, 1, GROUP, 1, 1, 0, stream, params, NULL);
      if (r == 0)
        r = cu->stream_synchronize (stream);
      times[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  }
  if (r != 0 || (r = cu->memcpy_dtoh (out, dst, size)) != 0) {
    g_printerr ("CUDA: dct_tile failed (%d)\n", r);
    return FALSE;
  }
  *ms = median (times, iterations);
  g_free (times);
  return TRUE;
}

/* Prints how many bytes of @out differ from @want, and where the first
 * is; TRUE where none does. */
static gboolean
compare (const gchar * what, const guint8 * want, const guint8 * out,
    gint width, gint height, gdouble ms, gint iterations)
{
  const gsize size = (gsize) width * height;
  gsize i, differ = 0, first = size;

  for (i = 0; i < size; i++)
    if (want[i] != out[i] && differ++ == 0)
      first = i;
  g_print ("CUDA, %s: %.3f ms (median of %d); %zu of %zu bytes differ from "
      "OpenCL's", what, ms, iterations, differ, size);
  if (differ)
    g_print (", the first at x %zu y %zu (tile %zu, %zu): %u against %u",
        first % width, first / width, first % width / TILE,
        first / width / TILE, out[first], want[first]);
  g_print ("\n");
  return differ == 0;
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
  const gint width = argc > 2 ? atoi (argv[1]) : 1920;
  const gint height = argc > 2 ? atoi (argv[2]) : 1080;
  const gint iterations = argc > 3 ? MAX (atoi (argv[3]), 1) : 200;
  const gchar *ptx_file = g_getenv ("CL_PTX_FILE");
  const cl_device_id device = nvidia_device ();
  GRand *rand = g_rand_new_with_seed (1);
  guint8 *in, *cl_out, *cu_out;
  gchar *ptx = NULL, *patched;
  gdouble cl_ms, cu_ms;
  gboolean same = FALSE;
  CudaProbe cu = { 0 };
  CUcontext context;
  gint ordinal, cu_device;
  gsize i, size;

  if (argc == 3 && strcmp (argv[1], "--programs") == 0) {
    if (!device || !cuda_probe_load (&cu) ||
        (ordinal = cuda_probe_device_of (&cu, device)) < 0 ||
        cu.device_get (&cu_device, ordinal) != 0 ||
        cu.ctx_create (&context, 0, cu_device) != 0) {
      g_printerr ("no NVIDIA OpenCL device, CUDA driver or context\n");
      return 1;
    }
    return load_programs (&cu, argv[2]);
  }
  if (!device || width < 8 || height < 8) {
    g_printerr ("no NVIDIA OpenCL device, or a plane under 8x8\n");
    return 1;
  }
  size = (gsize) width *height;
  in = g_malloc (size);
  cl_out = g_malloc (size);
  cu_out = g_malloc (size);
  /* smooth areas with noise and edges, as decoded pictures have */
  for (i = 0; i < size; i++)
    in[i] = (guint8) CLAMP ((gint) (i % width / 8 + (i / width % 64 < 32 ?
                40 : 0)) + g_rand_int_range (rand, -6, 7), 0, 255);
  if (!run_opencl (device, in, cl_out, width, height, iterations, &ptx, &cl_ms))
    return 1;
  g_print ("OpenCL: dct_tile %dx%d, %d passes at %d: %.3f ms (median of %d); "
      "the binary: %zu bytes, %s\n", width, height, PASSES, THRESHOLD, cl_ms,
      iterations, strlen (ptx), strstr (ptx, ".entry dct_tile") ?
      "PTX with dct_tile" : "no PTX entry dct_tile in it");
  if (ptx_file)
    g_file_set_contents (ptx_file, ptx, -1, NULL);
  print_envregs (ptx);
  if (!cuda_probe_load (&cu) ||
      (ordinal = cuda_probe_device_of (&cu, device)) < 0 ||
      cu.device_get (&cu_device, ordinal) != 0 ||
      cu.ctx_create (&context, 0, cu_device) != 0) {
    g_printerr ("CUDA: no driver, no device of the OpenCL device's UUID, or "
        "no context\n");
    return 1;
  }
  /* the PTX with the runtime's values first: a wrong address in the PTX
   * as it is would spoil the context (error 700) */
  patched = gst_cl_ptx_for_cuda (ptx, NULL);
  if (!patched)
    g_print ("CUDA: the PTX reads what gst_cl_ptx_for_cuda() does not know\n");
  else if (strcmp (patched, ptx) != 0 &&
      run_cuda (&cu, patched, in, cu_out, width, height, iterations, &cu_ms))
    same |= compare ("the PTX with the %envreg values", cl_out, cu_out, width,
        height, cu_ms, iterations);
  if (run_cuda (&cu, ptx, in, cu_out, width, height, iterations, &cu_ms))
    same |= compare ("the PTX as it is", cl_out, cu_out, width, height, cu_ms,
        iterations);
  return same ? 0 : 1;
}
