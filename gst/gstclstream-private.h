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

#include "gstclframe-private.h"

G_BEGIN_DECLS

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
gboolean gst_cl_stream_copy (GstClStream * s, const GstClPlaneRef * src,
    const GstClPlaneRef * dst, gsize row_bytes, gsize height,
    GstClTransferStats * stats, GError ** error);

/* Takes @event (NULL where nothing was enqueued: a CPU copy) as that of the
 * latest command of @s, which waited for the wait list. */
void gst_cl_stream_enqueued (GstClStream * s, cl_event event);

/* A marker after all that @s enqueued, where the commands' events are not
 * all at hand; the commands before it used the wait list. */
gboolean gst_cl_stream_mark (GstClStream * s, GError ** error);

/* An event (new reference) that completes with all that @s waits for and
 * enqueued: its last command's, or a marker after those. */
gboolean gst_cl_stream_join (GstClStream * s, cl_event * done,
    GError ** error);

/* Waits on the CPU for what the next command of @s was to wait for, and
 * empties its wait list: for work the CPU does next (reading a result
 * back). FALSE with @error set where one of those commands failed. */
gboolean gst_cl_stream_wait_on_cpu (GstClStream * s, GError ** error);

/* Lets go of the event of the latest command of @s. */
void gst_cl_stream_clear (GstClStream * s);

/* The first failure of a frame outside the element: a map of its output
 * memory (by any element, on any thread) whose wait for the frame's
 * commands, or whose map command, failed, so that the data never reached
 * the consumer; or a frame of the pool the element proposed upstream that
 * could not be allocated or mapped. Kept until the element raises it as an ERROR at its next
 * frame or at EOS (gst_cl_faults_check()); posted on the element's bus at
 * once as well, since the map may run after the element saw EOS (a queue
 * downstream). Shared and counted: a plan holds it, and so does each
 * output memory it wrote (gst_cl_memory_set_faults()) and the allocator of
 * the pool proposed upstream (gst_cl_allocator_set_faults()). Thread-safe.
 * docs/memory.md. */
typedef struct _GstClFaults GstClFaults;

/* Faults of @element's frames (not owned: a weak reference). */
GstClFaults *gst_cl_faults_new (GstElement * element);
GstClFaults *gst_cl_faults_ref (GstClFaults * faults);
void gst_cl_faults_unref (GstClFaults * faults);

/* The element's stream ended (READY): no more posting on its bus. */
void gst_cl_faults_detach (GstClFaults * faults);

/* Keeps @error (the first one only; NULL @faults: nothing) and posts it as
 * an ERROR of the element, with @what (what was lost) as its debug text. */
void gst_cl_faults_keep (GstClFaults * faults, const GError * error,
    const gchar * what);

/* TRUE where nothing was kept; else FALSE with @error set to what was. */
gboolean gst_cl_faults_check (GstClFaults * faults, GError ** error);

/* Whether the element's ERROR was posted already, by gst_cl_faults_keep()
 * or by the element (which then says so with gst_cl_faults_set_posted(), so
 * that a failure kept later is not posted again). */
gboolean gst_cl_faults_posted (GstClFaults * faults);
void gst_cl_faults_set_posted (GstClFaults * faults);

G_END_DECLS

#endif /* __GST_CL_STREAM_PRIVATE_H__ */
