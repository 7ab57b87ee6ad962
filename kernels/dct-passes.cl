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

/* The shifted-DCT stage and the estimate's histogram in the shape for GPUs
 * and other devices that want many small work-items (dct.cl's vectors are
 * single ints here; dct-shared.h has the sizes): dct_pass runs one pass a
 * launch, eight work-items a block, the sums in a buffer of the plane's size
 * (the host's mode argument: 0 the first pass writes them, 1 adds, 2 the last
 * adds and writes the output, 3 a single pass writes it).
 *
 * dct_histogram: the blocks taken by the work-items in turn. A work-group
 * counts in local memory and adds its bins to hist at the end: the bins
 * near 0, which nearly every block hits, then take one global add per
 * work-group instead of one per block (on 16 PoCL cores those shared
 * atomics cost as much as the whole stage). CPUs get dct_histogram_strips
 * instead (dct-strips.cl). */

/* Each work-item holds one row of its block for the row transforms and one
 * column for the column transforms, the block passing through local memory
 * in between: every work-item does the same 8-point transforms on 8 values
 * of its own, which a CPU device vectorizes across work-items. */
__kernel __attribute__ ((reqd_work_group_size (DCT_WG, 1, 1)))
void
dct_pass (__global const uchar * src, uint src_offset, int src_pitch,
    __global int *acc, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int sx, int sy, int threshold, int mode,
    int passes_log2, int shift)
{
  __local int tile[DCT_BLOCKS][8][8];
  const int lid = get_local_id (0);
  const int k = lid / 8, i = lid % 8;
  const int x0 = ((int) get_group_id (0) * DCT_BLOCKS + k) * 8 - sx;
  const int y0 = (int) get_global_id (1) * 8 - sy;
  __local int (*t)[8] = tile[k];
  int v8[8], s[8];

  src += src_offset;
  dst += dst_offset;
  /* forward, rows: row i of the block (edges replicated) */
  {
    __global const sample *row = (__global const sample *) (src +
        edge_clamp (y0 + i, height) * src_pitch);
    _Pragma ("unroll") for (int n = 0; n < 8; n++)
      v8[n] = (int) SAMPLE_VALUE (row[edge_clamp (x0 + n, width)], shift) -
          DCT_MID;
    fdct8 (v8, s);
    _Pragma ("unroll") for (int u = 0; u < 8; u++)
      t[i][u] = (s[u] + DCT_ROW_ROUND) >> DCT_ROW_SHIFT;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  /* forward, columns: column u = i, thresholded; inverse, columns: P[m][i] */
  _Pragma ("unroll") for (int m = 0; m < 8; m++)
    v8[m] = t[m][i];
  fdct8 (v8, s);
  _Pragma ("unroll") for (int v = 0; v < 8; v++) {
    const int x = (s[v] + 2048) >> 12;
    v8[v] = (v + i == 0 || (int) abs (x) >= threshold) ? x : 0;
  }
  idct8 (v8, s, 2048);
  /* (a work-item reads and writes only its own column here, and only its
   * own row below) */
  _Pragma ("unroll") for (int m = 0; m < 8; m++)
    t[m][i] = s[m] >> 12;
  barrier (CLK_LOCAL_MEM_FENCE);
  /* inverse, rows: row m = i */
  _Pragma ("unroll") for (int u = 0; u < 8; u++)
    v8[u] = t[i][u];
  idct8 (v8, s, 0);
  _Pragma ("unroll") for (int n = 0; n < 8; n++)
    t[i][n] = s[n];
  barrier (CLK_LOCAL_MEM_FENCE);
  /* column n = i of r, into the samples (x0 + i, y0 + m) */
  const int x = x0 + i;
  if (x < 0 || x >= width || x0 >= width)
    return;
  _Pragma ("unroll") for (int m = 0; m < 8; m++) {
    const int y = y0 + m;
    if (y < 0 || y >= height)
      continue;
    int r = t[m][i];
    __global int *a = acc + y * width + x;
    if (mode == 0) {
      *a = r;
    } else if (mode == 1) {
      *a += r;
    } else {
      if (mode == 2)
        r += *a;
      r = (r + DCT_OUT_BIAS (passes_log2)) >> DCT_OUT_SHIFT (passes_log2);
      ((__global sample *) (dst + y * dst_pitch))[x] =
          SAMPLE_WORD (clamp (r, 0, (int) SAMPLE_MAX), shift);
    }
  }
}

__kernel __attribute__ ((reqd_work_group_size (DCT_HIST_WG, 1, 1)))
void
dct_histogram (__global const uchar * src, uint src_offset, int src_pitch,
    int width, int height, __global uint * hist, int shift)
{
  __local uint counts[DCT_HIST_COEFFS * DCT_BINS];
  const int lid = get_local_id (0), blocks_x = width / 8;
  const int blocks = blocks_x * (height / 8);

  for (int i = lid; i < DCT_HIST_COEFFS * DCT_BINS; i += DCT_HIST_WG)
    counts[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int b = get_global_id (0); b < blocks; b += get_global_size (0)) {
    __global const uchar *p = src + src_offset + (b / blocks_x) * 8 *
        src_pitch;
    int r0[8], r1[8];

    for (int m = 0; m < 8; m++) {
      __global const sample *row = (__global const sample *) (p +
          m * src_pitch) + (b % blocks_x) * 8;
      int s0 = 0, s1 = 0;
      for (int n = 0; n < 8; n++) {
        const int x = (int) SAMPLE_VALUE (row[n], shift) - DCT_MID;
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
    x10 = min ((int) abs ((x10 + 2048) >> 12), DCT_BINS - 1);
    x01 = min ((int) abs ((x01 + 2048) >> 12), DCT_BINS - 1);
    x11 = min ((int) abs ((x11 + 2048) >> 12), DCT_BINS - 1);
    atomic_inc (counts + x10);
    atomic_inc (counts + DCT_BINS + x01);
    atomic_inc (counts + 2 * DCT_BINS + x11);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < DCT_HIST_COEFFS * DCT_BINS; i += DCT_HIST_WG)
    if (counts[i])
      atomic_add (hist + i, counts[i]);
}
