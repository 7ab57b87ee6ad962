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

/* At least v^2, for |v| < 2^15: with pmaddwd (dct.cl) the square of the
 * lane's low half plus that of its high half, the sign (0 or 1): one
 * instruction where a 32-bit multiply is two. */
#ifdef MADD
#define SQUARE_BOUND(v) __builtin_astype (__builtin_ia32_pmaddwd512 (      \
        __builtin_astype ((v), dct_pairs), __builtin_astype ((v),         \
            dct_pairs)), dctv)
#else
#define SQUARE_BOUND(v) ((v) * (v))
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

/* A row of the P sums (dct_columns, dct_p_rows). With pmaddwd, as the
 * pairs that idct8 takes, (P[0], P[4]), (P[2], P[6]), (P[1], P[3]),
 * (P[5], P[7]), 16 bits each (the sums fit, dct_p_rows): dct_p_rows then
 * needs no shuffles, and dct_columns adds a column's P of a row into its
 * half of a pair with one masked 16-bit add (two, with the shift, where
 * the half is the low one; DCT_P_PAIR, DCT_P_HIGH: where P[u] is). */
#ifdef MADD
typedef dct_pairs dct_p_row[4];
#define DCT_P_PAIR(u) ((u) == 0 || (u) == 4 ? 0 : (u) == 2 || (u) == 6 ? 1 : \
      (u) == 1 || (u) == 3 ? 2 : 3)
#define DCT_P_HIGH(u) ((u) == 4 || (u) == 6 || (u) == 3 || (u) == 7)

/* p with the high halves of v's lanes added into its high halves (high
 * 1), or into its low halves (high 0), the other halves as they are: one
 * masked vpaddw, or a shift and a vpaddw */
static inline dct_pairs
dct_add_high (dct_pairs p, dctv v, const int high)
{
  if (high)
    return __builtin_shufflevector (p, p + __builtin_astype (v, dct_pairs),
        0, 33, 2, 35, 4, 37, 6, 39, 8, 41, 10, 43, 12, 45, 14, 47, 16, 49,
        18, 51, 20, 53, 22, 55, 24, 57, 26, 59, 28, 61, 30, 63);
  return p + __builtin_astype (as_uint16 (v) >> 16, dct_pairs);
}
#else
typedef dctv dct_p_row[8];
#endif

static inline void
zero_p_row (dct_p_row * p)
{
  _Pragma ("unroll") for (int i = 0; i < (int) (sizeof (dct_p_row) /
          sizeof ((*p)[0])); i++)
    (*p)[i] = 0;
}

#ifdef MADD
/* The pairs of coefficients x with those below the threshold t (1 to
 * 4096) zeroed, as dct_columns does in 32 bits, here in 16: X is kept
 * where (ushort) (X + t - 1) >= 2 t - 1; and the low half of every lane
 * where dc (the DC term, X[0][0]). */
typedef ushort dct_upairs __attribute__ ((ext_vector_type (32)));

static inline dct_pairs
dct_keep (dct_pairs x, uint t, const int dc)
{
  dct_pairs keep = __builtin_astype (x + (short) (t - 1), dct_upairs) >=
      (ushort) (2 * t - 1);

  if (dc)
    keep = __builtin_astype (__builtin_astype (keep, dctv) | 0xffff,
        dct_pairs);
  return x & keep;
}
#endif

/* The first column whose blocks dct_columns tests whole (below): columns 0
 * to 2 seldom pass the test at the thresholds strength=auto picks (10 to
 * 12 on most frames of a broadcast clip), so that testing them costs more
 * than it saves (2 and 4 were within 1-3% of 3, either way, at
 * thresholds 10 and 40). */
#define DCT_TESTED_U 3

/* The blocks' columns from their rows R[(y0 + m) & 15] (dct_row): forward,
 * thresholded, inverse, added into P[(y0 + m) & 15]: the sums of P over the
 * passes at one horizontal offset, whose inverse rows are then done once
 * for them all (dct_p_rows). With t = s + 2048 a coefficient is X = t >> 12,
 * and kept where (uint) (t + tc) >= tr: X >= threshold or X <= -threshold
 * for tc = (threshold - 1) << 12, tr = (2 threshold - 1) << 12 (the
 * negative wrap around to the top), always for tc = tr = 0.
 *
 * A column u >= DCT_TESTED_U is first tested whole: every s[v]^2 <=
 * |C[v]|^2 sum_m R[m][u]^2 (Cauchy-Schwarz; |C[v]|^2 <= 16782668), and
 * where that is at most (4096 threshold - 2049)^2 in every block (sum_m
 * R[m][u]^2 <= l2_max), every X of the column is dropped and it adds
 * nothing to P: it is skipped. (The sum of |R| times 2009, the largest
 * |C|, bounds s[v] too, for the same work, but passes fewer of the columns
 * that thresholding empties: their R are spread over the rows, where the
 * squares' bound is the tighter.) A column that the test does not skip is
 * transformed and inverted whole, even where thresholding leaves it
 * empty: whether the DCT_LANES blocks' column is empty changes from one
 * call to the next about as often as not, at the thresholds strength=auto
 * picks, and a branch on it (or on the test, for columns that seldom pass
 * it: u < DCT_TESTED_U) mispredicts often enough to cost more than the
 * work it skips. (Skipping the columns found empty, and testing only
 * those found empty the last time, was 3% slower at threshold 10 and 2%
 * at 40 on a 2-core Xeon with AVX-512 and PoCL 3.1.) Which columns are
 * skipped changes the time only, never the result: an empty column's
 * inverse adds 0 to P. */
static inline void
dct_columns (dctv (*R)[8], int y0, uint thr, uint tc, uint tr, int l2_max,
    dct_p_row * P)
{
  dctv w[8], s[8];

  _Pragma ("unroll") for (int u = 0; u < 8; u++) {
    _Pragma ("unroll") for (int m = 0; m < 8; m++)
      w[m] = R[(y0 + m) & 15][u];
    if (u >= DCT_TESTED_U) {
      dctv l2 = 0;

      _Pragma ("unroll") for (int m = 0; m < 8; m++)
        l2 += SQUARE_BOUND (w[m]);
      if (ALL_ZERO (l2 > l2_max))
        continue;
    }
#ifdef MADD
    /* 16 s (fdct8's constants times 16, which still fit 16 bits), plus
     * 16 2048: 16 t, whose lanes' high halves are the X = t >> 12, made
     * into idct8's pairs by the shuffles it needs anyway, and thresholded
     * there 32 at a time (dct_keep): 20 instructions for the 8 X instead
     * of 32. The inverse is scaled the same way, its P = (16 s + 16 2048)
     * >> 16, so that both take the same constants (the registers hold
     * one set, not two); every 16 s fits 30 bits. */
    fdct8_scaled (w, s, 16);
    _Pragma ("unroll") for (int v = 0; v < 8; v++)
      s[v] += 16 * 2048;
    idct8_pairs (dct_keep (PAIR_HIGH (s[0], s[4]), thr, u == 0),
        dct_keep (PAIR_HIGH (s[2], s[6]), thr, 0),
        dct_keep (PAIR_HIGH (s[1], s[3]), thr, 0),
        dct_keep (PAIR_HIGH (s[5], s[7]), thr, 0), s, 16 * 2048, 16);
    _Pragma ("unroll") for (int m = 0; m < 8; m++) {
      dct_pairs *p = &P[(y0 + m) & 15][DCT_P_PAIR (u)];

      *p = dct_add_high (*p, s[m], DCT_P_HIGH (u));
    }
#else
    fdct8 (w, s);
    /* X[v][u] into w[v] (the DC term stays) */
    _Pragma ("unroll") for (int v = 0; v < 8; v++) {
      const dctv t = s[v] + 2048;

      w[v] = u + v == 0 ? t >> 12 :
          (t >> 12) & (as_uint16 (t) + tc >= tr);
    }
    idct8 (w, s, 2048);
    _Pragma ("unroll") for (int m = 0; m < 8; m++)
      P[(y0 + m) & 15][u] += s[m] >> 12;
#endif
  }
}

/* The inverse rows of the rows *done to y_to - 1 of the P sums
 * (dct_columns) of offset sx, added into the sums rows acc[y & 15]
 * (dct_acc_row: sample n at entry (8 - sx + n) >> 3 of phase (n - sx) & 7),
 * each P row zeroed then for its next use. Every |P| of one pass is at
 * most 11581 and an offset has at most two passes, so the sums fit 16
 * bits, as the pairs of products need. */
static inline __attribute__ ((always_inline)) void
dct_p_rows (const int sx, dct_p_row * P, int *done, int y_to,
    dct_acc_row * acc)
{
  for (; *done < y_to; (*done)++) {
    dct_p_row *p = &P[*done & 15];
    dctv s[8];

#ifdef MADD
    idct8_pairs ((*p)[0], (*p)[1], (*p)[2], (*p)[3], s, 0, 1);
#else
    idct8 (*p, s, 0);
#endif
    _Pragma ("unroll") for (int n = 0; n < 8; n++)
      acc[*done & 15][(8 - sx + n) >> 3][(n - sx) & 7] += s[n];
    zero_p_row (p);
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
  /* dct_columns: a column of rows whose R^2 sum to at most this in every
   * block has none of its coefficients kept (every such sum, SQUARE_BOUND's
   * too, is below 2^31: |R| <= 5770) */
  const int l2_max = t ? (int) min ((ulong) (4096 * t - 2049) *
      (4096 * t - 2049) / 16782668, (ulong) INT_MAX) : -1;
  /* acc[y & 15]: entry i of phase q is column 8 i + q - DCT_PAD of the
   * strip (dct_acc_row) */
  dct_acc_row acc[16];
  /* rows[sx][y & 15]: dct_row of row y for the passes at sx, which need
   * it for one block row each; next[sx]: the next row to transform. The
   * rows fit 16 bits but are kept in 32: with PoCL the conversions each
   * way (vpmovdw, vpmovsxwd) cost more than the memory they save, on Zen
   * 4 and on a Xeon with AVX-512 (6% slower). The P sums below, with pmaddwd, are 16-bit
   * pairs that need none (dct_p_row). */
  dctv rows[8][16][8];
  int next[8];
  /* P[sx][y & 15][u]: the P sums of row y for the passes at sx;
   * done[sx]: the next row of them to go through the inverse rows, when
   * every pass at sx has reached it: below 8 b + 8 - sy_max[sx] after block
   * row b; last[sx]: the last pass at sx */
  dct_p_row P[8][16];
  int done[8], sy_max[8], last[8];

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
      zero_p_row (&P[sx][y]);
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
      dct_columns (rows[sx], y0, t, tc, tr, l2_max, P[sx]);
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
