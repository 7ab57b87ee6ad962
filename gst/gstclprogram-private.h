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

#ifndef __GST_CL_PROGRAM_PRIVATE_H__
#define __GST_CL_PROGRAM_PRIVATE_H__

#include "gstclcontext-private.h"

G_BEGIN_DECLS

/* A program of the library's kernels for one device: OpenCL's, with the
 * device's binary behind it (gstclptx-private.h: what a CUDA launch loads);
 * in a context without OpenCL, that binary alone, PTX from the cache. */
typedef struct _GstClProgram GstClProgram;

/* One kernel of a GstClProgram, by name: what gst_cl_kernel_arg() sets and
 * gst_cl_enqueue_kernel() launches. */
typedef struct _GstClKernel GstClKernel;

/* Builds one program from @sources (NULL-terminated, joined in order: the
 * shared helpers first) for @context's device, with @options plus
 * "-cl-fp32-correctly-rounded-divide-sqrt" where the device supports it, so
 * that float division is exact whenever its result is representable.
 * A program built before for the same device, driver, sources and options
 * is loaded from the on-disk cache (gstclcache-private.h) as the device's
 * binary, without compiling; @from_cache (may be NULL) says whether it was.
 * In a context without OpenCL only that: a program not in the cache, or
 * whose binary is not PTX, is an error that says so.
 * Returns the program (free with gst_cl_program_free() after its kernels),
 * or NULL with @error set; a compiler failure carries the build log in the
 * message. */
GstClProgram *gst_cl_program_build (GstClContext * context,
    const gchar * const *sources, const gchar * options,
    gboolean * from_cache, GError ** error);
void gst_cl_program_free (GstClProgram * program);

/* The device's binary of @program as text (PTX on NVIDIA's OpenCL), NUL
 * terminated; NULL with @error set where it is not text with an .entry
 * (another driver's binary). Free with g_free(). */
gchar *gst_cl_program_get_ptx (GstClProgram * program, GError ** error);

/* The OpenCL program (owned by @program); NULL without OpenCL. */
cl_program gst_cl_program_get_handle (GstClProgram * program);

/* The device's binary that gst_cl_program_build() left in the on-disk
 * cache for the same @device (its platform, name and driver), @sources
 * and @options: @size bytes and a NUL byte after them (free with
 * g_free()); or NULL where there is none (@size then untouched). Device
 * queries only, no OpenCL context: NVIDIA's OpenCL makes none under MPS,
 * where its binary, PTX, still runs in CUDA (gstclptx-private.h). */
gchar *gst_cl_program_cached_binary (cl_device_id device,
    const gchar * const *sources, const gchar * options, gsize * size);

/* Keeps @size bytes of @binary in the on-disk cache as the device's binary
 * of @sources and @options for @device, where gst_cl_program_build() in a
 * context without OpenCL finds it: what a build from source leaves there,
 * for tests (a made-up PTX). */
void gst_cl_program_store_binary (cl_device_id device,
    const gchar * const *sources, const gchar * options,
    const gchar * binary, gsize size);

/* Creates kernel @name of @program, or NULL with @error set. @program
 * outlives it. Free with gst_cl_kernel_free(). */
GstClKernel *gst_cl_program_create_kernel (GstClProgram * program,
    const gchar * name, GError ** error);
void gst_cl_kernel_free (GstClKernel * kernel);

/* The kernel's name, program and OpenCL kernel (owned by @kernel; NULL
 * without OpenCL). */
const gchar *gst_cl_kernel_get_name (GstClKernel * kernel);
GstClProgram *gst_cl_kernel_get_program (GstClKernel * kernel);
cl_kernel gst_cl_kernel_get_handle (GstClKernel * kernel);

/* How many arguments @kernel takes; FALSE with @error set where that
 * cannot be read. */
gboolean gst_cl_kernel_get_n_args (GstClKernel * kernel, guint * n_args,
    GError ** error);

/* The largest work-group @kernel can run on the program's device (without
 * OpenCL: the device's limit, CL_DEVICE_MAX_WORK_GROUP_SIZE); FALSE with
 * @error set where that cannot be read. */
gboolean gst_cl_kernel_get_max_group (GstClKernel * kernel, size_t * size,
    GError ** error);

/* The most arguments a kernel of the library takes, and the most bytes of
 * one (a cl_uint16). */
#define GST_CL_ARGS_MAX 24
#define GST_CL_ARG_MAX_BYTES 64

/* One argument as it was set: what a launch outside OpenCL passes
 * (gstclcudaexec.c). */
typedef struct
{
  guint32 size;                 /* bytes of @bytes, or of local memory */
  gboolean mem;                 /* @bytes hold a cl_mem */
  gboolean local;               /* local memory of @size bytes, no value */
  union
  {
    guint8 bytes[GST_CL_ARG_MAX_BYTES];
    guint64 align;
  } value;
} GstClArgValue;

/* A run of kernel arguments, checked once at its end
 * (gst_cl_args_check()): the first failure, and which argument it was;
 * and the values set (@set: a bit an index), which a launch of the same
 * kernel takes along (GstClEnqueue's args). GST_CL_ARGS_INIT: none yet. */
typedef struct
{
  cl_int status;                /* CL_SUCCESS, or the first failure */
  cl_uint index;                /* of the argument that failed */
  const gchar *name;            /* its expression, as GST_CL_ARG() got it */
  guint32 set;
  GstClArgValue values[GST_CL_ARGS_MAX];
} GstClArgs;

#define GST_CL_ARGS_INIT { CL_SUCCESS, 0, NULL, 0 }

/* Sets argument @index of @kernel to the @size bytes at @value (NULL:
 * @size bytes of local memory), named @name, unless @args holds a failure
 * already, which it then keeps: a run of calls is checked once, at its
 * end; @mem says that @value is a cl_mem. The only call of
 * clSetKernelArg() in the plugin; GST_CL_ARG() passes a variable with its
 * size, its expression as the name, and whether it is a cl_mem. */
void gst_cl_kernel_arg (GstClKernel * kernel, cl_uint index, gsize size,
    const void *value, gboolean mem, const gchar * name, GstClArgs * args);
#define GST_CL_ARG(kernel, index, value, args) \
  gst_cl_kernel_arg ((kernel), (index), sizeof (value), &(value), \
      _Generic ((value), cl_mem: TRUE, default: FALSE), #value, (args))

/* TRUE where every argument of @args was set; FALSE otherwise, with @error
 * set to "OpenCL clSetKernelArg (@what: argument INDEX, NAME) failed: ..." */
gboolean gst_cl_args_check (const GstClArgs * args, const gchar * what,
    GError ** error);

G_END_DECLS

#endif /* __GST_CL_PROGRAM_PRIVATE_H__ */
