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

/* Plain C reference ("oracle") of the clepsilon element, used by the tests.
 * It is written to be obviously correct, not fast. */

#ifndef __CLEPSILON_REFERENCE_H__
#define __CLEPSILON_REFERENCE_H__

#include <glib.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define REF_KERNEL_MAX_SIDE 15

typedef struct
{
  guint threshold;              /* luma epsilon threshold, 0 = stage off */
  guint window;                 /* odd, 3..15 */
  guint chroma_threshold;       /* chroma epsilon threshold, 0 = copy chroma */

  /* Convolution on luma after stage 1; kernel_width == 0 means none. */
  gint kernel_width;
  gint kernel_height;
  gdouble kernel[REF_KERNEL_MAX_SIDE * REF_KERNEL_MAX_SIDE];    /* row-major */
  gdouble divisor;              /* 0 = auto */
  gdouble bias;
} RefParams;

/* Default element parameters, no kernel. */
void ref_params_init (RefParams * p);

/* Epsilon filter on one component of a plane.
 * @src/@dst point at the first sample of the component (so for the V
 * samples of an NV12 UV plane, pass plane + 1 and xstep 2).
 * @width/@height are in samples of that component; sample (x, y) lives at
 * src[y * src_stride + x * xstep]. Only the component's own samples are
 * written in @dst. @src and @dst must not overlap. */
void ref_epsilon_plane (const guint8 * src, gint src_stride,
    guint8 * dst, gint dst_stride, gint width, gint height, gint xstep,
    guint window, guint threshold);

/* Correlation of one tightly described 8-bit plane (xstep 1) with a
 * @kw x @kh kernel (row-major @coeffs), replicate border, then
 * clamp (floor (sum / divisor + bias + 0.5), 0, 255) in double.
 * @divisor 0 means the sum of the coefficients, or 1 if that sum is 0.
 * @src and @dst must not overlap. */
void ref_convolve_plane (const guint8 * src, gint src_stride,
    guint8 * dst, gint dst_stride, gint width, gint height,
    const gdouble * coeffs, gint kw, gint kh, gdouble divisor, gdouble bias);

/* The divisor actually used for @divisor (0 = auto) and the coefficients. */
gdouble ref_effective_divisor (const gdouble * coeffs, gint kw, gint kh,
    gdouble divisor);

/* The two functions above on plain 10-bit values (0..1023, one guint16
 * each; strides and @xstep in values, not bytes): the same formulas
 * (reference.c has each once, over the sample size). @threshold is in
 * 10-bit units: the element's threshold property shifted left by 2. The
 * convolution clamps to 0..1023. */
void ref_epsilon_plane16 (const guint16 * src, gint src_stride,
    guint16 * dst, gint dst_stride, gint width, gint height, gint xstep,
    guint window, guint threshold);
void ref_convolve_plane16 (const guint16 * src, gint src_stride,
    guint16 * dst, gint dst_stride, gint width, gint height,
    const gdouble * coeffs, gint kw, gint kh, gdouble divisor, gdouble bias);

/* Byte offset of component @comp within a pixel of its plane: GStreamer's
 * for 8-bit formats (YUY2's V is at byte 3, after the second luma sample);
 * for 10-bit ones the rank of the component among its plane's components
 * times 2, since GStreamer 1.22 describes P010's V at byte 1 instead of 2. */
gint ref_comp_offset (const GstVideoInfo * info, gint comp);

/* Whether the element filters @info's chroma at all (chroma-threshold):
 * not where luma shares its plane with chroma (YUY2, UYVY), whose chroma
 * it leaves as it is. */
gboolean ref_filters_chroma (const GstVideoInfo * info);

/* The sample of component @comp at (@x, @y) of plane data @data with
 * @stride, as its value (10-bit formats: the 10 bits only), and back
 * (10-bit formats: the other bits of the word written as 0). */
guint ref_get_sample (const GstVideoInfo * info, gint comp,
    const guint8 * data, gint stride, gint x, gint y);
void ref_set_sample (const GstVideoInfo * info, gint comp, guint8 * data,
    gint stride, gint x, gint y, guint value);

/* The element's work on the crop rectangle (@x, @y, @width, @height) (luma
 * samples, within the frame) of a frame in any format the element takes:
 * the rectangle is filtered as a frame of its own (replicate borders at its
 * edges). For subsampled chroma, the rectangle covers the chroma samples
 * from (x >> wsub, y >> hsub) to ((x + width - 1) >> wsub, (y + height - 1)
 * >> hsub). Only the samples of @dst in the rectangle are written. */
void ref_process_region (const GstVideoInfo * info,
    guint8 * const src_data[], const gint src_stride[],
    guint8 * const dst_data[], const gint dst_stride[], const RefParams * p,
    gint x, gint y, gint width, gint height);

/* ref_process_region() on an interlaced frame, field by field: the
 * rectangle's rows of each parity (rows 0, 2, 4... of the frame; rows 1,
 * 3, 5...) filtered as an image of their own, in every plane. */
void ref_process_region_fields (const GstVideoInfo * info,
    guint8 * const src_data[], const gint src_stride[],
    guint8 * const dst_data[], const gint dst_stride[], const RefParams * p,
    gint x, gint y, gint width, gint height);

/* Whole frame: @info gives format (GRAY8, I420, YV12, NV12, NV21, Y444,
 * Y42B; P010_10LE and I420_10LE through ref_process_region) and size;
 * @src/@dst hold per-plane data pointers and strides (as in a mapped
 * GstVideoFrame). Every sample of @dst that belongs to the image is
 * written; padding is left alone. */
void ref_process (const GstVideoInfo * info,
    guint8 * const src_data[], const gint src_stride[],
    guint8 * const dst_data[], const gint dst_stride[], const RefParams * p);

/* Same on mapped frames (@src mapped READ, @dst mapped WRITE, same format
 * and size). */
void ref_process_frame (const GstVideoFrame * src, GstVideoFrame * dst,
    const RefParams * p);

/* Shifted-DCT thresholding of one 8-bit plane (xstep 1), the formulas of
 * kernels/dct.cl (reference.c has them written out): the mean of @passes
 * (1, 2, 4, 8, 16) inverse integer 8x8 DCTs over block grids at
 * ref_dct_pass_offset(), AC coefficients with |X| < @threshold (quarter
 * levels) zeroed. @src and @dst must not overlap. */
void ref_dct_threshold_plane (const guint8 * src, gint src_stride,
    guint8 * dst, gint dst_stride, gint width, gint height, guint threshold,
    guint passes);

/* ref_dct_threshold_plane() on each field of an interlaced plane alone:
 * rows 0, 2, 4, ... then rows 1, 3, 5, ... */
void ref_dct_threshold_fields (const guint8 * src, gint src_stride,
    guint8 * dst, gint dst_stride, gint width, gint height, guint threshold,
    guint passes);

/* The block offsets (x, y) of pass @i of @passes (spp's pattern). */
void ref_dct_pass_offset (guint passes, guint i, gint * sx, gint * sy);

/* The estimate's histogram of a plane: 3 x 1024 counts of |X| (clamped to
 * 1023) of coefficients (u, v) = (1, 0), (0, 1), (1, 1) over the blocks of
 * the plane's own grid that lie wholly inside it. */
void ref_dct_histogram (const guint8 * src, gint stride, gint width,
    gint height, guint32 * hist);

/* The macroblocks' histogram of an interlaced frame's luma (kernels/dct.cl):
 * over each whole 16x16 macroblock, its four 8x8 blocks as FFmpeg's MPEG-2
 * encoder would choose them from its vertical activity (vsad: the
 * absolute differences of vertically adjacent samples over the 16
 * columns; field blocks, rows of one parity, where the two 16x8 halves'
 * sums less 400 are positive and above the two fields' sums; frame blocks
 * otherwise), the counts of ref_dct_histogram(). Returns the macroblocks
 * taken as field blocks. The 16 variant: 10-bit values (as
 * ref_dct_histogram16(); 400 times 4). */
guint ref_dct_histogram_mb (const guint8 * src, gint stride, gint width,
    gint height, guint32 * hist);
guint ref_dct_histogram_mb16 (const guint16 * src, gint stride, gint width,
    gint height, guint32 * hist);

/* gst_cl_dct_lattice()'s search written out plainly (every point's window
 * summed bin by bin, every candidate to its end): the lattice of one
 * coefficient's histogram @hist (1024 bins), 0 for none, 1 for multiples
 * of a step, 2 for H.263's odd multiples (GstClDctLattice's values), and
 * its spacing in quarter-quarter levels in @spacing (0 for none). */
guint ref_dct_lattice (const guint32 * hist, guint min_count,
    guint * spacing);

/* strength=auto's threshold of one coefficient whose histogram @hist (1024
 * bins) lies on lattice @kind (1 multiples, 2 H.263) of @spacing
 * quarter-quarter levels (a step is spacing / 4 bins): (@gain +
 * @strong_gain x strong / coded) x spacing / 64, rounded half up, where
 * coded counts the values from half a step on (and from bin 6, where the
 * lattices are read), strong those from @strong_level half steps on (one
 * more on H.263's lattice), the last (clamped) bin included in both. */
guint ref_dct_coefficient_threshold (const guint32 * hist, guint kind,
    guint spacing, guint gain, guint strong_gain, guint strong_level);

/* The frame's threshold from the @n coefficients' thresholds @t (sorted
 * here): their median, the upper one of an even count; 0 under two. */
guint ref_dct_median_threshold (guint * t, guint n);

/* Component @c of @frame (GstVideoFormatInfo's: 0 luma, 1 U, 2 V) alone,
 * its rows packed, into @w x @h bytes (free it): a plane of its own, or
 * one of interleaved chroma's (NV12). 8-bit formats. */
guint8 *ref_component_alone (GstVideoFrame * frame, guint c, gint * w,
    gint * h);

/* The estimate's threshold of one frame of a plane from its own lattices,
 * with the element's defaults (gains 5, and 4 on H.263's lattice, strong
 * gain 12 from level 5, 24 values at least; gstcldctestimate-private.h):
 * what strength=auto gives the first frame of a stream. */
guint ref_dct_frame_threshold (const guint8 * src, gint stride, gint width,
    gint height);

/* The 10-bit counterparts of ref_dct_threshold_plane() and
 * ref_dct_histogram(), on plain 10-bit values (0..1023, one guint16 each;
 * strides in values): x = value - 512, the forward rows shifted by 2 bits
 * more, so that X, @threshold and the bins are in the same quarter 8-bit
 * levels (10-bit levels); the output clamped to 0..1023. */
void ref_dct_threshold_plane16 (const guint16 * src, gint src_stride,
    guint16 * dst, gint dst_stride, gint width, gint height,
    guint threshold, guint passes);
void ref_dct_histogram16 (const guint16 * src, gint stride, gint width,
    gint height, guint32 * hist);

G_END_DECLS

#endif /* __CLEPSILON_REFERENCE_H__ */
