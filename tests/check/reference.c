/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include <math.h>
#include <string.h>

#include "reference.h"

void
ref_params_init (RefParams * p)
{
  memset (p, 0, sizeof (*p));
  p->threshold = 8;
  p->window = 9;
  p->chroma_threshold = 0;
  p->kernel_width = 0;
  p->kernel_height = 0;
  p->divisor = 0.0;
  p->bias = 0.0;
}

static gint
clampi (gint v, gint lo, gint hi)
{
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}

void
ref_epsilon_plane (const guint8 * src, gint src_stride,
    guint8 * dst, gint dst_stride, gint width, gint height, gint xstep,
    guint window, guint threshold)
{
  gint x, y, dx, dy;
  gint r = (gint) window / 2;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      gint c = src[y * src_stride + x * xstep];
      guint sum = 0, n = 0;

      for (dy = -r; dy <= r; dy++) {
        gint sy = clampi (y + dy, 0, height - 1);
        for (dx = -r; dx <= r; dx++) {
          gint sx = clampi (x + dx, 0, width - 1);
          gint v = src[sy * src_stride + sx * xstep];
          if ((guint) ABS (v - c) <= threshold) {
            sum += v;
            n++;
          }
        }
      }
      /* n >= 1: the centre always counts */
      dst[y * dst_stride + x * xstep] = (guint8) ((sum + n / 2) / n);
    }
  }
}

gdouble
ref_effective_divisor (const gdouble * coeffs, gint kw, gint kh,
    gdouble divisor)
{
  gdouble sum = 0.0;
  gint i;

  if (divisor != 0.0)
    return divisor;
  for (i = 0; i < kw * kh; i++)
    sum += coeffs[i];
  return sum != 0.0 ? sum : 1.0;
}

void
ref_convolve_plane (const guint8 * src, gint src_stride,
    guint8 * dst, gint dst_stride, gint width, gint height,
    const gdouble * coeffs, gint kw, gint kh, gdouble divisor, gdouble bias)
{
  gint x, y, r, c;
  gdouble div = ref_effective_divisor (coeffs, kw, kh, divisor);

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      gdouble sum = 0.0, v;

      for (r = 0; r < kh; r++) {
        gint sy = clampi (y + r - kh / 2, 0, height - 1);
        for (c = 0; c < kw; c++) {
          gint sx = clampi (x + c - kw / 2, 0, width - 1);
          sum += coeffs[r * kw + c] * src[sy * src_stride + sx];
        }
      }
      v = floor (sum / div + bias + 0.5);
      if (v < 0.0)
        v = 0.0;
      if (v > 255.0)
        v = 255.0;
      dst[y * dst_stride + x] = (guint8) v;
    }
  }
}

/* One component of a frame: where it lives and how big it is. */
typedef struct
{
  gint plane;
  gint offset;                  /* bytes from the plane start */
  gint xstep;                   /* bytes between horizontal neighbours */
  gint width, height;
} RefComp;

/* Fills @comps for @info; returns the number of components (luma first). */
static gint
ref_components (const GstVideoInfo * info, RefComp comps[3])
{
  gint w = GST_VIDEO_INFO_WIDTH (info);
  gint h = GST_VIDEO_INFO_HEIGHT (info);
  gint cw = (w + 1) / 2, ch = (h + 1) / 2;
  RefComp y = { 0, 0, 1, w, h };

  comps[0] = y;
  switch (GST_VIDEO_INFO_FORMAT (info)) {
    case GST_VIDEO_FORMAT_GRAY8:
      return 1;
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:{
      RefComp a = { 1, 0, 1, cw, ch }, b = { 2, 0, 1, cw, ch };
      comps[1] = a;
      comps[2] = b;
      return 3;
    }
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:{
      RefComp a = { 1, 0, 2, cw, ch }, b = { 1, 1, 2, cw, ch };
      comps[1] = a;
      comps[2] = b;
      return 3;
    }
    default:
      g_error ("reference: unsupported format %s",
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)));
      return 0;
  }
}

void
ref_process (const GstVideoInfo * info,
    guint8 * const src_data[], const gint src_stride[],
    guint8 * const dst_data[], const gint dst_stride[], const RefParams * p)
{
  RefComp comps[3];
  gint n = ref_components (info, comps);
  gint i, x, y;

  /* Stage 1: epsilon (or plain copy) per component. */
  for (i = 0; i < n; i++) {
    const RefComp *c = &comps[i];
    const guint8 *s = src_data[c->plane] + c->offset;
    guint8 *d = dst_data[c->plane] + c->offset;
    gint ss = src_stride[c->plane], ds = dst_stride[c->plane];
    guint thr = (i == 0) ? p->threshold : p->chroma_threshold;

    if (thr > 0) {
      ref_epsilon_plane (s, ss, d, ds, c->width, c->height, c->xstep,
          p->window, thr);
    } else {
      for (y = 0; y < c->height; y++)
        for (x = 0; x < c->width; x++)
          d[y * ds + x * c->xstep] = s[y * ss + x * c->xstep];
    }
  }

  /* Stage 2: convolution of the stage 1 luma. */
  if (p->kernel_width > 0) {
    const RefComp *c = &comps[0];
    gint w = c->width, h = c->height;
    guint8 *tmp = g_malloc ((gsize) w * h);
    guint8 *d = dst_data[0];
    gint ds = dst_stride[0];

    for (y = 0; y < h; y++)
      memcpy (tmp + (gsize) y * w, d + (gsize) y * ds, w);
    ref_convolve_plane (tmp, w, d, ds, w, h, p->kernel, p->kernel_width,
        p->kernel_height, p->divisor, p->bias);
    g_free (tmp);
  }
}

void
ref_process_frame (const GstVideoFrame * src, GstVideoFrame * dst,
    const RefParams * p)
{
  guint8 *sd[GST_VIDEO_MAX_PLANES] = { NULL, }, *dd[GST_VIDEO_MAX_PLANES] = {
  NULL,};
  gint ss[GST_VIDEO_MAX_PLANES] = { 0, }, ds[GST_VIDEO_MAX_PLANES] = {
  0,};
  guint i;

  g_assert (GST_VIDEO_FRAME_FORMAT (src) == GST_VIDEO_FRAME_FORMAT (dst));
  g_assert (GST_VIDEO_FRAME_WIDTH (src) == GST_VIDEO_FRAME_WIDTH (dst));
  g_assert (GST_VIDEO_FRAME_HEIGHT (src) == GST_VIDEO_FRAME_HEIGHT (dst));

  for (i = 0; i < GST_VIDEO_FRAME_N_PLANES (src); i++) {
    sd[i] = GST_VIDEO_FRAME_PLANE_DATA (src, i);
    ss[i] = GST_VIDEO_FRAME_PLANE_STRIDE (src, i);
    dd[i] = GST_VIDEO_FRAME_PLANE_DATA (dst, i);
    ds[i] = GST_VIDEO_FRAME_PLANE_STRIDE (dst, i);
  }
  ref_process (&src->info, sd, ss, dd, ds, p);
}
