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

/* Pictures for the suites of the DCT stage and of its estimate
 * (libs/cldct, libs/cldctestimate): planes like decoded pictures, and
 * tiles that drive the stage's integers to their extremes. */

#ifndef __CLEPSILON_DCT_PICTURE_H__
#define __CLEPSILON_DCT_PICTURE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Noise amplitudes of dct_fill_values() other than a ramp's noise: random
 * values; tiles of extreme coefficients; flat tiles with one edge row. */
#define NOISE_RANDOM -1
#define NOISE_EXTREME -2
#define NOISE_ONE_ROW -3

/* A plane like a decoded picture: a smooth ramp, an edge, and noise of
 * amplitude @noise; plain random values for NOISE_RANDOM; for
 * NOISE_EXTREME, 8x8 tiles each showing the sign of a DCT basis function
 * of its own (the largest coefficients and sums a plane can give); for
 * NOISE_ONE_ROW, flat 8x8 tiles with one edge row that step a coefficient
 * across every threshold. Values of @bits bits, @stride values a row: the
 * 8-bit picture's times 2^(@bits - 8), with its noise and random values
 * drawn at @bits bits (the same draws for 8). */
void dct_fill_values (GRand * rand, gint * p, gint stride, gint w, gint h,
    gint noise, gint bits);

/* The 8-bit plane of dct_fill_values(), @stride bytes a row. */
void dct_fill_plane (GRand * rand, guint8 * p, gint stride, gint w, gint h,
    gint noise);

/* An 8-bit plane of 8x8 blocks (those wholly inside @w x @h; the rest is
 * left as it is), @stride bytes a row, whose low-frequency coefficients
 * are multiples of @step (quarter levels), rounded to 8 bits as a decoder
 * does: a random DC, the others -2..2 steps. */
void dct_fill_quantized (GRand * rand, guint8 * p, gint stride, gint w,
    gint h, gint step);

/* The same with H.263's reconstruction levels for quantizer @qp (H.263,
 * MPEG-4 Part 2's default quantization): 0 or +-(2 qp |L| + ((qp - 1) |
 * 1)) 8-bit levels, |L| 1 or 2. */
void dct_fill_h263 (GRand * rand, guint8 * p, gint stride, gint w, gint h,
    gint qp);

G_END_DECLS

#endif /* __CLEPSILON_DCT_PICTURE_H__ */
