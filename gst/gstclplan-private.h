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

#ifndef __GST_CL_PLAN_PRIVATE_H__
#define __GST_CL_PLAN_PRIVATE_H__

#include <gst/video/video.h>
#include "gstclconvkernel-private.h"
#include "gstclinflight-private.h"
#include "gstclstats-private.h"
#include "gstcltuner-private.h"

G_BEGIN_DECLS

/* What one frame is filtered with: the element's properties, taken
 * together under its lock. Plain data: copy it by value. */
typedef struct
{
  guint threshold;              /* luma, 8-bit scale; 0: no epsilon stage */
  guint window_size;            /* odd, 3..15 */
  guint chroma_threshold;       /* 0: chroma untouched */
  gboolean have_kernel;         /* a convolution of luma after epsilon */
  GstClConvKernel kernel;
  gdouble divisor;              /* as the property: 0 = sum of coefficients */
  gdouble bias;
  GstClVariant epsilon_variant;
  GstClVariant conv_variant;
  /* luma by thresholding 8x8 DCTs at a strength estimated from each
   * frame's own quantization (gstcldct-private.h), 8-bit and 10-bit
   * formats alike, instead of the epsilon filter: the element's
   * "dct-stage" property (its "strength" knob is the element's own) */
  gboolean dct_stage;
} GstClPlanSettings;

/* Whether @a and @b filter alike: every value equal, and of the kernel
 * only its width x height coefficients (the parser leaves the others
 * unset). Compare settings with this, never with memcmp(). */
gboolean gst_cl_plan_settings_equal (const GstClPlanSettings * a,
    const GstClPlanSettings * b);

/* Whether no stage of @settings changes a sample. */
gboolean gst_cl_plan_settings_are_identity (const GstClPlanSettings *
    settings);

/* What is done to the frames of one video format: for each plane its
 * stages (epsilon filter or DCT thresholding, convolution, or none: copied
 * or shared) with their launches and scratch memory; where the planes live
 * is its GstClPlacement's (gstclplacement-private.h), the order of frames
 * its GstClInFlight's (gstclinflight-private.h). Made when caps are set;
 * given new settings when the properties change; run once per frame.
 * Streaming thread only. */
typedef struct _GstClPlan GstClPlan;

/* Whether the plan can handle frames of @info: 8- or 10-bit samples, at
 * most two interleaved components per plane, and planes small enough for
 * the kernels' 32-bit offsets. */
gboolean gst_cl_plan_supports (const GstVideoInfo * info);

/* The most frames a plan keeps in flight, and what depth 0 (auto) takes. */
#define GST_CL_PLAN_MAX_DEPTH GST_CL_IN_FLIGHT_MAX_DEPTH
#define GST_CL_PLAN_AUTO_DEPTH GST_CL_IN_FLIGHT_AUTO_DEPTH

/* A plan for frames of @info on @context; it makes the device buffers of
 * every plane at the first frame gst_cl_plan_process() filters, so that
 * caps alone hold no device memory, and builds programs and chooses
 * launches through @tuner (borrowed:
 * it must outlive the plan). Up to @depth frames are in flight at once on a
 * device that does not share host memory (1: each frame is waited for;
 * 0: GST_CL_PLAN_AUTO_DEPTH), or on one whose frames are SVM where @depth
 * is above 1 (frames from the plan's pool only; 0 there: each waited for).
 * NULL with @error set when the device could never hold the planes'
 * buffers (GST_STREAM_ERROR_FORMAT: one larger than one allocation may be,
 * or all of them more than its memory), or when the queues cannot be made;
 * @info must be supported (gst_cl_plan_supports()). Until
 * gst_cl_plan_set_settings() no stage runs. */
GstClPlan *gst_cl_plan_new (GstClContext * context, GstClTuner * tuner,
    const GstVideoInfo * info, guint depth, GError ** error);

/* Whether, and why, strength=auto left the stream so far alone
 * (gst_cl_dct_auto_idle() at the end of a stream), and luma's threshold on
 * the last frame in @threshold: asked at EOS, before gst_cl_plan_drain()
 * forgets them (where the device decides, the frames in flight are waited
 * for). GST_CL_DCT_IDLE_NO and 0 where luma does not run the DCT stage. */
GstClDctIdle gst_cl_plan_auto_at_end (GstClPlan * plan, guint * threshold);

/* Waits for every frame in flight and lets go of the buffers they held
 * (at EOS, a flush, new caps, stop); adds the milliseconds their kernels
 * ran to @device_ms (may be NULL); forgets the quantizer step held for
 * strength=auto. FALSE with @error set where a command of one of them
 * failed: that frame's error, which nothing else reports. Freeing drains
 * too, without a word. */
gboolean gst_cl_plan_drain (GstClPlan * plan, gdouble * device_ms,
    GError ** error);
void gst_cl_plan_free (GstClPlan * plan);

/* Where the output memories of frames in flight keep a failed wait (the
 * element's, which posts it; a reference is taken; NULL: none). Once one is
 * kept, every frame and drain fails with it (gstclstream-private.h). */
void gst_cl_plan_set_faults (GstClPlan * plan, GstClFaults * faults);

/* How many frames the plan keeps in flight: 1 on a device that shares host
 * memory, whatever was asked. */
guint gst_cl_plan_get_depth (GstClPlan * plan);

/* Takes @settings for the next frames. Where only thresholds, divisor or
 * bias change, the next launches take the new values at once; otherwise
 * this only stores them, and programs, launches and coefficients follow at
 * the next gst_cl_plan_process() (waiting for the frames in flight first),
 * once its buffers were found usable. */
void gst_cl_plan_set_settings (GstClPlan * plan,
    const GstClPlanSettings * settings);

/* Whether frames into CUDA memory (imported) may be left in flight (FALSE
 * at first): gst_cl_plan_process() then returns once such a frame is
 * enqueued, and its output buffer is written only at
 * gst_cl_plan_complete(), or when a later frame or a drain needs its
 * slot. */
void gst_cl_plan_set_hold_cuda (GstClPlan * plan, gboolean hold);

/* The CUDA context upstream for frames in system memory
 * (gst_cl_placement_set_cuda_context()): TRUE where their commands will
 * run in it. */
gboolean gst_cl_plan_set_cuda_context (GstClPlan * plan,
    GstContext * context);

/* Whether @outbuf, the output of a frame, is not written yet: it may go
 * downstream only after gst_cl_plan_complete(). */
gboolean gst_cl_plan_holds (GstClPlan * plan, GstBuffer * outbuf);

/* Starts writing the held outputs whose frames are done, without waiting
 * (gst_cl_plan_complete() then waits less). */
void gst_cl_plan_poll (GstClPlan * plan);

/* Waits for the frame whose output is @outbuf, if it is still in flight,
 * and writes @outbuf (its copy back into CUDA memory). FALSE with @error
 * set where the frame failed; every frame is then drained. */
gboolean gst_cl_plan_complete (GstClPlan * plan, GstBuffer * outbuf,
    GError ** error);

/* The planes no stage touches with the current settings, as a bit mask of
 * plane indices. */
guint gst_cl_plan_untouched_planes (GstClPlan * plan);

/* Filters the frame in @inbuf into @outbuf (both of the plan's format).
 * With frames in flight and @outbuf one OpenCL memory of the context, it
 * returns once the work is enqueued: the memory's pending event
 * (gst_cl_memory_set_pending()) completes with it, and @inbuf is held until
 * then; otherwise it waits until the frame is done. With a GstVideoCropMeta
 * on @inbuf only its rectangle is filtered and the rest copied. With
 * @share_untouched, planes that no stage touches go out as a share of
 * @inbuf's memory where that pays and the pool allows it
 * (gst_cl_buffer_pool_share_planes()), else they are copied. Fills @frame
 * (all but wall_ms; device_ms counts the frames that completed during the
 * call). FALSE with @error set on failure; the device is then idle and
 * nothing refers to either buffer. */
gboolean gst_cl_plan_process (GstClPlan * plan, GstBuffer * inbuf,
    GstBuffer * outbuf, gboolean share_untouched, GstClFrameStats * frame,
    GError ** error);

G_END_DECLS

#endif /* __GST_CL_PLAN_PRIVATE_H__ */
