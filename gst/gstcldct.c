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
#include "gstclwaits-private.h"
#include "gstclerror-private.h"
#include "gstclprogram-private.h"
#include "gstclkernels.h"

#include <string.h>

/* Work-items of dct_strips at least, for every compute unit: where a frame
 * has fewer strips than that, its height is cut into segments (each costs
 * one more block row). */
#define STRIPS_PER_CU 4
/* Most work-groups of dct_histogram. */
#define DCT_HIST_GROUPS 64

/* The stage's two shapes (kernels/dct-strips.cl, dct-tiles.cl). CPU
 * devices get dct_strips: every pass in one launch, a few work-items of 16
 * blocks side by side, each with its sums in private memory; and the
 * estimate's histogram in the same shape (dct_histogram_strips). Others
 * get dct_tile: every pass in one launch too, a work-group a tile of the
 * output with its sums in local memory, a work-item a block; and
 * dct_histogram, a work-item a block: the many small work-items a GPU
 * wants. GST_CL_DCT_KERNEL=strips or tiles picks one, for tests and timings
 * (read with the context's switches). */
struct _GstClDct
{
  GstClContext *context;
  cl_int shift;                 /* the value's lowest bit in its word */
  gint sample_bytes;            /* 1, or 2 for 10-bit samples */
  gboolean strips;
  cl_program program;
  cl_kernel pad;                /* strips */
  cl_kernel stage;              /* dct_strips or dct_tile */
  cl_kernel histogram;
  cl_mem hist;                  /* GST_CL_DCT_HIST_SIZE uints */
  cl_mem buf;                   /* dct_pad's copy (strips) */
  gsize buf_size;
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

void
gst_cl_dct_pass_offset (guint passes, guint i, gint * sx, gint * sy)
{
  const gint l = passes_log2 (passes);

  g_return_if_fail (l >= 0 && i < passes);
  *sx = offsets[l][i][0];
  *sy = offsets[l][i][1];
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
  cl_device_type type = 0;

  g_return_val_if_fail ((depth == 8 && shift == 0) || (depth == 10 &&
          shift <= 6), NULL);
  self = g_new0 (GstClDct, 1);
  self->context = gst_object_ref (context);
  self->shift = shift;
  self->sample_bytes = depth == 8 ? 1 : 2;
  if (clGetDeviceInfo (gst_cl_context_get_device (context), CL_DEVICE_TYPE,
          sizeof (type), &type, NULL) != CL_SUCCESS)
    type = 0;
  if (clGetDeviceInfo (gst_cl_context_get_device (context),
          CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (cl_uint), &self->compute_units,
          NULL) != CL_SUCCESS || self->compute_units == 0)
    self->compute_units = 1;
  self->strips = shape == GST_CL_DCT_SHAPE_AUTO ?
      (type & CL_DEVICE_TYPE_CPU) != 0 : shape == GST_CL_DCT_SHAPE_STRIPS;
  /* one program a shape and a sample size (kernels/common.cl); the cache
   * key holds the sources and options (gstclprogram.c) */
  self->program = gst_cl_program_build (context,
      self->strips ? strips_sources : tiles_sources,
      self->strips ? (depth == 8 ? "-DDCT_STRIPS" :
          "-DDCT_STRIPS -DSAMPLE_BITS=10") : (depth == 8 ? "" :
          "-DSAMPLE_BITS=10"), NULL, error);
  if (!self->program)
    goto failed;
  if (self->strips) {
    self->pad = gst_cl_program_create_kernel (self->program, "dct_pad", error);
    if (!self->pad)
      goto failed;
  }
  self->stage = gst_cl_program_create_kernel (self->program,
      self->strips ? "dct_strips" : "dct_tile", error);
  if (!self->stage)
    goto failed;
  self->histogram = gst_cl_program_create_kernel (self->program,
      self->strips ? "dct_histogram_strips" : "dct_histogram", error);
  if (!self->histogram)
    goto failed;
  self->hist = gst_cl_context_create_buffer (context, CL_MEM_READ_WRITE,
      GST_CL_DCT_HIST_SIZE * sizeof (cl_uint), "DCT histogram", error);
  if (!self->hist)
    goto failed;
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
  if (self->buf)
    clReleaseMemObject (self->buf);
  if (self->hist)
    clReleaseMemObject (self->hist);
  if (self->histogram)
    clReleaseKernel (self->histogram);
  if (self->stage)
    clReleaseKernel (self->stage);
  if (self->pad)
    clReleaseKernel (self->pad);
  if (self->program)
    clReleaseProgram (self->program);
  gst_object_unref (self->context);
  g_free (self);
}

gboolean
gst_cl_dct_histogram (GstClDct * self, const GstClDctPlane * plane,
    const GstClAfter * after, guint32 * hist, GError ** error)
{
  cl_command_queue queue = gst_cl_context_get_queue (self->context);
  const cl_uint zero = 0, off = (cl_uint) plane->src->offset;
  const gint width = plane->width, height = plane->height;
  size_t global[2], local[2];
  const GstClEnqueue how = { local, *after, "dct_histogram" };
  GstClArgs args = GST_CL_ARGS_INIT;
  gint64 began;
  cl_int err;
  guint a = 0;

  g_return_val_if_fail (width > 0 && height > 0, FALSE);
  if (width < 8 || height < 8) {
    memset (hist, 0, GST_CL_DCT_HIST_SIZE * sizeof (guint32));
    return TRUE;
  }
  /* the fill writes only our buffer: the wait list is the kernel's */
  err = clEnqueueFillBuffer (queue, self->hist, &zero, sizeof (zero), 0,
      GST_CL_DCT_HIST_SIZE * sizeof (cl_uint), 0, NULL, NULL);
  if (err != CL_SUCCESS)
    return gst_cl_set_error (error, err, "clEnqueueFillBuffer (histogram)");
  GST_CL_ARG (self->histogram, a++, plane->src->mem, &args);
  GST_CL_ARG (self->histogram, a++, off, &args);
  GST_CL_ARG (self->histogram, a++, plane->src->pitch, &args);
  GST_CL_ARG (self->histogram, a++, width, &args);
  GST_CL_ARG (self->histogram, a++, height, &args);
  GST_CL_ARG (self->histogram, a++, self->hist, &args);
  GST_CL_ARG (self->histogram, a++, self->shift, &args);
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
    global[1] = 1;
    local[0] = DCT_HIST_WG;
    local[1] = 1;
  }
  if (!gst_cl_enqueue_kernel (self->context, self->histogram, global[0],
          global[1], &how, error))
      return FALSE;
  /* after the kernel on the in-order queue */
  began = gst_cl_wait_begin ();
  err = clEnqueueReadBuffer (queue, self->hist, CL_TRUE, 0,
      GST_CL_DCT_HIST_SIZE * sizeof (cl_uint), hist, 0, NULL, NULL);
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
  if (self->buf)
    clReleaseMemObject (self->buf);
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
    gint pad_rows, const GstClEnqueue * how, GError ** error)
{
  const cl_uint soff = (cl_uint) plane->src->offset;
  GstClArgs args = GST_CL_ARGS_INIT;
  guint a = 0;

  GST_CL_ARG (self->pad, a++, plane->src->mem, &args);
  GST_CL_ARG (self->pad, a++, soff, &args);
  GST_CL_ARG (self->pad, a++, plane->src->pitch, &args);
  GST_CL_ARG (self->pad, a++, plane->width, &args);
  GST_CL_ARG (self->pad, a++, plane->height, &args);
  GST_CL_ARG (self->pad, a++, self->buf, &args);
  GST_CL_ARG (self->pad, a++, phase, &args);
  GST_CL_ARG (self->pad, a++, self->shift, &args);
  if (!gst_cl_args_check (&args, "dct_pad", error))
    return FALSE;
  return gst_cl_enqueue_kernel (self->context, self->pad, phase / 16,
      pad_rows, how, error);
}

/* dct_pad then dct_strips (kernels/dct-strips.cl); dct_pad waits for
 * @how's list, dct_strips follows it on the in-order queue. */
static gboolean
threshold_strips (GstClDct * self, const GstClDctPlane * plane, cl_int thr,
    guint passes, const GstClEnqueue * how, GError ** error)
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
  if (!launch_pad (self, plane, phase, pad_rows, &pad, error))
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
  GST_CL_ARG (self->stage, a++, thr, &args);
  GST_CL_ARG (self->stage, a++, plog, &args);
  GST_CL_ARG (self->stage, a++, self->shift, &args);
  if (!gst_cl_args_check (&args, "dct_strips", error))
    return FALSE;
  stage.local = local;
  stage.after.n_wait = 0;
  stage.after.wait = NULL;
  stage.what = "dct_strips";
  return gst_cl_enqueue_kernel (self->context, self->stage, strips, segments,
      &stage, error);
}

/* dct_tile, every pass in one launch (kernels/dct-tiles.cl), after
 * @how's list. */
static gboolean
threshold_tiles (GstClDct * self, const GstClDctPlane * plane, cl_int thr,
    guint passes, const GstClEnqueue * how, GError ** error)
{
  static const size_t local[2] = { DCT_WG, 1 };
  const cl_uint soff = (cl_uint) plane->src->offset;
  const cl_uint doff = (cl_uint) plane->dst->offset;
  const cl_int n = (cl_int) passes, plog = passes_log2 (passes);
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
  GST_CL_ARG (self->stage, a++, thr, &args);
  GST_CL_ARG (self->stage, a++, plog, &args);
  GST_CL_ARG (self->stage, a++, self->shift, &args);
  if (!gst_cl_args_check (&args, "dct_tile", error))
    return FALSE;
  /* a work-group a tile (kernels/dct-tiles.cl) */
  tiles.local = local;
  tiles.what = "dct_tile";
  return gst_cl_enqueue_kernel (self->context, self->stage,
      (gsize) (plane->width + DCT_TILE - 1) / DCT_TILE * DCT_WG,
      (plane->height + DCT_TILE - 1) / DCT_TILE, &tiles, error);
}

gboolean
gst_cl_dct_threshold (GstClDct * self, const GstClDctPlane * plane,
    guint threshold, guint passes, const GstClAfter * after, GError ** error)
{
  const cl_int thr = (cl_int) MIN (threshold, G_MAXINT32);
  const GstClEnqueue how = { NULL, *after, NULL };

  g_return_val_if_fail (passes_log2 (passes) >= 0 && plane->width > 0 &&
      plane->height > 0, FALSE);
  return (self->strips ? threshold_strips : threshold_tiles) (self, plane,
      thr, passes, &how, error);
}
