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
#include "dct-shared.h"

G_BEGIN_DECLS

/* The coding-noise estimate and the shifted-DCT thresholding stage
 * (kernels/dct.cl has the formulas, dct-strips.cl and dct-passes.cl the
 * kernels of the two shapes; docs/quality.md the figures).
 *
 * Per frame, for a plane (luma) of 8-bit samples or of 10-bit samples in
 * 16-bit words:
 *  1. gst_cl_dct_histogram(): a histogram of three low-frequency
 *     coefficients of the plane's own 8x8 block grid, on the device;
 *  2. gst_cl_dct_auto_update() on the host: the lattice those coefficients
 *     sit on (gst_cl_dct_lattice(): multiples of a step for MPEG-1/2,
 *     MPEG-4's MPEG quantization and JPEG, in any range; H.263's odd
 *     multiples for H.263 and MPEG-4 Part 2's default), the stage's
 *     threshold from its spacing, or a part of the last one found for a
 *     frame that shows none (predicted frames); 0: no coding found;
 *  3. gst_cl_dct_threshold(): the stage, on the device.
 * Thresholds and steps are in quarter levels of orthonormal DCT
 * coefficients (4 = one 8-bit level), which are 10-bit levels: one scale
 * for both sample sizes (kernels/dct.cl); lattice spacings in quarter
 * quarter levels (16 = one level). */

/* Bins per coefficient of a histogram, and coefficients per histogram
 * (kernels/dct-shared.h: the kernels' sizes). */
#define GST_CL_DCT_BINS DCT_BINS
#define GST_CL_DCT_HIST_COEFFS DCT_HIST_COEFFS
#define GST_CL_DCT_HIST_SIZE (GST_CL_DCT_BINS * GST_CL_DCT_HIST_COEFFS)

/* The stage's largest number of passes (block grids). */
#define GST_CL_DCT_MAX_PASSES 16

/* strength=auto's parameters (GstClDctAutoParams), fitted on the FIT set of
 * tests/quality/heldout.py ('heldout.py fit'; the set was frozen in
 * tests/quality/heldout.json before): gains in 16ths of the lattice's
 * spacing; the MULTIPLES gain (4..12), the strong gain (0, 2, .., 14) and
 * level (5 or 7 half steps) together, the best on the families that show
 * multiples, then the H263 gain (1..14); the hold gains, 16 times the
 * median over FIT's video frames of the stage's best fixed threshold
 * over the one found on the last intra frame ('heldout.py held'): 0.89
 * on P and B frames (14), 0.59 on the B frames just before an intra frame
 * (9), which are predicted from that next intra frame, so that their
 * coding noise is not the held one's; the late frames, 2: the B frames
 * between reference frames of DVD MPEG-2 and Xvid (and of the FIT
 * videos). The element cannot tell a B frame from a P frame, so in
 * streams without B frames the last two P frames before an intra frame
 * take the late gain too (they want about the early one: H.263's REPORT
 * mean fell from +0.568 to +0.555 dB). While the distance between intra
 * frames is unknown (the first GOP), every predicted frame takes the late
 * gain: where the next intra frame comes is unknown. (One hold gain of 12
 * for every predicted frame, the largest FIT mean, gained 0.007 dB more
 * on FIT and lost 0.19 dB on a B frame of an unseen video.) The count,
 * the lowest of 24..64 (all equal on FIT, and none makes auto act on an
 * H.264, HEVC or pristine frame). The strong share lifts a coefficient's threshold
 * from 5/16 of the step (4/16 on H.263's lattice: fine texture, many small
 * levels) towards 17/16 (16/16: edges on flat areas): the best fixed
 * threshold of a frame follows that share (a correlation of 0.68 on FIT).
 * (Before the strong share, a threshold of gain x spacing + offset gained
 * 0.003 dB more on FIT and lost 0.11 dB on a frame: not kept.) */
#define GST_CL_DCT_DEFAULT_GAIN 5
#define GST_CL_DCT_DEFAULT_GAIN_H263 4
#define GST_CL_DCT_DEFAULT_STRONG_GAIN 12
#define GST_CL_DCT_DEFAULT_STRONG_LEVEL 5
#define GST_CL_DCT_DEFAULT_HOLD_GAIN 14
#define GST_CL_DCT_DEFAULT_HOLD_GAIN_LATE 9
#define GST_CL_DCT_DEFAULT_LATE_FRAMES 2
#define GST_CL_DCT_DEFAULT_MIN_COUNT 24

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
 * row), @width x @height samples of one component. (GstClStagePlane's
 * @xstep and @shift are not the stage's: it takes one component, and the
 * shift given to gst_cl_dct_new().) */
typedef struct
{
  const GstClPlaneRef *src;
  const GstClPlaneRef *dst;
  gint width;
  gint height;
} GstClDctPlane;

/* Counts, over the 8x8 blocks of the plane's own grid that lie wholly inside
 * @plane's source, |X| of the coefficients (u, v) = (1, 0), (0, 1), (1, 1)
 * in quarter levels, clamped to GST_CL_DCT_BINS - 1, and reads the counts
 * into @hist (GST_CL_DCT_HIST_SIZE entries, coefficient-major). Its kernel
 * runs after @after's wait list (say a frame's upload) and adds its event
 * to @after's events, as gst_cl_stage_run()'s do; waits on the CPU for the
 * counts. Returns FALSE with @error set on failure. */
gboolean gst_cl_dct_histogram (GstClDct * self, const GstClDctPlane * plane,
    const GstClAfter * after, guint32 * hist, GError ** error);

/* The lattices a block-DCT decoder leaves one coefficient's values on. */
typedef enum
{
  GST_CL_DCT_LATTICE_NONE,
  /* |X| = L s: MPEG-1/2 and MPEG-4 (MPEG quantization) intra blocks,
   * JPEG; s need not be a whole number of quarter levels (MPEG-4's
   * matrices, a full-to-limited range conversion) */
  GST_CL_DCT_LATTICE_MULTIPLES,
  /* |X| = qp (2 L + 1) - (qp even): H.263, MPEG-4 Part 2 with H.263
   * quantization (DivX, Xvid's default), spacing 2 qp */
  GST_CL_DCT_LATTICE_H263,
} GstClDctLattice;

/* The lattice the values of one coefficient's histogram @hist
 * (GST_CL_DCT_BINS entries) lie on, and its spacing in @spacing (quarter
 * quarter levels: 16 = one 8-bit level), or NONE (@spacing 0) where fewer
 * than @min_count values are read; plain C, the same on every host. Where
 * both fit, the one that holds more values, on a tie the coarser. */
GstClDctLattice gst_cl_dct_lattice (const guint32 * hist, guint min_count,
    guint * spacing);

/* strength=auto's fitted parameters (tests/quality/heldout.py fits them on
 * its FIT set): gains in 16ths. */
typedef struct
{
  guint gain;                   /* threshold / spacing, MULTIPLES */
  guint gain_h263;              /* threshold / spacing, H263 */
  /* added to either gain, times the share of the coefficient's coded
   * values that are strong: @strong_level half steps or more (edges and
   * flat areas keep few small levels, fine texture many, which a high
   * threshold would take off) */
  guint strong_gain;
  guint strong_level;
  guint hold_gain;              /* a predicted frame's threshold / the held one */
  /* the same for the last @late_frames frames before the next intra frame
   * is due, and for every predicted frame while that is unknown */
  guint hold_gain_late;
  guint late_frames;
  guint min_count;              /* values a coefficient needs (gst_cl_dct_lattice) */
} GstClDctAutoParams;

/* Fills @params with the defaults (GST_CL_DCT_DEFAULT_*). */
void gst_cl_dct_auto_params_init (GstClDctAutoParams * params);

/* The threshold of a frame whose histogram is @hist (GST_CL_DCT_HIST_SIZE
 * entries) from its own lattices: the median of the coefficients' (gain,
 * by lattice, plus strong_gain times their share of strong values, times
 * spacing) where at least two show one, else 0. */
guint gst_cl_dct_frame_threshold (const guint32 * hist,
    const GstClDctAutoParams * params);

/* How many of the last distances between intra frames strength=auto keeps
 * (the longest is taken): a GOP split in two by an early intra frame leaves
 * the regular one among them. */
#define GST_CL_DCT_AUTO_DISTANCES 3

/* What strength=auto carries from one frame to the next: frames without a
 * lattice of their own (predicted frames: the prediction hides it) take
 * a part of the last threshold found for a while. Zero-initialised:
 * nothing held. */
typedef struct
{
  guint held_step;              /* the last frame threshold found */
  guint held_frames;            /* frames since it was found */
  /* frames since the first of the last run of frames with a lattice (an
   * intra frame, and predicted frames that show its lattice still); the
   * last distances between the first frames of two such runs, the latest
   * first (0: none yet), and the longest of them: the distance between
   * intra frames; 0: not known yet */
  guint run_age;
  guint distances[GST_CL_DCT_AUTO_DISTANCES];
  guint period;
  guint threshold;              /* the last frame's threshold */
} GstClDctAuto;

/* The stage's threshold for the frame whose histogram is @hist
 * (GST_CL_DCT_HIST_SIZE entries), from its own lattices or what @state
 * holds; 0: the frame shows no coding, copy it. Updates @state. This is
 * the one place where strength=auto decides a frame's strength. */
guint gst_cl_dct_auto_update (GstClDctAuto * state, const guint32 * hist);

/* gst_cl_dct_auto_update() with other parameters than the defaults (the
 * fit). */
guint gst_cl_dct_auto_update_with (GstClDctAuto * state,
    const guint32 * hist, const GstClDctAutoParams * params);

/* Forgets what @state holds (a new stream: flush, EOS, new caps). */
void gst_cl_dct_auto_reset (GstClDctAuto * state);

/* Enqueues the stage on @plane: its @dst gets the mean of @passes (1, 2,
 * 4, 8 or 16) inverse 8x8 DCTs of its @src's blocks on shifted grids, AC
 * coefficients with |X| < @threshold zeroed. @src and @dst must not
 * overlap; @threshold 0 is not a no-op (the caller copies instead). Uses a
 * scratch buffer of @self, so calls on one GstClDct must come from one
 * thread; does not wait. Its first kernel runs after @after's wait list,
 * the others after it on the in-order queue; the kernels' events are added
 * to @after's events, the last one last (what comes after the stage on
 * another queue waits for that), as gst_cl_stage_run()'s are. Returns
 * FALSE with @error set on failure. */
gboolean gst_cl_dct_threshold (GstClDct * self, const GstClDctPlane * plane,
    guint threshold, guint passes, const GstClAfter * after, GError ** error);

/* The block offsets (x, y) of pass @i of @passes: FFmpeg spp's pattern. */
void gst_cl_dct_pass_offset (guint passes, guint i, gint * sx, gint * sy);

G_END_DECLS

#endif /* __GST_CL_DCT_PRIVATE_H__ */
