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

/* The estimate's histogram and the shifted-DCT thresholding stage on the
 * device (the estimate itself is gstcldctestimate.c): host side of
 * kernels/dct.cl, dct-strips.cl and dct-tiles.cl, with which it shares
 * kernels/dct-shared.h (DCT_LANES, DCT_STRIP, DCT_PAD, DCT_TILE, DCT_WG,
 * DCT_HIST_WG, DCT_BINS: through gstcldct-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldct-private.h"
#include "gstcldebug-private.h"
#include "gstclwaits-private.h"
#include "gstclerror-private.h"
#include "gstclprogram-private.h"
#include "gstclkernels.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cl_dct_debug

/* Work-items of dct_strips at least, for every compute unit: where a frame
 * has fewer strips than that, its height is cut into segments (each costs
 * one more block row). */
#define STRIPS_PER_CU 4
/* Most work-groups of dct_histogram. */
#define DCT_HIST_GROUPS 64
/* Reads of a state back in flight at most: two a frame (its two fields)
 * for as many frames as are left in flight, and more. */
#define STATE_READS 32

/* The stage's two shapes (kernels/dct-strips.cl, dct-tiles.cl). CPU
 * devices get dct_strips: every pass in one launch, a few work-items of 16
 * blocks side by side, each with its sums in private memory; and the
 * estimate's histogram in the same shape (dct_histogram_strips). Others
 * get dct_tile: every pass in one launch too, a work-group a tile of the
 * output with its sums in local memory, a work-item a block; and
 * dct_histogram, a work-item a block: the many small work-items a GPU
 * wants. GST_CL_DCT_KERNEL=strips or tiles picks one, for tests and timings
 * (read with the context's switches; small-tiles: the tiles' small size
 * alone, build_tiles()). */
struct _GstClDct
{
  GstClContext *context;
  cl_int shift;                 /* the value's lowest bit in its word */
  gint sample_bytes;            /* 1, or 2 for 10-bit samples */
  gboolean strips;
  GstClProgram *program;
  GstClKernel *pad;             /* strips */
  GstClKernel *stage;           /* dct_strips or dct_tile */
  gint tile, tile_wg;           /* dct_tile's DCT_TILE and DCT_WG */
  GstClKernel *histogram;
  GstClKernel *histogram_mb;    /* an interlaced frame's macroblocks' */
  GstClKernel *copy;            /* dct_copy: the stage at threshold 0 */
  cl_mem hist;                  /* GST_CL_DCT_HIST_SIZE uints a component, 2 */
  cl_mem mb_hist;               /* the same, of histogram_mb */
  cl_mem threshold;             /* a uint a component, 2: what the stage reads */
  cl_mem buf;                   /* dct_pad's copy (strips) */
  gsize buf_size;
  /* strength=auto decided on the device (kernels/dct-estimate.cl): its
   * program and kernel, and the planes' states (GST_VIDEO_MAX_PLANES
   * GstClDctAuto); NULL where the host decides */
  GstClProgram *decide_program;
  GstClKernel *decide;
  cl_mem states;
  /* reads of a state back (for the stats), in flight until their events,
   * oldest first, into pinned memory mapped for life (STATE_READS of
   * them: the host's reads of a discrete GPU are DMA only from there);
   * the latest read that completed */
  cl_mem reads;
  GstClDctAuto *reads_host;
  cl_event read_done[STATE_READS];      /* through OpenCL, */
  GstClCudaRead *read_cuda[STATE_READS];        /* or CUDA */
  guint first_read, n_reads;
  GstClDctAuto last_read;
  cl_uint compute_units;
};

/* spp's offsets for its quality 0..4 (vf_spp.c), by log2 of the passes. */
static const gint8 offsets[5][16][2] = {
  {{0, 0}},
  {{0, 0}, {4, 4}},
  {{0, 0}, {2, 2}, {6, 4}, {4, 6}},
  {{0, 0}, {5, 1}, {2, 2}, {7, 3}, {4, 4}, {1, 5}, {6, 6}, {3, 7}},
  {{0, 0}, {4, 0}, {1, 1}, {5, 1}, {3, 2}, {7, 2}, {2, 3}, {6, 3},
      {0, 4}, {4, 4}, {3, 5}, {7, 5}, {1, 6}, {5, 6}, {2, 7}, {6, 7}},
};

static gint
passes_log2 (guint passes)
{
  switch (passes) {
    case 1:
      return 0;
    case 2:
      return 1;
    case 4:
      return 2;
    case 8:
      return 3;
    case 16:
      return 4;
    default:
      return -1;
  }
}

/* @plane's component's samples apart in a row (GstClDctPlane). */
static cl_int
plane_xstep (const GstClDctPlane * plane)
{
  return MAX (plane->xstep, 1);
}

/* @plane's components (GstClDctPlane). */
static gint
plane_components (const GstClDctPlane * plane)
{
  return MAX (plane->components, 1);
}

/* Whether @self's kernels take @plane: interleaved chroma only in the
 * shape that reads it in place; two components at once where @pairs. */
static gboolean
takes_plane (const GstClDct * self, const GstClDctPlane * plane, gboolean pairs)
{
  const gboolean tiles = !self->strips && !plane->interlaced;

  return plane->width > 0 && plane->height > 0 &&
      (plane_xstep (plane) == 1 || (plane_xstep (plane) == 2 && tiles)) &&
      (plane_components (plane) == 1 || (plane_components (plane) == 2 &&
          tiles && pairs));
}

void
gst_cl_dct_pass_offset (guint passes, guint i, gint * sx, gint * sy)
{
  const gint l = passes_log2 (passes);

  g_return_if_fail (l >= 0 && i < passes);
  *sx = offsets[l][i][0];
  *sy = offsets[l][i][1];
}

/* Whether strength=auto is decided on @context's device: where the device
 * does not work on host memory (a discrete GPU, whose frames are left in
 * flight: a read of the histogram would make the host wait for each), or
 * as GST_CL_AUTO_DECIDE says; only with doubles (kernels/dct-estimate.cl). */
static gboolean
decides_on_device (GstClContext * context)
{
  const GstClAutoDecide where =
      gst_cl_context_get_switches (context)->auto_decide;
  cl_device_fp_config doubles = 0;

  if (where == GST_CL_AUTO_DECIDE_HOST ||
      (where == GST_CL_AUTO_DECIDE_AUTO &&
          gst_cl_context_is_host_unified (context)))
    return FALSE;
  if (clGetDeviceInfo (gst_cl_context_get_device (context),
          CL_DEVICE_DOUBLE_FP_CONFIG, sizeof (doubles), &doubles,
          NULL) != CL_SUCCESS)
    doubles = 0;
  return doubles != 0;
}

/* Where the states' reads land: self->reads mapped for life (gstclmemory.c's
 * map_for_life(): the reads' pinned destination), or host memory where
 * the context has no OpenCL (reads in CUDA copy from pinned memory of
 * their own, gstclcudaexec.c). */
static gboolean
map_reads (GstClDct * self, GError ** error)
{
  cl_int status;

  if (!gst_cl_context_has_opencl (self->context)) {
    self->reads_host = g_new0 (GstClDctAuto, STATE_READS);
    return TRUE;
  }
  self->reads = gst_cl_context_create_buffer (self->context,
      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
      STATE_READS * sizeof (GstClDctAuto), "strength=auto state reads", error);
  if (!self->reads)
    return FALSE;
  self->reads_host = clEnqueueMapBuffer (gst_cl_context_get_host_queue
      (self->context), self->reads, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
      STATE_READS * sizeof (GstClDctAuto), 0, NULL, NULL, &status);
  return status == CL_SUCCESS ||
      gst_cl_set_error (error, status, "clEnqueueMapBuffer (state reads)");
}

static void release_decide (GstClDct * self);

/* Whether the device runs dct_decide's one work-group of DCT_DECIDE_WG
 * work-items (its local memory too: a launch would fail otherwise). */
static gboolean
decide_fits (GstClDct * self, GError ** error)
{
  size_t most = 0;

  if (!gst_cl_kernel_get_max_group (self->decide, &most, error))
    return FALSE;
  if (most >= DCT_DECIDE_WG)
    return TRUE;
  g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NOT_IMPLEMENTED,
      "dct_decide needs %d work-items a work-group, the device runs %"
      G_GSIZE_FORMAT, DCT_DECIDE_WG, most);
  return FALSE;
}

/* The device's decision, where decides_on_device(): its kernel and the
 * planes' states, zeroed. Where that fails the host decides: the same
 * thresholds, with a wait for each histogram. */
static void
create_decide (GstClDct * self)
{
  static const gchar *sources[] = {
    gst_cl_kernel_dct_shared, gst_cl_kernel_dct_estimate_shared,
    gst_cl_kernel_dct_estimate, NULL
  };
  GError *error = NULL;

  if (!decides_on_device (self->context))
    return;
  self->decide_program = gst_cl_program_build (self->context, sources, "",
      NULL, &error);
  if (self->decide_program)
    self->decide = gst_cl_program_create_kernel (self->decide_program,
        "dct_decide", &error);
  if (self->decide && !decide_fits (self, &error))
    g_clear_pointer (&self->decide, gst_cl_kernel_free);
  if (self->decide)
    self->states = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_WRITE, GST_VIDEO_MAX_PLANES * sizeof (GstClDctAuto),
        "strength=auto states", &error);
  if (self->states && map_reads (self, &error) &&
      gst_cl_dct_auto_reset_states (self, &error))
    return;
  GST_WARNING ("strength=auto decided on the host: %s", error->message);
  g_clear_error (&error);
  release_decide (self);
}

/* Where read @entry is: CL_COMPLETE, above while in flight, below where
 * it failed. Waits for one through OpenCL first where @wait; one through
 * CUDA completes at its frame's wait, on this thread: not here. */
static cl_int
read_status (GstClDct * self, guint entry, gboolean wait)
{
  cl_int status = CL_COMPLETE;

  if (self->read_cuda[entry]) {
    switch (gst_cl_cuda_read_status (self->read_cuda[entry])) {
      case GST_CL_CUDA_READ_PENDING:
        return CL_QUEUED;
      case GST_CL_CUDA_READ_DONE:
        return CL_COMPLETE;
      default:
        return CL_OUT_OF_RESOURCES;
    }
  }
  if (wait)
    clWaitForEvents (1, &self->read_done[entry]);
  if (clGetEventInfo (self->read_done[entry],
          CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status,
          NULL) != CL_SUCCESS)
    status = CL_INVALID_EVENT;
  return status;
}

static void
release_read (GstClDct * self, guint entry)
{
  g_clear_pointer (&self->read_done[entry], clReleaseEvent);
  g_clear_pointer (&self->read_cuda[entry], gst_cl_cuda_read_unref);
}

/* Lets the oldest read in flight go, unread (one in CUDA is then not
 * written). */
static void
drop_oldest_read (GstClDct * self)
{
  release_read (self, self->first_read);
  self->first_read = (self->first_read + 1) % STATE_READS;
  self->n_reads--;
}

/* Lets go of the device's decision (create_decide()). */
static void
release_decide (GstClDct * self)
{
  cl_command_queue host = gst_cl_context_get_host_queue (self->context);

  while (self->n_reads > 0) {
    read_status (self, self->first_read, TRUE);
    drop_oldest_read (self);
  }
  if (!self->reads)
    g_free (self->reads_host);
  else if (self->reads_host &&
      clEnqueueUnmapMemObject (host, self->reads, self->reads_host, 0, NULL,
          NULL) == CL_SUCCESS)
    clFinish (host);
  self->reads_host = NULL;
  gst_cl_context_release_buffer (self->context, self->reads);
  self->reads = NULL;
  gst_cl_context_release_buffer (self->context, self->states);
  self->states = NULL;
  g_clear_pointer (&self->decide, gst_cl_kernel_free);
  g_clear_pointer (&self->decide_program, gst_cl_program_free);
}

/* The local memory dct_tile takes for tiles of @tile samples a side. */
static gsize
tile_local_bytes (gint tile)
{
  const gsize side_in = tile + 2 * DCT_PAD, side = tile;

  return side_in * side_in * sizeof (cl_short) + side * side * sizeof (cl_int);
}

/* Builds the tiles' program (@sources) for samples of @depth bits with the
 * large tiles (@large) or the small ones, into self->program and
 * self->stage. The large ones only where the device runs dct_tile with
 * their work-groups and local memory; FALSE otherwise (with @error set
 * where the build failed). */
static gboolean
build_tiles (GstClDct * self, const gchar ** sources, guint depth,
    gboolean large, GError ** error)
{
  const cl_device_id device = gst_cl_context_get_device (self->context);
  const gint tile = large ? DCT_TILE_LARGE : DCT_TILE_SMALL;
  const gint wg = large ? DCT_WG_LARGE : DCT_WG_SMALL;
  gchar *options = g_strdup_printf ("-DDCT_TILE=%d -DDCT_WG=%d%s", tile, wg,
      depth == 8 ? "" : " -DSAMPLE_BITS=10");
  cl_ulong local = 0;
  size_t max_group = 0;

  if (large && (clGetDeviceInfo (device, CL_DEVICE_LOCAL_MEM_SIZE,
              sizeof (local), &local, NULL) != CL_SUCCESS ||
          local < tile_local_bytes (tile))) {
    g_free (options);
    return FALSE;
  }
  self->program = gst_cl_program_build (self->context, sources, options, NULL,
      error);
  g_free (options);
  if (self->program)
    self->stage = gst_cl_program_create_kernel (self->program, "dct_tile",
        error);
  if (self->stage && large &&
      (!gst_cl_kernel_get_max_group (self->stage, &max_group, NULL) ||
          max_group < (size_t) wg)) {
    GST_DEBUG ("dct_tile runs %zu work-items a group here: the small tiles",
        max_group);
    g_clear_pointer (&self->stage, gst_cl_kernel_free);
  }
  if (!self->stage) {
    g_clear_pointer (&self->program, gst_cl_program_free);
    return FALSE;
  }
  self->tile = tile;
  self->tile_wg = wg;
  GST_DEBUG ("dct_tile: tiles of %dx%d samples, %d work-items a group", tile,
      tile, wg);
  return TRUE;
}

GstClDct *
gst_cl_dct_new (GstClContext * context, guint depth, guint shift,
    GError ** error)
{
  /* a shape's program: the sizes shared with this file, the transforms
   * both shapes use, then the shape's kernels */
  static const gchar *strips_sources[] = {
    gst_cl_kernel_common, gst_cl_kernel_dct_shared, gst_cl_kernel_dct,
    gst_cl_kernel_dct_strips, NULL
  };
  static const gchar *tiles_sources[] = {
    gst_cl_kernel_common, gst_cl_kernel_dct_shared, gst_cl_kernel_dct,
    gst_cl_kernel_dct_tiles, NULL
  };
  const GstClDctShape shape = gst_cl_context_get_switches (context)->dct_shape;
  GstClDct *self;

  g_return_val_if_fail ((depth == 8 && shift == 0) || (depth == 10 &&
          shift <= 6), NULL);
  self = g_new0 (GstClDct, 1);
  self->context = gst_object_ref (context);
  self->shift = shift;
  self->sample_bytes = depth == 8 ? 1 : 2;
  if (clGetDeviceInfo (gst_cl_context_get_device (context),
          CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (cl_uint), &self->compute_units,
          NULL) != CL_SUCCESS || self->compute_units == 0)
    self->compute_units = 1;
  self->strips = gst_cl_context_dct_strips (context);
  /* one program a shape and a sample size (kernels/common.cl); the cache
   * key holds the sources and options (gstclprogram.c) */
  if (self->strips) {
    self->program = gst_cl_program_build (context, strips_sources,
        depth == 8 ? "-DDCT_STRIPS" : "-DDCT_STRIPS -DSAMPLE_BITS=10", NULL,
        error);
    if (!self->program)
      goto failed;
    self->pad = gst_cl_program_create_kernel (self->program, "dct_pad", error);
    if (!self->pad)
      goto failed;
    self->stage = gst_cl_program_create_kernel (self->program, "dct_strips",
        error);
  } else if (!(shape != GST_CL_DCT_SHAPE_SMALL_TILES &&
          build_tiles (self, tiles_sources, depth, TRUE, NULL))) {
    build_tiles (self, tiles_sources, depth, FALSE, error);
  }
  if (!self->stage)
    goto failed;
  self->histogram = gst_cl_program_create_kernel (self->program,
      self->strips ? "dct_histogram_strips" : "dct_histogram", error);
  if (!self->histogram)
    goto failed;
  self->histogram_mb = gst_cl_program_create_kernel (self->program,
      "dct_histogram_mb", error);
  if (!self->histogram_mb)
    goto failed;
  self->copy = gst_cl_program_create_kernel (self->program, "dct_copy", error);
  if (!self->copy)
    goto failed;
  self->hist = gst_cl_context_create_buffer (context, CL_MEM_READ_WRITE,
      2 * GST_CL_DCT_HIST_SIZE * sizeof (cl_uint), "DCT histograms", error);
  if (!self->hist)
    goto failed;
  self->mb_hist = gst_cl_context_create_buffer (context, CL_MEM_READ_WRITE,
      GST_CL_DCT_HIST_SIZE * sizeof (cl_uint), "DCT macroblock histogram",
      error);
  if (!self->mb_hist)
    goto failed;
  self->threshold = gst_cl_context_create_buffer (context, CL_MEM_READ_WRITE,
      2 * sizeof (cl_uint), "DCT thresholds", error);
  if (!self->threshold)
    goto failed;
  create_decide (self);
  return self;

  /* ERRORS */
failed:
  gst_cl_dct_free (self);
  return NULL;
}

void
gst_cl_dct_free (GstClDct * self)
{
  if (!self)
    return;
  release_decide (self);
  gst_cl_context_release_buffer (self->context, self->buf);
  gst_cl_context_release_buffer (self->context, self->threshold);
  gst_cl_context_release_buffer (self->context, self->hist);
  gst_cl_kernel_free (self->copy);
  gst_cl_kernel_free (self->histogram);
  gst_cl_kernel_free (self->histogram_mb);
  gst_cl_context_release_buffer (self->context, self->mb_hist);
  gst_cl_kernel_free (self->stage);
  gst_cl_kernel_free (self->pad);
  gst_cl_program_free (self->program);
  gst_object_unref (self->context);
  g_free (self);
}

/* Sets @kernel's arguments, a histogram's of @plane into @hist
 * (kernels/dct.cl, dct-tiles.cl, dct-strips.cl: one signature), in @args
 * (checked by the caller). */
static void
set_histogram_args (GstClDct * self, GstClKernel * kernel,
    const GstClDctPlane * plane, cl_mem hist, GstClArgs * args)
{
  const cl_uint off = (cl_uint) plane->src->offset;
  const gint width = plane->width, height = plane->height;
  guint a = 0;

  GST_CL_ARG (kernel, a++, plane->src->mem, args);
  GST_CL_ARG (kernel, a++, off, args);
  GST_CL_ARG (kernel, a++, plane->src->pitch, args);
  GST_CL_ARG (kernel, a++, width, args);
  GST_CL_ARG (kernel, a++, height, args);
  GST_CL_ARG (kernel, a++, hist, args);
  GST_CL_ARG (kernel, a++, self->shift, args);
}

/* Enqueues the histogram of @plane's grid into self->hist, after @after's
 * list, where the plane has whole blocks. */
static gboolean
launch_histogram (GstClDct * self, const GstClDctPlane * plane,
    const GstClAfter * after, GError ** error)
{
  const gint width = plane->width, height = plane->height;
  size_t global[2], local[2];
  GstClArgs args = GST_CL_ARGS_INIT;
  const GstClEnqueue how = { local, *after, "dct_histogram", &args };

  if (width < 8 || height < 8)
    return TRUE;
  set_histogram_args (self, self->histogram, plane, self->hist, &args);
  if (!self->strips) {
    const cl_int xstep = plane_xstep (plane);
    const cl_int component_step = plane->component_step;

    GST_CL_ARG (self->histogram, 7, xstep, &args);
    GST_CL_ARG (self->histogram, 8, component_step, &args);
  }
  if (!gst_cl_args_check (&args, "dct_histogram", error))
    return FALSE;
  if (self->strips) {
    /* a work-item a strip of DCT_LANES blocks, the block rows split where
     * that gives fewer than STRIPS_PER_CU a compute unit */
    const gsize strips = (width / 8 + DCT_LANES - 1) / DCT_LANES;

    global[0] = strips;
    global[1] = MIN ((STRIPS_PER_CU * self->compute_units + strips - 1) /
        strips, (gsize) height / 8);
    local[0] = local[1] = 1;
  } else {
    /* enough work-groups for any device's cores, few enough that their
     * global adds stay cheap; each work-item takes blocks in turn */
    global[0] = MIN ((gsize) (width / 8) * (height / 8) / DCT_HIST_WG + 1,
        DCT_HIST_GROUPS) * DCT_HIST_WG;
    global[1] = plane_components (plane);
    local[0] = DCT_HIST_WG;
    local[1] = 1;
  }
  return gst_cl_enqueue_kernel (self->context, self->histogram, global[0],
      global[1], &how, error);
}

/* Enqueues the macroblocks' histogram of @plane into self->mb_hist, after
 * @after's list, where the plane has whole macroblocks: one shape on
 * every device (it runs on interlaced frames' luma alone), work-groups as
 * dct_histogram's, a work-item a macroblock in turn. */
static gboolean
launch_histogram_mb (GstClDct * self, const GstClDctPlane * plane,
    const GstClAfter * after, GError ** error)
{
  const gsize mbs = (gsize) (plane->width / 16) * (plane->height / 16);
  static const size_t local[2] = { DCT_HIST_WG, 1 };
  GstClArgs args = GST_CL_ARGS_INIT;
  const GstClEnqueue how = { local, *after, "dct_histogram_mb", &args };

  if (mbs == 0)
    return TRUE;
  set_histogram_args (self, self->histogram_mb, plane, self->mb_hist, &args);
  if (!gst_cl_args_check (&args, "dct_histogram_mb", error))
    return FALSE;
  return gst_cl_enqueue_kernel (self->context, self->histogram_mb,
      MIN (mbs / DCT_HIST_WG + 1, DCT_HIST_GROUPS) * DCT_HIST_WG, 1, &how,
      error);
}

/* Enqueues the histograms of @plane, after @after's list: zeroed, then
 * counted; the macroblocks' where @plane is interlaced. */
static gboolean
enqueue_histogram (GstClDct * self, const GstClDctPlane * plane,
    const GstClAfter * after, GError ** error)
{
  cl_command_queue queue = gst_cl_context_get_queue (self->context);
  const gsize size = GST_CL_DCT_HIST_SIZE * sizeof (cl_uint);
  const cl_uint zero = 0;
  cl_int err;

  if (after->cuda) {
    if (!gst_cl_cuda_exec_fill (after->cuda, self->hist, &zero,
            sizeof (zero), 0, plane_components (plane) * size,
            "histogram fill", error) || (plane->interlaced &&
            !gst_cl_cuda_exec_fill (after->cuda, self->mb_hist, &zero,
                sizeof (zero), 0, size, "histogram fill", error)))
      return FALSE;
    return launch_histogram (self, plane, after, error) &&
        (!plane->interlaced || launch_histogram_mb (self, plane, after, error));
  }
  /* the fills write only our buffers: the wait list is the kernels'; on
   * the in-order queue, after what read the last histograms */
  err = clEnqueueFillBuffer (queue, self->hist, &zero, sizeof (zero), 0,
      plane_components (plane) * size, 0, NULL, NULL);
  if (err == CL_SUCCESS && plane->interlaced)
    err = clEnqueueFillBuffer (queue, self->mb_hist, &zero, sizeof (zero), 0,
        size, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return gst_cl_set_error (error, err, "clEnqueueFillBuffer (histogram)");
  return launch_histogram (self, plane, after, error) &&
      (!plane->interlaced || launch_histogram_mb (self, plane, after, error));
}

/* gst_cl_dct_histogram()'s reads back where its commands run in CUDA:
 * waited for there. */
static gboolean
read_histogram_on_cuda (GstClDct * self, const GstClDctPlane * plane,
    GstClCudaExec * cuda, guint32 * hist, guint32 * mb_hist, GError ** error)
{
  const gsize size = GST_CL_DCT_HIST_SIZE * sizeof (cl_uint);
  GstClCudaRead *done[2] = { NULL, NULL };
  gboolean ok;

  ok = gst_cl_cuda_exec_read (cuda, self->hist, 0, size, hist, &done[0],
      error) && (!plane->interlaced || gst_cl_cuda_exec_read (cuda,
          self->mb_hist, 0, size, mb_hist, &done[1], error));
  ok = gst_cl_cuda_exec_sync (cuda, NULL, ok ? error : NULL) && ok;
  g_clear_pointer (&done[0], gst_cl_cuda_read_unref);
  g_clear_pointer (&done[1], gst_cl_cuda_read_unref);
  return ok;
}

gboolean
gst_cl_dct_histogram (GstClDct * self, const GstClDctPlane * plane,
    const GstClAfter * after, guint32 * hist, guint32 * mb_hist,
    GError ** error)
{
  cl_command_queue queue = gst_cl_context_get_queue (self->context);
  gint64 began;
  cl_int err;

  g_return_val_if_fail (takes_plane (self, plane, FALSE), FALSE);
  g_return_val_if_fail (!plane->interlaced || mb_hist != NULL, FALSE);
  if (!enqueue_histogram (self, plane, after, error))
    return FALSE;
  if (after->cuda)
    return read_histogram_on_cuda (self, plane, after->cuda, hist, mb_hist,
        error);
  /* after the kernels on the in-order queue */
  began = gst_cl_wait_begin ();
  err = clEnqueueReadBuffer (queue, self->hist, CL_TRUE, 0,
      GST_CL_DCT_HIST_SIZE * sizeof (cl_uint), hist, 0, NULL, NULL);
  if (err == CL_SUCCESS && plane->interlaced)
    err = clEnqueueReadBuffer (queue, self->mb_hist, CL_TRUE, 0,
        GST_CL_DCT_HIST_SIZE * sizeof (cl_uint), mb_hist, 0, NULL, NULL);
  gst_cl_wait_end (GST_CL_WAIT_HISTOGRAM, began);
  if (err != CL_SUCCESS)
    return gst_cl_set_error (error, err, "clEnqueueReadBuffer (histogram)");
  return TRUE;
}

/* Makes self->buf @size bytes at least. */
static gboolean
ensure_buf (GstClDct * self, gsize size, GError ** error)
{
  if (self->buf_size >= size)
    return TRUE;
  gst_cl_context_release_buffer (self->context, self->buf);
  self->buf_size = 0;
  self->buf = gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
      size, "DCT padded plane", error);
  if (!self->buf)
    return FALSE;
  self->buf_size = size;
  return TRUE;
}

/* The pass offsets of dct_strips and dct_tile, 4 bits a pass in @sxs and
 * @sys: the passes by horizontal offset, those at one offset one after the
 * other (any order gives the same sums): dct_strips then touches one
 * offset's rows and P sums at a time (no speed-up measurable here, but a
 * working set that fits a core's first-level cache). */
static void
pack_pass_offsets (guint passes, cl_ulong * sxs, cl_ulong * sys)
{
  guint n = 0, x, i;

  *sxs = *sys = 0;
  for (x = 0; x < 8; x++)
    for (i = 0; i < passes; i++) {
      gint sx = 0, sy = 0;

      gst_cl_dct_pass_offset (passes, i, &sx, &sy);
      if (sx != (gint) x)
        continue;
      *sxs |= (cl_ulong) sx << (4 * n);
      *sys |= (cl_ulong) sy << (4 * n);
      n++;
    }
}

/* dct_pad: @plane's source into self->buf, @phase entries a phase of a
 * row, @pad_rows rows (kernels/dct-strips.cl), as @how says. */
static gboolean
launch_pad (GstClDct * self, const GstClDctPlane * plane, cl_int phase,
    gint pad_rows, cl_int fields, const GstClEnqueue * how, GError ** error)
{
  const cl_uint soff = (cl_uint) plane->src->offset;
  GstClArgs args = GST_CL_ARGS_INIT;
  GstClEnqueue with_args = *how;
  guint a = 0;

  GST_CL_ARG (self->pad, a++, plane->src->mem, &args);
  GST_CL_ARG (self->pad, a++, soff, &args);
  GST_CL_ARG (self->pad, a++, plane->src->pitch, &args);
  GST_CL_ARG (self->pad, a++, plane->width, &args);
  GST_CL_ARG (self->pad, a++, plane->height, &args);
  GST_CL_ARG (self->pad, a++, self->buf, &args);
  GST_CL_ARG (self->pad, a++, phase, &args);
  GST_CL_ARG (self->pad, a++, self->shift, &args);
  GST_CL_ARG (self->pad, a++, self->threshold, &args);
  GST_CL_ARG (self->pad, a++, fields, &args);
  if (!gst_cl_args_check (&args, "dct_pad", error))
    return FALSE;
  with_args.args = &args;
  return gst_cl_enqueue_kernel (self->context, self->pad, phase / 16,
      pad_rows, &with_args, error);
}

/* dct_pad then dct_strips (kernels/dct-strips.cl) at the threshold in
 * self->threshold, where it is for @fields (@plane one field) or not; dct_pad
 * waits for @how's list, dct_strips follows it on the in-order queue. */
static gboolean
threshold_strips (GstClDct * self, const GstClDctPlane * plane,
    guint passes, cl_int fields, const GstClEnqueue * how, GError ** error)
{
  static const size_t local[2] = { 1, 1 };
  const cl_uint doff = (cl_uint) plane->dst->offset;
  const gint width = plane->width, height = plane->height;
  const cl_int plog = passes_log2 (passes);
  const gint strips = (width + DCT_STRIP - 1) / DCT_STRIP;
  const gint block_rows = (height + 7) / 8;
  /* dct_pad's copy, by phase: every strip's blocks of every pass, and the
   * block row below the plane's last, inside it (kernels/dct-strips.cl); a
   * phase of a row has `phase` entries, whole work-items of dct_pad */
  const cl_int phase = (strips * DCT_STRIP / 8 + 2 + 15) / 16 * 16;
  const gint pad_rows = block_rows * 8 + 2 * DCT_PAD;
  GstClEnqueue pad = *how, stage = *how;
  gint segments, seg_rows;
  cl_ulong sxs, sys;
  GstClArgs args = GST_CL_ARGS_INIT;
  guint a = 0;

  if (!ensure_buf (self, (gsize) 8 * phase * pad_rows * self->sample_bytes,
          error))
    return FALSE;
  segments = MIN (((gint) (STRIPS_PER_CU * self->compute_units) + strips - 1)
      / strips, block_rows);
  seg_rows = (block_rows + segments - 1) / segments * 8;
  segments = (height + seg_rows - 1) / seg_rows;
  pack_pass_offsets (passes, &sxs, &sys);

  pad.local = NULL;
  pad.what = "dct_pad";
  if (!launch_pad (self, plane, phase, pad_rows, fields, &pad, error))
    return FALSE;

  GST_CL_ARG (self->stage, a++, self->buf, &args);
  GST_CL_ARG (self->stage, a++, phase, &args);
  GST_CL_ARG (self->stage, a++, plane->dst->mem, &args);
  GST_CL_ARG (self->stage, a++, doff, &args);
  GST_CL_ARG (self->stage, a++, plane->dst->pitch, &args);
  GST_CL_ARG (self->stage, a++, width, &args);
  GST_CL_ARG (self->stage, a++, height, &args);
  GST_CL_ARG (self->stage, a++, seg_rows, &args);
  GST_CL_ARG (self->stage, a++, sxs, &args);
  GST_CL_ARG (self->stage, a++, sys, &args);
  GST_CL_ARG (self->stage, a++, self->threshold, &args);
  GST_CL_ARG (self->stage, a++, plog, &args);
  GST_CL_ARG (self->stage, a++, self->shift, &args);
  GST_CL_ARG (self->stage, a++, fields, &args);
  if (!gst_cl_args_check (&args, "dct_strips", error))
    return FALSE;
  stage.local = local;
  stage.after.n_wait = 0;
  stage.after.wait = NULL;
  stage.what = "dct_strips";
  stage.args = &args;
  return gst_cl_enqueue_kernel (self->context, self->stage, strips, segments,
      &stage, error);
}

/* dct_tile, every pass in one launch (kernels/dct-tiles.cl), at the
 * threshold in self->threshold, where it is for @fields (@plane one field)
 * or not, after @how's list. */
static gboolean
threshold_tiles (GstClDct * self, const GstClDctPlane * plane,
    guint passes, cl_int fields, const GstClEnqueue * how, GError ** error)
{
  const size_t local[2] = { self->tile_wg, 1 };
  const cl_uint soff = (cl_uint) plane->src->offset;
  const cl_uint doff = (cl_uint) plane->dst->offset;
  const cl_int n = (cl_int) passes, plog = passes_log2 (passes);
  const cl_int xstep = plane_xstep (plane);
  const cl_int component_step = plane->component_step;
  const gsize tiles_y = (plane->height + self->tile - 1) / self->tile;
  GstClEnqueue tiles = *how;
  cl_ulong sxs, sys;
  GstClArgs args = GST_CL_ARGS_INIT;
  guint a = 0;

  pack_pass_offsets (passes, &sxs, &sys);
  GST_CL_ARG (self->stage, a++, plane->src->mem, &args);
  GST_CL_ARG (self->stage, a++, soff, &args);
  GST_CL_ARG (self->stage, a++, plane->src->pitch, &args);
  GST_CL_ARG (self->stage, a++, plane->dst->mem, &args);
  GST_CL_ARG (self->stage, a++, doff, &args);
  GST_CL_ARG (self->stage, a++, plane->dst->pitch, &args);
  GST_CL_ARG (self->stage, a++, plane->width, &args);
  GST_CL_ARG (self->stage, a++, plane->height, &args);
  GST_CL_ARG (self->stage, a++, sxs, &args);
  GST_CL_ARG (self->stage, a++, sys, &args);
  GST_CL_ARG (self->stage, a++, n, &args);
  GST_CL_ARG (self->stage, a++, self->threshold, &args);
  GST_CL_ARG (self->stage, a++, plog, &args);
  GST_CL_ARG (self->stage, a++, self->shift, &args);
  GST_CL_ARG (self->stage, a++, xstep, &args);
  GST_CL_ARG (self->stage, a++, component_step, &args);
  GST_CL_ARG (self->stage, a++, fields, &args);
  if (!gst_cl_args_check (&args, "dct_tile", error))
    return FALSE;
  /* a work-group a tile (kernels/dct-tiles.cl) */
  tiles.local = local;
  tiles.what = "dct_tile";
  tiles.args = &args;
  return gst_cl_enqueue_kernel (self->context, self->stage,
      (gsize) (plane->width + self->tile - 1) / self->tile * self->tile_wg,
      tiles_y * plane_components (plane), &tiles, error);
}

/* dct_copy (kernels/dct.cl): @plane's source into its destination where
 * self->threshold is 0, after @how's list. */
static gboolean
copy_if_zero (GstClDct * self, const GstClDctPlane * plane,
    const GstClEnqueue * how, GError ** error)
{
  const cl_uint soff = (cl_uint) plane->src->offset;
  const cl_uint doff = (cl_uint) plane->dst->offset;
  GstClEnqueue copy = *how;
  GstClArgs args = GST_CL_ARGS_INIT;
  guint a = 0;

  GST_CL_ARG (self->copy, a++, plane->src->mem, &args);
  GST_CL_ARG (self->copy, a++, soff, &args);
  GST_CL_ARG (self->copy, a++, plane->src->pitch, &args);
  GST_CL_ARG (self->copy, a++, plane->dst->mem, &args);
  GST_CL_ARG (self->copy, a++, doff, &args);
  GST_CL_ARG (self->copy, a++, plane->dst->pitch, &args);
  GST_CL_ARG (self->copy, a++, plane->width, &args);
  GST_CL_ARG (self->copy, a++, plane->height, &args);
  GST_CL_ARG (self->copy, a++, self->threshold, &args);
  if (!gst_cl_args_check (&args, "dct_copy", error))
    return FALSE;
  copy.what = "dct_copy";
  copy.args = &args;
  /* whole rows of 32 work-items: the device picks the work-groups */
  return gst_cl_enqueue_kernel (self->context, self->copy,
      (gsize) (plane->width + 31) / 32 * 32, plane->height, &copy, error);
}

/* run_stage()'s shapes. */
#define ON_FRAME 1
#define ON_FIELDS 2

/* The shape's kernels on @plane, as threshold_strips() and
 * threshold_tiles() say. */
static gboolean
threshold_shape (GstClDct * self, const GstClDctPlane * plane, guint passes,
    cl_int fields, const GstClEnqueue * how, GError ** error)
{
  return (self->strips ? threshold_strips : threshold_tiles) (self, plane,
      passes, fields, how, error);
}

/* The stage on each field of @plane (an interlaced frame's) alone, where
 * self->threshold says so (DCT_STAGE_FIELDS), as threshold_shape(): field
 * f is rows f, f + 2, ... of the plane. */
static gboolean
threshold_fields (GstClDct * self, const GstClDctPlane * plane,
    guint passes, const GstClEnqueue * how, GError ** error)
{
  GstClEnqueue next = *how;
  gint f;

  for (f = 0; f < 2; f++) {
    GstClPlaneRef src = *plane->src, dst = *plane->dst;
    GstClDctPlane field = *plane;

    src.offset += f * src.pitch;
    src.pitch *= 2;
    dst.offset += f * dst.pitch;
    dst.pitch *= 2;
    field.src = &src;
    field.dst = &dst;
    field.height = (plane->height + 1 - f) / 2;
    if (field.height > 0 && !threshold_shape (self, &field, passes, 1, &next,
            error))
      return FALSE;
    next.after.n_wait = 0;
    next.after.wait = NULL;
  }
  return TRUE;
}

/* The stage at the threshold in self->threshold, after @after's list:
 * the shape's kernels on the frame where @shapes has ON_FRAME, on each
 * field alone where it has ON_FIELDS (the kernels do what the threshold's
 * DCT_STAGE_FIELDS asks for, nothing where it asks for the other), then
 * (where @copies) dct_copy for a threshold of 0, which dct_strips leaves
 * alone (dct_tile copies its tiles then); each after the last on the
 * in-order queue. */
static gboolean
run_stage (GstClDct * self, const GstClDctPlane * plane, guint passes,
    guint shapes, gboolean copies, const GstClAfter * after, GError ** error)
{
  GstClEnqueue how = { NULL, *after, NULL };

  if (shapes & ON_FRAME) {
    if (!threshold_shape (self, plane, passes, 0, &how, error))
      return FALSE;
    how.after.n_wait = 0;
    how.after.wait = NULL;
  }
  if ((shapes & ON_FIELDS) &&
      !threshold_fields (self, plane, passes, &how, error))
    return FALSE;
  how.after.n_wait = 0;
  how.after.wait = NULL;
  return !copies || !self->strips || copy_if_zero (self, plane, &how, error);
}

gboolean
gst_cl_dct_threshold (GstClDct * self, const GstClDctPlane * plane,
    guint threshold, guint passes, const GstClAfter * after, GError ** error)
{
  cl_command_queue queue = gst_cl_context_get_queue (self->context);
  const cl_uint thr = threshold;
  cl_int err;

  g_return_val_if_fail (passes_log2 (passes) >= 0 &&
      takes_plane (self, plane, FALSE), FALSE);
  g_return_val_if_fail (!(threshold & GST_CL_DCT_IN_FIELDS) ||
      plane->interlaced, FALSE);
  /* the value is taken when enqueued; the in-order queue runs it after
   * the commands of the last frame that read the buffer */
  if (after->cuda) {
    if (!gst_cl_cuda_exec_fill (after->cuda, self->threshold, &thr,
            sizeof (thr), 0, sizeof (thr), "threshold fill", error))
      return FALSE;
    err = CL_SUCCESS;
  } else {
    err = clEnqueueFillBuffer (queue, self->threshold, &thr, sizeof (thr), 0,
        sizeof (thr), 0, NULL, NULL);
  }
  if (err != CL_SUCCESS)
    return gst_cl_set_error (error, err, "clEnqueueFillBuffer (threshold)");
  return run_stage (self, plane, passes, (thr & GST_CL_DCT_IN_FIELDS) ?
      ON_FIELDS : ON_FRAME, thr == 0, after, error);
}

gboolean
gst_cl_dct_decides (GstClDct * self)
{
  return self->decide != NULL;
}

gboolean
gst_cl_dct_reads_interleaved (GstClDct * self)
{
  return !self->strips;
}

/* dct_decide (kernels/dct-estimate.cl) on the histograms of @components
 * in self->hist (and self->mb_hist where @interlaced), for the states of
 * planes @index on, into self->threshold, after @after's list: a launch a
 * component. */
static gboolean
launch_decide (GstClDct * self, guint index, guint components,
    gboolean interlaced,
    const GstClDctAutoParams * params, const GstClDctCoding * coding,
    const GstClAfter * after, GError ** error)
{
  static const size_t local[2] = { DCT_DECIDE_WG, 1 };
  const cl_uint plane = index;
  const cl_int mb = interlaced ? 1 : 0;
  const cl_int picture = coding ? (cl_int) coding->picture :
      GST_CL_DCT_PICTURE_UNKNOWN;
  const cl_double quantiser = coding ? coding->quantiser : 0;
  cl_uint16 packed = { {0,} };
  GstClArgs args = GST_CL_ARGS_INIT;
  const GstClEnqueue how = { local, *after, "dct_decide", &args };
  guint a = 0;
  cl_int c;

  /* the fields in order (kernels/dct-estimate.cl, unpack_params()) */
  G_STATIC_ASSERT (sizeof (*params) <= sizeof (packed));
  memcpy (packed.s, params, sizeof (*params));
  GST_CL_ARG (self->decide, a++, self->hist, &args);
  GST_CL_ARG (self->decide, a++, self->mb_hist, &args);
  GST_CL_ARG (self->decide, a++, mb, &args);
  GST_CL_ARG (self->decide, a++, self->states, &args);
  GST_CL_ARG (self->decide, a++, plane, &args);
  GST_CL_ARG (self->decide, a++, packed, &args);
  GST_CL_ARG (self->decide, a++, picture, &args);
  GST_CL_ARG (self->decide, a++, quantiser, &args);
  GST_CL_ARG (self->decide, a++, self->threshold, &args);
  for (c = 0; c < (cl_int) components; c++) {
    GST_CL_ARG (self->decide, a, c, &args);
    if (!gst_cl_args_check (&args, "dct_decide", error) ||
        !gst_cl_enqueue_kernel (self->context, self->decide, DCT_DECIDE_WG, 1,
            &how, error))
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_cl_dct_auto (GstClDct * self, const GstClDctPlane * plane, guint index,
    const GstClDctAutoParams * params, const GstClDctCoding * coding,
    guint passes, const GstClAfter * after, GError ** error)
{
  const GstClAfter next = { 0, NULL, after->events, after->cuda };

  g_return_val_if_fail (self->decide != NULL, FALSE);
  g_return_val_if_fail (index + plane_components (plane) <=
      GST_VIDEO_MAX_PLANES, FALSE);
  g_return_val_if_fail (passes_log2 (passes) >= 0 &&
      takes_plane (self, plane, TRUE), FALSE);
  if (!enqueue_histogram (self, plane, after, error))
    return FALSE;
  /* each after the last on the in-order queue: the decision after the
   * histogram, the stage after the decision; the decision waits for
   * @after's list too, which a plane too small for the histogram's kernel
   * has not waited for yet (the fill needs none) */
  if (!launch_decide (self, index, plane_components (plane),
          plane->interlaced, params, coding, after, error))
    return FALSE;
  /* the decision says which shape: both are enqueued on interlaced luma,
   * and the kernels of the other do nothing */
  return run_stage (self, plane, passes, plane->interlaced ?
      ON_FRAME | ON_FIELDS : ON_FRAME, TRUE, &next, error);
}

gboolean
gst_cl_dct_auto_reset_states (GstClDct * self, GError ** error)
{
  const cl_uint zero = 0;

  if (!self->states)
    return TRUE;
  gst_cl_dct_last_state (self, TRUE, NULL);
  /* reads in CUDA whose frames were not waited for: of the old states */
  while (self->n_reads > 0)
    drop_oldest_read (self);
  memset (&self->last_read, 0, sizeof (self->last_read));
  return gst_cl_context_fill_buffer (self->context, self->states, &zero,
      sizeof (zero), GST_VIDEO_MAX_PLANES * sizeof (GstClDctAuto),
      "auto states", error);
}

/* Takes the reads back that have completed, oldest first, after waiting
 * for the first @wait of them (G_MAXUINT: all). */
static void
take_reads (GstClDct * self, guint wait)
{
  guint taken;

  for (taken = 0; self->n_reads > 0; taken++) {
    cl_int status = read_status (self, self->first_read, taken < wait);

    if (status > CL_COMPLETE)
      break;
    /* a read that failed says nothing: its frame's error is raised where
     * frames in flight raise theirs (gstclinflight.c) */
    if (status == CL_COMPLETE)
      self->last_read = self->reads_host[self->first_read];
    release_read (self, self->first_read);
    self->first_read = (self->first_read + 1) % STATE_READS;
    self->n_reads--;
  }
}

gboolean
gst_cl_dct_read_state (GstClDct * self, guint index, const GstClAfter * after,
    GError ** error)
{
  guint entry;
  cl_int err;

  g_return_val_if_fail (self->states != NULL, FALSE);
  g_return_val_if_fail (index < GST_VIDEO_MAX_PLANES, FALSE);
  if (self->n_reads == STATE_READS)
    take_reads (self, 1);
  if (self->n_reads == STATE_READS)     /* in CUDA, not waited for */
    drop_oldest_read (self);
  entry = (self->first_read + self->n_reads) % STATE_READS;
  if (after && after->cuda) {
    if (!gst_cl_cuda_exec_read (after->cuda, self->states,
            index * sizeof (GstClDctAuto), sizeof (GstClDctAuto),
            &self->reads_host[entry], &self->read_cuda[entry], error))
      return FALSE;
    self->n_reads++;
    return TRUE;
  }
  err = clEnqueueReadBuffer (gst_cl_context_get_queue (self->context),
      self->states, CL_FALSE, index * sizeof (GstClDctAuto),
      sizeof (GstClDctAuto), &self->reads_host[entry], 0, NULL,
      &self->read_done[entry]);
  if (err != CL_SUCCESS)
    return gst_cl_set_error (error, err, "clEnqueueReadBuffer (auto state)");
  self->n_reads++;
  return TRUE;
}

void
gst_cl_dct_last_state (GstClDct * self, gboolean wait, GstClDctAuto * state)
{
  take_reads (self, wait ? G_MAXUINT : 0);
  if (state)
    *state = self->last_read;
}
