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

/* Epsilon filter on 10-bit samples in 16-bit little-endian words
 * (P010_10LE, I420_10LE): the formula of epsilon.cl on the values
 * v = (word >> shift) & 1023, written back as v << shift, so that the bits
 * around the 10-bit value are zero on output (P010 keeps its value in the
 * high bits, shift 6; I420_10LE in the low bits, shift 0). `threshold` is in
 * 10-bit units: the host scales the property's 8-bit value by 4.
 *
 * Offsets and pitches are in bytes, and even (the host copies a plane that
 * is not 2-byte aligned into a device buffer first).
 *
 * Packing: a taken sample adds (v | 1 << 18). The sum of at most 225 values
 * of at most 1023, 230175 < 2^18, stays in the low 18 bits and the count,
 * at most 225, in the bits above (225 << 18 < 2^32), so one add still keeps
 * both; the range test is the single unsigned compare of epsilon.cl.
 *
 * Variants: plain and vector. There is no tiled one; the host runs plain
 * where tiled is asked for. */

#define EPS16_ONE 0x40000u
#define EPS16_SUM 0x3ffffu
#define EPS16_VALUE 0x3ffu
#define EPS16_VW 8

#define EPSILON16_PLAIN_BODY(XSTEP)                                           \
  const int gx = get_global_id (0);                                           \
  const int y = get_global_id (1);                                            \
  if (gx >= width * XSTEP || y >= height)                                     \
    return;                                                                   \
  __global const ushort *s = (__global const ushort *) (src + src_offset);    \
  __global ushort *d = (__global ushort *) (dst + dst_offset);                \
  const int sp = src_pitch / 2, dp = dst_pitch / 2;                           \
  const int comp = gx % XSTEP;                                                \
  const int x = gx / XSTEP;                                                   \
  const uint c = (s[y * sp + gx] >> shift) & EPS16_VALUE;                     \
  uint sum = 0, n = 0;                                                        \
  for (int dy = -radius; dy <= radius; dy++) {                                \
    __global const ushort *row = s + edge_clamp (y + dy, height) * sp + comp; \
    for (int dx = -radius; dx <= radius; dx++) {                              \
      const uint p = (row[edge_clamp (x + dx, width) * XSTEP] >> shift)       \
          & EPS16_VALUE;                                                      \
      const uint take = abs_diff (p, c) <= threshold;                         \
      sum += take ? p : 0;                                                    \
      n += take;                                                              \
    }                                                                         \
  }                                                                           \
  d[y * dp + gx] = (ushort) (((sum + n / 2) / n) << shift);

__kernel void
epsilon16_planar (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, int radius, uint threshold, uint shift)
{
  EPSILON16_PLAIN_BODY (1)
}

/* P010 chroma: `width` counts U, V pairs. */
__kernel void
epsilon16_interleaved (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold, uint shift)
{
  EPSILON16_PLAIN_BODY (2)
}

#ifdef RADIUS

/* Sample @i of a row of @width positions of @xstep interleaved components,
 * clamped to the samples of its own component. */
static inline int
eps16_clamp_index (int i, int width, int xstep)
{
  const int comp = i & (xstep - 1);
  return edge_clamp ((i - comp) / xstep, width) * xstep + comp;
}

/* EPS16_VW adjacent samples of one row per work-item, as epsilon_vector in
 * epsilon.cl, on 16-bit words. */
static inline void
epsilon16_vector (__global const ushort * src, int src_pitch,
    __global ushort * dst, int dst_pitch, int width, int height,
    uint threshold, uint shift, const int xstep)
{
  const int row_items = width * xstep;
  const int gx = get_global_id (0) * EPS16_VW, y = get_global_id (1);
  if (gx >= row_items || y >= height)
    return;
  const int left = gx - RADIUS * xstep;
  const int seg = EPS16_VW + 2 * RADIUS * xstep;
  const bool inside = left >= 0 && left + seg <= row_items;
  const uint8 span = (uint8) (2 * threshold);
  const uint8 sh = (uint8) shift;
  __global const ushort *crow = src + y * src_pitch;
  uint w[EPS16_VW + 2 * RADIUS * 2];    /* one window row, packed */
  uint8 c, acc = 0;

  if (gx + EPS16_VW <= row_items) {
    c = ((convert_uint8 (vload8 (0, crow + gx)) >> sh) & EPS16_VALUE)
        | EPS16_ONE;
  } else {
    for (int i = 0; i < EPS16_VW; i++)
      w[i] = ((crow[eps16_clamp_index (gx + i, width, xstep)] >> shift)
          & EPS16_VALUE) | EPS16_ONE;
    c = vload8 (0, w);
  }
  const uint8 lo = c - threshold;

  for (int dy = -RADIUS; dy <= RADIUS; dy++) {
    __global const ushort *row = src + edge_clamp (y + dy, height) * src_pitch;
    if (inside) {
      int i = 0;
      for (; i + 8 <= seg; i += 8)
        vstore8 (((convert_uint8 (vload8 (0, row + left + i)) >> sh)
                & EPS16_VALUE) | EPS16_ONE, 0, w + i);
      for (; i < seg; i++)
        w[i] = ((row[left + i] >> shift) & EPS16_VALUE) | EPS16_ONE;
    } else {
      for (int i = 0; i < seg; i++)
        w[i] = ((row[eps16_clamp_index (left + i, width, xstep)] >> shift)
            & EPS16_VALUE) | EPS16_ONE;
    }
    for (int dx = 0; dx <= 2 * RADIUS; dx++) {
      const uint8 q = vload8 (0, w + dx * xstep);
      acc += q & as_uint8 (q - lo <= span);
    }
  }

  const uint8 n = acc >> 18, sum = acc & EPS16_SUM;
  const ushort8 out = convert_ushort8 (((sum + n / 2) / n) << sh);
  __global ushort *drow = dst + y * dst_pitch;
  if (gx + EPS16_VW <= row_items) {
    vstore8 (out, 0, drow + gx);
  } else {
    ushort o[EPS16_VW];
    vstore8 (out, 0, o);
    for (int i = 0; gx + i < row_items; i++)
      drow[gx + i] = o[i];
  }
}

__kernel void
epsilon16_vector_planar (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold, uint shift)
{
  epsilon16_vector ((__global const ushort *) (src + src_offset),
      src_pitch / 2, (__global ushort *) (dst + dst_offset), dst_pitch / 2,
      width, height, threshold, shift, 1);
}

__kernel void
epsilon16_vector_interleaved (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int radius, uint threshold, uint shift)
{
  epsilon16_vector ((__global const ushort *) (src + src_offset),
      src_pitch / 2, (__global ushort *) (dst + dst_offset), dst_pitch / 2,
      width, height, threshold, shift, 2);
}

#endif /* RADIUS */
