/* Shifted-DCT thresholding and the coding-noise estimate (issue 15).
 *
 * Both work on one 8-bit plane of one component (xstep 1) and use the same
 * integer 8x8 DCT, so that every device computes the same numbers as the CPU
 * reference (tests/check/reference.c, ref_dct_*) and the numpy model
 * (tools/quality/dctmodel.py):
 *   x = sample - 128;
 *   rows:    R[m][u] = (sum_n C[u][n] x[m][n] + 512) >> 10
 *   columns: X[v][u] = (sum_m C[v][m] R[m][u] + 2048) >> 12
 * with C the orthonormal DCT-II basis times 4096, rounded: X is the
 * orthonormal coefficient in quarter levels. The inverse:
 *   Q[v][n] = (sum_u C[u][n] X[v][u] + 2048) >> 12
 *   r[m][n] = (sum_v C[v][m] Q[v][n] + 2048) >> 12   (quarter levels)
 * Every sum fits in 32 bits; >> of a negative int is arithmetic.
 *
 * dct_pass: one work-item per 8x8 block of the grid that starts at
 * (-sx, -sy) (samples outside the plane replicate its edge); AC
 * coefficients with |X| < threshold become 0, the DC term stays; the
 * block's inverse is added into `acc` (one int per sample, `width` per
 * row). The passes of one frame run in order, each at its own (sx, sy):
 * mode 0 writes acc, 1 adds to it, 2 adds and writes the output sample
 *   clamp ((acc + r + 514 * passes) >> (2 + log2 (passes)), 0, 255),
 * 3 (a single pass) writes the output from r alone.
 * Within one pass no two blocks touch the same sample, so no atomics.
 *
 * dct_histogram: one work-item per block of the plane's own 8x8 grid that
 * lies wholly inside it; counts |X| (clamped to DCT_BINS - 1) of the three
 * coefficients (u, v) = (1, 0), (0, 1), (1, 1) into hist[k * DCT_BINS + |X|]
 * (k in that order). Only what those need of the transform is computed. */

#define DCT_BINS 1024

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

__kernel void
dct_pass (__global const uchar * src, uint src_offset, int src_pitch,
    __global int *acc, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int sx, int sy, int threshold, int mode,
    int passes_log2)
{
  const int x0 = (int) get_global_id (0) * 8 - sx;
  const int y0 = (int) get_global_id (1) * 8 - sy;
  int b[8][8], t[8][8];

  if (x0 >= width || y0 >= height)
    return;
  src += src_offset;
  dst += dst_offset;
  _Pragma ("unroll") for (int m = 0; m < 8; m++) {
    __global const uchar *row = src + edge_clamp (y0 + m, height) * src_pitch;
    _Pragma ("unroll") for (int n = 0; n < 8; n++)
      b[m][n] = (int) row[edge_clamp (x0 + n, width)] - 128;
  }
  /* forward: rows into t[m][u], columns back into b[v][u] */
  _Pragma ("unroll") for (int m = 0; m < 8; m++)
    _Pragma ("unroll") for (int u = 0; u < 8; u++) {
      int s = 0;
      _Pragma ("unroll") for (int n = 0; n < 8; n++)
        s += dct_c[u][n] * b[m][n];
      t[m][u] = (s + 512) >> 10;
    }
  _Pragma ("unroll") for (int v = 0; v < 8; v++)
    _Pragma ("unroll") for (int u = 0; u < 8; u++) {
      int s = 0;
      _Pragma ("unroll") for (int m = 0; m < 8; m++)
        s += dct_c[v][m] * t[m][u];
      s = (s + 2048) >> 12;
      b[v][u] = (v + u == 0 || (int) abs (s) >= threshold) ? s : 0;
    }
  /* inverse: rows into t[v][n], columns back into b[m][n] */
  _Pragma ("unroll") for (int v = 0; v < 8; v++)
    _Pragma ("unroll") for (int n = 0; n < 8; n++) {
      int s = 0;
      _Pragma ("unroll") for (int u = 0; u < 8; u++)
        s += dct_c[u][n] * b[v][u];
      t[v][n] = (s + 2048) >> 12;
    }
  _Pragma ("unroll") for (int m = 0; m < 8; m++) {
    const int y = y0 + m;
    if (y < 0 || y >= height)
      continue;
    _Pragma ("unroll") for (int n = 0; n < 8; n++) {
      const int x = x0 + n;
      if (x < 0 || x >= width)
        continue;
      int s = 0;
      _Pragma ("unroll") for (int v = 0; v < 8; v++)
        s += dct_c[v][m] * t[v][n];
      int r = (s + 2048) >> 12;
      __global int *a = acc + y * width + x;
      if (mode == 0) {
        *a = r;
      } else if (mode == 1) {
        *a += r;
      } else {
        if (mode == 2)
          r += *a;
        r = (r + (514 << passes_log2)) >> (2 + passes_log2);
        dst[y * dst_pitch + x] = (uchar) clamp (r, 0, 255);
      }
    }
  }
}

__kernel void
dct_histogram (__global const uchar * src, uint src_offset, int src_pitch,
    int width, int height, __global uint * hist)
{
  const int bx = get_global_id (0), by = get_global_id (1);
  int r0[8], r1[8];

  if (bx >= width / 8 || by >= height / 8)
    return;
  src += src_offset + by * 8 * src_pitch + bx * 8;
  for (int m = 0; m < 8; m++) {
    int s0 = 0, s1 = 0;
    for (int n = 0; n < 8; n++) {
      const int x = (int) src[m * src_pitch + n] - 128;
      s0 += dct_c[0][n] * x;
      s1 += dct_c[1][n] * x;
    }
    r0[m] = (s0 + 512) >> 10;
    r1[m] = (s1 + 512) >> 10;
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
  atomic_inc (hist + x10);
  atomic_inc (hist + DCT_BINS + x01);
  atomic_inc (hist + 2 * DCT_BINS + x11);
}
