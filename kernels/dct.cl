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
 * dct_pass: eight work-items per 8x8 block of the grid that starts at
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

/* y[u] = sum_n C[u][n] x[n], exactly: the same integer sums as the matrix
 * product, reassociated through the basis' symmetries (C[u][7 - n] =
 * (-1)^u C[u][n], and again within the even half), 22 multiplies instead
 * of 64. No rounding happens inside, so the result is the product's. */
static inline void
fdct8 (const int *x, int *y)
{
  const int e0 = x[0] + x[7], e1 = x[1] + x[6], e2 = x[2] + x[5],
      e3 = x[3] + x[4];
  const int o0 = x[0] - x[7], o1 = x[1] - x[6], o2 = x[2] - x[5],
      o3 = x[3] - x[4];
  const int ee0 = e0 + e3, ee1 = e1 + e2, eo0 = e0 - e3, eo1 = e1 - e2;

  y[0] = 1448 * (ee0 + ee1);
  y[4] = 1448 * (ee0 - ee1);
  y[2] = 1892 * eo0 + 784 * eo1;
  y[6] = 784 * eo0 - 1892 * eo1;
  y[1] = 2009 * o0 + 1703 * o1 + 1138 * o2 + 400 * o3;
  y[3] = 1703 * o0 - 400 * o1 - 2009 * o2 - 1138 * o3;
  y[5] = 1138 * o0 - 2009 * o1 + 400 * o2 + 1703 * o3;
  y[7] = 400 * o0 - 1138 * o1 + 1703 * o2 - 2009 * o3;
}

/* y[n] = sum_u C[u][n] X[u], exactly, the same way. */
static inline void
idct8 (const int *X, int *y)
{
  const int a0 = 1448 * (X[0] + X[4]), a1 = 1448 * (X[0] - X[4]);
  const int b0 = 1892 * X[2] + 784 * X[6], b1 = 784 * X[2] - 1892 * X[6];
  const int e0 = a0 + b0, e3 = a0 - b0, e1 = a1 + b1, e2 = a1 - b1;
  const int o0 = 2009 * X[1] + 1703 * X[3] + 1138 * X[5] + 400 * X[7];
  const int o1 = 1703 * X[1] - 400 * X[3] - 2009 * X[5] - 1138 * X[7];
  const int o2 = 1138 * X[1] - 2009 * X[3] + 400 * X[5] + 1703 * X[7];
  const int o3 = 400 * X[1] - 1138 * X[3] + 1703 * X[5] - 2009 * X[7];

  y[0] = e0 + o0;
  y[7] = e0 - o0;
  y[1] = e1 + o1;
  y[6] = e1 - o1;
  y[2] = e2 + o2;
  y[5] = e2 - o2;
  y[3] = e3 + o3;
  y[4] = e3 - o3;
}

/* Blocks per work-group of dct_pass; the work-group is 8 work-items a block
 * (DCT_WG = 8 * DCT_BLOCKS along dimension 0, 1 along dimension 1). */
#define DCT_BLOCKS 8
#define DCT_WG (8 * DCT_BLOCKS)

/* Each work-item holds one row of its block for the row transforms and one
 * column for the column transforms, the block passing through local memory
 * in between: every work-item does the same 8-point transforms on 8 values
 * of its own, which a CPU device vectorizes across work-items. */
__kernel __attribute__ ((reqd_work_group_size (DCT_WG, 1, 1)))
void
dct_pass (__global const uchar * src, uint src_offset, int src_pitch,
    __global int *acc, __global uchar * dst, uint dst_offset, int dst_pitch,
    int width, int height, int sx, int sy, int threshold, int mode,
    int passes_log2)
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
    __global const uchar *row = src + edge_clamp (y0 + i, height) * src_pitch;
    _Pragma ("unroll") for (int n = 0; n < 8; n++)
      v8[n] = (int) row[edge_clamp (x0 + n, width)] - 128;
    fdct8 (v8, s);
    _Pragma ("unroll") for (int u = 0; u < 8; u++)
      t[i][u] = (s[u] + 512) >> 10;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  /* forward, columns: column u = i, thresholded */
  _Pragma ("unroll") for (int m = 0; m < 8; m++)
    v8[m] = t[m][i];
  fdct8 (v8, s);
  _Pragma ("unroll") for (int v = 0; v < 8; v++) {
    const int x = (s[v] + 2048) >> 12;
    t[v][i] = (v + i == 0 || (int) abs (x) >= threshold) ? x : 0;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  /* inverse, rows: row v = i */
  _Pragma ("unroll") for (int u = 0; u < 8; u++)
    v8[u] = t[i][u];
  idct8 (v8, s);
  _Pragma ("unroll") for (int n = 0; n < 8; n++)
    t[i][n] = (s[n] + 2048) >> 12;
  barrier (CLK_LOCAL_MEM_FENCE);
  /* inverse, columns: column n = i, into the samples (x0 + i, y0 + m) */
  _Pragma ("unroll") for (int v = 0; v < 8; v++)
    v8[v] = t[v][i];
  idct8 (v8, s);
  const int x = x0 + i;
  if (x < 0 || x >= width || x0 >= width)
    return;
  _Pragma ("unroll") for (int m = 0; m < 8; m++) {
    const int y = y0 + m;
    if (y < 0 || y >= height)
      continue;
    int r = (s[m] + 2048) >> 12;
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
