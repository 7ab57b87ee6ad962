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
 * single ints here; dct-shared.h has the sizes).
 *
 * dct_tile: a work-group per DCT_TILE x DCT_TILE samples of the output,
 * every pass in one launch. The group copies the samples its blocks read
 * (the tile and DCT_PAD around it, edges replicated) into local memory
 * once; each work-item then transforms whole blocks of the passes that
 * cover the tile, in its registers, and adds their inverses into the
 * tile's sums in local memory; the output is written once. A plane is
 * read once and written once, where a launch a pass through a buffer of
 * sums moved about 18 bytes a sample a pass through global memory and kept
 * a GPU that several streams share busy; and no work-item waits for
 * another between the copy and the output, where eight work-items a block
 * passing it between them through local memory, with a barrier at each
 * step, took two and a half times as long. A block that straddles
 * two tiles is transformed by both (about 1.5 times a plane's blocks at 16
 * passes), each adding the samples inside its own tile; its samples, and
 * so its inverse, are the same in both.
 *
 * dct_histogram: the blocks taken by the work-items in turn. A work-group
 * counts in local memory and adds its bins to hist at the end: the bins
 * near 0, which nearly every block hits, then take one global add per
 * work-group instead of one per block (on 16 PoCL cores those shared
 * atomics cost as much as the whole stage). CPUs get dct_histogram_strips
 * instead (dct-strips.cl). */

/* The samples a tile's blocks read: the tile and DCT_PAD on every side (a
 * pass's blocks over a tile start at most 7 samples before it and end at
 * most 7 after it). */
#define DCT_TILE_IN (DCT_TILE + 2 * DCT_PAD)

/* The inverse r[m][n] of the block whose samples are at @x0, @y0 of @in
 * (the tile's local copy), thresholded at @threshold: dct.cl's formulas,
 * the whole block in the work-item's registers. */
static inline void
block_inverse (__local const short (*in)[DCT_TILE_IN], int x0, int y0,
    int threshold, int (*b)[8])
{
  int v[8], s[8];

  _Pragma ("unroll") for (int m = 0; m < 8; m++) {
    _Pragma ("unroll") for (int n = 0; n < 8; n++)
      v[n] = in[y0 + m][x0 + n];
    fdct8 (v, s);
    _Pragma ("unroll") for (int u = 0; u < 8; u++)
      b[m][u] = (s[u] + DCT_ROW_ROUND) >> DCT_ROW_SHIFT;
  }
  _Pragma ("unroll") for (int u = 0; u < 8; u++) {
    _Pragma ("unroll") for (int m = 0; m < 8; m++)
      v[m] = b[m][u];
    fdct8 (v, s);
    _Pragma ("unroll") for (int w = 0; w < 8; w++) {
      const int x = (s[w] + 2048) >> 12;
      v[w] = (w + u == 0 || (int) abs (x) >= threshold) ? x : 0;
    }
    idct8 (v, s, 2048);
    _Pragma ("unroll") for (int m = 0; m < 8; m++)
      b[m][u] = s[m] >> 12;
  }
  _Pragma ("unroll") for (int m = 0; m < 8; m++) {
    _Pragma ("unroll") for (int u = 0; u < 8; u++)
      v[u] = b[m][u];
    idct8 (v, s, 0);
    _Pragma ("unroll") for (int n = 0; n < 8; n++)
      b[m][n] = s[n];
  }
}

/* The stage (dct.cl) on the tile of work-group (g0, g1): pass p's offsets
 * are bits 4p..4p+3 of @sxs and @sys, @passes of them; a component's
 * samples lie @xstep apart in a row (2: one component of NV12's chroma,
 * read and written in place, the other's bytes left alone). Dimension 1
 * holds the tile rows of each component in turn: component c's samples
 * start @component_step bytes after component c - 1's, and its threshold
 * is threshold_at[c] (NV12's U and V in one launch). At a threshold of 0
 * the tile is copied as it is (dct_copy's words), so that the stage
 * needs no second launch for it. Block g of the
 * tile's is block g / passes of pass g % passes: the passes interleaved,
 * the work-items of a SIMD group read and add at different offsets of the
 * copy and the sums (blocks of one pass lie 8 apart: the same banks of
 * local memory). Blocks of different passes overlap, hence the atomic
 * adds. */
__kernel __attribute__ ((reqd_work_group_size (DCT_WG, 1, 1)))
void
dct_tile (__global const uchar * src, uint src_offset, int src_pitch,
    __global uchar * dst, uint dst_offset, int dst_pitch, int width,
    int height, ulong sxs, ulong sys, int passes,
    __global const uint * threshold_at, int passes_log2, int shift, int xstep,
    int component_step, int fields)
{
  __local short in[DCT_TILE_IN][DCT_TILE_IN];
  __local int acc[DCT_TILE][DCT_TILE];
  const int lid = get_local_id (0);
  const int tiles_y = (height + DCT_TILE - 1) / DCT_TILE;
  const int c = (int) get_group_id (1) / tiles_y;
  const int tx = (int) get_group_id (0) * DCT_TILE;
  const int ty = (int) get_group_id (1) % tiles_y * DCT_TILE;
  /* the blocks of a pass over the tile, from the one holding its first
   * sample to the one holding its last (tx and ty are multiples of 8): at
   * most `across` a row and a column, one less at an offset of 0 */
  const int across = DCT_TILE / 8 + 1;
  const uint word = threshold_at[c];
  const int threshold = (int) min (word & ~DCT_STAGE_FIELDS, (uint) INT_MAX);

  /* a launch for the other shape (dct-shared.h); the whole work-group
   * returns, before any barrier */
  if ((word & DCT_STAGE_FIELDS) != (fields ? DCT_STAGE_FIELDS : 0))
    return;
  src += src_offset + c * component_step;
  dst += dst_offset + c * component_step;
  if (threshold == 0) {
    /* the whole work-group returns, before any barrier */
    for (int p = lid; p < DCT_TILE * DCT_TILE; p += DCT_WG) {
      const int x = tx + p % DCT_TILE, y = ty + p / DCT_TILE;

      if (x < width && y < height) {
        __global const sample *s =
            (__global const sample *) (src + y * src_pitch);

        ((__global sample *) (dst + y * dst_pitch))[x * xstep] = s[x * xstep];
      }
    }
    return;
  }
  for (int p = lid; p < DCT_TILE_IN * DCT_TILE_IN; p += DCT_WG) {
    const int y = edge_clamp (ty - DCT_PAD + p / DCT_TILE_IN, height);
    const int x = edge_clamp (tx - DCT_PAD + p % DCT_TILE_IN, width);
    const sample w =
        ((__global const sample *) (src + y * src_pitch))[x * xstep];

    in[p / DCT_TILE_IN][p % DCT_TILE_IN] =
        (short) ((int) SAMPLE_VALUE (w, shift) - DCT_MID);
  }
  for (int p = lid; p < DCT_TILE * DCT_TILE; p += DCT_WG)
    acc[p / DCT_TILE][p % DCT_TILE] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int g = lid; g < passes * across * across; g += DCT_WG) {
    const int p = g % passes, b = g / passes;
    const int sx = (int) (sxs >> (4 * p)) & 15;
    const int sy = (int) (sys >> (4 * p)) & 15;
    const int n_bx = (DCT_TILE - 1 + sx) / 8 + 1;
    const int n_by = (DCT_TILE - 1 + sy) / 8 + 1;
    const int bx = b % across, by = b / across;
    int r[8][8];

    if (bx >= n_bx || by >= n_by)
      continue;
    block_inverse (in, DCT_PAD + bx * 8 - sx, DCT_PAD + by * 8 - sy,
        threshold, r);
    _Pragma ("unroll") for (int m = 0; m < 8; m++) {
      const int y = by * 8 - sy + m;
      if (y < 0 || y >= DCT_TILE)
        continue;
      _Pragma ("unroll") for (int n = 0; n < 8; n++) {
        const int x = bx * 8 - sx + n;
        if (x >= 0 && x < DCT_TILE)
          atomic_add (&acc[y][x], r[m][n]);
      }
    }
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int p = lid; p < DCT_TILE * DCT_TILE; p += DCT_WG) {
    const int x = tx + p % DCT_TILE, y = ty + p / DCT_TILE;
    const int r = (acc[p / DCT_TILE][p % DCT_TILE] +
        DCT_OUT_BIAS (passes_log2)) >> DCT_OUT_SHIFT (passes_log2);

    if (x < width && y < height)
      ((__global sample *) (dst + y * dst_pitch))[x * xstep] =
          SAMPLE_WORD (clamp (r, 0, (int) SAMPLE_MAX), shift);
  }
}

/* The histogram of each component: dimension 1 is the component c, whose
 * samples start @component_step bytes after those of c - 1 and whose
 * counts go to the c-th histogram of @hist (dct_tile's layout). */
__kernel __attribute__ ((reqd_work_group_size (DCT_HIST_WG, 1, 1)))
void
dct_histogram (__global const uchar * src, uint src_offset, int src_pitch,
    int width, int height, __global uint * hist, int shift, int xstep,
    int component_step)
{
  __local uint counts[DCT_HIST_COEFFS * DCT_BINS];
  const int blocks_x = width / 8;
  const int blocks = blocks_x * (height / 8);
  const int c = get_global_id (1);

  src += src_offset + c * component_step;       /* component c's */
  hist += c * DCT_HIST_COEFFS * DCT_BINS;
  counts_clear (counts);
  for (int b = get_global_id (0); b < blocks; b += get_global_size (0)) {
    int bins[DCT_HIST_COEFFS];

    block_bins (src + (b / blocks_x) * 8 * src_pitch +
        (b % blocks_x) * 8 * xstep * (int) sizeof (sample), src_pitch, xstep,
        shift, bins);
    for (int k = 0; k < DCT_HIST_COEFFS; k++)
      atomic_inc (counts + k * DCT_BINS + bins[k]);
  }
  counts_add (counts, hist);
}
