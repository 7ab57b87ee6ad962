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

#ifndef __GST_CL_DCT_ESTIMATE_PRIVATE_H__
#define __GST_CL_DCT_ESTIMATE_PRIVATE_H__

#include <glib.h>
#include "dct-shared.h"
#include "dct-estimate.h"

G_BEGIN_DECLS
/* strength=auto's estimate, on the host: from a histogram of three
 * low-frequency coefficients of a plane's 8x8 block grid
 * (gst_cl_dct_histogram(), gstcldct-private.h), the lattice a block-DCT
 * decoder left them on and the threshold of the shifted-DCT stage; pure
 * functions of the histogram and of what one frame carries to the next
 * (GstClDctAuto), the same on every host and testable without a device.
 * Thresholds and steps are in quarter levels of orthonormal DCT
 * coefficients (4 = one 8-bit level); lattice spacings in quarter quarter
 * levels (16 = one level). */
/* Bins per coefficient of a histogram, and coefficients per histogram
 * (kernels/dct-shared.h: the kernels' sizes). */
#define GST_CL_DCT_BINS DCT_BINS
#define GST_CL_DCT_HIST_COEFFS DCT_HIST_COEFFS
#define GST_CL_DCT_HIST_SIZE (GST_CL_DCT_BINS * GST_CL_DCT_HIST_COEFFS)
/* The bit of a threshold for gst_cl_dct_threshold() that says the stage
 * works on each field of an interlaced plane alone. */
#define GST_CL_DCT_IN_FIELDS DCT_STAGE_FIELDS
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
 * videos). (These serve now where the stream tells an intra frame whose
 * lattice is not found; raw frames take the UNTOLD gains below.) The
 * element cannot tell a B frame from a P frame, so in
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
/* Where the coded stream tells a predicted frame's type and quantiser
 * (GstClDctCoding), the hold gains by type instead of by position: fitted
 * on the real-world set's FIT split (tests/quality/realworld.py fit), whose
 * rate-controlled MPEG-1/2 and MPEG-4 B frames want about half the held
 * threshold whatever their quantiser, and whose P frames want it scaled
 * by their quantiser over the held one's (correlation 0.80 of the logs),
 * about as its square root, within a quarter to twice. */
#define GST_CL_DCT_DEFAULT_HOLD_GAIN_P 10
#define GST_CL_DCT_DEFAULT_HOLD_GAIN_B 6
/* The quantiser ratio's lower bound, in 16ths: a quarter (FIT's worst frame
 * -0.08 dB, against -0.10 with a half). The power, in 16ths, of a B
 * frame's ratio below 1 that scales its threshold: none (on FIT, 8 to 24
 * lowered the mean and raised no worst frame; realworld.py fit's trials
 * set it). */
#define GST_CL_DCT_DEFAULT_RATIO_MIN 4
#define GST_CL_DCT_DEFAULT_B_RATIO_POWER 0
/* Before the second intra frame, where a rate control's quantisers have
 * not settled (the first intra frame coded far coarser than the frames
 * predicted from it), a P or B frame keeps half of what it would later:
 * on FIT the worst frame from -0.08 to -0.03 dB, the mean of the MPEG
 * codings 0.01 to 0.05 dB lower (3/4 kept FIT's worst at -0.05 but left
 * frames down to -0.30 dB on REPORT). Not applied where the stream does
 * not tell the types: there the first group already takes the late gain. */
#define GST_CL_DCT_DEFAULT_FIRST_GOP 8
/* Where the stream tells no frame's type (raw frames, a decoder that does
 * not say), every frame without a lattice of its own is held by position
 * at these: fitted on the real-world set's FIT split as raw frames
 * (tests/quality/realworld.py fit, with HOLD_GAIN and HOLD_GAIN_LATE
 * swept), the largest mean with no frame below -0.05 dB: 6 and 3 (FIT's
 * worst -0.03 dB; 14 and 9, the fixed-quantiser set's, left frames down
 * to -1.38 dB on FIT: rate-controlled B frames are coded coarser and want
 * far less of the held threshold, and a raw frame does not say it is
 * one). An intra frame the stream tells, whose lattice is not found,
 * keeps HOLD_GAIN and HOLD_GAIN_LATE. */
#define GST_CL_DCT_DEFAULT_HOLD_GAIN_UNTOLD 6
#define GST_CL_DCT_DEFAULT_HOLD_GAIN_UNTOLD_LATE 3
/* H.264's luma threshold from its stream's quantiser, in 16ths of the
 * quantiser step (0.625 x 2^(QP/6)); a B frame 3/4 of it. H.264's
 * deblocking filter and 4x4 transforms leave no lattice for the estimate
 * to find, yet its ringing is there: fitted on the real-world set's FIT
 * split (the x264 coding, each frame's slice QP as the element reads it,
 * the stage's error interpolated between fixed thresholds), half the step
 * on I and P frames and 3/8 on B frames gave +0.047 dB, the worst frame
 * -0.005; the whole step on every frame +0.041, the worst -0.39. */
#define GST_CL_DCT_H264_GAIN 8
#define GST_CL_DCT_H264_GAIN_B 6
/* The lattices a block-DCT decoder leaves one coefficient's values on. */
    typedef enum
{
  GST_CL_DCT_LATTICE_NONE = EST_LATTICE_NONE,
  /* |X| = L s: MPEG-1/2 and MPEG-4 (MPEG quantization) intra blocks,
   * JPEG; s need not be a whole number of quarter levels (MPEG-4's
   * matrices, a full-to-limited range conversion) */
  GST_CL_DCT_LATTICE_MULTIPLES = EST_LATTICE_MULTIPLES,
  /* |X| = qp (2 L + 1) - (qp even): H.263, MPEG-4 Part 2 with H.263
   * quantization (DivX, Xvid's default), spacing 2 qp */
  GST_CL_DCT_LATTICE_H263 = EST_LATTICE_H263,
} GstClDctLattice;

/* The lattice the values of one coefficient's histogram @hist
 * (GST_CL_DCT_BINS entries) lie on, and its spacing in @spacing (quarter
 * quarter levels: 16 = one 8-bit level), or NONE (@spacing 0) where fewer
 * than @min_count values are read; plain C, the same on every host. Where
 * both fit, the one that holds more values, on a tie the coarser. */
GstClDctLattice gst_cl_dct_lattice (const guint32 * hist, guint min_count,
    guint * spacing);

/* strength=auto's fitted parameters (tests/quality/heldout.py fits them on
 * its FIT set): gains in 16ths; the fields are kernels/dct-estimate.h's
 * (EstParams), where the device reads them too. */
typedef EstParams GstClDctAutoParams;

/* Fills @params with the defaults (GST_CL_DCT_DEFAULT_*). */
void gst_cl_dct_auto_params_init (GstClDctAutoParams * params);

/* Fills @params with what the chroma planes take: the defaults, but no
 * hold on B frames, nor on any frame where the stream does not tell the
 * frames' types (@coded FALSE): a chroma plane is thresholded where it
 * shows a lattice of its own, and held only on intra and P frames. Held
 * as luma is, chroma lost up to 0.8 dB on B frames of rate-controlled
 * VCD and Xvid streams (the real-world set's FIT split). Holding B frames
 * at 4/16 and P frames at 14/16, the best of a sweep on FIT (worst plane
 * -0.04 dB there), raised the REPORT split's chroma means by 0.03 to 0.05
 * dB but its chroma planes below -0.10 dB from 4 to 34 (Xvid) and 0 to 3
 * (DVD), and the CPU time of a 1080p MPEG-2 transcode by 14%: not kept. */
void gst_cl_dct_auto_chroma_params_init (GstClDctAutoParams * params,
    gboolean coded);

/* The threshold of a frame whose histogram is @hist (GST_CL_DCT_HIST_SIZE
 * entries) from its own lattices: the median of the coefficients' (gain,
 * by lattice, plus strong_gain times their share of strong values, times
 * spacing) where at least two show one, else 0. */
guint gst_cl_dct_frame_threshold (const guint32 * hist,
    const GstClDctAutoParams * params);

/* A frame's picture type, as its coded stream says it. */
typedef enum
{
  GST_CL_DCT_PICTURE_UNKNOWN = EST_PICTURE_UNKNOWN,
  GST_CL_DCT_PICTURE_INTRA = EST_PICTURE_INTRA,
  GST_CL_DCT_PICTURE_P = EST_PICTURE_P, /* MPEG-4's S (sprite) VOPs too */
  GST_CL_DCT_PICTURE_B = EST_PICTURE_B,
} GstClDctPicture;

/* What the coded stream says of a frame, where the pipeline carries it:
 * its type and its quantiser, in the codec's own units (only ratios
 * between frames of one stream are used); 0: not known. */
typedef struct
{
  GstClDctPicture picture;
  gdouble quantiser;
} GstClDctCoding;

/* H.264's quantizer step (in 8-bit levels) at QP @qp: 0.625 x 2^(QP/6),
 * @qp clamped to H.264's -12..51. */
gdouble gst_cl_dct_h264_step (gdouble qp);

/* The stage's threshold for a frame of H.264 (8 bits or more: the
 * threshold is in 8-bit units) whose slices' mean QP is @qp and whose type
 * is @picture: GST_CL_DCT_H264_GAIN of the quantiser step
 * (gst_cl_dct_h264_step()), on B frames GST_CL_DCT_H264_GAIN_B. */
guint gst_cl_dct_h264_threshold (GstClDctPicture picture, gdouble qp);

/* How many of the last distances between intra frames strength=auto keeps
 * (kernels/dct-estimate.h). */
#define GST_CL_DCT_AUTO_DISTANCES EST_DISTANCES

/* What strength=auto carries from one frame to the next: frames without a
 * lattice of their own (predicted frames: the prediction hides it) take
 * a part of the last threshold found for a while. Zero-initialised:
 * nothing held. The fields are kernels/dct-estimate.h's (EstState): one
 * layout on the host and in a device buffer. */
typedef EstState GstClDctAuto;

/* Why strength=auto leaves a stream alone, once it has seen
 * GST_CL_DCT_IDLE_FRAMES frames and found a lattice on none. */
typedef enum
{
  GST_CL_DCT_IDLE_NO,           /* it acts, or has not seen enough frames */
  /* detail enough, but on no lattice: a codec that deblocks (H.264,
   * HEVC), a source never coded, or one scaled after decoding */
  GST_CL_DCT_IDLE_NO_LATTICE,
  GST_CL_DCT_IDLE_FLAT,         /* too few coded values to read a lattice */
} GstClDctIdle;

/* Frames strength=auto looks at before it says it finds nothing to do:
 * more than a group of pictures of DVD, broadcast or camera video. */
#define GST_CL_DCT_IDLE_FRAMES EST_IDLE_FRAMES

/* Whether, and why, what @state has seen since its reset shows nothing
 * for the stage to do: after GST_CL_DCT_IDLE_FRAMES frames, or at the
 * end of a shorter stream (@at_end) after one. */
GstClDctIdle gst_cl_dct_auto_idle (const GstClDctAuto * state, gboolean at_end);

/* The stage's threshold for the frame whose histogram is @hist
 * (GST_CL_DCT_HIST_SIZE entries), from its own lattices or what @state
 * holds; 0: the frame shows no coding, copy it. Updates @state. This is
 * the one place where strength=auto decides a frame's strength. */
guint gst_cl_dct_auto_update (GstClDctAuto * state, const guint32 * hist);

/* gst_cl_dct_auto_update() for a frame whose coding the stream tells
 * (@coding; NULL or GST_CL_DCT_PICTURE_UNKNOWN: as
 * gst_cl_dct_auto_update()): a P or B frame without a lattice of its own
 * takes the hold gain of its type instead of one by its position. */
guint gst_cl_dct_auto_update_coded (GstClDctAuto * state,
    const guint32 * hist, const GstClDctCoding * coding);

/* gst_cl_dct_auto_update_coded() with other parameters than the defaults
 * (the fit). */
guint gst_cl_dct_auto_update_with (GstClDctAuto * state,
    const guint32 * hist, const GstClDctCoding * coding,
    const GstClDctAutoParams * params);

/* gst_cl_dct_auto_update_with() for the luma of an interlaced frame: where
 * its grid's histogram @hist shows no lattice, its macroblocks' @mb_hist
 * (gst_cl_dct_histogram(); NULL: none) gives the frame's threshold, and
 * the stage then works on each field alone, on this frame and on those
 * that hold its threshold (gst_cl_dct_auto_stage_word()). */
guint gst_cl_dct_auto_update_interlaced (GstClDctAuto * state,
    const guint32 * hist, const guint32 * mb_hist,
    const GstClDctCoding * coding, const GstClDctAutoParams * params);

/* What gst_cl_dct_threshold() takes for a frame, @interlaced or not, whose
 * threshold from @state's last update is @threshold: @threshold, with
 * GST_CL_DCT_IN_FIELDS where the stage works on each field alone. */
guint gst_cl_dct_auto_stage_word (const GstClDctAuto * state,
    guint threshold, gboolean interlaced);

/* Forgets what @state holds (a new stream: flush, EOS, new caps). */
void gst_cl_dct_auto_reset (GstClDctAuto * state);

G_END_DECLS
#endif /* __GST_CL_DCT_ESTIMATE_PRIVATE_H__ */
