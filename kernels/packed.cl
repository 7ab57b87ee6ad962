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
 * itself at 2x + component, and a chroma byte. Bytes; one work-item a
 * byte of the result. */

/* The @width x @height luma samples of the packed plane src (from byte
 * @component of each pair) into the plane dst. */
__kernel void
luma_unpack (PLANE_PARAMS, int component)
{
  const int x = get_global_id (0), y = get_global_id (1);

  if (x >= width || y >= height)
    return;
  dst[dst_offset + y * dst_pitch + x] =
      src[src_offset + y * src_pitch + 2 * x + component];
}

/* The first @span bytes of each of @height rows of a packed plane into dst:
 * luma bytes of the @width samples from the plane luma, every other byte
 * (chroma, and the padding luma of an odd width's last pair) from src as
 * it is. */
__kernel void
luma_pack (__global const uchar * luma, uint luma_offset, int luma_pitch,
    PLANE_PARAMS, int span, int component)
{
  const int b = get_global_id (0), y = get_global_id (1);

  if (b >= span || y >= height)
    return;
  dst[dst_offset + y * dst_pitch + b] =
      (b & 1) == component && (b >> 1) < width ?
      luma[luma_offset + y * luma_pitch + (b >> 1)] :
      src[src_offset + y * src_pitch + b];
}
