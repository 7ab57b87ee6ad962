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

#include <math.h>
#include <string.h>

#include "reference.h"

void
ref_params_init (RefParams * p)
{
  memset (p, 0, sizeof (*p));
  p->threshold = 10;
  p->window = 3;
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

/* The reference reads and writes planes of samples of @bytes bytes each:
 * 1, bytes (guint8); 2, 16-bit values (guint16). @i counts samples. */
static guint
ref_load (const void *plane, gint bytes, gsize i)
{
  return bytes == 1 ? ((const guint8 *) plane)[i] :
      ((const guint16 *) plane)[i];
}

static void
ref_store (void *plane, gint bytes, gsize i, guint value)
{
  if (bytes == 1)
    ((guint8 *) plane)[i] = (guint8) value;
  else
    ((guint16 *) plane)[i] = (guint16) value;
}

/* The epsilon filter on samples of @bytes bytes (strides and @xstep in
 * samples): the mean of the window's samples within @threshold of the
 * centre, rounded half up. */
static void
ref_epsilon_samples (const void *src, gint src_stride, void *dst,
    gint dst_stride, gint bytes, gint width, gint height, gint xstep,
    guint window, guint threshold)
{
  gint x, y, dx, dy;
  gint r = (gint) window / 2;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      gint c = ref_load (src, bytes, y * src_stride + x * xstep);
      guint sum = 0, n = 0;

      for (dy = -r; dy <= r; dy++) {
        gint sy = clampi (y + dy, 0, height - 1);
        for (dx = -r; dx <= r; dx++) {
          gint sx = clampi (x + dx, 0, width - 1);
          gint v = ref_load (src, bytes, sy * src_stride + sx * xstep);
          if ((guint) ABS (v - c) <= threshold) {
            sum += v;
            n++;
          }
        }
      }
      /* n >= 1: the centre always counts */
      ref_store (dst, bytes, y * dst_stride + x * xstep, (sum + n / 2) / n);
    }
  }
}

void
ref_epsilon_plane (const guint8 * src, gint src_stride,
    guint8 * dst, gint dst_stride, gint width, gint height, gint xstep,
    guint window, guint threshold)
{
  ref_epsilon_samples (src, src_stride, dst, dst_stride, 1, width, height,
      xstep, window, threshold);
}

void
ref_epsilon_plane16 (const guint16 * src, gint src_stride,
    guint16 * dst, gint dst_stride, gint width, gint height, gint xstep,
    guint window, guint threshold)
{
  ref_epsilon_samples (src, src_stride, dst, dst_stride, 2, width, height,
      xstep, window, threshold);
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

/* The convolution on samples of @bytes bytes (strides in samples, xstep
 * 1) whose values have @bits bits, the output clamped to 0..2^@bits - 1. */
static void
ref_convolve_samples (const void *src, gint src_stride, void *dst,
    gint dst_stride, gint bytes, gint bits, gint width, gint height,
    const gdouble * coeffs, gint kw, gint kh, gdouble divisor, gdouble bias)
{
  gint x, y, r, c;
  gdouble div = ref_effective_divisor (coeffs, kw, kh, divisor);
  gdouble max = (1 << bits) - 1;

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      gdouble sum = 0.0, v;

      for (r = 0; r < kh; r++) {
        gint sy = clampi (y + r - kh / 2, 0, height - 1);
        for (c = 0; c < kw; c++) {
          gint sx = clampi (x + c - kw / 2, 0, width - 1);
          sum += coeffs[r * kw + c] * ref_load (src, bytes,
              sy * src_stride + sx);
        }
      }
      v = floor (sum / div + bias + 0.5);
      if (v < 0.0)
        v = 0.0;
      if (v > max)
        v = max;
      ref_store (dst, bytes, y * dst_stride + x, (guint) v);
    }
  }
}

void
ref_convolve_plane (const guint8 * src, gint src_stride,
    guint8 * dst, gint dst_stride, gint width, gint height,
    const gdouble * coeffs, gint kw, gint kh, gdouble divisor, gdouble bias)
{
  ref_convolve_samples (src, src_stride, dst, dst_stride, 1, 8, width,
      height, coeffs, kw, kh, divisor, bias);
}

void
ref_convolve_plane16 (const guint16 * src, gint src_stride,
    guint16 * dst, gint dst_stride, gint width, gint height,
    const gdouble * coeffs, gint kw, gint kh, gdouble divisor, gdouble bias)
{
  ref_convolve_samples (src, src_stride, dst, dst_stride, 2, 10, width,
      height, coeffs, kw, kh, divisor, bias);
}

gint
ref_comp_offset (const GstVideoInfo * info, gint comp)
{
  gint i, rank = 0;

  if (GST_VIDEO_INFO_COMP_DEPTH (info, comp) <= 8)
    return GST_VIDEO_INFO_COMP_POFFSET (info, comp);
  for (i = 0; i < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); i++) {
    if (i != comp && GST_VIDEO_INFO_COMP_PLANE (info, i) ==
        GST_VIDEO_INFO_COMP_PLANE (info, comp) &&
        GST_VIDEO_INFO_COMP_POFFSET (info, i) <
        GST_VIDEO_INFO_COMP_POFFSET (info, comp))
      rank++;
  }
  return rank * 2;
}

gboolean
ref_filters_chroma (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_N_COMPONENTS (info) < 3 ||
      GST_VIDEO_INFO_COMP_PLANE (info, 1) != GST_VIDEO_INFO_COMP_PLANE (info,
      0);
}

guint
ref_get_sample (const GstVideoInfo * info, gint comp, const guint8 * data,
    gint stride, gint x, gint y)
{
  const guint8 *s = data + (gsize) y * stride +
      x * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp) +
      ref_comp_offset (info, comp);

  if (GST_VIDEO_INFO_COMP_DEPTH (info, comp) <= 8)
    return *s;
  return (GST_READ_UINT16_LE (s) >> GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo,
          comp)) & 0x3ff;
}

void
ref_set_sample (const GstVideoInfo * info, gint comp, guint8 * data,
    gint stride, gint x, gint y, guint value)
{
  guint8 *d = data + (gsize) y * stride +
      x * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp) +
      ref_comp_offset (info, comp);

  if (GST_VIDEO_INFO_COMP_DEPTH (info, comp) <= 8)
    *d = (guint8) value;
  else
    GST_WRITE_UINT16_LE (d, value << GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo,
            comp));
}

/* Stage 1 on a packed w x h array of values, 8-bit or (@deep) 10-bit: the
 * threshold is on the 8-bit scale, in 10-bit units for 10-bit values. */
static void
ref_epsilon_values (gboolean deep, const guint16 * in, guint16 * out, gint w,
    gint h, guint window, guint threshold)
{
  ref_epsilon_samples (in, w, out, w, 2, w, h, 1, window,
      deep ? threshold << 2 : threshold);
}

/* Stage 2 likewise. */
static void
ref_convolve_values (gboolean deep, const guint16 * in, guint16 * out, gint w,
    gint h, const RefParams * p)
{
  ref_convolve_samples (in, w, out, w, 2, deep ? 10 : 8, w, h, p->kernel,
      p->kernel_width, p->kernel_height, p->divisor, p->bias);
}

/* Component @comp's @w x @h samples from (@x0, @first) of the frame, rows
 * @step apart (2: a field), filtered as an image of their own. */
static void
process_rows (const GstVideoInfo * info, gint comp,
    guint8 * const src_data[], const gint src_stride[],
    guint8 * const dst_data[], const gint dst_stride[], const RefParams * p,
    gint x0, gint first, gint step, gint w, gint h)
{
  gboolean deep = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8;
  gint plane = GST_VIDEO_INFO_COMP_PLANE (info, comp);
  guint thr = comp == 0 ? p->threshold :
      ref_filters_chroma (info) ? p->chroma_threshold : 0;
  guint16 *in = g_new (guint16, (gsize) w * h);
  guint16 *out = g_new (guint16, (gsize) w * h);
  gint i, j;

  for (j = 0; j < h; j++)
    for (i = 0; i < w; i++)
      in[j * w + i] = ref_get_sample (info, comp, src_data[plane],
          src_stride[plane], x0 + i, first + j * step);

  if (thr > 0)
    ref_epsilon_values (deep, in, out, w, h, p->window, thr);
  else
    memcpy (out, in, sizeof (guint16) * w * h);

  if (comp == 0 && p->kernel_width > 0) {
    memcpy (in, out, sizeof (guint16) * w * h);
    ref_convolve_values (deep, in, out, w, h, p);
  }

  for (j = 0; j < h; j++)
    for (i = 0; i < w; i++)
      ref_set_sample (info, comp, dst_data[plane], dst_stride[plane],
          x0 + i, first + j * step, out[j * w + i]);
  g_free (in);
  g_free (out);
}

/* ref_process_region(), whole (@fields FALSE) or field by field. */
static void
process_region (const GstVideoInfo * info,
    guint8 * const src_data[], const gint src_stride[],
    guint8 * const dst_data[], const gint dst_stride[], const RefParams * p,
    gint x, gint y, gint width, gint height, gboolean fields)
{
  gint comp, f;

  g_assert (width > 0 && height > 0);
  g_assert (x + width <= GST_VIDEO_INFO_WIDTH (info));
  g_assert (y + height <= GST_VIDEO_INFO_HEIGHT (info));

  for (comp = 0; comp < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
    gint ws = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, comp);
    gint hs = GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, comp);
    gint x0 = x >> ws, y0 = y >> hs;
    gint w = ((x + width - 1) >> ws) - x0 + 1;
    gint h = ((y + height - 1) >> hs) - y0 + 1;

    if (!fields) {
      process_rows (info, comp, src_data, src_stride, dst_data, dst_stride,
          p, x0, y0, 1, w, h);
      continue;
    }
    /* the rows y0 .. y0 + h - 1 of each parity: a field's part */
    for (f = 0; f < 2; f++) {
      gint first = y0 + ((y0 & 1) != f);
      gint n = first < y0 + h ? (y0 + h - first + 1) / 2 : 0;

      if (n > 0)
        process_rows (info, comp, src_data, src_stride, dst_data,
            dst_stride, p, x0, first, 2, w, n);
    }
  }
}

void
ref_process_region (const GstVideoInfo * info,
    guint8 * const src_data[], const gint src_stride[],
    guint8 * const dst_data[], const gint dst_stride[], const RefParams * p,
    gint x, gint y, gint width, gint height)
{
  process_region (info, src_data, src_stride, dst_data, dst_stride, p, x, y,
      width, height, FALSE);
}

void
ref_process_region_fields (const GstVideoInfo * info,
    guint8 * const src_data[], const gint src_stride[],
    guint8 * const dst_data[], const gint dst_stride[], const RefParams * p,
    gint x, gint y, gint width, gint height)
{
  process_region (info, src_data, src_stride, dst_data, dst_stride, p, x, y,
      width, height, TRUE);
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
    case GST_VIDEO_FORMAT_Y444:{
      RefComp a = { 1, 0, 1, w, h }, b = { 2, 0, 1, w, h };
      comps[1] = a;
      comps[2] = b;
      return 3;
    }
    case GST_VIDEO_FORMAT_Y42B:{
      RefComp a = { 1, 0, 1, cw, h }, b = { 2, 0, 1, cw, h };
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
  gint n;
  gint i, x, y;

  /* the sample by sample path: 10-bit samples, and packed luma, which the
   * planar convolution below would not find */
  if (GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 || !ref_filters_chroma (info)) {
    ref_process_region (info, src_data, src_stride, dst_data, dst_stride, p,
        0, 0, GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
    return;
  }
  n = ref_components (info, comps);

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
    NULL,
  };
  gint ss[GST_VIDEO_MAX_PLANES] = { 0, }, ds[GST_VIDEO_MAX_PLANES] = {
    0,
  };
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

/* ---- Shifted-DCT thresholding and its estimate (kernels/dct.cl) -------- */

static const gint ref_dct_c[8][8] = {
  {1448, 1448, 1448, 1448, 1448, 1448, 1448, 1448},
  {2009, 1703, 1138, 400, -400, -1138, -1703, -2009},
  {1892, 784, -784, -1892, -1892, -784, 784, 1892},
  {1703, -400, -2009, -1138, 1138, 2009, 400, -1703},
  {1448, -1448, -1448, 1448, 1448, -1448, -1448, 1448},
  {1138, -2009, 400, 1703, -1703, -400, 2009, -1138},
  {784, -1892, 1892, -784, -784, 1892, -1892, 784},
  {400, -1138, 1703, -2009, 2009, -1703, 1138, -400},
};

/* Floor division by 2^s, written out so that it does not lean on >> of a
 * negative number. */
static gint
ref_shift (gint64 v, gint s)
{
  const gint64 d = (gint64) 1 << s;
  return (gint) (v >= 0 ? v / d : -((-v + d - 1) / d));
}

/* The DCT reference works on a plane of sample values of @bits bits (8,
 * or 10), one gint each, rows of @width values. The formulas of
 * kernels/dct.cl for b = @bits: x = v - 2^(b - 1); rows rounded and
 * shifted by b + 2, columns by 12 (X in quarter levels of 8 bits, which
 * are 10-bit levels); the output (sum + ((2^b + 1) << (s - 1))) >> s for
 * s = 22 - b + log2 (passes), clamped to 0..2^b - 1. */

/* The 8x8 block at (x0, y0) of @v, edges replicated, minus 2^(bits - 1),
 * into its quarter-level coefficients @X[v][u]. */
static void
ref_dct_forward (const gint * v, gint width, gint height, gint bits,
    gint x0, gint y0, gint X[8][8])
{
  gint b[8][8], r[8][8], m, n, u, k;

  for (m = 0; m < 8; m++)
    for (n = 0; n < 8; n++)
      b[m][n] = v[CLAMP (y0 + m, 0, height - 1) * width +
          CLAMP (x0 + n, 0, width - 1)] - (1 << (bits - 1));
  for (m = 0; m < 8; m++)
    for (u = 0; u < 8; u++) {
      gint64 s = 1 << (bits + 1);
      for (n = 0; n < 8; n++)
        s += (gint64) ref_dct_c[u][n] * b[m][n];
      r[m][u] = ref_shift (s, bits + 2);
    }
  for (k = 0; k < 8; k++)
    for (u = 0; u < 8; u++) {
      gint64 s = 2048;
      for (m = 0; m < 8; m++)
        s += (gint64) ref_dct_c[k][m] * r[m][u];
      X[k][u] = ref_shift (s, 12);
    }
}

void
ref_dct_pass_offset (guint passes, guint i, gint * sx, gint * sy)
{
  static const gint o16[16][2] = {
    {0, 0}, {4, 0}, {1, 1}, {5, 1}, {3, 2}, {7, 2}, {2, 3}, {6, 3},
    {0, 4}, {4, 4}, {3, 5}, {7, 5}, {1, 6}, {5, 6}, {2, 7}, {6, 7}
  };
  static const gint o8[8][2] = {
    {0, 0}, {5, 1}, {2, 2}, {7, 3}, {4, 4}, {1, 5}, {6, 6}, {3, 7}
  };
  static const gint o4[4][2] = { {0, 0}, {2, 2}, {6, 4}, {4, 6} };
  static const gint o2[2][2] = { {0, 0}, {4, 4} };
  const gint (*o)[2] = passes == 16 ? o16 : passes == 8 ? o8 :
      passes == 4 ? o4 : o2;

  g_assert (passes == 1 || passes == 2 || passes == 4 || passes == 8
      || passes == 16);
  *sx = passes == 1 ? 0 : o[i][0];
  *sy = passes == 1 ? 0 : o[i][1];
}

/* The stage on the values @v into @out (both @width x @height). */
static void
ref_dct_threshold_values (const gint * v, gint * out, gint width,
    gint height, gint bits, guint threshold, guint passes)
{
  gint64 *acc = g_new0 (gint64, (gsize) width * height);
  gint X[8][8], P[8][8], x0, y0, m, n, u, k, sx, sy, log2p = 0, shift;
  guint i;

  while ((1u << log2p) < passes)
    log2p++;
  for (i = 0; i < passes; i++) {
    ref_dct_pass_offset (passes, i, &sx, &sy);
    for (y0 = -sy; y0 < height; y0 += 8)
      for (x0 = -sx; x0 < width; x0 += 8) {
        ref_dct_forward (v, width, height, bits, x0, y0, X);
        for (k = 0; k < 8; k++)
          for (u = 0; u < 8; u++)
            if (u + k > 0 && ABS (X[k][u]) < (gint) threshold)
              X[k][u] = 0;
        for (m = 0; m < 8; m++)
          for (u = 0; u < 8; u++) {
            gint64 s = 2048;
            for (k = 0; k < 8; k++)
              s += (gint64) ref_dct_c[k][m] * X[k][u];
            P[m][u] = ref_shift (s, 12);
          }
        for (m = 0; m < 8; m++)
          for (n = 0; n < 8; n++) {
            gint64 s = 0;
            if (y0 + m < 0 || y0 + m >= height || x0 + n < 0 || x0 + n >= width)
              continue;
            for (u = 0; u < 8; u++)
              s += (gint64) ref_dct_c[u][n] * P[m][u];
            acc[(gsize) (y0 + m) * width + x0 + n] += s;
          }
      }
  }
  shift = 22 - bits + log2p;
  for (m = 0; m < height; m++)
    for (n = 0; n < width; n++) {
      const gint64 a = acc[(gsize) m * width + n] +
          (((gint64) (1 << bits) + 1) << (shift - 1));
      out[m * width + n] = CLAMP (ref_shift (a, shift), 0, (1 << bits) - 1);
    }
  g_free (acc);
}

/* The histogram of the values @v (@width x @height). */
static void
ref_dct_histogram_values (const gint * v, gint width, gint height, gint bits,
    guint32 * hist)
{
  static const gint pos[3][2] = { {1, 0}, {0, 1}, {1, 1} };     /* (u, v) */
  gint X[8][8], bx, by, k;

  memset (hist, 0, 3 * 1024 * sizeof (guint32));
  for (by = 0; by + 8 <= height; by += 8)
    for (bx = 0; bx + 8 <= width; bx += 8) {
      ref_dct_forward (v, width, height, bits, bx, by, X);
      for (k = 0; k < 3; k++)
        hist[k * 1024 + MIN (ABS (X[pos[k][1]][pos[k][0]]), 1023)]++;
    }
}

/* gst_cl_dct_lattice()'s constants (gst/gstcldctestimate.c): the first bin read,
 * the last (the one after holds the clamped values), the fit in 64ths, the
 * tolerance, the steps in quarter-quarter levels, the refinement, H.263's
 * quantizers. */
#define LAT_FIRST 6
#define LAT_LAST 1022
#define LAT_FIT 40
#define LAT_NEAR 3
#define LAT_SUB_MIN (24 * 4)
#define LAT_SUB_MAX (255 * 4)
#define LAT_REFINE_SUBS 16
#define LAT_QP_MIN 3
#define LAT_QP_MAX 31

/* The values of @hist within LAT_NEAR of quarter level @c. */
static guint64
ref_near_point (const guint32 * hist, gint c)
{
  guint64 near = 0;
  gint b;

  for (b = c - LAT_NEAR; b <= c + LAT_NEAR; b++)
    if (b >= LAT_FIRST && b <= LAT_LAST)
      near += hist[b];
  return near;
}

static guint64
ref_near_multiples (const guint32 * hist, guint sub)
{
  guint64 near = 0;
  guint k;

  for (k = 1; (gint) ((k * sub + 2) / 4) - LAT_NEAR <= LAT_LAST; k++)
    near += ref_near_point (hist, (k * sub + 2) / 4);
  return near;
}

static guint64
ref_near_h263 (const guint32 * hist, guint qp)
{
  guint64 near = 0;
  guint l;

  /* |X| = qp (2 l + 1), less 1 for an even qp, in levels */
  for (l = 1; (gint) (4 * (qp * (2 * l + 1) - (qp % 2 == 0))) - LAT_NEAR <=
      LAT_LAST; l++)
    near += ref_near_point (hist, 4 * (qp * (2 * l + 1) - (qp % 2 == 0)));
  return near;
}

guint
ref_dct_lattice (const guint32 * hist, guint min_count, guint * spacing)
{
  guint64 n = 0, best = 0, best_h263 = 0;
  guint sub, s, found = 0, qp, found_qp = 0;
  gint b;

  *spacing = 0;
  for (b = LAT_FIRST; b <= LAT_LAST; b++)
    n += hist[b];
  if (n == 0 || n < min_count)
    return 0;
  /* the largest step that fits, then the one of the next 16 below it that
   * holds the most (the largest of those on a tie) */
  for (sub = LAT_SUB_MAX; sub >= LAT_SUB_MIN && !found; sub--)
    if (ref_near_multiples (hist, sub) * 64 >= LAT_FIT * n)
      for (s = sub; s + LAT_REFINE_SUBS >= sub && s >= LAT_SUB_MIN; s--)
        if (ref_near_multiples (hist, s) > best) {
          best = ref_near_multiples (hist, s);
          found = s;
        }
  for (qp = LAT_QP_MAX; qp >= LAT_QP_MIN && !found_qp; qp--)
    if (ref_near_h263 (hist, qp) * 64 >= LAT_FIT * n) {
      found_qp = qp;
      best_h263 = ref_near_h263 (hist, qp);
    }
  /* the lattice that holds more; on a tie the coarser */
  if (found_qp && (best_h263 > best || (best_h263 == best &&
              32 * found_qp > found))) {
    *spacing = 32 * found_qp;
    return 2;
  }
  *spacing = found;
  return found ? 1 : 0;
}

/* The values of a plane of samples of @bytes bytes (ref_load()), a new
 * array of @width x @height. */
static gint *
ref_dct_values (const void *src, gint stride, gint bytes, gint width,
    gint height)
{
  gint *v = g_new (gint, (gsize) width * height);
  gint x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      v[y * width + x] = ref_load (src, bytes, y * stride + x);
  return v;
}

/* The stage on a plane of samples of @bytes bytes: 8-bit values in bytes,
 * 10-bit values in guint16. */
static void
ref_dct_threshold_samples (const void *src, gint src_stride, void *dst,
    gint dst_stride, gint bytes, gint width, gint height, guint threshold,
    guint passes)
{
  gint *v = ref_dct_values (src, src_stride, bytes, width, height);
  gint *out = g_new (gint, (gsize) width * height);
  gint x, y;

  ref_dct_threshold_values (v, out, width, height, bytes == 1 ? 8 : 10,
      threshold, passes);
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      ref_store (dst, bytes, y * dst_stride + x, out[y * width + x]);
  g_free (out);
  g_free (v);
}

void
ref_dct_threshold_plane (const guint8 * src, gint src_stride, guint8 * dst,
    gint dst_stride, gint width, gint height, guint threshold, guint passes)
{
  ref_dct_threshold_samples (src, src_stride, dst, dst_stride, 1, width,
      height, threshold, passes);
}

void
ref_dct_threshold_fields (const guint8 * src, gint src_stride, guint8 * dst,
    gint dst_stride, gint width, gint height, guint threshold, guint passes)
{
  gint f;

  for (f = 0; f < 2 && f < height; f++)
    ref_dct_threshold_plane (src + f * src_stride, 2 * src_stride,
        dst + f * dst_stride, 2 * dst_stride, width, (height + 1 - f) / 2,
        threshold, passes);
}

void
ref_dct_threshold_plane16 (const guint16 * src, gint src_stride,
    guint16 * dst, gint dst_stride, gint width, gint height,
    guint threshold, guint passes)
{
  ref_dct_threshold_samples (src, src_stride, dst, dst_stride, 2, width,
      height, threshold, passes);
}

void
ref_dct_histogram (const guint8 * src, gint stride, gint width, gint height,
    guint32 * hist)
{
  gint *v = ref_dct_values (src, stride, 1, width, height);

  ref_dct_histogram_values (v, width, height, 8, hist);
  g_free (v);
}

void
ref_dct_histogram16 (const guint16 * src, gint stride, gint width,
    gint height, guint32 * hist)
{
  gint *v = ref_dct_values (src, stride, 2, width, height);

  ref_dct_histogram_values (v, width, height, 10, hist);
  g_free (v);
}

/* FFmpeg's vsad (ildct_cmp) of the 16 columns from (@x0, @y0) of @v, over
 * @rows rows @step apart: the absolute differences of vertically adjacent
 * ones, summed. */
static gint
ref_vsad (const gint * v, gint width, gint x0, gint y0, gint step, gint rows)
{
  gint sad = 0, m, n;

  for (m = 0; m + 1 < rows; m++)
    for (n = 0; n < 16; n++)
      sad += ABS (v[(y0 + m * step) * width + x0 + n] -
          v[(y0 + (m + 1) * step) * width + x0 + n]);
  return sad;
}

static guint
ref_dct_histogram_mb_values (const gint * v, gint width, gint height,
    gint bits, guint32 * hist)
{
  static const gint pos[3][2] = { {1, 0}, {0, 1}, {1, 1} };     /* (u, v) */
  gint X[8][8], block[64], mx, my, b, m, n, k;
  guint fields = 0;

  memset (hist, 0, 3 * 1024 * sizeof (guint32));
  for (my = 0; my + 16 <= height; my += 16)
    for (mx = 0; mx + 16 <= width; mx += 16) {
      const gint frame = ref_vsad (v, width, mx, my, 1, 8) +
          ref_vsad (v, width, mx, my + 8, 1, 8) - (400 << (bits - 8));
      const gboolean field = frame > 0 &&
          frame > ref_vsad (v, width, mx, my, 2, 8) +
          ref_vsad (v, width, mx, my + 1, 2, 8);

      fields += field;
      /* the top left, top right, bottom left and bottom right blocks, or
       * the top field's two and the bottom field's two */
      for (b = 0; b < 4; b++) {
        for (m = 0; m < 8; m++)
          for (n = 0; n < 8; n++) {
            const gint y = field ? my + b / 2 + 2 * m : my + (b / 2) * 8 + m;

            block[m * 8 + n] = v[y * width + mx + (b % 2) * 8 + n];
          }
        ref_dct_forward (block, 8, 8, bits, 0, 0, X);
        for (k = 0; k < 3; k++)
          hist[k * 1024 + MIN (ABS (X[pos[k][1]][pos[k][0]]), 1023)]++;
      }
    }
  return fields;
}

guint
ref_dct_histogram_mb (const guint8 * src, gint stride, gint width,
    gint height, guint32 * hist)
{
  gint *v = ref_dct_values (src, stride, 1, width, height);
  guint fields = ref_dct_histogram_mb_values (v, width, height, 8, hist);

  g_free (v);
  return fields;
}

guint
ref_dct_histogram_mb16 (const guint16 * src, gint stride, gint width,
    gint height, guint32 * hist)
{
  gint *v = ref_dct_values (src, stride, 2, width, height);
  guint fields = ref_dct_histogram_mb_values (v, width, height, 10, hist);

  g_free (v);
  return fields;
}

guint
ref_dct_coefficient_threshold (const guint32 * hist, guint kind,
    guint spacing, guint gain, guint strong_gain, guint strong_level)
{
  guint64 coded = 0, strong = 0, num;
  guint i;

  if (kind == 2)
    strong_level++;

  for (i = 0; i < 1024; i++) {
    /* i >= spacing / 8 is i >= half a step of spacing / 4 bins, rounded
     * down as an integer division; likewise strong_level half steps */
    if (i < 6 || 8 * i < spacing - spacing % 8)
      continue;
    coded += hist[i];
    if (8 * i >= spacing * strong_level - (spacing * strong_level) % 8)
      strong += hist[i];
  }
  if (coded == 0)
    return (spacing * gain + 32) / 64;
  num = ((guint64) spacing) * (gain * coded + strong_gain * strong);
  /* num / (64 coded), rounded half up */
  return (guint) ((2 * num + 64 * coded) / (128 * coded));
}

guint
ref_dct_median_threshold (guint * t, guint n)
{
  guint i, j;

  for (i = 1; i < n; i++)
    for (j = i; j > 0 && t[j - 1] > t[j]; j--) {
      const guint x = t[j];

      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  return n < 2 ? 0 : t[n / 2];
}

guint8 *
ref_component_alone (GstVideoFrame * frame, guint c, gint * w, gint * h)
{
  const guint8 *data = GST_VIDEO_FRAME_COMP_DATA (frame, c);
  const gint stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, c);
  const gint step = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c);
  guint8 *p;
  gint x, y;

  *w = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
  *h = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
  p = g_malloc ((gsize) * w * *h);
  for (y = 0; y < *h; y++)
    for (x = 0; x < *w; x++)
      p[y * *w + x] = data[y * stride + x * step];
  return p;
}

guint
ref_dct_frame_threshold (const guint8 * src, gint stride, gint width,
    gint height)
{
  guint32 hist[3 * 1024];
  guint t[3], n = 0, k;

  ref_dct_histogram (src, stride, width, height, hist);
  for (k = 0; k < 3; k++) {
    guint spacing;
    const guint kind = ref_dct_lattice (hist + k * 1024, 24, &spacing);

    if (kind)
      t[n++] = ref_dct_coefficient_threshold (hist + k * 1024, kind,
          spacing, kind == 2 ? 4 : 5, 12, 5);
  }
  return ref_dct_median_threshold (t, n);
}
