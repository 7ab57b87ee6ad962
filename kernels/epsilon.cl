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

/* Epsilon filter (mosquito-noise reduction).
 *
 * Each sample c becomes the rounded mean of the samples p in the
 * (2 * radius + 1)^2 window around it with |p - c| <= threshold:
 * (S + n / 2) / n in integers, n >= 1 since the centre always counts.
 * Edges stay sharp because samples across them differ by more than the
 * threshold; the ringing beside them is averaged away.
 *
 * Three variants compute the same numbers; the host times them per device
 * and keeps the fastest:
 *  - plain:  one sample per work-item, radius at run time, the reference
 *            shape every other variant is checked against;
 *  - tiled:  a work-group loads its window of the plane into local memory
 *            once (edges clamped there), then every work-item reads its
 *            neighbours from the tile;
 *  - vector: each work-item makes EPS_VW adjacent samples with vector
 *            arithmetic from one row segment per window row;
 *  - wide:   the same with EPS_WW samples in 16-bit lanes (for CPUs).
 * tiled, vector and wide are built with RADIUS known, so the window loops unroll.
 *
 * Branch-free accumulation: a taken sample adds (p | 1 << 16), so one add
 * keeps both the sum (low 16 bits: at most 225 * 255 = 57375) and the count
 * (high bits), and "taken" is a mask from a comparison. |p - c| <= t is
 * tested as one unsigned comparison, (p - (c - t)) <= 2t, which wraps to a
 * huge value for p < c - t: a subtraction and a compare per tap. */

#define EPS_ONE 0x10000u
#define EPS_VW 8

static inline uchar
eps_mean (uint acc)
{
  const uint n = acc >> 16, sum = acc & 0xffffu;
  return (uchar) ((sum + n / 2) / n);
}

/* Byte @bx of a row of @width samples of @xstep interleaved components,
 * clamped to the samples of its own component. */
static inline int
eps_clamp_byte (int bx, int width, int xstep)
{
  const int comp = bx & (xstep - 1);
  return edge_clamp ((bx - comp) / xstep, width) * xstep + comp;
}

#define EPSILON_PLAIN_BODY(XSTEP)                                             \
  const int gx = get_global_id (0);                                           \
  src += src_offset;                                                          \
  dst += dst_offset;                                                          \
  const int y = get_global_id (1);                                            \
  if (gx >= width * XSTEP || y >= height)                                     \
    return;                                                                   \
  const int comp = gx % XSTEP;                                                \
  const int x = gx / XSTEP;                                                   \
  const uint c = src[y * src_pitch + gx];                                     \
  uint sum = 0, n = 0;                                                        \
  for (int dy = -radius; dy <= radius; dy++) {                                \
    __global const uchar *row = src + edge_clamp (y + dy, height) * src_pitch \
        + comp;                                                               \
    for (int dx = -radius; dx <= radius; dx++) {                              \
      const uint p = row[edge_clamp (x + dx, width) * XSTEP];                 \
      const uint take = abs_diff (p, c) <= threshold;                         \
      sum += take ? p : 0;                                                    \
      n += take;                                                              \
    }                                                                         \
  }                                                                           \
  dst[y * dst_pitch + gx] = (uchar) ((sum + n / 2) / n);

/* One component per sample: luma, or a chroma plane of a planar format. */
__kernel void
epsilon_planar (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, int radius, uint threshold)
{
  EPSILON_PLAIN_BODY (1)
}

/* Two interleaved components (NV12/NV21 chroma), filtered separately:
 * `width` counts sample pairs. */
__kernel void
epsilon_interleaved (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, int radius, uint threshold)
{
  EPSILON_PLAIN_BODY (2)
}

#ifdef RADIUS

/* The tile is (local width + 2 * RADIUS * XSTEP) bytes of (local height +
 * 2 * RADIUS) rows, as packed samples; `tile` is sized by the host. Every
 * work-item helps load it, so none returns before the barrier. */
static inline void
epsilon_tiled (__global const uchar * src, int src_pitch, __global uchar * dst,
    int dst_pitch, int width, int height, uint threshold, __local uint * tile,
    const int xstep)
{
  const int lw = get_local_size (0), lh = get_local_size (1);
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int x0 = get_group_id (0) * lw - RADIUS * xstep;
  const int y0 = get_group_id (1) * lh - RADIUS;
  const int tw = lw + 2 * RADIUS * xstep, th = lh + 2 * RADIUS;

  for (int ty = ly; ty < th; ty += lh) {
    __global const uchar *row = src + edge_clamp (y0 + ty, height) * src_pitch;
    for (int tx = lx; tx < tw; tx += lw)
      tile[ty * tw + tx] = row[eps_clamp_byte (x0 + tx, width, xstep)] | EPS_ONE;
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
  dst[y * dst_pitch + gx] = eps_mean (acc);
}

__kernel void
epsilon_tiled_planar (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold, __local uint * tile)
{
  epsilon_tiled (src + src_offset, src_pitch, dst + dst_offset, dst_pitch,
      width, height, threshold, tile, 1);
}

__kernel void
epsilon_tiled_interleaved (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold, __local uint * tile)
{
  epsilon_tiled (src + src_offset, src_pitch, dst + dst_offset, dst_pitch,
      width, height, threshold, tile, 2);
}

/* EPS_VW adjacent bytes of one row per work-item. Each window row is read
 * once as a segment of EPS_VW + 2 * RADIUS * xstep packed samples (with
 * vector loads away from the plane's left and right edges), then every tap
 * is one vector compare, and and add over the EPS_VW outputs. */
static inline void
epsilon_vector (__global const uchar * src, int src_pitch, __global uchar * dst,
    int dst_pitch, int width, int height, uint threshold, const int xstep)
{
  const int row_bytes = width * xstep;
  const int gx = get_global_id (0) * EPS_VW, y = get_global_id (1);
  if (gx >= row_bytes || y >= height)
    return;
  const int left = gx - RADIUS * xstep;
  const int seg = EPS_VW + 2 * RADIUS * xstep;
  const bool inside = left >= 0 && left + seg <= row_bytes;
  const uint8 span = (uint8) (2 * threshold);
  __global const uchar *crow = src + y * src_pitch;
  uint w[EPS_VW + 2 * RADIUS * 2];      /* one window row, packed */
  uint8 c, acc = 0;

  /* Near the right edge, gx + EPS_VW - 1 may be past the row: clamp. */
  if (gx + EPS_VW <= row_bytes) {
    c = convert_uint8 (vload8 (0, crow + gx)) | EPS_ONE;
  } else {
    for (int i = 0; i < EPS_VW; i++)
      w[i] = crow[eps_clamp_byte (gx + i, width, xstep)] | EPS_ONE;
    c = vload8 (0, w);
  }
  const uint8 lo = c - threshold;

  for (int dy = -RADIUS; dy <= RADIUS; dy++) {
    __global const uchar *row = src + edge_clamp (y + dy, height) * src_pitch;
    if (inside) {
      int i = 0;
      for (; i + 8 <= seg; i += 8)
        vstore8 (convert_uint8 (vload8 (0, row + left + i)) | EPS_ONE, 0, w + i);
      for (; i < seg; i++)
        w[i] = row[left + i] | EPS_ONE;
    } else {
      for (int i = 0; i < seg; i++)
        w[i] = row[eps_clamp_byte (left + i, width, xstep)] | EPS_ONE;
    }
    for (int dx = 0; dx <= 2 * RADIUS; dx++) {
      const uint8 q = vload8 (0, w + dx * xstep);
      acc += q & as_uint8 (q - lo <= span);
    }
  }

  const uint8 n = acc >> 16, sum = acc & 0xffffu;
  const uchar8 out = convert_uchar8 ((sum + n / 2) / n);
  __global uchar *drow = dst + y * dst_pitch;
  if (gx + EPS_VW <= row_bytes) {
    vstore8 (out, 0, drow + gx);
  } else {
    uchar o[EPS_VW];
    vstore8 (out, 0, o);
    for (int i = 0; gx + i < row_bytes; i++)
      drow[gx + i] = o[i];
  }
}

__kernel void
epsilon_vector_planar (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold)
{
  epsilon_vector (src + src_offset, src_pitch, dst + dst_offset, dst_pitch,
      width, height, threshold, 1);
}

__kernel void
epsilon_vector_interleaved (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold)
{
  epsilon_vector (src + src_offset, src_pitch, dst + dst_offset, dst_pitch,
      width, height, threshold, 2);
}

/* A strip of EPS_STRIP bytes of one row per work-item, EPS_WW samples at a
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
#ifndef EPS_STRIP
#define EPS_STRIP 256
#endif

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
epsilon_wide (__global const uchar * src, int src_pitch, __global uchar * dst,
    int dst_pitch, int width, int height, uint threshold, const int xstep)
{
  const int row_bytes = width * xstep;
  const int x_begin = get_global_id (0) * EPS_STRIP, y = get_global_id (1);
  if (x_begin >= row_bytes || y >= height)
    return;
  const int x_end = min (x_begin + EPS_STRIP, row_bytes);
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
        seg[i] = crow[eps_clamp_byte (x + i, width, xstep)];
      const ushort16 k = (ushort) threshold - vload16 (0, seg);
      for (int dy = 0; dy <= 2 * RADIUS; dy++) {
        for (int i = 0; i < EPS_WW + 2 * reach; i++)
          seg[i] = rows[dy][eps_clamp_byte (x - reach + i, width, xstep)];
        for (int dx = 0; dx <= 2 * RADIUS; dx++)
          EPS_WIDE_TAP (vload16 (0, seg + dx * xstep), k, sum, n);
      }
      store_uchar16_upto (drow, x, x_end, eps_wide_mean (sum, n));
      x += EPS_WW;
    }
  }
}

__kernel void
epsilon_wide_planar (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold)
{
  epsilon_wide (src + src_offset, src_pitch, dst + dst_offset, dst_pitch,
      width, height, threshold, 1);
}

__kernel void
epsilon_wide_interleaved (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold)
{
  epsilon_wide (src + src_offset, src_pitch, dst + dst_offset, dst_pitch,
      width, height, threshold, 2);
}

#endif /* RADIUS */
