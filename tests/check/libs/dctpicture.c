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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "dctpicture.h"

/* 0 or 255 at (x, y) of an 8x8 tile showing the sign of DCT basis function
 * (u, v): the pattern whose coefficient (u, v), and whose sums in the
 * transforms, are the largest a plane of bytes can give. */
static gint
extreme_sample (gint x, gint y, gint u, gint v)
{
  return cos ((2 * (x % 8) + 1) * u * G_PI / 16) *
      cos ((2 * (y % 8) + 1) * v * G_PI / 16) > 0 ? 255 : 0;
}

/* 128 at (x, y) of an 8x8 tile, but on its first or last row (@edge_row)
 * 128 plus or minus @amp, the sign of horizontal frequency @u: the block's
 * column u of row transforms is then one value, the largest share of it
 * goes into its coefficient (u, 1), and the amplitudes step that
 * coefficient across every threshold (dct_strips skips a column from
 * the sum of its rows, which such tiles put right at the bound). */
static gint
one_row_sample (gint x, gint y, gint u, gint amp, gint edge_row)
{
  if (y % 8 != edge_row)
    return 128;
  return cos ((2 * (x % 8) + 1) * u * G_PI / 16) > 0 ? 128 + amp : 128 - amp;
}

void
dct_fill_values (GRand * rand, gint * p, gint stride, gint w, gint h,
    gint noise, gint bits)
{
  const gint up = bits - 8, max = (1 << bits) - 1;
  const gint edge = g_rand_int_range (rand, 0, MAX (w, 1));
  const gint tiles_x = (w + 7) / 8, tiles = tiles_x * ((h + 7) / 8);
  gint *basis = NULL;
  gint x, y;

  if (noise == NOISE_EXTREME || noise == NOISE_ONE_ROW) {
    basis = g_new (gint, tiles);
    for (x = 0; x < tiles; x++)
      basis[x] = g_rand_int_range (rand, 0, 64 * 128);
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      gint v;

      if (basis) {
        const gint b = basis[(y / 8) * tiles_x + x / 8];

        v = noise == NOISE_EXTREME ? extreme_sample (x, y, b % 8,
            b / 8 % 8) * max / 255 : one_row_sample (x, y, 1 + b % 7,
            b / 8 % 32, b & 1024 ? 7 : 0) << up;
      } else if (noise < 0) {
        v = g_rand_int_range (rand, 0, max + 1);
      } else {
        v = ((60 + (x * 40) / MAX (w, 1) + (y * 30) / MAX (h, 1) +
                (x >= edge ? 110 : 0)) << up) +
            g_rand_int_range (rand, -(noise << up), (noise << up) + 1);
      }
      p[y * stride + x] = CLAMP (v, 0, max);
    }
  g_free (basis);
}

void
dct_fill_plane (GRand * rand, guint8 * p, gint stride, gint w, gint h,
    gint noise)
{
  gint *v = g_new (gint, (gsize) w * h);
  gint x, y;

  dct_fill_values (rand, v, w, w, h, noise, 8);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      p[y * stride + x] = v[y * w + x];
  g_free (v);
}

/* 8x8 blocks of @p (@stride bytes a row, those wholly inside @w x @h)
 * whose low-frequency coefficients (u, v < 3, DC apart) are @level (in
 * quarter levels) of a random draw, the DC random: rounded to 8 bits as
 * a decoder does. */
static void
fill_blocks (GRand * rand, guint8 * p, gint stride, gint w, gint h,
    gdouble (*level) (GRand * rand, gint step), gint step)
{
  gint bx, by, m, n, u, v;

  for (by = 0; by + 8 <= h; by += 8)
    for (bx = 0; bx + 8 <= w; bx += 8) {
      gdouble c[8][8] = { {0}
      };
      c[0][0] = g_rand_int_range (rand, -400, 400);
      for (v = 0; v < 3; v++)
        for (u = 0; u < 3; u++)
          if (u + v)
            c[v][u] = level (rand, step) / 4.0;
      for (m = 0; m < 8; m++)
        for (n = 0; n < 8; n++) {
          gdouble s = 128;
          for (v = 0; v < 8; v++)
            for (u = 0; u < 8; u++)
              s += c[v][u] * (v ? 0.5 : sqrt (0.125)) * (u ? 0.5 :
                  sqrt (0.125)) * cos ((2 * m + 1) * v * G_PI / 16) *
                  cos ((2 * n + 1) * u * G_PI / 16);
          p[(by + m) * stride + bx + n] = CLAMP ((gint) floor (s + 0.5), 0,
              255);
        }
    }
}

/* -2..2 steps of @step quarter levels. */
static gdouble
multiple_of (GRand * rand, gint step)
{
  return g_rand_int_range (rand, -2, 3) * step;
}

/* 0, or H.263's reconstruction of level L for quantizer @qp (FFmpeg's
 * dct_unquantize_h263): +-(2 qp |L| + ((qp - 1) | 1)), |L| 1 or 2, in
 * quarter levels. */
static gdouble
h263_level (GRand * rand, gint qp)
{
  const gint l = g_rand_int_range (rand, -2, 3);

  return l == 0 ? 0 : (l > 0 ? 4 : -4) * (2 * qp * ABS (l) + ((qp - 1) | 1));
}

void
dct_fill_quantized (GRand * rand, guint8 * p, gint stride, gint w, gint h,
    gint step)
{
  fill_blocks (rand, p, stride, w, h, multiple_of, step);
}

void
dct_fill_h263 (GRand * rand, guint8 * p, gint stride, gint w, gint h, gint qp)
{
  fill_blocks (rand, p, stride, w, h, h263_level, qp);
}
