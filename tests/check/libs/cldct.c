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

/* The shifted-DCT thresholding stage and strength=auto's histogram
 * (gst/gstcldct.c) on the device against the CPU reference
 * (tests/check/reference.c, ref_dct_*): sample for sample, on random planes
 * of odd and tiny sizes, at offsets into padded buffers whose padding is
 * poisoned and must stay so; on bytes and on 10-bit values in 16-bit words
 * (low bits as I420_10LE, high bits as P010, the other bits random on
 * input and 0 on output). The device is $CLEPSILON_TEST_DEVICE (default
 * "pocl"); the seed is printed on failure. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>

#include "gstcldct-private.h"
#include "gstclcuda-private.h"
#include "gstclcudaexec-private.h"
#include "dctpicture.h"
#include "fixture.h"
#include "reference.h"

#define POISON 0xa5

/* The sample sizes the stage is built for: bytes, and 10-bit values in
 * little-endian words from bit `shift` (I420_10LE and the other 10-bit
 * formats: 0; P010: 6). */
typedef struct
{
  const gchar *name;
  gint bits;
  guint shift;
} Depth;

static const Depth depths[] = {
  {"8-bit", 8, 0}, {"10-bit", 10, 0}, {"10-bit from bit 6", 10, 6},
};

#define BYTES(d) ((d)->bits == 8 ? 1 : 2)

static GstClDct *dcts[G_N_ELEMENTS (depths)];

/* The device (fixture.h), and the stage built for each sample size. */
static void
setup (void)
{
  GError *err = NULL;
  guint i;

  fixture_setup ();
  for (i = 0; i < G_N_ELEMENTS (depths); i++) {
    dcts[i] = gst_cl_dct_new (fixture_context, depths[i].bits,
        depths[i].shift, &err);
    fail_unless (dcts[i] != NULL, "gst_cl_dct_new (%s): %s", depths[i].name,
        err ? err->message : "");
  }
}

static void
teardown (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (depths); i++)
    gst_cl_dct_free (dcts[i]);
  fixture_teardown ();
}

/* The values @v (@w x @h) as samples of @d at byte @off of @buf, @pitch
 * bytes a row: bytes, or little-endian words with the value at bit
 * d->shift and, with @rand, random bits around it (which the stage must
 * ignore), else 0 (what it writes). */
static void
pack_plane (GRand * rand, const Depth * d, const gint * v, guint8 * buf,
    gsize off, gint pitch, gint w, gint h)
{
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint8 *p = buf + off + (gsize) y * pitch + x * BYTES (d);
      guint word;

      if (d->bits == 8) {
        *p = v[y * w + x];
        continue;
      }
      word = v[y * w + x] << d->shift;
      if (rand)
        word |= g_rand_int (rand) & 0xffff & ~(1023u << d->shift);
      p[0] = word & 0xff;
      p[1] = word >> 8;
    }
}

/* The reference stage on the values @v of @d (@w x @h) into @out. */
static void
ref_stage (const Depth * d, const gint * v, gint * out, gint w, gint h,
    guint threshold, guint passes)
{
  const gsize n = (gsize) w * h;
  guint16 *a = g_new (guint16, n), *b = g_new (guint16, n);
  gsize i;

  for (i = 0; i < n; i++)
    a[i] = v[i];
  if (d->bits == 8) {
    guint8 *a8 = g_malloc (n), *b8 = g_malloc (n);

    for (i = 0; i < n; i++)
      a8[i] = a[i];
    ref_dct_threshold_plane (a8, w, b8, w, w, h, threshold, passes);
    for (i = 0; i < n; i++)
      b[i] = b8[i];
    g_free (a8);
    g_free (b8);
  } else {
    ref_dct_threshold_plane16 (a, w, b, w, w, h, threshold, passes);
  }
  for (i = 0; i < n; i++)
    out[i] = b[i];
  g_free (a);
  g_free (b);
}

static cl_mem
upload (const guint8 * data, gsize size)
{
  GError *err = NULL;
  cl_mem m = gst_cl_context_create_buffer (fixture_context,
      CL_MEM_READ_WRITE, size, "test", &err);

  fail_unless (m != NULL, "%s", err ? err->message : "");
  fail_unless (clEnqueueWriteBuffer (gst_cl_context_get_queue
          (fixture_context), m, CL_TRUE, 0, size, data, 0, NULL,
          NULL) == CL_SUCCESS);
  return m;
}

/* The rows of @mem from byte @offset, @pitch bytes apart. */
static GstClPlaneRef
ref_at (cl_mem mem, gsize offset, gint pitch)
{
  GstClPlaneRef ref = gst_cl_plane_ref_device (mem, pitch);

  ref.offset = offset;
  return ref;
}

/* The reference's stage on each field of @v (@w x @h) alone, into @out:
 * rows 0, 2, ... then rows 1, 3, ... */
static void
ref_stage_fields (const Depth * d, const gint * v, gint * out, gint w, gint h,
    guint threshold, guint passes)
{
  gint *fv = g_new (gint, (gsize) w * h), *fo = g_new (gint, (gsize) w * h);
  gint f, y;

  for (f = 0; f < 2 && f < h; f++) {
    const gint fh = (h + 1 - f) / 2;

    for (y = 0; y < fh; y++)
      memcpy (fv + (gsize) y * w, v + (gsize) (2 * y + f) * w,
          w * sizeof (gint));
    ref_stage (d, fv, fo, w, fh, threshold, passes);
    for (y = 0; y < fh; y++)
      memcpy (out + (gsize) (2 * y + f) * w, fo + (gsize) y * w,
          w * sizeof (gint));
  }
  g_free (fv);
  g_free (fo);
}

/* One run of the stage of @d at @threshold / @passes on a @w x @h plane,
 * both planes at an offset into buffers with padded rows, on the frame or
 * (@fields) on each field of it alone (the plane an interlaced frame's,
 * the threshold with GST_CL_DCT_IN_FIELDS); compares the whole
 * destination buffer with the reference (padding: still POISON). */
static void
check_stage_shape (const Depth * d, guint32 seed, gint w, gint h, gint noise,
    guint threshold, guint passes, gboolean fields)
{
  GRand *rand = g_rand_new_with_seed (seed);
  const gint bytes = BYTES (d);
  const gint spitch = (w + g_rand_int_range (rand, 0, 9)) * bytes;
  const gint dpitch = (w + g_rand_int_range (rand, 0, 9)) * bytes;
  const gsize soff = g_rand_int_range (rand, 0, 40) * bytes;
  const gsize doff = g_rand_int_range (rand, 0, 40) * bytes;
  const gsize ssize = soff + (gsize) spitch * h + 7;
  const gsize dsize = doff + (gsize) dpitch * h + 5;
  guint8 *src = g_malloc (ssize), *want = g_malloc (dsize),
      *got = g_malloc (dsize);
  gint *v = g_new (gint, (gsize) w * h), *out = g_new (gint, (gsize) w * h);
  cl_mem s, dm;
  GstClPlaneRef sref, dref;
  const GstClDctPlane plane = { &sref, &dref, w, h, fields };
  GError *err = NULL;
  gsize i;

  memset (src, POISON, ssize);
  dct_fill_values (rand, v, w, w, h, noise, d->bits);
  pack_plane (rand, d, v, src, soff, spitch, w, h);
  memset (want, POISON, dsize);
  if (fields)
    ref_stage_fields (d, v, out, w, h, threshold, passes);
  else
    ref_stage (d, v, out, w, h, threshold, passes);
  pack_plane (NULL, d, out, want, doff, dpitch, w, h);
  s = upload (src, ssize);
  memset (got, POISON, dsize);
  dm = upload (got, dsize);     /* poisoned where the stage must not write */
  sref = ref_at (s, soff, spitch);
  dref = ref_at (dm, doff, dpitch);
  fail_unless (gst_cl_dct_threshold (dcts[d - depths], &plane,
          fields ? threshold | GST_CL_DCT_IN_FIELDS : threshold, passes,
          &(GstClAfter) {
          0, NULL, NULL}
          , &err), "%s", err ? err->message : "");
  fail_unless (clEnqueueReadBuffer (gst_cl_context_get_queue
          (fixture_context), dm, CL_TRUE, 0, dsize, got, 0, NULL,
          NULL) == CL_SUCCESS);
  for (i = 0; i < dsize; i++) {
    if (got[i] != want[i]) {
      const glong rel = (glong) i - (glong) doff;
      fail ("%s%s, seed %u, %dx%d, threshold %u, %u passes: byte %"
          G_GSIZE_FORMAT " (row %ld, column %ld) is %u, reference %u",
          d->name, fields ? " on fields" : "", seed, w, h, threshold, passes,
          i,
          rel >= 0 ? rel / dpitch : -1, rel >= 0 ? rel % dpitch / bytes : -1,
          got[i], want[i]);
    }
  }
  clReleaseMemObject (s);
  clReleaseMemObject (dm);
  g_free (src);
  g_free (want);
  g_free (got);
  g_free (v);
  g_free (out);
  g_rand_free (rand);
}

/* The stage on the frame. */
static void
check_stage_depth (const Depth * d, guint32 seed, gint w, gint h, gint noise,
    guint threshold, guint passes)
{
  check_stage_shape (d, seed, w, h, noise, threshold, passes, FALSE);
}

/* The 8-bit stage. */
static void
check_stage (guint32 seed, gint w, gint h, gint noise, guint threshold,
    guint passes)
{
  check_stage_depth (&depths[0], seed, w, h, noise, threshold, passes);
}

GST_START_TEST (test_stage_exact)
{
  static const gint sizes[][2] = {
    {1, 1}, {2, 3}, {7, 5}, {8, 8}, {9, 9}, {17, 3}, {33, 17}, {64, 48},
    {97, 61}, {130, 7},
  };
  static const guint passes[] = { 1, 2, 4, 8, 16 };
  static const guint thresholds[] = { 1, 9, 40, 120, 5000 };
  guint32 seed = 15;
  guint i, j, k;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (j = 0; j < G_N_ELEMENTS (passes); j++)
      for (k = 0; k < G_N_ELEMENTS (thresholds); k++)
        check_stage (seed++, sizes[i][0], sizes[i][1],
            (i + k) % 3 ? 6 : NOISE_RANDOM, thresholds[k], passes[j]);
}

GST_END_TEST;

/* The stage on each field of an interlaced plane alone (the threshold
 * with GST_CL_DCT_IN_FIELDS), at every depth: odd heights (field 0 a row
 * more), fields of 0 to 7 rows, padded pitches and offsets. */
GST_START_TEST (test_stage_fields_exact)
{
  static const gint sizes[][2] = {
    {1, 1}, {2, 2}, {2, 3}, {7, 5}, {8, 8}, {17, 3}, {5, 16}, {24, 15},
    {33, 17}, {97, 61}, {130, 7},
  };
  static const guint passes[] = { 1, 16 };
  static const guint thresholds[] = { 9, 120 };
  guint32 seed = 2000;
  guint d, i, j, k;

  for (d = 0; d < G_N_ELEMENTS (depths); d++)
    for (i = 0; i < G_N_ELEMENTS (sizes); i++)
      for (j = 0; j < G_N_ELEMENTS (passes); j++)
        for (k = 0; k < G_N_ELEMENTS (thresholds); k++)
          check_stage_shape (&depths[d], seed++, sizes[i][0], sizes[i][1],
              (i + k) % 3 ? 6 : NOISE_RANDOM, thresholds[k], passes[j], TRUE);
  check_stage_shape (&depths[0], seed++, 333, 199, 10, 70, 16, TRUE);
}

GST_END_TEST;

/* A larger plane, every pass count, the default gain's threshold. */
GST_START_TEST (test_stage_exact_large)
{
  check_stage (1515, 333, 199, 10, 70, 16);
  check_stage (1516, 320, 240, 3, 50, 8);
  check_stage (1517, 321, 241, -1, 112, 4);
}

GST_END_TEST;

/* The largest values the integers can hold: tiles of extreme coefficients
 * at a threshold that keeps them all, and at one that keeps a few; two
 * strips wide on CPUs (dct_strips), every pass count. */
GST_START_TEST (test_stage_extremes)
{
  static const guint passes[] = { 1, 2, 4, 8, 16 };
  static const guint thresholds[] = { 1, 900 };
  guint32 seed = 1500;
  guint j, k;

  for (j = 0; j < G_N_ELEMENTS (passes); j++)
    for (k = 0; k < G_N_ELEMENTS (thresholds); k++)
      check_stage (seed++, 136, 40, NOISE_EXTREME, thresholds[k], passes[j]);
}

GST_END_TEST;

/* Columns of coefficients that the threshold empties: tiles that put one
 * of them at the threshold, or one above or below it, at several
 * thresholds, one pass (the blocks are the tiles) and every pass. */
GST_START_TEST (test_stage_empty_columns)
{
  static const guint passes[] = { 1, 16 };
  static const guint thresholds[] = { 20, 50, 71, 112 };
  guint32 seed = 1600;
  guint j, k;

  for (j = 0; j < G_N_ELEMENTS (passes); j++)
    for (k = 0; k < G_N_ELEMENTS (thresholds); k++)
      check_stage (seed++, 248, 128, NOISE_ONE_ROW, thresholds[k], passes[j]);
}

GST_END_TEST;

/* Adds @comb (8-bit units) to the odd rows of the left quarter of @v: the
 * macroblocks there look coded field by field, the others as a frame. */
static void
comb_left_quarter (gint * v, gint w, gint h, gint comb, gint bits)
{
  const gint top = (1 << bits) - 1;
  gint x, y;

  for (y = 1; y < h; y += 2)
    for (x = 0; x < w / 4; x++)
      v[y * w + x] = CLAMP (v[y * w + x] + (comb << (bits - 8)), 0, top);
}

/* Both histograms of a plane taken as an interlaced frame's luma against
 * the reference's; with @comb, some but not all macroblocks are taken as
 * field blocks. */
static void
check_histograms (const Depth * d, guint32 seed, gint w, gint h, gint noise,
    gint comb)
{
  GRand *rand = g_rand_new_with_seed (seed);
  const gint bytes = BYTES (d);
  const gint pitch = (w + g_rand_int_range (rand, 0, 9)) * bytes;
  const gsize off = g_rand_int_range (rand, 0, 40) * bytes;
  const gsize size = off + (gsize) pitch * h + 3;
  guint8 *src = g_malloc (size);
  gint *v = g_new (gint, (gsize) w * h);
  guint32 want[GST_CL_DCT_HIST_SIZE], got[GST_CL_DCT_HIST_SIZE];
  guint32 want_mb[GST_CL_DCT_HIST_SIZE], got_mb[GST_CL_DCT_HIST_SIZE];
  const guint mbs = (w / 16) * (h / 16);
  GError *err = NULL;
  cl_mem s;
  GstClPlaneRef sref;
  const GstClDctPlane plane = { &sref, NULL, w, h, TRUE };
  guint i, fields;

  memset (src, POISON, size);
  dct_fill_values (rand, v, w, w, h, noise, d->bits);
  if (comb)
    comb_left_quarter (v, w, h, comb, d->bits);
  pack_plane (rand, d, v, src, off, pitch, w, h);
  if (d->bits == 8) {
    ref_dct_histogram (src + off, pitch, w, h, want);
    fields = ref_dct_histogram_mb (src + off, pitch, w, h, want_mb);
  } else {
    guint16 *a = g_new (guint16, (gsize) w * h);

    for (i = 0; i < (guint) (w * h); i++)
      a[i] = v[i];
    ref_dct_histogram16 (a, w, w, h, want);
    fields = ref_dct_histogram_mb16 (a, w, w, h, want_mb);
    g_free (a);
  }
  if (comb && mbs > 1)
    fail_unless (fields > 0 && fields < mbs, "%s, seed %u: %u of %u "
        "macroblocks as fields", d->name, seed, fields, mbs);
  s = upload (src, size);
  sref = ref_at (s, off, pitch);
  memset (got, 0x5a, sizeof (got));
  memset (got_mb, 0x5a, sizeof (got_mb));
  fail_unless (gst_cl_dct_histogram (dcts[d - depths], &plane, &(GstClAfter) {
          0, NULL, NULL}
          , got, got_mb, &err), "%s", err ? err->message : "");
  for (i = 0; i < GST_CL_DCT_HIST_SIZE; i++) {
    fail_unless (got[i] == want[i], "%s, seed %u, %dx%d: bin %u of "
        "coefficient %u is %u, reference %u", d->name, seed, w, h,
        i % GST_CL_DCT_BINS, i / GST_CL_DCT_BINS, got[i], want[i]);
    fail_unless (got_mb[i] == want_mb[i], "%s, seed %u, %dx%d: macroblocks' "
        "bin %u of coefficient %u is %u, reference %u", d->name, seed, w, h,
        i % GST_CL_DCT_BINS, i / GST_CL_DCT_BINS, got_mb[i], want_mb[i]);
  }
  clReleaseMemObject (s);
  g_free (src);
  g_free (v);
  g_rand_free (rand);
}

static void
check_histogram_depth (const Depth * d, guint32 seed, gint w, gint h,
    gint noise)
{
  check_histograms (d, seed, w, h, noise, 0);
}

static void
check_histogram (guint32 seed, gint w, gint h, gint noise)
{
  check_histogram_depth (&depths[0], seed, w, h, noise);
}

GST_START_TEST (test_histogram_exact)
{
  check_histogram (1, 1, 1, 4);
  check_histogram (2, 7, 9, 4);
  check_histogram (3, 8, 8, NOISE_RANDOM);
  check_histogram (4, 61, 37, 8);
  check_histogram (5, 320, 181, NOISE_RANDOM);
  check_histogram (6, 333, 200, 2);
}

GST_END_TEST;

/* The macroblocks' histogram where some macroblocks are combed (field
 * blocks) and others not: odd sizes, padded strides, 8 and 10 bits. */
GST_START_TEST (test_histogram_mb_exact)
{
  static const gint sizes[][2] = { {16, 16}, {47, 33}, {176, 144},
  {333, 200}
  };
  guint d, i;

  for (d = 0; d < G_N_ELEMENTS (depths); d++)
    for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
      check_histograms (&depths[d], 40 + i, sizes[i][0], sizes[i][1], 4, 60);
      check_histograms (&depths[d], 50 + i, sizes[i][0], sizes[i][1],
          NOISE_RANDOM, 0);
    }
}

GST_END_TEST;

/* 10-bit samples, in the low bits and from bit 6 (P010), against the
 * reference's 10-bit formulas: odd and tiny sizes, padded strides, several
 * thresholds, 1 and 16 passes (both kernel shapes: tests/meson.build runs
 * this suite again with GST_CL_DCT_KERNEL=tiles), the extreme tiles whose
 * sums are the largest, and the tiles that empty columns at the
 * threshold. */
GST_START_TEST (test_stage_exact_10bit)
{
  static const gint sizes[][2] = {
    {1, 1}, {7, 9}, {8, 8}, {37, 21}, {161, 93},
  };
  static const guint passes[] = { 1, 16 };
  static const guint thresholds[] = { 1, 25, 70, 5000 };
  guint32 seed = 1000;
  guint d, i, j, k;

  for (d = 1; d < G_N_ELEMENTS (depths); d++) {
    for (i = 0; i < G_N_ELEMENTS (sizes); i++)
      for (j = 0; j < G_N_ELEMENTS (passes); j++)
        for (k = 0; k < G_N_ELEMENTS (thresholds); k++)
          check_stage_depth (&depths[d], seed++, sizes[i][0], sizes[i][1],
              (i + k) % 3 ? 6 : NOISE_RANDOM, thresholds[k], passes[j]);
    check_stage_depth (&depths[d], seed++, 136, 40, NOISE_EXTREME, 1, 16);
    check_stage_depth (&depths[d], seed++, 136, 40, NOISE_EXTREME, 900, 4);
    check_stage_depth (&depths[d], seed++, 248, 128, NOISE_ONE_ROW, 50, 16);
    check_stage_depth (&depths[d], seed++, 333, 199, 10, 70, 8);
  }
}

GST_END_TEST;

GST_START_TEST (test_histogram_exact_10bit)
{
  guint d;

  for (d = 1; d < G_N_ELEMENTS (depths); d++) {
    check_histogram_depth (&depths[d], 1, 1, 1, 4);
    check_histogram_depth (&depths[d], 2, 7, 9, 4);
    check_histogram_depth (&depths[d], 3, 8, 8, NOISE_RANDOM);
    check_histogram_depth (&depths[d], 4, 37, 21, 8);
    check_histogram_depth (&depths[d], 5, 161, 93, NOISE_RANDOM);
    check_histogram_depth (&depths[d], 6, 333, 200, 2);
  }
}

GST_END_TEST;

/* A 10-bit plane holding 4 times an 8-bit one has the 8-bit plane's
 * coefficients exactly (kernels/dct.cl): the same histogram, so the same
 * threshold, and a stage output within 2 of 4 times the 8-bit output (the
 * same sums, rounded at 10 bits instead of 8). */
GST_START_TEST (test_10bit_is_8bit_times_4)
{
  const gint w = 77, h = 45;
  GRand *rand = g_rand_new_with_seed (4);
  guint8 *p8 = g_malloc (w * h), *o8 = g_malloc (w * h);
  guint16 *p10 = g_new (guint16, w * h), *o10 = g_new (guint16, w * h);
  guint32 h8[GST_CL_DCT_HIST_SIZE], h10[GST_CL_DCT_HIST_SIZE];
  gint i;

  dct_fill_plane (rand, p8, w, w, h, 12);
  for (i = 0; i < w * h; i++)
    p10[i] = p8[i] << 2;
  ref_dct_histogram (p8, w, w, h, h8);
  ref_dct_histogram16 (p10, w, w, h, h10);
  fail_unless (memcmp (h8, h10, sizeof (h8)) == 0);
  ref_dct_threshold_plane (p8, w, o8, w, w, h, 40, 16);
  ref_dct_threshold_plane16 (p10, w, o10, w, w, h, 40, 16);
  for (i = 0; i < w * h; i++)
    fail_unless (ABS (o10[i] - 4 * o8[i]) <= 2, "sample %d: %u, 8-bit %u",
        i, o10[i], o8[i]);
  g_free (p8);
  g_free (o8);
  g_free (p10);
  g_free (o10);
  g_rand_free (rand);
}

GST_END_TEST;

/* strength=auto decided on the device (gst_cl_dct_auto(); the suite runs
 * with GST_CL_AUTO_DECIDE=device) against the host's estimate
 * (gstcldctestimate.c) on the reference's histogram of the same plane:
 * the state the device keeps, read back, equals the host's, and the
 * plane written is the reference stage at the host's threshold, or the
 * plane as it is where that is 0. One frame's planes on the device: the
 * source at byte AUTO_SOFF, AUTO_SPAD more bytes a row than samples, the
 * destination likewise, poisoned around; what the stage must write. */
#define AUTO_SOFF 3
#define AUTO_SPAD 5
#define AUTO_DOFF 7
#define AUTO_DPAD 3

typedef struct
{
  cl_mem src, dst;
  guint8 *want;
  gsize dsize;
  guint threshold;
} AutoFrame;

/* The host's threshold for @src (@w x @h), updating @host, and @f's
 * planes enqueued through gst_cl_dct_auto() after @after, with the read
 * of the device's state; nothing waited for. @interlaced: the plane is an
 * interlaced frame's luma (its macroblocks' histogram too). */
static void
auto_frame_enqueue_as (AutoFrame * f, GstClDct * dct, guint index,
    gboolean interlaced, const GstClDctAutoParams * params,
    const GstClDctCoding * coding, GstClDctAuto * host, const guint8 * src,
    gint w, gint h, const GstClAfter * after)
{
  const gint pitch = w + AUTO_SPAD, dpitch = w + AUTO_DPAD;
  guint32 hist[GST_CL_DCT_HIST_SIZE], mb_hist[GST_CL_DCT_HIST_SIZE];
  GstClPlaneRef sref, dref;
  const GstClDctPlane plane = { &sref, &dref, w, h, interlaced };
  GError *err = NULL;
  guint8 *poison;
  gint y;

  memset (hist, 0, sizeof (hist));
  memset (mb_hist, 0, sizeof (mb_hist));
  if (w >= 8 && h >= 8)
    ref_dct_histogram (src + AUTO_SOFF, pitch, w, h, hist);
  if (w >= 16 && h >= 16)
    ref_dct_histogram_mb (src + AUTO_SOFF, pitch, w, h, mb_hist);
  f->threshold = gst_cl_dct_auto_update_interlaced (host, hist,
      interlaced ? mb_hist : NULL, coding, params);
  f->dsize = AUTO_DOFF + (gsize) dpitch *h + 5;
  f->want = g_malloc (f->dsize);
  memset (f->want, POISON, f->dsize);
  if (f->threshold == 0)
    for (y = 0; y < h; y++)
      memcpy (f->want + AUTO_DOFF + y * dpitch, src + AUTO_SOFF + y * pitch, w);
  else if (gst_cl_dct_auto_stage_word (host, f->threshold, interlaced) &
      GST_CL_DCT_IN_FIELDS)
    ref_dct_threshold_fields (src + AUTO_SOFF, pitch, f->want + AUTO_DOFF,
        dpitch, w, h, f->threshold, GST_CL_DCT_MAX_PASSES);
  else
    ref_dct_threshold_plane (src + AUTO_SOFF, pitch, f->want + AUTO_DOFF,
        dpitch, w, h, f->threshold, GST_CL_DCT_MAX_PASSES);
  if (!f->src)
    f->src = upload (src, AUTO_SOFF + (gsize) pitch * h);
  poison = g_malloc (f->dsize);
  memset (poison, POISON, f->dsize);
  f->dst = upload (poison, f->dsize);
  g_free (poison);
  sref = ref_at (f->src, AUTO_SOFF, pitch);
  dref = ref_at (f->dst, AUTO_DOFF, dpitch);
  fail_unless (gst_cl_dct_auto (dct, &plane, index, params, coding,
          GST_CL_DCT_MAX_PASSES, after, &err) &&
      gst_cl_dct_read_state (dct, index, NULL, &err), "%s",
      err ? err->message : "");
}

static void
auto_frame_enqueue (AutoFrame * f, GstClDct * dct, guint index,
    const GstClDctAutoParams * params, const GstClDctCoding * coding,
    GstClDctAuto * host, const guint8 * src, gint w, gint h,
    const GstClAfter * after)
{
  auto_frame_enqueue_as (f, dct, index, FALSE, params, coding, host, src, w,
      h, after);
}

/* Waits for @f's plane and compares it with what the stage must write. */
static void
auto_frame_check (AutoFrame * f, guint frame, guint index)
{
  guint8 *got = g_malloc (f->dsize);

  fail_unless (clEnqueueReadBuffer (gst_cl_context_get_queue
          (fixture_context), f->dst, CL_TRUE, 0, f->dsize, got, 0, NULL,
          NULL) == CL_SUCCESS);
  fail_unless (memcmp (got, f->want, f->dsize) == 0, "frame %u, plane %u: "
      "the plane differs from the reference at threshold %u", frame, index,
      f->threshold);
  clReleaseMemObject (f->src);
  clReleaseMemObject (f->dst);
  g_free (f->want);
  g_free (got);
}

/* The device's state of the last frame read back equals @host. */
static void
check_auto_state (GstClDct * dct, const GstClDctAuto * host, guint frame,
    guint index)
{
  GstClDctAuto device;

  gst_cl_dct_last_state (dct, TRUE, &device);
  fail_unless (memcmp (&device, host, sizeof (device)) == 0,
      "frame %u, plane %u: the device's threshold %u (held step %u, period "
      "%u), the host's %u (held step %u, period %u)", frame, index,
      device.threshold, device.held_step, device.period, host->threshold,
      host->held_step, host->period);
}

/* A stream of planes (@w x @h at byte AUTO_SOFF, AUTO_SPAD more bytes a
 * row): intra frames coded at a step or an H.263 quantizer of their own
 * (a GOP of 12, scene cuts between), predicted frames that show no
 * lattice (a ramp with noise, flat, random values), their types and
 * quantisers told for the first half and not for the second; on luma's
 * parameters (plane 0) and chroma's (plane 1, another picture). */
typedef struct
{
  GRand *rand;
  gint w, h;
  guint8 *src;
  guint since_intra;
  gboolean intra;
  GstClDctCoding coding;
  guint h263_found;             /* H.263 lattices the host found on luma */
  /* interlaced: intra frames coded field by field half of the time (each
   * field's own grid quantized, which the frame's grid does not show); the
   * threshold their macroblocks' histogram gives, and how many gave one */
  gboolean interlaced;
  guint mb_threshold;
  guint mb_found;
} AutoStream;

static void
auto_stream_init (AutoStream * st, guint32 seed, gint w, gint h)
{
  memset (st, 0, sizeof (*st));
  st->rand = g_rand_new_with_seed (seed);
  st->w = w;
  st->h = h;
  st->src = g_malloc (AUTO_SOFF + (gsize) (w + AUTO_SPAD) * h);
}

static void
auto_stream_clear (AutoStream * st)
{
  g_free (st->src);
  g_rand_free (st->rand);
}

/* The coding of frame @frame of @n. */
static void
auto_stream_next (AutoStream * st, guint frame, guint n)
{
  static const GstClDctPicture predicted[] = { GST_CL_DCT_PICTURE_B,
    GST_CL_DCT_PICTURE_B, GST_CL_DCT_PICTURE_P
  };

  st->intra = st->since_intra == 12 || frame == 0 ||
      g_rand_int_range (st->rand, 0, 20) == 0;
  st->since_intra = st->intra ? 1 : st->since_intra + 1;
  st->coding.picture = GST_CL_DCT_PICTURE_UNKNOWN;
  st->coding.quantiser = 0;
  if (frame < n / 2) {
    st->coding.picture = st->intra ? GST_CL_DCT_PICTURE_INTRA :
        predicted[st->since_intra % 3];
    st->coding.quantiser = g_rand_double_range (st->rand, 2, 31);
  }
}

/* Plane @index of the current frame into st->src, its parameters into
 * @params. */
static void
auto_stream_plane (AutoStream * st, guint index, GstClDctAutoParams * params)
{
  static const gint steps[] = { 32, 41, 56, 72, 100, 150 };
  static const gint qps[] = { 3, 5, 8, 12 };
  const gint pitch = st->w + AUTO_SPAD, kind = g_rand_int_range (st->rand,
      0, 8);
  guint8 *p = st->src + AUTO_SOFF;

  if (index == 0)
    gst_cl_dct_auto_params_init (params);
  else
    gst_cl_dct_auto_chroma_params_init (params,
        st->coding.picture != GST_CL_DCT_PICTURE_UNKNOWN);
  memset (st->src, POISON, AUTO_SOFF + (gsize) pitch * st->h);
  dct_fill_plane (st->rand, p, pitch, st->w, st->h, kind == 0 ? 0 :
      kind == 1 ? NOISE_RANDOM : kind);
  st->mb_threshold = 0;
  if (!st->intra)
    return;
  if (st->interlaced && g_rand_boolean (st->rand)) {
    const gint step = steps[g_rand_int_range (st->rand, 0,
            G_N_ELEMENTS (steps))];
    guint32 hist[GST_CL_DCT_HIST_SIZE];

    dct_fill_quantized (st->rand, p, 2 * pitch, st->w, st->h / 2, step);
    dct_fill_quantized (st->rand, p + pitch, 2 * pitch, st->w, st->h / 2, step);
    ref_dct_histogram (p, pitch, st->w, st->h, hist);
    if (gst_cl_dct_frame_threshold (hist, params) == 0) {
      ref_dct_histogram_mb (p, pitch, st->w, st->h, hist);
      st->mb_threshold = gst_cl_dct_frame_threshold (hist, params);
      st->mb_found += st->mb_threshold > 0;
    }
  } else if (g_rand_boolean (st->rand)) {
    guint32 hist[GST_CL_DCT_HIST_SIZE];
    guint spacing;

    dct_fill_h263 (st->rand, p, pitch, st->w, st->h,
        qps[g_rand_int_range (st->rand, 0, G_N_ELEMENTS (qps))]);
    ref_dct_histogram (p, pitch, st->w, st->h, hist);
    st->h263_found += index == 0 && gst_cl_dct_lattice (hist, 24,
        &spacing) == GST_CL_DCT_LATTICE_H263;
  } else {
    dct_fill_quantized (st->rand, p, pitch, st->w, st->h,
        steps[g_rand_int_range (st->rand, 0, G_N_ELEMENTS (steps))]);
  }
}

/* Each frame waited for: the state and the plane, frame by frame. */
GST_START_TEST (test_auto_on_device)
{
  GstClDct *dct = dcts[0];
  GstClDctAuto host[2] = { {0,}, {0,}
  };
  AutoStream st;
  guint frame, index;

  fail_unless (gst_cl_dct_decides (dct), "the device does not decide "
      "(GST_CL_AUTO_DECIDE=device, and a device with doubles)");
  auto_stream_init (&st, 1700, 203, 117);
  for (frame = 0; frame < 100; frame++) {
    auto_stream_next (&st, frame, 100);
    for (index = 0; index < 2; index++) {
      AutoFrame f = { NULL, };
      GstClDctAutoParams params;

      auto_stream_plane (&st, index, &params);
      auto_frame_enqueue (&f, dct, index, &params, &st.coding, &host[index],
          st.src, st.w, st.h, &(GstClAfter) {
          0, NULL, NULL}
      );
      auto_frame_check (&f, frame, index);
      check_auto_state (dct, &host[index], frame, index);
    }
  }
  fail_unless (host[0].lattice_seen && host[0].period > 0);
  fail_unless (st.h263_found > 0, "no H.263 lattice in the stream");
  auto_stream_clear (&st);
}

GST_END_TEST;

/* A frame in @slot of @after's executor that reads plane @index's state. */
static void
read_state_in_slot (GstClDct * dct, const GstClAfter * after, guint slot,
    guint index)
{
  GError *err = NULL;

  gst_cl_cuda_exec_begin (after->cuda, slot);
  fail_unless (gst_cl_dct_read_state (dct, index, after, &err), "%s",
      err ? err->message : "");
  fail_unless (gst_cl_cuda_exec_mark (after->cuda, &err));
}

/* The last state read back (waiting for those through OpenCL where @wait)
 * is @want. */
static void
check_last_state (GstClDct * dct, gboolean wait, const GstClDctAuto * want)
{
  GstClDctAuto got;

  gst_cl_dct_last_state (dct, wait, &got);
  fail_unless (memcmp (&got, want, sizeof (got)) == 0);
}

/* The state read back where the frame's commands run in CUDA (the host's
 * fake driver): a read is taken only once its frame's wait has completed
 * it, in order; one whose frame's wait failed says nothing (the state
 * before stays), and does not hold up the reads after it; more than the
 * ring holds let the oldest go, as a reset does those not waited for. */
GST_START_TEST (test_auto_state_read_on_cuda)
{
  static const GstClDctAuto zero = { 0, };
  GstClDct *dct = dcts[0];
  GstClDctAuto host = { 0, };
  GError *err = NULL;
  GstClCudaExec *exec;
  GstClAfter after = { 0, NULL, NULL, NULL };
  AutoStream st;
  guint frame;

  fail_unless (gst_cl_dct_decides (dct));
  fail_unless (gst_cl_dct_auto_reset_states (dct, NULL));
  auto_stream_init (&st, 1701, 64, 48);
  for (frame = 0; frame < 4; frame++) {
    AutoFrame f = { NULL, };
    GstClDctAutoParams params;

    auto_stream_next (&st, frame, 4);
    auto_stream_plane (&st, 0, &params);
    auto_frame_enqueue (&f, dct, 0, &params, &st.coding, &host, st.src, st.w,
        st.h, &after);
    auto_frame_check (&f, frame, 0);
    check_auto_state (dct, &host, frame, 0);
  }
  auto_stream_clear (&st);
  fail_unless (memcmp (&host, &zero, sizeof (host)) != 0);

  fail_unless (gst_cl_cuda_load (NULL), "the fake driver does not load");
  exec = gst_cl_cuda_exec_new ((CUcontext) 0x1, fixture_context, &err);
  fail_unless (exec != NULL, "%s", err ? err->message : "");
  after.cuda = exec;
  /* plane 1's state (still reset) in slot 0, then plane 0's in slot 1 */
  read_state_in_slot (dct, &after, 0, 1);
  read_state_in_slot (dct, &after, 1, 0);
  check_last_state (dct, FALSE, &host);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 0, NULL, &err));
  check_last_state (dct, FALSE, &zero);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 1, NULL, &err));
  check_last_state (dct, FALSE, &host);

  /* a read whose frame's wait fails, then one that succeeds */
  read_state_in_slot (dct, &after, 2, 1);
  g_setenv ("FAKECUDA_FAIL", "cuEventSynchronize", TRUE);
  fail_if (gst_cl_cuda_exec_wait_mark (exec, 2, NULL, &err));
  g_unsetenv ("FAKECUDA_FAIL");
  g_clear_error (&err);
  check_last_state (dct, FALSE, &host);
  read_state_in_slot (dct, &after, 3, 1);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 3, NULL, &err));
  check_last_state (dct, FALSE, &zero);

  /* more reads in flight than the ring holds: the oldest are let go of,
   * the newest taken (plane 0's, after 40 of plane 1's) */
  gst_cl_cuda_exec_begin (exec, 4);
  for (frame = 0; frame < 41; frame++)
    fail_unless (gst_cl_dct_read_state (dct, frame < 40 ? 1 : 0, &after,
            &err), "%s", err ? err->message : "");
  fail_unless (gst_cl_cuda_exec_mark (exec, &err));
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 4, NULL, &err));
  check_last_state (dct, FALSE, &host);

  /* a reset lets go of the reads not waited for: the old state stays gone */
  read_state_in_slot (dct, &after, 5, 0);
  fail_unless (gst_cl_dct_auto_reset_states (dct, NULL));
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 5, NULL, &err));
  check_last_state (dct, TRUE, &zero);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* The same on an interlaced frame's luma (@w x @h, @seed) whose intra
 * frames are coded field by field half of the time: where the frame's
 * grid shows no lattice, the threshold is the macroblocks' histogram's, on
 * the device as on the host, and the stage works on each field alone, on
 * that frame and on those that hold its threshold (the device enqueues
 * both shapes); now and then a frame not flagged interlaced (a mixed
 * stream's) goes on the frame whatever the held threshold's frame was.
 * @fixed: every told quantiser the same (the fixed quantiser's hold).
 * Counts the intra frames whose lattice only the macroblocks show into
 * @mb_found, the frames on fields into @fields, and the predicted frames
 * held as a fixed quantiser's into @fixed_held. */
static void
check_auto_interlaced (gint w, gint h, guint32 seed, gboolean fixed,
    guint * mb_found, guint * fields, guint * fixed_held)
{
  GstClDct *dct = dcts[0];
  GstClDctAuto host = { 0, };
  AutoStream st;
  guint frame;

  fail_unless (gst_cl_dct_decides (dct));
  fail_unless (gst_cl_dct_auto_reset_states (dct, NULL));
  auto_stream_init (&st, seed, w, h);
  st.interlaced = TRUE;
  *fields = *fixed_held = 0;
  for (frame = 0; frame < 60; frame++) {
    AutoFrame f = { NULL, };
    GstClDctAutoParams params;
    const gboolean flagged = frame % 5 != 3;

    auto_stream_next (&st, frame, 60);
    if (fixed && st.coding.quantiser > 0)
      st.coding.quantiser = 10;
    auto_stream_plane (&st, 0, &params);
    auto_frame_enqueue_as (&f, dct, 0, flagged, &params, &st.coding, &host,
        st.src, st.w, st.h, &(GstClAfter) {
        0, NULL, NULL}
    );
    if (st.mb_threshold && flagged)
      fail_unless_equals_int (f.threshold, st.mb_threshold);
    *fields += (gst_cl_dct_auto_stage_word (&host, f.threshold, flagged) &
        GST_CL_DCT_IN_FIELDS) != 0;
    *fixed_held += host.quantiser_same == 2 && host.held_frames > 0 &&
        (st.coding.picture == GST_CL_DCT_PICTURE_P ||
        st.coding.picture == GST_CL_DCT_PICTURE_B);
    auto_frame_check (&f, frame, 0);
    check_auto_state (dct, &host, frame, 0);
  }
  *mb_found = st.mb_found;
  auto_stream_clear (&st);
}

GST_START_TEST (test_auto_interlaced_on_device)
{
  guint mb_found, fields, fixed_held;

  check_auto_interlaced (176, 144, 1720, FALSE, &mb_found, &fields,
      &fixed_held);
  fail_unless (mb_found > 0, "no intra frame whose lattice only its "
      "macroblocks show");
  fail_unless (fields > mb_found, "no predicted frame on fields");
  fail_unless_equals_int (fixed_held, 0);
  check_auto_interlaced (176, 144, 1721, TRUE, &mb_found, &fields, &fixed_held);
  fail_unless (mb_found > 0 && fields > mb_found && fixed_held > 0,
      "fixed quantiser: %u intra frames by macroblocks, %u frames on "
      "fields, %u held as a fixed quantiser's", mb_found, fields, fixed_held);
  /* an odd size: fields of odd heights, macroblocks partly outside */
  check_auto_interlaced (177, 145, 1722, TRUE, &mb_found, &fields, &fixed_held);
  fail_unless (fixed_held > 0);
  /* fields of 9 and 8 rows: the same on both sides */
  check_auto_interlaced (40, 17, 1723, TRUE, &mb_found, &fields, &fixed_held);
}

GST_END_TEST;

/* The same on two components of interleaved chroma at once (the GPU
 * shape, dct-tiles.cl): each with its own histogram, decision and state
 * (1 and 2), written in place; NV12's order on even frames, NV21's (the
 * second component a byte before the first) on odd ones. */
GST_START_TEST (test_auto_pair_on_device)
{
  GstClDct *dct = dcts[0];
  GstClDctAuto host[2] = { {0,}, {0,}
  };
  AutoStream st;
  guint frame, c;

  if (!gst_cl_dct_reads_interleaved (dct))
    return;
  fail_unless (gst_cl_dct_decides (dct));
  auto_stream_init (&st, 1740, 93, 61);
  for (frame = 0; frame < 60; frame++) {
    const gint w = st.w, h = st.h, pitch = 2 * w + AUTO_SPAD;
    const gint dpitch = 2 * w + AUTO_DPAD, first = frame % 2;
    const gsize ssize = AUTO_SOFF + (gsize) pitch * h + 1;
    const gsize dsize = AUTO_DOFF + (gsize) dpitch * h + 1;
    guint8 *src = g_malloc (ssize), *want = g_malloc (dsize);
    guint8 *got = g_malloc (dsize), *plane = g_malloc ((gsize) w * h);
    guint8 *out = g_malloc ((gsize) w * h);
    GstClDctAutoParams params;
    GstClPlaneRef sref, dref;
    GError *err = NULL;
    cl_mem s_mem, d_mem;
    gint x, y;

    auto_stream_next (&st, frame, 60);
    memset (src, POISON, ssize);
    memset (want, POISON, dsize);
    for (c = 0; c < 2; c++) {
      const gint at = c == 0 ? first : 1 - first;
      guint32 hist[GST_CL_DCT_HIST_SIZE];
      guint threshold;

      auto_stream_plane (&st, 1, &params);
      for (y = 0; y < h; y++)
        memcpy (plane + y * w, st.src + AUTO_SOFF + y * (w + AUTO_SPAD), w);
      memset (hist, 0, sizeof (hist));
      ref_dct_histogram (plane, w, w, h, hist);
      threshold = gst_cl_dct_auto_update_interlaced (&host[c], hist, NULL,
          &st.coding, &params);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          src[AUTO_SOFF + y * pitch + 2 * x + at] = plane[y * w + x];
      if (threshold > 0)
        ref_dct_threshold_plane (plane, w, out, w, w, h, threshold,
            GST_CL_DCT_MAX_PASSES);
      else
        memcpy (out, plane, (gsize) w * h);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          want[AUTO_DOFF + y * dpitch + 2 * x + at] = out[y * w + x];
    }
    s_mem = upload (src, ssize);
    memset (got, POISON, dsize);
    d_mem = upload (got, dsize);
    sref = ref_at (s_mem, AUTO_SOFF + first, pitch);
    dref = ref_at (d_mem, AUTO_DOFF + first, dpitch);
    fail_unless (gst_cl_dct_auto (dct, &(GstClDctPlane) {
            &sref, &dref, w, h, FALSE, 2, 2, first ? -1 : 1}
            , 1, &params, &st.coding, GST_CL_DCT_MAX_PASSES, &(GstClAfter) {
            0, NULL, NULL}
            , &err), "%s", err ? err->message : "");
    fail_unless (clEnqueueReadBuffer (gst_cl_context_get_queue
            (fixture_context), d_mem, CL_TRUE, 0, dsize, got, 0, NULL,
            NULL) == CL_SUCCESS);
    fail_unless (memcmp (got, want, dsize) == 0, "frame %u: the components "
        "differ from the reference", frame);
    for (c = 0; c < 2; c++) {
      fail_unless (gst_cl_dct_read_state (dct, 1 + c, NULL, &err), "%s",
          err ? err->message : "");
      check_auto_state (dct, &host[c], frame, 1 + c);
    }
    clReleaseMemObject (s_mem);
    clReleaseMemObject (d_mem);
    g_free (out);
    g_free (plane);
    g_free (got);
    g_free (want);
    g_free (src);
  }
  fail_unless (host[0].lattice_seen && host[1].lattice_seen);
  auto_stream_clear (&st);
}

GST_END_TEST;

/* Every frame enqueued before any is waited for, as frames in flight are
 * (more state reads than the ring holds): each plane, then the last
 * state. */
GST_START_TEST (test_auto_in_flight)
{
  const guint n = 40;
  GstClDct *dct = dcts[0];
  GstClDctAuto host = { 0, };
  AutoFrame *f = g_new0 (AutoFrame, n);
  AutoStream st;
  guint frame;

  fail_unless (gst_cl_dct_decides (dct));
  auto_stream_init (&st, 1750, 96, 64);
  for (frame = 0; frame < n; frame++) {
    GstClDctAutoParams params;

    auto_stream_next (&st, frame, n);
    auto_stream_plane (&st, 0, &params);
    auto_frame_enqueue (&f[frame], dct, 3, &params, &st.coding, &host,
        st.src, st.w, st.h, &(GstClAfter) {
        0, NULL, NULL}
    );
  }
  for (frame = 0; frame < n; frame++)
    auto_frame_check (&f[frame], frame, 3);
  check_auto_state (dct, &host, n - 1, 3);
  auto_stream_clear (&st);
  g_free (f);
}

GST_END_TEST;

/* The decision and the stage wait for the wait list they are given, also
 * on a plane too small for the histogram's kernel (under 8 samples a
 * side): the source written on another queue once a user event is set,
 * after the auto is enqueued. */
GST_START_TEST (test_auto_waits)
{
  static const gint sizes[][2] = { {16, 4}, {5, 40}, {24, 16} };
  cl_context handle = gst_cl_context_get_handle (fixture_context);
  cl_command_queue other = clCreateCommandQueue (handle,
      gst_cl_context_get_device (fixture_context), 0, NULL);
  GRand *rand = g_rand_new_with_seed (1790);
  guint i;

  fail_unless (other != NULL);
  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    const gint w = sizes[i][0], h = sizes[i][1], pitch = w + AUTO_SPAD;
    const gsize size = AUTO_SOFF + (gsize) pitch * h;
    guint8 *src = g_malloc (size), *poison = g_malloc (size);
    GstClDctAuto host = { 0, };
    GstClDctAutoParams params;
    AutoFrame f = { NULL, };
    GstClEvents events = { {0,}, 0 };
    cl_event gate, written;
    cl_int status;

    gst_cl_dct_auto_params_init (&params);
    memset (src, POISON, size);
    dct_fill_plane (rand, src + AUTO_SOFF, pitch, w, h, NOISE_RANDOM);
    memset (poison, 0x11, size);
    f.src = upload (poison, size);
    gate = clCreateUserEvent (handle, &status);
    fail_unless (status == CL_SUCCESS);
    fail_unless (clEnqueueWriteBuffer (other, f.src, CL_FALSE, 0, size, src,
            1, &gate, &written) == CL_SUCCESS);
    clFlush (other);
    auto_frame_enqueue (&f, dcts[0], 2, &params, NULL, &host, src, w, h,
        &(GstClAfter) {
        1, &written, &events});
    clFlush (gst_cl_context_get_queue (fixture_context));
    /* what waits for the gate cannot have run, however long it is given */
    g_usleep (50000);
    fail_unless (clGetEventInfo (gst_cl_events_last (&events),
            CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status,
            NULL) == CL_SUCCESS);
    fail_unless (status != CL_COMPLETE, "%dx%d: the stage ran before the "
        "source was written", w, h);
    fail_unless (clSetUserEventStatus (gate, CL_COMPLETE) == CL_SUCCESS);
    auto_frame_check (&f, i, 2);
    gst_cl_events_take_ms (&events);
    clReleaseEvent (written);
    clReleaseEvent (gate);
    g_free (src);
    g_free (poison);
  }
  clReleaseCommandQueue (other);
  g_rand_free (rand);
}

GST_END_TEST;

/* Where the device finds the threshold 0 (random values: no lattice, none
 * held), the plane is copied as it is: 10-bit words with random bits
 * around the value, which the stage would write as 0, kept. */
GST_START_TEST (test_auto_copies_words)
{
  const Depth *d = &depths[2];
  const gint w = 77, h = 45, bytes = BYTES (d), pitch = (w + 3) * bytes;
  const gsize size = (gsize) pitch * h;
  GRand *rand = g_rand_new_with_seed (1800);
  gint *v = g_new (gint, (gsize) w * h);
  guint8 *src = g_malloc (size), *got = g_malloc (size);
  GstClDctAutoParams params;
  GstClPlaneRef sref, dref;
  const GstClDctPlane plane = { &sref, &dref, w, h };
  GError *err = NULL;
  cl_mem s, dm;
  gint y;

  gst_cl_dct_auto_params_init (&params);
  memset (src, POISON, size);
  dct_fill_values (rand, v, w, w, h, NOISE_RANDOM, d->bits);
  pack_plane (rand, d, v, src, 0, pitch, w, h);
  s = upload (src, size);
  memset (got, POISON, size);
  dm = upload (got, size);
  sref = ref_at (s, 0, pitch);
  dref = ref_at (dm, 0, pitch);
  fail_unless (gst_cl_dct_auto (dcts[2], &plane, 2, &params, NULL,
          GST_CL_DCT_MAX_PASSES, &(GstClAfter) {
          0, NULL, NULL}, &err), "%s", err ? err->message : "");
  fail_unless (clEnqueueReadBuffer (gst_cl_context_get_queue
          (fixture_context), dm, CL_TRUE, 0, size, got, 0, NULL,
          NULL) == CL_SUCCESS);
  for (y = 0; y < h; y++) {
    fail_unless (memcmp (got + y * pitch, src + y * pitch, w * bytes) == 0,
        "row %d not copied as it is", y);
    fail_unless (got[y * pitch + w * bytes] == POISON);
  }
  clReleaseMemObject (s);
  clReleaseMemObject (dm);
  g_free (src);
  g_free (got);
  g_free (v);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
cldct_suite (void)
{
  Suite *s = suite_create ("cldct");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_stage_exact);
  tcase_add_test (tc, test_stage_fields_exact);
  tcase_add_test (tc, test_stage_exact_large);
  tcase_add_test (tc, test_stage_extremes);
  tcase_add_test (tc, test_stage_empty_columns);
  tcase_add_test (tc, test_histogram_exact);
  tcase_add_test (tc, test_histogram_mb_exact);
  tcase_add_test (tc, test_stage_exact_10bit);
  tcase_add_test (tc, test_histogram_exact_10bit);
  tcase_add_test (tc, test_10bit_is_8bit_times_4);
  tcase_add_test (tc, test_auto_on_device);
  tcase_add_test (tc, test_auto_state_read_on_cuda);
  tcase_add_test (tc, test_auto_interlaced_on_device);
  tcase_add_test (tc, test_auto_pair_on_device);
  tcase_add_test (tc, test_auto_in_flight);
  tcase_add_test (tc, test_auto_waits);
  tcase_add_test (tc, test_auto_copies_words);
  return s;
}

GST_CHECK_MAIN (cldct);
