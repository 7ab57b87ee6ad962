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

#ifndef __GST_CL_FRAME_PRIVATE_H__
#define __GST_CL_FRAME_PRIVATE_H__

#include <gst/video/video.h>
#include "gstclcontext-private.h"

G_BEGIN_DECLS

/* Where one plane's rows are: in an OpenCL buffer (@mem, from @offset) or,
 * when @mem is NULL, in host memory at @host. Rows are @pitch bytes apart.
 * @device_side: the buffer lives in device memory, not host-visible memory.
 * @pinned: @host is pinned memory of an OpenCL memory (transfers from and
 * to it are DMA, and it is never staged). */
typedef struct
{
  cl_mem mem;
  gsize offset;
  guint8 *host;
  gint pitch;
  gboolean device_side;
  gboolean pinned;
} GstClPlaneRef;

/* Bytes moved so far, by kind; see the element's "stats" property. */
typedef struct
{
  guint64 host_copy_bytes;      /* copied by the CPU, by us */
  guint64 upload_bytes;         /* OpenCL transfers host memory -> device */
  guint64 download_bytes;       /* OpenCL transfers device -> host memory */
  guint64 device_copy_bytes;    /* OpenCL copies between host-visible buffers */
  gboolean pageable;            /* a transfer used pageable host memory */
} GstClTransferStats;

/* A GstBuffer opened for OpenCL work: one GstClPlaneRef per plane.
 *  - One OpenCL memory of the context: its buffer, with no map at all, or
 *    on a discrete device its pinned host memory (mapped for good).
 *  - Else, on a host-unified device, one system memory at an aligned address:
 *    wrapped as a CL_MEM_USE_HOST_PTR buffer, no copy.
 *  - Else: the GstVideoFrame mapped, planes as host pointers (transfers then
 *    use pageable memory).
 * Plane layout comes from the buffer's GstVideoMeta, or @info. */
typedef struct
{
  GstClContext *context;
  GstBuffer *buffer;
  GstMapFlags flags;
  GstMapInfo map;               /* while a system memory is wrapped */
  cl_mem wrapped;
  GstVideoFrame frame;          /* while the frame is mapped */
  gboolean frame_mapped;
  GstClPlaneRef planes[GST_VIDEO_MAX_PLANES];
} GstClFrame;

/* Opens @buffer as described above, for @flags (GST_MAP_READ or
 * GST_MAP_WRITE). FALSE with @error set if it cannot be mapped or is smaller
 * than @info needs. Pair with gst_cl_frame_close() after the queue is
 * drained. */
gboolean gst_cl_frame_open (GstClFrame * frame, GstClContext * context,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GError ** error);

/* Releases what gst_cl_frame_open() took. Call only once every command that
 * uses the frame has completed. */
void gst_cl_frame_close (GstClFrame * frame);

/* Copies a plane between host memories by the CPU, the rows split over a
 * few threads where the plane is large; counted as host copy bytes. */
void gst_cl_copy_host_plane (const GstClPlaneRef * src,
    const GstClPlaneRef * dst, gsize row_bytes, gsize height,
    GstClTransferStats * stats);

/* Enqueues on @queue (of the frames' context) a copy of @height rows of
 * @row_bytes from @src to @dst, with the OpenCL command that fits, after the
 * @n_wait events of @wait; its event goes to @event where not NULL. Between
 * two host pointers the CPU copies at once instead (the caller has waited
 * for what writes them) and @event gets NULL. Counts the bytes in @stats.
 * Not blocking: host memory must stay valid until the command completes. */
gboolean gst_cl_copy_plane_on (cl_command_queue queue,
    const GstClPlaneRef * src, const GstClPlaneRef * dst, gsize row_bytes,
    gsize height, cl_uint n_wait, const cl_event * wait, cl_event * event,
    GstClTransferStats * stats, GError ** error);

G_END_DECLS

#endif /* __GST_CL_FRAME_PRIVATE_H__ */
