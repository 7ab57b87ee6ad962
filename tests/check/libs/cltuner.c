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

/* The tuner (gst/gstcltuner.c) on its own, each case in a fresh cache
 * folder (GST_CL_CACHE_DIR): a stage's launch chosen by timing is one the
 * program has, stored on disk and read back by a second tuner without
 * timing again (a tuner on an empty folder times again); the fastest of
 * gst_cl_tuner_tune()'s candidates wins where one is made slow on purpose;
 * a forced variant is honoured with its first work-group size, PLAIN where
 * the program or the kernel lacks it, without timing. The device is
 * $CLEPSILON_TEST_DEVICE (default "pocl"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <string.h>

#include "gstcltuner-private.h"
#include "fixture.h"
#include "robust.h"

/* A GstClStats figure. */
static guint
stats_uint (GstClStats * stats, const gchar * field)
{
  GstStructure *s = gst_cl_stats_to_structure (stats);
  guint v = 0;

  fail_unless (gst_structure_get_uint (s, field, &v), "no %s", field);
  gst_structure_free (s);
  return v;
}

/* Two device buffers, a plane of @width x @height samples between them. */
typedef struct
{
  cl_mem src, dst, coeffs;
  GstClPlaneRef in, out;
  GstClStage stage;
} Stage;

static void
stage_init (Stage * s, GstClKernels * kernels, gboolean convolve,
    gint width, gint height)
{
  const gfloat sharpen[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  gint bytes = gst_cl_kernels_is_deep (kernels) ? 2 : 1;
  gsize size = (gsize) width * height * bytes;

  memset (s, 0, sizeof (*s));
  s->src = gst_cl_context_create_buffer (fixture_context, CL_MEM_READ_WRITE,
      size, "tuner input", NULL);
  s->dst = gst_cl_context_create_buffer (fixture_context, CL_MEM_READ_WRITE,
      size, "tuner output", NULL);
  s->coeffs = gst_cl_context_create_buffer (fixture_context,
      CL_MEM_READ_ONLY, sizeof (sharpen), "coefficients", NULL);
  fail_unless (s->src && s->dst && s->coeffs);
  fail_unless (clEnqueueWriteBuffer (gst_cl_context_get_queue
          (fixture_context), s->coeffs, CL_TRUE, 0, sizeof (sharpen), sharpen,
          0, NULL, NULL) == CL_SUCCESS);
  s->in = gst_cl_plane_ref_device (s->src, width * bytes);
  s->out = gst_cl_plane_ref_device (s->dst, width * bytes);
  s->stage.kernels = kernels;
  s->stage.convolve = convolve;
  s->stage.plane = (GstClStagePlane) {
  &s->in, &s->out, width, height, 1, 0};
  s->stage.threshold = 10;
  s->stage.conv.kw = s->stage.conv.kh = 3;
  s->stage.conv.divisor = 1;
  s->stage.conv.coeffs = s->coeffs;
}

static void
stage_clear (Stage * s)
{
  clReleaseMemObject (s->src);
  clReleaseMemObject (s->dst);
  if (s->coeffs)
    clReleaseMemObject (s->coeffs);
}

/* Whether @launch is a variant @s's program has, at one of its sizes. */
static gboolean
launch_offered (const Stage * s, const GstClLaunch * launch)
{
  size_t sizes[8][2];
  guint i, n;

  if (!gst_cl_kernels_has_variant (s->stage.kernels, s->stage.convolve,
          launch->variant))
    return FALSE;
  n = gst_cl_kernels_local_sizes (s->stage.kernels, s->stage.convolve,
      launch->variant, sizes);
  for (i = 0; i < n; i++)
    if (sizes[i][0] == launch->local[0] && sizes[i][1] == launch->local[1])
      return TRUE;
  return FALSE;
}

static gboolean
same_launch (const GstClLaunch * a, const GstClLaunch * b)
{
  return a->variant == b->variant && a->local[0] == b->local[0] &&
      a->local[1] == b->local[1];
}

static GstClKernels *
tuner_kernels (GstClTuner * tuner, gboolean deep, gint radius)
{
  GError *error = NULL;
  GstClKernels *k = gst_cl_tuner_get_kernels (tuner, deep, radius, &error);

  fail_unless (k != NULL, "%s", error ? error->message : "");
  /* kept: asked again, the same program */
  fail_unless (gst_cl_tuner_get_kernels (tuner, deep, radius, NULL) == k);
  return k;
}

/* Chosen by timing, remembered on disk, read back by a second tuner without
 * timing; a tuner on an empty folder times again. For the epsilon filter
 * on bytes and on words, and the convolution. */
GST_START_TEST (test_choose_remembered)
{
  static const struct
  {
    gboolean deep, convolve;
  } stages[] = { {FALSE, FALSE}, {TRUE, FALSE}, {FALSE, TRUE} };
  RtCacheDir *cache = rt_cache_dir_new ();
  GstClLaunch chosen[G_N_ELEMENTS (stages)];
  GstClStats *stats = gst_cl_stats_new ();
  GstClTuner *tuner = gst_cl_tuner_new (fixture_context, stats);
  guint i, runs;

  for (i = 0; i < G_N_ELEMENTS (stages); i++) {
    GstClKernels *k = tuner_kernels (tuner, stages[i].deep, 2);
    GError *error = NULL;
    GstClLaunch again;
    Stage s;

    stage_init (&s, k, stages[i].convolve, 97, 61);
    runs = stats_uint (stats, "tuning-runs");
    fail_unless (gst_cl_tuner_choose (tuner, &s.stage, GST_CL_VARIANT_AUTO,
            &chosen[i], &error), "%s", error ? error->message : "");
    fail_unless (stats_uint (stats, "tuning-runs") > runs, "stage %u not "
        "timed", i);
    fail_unless (launch_offered (&s, &chosen[i]), "stage %u: %s %zux%zu "
        "not offered", i, gst_cl_variant_to_string (chosen[i].variant),
        chosen[i].local[0], chosen[i].local[1]);
    /* asked again in this run: not timed again */
    runs = stats_uint (stats, "tuning-runs");
    fail_unless (gst_cl_tuner_choose (tuner, &s.stage, GST_CL_VARIANT_AUTO,
            &again, NULL));
    fail_unless_equals_int (stats_uint (stats, "tuning-runs"), runs);
    fail_unless (same_launch (&again, &chosen[i]));
    stage_clear (&s);
  }
  gst_cl_tuner_free (tuner);
  gst_cl_stats_free (stats);

  /* a second tuner, on the same folder */
  stats = gst_cl_stats_new ();
  tuner = gst_cl_tuner_new (fixture_context, stats);
  for (i = 0; i < G_N_ELEMENTS (stages); i++) {
    GstClKernels *k = tuner_kernels (tuner, stages[i].deep, 2);
    GstClLaunch launch;
    Stage s;

    stage_init (&s, k, stages[i].convolve, 97, 61);
    fail_unless (gst_cl_tuner_choose (tuner, &s.stage, GST_CL_VARIANT_AUTO,
            &launch, NULL));
    fail_unless (same_launch (&launch, &chosen[i]),
        "stage %u: read back %s %zux%zu, chosen %s %zux%zu", i,
        gst_cl_variant_to_string (launch.variant), launch.local[0],
        launch.local[1], gst_cl_variant_to_string (chosen[i].variant),
        chosen[i].local[0], chosen[i].local[1]);
    stage_clear (&s);
  }
  fail_unless_equals_int (stats_uint (stats, "tuning-runs"), 0);
  /* the programs came from the program cache of the same folder */
  fail_unless_equals_int (stats_uint (stats, "programs-compiled"), 0);
  gst_cl_tuner_free (tuner);
  gst_cl_stats_free (stats);
  fail_unless (rt_cache_dir_free (cache) > 0, "nothing was stored");

  /* an empty folder: timed again */
  cache = rt_cache_dir_new ();
  stats = gst_cl_stats_new ();
  tuner = gst_cl_tuner_new (fixture_context, stats);
  {
    Stage s;
    GstClLaunch launch;

    stage_init (&s, tuner_kernels (tuner, FALSE, 2), FALSE, 97, 61);
    fail_unless (gst_cl_tuner_choose (tuner, &s.stage, GST_CL_VARIANT_AUTO,
            &launch, NULL));
    fail_unless (stats_uint (stats, "tuning-runs") > 0);
    stage_clear (&s);
  }
  gst_cl_tuner_free (tuner);
  gst_cl_stats_free (stats);
  rt_cache_dir_free (cache);
}

GST_END_TEST;

/* gst_cl_tuner_tune()'s run: the stage, or for the candidate whose
 * variant is @slow the same launch on a plane 48 times larger, so that it
 * cannot be the fastest. */
typedef struct
{
  Stage *s, *big;
  GstClVariant slow;
  guint calls[GST_CL_N_VARIANTS];
} TuneRun;

static gboolean
tune_run (const GstClLaunch * launch, GstClEvents * events,
    gpointer user_data, GError ** error)
{
  TuneRun *r = user_data;

  r->calls[launch->variant]++;
  return gst_cl_stage_run (launch->variant == r->slow ? &r->big->stage :
      &r->s->stage, launch, &(GstClAfter) {
      0, NULL, events}
      , error);
}

/* The fastest candidate wins and is stored under the caller's config,
 * found by gst_cl_tuner_lookup() in this tuner and in the next. */
GST_START_TEST (test_tune_fastest)
{
  RtCacheDir *cache = rt_cache_dir_new ();
  GstClStats *stats = gst_cl_stats_new ();
  GstClTuner *tuner = gst_cl_tuner_new (fixture_context, stats);
  GstClKernels *k = tuner_kernels (tuner, FALSE, 3);
  GstClLaunch candidates[2], best, found;
  GError *error = NULL;
  GstClVariant slow;
  Stage s, big;

  stage_init (&s, k, FALSE, 301, 157);
  stage_init (&big, k, FALSE, 301 * 8, 157 * 6);
  fail_if (gst_cl_tuner_lookup (tuner, "test-config", &found));
  for (slow = GST_CL_VARIANT_PLAIN; slow <= GST_CL_VARIANT_VECTOR;
      slow += GST_CL_VARIANT_VECTOR - GST_CL_VARIANT_PLAIN) {
    GstClVariant fast = slow == GST_CL_VARIANT_PLAIN ?
        GST_CL_VARIANT_VECTOR : GST_CL_VARIANT_PLAIN;
    TuneRun r = { &s, &big, slow, {0,}
    };
    gchar *config = g_strdup_printf ("test-config-slow-%s",
        gst_cl_variant_to_string (slow));
    size_t sizes[8][2];

    candidates[0].variant = GST_CL_VARIANT_PLAIN;
    candidates[1].variant = GST_CL_VARIANT_VECTOR;
    gst_cl_kernels_local_sizes (k, FALSE, GST_CL_VARIANT_PLAIN, sizes);
    candidates[0].local[0] = sizes[0][0];
    candidates[0].local[1] = sizes[0][1];
    gst_cl_kernels_local_sizes (k, FALSE, GST_CL_VARIANT_VECTOR, sizes);
    candidates[1].local[0] = sizes[0][0];
    candidates[1].local[1] = sizes[0][1];
    fail_unless (gst_cl_tuner_tune (tuner, &(GstClTuning) {
            config, candidates, 2, tune_run, &r}, &best, &error), "%s",
        error ? error->message : "");
    fail_unless_equals_int (best.variant, fast);
    /* the winner: one warm-up and three timed runs at least; the slow one
     * tried (and given up once behind, where it came second) */
    fail_unless (r.calls[fast] >= 4 && r.calls[slow] >= 1, "runs: %u "
        "plain, %u vector", r.calls[GST_CL_VARIANT_PLAIN],
        r.calls[GST_CL_VARIANT_VECTOR]);
    fail_unless (gst_cl_tuner_lookup (tuner, config, &found));
    fail_unless (same_launch (&found, &best));
    g_free (config);
  }
  gst_cl_tuner_free (tuner);
  gst_cl_stats_free (stats);

  stats = gst_cl_stats_new ();
  tuner = gst_cl_tuner_new (fixture_context, stats);
  fail_unless (gst_cl_tuner_lookup (tuner, "test-config-slow-plain", &found));
  fail_unless_equals_int (found.variant, GST_CL_VARIANT_VECTOR);
  fail_unless (gst_cl_tuner_lookup (tuner, "test-config-slow-vector", &found));
  fail_unless_equals_int (found.variant, GST_CL_VARIANT_PLAIN);
  fail_if (gst_cl_tuner_lookup (tuner, "test-config-never", &found));
  gst_cl_tuner_free (tuner);
  gst_cl_stats_free (stats);
  stage_clear (&s);
  stage_clear (&big);
  rt_cache_dir_free (cache);
}

GST_END_TEST;

/* A forced variant: itself with its first work-group size where the
 * program has it; PLAIN where it does not (TILED and WIDE on words,
 * SEPARABLE for the epsilon filter or a kernel that does not separate);
 * never timed. */
GST_START_TEST (test_forced)
{
  RtCacheDir *cache = rt_cache_dir_new ();
  GstClStats *stats = gst_cl_stats_new ();
  GstClTuner *tuner = gst_cl_tuner_new (fixture_context, stats);
  gint deep, convolve;
  GstClVariant v;

  for (deep = 0; deep < 2; deep++) {
    for (convolve = 0; convolve < 2; convolve++) {
      GstClKernels *k = tuner_kernels (tuner, deep, 4);
      Stage s;

      stage_init (&s, k, convolve, 45, 33);
      for (v = GST_CL_VARIANT_PLAIN; v < GST_CL_N_VARIANTS; v++) {
        GstClVariant want = gst_cl_kernels_has_variant (k, convolve, v) &&
            (v != GST_CL_VARIANT_SEPARABLE || s.stage.conv.separable) ?
            v : GST_CL_VARIANT_PLAIN;
        size_t sizes[8][2];
        GstClLaunch launch;
        GError *error = NULL;

        fail_unless (gst_cl_tuner_choose (tuner, &s.stage, v, &launch,
                &error), "%s", error ? error->message : "");
        fail_unless_equals_int (launch.variant, want);
        gst_cl_kernels_local_sizes (k, convolve, want, sizes);
        fail_unless (launch.local[0] == sizes[0][0] &&
            launch.local[1] == sizes[0][1], "forced %s: %zux%zu",
            gst_cl_variant_to_string (v), launch.local[0], launch.local[1]);
      }
      stage_clear (&s);
    }
  }
  /* the sharpen kernel does not separate: SEPARABLE was never given; the
   * bytes program has TILED: it was */
  fail_unless_equals_int (stats_uint (stats, "tuning-runs"), 0);
  gst_cl_tuner_free (tuner);
  gst_cl_stats_free (stats);
  rt_cache_dir_free (cache);
}

GST_END_TEST;

static Suite *
cltuner_suite (void)
{
  Suite *s = suite_create ("cltuner");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, fixture_setup, fixture_teardown);
  tcase_add_test (tc, test_choose_remembered);
  tcase_add_test (tc, test_tune_fastest);
  tcase_add_test (tc, test_forced);
  return s;
}

GST_CHECK_MAIN (cltuner);
