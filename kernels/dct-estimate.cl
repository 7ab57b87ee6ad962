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

/* strength=auto's decision on the device (gst_cl_dct_decide(),
 * gst/gstcldct.c): the frame's threshold from its histogram and the
 * plane's state, written where the stage reads it, with no trip to the
 * host between the histogram and the stage. Built after dct-shared.h and
 * dct-estimate.h, whose formulas the host's estimate
 * (gst/gstcldctestimate.c) runs too: one work-group shares the
 * candidates of the searches the host runs one after the other, and keeps
 * the largest that fits, as the host's first from the top is. Needs
 * doubles (a P frame's quantiser ratio; dct-estimate.h enables them). */

/* The bins of a coefficient a work-item of dct_decide sums. */
#define DECIDE_WG DCT_DECIDE_WG
#define DECIDE_CHUNK (DCT_BINS / DECIDE_WG)

/* The parameters, from the vector the host packs them in (field order). */
static EstParams
unpack_params (uint16 v)
{
  EstParams p;

  p.gain = v.s0;
  p.gain_h263 = v.s1;
  p.strong_gain = v.s2;
  p.strong_level = v.s3;
  p.hold_gain = v.s4;
  p.hold_gain_late = v.s5;
  p.late_frames = v.s6;
  p.min_count = v.s7;
  p.hold_gain_p = v.s8;
  p.hold_gain_b = v.s9;
  p.ratio_min = v.sa;
  p.b_ratio_power = v.sb;
  p.first_gop = v.sc;
  p.hold_gain_untold = v.sd;
  p.hold_gain_untold_late = v.se;
  return p;
}

/* The prefix sums of each coefficient's counted bins (EST_COUNTED) into
 * @p: a work-item sums a chunk of each, the chunks' sums are scanned by
 * the whole work-group (log2 DECIDE_WG steps, where one work-item a
 * coefficient adding them one after the other kept the work-group waiting
 * on a chain of DECIDE_WG reads), then each writes its chunk's sums. */
static void
prefix_sums (__global const uint * hist,
    __local ulong (*p)[DCT_BINS + 1], __local ulong (*chunk)[DECIDE_WG])
{
  const int lid = get_local_id (0);
  ulong own[DCT_HIST_COEFFS];

  for (int c = 0; c < DCT_HIST_COEFFS; c++) {
    ulong s = 0;

    for (int j = 0; j < DECIDE_CHUNK; j++) {
      const int i = lid * DECIDE_CHUNK + j;
      s += EST_COUNTED (i) ? hist[c * DCT_BINS + i] : 0;
    }
    chunk[c][lid] = own[c] = s;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  /* after the step of @d, chunk[c][k] holds the sums of chunks k - 2 d + 1
   * to k (Hillis and Steele's scan) */
  for (int d = 1; d < DECIDE_WG; d *= 2) {
    ulong add[DCT_HIST_COEFFS];

    for (int c = 0; c < DCT_HIST_COEFFS; c++)
      add[c] = lid >= d ? chunk[c][lid - d] : 0;
    barrier (CLK_LOCAL_MEM_FENCE);
    for (int c = 0; c < DCT_HIST_COEFFS; c++)
      chunk[c][lid] += add[c];
    barrier (CLK_LOCAL_MEM_FENCE);
  }
  for (int c = 0; c < DCT_HIST_COEFFS; c++) {
    ulong s = chunk[c][lid] - own[c];

    for (int j = 0; j < DECIDE_CHUNK; j++) {
      const int i = lid * DECIDE_CHUNK + j;
      p[c][i] = s;
      s += EST_COUNTED (i) ? hist[c * DCT_BINS + i] : 0;
    }
    if (lid == DECIDE_WG - 1)
      p[c][DCT_BINS] = s;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* Each coefficient's lattice and threshold from its largest fitting step
 * step[c] and quantizer qp[c] (est_lattice_choose(), its candidates shared
 * by the work-items: one work-item a coefficient trying them one after the
 * other held the work-group), into kind[c] and thr[c]. */
static void
coefficient_thresholds (__global const uint * hist, const EstParams * params,
    __local ulong (*p)[DCT_BINS + 1], __local ulong (*near)[LAT_REFINE + 2],
    __local uint * step, __local uint * qp, __local uint * thr,
    __local int *kind)
{
  const int lid = get_local_id (0);

  /* near[c][j]: the values near the refinement's step step[c] - j, then
   * near[c][LAT_REFINE + 1] those near H.263's levels for qp[c] */
  for (int t = lid; t < DCT_HIST_COEFFS * (LAT_REFINE + 2); t += DECIDE_WG) {
    const int c = t / (LAT_REFINE + 2), j = t % (LAT_REFINE + 2);
    const uint sub = step[c];

    if (j > LAT_REFINE)
      near[c][j] = qp[c] ? est_near_h263 (p[c], qp[c], p[c][DCT_BINS]) : 0;
    else
      near[c][j] = sub && j <= (int) (sub - est_refine_low (sub)) ?
          est_near_multiples (p[c], sub - j, 0) : 0;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (lid < DCT_HIST_COEFFS) {
    const uint sub = step[lid];
    ulong best = 0;
    uint found = 0, spacing;

    /* the first from the top that holds the most, as the host's loop */
    if (sub)
      for (int j = 0; j <= (int) (sub - est_refine_low (sub)); j++)
        if (near[lid][j] > best) {
          best = near[lid][j];
          found = sub - j;
        }
    kind[lid] = est_lattice_pick (best, found, near[lid][LAT_REFINE + 1],
        qp[lid], &spacing);
    thr[lid] = kind[lid] == EST_LATTICE_NONE ? 0 :
        est_coefficient_threshold (p[lid], hist[lid * DCT_BINS + DCT_BINS -
            1], kind[lid], spacing, params);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* The threshold of a frame from its own lattices in histogram @hist
 * (est_median_threshold()), by the whole work-group, into *@frame_thr;
 * whether one of its coefficients has values enough to look for one into
 * *@detail, for local id 0 to read after it. */
static void
frame_threshold (__global const uint * hist, const EstParams * params,
    __local ulong (*p)[DCT_BINS + 1], __local ulong (*chunk)[DECIDE_WG],
    __local ulong (*near)[LAT_REFINE + 2], __local uint * step,
    __local uint * qp, __local uint * thr, __local int *kind,
    __local uint * frame_thr, __local int *detail)
{
  const ulong least = max (params->min_count, 1u);
  const int lid = get_local_id (0);
  const int tasks = EST_STEPS + EST_QPS;

  if (lid < DCT_HIST_COEFFS)
    step[lid] = qp[lid] = 0;
  prefix_sums (hist, p, chunk);
  /* both searches, every candidate of every coefficient that has values
   * enough: the largest that fits */
  for (int t = lid; t < DCT_HIST_COEFFS * tasks; t += DECIDE_WG) {
    const int c = t / tasks, r = t % tasks;
    const ulong n = p[c][DCT_BINS];

    if (n < least)
      continue;
    if (r < EST_STEPS) {
      const uint sub = EST_STEP_MAX * LAT_SUB - r;
      if (est_multiples_fit (p[c], sub, n))
        atomic_max (&step[c], sub);
    } else {
      const uint q = H263_QP_MAX - (r - EST_STEPS);
      if (est_h263_fit (p[c], q, n))
        atomic_max (&qp[c], q);
    }
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  coefficient_thresholds (hist, params, p, near, step, qp, thr, kind);
  if (lid == 0) {
    uint t[DCT_HIST_COEFFS];
    int found[DCT_HIST_COEFFS], d = 0;

    for (int c = 0; c < DCT_HIST_COEFFS; c++) {
      t[c] = thr[c];
      found[c] = kind[c] != EST_LATTICE_NONE;
      d |= p[c][DCT_BINS] >= least;
    }
    *frame_thr = est_median_threshold (t, found);
    *detail = d;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* One work-group: the threshold of the frame whose histogram is the c-th
 * of @hist (DCT_HIST_COEFFS x DCT_BINS entries each), c = @component, or,
 * where @interlaced and that shows no lattice, @mb_hist (its macroblocks':
 * kernels/dct.cl; one component alone) for plane @index + c, whose state
 * is states[index + c] (updated), with the parameters @packed, the picture
 * type @picture and quantiser @quantiser (0: not known) the stream tells;
 * written to threshold[c], where the stage reads it (est_stage_word()).
 * A launch a component: with two work-groups at once in one launch, PoCL
 * 3.1 now and then gave one component the other's threshold
 * (test_auto_pair_on_device). */
__kernel __attribute__ ((reqd_work_group_size (DECIDE_WG, 1, 1)))
void
dct_decide (__global const uint * hist, __global const uint * mb_hist,
    int interlaced, __global EstState * states, uint index, uint16 packed, int picture,
    double quantiser, __global uint * threshold, int component)
{
  const int c = component;
  __local ulong p[DCT_HIST_COEFFS][DCT_BINS + 1];
  __local ulong chunk[DCT_HIST_COEFFS][DECIDE_WG];
  __local ulong near[DCT_HIST_COEFFS][LAT_REFINE + 2];
  __local uint step[DCT_HIST_COEFFS], qp[DCT_HIST_COEFFS];
  __local uint thr[DCT_HIST_COEFFS];
  __local int kind[DCT_HIST_COEFFS];
  __local uint grid_thr, mb_thr;
  __local int detail, mb_detail;  /* the grid's is the state's */
  const EstParams params = unpack_params (packed);

  hist += c * DCT_HIST_COEFFS * DCT_BINS;
  frame_threshold (hist, &params, p, chunk, near, step, qp, thr, kind,
      &grid_thr, &detail);
  /* both histograms where the frame is interlaced: a barrier taken on a
   * condition the work-items read from local memory is not one every
   * compiler keeps uniform (PoCL 3.1 gave other thresholds with one); a
   * kernel argument is */
  if (interlaced)
    frame_threshold (mb_hist, &params, p, chunk, near, step, qp, thr, kind,
        &mb_thr, &mb_detail);
  if (get_local_id (0) == 0) {
    const uint thr = grid_thr ? grid_thr : interlaced ? mb_thr : 0;
    __global EstState *state = states + index + c;

    threshold[c] = est_stage_word (state, est_update (state, thr,
            grid_thr == 0 && thr > 0, detail, picture, quantiser, &params),
        interlaced);
  }
}
