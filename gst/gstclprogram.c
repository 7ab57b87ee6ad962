/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclprogram-private.h"
#include "gstclerror-private.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_program_debug);
#define GST_CAT_DEFAULT gst_cl_program_debug

static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_program_debug, "clprogram", 0,
        "OpenCL program build");
    g_once_init_leave (&done, 1);
  }
}

static gchar *
get_build_log (cl_program program, cl_device_id device)
{
  size_t size = 0;
  gchar *log;

  if (clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
          &size) != CL_SUCCESS || size == 0)
    return g_strdup ("(no build log)");

  log = g_malloc0 (size + 1);
  if (clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, size, log,
          NULL) != CL_SUCCESS)
    log[0] = '\0';
  return g_strstrip (log);
}

static gchar *
full_options (cl_device_id device, const gchar * options)
{
  cl_device_fp_config fp = 0;
  gboolean exact_div;

  clGetDeviceInfo (device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof (fp), &fp, NULL);
  exact_div = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  return g_strjoin (" ", options ? options : "",
      exact_div ? "-cl-fp32-correctly-rounded-divide-sqrt" : "", NULL);
}

cl_program
gst_cl_program_build (GstClContext * context, const gchar * const *sources,
    const gchar * options, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (context);
  gchar *source, *opts, *log;
  cl_program program;
  cl_int status;

  ensure_debug_category ();

  source = g_strjoinv ("\n", (gchar **) sources);
  program = clCreateProgramWithSource (gst_cl_context_get_handle (context), 1,
      (const char **) &source, NULL, &status);
  g_free (source);
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status, "clCreateProgramWithSource");
    return NULL;
  }

  opts = full_options (device, options);
  GST_DEBUG ("building for %s with options \"%s\"",
      gst_cl_context_get_device_name (context), opts);
  status = clBuildProgram (program, 1, &device, opts, NULL, NULL);
  g_free (opts);
  if (status == CL_SUCCESS)
    return program;

  log = get_build_log (program, device);
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "OpenCL clBuildProgram failed: %s (%d); build log:\n%s",
      gst_cl_error_name (status), status, log);
  g_free (log);
  clReleaseProgram (program);
  return NULL;
}

cl_kernel
gst_cl_program_create_kernel (cl_program program, const gchar * name,
    GError ** error)
{
  cl_kernel kernel;
  cl_int status;

  kernel = clCreateKernel (program, name, &status);
  if (status != CL_SUCCESS) {
    gchar *step = g_strdup_printf ("clCreateKernel (%s)", name);

    gst_cl_set_error (error, status, step);
    g_free (step);
    return NULL;
  }
  return kernel;
}
