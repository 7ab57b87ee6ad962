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

/* One component of a plane that interleaves two, to and from a plane of
 * its own, so that every stage runs on it as on I420's luma
 * (gst/gstclpacked.c): packed 4:2:2 luma (YUY2: Y U Y V, UYVY: U Y V Y),
 * and a chroma component of NV12, NV21 or P010 for the DCT stage. Sample x
 * of the component owns samples 2x and 2x + 1 of its row: itself at 2x +
 * component, and a sample of the other component. Written once over
 * common.cl's sample: bytes, or with -DSAMPLE_BITS=10 16-bit words, copied
 * whole (the bits around a 10-bit value too). A work-item takes a run of
 * PACKED_RUN samples of the component, with vectors where the run is
 * whole, one by one at a row's end. */

/* The @width x @height samples of the component at @component (0 or 1) of
 * each pair of the plane src into the plane dst. */
__kernel void
luma_unpack (PLANE_PARAMS, int component)
{
  const int x0 = get_global_id (0) * PACKED_RUN, y = get_global_id (1);

  if (x0 >= width || y >= height)
    return;
  __global const sample *s = (__global const sample *) (src + src_offset +
      y * src_pitch) + 2 * x0;
  __global sample *d = (__global sample *) (dst + dst_offset + y * dst_pitch)
      + x0;

  if (x0 + PACKED_RUN <= width) {
    const sample16 a = vload16 (0, s), b = vload16 (1, s);

    vstore16 (component ? (sample16) (a.odd, b.odd) :
        (sample16) (a.even, b.even), 0, d);
    return;
  }
  for (int i = 0; x0 + i < width; i++)
    d[i] = s[2 * i + component];
}

/* The lanes where select () takes its second argument: the top bit of a
 * sample set. */
#define PACKED_TAKE ((sample) (1u << (8 * SAMPLE_BYTES - 1)))

/* The first @span samples of each of @height rows of an interleaved plane
 * into dst: the component's samples of the @width from the plane luma,
 * every other sample (the other component, and the padding of an odd
 * width's last pair) from src as it is. */
__kernel void
luma_pack (__global const uchar * luma, uint luma_offset, int luma_pitch,
    PLANE_PARAMS, int span, int component)
{
  const int b0 = get_global_id (0) * 2 * PACKED_RUN, y = get_global_id (1);

  if (b0 >= span || y >= height)
    return;
  __global const sample *l = (__global const sample *) (luma + luma_offset +
      y * luma_pitch) + b0 / 2;
  __global const sample *s = (__global const sample *) (src + src_offset +
      y * src_pitch) + b0;
  __global sample *d = (__global sample *) (dst + dst_offset + y * dst_pitch)
      + b0;

  if (b0 + 2 * PACKED_RUN <= 2 * width) {
    /* each component sample twice, then the other component's sample of
     * each pair from the source (select takes its second argument where
     * the lane's top bit is set): constant swizzles and a select, where
     * shuffle2 took PoCL about 23 ms a 1080p frame against 3 */
    const sample16 v = vload16 (0, l);
    const sample16 lanes = component ?
        (sample16) (0, PACKED_TAKE, 0, PACKED_TAKE, 0, PACKED_TAKE, 0,
        PACKED_TAKE, 0, PACKED_TAKE, 0, PACKED_TAKE, 0, PACKED_TAKE, 0,
        PACKED_TAKE) :
        (sample16) (PACKED_TAKE, 0, PACKED_TAKE, 0, PACKED_TAKE, 0,
        PACKED_TAKE, 0, PACKED_TAKE, 0, PACKED_TAKE, 0, PACKED_TAKE, 0,
        PACKED_TAKE, 0);

    vstore16 (select (vload16 (0, s), v.s0011223344556677, lanes), 0, d);
    vstore16 (select (vload16 (1, s), v.s8899aabbccddeeff, lanes), 1, d);
    return;
  }
  for (int i = 0; i < 2 * PACKED_RUN && b0 + i < span; i++)
    d[i] = (i & 1) == component && (b0 + i) / 2 < width ? l[i / 2] : s[i];
}
