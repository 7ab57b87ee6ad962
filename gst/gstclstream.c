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

/* GstClStream: one queue of a frame in flight, ordered against the others
 * by the events of its commands (gstclstream-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclstream-private.h"
#include "gstclerror-private.h"

void
gst_cl_stream_wait_for (GstClStream * s, cl_event event)
{
  cl_uint i;

  for (i = 0; i < s->n_wait; i++)
    if (s->wait[i] == event)
      return;
  if (!event)
    return;
  if (G_LIKELY (s->n_wait < GST_CL_STREAM_MAX_WAIT))
    s->wait[s->n_wait++] = event;
  else
    clWaitForEvents (1, &event);
}

void
gst_cl_stream_init (GstClStream * s, cl_command_queue queue, cl_event * pending,
    guint n)
{
  guint i;

  s->queue = queue;
  s->n_wait = 0;
  s->last = NULL;
  s->cuda = NULL;
  for (i = 0; i < n; i++)
    gst_cl_stream_wait_for (s, pending[i]);
}

void
gst_cl_stream_follow (GstClStream * s, const GstClStream * before)
{
  cl_uint i;

  gst_cl_stream_wait_for (s, before->last);
  for (i = 0; i < before->n_wait; i++)
    gst_cl_stream_wait_for (s, before->wait[i]);
}

void
gst_cl_stream_enqueued (GstClStream * s, cl_event event)
{
  if (!event)
    return;
  if (s->last)
    clReleaseEvent (s->last);
  s->last = event;
  s->n_wait = 0;
}

/* gst_cl_stream_copy() in the executor's CUDA context: between buffers
 * there (frames bound, or twins) only. */
static gboolean
copy_on_cuda (GstClCudaExec * cuda, const GstClPlaneCopy * copy,
    GstClTransferStats * stats, GError ** error)
{
  const GstClPlaneRef *src = copy->src, *dst = copy->dst;

  if (!src->mem || !dst->mem) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "A copy with host memory among CUDA commands");
    return FALSE;
  }
  if (!gst_cl_cuda_exec_copy (cuda, src->mem, src->offset, src->pitch,
          dst->mem, dst->offset, dst->pitch, copy->row_bytes, copy->height,
          error))
    return FALSE;
  stats->cuda_copy_bytes += (guint64) copy->row_bytes * copy->height;
  return TRUE;
}

gboolean
gst_cl_stream_copy (GstClStream * s, const GstClPlaneCopy * copy,
    GstClTransferStats * stats, GError ** error)
{
  cl_event event = NULL;

  if (s->cuda)
    return copy_on_cuda (s->cuda, copy, stats, error);
  if (!gst_cl_copy_plane_on (s->queue, copy, s->n_wait,
          s->n_wait ? s->wait : NULL, &event, stats, error))
    return FALSE;
  gst_cl_stream_enqueued (s, event);
  return TRUE;
}

gboolean
gst_cl_stream_join (GstClStream * s, cl_event * done, GError ** error)
{
  cl_int status;

  if (s->n_wait == 0 && s->last) {
    clRetainEvent (*done = s->last);
    return TRUE;
  }
  gst_cl_stream_wait_for (s, s->last);
  status = clEnqueueMarkerWithWaitList (s->queue, s->n_wait,
      s->n_wait ? s->wait : NULL, done);
  return status == CL_SUCCESS ||
      gst_cl_set_error (error, status, "clEnqueueMarkerWithWaitList");
}

gboolean
gst_cl_stream_finish (const GstClStream * s, const gchar * what,
    GError ** error)
{
  cl_int status = clFinish (s->queue);

  return status == CL_SUCCESS ||
      gst_cl_set_error (error, status, "clFinish (%s)", what);
}

void
gst_cl_stream_clear (GstClStream * s)
{
  if (s->last)
    clReleaseEvent (s->last);
  s->last = NULL;
}

/* ---- A frame's kernel events -------------------------------------------- */

void
gst_cl_events_add (GstClEvents * events, cl_event event)
{
  if (events->n_events < GST_CL_EVENTS_INLINE) {
    events->events[events->n_events++] = event;
    return;
  }
  if (!events->more)
    events->more = g_array_new (FALSE, FALSE, sizeof (cl_event));
  g_array_append_val (events->more, event);
  events->n_events++;
}

/* The @i-th event of @events. */
static cl_event
event_at (const GstClEvents * events, guint i)
{
  return i < GST_CL_EVENTS_INLINE ? events->events[i] :
      g_array_index (events->more, cl_event, i - GST_CL_EVENTS_INLINE);
}

cl_event
gst_cl_events_last (const GstClEvents * events)
{
  return events->n_events ? event_at (events, events->n_events - 1) : NULL;
}

gdouble
gst_cl_events_take_ms (GstClEvents * events)
{
  cl_ulong start, end;
  gdouble ms = 0.0;
  guint i;

  for (i = 0; i < events->n_events; i++) {
    cl_event event = event_at (events, i);

    if (clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START,
            sizeof (start), &start, NULL) == CL_SUCCESS
        && clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_END,
            sizeof (end), &end, NULL) == CL_SUCCESS && end > start)
      ms += (end - start) / 1e6;
    clReleaseEvent (event);
  }
  events->n_events = 0;
  g_clear_pointer (&events->more, g_array_unref);
  return ms;
}
