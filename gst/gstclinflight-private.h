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

#ifndef __GST_CL_IN_FLIGHT_PRIVATE_H__
#define __GST_CL_IN_FLIGHT_PRIVATE_H__

#include "gstclframe-private.h"
#include "gstclfaults-private.h"
#include "gstclstream-private.h"

G_BEGIN_DECLS

/* The ordering of a format's frames: on a device that does not share host
 * memory, up to depth frames are left in flight, each on three queues
 * (uploads, kernels, downloads) ordered by the events of their commands
 * (GstClStream); slot i of depth holds what frame n = i (mod depth) reads
 * until it completes. With depth 1 all three queues are the context's and
 * each frame is waited for. This is also where the failure of a command
 * whose frame already left the element is raised: at the next frame that
 * takes the slot, at a drain (EOS, flush, new caps, stop), or from the
 * faults kept by the maps of earlier outputs (GstClFaults). Streaming
 * thread only. */
typedef struct _GstClInFlight GstClInFlight;

/* The most frames in flight, and what depth 0 (auto) takes. */
#define GST_CL_IN_FLIGHT_MAX_DEPTH 8
#define GST_CL_IN_FLIGHT_AUTO_DEPTH 3

/* The most pending events a frame waits for: those of the memories of its
 * input and of its output. */
#define GST_CL_IN_FLIGHT_MAX_PENDING (2 * GST_VIDEO_MAX_PLANES)

/* One frame's queues, handed as a value from gst_cl_in_flight_queues()
 * through the phases of the frame to gst_cl_in_flight_end(). */
typedef struct
{
  guint slot;                   /* of the frame, and of the per-slot buffers */
  gboolean in_flight;           /* returns once enqueued */
  GstClEvents *events;          /* its kernels' events, for their times */
  GstClStream up, compute, down;
  /* What still writes the memories of both frames (not owned) */
  cl_event pending[GST_CL_IN_FLIGHT_MAX_PENDING];
  guint n_pending;
  /* The acquires of the frames' imported CUDA buffers (owned) */
  cl_event acquired[2];
  guint n_acquired;
  guint n_released;             /* of those, released again */
  /* where the frame's commands run instead (both frames the executor's:
   * GstClFrame's exec), in order; left in flight as an imported CUDA
   * output is, its end marked there */
  GstClCudaExec *cuda;
  /* A CPU copy that still reads the input (a started staging copy: the
   * uploads wait for it), or NULL; not owned. The input stays open until
   * it is finished. */
  GstClCopyJob *input_copy;
} GstClFrameQueues;

/* Frames in flight on @context: up to @depth on a device that does not
 * share host memory (1: each frame is waited for; 0:
 * GST_CL_IN_FLIGHT_AUTO_DEPTH), or on one whose frames are SVM where @depth
 * is above 1 (frames from the plan's pool only; 0 there: each waited for).
 * NULL with @error set when the queues cannot be made. */
GstClInFlight *gst_cl_in_flight_new (GstClContext * context, guint depth,
    GError ** error);

/* Waits for every frame in flight, without a word, and frees @self. */
void gst_cl_in_flight_free (GstClInFlight * self);

/* How many frames are kept in flight. */
guint gst_cl_in_flight_get_depth (GstClInFlight * self);

/* Where the output memories of frames in flight keep a failed wait (a
 * reference is taken; NULL: none). Once one is kept, every frame and drain
 * fails with it. */
void gst_cl_in_flight_set_faults (GstClInFlight * self, GstClFaults * faults);

/* Before a frame: FALSE with @error set where a frame already handed
 * downstream failed (a kept fault, or a command of the frame that last
 * used the next slot, which is waited for); every frame is then drained.
 * Adds the milliseconds of the kernels that completed to @device_ms. Sets
 * @slot to the frame's slot, retired: where a frame imported from CUDA
 * memory goes (its pool buffer is the slot's, free once the slot is). */
gboolean gst_cl_in_flight_begin (GstClInFlight * self, guint * slot,
    gdouble * device_ms, GError ** error);

/* The queues of the frame from @in into @out: left in flight where the
 * depth allows and @out is one OpenCL memory to carry its event, or an
 * imported CUDA output that may be held (gst_cl_in_flight_set_hold_cuda())
 * (and, on a
 * device that shares host memory, @in is one too: the kernels would read
 * system memory in place); otherwise the context's queue for all three.
 * Every stream first waits for what the frames' memories still have in
 * flight. Pair with gst_cl_in_flight_end(). */
void gst_cl_in_flight_queues (GstClInFlight * self, const GstClFrame * in,
    const GstClFrame * out, GstClFrameQueues * q);

/* Before the frame's first command: FALSE with @error set where work
 * still pending on the frames' memories has failed already (nothing of the
 * frame is enqueued then; where the frame is not left in flight, that
 * work is waited for first); the acquire for OpenCL of the imported CUDA
 * buffers of @in and @out (GstClFrame's cuda), on @q's upload stream,
 * which every stream of @q then waits for. Their release
 * follows the frame's last command in gst_cl_in_flight_end(). */
gboolean gst_cl_in_flight_acquire (GstClFrameQueues * q,
    const GstClFrame * in, const GstClFrame * out, GError ** error);

/* Between phases: the kernels wait for the uploads, the downloads for the
 * kernels (flushing what another queue waits for first, OpenCL's rule). */
gboolean gst_cl_in_flight_to_kernels (GstClFrameQueues * q, GError ** error);
gboolean gst_cl_in_flight_to_downloads (GstClFrameQueues * q,
    GError ** error);

/* Ends the frame of @q, enqueued (@ok) or not. In flight: the slot keeps
 * the event of its last command, which also goes to @out's memory where it
 * is an OpenCL memory (a map of it waits, and reports a failure to the
 * faults), keeps @in open where its memories are OpenCL memories (the
 * uploads read them) and @out where it is an imported CUDA output (copied
 * back when the slot retires); they are closed otherwise. Imported CUDA
 * buffers are released for CUDA after the frame's last command. Not in
 * flight: everything is waited for, an imported CUDA output copied back
 * (gst_cl_frame_commit()), both frames closed and the slot retired. FALSE
 * with @error set (where @ok) when that fails. */
gboolean gst_cl_in_flight_end (GstClInFlight * self, GstClFrameQueues * q,
    gboolean ok, GstClFrame * in, GstClFrame * out, gdouble * device_ms,
    GError ** error);

/* Whether an imported CUDA output (GstClFrame's cuda) may be left in flight
 * (FALSE at first): its buffer is then written only once the frame is done,
 * and the caller holds it until gst_cl_in_flight_complete(). Where it is
 * not, such a frame is waited for and copied back at its end. */
void gst_cl_in_flight_set_hold_cuda (GstClInFlight * self, gboolean hold);

/* Starts the copy back of held CUDA outputs whose frames are done, without
 * waiting (it then runs while the streaming thread goes on; their slots'
 * retirement waits for it). */
void gst_cl_in_flight_poll (GstClInFlight * self);

/* Whether the output @buffer of a frame is left in flight, not yet
 * written: to be held until gst_cl_in_flight_complete(). */
gboolean gst_cl_in_flight_holds (GstClInFlight * self, GstBuffer * buffer);

/* Waits for the frame whose output is @buffer, if it is still in flight,
 * copies it back into @buffer and retires its slot (its kernels' time goes
 * to the next frame's, gst_cl_in_flight_begin()). TRUE at once where its
 * slot was retired already, by a later frame or a drain: written then,
 * unless that retirement failed (or a drain that reports nothing let it
 * go), after which the caller has stopped with an ERROR and pushes
 * nothing. FALSE with @error set where a command of the frame or the copy
 * failed; every frame is then drained. */
gboolean gst_cl_in_flight_complete (GstClInFlight * self, GstBuffer * buffer,
    GError ** error);

/* The bytes copied back into CUDA outputs held in flight since the last
 * call. */
guint64 gst_cl_in_flight_take_cuda_bytes (GstClInFlight * self);

/* Waits for every frame in flight and lets go of the buffers they held (at
 * EOS, a flush, new caps, stop); adds the milliseconds their kernels ran
 * to @device_ms (may be NULL). FALSE with @error set where a command of
 * one of them failed, or a fault was kept: that frame's error, which
 * nothing else reports. */
gboolean gst_cl_in_flight_drain (GstClInFlight * self, gdouble * device_ms,
    GError ** error);

G_END_DECLS

#endif /* __GST_CL_IN_FLIGHT_PRIVATE_H__ */
