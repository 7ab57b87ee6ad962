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

#ifndef __GST_CL_STREAM_PRIVATE_H__
#define __GST_CL_STREAM_PRIVATE_H__

#include "gstclcopy-private.h"
#include "gstclcudaexec-private.h"

G_BEGIN_DECLS

/* Events of the kernels enqueued for one frame, for their times: an output
 * of the calls that enqueue, never an input (what a kernel waits for is an
 * argument of gst_cl_enqueue_kernel()). It holds every event it is given
 * (a frame's 16 DCT passes, its histogram and its other stages too): the
 * first GST_CL_EVENTS_INLINE in @events, the others in @more. Zeroed
 * (`{ {0,}, 0 }`) it is empty. */
#define GST_CL_EVENTS_INLINE 16
typedef struct
{
  cl_event events[GST_CL_EVENTS_INLINE];
  guint n_events;               /* all of them, @more's too */
  GArray *more;                 /* cl_event: those past the inline ones */
} GstClEvents;

/* Adds @event (taking it) to @events. */
void gst_cl_events_add (GstClEvents * events, cl_event event);

/* The event added last to @events (not a new reference), or NULL. */
cl_event gst_cl_events_last (const GstClEvents * events);

/* Milliseconds the events' commands ran (profiling), releasing them; leaves
 * @events empty. */
gdouble gst_cl_events_take_ms (GstClEvents * events);

/* The most events the next command of a stream waits for: the pending
 * events of a frame's input and output memories (one a plane each), and
 * the last events of the three streams of a frame (gstclplan.c). */
#define GST_CL_STREAM_MAX_WAIT (2 * GST_VIDEO_MAX_PLANES + 3)

/* One of the three queues a frame is enqueued on (uploads, kernels,
 * downloads), ordered by the events of their commands: the first command
 * a stream enqueues waits for what it was told to (wait list), its in-order
 * queue orders the rest. Not by markers and barriers: the NVIDIA driver's
 * markers wait for the other queues' commands too, so that each frame's
 * kernel waited for the previous frame's download (docs/memory.md). */
typedef struct
{
  cl_command_queue queue;
  cl_event wait[GST_CL_STREAM_MAX_WAIT];        /* not owned */
  cl_uint n_wait;
  cl_event last;                /* its latest command's, owned */
  /* where its commands run instead, in order, or NULL (not owned) */
  GstClCudaExec *cuda;
} GstClStream;

/* @s on @queue, its first command after the @n events of @pending. */
void gst_cl_stream_init (GstClStream * s, cl_command_queue queue,
    cl_event * pending, guint n);

/* Makes the next command of @s wait for @event (if any) too; on the CPU
 * where the list is full, which GST_CL_STREAM_MAX_WAIT keeps from
 * happening. */
void gst_cl_stream_wait_for (GstClStream * s, cl_event event);

/* Makes the next command of @s wait for all that @before enqueued, and for
 * what @before was to wait for if it enqueued nothing since. */
void gst_cl_stream_follow (GstClStream * s, const GstClStream * before);

/* gst_cl_copy_plane_on() on @s. */
gboolean gst_cl_stream_copy (GstClStream * s, const GstClPlaneCopy * copy,
    GstClTransferStats * stats, GError ** error);

/* Takes @event (NULL where nothing was enqueued: a CPU copy) as that of the
 * latest command of @s, which waited for the wait list. */
void gst_cl_stream_enqueued (GstClStream * s, cl_event event);

/* An event (new reference) that completes with all that @s waits for and
 * enqueued: its last command's, or a marker after those. */
gboolean gst_cl_stream_join (GstClStream * s, cl_event * done,
    GError ** error);

/* Waits on the CPU for every command on @s's queue. FALSE with @error set
 * ("clFinish (@what)") where that fails. */
gboolean gst_cl_stream_finish (const GstClStream * s, const gchar * what,
    GError ** error);

/* Lets go of the event of the latest command of @s. */
void gst_cl_stream_clear (GstClStream * s);

G_END_DECLS

#endif /* __GST_CL_STREAM_PRIVATE_H__ */
