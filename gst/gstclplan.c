/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The plan of a format: what happens to each plane of a frame.
 *
 *   input buffer -> GstClFrame -> per plane: region (crop) ->
 *     [upload] -> epsilon -> [tmp] -> convolution -> [download] -> output
 *   planes no stage touches: copied on the device, or shared (pool)
 *
 * gst_cl_plan_new() describes the planes and makes their device buffers;
 * gst_cl_plan_set_settings() records what the properties ask for; the first
 * gst_cl_plan_process() after that builds the programs, uploads the
 * convolution coefficients and chooses each stage's launch (through the
 * tuner), so that later frames only set arguments and enqueue. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclplan-private.h"
#include "gstclbufferpool-private.h"
#include "gstclerror-private.h"

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
  cl_mem src;                   /* the uploaded input */
  cl_mem dst;                   /* the filtered output */
  cl_mem tmp;                   /* luma only: epsilon result, convolution input */
  cl_mem scratch;               /* luma only, made on first use: row sums of
                                 * the separable convolution, floats */
  /* What runs, with the current settings; arguments but the planes' places
   * and sizes are set when the settings are applied. */
  gboolean epsilon, convolve;
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
  cl_mem coeffs;                /* float coefficients of the kernel */
  cl_mem row_factor;            /* and its factors, when separable */
  cl_mem column_factor;
  GstClConvKernel uploaded;     /* what coeffs holds (width 0: nothing) */

  GstClPlanSettings settings;
  gboolean pending;             /* settings not applied yet */
  GstClEvents events;           /* the frame's kernels, for their times */
};

gboolean
gst_cl_plan_settings_are_identity (const GstClPlanSettings * settings)
{
  return settings->threshold == 0 && settings->chroma_threshold == 0 &&
      !settings->have_kernel;
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

static gboolean
alloc_plane (GstClPlan * self, GstClPlane * plane, GError ** error)
{
  gsize size = (gsize) plane->row_bytes * plane->height;
  static const guint8 zero = 0;
  cl_int status;

  plane->src = gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
      size, "input plane", error);
  if (!plane->src)
    return FALSE;
  plane->dst = gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
      size, "output plane", error);
  if (!plane->dst)
    return FALSE;
  if (plane->is_luma) {
    plane->tmp = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_WRITE, size, "intermediate plane", error);
    if (!plane->tmp)
      return FALSE;
  }
  /* The tuner times kernels on the input plane before any frame: give it
   * defined samples, not whatever the allocation held (valgrind flags the
   * kernels' reads, and NaNs or denormals would skew the timings). */
  status = clEnqueueFillBuffer (gst_cl_context_get_queue (self->context),
      plane->src, &zero, 1, 0, size, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clEnqueueFillBuffer (input "
        "plane)");
  return TRUE;
}

GstClPlan *
gst_cl_plan_new (GstClContext * context, GstClTuner * tuner,
    const GstVideoInfo * info, GError ** error)
{
  const gsize side = sizeof (gfloat) * GST_CL_CONV_KERNEL_MAX_SIDE;
  GstClPlan *self = g_new0 (GstClPlan, 1);
  guint i;

  ensure_debug_category ();
  self->context = gst_object_ref (context);
  self->tuner = tuner;
  self->info = *info;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    if (!describe_plane (info, i, &self->planes[i]))
      goto unsupported;
    self->n_planes = i + 1;
    if (!alloc_plane (self, &self->planes[i], error))
      goto failed;
  }
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

void
gst_cl_plan_free (GstClPlan * self)
{
  guint i;

  if (!self)
    return;
  for (i = 0; i < self->n_planes; i++) {
    GstClPlane *plane = &self->planes[i];

    g_clear_pointer (&plane->src, clReleaseMemObject);
    g_clear_pointer (&plane->dst, clReleaseMemObject);
    g_clear_pointer (&plane->tmp, clReleaseMemObject);
    g_clear_pointer (&plane->scratch, clReleaseMemObject);
  }
  g_clear_pointer (&self->coeffs, clReleaseMemObject);
  g_clear_pointer (&self->row_factor, clReleaseMemObject);
  g_clear_pointer (&self->column_factor, clReleaseMemObject);
  gst_object_unref (self->context);
  g_free (self);
}

/* ---- Applying settings --------------------------------------------------- */

void
gst_cl_plan_set_settings (GstClPlan * self, const GstClPlanSettings * settings)
{
  self->settings = *settings;
  self->pending = TRUE;
}

guint
gst_cl_plan_untouched_planes (GstClPlan * self)
{
  guint i, mask = 0;

  for (i = 0; i < self->n_planes; i++) {
    const GstClPlanSettings *s = &self->settings;

    if (self->planes[i].is_luma ? s->threshold == 0 && !s->have_kernel :
        s->chroma_threshold == 0)
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
  if (memcmp (&self->uploaded, kernel, sizeof (*kernel)) == 0)
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
  GstClPlaneRef src = device_ref (plane, plane->src);
  GstClPlaneRef dst = device_ref (plane, plane->dst);
  GstClStagePlane where = { &src, &dst, plane->width, plane->height,
    plane->xstep, plane->shift
  };

  plane->epsilon = threshold > 0;
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
  for (i = 0; i < self->n_planes; i++) {
    if (!plan_plane (self, &self->planes[i], kernels, separable, error))
      return FALSE;
  }
  self->pending = FALSE;
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

/* Whether kernels may work on @ref where it is: 16-bit samples need even
 * offsets and pitches (a frame whose video meta says otherwise goes through
 * the plane's device buffers). */
static gboolean
kernel_aligned (const GstClPlane * plane, const GstClPlaneRef * ref)
{
  return plane->bytes == 1 || ((ref->offset | (gsize) ref->pitch) & 1) == 0;
}

/* Runs @stage with @launch from @src to @dst over @region. */
static gboolean
run_stage (GstClPlan * self, const GstClStage * stage,
    const GstClLaunch * launch, const GstClRegion * region,
    const GstClPlaneRef * src, const GstClPlaneRef * dst, GError ** error)
{
  GstClStage here = *stage;

  here.plane.src = src;
  here.plane.dst = dst;
  here.plane.width = region->width;
  here.plane.height = region->height;
  return gst_cl_stage_run (&here, launch, &self->events, error);
}

/* Runs the plane's stages from @src to @dst, through its intermediate
 * buffer when both run. */
static gboolean
run_stages (GstClPlan * self, const GstClPlane * plane,
    const GstClRegion * region, const GstClPlaneRef * src,
    const GstClPlaneRef * dst, GError ** error)
{
  GstClPlaneRef tmp = device_ref (plane, plane->tmp);

  if (plane->epsilon) {
    const GstClPlaneRef *out = plane->convolve ? &tmp : dst;

    if (!run_stage (self, &plane->epsilon_stage, &plane->epsilon_launch,
            region, src, out, error))
      return FALSE;
    src = out;
  }
  return !plane->convolve || run_stage (self, &plane->conv_stage,
      &plane->conv_launch, region, src, dst, error);
}

/* Copies the samples of @plane around @region from @src to @dst: the rows
 * above and below it, and the parts of its rows left and right of it. */
static gboolean
copy_around (GstClPlan * self, const GstClPlane * plane,
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
    if (!gst_cl_copy_plane (self->context, &from, &to, (gsize) part->width *
            plane->xstep * plane->bytes, part->height, stats, error))
      return FALSE;
  }
  return TRUE;
}

/* Filters @region of one plane of @in into @out, and copies the rest of the
 * plane. Where the device shares host memory, kernels read and write the
 * frames' buffers in place; otherwise the plane goes through device
 * buffers, with DMA from and to pinned memory when the frames are OpenCL
 * buffers. A plane that no stage touches is copied by OpenCL (by the CPU
 * only when neither frame is an OpenCL buffer), or skipped if @skip_untouched:
 * it is shared afterwards. */
static gboolean
filter_plane (GstClPlan * self, const GstClPlane * plane,
    const GstClRegion * region, const GstClFrame * in, const GstClFrame * out,
    gboolean skip_untouched, GstClTransferStats * stats, GError ** error)
{
  gboolean in_place = gst_cl_context_is_host_unified (self->context);
  const GstClPlaneRef *src = &in->planes[plane->index];
  const GstClPlaneRef *dst = &out->planes[plane->index];
  GstClPlaneRef dev_src = device_ref (plane, plane->src);
  GstClPlaneRef dev_dst = device_ref (plane, plane->dst);
  GstClPlaneRef src_region, dst_region;
  gsize row_bytes = (gsize) region->width * plane->xstep * plane->bytes;

  if (!plane->epsilon && !plane->convolve)
    return skip_untouched || gst_cl_copy_plane (self->context, src, dst,
        plane->row_bytes, plane->height, stats, error);

  /* A crop rectangle: the rest of the plane is copied as it is. */
  if ((region->width != plane->width || region->height != plane->height) &&
      !copy_around (self, plane, region, src, dst, stats, error))
    return FALSE;
  src_region = region_ref (plane, src, region->x, region->y);
  dst_region = region_ref (plane, dst, region->x, region->y);
  src = &src_region;
  dst = &dst_region;

  /* Device-resident frames (memory:OpenCLBuffer) are used where they are. */
  if (!src->mem || !(in_place || src->device_side) ||
      !kernel_aligned (plane, src)) {
    if (!gst_cl_copy_plane (self->context, src, &dev_src, row_bytes,
            region->height, stats, error))
      return FALSE;
    src = &dev_src;
  }
  if (dst->mem && (in_place || dst->device_side) &&
      kernel_aligned (plane, dst))
    return run_stages (self, plane, region, src, dst, error);

  return run_stages (self, plane, region, src, &dev_dst, error) &&
      gst_cl_copy_plane (self->context, &dev_dst, dst, row_bytes,
      region->height, stats, error);
}

/* The part of each plane the frame filters: all of it or, with a crop meta
 * on @inbuf, what lies under the crop rectangle (clipped to the frame): for
 * subsampled chroma, every chroma sample that covers one of its luma
 * samples. A rectangle that is empty once clipped is ignored: a malformed
 * meta must not turn the filter off. */
static void
find_regions (GstClPlan * self, GstBuffer * inbuf, GstClRegion * regions)
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
    GstClRegion *r = &regions[i];

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

/* Waits for every command enqueued so far. */
static gboolean
finish (GstClPlan * self, const gchar * what, GError ** error)
{
  cl_int status = clFinish (gst_cl_context_get_queue (self->context));

  return status == CL_SUCCESS || gst_cl_set_error (error, status, "%s", what);
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
  GstClFrame in, out;
  gboolean ok;
  guint i;

  if (!open_frames (self, inbuf, outbuf, &in, &out, error))
    return FALSE;
  ok = TRUE;
  for (i = 0; ok && i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];

    if (mask & (1 << plane->index))
      ok = gst_cl_copy_plane (self->context, &in.planes[plane->index],
          &out.planes[plane->index], plane->row_bytes, plane->height, stats,
          error);
  }
  ok = finish (self, "clFinish (plane copy)", ok ? error : NULL) && ok;
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

/* Fills @frame from the frame's transfers and the luma plane's launches. */
static void
describe_frame (GstClPlan * self, GstClFrameStats * frame)
{
  const GstClPlane *luma = &self->planes[0];
  const GstClTransferStats *t = &frame->transfers;

  frame->device_ms = gst_cl_events_take_ms (&self->events);
  frame->memory_path = t->host_copy_bytes > 0 || t->pageable ? "copy" :
      gst_cl_context_is_host_unified (self->context) ? "host-ptr" : "pinned";
  describe_launch (frame->epsilon_launch, sizeof (frame->epsilon_launch),
      luma->epsilon, &luma->epsilon_launch);
  describe_launch (frame->conv_launch, sizeof (frame->conv_launch),
      luma->convolve, &luma->conv_launch);
}

gboolean
gst_cl_plan_process (GstClPlan * self, GstBuffer * inbuf, GstBuffer * outbuf,
    gboolean share_untouched, GstClFrameStats * frame, GError ** error)
{
  GstClRegion regions[GST_VIDEO_MAX_PLANES];
  GstClFrame in, out;
  guint i, untouched;
  gboolean ok;

  memset (frame, 0, sizeof (*frame));
  /* The buffers first: one too small for the format is refused before any
   * program is built or tuned for it. */
  if (!open_frames (self, inbuf, outbuf, &in, &out, error))
    return FALSE;
  ok = !self->pending || apply_settings (self, error);

  untouched = gst_cl_plan_untouched_planes (self);
  /* Luma is never untouched here (the element would be in passthrough), so
   * the filtered plane is always in the output's own memory. */
  share_untouched = ok && share_untouched && untouched != 0 &&
      !(untouched & 1) && gst_cl_buffer_pool_can_share_planes (outbuf, inbuf,
      &self->info, untouched);
  find_regions (self, inbuf, regions);
  for (i = 0; ok && i < self->n_planes; i++)
    ok = filter_plane (self, &self->planes[i], &regions[i], &in, &out,
        share_untouched, &frame->transfers, error);

  /* The frames stay open until every command on them has completed. */
  ok = finish (self, "clFinish (frame)", ok ? error : NULL) && ok;
  gst_cl_frame_close (&out);
  gst_cl_frame_close (&in);
  /* filter_plane skipped the untouched planes: share them, or copy them
   * now if the share cannot be made after all. */
  if (ok && share_untouched && !gst_cl_buffer_pool_share_planes (outbuf,
          inbuf, &self->info, untouched)) {
    GST_WARNING ("sharing untouched planes failed, copying");
    ok = copy_planes (self, inbuf, outbuf, untouched, &frame->transfers,
        error);
  }
  describe_frame (self, frame);
  return ok;
}
