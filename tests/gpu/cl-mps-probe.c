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

/* cl-mps-probe [--any]
 *
 * Which of the OpenCL and CUDA steps of the element's start on NVIDIA work
 * where they run, for separate processes under NVIDIA MPS (gpu-mps-probe.sh
 * runs it with and without): NVIDIA's OpenCL makes no context under MPS
 * (docs/benchmarks.md), and whether the element could start without one
 * depends on what else still works there. One line a step, its result:
 *   - OpenCL: the platforms, the first GPU of NVIDIA's, the device queries
 *     the element's program cache is keyed on (gst/gstcldevice.c's
 *     identity, the FP config) and its UUID (how it finds the CUDA
 *     device), the PTX of the element's 3x3 program (radius 1, bytes) in
 *     the program cache ($GST_CL_CACHE_DIR) found by its key alone, with
 *     no context (gst_cl_kernels_cached_binary(): an earlier run of the
 *     element must have built it), then a context, a queue and a program
 *     built;
 *   - CUDA: the driver, the device with that UUID, a context of its own,
 *     and that PTX loaded into it as a module.
 * With --any, the first device of the first platform instead of NVIDIA's
 * (to try the probe where there is no NVIDIA GPU: PoCL has no UUID and no
 * CUDA). Exits 0 where every step worked, 1 where one did not (each is
 * said). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>

#include "cuda-probe.h"
#include "nvidia-device.h"
#include "gstclptx-private.h"
#include "gstclstage-private.h"

static gboolean all_ok = TRUE;

/* Prints STEP's result: "ok" and @what, or the error @rc. */
static gboolean
step (const gchar * name, gint rc, const gchar * what)
{
  g_print ("%-28s %s", name, rc == 0 ? "ok" : "FAILED");
  if (rc != 0)
    g_print (" (%d)", rc);
  g_print ("%s%s\n", what && rc == 0 ? "  " : "", what && rc == 0 ? what : "");
  if (rc != 0)
    all_ok = FALSE;
  return rc == 0;
}

/* @param of @device's platform into @value. */
static cl_int
platform_string (cl_device_id device, cl_platform_info param, gchar * value,
    gsize size)
{
  cl_platform_id platform = NULL;
  cl_int rc = clGetDeviceInfo (device, CL_DEVICE_PLATFORM, sizeof (platform),
      &platform, NULL);

  value[0] = '\0';
  return rc != CL_SUCCESS ? rc :
      clGetPlatformInfo (platform, param, size, value, NULL);
}

static void
device_queries (cl_device_id device)
{
  const struct
  {
    const gchar *name;
    cl_device_info param;
  } strings[] = {
    {"CL_DEVICE_NAME", CL_DEVICE_NAME},
    {"CL_DEVICE_VERSION", CL_DEVICE_VERSION},
    {"CL_DRIVER_VERSION", CL_DRIVER_VERSION},
  };
  cl_device_fp_config fp = 0;
  guint8 uuid[CL_UUID_SIZE_KHR];
  gchar value[256];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (strings); i++) {
    value[0] = '\0';
    step (strings[i].name, clGetDeviceInfo (device, strings[i].param,
            sizeof (value), value, NULL), value);
  }
  step ("CL_PLATFORM_NAME", platform_string (device, CL_PLATFORM_NAME,
          value, sizeof (value)), value);
  step ("CL_PLATFORM_VERSION", platform_string (device, CL_PLATFORM_VERSION,
          value, sizeof (value)), value);
  step ("CL_DEVICE_SINGLE_FP_CONFIG", clGetDeviceInfo (device,
          CL_DEVICE_SINGLE_FP_CONFIG, sizeof (fp), &fp, NULL), NULL);
  step ("CL_DEVICE_UUID_KHR", clGetDeviceInfo (device, CL_DEVICE_UUID_KHR,
          sizeof (uuid), uuid, NULL), NULL);
}

/* The PTX of the element's 3x3 program in the program cache, by its key
 * alone: NULL where there is none. */
static gchar *
cached_ptx (cl_device_id device)
{
  gsize size = 0;
  gchar *binary = gst_cl_kernels_cached_binary (device, 1, FALSE, &size);
  gchar *what = g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", size);

  g_print ("%-28s %s\n", "program cache",
      g_getenv ("GST_CL_CACHE_DIR") ? g_getenv ("GST_CL_CACHE_DIR") :
      "(the user's)");

  step ("the 3x3 program by its key", binary ? 0 : -1, binary ? what : NULL);
  g_free (what);
  return binary;
}

/* A context, a queue and a one-kernel program on @device. */
static void
opencl_context (cl_device_id device)
{
  const gchar *source = "__kernel void probe (__global int *p) { p[0] = 1; }";
  cl_int rc = CL_SUCCESS;
  cl_context context = clCreateContext (NULL, 1, &device, NULL, NULL, &rc);
  cl_command_queue queue;
  cl_program program;

  if (!step ("clCreateContext", context ? rc : (rc ? rc : -1), NULL))
    return;
  queue = clCreateCommandQueue (context, device, 0, &rc);
  if (step ("clCreateCommandQueue", queue ? rc : (rc ? rc : -1), NULL))
    clReleaseCommandQueue (queue);
  program = clCreateProgramWithSource (context, 1, &source, NULL, &rc);
  if (step ("clCreateProgramWithSource", program ? rc : (rc ? rc : -1), NULL)) {
    step ("clBuildProgram", clBuildProgram (program, 1, &device, "", NULL,
            NULL), NULL);
    clReleaseProgram (program);
  }
  clReleaseContext (context);
}

/* @ptx (may be NULL: not tried) as a module of the current context. */
static void
load_ptx (CudaProbe * cu, const gchar * ptx)
{
  GError *error = NULL;
  gchar *patched = ptx ? gst_cl_ptx_for_cuda (ptx, &error) : NULL;

  if (!ptx)
    return;
  if (!patched) {
    g_print ("%-28s FAILED (%s)\n", "the PTX for CUDA", error->message);
    all_ok = FALSE;
    g_clear_error (&error);
    return;
  }
  /* its JIT log on stderr where it fails */
  step ("cuModuleLoadDataEx (3x3)", cuda_probe_load_module (cu, patched) ?
      0 : -1, NULL);
  g_free (patched);
}

static void
cuda_steps (cl_device_id device, const gchar * ptx)
{
  CudaProbe cu = { 0 };
  CUcontext context = NULL;
  gchar *what;
  gint d;

  if (!step ("cuInit", cuda_probe_load (&cu) ? 0 : -1, NULL))
    return;
  d = cuda_probe_device_of (&cu, device);
  what = g_strdup_printf ("CUDA device %d", d);
  if (step ("CUDA device of that UUID", d >= 0 ? 0 : -1, what) &&
      step ("cuCtxCreate", cu.ctx_create (&context, 0, d), NULL))
    load_ptx (&cu, ptx);
  g_free (what);
}

int
main (int argc, char **argv)
{
  cl_platform_id platforms[8];
  cl_device_id device;
  cl_uint n = 0;
  gchar *ptx;

  if (step ("clGetPlatformIDs", clGetPlatformIDs (G_N_ELEMENTS (platforms),
              platforms, &n), NULL))
    g_print ("%-28s %u\n", "platforms", n);
  device = NULL;
  if (argc > 1 && g_str_equal (argv[1], "--any")) {
    if (n > 0)
      clGetDeviceIDs (platforms[0], CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  } else {
    device = nvidia_device ();
  }
  if (!step ("the device", device ? 0 : -1, NULL))
    return 1;
  device_queries (device);
  ptx = cached_ptx (device);
  opencl_context (device);
  cuda_steps (device, ptx);
  g_free (ptx);
  g_print ("%s\n", all_ok ? "every step worked" : "a step failed");
  return all_ok ? 0 : 1;
}
