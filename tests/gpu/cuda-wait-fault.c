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
 * the element looks up in it is the driver's), but the
 * $CUDA_WAIT_FAULT_NTH-th wait (1 by default) of cuEventSynchronize and
 * cuStreamSynchronize, counted together, fails with
 * CUDA_ERROR_LAUNCH_FAILED: the wait for a frame's copy into or out of the
 * element's buffer (gst/gstclcuda.c) failed, which must stop the stream
 * with an ERROR, neither hang nor hand the frame on
 * (tests/gpu/gpu-cuda-checks.sh). */

#include <dlfcn.h>
#include <stdlib.h>
#include <glib.h>
#include <gmodule.h>

#define CUDA_ERROR_LAUNCH_FAILED 719

typedef int (*Synchronize) (gpointer object);

G_MODULE_EXPORT int cuEventSynchronize (gpointer event);
G_MODULE_EXPORT int cuStreamSynchronize (gpointer stream);

/* The driver's @name on @object, but the N-th wait fails. */
static int
wait_or_fail (const gchar * name, gpointer object)
{
  static gint calls;
  const gchar *nth = g_getenv ("CUDA_WAIT_FAULT_NTH");
  Synchronize real;
  gpointer driver;

  if (g_atomic_int_add (&calls, 1) + 1 == (nth ? atoi (nth) : 1))
    return CUDA_ERROR_LAUNCH_FAILED;
  /* loaded already, as this library's dependency */
  driver = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  real = driver ? (Synchronize) dlsym (driver, name) : NULL;
  return real ? real (object) : CUDA_ERROR_LAUNCH_FAILED;
}

int
cuEventSynchronize (gpointer event)
{
  return wait_or_fail ("cuEventSynchronize", event);
}

int
cuStreamSynchronize (gpointer stream)
{
  return wait_or_fail ("cuStreamSynchronize", stream);
}
