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

#ifndef __GST_CL_COPY_PRIVATE_H__
#define __GST_CL_COPY_PRIVATE_H__

#include "gstclframe-private.h"

G_BEGIN_DECLS

/* Copies of a frame's planes, by OpenCL commands or by the CPU, and the
 * bytes they moved: below placement and the streams (gstclstream.c),
 * which call them, above the frames whose planes they copy. */

/* Bytes moved so far, by kind; see the element's "stats" property. */
typedef struct
{
  guint64 host_copy_bytes;      /* copied by the CPU, by us */
  guint64 host_copy_started_bytes;      /* of those, on the copy threads
                                         * while the caller went on */
  guint64 upload_bytes;         /* OpenCL transfers host memory -> device */
  guint64 download_bytes;       /* OpenCL transfers device -> host memory */
  guint64 device_copy_bytes;    /* OpenCL copies between host-visible buffers */
  guint64 cuda_copy_bytes;      /* CUDA copies device to device, between
                                 * CUDA memory and our imported buffers */
  gboolean pageable;            /* a transfer used pageable host memory */
  gboolean in_cuda;             /* the commands ran in the frames' CUDA
                                 * context (gstclcudaexec.c) */
} GstClTransferStats;


/* A copy of a plane's rows, or of a rectangle of them: @height rows of
 * @row_bytes from @src to @dst (each from its offset, or host pointer). */
typedef struct
{
  const GstClPlaneRef *src;
  const GstClPlaneRef *dst;
  gsize row_bytes;
  gsize height;
} GstClPlaneCopy;

/* Does @copy between host memories by the CPU (the rows split over a
 * process-wide pool of a few threads where the plane is large, and written
 * with non-temporal stores where it is large and its destination is
 * pinned memory, which the device reads next); counted as host copy bytes.
 * Returns once every byte is written and visible to the device. */
void gst_cl_copy_host_plane (const GstClPlaneCopy * copy,
    GstClTransferStats * stats);

/* A copy by the CPU that runs on the copy threads while its caller goes
 * on (gst_cl_copy_host_plane_start()). */
typedef struct _GstClCopyJob GstClCopyJob;

/* Whether gst_cl_copy_host_plane() splits @copy over threads (a large
 * plane, more than one processor). */
gboolean gst_cl_copy_host_plane_splits (const GstClPlaneCopy * copy);

/* Starts gst_cl_copy_host_plane() of @copy on the process's copy threads
 * and returns at once (after copying it here, where those threads cannot
 * take it); counted as host copy bytes. Both memories must stay valid
 * until the job is finished. The caller holds the job. */
GstClCopyJob *gst_cl_copy_host_plane_start (const GstClPlaneCopy * copy,
    GstClTransferStats * stats);

/* Runs @fn (@data) once every byte of @job is written and visible to the
 * device: on the thread that wrote the last ones, or at once on this one
 * where that is done. Two callbacks a job at most. */
void gst_cl_copy_job_then (GstClCopyJob * job, GDestroyNotify fn,
    gpointer data);

/* Waits until every byte of @job is written and the callbacks added before
 * that have run (one added later runs on the thread that adds it). */
void gst_cl_copy_job_wait (GstClCopyJob * job);

void gst_cl_copy_job_unref (GstClCopyJob * job);

/* Copies @size bytes from @src to @dst by the CPU as
 * gst_cl_copy_host_plane() does, with non-temporal stores where
 * @to_device (pinned memory the device reads next) and the run is large;
 * counts nothing. The regions must not overlap. */
void gst_cl_copy_host_run (gpointer dst, gconstpointer src, gsize size,
    gboolean to_device);

/* Enqueues @copy on @queue (of the frames' context) with the OpenCL
 * command that fits, after the @n_wait events of @wait; its event goes to
 * @event where not NULL. Between two host pointers the CPU copies at once
 * instead (the caller has waited for what writes them) and @event gets
 * NULL. Counts the bytes in @stats. Not blocking: host memory must stay
 * valid until the command completes. */
gboolean gst_cl_copy_plane_on (cl_command_queue queue,
    const GstClPlaneCopy * copy, cl_uint n_wait, const cl_event * wait,
    cl_event * event, GstClTransferStats * stats, GError ** error);

G_END_DECLS

#endif /* __GST_CL_COPY_PRIVATE_H__ */
