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

/* strength=auto's estimate (gst/gstcldctestimate.c) on its own, on the
 * host: the lattice search, the frame's threshold and the state carried
 * from frame to frame, pure functions of a histogram, against their plain
 * reference (tests/check/reference.c, ref_dct_lattice,
 * ref_dct_coefficient_threshold, ref_dct_median_threshold) on histograms
 * made by hand, drawn at random, of pictures quantized on purpose and of
 * frames coded by real encoders (tests/check/libs/dct-frames), read by the
 * reference's histogram (ref_dct_histogram). Needs no OpenCL device. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>

#include "gstcldctestimate-private.h"
#include "dctpicture.h"
#include "reference.h"

/* A picture made of 8x8 blocks whose low-frequency coefficients are
 * multiples of @step (quarter levels), rounded to 8 bits as a decoder does;
 * its histogram read by the reference. */
static void
quantized_histogram (guint32 seed, gint step, guint32 * hist)
{
  const gint w = 256, h = 192;
  guint8 *p = g_malloc (w * h);
  GRand *rand = g_rand_new_with_seed (seed);

  dct_fill_quantized (rand, p, w, w, h, step);
  ref_dct_histogram (p, w, w, h, hist);
  g_free (p);
  g_rand_free (rand);
}

/* Pictures whose low-frequency coefficients are quantized by @step quarter
 * levels: each coefficient shows multiples of the step, give or take the
 * quarter level that the lattice's spacing may differ by (the decoder's
 * rounding), and strength=auto's threshold is the median of the
 * coefficients' (ref_dct_coefficient_threshold), between gain / 16 and
 * (gain + strong_gain) / 16 of the step; noise over a ramp and random
 * bytes show no lattice. */
GST_START_TEST (test_frame_threshold_quantized)
{
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  GstClDctAutoParams params;
  gint step;

  gst_cl_dct_auto_params_init (&params);
  for (step = 40; step <= 240; step += 25) {
    guint t[GST_CL_DCT_HIST_COEFFS], k, got, expected;

    quantized_histogram (step, step, hist);
    for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++) {
      const guint32 *h = hist + k * GST_CL_DCT_BINS;
      guint spacing = 0;

      fail_unless_equals_int (ref_dct_lattice (h, params.min_count,
              &spacing), GST_CL_DCT_LATTICE_MULTIPLES);
      fail_unless (ABS ((gint) spacing - 4 * step) <= 4, "step %d: "
          "spacing %u", step, spacing);
      t[k] = ref_dct_coefficient_threshold (h, GST_CL_DCT_LATTICE_MULTIPLES,
          spacing, params.gain, params.strong_gain, params.strong_level);
    }
    expected = ref_dct_median_threshold (t, GST_CL_DCT_HIST_COEFFS);
    got = gst_cl_dct_frame_threshold (hist, &params);
    fail_unless_equals_int (got, expected);
    fail_unless (16 * got + 16 >= (guint) step * params.gain &&
        16 * got <= (guint) step * (params.gain + params.strong_gain) + 16,
        "step %d: threshold %u", step, got);
  }
  {
    GRand *rand = g_rand_new_with_seed (99);
    guint8 *p = g_malloc (256 * 192);
    dct_fill_plane (rand, p, 256, 256, 192, 12);
    ref_dct_histogram (p, 256, 256, 192, hist);
    fail_unless_equals_int (gst_cl_dct_frame_threshold (hist, &params), 0);
    dct_fill_plane (rand, p, 256, 256, 192, NOISE_RANDOM);
    ref_dct_histogram (p, 256, 256, 192, hist);
    fail_unless_equals_int (gst_cl_dct_frame_threshold (hist, &params), 0);
    g_free (p);
    g_rand_free (rand);
  }
}

GST_END_TEST;

/* strength=auto on frames coded by real encoders (tests/check/libs/
 * dct-frames: a 128x96 luma crop, on the codec's 8x8 grid, of the
 * astronaut picture of tests/quality/heldout.py's FIT set, coded and
 * decoded by FFmpeg 5.1 as that harness does; 'heldout.py test-frames'
 * writes them): the lattice of each of the three coefficients, its
 * spacing (quarter-quarter levels) and the frame's threshold at the
 * fitted defaults (written here as ref_dct_coefficient_threshold gives it
 * from those spacings, so that a change of a default fails too). The
 * spacings are the codecs' own: MPEG-2 -q:v Q, 2 Q levels
 * (16 x 2Q); H.263 and MPEG-4's H.263 quantization, 2 QP levels (odd
 * multiples); MPEG-4 with -mpeg_quant 1, QP x W / 8 levels (W = 17, 17, 18
 * from its default intra matrix: 12.75 levels at QP 6); FFmpeg's MJPEG
 * -q:v Q, 16 Q / 8 levels (MPEG-1's matrix scaled), and 219/255 of that
 * once converted to limited range (17.18 levels at Q 10). H.264, HEVC and
 * the pristine crop show none. A change of the estimate's tolerance, fit
 * fraction, count or rounding that loses one of these fails here. */
typedef struct
{
  const gchar *file;
  GstClDctLattice kind;
  guint spacing[GST_CL_DCT_HIST_COEFFS];
  guint threshold;              /* at the defaults, by the reference */
} CodedFrame;

#define M GST_CL_DCT_LATTICE_MULTIPLES
#define O GST_CL_DCT_LATTICE_H263
#define N GST_CL_DCT_LATTICE_NONE
static const CodedFrame coded_frames[] = {
  {"mpeg2-8", M, {256, 256, 256}, 45},
  {"mpeg2-14", M, {449, 448, 450}, 62},
  {"mpeg4-6", O, {192, 192, 192}, 34},
  {"mpeg4-12", O, {384, 384, 384}, 52},
  {"mpeg4-mq-6", M, {204, 203, 215}, 38},
  {"mpeg4-mq-12", M, {408, 407, 432}, 59},
  {"h263-6", O, {192, 192, 192}, 34},
  {"h263-12", O, {384, 384, 384}, 52},
  {"mjpeg-10", M, {320, 319, 320}, 53},
  {"mjpeg-20", M, {639, 639, 640}, 84},
  {"mjpeg-tv-10", M, {275, 274, 275}, 46},
  {"mjpeg-tv-20", M, {549, 549, 549}, 72},
  {"h264-30", N, {0, 0, 0}, 0},
  {"h264-36", N, {0, 0, 0}, 0},
  {"hevc-32", N, {0, 0, 0}, 0},
  {"pristine-0", N, {0, 0, 0}, 0},
};

#undef M
#undef O
#undef N

GST_START_TEST (test_estimate_coded_frames)
{
  const gchar *dir = g_getenv ("DCT_FRAMES");
  GstClDctAutoParams params;
  guint i, k;

  fail_unless (dir != NULL, "DCT_FRAMES (tests/meson.build) is not set");
  gst_cl_dct_auto_params_init (&params);
  for (i = 0; i < G_N_ELEMENTS (coded_frames); i++) {
    const CodedFrame *c = &coded_frames[i];
    gchar *name = g_strdup_printf ("astronaut-%s.y", c->file);
    gchar *path = g_build_filename (dir, name, NULL);
    guint32 hist[GST_CL_DCT_HIST_SIZE];
    guint t[GST_CL_DCT_HIST_COEFFS], nt = 0;
    gchar *data = NULL;
    gsize size = 0;

    fail_unless (g_file_get_contents (path, &data, &size, NULL), "%s", path);
    fail_unless_equals_int (size, 128 * 96);
    ref_dct_histogram ((const guint8 *) data, 128, 128, 96, hist);
    for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++) {
      guint spacing = 0;
      const GstClDctLattice kind = gst_cl_dct_lattice (hist +
          k * GST_CL_DCT_BINS, params.min_count, &spacing);

      fail_unless (kind == c->kind && spacing == c->spacing[k],
          "%s, coefficient %u: lattice %d spacing %u, expected %d %u",
          c->file, k, kind, spacing, c->kind, c->spacing[k]);
      if (c->kind != GST_CL_DCT_LATTICE_NONE)
        t[nt++] = ref_dct_coefficient_threshold (hist + k * GST_CL_DCT_BINS,
            c->kind, c->spacing[k], c->kind == GST_CL_DCT_LATTICE_H263 ?
            params.gain_h263 : params.gain, params.strong_gain,
            params.strong_level);
    }
    fail_unless_equals_int (ref_dct_median_threshold (t, nt), c->threshold);
    fail_unless_equals_int (gst_cl_dct_frame_threshold (hist, &params),
        c->threshold);
    g_free (data);
    g_free (path);
    g_free (name);
  }
}

GST_END_TEST;

/* The first bin the estimate reads (EST_MIN in gstcldctestimate.c). */
#define EST_MIN_BIN 6

/* One coefficient's histogram with @n values at each of @points (quarter
 * levels, 0-terminated). */
static void
points_histogram (guint32 * hist, const guint * points, guint n)
{
  memset (hist, 0, GST_CL_DCT_BINS * sizeof (guint32));
  for (; *points; points++)
    hist[*points] += n;
}

/* The two lattices at their edges: H.263's odd multiples with the even
 * quantizer's -1 (qp 10: 29, 49, 69 levels), a step of a quarter-quarter
 * level, the +-3 tolerance, the count. */
GST_START_TEST (test_lattice_edges)
{
  static const guint h263[] = { 116, 196, 276, 0 };
  static const guint h263_off[] = { 120, 200, 280, 0 };
  static const guint mq[] = { 48, 100, 152, 204, 0 };
  guint32 hist[GST_CL_DCT_BINS];
  guint spacing, i;

  points_histogram (hist, h263, 20);
  fail_unless_equals_int (gst_cl_dct_lattice (hist, 24, &spacing),
      GST_CL_DCT_LATTICE_H263);
  fail_unless_equals_int (spacing, 320);
  /* 4 quarter levels off H.263's levels: odd multiples of 10 levels without
   * the -1 are the multiples of 40 quarter levels (H.263's qp 10 is 29,
   * 49, 69 levels, not 30, 50, 70); of the spacings that hold all three
   * within 3, the largest (161: 121, 201, 282) */
  points_histogram (hist, h263_off, 20);
  fail_unless_equals_int (gst_cl_dct_lattice (hist, 24, &spacing),
      GST_CL_DCT_LATTICE_MULTIPLES);
  fail_unless_equals_int (spacing, 161);
  /* MPEG-4's MPEG quantization at qp 6: floor (L x 12.75) levels */
  points_histogram (hist, mq, 20);
  fail_unless_equals_int (gst_cl_dct_lattice (hist, 24, &spacing),
      GST_CL_DCT_LATTICE_MULTIPLES);
  fail_unless (spacing >= 203 && spacing <= 205, "spacing %u", spacing);
  /* the count: 24 values read, 23 not */
  points_histogram (hist, h263, 8);
  fail_unless_equals_int (gst_cl_dct_lattice (hist, 24, &spacing),
      GST_CL_DCT_LATTICE_H263);
  fail_unless_equals_int (gst_cl_dct_lattice (hist, 25, &spacing),
      GST_CL_DCT_LATTICE_NONE);
  fail_unless_equals_int (spacing, 0);
  /* values spread evenly (a deblocked codec's, a pristine picture's) fit
   * none */
  memset (hist, 0, sizeof (hist));
  for (i = EST_MIN_BIN; i < 500; i++)
    hist[i] = 1 + i % 3;
  fail_unless_equals_int (gst_cl_dct_lattice (hist, 24, &spacing),
      GST_CL_DCT_LATTICE_NONE);
}

GST_END_TEST;

/* One coefficient's histogram: @n_on values spread over MPEG-4's levels at
 * qp 6 (48, 100, 152 and 204 quarter levels: a step of 51, no H.263
 * lattice), @n_off at bin @off; its lattice and spacing. */
static GstClDctLattice
lattice_of (guint n_on, guint off, guint n_off, guint * spacing)
{
  static const guint mq[] = { 48, 100, 152, 204 };
  guint32 hist[GST_CL_DCT_BINS] = { 0 };
  guint i;

  for (i = 0; i < n_on; i++)
    hist[mq[i % G_N_ELEMENTS (mq)]]++;
  hist[off] += n_off;
  return gst_cl_dct_lattice (hist, GST_CL_DCT_DEFAULT_MIN_COUNT, spacing);
}

/* Asserts that 64 values at each of @points (0-terminated) lie on a lattice
 * of @kind whose spacing is @lo to @hi. */
static void
expect_lattice (const guint * points, GstClDctLattice kind, guint lo, guint hi)
{
  guint32 hist[GST_CL_DCT_BINS];
  guint spacing;
  GstClDctLattice got;

  points_histogram (hist, points, 64);
  got = gst_cl_dct_lattice (hist, GST_CL_DCT_DEFAULT_MIN_COUNT, &spacing);
  fail_unless (got == kind && spacing >= lo && spacing <= hi, "points from "
      "%u: lattice %d spacing %u, expected %d %u..%u", points[0], got,
      spacing, kind, lo, hi);
}

/* The search's contract (gstcldctestimate.c) at its edges: a lattice fits when
 * 40/64 of the values it reads lie near its points; values below 6 quarter
 * levels are not read (values at 7 are near no lattice: the smallest point
 * of any is 21); steps run from 255 quarter levels down to 24, whose
 * first point holds 21 (24 - 3) but not 20. */
GST_START_TEST (test_lattice_fit_edges)
{
  static const guint top[] = { 1020, 0 }, low[] = { 21, 0 }, lower[] = {
    20, 0
  };
  guint spacing;

  /* the fit fraction: 40 of 64 near, then 39 */
  fail_unless_equals_int (lattice_of (40, 7, 24, &spacing),
      GST_CL_DCT_LATTICE_MULTIPLES);
  fail_unless (spacing >= 203 && spacing <= 205, "spacing %u", spacing);
  fail_unless_equals_int (lattice_of (39, 7, 25, &spacing),
      GST_CL_DCT_LATTICE_NONE);
  /* values at 5 are not read, at 6 they are */
  fail_unless_equals_int (lattice_of (39, 5, 25, &spacing),
      GST_CL_DCT_LATTICE_MULTIPLES);
  fail_unless_equals_int (lattice_of (39, 6, 25, &spacing),
      GST_CL_DCT_LATTICE_NONE);
  /* the range: a step of 255 quarter levels is tried (1020 quarter-quarter
   * levels), and 24's first point reaches down to 21, not 20 */
  expect_lattice (top, GST_CL_DCT_LATTICE_MULTIPLES, 1020, 1020);
  expect_lattice (low, GST_CL_DCT_LATTICE_MULTIPLES, 96, 97);
  expect_lattice (lower, GST_CL_DCT_LATTICE_NONE, 0, 0);
}

GST_END_TEST;

/* One coefficient's histogram of @kind: 0 a broad spread (no lattice, the
 * common frame), 1 multiples of a step, 2 H.263's odd multiples, each with
 * the spread of a decoder's rounding and a share of stray values. */
static void
random_histogram (GRand * rand, guint kind, guint32 * hist)
{
  const gint sub = g_rand_int_range (rand, 80, 1040);
  const gint qp = g_rand_int_range (rand, 2, 33);
  const gint scale = g_rand_int_range (rand, 3, 300);
  const gint n = g_rand_int_range (rand, 0, 20000);
  const gint stray = g_rand_int_range (rand, 2, 12);
  gint i, v;

  memset (hist, 0, GST_CL_DCT_BINS * sizeof (guint32));
  for (i = 0; i < n; i++) {
    const gint level = g_rand_int_range (rand, 1, 7);

    if (kind == 0 || g_rand_int_range (rand, 0, stray) == 0)
      v = (gint) (-log (g_rand_double_range (rand, 1e-9, 1.0)) * scale);
    else if (kind == 1)
      v = (level * sub + 2) / 4 + g_rand_int_range (rand, -4, 5);
    else
      v = 4 * (qp * (2 * level - 1) - (qp % 2 == 0 && level > 0)) +
          g_rand_int_range (rand, -4, 5);
    hist[CLAMP (v, 0, GST_CL_DCT_BINS - 1)]++;
  }
}

/* The search against its plain reference (ref_dct_lattice) on random
 * histograms of every kind, at the edges of the fit too; and the frame's
 * threshold, the median of the coefficients' (ref_dct_coefficient_threshold)
 * where two show a lattice, from the reference's lattices. */
GST_START_TEST (test_lattice_against_reference)
{
  GRand *rand = g_rand_new_with_seed (0x1a77);
  GstClDctAutoParams params;
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  guint i, k, found[3] = { 0, };

  gst_cl_dct_auto_params_init (&params);
  for (i = 0; i < 1500; i++) {
    guint t[GST_CL_DCT_HIST_COEFFS], nt = 0;

    for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++) {
      guint32 *h = hist + k * GST_CL_DCT_BINS;
      guint spacing, ref_spacing, ref_kind;
      GstClDctLattice kind;

      random_histogram (rand, (i + k) % 3, h);
      kind = gst_cl_dct_lattice (h, params.min_count, &spacing);
      ref_kind = ref_dct_lattice (h, params.min_count, &ref_spacing);
      fail_unless (kind == ref_kind && spacing == ref_spacing, "histogram "
          "%u/%u (seed 0x1a77): lattice %d spacing %u, reference %u %u", i,
          k, kind, spacing, ref_kind, ref_spacing);
      found[ref_kind]++;
      if (ref_kind)
        t[nt++] = ref_dct_coefficient_threshold (h, ref_kind, ref_spacing,
            ref_kind == 2 ? params.gain_h263 : params.gain,
            params.strong_gain, params.strong_level);
    }
    fail_unless_equals_int (gst_cl_dct_frame_threshold (hist, &params),
        ref_dct_median_threshold (t, nt));
  }
  /* every outcome is met often */
  for (k = 0; k < 3; k++)
    fail_unless (found[k] > 300, "lattice %u found %u times", k, found[k]);
  g_rand_free (rand);
}

GST_END_TEST;

/* The held threshold where the stream tells no types: a frame without a
 * lattice after one with takes a part of its threshold, for 64 frames,
 * then nothing: hold_gain_untold_late / 16 while no distance between two
 * intra frames is known, then hold_gain_untold / 16, but
 * hold_gain_untold_late / 16 on the last late_frames (2) frames before
 * the next intra frame is due (or is late); a frame with a lattice right
 * after one continues its run (a predicted frame that shows the intra
 * frame's lattice still): distances count from a run's first frame; a
 * reset forgets it all. The GOPs below, an intra frame and what follows
 * it each: I a frame with a lattice, E a held frame with the early gain,
 * L one with the late gain. */
/* Feeds @state, for each of @gops, an intra frame (@hist, whose own
 * threshold is @own) and then the GOP's frames: 'I' another frame with the
 * lattice (@hist), 'E' and 'L' a frame without one (@flat) that must take
 * @early and @late; every frame of the coding @told (NULL: the stream
 * tells nothing). */
static void
check_gops_told (GstClDctAuto * state, const guint32 * hist,
    const guint32 * flat, guint own, guint early, guint late,
    const gchar * const *gops, guint n, const GstClDctCoding * told)
{
  guint g, i;

  for (g = 0; g < n; g++) {
    fail_unless_equals_int (gst_cl_dct_auto_update_coded (state, hist, told),
        own);
    for (i = 0; gops[g][i]; i++)
      fail_unless (gops[g][i] == 'I' ?
          gst_cl_dct_auto_update_coded (state, hist, told) == own :
          gst_cl_dct_auto_update_coded (state, flat, told) ==
          (gops[g][i] == 'E' ? early : late), "GOP %s, frame %u after its "
          "intra frame: not %c", gops[g], i + 1, gops[g][i]);
  }
}

static void
check_gops (GstClDctAuto * state, const guint32 * hist, const guint32 * flat,
    guint own, guint early, guint late, const gchar * const *gops, guint n)
{
  check_gops_told (state, hist, flat, own, early, late, gops, n, NULL);
}

GST_START_TEST (test_auto_hold)
{
  static const guint h263[] = { 116, 196, 276, 0 };
  static const gchar *const gops[] = {
    "LLLLL",                    /* 6 frames, no distance known yet */
    "EEELLLLLLLL",              /* 12 frames after a GOP of 6 */
    "IEEEEEEEELL",              /* 12 after 12, a run of two */
    "EEEEEEEEELL",              /* 12 after 12, from the run's first */
    "EE",                       /* 3 after 12 (a scene cut, say) */
    "IEEEEEE",                  /* 8 after 3: the longest of 12, 3, 12 */
    /* after 8: 12 (of 8, 3, 12), so 9 early, then late up to the 64th
     * held frame */
    "EEEEEEEEE" "LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL",
  };
  /* after 66 frames (the 64 held, one more without a lattice): 66 stays
   * the longest of the last three distances until three more have come, so
   * the GOP it starts and the next two (12 frames each) take the early gain
   * throughout; the third GOP of 12 has its late frames again */
  static const gchar *const after_long[] = {
    "EEEEEEEEEEE", "EEEEEEEEEEE", "EEEEEEEEEEE", "EEEEEEEEELL",
  };
  guint32 hist[GST_CL_DCT_HIST_SIZE], flat[GST_CL_DCT_HIST_SIZE] = { 0 };
  GstClDctAuto state = { 0, };
  guint t[GST_CL_DCT_HIST_COEFFS], k, own, early, late;

  for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
    points_histogram (hist + k * GST_CL_DCT_BINS, h263, 20);
  flat[0] = 1000;
  /* H.263 qp 10: spacing 20 levels (320 quarter-quarter) */
  for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
    t[k] = ref_dct_coefficient_threshold (hist + k * GST_CL_DCT_BINS,
        GST_CL_DCT_LATTICE_H263, 320,
        GST_CL_DCT_DEFAULT_GAIN_H263, GST_CL_DCT_DEFAULT_STRONG_GAIN,
        GST_CL_DCT_DEFAULT_STRONG_LEVEL);
  own = ref_dct_median_threshold (t, GST_CL_DCT_HIST_COEFFS);
  fail_unless (own > 0);
  early = (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_UNTOLD + 8) >> 4;
  late = (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_UNTOLD_LATE + 8) >> 4;
  fail_unless (early != late, "the two hold gains give one threshold: the "
      "test cannot tell them");
  fail_unless_equals_int (GST_CL_DCT_DEFAULT_LATE_FRAMES, 2);
  fail_unless_equals_int (GST_CL_DCT_AUTO_DISTANCES, 3);
  fail_unless_equals_int (strlen (gops[G_N_ELEMENTS (gops) - 1]), 64);
  check_gops (&state, hist, flat, own, early, late, gops, G_N_ELEMENTS (gops));
  /* then nothing: the hold is over */
  fail_unless_equals_int (gst_cl_dct_auto_update (&state, flat), 0);
  check_gops (&state, hist, flat, own, early, late, after_long,
      G_N_ELEMENTS (after_long));
  gst_cl_dct_auto_reset (&state);
  fail_unless_equals_int (gst_cl_dct_auto_update (&state, flat), 0);
  /* after a reset no distance is known: late again */
  fail_unless_equals_int (gst_cl_dct_auto_update (&state, hist), own);
  fail_unless_equals_int (gst_cl_dct_auto_update (&state, flat), late);
  /* the same GOPs where the stream tells every frame is intra (the held
   * ones show no lattice of their own): the told gains, early and late */
  {
    const GstClDctCoding intra = { GST_CL_DCT_PICTURE_INTRA, 10 };
    const guint told_early = (own * GST_CL_DCT_DEFAULT_HOLD_GAIN + 8) >> 4;
    const guint told_late = (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_LATE + 8) >> 4;

    fail_unless (told_early != early && told_early != told_late);
    gst_cl_dct_auto_reset (&state);
    check_gops_told (&state, hist, flat, own, told_early, told_late, gops,
        G_N_ELEMENTS (gops) - 1, &intra);
  }
}

GST_END_TEST;

/* Where the stream tells each frame's type and quantiser, a frame without
 * a lattice of its own takes the hold gain of its type: a B frame's
 * whatever its quantiser or position, a P frame's times the square root of
 * its quantiser over the held frame's, within a quarter to twice, half of
 * either before the second intra frame; an intra frame without a lattice
 * keeps the gains by position, hold_gain and hold_gain_late, and a frame
 * of unknown type the untold ones (test_auto_hold), which differ. */
GST_START_TEST (test_auto_hold_coded)
{
  static const guint h263[] = { 116, 196, 276, 0 };
  static const struct
  {
    GstClDctPicture picture;
    gdouble quantiser;
    gdouble gain;               /* of the held threshold; 0: by position */
  } frames[] = {
    {GST_CL_DCT_PICTURE_B, 20, GST_CL_DCT_DEFAULT_HOLD_GAIN_B / 16.0},
    {GST_CL_DCT_PICTURE_B, 5, GST_CL_DCT_DEFAULT_HOLD_GAIN_B / 16.0},
    {GST_CL_DCT_PICTURE_P, 10, GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0},
    {GST_CL_DCT_PICTURE_P, 20, GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0 * G_SQRT2},
    {GST_CL_DCT_PICTURE_P, 80, GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0 * G_SQRT2},
    {GST_CL_DCT_PICTURE_P, 5, GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0 / G_SQRT2},
    {GST_CL_DCT_PICTURE_P, 2.5, GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0 / 2},
    {GST_CL_DCT_PICTURE_P, 1, GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0 / 2},
    {GST_CL_DCT_PICTURE_P, 0, GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0},
    {GST_CL_DCT_PICTURE_INTRA, 10, 0},
    {GST_CL_DCT_PICTURE_UNKNOWN, 10, 0},
  };
  guint32 hist[GST_CL_DCT_HIST_SIZE], flat[GST_CL_DCT_HIST_SIZE] = { 0 };
  const GstClDctCoding intra = { GST_CL_DCT_PICTURE_INTRA, 10 };
  /* a rate control's stream: an intra frame of another quantiser first
   * (test_auto_hold_fixed: one fixed quantiser) */
  const GstClDctCoding other = { GST_CL_DCT_PICTURE_INTRA, 12 };
  GstClDctAutoParams told;
  guint i, k, own;

  for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
    points_histogram (hist + k * GST_CL_DCT_BINS, h263, 20);
  flat[0] = 1000;
  /* the hold by position with the told gains, on a stream that tells
   * nothing */
  gst_cl_dct_auto_params_init (&told);
  told.hold_gain_untold = told.hold_gain;
  told.hold_gain_untold_late = told.hold_gain_late;
  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    GstClDctAuto coded = { 0, }, plain = { 0, }, plain_told = { 0, };
    const GstClDctCoding c = { frames[i].picture, frames[i].quantiser };
    const gboolean is_intra = frames[i].picture == GST_CL_DCT_PICTURE_INTRA;
    guint by_position, by_told, got, pass;

    /* every state sees that intra frame, so that their positions agree */
    fail_unless (gst_cl_dct_auto_update_coded (&coded, hist, &other) > 0);
    gst_cl_dct_auto_update (&plain, hist);
    gst_cl_dct_auto_update_with (&plain_told, hist, NULL, &told);
    for (pass = 0; pass < 2; pass++) {
      /* pass 0: the first held frame, before the second intra frame (half
       * of a type's gain); pass 1: after it, the whole gain */
      fail_unless_equals_int (gst_cl_dct_auto_update_coded (&coded, hist,
              &intra), own = gst_cl_dct_auto_update (&plain, hist));
      fail_unless (own > 0);
      fail_unless_equals_int (gst_cl_dct_auto_update_with (&plain_told, hist,
              NULL, &told), own);
      by_position = gst_cl_dct_auto_update (&plain, flat);
      by_told = gst_cl_dct_auto_update_with (&plain_told, flat, NULL, &told);
      fail_if (by_position == by_told, "the told and untold gains give one "
          "threshold: the test cannot tell them");
      got = gst_cl_dct_auto_update_coded (&coded, flat, &c);
      fail_unless_equals_int (got, frames[i].gain == 0 ? (is_intra ?
              by_told : by_position) :
          (guint) floor (own * frames[i].gain / (pass ? 1 : 2) + 0.5));
    }
  }
  fail_unless_equals_int (GST_CL_DCT_DEFAULT_FIRST_GOP, 8);
  /* a held frame of unknown quantiser: a P frame's gain alone (half of
   * it: the first group of pictures) */
  {
    GstClDctAuto coded = { 0, };
    const GstClDctCoding p = { GST_CL_DCT_PICTURE_P, 40 };

    own = gst_cl_dct_auto_update_coded (&coded, hist, NULL);
    fail_unless_equals_int (gst_cl_dct_auto_update_coded (&coded, flat, &p),
        (guint) floor (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 32.0 + 0.5));
  }
}

GST_END_TEST;

/* Where every told quantiser is the held intra frame's (two frames since
 * the first intra frame, none other between: a fixed quantiser), a P or B
 * frame without a lattice of its own holds hold_gain of it, a B frame
 * within late_frames of the next intra frame, or any B frame while the
 * distance between intra frames is not known, hold_gain_late; from the
 * first group of pictures on (no half), on chroma's parameters too (its B
 * frames included); the first frame after the intra frame still holds as
 * in a rate control's stream, one quantiser that differs ends it for good,
 * and an intra frame of no told quantiser ends it until the next told
 * one. */
GST_START_TEST (test_auto_hold_fixed)
{
  static const guint h263[] = { 116, 196, 276, 0 };
  /* display order, GOP of 6: I B B P B B | I B B P B B | I ... */
  static const gchar gop[] = "IBBPBBIBBPBBI";
  guint32 hist[GST_CL_DCT_HIST_SIZE], flat[GST_CL_DCT_HIST_SIZE] = { 0 };
  GstClDctAuto state = { 0, };
  guint i, k, own = 0, period = 0, last_i = 0;

  for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
    points_histogram (hist + k * GST_CL_DCT_BINS, h263, 20);
  flat[0] = 1000;
  fail_unless_equals_int (GST_CL_DCT_DEFAULT_LATE_FRAMES, 2);
  for (i = 0; i < strlen (gop); i++) {
    const GstClDctPicture picture = gop[i] == 'I' ? GST_CL_DCT_PICTURE_INTRA :
        gop[i] == 'P' ? GST_CL_DCT_PICTURE_P : GST_CL_DCT_PICTURE_B;
    const GstClDctCoding c = { picture, 10 };
    guint got, expected;

    if (gop[i] == 'I') {
      own = gst_cl_dct_auto_update_coded (&state, hist, &c);
      fail_unless (own > 0);
      if (i > 0)
        period = i - last_i;
      last_i = i;
      continue;
    }
    got = gst_cl_dct_auto_update_coded (&state, flat, &c);
    if (i == 1)
      /* one frame with the held quantiser tells no fixed quantiser yet: a
       * B frame of the first group of pictures */
      expected = (guint) floor (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_B / 32.0 +
          0.5);
    else if (gop[i] == 'B' && (period == 0 ||
            i - last_i + GST_CL_DCT_DEFAULT_LATE_FRAMES >= period))
      expected = (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_LATE + 8) >> 4;
    else
      expected = (own * GST_CL_DCT_DEFAULT_HOLD_GAIN + 8) >> 4;
    fail_unless_equals_int (got, expected);
  }
  fail_unless (period == 6);
  /* a P frame of another quantiser: a rate control's from then on, the
   * next P frame at the intra frame's quantiser too */
  {
    const GstClDctCoding p9 = { GST_CL_DCT_PICTURE_P, 9 };
    const GstClDctCoding p10 = { GST_CL_DCT_PICTURE_P, 10 };

    fail_unless_equals_int (gst_cl_dct_auto_update_coded (&state, flat, &p9),
        (guint) floor (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0 *
            sqrt (0.9) + 0.5));
    fail_unless_equals_int (gst_cl_dct_auto_update_coded (&state, flat, &p10),
        (guint) floor (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0 + 0.5));
  }
  fail_unless (GST_CL_DCT_DEFAULT_HOLD_GAIN != GST_CL_DCT_DEFAULT_HOLD_GAIN_P);
  /* chroma's parameters (no B frame held in a rate control's stream): a B
   * frame of a fixed quantiser's held all the same */
  {
    const GstClDctCoding i10 = { GST_CL_DCT_PICTURE_INTRA, 10 };
    const GstClDctCoding p10 = { GST_CL_DCT_PICTURE_P, 10 };
    const GstClDctCoding b10 = { GST_CL_DCT_PICTURE_B, 10 };
    GstClDctAutoParams chroma;
    GstClDctAuto c = { 0, };

    gst_cl_dct_auto_chroma_params_init (&chroma, TRUE);
    fail_unless_equals_int (chroma.hold_gain_b, 0);
    own = gst_cl_dct_auto_update_with (&c, hist, &i10, &chroma);
    fail_unless_equals_int (gst_cl_dct_auto_update_with (&c, flat, &b10,
            &chroma), 0);
    fail_unless_equals_int (gst_cl_dct_auto_update_with (&c, flat, &b10,
            &chroma), (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_LATE + 8) >> 4);
    fail_unless_equals_int (gst_cl_dct_auto_update_with (&c, flat, &p10,
            &chroma), (own * GST_CL_DCT_DEFAULT_HOLD_GAIN + 8) >> 4);
  }
  /* an intra frame with a lattice and no told quantiser: the held frame's
   * quantiser is not known, and a P frame holds as a rate control's */
  {
    const GstClDctCoding i10 = { GST_CL_DCT_PICTURE_INTRA, 10 };
    const GstClDctCoding i0 = { GST_CL_DCT_PICTURE_INTRA, 0 };
    const GstClDctCoding p10 = { GST_CL_DCT_PICTURE_P, 10 };
    GstClDctAuto u = { 0, };

    own = gst_cl_dct_auto_update_coded (&u, hist, &i10);
    gst_cl_dct_auto_update_coded (&u, flat, &p10);
    fail_unless_equals_int (gst_cl_dct_auto_update_coded (&u, flat, &p10),
        (own * GST_CL_DCT_DEFAULT_HOLD_GAIN + 8) >> 4);
    fail_unless_equals_int (gst_cl_dct_auto_update_coded (&u, hist, &i0), own);
    fail_unless_equals_int (gst_cl_dct_auto_update_coded (&u, flat, &p10),
        (guint) floor (own * GST_CL_DCT_DEFAULT_HOLD_GAIN_P / 16.0 + 0.5));
  }
}

GST_END_TEST;

/* The chroma planes' estimate: a frame with a lattice of its own gets the
 * same threshold as with luma's parameters; held, an intra or P frame the
 * stream tells keeps luma's hold, a B frame none, and where the stream
 * tells no types no frame is held. */
GST_START_TEST (test_auto_chroma_hold)
{
  static const guint h263[] = { 116, 196, 276, 0 };
  static const GstClDctPicture pictures[] = {
    GST_CL_DCT_PICTURE_INTRA, GST_CL_DCT_PICTURE_P, GST_CL_DCT_PICTURE_B,
    GST_CL_DCT_PICTURE_UNKNOWN
  };
  guint32 hist[GST_CL_DCT_HIST_SIZE], flat[GST_CL_DCT_HIST_SIZE] = { 0 };
  const GstClDctCoding intra = { GST_CL_DCT_PICTURE_INTRA, 10 };
  GstClDctAutoParams luma, coded, uncoded;
  guint i, k;

  for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
    points_histogram (hist + k * GST_CL_DCT_BINS, h263, 20);
  flat[0] = 1000;
  gst_cl_dct_auto_params_init (&luma);
  gst_cl_dct_auto_chroma_params_init (&coded, TRUE);
  gst_cl_dct_auto_chroma_params_init (&uncoded, FALSE);
  for (i = 0; i < G_N_ELEMENTS (pictures); i++) {
    GstClDctAuto l = { 0, }, c = { 0, }, u = { 0, };
    const GstClDctCoding held = { pictures[i], 10 };
    guint own, by_luma;

    own = gst_cl_dct_auto_update_with (&l, hist, &intra, &luma);
    fail_unless (own > 0);
    fail_unless_equals_int (gst_cl_dct_auto_update_with (&c, hist, &intra,
            &coded), own);
    fail_unless_equals_int (gst_cl_dct_auto_update_with (&u, hist, NULL,
            &uncoded), own);
    by_luma = gst_cl_dct_auto_update_with (&l, flat, &held, &luma);
    fail_unless (by_luma > 0, "luma holds picture %d", pictures[i]);
    fail_unless_equals_int (gst_cl_dct_auto_update_with (&c, flat, &held,
            &coded), pictures[i] == GST_CL_DCT_PICTURE_B ? 0 : by_luma);
    fail_unless_equals_int (gst_cl_dct_auto_update_with (&u, flat, NULL,
            &uncoded), 0);
    /* a frame with its own lattice again: its own threshold */
    fail_unless_equals_int (gst_cl_dct_auto_update_with (&c, hist, &held,
            &coded), gst_cl_dct_auto_update_with (&l, hist, &held, &luma));
  }
}

GST_END_TEST;

/* An interlaced frame's luma: its grid's lattice first; its macroblocks'
 * (gst_cl_dct_histogram()) only where the grid shows none; none where no
 * macroblocks' histogram is given. */
GST_START_TEST (test_auto_interlaced)
{
  guint32 grid[GST_CL_DCT_HIST_SIZE], mb[GST_CL_DCT_HIST_SIZE];
  guint32 flat[GST_CL_DCT_HIST_SIZE] = { 0 };
  GstClDctAutoParams params;
  guint from_grid, from_mb;

  gst_cl_dct_auto_params_init (&params);
  quantized_histogram (5, 60, grid);
  quantized_histogram (6, 160, mb);
  from_grid = gst_cl_dct_frame_threshold (grid, &params);
  from_mb = gst_cl_dct_frame_threshold (mb, &params);
  fail_unless (from_grid > 0 && from_mb > 0 && from_grid != from_mb);
  {
    GstClDctAuto state = { 0, };

    fail_unless_equals_int (gst_cl_dct_auto_update_interlaced (&state, grid,
            mb, NULL, &params), from_grid);
  }
  {
    GstClDctAuto state = { 0, };

    fail_unless_equals_int (gst_cl_dct_auto_update_interlaced (&state, flat,
            mb, NULL, &params), from_mb);
    /* what the macroblocks gave is held as a grid's would be */
    fail_unless_equals_int (state.held_step, from_mb);
  }
  {
    GstClDctAuto state = { 0, };

    fail_unless_equals_int (gst_cl_dct_auto_update_interlaced (&state, flat,
            NULL, NULL, &params), 0);
  }
}

GST_END_TEST;

/* Why strength=auto leaves a stream alone: nothing said before
 * GST_CL_DCT_IDLE_FRAMES frames (unless the stream ends), "flat" where no
 * coefficient had the values a lattice needs, "no lattice" where one had
 * them on no lattice (what H.264's deblocked frames give), nothing once a
 * frame showed a lattice, even long before, and a reset forgets it all. */
GST_START_TEST (test_auto_idle)
{
  static const guint h263[] = { 116, 196, 276, 0 };
  guint32 coded[GST_CL_DCT_HIST_SIZE], spread[GST_CL_DCT_HIST_SIZE] = { 0 };
  guint32 flat[GST_CL_DCT_HIST_SIZE] = { 0 };
  GstClDctAuto state = { 0, };
  guint i, k;

  for (k = 0; k < GST_CL_DCT_HIST_COEFFS; k++)
    points_histogram (coded + k * GST_CL_DCT_BINS, h263, 20);
  /* a value in every bin: on no lattice */
  for (i = 0; i < GST_CL_DCT_BINS; i++)
    spread[i] = 1;
  /* values below the lattices' smallest, too few above: flat */
  flat[0] = 100000;
  flat[GST_CL_DCT_BINS / 2] = GST_CL_DCT_DEFAULT_MIN_COUNT - 1;
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, TRUE),
      GST_CL_DCT_IDLE_NO);
  for (i = 0; i < GST_CL_DCT_IDLE_FRAMES; i++) {
    fail_unless_equals_int (gst_cl_dct_auto_idle (&state, FALSE),
        GST_CL_DCT_IDLE_NO);
    fail_unless_equals_int (gst_cl_dct_auto_update (&state, flat), 0);
    fail_unless_equals_int (gst_cl_dct_auto_idle (&state, TRUE),
        GST_CL_DCT_IDLE_FLAT);
  }
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, FALSE),
      GST_CL_DCT_IDLE_FLAT);
  /* one frame with detail on no lattice */
  fail_unless_equals_int (gst_cl_dct_auto_update (&state, spread), 0);
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, FALSE),
      GST_CL_DCT_IDLE_NO_LATTICE);
  for (i = 0; i < 3 * GST_CL_DCT_IDLE_FRAMES; i++)
    gst_cl_dct_auto_update (&state, flat);
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, FALSE),
      GST_CL_DCT_IDLE_NO_LATTICE);
  /* a lattice, however late, and the stream is not left alone */
  fail_unless (gst_cl_dct_auto_update (&state, coded) > 0);
  for (i = 0; i < 3 * GST_CL_DCT_IDLE_FRAMES; i++)
    gst_cl_dct_auto_update (&state, spread);
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, FALSE),
      GST_CL_DCT_IDLE_NO);
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, TRUE),
      GST_CL_DCT_IDLE_NO);
  gst_cl_dct_auto_reset (&state);
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, TRUE),
      GST_CL_DCT_IDLE_NO);
  gst_cl_dct_auto_update (&state, spread);
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, FALSE),
      GST_CL_DCT_IDLE_NO);
  fail_unless_equals_int (gst_cl_dct_auto_idle (&state, TRUE),
      GST_CL_DCT_IDLE_NO_LATTICE);
}

GST_END_TEST;

static Suite *
cldctestimate_suite (void)
{
  Suite *s = suite_create ("cldctestimate");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_frame_threshold_quantized);
  tcase_add_test (tc, test_estimate_coded_frames);
  tcase_add_test (tc, test_lattice_edges);
  tcase_add_test (tc, test_lattice_fit_edges);
  tcase_add_test (tc, test_lattice_against_reference);
  tcase_add_test (tc, test_auto_hold);
  tcase_add_test (tc, test_auto_interlaced);
  tcase_add_test (tc, test_auto_idle);
  tcase_add_test (tc, test_auto_hold_coded);
  tcase_add_test (tc, test_auto_hold_fixed);
  tcase_add_test (tc, test_auto_chroma_hold);
  return s;
}

GST_CHECK_MAIN (cldctestimate);
