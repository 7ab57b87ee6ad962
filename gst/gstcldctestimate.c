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

/* strength=auto's estimate: the lattice a decoder leaves the block DCT's
 * coefficients on, read from their histogram (gst_cl_dct_histogram(),
 * gstcldct.c), and the stage's threshold from it; plain C on the host,
 * pure functions of the histogram and the state carried between frames. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldctestimate-private.h"

#include <math.h>
#include <string.h>

/* The lattice search of gst_cl_dct_lattice(): values below EST_MIN are
 * rounding noise around a zeroed coefficient; a lattice fits when EST_FIT /
 * 64 of the other values lie near one of its nonzero points; steps
 * EST_STEP_MAX down to EST_STEP_MIN quarter levels are tried, the first
 * (largest) that fits wins, so that its divisors, which fit too, are not
 * taken for it. */
#define EST_MIN 6
#define EST_FIT 40
#define EST_STEP_MIN 24
#define EST_STEP_MAX 255

/* The lattices of gst_cl_dct_lattice(): a decoder's rounding (the IDCT's
 * samples, a range conversion) spreads a reconstruction level over about
 * +-3 quarter levels, and MPEG-4's MPEG quantization (level x qscale x W
 * >> 3) or a full-to-limited range conversion (x 219 / 255) put the levels
 * on a step that is no whole number of quarter levels: steps are tried in
 * quarter-quarter levels, each point within LAT_TOL. */
#define LAT_TOL 3
#define LAT_SUB 4
/* A step found is refined to the one of the next LAT_REFINE / LAT_SUB
 * quarter levels below it that holds the most values. */
#define LAT_REFINE 16
/* H.263 quantizers (H.263, MPEG-4 Part 2's default): 3..31. */
#define H263_QP_MIN 3
#define H263_QP_MAX 31


/* Prefix sums @p (GST_CL_DCT_BINS + 1 entries) of the counts of @hist that
 * the lattices read: bins EST_MIN to GST_CL_DCT_BINS - 2 (the last holds
 * the clamped values). */
static void
lattice_sums (const guint32 * hist, guint64 * p)
{
  gint i;

  p[0] = 0;
  for (i = 0; i < GST_CL_DCT_BINS; i++)
    p[i + 1] = p[i] + (i >= EST_MIN && i < GST_CL_DCT_BINS - 1 ? hist[i] : 0);
}

/* The values within LAT_TOL of quarter level @c. */
static guint64
near_point (const guint64 * p, gint c)
{
  const gint lo = MAX (c - LAT_TOL, EST_MIN);
  const gint hi = MIN (c + LAT_TOL, GST_CL_DCT_BINS - 2);

  return lo > hi ? 0 : p[hi + 1] - p[lo];
}

/* Whether, with @near of the @n values up to LAT_TOL past quarter level
 * @c lying near a lattice's points, the values missed so far already keep
 * the lattice from holding EST_FIT / 64 of them. */
static inline gboolean
missed_too_many (const guint64 * p, gint c, guint64 near, guint64 n)
{
  const gint hi = MIN (c + LAT_TOL, GST_CL_DCT_BINS - 2);

  return (n - (p[hi + 1] - near)) * 64 < n * EST_FIT;
}

/* The values near the multiples of @sub / LAT_SUB quarter levels; where
 * @n is nonzero, stops with 0 as soon as the values left between the
 * points show that fewer than EST_FIT / 64 of @n can be near them (a
 * frame without a lattice, the common case, is rejected after a point or
 * two of each step instead of all of them). */
static guint64
near_multiples (const guint64 * p, guint sub, guint64 n)
{
  guint64 near = 0;
  guint k;

  for (k = 1; (gint) ((k * sub + LAT_SUB / 2) / LAT_SUB) - LAT_TOL <
      GST_CL_DCT_BINS - 1; k++) {
    const gint c = (k * sub + LAT_SUB / 2) / LAT_SUB;

    near += near_point (p, c);
    if (n && missed_too_many (p, c, near, n))
      return 0;
  }
  return near;
}

/* The values near H.263's reconstruction levels for quantizer @qp:
 * qp (2 |L| + 1), less 1 where qp is even (FFmpeg h263dec / mpegvideo's
 * dct_unquantize_h263: |L| 2 qp + ((qp - 1) | 1)), in quarter levels;
 * @n as near_multiples()'s. */
static guint64
near_h263 (const guint64 * p, guint qp, guint64 n)
{
  guint64 near = 0;
  guint l;

  for (l = 1; (gint) (4 * (2 * qp * l + ((qp - 1) | 1))) - LAT_TOL <
      GST_CL_DCT_BINS - 1; l++) {
    const gint c = 4 * (2 * qp * l + ((qp - 1) | 1));

    near += near_point (p, c);
    if (n && missed_too_many (p, c, near, n))
      return 0;
  }
  return near;
}

GstClDctLattice
gst_cl_dct_lattice (const guint32 * hist, guint min_count, guint * spacing)
{
  guint64 p[GST_CL_DCT_BINS + 1], n, best = 0, best_h263 = 0;
  guint sub, found = 0, qp, found_qp = 0;

  *spacing = 0;
  lattice_sums (hist, p);
  n = p[GST_CL_DCT_BINS];
  if (n < MAX (min_count, 1))
    return GST_CL_DCT_LATTICE_NONE;
  /* multiples of a step: the largest that fits, then the best just below */
  for (sub = EST_STEP_MAX * LAT_SUB; sub >= EST_STEP_MIN * LAT_SUB; sub--)
    if (near_multiples (p, sub, n) * 64 >= (guint64) EST_FIT * n) {
      const guint low = MAX (sub - MIN (sub, LAT_REFINE),
          EST_STEP_MIN * LAT_SUB);
      guint s;

      for (s = sub; s >= low; s--) {
        const guint64 near = near_multiples (p, s, 0);

        if (near > best) {
          best = near;
          found = s;
        }
      }
      break;
    }
  /* H.263's odd multiples: the largest quantizer that fits */
  for (qp = H263_QP_MAX; qp >= H263_QP_MIN; qp--) {
    const guint64 near = near_h263 (p, qp, n);

    if (near * 64 >= (guint64) EST_FIT * n) {
      found_qp = qp;
      best_h263 = near;
      break;
    }
  }
  /* the lattice that holds more values; on a tie the coarser, which
   * explains the same values more narrowly (a finer lattice fits whatever a
   * coarser one fits) */
  if (found_qp && (best_h263 > best || (best_h263 == best &&
              8 * found_qp * LAT_SUB > found))) {
    *spacing = 2 * found_qp * 4 * LAT_SUB;
    return GST_CL_DCT_LATTICE_H263;
  }
  if (found) {
    *spacing = found;
    return GST_CL_DCT_LATTICE_MULTIPLES;
  }
  return GST_CL_DCT_LATTICE_NONE;
}

void
gst_cl_dct_auto_params_init (GstClDctAutoParams * params)
{
  params->gain = GST_CL_DCT_DEFAULT_GAIN;
  params->gain_h263 = GST_CL_DCT_DEFAULT_GAIN_H263;
  params->strong_gain = GST_CL_DCT_DEFAULT_STRONG_GAIN;
  params->strong_level = GST_CL_DCT_DEFAULT_STRONG_LEVEL;
  params->hold_gain = GST_CL_DCT_DEFAULT_HOLD_GAIN;
  params->hold_gain_late = GST_CL_DCT_DEFAULT_HOLD_GAIN_LATE;
  params->late_frames = GST_CL_DCT_DEFAULT_LATE_FRAMES;
  params->min_count = GST_CL_DCT_DEFAULT_MIN_COUNT;
  params->hold_gain_p = GST_CL_DCT_DEFAULT_HOLD_GAIN_P;
  params->hold_gain_b = GST_CL_DCT_DEFAULT_HOLD_GAIN_B;
  params->ratio_min = GST_CL_DCT_DEFAULT_RATIO_MIN;
  params->b_ratio_power = GST_CL_DCT_DEFAULT_B_RATIO_POWER;
  params->first_gop = GST_CL_DCT_DEFAULT_FIRST_GOP;
}

void
gst_cl_dct_auto_chroma_params_init (GstClDctAutoParams * params, gboolean coded)
{
  gst_cl_dct_auto_params_init (params);
  params->hold_gain_b = 0;
  if (!coded)
    params->hold_gain = params->hold_gain_late = params->hold_gain_p = 0;
}

/* The threshold of one coefficient whose histogram @h lies on lattice
 * @kind of @spacing (quarter quarter levels; a step is spacing / 4 bins):
 * (gain + strong_gain x strong / coded) x spacing, where coded counts the
 * values from half a step on, strong those from strong_level half steps
 * on, one half step more on H.263's lattice: its levels lie at odd half
 * steps, and the bound must fall between two of them (midway, as 5 half
 * steps does between the multiples 2 and 3), not on one, where which
 * side a level's values fall would depend on the parity of qp. */
static guint
coefficient_threshold (const guint32 * h, GstClDctLattice kind,
    guint spacing, const GstClDctAutoParams * params)
{
  const guint gain = kind == GST_CL_DCT_LATTICE_H263 ? params->gain_h263 :
      params->gain;
  const guint strong_from = spacing * (params->strong_level +
      (kind == GST_CL_DCT_LATTICE_H263)) / 8;
  guint64 coded = 0, strong = 0;
  guint i;

  for (i = MAX (spacing / 8, EST_MIN); i < GST_CL_DCT_BINS; i++) {
    coded += h[i];
    if (i >= strong_from)
      strong += h[i];
  }
  if (coded == 0)
    return (spacing * gain + 32) >> 6;
  return (guint) (((guint64) spacing * (gain * coded + params->strong_gain *
              strong) + 32 * coded) / (64 * coded));
}

guint
gst_cl_dct_frame_threshold (const guint32 * hist,
    const GstClDctAutoParams * params)
{
  guint t[GST_CL_DCT_HIST_COEFFS], found = 0, i, j;

  /* a median needs two: stop once the coefficients left cannot give them
   * (a frame without coding, H.264 or pristine video, costs two searches) */
  for (i = 0; i < GST_CL_DCT_HIST_COEFFS && found + GST_CL_DCT_HIST_COEFFS -
      i >= 2; i++) {
    guint spacing, thr;
    const guint32 *h = hist + i * GST_CL_DCT_BINS;
    const GstClDctLattice kind = gst_cl_dct_lattice (h, params->min_count,
        &spacing);

    if (kind == GST_CL_DCT_LATTICE_NONE)
      continue;
    /* spacing in quarter-quarter levels, gains in 16ths */
    thr = coefficient_threshold (h, kind, spacing, params);
    /* insertion sort of the thresholds found */
    for (j = found; j > 0 && t[j - 1] > thr; j--)
      t[j] = t[j - 1];
    t[j] = thr;
    found++;
  }
  return found < 2 ? 0 : t[found / 2];
}

/* How many frames without a lattice of their own keep the last one found. */
#define AUTO_HOLD_FRAMES 64

/* Notes @distance, from the first frame of one run of frames with a lattice
 * to the first of the next, and takes the distance between intra frames as
 * the longest of the last GST_CL_DCT_AUTO_DISTANCES: a shorter one comes
 * from an intra frame put in early (a scene cut, after which the GOP starts
 * again) or a predicted frame coded mostly intra, which splits a GOP in
 * two, and must not move the late gain onto the frames after it; a longer
 * one (an intra frame that showed no lattice, a stretch of frames without
 * any) is forgotten after as many others. */
static void
auto_note_distance (GstClDctAuto * state, guint distance)
{
  guint i;

  memmove (state->distances + 1, state->distances,
      sizeof (state->distances) - sizeof (state->distances[0]));
  state->distances[0] = distance;
  state->period = 0;
  for (i = 0; i < GST_CL_DCT_AUTO_DISTANCES; i++)
    state->period = MAX (state->period, state->distances[i]);
}

/* Whether one of the coefficients of @hist has @min_count values that
 * gst_cl_dct_lattice() reads. */
static gboolean
has_detail (const guint32 * hist, guint min_count)
{
  guint64 p[GST_CL_DCT_BINS + 1];
  guint i;

  for (i = 0; i < GST_CL_DCT_HIST_COEFFS; i++) {
    lattice_sums (hist + i * GST_CL_DCT_BINS, p);
    if (p[GST_CL_DCT_BINS] >= MAX (min_count, 1))
      return TRUE;
  }
  return FALSE;
}

/* The coded quantiser of @coding, 0 where not known. */
static gdouble
coded_quantiser (const GstClDctCoding * coding)
{
  return coding && coding->quantiser > 0 ? coding->quantiser : 0;
}

/* A predicted frame's threshold from the held one: by its coded type where
 * the stream tells it (a P frame's scaled by the square root of its
 * quantiser over the held frame's, within a quarter to twice; half of
 * either before the second intra frame), else by its
 * position (auto_note_distance()): less than the intra frame's it was
 * found on, and less again where it is predicted from the next intra
 * frame (B frames just before it), which is due where the distance
 * between intra frames says. */
static guint
held_threshold (const GstClDctAuto * state, const GstClDctCoding * coding,
    const GstClDctAutoParams * params)
{
  const GstClDctPicture picture = coding ? coding->picture :
      GST_CL_DCT_PICTURE_UNKNOWN;
  gdouble ratio = 1.0;
  gboolean early;

  /* no second intra frame yet: a rate control's first quantisers */
  const gdouble first = state->period == 0 ? params->first_gop / 16.0 : 1.0;

  if (coded_quantiser (coding) > 0 && state->held_quantiser > 0)
    ratio = CLAMP (coding->quantiser / state->held_quantiser,
        params->ratio_min / 16.0, 2.0);
  if (picture == GST_CL_DCT_PICTURE_B)
    return (guint) floor (first * state->held_step * params->hold_gain_b /
        16.0 * pow (MIN (ratio, 1.0), params->b_ratio_power / 16.0) + 0.5);
  if (picture == GST_CL_DCT_PICTURE_P)
    return (guint) floor (first * state->held_step * params->hold_gain_p /
        16.0 * sqrt (ratio) + 0.5);
  early = state->run_age + params->late_frames < state->period;
  return (state->held_step * (early ? params->hold_gain :
          params->hold_gain_late) + 8) >> 4;
}

guint
gst_cl_dct_auto_update_with (GstClDctAuto * state, const guint32 * hist,
    const GstClDctCoding * coding, const GstClDctAutoParams * params)
{
  guint thr = gst_cl_dct_frame_threshold (hist, params);

  if (state->frames_seen < GST_CL_DCT_IDLE_FRAMES)
    state->frames_seen++;
  state->lattice_seen |= thr > 0;
  if (!state->detail_seen)
    state->detail_seen = thr > 0 || has_detail (hist, params->min_count);
  if (state->held_step > 0)
    state->run_age++;
  if (thr > 0) {
    /* the first frame of a run with a lattice: a predicted frame right
     * after an intra frame may show its lattice still (blocks copied
     * unchanged), which is no new intra frame */
    if (state->held_step == 0 || state->held_frames > 0) {
      if (state->held_step > 0)
        auto_note_distance (state, state->run_age);
      state->run_age = 0;
    }
    state->held_step = thr;
    state->held_frames = 0;
    state->held_quantiser = coded_quantiser (coding);
  } else if (state->held_step > 0 && ++state->held_frames <= AUTO_HOLD_FRAMES) {
    /* a predicted frame: the prediction adds to the coded residual and
     * hides the lattice; its coding noise is less than the intra frame's */
    thr = held_threshold (state, coding, params);
  }
  state->threshold = thr;
  return state->threshold;
}

guint
gst_cl_dct_auto_update_coded (GstClDctAuto * state, const guint32 * hist,
    const GstClDctCoding * coding)
{
  GstClDctAutoParams params;

  gst_cl_dct_auto_params_init (&params);
  return gst_cl_dct_auto_update_with (state, hist, coding, &params);
}

guint
gst_cl_dct_auto_update (GstClDctAuto * state, const guint32 * hist)
{
  return gst_cl_dct_auto_update_coded (state, hist, NULL);
}

GstClDctIdle
gst_cl_dct_auto_idle (const GstClDctAuto * state, gboolean at_end)
{
  if (state->lattice_seen || state->frames_seen == 0 ||
      (!at_end && state->frames_seen < GST_CL_DCT_IDLE_FRAMES))
    return GST_CL_DCT_IDLE_NO;
  return state->detail_seen ? GST_CL_DCT_IDLE_NO_LATTICE : GST_CL_DCT_IDLE_FLAT;
}

void
gst_cl_dct_auto_reset (GstClDctAuto * state)
{
  memset (state, 0, sizeof (*state));
}
