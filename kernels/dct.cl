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

/* Shifted-DCT thresholding and the coding-noise estimate: the arithmetic
 * both kernel shapes share.
 *
 * Both work on one plane of one component (xstep 1) and use the same
 * integer 8x8 DCT, so that every device computes the same numbers as the CPU
 * reference (tests/check/reference.c, ref_dct_*). A program is built per
 * shape and sample size (gst/gstcldct.c) from common.cl, dct-shared.h (the
 * sizes the host shares), this file, and the shape's kernels:
 * dct-strips.cl (CPUs, with -DDCT_STRIPS) or dct-tiles.cl (the others).
 * Sample sizes: bytes, b = 8, or with -DSAMPLE_BITS=10 the 10-bit values of
 * 16-bit words (read as (word >> shift) & 1023, written as value << shift,
 * shift the kernels' argument: 6 for P010, else 0; bytes ignore it):
 *   x = sample - 2^(b - 1)                (128, or 512);
 *   rows:    R[m][u] = (sum_n C[u][n] x[m][n] + 2^(b + 1)) >> (b + 2)
 *   columns: X[v][u] = (sum_m C[v][m] R[m][u] + 2048) >> 12
 * with C the orthonormal DCT-II basis times 4096, rounded: X is the
 * orthonormal coefficient in quarter levels of 8 bits, which are the
 * levels of 10 bits (a 10-bit block holding 4 times an 8-bit one gives the
 * 8-bit block's R and X exactly), so that thresholds, histogram bins and
 * every bound below are the same at both sizes. The inverse, columns
 * first:
 *   P[m][u] = (sum_v C[v][m] X[v][u] + 2048) >> 12
 *   r[m][n] = sum_u C[u][n] P[m][u]   (x times 2^(22 - b), not rounded:
 *                                      it is linear in P)
 * Every sum fits in 32 bits; >> of a negative int is arithmetic.
 *
 * The stage: pass i thresholds every 8x8 block of the grid that starts at
 * (-sx_i, -sy_i) (samples outside the plane replicate its edge): AC
 * coefficients with |X| < threshold become 0, the DC term stays, and the
 * block's inverse r is summed over the passes for each sample; the output
 * is clamp ((sum + DCT_OUT_BIAS) >> DCT_OUT_SHIFT, 0, 2^b - 1), with
 * DCT_OUT_SHIFT = 22 - b + log2 (passes) and DCT_OUT_BIAS = (2^b + 1) <<
 * (DCT_OUT_SHIFT - 1): the mean of the passes, rounded, plus 2^(b - 1)
 * (for b = 8, (sum + (514 * passes << 12)) >> (14 + log2 (passes))).
 * The sum is of integers, so any order of passes and blocks gives the same
 * bytes, and since r is linear in P, the passes at one horizontal offset
 * may add their P first and share the inverse rows (dct_strips). At most
 * |r| <= 10822 * 10820 a pass: 16 passes' sums and the bias (at most
 * 514 << 16) fit 31 bits.
 *
 * The estimate's histogram: every block of the plane's own 8x8 grid that
 * lies wholly inside it; counts |X| (clamped to DCT_BINS - 1) of the
 * DCT_HIST_COEFFS coefficients (u, v) = (1, 0), (0, 1), (1, 1) into
 * hist[k * DCT_BINS + |X|] (k in that order). Only what those need of the
 * transform is computed (dct_histogram_strips, dct_histogram).
 *
 * The macroblocks' histogram (dct_histogram_mb), for the luma of an
 * interlaced frame: MPEG-2 chooses frame or field DCT for each 16x16
 * macroblock (dct_type), so a frame coded with field DCT shows its
 * quantizer step on neither the frame's grid nor its fields'. Each whole
 * macroblock's four blocks are taken as its encoder most likely chose
 * them, from the decoded samples' vertical activity as FFmpeg's encoder
 * decides it (ildct_cmp, vsad: the sum over the 16 columns of the
 * absolute differences of vertically adjacent samples, in 8-bit units):
 * field blocks (rows of one parity, the top field's above the bottom's)
 * where the two 16x8 halves' sums less 400 are positive and greater than
 * the two fields' sums, frame blocks (the plane's own grid) elsewhere; the
 * same coefficients and bins as dct_histogram. */

/* The formulas' constants for SAMPLE_BITS b (above). */
#define DCT_MID (1 << (SAMPLE_BITS - 1))
#define DCT_ROW_SHIFT (SAMPLE_BITS + 2)
#define DCT_ROW_ROUND (1 << (DCT_ROW_SHIFT - 1))
#define DCT_OUT_SHIFT(passes_log2) (22 - SAMPLE_BITS + (passes_log2))
#define DCT_OUT_BIAS(passes_log2) \
  ((2 * DCT_MID + 1) << (DCT_OUT_SHIFT (passes_log2) - 1))

__constant int dct_c[8][8] = {
  {1448, 1448, 1448, 1448, 1448, 1448, 1448, 1448},
  {2009, 1703, 1138, 400, -400, -1138, -1703, -2009},
  {1892, 784, -784, -1892, -1892, -784, 784, 1892},
  {1703, -400, -2009, -1138, 1138, 2009, 400, -1703},
  {1448, -1448, -1448, 1448, 1448, -1448, -1448, 1448},
  {1138, -2009, 400, 1703, -1703, -400, 2009, -1138},
  {784, -1892, 1892, -784, -784, 1892, -1892, 784},
  {400, -1138, 1703, -2009, 2009, -1703, 1138, -400},
};

/* The transforms below are written once over dctv, the shape's value: the
 * one place where this file tells the shapes apart (-DDCT_STRIPS, set by
 * the host with dct-strips.cl), since both shapes' kernels need the
 * transforms and their products before them. */
#ifdef DCT_STRIPS
/* The strip kernel transforms DCT_LANES blocks side by side, lane j of
 * every vector holding block j: each 8-point transform below is then the
 * same straight-line code on whole vectors, which a CPU runs as SIMD. */
typedef int16 dctv;
#else
/* dct_tile: a work-item holds a row or a column of one block, value by
 * value. */
typedef int dctv;
#endif

#if defined(DCT_STRIPS) && defined(__clang__) && defined(__AVX512BW__)
/* Where the kernel is compiled for an x86 CPU with AVX-512BW (PoCL on one),
 * each a x + b y is one pmaddwd: two 16-bit products summed in 32 bits,
 * exactly, as long as x, y, a and b fit 16 bits. They do: the constants
 * (and 16 times them, which dct_columns takes: at most 16 x 2009 = 32144),
 * and the transforms' inputs and their sums and differences (samples: up
 * to 4 x 1023 = 4092; R: 5770; X: 4095; Q: 11581, the header). OpenCL C has no word for
 * it, hence clang's x86 builtin; elsewhere the rotations below. */
typedef short dct_pairs __attribute__ ((ext_vector_type (32)));
/* the low halves of x and y's lanes, interleaved: one two-source shuffle */
#define PAIR(x, y) __builtin_shufflevector (__builtin_astype ((x),        \
        dct_pairs), __builtin_astype ((y), dct_pairs), 0, 32, 2, 34, 4,  \
    36, 6, 38, 8, 40, 10, 42, 12, 44, 14, 46, 16, 48, 18, 50, 20, 52, 22,  \
    54, 24, 56, 26, 58, 28, 60, 30, 62)
#define MADD(xy, a, b) \
  __builtin_astype (__builtin_ia32_pmaddwd512 ((xy), PAIR ((dctv) (a),  \
              (dctv) (b))), dctv)
#define ROTATE(a, b, x, y, p, q)                                        \
  do {                                                                  \
    const dct_pairs xy_ = PAIR (x, y);                                  \
    p = MADD (xy_, a, b);                                               \
    q = MADD (xy_, b, -(a));                                            \
  } while (0)
/* the high halves of x and y's lanes, interleaved */
#define PAIR_HIGH(x, y) __builtin_shufflevector (__builtin_astype ((x),   \
        dct_pairs), __builtin_astype ((y), dct_pairs), 1, 33, 3, 35, 5,  \
    37, 7, 39, 9, 41, 11, 43, 13, 45, 15, 47, 17, 49, 19, 51, 21, 53, 23,  \
    55, 25, 57, 27, 59, 29, 61, 31, 63)
/* p = k 1448 (x + y), q = k 1448 (x - y) */
#define DC_PAIR(k, x, y, p, q)                                          \
  do {                                                                  \
    const dct_pairs xy_ = PAIR (x, y);                                  \
    p = MADD (xy_, (k) * 1448, (k) * 1448);                             \
    q = MADD (xy_, (k) * 1448, -(k) * 1448);                            \
  } while (0)
#else
/* p = a x + b y and q = b x - a y in three multiplies instead of four:
 * t = b (x + y), p = t + (a - b) x, q = t - (a + b) y, the same integers. */
#define ROTATE(a, b, x, y, p, q)                                        \
  do {                                                                  \
    const dctv t_ = (b) * ((x) + (y));                                  \
    p = t_ + ((a) - (b)) * (x);                                         \
    q = t_ - ((a) + (b)) * (y);                                         \
  } while (0)
#define DC_PAIR(k, x, y, p, q)                                          \
  do {                                                                  \
    p = (k) * 1448 * ((x) + (y));                                       \
    q = (k) * 1448 * ((x) - (y));                                       \
  } while (0)
#endif

/* The odd half of the 8-point transform, forward and inverse alike (the
 * matrix is symmetric): r = M i for
 *   M = { c1, c3, c5, c7 }, { c3, -c7, -c1, -c5 }, { c5, -c1, c7, c3 },
 *       { c7, -c5, c3, -c1 }, c1..c7 = 2009, 1703, 1138, 400,
 * as four rotations of pairs of i, 12 multiplies instead of 16. */
#ifdef MADD
/* odd4 times k from the pairs (i0, i1) and (i2, i3): 8 pmaddwd (k C
 * fits 16 bits for k <= 16) */
static inline void
odd4_pairs (dct_pairs i01, dct_pairs i23, dctv * r, const int k)
{
  r[0] = MADD (i01, k * 2009, k * 1703) + MADD (i23, k * 1138, k * 400);
  r[1] = MADD (i01, k * 1703, k * -400) + MADD (i23, k * -2009, k * -1138);
  r[2] = MADD (i01, k * 1138, k * -2009) + MADD (i23, k * 400, k * 1703);
  r[3] = MADD (i01, k * 400, k * -1138) + MADD (i23, k * 1703, k * -2009);
}
#endif

/* odd4 times k */
static inline void
odd4_scaled (dctv i0, dctv i1, dctv i2, dctv i3, dctv * r, const int k)
{
#ifdef MADD
  odd4_pairs (PAIR (i0, i1), PAIR (i2, i3), r, k);
#else
  dctv p1, q1, p2, q2, p3, q3, p4, q4;

  /* c1 i0 + c7 i3, c7 i0 - c1 i3 */
  ROTATE (k * 2009, k * 400, i0, i3, p1, q1);
  /* c5 i2 + c3 i1, c3 i2 - c5 i1 */
  ROTATE (k * 1138, k * 1703, i2, i1, p2, q2);
  /* c5 i0 + c3 i3, c3 i0 - c5 i3 */
  ROTATE (k * 1138, k * 1703, i0, i3, p3, q3);
  /* c7 i1 + c1 i2, c1 i1 - c7 i2 */
  ROTATE (k * 400, k * 2009, i1, i2, p4, q4);
  r[0] = p1 + p2;
  r[1] = q3 - p4;
  r[2] = p3 - q4;
  r[3] = q1 + q2;
#endif
}

/* y[u] = k sum_n C[u][n] x[n], exactly: the same integer sums as the
 * matrix product, reassociated through the basis' symmetries (C[u][7 - n]
 * = (-1)^u C[u][n], and again within the even half) and rotations, 17
 * multiplies instead of 64. No rounding happens inside, so the result is
 * the product's. k = 1 but where the caller wants the sums scaled
 * (dct_columns: by 16, for free in the constants). */
static inline void
fdct8_scaled (const dctv * x, dctv * y, const int k)
{
  const dctv e0 = x[0] + x[7], e1 = x[1] + x[6], e2 = x[2] + x[5],
      e3 = x[3] + x[4];
  const dctv ee0 = e0 + e3, ee1 = e1 + e2, eo0 = e0 - e3, eo1 = e1 - e2;
  dctv r[4];

  DC_PAIR (k, ee0, ee1, y[0], y[4]);
  ROTATE (k * 1892, k * 784, eo0, eo1, y[2], y[6]);
  odd4_scaled (x[0] - x[7], x[1] - x[6], x[2] - x[5], x[3] - x[4], r, k);
  y[1] = r[0];
  y[3] = r[1];
  y[5] = r[2];
  y[7] = r[3];
}

static inline void
fdct8 (const dctv * x, dctv * y)
{
  fdct8_scaled (x, y, 1);
}

/* The inverse's last butterflies: y from its even part e0..e3 and odd part
 * o. */
static inline void
idct8_out (dctv e0, dctv e1, dctv e2, dctv e3, const dctv * o, dctv * y)
{
  y[0] = e0 + o[0];
  y[7] = e0 - o[0];
  y[1] = e1 + o[1];
  y[6] = e1 - o[1];
  y[2] = e2 + o[2];
  y[5] = e2 - o[2];
  y[3] = e3 + o[3];
  y[4] = e3 - o[3];
}

/* y[n] = sum_u C[u][n] X[u] + bias, exactly, the same way; every y[n] has
 * one term from a0 or a1, which carry the bias. */
#ifdef MADD
/* ... from the pairs the pmaddwd take, (X[0], X[4]), (X[2], X[6]),
 * (X[1], X[3]) and (X[5], X[7]), where the caller has them made, and
 * the sums times k (the bias is added as it is) */
static inline void
idct8_pairs (dct_pairs x04, dct_pairs x26, dct_pairs x13, dct_pairs x57,
    dctv * y, int bias, const int k)
{
  const dctv a0 = MADD (x04, k * 1448, k * 1448) + bias,
      a1 = MADD (x04, k * 1448, k * -1448) + bias;
  const dctv b0 = MADD (x26, k * 1892, k * 784),
      b1 = MADD (x26, k * 784, k * -1892);
  const dctv e0 = a0 + b0, e3 = a0 - b0, e1 = a1 + b1, e2 = a1 - b1;
  dctv o[4];

  odd4_pairs (x13, x57, o, k);
  idct8_out (e0, e1, e2, e3, o, y);
}
#endif

static inline void
idct8 (const dctv * X, dctv * y, int bias)
{
#ifdef MADD
  idct8_pairs (PAIR (X[0], X[4]), PAIR (X[2], X[6]), PAIR (X[1], X[3]),
      PAIR (X[5], X[7]), y, bias, 1);
#else
  dctv a0, a1, b0, b1, o[4];

  DC_PAIR (1, X[0], X[4], a0, a1);
  a0 += bias;
  a1 += bias;
  ROTATE (1892, 784, X[2], X[6], b0, b1);
  const dctv e0 = a0 + b0, e3 = a0 - b0, e1 = a1 + b1, e2 = a1 - b1;
  odd4_scaled (X[1], X[3], X[5], X[7], o, 1);
  idct8_out (e0, e1, e2, e3, o, y);
#endif
}

/* The stage where the threshold it reads is 0 (strength=auto found no
 * coding on the frame): @src's samples into @dst as they are, whole words
 * (the bits a 10-bit sample's value does not use too); nothing otherwise,
 * where dct_strips writes @dst (dct_tile copies at 0 itself). A work-item a
 * sample. */
__kernel void
dct_copy (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, __global const uint * threshold)
{
  const int x = get_global_id (0), y = get_global_id (1);

  if (threshold[0] != 0 || x >= width || y >= height)
    return;
  ((__global sample *) (dst + dst_offset + y * dst_pitch))[x] =
      ((__global const sample *) (src + src_offset + y * src_pitch))[x];
}

/* The coefficients (1, 0), (0, 1), (1, 1) of the 8x8 block whose rows start
 * at @p, @pitch bytes apart, its samples @xstep apart (2: one component of
 * interleaved chroma), as bins: dct_histogram's integers. */
static inline void
block_bins (__global const uchar * p, int pitch, int xstep, int shift,
    int *bins)
{
  int r0[8], r1[8];

  for (int m = 0; m < 8; m++) {
    __global const sample *row = (__global const sample *) (p + m * pitch);
    int s0 = 0, s1 = 0;
    for (int n = 0; n < 8; n++) {
      const int x = (int) SAMPLE_VALUE (row[n * xstep], shift) - DCT_MID;
      s0 += dct_c[0][n] * x;
      s1 += dct_c[1][n] * x;
    }
    r0[m] = (s0 + DCT_ROW_ROUND) >> DCT_ROW_SHIFT;
    r1[m] = (s1 + DCT_ROW_ROUND) >> DCT_ROW_SHIFT;
  }
  int x10 = 0, x01 = 0, x11 = 0;
  for (int m = 0; m < 8; m++) {
    x10 += dct_c[0][m] * r1[m];
    x01 += dct_c[1][m] * r0[m];
    x11 += dct_c[1][m] * r1[m];
  }
  bins[0] = min ((int) abs ((x10 + 2048) >> 12), DCT_BINS - 1);
  bins[1] = min ((int) abs ((x01 + 2048) >> 12), DCT_BINS - 1);
  bins[2] = min ((int) abs ((x11 + 2048) >> 12), DCT_BINS - 1);
}

/* FFmpeg's vsad of the 16 columns at @p over @rows rows @pitch bytes
 * apart, in the format's units. */
static inline int
vertical_sad (__global const uchar * p, int pitch, int rows, int shift)
{
  int sad = 0;

  for (int m = 0; m + 1 < rows; m++) {
    __global const sample *a = (__global const sample *) (p + m * pitch);
    __global const sample *b = (__global const sample *) (p + (m + 1) *
        pitch);
    for (int n = 0; n < 16; n++)
      sad += abs ((int) SAMPLE_VALUE (a[n], shift) -
          (int) SAMPLE_VALUE (b[n], shift));
  }
  return sad;
}

/* Whether the macroblock at @p was most likely coded with field DCT
 * (above): 400 in 8-bit units, 4 times that in 10-bit ones. */
static inline int
field_macroblock (__global const uchar * p, int pitch, int shift)
{
  const int frame = vertical_sad (p, pitch, 8, shift) +
      vertical_sad (p + 8 * pitch, pitch, 8, shift) -
      (400 << (SAMPLE_BITS - 8));

  return frame > 0 && frame > vertical_sad (p, 2 * pitch, 8, shift) +
      vertical_sad (p + pitch, 2 * pitch, 8, shift);
}

/* A histogram work-group's counts in local memory (dct_histogram,
 * dct_histogram_mb): cleared before its blocks; added to @hist after
 * them, each bin in one global add, the bins near 0 that nearly every
 * block hits among them. */
static inline void
counts_clear (__local uint * counts)
{
  for (int i = get_local_id (0); i < DCT_HIST_COEFFS * DCT_BINS;
      i += DCT_HIST_WG)
    counts[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
}

static inline void
counts_add (__local const uint * counts, __global uint * hist)
{
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = get_local_id (0); i < DCT_HIST_COEFFS * DCT_BINS;
      i += DCT_HIST_WG)
    if (counts[i])
      atomic_add (hist + i, counts[i]);
}

/* The macroblocks' histogram (above), counted as dct_histogram counts: in
 * local memory, a work-item a macroblock in turn. */
__kernel __attribute__ ((reqd_work_group_size (DCT_HIST_WG, 1, 1)))
void
dct_histogram_mb (__global const uchar * src, uint src_offset, int src_pitch,
    int width, int height, __global uint * hist, int shift)
{
  __local uint counts[DCT_HIST_COEFFS * DCT_BINS];
  const int mbs_x = width / 16, mbs = mbs_x * (height / 16);

  counts_clear (counts);
  for (int mb = get_global_id (0); mb < mbs; mb += get_global_size (0)) {
    __global const uchar *p = src + src_offset + (mb / mbs_x) * 16 *
        src_pitch + (mb % mbs_x) * 16 * (int) sizeof (sample);
    const int field = field_macroblock (p, src_pitch, shift);
    /* field blocks: the top field's rows, then the bottom's */
    const int pitch = field ? 2 * src_pitch : src_pitch;
    const int second = field ? src_pitch : 8 * src_pitch;

    for (int b = 0; b < 4; b++) {
      int bins[DCT_HIST_COEFFS];

      block_bins (p + (b / 2) * second + (b % 2) * 8 * (int) sizeof (sample),
          pitch, 1, shift, bins);
      for (int k = 0; k < DCT_HIST_COEFFS; k++)
        atomic_inc (counts + k * DCT_BINS + bins[k]);
    }
  }
  counts_add (counts, hist);
}
