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

#ifndef __GST_CL_PLACEMENT_PRIVATE_H__
#define __GST_CL_PLACEMENT_PRIVATE_H__

#include "gstclinflight-private.h"
#include "gstclplane-private.h"

G_BEGIN_DECLS

/* Where each plane of a format's frames lives and how it reaches the
 * kernels and comes back: the planes' device buffers (an input and an
 * output per slot of frames in flight, and luma's intermediate one), the
 * pinned staging of system-memory input, uploads, downloads, the copies
 * around a crop rectangle, the copy or share of planes no stage touches,
 * and the memory path that follows. Kernels work on a frame's own memory
 * where the device reaches it (OpenCL memory of the context, or any
 * memory where the device shares host memory), and on the plane's device
 * buffers otherwise. Streaming thread only. */
typedef struct _GstClPlacement GstClPlacement;

/* One frame's work on one plane, or on one field of it (interlaced
 * frames), as gst_cl_placement_upload() leaves it for the kernels and
 * gst_cl_placement_download(). */
typedef struct
{
  GstClPlane plane;             /* the geometry worked on: the plane's, or
                                 * its field's (gst_cl_plane_field()) */
  guint index;                  /* the plane's: its stages and buffers */
  gint field;                   /* 0, 1, or GST_CL_FRAME */
  GstClRegion region;
  GstClPlaneRef src, dst;       /* the region in the frames */
  GstClPlaneRef ksrc, kdst;     /* where the kernels read and write it */
  gboolean filtered;            /* a stage runs */
  /* A crop rectangle: the rest of the planes, copied as they are after the
   * kernels (which may write the same buffer) */
  gboolean around;
  GstClPlaneRef whole_src, whole_dst;
} GstClPlaneWork;

/* The most GstClPlaneWork of one frame: two fields of every plane. */
#define GST_CL_PLACEMENT_MAX_WORK (2 * GST_VIDEO_MAX_PLANES)

/* The planes of @info on @context, for @depth slots of frames in flight.
 * NULL with @error set (GST_STREAM_ERROR_FORMAT) when a plane is too large
 * for the kernels, or when the device could never hold the planes' buffers
 * (one larger than one allocation may be, or all of them more than its
 * memory): nothing is allocated before the first frame. */
GstClPlacement *gst_cl_placement_new (GstClContext * context,
    const GstVideoInfo * info, guint depth, GError ** error);
void gst_cl_placement_free (GstClPlacement * self);

/* The format. */
const GstVideoInfo *gst_cl_placement_get_info (GstClPlacement * self);

/* The planes of the format (@n_planes of them). */
const GstClPlane *gst_cl_placement_get_planes (GstClPlacement * self,
    guint * n_planes);

/* Opens @inbuf for reading into @in and @outbuf for writing into @out
 * (gst_cl_frame_open()) as frames of the format; a frame in CUDA memory is
 * imported into the pool buffer of @slot (the frame's slot of frames in
 * flight: gst_cl_in_flight_begin()), the pool the placement's, made at the
 * first such frame; or, where kernels are asked to run in CUDA
 * (gst_cl_cuda_exec_wanted()) and both frames are CUDA memory of NVIDIA's
 * OpenCL device, both are opened where they are for the placement's
 * executor (GstClFrame's exec). FALSE with @error set, and neither open,
 * when one cannot be. Close both with gst_cl_frame_close(), or hand them
 * to gst_cl_in_flight_end(). */
gboolean gst_cl_placement_open (GstClPlacement * self, guint slot,
    GstBuffer * inbuf, GstBuffer * outbuf, GstClFrame * in, GstClFrame * out,
    GError ** error);

/* @context (a GstContext of a GstCudaContext; may be NULL): the CUDA
 * context of the decoder upstream, where frames come in system memory from
 * one. Where the device is NVIDIA's OpenCL on its GPU (and the executor is
 * not turned off), such frames' commands run in it too
 * (gstclcudaexec-private.h), so that the GPU does not give that context
 * and OpenCL's turns: TRUE then (a reference is kept), else FALSE. Once,
 * before the first frame. */
gboolean gst_cl_placement_set_cuda_context (GstClPlacement * self,
    GstContext * context);

/* Waits for the executor's commands, if any (gst_cl_cuda_exec_sync()),
 * whatever their outcome: every read back of theirs is then complete. */
void gst_cl_placement_sync_cuda (GstClPlacement * self);

/* The executor's twins let go of (gst_cl_cuda_exec_forget()):
 * settings were applied, or the states of strength=auto reset. */
void gst_cl_placement_forget_cuda (GstClPlacement * self);

/* Makes the device buffers of every plane, once (the first frame that is
 * filtered): caps alone hold no device memory. */
gboolean gst_cl_placement_alloc (GstClPlacement * self, GError ** error);

/* The device buffers of plane @i: its input and output of @slot, its
 * intermediate buffer (luma only) and, for packed luma, the buffer its
 * samples are unpacked into (gstclpacked-private.h), as a whole or as one
 * field @field (GST_CL_FRAME: the whole plane). Made by
 * gst_cl_placement_alloc(). */
GstClPlaneRef gst_cl_placement_input (GstClPlacement * self, guint i,
    guint slot, gint field);
GstClPlaneRef gst_cl_placement_output (GstClPlacement * self, guint i,
    guint slot, gint field);
GstClPlaneRef gst_cl_placement_intermediate (GstClPlacement * self, guint i,
    gint field);
GstClPlaneRef gst_cl_placement_unpacked (GstClPlacement * self, guint i,
    gint field);

/* Whether the frame in @in is filtered field by field: every frame of an
 * interleaved stream, the frames of a mixed one flagged
 * GST_VIDEO_BUFFER_FLAG_INTERLACED. (A buffer of an alternate stream holds
 * one field: filtered as the frame it is.) */
gboolean gst_cl_placement_in_fields (GstClPlacement * self,
    const GstClFrame * in);

/* Which planes of a frame the stages work on, and how, and what becomes of
 * the others (masks of plane indices): gst_cl_placement_select(). */
typedef struct
{
  guint touched;                /* a stage runs on them */
  guint whole;                  /* worked on as frames even in a frame in
                                 * fields */
  guint shared;                 /* untouched, shared with the input's memory
                                 * after the frame (gst_cl_placement_share());
                                 * the other untouched planes are copied
                                 * with the frame */
} GstClPlaneSelection;

/* The one decision on the planes no stage touches (those not in
 * @touched; never luma), for the frame from @in into @outbuf: shared with
 * @in's memory after the frame where @share_allowed, that pays (host
 * memory, or GST_CL_SHARE_UNTOUCHED) and the pool of @outbuf allows it;
 * copied with the frame otherwise. Fills @planes with that, @touched and
 * @whole. */
void gst_cl_placement_select (GstClPlacement * self, const GstClFrame * in,
    GstBuffer * outbuf, guint touched, guint whole, gboolean share_allowed,
    GstClPlaneSelection * planes);

/* One frame's work: what the caller asks for (@in, @out, @planes), and
 * what gst_cl_placement_upload() fills in for the kernels and
 * gst_cl_placement_download() (@work, @n_work of it, at most
 * GST_CL_PLACEMENT_MAX_WORK: one per plane, or one per field of each
 * filtered plane of a frame in fields). */
typedef struct
{
  const GstClFrame *in;
  const GstClFrame *out;
  GstClPlaneSelection planes;
  GstClPlaneWork work[GST_CL_PLACEMENT_MAX_WORK];
  guint n_work;
} GstClFrameWork;

/* Phase 1 of @frame from its input into its output, on @q's upload stream
 * (and its download stream for planes no stage touches): fills @frame's
 * work with the region worked on and where the kernels read and write it,
 * and enqueues the uploads of what the kernels cannot reach where it is,
 * and the copies of the planes neither touched nor shared
 * (@frame->planes). */
gboolean gst_cl_placement_upload (GstClPlacement * self,
    GstClFrameQueues * q, GstClFrameWork * frame, GstClTransferStats * stats,
    GError ** error);

/* Phase 3, on @q's download stream after the kernels: each filtered region
 * into the output where the kernels did not write it there, and around a
 * crop rectangle the rest of the plane as it is. */
gboolean gst_cl_placement_download (GstClPlacement * self,
    GstClFrameQueues * q, const GstClFrameWork * frame,
    GstClTransferStats * stats, GError ** error);

/* After the frame: shares the planes @planes->shared of @inbuf into
 * @outbuf, or copies them (waiting for the copies, on @q's queues) where
 * the share cannot be made after all; nothing where none is shared. */
gboolean gst_cl_placement_share (GstClPlacement * self, GstClFrameQueues * q,
    GstBuffer * inbuf, GstBuffer * outbuf, const GstClPlaneSelection * planes,
    GstClTransferStats * stats, GError ** error);

/* The memory path of a frame that moved @stats: "copy", "host-ptr",
 * "pinned", or "cuda" (CUDA memory copied on the device, nothing through
 * the host) (the element's stats). */
const gchar *gst_cl_placement_memory_path (GstClPlacement * self,
    const GstClTransferStats * stats);

/* Gives the staging buffers back to OpenCL (mapped again when next used;
 * at a drain), so that freeing has nothing left that can fail. */
gboolean gst_cl_placement_release_staging (GstClPlacement * self,
    GError ** error);

G_END_DECLS

#endif /* __GST_CL_PLACEMENT_PRIVATE_H__ */
