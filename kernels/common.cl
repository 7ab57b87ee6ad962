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

/* Helpers shared by every filter; prepended to each filter's source.
 *
 * A plane starts `offset` bytes into its buffer and has `pitch` bytes per row,
 * so that kernels work in place on whole video frames. A plane holds one
 * component (xstep 1) or two interleaved ones (xstep 2, NV12's UV); a work-item
 * handles one sample and only ever looks at samples of its own component.
 * Coordinates outside the plane are clamped to its edge (replicate border). */

static inline int
edge_clamp (int v, int size)
{
  return clamp (v, 0, size - 1);
}

/* 16 bytes stored at any alignment in one vector store. PoCL 3.1 stores a
 * vstore16 of bytes byte by byte (16 extracts and 16 stores, a third of a
 * 3x3 epsilon filter's time); a packed struct tells the compiler the
 * alignment is 1 and lets it use an unaligned vector store. */
typedef struct __attribute__ ((packed))
{
  uchar16 v;
} unaligned_uchar16;

typedef struct __attribute__ ((packed))
{
  uchar8 v;
} unaligned_uchar8;

static inline void
store_uchar16 (uchar16 v, __global uchar * p)
{
  ((__global unaligned_uchar16 *) p)->v = v;
}

/* 8 bytes, the same way. */
static inline void
store_uchar8 (uchar8 v, __global uchar * p)
{
  ((__global unaligned_uchar8 *) p)->v = v;
}

/* The 16 bytes at p, any alignment, in one vector load (as above). */
static inline uchar16
load_uchar16 (__global const uchar * p)
{
  return ((__global const unaligned_uchar16 *) p)->v;
}

/* The 16 bytes of @v at @row + @x, but none at or past @end: a row's last
 * vector may be partial. */
static inline void
store_uchar16_upto (__global uchar * row, int x, int end, uchar16 v)
{
  if (x + 16 <= end) {
    store_uchar16 (v, row + x);
    return;
  }
  /* a DCT strip's last vector has 8 (dct_strips), in every row */
  if (x + 8 <= end) {
    store_uchar8 (v.lo, row + x);
    x += 8;
    v = (uchar16) (v.hi, v.hi);
  }
  if (x < end) {
    uchar o[16];

    vstore16 (v, 0, o);
    for (int i = 0; x + i < end; i++)
      row[x + i] = o[i];
  }
}
