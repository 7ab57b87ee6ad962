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

/* The shifted-DCT stage and the estimate's histogram in the shape for
 * CPUs (built with -DDCT_STRIPS: dct.cl's vectors are then int16, lane j
 * holding block j of DCT_LANES side by side; dct-shared.h has the sizes).
 *
 * dct_pad copies the plane with its edges replicated; dct_strips then runs
 * every pass in one launch, each work-item down a strip of its own (see
 * there): the sums stay in the work-item's private memory, the output is
 * written once, and each row's forward row transform is done once per
 * horizontal offset, for both passes at that offset, and so are the
 * inverse rows of their P sums. Every intermediate value fits 16 bits
 * (|R| <= 1448, |X| <= 4095, |P| <= 11581, the P sums of two passes), the
 * products do not. */

/* Whether every lane of v is 0: one vptest where clang has the reduction
 * (PoCL 3.1's any () of an int16 tests its 16 lanes one by one). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_reduce_or)
#define ALL_ZERO(v) (__builtin_reduce_or (v) == 0)
#endif
#endif
#ifndef ALL_ZERO
#define ALL_ZERO(v) (!any ((v) != 0))
#endif

/* The 128 values of w[0..7] read as one sequence, its even-indexed values
 * first, then the odd: the value at position i moves to i / 2 or 64 + i / 2,
 * its 7-bit position rotated right by one. Three of these turn eight vectors
 * of 128 consecutive samples into w[q] = samples q, q + 8, q + 16, ...
 * (8 j + q moves to 16 q + j); four turn them back. Each output vector is
 * one two-source shuffle. */
static inline void
unshuffle (dctv * w)
{
  dctv u[8];

  _Pragma ("unroll") for (int t = 0; t < 4; t++) {
#ifdef __clang__
    u[t] = __builtin_shufflevector (w[2 * t], w[2 * t + 1], 0, 2, 4, 6, 8, 10,
        12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    u[t + 4] = __builtin_shufflevector (w[2 * t], w[2 * t + 1], 1, 3, 5, 7, 9,
        11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
#else
    u[t] = (dctv) (w[2 * t].even, w[2 * t + 1].even);
    u[t + 4] = (dctv) (w[2 * t].odd, w[2 * t + 1].odd);
#endif
  }
  _Pragma ("unroll") for (int t = 0; t < 8; t++)
    w[t] = u[t];
}

/* The padded plane and the sums are kept by phase: column c of a row is
 * entry c / 8 of the row's phase c % 8, each phase a run of entries of its
 * own. Sample n of DCT_LANES side-by-side blocks (columns 8 j + n from any
 * start) is then one run of consecutive entries of one phase: the blocks
 * load and add without shuffles, which happen once a row instead, in
 * dct_pad and where the sums become output. */

/* The sums of a row: for each phase, entries 0 to DCT_LANES (the strip's
 * columns and DCT_PAD to the left, as far as DCT_LANES blocks starting at
 * any of them reach), kept as two aligned vectors: acc[0][q] lane j holds
 * what falls on entry j, acc[1][q] lane j what falls on entry j + 1. Sample
 * n of a pass's blocks lands on entries j + 0 or j + 1 for lane j,
 * whatever the pass: its adds need no unaligned access; the two are added
 * once a row, for the output. */
typedef int16 dct_acc_row[2][8];

/* The code below that depends on a pass's horizontal offset sx takes it
 * as a constant (DCT_BY_SX): where sample n of a block lies, and where its
 * sums go, are then constant offsets instead of indices computed at run
 * time. A pass's blocks start at strip column -sx, padded column x0 + 8 -
 * sx: their sample n lies in phase (n - sx) & 7, entry (8 - sx + n) >> 3
 * (0 or 1) of the run for the strip. */
#define DCT_BY_SX(sx, F, ...)                                           \
  switch (sx) {                                                         \
    case 0: F (0, __VA_ARGS__); break;                                  \
    case 1: F (1, __VA_ARGS__); break;                                  \
    case 2: F (2, __VA_ARGS__); break;                                  \
    case 3: F (3, __VA_ARGS__); break;                                  \
    case 4: F (4, __VA_ARGS__); break;                                  \
    case 5: F (5, __VA_ARGS__); break;                                  \
    case 6: F (6, __VA_ARGS__); break;                                  \
    default: F (7, __VA_ARGS__); break;                                 \
  }

/* The forward row transform of one padded row (p: its start, phase: the
 * entries of a phase, xb: the strip's first entry) for the DCT_LANES
 * blocks of offset sx: R[u]. Every |R| <= DCT_MID * 8 * 1448 >>
 * DCT_ROW_SHIFT (1448) fits 16 bits. */
static inline __attribute__ ((always_inline)) void
dct_row (const int sx, __global const sample * p, int phase, int xb,
    dctv * R)
{
  dctv w[8], s[8];

  _Pragma ("unroll") for (int n = 0; n < 8; n++)
    w[n] = convert_int16 (load_sample16 (p + ((n - sx) & 7) * phase + xb +
            ((8 - sx + n) >> 3)));
  fdct8 (w, s);
  /* x - DCT_MID for x: every other row of C sums to 0 */
  R[0] = (s[0] - 8 * DCT_MID * 1448 + DCT_ROW_ROUND) >> DCT_ROW_SHIFT;
  _Pragma ("unroll") for (int u = 1; u < 8; u++)
    R[u] = (s[u] + DCT_ROW_ROUND) >> DCT_ROW_SHIFT;
}

/* dct_row for rows *next to y_to - 1 of the padded plane pad, into the
 * rolling rows R[y & 15]. */
static inline __attribute__ ((always_inline)) void
dct_rows_upto (const int sx, __global const sample * pad, int phase, int xb,
    int *next, int y_to, dctv (*R)[8])
{
  for (; *next < y_to; (*next)++)
    dct_row (sx, pad + (*next + DCT_PAD) * 8 * phase, phase, xb,
        R[*next & 15]);
}

/* The blocks' columns from their rows R[(y0 + m) & 15] (dct_row): forward,
 * thresholded, inverse, added into P[(y0 + m) & 15]: the sums of P over the
 * passes at one horizontal offset, whose inverse rows are then done once
 * for them all (dct_p_rows). With t = s + 2048 a coefficient is X = t >> 12,
 * and kept where (uint) (t + tc) >= tr: X >= threshold or X <= -threshold
 * for tc = (threshold - 1) << 12, tr = (2 threshold - 1) << 12 (the
 * negative wrap around to the top), always for tc = tr = 0. A column whose
 * AC coefficients are all 0 in every block, as most are once thresholded,
 * adds nothing to P, or only its DC term: its inverse is skipped. A
 * column u > 0 that was empty the last time (bit u of *was_empty) is first
 * tested whole: every |s[v]| <= 2009 sum_m |R[m][u]| (2009 the largest
 * |C|), and where that is at most 4096 threshold - 2049 in every block
 * (sum_m |R[m][u]| <= l1_max), every X of the column is dropped: its
 * forward transform is skipped too. Empty columns come in runs (flat
 * areas); testing every column costs more than it saves on a photograph,
 * where columns 1 to 3 are seldom empty. Which columns are tested changes
 * the time only, never the result. */
static inline void
dct_columns (dctv (*R)[8], int y0, uint tc, uint tr, int l1_max,
    dctv (*P)[8], int *was_empty)
{
  dctv w[8], s[8];

  _Pragma ("unroll") for (int u = 0; u < 8; u++) {
    dctv ac = 0;

    _Pragma ("unroll") for (int m = 0; m < 8; m++)
      w[m] = R[(y0 + m) & 15][u];
    if (u > 0 && (*was_empty & (1 << u))) {
      dctv l1 = 0;

      _Pragma ("unroll") for (int m = 0; m < 8; m++)
        l1 += max (w[m], -w[m]);
      if (ALL_ZERO (l1 > l1_max))
        continue;
    }
    fdct8 (w, s);
    /* X[v][u] into w[v] (the DC term stays) */
    _Pragma ("unroll") for (int v = 0; v < 8; v++) {
      const dctv t = s[v] + 2048;

      if (u + v == 0) {
        w[v] = t >> 12;
      } else {
        w[v] = (t >> 12) & (as_uint16 (t) + tc >= tr);
        ac |= w[v];
      }
    }
    if (ALL_ZERO (ac)) {
      *was_empty |= 1 << u;
      /* P = (1448 X[0][0] + 2048) >> 12 on every row, or 0 */
      if (u == 0) {
        const dctv p = (1448 * w[0] + 2048) >> 12;

        _Pragma ("unroll") for (int m = 0; m < 8; m++)
          P[(y0 + m) & 15][0] += p;
      }
      continue;
    }
    *was_empty &= ~(1 << u);
    idct8 (w, s, 2048);
    _Pragma ("unroll") for (int m = 0; m < 8; m++)
      P[(y0 + m) & 15][u] += s[m] >> 12;
  }
}

/* The inverse rows of the rows *done to y_to - 1 of the P sums
 * (dct_columns) of offset sx, added into the sums rows acc[y & 15]
 * (dct_acc_row: sample n at entry (8 - sx + n) >> 3 of phase (n - sx) & 7),
 * each P row zeroed then for its next use. Every |P| of one pass is at
 * most 11581 and an offset has at most two passes, so the sums fit 16
 * bits, as the pairs of products need. */
static inline __attribute__ ((always_inline)) void
dct_p_rows (const int sx, dctv (*P)[8], int *done, int y_to,
    dct_acc_row * acc)
{
  for (; *done < y_to; (*done)++) {
    dctv *p = P[*done & 15];
    dctv s[8];

    idct8 (p, s, 0);
    _Pragma ("unroll") for (int n = 0; n < 8; n++)
      acc[*done & 15][(8 - sx + n) >> 3][(n - sx) & 7] += s[n];
    _Pragma ("unroll") for (int u = 0; u < 8; u++)
      p[u] = 0;
  }
}

static inline void
zero_acc_row (dct_acc_row * row)
{
  _Pragma ("unroll") for (int q = 0; q < 8; q++)
    (*row)[0][q] = (*row)[1][q] = 0;
}

/* dct_pad: the plane with DCT_PAD samples of its edge replicated on every
 * side, by phase (above): padded column c of row y (plane column
 * c - DCT_PAD, row y - DCT_PAD) at pad[y * 8 * phase + (c % 8) * phase +
 * c / 8], a sample's value (the shift undone: pad holds 0..SAMPLE_MAX).
 * One work-item per 128 padded columns of a row. */
__kernel void
dct_pad (__global const uchar * src, uint src_offset, int src_pitch,
    int width, int height, __global sample * pad, int phase, int shift,
    __global const uint * threshold, int fields)
{
  const int g = get_global_id (0), x = g * 128 - DCT_PAD;
  const int y = (int) get_global_id (1) - DCT_PAD;
  __global const sample *row = (__global const sample *) (src + src_offset +
      edge_clamp (y, height) * src_pitch);
  __global sample *out = pad + (y + DCT_PAD) * 8 * phase + g * 16;
  dctv w[8];

  /* threshold 0: dct_strips does nothing; nor where the threshold is for
   * the other shape (dct-shared.h) */
  if (threshold[0] == 0 ||
      (threshold[0] & DCT_STAGE_FIELDS) != (fields ? DCT_STAGE_FIELDS : 0))
    return;
  if (x >= 0 && x + 128 <= width) {
    _Pragma ("unroll") for (int t = 0; t < 8; t++)
      w[t] = SAMPLE_VALUE16 (load_sample16 (row + x + 16 * t), shift);
    unshuffle (w);
    unshuffle (w);
    unshuffle (w);
    _Pragma ("unroll") for (int q = 0; q < 8; q++)
      store_sample16_upto (out + q * phase, 0, 16, SAMPLE_WORD16 (w[q], 0));
  } else {
    for (int q = 0; q < 8; q++)
      for (int j = 0; j < 16; j++)
        out[q * phase + j] = SAMPLE_VALUE (row[edge_clamp (x + 8 * j + q,
                    width)], shift);
  }
}

/* dct_strips: all passes of the stage in one launch. Work-item (i, g) owns
 * the columns [DCT_STRIP i, DCT_STRIP (i + 1)) and the rows
 * [seg_rows g, seg_rows (g + 1)) of the output (seg_rows a multiple of 8)
 * and walks down them a block row at a time: for each pass, the DCT_LANES
 * blocks of the row that cover its columns (the last ones partly outside
 * them; pad is dct_pad's copy of the plane). Their columns go into rolling
 * P sums of 16 rows for the pass's horizontal offset (dct_columns); after
 * the last pass at that offset, the rows its passes have all reached go
 * through the inverse rows into a rolling accumulator of 16 rows
 * (dct_p_rows), all in private memory; after block row b of every pass,
 * rows up to 8 b are whole and go to dst. Pass i's offset is
 * ((sxs >> 4 i) & 15, (sys >> 4 i) & 15). */
__kernel __attribute__ ((reqd_work_group_size (1, 1, 1)))
void
dct_strips (__global const sample * pad, int phase, __global uchar * dst,
    uint dst_offset, int dst_pitch, int width, int height, int seg_rows,
    ulong sxs, ulong sys, __global const uint * threshold, int passes_log2,
    int shift, int fields)
{
  const int x0 = (int) get_global_id (0) * DCT_STRIP;
  const int y_begin = (int) get_global_id (1) * seg_rows;
  const int y_end = min (y_begin + seg_rows, height);
  const int x_end = min (x0 + DCT_STRIP, width);
  const int bias = DCT_OUT_BIAS (passes_log2);
  const int out_shift = DCT_OUT_SHIFT (passes_log2);
  /* |X| <= 4095: any larger threshold drops what 4096 does; 0 where the
   * threshold is for the other shape (dct-shared.h) */
  const uint t = (threshold[0] & DCT_STAGE_FIELDS) !=
      (fields ? DCT_STAGE_FIELDS : 0) ? 0 :
      min (threshold[0] & ~DCT_STAGE_FIELDS, 4096u);
  const uint tc = t ? (t - 1) << 12 : 0, tr = t ? (2 * t - 1) << 12 : 0;
  /* dct_columns: a column of rows whose |R| sum to at most this in every
   * block has none of its coefficients kept */
  const int l1_max = t ? (int) (4096 * t - 2049) / 2009 : -1;
  /* acc[y & 15]: entry i of phase q is column 8 i + q - DCT_PAD of the
   * strip (dct_acc_row) */
  dct_acc_row acc[16];
  /* rows[sx][y & 15]: dct_row of row y for the passes at sx, which need
   * it for one block row each; next[sx]: the next row to transform. The
   * rows and the P sums below fit 16 bits but are kept in 32: on Zen 4
   * with PoCL the conversions each way (vpmovdw, vpmovsxwd) cost more than
   * the memory they save (docs/quality.md, "The inverse by columns
   * first"). */
  dctv rows[8][16][8];
  int next[8];
  /* P[sx][y & 15][u]: the P sums of row y for the passes at sx;
   * done[sx]: the next row of them to go through the inverse rows, when
   * every pass at sx has reached it: below 8 b + 8 - sy_max[sx] after block
   * row b; last[sx]: the last pass at sx */
  dctv P[8][16][8];
  int done[8], sy_max[8], last[8];
  /* bit u: column u was empty in the last blocks (dct_columns) */
  int was_empty = 0;

  /* threshold 0: dct_copy copies the plane instead */
  if (t == 0)
    return;
  for (int y = 0; y < 16; y++)
    zero_acc_row (&acc[y]);
  for (int sx = 0; sx < 8; sx++) {
    next[sx] = done[sx] = y_begin - 8;
    sy_max[sx] = 0;
    last[sx] = -1;
    for (int y = 0; y < 16; y++)
      for (int u = 0; u < 8; u++)
        P[sx][y][u] = 0;
  }
  for (int i = 0; i < 1 << passes_log2; i++) {
    const int sx = (sxs >> (4 * i)) & 15, sy = (sys >> (4 * i)) & 15;

    sy_max[sx] = max (sy_max[sx], sy);
    last[sx] = i;
  }
  dst += dst_offset;
  for (int b = y_begin / 8; 8 * b < y_end + 8; b++) {
    for (int i = 0; i < 1 << passes_log2; i++) {
      const int sx = (sxs >> (4 * i)) & 15, sy = (sys >> (4 * i)) & 15;
      const int y0 = 8 * b - sy;

      DCT_BY_SX (sx, dct_rows_upto, pad, phase, x0 / 8, &next[sx], y0 + 8,
          rows[sx]);
      dct_columns (rows[sx], y0, tc, tr, l1_max, P[sx], &was_empty);
      if (i == last[sx])
        DCT_BY_SX (sx, dct_p_rows, P[sx], &done[sx], 8 * b + 8 - sy_max[sx],
            acc);
    }
    /* rows 8 b - 8 .. 8 b - 1 are whole; their slots take rows 8 b + 8 ..
     * 8 b + 15 next */
    for (int y = max (8 * b - 8, y_begin); y < min (8 * b, y_end); y++) {
      dctv w[8];

      /* entries 1 to DCT_LANES of each phase */
      _Pragma ("unroll") for (int q = 0; q < 8; q++) {
#ifdef __clang__
        w[q] = __builtin_shufflevector (acc[y & 15][0][q], (dctv) (0), 1, 2,
            3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
#else
        w[q] = (dctv) (acc[y & 15][0][q].s123456789abcdef, 0);
#endif
        w[q] += acc[y & 15][1][q];
      }
      unshuffle (w);
      unshuffle (w);
      unshuffle (w);
      unshuffle (w);
      _Pragma ("unroll") for (int t = 0; t < 8; t++)
        if (x0 + 16 * t < x_end)
          store_sample16_upto ((__global sample *) (dst + y * dst_pitch),
              x0 + 16 * t, x_end, SAMPLE_WORD16 (clamp ((w[t] + bias) >>
                      out_shift, 0, (int) SAMPLE_MAX), shift));
    }
    for (int y = 8 * b - 8; y < 8 * b; y++)
      zero_acc_row (&acc[y & 15]);
  }
}

/* dct_histogram_strips: dct_histogram's counts (below) in the strip
 * kernel's shape, for CPUs. Work-item (i, g) takes the DCT_LANES blocks of
 * columns [8 DCT_LANES i, 8 DCT_LANES (i + 1)), side by side in the lanes
 * of its vectors, in its share of the block rows (a split of the rows over
 * the global size of dimension 1), and counts into a histogram of its own
 * in private memory, whose bins it hit are added to hist at the end: no
 * gathers, no atomics per block. The same integers as dct_histogram: with
 * x = sample - DCT_MID, the row sums of C[0] are 1448 (sum of the samples -
 * 8 DCT_MID), those of C[1] need no -DCT_MID (its entries sum to 0). */
/* sum_n v[n], and sum_n C[1][n] v[n] (C[1] is odd about its middle). */
static inline dctv
sum8 (const dctv * v)
{
  return v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
}

static inline dctv
dot_c1 (const dctv * v)
{
  return 2009 * (v[0] - v[7]) + 1703 * (v[1] - v[6]) + 1138 * (v[2] - v[5]) +
      400 * (v[3] - v[4]);
}

__kernel __attribute__ ((reqd_work_group_size (1, 1, 1)))
void
dct_histogram_strips (__global const uchar * src, uint src_offset,
    int src_pitch, int width, int height, __global uint * hist, int shift)
{
  const int x0 = (int) get_global_id (0) * 8 * DCT_LANES;
  const int lanes = min (width / 8 - x0 / 8, DCT_LANES);
  const int rows = height / 8, segments = (int) get_global_size (1);
  const int seg = (rows + segments - 1) / segments;
  const int b_begin = (int) get_global_id (1) * seg;
  const int b_end = min (b_begin + seg, rows);
  uint counts[DCT_HIST_COEFFS * DCT_BINS];
  int k[3][DCT_LANES];

  for (int i = 0; i < DCT_HIST_COEFFS * DCT_BINS; i++)
    counts[i] = 0;
  src += src_offset;
  for (int b = b_begin; b < b_end; b++) {
    dctv r0[8], r1[8], x[3];

    for (int m = 0; m < 8; m++) {
      __global const sample *row = (__global const sample *) (src +
          (8 * b + m) * src_pitch) + x0;
      dctv w[8];

      if (lanes == DCT_LANES) {
        _Pragma ("unroll") for (int t = 0; t < 8; t++)
          w[t] = SAMPLE_VALUE16 (load_sample16 (row + 16 * t), shift);
        unshuffle (w);
        unshuffle (w);
        unshuffle (w);
      } else {
        int v[8][DCT_LANES];

        for (int n = 0; n < 8; n++)
          for (int j = 0; j < DCT_LANES; j++)
            v[n][j] = j < lanes ? SAMPLE_VALUE (row[8 * j + n], shift) :
                DCT_MID;
        _Pragma ("unroll") for (int n = 0; n < 8; n++)
          w[n] = vload16 (0, v[n]);
      }
      r0[m] = (1448 * (sum8 (w) - 8 * DCT_MID) + DCT_ROW_ROUND) >>
          DCT_ROW_SHIFT;
      r1[m] = (dot_c1 (w) + DCT_ROW_ROUND) >> DCT_ROW_SHIFT;
    }
    x[0] = 1448 * sum8 (r1);
    x[1] = dot_c1 (r0);
    x[2] = dot_c1 (r1);
    _Pragma ("unroll") for (int c = 0; c < 3; c++) {
      const dctv q = (x[c] + 2048) >> 12;

      vstore16 (min (max (q, -q), DCT_BINS - 1), 0, k[c]);
    }
    for (int j = 0; j < lanes; j++) {
      counts[k[0][j]]++;
      counts[DCT_BINS + k[1][j]]++;
      counts[2 * DCT_BINS + k[2][j]]++;
    }
  }
  for (int i = 0; i < DCT_HIST_COEFFS * DCT_BINS; i++)
    if (counts[i])
      atomic_add (hist + i, counts[i]);
}
