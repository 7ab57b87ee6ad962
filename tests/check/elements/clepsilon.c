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

/* Tests of the clepsilon element: every output sample is compared with the
 * plain C reference in ../reference.c.
 *
 * The OpenCL device is taken from $CLEPSILON_TEST_DEVICE (default "pocl"). */

#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "../harness.h"
#include "../../../gst/gstcldebug-private.h"

/* ------------------------------------------------------------------------ */
/* Configurations                                                           */

static gboolean
is_integer (gdouble v)
{
  return v == floor (v);
}

/* Convolution must be exact with integer coefficients, divisor and bias;
 * otherwise within 1. */
static guint
config_luma_tolerance (const ThConfig * cfg)
{
  gint i;

  if (cfg->ref.kernel_width == 0)
    return 0;
  if (!is_integer (cfg->ref.divisor) || !is_integer (cfg->ref.bias))
    return 1;
  for (i = 0; i < cfg->ref.kernel_width * cfg->ref.kernel_height; i++)
    if (!is_integer (cfg->ref.kernel[i]))
      return 1;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */

/* A buffer with a GstVideoMeta: strides @extra bytes larger than needed and
 * plane offsets with gaps of @gap bytes or more; everything that is not an
 * image sample is @poison. */
static GstBuffer *
make_padded_input (const GstVideoInfo * info, GRand * rand, ThFill mode,
    gint extra, gint gap, guint8 poison)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  guint n_planes = GST_VIDEO_INFO_N_PLANES (info);
  guint p, comp;
  gsize pos = gap;
  GstBuffer *buf;
  GstMapInfo map;
  GstVideoFrame frame;
  GstVideoInfo vinfo = *info;

  for (p = 0; p < n_planes; p++) {
    gint row_bytes = 0, rows = 0;

    for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
      gint last;

      if (GST_VIDEO_INFO_COMP_PLANE (info, comp) != p)
        continue;
      last = (gint) GST_VIDEO_INFO_COMP_POFFSET (info, comp)
          + ((gint) GST_VIDEO_INFO_COMP_WIDTH (info, comp) - 1)
          * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp) + 1;

      row_bytes = MAX (row_bytes, last);
      rows = MAX (rows, (gint) GST_VIDEO_INFO_COMP_HEIGHT (info, comp));
    }
    stride[p] = row_bytes + extra;
    offset[p] = pos;
    pos += (gsize) stride[p] * rows + gap + 7 * p;
  }

  buf = gst_buffer_new_allocate (NULL, pos, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  memset (map.data, poison, map.size);
  gst_buffer_unmap (buf, &map);

  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), n_planes, offset, stride);

  fail_unless (gst_video_frame_map (&frame, &vinfo, buf, GST_MAP_WRITE));
  for (p = 0; p < n_planes; p++) {
    fail_unless_equals_int (GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
        stride[p]);
  }
  th_fill_frame (&frame, rand, mode);
  gst_video_frame_unmap (&frame);
  return buf;
}

/* ------------------------------------------------------------------------ */
/* Element and harness                                                      */

/* A clepsilon with every setting of @cfg (NULL: the defaults). */
static GstElement *
make_element (const ThConfig * cfg)
{
  GstElement *e = th_make_element ();

  if (cfg)
    th_config_apply (cfg, e);
  return e;
}

static GstHarness *
make_harness (GstVideoFormat fmt, gint w, gint h, const ThConfig * cfg,
    GstVideoInfo * info)
{
  return th_harness_new (make_element (cfg), fmt, w, h, 0, info);
}

/* The output caps must be the input caps. */
static void
check_output_caps (GstHarness * hr, const gchar * ctx)
{
  GstCaps *in = gst_pad_get_current_caps (hr->srcpad);
  GstCaps *out = gst_pad_get_current_caps (hr->sinkpad);
  gchar *is, *os;

  fail_unless (in != NULL && out != NULL, "%s: no caps negotiated", ctx);
  is = gst_caps_to_string (in);
  os = gst_caps_to_string (out);
  fail_unless (gst_caps_is_equal (in, out),
      "%s: output caps %s differ from input caps %s", ctx, os, is);
  g_free (is);
  g_free (os);
  gst_caps_unref (in);
  gst_caps_unref (out);
}

/* Pushes one random frame through a fresh element configured with @cfg and
 * compares the output with the reference. */
static void
run_one (const gchar * what, GstVideoFormat fmt, gint w, gint h,
    const ThConfig * cfg, guint32 seed, ThFill mode)
{
  GstVideoInfo info;
  GstHarness *hr = make_harness (fmt, w, h, cfg, &info);
  GRand *rand = g_rand_new_with_seed (seed);
  gchar *ctx = th_config_ctx (what, fmt, w, h, seed, cfg);
  GstBuffer *in, *exp, *out;

  in = th_make_input (&info, rand, mode);
  exp = rt_make_expected (&info, in, &cfg->ref);
  GST_BUFFER_PTS (in) = 0;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;

  out = th_push_pull (hr, in, ctx);
  check_output_caps (hr, ctx);
  th_check_frame (&info, out, exp, config_luma_tolerance (cfg), ctx);

  gst_buffer_unref (out);
  gst_buffer_unref (exp);
  g_free (ctx);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

/* ------------------------------------------------------------------------ */
/* Kernels used by several tests                                           */

static const gdouble k_blur[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
static const gdouble k_sharpen[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
static const gdouble k_ones9[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
static const gdouble k_edge[9] = { -1, -1, -1, -1, 8, -1, -1, -1, -1 };

static const gdouble k_frac[9] = {
  0.5, 0.25, -0.125,
  1.5, 2.0, 0.75,
  -0.5, 0.3, 1.1
};

static void
config_blur (ThConfig * cfg)
{
  th_config_set_kernel_str (cfg, "1 2 1; 2 4 2; 1 2 1", 3, 3, k_blur, 0, 0);
}

static void
config_sharpen (ThConfig * cfg)
{
  th_config_set_kernel_str (cfg, "0 -1 0; -1 5 -1; 0 -1 0", 3, 3, k_sharpen, 0,
      0);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("clepsilon", NULL);
  guint threshold, window, chroma;
  gchar *kernel, *device;
  gdouble divisor, bias;

  fail_unless (e != NULL);
  g_object_get (e, "threshold", &threshold, "window-size", &window,
      "chroma-threshold", &chroma, "kernel", &kernel, "divisor", &divisor,
      "bias", &bias, "device", &device, NULL);
  fail_unless_equals_int (threshold, 10);
  fail_unless_equals_int (window, 3);
  fail_unless_equals_int (chroma, 0);
  fail_unless (kernel == NULL || kernel[0] == '\0',
      "default kernel is \"%s\"", kernel);
  fail_unless_equals_float (divisor, 0.0);
  fail_unless_equals_float (bias, 0.0);
  fail_unless_equals_string (device, "auto");
  g_free (kernel);
  g_free (device);

  g_object_set (e, "threshold", 200, "window-size", 15,
      "chroma-threshold", 33, "kernel", "1 2 1; 2 4 2; 1 2 1",
      "divisor", 2.5, "bias", -3.25, "device", "something", NULL);
  g_object_get (e, "threshold", &threshold, "window-size", &window,
      "chroma-threshold", &chroma, "kernel", &kernel, "divisor", &divisor,
      "bias", &bias, "device", &device, NULL);
  fail_unless_equals_int (threshold, 200);
  fail_unless_equals_int (window, 15);
  fail_unless_equals_int (chroma, 33);
  fail_unless_equals_string (kernel, "1 2 1; 2 4 2; 1 2 1");
  fail_unless_equals_float (divisor, 2.5);
  fail_unless_equals_float (bias, -3.25);
  fail_unless_equals_string (device, "something");
  g_free (kernel);
  g_free (device);

  /* setting an empty kernel removes it */
  g_object_set (e, "kernel", "", NULL);
  g_object_get (e, "kernel", &kernel, NULL);
  fail_unless (kernel == NULL || kernel[0] == '\0');
  g_free (kernel);

  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_sizes)
{
  static const gint sizes[][2] =
      { {1, 1}, {2, 2}, {3, 5}, {17, 9}, {641, 481} };
  GRand *krand = g_rand_new_with_seed (0x51e0ffff);
  gdouble big[225];
  guint f, s;

  for (f = 0; f < 225; f++)
    big[f] = g_rand_int_range (krand, -2, 5);
  g_rand_free (krand);

  RT_FOR_EACH_FORMAT (f, rt_formats_420) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      ThConfig cfg;
      guint32 seed = 0x51e00000 + f * 16 + s;

      /* luma only, window much larger than the smallest frames */
      th_config_init (&cfg, 20, 15, 0);
      run_one ("sizes", rt_formats_420[f], sizes[s][0], sizes[s][1], &cfg, seed,
          TH_FILL_NOISE);

      /* luma, chroma and convolution */
      th_config_init (&cfg, 20, 5, 12);
      config_blur (&cfg);
      run_one ("sizes", rt_formats_420[f], sizes[s][0], sizes[s][1], &cfg,
          seed + 0x1000, TH_FILL_SMOOTH);

      /* a 15x15 kernel, larger than the smallest frames */
      th_config_init (&cfg, 255, 3, 255);
      th_config_set_kernel (&cfg, 15, 15, big, 0, 0);
      run_one ("sizes", rt_formats_420[f], sizes[s][0], sizes[s][1], &cfg,
          seed + 0x2000, TH_FILL_NOISE);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_other_formats)
{
  ThConfig cfg;

  th_config_init (&cfg, 25, 7, 15);
  config_sharpen (&cfg);
  run_one ("other formats", GST_VIDEO_FORMAT_GRAY8, 45, 27, &cfg,
      0x0f000001, TH_FILL_SMOOTH);
  run_one ("other formats", GST_VIDEO_FORMAT_YV12, 45, 27, &cfg,
      0x0f000002, TH_FILL_SMOOTH);
  run_one ("other formats", GST_VIDEO_FORMAT_NV21, 45, 27, &cfg,
      0x0f000003, TH_FILL_SMOOTH);
  /* NV21 without chroma filtering: chroma must be copied bit-exact */
  th_config_init (&cfg, 25, 7, 0);
  run_one ("other formats", GST_VIDEO_FORMAT_NV21, 45, 27, &cfg,
      0x0f000004, TH_FILL_NOISE);
  run_one ("other formats", GST_VIDEO_FORMAT_YV12, 45, 27, &cfg,
      0x0f000005, TH_FILL_NOISE);
}

GST_END_TEST;

GST_START_TEST (test_window_sizes)
{
  guint f, win;

  RT_FOR_EACH_FORMAT (f, rt_formats_420) {
    for (win = 3; win <= 15; win += 2) {
      ThConfig cfg;

      th_config_init (&cfg, 20, win, 12);
      run_one ("window sizes", rt_formats_420[f], 37, 23, &cfg,
          0x3e000000 + f * 32 + win, TH_FILL_SMOOTH);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_thresholds)
{
  static const guint thresholds[] = { 0, 20, 255 };
  static const guint chromas[] = { 0, 20, 255 };
  guint f, t, c;

  RT_FOR_EACH_FORMAT (f, rt_formats_420) {
    for (t = 0; t < G_N_ELEMENTS (thresholds); t++) {
      for (c = 0; c < G_N_ELEMENTS (chromas); c++) {
        ThConfig cfg;

        th_config_init (&cfg, thresholds[t], 7, chromas[c]);
        run_one ("thresholds", rt_formats_420[f], 33, 19, &cfg,
            0x7e000000 + f * 64 + t * 8 + c, (t + c) & 1 ? TH_FILL_NOISE :
            TH_FILL_SMOOTH);
      }
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_kernels)
{
  GRand *krand = g_rand_new_with_seed (0x4b000001);
  gdouble row[15], big[225], sq25[25];
  GString *s25;
  ThConfig cfg;
  gint i;

  for (i = 0; i < 15; i++)
    row[i] = 1 + i;             /* asymmetric: catches a flipped kernel */
  for (i = 0; i < 225; i++)
    big[i] = g_rand_int_range (krand, -2, 5);
  s25 = g_string_new (NULL);
  for (i = 0; i < 25; i++) {
    sq25[i] = (i % 3) + (i == 12 ? 4 : 0);
    g_string_append_printf (s25, "%s%d", i ? " " : "", (gint) sq25[i]);
  }

  /* convolution alone (threshold 0: epsilon off) */
  th_config_init (&cfg, 0, 9, 0);
  config_blur (&cfg);
  run_one ("kernel blur", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg, 0x4b100001,
      TH_FILL_NOISE);

  th_config_init (&cfg, 0, 9, 0);
  config_sharpen (&cfg);
  run_one ("kernel sharpen", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg, 0x4b100002,
      TH_FILL_NOISE);

  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel (&cfg, 15, 1, row, 0, 0);
  run_one ("kernel 1x15 row", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg,
      0x4b100003, TH_FILL_NOISE);

  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel (&cfg, 1, 15, row, 0, 0);
  run_one ("kernel 15x1 column", GST_VIDEO_FORMAT_I420, 53, 31, &cfg,
      0x4b100004, TH_FILL_NOISE);

  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel (&cfg, 15, 15, big, 0, 0);
  run_one ("kernel 15x15 random", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg,
      0x4b100005, TH_FILL_NOISE);

  /* fractional coefficients, explicit divisor and bias: within 1 */
  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel (&cfg, 3, 3, k_frac, 2.5, 3.3);
  run_one ("kernel fractional", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg,
      0x4b100006, TH_FILL_NOISE);

  /* one row with a perfect-square count is a square matrix */
  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel_str (&cfg, "1 1 1 1 1 1 1 1 1", 3, 3, k_ones9, 0, 0);
  run_one ("kernel one-row 3x3", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg,
      0x4b100007, TH_FILL_NOISE);

  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel_str (&cfg, s25->str, 5, 5, sq25, 0, 0);
  run_one ("kernel one-row 5x5", GST_VIDEO_FORMAT_I420, 53, 31, &cfg,
      0x4b100008, TH_FILL_NOISE);

  /* coefficients summing to 0: auto divisor is 1; bias lifts it */
  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel_str (&cfg, "-1,-1,-1;-1,8,-1;-1,-1,-1", 3, 3, k_edge,
      0, 128);
  run_one ("kernel zero-sum edge", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg,
      0x4b100009, TH_FILL_SMOOTH);

  /* negative divisor inverts */
  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel (&cfg, 3, 3, k_edge, -2, 128);
  run_one ("kernel edge divisor -2 bias 128", GST_VIDEO_FORMAT_I420, 53, 31,
      &cfg, 0x4b10000f, TH_FILL_NOISE);

  /* explicit integer divisor and negative integer bias: exact */
  th_config_init (&cfg, 0, 9, 0);
  th_config_set_kernel (&cfg, 3, 3, k_blur, 8, -40);
  run_one ("kernel blur divisor 8 bias -40", GST_VIDEO_FORMAT_NV12, 53, 31,
      &cfg, 0x4b10000a, TH_FILL_NOISE);

  /* 1x1 kernel: a plain gain */
  {
    const gdouble one[1] = { 3 };
    th_config_init (&cfg, 0, 9, 0);
    th_config_set_kernel (&cfg, 1, 1, one, 2, 0);
    run_one ("kernel 1x1", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg, 0x4b10000b,
        TH_FILL_NOISE);
  }

  /* convolution after epsilon, with chroma filtering */
  th_config_init (&cfg, 20, 9, 10);
  config_sharpen (&cfg);
  run_one ("epsilon + sharpen", GST_VIDEO_FORMAT_NV12, 53, 31, &cfg,
      0x4b10000c, TH_FILL_SMOOTH);

  th_config_init (&cfg, 20, 5, 10);
  th_config_set_kernel (&cfg, 15, 15, big, 0, 0);
  run_one ("epsilon + 15x15", GST_VIDEO_FORMAT_I420, 53, 31, &cfg,
      0x4b10000d, TH_FILL_SMOOTH);

  th_config_init (&cfg, 30, 3, 0);
  th_config_set_kernel (&cfg, 3, 3, k_frac, 0, -7.5);
  run_one ("epsilon + fractional auto divisor", GST_VIDEO_FORMAT_I420, 53, 31,
      &cfg, 0x4b10000e, TH_FILL_SMOOTH);

  g_string_free (s25, TRUE);
  g_rand_free (krand);
}

GST_END_TEST;

GST_START_TEST (test_full_hd)
{
  ThConfig cfg;

  th_config_init (&cfg, 20, 9, 10);
  config_blur (&cfg);
  run_one ("1080p", GST_VIDEO_FORMAT_NV12, 1920, 1080, &cfg, 0x1080f001,
      TH_FILL_SMOOTH);
}

GST_END_TEST;

GST_START_TEST (test_padded_strides)
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV21
  };
  /* { extra stride bytes, gap between planes, poison } */
  static const gint layouts[][3] = {
    {64, 256, 0xff},            /* generous, aligned amounts */
    {3, 5, 0x00},               /* odd strides and offsets */
  };
  guint f, l;

  RT_FOR_EACH_FORMAT (f, formats) {
    for (l = 0; l < G_N_ELEMENTS (layouts); l++) {
      GstVideoFormat fmt = formats[f];
      gint w = 37, h = 23;
      guint32 seed = 0x9a000000 + f * 16 + l;
      ThConfig cfg;
      GstVideoInfo info;
      GstHarness *hr;
      GRand *rand;
      gchar *ctx, *full;
      GstBuffer *in, *out;

      static const gchar *variants[] = { "plain", "tiled", "vector", "wide" };

      th_config_init (&cfg, 20, 7, 15);
      config_sharpen (&cfg);
      /* Each layout through each kernel variant, in turn. */
      cfg.epsilon_variant = cfg.conv_variant =
          variants[(f * G_N_ELEMENTS (layouts) + l) % G_N_ELEMENTS (variants)];
      hr = make_harness (fmt, w, h, &cfg, &info);
      rand = g_rand_new_with_seed (seed);
      ctx = th_config_ctx ("padded strides", fmt, w, h, seed, &cfg);
      full = g_strdup_printf ("%s stride+%d gap %d poison 0x%02x", ctx,
          layouts[l][0], layouts[l][1], layouts[l][2]);

      in = make_padded_input (&info, rand, TH_FILL_NOISE, layouts[l][0],
          layouts[l][1], (guint8) layouts[l][2]);
      out = th_push_check (hr, &info, in, &cfg.ref, full);

      gst_buffer_unref (out);
      g_free (full);
      g_free (ctx);
      g_rand_free (rand);
      th_teardown_checked (hr);
    }
  }
}

GST_END_TEST;

/* Changes properties between pushes while PLAYING; every output must match
 * the reference for the values in force when its input was pushed. */
GST_START_TEST (test_property_change_playing)
{
  const GstVideoFormat fmt = GST_VIDEO_FORMAT_NV12;
  const gint w = 40, h = 30;
  const guint32 seed = 0xc4a70001;
  ThConfig cfgs[12];
  GstBuffer *exps[12];
  guint n = 0, i;
  GstVideoInfo info;
  GstHarness *hr;
  GRand *rand = g_rand_new_with_seed (seed);
  gdouble row[15];

  for (i = 0; i < 15; i++)
    row[i] = 1;

  th_config_init (&cfgs[n++], 20, 9, 0);
  cfgs[n] = cfgs[n - 1];
  cfgs[n++].ref.threshold = 5;
  cfgs[n] = cfgs[n - 1];
  cfgs[n].ref.threshold = 20;
  config_blur (&cfgs[n++]);
  cfgs[n] = cfgs[n - 1];
  cfgs[n].ref.window = 3;
  config_sharpen (&cfgs[n++]);
  cfgs[n] = cfgs[n - 1];
  cfgs[n++].ref.chroma_threshold = 30;
  cfgs[n] = cfgs[n - 1];
  th_config_set_kernel (&cfgs[n++], 3, 3, k_blur, 4, 10);
  /* everything off: passthrough */
  th_config_init (&cfgs[n++], 0, 3, 0);
  th_config_init (&cfgs[n++], 255, 15, 0);
  th_config_init (&cfgs[n++], 0, 15, 10);
  th_config_init (&cfgs[n], 0, 15, 0);
  th_config_set_kernel (&cfgs[n++], 15, 1, row, 0, 0);
  th_config_init (&cfgs[n], 40, 11, 0);
  th_config_set_kernel (&cfgs[n++], 1, 15, row, 5, -3);
  g_assert (n <= G_N_ELEMENTS (cfgs));

  hr = make_harness (fmt, w, h, &cfgs[0], &info);

  for (i = 0; i < n; i++) {
    GstBuffer *in = th_make_input (&info, rand,
        i & 1 ? TH_FILL_NOISE : TH_FILL_SMOOTH);
    GstFlowReturn ret;

    th_config_apply (&cfgs[i], hr->element);
    exps[i] = rt_make_expected (&info, in, &cfgs[i].ref);
    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    ret = gst_harness_push (hr, in);
    fail_unless (ret == GST_FLOW_OK, "push %u returned %s", i,
        gst_flow_get_name (ret));
  }

  fail_unless_equals_int (gst_harness_buffers_in_queue (hr), n);
  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_pull (hr);
    gchar *ctx = th_config_ctx ("property change", fmt, w, h, seed, &cfgs[i]);
    gchar *full = g_strdup_printf ("%s frame %u", ctx, i);

    fail_unless (out != NULL, "%s: no output", full);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 30);
    th_check_frame (&info, out, exps[i], config_luma_tolerance (&cfgs[i]),
        full);
    gst_buffer_unref (out);
    gst_buffer_unref (exps[i]);
    g_free (full);
    g_free (ctx);
  }

  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_END_TEST;

/* Frame @n of a run whose settings change while playing: a random input
 * pushed through @hr and checked against the reference of @cfg, the
 * settings the element was just given. */
static void
push_check_changed (GstHarness * hr, const GstVideoInfo * info, GRand * rand,
    ThFill fill, const ThConfig * cfg, guint n, const gchar * what,
    guint32 seed)
{
  GstBuffer *in = th_make_input (info, rand, fill);
  gchar *ctx = th_config_ctx (what, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), seed, cfg);

  GST_BUFFER_PTS (in) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  th_push_check_unref (hr, info, in, &cfg->ref, ctx);
  g_free (ctx);
}

/* The window size changed alone while playing, thresholds and kernel kept:
 * each frame must be filtered with its own window. Thresholds that stay
 * above 0 keep the same stages running, so the element could take the
 * change for new kernel arguments only; the window is compiled into the
 * kernels. */
GST_START_TEST (test_window_change_playing)
{
  static const guint windows[] = { 3, 9, 5, 15, 3, 7 };
  const guint32 seed = 0xc4a70002;
  GRand *rand = g_rand_new_with_seed (seed);
  GstVideoInfo info;
  GstHarness *hr;
  ThConfig cfg;
  guint i, with_kernel;

  for (with_kernel = 0; with_kernel < 2; with_kernel++) {
    th_config_init (&cfg, 40, windows[0], 30);
    if (with_kernel)
      config_blur (&cfg);
    hr = make_harness (GST_VIDEO_FORMAT_I420, 41, 29, &cfg, &info);
    for (i = 0; i < G_N_ELEMENTS (windows); i++) {
      cfg.ref.window = windows[i];
      g_object_set (hr->element, "window-size", windows[i], NULL);
      push_check_changed (hr, &info, rand, TH_FILL_SMOOTH, &cfg, i,
          "window change", seed);
    }
    th_teardown_checked (hr);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* The kernel's divisor and bias changed alone while playing: new kernel
 * arguments only, on the path that sets them without rebuilding anything;
 * each frame against the reference of its own values. */
GST_START_TEST (test_kernel_arguments_change_playing)
{
  static const gdouble divisor_bias[][2] = {
    {0, 0}, {8, 0}, {8, 12}, {20, -7}, {0, 30},
  };
  const guint32 seed = 0xc4a70003;
  GRand *rand = g_rand_new_with_seed (seed);
  GstVideoInfo info;
  GstHarness *hr;
  ThConfig cfg;
  guint i;

  th_config_init (&cfg, 12, 5, 6);
  th_config_set_kernel (&cfg, 3, 3, k_blur, 0, 0);
  hr = make_harness (GST_VIDEO_FORMAT_NV12, 33, 21, &cfg, &info);
  for (i = 0; i < G_N_ELEMENTS (divisor_bias); i++) {
    th_config_set_kernel (&cfg, 3, 3, k_blur, divisor_bias[i][0],
        divisor_bias[i][1]);
    g_object_set (hr->element, "divisor", divisor_bias[i][0], "bias",
        divisor_bias[i][1], NULL);
    push_check_changed (hr, &info, rand, TH_FILL_NOISE, &cfg, i,
        "kernel arguments change", seed);
  }
  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

#define MS ((GstClockTime) GST_MSECOND)

#define CHECKED_FLAGS (GST_BUFFER_FLAG_DISCONT | GST_BUFFER_FLAG_DELTA_UNIT | \
    GST_BUFFER_FLAG_MARKER | GST_BUFFER_FLAG_HEADER | GST_BUFFER_FLAG_DROPPABLE)

static void
check_metadata (const ThConfig * cfg, const gchar * what)
{
  const GstVideoFormat fmt = GST_VIDEO_FORMAT_I420;
  const gint w = 24, h = 18;
  const guint32 seed = 0x7135a000;
  const guint N = 5;
  GstVideoInfo info;
  GstHarness *hr = make_harness (fmt, w, h, cfg, &info);
  GRand *rand = g_rand_new_with_seed (seed);
  gchar *ctx = th_config_ctx (what, fmt, w, h, seed, cfg);
  GstBuffer *exps[5];
  guint i;

  for (i = 0; i < N; i++) {
    GstBuffer *in = th_make_input (&info, rand, TH_FILL_NOISE);
    GstFlowReturn ret;

    exps[i] = rt_make_expected (&info, in, &cfg->ref);
    GST_BUFFER_PTS (in) = 1000 + i * 33 * MS;
    GST_BUFFER_DTS (in) = 500 + i * 33 * MS;
    GST_BUFFER_DURATION (in) = 33 * MS + i;
    GST_BUFFER_OFFSET (in) = 100 + i;
    GST_BUFFER_OFFSET_END (in) = 101 + i;
    if (i == 0)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
    else
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DELTA_UNIT);
    if (i == 2)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_MARKER);
    if (i == 3)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DROPPABLE);
    ret = gst_harness_push (hr, in);
    fail_unless (ret == GST_FLOW_OK, "%s: push %u returned %s", ctx, i,
        gst_flow_get_name (ret));
  }

  fail_unless_equals_int (gst_harness_buffers_received (hr), N);
  for (i = 0; i < N; i++) {
    GstBuffer *out = gst_harness_pull (hr);
    GstBufferFlags want = i == 0 ? GST_BUFFER_FLAG_DISCONT :
        GST_BUFFER_FLAG_DELTA_UNIT;

    if (i == 2)
      want |= GST_BUFFER_FLAG_MARKER;
    if (i == 3)
      want |= GST_BUFFER_FLAG_DROPPABLE;

    fail_unless (out != NULL, "%s: no output %u", ctx, i);
    fail_unless (GST_BUFFER_PTS (out) == 1000 + i * 33 * MS,
        "%s: buffer %u PTS %" GST_TIME_FORMAT, ctx, i,
        GST_TIME_ARGS (GST_BUFFER_PTS (out)));
    fail_unless (GST_BUFFER_DTS (out) == 500 + i * 33 * MS,
        "%s: buffer %u DTS %" GST_TIME_FORMAT, ctx, i,
        GST_TIME_ARGS (GST_BUFFER_DTS (out)));
    fail_unless (GST_BUFFER_DURATION (out) == 33 * MS + i,
        "%s: buffer %u duration %" GST_TIME_FORMAT, ctx, i,
        GST_TIME_ARGS (GST_BUFFER_DURATION (out)));
    fail_unless (GST_BUFFER_OFFSET (out) == 100 + i,
        "%s: buffer %u offset %" G_GUINT64_FORMAT, ctx, i,
        GST_BUFFER_OFFSET (out));
    fail_unless (GST_BUFFER_OFFSET_END (out) == 101 + i,
        "%s: buffer %u offset_end %" G_GUINT64_FORMAT, ctx, i,
        GST_BUFFER_OFFSET_END (out));
    fail_unless ((GST_BUFFER_FLAGS (out) & CHECKED_FLAGS) == want,
        "%s: buffer %u flags 0x%x, expected 0x%x", ctx, i,
        GST_BUFFER_FLAGS (out) & CHECKED_FLAGS, want);
    th_check_frame (&info, out, exps[i], config_luma_tolerance (cfg), ctx);
    gst_buffer_unref (out);
    gst_buffer_unref (exps[i]);
  }
  fail_unless (gst_harness_try_pull (hr) == NULL,
      "%s: more outputs than inputs", ctx);

  g_free (ctx);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_START_TEST (test_buffer_metadata)
{
  ThConfig cfg;

  th_config_init (&cfg, 20, 5, 10);
  config_blur (&cfg);
  check_metadata (&cfg, "metadata filtering");

  th_config_init (&cfg, 0, 5, 0);
  check_metadata (&cfg, "metadata passthrough");
}

GST_END_TEST;

GST_START_TEST (test_passthrough)
{
  guint f;

  RT_FOR_EACH_FORMAT (f, rt_formats_420) {
    const gint w = 31, h = 17;
    const guint32 seed = 0xba550000 + f;
    ThConfig cfg;
    GstVideoInfo info;
    GstHarness *hr;
    GRand *rand = g_rand_new_with_seed (seed);
    GstBuffer *in, *out, *copy;
    gchar *ctx;

    th_config_init (&cfg, 0, 9, 0);
    hr = make_harness (rt_formats_420[f], w, h, &cfg, &info);
    ctx = th_config_ctx ("passthrough", rt_formats_420[f], w, h, seed, &cfg);

    in = th_make_input (&info, rand, TH_FILL_NOISE);
    copy = gst_buffer_copy_deep (in);
    gst_buffer_ref (in);
    fail_unless_equals_int (gst_harness_push (hr, in), GST_FLOW_OK);
    out = gst_harness_pull (hr);
    fail_unless (out != NULL, "%s: no output", ctx);
    if (out != in)
      GST_INFO ("%s: passthrough output is a different buffer", ctx);

    /* identical data in every sample */
    th_check_frame (&info, out, copy, 0, ctx);
    /* the input must not have been modified either */
    th_check_frame (&info, in, copy, 0, ctx);

    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_buffer_unref (copy);
    g_free (ctx);
    g_rand_free (rand);
    th_teardown_checked (hr);
  }
}

GST_END_TEST;

GST_START_TEST (test_default_params)
{
  /* the expert properties' defaults (threshold 10, window 3, no chroma,
   * no kernel) must be the reference's: the first one set on an element
   * with nothing else set (strength=auto) starts from them */
  GstVideoInfo info;
  GstHarness *hr;
  ThConfig cfg;
  GRand *rand = g_rand_new_with_seed (0xdef0001);
  GstBuffer *in, *out;
  GstElement *e;
  gchar *ctx;

  th_config_init (&cfg, 0, 0, 0);
  ref_params_init (&cfg.ref);
  ctx = th_config_ctx ("defaults", GST_VIDEO_FORMAT_NV12, 29, 21, 0xdef0001,
      &cfg);
  e = th_make_element ();
  g_object_set (e, "window-size", 3, NULL);
  hr = th_harness_new (e, GST_VIDEO_FORMAT_NV12, 29, 21, 0, &info);
  in = th_make_input (&info, rand, TH_FILL_SMOOTH);
  out = th_push_check (hr, &info, in, &cfg.ref, ctx);

  gst_buffer_unref (out);
  g_free (ctx);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_END_TEST;

GST_START_TEST (test_device_name)
{
  ThConfig cfg;
  GstVideoInfo info;
  GstHarness *hr;
  gchar *name = NULL;

  th_config_init (&cfg, 20, 9, 0);
  hr = make_harness (GST_VIDEO_FORMAT_GRAY8, 8, 8, &cfg, &info);
  g_object_get (hr->element, "device-name", &name, NULL);
  fail_unless (name != NULL && name[0] != '\0',
      "device-name is empty once started (device=%s)", rt_device ());
  GST_INFO ("device-name: %s", name);
  g_free (name);
  th_teardown_checked (hr);
}

GST_END_TEST;

GST_START_TEST (test_even_window_rejected)
{
  ThConfig cfg;
  GstVideoInfo info;
  GstHarness *hr;
  GRand *rand = g_rand_new_with_seed (0xe7e70001);
  GstBuffer *in, *out;
  guint win;
  gchar *ctx;

  /* not started */
  {
    GstElement *e = gst_element_factory_make ("clepsilon", NULL);
    g_object_set (e, "window-size", 4, NULL);
    g_object_get (e, "window-size", &win, NULL);
    fail_unless_equals_int (win, 3);
    g_object_set (e, "window-size", 11, NULL);
    g_object_set (e, "window-size", 14, NULL);
    g_object_get (e, "window-size", &win, NULL);
    fail_unless_equals_int (win, 11);
    gst_object_unref (e);
  }

  /* while PLAYING: the filter keeps using the old window */
  th_config_init (&cfg, 20, 7, 10);
  hr = make_harness (GST_VIDEO_FORMAT_I420, 37, 23, &cfg, &info);
  g_object_set (hr->element, "window-size", 4, NULL);
  g_object_get (hr->element, "window-size", &win, NULL);
  fail_unless_equals_int (win, 7);
  g_object_set (hr->element, "window-size", 6, NULL);
  g_object_get (hr->element, "window-size", &win, NULL);
  fail_unless_equals_int (win, 7);

  ctx = th_config_ctx ("even window rejected", GST_VIDEO_FORMAT_I420, 37, 23,
      0xe7e70001, &cfg);
  in = th_make_input (&info, rand, TH_FILL_SMOOTH);
  out = th_push_check (hr, &info, in, &cfg.ref, ctx);
  gst_buffer_unref (out);

  g_free (ctx);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_END_TEST;

static gchar *
make_square_kernel_string (gint side)
{
  GString *s = g_string_new (NULL);
  gint r, c;

  for (r = 0; r < side; r++) {
    if (r)
      g_string_append (s, "; ");
    for (c = 0; c < side; c++)
      g_string_append (s, c ? " 1" : "1");
  }
  return g_string_free (s, FALSE);
}

GST_START_TEST (test_bad_kernel_rejected)
{
  gchar *k17 = make_square_kernel_string (17);
  gchar *k16 = make_square_kernel_string (16);
  const gchar *bad[] = {
    "abc", "1 2", "1 2 3; 4 5", "nan 1 1 1 1 1 1 1 1",
    "inf 1 1 1 1 1 1 1 1", "1 1 1 1 -inf 1 1 1 1", "1 1; 1 1", "1 2 1;;1 2 1",
    "1x 2 1", "1e999 1 1", "1 1 1 1", "1 2 1; 2 4 2; 1 2", k16, k17,
  };
  const gchar *good = "0 -1 0; -1 5 -1; 0 -1 0";
  ThConfig cfg;
  GstVideoInfo info;
  GstHarness *hr;
  GRand *rand = g_rand_new_with_seed (0xbadc0001);
  GstBuffer *in, *out;
  gchar *kernel, *ctx;
  guint i;

  /* not started, no kernel yet */
  {
    GstElement *e = gst_element_factory_make ("clepsilon", NULL);
    for (i = 0; i < G_N_ELEMENTS (bad); i++) {
      g_object_set (e, "kernel", bad[i], NULL);
      g_object_get (e, "kernel", &kernel, NULL);
      fail_unless (kernel == NULL || kernel[0] == '\0',
          "kernel \"%s\" was accepted (reads back \"%s\")", bad[i], kernel);
      g_free (kernel);
    }
    gst_object_unref (e);
  }

  /* while PLAYING with a kernel */
  th_config_init (&cfg, 0, 9, 0);
  config_sharpen (&cfg);
  hr = make_harness (GST_VIDEO_FORMAT_NV12, 30, 20, &cfg, &info);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_object_set (hr->element, "kernel", bad[i], NULL);
    g_object_get (hr->element, "kernel", &kernel, NULL);
    fail_unless (g_strcmp0 (kernel, good) == 0,
        "kernel \"%.60s\" replaced \"%s\" (reads back \"%.60s\")", bad[i],
        good, kernel);
    g_free (kernel);
  }

  ctx = th_config_ctx ("bad kernel rejected", GST_VIDEO_FORMAT_NV12, 30, 20,
      0xbadc0001, &cfg);
  in = th_make_input (&info, rand, TH_FILL_NOISE);
  out = th_push_check (hr, &info, in, &cfg.ref, ctx);
  gst_buffer_unref (out);

  g_free (ctx);
  g_free (k16);
  g_free (k17);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_END_TEST;

GST_START_TEST (test_bad_device)
{
  GstElement *e = gst_element_factory_make ("clepsilon", NULL);
  GstBus *bus = gst_bus_new ();
  GstStateChangeReturn ret;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL, *text, *folded;

  g_object_set (e, "device", "no-such-device-xyz", NULL);
  gst_element_set_bus (e, bus);
  ret = gst_element_set_state (e, GST_STATE_PLAYING);
  fail_unless (ret == GST_STATE_CHANGE_FAILURE,
      "going to PLAYING with device=no-such-device-xyz returned %s",
      gst_element_state_change_return_get_name (ret));

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no ERROR message on the bus");
  gst_message_parse_error (msg, &err, &dbg);
  text = g_strdup_printf ("%s %s", err->message, dbg ? dbg : "");
  folded = g_ascii_strdown (text, -1);
  fail_unless (strstr (folded, "opencl") != NULL,
      "error message does not name OpenCL: \"%s\"", text);
  GST_INFO ("error: %s", text);

  g_free (folded);
  g_free (text);
  g_free (dbg);
  g_error_free (err);
  gst_message_unref (msg);

  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

/* New caps mid-stream (format and size change): each frame is processed
 * with the caps in force when it was pushed. */
GST_START_TEST (test_renegotiate)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
  } steps[] = {
    {GST_VIDEO_FORMAT_NV12, 37, 23},
    {GST_VIDEO_FORMAT_I420, 20, 14},
    {GST_VIDEO_FORMAT_NV12, 161, 91},
    {GST_VIDEO_FORMAT_GRAY8, 9, 3},
    {GST_VIDEO_FORMAT_NV12, 37, 23},
  };
  const guint32 seed = 0x4e60a001;
  ThConfig cfg;
  GstVideoInfo info;
  GstHarness *hr;
  GRand *rand = g_rand_new_with_seed (seed);
  guint i;

  th_config_init (&cfg, 20, 7, 9);
  config_sharpen (&cfg);
  hr = make_harness (steps[0].fmt, steps[0].w, steps[0].h, &cfg, &info);

  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    gchar *ctx = th_config_ctx ("renegotiate", steps[i].fmt, steps[i].w,
        steps[i].h, seed, &cfg);
    gchar *full = g_strdup_printf ("%s step %u", ctx, i);
    GstBuffer *in, *out;

    if (i > 0)
      th_harness_set_format (hr, steps[i].fmt, steps[i].w, steps[i].h, &info);
    in = th_make_input (&info, rand, TH_FILL_SMOOTH);
    out = th_push_check (hr, &info, in, &cfg.ref, full);
    check_output_caps (hr, full);
    gst_buffer_unref (out);
    g_free (full);
    g_free (ctx);
  }

  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_END_TEST;

static void
count_log (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  guint *count = user_data;

  /* format the message, as a real log function would */
  if (gst_debug_message_get (message) != NULL)
    (*count)++;
}

/* With all debug logging on (e.g. GST_DEBUG=5), the element must work and
 * must not log through an uninitialised debug category (that is a
 * g_critical, fatal here). Runs first thing in its own process, so nothing
 * has been initialised by an earlier test. */
/* Every kernel variant, forced, against the reference: sizes around the
 * vector width (8) and the work-group sizes, windows from the smallest to
 * the largest, interleaved and planar chroma. */
GST_START_TEST (test_epsilon_variants)
{
  static const gchar *variants[] = { "plain", "tiled", "vector", "wide" };
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {9, 5}, {67, 41} };
  static const guint windows[] = { 3, 9, 15 };
  guint v, f, s, w;

  for (v = 0; v < G_N_ELEMENTS (variants); v++) {
    RT_FOR_EACH_FORMAT (f, rt_formats_420) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        for (w = 0; w < G_N_ELEMENTS (windows); w++) {
          ThConfig cfg;

          th_config_init (&cfg, 20, windows[w], 14);
          cfg.epsilon_variant = variants[v];
          run_one ("epsilon variant", rt_formats_420[f], sizes[s][0],
              sizes[s][1], &cfg, 0x5a000000 + v * 4096 + f * 256 + s * 16 + w,
              (s + w) & 1 ? TH_FILL_NOISE : TH_FILL_SMOOTH);
        }
      }
    }
  }
}

GST_END_TEST;

/* The wide epsilon kernel works in row strips of 256 bytes, two 16-sample
 * vectors at a time in the interior and one near the edges: widths on
 * either side of a strip and of the vector steps, in bytes of planar and
 * interleaved rows, with windows that reach past a vector. */
GST_START_TEST (test_epsilon_wide_strips)
{
  static const GstVideoFormat formats[] =
      { GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12 };
  static const gint widths[] = { 33, 255, 257, 290, 529 };
  static const guint windows[] = { 3, 5, 15 };
  guint f, s, w;

  RT_FOR_EACH_FORMAT (f, formats) {
    for (s = 0; s < G_N_ELEMENTS (widths); s++) {
      for (w = 0; w < G_N_ELEMENTS (windows); w++) {
        ThConfig cfg;

        th_config_init (&cfg, 20, windows[w], 14);
        cfg.epsilon_variant = "wide";
        run_one ("epsilon wide strips", formats[f], widths[s], 6 + w, &cfg,
            0x5b000000 + f * 256 + s * 16 + w, w & 1 ? TH_FILL_SMOOTH :
            TH_FILL_NOISE);
      }
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_convolution_variants)
{
  static const gchar *variants[] =
      { "plain", "tiled", "vector", "wide", "separable" };
  static const gdouble g5[5] = { 1, 4, 6, 4, 1 };
  static const gdouble frac3[3] = { 0.25, 0.5, 0.25 };
  static const gint sizes[][2] = { {1, 1}, {9, 5}, {67, 41} };
  gdouble gauss[25], fracsep[9], row15[15], col15[15];
  ThConfig cfgs[6];
  guint v, k, s, i;

  for (i = 0; i < 25; i++)
    gauss[i] = g5[i / 5] * g5[i % 5];
  for (i = 0; i < 9; i++)
    fracsep[i] = frac3[i / 3] * (1 + i % 3);    /* rank 1, not symmetric */
  for (i = 0; i < 15; i++)
    row15[i] = col15[i] = 1 + i;

  th_config_init (&cfgs[0], 0, 9, 0);
  th_config_set_kernel (&cfgs[0], 5, 5, gauss, 0, 0);   /* separable */
  th_config_init (&cfgs[1], 20, 9, 0);
  th_config_set_kernel (&cfgs[1], 3, 3, k_ones9, 0, 0); /* box, after eps */
  th_config_init (&cfgs[2], 0, 9, 0);
  config_sharpen (&cfgs[2]);    /* not separable: "separable" runs plain */
  th_config_init (&cfgs[3], 0, 9, 0);
  th_config_set_kernel (&cfgs[3], 15, 1, row15, 0, 0);
  th_config_init (&cfgs[4], 0, 9, 0);
  th_config_set_kernel (&cfgs[4], 1, 15, col15, 0, 0);
  th_config_init (&cfgs[5], 0, 9, 0);
  th_config_set_kernel (&cfgs[5], 3, 3, fracsep, 3.0, 0.25);

  for (v = 0; v < G_N_ELEMENTS (variants); v++) {
    for (k = 0; k < G_N_ELEMENTS (cfgs); k++) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        cfgs[k].conv_variant = variants[v];
        run_one ("convolution variant", GST_VIDEO_FORMAT_I420, sizes[s][0],
            sizes[s][1], &cfgs[k], 0x5c000000 + v * 4096 + k * 16 + s,
            TH_FILL_NOISE);
      }
    }
  }
}

GST_END_TEST;

/* The wide convolution: 16-bit integer lanes where the sum of |k| times
 * 255 stays below 2^16 (257 is the last such sum), float lanes above and
 * for fractions; sums that are mostly negative, zero coefficients skipped,
 * and widths across its 256-sample strips and near the vector steps. */
GST_START_TEST (test_convolution_wide)
{
  static const gint widths[] = { 17, 255, 257, 290 };
  gdouble edge257[9] = { 0, 1, 0, 0, 255, 0, 0, 1, 0 };
  gdouble edge258[9] = { 0, 1, 0, 0, 255, 0, 0, 2, 0 };
  gdouble negative[9] = { -1, -2, -1, -2, -3, -2, -1, -2, 5 };
  gdouble big[15 * 15], half[25];
  ThConfig cfgs[6];
  guint k, s, i;

  for (i = 0; i < 15 * 15; i++)
    big[i] = (gint) ((i * 7) % 5) - 2;  /* -2..2, a fifth of them 0 */
  for (i = 0; i < 25; i++)
    half[i] = i % 2 ? 0.5 : -0.25;

  th_config_init (&cfgs[0], 0, 9, 0);
  th_config_set_kernel (&cfgs[0], 3, 3, edge257, 0, 0); /* 16-bit lanes */
  th_config_init (&cfgs[1], 0, 9, 0);
  th_config_set_kernel (&cfgs[1], 3, 3, edge258, 0, 0); /* float lanes */
  th_config_init (&cfgs[2], 0, 9, 0);
  th_config_set_kernel (&cfgs[2], 3, 3, negative, -7.0, 100);
  th_config_init (&cfgs[3], 0, 9, 0);
  th_config_set_kernel (&cfgs[3], 15, 15, big, 9.0, 128);
  th_config_init (&cfgs[4], 0, 9, 0);
  th_config_set_kernel (&cfgs[4], 5, 5, half, 0.75, 10);
  th_config_init (&cfgs[5], 20, 3, 0);
  config_sharpen (&cfgs[5]);

  for (k = 0; k < G_N_ELEMENTS (cfgs); k++) {
    for (s = 0; s < G_N_ELEMENTS (widths); s++) {
      cfgs[k].conv_variant = "wide";
      run_one ("convolution wide", GST_VIDEO_FORMAT_I420, widths[s], 5 + k,
          &cfgs[k], 0x5d000000 + k * 16 + s,
          s & 1 ? TH_FILL_SMOOTH : TH_FILL_NOISE);
    }
  }
}

GST_END_TEST;

static guint
stats_uint (GstElement * e, const gchar * field)
{
  GstStructure *st = NULL;
  guint v = G_MAXUINT;

  g_object_get (e, "stats", &st, NULL);
  fail_unless (st && gst_structure_get_uint (st, field, &v),
      "stats lack %s", field);
  gst_structure_free (st);
  return v;
}

static gchar *
stats_string (GstElement * e, const gchar * field)
{
  GstStructure *st = NULL;
  gchar *v;

  g_object_get (e, "stats", &st, NULL);
  fail_unless (st && gst_structure_get_string (st, field), "stats lack %s",
      field);
  v = g_strdup (gst_structure_get_string (st, field));
  gst_structure_free (st);
  return v;
}

/* Pushes one frame through a fresh element in auto mode and checks it;
 * returns the element's stats fields of interest. */
static void
run_auto (const ThConfig * cfg, guint * compiled, guint * cached,
    guint * runs, gchar ** eps_launch, gchar ** conv_launch)
{
  GstVideoInfo info;
  GstHarness *hr = make_harness (GST_VIDEO_FORMAT_NV12, 64, 48, cfg, &info);
  GRand *rand = g_rand_new_with_seed (0x7c000001);
  GstBuffer *out = th_push_check (hr, &info, th_make_input (&info, rand,
          TH_FILL_NOISE), &cfg->ref, "tuning cache");

  *compiled = stats_uint (hr->element, "programs-compiled");
  *cached = stats_uint (hr->element, "programs-cached");
  *runs = stats_uint (hr->element, "tuning-runs");
  *eps_launch = stats_string (hr->element, "epsilon-launch");
  *conv_launch = stats_string (hr->element, "convolution-launch");
  gst_buffer_unref (out);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

/* Overwrites every file of @dir with junk. */
static void
damage_cache (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  guint n = 0;

  fail_unless (d != NULL, "no cache folder %s", dir);
  while ((name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);

    fail_unless (g_file_set_contents (path, "junk\n[x", -1, NULL));
    g_free (path);
    n++;
  }
  g_dir_close (d);
  fail_unless (n >= 2, "expected a program and a tuning file, found %u", n);
}

/* The first start compiles and tunes; the second loads the program binary
 * and the choices from the cache, and chooses the same; a damaged cache is
 * only a miss. */
GST_START_TEST (test_tuning_cache)
{
  RtCacheDir *cache = rt_cache_dir_new ();
  guint compiled, cached, runs;
  gchar *eps1, *conv1, *eps2, *conv2;
  ThConfig cfg;

  th_config_init (&cfg, 20, 5, 10);
  config_blur (&cfg);

  run_auto (&cfg, &compiled, &cached, &runs, &eps1, &conv1);
  fail_unless (compiled == 1 && cached == 0 && runs > 0,
      "cold start: compiled %u, cached %u, tuning runs %u", compiled, cached,
      runs);
  fail_if (g_str_equal (eps1, "none") || g_str_equal (conv1, "none"));

  run_auto (&cfg, &compiled, &cached, &runs, &eps2, &conv2);
  fail_unless (compiled == 0 && cached == 1 && runs == 0,
      "warm start: compiled %u, cached %u, tuning runs %u", compiled, cached,
      runs);
  fail_unless_equals_string (eps2, eps1);
  fail_unless_equals_string (conv2, conv1);
  g_free (eps2);
  g_free (conv2);

  damage_cache (cache->dir);
  run_auto (&cfg, &compiled, &cached, &runs, &eps2, &conv2);
  fail_unless (compiled == 1 && cached == 0 && runs > 0,
      "damaged cache: compiled %u, cached %u, tuning runs %u", compiled,
      cached, runs);

  /* An empty GST_CL_CACHE_DIR turns the cache off. */
  g_setenv ("GST_CL_CACHE_DIR", "", TRUE);
  g_free (eps2);
  g_free (conv2);
  run_auto (&cfg, &compiled, &cached, &runs, &eps2, &conv2);
  fail_unless (compiled == 1 && cached == 0 && runs > 0);

  rt_cache_dir_free (cache);
  g_free (eps1);
  g_free (conv1);
  g_free (eps2);
  g_free (conv2);
}

GST_END_TEST;

GST_START_TEST (test_debug_logging)
{
  GstDebugLevel old_level = gst_debug_get_default_threshold ();
  gboolean old_active = gst_debug_is_active ();
  guint count = 0;
  ThConfig cfg;

  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (count_log, &count, NULL);
  gst_debug_set_active (TRUE);
  gst_debug_set_default_threshold (GST_LEVEL_MEMDUMP);

  th_config_init (&cfg, 20, 5, 10);
  config_blur (&cfg);
  run_one ("debug logging", GST_VIDEO_FORMAT_NV12, 17, 9, &cfg, 0xdeb00001,
      TH_FILL_NOISE);
  fail_unless (count > 0, "no log message seen");

  gst_debug_set_default_threshold (old_level);
  gst_debug_set_active (old_active);
  gst_debug_remove_log_function (count_log);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
}

GST_END_TEST;

/* The names of the debug categories that are the plugin's (their
 * description's first words), sorted. */
static GList *
plugin_categories (void)
{
  GSList *all = gst_debug_get_all_categories (), *l;
  GList *names = NULL;

  for (l = all; l; l = l->next) {
    const gchar *description = gst_debug_category_get_description (l->data);

    if (g_str_has_prefix (description, GST_CL_DEBUG_DESCRIPTION_PREFIX))
      names = g_list_insert_sorted (names,
          (gpointer) gst_debug_category_get_name (l->data),
          (GCompareFunc) g_strcmp0);
  }
  g_slist_free (all);
  return names;
}

/* Every category is there once the plugin has loaded, the library's and
 * the element's, so that gst-launch-1.0 --gst-debug-help lists them; a
 * frame through the element makes none appear later. */
GST_START_TEST (test_debug_categories_at_load)
{
#define CATEGORY_NAME(cat, name, description) name,
  const gchar *expected[] = {
    GST_CL_DEBUG_CATEGORIES (CATEGORY_NAME) "clepsilon"
  };
#undef CATEGORY_NAME
  GList *loaded, *after, *l;
  GstPlugin *plugin = gst_plugin_load_by_name ("clfilters");
  ThConfig cfg;
  guint i;

  fail_unless (plugin != NULL);
  gst_object_unref (plugin);
  loaded = plugin_categories ();
  for (i = 0; i < G_N_ELEMENTS (expected); i++)
    fail_unless (g_list_find_custom (loaded, expected[i],
            (GCompareFunc) g_strcmp0), "%s not registered at load",
        expected[i]);

  th_config_init (&cfg, 20, 5, 10);
  run_one ("categories", GST_VIDEO_FORMAT_I420, 17, 9, &cfg, 0xdeb00002,
      TH_FILL_NOISE);
  after = plugin_categories ();
  for (l = after; l; l = l->next)
    fail_unless (g_list_find_custom (loaded, l->data,
            (GCompareFunc) g_strcmp0), "%s registered after load",
        (const gchar *) l->data);
  g_list_free (loaded);
  g_list_free (after);
}

GST_END_TEST;

static Suite *
clepsilon_suite (void)
{
  Suite *s = suite_create ("clepsilon");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_debug_logging);
  tcase_add_test (tc, test_debug_categories_at_load);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_device_name);
  tcase_add_test (tc, test_bad_device);
  tcase_add_test (tc, test_default_params);
  tcase_add_test (tc, test_sizes);
  tcase_add_test (tc, test_other_formats);
  tcase_add_test (tc, test_window_sizes);
  tcase_add_test (tc, test_thresholds);
  tcase_add_test (tc, test_kernels);
  tcase_add_test (tc, test_epsilon_variants);
  tcase_add_test (tc, test_epsilon_wide_strips);
  tcase_add_test (tc, test_convolution_variants);
  tcase_add_test (tc, test_convolution_wide);
  tcase_add_test (tc, test_tuning_cache);
  tcase_add_test (tc, test_full_hd);
  tcase_add_test (tc, test_padded_strides);
  tcase_add_test (tc, test_property_change_playing);
  tcase_add_test (tc, test_window_change_playing);
  tcase_add_test (tc, test_kernel_arguments_change_playing);
  tcase_add_test (tc, test_renegotiate);
  tcase_add_test (tc, test_buffer_metadata);
  tcase_add_test (tc, test_passthrough);
  tcase_add_test (tc, test_even_window_rejected);
  tcase_add_test (tc, test_bad_kernel_rejected);

  return s;
}

GST_CHECK_MAIN (clepsilon);
