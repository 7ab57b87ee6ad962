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

/* Tests of what a user meets first, against the CPU reference in
 * ../reference.c:
 *  - the strength knob: each level gives the reference's output at the
 *    values docs/properties.md maps it to, "off" is passthrough, the expert
 *    properties alone give the reference's output at their values (and
 *    select "custom", notified);
 *  - the presets of gst/presets/GstClEpsilon.prs (GST_PRESET_PATH, set by
 *    tests/meson.build), each loaded and one frame through it;
 *  - refused values and the DCT stage on a 10-bit format: a WARNING on the
 *    bus, posted at start where the element had no bus when set;
 *  - the stats notified at EOS, with per-frame figures;
 *  - the element's metadata, found by "denoise" and "noise".
 *
 * The OpenCL device is taken from $CLEPSILON_TEST_DEVICE (default "pocl"). */

#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <gst/check/gstharness.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "../harness.h"

/* The DCT stage's passes (GST_CL_DCT_MAX_PASSES in gst/gstcldct-private.h,
 * which an element test does not link). */
#define DCT_PASSES 16

/* What each strength stands for: docs/properties.md's table, written out
 * here so that a change of either shows. */
typedef struct
{
  const gchar *nick;
  guint threshold;
  guint window_size;
  gboolean dct_stage;
} Level;

static const Level levels[] = {
  {"light", 2, 13, FALSE},
  {"medium", 10, 3, FALSE},
  {"strong", 20, 3, FALSE},
  {"auto", 10, 3, TRUE},
};

static const gchar *sharpen = "0 -1 0; -1 5 -1; 0 -1 0";

static const Level *
find_level (const gchar * nick)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (levels); i++)
    if (g_str_equal (levels[i].nick, nick))
      return &levels[i];
  fail ("no level \"%s\"", nick);
  return NULL;
}

/* The nick of @e's strength. */
static const gchar *
get_strength (GstElement * e)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "strength");
  GEnumClass *klass = g_type_class_peek (ps->value_type);
  GValue v = G_VALUE_INIT;
  const gchar *nick;

  g_value_init (&v, ps->value_type);
  g_object_get_property (G_OBJECT (e), "strength", &v);
  nick = g_enum_get_value (klass, g_value_get_enum (&v))->value_nick;
  g_value_unset (&v);
  return nick;
}

static void
assert_strength (GstElement * e, const gchar * nick)
{
  const gchar *got = get_strength (e);

  fail_unless (g_str_equal (got, nick), "strength is \"%s\", not \"%s\"",
      got, nick);
}

/* @e's expert properties are what @level sets: its threshold, window and
 * DCT stage, chroma untouched, no kernel. */
static void
assert_level_values (GstElement * e, const Level * level)
{
  guint threshold, window, chroma;
  gboolean dct;
  gchar *kernel;

  g_object_get (e, "threshold", &threshold, "window-size", &window,
      "chroma-threshold", &chroma, "dct-stage", &dct, "kernel", &kernel, NULL);
  fail_unless_equals_int (threshold, level->threshold);
  fail_unless_equals_int (window, level->window_size);
  fail_unless_equals_int (chroma, 0);
  fail_unless_equals_int (dct, level->dct_stage);
  fail_unless_equals_string (kernel, "");
  g_free (kernel);
}

/* A frame that went through jpegenc quality=12 and jpegdec, converted to
 * @format: the coding noise the DCT stage finds a step in. The frame is
 * @raw (taken) of @raw_info, or where @raw is NULL one of videotestsrc
 * with @source (its properties and caps, I420). NULL where GStreamer's
 * JPEG elements are missing. */
static GstBuffer *
jpeg_coded_frame_of (const gchar * source, GstBuffer * raw,
    const GstVideoInfo * raw_info, const gchar * format, GstVideoInfo * info)
{
  GstHarness *codec;
  GstBuffer *decoded, *frame;
  GstCaps *caps;
  gchar *launch;

  if (!gst_registry_check_feature_version (gst_registry_get (), "jpegenc", 1,
          0, 0)) {
    if (raw)
      gst_buffer_unref (raw);
    return NULL;
  }
  launch = g_strdup_printf ("jpegenc quality=12 ! jpegdec ! videoconvert ! "
      "capsfilter caps=video/x-raw,format=%s", format);
  codec = gst_harness_new_parse (launch);
  g_free (launch);
  if (raw) {
    gst_harness_set_src_caps (codec, gst_video_info_to_caps (raw_info));
    fail_unless_equals_int (gst_harness_push (codec, raw), GST_FLOW_OK);
  } else {
    launch = g_strdup_printf ("videotestsrc %s,format=I420", source);
    gst_harness_add_src_parse (codec, launch, FALSE);
    g_free (launch);
    fail_unless_equals_int (gst_harness_push_from_src (codec), GST_FLOW_OK);
  }
  decoded = gst_harness_pull (codec);
  fail_unless (decoded != NULL);
  caps = gst_pad_get_current_caps (codec->sinkpad);
  fail_unless (gst_video_info_from_caps (info, caps));
  gst_caps_unref (caps);
  /* a copy of its own, with nothing of the decoder's pool */
  frame = gst_buffer_copy_deep (decoded);
  gst_buffer_unref (decoded);
  gst_harness_teardown (codec);
  return frame;
}

/* A 160x120 I420 zone plate through JPEG (jpeg_coded_frame_of()): its luma
 * has a step to find, its chroma is flat. */
static GstBuffer *
jpeg_coded_frame (GstVideoInfo * info)
{
  return jpeg_coded_frame_of ("pattern=zone-plate kx2=20 ky2=20 kt=1 ! "
      "capsfilter caps=video/x-raw,width=160,height=120", NULL, NULL, "I420",
      info);
}

static guint
stats_uint (GstElement * e, const gchar * field)
{
  GstStructure *stats;
  guint value = 0;

  g_object_get (e, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint (stats, field, &value), "no %s", field);
  gst_structure_free (stats);
  return value;
}

/* Pushes @in (taking it) through the started @hr and checks the output
 * against the reference at @level: the epsilon filter at its values, or
 * the DCT stage at the threshold the stats say it chose (above 0: @in has
 * a step to find), chroma untouched. */
static void
push_check_level (GstHarness * hr, const GstVideoInfo * info, GstBuffer * in,
    const Level * level, const gchar * ctx)
{
  GstVideoFrame fin, fout;
  GstBuffer *out;
  RefParams p;
  guint8 *expected;
  guint threshold, plane;
  gint y;

  if (!level->dct_stage) {
    th_params_init (&p, level->threshold, level->window_size, 0);
    th_push_check_unref (hr, info, in, &p, ctx);
    return;
  }
  out = th_push_pull (hr, gst_buffer_ref (in), ctx);
  threshold = stats_uint (hr->element, "auto-threshold");
  fail_unless (threshold > 0, "%s: the DCT stage found no step", ctx);
  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  expected = g_malloc (info->width * info->height);
  ref_dct_threshold_plane (GST_VIDEO_FRAME_PLANE_DATA (&fin, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0), expected, info->width,
      info->width, info->height, threshold, DCT_PASSES);
  for (y = 0; y < info->height; y++)
    fail_unless (memcmp (expected + y * info->width,
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0), info->width) == 0,
        "%s: luma row %d differs from the reference (threshold %u)", ctx, y,
        threshold);
  for (plane = 1; plane < 3; plane++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fin, plane); y++)
      fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, plane)
              + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, plane),
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, plane) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, plane),
              GST_VIDEO_FRAME_COMP_WIDTH (&fin, plane)) == 0,
          "%s: chroma plane %u row %d changed", ctx, plane, y);
  g_free (expected);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* One frame through @e (taken) at @level: the JPEG-coded frame, or where
 * the JPEG elements are missing and the level needs no step, a random
 * one. */
static void
run_level (GstElement * e, const Level * level, const gchar * what)
{
  GstVideoInfo info, caps_info;
  GstHarness *hr;
  GstBuffer *in;
  gchar *ctx;

  in = jpeg_coded_frame (&info);
  if (in == NULL && level->dct_stage) {
    GST_WARNING ("no jpegenc: %s not run", what);
    gst_object_unref (e);
    return;
  }
  if (in == NULL) {
    GRand *rand = g_rand_new_with_seed (0x6b6e6f62);

    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 67, 45);
    in = th_make_input (&info, rand, TH_FILL_SMOOTH);
    g_rand_free (rand);
  }
  hr = th_harness_new (e, GST_VIDEO_INFO_FORMAT (&info), info.width,
      info.height, 0, &caps_info);
  ctx = g_strdup_printf ("[%s] strength=%s", what, level->nick);
  push_check_level (hr, &info, in, level, ctx);
  g_free (ctx);
  th_teardown_checked (hr);
}

/* ------------------------------------------------------------------------ */
/* The knob                                                                 */

/* Each level after expert settings it must replace (a kernel, chroma, the
 * other levels' values): the reference's output at its values. */
GST_START_TEST (test_levels)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (levels); i++) {
    GstElement *e = th_make_element ();

    g_object_set (e, "threshold", 31, "window-size", 7, "chroma-threshold",
        9, "kernel", sharpen, "dct-stage", !levels[i].dct_stage, NULL);
    assert_strength (e, "custom");
    gst_util_set_object_arg (G_OBJECT (e), "strength", levels[i].nick);
    assert_strength (e, levels[i].nick);
    assert_level_values (e, &levels[i]);
    run_level (e, &levels[i], "level");
  }
}

GST_END_TEST;

/* Nothing set: auto, the DCT stage's reference on a coded frame. */
GST_START_TEST (test_default_is_auto)
{
  GstElement *e = th_make_element ();

  assert_strength (e, "auto");
  assert_level_values (e, find_level ("auto"));
  run_level (e, find_level ("auto"), "default");
}

GST_END_TEST;

/* On an element with nothing set, a refused expert value leaves it at
 * auto; the first value taken starts from the expert defaults (10/3, no
 * DCT stage), as when medium was the default. */
GST_START_TEST (test_default_then_expert)
{
  GstElement *e = th_make_element ();

  g_object_set (e, "window-size", 4, NULL);
  assert_strength (e, "auto");
  assert_level_values (e, find_level ("auto"));
  g_object_set (e, "window-size", 3, NULL);
  assert_strength (e, "custom");
  assert_level_values (e, find_level ("medium"));
  gst_object_unref (e);

  /* once strength is set, an expert property keeps the level's others */
  e = th_make_element ();
  gst_util_set_object_arg (G_OBJECT (e), "strength", "auto");
  g_object_set (e, "threshold", 12, NULL);
  assert_strength (e, "custom");
  {
    gboolean dct;

    g_object_get (e, "dct-stage", &dct, NULL);
    fail_unless (dct, "strength=auto then threshold turned the stage off");
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* off: the output is the input, bit for bit, by passthrough, whatever was
 * set before; nothing is filtered. */
GST_START_TEST (test_off_is_passthrough)
{
  GstElement *e = th_make_element ();
  GRand *rand = g_rand_new_with_seed (0x0ff);
  GstVideoInfo info;
  GstMapInfo a, b;
  GstHarness *hr;
  GstBuffer *in, *out;
  guint64 frames;
  GstStructure *stats;

  g_object_set (e, "threshold", 31, "chroma-threshold", 9, "kernel",
      sharpen, "dct-stage", TRUE, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "strength", "off");
  hr = th_harness_new (e, GST_VIDEO_FORMAT_NV12, 33, 17, 0, &info);
  in = th_make_input (&info, rand, TH_FILL_NOISE);
  out = th_push_pull (hr, gst_buffer_ref (in), "off");
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (hr->element)));
  fail_unless (gst_buffer_map (in, &a, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &b, GST_MAP_READ));
  fail_unless_equals_int (a.size, b.size);
  fail_unless (memcmp (a.data, b.data, a.size) == 0, "off changed the frame");
  gst_buffer_unmap (out, &b);
  gst_buffer_unmap (in, &a);
  g_object_get (hr->element, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint64 (stats, "frames", &frames));
  fail_unless_equals_int (frames, 0);
  gst_structure_free (stats);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_END_TEST;

/* Changed while playing, each level applies from the next frame: off
 * turns passthrough on, the next level off again. */
GST_START_TEST (test_levels_while_playing)
{
  static const gchar *order[] = { "medium", "strong", "off", "light", "auto",
    "medium"
  };
  GRand *rand = g_rand_new_with_seed (0x91a7);
  GstVideoInfo info;
  GstHarness *hr = th_harness_new (th_make_element (), GST_VIDEO_FORMAT_I420,
      37, 21, 0, &info);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (order); i++) {
    GstBuffer *in = th_make_input (&info, rand, TH_FILL_SMOOTH);
    RefParams p;

    gst_util_set_object_arg (G_OBJECT (hr->element), "strength", order[i]);
    /* auto on a frame with no coding: the stage leaves luma as it is */
    th_params_init (&p, 0, 3, 0);
    if (!g_str_equal (order[i], "off") && !g_str_equal (order[i], "auto"))
      th_params_init (&p, find_level (order[i])->threshold,
          find_level (order[i])->window_size, 0);
    th_push_check_unref (hr, &info, in, &p, order[i]);
    fail_unless_equals_int (gst_base_transform_is_passthrough
        (GST_BASE_TRANSFORM (hr->element)), g_str_equal (order[i], "off"));
  }
  g_rand_free (rand);
  th_teardown_checked (hr);
}

GST_END_TEST;

/* A pipeline that sets only expert properties gets the reference's output
 * at their values (the knob changes nothing for it), and strength reads
 * custom. */
GST_START_TEST (test_expert_only)
{
  static const gdouble k_sharpen[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  GRand *rand = g_rand_new_with_seed (0x3c5e);
  guint i;

  for (i = 0; i < 5; i++) {
    GstElement *e = th_make_element ();
    GstVideoInfo info;
    GstHarness *hr;
    ThConfig cfg;
    gchar *ctx;

    /* one property at a time (the others at their defaults), then all */
    th_config_init (&cfg, i == 0 || i == 4 ? 14 : 10, i == 1
        || i == 4 ? 5 : 3, i == 2 || i == 4 ? 6 : 0);
    if (i >= 3)
      th_config_set_kernel (&cfg, 3, 3, k_sharpen, 0, 0);
    switch (i) {
      case 0:
        g_object_set (e, "threshold", 14, NULL);
        break;
      case 1:
        g_object_set (e, "window-size", 5, NULL);
        break;
      case 2:
        g_object_set (e, "chroma-threshold", 6, NULL);
        break;
      case 3:
        g_object_set (e, "kernel", cfg.kernel_str, NULL);
        break;
      default:
        th_config_apply (&cfg, e);
        break;
    }
    assert_strength (e, "custom");
    hr = th_harness_new (e, GST_VIDEO_FORMAT_I420, 41, 29, 0, &info);
    ctx = th_config_ctx ("expert", GST_VIDEO_FORMAT_I420, 41, 29, 0, &cfg);
    th_push_check_unref (hr, &info, th_make_input (&info, rand,
            TH_FILL_SMOOTH), &cfg.ref, ctx);
    g_free (ctx);
    th_teardown_checked (hr);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static void
count_notify (GObject * object, GParamSpec * pspec, guint * count)
{
  (*count)++;
}

/* Setting an expert property selects custom and notifies strength, once;
 * a level notifies the expert properties it set; a refused value changes
 * neither. */
GST_START_TEST (test_expert_notifies_strength)
{
  GstElement *e = th_make_element ();
  guint strength_notes = 0, threshold_notes = 0;

  g_signal_connect (e, "notify::strength", G_CALLBACK (count_notify),
      &strength_notes);
  g_signal_connect (e, "notify::threshold", G_CALLBACK (count_notify),
      &threshold_notes);
  g_object_set (e, "threshold", 12, NULL);
  assert_strength (e, "custom");
  fail_unless_equals_int (strength_notes, 1);
  g_object_set (e, "window-size", 5, NULL);
  fail_unless_equals_int (strength_notes, 1);

  threshold_notes = 0;
  gst_util_set_object_arg (G_OBJECT (e), "strength", "light");
  fail_unless_equals_int (strength_notes, 2);
  fail_unless_equals_int (threshold_notes, 1);
  assert_level_values (e, find_level ("light"));

  /* refused: no bus yet, so kept for start; nothing changes */
  g_object_set (e, "window-size", 4, NULL);
  assert_strength (e, "light");
  fail_unless_equals_int (strength_notes, 2);
  gst_object_unref (e);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Presets                                                                  */

typedef struct
{
  const gchar *name;
  const gchar *strength;        /* what docs/properties.md recommends */
} Preset;

static const Preset presets[] = {
  {"dvd-rip", "auto"},
  {"divx-xvid", "auto"},
  {"mjpeg-camera", "auto"},
  {"low-bitrate-stream", "auto"},
  {"broadcast-capture", "auto"},
};

/* Every preset is listed, loads, sets its strength (and so the level's
 * values, whatever was set before), and runs a frame as that level. */
GST_START_TEST (test_presets)
{
  GstElement *e = th_make_element ();
  gchar **names;
  guint i;

  fail_unless (GST_IS_PRESET (e));
  names = gst_preset_get_preset_names (GST_PRESET (e));
  fail_unless (names != NULL, "no presets: GST_PRESET_PATH=%s",
      g_getenv ("GST_PRESET_PATH"));
  for (i = 0; i < G_N_ELEMENTS (presets); i++)
    fail_unless (g_strv_contains ((const gchar * const *) names,
            presets[i].name), "preset %s not listed", presets[i].name);
  g_strfreev (names);
  gst_object_unref (e);

  for (i = 0; i < G_N_ELEMENTS (presets); i++) {
    const Level *level = find_level (presets[i].strength);

    e = th_make_element ();
    g_object_set (e, "threshold", 31, "kernel", sharpen, NULL);
    fail_unless (gst_preset_load_preset (GST_PRESET (e), presets[i].name),
        "preset %s does not load", presets[i].name);
    assert_strength (e, presets[i].strength);
    assert_level_values (e, level);
    run_level (e, level, presets[i].name);
  }
}

GST_END_TEST;

/* A preset saved by an application loads back as it was saved: a level as
 * that level (not custom, whatever order its values come back in), custom
 * as custom with its values; the machine's settings (device) stay out of
 * it. Setting an expert property to the value the level has keeps the
 * level. */
GST_START_TEST (test_preset_round_trip)
{
  GstElement *e = th_make_element ();
  gchar *path, *text;
  guint threshold, window;

  gst_util_set_object_arg (G_OBJECT (e), "strength", "auto");
  g_object_set (e, "threshold", 10, NULL);
  assert_strength (e, "auto");
  fail_unless (gst_preset_save_preset (GST_PRESET (e), "round-trip-auto"));
  g_object_set (e, "threshold", 7, "window-size", 5, NULL);
  assert_strength (e, "custom");
  fail_unless (gst_preset_save_preset (GST_PRESET (e), "round-trip-custom"));
  gst_object_unref (e);

  path = g_build_filename (g_get_user_data_dir (), "gstreamer-1.0",
      "presets", "GstClEpsilon.prs", NULL);
  fail_unless (g_file_get_contents (path, &text, NULL, NULL), "no %s", path);
  fail_unless (strstr (text, "[round-trip-custom]") != NULL);
  fail_unless (strstr (text, "device") == NULL, "the device in a preset");
  g_free (text);
  g_free (path);

  e = th_make_element ();
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "round-trip-auto"));
  assert_strength (e, "auto");
  assert_level_values (e, find_level ("auto"));
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "round-trip-custom"));
  assert_strength (e, "custom");
  g_object_get (e, "threshold", &threshold, "window-size", &window, NULL);
  fail_unless_equals_int (threshold, 7);
  fail_unless_equals_int (window, 5);
  fail_unless (gst_preset_delete_preset (GST_PRESET (e), "round-trip-auto"));
  fail_unless (gst_preset_delete_preset (GST_PRESET (e), "round-trip-custom"));
  gst_object_unref (e);
  /* Saving wrote the system presets into the user's file too: gone, so
   * that a later change of the system presets is seen by the next run. */
  path = g_build_filename (g_get_user_data_dir (), "gstreamer-1.0",
      "presets", "GstClEpsilon.prs", NULL);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Warnings a user sees                                                     */

/* The WARNING message @e posted next, its text (free it); fails if none. */
static gchar *
pop_warning (GstElement * e, const gchar * what)
{
  GstBus *bus = gst_element_get_bus (e);
  GstMessage *msg;
  GError *err = NULL;
  gchar *text;

  fail_unless (bus != NULL);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  gst_object_unref (bus);
  fail_unless (msg != NULL, "%s: no WARNING on the bus", what);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (e));
  gst_message_parse_warning (msg, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);
  return text;
}

typedef struct
{
  const gchar *property;
  const gchar *value;
  const gchar *says;            /* in the warning's text */
} BadValue;

static const BadValue bad_values[] = {
  {"kernel", "1 2; 3", "kernel"},
  {"kernel", "abc", "kernel"},
  {"window-size", "4", "window-size"},
  {"divisor", "1e-9", "divisor"},
};

/* The estimate's threshold of one frame for component @c of @frame
 * (ref_dct_frame_threshold()). */
static guint
ref_frame_threshold (GstVideoFrame * frame, guint c)
{
  gint w, h;
  guint8 *p = ref_component_alone (frame, c, &w, &h);
  const guint t = ref_dct_frame_threshold (p, w, w, h);

  g_free (p);
  return t;
}

/* Component @c of @out: @in's through the reference's stage at
 * @threshold, or @in's as it was at 0. */
static void
check_component_stage (GstVideoFrame * in, GstVideoFrame * out, guint c,
    guint threshold, const gchar * ctx)
{
  gint w, h, y;
  guint8 *src = ref_component_alone (in, c, &w, &h);
  guint8 *got = ref_component_alone (out, c, &w, &h);
  guint8 *expected = g_malloc ((gsize) w * h);

  if (threshold > 0)
    ref_dct_threshold_plane (src, w, expected, w, w, h, threshold, DCT_PASSES);
  else
    memcpy (expected, src, (gsize) w * h);
  for (y = 0; y < h; y++)
    fail_unless (memcmp (expected + y * w, got + y * w, w) == 0,
        "%s: component %u row %d differs from the reference (threshold %u)",
        ctx, c, y, threshold);
  g_free (expected);
  g_free (got);
  g_free (src);
}

/* strength=auto on the chroma of a picture coded as JPEG (a random one:
 * videotestsrc's patterns leave too few chroma coefficients at this
 * quality for a step to show): each component gets the stage at the
 * threshold of its own estimate (the reference's, which finds a step in
 * both chroma components here), on I420's planes of their own and on
 * NV12's and NV21's interleaved chroma alike. */
GST_START_TEST (test_auto_chroma)
{
  static const gchar *formats[] = { "I420", "NV12", "NV21" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoInfo info, caps_info;
    GstVideoFrame fin, fout;
    GstElement *e;
    GstHarness *hr;
    GstBuffer *in, *out;
    guint c, chroma_found = 0;
    gchar *ctx = g_strdup_printf ("strength=auto on %s", formats[f]);

    GstVideoInfo raw_info;
    GRand *rand = g_rand_new_with_seed (0x63686d61);

    gst_video_info_set_format (&raw_info, GST_VIDEO_FORMAT_I420, 320, 240);
    in = jpeg_coded_frame_of (NULL, th_make_input (&raw_info, rand,
            TH_FILL_SMOOTH), &raw_info, formats[f], &info);
    g_rand_free (rand);
    if (in == NULL) {
      GST_WARNING ("no jpegenc: %s not run", ctx);
      g_free (ctx);
      continue;
    }
    e = th_make_element ();
    gst_util_set_object_arg (G_OBJECT (e), "strength", "auto");
    hr = th_harness_new (e, GST_VIDEO_INFO_FORMAT (&info), info.width,
        info.height, 0, &caps_info);
    out = th_push_pull (hr, gst_buffer_ref (in), ctx);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    for (c = 0; c < 3; c++) {
      const guint threshold = ref_frame_threshold (&fin, c);

      if (c == 0) {
        fail_unless_equals_int (stats_uint (hr->element, "auto-threshold"),
            threshold);
      } else {
        chroma_found += threshold > 0;
      }
      check_component_stage (&fin, &fout, c, threshold, ctx);
    }
    fail_unless_equals_int (chroma_found, 2);
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    th_teardown_checked (hr);
    g_free (ctx);
  }
}

GST_END_TEST;

/* @in (I420, taken) through @launch (real elements, clepsilon among them
 * or not): the one output frame, its format I420_10LE (into @info). */
static GstBuffer *
through_launch (const gchar * launch, GstBuffer * in,
    const GstVideoInfo * in_info, GstVideoInfo * info)
{
  GstHarness *h = gst_harness_new_parse (launch);
  GstBuffer *out;
  GstCaps *caps;

  gst_harness_set_src_caps (h, gst_video_info_to_caps (in_info));
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no frame", launch);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_FORMAT_I420_10LE);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  return out;
}

/* Whether rows of component @c of @a and @b (frames of @info) are equal. */
static gboolean
component_equal (const GstVideoInfo * info, GstBuffer * a, GstBuffer * b,
    guint c)
{
  GstVideoFrame fa, fb;
  gboolean equal = TRUE;
  gint y;

  fail_unless (gst_video_frame_map (&fa, info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, info, b, GST_MAP_READ));
  for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (info, c); y++)
    equal &= memcmp ((guint8 *) GST_VIDEO_FRAME_COMP_DATA (&fa, c) +
        y * GST_VIDEO_FRAME_COMP_STRIDE (&fa, c),
        (guint8 *) GST_VIDEO_FRAME_COMP_DATA (&fb, c) +
        y * GST_VIDEO_FRAME_COMP_STRIDE (&fb, c),
        (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) * 2) == 0;
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
  return equal;
}

/* strength=auto on P010's interleaved 10-bit chroma, through real
 * elements: test_auto_chroma's JPEG-coded picture made 10-bit by
 * videoconvert, then either through videoconvert to P010_10LE, clepsilon
 * and videoconvert back, or through clepsilon as I420_10LE (planes of
 * their own): every sample the same both ways (videoconvert only moves
 * 10-bit samples between the layouts, without dithering), and each
 * chroma component changed by the stage. */
GST_START_TEST (test_auto_p010_chroma)
{
  static const gchar *to10 = "videoconvert dither=none ! "
      "capsfilter caps=video/x-raw,format=I420_10LE";
  GstVideoInfo raw_info, info, out_info;
  GRand *rand = g_rand_new_with_seed (0x63686d61);
  GstBuffer *in, *p010, *planar, *untouched;
  gchar *launch;
  guint c;

  gst_video_info_set_format (&raw_info, GST_VIDEO_FORMAT_I420, 320, 240);
  in = jpeg_coded_frame_of (NULL, th_make_input (&raw_info, rand,
          TH_FILL_SMOOTH), &raw_info, "I420", &info);
  g_rand_free (rand);
  if (in == NULL) {
    GST_WARNING ("no jpegenc: strength=auto on P010 through videoconvert not "
        "run");
    return;
  }
  launch = g_strdup_printf ("%s ! videoconvert dither=none ! "
      "capsfilter caps=video/x-raw,format=P010_10LE ! clepsilon strength=auto "
      "! %s", to10, to10);
  p010 = through_launch (launch, gst_buffer_ref (in), &info, &out_info);
  g_free (launch);
  launch = g_strdup_printf ("%s ! clepsilon strength=auto", to10);
  planar = through_launch (launch, gst_buffer_ref (in), &info, &out_info);
  g_free (launch);
  untouched = through_launch (to10, in, &info, &out_info);
  for (c = 0; c < 3; c++) {
    fail_unless (component_equal (&out_info, p010, planar, c),
        "component %u: P010 differs from I420_10LE", c);
    fail_if (component_equal (&out_info, planar, untouched, c),
        "component %u: left as it was", c);
  }
  gst_buffer_unref (untouched);
  gst_buffer_unref (planar);
  gst_buffer_unref (p010);
}

GST_END_TEST;

/* Each bad value on a running element: a WARNING at once that names the
 * property, and the old value kept (strength too). */
GST_START_TEST (test_bad_values_warn)
{
  GstVideoInfo info;
  GstHarness *hr = th_harness_new (th_make_element (), GST_VIDEO_FORMAT_I420,
      16, 16, 0, &info);
  GObject *e = G_OBJECT (hr->element);
  guint i;

  g_object_set (e, "kernel", sharpen, "divisor", 2.0, NULL);
  for (i = 0; i < G_N_ELEMENTS (bad_values); i++) {
    const BadValue *bad = &bad_values[i];
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        bad->property);
    GValue before = G_VALUE_INIT, after = G_VALUE_INIT;
    gchar *text;

    g_value_init (&before, ps->value_type);
    g_value_init (&after, ps->value_type);
    g_object_get_property (e, bad->property, &before);
    gst_util_set_object_arg (e, bad->property, bad->value);
    g_object_get_property (e, bad->property, &after);
    fail_unless (gst_value_compare (&before, &after) == GST_VALUE_EQUAL,
        "%s=%s did not keep the old value", bad->property, bad->value);
    text = pop_warning (hr->element, bad->property);
    fail_unless (strstr (text, bad->says) != NULL, "%s=%s: \"%s\"",
        bad->property, bad->value, text);
    g_free (text);
    g_value_unset (&before);
    g_value_unset (&after);
  }
  assert_strength (hr->element, "custom");
  th_teardown_checked (hr);
}

GST_END_TEST;

/* Set before the element is in a pipeline (as gst-launch-1.0 does), the
 * warning comes when it starts; the old value stays. */
GST_START_TEST (test_bad_value_warns_at_start)
{
  GstElement *e = th_make_element ();
  GstVideoInfo info;
  GstHarness *hr;
  gchar *text, *kernel;

  g_object_set (e, "kernel", "1 2; 3", NULL);
  g_object_get (e, "kernel", &kernel, NULL);
  fail_unless_equals_string (kernel, "");
  g_free (kernel);
  assert_strength (e, "auto");
  hr = th_harness_new (e, GST_VIDEO_FORMAT_I420, 16, 16, 0, &info);
  text = pop_warning (hr->element, "kernel before start");
  fail_unless (strstr (text, "1 2; 3") != NULL, "\"%s\"", text);
  g_free (text);
  th_teardown_checked (hr);
}

GST_END_TEST;

/* videotestsrc num-buffers=@frames ! I420 64x48 ! clepsilon strength=medium
 * ! fakesink; the clepsilon in @e (a reference). */
static GstElement *
make_pipeline (guint frames, GstElement ** e)
{
  GstElement *pipeline;
  gchar *desc;

  desc = g_strdup_printf ("videotestsrc num-buffers=%u ! video/x-raw,"
      "format=I420,width=64,height=48 ! clepsilon name=e device=\"%s\" "
      "strength=medium ! fakesink", frames, rt_device ());
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (pipeline != NULL);
  *e = gst_bin_get_by_name (GST_BIN (pipeline), "e");
  return pipeline;
}

/* Plays @pipeline to its end; how many messages of @type (WARNING or
 * INFO) @e posted on the way, the last one's text in @text (free it; may
 * be NULL). */
static guint
play_counting (GstElement * pipeline, GstElement * e, GstMessageType type,
    gchar ** text)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint count = 0;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | type))) {
    GstMessageType got = GST_MESSAGE_TYPE (msg);

    fail_unless (got != GST_MESSAGE_ERROR, "an ERROR");
    if (got == type && GST_MESSAGE_SRC (msg) == GST_OBJECT (e)) {
      GError *err = NULL;

      count++;
      if (type == GST_MESSAGE_INFO)
        gst_message_parse_info (msg, &err, NULL);
      else
        gst_message_parse_warning (msg, &err, NULL);
      if (text) {
        g_free (*text);
        *text = g_strdup (err->message);
      }
      g_error_free (err);
    }
    gst_message_unref (msg);
    if (got == GST_MESSAGE_EOS)
      break;
  }
  fail_unless (msg != NULL, "no EOS in 120 s");
  gst_object_unref (bus);
  return count;
}

static guint
play_counting_warnings (GstElement * pipeline, GstElement * e)
{
  return play_counting (pipeline, e, GST_MESSAGE_WARNING, NULL);
}

/* strength=auto tells the user once a stream, as an INFO message, when it
 * leaves a stream alone and why: video never coded (videotestsrc's snow)
 * after its first frames, and a stream shorter than those at its end; a
 * flat picture as such; nothing where it acts (JPEG through jpegdec, as
 * jpeg_coded_frame()) nor at the other levels. */
GST_START_TEST (test_auto_idle_info)
{
  static const struct
  {
    const gchar *pattern;
    guint frames;
    const gchar *coding;        /* between the source and clepsilon */
    const gchar *element;
    guint infos;
    const gchar *says;
  } cases[] = {
    {"snow", 3 * 64, "", "strength=auto", 1, "no block-DCT quantization"},
    {"snow", 5, "", "strength=auto", 1, "no block-DCT quantization"},
    {"black", 70, "", "strength=auto", 1, "too flat"},
    {"snow", 70, "", "strength=medium", 0, NULL},
    {"snow", 70, "", "", 1, "no block-DCT quantization"},
    {"zone-plate kx2=20 ky2=20 kt=1", 70, "jpegenc quality=12 ! jpegdec !",
        "strength=auto", 0, NULL},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstElement *pipeline, *e;
    gchar *desc, *text = NULL;
    guint infos;

    if (strstr (cases[i].coding, "jpegenc") &&
        !gst_registry_check_feature_version (gst_registry_get (), "jpegenc",
            1, 0, 0)) {
      GST_WARNING ("no jpegenc: the case of JPEG not run");
      continue;
    }
    desc = g_strdup_printf ("videotestsrc pattern=%s num-buffers=%u ! "
        "video/x-raw,format=I420,width=160,height=120 ! %s clepsilon name=e "
        "device=\"%s\" %s ! fakesink", cases[i].pattern, cases[i].frames,
        cases[i].coding, rt_device (), cases[i].element);
    pipeline = gst_parse_launch (desc, NULL);
    fail_unless (pipeline != NULL, "%s", desc);
    e = gst_bin_get_by_name (GST_BIN (pipeline), "e");
    infos = play_counting (pipeline, e, GST_MESSAGE_INFO, &text);
    fail_unless (infos == cases[i].infos, "%s: %u INFO messages (\"%s\")",
        desc, infos, text);
    fail_unless (cases[i].says == NULL || strstr (text, cases[i].says),
        "%s: \"%s\"", desc, text);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (e);
    gst_object_unref (pipeline);
    g_free (text);
    g_free (desc);
  }
}

GST_END_TEST;

/* A value refused while the pipeline is back in NULL (its bus flushing, the
 * element's child bus not) is said when the pipeline plays again, not
 * dropped with the flushing bus. */
GST_START_TEST (test_bad_value_warns_after_restart)
{
  GstElement *pipeline, *e;
  guint window;

  pipeline = make_pipeline (2, &e);
  fail_unless_equals_int (play_counting_warnings (pipeline, e), 0);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_object_set (e, "window-size", 4, NULL);
  g_object_get (e, "window-size", &window, NULL);
  fail_unless_equals_int (window, 3);
  fail_unless_equals_int (play_counting_warnings (pipeline, e), 1);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (e);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* The JPEG-coded frame (@in8, I420, taken) as a frame of the 10-bit
 * format @fmt: every value times 4, and random bits in each word around
 * the value (the element must ignore them). */
static GstBuffer *
to_10bit (GstBuffer * in8, const GstVideoInfo * info8, GstVideoFormat fmt,
    GstVideoInfo * info, GRand * rand)
{
  GstBuffer *out;
  GstVideoFrame f8, f;
  gint c, x, y;

  gst_video_info_set_format (info, fmt, info8->width, info8->height);
  out = gst_buffer_new_allocate (NULL, info->size, NULL);
  fail_unless (gst_video_frame_map (&f8, info8, in8, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&f, info, out, GST_MAP_WRITE));
  for (c = 0; c < 3; c++) {
    const gint p8 = GST_VIDEO_INFO_COMP_PLANE (info8, c);
    const gint p = GST_VIDEO_INFO_COMP_PLANE (info, c);
    const guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, c);

    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (info, c); y++)
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (info, c); x++) {
        guint8 *d = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p) +
            (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) +
            x * GST_VIDEO_INFO_COMP_PSTRIDE (info, c) +
            ref_comp_offset (info, c);
        const guint v = ref_get_sample (info8, c,
            GST_VIDEO_FRAME_PLANE_DATA (&f8, p8),
            GST_VIDEO_FRAME_PLANE_STRIDE (&f8, p8), x, y);

        GST_WRITE_UINT16_LE (d, (v << 2 << shift) | (g_rand_int (rand) &
                0xffff & ~(1023u << shift)));
      }
  }
  gst_video_frame_unmap (&f);
  gst_video_frame_unmap (&f8);
  gst_buffer_unref (in8);
  return out;
}

/* strength=auto on 10-bit formats (values in the low bits, and P010's in
 * the high bits): the DCT stage on luma at the threshold the 8-bit frame
 * gets (4 times an 8-bit frame has its coefficients: kernels/dct.cl), the
 * output the 10-bit reference's with the bits around the value 0, chroma
 * as it came (the zone plate's chroma is flat: no step to find, so each
 * component's stage copies it; test_auto_p010_chroma filters it), and no
 * warning on the bus. */
GST_START_TEST (test_auto_10bit)
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_P010_10LE,
  };
  GRand *rand = g_rand_new_with_seed (0x10b);
  guint i;

  RT_FOR_EACH_FORMAT (i, formats) {
    GstElement *e = th_make_element ();
    GstVideoInfo info8, info, caps_info;
    GstBuffer *in8 = jpeg_coded_frame (&info8), *in, *out;
    GstVideoFrame fin, fout;
    GstHarness *hr;
    GstBus *bus;
    guint16 *values, *expected;
    guint8 *row;
    guint threshold, c;
    gint x, y, w, h;
    const gchar *ctx = gst_video_format_to_string (formats[i]);

    if (in8 == NULL) {
      GST_WARNING ("no jpegenc: strength=auto on %s not run", ctx);
      gst_object_unref (e);
      continue;
    }
    in = to_10bit (in8, &info8, formats[i], &info, rand);
    w = info.width;
    h = info.height;
    gst_util_set_object_arg (G_OBJECT (e), "strength", "auto");
    hr = th_harness_new (e, formats[i], w, h, 0, &caps_info);
    out = th_push_pull (hr, gst_buffer_ref (in), ctx);
    threshold = stats_uint (hr->element, "auto-threshold");
    fail_unless (threshold > 0, "%s: the DCT stage found no step", ctx);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    values = g_new (guint16, w * h);
    expected = g_new (guint16, w * h);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        values[y * w + x] = ref_get_sample (&info, 0,
            GST_VIDEO_FRAME_PLANE_DATA (&fin, 0),
            GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0), x, y);
    ref_dct_threshold_plane16 (values, w, expected, w, w, h, threshold,
        DCT_PASSES);
    /* the expected luma rows as words: the value, the other bits 0 */
    row = g_malloc (2 * w);
    for (y = 0; y < h; y++) {
      for (x = 0; x < w; x++)
        ref_set_sample (&info, 0, row, 0, x, 0, expected[y * w + x]);
      fail_unless (memcmp (row, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout,
                  0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0),
              2 * w) == 0, "%s: luma row %d differs from the reference "
          "(threshold %u)", ctx, y, threshold);
    }
    /* (component c is on plane c, and P010's U row spans its UV row) */
    for (c = 1; c < GST_VIDEO_INFO_N_PLANES (&info); c++)
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&fin, c); y++)
        fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, c)
                + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, c),
                (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, c) +
                y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, c),
                GST_VIDEO_FRAME_COMP_WIDTH (&fin, c) *
                GST_VIDEO_FRAME_COMP_PSTRIDE (&fin, c)) == 0,
            "%s: chroma plane %u row %d changed", ctx, c, y);
    bus = gst_element_get_bus (hr->element);
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL,
        "%s: a warning", ctx);
    gst_object_unref (bus);
    g_free (row);
    g_free (values);
    g_free (expected);
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    th_teardown_checked (hr);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* A @w x @h frame of @fmt (into @info) with the luma of @in8 (an 8-bit
 * frame of @info8, at least that large) and random chroma. */
static GstBuffer *
frame_from_luma (GstBuffer * in8, const GstVideoInfo * info8,
    GstVideoFormat fmt, gint w, gint h, GstVideoInfo * info, GRand * rand)
{
  GstBuffer *out;
  GstVideoFrame f8, f;
  gint c, x, y;

  gst_video_info_set_format (info, fmt, w, h);
  out = gst_buffer_new_allocate (NULL, info->size, NULL);
  fail_unless (gst_video_frame_map (&f8, info8, in8, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&f, info, out, GST_MAP_WRITE));
  for (c = 0; c < 3; c++) {
    const gint p = GST_VIDEO_INFO_COMP_PLANE (info, c);

    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (info, c); y++)
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (info, c); x++)
        ref_set_sample (info, c, GST_VIDEO_FRAME_PLANE_DATA (&f, p),
            GST_VIDEO_FRAME_PLANE_STRIDE (&f, p), x, y, c > 0 ?
            (guint) g_rand_int_range (rand, 0, 256) : ref_get_sample (info8, 0,
                GST_VIDEO_FRAME_PLANE_DATA (&f8, 0),
                GST_VIDEO_FRAME_PLANE_STRIDE (&f8, 0), x, y));
  }
  gst_video_frame_unmap (&f);
  gst_video_frame_unmap (&f8);
  return out;
}

/* @in (taken) through a fresh element at strength=auto: the output, and
 * the threshold the DCT stage chose into @threshold. */
static GstBuffer *
push_auto (GstBuffer * in, const GstVideoInfo * info, guint * threshold,
    const gchar * ctx)
{
  GstElement *e = th_make_element ();
  GstVideoInfo caps_info;
  GstHarness *hr;
  GstBuffer *out;

  gst_util_set_object_arg (G_OBJECT (e), "strength", "auto");
  hr = th_harness_new (e, GST_VIDEO_INFO_FORMAT (info), info->width,
      info->height, 0, &caps_info);
  out = th_push_pull (hr, in, ctx);
  *threshold = stats_uint (hr->element, "auto-threshold");
  th_teardown_checked (hr);
  return out;
}

/* strength=auto on YUY2 and UYVY: the estimate finds the threshold it finds
 * on I420 with the same luma, the luma is the reference's DCT stage at that
 * threshold, and the chroma is as it came; at the coded frame's size and
 * at an odd one. */
GST_START_TEST (test_auto_packed_422)
{
  static const GstVideoFormat formats[] =
      { GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY };
  static const gint sizes[][2] = { {160, 120}, {157, 119} };
  GRand *rand = g_rand_new_with_seed (0x422d);
  GstVideoInfo info8;
  GstBuffer *in8 = jpeg_coded_frame (&info8);
  guint s, i;

  if (in8 == NULL) {
    GST_WARNING ("no jpegenc: strength=auto on YUY2 and UYVY not run");
    g_rand_free (rand);
    return;
  }
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    const gint w = sizes[s][0], h = sizes[s][1];
    GstVideoInfo planar_info;
    GstBuffer *planar = frame_from_luma (in8, &info8, GST_VIDEO_FORMAT_I420,
        w, h, &planar_info, rand);
    GstVideoFrame fp;
    guint8 *expected = g_malloc ((gsize) w * h);
    guint planar_threshold;

    gst_buffer_unref (push_auto (gst_buffer_ref (planar), &planar_info,
            &planar_threshold, "I420"));
    fail_unless (planar_threshold > 0, "I420 %dx%d: no step found", w, h);
    fail_unless (gst_video_frame_map (&fp, &planar_info, planar, GST_MAP_READ));
    ref_dct_threshold_plane (GST_VIDEO_FRAME_PLANE_DATA (&fp, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&fp, 0), expected, w, w, h,
        planar_threshold, DCT_PASSES);
    gst_video_frame_unmap (&fp);

    RT_FOR_EACH_FORMAT (i, formats) {
      GstVideoInfo info;
      GstBuffer *in = frame_from_luma (in8, &info8, formats[i], w, h, &info,
          rand), *out;
      GstVideoFrame fin, fout;
      gchar *ctx = g_strdup_printf ("%s %dx%d",
          gst_video_format_to_string (formats[i]), w, h);
      guint threshold, c, n_bad = 0;
      gint x, y;

      out = push_auto (gst_buffer_ref (in), &info, &threshold, ctx);
      fail_unless_equals_int (threshold, planar_threshold);
      fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
      for (c = 0; c < 3; c++)
        for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&info, c); y++)
          for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&info, c); x++) {
            guint got = ref_get_sample (&info, c,
                GST_VIDEO_FRAME_PLANE_DATA (&fout, 0),
                GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0), x, y);
            guint want = c > 0 ? ref_get_sample (&info, c,
                GST_VIDEO_FRAME_PLANE_DATA (&fin, 0),
                GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0), x, y) :
                expected[y * w + x];

            if (got != want && n_bad++ == 0)
              GST_ERROR ("%s: component %u x %d y %d: got %u, expected %u",
                  ctx, c, x, y, got, want);
          }
      fail_unless (n_bad == 0, "%s: %u samples differ from the reference "
          "(threshold %u; the first logged)", ctx, n_bad, threshold);
      gst_video_frame_unmap (&fout);
      gst_video_frame_unmap (&fin);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      g_free (ctx);
    }
    g_free (expected);
    gst_buffer_unref (planar);
  }
  gst_buffer_unref (in8);
  g_rand_free (rand);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Figures                                                                  */

static void
keep_stats (GObject * object, GParamSpec * pspec, GstStructure ** stats)
{
  g_clear_pointer (stats, gst_structure_free);
  g_object_get (object, "stats", stats, NULL);
}

/* The host waits of @stats, a stream in system memory without
 * strength=auto: every cause named, none negative, their sum the total;
 * no CUDA copy and no histogram to wait for. */
static void
check_host_waits (const GstStructure * stats)
{
  static const gchar *const causes[] = { "cuda-copy-in", "cuda-copy-out",
    "frame", "slot", "histogram", "staging", "other"
  };
  const GstStructure *waits;
  gdouble total, ms, sum = 0;
  guint i;

  fail_unless (gst_structure_get_double (stats, "host-wait-ms-per-frame",
          &total));
  waits = gst_value_get_structure (gst_structure_get_value (stats,
          "host-waits"));
  fail_unless (waits != NULL);
  fail_unless_equals_int (gst_structure_n_fields (waits),
      G_N_ELEMENTS (causes));
  for (i = 0; i < G_N_ELEMENTS (causes); i++) {
    fail_unless (gst_structure_get_double (waits, causes[i], &ms), "%s",
        causes[i]);
    fail_unless (ms >= 0, "%s: %f", causes[i], ms);
    sum += ms;
  }
  fail_unless (fabs (sum - total) <= 1e-9 + 1e-9 * total);
  for (i = 0; i < 2; i++) {
    gst_structure_get_double (waits, i ? "histogram" : "cuda-copy-in", &ms);
    fail_unless_equals_float (ms, 0);
  }
}

/* The stats are notified by EOS (what gst-launch-1.0 -v prints), with the
 * whole stream's frames and per-frame figures that are the totals divided
 * by them. */
GST_START_TEST (test_stats_at_eos)
{
  GstElement *pipeline, *e;
  GstStructure *stats = NULL;
  GstMessage *msg;
  GstBus *bus;
  gdouble total, per_frame;
  guint64 frames;

  pipeline = make_pipeline (5, &e);
  g_signal_connect (e, "notify::stats", G_CALLBACK (keep_stats), &stats);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS in 120 s");
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless (stats != NULL, "stats not notified by EOS");
  fail_unless (gst_structure_get_uint64 (stats, "frames", &frames));
  fail_unless_equals_int (frames, 5);
  fail_unless (gst_structure_get_double (stats, "transform-ms", &total));
  fail_unless (gst_structure_get_double (stats, "transform-ms-per-frame",
          &per_frame));
  fail_unless (total > 0);
  fail_unless (fabs (per_frame - total / 5) <= 1e-9 * total);
  fail_unless (gst_structure_get_double (stats, "device-ms", &total));
  fail_unless (gst_structure_get_double (stats, "device-ms-per-frame",
          &per_frame));
  fail_unless (fabs (per_frame - total / 5) <= 1e-9 * total);
  check_host_waits (stats);
  gst_structure_free (stats);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_signal_handlers_disconnect_by_func (e, keep_stats, &stats);
  gst_object_unref (bus);
  gst_object_unref (e);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Metadata                                                                 */

static void
assert_finds (const gchar * text, const gchar * word)
{
  gchar *lower = g_ascii_strdown (text, -1);

  fail_unless (strstr (lower, word) != NULL, "\"%s\" lacks \"%s\"", text, word);
  g_free (lower);
}

/* What gst-inspect-1.0 | grep -i denois (and noise) reads, and the enums
 * documented as the plugin's API. */
GST_START_TEST (test_metadata)
{
  GstElementFactory *factory = gst_element_factory_find ("clepsilon");
  GstElement *e = th_make_element ();
  GParamSpec *ps;
  const gchar *name;

  fail_unless (factory != NULL);
  name = gst_element_factory_get_metadata (factory,
      GST_ELEMENT_METADATA_LONGNAME);
  assert_finds (name, "denois");
  assert_finds (name, "noise");
  assert_finds (gst_element_factory_get_metadata (factory,
          GST_ELEMENT_METADATA_DESCRIPTION), "denois");
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "strength");
  fail_unless (gst_type_is_plugin_api (ps->value_type, NULL));
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "epsilon-variant");
  fail_unless (gst_type_is_plugin_api (ps->value_type, NULL));
  gst_object_unref (e);
  gst_object_unref (factory);
}

GST_END_TEST;

static Suite *
clepsilonknob_suite (void)
{
  Suite *s = suite_create ("clepsilonknob");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_levels);
  tcase_add_test (tc, test_default_is_auto);
  tcase_add_test (tc, test_default_then_expert);
  tcase_add_test (tc, test_off_is_passthrough);
  tcase_add_test (tc, test_levels_while_playing);
  tcase_add_test (tc, test_expert_only);
  tcase_add_test (tc, test_expert_notifies_strength);
  tcase_add_test (tc, test_presets);
  tcase_add_test (tc, test_preset_round_trip);
  tcase_add_test (tc, test_bad_values_warn);
  tcase_add_test (tc, test_bad_value_warns_at_start);
  tcase_add_test (tc, test_bad_value_warns_after_restart);
  tcase_add_test (tc, test_auto_idle_info);
  tcase_add_test (tc, test_auto_10bit);
  tcase_add_test (tc, test_auto_chroma);
  tcase_add_test (tc, test_auto_p010_chroma);
  tcase_add_test (tc, test_auto_packed_422);
  tcase_add_test (tc, test_stats_at_eos);
  tcase_add_test (tc, test_metadata);
  return s;
}

GST_CHECK_MAIN (clepsilonknob);
