/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
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

/* Whole frame: @info gives format (GRAY8, I420, YV12, NV12, NV21) and size;
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

G_END_DECLS

#endif /* __CLEPSILON_REFERENCE_H__ */
