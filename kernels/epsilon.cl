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

/* Epsilon filter (mosquito-noise reduction), on either sample type of
 * common.cl (bytes, or 10-bit values in 16-bit words with -DSAMPLE_BITS=10).
 *
 * Each sample c becomes the rounded mean of the samples p in the
 * (2 * radius + 1)^2 window around it with |p - c| <= threshold:
 * (S + n / 2) / n in integers, n >= 1 since the centre always counts.
 * Edges stay sharp because samples across them differ by more than the
 * threshold; the ringing beside them is averaged away. `threshold` is in
 * sample units (the host scales the property's 8-bit value by 4 for 10-bit
 * samples).
 *
 * Variants compute the same numbers; the host times them per device and
 * keeps the fastest:
 *  - plain:  one sample per work-item, radius at run time, the reference
 *            shape every other variant is checked against;
 *  - tiled:  a work-group loads its window of the plane into local memory
 *            once (edges clamped there), then every work-item reads its
 *            neighbours from the tile (bytes only);
 *  - vector: each work-item makes FILTER_VW adjacent samples with vector
 *            arithmetic from one row segment per window row;
 *  - wide:   the same with EPS_WW samples in 16-bit lanes (for CPUs; bytes
 *            only).
 * tiled, vector and wide are built with RADIUS known, so the window loops
 * unroll. Where a variant is bytes only, the host runs plain on words
 * (gstclstage.c). FILTER_VW and FILTER_STRIP come from filters-shared.h,
 * prepended by the host.
 *
 * Every variant has a kernel for planes of one component per sample (luma,
 * or a chroma plane of a planar format), NAME_planar, and one for two
 * interleaved components (NV12/NV21/P010 chroma) filtered separately,
 * NAME_interleaved, where `width` counts sample pairs. All take the
 * arguments of EPSILON_PARAMS (the tiled ones a local tile after them).
 *
 * Branch-free accumulation: a taken sample adds (p | EPS_ONE), so one add
 * keeps both the sum (the low EPS_SUM_BITS bits: at most 225 samples, less
 * than 2^8, so at most 225 * 255 = 57375 < 2^16 for bytes, 225 * 1023 =
 * 230175 < 2^18 for 10-bit values) and the count (the bits above: 225 << 18
 * < 2^32), and "taken" is a mask from a comparison. |p - c| <= t is tested
 * as one unsigned comparison, (p - (c - t)) <= 2t, which wraps to a huge
 * value for p < c - t: a subtraction and a compare per tap. */

#define EPS_SUM_BITS (SAMPLE_BITS + 8)
#define EPS_ONE (1u << EPS_SUM_BITS)
#define EPS_SUM (EPS_ONE - 1u)

#define EPSILON_PARAMS                                                        \
  PLANE_PARAMS, int radius, uint threshold, uint shift
#define EPSILON_ARGS                                                          \
  src, src_offset, src_pitch, dst, dst_offset, dst_pitch, width, height,      \
  radius, threshold, shift

/* NAME_planar and NAME_interleaved, running FN (EPSILON_ARGS, xstep). */
#define EPSILON_KERNELS(NAME, FN)                                             \
  __kernel void NAME##_planar (EPSILON_PARAMS)                                \
  {                                                                           \
    FN (EPSILON_ARGS, 1);                                                     \
  }                                                                           \
  __kernel void NAME##_interleaved (EPSILON_PARAMS)                           \
  {                                                                           \
    FN (EPSILON_ARGS, 2);                                                     \
  }

/* Sample @i of a row of @width positions of @xstep interleaved components,
 * clamped to the samples of its own component. */
static inline int
eps_clamp_index (int i, int width, int xstep)
{
  const int comp = i & (xstep - 1);
  return edge_clamp ((i - comp) / xstep, width) * xstep + comp;
}

static inline void
epsilon_plain (EPSILON_PARAMS, const int xstep)
{
  const int gx = get_global_id (0);
  __global const sample *s = (__global const sample *) (src + src_offset);
  __global sample *d = (__global sample *) (dst + dst_offset);
  const int sp = src_pitch / SAMPLE_BYTES, dp = dst_pitch / SAMPLE_BYTES;
  const int y = get_global_id (1);
  if (gx >= width * xstep || y >= height)
    return;
  const int comp = gx % xstep;
  const int x = gx / xstep;
  const uint c = SAMPLE_VALUE (s[y * sp + gx], shift);
  uint sum = 0, n = 0;
  for (int dy = -radius; dy <= radius; dy++) {
    __global const sample *row = s + edge_clamp (y + dy, height) * sp + comp;
    for (int dx = -radius; dx <= radius; dx++) {
      const uint p = SAMPLE_VALUE (row[edge_clamp (x + dx, width) * xstep],
          shift);
      const uint take = abs_diff (p, c) <= threshold;
      sum += take ? p : 0;
      n += take;
    }
  }
  d[y * dp + gx] = SAMPLE_WORD ((sum + n / 2) / n, shift);
}

EPSILON_KERNELS (epsilon, epsilon_plain)

#ifdef RADIUS

#if SAMPLE_BITS == 8

/* The tile is (local width + 2 * RADIUS * XSTEP) bytes of (local height +
 * 2 * RADIUS) rows, as packed samples; `tile` is sized by the host. Every
 * work-item helps load it, so none returns before the barrier. */
static inline void
epsilon_tiled (EPSILON_PARAMS, __local uint * tile, const int xstep)
{
  src += src_offset;
  dst += dst_offset;
  const int lw = get_local_size (0), lh = get_local_size (1);
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int x0 = get_group_id (0) * lw - RADIUS * xstep;
  const int y0 = get_group_id (1) * lh - RADIUS;
  const int tw = lw + 2 * RADIUS * xstep, th = lh + 2 * RADIUS;

  for (int ty = ly; ty < th; ty += lh) {
    __global const uchar *row = src + edge_clamp (y0 + ty, height) * src_pitch;
    for (int tx = lx; tx < tw; tx += lw)
      tile[ty * tw + tx] = row[eps_clamp_index (x0 + tx, width, xstep)]
          | EPS_ONE;
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  const int gx = get_global_id (0), y = get_global_id (1);
  if (gx >= width * xstep || y >= height)
    return;
  __local const uint *centre = tile + (ly + RADIUS) * tw + lx + RADIUS * xstep;
  const uint lo = *centre - threshold, span = 2 * threshold;
  uint acc = 0;
  for (int dy = -RADIUS; dy <= RADIUS; dy++) {
    __local const uint *row = centre + dy * tw;
    for (int dx = -RADIUS; dx <= RADIUS; dx++) {
      const uint q = row[dx * xstep];
      acc += (q - lo) <= span ? q : 0;
    }
  }
  const uint n = acc >> EPS_SUM_BITS, sum = acc & EPS_SUM;
  dst[y * dst_pitch + gx] = (uchar) ((sum + n / 2) / n);
}

__kernel void
epsilon_tiled_planar (EPSILON_PARAMS, __local uint * tile)
{
  epsilon_tiled (EPSILON_ARGS, tile, 1);
}

__kernel void
epsilon_tiled_interleaved (EPSILON_PARAMS, __local uint * tile)
{
  epsilon_tiled (EPSILON_ARGS, tile, 2);
}

#endif /* SAMPLE_BITS == 8 */

/* FILTER_VW adjacent samples of one row per work-item. Each window row is
 * read once as a segment of FILTER_VW + 2 * RADIUS * xstep packed samples (with
 * vector loads away from the plane's left and right edges), then every tap
 * is one vector compare, and and add over the FILTER_VW outputs. */
static inline void
epsilon_vector (EPSILON_PARAMS, const int xstep)
{
  __global const sample *s = (__global const sample *) (src + src_offset);
  __global sample *d = (__global sample *) (dst + dst_offset);
  const int sp = src_pitch / SAMPLE_BYTES, dp = dst_pitch / SAMPLE_BYTES;
  const int row_items = width * xstep;
  const int gx = get_global_id (0) * FILTER_VW, y = get_global_id (1);
  if (gx >= row_items || y >= height)
    return;
  const int left = gx - RADIUS * xstep;
  const int seg = FILTER_VW + 2 * RADIUS * xstep;
  const bool inside = left >= 0 && left + seg <= row_items;
  const uint8 span = (uint8) (2 * threshold);
  __global const sample *crow = s + y * sp;
  uint w[FILTER_VW + 2 * RADIUS * 2];   /* one window row, packed */
  uint8 c, acc = 0;

  /* Near the right edge, gx + FILTER_VW - 1 may be past the row: clamp. */
  if (gx + FILTER_VW <= row_items) {
    c = convert_uint8 (SAMPLE_VALUE8 (vload8 (0, crow + gx), shift))
        | EPS_ONE;
  } else {
    for (int i = 0; i < FILTER_VW; i++)
      w[i] = SAMPLE_VALUE (crow[eps_clamp_index (gx + i, width, xstep)],
          shift) | EPS_ONE;
    c = vload8 (0, w);
  }
  const uint8 lo = c - threshold;

  for (int dy = -RADIUS; dy <= RADIUS; dy++) {
    __global const sample *row = s + edge_clamp (y + dy, height) * sp;
    if (inside) {
      int i = 0;
      for (; i + 8 <= seg; i += 8)
        vstore8 (convert_uint8 (SAMPLE_VALUE8 (vload8 (0, row + left + i),
                    shift)) | EPS_ONE, 0, w + i);
      for (; i < seg; i++)
        w[i] = SAMPLE_VALUE (row[left + i], shift) | EPS_ONE;
    } else {
      for (int i = 0; i < seg; i++)
        w[i] = SAMPLE_VALUE (row[eps_clamp_index (left + i, width, xstep)],
            shift) | EPS_ONE;
    }
    for (int dx = 0; dx <= 2 * RADIUS; dx++) {
      const uint8 q = vload8 (0, w + dx * xstep);
      acc += q & as_uint8 (q - lo <= span);
    }
  }

  const uint8 n = acc >> EPS_SUM_BITS, sum = acc & EPS_SUM;
  const sample8 out = SAMPLE_WORD8 ((sum + n / 2) / n, shift);
  __global sample *drow = d + y * dp;
  if (gx + FILTER_VW <= row_items) {
    vstore8 (out, 0, drow + gx);
  } else {
    sample o[FILTER_VW];
    vstore8 (out, 0, o);
    for (int i = 0; gx + i < row_items; i++)
      drow[gx + i] = o[i];
  }
}

EPSILON_KERNELS (epsilon_vector, epsilon_vector)

#if SAMPLE_BITS == 8

/* A strip of FILTER_STRIP bytes of one row per work-item, EPS_WW samples at a
 * time in 16-bit lanes: CPUs' SIMD units hold twice as many 16-bit lanes as
 * 32-bit ones, and a long strip gives PoCL few work-items, each a loop of
 * vector code. Away from the plane's left and right edges (the interior,
 * nearly every vector of a row) each tap is a vector load straight from the
 * source row with no clamp; vectors near an edge take a separate path that
 * gathers their clamped segment first.
 *
 * Per tap: q + (t - c) <= 2t in wrapping 16-bit lanes is |q - c| <= t (a
 * q below c - t wraps past 2t, since 2t < 2^16 - 255), then the sum and the
 * count of the taken samples grow by select()s, which CPUs do as masked
 * adds. The sum of at most 225 taken bytes fits 16 bits. The mean is taken
 * in float: (S + n/2) / n is below 2^16 over n <= 225, so its quotient is at
 * least 1/225 away from the next integer, far more than a float division's
 * error, and truncation gives the integer quotient (no integer division,
 * which no CPU has in SIMD). */
#define EPS_WW 16

static inline uchar16
eps_wide_mean (ushort16 sum, ushort16 n)
{
  const float16 a = convert_float16 (sum + (n >> (ushort) 1));
  return convert_uchar16 (a / convert_float16 (n));
}

/* One tap: q joins the mean if |q - c| <= t, k = t - c. Written as selects
 * of the updated values, which AVX-512 does as one masked add each. */
#define EPS_WIDE_TAP(q, k, sum, n)                                           \
  do {                                                                        \
    const ushort16 q_ = (q);                                                  \
    const ushort16 take_ = as_ushort16 (q_ + (k) <= span);                    \
    sum += q_ & take_;                                                        \
    n -= take_;                                                               \
  } while (0)

static inline void
epsilon_wide (EPSILON_PARAMS, const int xstep)
{
  src += src_offset;
  dst += dst_offset;
  const int row_bytes = width * xstep;
  const int x_begin = get_global_id (0) * FILTER_STRIP, y = get_global_id (1);
  if (x_begin >= row_bytes || y >= height)
    return;
  const int x_end = min (x_begin + FILTER_STRIP, row_bytes);
  const int reach = RADIUS * xstep;
  __global const uchar *rows[2 * RADIUS + 1];
  for (int dy = -RADIUS; dy <= RADIUS; dy++)
    rows[dy + RADIUS] = src + edge_clamp (y + dy, height) * src_pitch;
  __global const uchar *crow = rows[RADIUS];
  __global uchar *drow = dst + y * dst_pitch;
  const ushort16 span = (ushort16) (2 * threshold);

  for (int x = x_begin; x < x_end;) {
    if (x >= reach && x + 2 * EPS_WW + reach <= row_bytes
        && x + 2 * EPS_WW <= x_end) {
      /* Interior, two vectors at once: two independent chains of adds. */
      const ushort16 k0 = (ushort) threshold -
          convert_ushort16 (vload16 (0, crow + x));
      const ushort16 k1 = (ushort) threshold -
          convert_ushort16 (vload16 (0, crow + x + EPS_WW));
      ushort16 sum0 = 0, n0 = 0, sum1 = 0, n1 = 0;
      for (int dy = 0; dy <= 2 * RADIUS; dy++) {
        __global const uchar *row = rows[dy] + x - reach;
        for (int dx = 0; dx <= 2 * RADIUS; dx++) {
          EPS_WIDE_TAP (convert_ushort16 (vload16 (0, row + dx * xstep)), k0,
              sum0, n0);
          EPS_WIDE_TAP (convert_ushort16 (vload16 (0, row + EPS_WW +
                      dx * xstep)), k1, sum1, n1);
        }
      }
      store_uchar16 (eps_wide_mean (sum0, n0), drow + x);
      store_uchar16 (eps_wide_mean (sum1, n1), drow + x + EPS_WW);
      x += 2 * EPS_WW;
    } else if (x >= reach && x + EPS_WW + reach <= row_bytes) {
      /* Interior, one vector. */
      const ushort16 k = (ushort) threshold -
          convert_ushort16 (vload16 (0, crow + x));
      ushort16 sum = 0, n = 0;
      for (int dy = 0; dy <= 2 * RADIUS; dy++) {
        __global const uchar *row = rows[dy] + x - reach;
        for (int dx = 0; dx <= 2 * RADIUS; dx++)
          EPS_WIDE_TAP (convert_ushort16 (vload16 (0, row + dx * xstep)), k,
              sum, n);
      }
      store_uchar16_upto (drow, x, x_end, eps_wide_mean (sum, n));
      x += EPS_WW;
    } else {
      /* Near an edge, or the row's last vector: each window row's segment
       * with clamped coordinates, then the same taps from it. */
      ushort seg[EPS_WW + 2 * RADIUS * 2];
      ushort16 sum = 0, n = 0;
      for (int i = 0; i < EPS_WW; i++)
        seg[i] = crow[eps_clamp_index (x + i, width, xstep)];
      const ushort16 k = (ushort) threshold - vload16 (0, seg);
      for (int dy = 0; dy <= 2 * RADIUS; dy++) {
        for (int i = 0; i < EPS_WW + 2 * reach; i++)
          seg[i] = rows[dy][eps_clamp_index (x - reach + i, width, xstep)];
        for (int dx = 0; dx <= 2 * RADIUS; dx++)
          EPS_WIDE_TAP (vload16 (0, seg + dx * xstep), k, sum, n);
      }
      store_uchar16_upto (drow, x, x_end, eps_wide_mean (sum, n));
      x += EPS_WW;
    }
  }
}

EPSILON_KERNELS (epsilon_wide, epsilon_wide)

#endif /* SAMPLE_BITS == 8 */

#endif /* RADIUS */
