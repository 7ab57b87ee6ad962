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

/* System memory held pinned by the OpenCL driver (gstclhostpin-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclhostpin-private.h"
#include "gstcldebug-private.h"

#define GST_CAT_DEFAULT gst_cl_placement_debug

/* The contexts a memory's mark remembers: one per element that reads it
 * (a tee's branches), the latest ones. */
#define HOST_PIN_SEERS 4

/* What a memory carries once seen: the contexts that saw it (their
 * serials), then, from the second time one of them sees it (a memory that
 * comes back), the wrapping buffer, made in that context's OpenCL context
 * for its device, which its siblings read too (elements of that device
 * after a tee; the buffer keeps the OpenCL context alive); or a wrapping
 * under way (@wrapping: the others stage it meanwhile) or failed
 * (@failed, never tried again). */
typedef struct
{
  guint seen_by[HOST_PIN_SEERS];
  guint n_seen;
  const guint8 *data;
  gsize size;
  cl_mem wrap;
  cl_context wrapped_in;
  cl_device_id wrapped_for;
  gboolean wrapping;
  gboolean failed;
} GstClHostPin;

/* One lock for every memory's mark: two elements reading the same memory
 * (after a tee) never wrap it twice, and a mark is replaced by nobody, so
 * that a wrapping goes only when no upload can read it (with its memory,
 * or once no context uses its OpenCL context). The wrapping itself
 * (milliseconds) runs outside it. */
static GMutex pin_lock;
static gint pin_count;
static gsize pin_bytes;         /* under pin_lock: wrapped or being wrapped */

static GQuark
host_pin_quark (void)
{
  static GQuark quark;

  if (!quark)
    quark = g_quark_from_static_string ("GstClHostPin");
  return quark;
}

/* Lets go of a wrapping (the pages unpinned; the caller took its bytes off
 * pin_bytes): at the memory's end, or where no context uses its OpenCL
 * context any more. That may free the OpenCL context: not under
 * pin_lock. */
static void
unwrap (cl_mem wrap)
{
  clReleaseMemObject (wrap);
  g_atomic_int_add (&pin_count, -1);
}

/* The memory's end. */
static void
host_pin_free (gpointer data)
{
  GstClHostPin *pin = data;

  if (pin->wrap) {
    g_mutex_lock (&pin_lock);
    pin_bytes -= pin->size;
    g_mutex_unlock (&pin_lock);
    unwrap (pin->wrap);
  }
  g_free (pin);
}

/* Wraps @pin's bytes for @context: called under pin_lock, which it lets
 * go of meanwhile (@pin is the mark of a memory that the caller holds
 * mapped: it outlives the call; @wrapping keeps the others off it). */
static void
wrap (GstClHostPin * pin, GstClContext * context)
{
  cl_int status = CL_SUCCESS;
  cl_mem wrapped;

  if (pin_bytes + pin->size > GST_CL_HOST_PIN_MAX_BYTES)
    return;
  pin_bytes += pin->size;
  pin->wrapping = TRUE;
  g_mutex_unlock (&pin_lock);
  wrapped = clCreateBuffer (gst_cl_context_get_handle (context),
      CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, pin->size, (gpointer) pin->data,
      &status);
  g_mutex_lock (&pin_lock);
  pin->wrapping = FALSE;
  if (status != CL_SUCCESS) {
    GST_DEBUG ("clCreateBuffer (CL_MEM_USE_HOST_PTR, %" G_GSIZE_FORMAT
        " bytes) failed (%d): staged as before", pin->size, status);
    pin_bytes -= pin->size;
    pin->failed = TRUE;
    return;
  }
  pin->wrap = wrapped;
  pin->wrapped_in = gst_cl_context_get_handle (context);
  pin->wrapped_for = gst_cl_context_get_device (context);
  g_atomic_int_inc (&pin_count);
  GST_DEBUG ("system memory of %" G_GSIZE_FORMAT " bytes at %p held pinned",
      pin->size, pin->data);
}

/* Whether @context saw @pin's memory before; remembered if not (in place
 * of the one remembered longest where four are). */
static gboolean
seen_before (GstClHostPin * pin, GstClContext * context)
{
  const guint serial = gst_cl_context_get_serial (context);
  guint i;

  for (i = 0; i < MIN (pin->n_seen, HOST_PIN_SEERS); i++)
    if (pin->seen_by[i] == serial)
      return TRUE;
  pin->seen_by[pin->n_seen++ % HOST_PIN_SEERS] = serial;
  return FALSE;
}

/* @pin's wrapping (under pin_lock) where no context uses the OpenCL
 * context it was made in any more (every element of it gone: none of its
 * uploads is in flight), taken off the mark, so that a context of another
 * may wrap the memory anew (an application's ring outliving a pipeline);
 * NULL otherwise. */
static cl_mem
take_orphaned_wrap (GstClHostPin * pin, GstClContext * context)
{
  if (!pin->wrap || pin->wrapped_in == gst_cl_context_get_handle (context) ||
      gst_cl_context_handle_in_use (pin->wrapped_in))
    return NULL;
  pin_bytes -= pin->size;
  pin->n_seen = 0;
  pin->wrapped_in = NULL;
  pin->wrapped_for = NULL;
  return g_steal_pointer (&pin->wrap);
}

gboolean
gst_cl_host_pin_holds (GstClContext * context, GstMemory * memory,
    const guint8 * data, gsize size)
{
  GstMiniObject *object = GST_MINI_OBJECT (memory);
  GstClHostPin *pin;
  cl_mem orphan;
  gboolean held;

  g_mutex_lock (&pin_lock);
  pin = gst_mini_object_get_qdata (object, host_pin_quark ());
  if (!pin) {
    pin = g_new0 (GstClHostPin, 1);
    pin->data = data;
    pin->size = size;
    gst_mini_object_set_qdata (object, host_pin_quark (), pin, host_pin_free);
  }
  orphan = take_orphaned_wrap (pin, context);
  if (pin->data == data && pin->size == size && seen_before (pin, context) &&
      !pin->wrap && !pin->wrapping && !pin->failed)
    wrap (pin, context);
  held = pin->wrap && pin->wrapped_in == gst_cl_context_get_handle (context)
      && pin->wrapped_for == gst_cl_context_get_device (context) &&
      pin->data == data && pin->size == size;
  g_mutex_unlock (&pin_lock);
  if (orphan) {
    GST_DEBUG ("system memory at %p let go of by its OpenCL context, which "
        "no element uses any more", data);
    unwrap (orphan);
  }
  return held;
}

guint
gst_cl_host_pin_count (void)
{
  return g_atomic_int_get (&pin_count);
}
