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
#include "gstclframe-private.h"
#include "gstclstage-private.h"
#include "gstcldctestimate-private.h"
#include "dct-shared.h"

G_BEGIN_DECLS

/* The coding-noise estimate's histogram and the shifted-DCT thresholding
 * stage, on the device; the estimate on the host is
 * gstcldctestimate-private.h (kernels/dct.cl has the formulas, dct-strips.cl
 * and dct-tiles.cl the kernels of the two shapes; docs/quality.md the
 * figures).
 *
 * Per frame, for a plane (luma) of 8-bit samples or of 10-bit samples in
 * 16-bit words:
 *  1. gst_cl_dct_histogram(): a histogram of three low-frequency
 *     coefficients of the plane's own 8x8 block grid, on the device;
 *  2. gst_cl_dct_auto_update() on the host, or the same formulas on the
 *     device in gst_cl_dct_auto() (kernels/dct-estimate.h): the lattice
 *     those coefficients sit on (gst_cl_dct_lattice(): multiples of a step
 *     for MPEG-1/2,
 *     MPEG-4's MPEG quantization and JPEG, in any range; H.263's odd
 *     multiples for H.263 and MPEG-4 Part 2's default), the stage's
 *     threshold from its spacing, or a part of the last one found for a
 *     frame that shows none (predicted frames); 0: no coding found;
 *  3. gst_cl_dct_threshold(): the stage, on the device.
 * Thresholds and steps are in quarter levels of orthonormal DCT
 * coefficients (4 = one 8-bit level), which are 10-bit levels: one scale
 * for both sample sizes (kernels/dct.cl); lattice spacings in quarter
 * quarter levels (16 = one level). */

/* The stage's largest number of passes (block grids). */
#define GST_CL_DCT_MAX_PASSES 16

typedef struct _GstClDct GstClDct;

/* Builds the DCT kernels (kernels/dct*.cl) for @context's device (through the
 * program cache) and keeps a reference on @context, for planes of @depth
 * bits a sample: 8 (bytes, @shift 0), or 10 in little-endian 16-bit words
 * with the value from bit @shift (0; 6 for P010), the other bits ignored
 * and written as 0. Every plane handed to the GstClDct is of that kind;
 * offsets and pitches stay in bytes (even ones for words). Returns a new
 * GstClDct (free with gst_cl_dct_free()), or NULL with @error set. */
GstClDct *gst_cl_dct_new (GstClContext * context, guint depth, guint shift,
    GError ** error);

/* Releases @self's kernels, buffers and context reference; NULL is allowed. */
void gst_cl_dct_free (GstClDct * self);

/* One plane for the DCT kernels: @src (and for the stage @dst, else
 * unread) an OpenCL buffer each (@mem, from byte @offset, @pitch bytes per
 * row), @width x @height samples of one component, or of each of two
 * (@components below). (GstClStagePlane's @xstep and @shift are not the
 * stage's: it takes one component, @xstep samples apart, and the shift
 * given to gst_cl_dct_new().) */
typedef struct
{
  const GstClPlaneRef *src;
  const GstClPlaneRef *dst;
  gint width;
  gint height;
  /* the luma of an interlaced frame: its macroblocks may be coded field
   * by field (MPEG-2's field DCT), and strength=auto looks at them where
   * the plane's grid shows no lattice (kernels/dct.cl) */
  gboolean interlaced;
  /* samples of the component apart in a row: 0 or 1 for a plane of its
   * own; 2 for one component of interleaved chroma (NV12), read and
   * written in place, where gst_cl_dct_reads_interleaved() */
  gint xstep;
  /* 0 or 1; or 2 components of interleaved chroma, the second's samples
   * @component_step bytes after the first's, run together by
   * gst_cl_dct_auto() where gst_cl_dct_reads_interleaved() */
  gint components;
  gint component_step;
} GstClDctPlane;

/* Counts, over the 8x8 blocks of the plane's own grid that lie wholly inside
 * @plane's source, |X| of the coefficients (u, v) = (1, 0), (0, 1), (1, 1)
 * in quarter levels, clamped to GST_CL_DCT_BINS - 1, and reads the counts
 * into @hist (GST_CL_DCT_HIST_SIZE entries, coefficient-major); where
 * @plane is interlaced, the same over the blocks of its whole 16x16
 * macroblocks, each macroblock's as frame or field blocks as its
 * vertical activity says (kernels/dct.cl), into @mb_hist (NULL
 * otherwise). Its kernels run after @after's wait list (say a frame's
 * upload) and add their events to @after's events, as gst_cl_stage_run()'s
 * do; waits on the CPU for the counts. Returns FALSE with @error set on
 * failure. */
gboolean gst_cl_dct_histogram (GstClDct * self, const GstClDctPlane * plane,
    const GstClAfter * after, guint32 * hist, guint32 * mb_hist,
    GError ** error);

/* Enqueues the stage on @plane: its @dst gets the mean of @passes (1, 2,
 * 4, 8 or 16) inverse 8x8 DCTs of its @src's blocks on shifted grids, AC
 * coefficients with |X| < @threshold zeroed; @threshold 0 copies @src as
 * it is (the stage at 0 would not: it rounds). @src and @dst must not
 * overlap. Uses a
 * scratch buffer of @self, so calls on one GstClDct must come from one
 * thread; does not wait. Its first kernel runs after @after's wait list,
 * the others after it on the in-order queue; the kernels' events are added
 * to @after's events, the last one last (what comes after the stage on
 * another queue waits for that), as gst_cl_stage_run()'s are. Returns
 * FALSE with @error set on failure. */
gboolean gst_cl_dct_threshold (GstClDct * self, const GstClDctPlane * plane,
    guint threshold, guint passes, const GstClAfter * after, GError ** error);

/* Whether strength=auto is decided on the device (gst_cl_dct_auto()):
 * on a device that does not work on host memory and has doubles (or as
 * GST_CL_AUTO_DECIDE says, gstclcontext-private.h); else the host decides
 * between gst_cl_dct_histogram() and gst_cl_dct_threshold(). */
gboolean gst_cl_dct_decides (GstClDct * self);

/* Whether @self's kernels take a component of interleaved chroma in place
 * (GstClDctPlane's @xstep 2): those of the shape for GPUs (dct-tiles.cl),
 * whose stage also copies a plane at a threshold of 0 itself; the CPU
 * shape's planes must be unpacked. */
gboolean gst_cl_dct_reads_interleaved (GstClDct * self);

/* strength=auto on @plane, all on the device, nothing waited for: the
 * histogram, the decision (kernels/dct-estimate.cl: the formulas of
 * gst_cl_dct_auto_update_with(), the same thresholds) with @params and
 * @coding (may be NULL) on the device's state of plane @index (below the
 * GST_VIDEO_MAX_PLANES that @self keeps, each zeroed at first and by
 * gst_cl_dct_auto_reset_states()), then the stage at its threshold with
 * @passes, or a copy where it is 0. A @plane of two components: each
 * with its own histogram, decision (states @index and @index + 1) and
 * threshold: the histograms and the stage in the same launches, a
 * decision a launch. Ordered and reported as
 * gst_cl_dct_threshold() is. Only where gst_cl_dct_decides(). */
gboolean gst_cl_dct_auto (GstClDct * self, const GstClDctPlane * plane,
    guint index, const GstClDctAutoParams * params,
    const GstClDctCoding * coding, guint passes, const GstClAfter * after,
    GError ** error);

/* Enqueues the zeroing of every plane's state on the device (a new
 * stream), after the commands enqueued before, and forgets the last state
 * read and the reads in CUDA whose frames were not waited for; TRUE where
 * none is kept. */
gboolean gst_cl_dct_auto_reset_states (GstClDct * self, GError ** error);

/* Enqueues the read of plane @index's state on the device, after the
 * commands enqueued before (in CUDA where @after, which may be NULL, says
 * so): gst_cl_dct_last_state() gives it once done. Only where
 * gst_cl_dct_decides(). */
gboolean gst_cl_dct_read_state (GstClDct * self, guint index,
    const GstClAfter * after, GError ** error);

/* Copies to @state (may be NULL) the latest state read back that has
 * completed, after waiting for every read in flight through OpenCL where
 * @wait (zeroed: none yet, or none since the last reset); a read in CUDA
 * completes at the wait for its frame (gstclcudaexec.c), on the same
 * thread. */
void gst_cl_dct_last_state (GstClDct * self, gboolean wait,
    GstClDctAuto * state);

/* The block offsets (x, y) of pass @i of @passes: FFmpeg spp's pattern. */
void gst_cl_dct_pass_offset (guint passes, guint i, gint * sx, gint * sy);

G_END_DECLS

#endif /* __GST_CL_DCT_PRIVATE_H__ */
