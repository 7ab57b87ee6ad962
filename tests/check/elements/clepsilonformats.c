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

/* Tests of clepsilon's further formats and of the crop meta, against the
 * plain C reference in ../reference.c:
 *  - Y444 and Y42B (8-bit planar, chroma at full and at half width);
 *  - P010_10LE and I420_10LE: 10-bit samples in 16-bit words, thresholds
 *    on the 8-bit scale, convolution clamped to 0..1023, every kernel
 *    variant forced (those the 16-bit kernels lack fall back to plain), the
 *    bits around the 10-bit value ignored on input and zero on output,
 *    planes at odd byte offsets;
 *  - GstVideoCropMeta on input: only the crop rectangle is filtered, as a
 *    frame of its own; the rest of the frame is copied; the meta is kept
 *    on output, and proposed upstream only where downstream takes it.
 *
 * Every image sample of every output is compared, as the raw byte or
 * 16-bit word, with the expected frame: the input, with the reference's
 * result written over the filtered rectangle.
 *
 * The OpenCL device is taken from $CLEPSILON_TEST_DEVICE (default "pocl"). */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "../harness.h"

/* ------------------------------------------------------------------------ */
/* Configurations                                                           */

static const gdouble k_blur[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
static const gdouble k_sharpen[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };

static const gdouble k_gauss5[25] = {
  1, 4, 6, 4, 1,
  4, 16, 24, 16, 4,
  6, 24, 36, 24, 6,
  4, 16, 24, 16, 4,
  1, 4, 6, 4, 1
};

/* A 15x15 kernel of small random integers: larger than the tiny frames,
 * and its sums reach far outside 0..1023. */
static void
config_big_kernel (ThConfig * cfg, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  gdouble k[225];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (k); i++)
    k[i] = g_rand_int_range (rand, -2, 5);
  g_rand_free (rand);
  th_config_set_kernel (cfg, 15, 15, k, 0, 0);
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */

typedef enum
{
  FILL_NOISE,                   /* uniform over the whole range */
  FILL_SMOOTH,                  /* gradient plus noise of 1/10 the range */
} FillMode;

/* Writes every image sample of @frame (mapped with @info) with values of
 * the format's depth; with @junk, 10-bit formats get random bits around the
 * value too, which the element must ignore. */
static void
fill_frame (const GstVideoInfo * info, GstVideoFrame * frame, GRand * rand,
    FillMode mode, gboolean junk)
{
  guint comp;
  gint x, y;

  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
    gint plane = GST_VIDEO_INFO_COMP_PLANE (info, comp);
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
    gint depth = GST_VIDEO_INFO_COMP_DEPTH (info, comp);
    gint max = (1 << depth) - 1;
    gint w = GST_VIDEO_INFO_COMP_WIDTH (info, comp);
    gint h = GST_VIDEO_INFO_COMP_HEIGHT (info, comp);

    for (y = 0; y < h; y++) {
      for (x = 0; x < w; x++) {
        gint v;

        if (mode == FILL_NOISE) {
          v = g_rand_int_range (rand, 0, max + 1);
        } else {
          v = ((x * 5 + y * 3 + comp * 60) << (depth - 8)) % (max + 1);
          v += g_rand_int_range (rand, -max / 10, max / 10 + 1);
          v = CLAMP (v, 0, max);
        }
        ref_set_sample (info, comp, data, stride, x, y, v);
        if (junk && depth > 8) {
          guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, comp);
          guint8 *word = data + (gsize) y * stride +
              x * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp) +
              ref_comp_offset (info, comp);
          guint16 bits = g_rand_int (rand) & ~(0x3ff << shift);

          GST_WRITE_UINT16_LE (word, GST_READ_UINT16_LE (word) | bits);
        }
      }
    }
  }
}

/* A buffer of @info's layout, padding random, image from @rand. */
static GstBuffer *
make_input (const GstVideoInfo * info, GRand * rand, FillMode mode,
    gboolean junk)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame frame;

  th_fill_bytes (buf, rand);
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  fill_frame (info, &frame, rand, mode, junk);
  gst_video_frame_unmap (&frame);
  return buf;
}

/* A buffer with a GstVideoMeta whose planes all start at odd byte offsets,
 * with odd strides: 16-bit words the kernels cannot read in place. */
static GstBuffer *
make_odd_input (const GstVideoInfo * info, GRand * rand, FillMode mode)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  guint p, n_planes = GST_VIDEO_INFO_N_PLANES (info);
  gsize pos = 1;
  GstAllocationParams params = { 0, 4095, 0, 0, };
  GstVideoFrame frame;
  GstBuffer *buf;

  for (p = 0; p < n_planes; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, p, comp);
    stride[p] = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) + 3;
    offset[p] = pos;
    pos += (gsize) stride[p] * GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]) + 5;
    if (pos % 2 == 0)
      pos++;
  }
  /* Aligned as the element wraps system memory in place on a device that
   * shares host memory: the kernels then meet the odd offsets themselves. */
  buf = gst_buffer_new_allocate (NULL, pos, &params);
  gst_buffer_memset (buf, 0, 0x5a, pos);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), n_planes, offset, stride);
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  fill_frame (info, &frame, rand, mode, FALSE);
  gst_video_frame_unmap (&frame);
  return buf;
}

/* The rectangle the element filters: the crop rectangle, or the frame. */
typedef struct
{
  gint x, y, width, height;
} Rect;

/* The input laid out as @info says (the default layout), with the
 * reference's result on @rect written over it; an empty @rect leaves the
 * input as it is. */
static GstBuffer *
make_expected (const GstVideoInfo * info, GstBuffer * in,
    const ThConfig * cfg, const Rect * rect)
{
  GstBuffer *exp = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame in_frame, exp_frame;
  guint8 *sd[GST_VIDEO_MAX_PLANES], *dd[GST_VIDEO_MAX_PLANES];
  gint ss[GST_VIDEO_MAX_PLANES], ds[GST_VIDEO_MAX_PLANES];
  guint p, comp;
  gint x, y;

  gst_buffer_memset (exp, 0, 0, info->size);
  fail_unless (gst_video_frame_map (&in_frame, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&exp_frame, info, exp, GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    sd[p] = GST_VIDEO_FRAME_PLANE_DATA (&in_frame, p);
    ss[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&in_frame, p);
    dd[p] = GST_VIDEO_FRAME_PLANE_DATA (&exp_frame, p);
    ds[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&exp_frame, p);
  }
  /* Raw copy of every sample, junk bits included. */
  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
    gint plane = GST_VIDEO_INFO_COMP_PLANE (info, comp);
    gint ps = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
    gint bytes = GST_VIDEO_INFO_COMP_DEPTH (info, comp) > 8 ? 2 : 1;
    gint off = ref_comp_offset (info, comp);

    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (info, comp); y++)
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (info, comp); x++)
        memcpy (dd[plane] + (gsize) y * ds[plane] + x * ps + off,
            sd[plane] + (gsize) y * ss[plane] + x * ps + off, bytes);
  }
  if (rect->width > 0 && rect->height > 0)
    ref_process_region (info, sd, ss, dd, ds, &cfg->ref, rect->x, rect->y,
        rect->width, rect->height);
  gst_video_frame_unmap (&exp_frame);
  gst_video_frame_unmap (&in_frame);
  return exp;
}

/* Compares every image sample of @out with @exp, as raw bytes or 16-bit
 * words (so the bits around a 10-bit value must be 0 where the element
 * wrote the sample). */
static void
check_frame (const GstVideoInfo * info, GstBuffer * out, GstBuffer * exp,
    const gchar * ctx)
{
  GstVideoFrame of, ef;
  guint comp, n_bad = 0;
  gint x, y;
  gchar *first = NULL;

  fail_unless (gst_video_frame_map (&of, info, out, GST_MAP_READ),
      "%s: cannot map the output as a video frame", ctx);
  fail_unless (gst_video_frame_map (&ef, info, exp, GST_MAP_READ));
  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
    gint plane = GST_VIDEO_INFO_COMP_PLANE (info, comp);
    const guint8 *o = GST_VIDEO_FRAME_PLANE_DATA (&of, plane);
    const guint8 *e = GST_VIDEO_FRAME_PLANE_DATA (&ef, plane);
    gint os = GST_VIDEO_FRAME_PLANE_STRIDE (&of, plane);
    gint es = GST_VIDEO_FRAME_PLANE_STRIDE (&ef, plane);
    gint ps = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
    gboolean deep = GST_VIDEO_INFO_COMP_DEPTH (info, comp) > 8;
    gint off = ref_comp_offset (info, comp);

    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (info, comp); y++) {
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (info, comp); x++) {
        const guint8 *op = o + (gsize) y * os + x * ps + off;
        const guint8 *ep = e + (gsize) y * es + x * ps + off;
        guint got = deep ? GST_READ_UINT16_LE (op) : *op;
        guint want = deep ? GST_READ_UINT16_LE (ep) : *ep;

        if (got != want && n_bad++ == 0)
          first = g_strdup_printf ("component %u x %d y %d: got 0x%x, "
              "expected 0x%x", comp, x, y, got, want);
      }
    }
  }
  gst_video_frame_unmap (&ef);
  gst_video_frame_unmap (&of);
  fail_unless (n_bad == 0, "%s: %u samples differ; first: %s", ctx, n_bad,
      first);
  g_free (first);
}

/* ------------------------------------------------------------------------ */
/* Element and harness                                                      */

/* A started clepsilon with every setting of @cfg in a harness with caps
 * @fmt @w x @h. With @downstream_crop, the harness's sink side takes crop
 * metas. */
static GstHarness *
make_harness (const ThConfig * cfg, GstVideoFormat fmt, gint w, gint h,
    gboolean downstream_crop, GstVideoInfo * info)
{
  GstElement *e = th_make_element ();

  th_config_apply (cfg, e);
  return th_harness_new (e, fmt, w, h,
      downstream_crop ? GST_VIDEO_CROP_META_API_TYPE : 0, info);
}

/* The "epsilon-launch" or "convolution-launch" stats of @e. */
static gchar *
launch_stat (GstElement * e, const gchar * field)
{
  GstStructure *stats = NULL;
  gchar *launch;

  g_object_get (e, "stats", &stats, NULL);
  fail_unless (stats != NULL);
  launch = g_strdup (gst_structure_get_string (stats, field));
  gst_structure_free (stats);
  return launch;
}

/* How one frame goes in: its layout, a crop meta, junk bits. */
typedef struct
{
  gboolean odd_layout;          /* planes at odd offsets (make_odd_input) */
  gboolean junk;                /* random bits around 10-bit values */
  const Rect *crop;             /* a crop meta with this rectangle */
  Rect filtered;                /* with @crop: what the element filters */
} Input;

/* Pushes one random frame through @hr (format @info) and compares the
 * output with the reference; checks the crop meta on the output. Returns
 * the output (unref it). */
static GstBuffer *
push_one (GstHarness * hr, const GstVideoInfo * info, const ThConfig * cfg,
    const Input * input, GRand * rand, FillMode mode, const gchar * ctx)
{
  Rect whole = { 0, 0, GST_VIDEO_INFO_WIDTH (info),
    GST_VIDEO_INFO_HEIGHT (info)
  };
  GstBuffer *in, *exp, *out;
  GstVideoCropMeta *meta;

  in = input->odd_layout ? make_odd_input (info, rand, mode) :
      make_input (info, rand, mode, input->junk);
  if (input->crop) {
    meta = gst_buffer_add_video_crop_meta (in);
    meta->x = input->crop->x;
    meta->y = input->crop->y;
    meta->width = input->crop->width;
    meta->height = input->crop->height;
  }
  exp = make_expected (info, in, cfg, input->crop ? &input->filtered : &whole);
  GST_BUFFER_PTS (in) = 0;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;

  out = th_push_pull (hr, in, ctx);
  check_frame (info, out, exp, ctx);
  gst_buffer_unref (exp);

  meta = gst_buffer_get_video_crop_meta (out);
  if (input->crop) {
    fail_unless (meta != NULL, "%s: the output lost the crop meta", ctx);
    fail_unless (meta->x == (guint) input->crop->x &&
        meta->y == (guint) input->crop->y &&
        meta->width == (guint) input->crop->width &&
        meta->height == (guint) input->crop->height,
        "%s: output crop meta %u,%u %ux%u, input had %d,%d %dx%d", ctx,
        meta->x, meta->y, meta->width, meta->height, input->crop->x,
        input->crop->y, input->crop->width, input->crop->height);
  } else {
    fail_unless (meta == NULL, "%s: a crop meta appeared", ctx);
  }
  return out;
}

/* One frame through a fresh element. */
static void
run_one (const gchar * what, GstVideoFormat fmt, gint w, gint h,
    const ThConfig * cfg, const Input * input, guint32 seed, FillMode mode)
{
  GstVideoInfo info;
  GstHarness *hr = make_harness (cfg, fmt, w, h, FALSE, &info);
  GRand *rand = g_rand_new_with_seed (seed);
  gchar *ctx = th_config_ctx (what, fmt, w, h, seed, cfg);
  static const Input plain = { FALSE, FALSE, NULL, {0, 0, 0, 0} };

  gst_buffer_unref (push_one (hr, &info, cfg, input ? input : &plain, rand,
          mode, ctx));
  g_free (ctx);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

/* ------------------------------------------------------------------------ */
/* 8-bit planar 4:4:4 and 4:2:2                                             */

GST_START_TEST (test_planar_444_422)
{
  static const GstVideoFormat formats[] =
      { GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_Y42B };
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {17, 9}, {45, 27} };
  guint f, s;

  RT_FOR_EACH_FORMAT (f, formats) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint32 seed = 0x44400000 + f * 256 + s * 16;
      ThConfig cfg;

      /* luma, chroma and a blur */
      th_config_init (&cfg, 20, 5, 12);
      th_config_set_kernel (&cfg, 3, 3, k_blur, 0, 0);
      run_one ("4:4:4 / 4:2:2", formats[f], sizes[s][0], sizes[s][1], &cfg,
          NULL, seed, FILL_SMOOTH);
      /* every sample averaged in, a kernel larger than the frame */
      th_config_init (&cfg, 255, 3, 255);
      config_big_kernel (&cfg, seed);
      run_one ("4:4:4 / 4:2:2", formats[f], sizes[s][0], sizes[s][1], &cfg,
          NULL, seed + 1, FILL_NOISE);
      /* chroma copied bit-exact */
      th_config_init (&cfg, 25, 7, 0);
      run_one ("4:4:4 / 4:2:2", formats[f], sizes[s][0], sizes[s][1], &cfg,
          NULL, seed + 2, FILL_NOISE);
    }
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Packed 4:2:2                                                             */

/* YUY2 and UYVY as webcams give them: every setting of I420's luma on
 * their luma (each window and some thresholds, a convolution alone, after
 * the epsilon filter and larger than the frame, each kernel variant),
 * chroma as it came in although chroma-threshold is set, on odd sizes down
 * to 1x1 (an odd width ends in a pair with a padding luma sample) and on
 * padded, odd-offset layouts. */
GST_START_TEST (test_packed_422)
{
  static const GstVideoFormat formats[] =
      { GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY };
  static const gint sizes[][2] = { {1, 1}, {2, 2}, {3, 2}, {2, 3}, {5, 7},
  {37, 23}
  };
  static const gchar *variants[] = { "plain", "tiled", "vector", "wide" };
  Input odd = { TRUE, FALSE, NULL, {0, 0, 0, 0} };
  guint f, s, i;

  RT_FOR_EACH_FORMAT (f, formats) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      const gint w = sizes[s][0], h = sizes[s][1];
      guint32 seed = 0x42200000 + f * 4096 + s * 256;
      ThConfig cfg;

      for (i = 3; i <= 15; i += 2) {
        th_config_init (&cfg, 20, i, 12);
        run_one ("packed 4:2:2 window", formats[f], w, h, &cfg, NULL,
            seed + i, FILL_SMOOTH);
      }
      th_config_init (&cfg, 1, 7, 0);
      run_one ("packed 4:2:2 threshold", formats[f], w, h, &cfg, NULL,
          seed + 16, FILL_NOISE);
      th_config_init (&cfg, 255, 3, 255);
      run_one ("packed 4:2:2 threshold", formats[f], w, h, &cfg, NULL,
          seed + 17, FILL_NOISE);
      th_config_init (&cfg, 0, 5, 0);
      th_config_set_kernel (&cfg, 3, 3, k_sharpen, 0, 0);
      run_one ("packed 4:2:2 kernel", formats[f], w, h, &cfg, NULL,
          seed + 18, FILL_NOISE);
      th_config_init (&cfg, 20, 5, 12);
      th_config_set_kernel (&cfg, 3, 3, k_blur, 0, 0);
      run_one ("packed 4:2:2 epsilon and kernel", formats[f], w, h, &cfg,
          &odd, seed + 19, FILL_SMOOTH);
      th_config_init (&cfg, 255, 9, 0);
      config_big_kernel (&cfg, seed);
      run_one ("packed 4:2:2 big kernel", formats[f], w, h, &cfg, NULL,
          seed + 20, FILL_NOISE);
      for (i = 0; i < G_N_ELEMENTS (variants); i++) {
        th_config_init (&cfg, 30, 5, 0);
        th_config_set_kernel (&cfg, 5, 5, k_gauss5, 0, 0);
        cfg.epsilon_variant = cfg.conv_variant = variants[i];
        run_one ("packed 4:2:2 variant", formats[f], w, h, &cfg, &odd,
            seed + 32 + i, FILL_NOISE);
      }
    }
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* 10-bit                                                                   */

GST_START_TEST (test_10bit)
{
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {9, 5}, {67, 41} };
  guint f, s;

  RT_FOR_EACH_FORMAT (f, rt_formats_10bit) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint32 seed = 0x10b00000 + f * 256 + s * 16;
      Input junk = { FALSE, TRUE, NULL, {0, 0, 0, 0}
      };
      ThConfig cfg;

      /* the element's defaults, luma only */
      th_config_init (&cfg, 8, 9, 0);
      run_one ("10-bit", rt_formats_10bit[f], sizes[s][0], sizes[s][1], &cfg,
          NULL, seed, FILL_SMOOTH);
      /* luma, chroma and a sharpening kernel (clamps at both ends), with
       * junk around the 10-bit values */
      th_config_init (&cfg, 20, 5, 12);
      th_config_set_kernel (&cfg, 3, 3, k_sharpen, 0, 0);
      run_one ("10-bit", rt_formats_10bit[f], sizes[s][0], sizes[s][1], &cfg,
          &junk, seed + 1, FILL_NOISE);
      /* the largest thresholds (1020 in 10-bit units: differences of 1021
       * to 1023 stay out), a 15x15 kernel */
      th_config_init (&cfg, 255, 3, 255);
      config_big_kernel (&cfg, seed);
      run_one ("10-bit", rt_formats_10bit[f], sizes[s][0], sizes[s][1], &cfg,
          NULL, seed + 2, FILL_NOISE);
      /* divisor and bias, in 10-bit units */
      th_config_init (&cfg, 3, 3, 0);
      th_config_set_kernel (&cfg, 3, 3, k_blur, 8, 100);
      run_one ("10-bit", rt_formats_10bit[f], sizes[s][0], sizes[s][1], &cfg,
          NULL, seed + 3, FILL_SMOOTH);
    }
  }
}

GST_END_TEST;

/* The threshold is on the 8-bit scale: threshold 1 takes 10-bit
 * differences up to 4 and no more. Worked by hand on a 2x1 luma row with a
 * 3x3 window (replicate borders): with 500, 504 each sample averages three
 * of itself and three of each neighbour position, (3 * 500 + 3 * 500 +
 * 3 * 504 + 4) / 9 = 501 and (3 * 500 + 6 * 504 + 4) / 9 = 503; with 500,
 * 505 nothing is averaged in. */
GST_START_TEST (test_10bit_threshold_scale)
{
  static const guint pairs[][4] = {
    /* in0, in1, out0, out1 */
    {500, 504, 501, 503},
    {500, 505, 500, 505},
  };
  guint f, i;

  RT_FOR_EACH_FORMAT (f, rt_formats_10bit) {
    for (i = 0; i < G_N_ELEMENTS (pairs); i++) {
      GstVideoInfo info;
      GstVideoFrame frame;
      GstHarness *hr;
      GstBuffer *in, *out;
      ThConfig cfg;
      guint8 *luma;
      gint stride;

      th_config_init (&cfg, 1, 3, 0);
      hr = make_harness (&cfg, rt_formats_10bit[f], 2, 1, FALSE, &info);
      in = gst_buffer_new_allocate (NULL, info.size, NULL);
      gst_buffer_memset (in, 0, 0, info.size);
      fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_WRITE));
      luma = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
      stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
      ref_set_sample (&info, 0, luma, stride, 0, 0, pairs[i][0]);
      ref_set_sample (&info, 0, luma, stride, 1, 0, pairs[i][1]);
      gst_video_frame_unmap (&frame);

      fail_unless_equals_int (gst_harness_push (hr, in), GST_FLOW_OK);
      out = gst_harness_pull (hr);
      fail_unless (out != NULL);
      fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
      luma = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
      stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
      fail_unless (ref_get_sample (&info, 0, luma, stride, 0, 0) ==
          pairs[i][2] && ref_get_sample (&info, 0, luma, stride, 1, 0) ==
          pairs[i][3], "%s: %u, %u gave %u, %u; expected %u, %u",
          gst_video_format_to_string (rt_formats_10bit[f]), pairs[i][0],
          pairs[i][1], ref_get_sample (&info, 0, luma, stride, 0, 0),
          ref_get_sample (&info, 0, luma, stride, 1, 0), pairs[i][2],
          pairs[i][3]);
      gst_video_frame_unmap (&frame);
      gst_buffer_unref (out);
      th_teardown_checked (hr);
    }
  }
}

GST_END_TEST;

/* Thresholds changed while playing on 10-bit frames: the new values are
 * on the 8-bit scale as at start (<< 2), on the path that only sets new
 * kernel arguments (thresholds staying above 0, the same stages), luma and
 * chroma; each frame against the reference of its own settings. */
GST_START_TEST (test_10bit_threshold_change_playing)
{
  static const guint thresholds[][2] = {
    /* luma, chroma */
    {4, 2}, {20, 12}, {60, 3}, {1, 40},
  };
  const gint w = 37, h = 23;
  guint f, i;

  RT_FOR_EACH_FORMAT (f, rt_formats_10bit) {
    guint32 seed = 0x10c00000 + f;
    GRand *rand = g_rand_new_with_seed (seed);
    static const Input plain = { FALSE, FALSE, NULL, {0, 0, 0, 0} };
    GstVideoInfo info;
    GstHarness *hr;
    ThConfig cfg;

    th_config_init (&cfg, thresholds[0][0], 5, thresholds[0][1]);
    hr = make_harness (&cfg, rt_formats_10bit[f], w, h, FALSE, &info);
    for (i = 0; i < G_N_ELEMENTS (thresholds); i++) {
      gchar *ctx;

      th_config_init (&cfg, thresholds[i][0], 5, thresholds[i][1]);
      g_object_set (hr->element, "threshold", thresholds[i][0],
          "chroma-threshold", thresholds[i][1], NULL);
      ctx = th_config_ctx ("10-bit threshold change", rt_formats_10bit[f], w, h,
          seed, &cfg);
      gst_buffer_unref (push_one (hr, &info, &cfg, &plain, rand, FILL_SMOOTH,
              ctx));
      g_free (ctx);
    }
    th_teardown_checked (hr);
    g_rand_free (rand);
  }
}

GST_END_TEST;

/* Every variant forced on 10-bit frames. The 16-bit kernels have no tiled
 * variant: forced "tiled" must run "plain" (the stats say so) and still be
 * exact; separable runs for rank-1 kernels. */
GST_START_TEST (test_10bit_variants)
{
  static const gchar *variants[] = { "plain", "tiled", "vector" };
  static const gchar *conv_variants[] =
      { "plain", "tiled", "vector", "separable" };
  static const gint sizes[][2] = { {9, 5}, {67, 41} };
  static const guint windows[] = { 3, 15 };
  guint f, v, s, w;

  RT_FOR_EACH_FORMAT (f, rt_formats_10bit) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      for (v = 0; v < G_N_ELEMENTS (variants); v++) {
        for (w = 0; w < G_N_ELEMENTS (windows); w++) {
          guint32 seed = 0x10a00000 + f * 4096 + s * 256 + v * 16 + w;
          GstVideoInfo info;
          GstHarness *hr;
          GRand *rand = g_rand_new_with_seed (seed);
          Input plain = { FALSE, w == 1, NULL, {0, 0, 0, 0}
          };
          gchar *ctx, *launch;
          ThConfig cfg;

          th_config_init (&cfg, 20, windows[w], 14);
          cfg.epsilon_variant = variants[v];
          hr = make_harness (&cfg, rt_formats_10bit[f], sizes[s][0],
              sizes[s][1], FALSE, &info);
          ctx = th_config_ctx ("10-bit epsilon variant", rt_formats_10bit[f],
              sizes[s][0], sizes[s][1], seed, &cfg);
          gst_buffer_unref (push_one (hr, &info, &cfg, &plain, rand,
                  (s + w) & 1 ? FILL_NOISE : FILL_SMOOTH, ctx));
          launch = launch_stat (hr->element, "epsilon-launch");
          fail_unless (g_str_has_prefix (launch, v == 1 ? "plain " :
                  variants[v]), "%s: epsilon-launch \"%s\"", ctx, launch);
          g_free (launch);
          g_free (ctx);
          g_rand_free (rand);
          th_teardown_checked (hr);
        }
      }

      for (v = 0; v < G_N_ELEMENTS (conv_variants); v++) {
        for (w = 0; w < 2; w++) {
          guint32 seed = 0x10c00000 + f * 4096 + s * 256 + v * 16 + w;
          GstVideoInfo info;
          GstHarness *hr;
          GRand *rand = g_rand_new_with_seed (seed);
          Input plain = { FALSE, FALSE, NULL, {0, 0, 0, 0}
          };
          const gchar *ran;
          gchar *ctx, *launch;
          ThConfig cfg;

          /* a rank-1 gaussian, then a kernel that does not separate */
          th_config_init (&cfg, 0, 3, 0);
          if (w == 0)
            th_config_set_kernel (&cfg, 5, 5, k_gauss5, 0, 0);
          else
            th_config_set_kernel (&cfg, 3, 3, k_sharpen, 0, 2);
          cfg.conv_variant = conv_variants[v];
          hr = make_harness (&cfg, rt_formats_10bit[f], sizes[s][0],
              sizes[s][1], FALSE, &info);
          ctx = th_config_ctx ("10-bit convolution variant",
              rt_formats_10bit[f], sizes[s][0], sizes[s][1], seed, &cfg);
          gst_buffer_unref (push_one (hr, &info, &cfg, &plain, rand,
                  FILL_NOISE, ctx));
          ran = v == 1 || (v == 3 && w == 1) ? "plain " : conv_variants[v];
          launch = launch_stat (hr->element, "convolution-launch");
          fail_unless (g_str_has_prefix (launch, ran),
              "%s: convolution-launch \"%s\", expected %s", ctx, launch, ran);
          g_free (launch);
          g_free (ctx);
          g_rand_free (rand);
          th_teardown_checked (hr);
        }
      }
    }
  }
}

GST_END_TEST;

/* 16-bit planes at odd byte offsets, with odd strides, go through the
 * device buffers and still come out exact (8-bit planes too). Where the
 * element works in place on host memory ("host-ptr"), the 16-bit planes
 * must have been moved to and from its device buffers by OpenCL, and the
 * 8-bit ones, every plane filtered, not. */
GST_START_TEST (test_odd_layout)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_Y42B
  };
  Input odd = { TRUE, FALSE, NULL, {0, 0, 0, 0} };
  guint f;

  RT_FOR_EACH_FORMAT (f, formats) {
    guint32 seed = 0x0dd00000 + f;
    GRand *rand = g_rand_new_with_seed (seed);
    GstStructure *stats = NULL;
    guint64 up = 0, down = 0, copied = 0;
    GstVideoInfo info;
    GstHarness *hr;
    ThConfig cfg;
    gchar *ctx;

    th_config_init (&cfg, 20, 5, 10);
    th_config_set_kernel (&cfg, 3, 3, k_blur, 0, 0);
    hr = make_harness (&cfg, formats[f], 23, 11, FALSE, &info);
    ctx = th_config_ctx ("odd layout", formats[f], 23, 11, seed, &cfg);
    gst_buffer_unref (push_one (hr, &info, &cfg, &odd, rand, FILL_SMOOTH, ctx));
    g_object_get (hr->element, "stats", &stats, NULL);
    fail_unless (gst_structure_get (stats, "upload-bytes", G_TYPE_UINT64, &up,
            "download-bytes", G_TYPE_UINT64, &down, "device-copy-bytes",
            G_TYPE_UINT64, &copied, NULL));
    if (g_str_equal (gst_structure_get_string (stats, "memory-path"),
            "host-ptr"))
      fail_unless ((up + down + copied > 0) == (f < 2), "%s: upload-bytes %"
          G_GUINT64_FORMAT ", download-bytes %" G_GUINT64_FORMAT
          ", device-copy-bytes %" G_GUINT64_FORMAT, ctx, up, down, copied);
    gst_structure_free (stats);
    g_free (ctx);
    g_rand_free (rand);
    th_teardown_checked (hr);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Crop meta                                                                */

/* What the element filters for the crop rectangle @crop of a @w x @h frame:
 * the rectangle clipped to the frame, or the whole frame where that is
 * empty. */
static Rect
clipped (const Rect * crop, gint w, gint h)
{
  Rect r;

  r.x = MIN (crop->x, w);
  r.y = MIN (crop->y, h);
  r.width = MIN (crop->width, w - r.x);
  r.height = MIN (crop->height, h - r.y);
  if (r.width == 0 || r.height == 0) {
    r.x = r.y = 0;
    r.width = w;
    r.height = h;
  }
  return r;
}

GST_START_TEST (test_crop)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_Y42B,
    GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY
  };
  const gint w = 21, h = 13;
  static const Rect crops[] = {
    {2, 2, 10, 6},              /* even origin */
    {3, 1, 7, 5},               /* odd origin and size */
    {3, 3, 4, 4},               /* 4:2:0 chroma: 3x3 samples cover it */
    {0, 0, 21, 13},             /* the whole frame */
    {5, 4, 1, 1},               /* one sample */
    {20, 0, 1, 13},             /* the last column */
    {0, 12, 21, 1},             /* the last row */
    {4, 3, 100, 100},           /* beyond the frame: clipped */
    {30, 2, 4, 4},              /* outside the frame: ignored */
  };
  guint f, c;

  RT_FOR_EACH_FORMAT (f, formats) {
    for (c = 0; c < G_N_ELEMENTS (crops); c++) {
      guint32 seed = 0xc0000000 + f * 256 + c;
      Input input = { FALSE, c == 1, &crops[c], clipped (&crops[c], w, h) };
      ThConfig cfg;

      th_config_init (&cfg, 20, 5, 14);
      th_config_set_kernel (&cfg, 3, 3, k_blur, 0, 0);
      run_one ("crop", formats[f], w, h, &cfg, &input, seed,
          c & 1 ? FILL_NOISE : FILL_SMOOTH);
    }
  }
}

GST_END_TEST;

/* Crops with the other memory paths and variants: odd 16-bit layouts,
 * every epsilon variant, one element for several frames whose crop
 * rectangles change (and vanish) from frame to frame, empty crop
 * rectangles (ignored: the whole frame is filtered). */
GST_START_TEST (test_crop_frames)
{
  static const GstVideoFormat formats[] =
      { GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE };
  static const gchar *variants[] = { "plain", "tiled", "vector" };
  const gint w = 40, h = 22;
  static const Rect crops[] = {
    {8, 4, 24, 14}, {1, 1, 37, 19}, {0, 0, 0, 0}, {9, 0, 0, 5},
    {16, 10, 24, 12}, {0, 0, 40, 22},
  };
  guint f, v, c;

  RT_FOR_EACH_FORMAT (f, formats) {
    for (v = 0; v < G_N_ELEMENTS (variants); v++) {
      guint32 seed = 0xc1000000 + f * 256 + v * 16;
      GRand *rand = g_rand_new_with_seed (seed);
      GstVideoInfo info;
      GstHarness *hr;
      ThConfig cfg;
      gchar *ctx;

      th_config_init (&cfg, 16, 7, 9);
      th_config_set_kernel (&cfg, 3, 3, k_sharpen, 0, 0);
      cfg.epsilon_variant = variants[v];
      hr = make_harness (&cfg, formats[f], w, h, FALSE, &info);
      ctx = th_config_ctx ("crop frames", formats[f], w, h, seed, &cfg);
      for (c = 0; c <= G_N_ELEMENTS (crops); c++) {
        /* The last frame has no crop meta at all. */
        gboolean last = c == G_N_ELEMENTS (crops);
        Input input = { c == 1, FALSE, last ? NULL : &crops[c],
          last ? (Rect) {0, 0, 0, 0}
          : clipped (&crops[c], w, h)
        };

        gst_buffer_unref (push_one (hr, &info, &cfg, &input, rand,
                FILL_NOISE, ctx));
      }
      g_free (ctx);
      g_rand_free (rand);
      th_teardown_checked (hr);
    }
  }
}

GST_END_TEST;

/* In passthrough the buffer, and its crop meta, go through untouched. */
GST_START_TEST (test_crop_passthrough)
{
  GstVideoInfo info;
  GstHarness *hr;
  GstBuffer *in, *out;
  GstVideoCropMeta *meta;
  GRand *rand = g_rand_new_with_seed (0xc2000000);
  ThConfig cfg;

  th_config_init (&cfg, 0, 3, 0);
  hr = make_harness (&cfg, GST_VIDEO_FORMAT_P010_10LE, 16, 8, FALSE, &info);
  in = make_input (&info, rand, FILL_NOISE, FALSE);
  meta = gst_buffer_add_video_crop_meta (in);
  meta->x = 2;
  meta->y = 2;
  meta->width = 8;
  meta->height = 4;
  gst_buffer_ref (in);
  fail_unless_equals_int (gst_harness_push (hr, in), GST_FLOW_OK);
  out = gst_harness_pull (hr);
  fail_unless (out == in, "passthrough did not pass the buffer on");
  meta = gst_buffer_get_video_crop_meta (out);
  fail_unless (meta != NULL && meta->x == 2 && meta->y == 2 &&
      meta->width == 8 && meta->height == 4);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_END_TEST;

/* Upstream is told that crop metas are welcome exactly when downstream
 * takes them: the element keeps the meta, and only downstream can apply
 * it. */
GST_START_TEST (test_crop_allocation)
{
  guint downstream;

  for (downstream = 0; downstream < 2; downstream++) {
    GstVideoInfo info;
    GstHarness *hr;
    GstCaps *caps;
    GstQuery *query;
    GRand *rand = g_rand_new_with_seed (0xc3000000 + downstream);
    Input plain = { FALSE, FALSE, NULL, {0, 0, 0, 0}
    };
    ThConfig cfg;
    gboolean proposed;

    th_config_init (&cfg, 20, 5, 0);
    hr = make_harness (&cfg, GST_VIDEO_FORMAT_I420, 32, 16, downstream, &info);
    /* One frame, so that the element has decided its own allocation. */
    gst_buffer_unref (push_one (hr, &info, &cfg, &plain, rand, FILL_NOISE,
            "crop allocation"));

    caps = gst_pad_get_current_caps (hr->srcpad);
    query = gst_query_new_allocation (caps, TRUE);
    fail_unless (gst_pad_peer_query (hr->srcpad, query),
        "the ALLOCATION query was not answered");
    proposed = gst_query_find_allocation_meta (query,
        GST_VIDEO_CROP_META_API_TYPE, NULL);
    fail_unless (proposed == (downstream == 1),
        "downstream %s crop metas, but clepsilon %s them upstream",
        downstream ? "takes" : "does not take",
        proposed ? "proposes" : "does not propose");
    gst_query_unref (query);
    gst_caps_unref (caps);
    g_rand_free (rand);
    th_teardown_checked (hr);
  }
}

GST_END_TEST;

static Suite *
clepsilonformats_suite (void)
{
  Suite *s = suite_create ("clepsilonformats");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_planar_444_422);
  tcase_add_test (tc, test_packed_422);
  tcase_add_test (tc, test_10bit);
  tcase_add_test (tc, test_10bit_threshold_scale);
  tcase_add_test (tc, test_10bit_threshold_change_playing);
  tcase_add_test (tc, test_10bit_variants);
  tcase_add_test (tc, test_odd_layout);
  tcase_add_test (tc, test_crop);
  tcase_add_test (tc, test_crop_frames);
  tcase_add_test (tc, test_crop_passthrough);
  tcase_add_test (tc, test_crop_allocation);
  return s;
}

GST_CHECK_MAIN (clepsilonformats);
