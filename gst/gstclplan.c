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

/* The plan of a format: what is done to each plane of a frame.
 *
 *   per plane: epsilon or DCT (strength=auto) -> [intermediate] ->
 *     convolution; or nothing (the plane is copied, or shared)
 *
 * gst_cl_plan_set_settings() records what the properties ask for; the
 * first gst_cl_plan_process() after new settings builds the programs,
 * uploads the convolution coefficients and chooses each stage's launch
 * (through the tuner), so that later frames only set arguments and
 * enqueue. A frame runs in three phases: gstclplacement.c uploads what the
 * kernels cannot reach, the stages run here, gstclplacement.c downloads;
 * gstclinflight.c orders them and decides whether the frame is left in
 * flight. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclplan-private.h"
#include "gstclwaits-private.h"
#include "gstclplacement-private.h"
#include "gstcldct-private.h"
#include "gstclcodingmeta-private.h"
#include "gstclerror-private.h"
#include "gstclpacked-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cl_plan_debug

/* Which stages run on a plane. */
typedef struct
{
  gboolean epsilon;
  gboolean dct;                 /* strength=auto: DCT thresholding */
  gboolean convolve;
} GstClStages;

/* A plane's stages with the current settings; arguments but the planes'
 * places and sizes are set when the settings are applied. */
typedef struct
{
  GstClStages runs;
  GstClStage epsilon_stage, conv_stage;
  GstClLaunch epsilon_launch, conv_launch;
  cl_mem scratch;               /* luma only, made on first use: row sums of
                                 * the separable convolution, floats */
} GstClPlaneStages;

struct _GstClPlan
{
  GstClContext *context;
  GstClTuner *tuner;
  GstClPlacement *placement;
  GstClInFlight *in_flight;
  const GstClPlane *planes;     /* the placement's */
  guint n_planes;
  GstClPlaneStages stages[GST_VIDEO_MAX_PLANES];
  cl_mem coeffs;                /* float coefficients of the kernel */
  cl_mem row_factor;            /* and its factors, when separable */
  cl_mem column_factor;
  GstClConvKernel uploaded;     /* what coeffs holds (width 0: nothing) */

  GstClPlanSettings settings;
  gboolean pending;             /* settings not applied yet */
  gboolean applied;             /* some settings were */

  GstClDct *dct;                /* strength=auto */
  /* strength=auto's step held between frames, by plane index, where the
   * host decides (luma's is 0's, which the stats give; where the device
   * decides, they are its own: gst_cl_dct_auto()) */
  GstClDctAuto auto_state[GST_VIDEO_MAX_PLANES];
  /* what the coded stream says of the frame being filtered, where a
   * GstClCodingMeta on it tells (gstclcodingprobe-private.h) */
  GstClDctCoding coding;
  /* where that stream is H.264 and tells the frame's quantiser: luma's
   * threshold from it (gst_cl_dct_h264_threshold()), no estimate */
  gboolean told;
  guint told_threshold;
  /* whether that frame is interlaced (gst_cl_placement_in_fields()): its
   * luma's estimate looks at its macroblocks too (gstcldct-private.h) */
  gboolean interlaced;
  GstClPacked *packed;          /* packed 4:2:2 luma, interleaved chroma */
  /* waits of the streaming thread for held frames between frames
   * (gst_cl_plan_complete()), counted with the next frame's */
  gdouble held_waits[GST_CL_WAIT_N];
};

/* ---- Settings ------------------------------------------------------------ */

/* The stages @s runs on a plane (luma or not; @planar: one component a
 * plane): the one place that decides which planes a setting touches. The
 * same for every sample size: the DCT stage serves 8-bit and 10-bit planes
 * alike (gstcldct.c). It runs on chroma planes of their own too, each with
 * its own estimate, unless the epsilon filter was asked for there
 * (chroma-threshold), and on interleaved chroma (NV12, NV21, P010), one
 * component at a time; packed chroma (YUY2) is left as it is. @planar: the
 * plane's components can be worked on one at a time. */
static GstClStages
stages_of (const GstClPlanSettings * s, gboolean is_luma, gboolean planar)
{
  GstClStages runs;

  runs.dct = s->dct_stage && (is_luma || (planar && s->chroma_threshold == 0));
  runs.epsilon = (is_luma ? s->threshold : s->chroma_threshold) > 0 &&
      !runs.dct;
  runs.convolve = is_luma && s->have_kernel;
  return runs;
}

/* stages_of() for @plane. */
static GstClStages
stages_for (const GstClPlanSettings * s, const GstClPlane * plane)
{
  return stages_of (s, plane->is_luma, plane->xstep == 1 || plane->interleaved);
}

static gboolean
stages_run (GstClStages runs)
{
  return runs.epsilon || runs.dct || runs.convolve;
}

gboolean
gst_cl_plan_settings_are_identity (const GstClPlanSettings * settings)
{
  return !stages_run (stages_of (settings, TRUE, TRUE)) &&
      !stages_run (stages_of (settings, FALSE, TRUE));
}

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
      a->conv_variant == b->conv_variant && a->dct_stage == b->dct_stage;
}

/* Whether @b differs from @a only in values that are kernel arguments
 * (thresholds, divisor, bias), with the same stages running. */
static gboolean
only_arguments_change (const GstClPlanSettings * a, const GstClPlanSettings * b)
{
  return (a->threshold > 0) == (b->threshold > 0) &&
      (a->chroma_threshold > 0) == (b->chroma_threshold > 0) &&
      a->window_size == b->window_size && same_kernels (a, b) &&
      a->epsilon_variant == b->epsilon_variant &&
      a->conv_variant == b->conv_variant && a->dct_stage == b->dct_stage;
}

/* The settings' values that are kernel arguments, into plane @i's stages. */
static void
set_arguments (GstClPlan * self, guint i)
{
  const GstClPlanSettings *s = &self->settings;
  const GstClPlane *plane = &self->planes[i];
  GstClPlaneStages *ps = &self->stages[i];

  ps->epsilon_stage.threshold = gst_cl_plane_threshold (plane,
      plane->is_luma ? s->threshold : s->chroma_threshold);
  ps->conv_stage.conv.divisor =
      gst_cl_conv_kernel_effective_divisor (&s->kernel, s->divisor);
  ps->conv_stage.conv.bias = s->bias;
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
  for (i = 0; i < self->n_planes; i++)
    set_arguments (self, i);
}

/* The planes a stage touches with the current settings, as a bit mask of
 * plane indices. */
static guint
touched_planes (GstClPlan * self)
{
  guint i, mask = 0;

  for (i = 0; i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];

    if (stages_run (stages_for (&self->settings, plane)))
      mask |= 1 << plane->index;
  }
  return mask;
}

/* The planes that the DCT stage runs on, as a bit mask of plane indices:
 * worked on as frames even in interlaced frames, where the estimate finds
 * the quantizer step of MPEG-2 coded with frame DCT on the frame's grid.
 * Coded with field DCT, a frame shows it on neither grid (on its fields',
 * fewer of the values the estimate reads lie on a lattice than it needs):
 * there the estimate reads luma's macroblocks, each as frame or field
 * blocks (run_chain(), gstcldct-private.h; tests/quality/interlaced.py,
 * docs/quality.md). */
static guint
dct_planes (GstClPlan * self)
{
  guint i, mask = 0;

  for (i = 0; i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];

    if (stages_for (&self->settings, plane).dct)
      mask |= 1 << plane->index;
  }
  return mask;
}

guint
gst_cl_plan_untouched_planes (GstClPlan * self)
{
  return ~touched_planes (self) & ((1 << self->n_planes) - 1);
}

/* ---- The plan ------------------------------------------------------------ */

gboolean
gst_cl_plan_supports (const GstVideoInfo * info)
{
  GstClPlane plane;
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    if (!gst_cl_plane_describe (&plane, info, i))
      return FALSE;
  }
  return TRUE;
}

/* The device buffers of the convolution's coefficients and factors. */
static gboolean
create_coefficients (GstClPlan * self, GError ** error)
{
  const gsize side = sizeof (gfloat) * GST_CL_CONV_KERNEL_MAX_SIDE;

  self->coeffs = gst_cl_context_create_buffer (self->context,
      CL_MEM_READ_ONLY, side * GST_CL_CONV_KERNEL_MAX_SIDE,
      "kernel coefficients", error);
  if (self->coeffs)
    self->row_factor = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_ONLY, side, "kernel row factor", error);
  if (self->row_factor)
    self->column_factor = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_ONLY, side, "kernel column factor", error);
  return self->column_factor != NULL;
}

GstClPlan *
gst_cl_plan_new (GstClContext * context, GstClTuner * tuner,
    const GstVideoInfo * info, guint depth, GError ** error)
{
  GstClPlan *self = g_new0 (GstClPlan, 1);

  gst_cl_debug_init ();
  self->context = gst_object_ref (context);
  self->tuner = tuner;
  self->in_flight = gst_cl_in_flight_new (context, depth, error);
  if (self->in_flight)
    self->placement = gst_cl_placement_new (context, info,
        gst_cl_in_flight_get_depth (self->in_flight), error);
  if (!self->placement || !create_coefficients (self, error)) {
    gst_cl_plan_free (self);
    return NULL;
  }
  self->planes = gst_cl_placement_get_planes (self->placement, &self->n_planes);
  return self;
}

gboolean
gst_cl_plan_set_cuda_context (GstClPlan * self, GstContext * context)
{
  return gst_cl_placement_set_cuda_context (self->placement, context);
}

void
gst_cl_plan_set_hold_cuda (GstClPlan * self, gboolean hold)
{
  gst_cl_in_flight_set_hold_cuda (self->in_flight, hold);
}

gboolean
gst_cl_plan_holds (GstClPlan * self, GstBuffer * outbuf)
{
  return gst_cl_in_flight_holds (self->in_flight, outbuf);
}

void
gst_cl_plan_poll (GstClPlan * self)
{
  gst_cl_in_flight_poll (self->in_flight);
}

gboolean
gst_cl_plan_complete (GstClPlan * self, GstBuffer * outbuf, GError ** error)
{
  gboolean ok = gst_cl_in_flight_complete (self->in_flight, outbuf, error);
  gdouble waits[GST_CL_WAIT_N];
  guint i;

  /* the streaming thread's waits between frames: the next frame's */
  gst_cl_waits_take (waits);
  for (i = 0; i < GST_CL_WAIT_N; i++)
    self->held_waits[i] += waits[i];
  return ok;
}

guint
gst_cl_plan_get_depth (GstClPlan * self)
{
  return gst_cl_in_flight_get_depth (self->in_flight);
}

void
gst_cl_plan_set_faults (GstClPlan * self, GstClFaults * faults)
{
  gst_cl_in_flight_set_faults (self->in_flight, faults);
}

/* strength=auto's luma state into @luma: the host's, or the latest read
 * back from the device that has completed (all of them, where @wait). */
static void
luma_state (GstClPlan * self, gboolean wait, GstClDctAuto * luma)
{
  if (self->dct && gst_cl_dct_decides (self->dct))
    gst_cl_dct_last_state (self->dct, wait, luma);
  else
    *luma = self->auto_state[0];
}

GstClDctIdle
gst_cl_plan_auto_at_end (GstClPlan * self, guint * threshold)
{
  GstClDctAuto luma;

  *threshold = 0;
  if (!self->stages[0].runs.dct)
    return GST_CL_DCT_IDLE_NO;
  if (self->told) {
    *threshold = self->told_threshold;
    return GST_CL_DCT_IDLE_NO;
  }
  /* the reads back of frames left in flight in CUDA complete only once
   * waited for there, which a failure may have left undone */
  gst_cl_placement_sync_cuda (self->placement);
  luma_state (self, TRUE, &luma);
  *threshold = luma.threshold;
  return gst_cl_dct_auto_idle (&luma, TRUE);
}

gboolean
gst_cl_plan_drain (GstClPlan * self, gdouble * device_ms, GError ** error)
{
  gboolean ok = gst_cl_in_flight_drain (self->in_flight, device_ms, error);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (self->auto_state); i++)
    gst_cl_dct_auto_reset (&self->auto_state[i]);
  self->told = FALSE;
  ok = (!self->dct || gst_cl_dct_auto_reset_states (self->dct,
          ok ? error : NULL)) && ok;
  /* the states' CUDA twins taken anew from the zeroed ones */
  gst_cl_placement_forget_cuda (self->placement);
  return gst_cl_placement_release_staging (self->placement, ok ? error : NULL)
      && ok;
}

void
gst_cl_plan_free (GstClPlan * self)
{
  guint i;

  if (!self)
    return;
  /* Frames in flight read and write the placement's buffers: gone first. */
  g_clear_pointer (&self->in_flight, gst_cl_in_flight_free);
  g_clear_pointer (&self->placement, gst_cl_placement_free);
  for (i = 0; i < GST_VIDEO_MAX_PLANES; i++)
    gst_cl_context_release_buffer (self->context, self->stages[i].scratch);
  gst_cl_context_release_buffer (self->context, self->coeffs);
  gst_cl_context_release_buffer (self->context, self->row_factor);
  gst_cl_context_release_buffer (self->context, self->column_factor);
  g_clear_pointer (&self->dct, gst_cl_dct_free);
  g_clear_pointer (&self->packed, gst_cl_packed_free);
  gst_object_unref (self->context);
  g_free (self);
}

/* ---- Applying settings --------------------------------------------------- */

/* Writes @n floats from @values to @mem, blocking: a few hundred bytes,
 * only when the kernel changes. */
static gboolean
write_floats (GstClPlan * self, cl_mem mem, const gdouble * values, gint n,
    const gchar * what, GError ** error)
{
  gfloat floats[GST_CL_CONV_KERNEL_MAX_SIDE * GST_CL_CONV_KERNEL_MAX_SIDE];
  gint i;

  for (i = 0; i < n; i++)
    floats[i] = values[i];
  return gst_cl_context_write_buffer (self->context, mem, 0,
      sizeof (gfloat) * n, floats, what, error);
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

/* The convolution stage of plane @i on @where, its launch chosen. */
static gboolean
plan_convolution (GstClPlan * self, guint i, GstClKernels * kernels,
    GstClStagePlane where, gboolean separable, GError ** error)
{
  const GstClPlanSettings *s = &self->settings;
  const GstClPlane *plane = &self->planes[i];
  GstClPlaneStages *ps = &self->stages[i];

  if (separable && !ps->scratch &&
      !(ps->scratch = gst_cl_context_create_buffer (self->context,
              CL_MEM_READ_WRITE, sizeof (gfloat) * plane->width *
              plane->height, "separable convolution rows", error)))
    return FALSE;
  where.xstep = 1;
  ps->conv_stage = (GstClStage) {
    kernels, TRUE, where, 0, {
    self->coeffs, s->kernel.width, s->kernel.height, 0, 0, separable,
          self->row_factor, self->column_factor, ps->scratch}
  };
  set_arguments (self, i);
  if (!gst_cl_tuner_choose (self->tuner, &ps->conv_stage, s->conv_variant,
          &ps->conv_launch, error))
    return FALSE;
  /* Each frame says where the plane is (run_stage). */
  ps->conv_stage.plane.src = ps->conv_stage.plane.dst = NULL;
  return TRUE;
}

/* Sets up the stages of plane @i for the settings, and chooses their
 * launches on the plane's device buffers (the tuner may time them there). */
static gboolean
plan_plane (GstClPlan * self, guint i, GstClKernels * kernels,
    gboolean separable, GError ** error)
{
  const GstClPlanSettings *s = &self->settings;
  const GstClPlane *plane = &self->planes[i];
  GstClPlaneStages *ps = &self->stages[i];
  GstClPlaneRef src = gst_cl_placement_input (self->placement, i, 0,
      GST_CL_FRAME);
  GstClPlaneRef dst = gst_cl_placement_output (self->placement, i, 0,
      GST_CL_FRAME);
  /* packed luma: the stages see its samples alone (run_stages) */
  GstClStagePlane where = { &src, &dst, plane->width, plane->height,
    plane->packed ? 1 : plane->xstep, plane->shift
  };

  ps->runs = stages_for (s, plane);
  if (ps->runs.epsilon) {
    ps->epsilon_stage = (GstClStage) {
    kernels, FALSE, where, 0};
    set_arguments (self, i);
    if (!gst_cl_tuner_choose (self->tuner, &ps->epsilon_stage,
            s->epsilon_variant, &ps->epsilon_launch, error))
      return FALSE;
    ps->epsilon_stage.plane.src = ps->epsilon_stage.plane.dst = NULL;
  }
  return !ps->runs.convolve || plan_convolution (self, i, kernels, where,
      separable, error);
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
  if (stages_for (s, &self->planes[0]).dct && !self->dct &&
      !(self->dct = gst_cl_dct_new (self->context, self->planes[0].depth,
              self->planes[0].shift, error)))
    return FALSE;
  if ((self->planes[0].packed || (self->n_planes > 1 &&
              stages_for (s, &self->planes[1]).dct &&
              self->planes[1].interleaved)) && !self->packed &&
      !(self->packed = gst_cl_packed_new (self->context,
              self->planes[0].depth, error)))
    return FALSE;
  for (i = 0; i < self->n_planes; i++) {
    if (!plan_plane (self, i, kernels, separable, error))
      return FALSE;
  }
  self->pending = FALSE;
  self->applied = TRUE;
  /* buffers written or made anew: their CUDA twins follow */
  gst_cl_placement_forget_cuda (self->placement);
  return TRUE;
}

/* ---- One frame ----------------------------------------------------------- */

/* Makes the last of the kernels that @events got past its first @before
 * the latest command of @s (the kernels are enqueued on the context's
 * queue, which is @s's: gstclinflight.c). */
static void
stream_took (GstClStream * s, const GstClEvents * events, guint before)
{
  cl_event last = gst_cl_events_last (events);

  if (events->n_events == before)
    return;
  clRetainEvent (last);
  gst_cl_stream_enqueued (s, last);
}

/* Sets @here to @stage from @src to @dst over @region, what run_stage()
 * runs, and returns it. */
static const GstClStage *
stage_on (GstClStage * here, const GstClStage * stage,
    const GstClRegion * region, const GstClPlaneRef * src,
    const GstClPlaneRef * dst)
{
  *here = *stage;
  here->plane.src = src;
  here->plane.dst = dst;
  here->plane.width = region->width;
  here->plane.height = region->height;
  return here;
}

/* Runs @stage (placed by stage_on()) with @launch on @q's kernel stream;
 * the kernels' events go to @q's events, for their times. */
static gboolean
run_stage (GstClFrameQueues * q, const GstClStage * stage,
    const GstClLaunch * launch, GError ** error)
{
  GstClStream *s = &q->compute;
  GstClEvents *events = q->events;
  const guint before = events->n_events;
  const GstClAfter after = { s->n_wait, s->wait, events, s->cuda };

  if (!gst_cl_stage_run (stage, launch, &after, error))
    return FALSE;
  stream_took (s, events, before);
  return TRUE;
}

/* The parameters of strength=auto's estimate on luma or chroma. */
static void
auto_params (GstClPlan * self, gboolean is_luma, GstClDctAutoParams * params)
{
  if (is_luma)
    gst_cl_dct_auto_params_init (params);
  else
    gst_cl_dct_auto_chroma_params_init (params,
        self->coding.picture != GST_CL_DCT_PICTURE_UNKNOWN);
}

/* strength=auto on @on, a region of plane @index, with the estimate's
 * state @state, on @q's kernel stream, decided on the device: nothing
 * waited for; luma's state is read back for the stats once the frame's
 * decision is made. */
static gboolean
run_auto_on_device (GstClPlan * self, GstClFrameQueues * q,
    const GstClDctPlane * on, guint index, guint state, GError ** error)
{
  GstClStream *s = &q->compute;
  GstClEvents *events = q->events;
  const guint before = events->n_events;
  const GstClAfter after = { s->n_wait, s->wait, events, s->cuda };
  GstClDctAutoParams params;

  auto_params (self, self->planes[index].is_luma, &params);
  if (!gst_cl_dct_auto (self->dct, on, state, &params, &self->coding,
          GST_CL_DCT_MAX_PASSES, &after, error))
    return FALSE;
  stream_took (s, events, before);
  return !self->planes[index].is_luma ||
      gst_cl_dct_read_state (self->dct, state, &after, error);
}

/* The DCT stage on @on, a region of plane @index, at @word (a threshold,
 * gst_cl_dct_auto_stage_word()), on @q's kernel stream after what it has
 * taken last (the histogram, where one ran): a copy at 0, but on a
 * component of interleaved chroma, which the stage copies at 0. */
static gboolean
run_threshold (GstClPlan * self, GstClFrameQueues * q,
    const GstClDctPlane * on, guint index, guint word, GError ** error)
{
  GstClStream *s = &q->compute;
  GstClEvents *events = q->events;
  const guint before = events->n_events;
  const GstClAfter after = { s->n_wait, s->wait, events, s->cuda };
  GstClTransferStats ignored = { 0, };
  const GstClPlaneCopy copy = { on->src, on->dst,
    (gsize) on->width * self->planes[index].bytes, on->height
  };

  if (word == 0 && on->xstep <= 1)
    return gst_cl_stream_copy (s, &copy, &ignored, error);
  if (!gst_cl_dct_threshold (self->dct, on, word, GST_CL_DCT_MAX_PASSES,
          &after, error))
    return FALSE;
  stream_took (s, events, before);
  return TRUE;
}

/* strength=auto on @on, a region of plane @index (of one of its components
 * alone), on @q's kernel stream, with the estimate's state @state (the
 * component's: 0 luma, 1 U, 2 V): the quantizer step read off the frame's
 * DCTs by the estimate (chroma's holds less:
 * gst_cl_dct_auto_chroma_params_init()), the
 * DCT thresholding at the strength it gives, or a copy where the frame
 * shows no coding (gstcldct.c). Decided on the device where it can
 * (gst_cl_dct_decides()); on the host otherwise, where the histogram waits
 * for what the stream waits for on the device and the CPU then waits for
 * its counts, so that what follows it need not wait again. */
static gboolean
run_auto (GstClPlan * self, GstClFrameQueues * q, const GstClDctPlane * on,
    guint index, guint state, GError ** error)
{
  const GstClPlane *plane = &self->planes[index];
  GstClDctAutoParams params;
  GstClStream *s = &q->compute;
  GstClEvents *events = q->events;
  guint32 hist[GST_CL_DCT_HIST_SIZE], mb_hist[GST_CL_DCT_HIST_SIZE];
  guint32 *mb = on->interlaced ? mb_hist : NULL;
  guint threshold, word, before = events->n_events;
  const GstClAfter after = { s->n_wait, s->wait, events, s->cuda };

  if (plane->is_luma && self->told) {
    GST_LOG ("strength=auto: DCT threshold %u on plane %u from the stream's "
        "quantiser", self->told_threshold, index);
    return run_threshold (self, q, on, index, self->told_threshold, error);
  }
  if (gst_cl_dct_decides (self->dct))
    return run_auto_on_device (self, q, on, index, state, error);
  if (!gst_cl_dct_histogram (self->dct, on, &after, hist, mb, error))
    return FALSE;
  stream_took (s, events, before);
  auto_params (self, plane->is_luma, &params);
  threshold = gst_cl_dct_auto_update_interlaced (&self->auto_state[state],
      hist, mb, &self->coding, &params);
  word = gst_cl_dct_auto_stage_word (&self->auto_state[state], threshold,
      on->interlaced);
  GST_LOG ("strength=auto: DCT threshold %u on plane %u (component %u)%s",
      threshold, index, state, (word & GST_CL_DCT_IN_FIELDS) ?
      ", on each field" : "");
  return run_threshold (self, q, on, index, word, error);
}

/* Runs the stages of @w's plane on its region (of the plane, or of one
 * field) from @src to @dst, through the plane's intermediate buffer when
 * two run. */
static gboolean
run_chain (GstClPlan * self, GstClFrameQueues * q, const GstClPlaneWork * w,
    const GstClPlaneRef * src, const GstClPlaneRef * dst, GError ** error)
{
  const GstClPlaneStages *ps = &self->stages[w->index];
  GstClPlaneRef tmp = gst_cl_placement_intermediate (self->placement,
      w->index, w->field);
  GstClStage here;

  if (ps->runs.epsilon || ps->runs.dct) {
    const GstClPlaneRef *out = ps->runs.convolve ? &tmp : dst;
    const GstClDctPlane on = { src, out, w->region.width, w->region.height,
      self->interlaced && self->planes[w->index].is_luma
    };

    if (ps->runs.dct ? !run_auto (self, q, &on, w->index, w->index, error) :
        !run_stage (q, stage_on (&here, &ps->epsilon_stage, &w->region,
                src, out), &ps->epsilon_launch, error))
      return FALSE;
    src = out;
  }
  return !ps->runs.convolve || run_stage (q, stage_on (&here,
          &ps->conv_stage, &w->region, src, dst), &ps->conv_launch, error);
}

/* Unpacks @region's luma (@dst NULL), or packs it back into @dst (@span
 * bytes a row), on @q's kernel stream. */
static gboolean
run_packed (GstClPlan * self, GstClFrameQueues * q,
    const GstClPackedRegion * region, const GstClPlaneRef * dst, gsize span,
    GError ** error)
{
  GstClStream *s = &q->compute;
  const guint before = q->events->n_events;
  const GstClAfter after = { s->n_wait, s->wait, q->events, s->cuda };

  if (!(dst ? gst_cl_packed_pack (self->packed, region, dst, span, &after,
              error) : gst_cl_packed_unpack (self->packed, region, &after,
              error)))
    return FALSE;
  stream_took (s, q->events, before);
  return TRUE;
}

/* strength=auto on each component of @w's interleaved chroma plane (NV12,
 * NV21, P010) alone, with its own estimate, where the DCT kernels read it in
 * place (gst_cl_dct_reads_interleaved()): from the kernel source into the
 * kernel destination, each component's samples two apart, the other's
 * samples left to its own pass. Without the launches that unpack and pack
 * each component, half of the chroma's on a GPU; and where the device
 * decides, both components in the same histogram and stage launches
 * (their states are one after the other; a decision a launch). */
static gboolean
run_interleaved_in_place (GstClPlan * self, GstClFrameQueues * q,
    const GstClPlaneWork * w, GError ** error)
{
  const gint *offset = w->plane.chroma_offset;
  const guint *comp = w->plane.chroma_comp;
  GstClPlaneRef src = w->ksrc, dst = w->kdst;
  GstClDctPlane on = { &src, &dst, w->region.width, w->region.height, FALSE,
    2, 2, offset[1] - offset[0]
  };
  guint i;

  src.offset += offset[0];
  dst.offset += offset[0];
  if (gst_cl_dct_decides (self->dct) && comp[1] == comp[0] + 1)
    return run_auto (self, q, &on, w->index, comp[0], error);
  on.components = 1;
  for (i = 0; i < 2; i++) {
    src.offset = w->ksrc.offset + offset[i];
    dst.offset = w->kdst.offset + offset[i];
    if (!run_auto (self, q, &on, w->index, comp[i], error))
      return FALSE;
  }
  return TRUE;
}

/* strength=auto on each component of @w's interleaved chroma plane (NV12,
 * NV21, P010) alone, with its own estimate: unpacked, the stage into the
 * intermediate buffer, packed into the kernel destination with the other
 * component as it is there (the source's for the first, the result for the
 * second). */
static gboolean
run_interleaved (GstClPlan * self, GstClFrameQueues * q,
    const GstClPlaneWork * w, GError ** error)
{
  const GstClPlaneRef alone = gst_cl_placement_unpacked (self->placement,
      w->index, w->field);
  const GstClPlaneRef result = gst_cl_placement_intermediate (self->placement,
      w->index, w->field);
  const gsize span = gst_cl_plane_span (&w->plane, w->region.x,
      w->region.width);
  const GstClDctPlane on = { &alone, &result, w->region.width,
    w->region.height
  };
  GstClPackedRegion region;
  guint i;

  region.width = w->region.width;
  region.height = w->region.height;
  for (i = 0; i < 2; i++) {
    region.packed = &w->ksrc;
    region.luma = &alone;
    region.component = w->plane.chroma_offset[i] / w->plane.bytes;
    if (!run_packed (self, q, &region, NULL, 0, error) ||
        !run_auto (self, q, &on, w->index, w->plane.chroma_comp[i], error))
      return FALSE;
    region.packed = i == 0 ? &w->ksrc : &w->kdst;
    region.luma = &result;
    if (!run_packed (self, q, &region, &w->kdst, span, error))
      return FALSE;
  }
  return TRUE;
}

/* The stages of @w's plane from its kernel source to its kernel
 * destination; packed luma is unpacked first, the stages run on its samples
 * alone (into the unpacked buffer again where two run, else into the
 * intermediate one), and it is packed back with the source's chroma. */
static gboolean
run_stages (GstClPlan * self, GstClFrameQueues * q, const GstClPlaneWork * w,
    GError ** error)
{
  const GstClPlaneStages *ps = &self->stages[w->index];
  GstClPlaneRef luma, result;
  GstClPackedRegion region;

  if (w->plane.interleaved && ps->runs.dct)
    return gst_cl_dct_reads_interleaved (self->dct) ?
        run_interleaved_in_place (self, q, w, error) :
        run_interleaved (self, q, w, error);
  if (!w->plane.packed)
    return run_chain (self, q, w, &w->ksrc, &w->kdst, error);
  luma = gst_cl_placement_unpacked (self->placement, w->index, w->field);
  result = (ps->runs.epsilon || ps->runs.dct) && ps->runs.convolve ? luma :
      gst_cl_placement_intermediate (self->placement, w->index, w->field);
  region.packed = &w->ksrc;
  region.luma = &luma;
  region.width = w->region.width;
  region.height = w->region.height;
  region.component = w->plane.component;
  if (!run_packed (self, q, &region, NULL, 0, error) ||
      !run_chain (self, q, w, &luma, &result, error))
    return FALSE;
  region.luma = &result;
  return run_packed (self, q, &region, &w->kdst, gst_cl_plane_span (&w->plane,
          w->region.x, w->region.width), error);
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
  const GstClPlaneStages *luma = &self->stages[0];
  GstClDctAuto state;

  frame->memory_path = gst_cl_placement_memory_path (self->placement,
      &frame->transfers);
  describe_launch (frame->epsilon_launch, sizeof (frame->epsilon_launch),
      luma->runs.epsilon, &luma->epsilon_launch);
  describe_launch (frame->conv_launch, sizeof (frame->conv_launch),
      luma->runs.convolve, &luma->conv_launch);
  /* where the device decides, of the last frame whose decision is read
   * back (the frame's own where it was waited for) */
  if (!luma->runs.dct)
    return;
  if (self->told) {
    frame->auto_threshold = self->told_threshold;
    frame->auto_idle = GST_CL_DCT_IDLE_NO;
    return;
  }
  luma_state (self, FALSE, &state);
  frame->auto_threshold = state.threshold;
  frame->auto_idle = gst_cl_dct_auto_idle (&state, FALSE);
}

/* Enqueues the frame on @q: uploads, then the stages once they are done,
 * then downloads once those are. */
static gboolean
enqueue_frame (GstClPlan * self, GstClFrameQueues * q, const GstClFrame * in,
    const GstClFrame * out, const GstClPlaneSelection * planes,
    GstClTransferStats * stats, GError ** error)
{
  GstClFrameWork frame = {.in = in,.out = out,.planes = *planes };
  guint i;

  if (!gst_cl_placement_upload (self->placement, q, &frame, stats, error) ||
      !gst_cl_in_flight_to_kernels (q, error))
    return FALSE;
  for (i = 0; i < frame.n_work; i++) {
    if (frame.work[i].filtered && !run_stages (self, q, &frame.work[i], error))
      return FALSE;
  }
  return gst_cl_in_flight_to_downloads (q, error) &&
      gst_cl_placement_download (self->placement, q, &frame, stats, error);
}

/* What the frame needs before it is enqueued: the planes' device buffers,
 * and the pending settings applied (after the frames in flight: the tuner
 * times on slot 0's buffers, which they may use). */
static gboolean
prepare (GstClPlan * self, GstClFrameStats * frame, GError ** error)
{
  if (!gst_cl_placement_alloc (self->placement, error))
    return FALSE;
  return !self->pending ||
      (gst_cl_in_flight_drain (self->in_flight, &frame->device_ms, error) &&
      apply_settings (self, error));
}

/* What the coded stream says of @inbuf's frame (strength=auto's hold), from
 * its GstClCodingMeta: nothing known where it has none. */
static void
take_coding (GstClPlan * self, GstBuffer * inbuf)
{
  GstClCodingMeta *meta = gst_buffer_get_cl_coding_meta (inbuf);

  self->coding.picture = GST_CL_DCT_PICTURE_UNKNOWN;
  self->coding.quantiser = 0;
  self->told = FALSE;
  if (meta == NULL)
    return;
  switch (meta->info.picture_type) {
    case GST_CL_PICTURE_I:
      self->coding.picture = GST_CL_DCT_PICTURE_INTRA;
      break;
    case GST_CL_PICTURE_P:
    case GST_CL_PICTURE_S:
      self->coding.picture = GST_CL_DCT_PICTURE_P;
      break;
    case GST_CL_PICTURE_B:
      self->coding.picture = GST_CL_DCT_PICTURE_B;
      break;
    default:
      break;
  }
  self->coding.quantiser = meta->info.quantiser;
  if (meta->info.codec == GST_CL_CODEC_H264 &&
      self->coding.picture != GST_CL_DCT_PICTURE_UNKNOWN) {
    self->told = TRUE;
    self->told_threshold = gst_cl_dct_h264_threshold (self->coding.picture,
        meta->info.quantiser);
    /* chroma's estimate takes ratios of quantisers: H.264's step, not its
     * QP, whose step doubles every 6 */
    self->coding.quantiser = gst_cl_dct_h264_step (meta->info.quantiser);
  }
  GST_LOG ("coded picture %s, quantiser %.2f",
      gst_cl_picture_type_name (meta->info.picture_type), meta->info.quantiser);
}

gboolean
gst_cl_plan_process (GstClPlan * self, GstBuffer * inbuf, GstBuffer * outbuf,
    gboolean share_untouched, GstClFrameStats * frame, GError ** error)
{
  GstClFrameQueues q;
  GstClFrame in, out;
  GstClPlaneSelection planes;
  guint slot, i;
  gboolean ok;

  memset (frame, 0, sizeof (*frame));
  gst_cl_waits_take (NULL);
  take_coding (self, inbuf);
  if (!gst_cl_in_flight_begin (self->in_flight, &slot, &frame->device_ms,
          error))
    return FALSE;
  /* The buffers first: one too small for the format is refused before any
   * program is built or tuned for it. */
  if (!gst_cl_placement_open (self->placement, slot, inbuf, outbuf, &in, &out,
          error))
    return FALSE;
  frame->in_fields = gst_cl_placement_in_fields (self->placement, &in);
  self->interlaced = frame->in_fields;
  ok = prepare (self, frame, error);
  gst_cl_placement_select (self->placement, &in, outbuf, touched_planes (self),
      dct_planes (self), ok && share_untouched, &planes);
  gst_cl_in_flight_queues (self->in_flight, &in, &out, &q);
  /* frames in system memory copied to or from the device, by the CPU
   * through the executor's pinned memory where CUDA does not hold theirs
   * pinned */
  if (q.cuda) {
    frame->transfers.upload_bytes += in.exec_host_size;
    frame->transfers.download_bytes += out.exec_host_size;
    frame->transfers.host_copy_bytes +=
        (in.exec_host_pinned ? 0 : in.exec_host_size) +
        (out.exec_host_pinned ? 0 : out.exec_host_size);
  }
  ok = ok && gst_cl_in_flight_acquire (&q, &in, &out, error) &&
      enqueue_frame (self, &q, &in, &out, &planes, &frame->transfers, error);
  ok = gst_cl_in_flight_end (self->in_flight, &q, ok, &in, &out,
      &frame->device_ms, ok ? error : NULL) && ok;
  /* CUDA memory copied in on the device (enqueued at open), and out after
   * the end (or, for outputs held in flight, when an earlier frame's slot
   * retired) */
  frame->transfers.cuda_copy_bytes += in.cuda_bytes + out.cuda_bytes +
      gst_cl_in_flight_take_cuda_bytes (self->in_flight);
  frame->transfers.in_cuda = q.cuda != NULL && !in.exec_host;
  /* The untouched planes to share were skipped: share them, or copy them
   * now. */
  ok = ok && gst_cl_placement_share (self->placement, &q, inbuf, outbuf,
      &planes, &frame->transfers, error);
  describe_frame (self, frame);
  gst_cl_waits_take (frame->host_wait_ms);
  for (i = 0; i < GST_CL_WAIT_N; i++) {
    frame->host_wait_ms[i] += self->held_waits[i];
    self->held_waits[i] = 0;
  }
  return ok;
}
