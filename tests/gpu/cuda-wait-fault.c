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

/* A CUDA driver for $GST_CL_CUDA_LIBRARY on the GPU machine: the real one
 * (libcuda.so.1 is this library's dependency, so every other entry point
 * the element looks up in it is the driver's), but one call fails with
 * CUDA_ERROR_LAUNCH_FAILED, which must stop the stream with an ERROR,
 * neither hang nor hand a wrong frame on (tests/gpu/gpu-cuda-checks.sh):
 *  - the $CUDA_WAIT_FAULT_NTH-th wait of cuEventSynchronize and
 *    cuStreamSynchronize, counted together: the wait for a frame's copy
 *    into or out of the element's buffer (gst/gstclcuda.c), or for a
 *    frame whose kernels run in CUDA (gst/gstclcudaexec.c);
 *  - or the $CUDA_CALL_FAULT_NTH-th of every call below, counted together:
 *    the commands of frames whose kernels run in CUDA (their streams and
 *    the waits between them included), and the copies and waits of
 *    imported frames. $CUDA_CALL_FAULT_REPORT=1 prints at exit how
 *    many were made ("N CUDA calls counted"). */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>
#include <gmodule.h>

#define CUDA_ERROR_LAUNCH_FAILED 719

static gint waits, calls;

static void
report (void)
{
  fprintf (stderr, "%d CUDA calls counted\n", g_atomic_int_get (&calls));
}

/* Whether this call (a wait where @wait) is the one to fail. */
static gboolean
fails (gboolean wait)
{
  const gchar *wait_nth = g_getenv ("CUDA_WAIT_FAULT_NTH");
  const gchar *call_nth = g_getenv ("CUDA_CALL_FAULT_NTH");
  static gsize reported;
  gint call;

  if (g_once_init_enter (&reported)) {
    if (g_strcmp0 (g_getenv ("CUDA_CALL_FAULT_REPORT"), "1") == 0)
      atexit (report);
    g_once_init_leave (&reported, 1);
  }
  call = g_atomic_int_add (&calls, 1) + 1;
  if (call_nth)
    return call == atoi (call_nth);
  return wait && g_atomic_int_add (&waits, 1) + 1 ==
      (wait_nth ? atoi (wait_nth) : 1);
}

/* The driver's @name (loaded already, as this library's dependency). */
static gpointer
driver_symbol (const gchar * name)
{
  gpointer driver = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);

  return driver ? dlsym (driver, name) : NULL;
}

/* @name with @params, passing @args on to the driver's, unless it fails. */
#define FORWARD(name, wait, params, args) \
  G_MODULE_EXPORT int name params; \
  int name params \
  { \
    static int (*real) params; \
    if (fails (wait)) \
      return CUDA_ERROR_LAUNCH_FAILED; \
    if (!real) \
      real = driver_symbol (#name); \
    return real ? real args : CUDA_ERROR_LAUNCH_FAILED; \
  }

FORWARD (cuEventSynchronize, TRUE, (gpointer event), (event));
FORWARD (cuStreamSynchronize, TRUE, (gpointer stream), (stream));
FORWARD (cuLaunchKernel, FALSE, (gpointer f, guint gx, guint gy, guint gz,
        guint bx, guint by, guint bz, guint shared, gpointer stream,
        gpointer * params, gpointer * extra), (f, gx, gy, gz, bx, by, bz,
        shared, stream, params, extra));
FORWARD (cuMemsetD8Async, FALSE, (guint64 ptr, guint8 value, gsize n,
        gpointer stream), (ptr, value, n, stream));
FORWARD (cuMemsetD32Async, FALSE, (guint64 ptr, guint32 value, gsize n,
        gpointer stream), (ptr, value, n, stream));
FORWARD (cuMemcpy2DAsync_v2, FALSE, (gconstpointer copy, gpointer stream),
    (copy, stream));
FORWARD (cuMemcpyDtoHAsync_v2, FALSE, (gpointer dst, guint64 src, gsize size,
        gpointer stream), (dst, src, size, stream));
FORWARD (cuMemcpyHtoD_v2, FALSE, (guint64 dst, gconstpointer src,
        gsize size), (dst, src, size));
FORWARD (cuMemcpyHtoDAsync_v2, FALSE, (guint64 dst, gconstpointer src,
        gsize size, gpointer stream), (dst, src, size, stream));
FORWARD (cuMemAlloc_v2, FALSE, (guint64 * ptr, gsize size), (ptr, size));
FORWARD (cuModuleLoadData, FALSE, (gpointer * module, gconstpointer image),
    (module, image));
FORWARD (cuModuleGetFunction, FALSE, (gpointer * function, gpointer module,
        const gchar * name), (function, module, name));
FORWARD (cuEventRecord, FALSE, (gpointer event, gpointer stream), (event,
        stream));
FORWARD (cuStreamWaitEvent, FALSE, (gpointer stream, gpointer event,
        guint flags), (stream, event, flags));
FORWARD (cuStreamCreate, FALSE, (gpointer * stream, guint flags), (stream,
        flags));
