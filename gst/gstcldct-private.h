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

#ifndef __GST_CL_DCT_PRIVATE_H__
#define __GST_CL_DCT_PRIVATE_H__

#include "gstclcontext-private.h"

G_BEGIN_DECLS

/* The coding-noise estimate and the shifted-DCT thresholding stage
 * (kernels/dct.cl has the formulas; docs/quality.md why they are these).
 *
 * Per frame, for an 8-bit plane (luma):
 *  1. gst_cl_dct_histogram(): a histogram of three low-frequency
 *     coefficients of the plane's own 8x8 block grid, on the device;
 *  2. gst_cl_dct_estimate_step() on the host: the quantizer step those
 *     coefficients sit on (0: the picture shows no block-DCT coding);
 *  3. gst_cl_dct_auto_threshold(): the stage's threshold from the step;
 *  4. gst_cl_dct_threshold(): the stage, on the device.
 * Thresholds and steps are in quarter levels of orthonormal DCT
 * coefficients (4 = one 8-bit level). */

/* Bins per coefficient of a histogram, and coefficients per histogram. */
#define GST_CL_DCT_BINS 1024
#define GST_CL_DCT_HIST_COEFFS 3
#define GST_CL_DCT_HIST_SIZE (GST_CL_DCT_BINS * GST_CL_DCT_HIST_COEFFS)

/* The stage's largest number of passes (block grids). */
#define GST_CL_DCT_MAX_PASSES 16

/* Default gain of gst_cl_dct_auto_threshold(), in 16ths: the best of
 * 6..14 on the FIT sequences of tools/quality/auto.py (docs/quality.md). */
#define GST_CL_DCT_DEFAULT_GAIN 10

typedef struct _GstClDct GstClDct;

/* Builds the kernels of kernels/dct.cl for @context's device (through the
 * program cache) and keeps a reference on @context. Returns a new GstClDct
 * (free with gst_cl_dct_free()), or NULL with @error set. */
GstClDct *gst_cl_dct_new (GstClContext * context, GError ** error);

/* Releases @self's kernels, buffers and context reference; NULL is allowed. */
void gst_cl_dct_free (GstClDct * self);

/* Counts, over the 8x8 blocks of the plane's own grid that lie wholly inside
 * the @width x @height plane (@src_pitch bytes per row, from byte
 * @src_offset of @src), |X| of the coefficients (u, v) = (1, 0), (0, 1),
 * (1, 1) in quarter levels, clamped to GST_CL_DCT_BINS - 1, and reads the
 * counts into @hist (GST_CL_DCT_HIST_SIZE entries, coefficient-major);
 * waits for the device. Returns FALSE with @error set on failure. */
gboolean gst_cl_dct_histogram (GstClDct * self, cl_mem src, gsize src_offset,
    gint src_pitch, gint width, gint height, guint32 * hist, GError ** error);

/* The quantizer step (quarter levels, 24..255) that the values of one
 * coefficient's histogram @hist (GST_CL_DCT_BINS entries) lie on, or 0 if
 * they lie on none; plain C, the same on every host. */
guint gst_cl_dct_comb_step (const guint32 * hist);

/* The frame's step from a whole histogram (GST_CL_DCT_HIST_SIZE entries):
 * the median of the three coefficients' steps when at least two are found
 * (the larger of two), else 0. */
guint gst_cl_dct_estimate_step (const guint32 * hist);

/* The stage's threshold for quantizer step @step: (@step * @gain + 8) >> 4,
 * @gain in 16ths; 0 (stage off) for step 0. */
guint gst_cl_dct_auto_threshold (guint step, guint gain);

/* What strength=auto carries from one frame to the next: frames without a
 * step of their own (MPEG-2's P and B frames show no comb) keep the last
 * one found for a while. Zero-initialised: nothing held. */
typedef struct
{
  guint held_step;              /* the last quantizer step found */
  guint held_frames;            /* frames since it was found */
  guint threshold;              /* the last frame's threshold */
} GstClDctAuto;

/* The stage's threshold for the frame whose histogram is @hist
 * (GST_CL_DCT_HIST_SIZE entries), from its own step or the one @state
 * holds; 0: the frame shows no coding, copy it. Updates @state. This is
 * the one place where strength=auto decides a frame's strength. */
guint gst_cl_dct_auto_update (GstClDctAuto * state, const guint32 * hist);

/* Forgets what @state holds (a new stream: flush, EOS, new caps). */
void gst_cl_dct_auto_reset (GstClDctAuto * state);

/* Enqueues the stage on an 8-bit plane: @dst (from byte @dst_offset,
 * @dst_pitch bytes per row) gets the mean of @passes (1, 2, 4, 8 or 16)
 * inverse 8x8 DCTs of @src's blocks on shifted grids, AC coefficients with
 * |X| < @threshold zeroed. @src and @dst must not overlap; @threshold 0 is
 * not a no-op (the caller copies instead). Uses a scratch buffer of @self,
 * so calls on one GstClDct must come from one thread; does not wait. The
 * event of its last command goes to @event where not NULL (what comes
 * after it on another queue waits for that). Returns FALSE with @error set
 * on failure. */
gboolean gst_cl_dct_threshold (GstClDct * self, cl_mem src, gsize src_offset,
    gint src_pitch, cl_mem dst, gsize dst_offset, gint dst_pitch, gint width,
    gint height, guint threshold, guint passes, cl_event * event,
    GError ** error);

/* The block offsets (x, y) of pass @i of @passes: FFmpeg spp's pattern. */
void gst_cl_dct_pass_offset (guint passes, guint i, gint * sx, gint * sy);

G_END_DECLS

#endif /* __GST_CL_DCT_PRIVATE_H__ */
