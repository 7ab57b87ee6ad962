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

/* Packed 4:2:2 luma (YUY2: Y U Y V, UYVY: U Y V Y) to and from a plane of
 * luma alone, so that every stage runs on it as on I420's luma
 * (gst/gstclpacked.c). A luma sample x owns bytes 2x and 2x + 1 of its row:
 * itself at 2x + component, and a chroma byte. Bytes; a work-item takes a
 * run of PACKED_RUN (filters-shared.h) luma samples, with vectors where the
 * run is whole, one by one at a row's end. */

/* The @width x @height luma samples of the packed plane src (from byte
 * @component of each pair) into the plane dst. */
__kernel void
luma_unpack (PLANE_PARAMS, int component)
{
  const int x0 = get_global_id (0) * PACKED_RUN, y = get_global_id (1);

  if (x0 >= width || y >= height)
    return;
  __global const uchar *s = src + src_offset + y * src_pitch + 2 * x0;
  __global uchar *d = dst + dst_offset + y * dst_pitch + x0;

  if (x0 + PACKED_RUN <= width) {
    const uchar16 a = vload16 (0, s), b = vload16 (1, s);

    vstore16 (component ? (uchar16) (a.odd, b.odd) :
        (uchar16) (a.even, b.even), 0, d);
    return;
  }
  for (int i = 0; x0 + i < width; i++)
    d[i] = s[2 * i + component];
}

/* The first @span bytes of each of @height rows of a packed plane into dst:
 * luma bytes of the @width samples from the plane luma, every other byte
 * (chroma, and the padding luma of an odd width's last pair) from src as
 * it is. */
__kernel void
luma_pack (__global const uchar * luma, uint luma_offset, int luma_pitch,
    PLANE_PARAMS, int span, int component)
{
  const int b0 = get_global_id (0) * 2 * PACKED_RUN, y = get_global_id (1);

  if (b0 >= span || y >= height)
    return;
  __global const uchar *l = luma + luma_offset + y * luma_pitch + b0 / 2;
  __global const uchar *s = src + src_offset + y * src_pitch + b0;
  __global uchar *d = dst + dst_offset + y * dst_pitch + b0;

  if (b0 + 2 * PACKED_RUN <= 2 * width) {
    /* each luma sample twice, then the chroma byte of each pair from the
     * source (select takes its second argument where the lane's top bit
     * is set): constant swizzles and a select, where shuffle2 took PoCL
     * about 23 ms a 1080p frame against 3 */
    const uchar16 v = vload16 (0, l);
    const uchar16 lanes = component ?
        (uchar16) (0, 128, 0, 128, 0, 128, 0, 128, 0, 128, 0, 128, 0, 128, 0,
        128) :
        (uchar16) (128, 0, 128, 0, 128, 0, 128, 0, 128, 0, 128, 0, 128, 0, 128,
        0);

    vstore16 (select (vload16 (0, s), v.s0011223344556677, lanes), 0, d);
    vstore16 (select (vload16 (1, s), v.s8899aabbccddeeff, lanes), 1, d);
    return;
  }
  for (int i = 0; i < 2 * PACKED_RUN && b0 + i < span; i++)
    d[i] = (i & 1) == component && (b0 + i) / 2 < width ? l[i / 2] : s[i];
}
