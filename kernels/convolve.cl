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

/* Convolution of a plane with a user-given kernel of odd size, on either
 * sample type of common.cl (bytes, or 10-bit values in 16-bit words with
 * -DSAMPLE_BITS=10).
 *
 * out = clamp (floor (sum (k * p) / divisor + bias + 0.5), 0, SAMPLE_MAX),
 * with k[r][c] weighing the sample at (x + c - kw / 2, y + r - kh / 2). The
 * sum is taken in float: exact for integer coefficients while |sum| < 2^24
 * (SAMPLE_MAX * sum (|k|) < 2^24), and the host builds with correctly
 * rounded division where the device offers it, so that exact arithmetic
 * gives exact results.
 *
 * Variants, timed per device by the host like the epsilon filter's:
 *  - plain:     one sample per work-item;
 *  - tiled:     the work-group's window of the plane in local memory (bytes
 *               only);
 *  - vector:    FILTER_VW adjacent samples per work-item, float vectors;
 *  - wide:      a row strip per work-item, 16 samples at a time, in 16-bit
 *               integer lanes where the matrix allows (for CPUs; bytes
 *               only);
 *  - separable: for rank-1 kernels (box, gaussian), a row pass into a float
 *               plane then a column pass: kw + kh taps instead of kw * kh.
 *               With integer factors the sums are the same exact integers.
 * Where a variant is bytes only, the host runs plain on words
 * (gstclstage.c). Every kernel but the separable passes takes the
 * arguments of CONV_PARAMS (tiled a local tile after them). FILTER_VW,
 * FILTER_STRIP and FILTER_MAX_SIDE come from filters-shared.h, prepended by
 * the host. */

#define CONV_PARAMS                                                           \
  PLANE_PARAMS, __constant float * coeffs, int kw, int kh, float divisor,     \
  float bias, uint shift

static inline sample
conv_output (float acc, float divisor, float bias, uint shift)
{
  const float v = floor (acc / divisor + bias + 0.5f);
  /* The host keeps divisors away from 0; NaN must still not reach a cast. */
  return isnan (v) ? 0 :
      SAMPLE_WORDF (clamp (v, 0.0f, (float) SAMPLE_MAX), shift);
}

__kernel void
convolve (CONV_PARAMS)
{
  const int x = get_global_id (0);
  const int y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  __global const sample *s = (__global const sample *) (src + src_offset);
  __global sample *d = (__global sample *) (dst + dst_offset);
  const int sp = src_pitch / SAMPLE_BYTES;

  float acc = 0.0f;
  for (int r = 0; r < kh; r++) {
    __global const sample *row = s + edge_clamp (y + r - kh / 2, height) * sp;
    for (int c = 0; c < kw; c++)
      acc += coeffs[r * kw + c] *
          (float) SAMPLE_VALUE (row[edge_clamp (x + c - kw / 2, width)],
          shift);
  }
  d[y * (dst_pitch / SAMPLE_BYTES) + x] = conv_output (acc, divisor, bias,
      shift);
}

#if SAMPLE_BITS == 8

/* `tile` holds (local width + kw - 1) x (local height + kh - 1) samples,
 * sized by the host; every work-item helps load it. */
__kernel void
convolve_tiled (CONV_PARAMS, __local uchar * tile)
{
  const int lw = get_local_size (0), lh = get_local_size (1);
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int x0 = get_group_id (0) * lw - kw / 2;
  const int y0 = get_group_id (1) * lh - kh / 2;
  const int tw = lw + kw - 1, th = lh + kh - 1;
  src += src_offset;
  dst += dst_offset;

  for (int ty = ly; ty < th; ty += lh) {
    __global const uchar *row = src + edge_clamp (y0 + ty, height) * src_pitch;
    for (int tx = lx; tx < tw; tx += lw)
      tile[ty * tw + tx] = row[edge_clamp (x0 + tx, width)];
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  float acc = 0.0f;
  for (int r = 0; r < kh; r++) {
    __local const uchar *row = tile + (ly + r) * tw + lx;
    for (int c = 0; c < kw; c++)
      acc += coeffs[r * kw + c] * (float) row[c];
  }
  dst[y * dst_pitch + x] = conv_output (acc, divisor, bias, shift);
}

#endif /* SAMPLE_BITS == 8 */

/* FILTER_VW adjacent samples per work-item (float vectors): each kernel
 * row reads one segment of FILTER_VW + kw - 1 samples (vector loads away
 * from the left and right edges), then each coefficient is one vector multiply-add.
 * The sums are taken tap by tap in the same order as the plain variant's. */
__kernel void
convolve_vector (CONV_PARAMS)
{
  const int x = get_global_id (0) * FILTER_VW, y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  __global const sample *s = (__global const sample *) (src + src_offset);
  __global sample *d = (__global sample *) (dst + dst_offset);
  const int sp = src_pitch / SAMPLE_BYTES;
  const int left = x - kw / 2, seg = FILTER_VW + kw - 1;
  const bool inside = left >= 0 && left + seg <= width;
  float w[FILTER_VW + FILTER_MAX_SIDE - 1];
  float8 acc = 0.0f;

  for (int r = 0; r < kh; r++) {
    __global const sample *row = s + edge_clamp (y + r - kh / 2, height) * sp;
    if (inside) {
      int i = 0;
      for (; i + FILTER_VW <= seg; i += FILTER_VW)
        vstore8 (convert_float8 (SAMPLE_VALUE8 (vload8 (0, row + left + i),
                    shift)), 0, w + i);
      for (; i < seg; i++)
        w[i] = SAMPLE_VALUE (row[left + i], shift);
    } else {
      for (int i = 0; i < seg; i++)
        w[i] = SAMPLE_VALUE (row[edge_clamp (left + i, width)], shift);
    }
    for (int c = 0; c < kw; c++)
      acc += coeffs[r * kw + c] * vload8 (0, w + c);
  }

  float o[FILTER_VW];
  vstore8 (acc, 0, o);
  __global sample *drow = d + y * (dst_pitch / SAMPLE_BYTES);
  for (int i = 0; i < FILTER_VW && x + i < width; i++)
    drow[x + i] = conv_output (o[i], divisor, bias, shift);
}

#if SAMPLE_BITS == 8

/* A strip of FILTER_STRIP samples of one row per work-item, 16 at a time,
 * for CPUs: few work-items, each a loop of vector code. Away from the left
 * and right edges each tap loads straight from the source row with no
 * clamp; vectors near an edge gather their clamped segment first. Zero
 * coefficients are skipped (a uniform branch).
 *
 * Integer matrices whose sums span less than 2^16 (sum of |k| * 255 <
 * 65536, as most sharpen, box and binomial matrices) are summed in wrapping
 * 16-bit lanes, twice as many per vector as floats: the true sum lies in
 * [lo, lo + 65535] with lo the most negative sum possible, so lo plus the
 * 16-bit difference from lo is the exact sum, the same integer the float
 * variants get (exact below 2^24); the output step is then theirs. Other
 * matrices take float lanes, tap by tap in the plain variant's order. */
#define CONV_WW 16

static inline uchar16
conv_output16 (float16 acc, float divisor, float bias)
{
  const float16 v = floor (acc / divisor + bias + 0.5f);
  const float16 c = clamp (v, 0.0f, 255.0f);
  return convert_uchar16 (select (c, (float16) 0.0f, isnan (v)));
}

/* The 16 samples from @x - rx of a row, through a clamped segment where
 * @inside is false. */
#define CONV_TAPS(ACC, CONVERT, COEFF)                                        \
  for (int r = 0; r < kh; r++) {                                              \
    __global const uchar *row = src + edge_clamp (y + r - ry, height)         \
        * src_pitch;                                                          \
    if (inside) {                                                             \
      row += x - rx;                                                          \
      for (int c = 0; c < kw; c++) {                                          \
        if (COEFF (r * kw + c) != 0)                                          \
          ACC += COEFF (r * kw + c) * CONVERT (vload16 (0, row + c));         \
      }                                                                       \
    } else {                                                                  \
      for (int i = 0; i < CONV_WW + kw - 1; i++)                              \
        seg[i] = row[edge_clamp (x - rx + i, width)];                         \
      for (int c = 0; c < kw; c++) {                                          \
        if (COEFF (r * kw + c) != 0)                                          \
          ACC += COEFF (r * kw + c) * CONVERT (vload16 (0, seg + c));         \
      }                                                                       \
    }                                                                         \
  }

#define CONV_INT_COEFF(i) ic[i]
#define CONV_FLOAT_COEFF(i) coeffs[i]

__kernel void
convolve_wide (CONV_PARAMS)
{
  const int x_begin = get_global_id (0) * FILTER_STRIP, y = get_global_id (1);
  if (x_begin >= width || y >= height)
    return;
  const int x_end = min (x_begin + FILTER_STRIP, width);
  const int rx = kw / 2, ry = kh / 2;
  src += src_offset;
  __global uchar *drow = dst + dst_offset + y * dst_pitch;
  uchar seg[CONV_WW + FILTER_MAX_SIDE - 1];
  short ic[FILTER_MAX_SIDE * FILTER_MAX_SIDE];
  float pos = 0.0f, neg = 0.0f;
  bool exact = true;

  for (int i = 0; i < kw * kh; i++) {
    const float k = coeffs[i];
    exact = exact && k == rint (k) && fabs (k) < 256.0f;
    pos += k > 0.0f ? k : 0.0f;
    neg -= k < 0.0f ? k : 0.0f;
    ic[i] = exact ? (short) k : 0;
  }
  exact = exact && (pos + neg) * 255.0f < 65536.0f;

  if (exact) {
    const int lo = -(int) neg * 255;
    for (int x = x_begin; x < x_end; x += CONV_WW) {
      const bool inside = x >= rx && x + CONV_WW + rx <= width;
      short16 acc = 0;
      CONV_TAPS (acc, convert_short16, CONV_INT_COEFF);
      const int16 sum = lo + convert_int16 (as_ushort16 (acc - (short) lo));
      store_uchar16_upto (drow, x, x_end, conv_output16 (convert_float16 (sum),
              divisor, bias));
    }
  } else {
    for (int x = x_begin; x < x_end; x += CONV_WW) {
      const bool inside = x >= rx && x + CONV_WW + rx <= width;
      float16 acc = 0.0f;
      CONV_TAPS (acc, convert_float16, CONV_FLOAT_COEFF);
      store_uchar16_upto (drow, x, x_end, conv_output16 (acc, divisor, bias));
    }
  }
}

#endif /* SAMPLE_BITS == 8 */

/* Separable, first pass: the row factor over each row, into a float plane
 * of `width` floats per row. */
__kernel void
convolve_rows (__global const uchar * src, uint src_offset, int src_pitch,
    __global float * tmp, int width, int height, __constant float * factor,
    int kw, uint shift)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  __global const sample *row = (__global const sample *) (src + src_offset)
      + y * (src_pitch / SAMPLE_BYTES);
  float acc = 0.0f;
  for (int c = 0; c < kw; c++)
    acc += factor[c] *
        (float) SAMPLE_VALUE (row[edge_clamp (x + c - kw / 2, width)], shift);
  tmp[y * width + x] = acc;
}

/* Separable, second pass: the column factor over the row sums. */
__kernel void
convolve_columns (__global const float * tmp, __global uchar * dst,
    uint dst_offset, int dst_pitch, int width, int height,
    __constant float * factor, int kh, float divisor, float bias, uint shift)
{
  const int x = get_global_id (0), y = get_global_id (1);
  if (x >= width || y >= height)
    return;
  float acc = 0.0f;
  for (int r = 0; r < kh; r++)
    acc += factor[r] * tmp[edge_clamp (y + r - kh / 2, height) * width + x];
  __global sample *d = (__global sample *) (dst + dst_offset);
  d[y * (dst_pitch / SAMPLE_BYTES) + x] = conv_output (acc, divisor, bias,
      shift);
}
