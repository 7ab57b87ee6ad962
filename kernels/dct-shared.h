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

/* The shifted-DCT stage's sizes that the host and the kernels must agree
 * on, defined once: gst/gstcldct.c includes this file, and the DCT
 * programs are built with it prepended to their sources (kernels/dct.cl).
 * Plain #defines, valid C and OpenCL C. */

#ifndef __GST_CL_DCT_SHARED_H__
#define __GST_CL_DCT_SHARED_H__

/* Bins per coefficient of the estimate's histogram, and coefficients per
 * histogram: hist[k * DCT_BINS + |X|] (kernels/dct.cl). */
#define DCT_BINS 1024
#define DCT_HIST_COEFFS 3

/* dct_strips (kernels/dct-strips.cl): blocks side by side in the lanes of
 * a work-item's vectors; the columns a strip owns (its DCT_LANES blocks of
 * any pass cover them); the margin of dct_pad's padded copy on every
 * side. */
#define DCT_LANES 16
#define DCT_STRIP (8 * DCT_LANES - 8)
#define DCT_PAD 8

/* dct_tile (kernels/dct-tiles.cl): the output samples of a work-group,
 * DCT_TILE x DCT_TILE (a multiple of 8), and its work-items, a block
 * each at a time, along dimension 0. The program is built with the large
 * sizes where the device takes them (gst/gstcldct.c: fewer blocks
 * transformed twice, for tiles a fifth faster on an H200's 1080p luma),
 * else with the small ones, which every GPU does. */
#define DCT_TILE_SMALL 32
#define DCT_WG_SMALL 64
#define DCT_TILE_LARGE 64
#define DCT_WG_LARGE 256
#ifndef DCT_TILE
#define DCT_TILE DCT_TILE_SMALL
#define DCT_WG DCT_WG_SMALL
#endif

/* The bit of the threshold word the stage kernels read that says the
 * stage works on each field of an interlaced frame alone (the decision's:
 * est_stage_word(), kernels/dct-estimate.h); each launch of a stage
 * kernel is for the frame or for one field, and does nothing where the
 * word asks for the other shape. Thresholds stay far below it. */
#define DCT_STAGE_FIELDS 0x80000000u

/* Work-items of a dct_histogram work-group (kernels/dct-tiles.cl). */
#define DCT_HIST_WG 64

/* Work-items of dct_decide's one work-group (kernels/dct-estimate.cl). */
#define DCT_DECIDE_WG 256

#endif /* __GST_CL_DCT_SHARED_H__ */
