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

/* Presets an application saves: what gst_preset_save_preset writes of one
 * element comes back whole in a new element's gst_preset_load_preset, at
 * every strength, custom settings with a kernel, the DCT stage; the loaded
 * element filters as the saved one did; a preset file with the kernel
 * escaped as GStreamer writes it today, and as a GStreamer that escaped it
 * once would, loads both. The presets live in a folder of this run's own
 * (XDG_DATA_HOME and GST_PRESET_PATH set in main, before GStreamer reads
 * them), never in the user's. */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <gst/video/video.h>

#include "../harness.h"

/* The kernel every custom preset here holds: spaces and ';', which
 * GStreamer's preset files escape, a negative and a fraction. */
#define KERNEL "1 2 1; 2 -4.5 2; 1 2 1"
static const gdouble kernel_coeffs[] = { 1, 2, 1, 2, -4.5, 2, 1, 2, 1 };

/* What a preset holds, as docs/properties.md says: the filter's settings. */
static const gchar *const held[] = { "threshold", "window-size",
  "chroma-threshold", "kernel", "divisor", "bias", "dct-stage", "strength"
};

/* Every property of @held on @e, as one line "name=value ...". */
static gchar *
describe_settings (GstElement * e)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (held); i++) {
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        held[i]);
    GValue v = G_VALUE_INIT;
    gchar *text;

    fail_unless (ps != NULL, "no property %s", held[i]);
    g_value_init (&v, ps->value_type);
    g_object_get_property (G_OBJECT (e), held[i], &v);
    text = gst_value_serialize (&v);
    g_string_append_printf (s, "%s%s=%s", i ? " " : "", held[i], text);
    g_free (text);
    g_value_unset (&v);
  }
  return g_string_free (s, FALSE);
}

/* Saves @e's settings as preset @name, loads it into a new element whose
 * settings differ, and checks that the new one has them all; returns the
 * new element. */
static GstElement *
round_trip (GstElement * e, const gchar * name)
{
  GstElement *loaded = th_make_element ();
  gchar *saved, *got;

  fail_unless (gst_preset_save_preset (GST_PRESET (e), name),
      "preset %s not saved", name);
  /* other values everywhere, so that a setting not loaded shows */
  g_object_set (loaded, "threshold", 77, "window-size", 11,
      "chroma-threshold", 66, "kernel", "0 1 0; 1 -4 1; 0 1 0",
      "divisor", 3.5, "bias", -9.25, NULL);
  saved = describe_settings (e);
  got = describe_settings (loaded);
  fail_if (g_str_equal (saved, got), "%s: nothing to load", name);
  g_free (got);

  fail_unless (gst_preset_load_preset (GST_PRESET (loaded), name),
      "preset %s does not load", name);
  got = describe_settings (loaded);
  fail_unless (g_str_equal (saved, got), "preset %s:\nsaved  %s\nloaded %s",
      name, saved, got);
  g_free (saved);
  g_free (got);
  return loaded;
}

/* Every strength, saved and loaded as it is: a level as that level with its
 * values (whatever the new element had). */
GST_START_TEST (test_round_trip_levels)
{
  static const gchar *const levels[] = { "off", "light", "medium", "strong",
    "auto"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (levels); i++) {
    GstElement *e = th_make_element ();
    gchar *name = g_strdup_printf ("level-%s", levels[i]);

    gst_util_set_object_arg (G_OBJECT (e), "strength", levels[i]);
    gst_object_unref (round_trip (e, name));
    gst_object_unref (e);
    g_free (name);
  }
}

GST_END_TEST;

/* Custom settings with a kernel come back whole, and the loaded element
 * filters a frame as those settings do (the CPU reference). */
GST_START_TEST (test_round_trip_custom_kernel)
{
  GstElement *e = th_make_element (), *loaded;
  GRand *rand = g_rand_new_with_seed (4141);
  GstVideoInfo info;
  GstHarness *hr;
  ThConfig cfg;
  gchar *kernel;

  th_config_init (&cfg, 7, 5, 4);
  th_config_set_kernel_str (&cfg, KERNEL, 3, 3, kernel_coeffs, 5.5, -2.25);
  th_config_apply (&cfg, e);
  loaded = round_trip (e, "custom-kernel");
  g_object_get (loaded, "kernel", &kernel, NULL);
  fail_unless_equals_string (kernel, KERNEL);
  g_free (kernel);

  hr = th_harness_new (loaded, GST_VIDEO_FORMAT_I420, 37, 23, 0, &info);
  th_push_check_unref (hr, &info, th_make_input (&info, rand, TH_FILL_NOISE),
      &cfg.ref, "custom-kernel preset loaded (seed 4141)");
  th_teardown_checked (hr);
  gst_object_unref (e);
  g_rand_free (rand);
}

GST_END_TEST;

/* The DCT stage set by hand (custom, with a kernel and chroma), and a level
 * set after expert values: each comes back as saved. */
GST_START_TEST (test_round_trip_dct_stage)
{
  GstElement *e = th_make_element ();

  g_object_set (e, "threshold", 12, "chroma-threshold", 3, "kernel", KERNEL,
      "divisor", -2.0, "bias", 0.5, "dct-stage", TRUE, NULL);
  gst_object_unref (round_trip (e, "custom-dct"));
  gst_object_unref (e);

  e = th_make_element ();
  g_object_set (e, "threshold", 12, "kernel", KERNEL, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "strength", "auto");
  gst_object_unref (round_trip (e, "auto-after-custom"));
  gst_object_unref (e);
}

GST_END_TEST;

/* A preset file with the kernel as GStreamer 1.22 writes it (escaped twice),
 * as a GStreamer that escapes it once would, and as a user writes it by
 * hand (main puts them in GST_PRESET_PATH): each loads the kernel. */
GST_START_TEST (test_kernel_escape_forms)
{
  static const gchar *const names[] = { "escaped-twice", "escaped-once",
    "by-hand"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    GstElement *e = th_make_element ();
    gchar *kernel;

    fail_unless (gst_preset_load_preset (GST_PRESET (e), names[i]),
        "preset %s does not load", names[i]);
    g_object_get (e, "kernel", &kernel, NULL);
    fail_unless (g_str_equal (kernel, KERNEL), "preset %s: kernel \"%s\"",
        names[i], kernel);
    g_free (kernel);
    gst_object_unref (e);
  }
}

GST_END_TEST;

static Suite *
clepsilonpresets_suite (void)
{
  Suite *s = suite_create ("clepsilonpresets");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_round_trip_levels);
  tcase_add_test (tc, test_round_trip_custom_kernel);
  tcase_add_test (tc, test_round_trip_dct_stage);
  tcase_add_test (tc, test_kernel_escape_forms);
  return s;
}

/* The three forms of test_kernel_escape_forms, in the file a system
 * install would have (GST_PRESET_PATH). */
static void
write_escape_forms (const gchar * dir)
{
  static const gchar text[] =
      "[_presets_]\n"
      "version=0.0.1\n"
      "element-name=GstClEpsilon\n"
      "\n"
      "[escaped-twice]\n"
      "kernel=\"1\\\\ 2\\\\ 1\\\\;\\\\ 2\\\\ -4.5\\\\ 2\\\\;\\\\ 1\\\\ 2\\\\ 1\"\n"
      "strength=custom\n"
      "\n"
      "[escaped-once]\n"
      "kernel=\"1\\ 2\\ 1\\;\\ 2\\ -4.5\\ 2\\;\\ 1\\ 2\\ 1\"\n"
      "strength=custom\n"
      "\n" "[by-hand]\n" "kernel=" KERNEL "\n" "strength=custom\n";
  gchar *path = g_build_filename (dir, "GstClEpsilon.prs", NULL);

  g_mkdir_with_parents (dir, 0700);
  if (!g_file_set_contents (path, text, -1, NULL))
    g_error ("cannot write %s", path);
  g_free (path);
}

int
main (int argc, char **argv)
{
  gchar *preset_home, *system_dir, *user_dir;
  int failed;

  /* Before GStreamer reads them: GLib keeps the user's data folder. */
  preset_home = rt_tmp_dir_new ("clepsilon-presets");
  system_dir = g_build_filename (preset_home, "system", NULL);
  user_dir = g_build_filename (preset_home, "user", NULL);
  write_escape_forms (system_dir);
  g_setenv ("GST_PRESET_PATH", system_dir, TRUE);
  g_setenv ("XDG_DATA_HOME", user_dir, TRUE);

  gst_check_init (&argc, &argv);
  failed = gst_check_run_suite (clepsilonpresets_suite (), "clepsilonpresets",
      __FILE__);
  rt_tmp_dir_remove (preset_home);
  g_free (system_dir);
  g_free (user_dir);
  g_free (preset_home);
  return failed;
}
