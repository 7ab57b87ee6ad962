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

/* Convolution of a 10-bit plane in 16-bit little-endian words (see
 * epsilon16.cl for the layout: v = (word >> shift) & 1023, written back as
 * v << shift).
 *
 * out = clamp (floor (sum (k * v) / divisor + bias + 0.5), 0, 1023): the
 * formula of convolve.cl with the 10-bit range. Sums in float are exact for
 * integer coefficients while 1023 * sum (|k|) < 2^24.
 *
 * Variants: plain, vector and separable (no tiled: the host runs plain
 * where tiled is asked for). */

#define CONV16_VW 8
#define CONV16_MAX_SIDE 15
#define CONV16_VALUE 0x3ffu

static inline ushort
conv16_output (float acc, float divisor, float bias, uint shift)
{
  const float v = floor (acc / divisor + bias + 0.5f);
  /* The host keeps divisors away from 0; NaN must still not reach a cast. */
  return isnan (v) ? 0 : (ushort) ((uint) clamp (v, 0.0f, 1023.0f) << shift);
}

static inline float
conv16_value (ushort word, uint shift)
{
  return (float) ((word >> shift) & CONV16_VALUE);
}

__kernel void
convolve16 (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, __constant float * coeffs, int kw, int kh, float divisor,
    float bias, uint shift)
{
  const int x = get_global_id (0);
  const int y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  __global const ushort *s = (__global const ushort *) (src + src_offset);
  __global ushort *d = (__global ushort *) (dst + dst_offset);
  const int sp = src_pitch / 2;

  float acc = 0.0f;
  for (int r = 0; r < kh; r++) {
    __global const ushort *row = s + edge_clamp (y + r - kh / 2, height) * sp;
    for (int c = 0; c < kw; c++)
      acc += coeffs[r * kw + c] *
          conv16_value (row[edge_clamp (x + c - kw / 2, width)], shift);
  }
  d[y * (dst_pitch / 2) + x] = conv16_output (acc, divisor, bias, shift);
}

/* CONV16_VW adjacent samples per work-item, as convolve_vector in
 * convolve.cl: the sums are taken tap by tap in the plain variant's order. */
__kernel void
convolve16_vector (__global const uchar * src, uint src_offset,
    int src_pitch, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, __constant float * coeffs, int kw, int kh,
    float divisor, float bias, uint shift)
{
  const int x = get_global_id (0) * CONV16_VW, y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  __global const ushort *s = (__global const ushort *) (src + src_offset);
  __global ushort *d = (__global ushort *) (dst + dst_offset);
  const int sp = src_pitch / 2;
  const int left = x - kw / 2, seg = CONV16_VW + kw - 1;
  const bool inside = left >= 0 && left + seg <= width;
  const uint8 sh = (uint8) shift;
  float w[CONV16_VW + CONV16_MAX_SIDE - 1];
  float8 acc = 0.0f;

  for (int r = 0; r < kh; r++) {
    __global const ushort *row = s + edge_clamp (y + r - kh / 2, height) * sp;
    if (inside) {
      int i = 0;
      for (; i + 8 <= seg; i += 8)
        vstore8 (convert_float8 ((convert_uint8 (vload8 (0, row + left + i))
                    >> sh) & CONV16_VALUE), 0, w + i);
      for (; i < seg; i++)
        w[i] = conv16_value (row[left + i], shift);
    } else {
      for (int i = 0; i < seg; i++)
        w[i] = conv16_value (row[edge_clamp (left + i, width)], shift);
    }
    for (int c = 0; c < kw; c++)
      acc += coeffs[r * kw + c] * vload8 (0, w + c);
  }

  float o[CONV16_VW];
  vstore8 (acc, 0, o);
  __global ushort *drow = d + y * (dst_pitch / 2);
  for (int i = 0; i < CONV16_VW && x + i < width; i++)
    drow[x + i] = conv16_output (o[i], divisor, bias, shift);
}

/* Separable, first pass: the row factor over each row, into a float plane
 * of `width` floats per row. */
__kernel void
convolve16_rows (__global const uchar * src, uint src_offset, int src_pitch,
    __global float * tmp, int width, int height, __constant float * factor,
    int kw, uint shift)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  __global const ushort *row = (__global const ushort *) (src + src_offset)
      + y * (src_pitch / 2);
  float acc = 0.0f;
  for (int c = 0; c < kw; c++)
    acc += factor[c] * conv16_value (row[edge_clamp (x + c - kw / 2, width)],
        shift);
  tmp[y * width + x] = acc;
}

/* Separable, second pass: the column factor over the row sums. */
__kernel void
convolve16_columns (__global const float * tmp, __global uchar * dst,
    uint dst_offset, int dst_pitch, int width, int height,
    __constant float * factor, int kh, float divisor, float bias, uint shift)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  float acc = 0.0f;
  for (int r = 0; r < kh; r++)
    acc += factor[r] * tmp[edge_clamp (y + r - kh / 2, height) * width + x];
  __global ushort *d = (__global ushort *) (dst + dst_offset);
  d[y * (dst_pitch / 2) + x] = conv16_output (acc, divisor, bias, shift);
}
