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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclprogram-private.h"
#include "gstclcache-private.h"
#include "gstclerror-private.h"
#include "gstclptx-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cl_program_debug

struct _GstClProgram
{
  GstClContext *context;
  cl_program handle;            /* NULL in a context without OpenCL */
  gchar *binary;                /* the cache's PTX, where no handle */
};

struct _GstClKernel
{
  GstClProgram *program;
  cl_kernel handle;
  gchar *name;
};


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

/* The cache's key of a program of @source (its sources joined) built
 * with @options for @device, whose gst_cl_device_describe() is @identity;
 * @opts: the options as built (full_options()). Device queries only: no
 * context. */
static gchar *
program_key (cl_device_id device, const gchar * identity,
    const gchar * source, const gchar * options, gchar ** opts)
{
  *opts = full_options (device, options);
  return g_strjoin ("\n", identity, *opts, source, NULL);
}

/* The program as the cache keeps it: built from the device's own binary. */
static cl_program
build_from_cache (GstClContext * context, const gchar * key, const gchar * opts)
{
  cl_device_id device = gst_cl_context_get_device (context);
  cl_program program;
  cl_int status, binary_status = CL_SUCCESS;
  gchar *binary;
  gsize size;

  if (!gst_cl_cache_read ("program", key, &binary, &size))
    return NULL;
  program = clCreateProgramWithBinary (gst_cl_context_get_handle (context), 1,
      &device, &size, (const guchar **) &binary, &binary_status, &status);
  g_free (binary);
  if (status != CL_SUCCESS || binary_status != CL_SUCCESS) {
    GST_INFO ("cached binary refused: %s",
        gst_cl_error_name (status != CL_SUCCESS ? status : binary_status));
    if (program && status == CL_SUCCESS)
      clReleaseProgram (program);
    return NULL;
  }
  status = clBuildProgram (program, 1, &device, opts, NULL, NULL);
  if (status != CL_SUCCESS) {
    GST_INFO ("cached binary does not build: %s", gst_cl_error_name (status));
    clReleaseProgram (program);
    return NULL;
  }
  return program;
}

/* Keeps the device binary of a program just built from source. */
static void
store_in_cache (cl_program program, const gchar * key)
{
  size_t size = 0;
  guchar *binary;

  if (clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES, sizeof (size),
          &size, NULL) != CL_SUCCESS || size == 0)
    return;
  binary = g_malloc (size);
  if (clGetProgramInfo (program, CL_PROGRAM_BINARIES, sizeof (binary),
          &binary, NULL) == CL_SUCCESS)
    gst_cl_cache_write ("program", key, (const gchar *) binary, size);
  g_free (binary);
}

static cl_program
build_from_source (GstClContext * context, const gchar * source,
    const gchar * opts, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (context);
  cl_program program;
  cl_int status;
  gchar *log;

  program = clCreateProgramWithSource (gst_cl_context_get_handle (context), 1,
      &source, NULL, &status);
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status, "clCreateProgramWithSource");
    return NULL;
  }
  status = clBuildProgram (program, 1, &device, opts, NULL, NULL);
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

/* The program of @key as the cache keeps it, for a context without
 * OpenCL: its PTX, which the CUDA path loads (gstclcudaexec.c). */
static GstClProgram *
load_without_opencl (GstClContext * context, const gchar * key,
    const gchar * opts, GError ** error)
{
  GstClProgram *self;
  gchar *binary;
  gsize size;

  if (!gst_cl_cache_read ("program", key, &binary, &size)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "No OpenCL context on %s, and its program (options \"%s\") is not "
        "in the program cache: run the pipeline once where OpenCL works "
        "(without NVIDIA MPS) to fill it",
        gst_cl_context_get_device_name (context), opts);
    return NULL;
  }
  if (!gst_cl_ptx_is_ptx (binary)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "No OpenCL context on %s, and its cached program is not PTX",
        gst_cl_context_get_device_name (context));
    g_free (binary);
    return NULL;
  }
  self = g_new0 (GstClProgram, 1);
  self->context = gst_object_ref (context);
  self->binary = binary;
  GST_DEBUG ("program from the cache for %s with options \"%s\", no OpenCL",
      gst_cl_context_get_device_name (context), opts);
  return self;
}

GstClProgram *
gst_cl_program_build (GstClContext * context, const gchar * const *sources,
    const gchar * options, gboolean * from_cache, GError ** error)
{
  gchar *source, *opts, *key;
  GstClProgram *self = NULL;
  cl_program program;

  gst_cl_debug_init ();

  source = g_strjoinv ("\n", (gchar **) sources);
  key = program_key (gst_cl_context_get_device (context),
      gst_cl_context_get_identity (context), source, options, &opts);
  if (!gst_cl_context_has_opencl (context)) {
    self = load_without_opencl (context, key, opts, error);
    if (from_cache)
      *from_cache = self != NULL;
    goto done;
  }
  program = build_from_cache (context, key, opts);
  if (from_cache)
    *from_cache = program != NULL;
  if (!program) {
    GST_DEBUG ("building for %s with options \"%s\"",
        gst_cl_context_get_device_name (context), opts);
    program = build_from_source (context, source, opts, error);
    if (program)
      store_in_cache (program, key);
  }
  if (program) {
    self = g_new0 (GstClProgram, 1);
    self->context = gst_object_ref (context);
    self->handle = program;
  }

done:
  g_free (key);
  g_free (opts);
  g_free (source);
  return self;
}

void
gst_cl_program_free (GstClProgram * self)
{
  if (!self)
    return;
  if (self->handle)
    clReleaseProgram (self->handle);
  g_free (self->binary);
  gst_object_unref (self->context);
  g_free (self);
}

gchar *
gst_cl_program_get_ptx (GstClProgram * self, GError ** error)
{
  if (self->binary)
    return g_strdup (self->binary);
  return gst_cl_ptx_of_program (self->handle,
      gst_cl_context_get_device (self->context), error);
}

cl_program
gst_cl_program_get_handle (GstClProgram * self)
{
  return self->handle;
}

/* The cache's key of @sources built with @options for @device, from
 * device queries alone (no context); @opts as in program_key(). */
static gchar *
device_program_key (cl_device_id device, const gchar * const *sources,
    const gchar * options, gchar ** opts)
{
  gchar *identity = gst_cl_device_describe (device);
  gchar *source = g_strjoinv ("\n", (gchar **) sources);
  gchar *key = program_key (device, identity, source, options, opts);

  g_free (source);
  g_free (identity);
  return key;
}

void
gst_cl_program_store_binary (cl_device_id device,
    const gchar * const *sources, const gchar * options,
    const gchar * binary, gsize size)
{
  gchar *opts, *key;

  gst_cl_debug_init ();
  key = device_program_key (device, sources, options, &opts);
  gst_cl_cache_write ("program", key, binary, size);
  g_free (key);
  g_free (opts);
}

gchar *
gst_cl_program_cached_binary (cl_device_id device,
    const gchar * const *sources, const gchar * options, gsize * size)
{
  gchar *opts, *binary = NULL, *key;

  gst_cl_debug_init ();
  key = device_program_key (device, sources, options, &opts);
  gst_cl_cache_read ("program", key, &binary, size);
  GST_DEBUG ("cached binary with options \"%s\": %s", opts,
      binary ? "found" : "none");
  g_free (key);
  g_free (opts);
  return binary;
}

GstClKernel *
gst_cl_program_create_kernel (GstClProgram * program, const gchar * name,
    GError ** error)
{
  GstClKernel *self;
  cl_kernel kernel = NULL;
  cl_int status = CL_SUCCESS;

  if (!program->handle && !gst_cl_ptx_find_entry (program->binary, name, NULL)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "The cached program has no kernel %s", name);
    return NULL;
  }
  if (program->handle)
    kernel = clCreateKernel (program->handle, name, &status);
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status, "clCreateKernel (%s)", name);
    return NULL;
  }
  self = g_new0 (GstClKernel, 1);
  self->program = program;
  self->handle = kernel;
  self->name = g_strdup (name);
  return self;
}

void
gst_cl_kernel_free (GstClKernel * self)
{
  if (!self)
    return;
  if (self->handle)
    clReleaseKernel (self->handle);
  g_free (self->name);
  g_free (self);
}

const gchar *
gst_cl_kernel_get_name (GstClKernel * self)
{
  return self->name;
}

GstClProgram *
gst_cl_kernel_get_program (GstClKernel * self)
{
  return self->program;
}

cl_kernel
gst_cl_kernel_get_handle (GstClKernel * self)
{
  return self->handle;
}

gboolean
gst_cl_kernel_get_n_args (GstClKernel * self, guint * n_args, GError ** error)
{
  cl_uint n = 0;
  cl_int status;

  if (!self->handle) {          /* its entry was found at its creation */
    gst_cl_ptx_find_entry (self->program->binary, self->name, n_args);
    return TRUE;
  }
  status = clGetKernelInfo (self->handle, CL_KERNEL_NUM_ARGS, sizeof (n), &n,
      NULL);
  *n_args = n;
  return status == CL_SUCCESS || gst_cl_set_error (error, status,
      "clGetKernelInfo (%s)", self->name);
}

gboolean
gst_cl_kernel_get_max_group (GstClKernel * self, size_t *size, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (self->program->context);
  cl_int status;

  /* Without OpenCL, the device's limit: every work-group the library asks
   * for is 256 work-items at most, which a CUDA kernel (255 registers a
   * thread at most, 64K a block) runs whatever its registers. */
  if (!self->handle)
    status = clGetDeviceInfo (device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
        sizeof (*size), size, NULL);
  else
    status = clGetKernelWorkGroupInfo (self->handle, device,
        CL_KERNEL_WORK_GROUP_SIZE, sizeof (*size), size, NULL);
  return status == CL_SUCCESS || gst_cl_set_error (error, status,
      "%s (%s)", self->handle ? "clGetKernelWorkGroupInfo" :
      "clGetDeviceInfo", self->name);
}

void
gst_cl_kernel_arg (GstClKernel * kernel, cl_uint index, gsize size,
    const void *value, gboolean mem, const gchar * name, GstClArgs * args)
{
  GstClArgValue *v;

  if (args->status != CL_SUCCESS)
    return;
  /* without OpenCL, recorded for the CUDA launch alone */
  if (kernel->handle)
    args->status = clSetKernelArg (kernel->handle, index, size, value);
  args->index = index;
  args->name = name;
  if (args->status != CL_SUCCESS)
    return;
  if (index >= GST_CL_ARGS_MAX || (value && size > GST_CL_ARG_MAX_BYTES)) {
    /* set for OpenCL; a launch elsewhere finds it missing */
    args->set &= ~(index < GST_CL_ARGS_MAX ? 1u << index : 0);
    return;
  }
  v = &args->values[index];
  v->size = size;
  v->mem = mem;
  v->local = value == NULL;
  if (value)
    memcpy (v->value.bytes, value, size);
  args->set |= 1u << index;
}

gboolean
gst_cl_args_check (const GstClArgs * args, const gchar * what, GError ** error)
{
  return args->status == CL_SUCCESS || gst_cl_set_error (error, args->status,
      "clSetKernelArg (%s: argument %u, %s)", what, args->index, args->name);
}
