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

/* strength=auto's estimate, written once for the host and the device:
 * gst/gstcldctestimate.c includes this file, and the decision kernel
 * (kernels/dct-estimate.cl) is built with it prepended, after
 * dct-shared.h. Valid C (with GLib) and OpenCL C with cl_khr_fp64; the
 * host's search loops over the candidate steps one after the other, the
 * kernel's work-items share them, and both keep the largest that fits.
 * Integers but for a P frame's quantiser ratio: doubles, whose divisions
 * and square roots are correctly rounded on both sides, and no multiply
 * is fused into an add (OpenCL's FP_CONTRACT OFF, the host's
 * -ffp-contract=off): the same threshold on any device as on the host.
 * (pow() is not correctly rounded in OpenCL: a B frame's ratio power,
 * 0 in the element and skipped there, may round otherwise on a device.)
 * Thresholds and steps are in quarter levels of orthonormal DCT
 * coefficients (4 = one 8-bit level); lattice spacings in quarter quarter
 * levels (16 = one level). */

#ifndef __GST_CL_DCT_ESTIMATE_H__
#define __GST_CL_DCT_ESTIMATE_H__

#ifdef __OPENCL_VERSION__
/* before the first double, and over every formula below */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
typedef uint est_u32;
typedef ulong est_u64;
typedef double est_f64;
/* the prefix sums (local memory), the histograms and states (global) */
#define EST_SUMS __local
#define EST_GLOBAL __global
#define EST_FN
#else
#include <math.h>
typedef guint32 est_u32;
typedef guint64 est_u64;
typedef gdouble est_f64;
#define EST_SUMS
#define EST_GLOBAL
#define EST_FN static inline
#endif

#define EST_LOWER(a, b) ((a) < (b) ? (a) : (b))
#define EST_HIGHER(a, b) ((a) > (b) ? (a) : (b))

/* The lattice search: values below EST_MIN are rounding noise around a
 * zeroed coefficient; a lattice fits when EST_FIT / 64 of the other values
 * lie near one of its nonzero points; steps EST_STEP_MAX down to
 * EST_STEP_MIN quarter levels are tried, the first (largest) that fits
 * wins, so that its divisors, which fit too, are not taken for it. */
#define EST_MIN 6
#define EST_FIT 40
#define EST_STEP_MIN 24
#define EST_STEP_MAX 255

/* A decoder's rounding (the IDCT's samples, a range conversion) spreads a
 * reconstruction level over about +-3 quarter levels, and MPEG-4's MPEG
 * quantization (level x qscale x W >> 3) or a full-to-limited range
 * conversion (x 219 / 255) put the levels on a step that is no whole
 * number of quarter levels: steps are tried in quarter-quarter levels,
 * each point within LAT_TOL. A step found is refined to the one of the
 * next LAT_REFINE / LAT_SUB quarter levels below it that holds the most
 * values. H.263 quantizers (H.263, MPEG-4 Part 2's default): 3..31. */
#define LAT_TOL 3
#define LAT_SUB 4
#define LAT_REFINE 16
#define H263_QP_MIN 3
#define H263_QP_MAX 31
/* The candidates of the two searches. */
#define EST_STEPS ((EST_STEP_MAX - EST_STEP_MIN) * LAT_SUB + 1)
#define EST_QPS (H263_QP_MAX - H263_QP_MIN + 1)

/* The lattices a block-DCT decoder leaves one coefficient's values on
 * (GstClDctLattice): none; |X| = L s (MPEG-1/2 and MPEG-4 MPEG
 * quantization intra blocks, JPEG); |X| = qp (2 L + 1) - (qp even)
 * (H.263, MPEG-4 Part 2 with H.263 quantization), spacing 2 qp. */
#define EST_LATTICE_NONE 0
#define EST_LATTICE_MULTIPLES 1
#define EST_LATTICE_H263 2

/* A frame's picture type, as its coded stream says it (GstClDctPicture). */
#define EST_PICTURE_UNKNOWN 0
#define EST_PICTURE_INTRA 1
#define EST_PICTURE_P 2
#define EST_PICTURE_B 3

/* How many of the last distances between intra frames the state keeps
 * (the longest is taken): a GOP split in two by an early intra frame leaves
 * the regular one among them. */
#define EST_DISTANCES 3
/* How many frames without a lattice of their own keep the last one found. */
#define EST_HOLD_FRAMES 64
/* Frames looked at before the stream is said to show nothing to do. */
#define EST_IDLE_FRAMES 64

/* strength=auto's fitted parameters (GstClDctAutoParams,
 * gstcldctestimate-private.h): gains in 16ths. */
typedef struct
{
  est_u32 gain;                 /* threshold / spacing, MULTIPLES */
  est_u32 gain_h263;            /* threshold / spacing, H263 */
  /* added to either gain, times the share of the coefficient's coded
   * values that are strong: @strong_level half steps or more (edges and
   * flat areas keep few small levels, fine texture many, which a high
   * threshold would take off) */
  est_u32 strong_gain;
  est_u32 strong_level;
  /* a frame's threshold / the held one, by position: an intra frame the
   * stream tells whose own lattice is not found (hold_gain_untold below:
   * any frame where it tells no type) */
  est_u32 hold_gain;
  /* the same for the last @late_frames frames before the next intra frame
   * is due, and for every frame while that is unknown */
  est_u32 hold_gain_late;
  est_u32 late_frames;
  est_u32 min_count;            /* values a coefficient needs */
  /* a predicted frame's threshold / the held one, where the stream says
   * the frame is P (times the square root of its quantiser over the held
   * frame's) or B */
  est_u32 hold_gain_p;
  est_u32 hold_gain_b;
  /* the ratio's lower bound (16ths; the upper is 2), and the power of a B
   * frame's ratio below 1 that scales its threshold (16ths) */
  est_u32 ratio_min;
  est_u32 b_ratio_power;
  /* the share (16ths) of either that a predicted frame keeps before the
   * second intra frame */
  est_u32 first_gop;
  /* hold_gain and hold_gain_late where the stream tells no frame's type
   * (raw frames): every frame without a lattice of its own, B frames
   * among them, is held by position alone */
  est_u32 hold_gain_untold;
  est_u32 hold_gain_untold_late;
} EstParams;

/* What one plane carries from one frame to the next (GstClDctAuto,
 * gstcldctestimate-private.h); zeroed: nothing held. One layout on the
 * host and the device (a device buffer holds it): the double at byte 32,
 * 64 bytes in all. */
typedef struct
{
  est_u32 held_step;            /* the last frame threshold found */
  est_u32 held_frames;          /* frames since it was found */
  /* frames since the first of the last run of frames with a lattice (an
   * intra frame, and predicted frames that show its lattice still); the
   * last distances between the first frames of two such runs, the latest
   * first (0: none yet), and the longest of them: the distance between
   * intra frames; 0: not known yet */
  est_u32 run_age;
  est_u32 distances[EST_DISTANCES];
  est_u32 period;
  est_u32 threshold;            /* the last frame's threshold */
  est_f64 held_quantiser;       /* the coded quantiser of held_step's frame,
                                 * 0: not known */
  /* since the last reset: frames seen (counted up to EST_IDLE_FRAMES),
   * whether one showed a lattice of its own, and whether one had coded
   * values enough to look for one (was not flat) */
  est_u32 frames_seen;
  est_u32 lattice_seen;
  est_u32 detail_seen;
  /* told frames since the last reset whose quantiser was the held one's,
   * counted up to EST_FIXED_FRAMES (then the stream is taken as coded at
   * a fixed quantiser); EST_VARIED once one differed (a rate control) */
  est_u32 quantiser_same;
  /* whether held_step was read off an interlaced frame's macroblocks
   * (its grid showed none: field DCT), where the stage works on each
   * field alone */
  est_u32 held_fields;
  est_u32 reserved;
} EstState;

/* EstState.quantiser_same: the told frames with the intra frame's
 * quantiser after which a stream is taken as coded at a fixed quantiser
 * (a rate control's first B frames may have it, and its first P frame
 * seldom), and the mark of a stream whose quantisers differed. */
#define EST_FIXED_FRAMES 2
#define EST_VARIED 0xffffffffu

/* Whether bin @i of a coefficient's histogram is read by the lattices:
 * EST_MIN up to the one before the last (which holds the clamped values). */
#define EST_COUNTED(i) ((i) >= EST_MIN && (i) < DCT_BINS - 1)

/* The values within LAT_TOL of quarter level @c, from the prefix sums @p
 * (DCT_BINS + 1 entries of the counted bins). */
EST_FN est_u64
est_near_point (EST_SUMS const est_u64 * p, int c)
{
  const int lo = EST_HIGHER (c - LAT_TOL, EST_MIN);
  const int hi = EST_LOWER (c + LAT_TOL, DCT_BINS - 2);

  return lo > hi ? 0 : p[hi + 1] - p[lo];
}

/* Whether, with @near of the @n values up to LAT_TOL past quarter level
 * @c lying near a lattice's points, the values missed so far already keep
 * the lattice from holding EST_FIT / 64 of them. */
EST_FN int
est_missed_too_many (EST_SUMS const est_u64 * p, int c, est_u64 near,
    est_u64 n)
{
  const int hi = EST_LOWER (c + LAT_TOL, DCT_BINS - 2);

  return (n - (p[hi + 1] - near)) * 64 < n * EST_FIT;
}

/* The values near the multiples of @sub / LAT_SUB quarter levels; where
 * @n is nonzero, stops with 0 as soon as the values left between the
 * points show that fewer than EST_FIT / 64 of @n can be near them (a
 * frame without a lattice, the common case, is rejected after a point or
 * two of each step instead of all of them; a lattice that fits is never
 * stopped: the points' windows do not overlap). */
EST_FN est_u64
est_near_multiples (EST_SUMS const est_u64 * p, est_u32 sub, est_u64 n)
{
  est_u64 near = 0;
  est_u32 k;

  for (k = 1; (int) ((k * sub + LAT_SUB / 2) / LAT_SUB) - LAT_TOL <
      DCT_BINS - 1; k++) {
    const int c = (int) ((k * sub + LAT_SUB / 2) / LAT_SUB);

    near += est_near_point (p, c);
    if (n && est_missed_too_many (p, c, near, n))
      return 0;
  }
  return near;
}

/* The values near H.263's reconstruction levels for quantizer @qp:
 * qp (2 |L| + 1), less 1 where qp is even (FFmpeg h263dec / mpegvideo's
 * dct_unquantize_h263: |L| 2 qp + ((qp - 1) | 1)), in quarter levels;
 * @n as est_near_multiples()'s. */
EST_FN est_u64
est_near_h263 (EST_SUMS const est_u64 * p, est_u32 qp, est_u64 n)
{
  est_u64 near = 0;
  est_u32 l;

  for (l = 1; (int) (4 * (2 * qp * l + ((qp - 1) | 1))) - LAT_TOL <
      DCT_BINS - 1; l++) {
    const int c = (int) (4 * (2 * qp * l + ((qp - 1) | 1)));

    near += est_near_point (p, c);
    if (n && est_missed_too_many (p, c, near, n))
      return 0;
  }
  return near;
}

/* Whether the multiples of @sub / LAT_SUB quarter levels, or H.263's
 * levels for @qp, hold EST_FIT / 64 of the @n values. */
EST_FN int
est_multiples_fit (EST_SUMS const est_u64 * p, est_u32 sub, est_u64 n)
{
  return est_near_multiples (p, sub, n) * 64 >= (est_u64) EST_FIT * n;
}

EST_FN int
est_h263_fit (EST_SUMS const est_u64 * p, est_u32 qp, est_u64 n)
{
  return est_near_h263 (p, qp, n) * 64 >= (est_u64) EST_FIT * n;
}

/* The refinement of a largest fitting step @sub (quarter-quarter levels):
 * the steps from @sub down to the one this returns are tried, the one of
 * them holding the most values wins (the largest on a tie). */
EST_FN est_u32
est_refine_low (est_u32 sub)
{
  return EST_HIGHER (sub - EST_LOWER (sub, LAT_REFINE),
      EST_STEP_MIN * LAT_SUB);
}

/* The lattice, and its spacing in @spacing, from the refined step @found
 * (0: none) holding @best values and the largest fitting H.263 quantizer
 * @qp (0: none) holding @best_h263: the lattice that holds more values,
 * on a tie the coarser, which explains the same values more narrowly (a
 * finer lattice fits whatever a coarser one fits). */
EST_FN int
est_lattice_pick (est_u64 best, est_u32 found, est_u64 best_h263,
    est_u32 qp, est_u32 * spacing)
{
  *spacing = 0;
  if (qp && (best_h263 > best || (best_h263 == best &&
              8 * qp * LAT_SUB > found))) {
    *spacing = 2 * qp * 4 * LAT_SUB;
    return EST_LATTICE_H263;
  }
  if (found) {
    *spacing = found;
    return EST_LATTICE_MULTIPLES;
  }
  return EST_LATTICE_NONE;
}

/* The lattice of a coefficient whose largest fitting step is @sub
 * (quarter-quarter levels; 0: none fits) and largest fitting H.263
 * quantizer @qp (0: none), and its spacing in @spacing: the step refined
 * (est_refine_low()), then est_lattice_pick(). */
EST_FN int
est_lattice_choose (EST_SUMS const est_u64 * p, est_u64 n, est_u32 sub,
    est_u32 qp, est_u32 * spacing)
{
  est_u64 best = 0, best_h263 = 0;
  est_u32 found = 0, s;

  if (sub) {
    const est_u32 low = est_refine_low (sub);

    for (s = sub; s >= low; s--) {
      const est_u64 near = est_near_multiples (p, s, 0);

      if (near > best) {
        best = near;
        found = s;
      }
    }
  }
  if (qp)
    best_h263 = est_near_h263 (p, qp, n);
  return est_lattice_pick (best, found, best_h263, qp, spacing);
}

/* The values of a coefficient from bin @from (EST_MIN or more) on, 0 from
 * DCT_BINS on, from its prefix sums @p and its last bin's count @last,
 * which @p leaves out (EST_COUNTED). */
EST_FN est_u64
est_values_from (EST_SUMS const est_u64 * p, est_u32 last, est_u32 from)
{
  return from >= DCT_BINS ? 0 : p[DCT_BINS] - p[from] + last;
}

/* The threshold of one coefficient whose histogram (its prefix sums @p
 * and its last bin @last, est_values_from()) lies on lattice @kind of
 * @spacing (quarter quarter levels; a step is spacing / 4 bins):
 * (gain + strong_gain x strong / coded) x spacing, where coded counts the
 * values from half a step on, strong those from strong_level half steps
 * on, one half step more on H.263's lattice: its levels lie at odd half
 * steps, and the bound must fall between two of them (midway, as 5 half
 * steps does between the multiples 2 and 3), not on one, where which
 * side a level's values fall would depend on the parity of qp. */
EST_FN est_u32
est_coefficient_threshold (EST_SUMS const est_u64 * p, est_u32 last,
    int kind, est_u32 spacing, const EstParams * params)
{
  const est_u32 gain = kind == EST_LATTICE_H263 ? params->gain_h263 :
      params->gain;
  const est_u32 strong_from = spacing * (params->strong_level +
      (kind == EST_LATTICE_H263)) / 8;
  const est_u32 from = EST_HIGHER (spacing / 8, EST_MIN);
  const est_u64 coded = est_values_from (p, last, from);
  const est_u64 strong = est_values_from (p, last,
      EST_HIGHER (from, strong_from));

  if (coded == 0)
    return (spacing * gain + 32) >> 6;
  return (est_u32) (((est_u64) spacing * (gain * coded + params->strong_gain *
              strong) + 32 * coded) / (64 * coded));
}

/* The frame's threshold from its coefficients' (@t[i] where @found[i]):
 * their median where at least two show a lattice, else 0. */
EST_FN est_u32
est_median_threshold (const est_u32 * t, const int *found)
{
  est_u32 sorted[DCT_HIST_COEFFS];
  int n = 0, i, j;

  for (i = 0; i < DCT_HIST_COEFFS; i++) {
    if (!found[i])
      continue;
    /* insertion sort of the thresholds found */
    for (j = n; j > 0 && sorted[j - 1] > t[i]; j--)
      sorted[j] = sorted[j - 1];
    sorted[j] = t[i];
    n++;
  }
  return n < 2 ? 0 : sorted[n / 2];
}

/* Notes @distance, from the first frame of one run of frames with a lattice
 * to the first of the next, and takes the distance between intra frames as
 * the longest of the last EST_DISTANCES: a shorter one comes from an intra
 * frame put in early (a scene cut, after which the GOP starts again) or a
 * predicted frame coded mostly intra, which splits a GOP in two, and must
 * not move the late gain onto the frames after it; a longer one (an intra
 * frame that showed no lattice, a stretch of frames without any) is
 * forgotten after as many others. */
EST_FN void
est_note_distance (EST_GLOBAL EstState * state, est_u32 distance)
{
  int i;

  for (i = EST_DISTANCES - 1; i > 0; i--)
    state->distances[i] = state->distances[i - 1];
  state->distances[0] = distance;
  state->period = 0;
  for (i = 0; i < EST_DISTANCES; i++)
    state->period = EST_HIGHER (state->period, state->distances[i]);
}

/* A predicted frame's threshold from the held one: by its coded type
 * @picture where the stream tells it (a P frame's scaled by the square
 * root of its @quantiser over the held frame's, within ratio_min to
 * twice; first_gop of either before the second intra frame), else by its
 * position (est_note_distance()): less than the intra frame's it was
 * found on, and less again where it is predicted from the next intra
 * frame (B frames just before it), which is due where the distance
 * between intra frames says; with the untold gains where the stream does
 * not tell the frame's type. */
EST_FN est_u32
est_held_threshold (EST_GLOBAL const EstState * state, int picture,
    est_f64 quantiser, const EstParams * params)
{
  est_f64 ratio = 1.0, scaled;
  /* no second intra frame yet: a rate control's first quantisers */
  const est_f64 first = state->period == 0 ? params->first_gop / 16.0 : 1.0;
  est_u32 gain;
  int early;

  if (quantiser > 0 && state->held_quantiser > 0) {
    ratio = quantiser / state->held_quantiser;
    ratio = ratio > 2.0 ? 2.0 : ratio < params->ratio_min / 16.0 ?
        params->ratio_min / 16.0 : ratio;
  }
  if ((picture == EST_PICTURE_P || picture == EST_PICTURE_B) &&
      quantiser > 0 && quantiser == state->held_quantiser &&
      state->quantiser_same == EST_FIXED_FRAMES) {
    /* every told quantiser the same: a predicted frame's residual is coded
     * as finely as the intra frame, and wants nearly its threshold (the
     * fixed-quantiser set's frames, tests/quality/heldout.py held), a B
     * frame just before the next intra frame less, and so does every B
     * frame until the distance between intra frames is known (as the hold
     * by position does); no rate control to settle in the first GOP */
    /* (every frame while the distance is not known: period 0) */
    const int late = state->run_age + params->late_frames >= state->period;

    gain = picture == EST_PICTURE_B && late ? params->hold_gain_late :
        params->hold_gain;
    return (state->held_step * gain + 8) >> 4;
  }
  if (picture == EST_PICTURE_B) {
    scaled = first * state->held_step * params->hold_gain_b / 16.0;
    if (params->b_ratio_power)
      scaled = scaled * pow (EST_LOWER (ratio, 1.0),
          params->b_ratio_power / 16.0);
    return (est_u32) floor (scaled + 0.5);
  }
  if (picture == EST_PICTURE_P) {
    scaled = first * state->held_step * params->hold_gain_p / 16.0;
    scaled = scaled * sqrt (ratio);
    return (est_u32) floor (scaled + 0.5);
  }
  early = state->run_age + params->late_frames < state->period;
  if (picture == EST_PICTURE_UNKNOWN)
    gain = early ? params->hold_gain_untold : params->hold_gain_untold_late;
  else
    gain = early ? params->hold_gain : params->hold_gain_late;
  return (state->held_step * gain + 8) >> 4;
}

/* The stage's threshold for a frame whose own lattices give @thr (0:
 * none; @fields: read off its macroblocks, est_stage_word()), from them or
 * what @state holds; @detail: one of its coefficients
 * has min_count values the lattices read (needed only where @state has
 * not seen detail yet and @thr is 0); @picture and @quantiser (0, or not
 * a finite positive number: not known) as the stream tells them. Updates @state: the one place where
 * strength=auto decides a frame's strength. */
EST_FN est_u32
est_update (EST_GLOBAL EstState * state, est_u32 thr, int fields,
    int detail, int picture, est_f64 quantiser, const EstParams * params)
{
  if (!(quantiser > 0 && isfinite (quantiser)))
    quantiser = 0;
  if (quantiser > 0 && state->held_quantiser > 0) {
    if (quantiser != state->held_quantiser)
      state->quantiser_same = EST_VARIED;
    else if (state->quantiser_same < EST_FIXED_FRAMES)
      state->quantiser_same++;
  }
  if (state->frames_seen < EST_IDLE_FRAMES)
    state->frames_seen++;
  state->lattice_seen |= thr > 0;
  if (!state->detail_seen)
    state->detail_seen = thr > 0 || detail;
  if (state->held_step > 0)
    state->run_age++;
  if (thr > 0) {
    /* the first frame of a run with a lattice: a predicted frame right
     * after an intra frame may show its lattice still (blocks copied
     * unchanged), which is no new intra frame */
    if (state->held_step == 0 || state->held_frames > 0) {
      if (state->held_step > 0)
        est_note_distance (state, state->run_age);
      state->run_age = 0;
    }
    state->held_step = thr;
    state->held_frames = 0;
    state->held_quantiser = quantiser;
    state->held_fields = fields != 0;
  } else if (state->held_step > 0 && ++state->held_frames <= EST_HOLD_FRAMES) {
    /* a predicted frame: the prediction adds to the coded residual and
     * hides the lattice; its coding noise is less than the intra frame's */
    thr = est_held_threshold (state, picture, quantiser, params);
  }
  state->threshold = thr;
  return thr;
}

/* What the stage kernels read for a frame whose threshold is @thr (after
 * est_update()): @thr, with DCT_STAGE_FIELDS where the frame is
 * @interlaced and the threshold comes from macroblocks coded field by
 * field, its own or the held frame's: the stage then works on each field
 * alone (kernels/dct-strips.cl, dct-tiles.cl). */
EST_FN est_u32
est_stage_word (EST_GLOBAL const EstState * state, est_u32 thr,
    int interlaced)
{
  return thr > 0 && interlaced && state->held_fields ?
      thr | DCT_STAGE_FIELDS : thr;
}

#endif /* __GST_CL_DCT_ESTIMATE_H__ */
