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

/* The arguments every plane kernel starts with, in the host's order
 * (gstclstage.c: set_plane_args): source plane, destination plane, size
 * in samples of one component. */
#define PLANE_PARAMS                                                          \
  __global const uchar * src, uint src_offset, int src_pitch,                 \
  __global uchar * dst, uint dst_offset, int dst_pitch, int width, int height

/* Samples. The epsilon filter and the convolution are written once over the
 * sample type and built for each depth: bytes (the default, 8-bit formats),
 * or with -DSAMPLE_BITS=10 10-bit values in 16-bit little-endian words
 * (P010_10LE, I420_10LE). A word holds v = (word >> shift) & 1023 and is
 * written back as v << shift, so that the bits around the value are zero on
 * output (P010 keeps its value in the high bits, shift 6; I420_10LE in the
 * low bits, shift 0). Bytes ignore `shift`. Offsets and pitches stay in
 * bytes; for words they are even (the host copies a plane that is not
 * 2-byte aligned into a device buffer first).
 *
 * SAMPLE_VALUE (w, shift), SAMPLE_VALUE8: the value of a sample, of 8; as
 * uint (uint8), or the bytes themselves, so that byte code stays as it was
 * written for bytes. SAMPLE_WORD (v, shift), SAMPLE_WORD8: the sample of an
 * integer value (of 8) in 0..SAMPLE_MAX; SAMPLE_WORDF, of a float one. */
#ifndef SAMPLE_BITS
#define SAMPLE_BITS 8
#endif
#define SAMPLE_MAX ((1u << SAMPLE_BITS) - 1u)

#if SAMPLE_BITS == 8
typedef uchar sample;
typedef uchar8 sample8;
#define SAMPLE_BYTES 1
#define SAMPLE_VALUE(w, shift) (w)
#define SAMPLE_VALUE8(w, shift) (w)
#define SAMPLE_WORD(v, shift) ((uchar) (v))
#define SAMPLE_WORD8(v, shift) convert_uchar8 (v)
#define SAMPLE_WORDF(f, shift) ((uchar) (f))
#elif SAMPLE_BITS == 10
typedef ushort sample;
typedef ushort8 sample8;
#define SAMPLE_BYTES 2
#define SAMPLE_VALUE(w, shift) (((w) >> (shift)) & SAMPLE_MAX)
#define SAMPLE_VALUE8(w, shift) \
  ((convert_uint8 (w) >> (uint8) (shift)) & SAMPLE_MAX)
#define SAMPLE_WORD(v, shift) ((ushort) ((v) << (shift)))
#define SAMPLE_WORD8(v, shift) convert_ushort8 ((v) << (uint8) (shift))
#define SAMPLE_WORDF(f, shift) ((ushort) ((uint) (f) << (shift)))
#else
#error "SAMPLE_BITS is 8 or 10"
#endif

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

/* 16 samples (the DCT strip kernels, kernels/dct-strips.cl): sample16, and
 * load_sample16 / store_sample16_upto, the 16 samples at p at any
 * alignment of a sample; SAMPLE_VALUE16 (w, shift), their values as int16;
 * SAMPLE_WORD16 (v, shift), the samples of int16 values in 0..SAMPLE_MAX.
 * Bytes use the byte helpers above; words the same packed-struct vector
 * load and store. */
#if SAMPLE_BITS == 8
typedef uchar16 sample16;
#define load_sample16 load_uchar16
#define store_sample16_upto store_uchar16_upto
#define SAMPLE_VALUE16(w, shift) convert_int16 (w)
#define SAMPLE_WORD16(v, shift) convert_uchar16 (v)
#else
typedef ushort16 sample16;

typedef struct __attribute__ ((packed, aligned (2)))
{
  ushort16 v;
} unaligned_ushort16;

static inline ushort16
load_sample16 (__global const ushort * p)
{
  return ((__global const unaligned_ushort16 *) p)->v;
}

/* The 16 samples of @v at @row + @x, but none at or past @end. */
static inline void
store_sample16_upto (__global ushort * row, int x, int end, ushort16 v)
{
  if (x + 16 <= end) {
    ((__global unaligned_ushort16 *) (row + x))->v = v;
  } else {
    ushort o[16];

    vstore16 (v, 0, o);
    for (int i = 0; x + i < end; i++)
      row[x + i] = o[i];
  }
}

#define SAMPLE_VALUE16(w, shift) \
  ((convert_int16 (w) >> (shift)) & (int) SAMPLE_MAX)
#define SAMPLE_WORD16(v, shift) convert_ushort16 ((v) << (shift))
#endif
