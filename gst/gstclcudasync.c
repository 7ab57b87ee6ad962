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


/* The element's CUDA stream ordered after the producers of GStreamer 1.24's
 * stream-ordered CUDA memory (gstclcudasync-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclcudasync-private.h"
#include "gstclcudaimport-private.h"
#include "gstclerror-private.h"
#include "gstclcuda-private.h"

#define GST_CAT_DEFAULT gst_cl_cuda_sync_debug

/* libgstcuda 1.24's calls, with its types as pointers. */
typedef struct
{
  gpointer (*memory_get_stream) (GstMemory * mem);
  CUstream (*stream_get_handle) (gpointer stream);
  void (*memory_sync) (GstMemory * mem);
} StreamCalls;

/* The calls of the running libgstcuda, looked up once; NULL where absent. */
static const StreamCalls *
stream_calls (void)
{
  static StreamCalls calls;
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    calls.memory_get_stream =
        gst_cl_gstcuda_symbol ("gst_cuda_memory_get_stream");
    calls.stream_get_handle =
        gst_cl_gstcuda_symbol ("gst_cuda_stream_get_handle");
    calls.memory_sync = gst_cl_gstcuda_symbol ("gst_cuda_memory_sync");
    GST_INFO ("libgstcuda-1.0 %s stream-ordered memory's calls",
        calls.memory_get_stream && calls.stream_get_handle ? "has" : "lacks");
    g_once_init_leave (&done, 1);
  }
  return &calls;
}

/* Whether @stream now waits on the device for @mem's stream; FALSE, with
 * the reason logged, where it could not. */
static gboolean
wait_on_device (const StreamCalls * calls, GstMemory * mem,
    CUcontext context, CUstream stream)
{
  static gint warned = 0;
  GError *error = NULL;

  if (calls->memory_get_stream && calls->stream_get_handle &&
      gst_cl_cuda_stream_wait (context, stream,
          calls->stream_get_handle (calls->memory_get_stream (mem)), &error))
    return TRUE;
  if (g_atomic_int_compare_and_exchange (&warned, 0, 1))
    GST_WARNING ("CUDA memory waited for on the host: %s", error ?
        error->message : "libgstcuda-1.0 lacks gst_cuda_memory_get_stream");
  else
    GST_DEBUG ("CUDA memory waited for on the host");
  g_clear_error (&error);
  return FALSE;
}

void
gst_cl_cuda_sync_wait_producers (GstBuffer * buffer, CUcontext context,
    CUstream stream)
{
  guint i, n = gst_buffer_n_memory (buffer);

  gst_cl_debug_init ();
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    const StreamCalls *calls;

    if (!gst_cl_is_cuda_memory (mem) ||
        !GST_MEMORY_FLAG_IS_SET (mem, GST_CL_CUDA_MEMORY_NEED_SYNC))
      continue;
    calls = stream_calls ();
    if (!wait_on_device (calls, mem, context, stream) && calls->memory_sync)
      calls->memory_sync (mem);
  }
}

void
gst_cl_cuda_sync_mark_finished (GstBuffer * buffer)
{
  guint i, n = gst_buffer_n_memory (buffer);

  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);

    if (gst_cl_is_cuda_memory (mem))
      GST_MEMORY_FLAG_UNSET (mem, GST_CL_CUDA_MEMORY_NEED_SYNC);
  }
}
