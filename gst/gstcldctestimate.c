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

/* strength=auto's estimate on the host: the lattice a decoder leaves the
 * block DCT's coefficients on, read from their histogram
 * (gst_cl_dct_histogram(), gstcldct.c), and the stage's threshold from it;
 * pure functions of the histogram and the state carried between frames.
 * The formulas are kernels/dct-estimate.h's, which the device's decision
 * (kernels/dct-estimate.cl) shares; here the searches run one candidate
 * after the other, from the largest. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldctestimate-private.h"

#include <math.h>
#include <string.h>

G_STATIC_ASSERT (sizeof (GstClDctAuto) == 64);
G_STATIC_ASSERT (G_STRUCT_OFFSET (GstClDctAuto, held_quantiser) == 32);
G_STATIC_ASSERT (sizeof (GstClDctAutoParams) == 15 * sizeof (guint32));

/* Prefix sums @p (GST_CL_DCT_BINS + 1 entries) of the counts of @hist that
 * the lattices read (EST_COUNTED). */
static void
lattice_sums (const guint32 * hist, guint64 * p)
{
  gint i;

  p[0] = 0;
  for (i = 0; i < GST_CL_DCT_BINS; i++)
    p[i + 1] = p[i] + (EST_COUNTED (i) ? hist[i] : 0);
}

/* gst_cl_dct_lattice() of the histogram whose prefix sums are @p
 * (lattice_sums()). */
static GstClDctLattice
lattice_of_sums (const guint64 * p, guint min_count, guint * spacing)
{
  const guint64 n = p[GST_CL_DCT_BINS];
  guint sub, qp, found_sub = 0, found_qp = 0;

  *spacing = 0;
  if (n < MAX (min_count, 1))
    return GST_CL_DCT_LATTICE_NONE;
  /* multiples of a step, and H.263's odd multiples: the largest that fits */
  for (sub = EST_STEP_MAX * LAT_SUB; sub >= EST_STEP_MIN * LAT_SUB; sub--)
    if (est_multiples_fit (p, sub, n)) {
      found_sub = sub;
      break;
    }
  for (qp = H263_QP_MAX; qp >= H263_QP_MIN; qp--)
    if (est_h263_fit (p, qp, n)) {
      found_qp = qp;
      break;
    }
  return (GstClDctLattice) est_lattice_choose (p, n, found_sub, found_qp,
      spacing);
}

GstClDctLattice
gst_cl_dct_lattice (const guint32 * hist, guint min_count, guint * spacing)
{
  guint64 p[GST_CL_DCT_BINS + 1];

  lattice_sums (hist, p);
  return lattice_of_sums (p, min_count, spacing);
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
  params->hold_gain_untold = GST_CL_DCT_DEFAULT_HOLD_GAIN_UNTOLD;
  params->hold_gain_untold_late = GST_CL_DCT_DEFAULT_HOLD_GAIN_UNTOLD_LATE;
}

void
gst_cl_dct_auto_chroma_params_init (GstClDctAutoParams * params, gboolean coded)
{
  gst_cl_dct_auto_params_init (params);
  params->hold_gain_b = 0;
  if (!coded)
    params->hold_gain = params->hold_gain_late = params->hold_gain_p =
        params->hold_gain_untold = params->hold_gain_untold_late = 0;
}

gdouble
gst_cl_dct_h264_step (gdouble qp)
{
  /* not a number: the lowest */
  qp = qp >= -12 ? MIN (qp, 51) : -12;
  return 0.625 * pow (2, qp / 6);
}

guint
gst_cl_dct_h264_threshold (GstClDctPicture picture, gdouble qp)
{
  const guint gain = picture == GST_CL_DCT_PICTURE_B ?
      GST_CL_DCT_H264_GAIN_B : GST_CL_DCT_H264_GAIN;

  return (guint) floor (gst_cl_dct_h264_step (qp) * gain / 16 + 0.5);
}

guint
gst_cl_dct_frame_threshold (const guint32 * hist,
    const GstClDctAutoParams * params)
{
  guint t[GST_CL_DCT_HIST_COEFFS] = { 0, }, found = 0, i;
  gint has[GST_CL_DCT_HIST_COEFFS] = { 0, };

  /* a median needs two: stop once the coefficients left cannot give them
   * (a frame without coding, H.264 or pristine video, costs two searches) */
  for (i = 0; i < GST_CL_DCT_HIST_COEFFS && found + GST_CL_DCT_HIST_COEFFS -
      i >= 2; i++) {
    guint spacing;
    guint64 p[GST_CL_DCT_BINS + 1];
    const guint32 *h = hist + i * GST_CL_DCT_BINS;
    GstClDctLattice kind;

    lattice_sums (h, p);
    kind = lattice_of_sums (p, params->min_count, &spacing);
    if (kind == GST_CL_DCT_LATTICE_NONE)
      continue;
    /* spacing in quarter-quarter levels, gains in 16ths */
    t[i] = est_coefficient_threshold (p, h[GST_CL_DCT_BINS - 1], kind,
        spacing, params);
    has[i] = TRUE;
    found++;
  }
  return est_median_threshold (t, has);
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

guint
gst_cl_dct_auto_update_interlaced (GstClDctAuto * state, const guint32 * hist,
    const guint32 * mb_hist, const GstClDctCoding * coding,
    const GstClDctAutoParams * params)
{
  guint thr = gst_cl_dct_frame_threshold (hist, params);
  /* read only where it can change what the state holds */
  const gboolean detail = !state->detail_seen && thr == 0 &&
      has_detail (hist, params->min_count);
  gboolean fields = FALSE;

  if (thr == 0 && mb_hist) {
    thr = gst_cl_dct_frame_threshold (mb_hist, params);
    fields = thr > 0;
  }
  return est_update (state, thr, fields, detail, coding ? coding->picture :
      GST_CL_DCT_PICTURE_UNKNOWN, coding ? coding->quantiser : 0, params);
}

guint
gst_cl_dct_auto_stage_word (const GstClDctAuto * state, guint threshold,
    gboolean interlaced)
{
  return est_stage_word (state, threshold, interlaced);
}

guint
gst_cl_dct_auto_update_with (GstClDctAuto * state, const guint32 * hist,
    const GstClDctCoding * coding, const GstClDctAutoParams * params)
{
  return gst_cl_dct_auto_update_interlaced (state, hist, NULL, coding, params);
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
