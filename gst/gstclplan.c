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

/* The plan of a format: what happens to each plane of a frame.
 *
 *   input buffer -> GstClFrame -> per plane: region (crop) ->
 *     [upload] -> epsilon or DCT (strength=auto) -> [tmp] -> convolution
 *     -> [download] -> output
 *   planes no stage touches: copied on the device, or shared (pool)
 *
 * gst_cl_plan_new() describes the planes and checks that the device can
 * hold their buffers; gst_cl_plan_set_settings() records what the
 * properties ask for; the first gst_cl_plan_process() makes the planes'
 * device buffers, and the first one after new settings builds the
 * programs, uploads the
 * convolution coefficients and chooses each stage's launch (through the
 * tuner), so that later frames only set arguments and enqueue. A frame is
 * enqueued in three phases (prepare_plane: uploads and plain copies;
 * run_stages: kernels; finish_plane: downloads), on one queue, or on three
 * ordered by events when it is left in flight (enqueue_frame). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclplan-private.h"
#include "gstclstream-private.h"
#include "gstclbufferpool-private.h"
#include "gstcldct-private.h"
#include "gstclerror-private.h"
#include "gstclmemory-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cl_plan_debug
GST_CL_DEBUG_CATEGORY (gst_cl_plan_debug, "clplan",
    "gst-clfilters: what runs on a frame");

/* A rectangle of one plane, in samples of one component: the part a frame
 * filters (all of it, or what lies under the input's crop rectangle). */
typedef struct
{
  gint x, y;
  gint width, height;
} GstClRegion;

/* The most pending events a frame waits for: those of the memories of its
 * input and of its output. */
#define MAX_PENDING (2 * GST_VIDEO_MAX_PLANES)

/* What one frame in flight holds until it completes. */
typedef struct
{
  cl_event done;                /* its last command; NULL when idle */
  GstClEvents events;           /* its kernels, for their times */
  GstBuffer *inbuf;             /* read by commands still in flight */
  GstClFrame in;                /* opened while in flight (host pointers) */
  gboolean in_open;
  cl_mem staging;               /* pinned, for system-memory input */
  guint8 *staging_host;         /* mapped for the CPU while the plan lives */
} GstClSlot;

/* One plane of the format, with its device buffers and stages. */
typedef struct
{
  guint index;                  /* plane of the GstVideoFrame */
  gint width;                   /* samples of one component per row */
  gint height;
  gint xstep;                   /* components interleaved in the plane */
  gint bytes;                   /* per sample: 1, or 2 (10-bit in 16-bit words) */
  guint depth;                  /* bits per sample: 8 or 10 */
  guint shift;                  /* 10-bit value's lowest bit in its word */
  guint wsub, hsub;             /* log2 of the subsampling against luma */
  gint row_bytes;               /* width * xstep * bytes: rows are packed on
                                 * the device */
  gboolean is_luma;
  /* One input and one output buffer per slot: frames in flight upload into
   * and download from their slot's pair while the next frame's kernels run
   * on another. Slot 0's are what the tuner times on. */
  cl_mem src[GST_CL_PLAN_MAX_DEPTH];    /* the uploaded input */
  cl_mem dst[GST_CL_PLAN_MAX_DEPTH];    /* the filtered output */
  cl_mem tmp;                   /* luma only: epsilon result, convolution input */
  cl_mem scratch;               /* luma only, made on first use: row sums of
                                 * the separable convolution, floats */
  /* What runs, with the current settings; arguments but the planes' places
   * and sizes are set when the settings are applied. */
  gboolean epsilon, convolve;
  gboolean dct;                 /* strength=auto: DCT thresholding */
  GstClStage epsilon_stage, conv_stage;
  GstClLaunch epsilon_launch, conv_launch;
} GstClPlane;

struct _GstClPlan
{
  GstClContext *context;
  GstClTuner *tuner;
  GstVideoInfo info;
  GstClPlane planes[GST_VIDEO_MAX_PLANES];
  guint n_planes;
  gboolean allocated;           /* the planes' device buffers are made */
  cl_mem coeffs;                /* float coefficients of the kernel */
  cl_mem row_factor;            /* and its factors, when separable */
  cl_mem column_factor;
  GstClConvKernel uploaded;     /* what coeffs holds (width 0: nothing) */

  GstClPlanSettings settings;
  gboolean pending;             /* settings not applied yet */
  gboolean applied;             /* some settings were */

  /* strength=auto */
  GstClDct *dct;
  GstClDctAuto auto_state;      /* the step held between frames */

  gint share_forced;            /* GST_CL_SHARE_UNTOUCHED: 1 always, -1 never */

  /* Frames in flight (depth > 1 on a device that does not share host
   * memory): uploads on their own queue, kernels on the context's, downloads
   * and plane copies on a third, ordered by events; slot i of depth holds
   * what frame n = i (mod depth) needs until it completes. With depth 1
   * every queue is the context's and each frame is waited for. */
  guint depth;
  cl_command_queue async_up, async_down;
  /* This frame's queues: the async ones for a frame in flight, else the
   * context's queue for all three */
  cl_command_queue up, compute, down;
  GstClSlot slots[GST_CL_PLAN_MAX_DEPTH];
  guint next;                   /* the slot of the next frame */
  /* Failures of frames already handed downstream, found by the maps of
   * their output memories: raised at the next frame or at the drain. */
  GstClFaults *faults;
};

gboolean
gst_cl_plan_settings_are_identity (const GstClPlanSettings * settings)
{
  return settings->threshold == 0 && settings->chroma_threshold == 0 &&
      !settings->have_kernel && settings->strength == GST_CL_STRENGTH_OFF;
}

/* Whether strength=auto thresholds the DCTs of @plane. */
static gboolean
plane_takes_dct (const GstClPlanSettings * s, const GstClPlane * plane)
{
  return plane->is_luma && plane->bytes == 1 &&
      s->strength == GST_CL_STRENGTH_AUTO;
}

/* ---- Planes -------------------------------------------------------------- */

/* Describes @plane_index of @info; FALSE if the plane is too large for the
 * 32-bit offsets the kernels compute with, or if GstVideoInfo's own size
 * math overflowed (a row of 2^31 - 1 bytes gets a negative stride and a
 * size near 2^64). */
static gboolean
describe_plane (const GstVideoInfo * info, guint plane_index,
    GstClPlane * plane)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane_index, comp);
  plane->index = plane_index;
  plane->is_luma = comp[0] == GST_VIDEO_COMP_Y;
  plane->width = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
  plane->height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
  plane->depth = GST_VIDEO_INFO_COMP_DEPTH (info, comp[0]);
  plane->bytes = plane->depth > 8 ? 2 : 1;
  plane->shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, comp[0]);
  plane->wsub = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, comp[0]);
  plane->hsub = GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, comp[0]);
  plane->xstep = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) / plane->bytes;

  if ((plane->depth != 8 && plane->depth != 10) || plane->xstep < 1 ||
      plane->xstep > 2 || (gint64) plane->width * plane->xstep *
      plane->bytes * plane->height > G_MAXINT32 ||
      GST_VIDEO_INFO_PLANE_STRIDE (info, plane_index) <
      (gint64) plane->width * plane->xstep * plane->bytes ||
      info->size > G_MAXUINT32)
    return FALSE;
  plane->row_bytes = plane->width * plane->xstep * plane->bytes;
  return TRUE;
}

gboolean
gst_cl_plan_supports (const GstVideoInfo * info)
{
  GstClPlane plane;
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    if (!describe_plane (info, i, &plane))
      return FALSE;
  }
  return TRUE;
}

/* The device buffers alloc_plane() makes for @plane: an input and an
 * output per slot, and the intermediate one of luma. */
static guint
plane_buffers (const GstClPlan * self, const GstClPlane * plane)
{
  return 2 * self->depth + (plane->is_luma ? 1 : 0);
}

/* Makes @plane's device buffers that are not there yet (a first attempt
 * may have failed half way). */
static gboolean
alloc_plane (GstClPlan * self, GstClPlane * plane, GError ** error)
{
  gsize size = (gsize) plane->row_bytes * plane->height;
  static const guint8 zero = 0;
  cl_int status;
  guint k;

  for (k = 0; k < self->depth; k++) {
    if (!plane->src[k] && !(plane->src[k] =
            gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
                size, "input plane", error)))
      return FALSE;
    if (!plane->dst[k] && !(plane->dst[k] =
            gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
                size, "output plane", error)))
      return FALSE;
  }
  if (plane->is_luma && !plane->tmp && !(plane->tmp =
          gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
              size, "intermediate plane", error)))
    return FALSE;
  /* The tuner times kernels on the input plane before any frame: give it
   * defined samples, not whatever the allocation held (valgrind flags the
   * kernels' reads, and NaNs or denormals would skew the timings). */
  status = clEnqueueFillBuffer (gst_cl_context_get_queue (self->context),
      plane->src[0], &zero, 1, 0, size, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clEnqueueFillBuffer (input "
        "plane)");
  return TRUE;
}

/* The device buffers of every plane, made by the first frame that is
 * filtered: caps alone (in passthrough, or followed by a buffer too small
 * for them) hold no device memory. */
static gboolean
alloc_planes (GstClPlan * self, GError ** error)
{
  cl_int status;
  guint i;

  if (self->allocated)
    return TRUE;
  for (i = 0; i < self->n_planes; i++) {
    if (!alloc_plane (self, &self->planes[i], error))
      return FALSE;
  }
  /* The fills ran on the kernels' queue; a frame in flight uploads into the
   * same buffers on another queue, which does not wait for them. Once a
   * plan. */
  status = clFinish (gst_cl_context_get_queue (self->context));
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clFinish (plane fills)");
  self->allocated = TRUE;
  return TRUE;
}

/* Whether the device can ever hold the planes' buffers (each one no larger
 * than one allocation may be, all of them together within its memory), so
 * that absurd caps are refused before anything is allocated. */
static gboolean
device_holds_planes (GstClPlan * self, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (self->context);
  cl_ulong max_alloc = 0, global = 0;
  guint64 needed = 0, largest = 0;
  gchar *needed_text, *global_text;
  guint i;

  if (clGetDeviceInfo (device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
          sizeof (max_alloc), &max_alloc, NULL) != CL_SUCCESS ||
      clGetDeviceInfo (device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof (global),
          &global, NULL) != CL_SUCCESS)
    return TRUE;                /* the allocations will say */
  for (i = 0; i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];
    guint64 size = (guint64) plane->row_bytes * plane->height;

    largest = MAX (largest, size);
    needed += size * plane_buffers (self, plane);
  }
  if (largest <= max_alloc && needed <= global)
    return TRUE;
  needed_text = g_format_size_full (needed, G_FORMAT_SIZE_IEC_UNITS);
  global_text = g_format_size_full (global, G_FORMAT_SIZE_IEC_UNITS);
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "frames of %dx%d are too large for the device: they need %s of its "
      "memory (a plane of %" G_GUINT64_FORMAT " bytes, at most %"
      G_GUINT64_FORMAT " in one buffer), it has %s",
      GST_VIDEO_INFO_WIDTH (&self->info), GST_VIDEO_INFO_HEIGHT (&self->info),
      needed_text, largest, (guint64) max_alloc, global_text);
  g_free (needed_text);
  g_free (global_text);
  return FALSE;
}

/* The upload and download queues of frames in flight. */
static gboolean
create_queues (GstClPlan * self, GError ** error)
{
  cl_context handle = gst_cl_context_get_handle (self->context);
  cl_device_id device = gst_cl_context_get_device (self->context);
  cl_int status;

  self->compute = gst_cl_context_get_queue (self->context);
  self->up = self->down = self->compute;
  if (self->depth == 1)
    return TRUE;
  self->async_up = clCreateCommandQueue (handle, device, 0, &status);
  if (status == CL_SUCCESS)
    self->async_down = clCreateCommandQueue (handle, device, 0, &status);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clCreateCommandQueue (frames "
        "in flight)");
  return TRUE;
}

GstClPlan *
gst_cl_plan_new (GstClContext * context, GstClTuner * tuner,
    const GstVideoInfo * info, guint depth, GError ** error)
{
  const gsize side = sizeof (gfloat) * GST_CL_CONV_KERNEL_MAX_SIDE;
  GstClPlan *self = g_new0 (GstClPlan, 1);
  const gchar *share;
  guint i;

  ensure_debug_category ();
  self->context = gst_object_ref (context);
  self->tuner = tuner;
  self->info = *info;
  share = g_getenv ("GST_CL_SHARE_UNTOUCHED");
  self->share_forced = g_strcmp0 (share, "always") == 0 ? 1 :
      g_strcmp0 (share, "never") == 0 ? -1 : 0;
  /* Frames in flight overlap transfers on a discrete GPU. Where kernels
   * work on the frames in place, one frame at a time by default; with SVM
   * frames a depth asked for overlaps a frame's launch and wait with the
   * next one's kernel, which paid on 2 cores and not on 16 (PoCL,
   * docs/benchmarks.md); without SVM the CPU's maps would wait anyway. */
  self->depth = gst_cl_context_is_host_unified (context) &&
      (depth == 0 || !gst_cl_context_has_fine_svm (context)) ? 1 :
      depth == 0 ? GST_CL_PLAN_AUTO_DEPTH : MIN (depth, GST_CL_PLAN_MAX_DEPTH);
  GST_DEBUG ("%u frames in flight", self->depth);
  if (!create_queues (self, error))
    goto failed;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    if (!describe_plane (info, i, &self->planes[i]))
      goto unsupported;
    self->n_planes = i + 1;
  }
  if (!device_holds_planes (self, error))
    goto failed;
  self->coeffs = gst_cl_context_create_buffer (context, CL_MEM_READ_ONLY,
      side * GST_CL_CONV_KERNEL_MAX_SIDE, "kernel coefficients", error);
  if (self->coeffs)
    self->row_factor = gst_cl_context_create_buffer (context,
        CL_MEM_READ_ONLY, side, "kernel row factor", error);
  if (self->row_factor)
    self->column_factor = gst_cl_context_create_buffer (context,
        CL_MEM_READ_ONLY, side, "kernel column factor", error);
  if (!self->column_factor)
    goto failed;
  return self;

unsupported:
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "frames of %dx%d are too large", GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info));
failed:
  gst_cl_plan_free (self);
  return NULL;
}

guint
gst_cl_plan_get_depth (GstClPlan * self)
{
  return self->depth;
}

/* Waits for the frame in @slot, if any, and lets go of what it held; adds
 * its kernels' time to @device_ms. FALSE with @error set (if not NULL)
 * where one of its commands failed. */
static gboolean
retire_slot (GstClPlan * self, GstClSlot * slot, gdouble * device_ms,
    GError ** error)
{
  cl_int status = CL_SUCCESS, outcome = CL_COMPLETE;
  const gchar *step = "clWaitForEvents (frame in flight)";

  if (slot->done) {
    status = clWaitForEvents (1, &slot->done);
    if (status == CL_SUCCESS) {
      step = "clGetEventInfo (frame in flight)";
      status = clGetEventInfo (slot->done, CL_EVENT_COMMAND_EXECUTION_STATUS,
          sizeof (outcome), &outcome, NULL);
    }
    if (status == CL_SUCCESS && outcome < 0) {
      step = "a command of a frame in flight";
      status = outcome;
    }
    clReleaseEvent (slot->done);
    slot->done = NULL;
  }
  *device_ms += gst_cl_events_take_ms (&slot->events);
  if (slot->in_open)
    gst_cl_frame_close (&slot->in);
  slot->in_open = FALSE;
  gst_clear_buffer (&slot->inbuf);
  return status == CL_SUCCESS || gst_cl_set_error (error, status, "%s", step);
}

/* Gives the staging buffers back to OpenCL (mapped again when next used),
 * so that freeing the plan has nothing left that can fail. */
static gboolean
unmap_staging (GstClPlan * self, GError ** error)
{
  cl_int status, first = CL_SUCCESS;
  guint k;

  for (k = 0; k < self->depth; k++) {
    GstClSlot *slot = &self->slots[k];

    if (!slot->staging_host)
      continue;
    status = clEnqueueUnmapMemObject (self->compute, slot->staging,
        slot->staging_host, 0, NULL, NULL);
    slot->staging_host = NULL;
    if (first == CL_SUCCESS)
      first = status;
  }
  return first == CL_SUCCESS ||
      gst_cl_set_error (error, first, "clEnqueueUnmapMemObject (staging)");
}

/* Waits for every command on the plan's queues. */
static gboolean
finish_queues (GstClPlan * self, GError ** error)
{
  cl_command_queue queues[3] = { self->async_up, self->async_down,
    self->compute
  };
  cl_int status, first = CL_SUCCESS;
  guint i;

  for (i = 0; i < 3; i++) {
    if (queues[i]) {
      status = clFinish (queues[i]);
      if (first == CL_SUCCESS)
        first = status;
    }
  }
  return first == CL_SUCCESS ||
      gst_cl_set_error (error, first, "clFinish (frame)");
}

/* Waits for the frames in flight; see gst_cl_plan_drain(). */
static gboolean
wait_in_flight (GstClPlan * self, gdouble * device_ms, GError ** error)
{
  gboolean ok, busy = FALSE;
  gdouble ms = 0;
  guint k;

  for (k = 0; k < self->depth; k++)
    busy |= self->slots[k].done != NULL;
  /* Every command of a frame that was waited for is done. */
  if (!busy)
    return TRUE;
  ok = finish_queues (self, error);
  for (k = 0; k < self->depth; k++)
    ok = retire_slot (self, &self->slots[k], &ms, ok ? error : NULL) && ok;
  if (device_ms)
    *device_ms += ms;
  return ok;
}

void
gst_cl_plan_set_faults (GstClPlan * self, GstClFaults * faults)
{
  g_clear_pointer (&self->faults, gst_cl_faults_unref);
  self->faults = faults ? gst_cl_faults_ref (faults) : NULL;
}

/* FALSE with @error set where a frame already handed downstream failed. */
static gboolean
check_faults (GstClPlan * self, GError ** error)
{
  return !self->faults || gst_cl_faults_check (self->faults, error);
}

gboolean
gst_cl_plan_drain (GstClPlan * self, gdouble * device_ms, GError ** error)
{
  gboolean ok = wait_in_flight (self, device_ms, error);

  ok = check_faults (self, ok ? error : NULL) && ok;
  gst_cl_dct_auto_reset (&self->auto_state);
  return unmap_staging (self, ok ? error : NULL) && ok;
}

void
gst_cl_plan_free (GstClPlan * self)
{
  guint i, k;

  if (!self)
    return;
  /* Frames in flight still read and write the plan's buffers; a frame
   * waited for left nothing behind. */
  if (self->compute && self->depth > 1)
    gst_cl_plan_drain (self, NULL, NULL);
  if (self->compute)
    unmap_staging (self, NULL);
  for (k = 0; k < GST_CL_PLAN_MAX_DEPTH; k++)
    g_clear_pointer (&self->slots[k].staging, clReleaseMemObject);
  for (i = 0; i < self->n_planes; i++) {
    GstClPlane *plane = &self->planes[i];

    for (k = 0; k < GST_CL_PLAN_MAX_DEPTH; k++) {
      g_clear_pointer (&plane->src[k], clReleaseMemObject);
      g_clear_pointer (&plane->dst[k], clReleaseMemObject);
    }
    g_clear_pointer (&plane->tmp, clReleaseMemObject);
    g_clear_pointer (&plane->scratch, clReleaseMemObject);
  }
  g_clear_pointer (&self->coeffs, clReleaseMemObject);
  g_clear_pointer (&self->row_factor, clReleaseMemObject);
  g_clear_pointer (&self->column_factor, clReleaseMemObject);
  g_clear_pointer (&self->dct, gst_cl_dct_free);
  if (self->async_up)
    clReleaseCommandQueue (self->async_up);
  if (self->async_down)
    clReleaseCommandQueue (self->async_down);
  gst_cl_faults_unref (self->faults);
  gst_object_unref (self->context);
  g_free (self);
}

/* ---- Applying settings --------------------------------------------------- */

/* Whether @a and @b have the same size and coefficients. Only the first
 * width x height coefficients are the kernel's: the parser leaves the
 * others unset, so comparing them would read undefined memory. */
static gboolean
kernels_equal (const GstClConvKernel * a, const GstClConvKernel * b)
{
  return a->width == b->width && a->height == b->height &&
      memcmp (a->coeffs, b->coeffs,
      sizeof (gdouble) * a->width * a->height) == 0;
}

/* Whether @a and @b run the same kernels: the same stages, and where there
 * is a convolution, the same coefficients. */
static gboolean
same_kernels (const GstClPlanSettings * a, const GstClPlanSettings * b)
{
  return a->have_kernel == b->have_kernel &&
      (!a->have_kernel || kernels_equal (&a->kernel, &b->kernel));
}

gboolean
gst_cl_plan_settings_equal (const GstClPlanSettings * a,
    const GstClPlanSettings * b)
{
  return a->threshold == b->threshold && a->window_size == b->window_size &&
      a->chroma_threshold == b->chroma_threshold && same_kernels (a, b) &&
      a->divisor == b->divisor && a->bias == b->bias &&
      a->epsilon_variant == b->epsilon_variant &&
      a->conv_variant == b->conv_variant && a->strength == b->strength;
}

/* Whether @b differs from @a only in values that are kernel arguments
 * (thresholds, divisor, bias), with the same stages running. */
static gboolean
only_arguments_change (const GstClPlanSettings * a,
    const GstClPlanSettings * b)
{
  return (a->threshold > 0) == (b->threshold > 0) &&
      (a->chroma_threshold > 0) == (b->chroma_threshold > 0) &&
      a->window_size == b->window_size && same_kernels (a, b) &&
      a->epsilon_variant == b->epsilon_variant &&
      a->conv_variant == b->conv_variant && a->strength == b->strength;
}

void
gst_cl_plan_set_settings (GstClPlan * self, const GstClPlanSettings * settings)
{
  gboolean light = self->applied && !self->pending &&
      only_arguments_change (&self->settings, settings);
  guint i;

  memcpy (&self->settings, settings, sizeof (self->settings));
  if (!light) {
    self->pending = TRUE;
    return;
  }
  /* New values for the next launches: frames in flight keep theirs (kernel
   * arguments are taken at enqueue), nothing to drain or to time. */
  for (i = 0; i < self->n_planes; i++) {
    GstClPlane *plane = &self->planes[i];
    guint threshold = plane->is_luma ? settings->threshold :
        settings->chroma_threshold;

    plane->epsilon_stage.threshold = threshold << (plane->depth - 8);
    plane->conv_stage.conv.divisor =
        gst_cl_conv_kernel_effective_divisor (&settings->kernel,
        settings->divisor);
    plane->conv_stage.conv.bias = settings->bias;
  }
}

guint
gst_cl_plan_untouched_planes (GstClPlan * self)
{
  guint i, mask = 0;

  for (i = 0; i < self->n_planes; i++) {
    const GstClPlanSettings *s = &self->settings;

    if (self->planes[i].is_luma ? s->threshold == 0 && !s->have_kernel &&
        !plane_takes_dct (s, &self->planes[i]) : s->chroma_threshold == 0)
      mask |= 1 << self->planes[i].index;
  }
  return mask;
}

/* Writes @n floats from @values to @mem, blocking: a few hundred bytes,
 * only when the kernel changes. */
static gboolean
write_floats (GstClPlan * self, cl_mem mem, const gdouble * values, gint n,
    const gchar * what, GError ** error)
{
  gfloat floats[GST_CL_CONV_KERNEL_MAX_SIDE * GST_CL_CONV_KERNEL_MAX_SIDE];
  cl_int status;
  gint i;

  for (i = 0; i < n; i++)
    floats[i] = values[i];
  status = clEnqueueWriteBuffer (gst_cl_context_get_queue (self->context),
      mem, CL_TRUE, 0, sizeof (gfloat) * n, floats, 0, NULL, NULL);
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status, "clEnqueueWriteBuffer (%s)", what);
    return FALSE;
  }
  return TRUE;
}

/* Uploads the coefficients of the settings' kernel (and its factors, where
 * it separates) unless the device holds them already; sets @separable. */
static gboolean
upload_kernel (GstClPlan * self, gboolean * separable, GError ** error)
{
  const GstClConvKernel *kernel = &self->settings.kernel;
  gdouble column[GST_CL_CONV_KERNEL_MAX_SIDE], row[GST_CL_CONV_KERNEL_MAX_SIDE];

  *separable = gst_cl_conv_kernel_factor (kernel, column, row);
  if (kernels_equal (&self->uploaded, kernel))
    return TRUE;
  memset (&self->uploaded, 0, sizeof (self->uploaded));
  if (!write_floats (self, self->coeffs, kernel->coeffs,
          kernel->width * kernel->height, "kernel coefficients", error))
    return FALSE;
  if (*separable && (!write_floats (self, self->row_factor, row,
              kernel->width, "kernel row factor", error) ||
          !write_floats (self, self->column_factor, column, kernel->height,
              "kernel column factor", error)))
    return FALSE;
  self->uploaded = *kernel;
  return TRUE;
}

/* A packed device buffer of @plane, as a plane reference. */
static GstClPlaneRef
device_ref (const GstClPlane * plane, cl_mem mem)
{
  GstClPlaneRef ref = { mem, 0, NULL, plane->row_bytes, TRUE };

  return ref;
}

/* Sets up the stages of @plane for the settings, and chooses their
 * launches on the plane's device buffers (the tuner may time them there). */
static gboolean
plan_plane (GstClPlan * self, GstClPlane * plane, GstClKernels * kernels,
    gboolean separable, GError ** error)
{
  const GstClPlanSettings *s = &self->settings;
  guint threshold = plane->is_luma ? s->threshold : s->chroma_threshold;
  GstClPlaneRef src = device_ref (plane, plane->src[0]);
  GstClPlaneRef dst = device_ref (plane, plane->dst[0]);
  GstClStagePlane where = { &src, &dst, plane->width, plane->height,
    plane->xstep, plane->shift
  };

  plane->dct = plane_takes_dct (s, plane);
  if (plane->is_luma && s->strength == GST_CL_STRENGTH_AUTO && !plane->dct)
    GST_INFO ("strength=auto on %u-bit samples: the epsilon filter instead "
        "(the DCT stage is 8-bit only)", plane->depth);
  plane->epsilon = threshold > 0 && !plane->dct;
  plane->convolve = plane->is_luma && s->have_kernel;
  if (plane->epsilon) {
    plane->epsilon_stage = (GstClStage) {
    kernels, FALSE, where, threshold << (plane->depth - 8)};
    if (!gst_cl_tuner_choose (self->tuner, &plane->epsilon_stage,
            s->epsilon_variant, &plane->epsilon_launch, error))
      return FALSE;
    /* Each frame says where the plane is (run_stage). */
    plane->epsilon_stage.plane.src = plane->epsilon_stage.plane.dst = NULL;
  }
  if (!plane->convolve)
    return TRUE;
  if (separable && !plane->scratch &&
      !(plane->scratch = gst_cl_context_create_buffer (self->context,
              CL_MEM_READ_WRITE, sizeof (gfloat) * plane->width *
              plane->height, "separable convolution rows", error)))
    return FALSE;
  where.xstep = 1;
  plane->conv_stage = (GstClStage) {
    kernels, TRUE, where, 0, {
  self->coeffs, s->kernel.width, s->kernel.height,
          gst_cl_conv_kernel_effective_divisor (&s->kernel, s->divisor),
          s->bias, separable, self->row_factor, self->column_factor,
          plane->scratch}};
  if (!gst_cl_tuner_choose (self->tuner, &plane->conv_stage,
          s->conv_variant, &plane->conv_launch, error))
    return FALSE;
  plane->conv_stage.plane.src = plane->conv_stage.plane.dst = NULL;
  return TRUE;
}

/* Builds what the pending settings need: the program, the coefficients and
 * each stage's launch. */
static gboolean
apply_settings (GstClPlan * self, GError ** error)
{
  const GstClPlanSettings *s = &self->settings;
  GstClKernels *kernels;
  gboolean separable = FALSE;
  guint i;

  kernels = gst_cl_tuner_get_kernels (self->tuner, self->planes[0].bytes == 2,
      s->window_size / 2, error);
  if (!kernels)
    return FALSE;
  if (s->have_kernel && !upload_kernel (self, &separable, error))
    return FALSE;
  if (plane_takes_dct (s, &self->planes[0]) && !self->dct &&
      !(self->dct = gst_cl_dct_new (self->context, error)))
    return FALSE;
  for (i = 0; i < self->n_planes; i++) {
    if (!plan_plane (self, &self->planes[i], kernels, separable, error))
      return FALSE;
  }
  self->pending = FALSE;
  self->applied = TRUE;
  return TRUE;
}

/* ---- One frame ----------------------------------------------------------- */

/* @ref moved on to the sample at (@x, @y) of @plane. */
static GstClPlaneRef
region_ref (const GstClPlane * plane, const GstClPlaneRef * ref, gint x,
    gint y)
{
  GstClPlaneRef moved = *ref;
  gsize skip = (gsize) y * ref->pitch + (gsize) x * plane->xstep *
      plane->bytes;

  if (moved.mem)
    moved.offset += skip;
  else
    moved.host += skip;
  return moved;
}

/* Whether kernels may work on @ref where it is: an OpenCL buffer that the
 * device reaches (device memory, or any where it shares host memory);
 * 16-bit samples need even offsets and pitches (a frame whose video meta
 * says otherwise goes through the plane's device buffers). */
static gboolean
kernel_reaches (GstClPlan * self, const GstClPlane * plane,
    const GstClPlaneRef * ref)
{
  return ref->mem && (ref->device_side ||
      gst_cl_context_is_host_unified (self->context)) &&
      (plane->bytes == 1 || ((ref->offset | (gsize) ref->pitch) & 1) == 0);
}

/* One frame's work on one plane, as the three phases enqueue it. */
typedef struct
{
  const GstClPlane *plane;
  GstClRegion region;
  GstClPlaneRef src, dst;       /* the region in the frames */
  GstClPlaneRef ksrc, kdst;     /* where the kernels read and write it */
  gboolean filtered;            /* a stage runs */
  /* A crop rectangle: the rest of the planes, copied as they are after the
   * kernels (which may write the same buffer) */
  gboolean around;
  GstClPlaneRef whole_src, whole_dst;
} GstClPlaneWork;

/* Waits on the CPU for the @n events of what still writes the frames
 * (@pending), before the CPU copies between them. */
static gboolean
cpu_waits (cl_event * pending, guint n, GError ** error)
{
  cl_int status = n ? clWaitForEvents (n, pending) : CL_SUCCESS;

  return status == CL_SUCCESS ||
      gst_cl_set_error (error, status, "clWaitForEvents (frame in flight)");
}

/* Runs @stage with @launch from @src to @dst over @region, on @s (the
 * context's queue); the kernels' events go to @slot, for their times. */
static gboolean
run_stage (GstClStream * s, GstClSlot * slot, const GstClStage * stage,
    const GstClLaunch * launch, const GstClRegion * region,
    const GstClPlaneRef * src, const GstClPlaneRef * dst, GError ** error)
{
  GstClEvents *events = &slot->events;
  GstClStage here = *stage;
  guint before = events->n_events;
  /* a stage enqueues one or two kernels: with room for two, the last event
   * kept is its last kernel's */
  gboolean room = G_N_ELEMENTS (events->events) - before >= 2, ok;

  here.plane.src = src;
  here.plane.dst = dst;
  here.plane.width = region->width;
  here.plane.height = region->height;
  events->wait = s->wait;
  events->n_wait = s->n_wait;
  ok = gst_cl_stage_run (&here, launch, events, error);
  events->wait = NULL;
  events->n_wait = 0;
  if (!ok)
    return FALSE;
  if (!room || events->n_events == before)
    return gst_cl_stream_mark (s, error);
  clRetainEvent (events->events[events->n_events - 1]);
  gst_cl_stream_enqueued (s, events->events[events->n_events - 1]);
  return TRUE;
}

/* strength=auto on @w's region from @src to @dst: the quantizer step read
 * off the frame's DCTs (blocking: the histogram comes back to the CPU),
 * the DCT thresholding at the strength it gives, or a copy where the frame
 * shows no coding (docs/quality.md). */
static gboolean
run_auto (GstClPlan * self, GstClStream * s, const GstClPlaneWork * w,
    const GstClPlaneRef * src, const GstClPlaneRef * dst, GError ** error)
{
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  GstClTransferStats ignored = { 0, };
  cl_event event = NULL;
  guint threshold;

  /* The CPU waits for the histogram anyway: first for what @s waits for. */
  if (!cpu_waits (s->wait, s->n_wait, error))
    return FALSE;
  s->n_wait = 0;
  if (!gst_cl_dct_histogram (self->dct, src->mem, src->offset, src->pitch,
          w->region.width, w->region.height, hist, error))
    return FALSE;
  threshold = gst_cl_dct_auto_update (&self->auto_state, hist);
  GST_LOG ("strength=auto: DCT threshold %u", threshold);
  if (threshold == 0)
    return gst_cl_stream_copy (s, src, dst, w->region.width, w->region.height,
        &ignored, error);
  if (!gst_cl_dct_threshold (self->dct, src->mem, src->offset, src->pitch,
          dst->mem, dst->offset, dst->pitch, w->region.width,
          w->region.height, threshold, GST_CL_DCT_MAX_PASSES,
          &event, error))
    return FALSE;
  gst_cl_stream_enqueued (s, event);
  return TRUE;
}

/* Runs the plane's stages from its kernel source to its kernel destination,
 * through its intermediate buffer when both run. */
static gboolean
run_stages (GstClPlan * self, GstClStream * s, GstClSlot * slot,
    const GstClPlaneWork * w, GError ** error)
{
  const GstClPlane *plane = w->plane;
  GstClPlaneRef tmp = device_ref (plane, plane->tmp);
  const GstClPlaneRef *src = &w->ksrc;

  if (plane->epsilon || plane->dct) {
    const GstClPlaneRef *out = plane->convolve ? &tmp : &w->kdst;

    if (plane->dct ? !run_auto (self, s, w, src, out, error) :
        !run_stage (s, slot, &plane->epsilon_stage, &plane->epsilon_launch,
            &w->region, src, out, error))
      return FALSE;
    src = out;
  }
  return !plane->convolve || run_stage (s, slot, &plane->conv_stage,
      &plane->conv_launch, &w->region, src, &w->kdst, error);
}

/* Copies the samples of @plane around @region from @src to @dst on @s
 * (downloads): the rows above and below it, and the parts of its rows left
 * and right of it. */
static gboolean
copy_around (GstClStream * s, const GstClPlane * plane,
    const GstClRegion * region, const GstClPlaneRef * src,
    const GstClPlaneRef * dst, GstClTransferStats * stats, GError ** error)
{
  const gint below = region->y + region->height;
  const gint right = region->x + region->width;
  const GstClRegion parts[4] = {
    {0, 0, plane->width, region->y},
    {0, below, plane->width, plane->height - below},
    {0, region->y, region->x, region->height},
    {right, region->y, plane->width - right, region->height},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (parts); i++) {
    const GstClRegion *part = &parts[i];
    GstClPlaneRef from, to;

    if (part->width <= 0 || part->height <= 0)
      continue;
    from = region_ref (plane, src, part->x, part->y);
    to = region_ref (plane, dst, part->x, part->y);
    if (!gst_cl_stream_copy (s, &from, &to, (gsize) part->width * plane->xstep *
            plane->bytes, part->height, stats, error))
      return FALSE;
  }
  return TRUE;
}

/* The pinned staging buffer of @slot, made and mapped on first use: system
 * memory input is copied there by the CPU, then sent to the device by DMA
 * while the CPU goes on with the next frame. */
static guint8 *
slot_staging (GstClPlan * self, GstClSlot * slot, GError ** error)
{
  cl_int status;

  if (slot->staging_host)
    return slot->staging_host;
  if (!slot->staging)
    slot->staging = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, self->info.size,
        "staging frame", error);
  if (!slot->staging)
    return NULL;
  slot->staging_host = clEnqueueMapBuffer (self->compute, slot->staging,
      CL_TRUE, CL_MAP_WRITE, 0, self->info.size, 0, NULL, NULL, &status);
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status, "clEnqueueMapBuffer (staging frame)");
    return NULL;
  }
  return slot->staging_host;
}

/* Copies the whole of @plane from host memory at @ref into @slot's pinned
 * staging buffer and points @ref there. */
static gboolean
stage_plane (GstClPlan * self, GstClSlot * slot, const GstClPlane * plane,
    GstClPlaneRef * ref, GstClTransferStats * stats, GError ** error)
{
  guint8 *staging = slot_staging (self, slot, error);
  GstClPlaneRef to = { NULL, 0, NULL, plane->row_bytes, FALSE, TRUE };

  if (!staging)
    return FALSE;
  to.host = staging + self->info.offset[plane->index];
  gst_cl_copy_host_plane (ref, &to, plane->row_bytes, plane->height, stats);
  *ref = to;
  return TRUE;
}

/* Phase 1 of enqueue_frame(), on the upload stream (and the download
 * stream for what no kernel touches): decides where the kernels read and
 * write @w's region, and enqueues the upload of its input, or the copy of a
 * plane no stage touches (skipped with @skip_untouched: it is shared
 * afterwards). */
static gboolean
prepare_plane (GstClPlan * self, GstClSlot * slot, guint k,
    GstClPlaneWork * w, GstClStream * up, GstClStream * down,
    cl_event * pending, guint n_pending, gboolean skip_untouched,
    GstClTransferStats * stats, GError ** error)
{
  const GstClPlane *plane = w->plane;
  const GstClRegion *r = &w->region;
  gsize row_bytes = (gsize) r->width * plane->xstep * plane->bytes;
  GstClPlaneRef dev_src = device_ref (plane, plane->src[k]);
  GstClPlaneRef dev_dst = device_ref (plane, plane->dst[k]);
  GstClPlaneRef whole_src = w->src, whole_dst = w->dst;

  w->filtered = plane->epsilon || plane->dct || plane->convolve;
  if (!w->filtered && skip_untouched)
    return TRUE;
  if (!w->filtered && whole_src.pinned && whole_dst.pinned) {
    /* From our pinned memory into our pinned memory: by DMA through the
     * device (finish_plane() downloads it), not by the CPU. */
    w->kdst = dev_src;
    return gst_cl_stream_copy (up, &whole_src, &dev_src, plane->row_bytes,
        plane->height, stats, error);
  }
  if (!w->filtered && !whole_dst.mem)
    /* Into other host memory: by a transfer from device memory, or by the
     * CPU now, once, after what still writes either frame (pinned memory
     * of a frame in flight). */
    return (whole_src.mem || cpu_waits (pending, n_pending, error)) &&
        gst_cl_stream_copy (up, &whole_src, &whole_dst, plane->row_bytes,
        plane->height, stats, error);
  if (!whole_src.mem && !whole_src.pinned && self->up != self->compute) {
    /* A frame in flight from system memory: the CPU copies the plane into
     * pinned memory now, and every later read is from there (DMA, while
     * the next frame is prepared), so that the input can go at once. */
    if (!stage_plane (self, slot, plane, &whole_src, stats, error))
      return FALSE;
    w->src = whole_src;
  }
  if (!w->filtered)
    return gst_cl_stream_copy (down, &w->src, &w->dst, plane->row_bytes,
        plane->height, stats, error);

  /* A crop rectangle: the rest of the plane is copied as it is, in
   * finish_plane() */
  w->around = r->width != plane->width || r->height != plane->height;
  w->whole_src = whole_src;
  w->whole_dst = whole_dst;
  w->src = region_ref (plane, &whole_src, r->x, r->y);
  w->dst = region_ref (plane, &whole_dst, r->x, r->y);
  w->kdst = kernel_reaches (self, plane, &w->dst) ? w->dst : dev_dst;
  w->ksrc = w->src;
  if (kernel_reaches (self, plane, &w->src))
    return TRUE;
  w->ksrc = dev_src;
  return gst_cl_stream_copy (up, &w->src, &dev_src, row_bytes, r->height, stats,
      error);
}

/* Phase 3 of enqueue_frame(), on the download stream after the kernels: the
 * filtered region into the output, where the kernels did not write it
 * there, and around a crop rectangle the rest of the plane as it is (by
 * the CPU where both are in host memory, after what still writes them:
 * @pending). */
static gboolean
finish_plane (GstClStream * down, const GstClPlaneWork * w,
    cl_event * pending, guint n_pending, GstClTransferStats * stats,
    GError ** error)
{
  const GstClPlane *plane = w->plane;

  /* the region, or an untouched plane going through the device whole
   * (prepare_plane()) */
  gsize width = w->filtered ? (gsize) w->region.width : (gsize) plane->width;
  gsize height = w->filtered ? (gsize) w->region.height : (gsize) plane->height;

  if (w->around && !((w->whole_src.mem || w->whole_dst.mem ||
              cpu_waits (pending, n_pending, error)) &&
          copy_around (down, plane, &w->region, &w->whole_src, &w->whole_dst,
              stats, error)))
    return FALSE;
  if (!w->kdst.mem || w->kdst.mem == w->dst.mem)
    return TRUE;
  return gst_cl_stream_copy (down, &w->kdst, &w->dst, width * plane->xstep *
      plane->bytes, height, stats, error);
}

/* The part of each plane the frame filters: all of it or, with a crop meta
 * on @inbuf, what lies under the crop rectangle (clipped to the frame): for
 * subsampled chroma, every chroma sample that covers one of its luma
 * samples. A rectangle that is empty once clipped is ignored: a malformed
 * meta must not turn the filter off. */
static void
find_regions (GstClPlan * self, GstBuffer * inbuf, GstClPlaneWork * work)
{
  const GstVideoInfo *info = &self->info;
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (inbuf);
  guint i, x = 0, y = 0, w = 0, h = 0;

  if (crop) {
    x = MIN (crop->x, (guint) GST_VIDEO_INFO_WIDTH (info));
    y = MIN (crop->y, (guint) GST_VIDEO_INFO_HEIGHT (info));
    w = MIN (crop->width, GST_VIDEO_INFO_WIDTH (info) - x);
    h = MIN (crop->height, GST_VIDEO_INFO_HEIGHT (info) - y);
    GST_LOG ("crop meta %u,%u %ux%u: filtering %u,%u %ux%u", crop->x,
        crop->y, crop->width, crop->height, x, y, w, h);
    if (w == 0 || h == 0)
      crop = NULL;
  }

  for (i = 0; i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];
    GstClRegion *r = &work[i].region;

    work[i].plane = plane;
    if (!crop) {
      *r = (GstClRegion) {
      0, 0, plane->width, plane->height};
    } else {
      r->x = x >> plane->wsub;
      r->y = y >> plane->hsub;
      r->width = ((x + w - 1) >> plane->wsub) - r->x + 1;
      r->height = ((y + h - 1) >> plane->hsub) - r->y + 1;
    }
  }
}

/* The single OpenCL memory of @buffer on the plan's context, or NULL. */
static GstMemory *
cl_memory_of (GstClPlan * self, GstBuffer * buffer)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buffer, 0);
  return gst_is_cl_memory (mem, self->context) ? mem : NULL;
}

/* Whether every memory of @buffer is OpenCL memory of the plan's context:
 * then commands may still write it (their events are the memories'
 * pending ones), and frames in flight hold it until read. */
static gboolean
in_cl_memory (GstClPlan * self, GstBuffer * buffer)
{
  guint i, n = gst_buffer_n_memory (buffer);

  for (i = 0; i < n; i++)
    if (!gst_is_cl_memory (gst_buffer_peek_memory (buffer, i), self->context))
      return FALSE;
  return n > 0;
}

/* Appends the pending events of @buffer's OpenCL memories to @events (new
 * references; at most @max in all, counted by @n). Those beyond @max (a
 * buffer of more memories than planes) are waited for here instead. */
static void
add_pending (GstClPlan * self, GstBuffer * buffer, cl_event * events,
    guint * n, guint max)
{
  guint i;

  for (i = 0; i < gst_buffer_n_memory (buffer); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    cl_event event;

    if (!gst_is_cl_memory (mem, self->context) ||
        !(event = gst_cl_memory_get_pending (mem)))
      continue;
    if (*n < max) {
      events[(*n)++] = event;
    } else {
      /* an error of its command shows in the frame's commands after it */
      clWaitForEvents (1, &event);
      clReleaseEvent (event);
    }
  }
}

/* The pending events of both frames' memories into @pending (up to
 * MAX_PENDING, new references); returns how many. */
static guint
frames_pending (GstClPlan * self, GstBuffer * inbuf, GstBuffer * outbuf,
    cl_event * pending)
{
  guint n = 0;

  add_pending (self, inbuf, pending, &n, MAX_PENDING / 2);
  add_pending (self, outbuf, pending, &n, MAX_PENDING);
  return n;
}

static void
release_events (cl_event * events, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    clReleaseEvent (events[i]);
}

/* Opens @inbuf for reading and @outbuf for writing. */
static gboolean
open_frames (GstClPlan * self, GstBuffer * inbuf, GstBuffer * outbuf,
    GstClFrame * in, GstClFrame * out, GError ** error)
{
  if (!gst_cl_frame_open (in, self->context, &self->info, inbuf,
          GST_MAP_READ, error))
    return FALSE;
  if (!gst_cl_frame_open (out, self->context, &self->info, outbuf,
          GST_MAP_WRITE, error)) {
    gst_cl_frame_close (in);
    return FALSE;
  }
  return TRUE;
}

/* Copies the planes in @mask from @inbuf into @outbuf and waits for the
 * copies: the way back when a share that was planned could not be made. */
static gboolean
copy_planes (GstClPlan * self, GstBuffer * inbuf, GstBuffer * outbuf,
    guint mask, GstClTransferStats * stats, GError ** error)
{
  cl_event pending[MAX_PENDING];
  GstClFrame in, out;
  gboolean ok;
  cl_int status;
  guint i, n;

  if (!open_frames (self, inbuf, outbuf, &in, &out, error))
    return FALSE;
  /* pinned memory is copied by the CPU, at once: after what writes it */
  n = frames_pending (self, inbuf, outbuf, pending);
  ok = cpu_waits (pending, n, error);
  release_events (pending, n);
  for (i = 0; ok && i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];

    if (mask & (1 << plane->index))
      ok = gst_cl_copy_plane_on (self->down, &in.planes[plane->index],
          &out.planes[plane->index], plane->row_bytes, plane->height, 0,
          NULL, NULL, stats, error);
  }
  status = clFinish (self->down);
  if (ok && status != CL_SUCCESS)
    ok = gst_cl_set_error (error, status, "clFinish (plane copy)");
  if (self->down != self->compute)
    clFinish (self->compute);
  gst_cl_frame_close (&out);
  gst_cl_frame_close (&in);
  return ok;
}

/* "VARIANT WxH" of @launch, or "none" where the stage does not run. */
static void
describe_launch (gchar * text, gsize size, gboolean runs,
    const GstClLaunch * launch)
{
  if (runs)
    g_snprintf (text, size, "%s %zux%zu",
        gst_cl_variant_to_string (launch->variant), launch->local[0],
        launch->local[1]);
  else
    g_strlcpy (text, "none", size);
}

/* Fills the rest of @frame from its transfers and the luma plane's
 * launches. */
static void
describe_frame (GstClPlan * self, GstClFrameStats * frame)
{
  const GstClPlane *luma = &self->planes[0];
  const GstClTransferStats *t = &frame->transfers;

  frame->memory_path = t->host_copy_bytes > 0 || t->pageable ? "copy" :
      gst_cl_context_is_host_unified (self->context) ? "host-ptr" : "pinned";
  describe_launch (frame->epsilon_launch, sizeof (frame->epsilon_launch),
      luma->epsilon, &luma->epsilon_launch);
  describe_launch (frame->conv_launch, sizeof (frame->conv_launch),
      luma->convolve, &luma->conv_launch);
  frame->auto_threshold = luma->dct ? self->auto_state.threshold : 0;
}

/* Flushes @queue where commands of @next are to wait for its events. */
static gboolean
flush_before (cl_command_queue queue, cl_command_queue next, GError ** error)
{
  cl_int status = queue == next ? CL_SUCCESS : clFlush (queue);

  return status == CL_SUCCESS || gst_cl_set_error (error, status, "clFlush");
}

/* Starts what the queues hold, without waiting. */
static gboolean
flush_queues (GstClPlan * self, GError ** error)
{
  cl_int status = clFlush (self->up);

  if (status == CL_SUCCESS)
    status = clFlush (self->compute);
  if (status == CL_SUCCESS)
    status = clFlush (self->down);
  return status == CL_SUCCESS || gst_cl_set_error (error, status, "clFlush");
}

/* Enqueues the frame: uploads, then kernels once they are done, then
 * downloads once those are; the output's memory gets the last event. Each
 * stream first waits for what the memories of both buffers still have in
 * flight (written by another element, or unmapped by the CPU). */
static gboolean
enqueue_frame (GstClPlan * self, GstClSlot * slot, guint k,
    GstClPlaneWork * work, GstBuffer * inbuf, GstBuffer * outbuf,
    gboolean skip_untouched, GstClTransferStats * stats, GError ** error)
{
  GstMemory *out_mem = cl_memory_of (self, outbuf);
  cl_event pending[MAX_PENDING];
  guint i, n = frames_pending (self, inbuf, outbuf, pending);
  GstClStream up, compute, down;
  gboolean ok = TRUE;

  gst_cl_stream_init (&up, self->up, pending, n);
  gst_cl_stream_init (&compute, self->compute, pending, n);
  gst_cl_stream_init (&down, self->down, pending, n);
  for (i = 0; ok && i < self->n_planes; i++)
    ok = prepare_plane (self, slot, k, &work[i], &up, &down, pending, n,
        skip_untouched, stats, error);
  /* what another queue waits for is flushed first (OpenCL's rule) */
  ok = ok && flush_before (self->up, self->compute, error);
  gst_cl_stream_follow (&compute, &up);
  for (i = 0; ok && i < self->n_planes; i++)
    ok = !work[i].filtered || run_stages (self, &compute, slot, &work[i],
        error);
  ok = ok && flush_before (self->compute, self->down, error);
  gst_cl_stream_follow (&down, &compute);
  for (i = 0; ok && i < self->n_planes; i++)
    ok = finish_plane (&down, &work[i], pending, n, stats, error);
  if (ok && self->down != self->compute) {
    ok = gst_cl_stream_join (&down, &slot->done, error);
    if (ok && out_mem)
      gst_cl_memory_set_pending (out_mem, slot->done);
    ok = ok && flush_queues (self, error);
  }
  gst_cl_stream_clear (&up);
  gst_cl_stream_clear (&compute);
  gst_cl_stream_clear (&down);
  release_events (pending, n);
  return ok;
}

/* Whether @inbuf is in OpenCL memory that the CPU reaches only through
 * map commands: device-resident, or mapped per use (not SVM, not pinned
 * memory mapped for good). */
static gboolean
input_on_device (GstClPlan * self, GstBuffer * inbuf)
{
  GstMemory *mem = cl_memory_of (self, inbuf);

  return mem && gst_cl_memory_needs_map (mem);
}

/* Whether untouched planes of @inbuf are better shared than copied:
 * always where the device works on host memory or @inbuf is in host memory
 * (system memory, or our pool's pinned memory); not from device memory on a
 * discrete GPU, where the device copies them (docs/memory.md).
 * GST_CL_SHARE_UNTOUCHED=always or never (read when the plan is made)
 * overrides this, to measure the other way. */
static gboolean
sharing_pays (GstClPlan * self, GstBuffer * inbuf)
{
  if (self->share_forced)
    return self->share_forced > 0;
  return gst_cl_context_is_host_unified (self->context) ||
      !input_on_device (self, inbuf);
}

gboolean
gst_cl_plan_process (GstClPlan * self, GstBuffer * inbuf, GstBuffer * outbuf,
    gboolean share_untouched, GstClFrameStats * frame, GError ** error)
{
  GstClPlaneWork work[GST_VIDEO_MAX_PLANES] = { {0,}, };
  guint k = self->next, i, untouched;
  GstClSlot *slot = &self->slots[k];
  GstClFrame in, out;
  gboolean ok, in_flight;

  memset (frame, 0, sizeof (*frame));
  /* The slot's previous frame must be done with its buffers; an error of
   * its commands, or of a map of an earlier frame's output, is this
   * frame's (those went out already). */
  if (!check_faults (self, error) ||
      !retire_slot (self, slot, &frame->device_ms, error)) {
    gst_cl_plan_drain (self, NULL, NULL);
    return FALSE;
  }
  /* The buffers first: one too small for the format is refused before any
   * program is built or tuned for it. */
  if (!open_frames (self, inbuf, outbuf, &in, &out, error))
    return FALSE;
  ok = alloc_planes (self, error);
  /* The tuner times on slot 0's buffers, which frames in flight may use. */
  if (ok && self->pending)
    ok = (self->depth == 1 || wait_in_flight (self, &frame->device_ms,
            error)) && apply_settings (self, error);

  untouched = gst_cl_plan_untouched_planes (self);
  /* Luma is never untouched here (the element would be in passthrough), so
   * the filtered plane is always in the output's own memory. Sharing pays
   * where the device works on host memory, or where the input is in host
   * memory (it would otherwise cross to the device and back); from device
   * memory on a discrete GPU, the device copies it instead (docs/memory.md). */
  share_untouched = ok && share_untouched && untouched != 0 &&
      !(untouched & 1) && sharing_pays (self, inbuf) &&
      gst_cl_buffer_pool_can_share_planes (outbuf, inbuf, &self->info,
      untouched);
  find_regions (self, inbuf, work);
  for (i = 0; i < self->n_planes; i++) {
    work[i].src = in.planes[self->planes[i].index];
    work[i].dst = out.planes[self->planes[i].index];
  }
  /* Frames in flight need the output's memory to carry the event (else
   * nothing would wait for it); anything else is waited for here. On a
   * discrete GPU every input can be: system memory is copied into pinned
   * staging, our pool's pinned memory goes by DMA from where it is, and
   * device memory (from another OpenCL element) is held until read, so
   * that a chain of elements waits only at the last map. Where the device
   * works on host memory (SVM, when asked for), only frames from our pool:
   * the kernels read a system-memory input in place, until they are
   * done. */
  in_flight = self->depth > 1 && cl_memory_of (self, outbuf) != NULL &&
      (!gst_cl_context_is_host_unified (self->context) ||
      cl_memory_of (self, inbuf));
  self->up = in_flight ? self->async_up : self->compute;
  self->down = in_flight ? self->async_down : self->compute;
  ok = ok && enqueue_frame (self, slot, k, work, inbuf, outbuf,
      share_untouched, &frame->transfers, error);
  /* Whoever maps the output and finds its data missing tells us. */
  if (ok && cl_memory_of (self, outbuf))
    gst_cl_memory_set_faults (cl_memory_of (self, outbuf), self->faults);
  if (ok && in_flight) {
    gst_cl_frame_close (&out);
    /* Input in OpenCL memory (pinned host memory included) is read by the
     * uploads: held until the slot comes round again. Input in system
     * memory was copied to the staging buffer: let go now. */
    if (in_cl_memory (self, inbuf)) {
      slot->in = in;
      slot->in_open = TRUE;
      slot->inbuf = gst_buffer_ref (inbuf);
    } else {
      gst_cl_frame_close (&in);
    }
    self->next = (k + 1) % self->depth;
  } else {
    /* The frames stay open until every command on them has completed. */
    ok = finish_queues (self, ok ? error : NULL) && ok;
    gst_cl_frame_close (&out);
    gst_cl_frame_close (&in);
    ok = retire_slot (self, slot, &frame->device_ms, ok ? error : NULL) && ok;
  }
  /* The untouched planes were skipped: share them, or copy them now if the
   * share cannot be made after all. */
  if (ok && share_untouched && !gst_cl_buffer_pool_share_planes (outbuf,
          inbuf, &self->info, untouched)) {
    GST_WARNING ("sharing untouched planes failed, copying");
    ok = copy_planes (self, inbuf, outbuf, untouched, &frame->transfers,
        error);
  }
  describe_frame (self, frame);
  return ok;
}
