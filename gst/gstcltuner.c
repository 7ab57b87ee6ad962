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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstcltuner-private.h"
#include "gstclcache-private.h"
#include "gstclerror-private.h"
#include "gstclkernels.h"
#include "filters-shared.h"

#include <stdlib.h>
#include <string.h>

#define GST_CAT_DEFAULT gst_cl_tuner_debug

#define GROUP "launches"
#define TIMED_RUNS 3

struct _GstClTuner
{
  GstClContext *context;
  GstClStats *stats;
  gchar *key;                   /* its cache entry's key */
  GKeyFile *choices;
  GHashTable *launches;         /* config -> GstClLaunch, this run */
  /* by sample size (bytes, 16-bit words) and epsilon radius */
  GstClKernels *kernels[2][FILTER_MAX_RADIUS + 1];
  guint runs;
};

GstClTuner *
gst_cl_tuner_new (GstClContext * context, GstClStats * stats)
{
  GstClTuner *self = g_new0 (GstClTuner, 1);
  gchar *contents;
  gsize length;

  gst_cl_debug_init ();
  self->context = gst_object_ref (context);
  self->stats = stats;
  self->launches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  /* Timings hold for this device and driver running these sources. */
  self->key = g_strjoin ("\n", gst_cl_context_get_identity (context),
      gst_cl_kernel_common, gst_cl_kernel_epsilon, gst_cl_kernel_convolve,
      NULL);

  self->choices = g_key_file_new ();
  if (gst_cl_cache_read ("tuning", self->key, &contents, &length)) {
    if (!g_key_file_load_from_data (self->choices, contents, length,
            G_KEY_FILE_NONE, NULL))
      GST_WARNING ("ignoring a tuning file that does not parse");
    g_free (contents);
  }
  return self;
}

void
gst_cl_tuner_free (GstClTuner * self)
{
  guint i;

  if (!self)
    return;
  for (i = 0; i <= FILTER_MAX_RADIUS; i++) {
    g_clear_pointer (&self->kernels[0][i], gst_cl_kernels_free);
    g_clear_pointer (&self->kernels[1][i], gst_cl_kernels_free);
  }
  g_hash_table_unref (self->launches);
  g_key_file_unref (self->choices);
  g_free (self->key);
  gst_object_unref (self->context);
  g_free (self);
}

GstClKernels *
gst_cl_tuner_get_kernels (GstClTuner * self, gboolean deep, gint radius,
    GError ** error)
{
  GstClKernels **kernels;
  gboolean from_cache = FALSE;
  gint64 started;

  g_return_val_if_fail (radius >= 1 && radius <= FILTER_MAX_RADIUS, NULL);
  kernels = &self->kernels[deep ? 1 : 0][radius];
  if (*kernels)
    return *kernels;

  started = g_get_monotonic_time ();
  *kernels = gst_cl_kernels_new (self->context, radius, deep, &from_cache,
      error);
  if (*kernels)
    gst_cl_stats_add_build (self->stats,
        (g_get_monotonic_time () - started) / 1000.0, from_cache);
  return *kernels;
}

/* "VARIANT LOCAL0 LOCAL1", as stored. */
static gboolean
parse_launch (const gchar * text, GstClLaunch * launch)
{
  gchar **parts = g_strsplit (text, " ", -1);
  gboolean ok = g_strv_length (parts) == 3;
  guint64 l0 = 0, l1 = 0;

  if (ok) {
    launch->variant = gst_cl_variant_from_string (parts[0]);
    ok = launch->variant != GST_CL_VARIANT_AUTO &&
        g_ascii_string_to_unsigned (parts[1], 10, 1, 4096, &l0, NULL) &&
        g_ascii_string_to_unsigned (parts[2], 10, 1, 4096, &l1, NULL);
    launch->local[0] = l0;
    launch->local[1] = l1;
  }
  g_strfreev (parts);
  return ok;
}

gboolean
gst_cl_tuner_lookup (GstClTuner * self, const gchar * config,
    GstClLaunch * launch)
{
  gchar *text = g_key_file_get_string (self->choices, GROUP, config, NULL);
  gboolean found = text && parse_launch (text, launch);

  g_free (text);
  return found;
}

typedef struct
{
  GstClTuner *tuner;
  const gchar *config;
  const gchar *launch;
} Remembered;

/* The tuning file with one more choice: the latest on disk (other
 * processes may have added theirs since this one read it), else ours. */
static gchar *
merge_choice (const gchar * old, gsize old_length, gsize * length,
    gpointer user_data)
{
  Remembered *r = user_data;
  GKeyFile *latest = g_key_file_new ();

  if (old && g_key_file_load_from_data (latest, old, old_length,
          G_KEY_FILE_NONE, NULL)) {
    g_key_file_unref (r->tuner->choices);
    r->tuner->choices = latest;
  } else {
    g_key_file_unref (latest);
  }
  g_key_file_set_string (r->tuner->choices, GROUP, r->config, r->launch);
  return g_key_file_to_data (r->tuner->choices, length, NULL);
}

/* Adds @config to the file on disk, merged with what other processes may
 * have written since this one read it. */
static void
remember (GstClTuner * self, const gchar * config, const GstClLaunch * launch)
{
  gchar *text = g_strdup_printf ("%s %zu %zu",
      gst_cl_variant_to_string (launch->variant), launch->local[0],
      launch->local[1]);
  Remembered r = { self, config, text };

  gst_cl_cache_update ("tuning", self->key, merge_choice, &r);
  /* With the cache off nothing is merged: remember it for this run. */
  g_key_file_set_string (self->choices, GROUP, config, text);
  g_free (text);
}

static int
compare_doubles (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

/* The fastest launch timed so far, and its time (G_MAXDOUBLE: none). */
typedef struct
{
  GstClLaunch launch;
  gdouble ms;
} Fastest;

/* Median kernel time of @launch, one of @tuning's candidates, over
 * TIMED_RUNS runs, after a warm-up run (which may compile the kernel for
 * this work-group size). A launch whose first timed run is already far
 * slower than @bound stops there. */
static gboolean
time_launch (GstClTuner * self, const GstClTuning * tuning,
    const GstClLaunch * launch, gdouble bound, gdouble * ms, GError ** error)
{
  cl_command_queue queue = gst_cl_context_get_queue (self->context);
  gdouble times[TIMED_RUNS];
  GstClEvents events = { {0,}, 0 };
  cl_int status;
  guint i, n = 0;

  for (i = 0; i <= TIMED_RUNS; i++) {
    if (!tuning->run (launch, &events, tuning->user_data, error))
      goto failed;
    status = clFinish (queue);
    if (status != CL_SUCCESS) {
      gst_cl_set_error (error, status, "clFinish (tuning)");
      goto failed;
    }
    if (i == 0) {
      gst_cl_events_take_ms (&events);
      continue;
    }
    times[n++] = gst_cl_events_take_ms (&events);
    if (times[0] > 1.5 * bound)
      break;
  }
  qsort (times, n, sizeof (gdouble), compare_doubles);
  *ms = times[n / 2];
  self->runs++;
  return TRUE;

failed:
  clFinish (queue);
  gst_cl_events_take_ms (&events);
  return FALSE;
}

/* Times @tuning's candidates with @pick set, keeping the fastest in
 * @best. A candidate the device refuses (too much local memory, say) is
 * skipped. */
static void
time_candidates (GstClTuner * self, const GstClTuning * tuning,
    const gboolean * pick, Fastest * best, GError ** last_error)
{
  const gchar *config = tuning->config;
  const GstClLaunch *candidates = tuning->candidates;
  gdouble ms;
  guint i;

  for (i = 0; i < tuning->n_candidates; i++) {
    if (!pick[i])
      continue;
    g_clear_error (last_error);
    if (!time_launch (self, tuning, &candidates[i], best->ms, &ms, last_error)) {
      GST_DEBUG ("%s: %s %zux%zu failed: %s", config,
          gst_cl_variant_to_string (candidates[i].variant),
          candidates[i].local[0], candidates[i].local[1],
          (*last_error)->message);
      continue;
    }
    GST_DEBUG ("%s: %s %zux%zu: %.4f ms", config,
        gst_cl_variant_to_string (candidates[i].variant),
        candidates[i].local[0], candidates[i].local[1], ms);
    if (ms < best->ms) {
      best->ms = ms;
      best->launch = candidates[i];
    }
  }
}

gboolean
gst_cl_tuner_tune (GstClTuner * self, const GstClTuning * tuning,
    GstClLaunch * best, GError ** error)
{
  const GstClLaunch *candidates = tuning->candidates;
  const guint n_candidates = tuning->n_candidates;
  Fastest fastest = {.ms = G_MAXDOUBLE };
  GError *last_error = NULL;
  gboolean *pick = g_new0 (gboolean, n_candidates);
  guint i, j;

  g_return_val_if_fail (n_candidates > 0, FALSE);

  /* First each variant with its first work-group size, then the other
   * sizes of the fastest variant only: the variant matters more than the
   * work-group, and every launch timed costs start-up time. */
  for (i = 0; i < n_candidates; i++) {
    for (j = 0; j < i && candidates[j].variant != candidates[i].variant; j++);
    pick[i] = j == i;
  }
  time_candidates (self, tuning, pick, &fastest, &last_error);
  if (fastest.ms < G_MAXDOUBLE) {
    for (i = 0; i < n_candidates; i++)
      pick[i] = !pick[i] && candidates[i].variant == fastest.launch.variant;
    time_candidates (self, tuning, pick, &fastest, &last_error);
  }
  g_free (pick);

  if (fastest.ms == G_MAXDOUBLE) {
    g_propagate_error (error, last_error);
    return FALSE;
  }
  g_clear_error (&last_error);
  *best = fastest.launch;
  GST_INFO ("%s on %s: %s %zux%zu (%.4f ms)", tuning->config,
      gst_cl_context_get_device_name (self->context),
      gst_cl_variant_to_string (best->variant), best->local[0],
      best->local[1], fastest.ms);
  remember (self, tuning->config, best);
  return TRUE;
}

/* ---- Choosing the launch of one stage ------------------------------------ */

/* What a choice is remembered under: stage, layout, window or kernel shape,
 * and the size's order of magnitude (the best launch depends on how much
 * work there is, not on the exact size). */
static gchar *
stage_config (const GstClStage * stage)
{
  const GstClStagePlane *plane = &stage->plane;
  gboolean deep = gst_cl_kernels_is_deep (stage->kernels);
  const gchar *words = deep ? "16" : "";
  guint size_class = g_bit_storage ((gulong) plane->width * plane->xstep *
      (deep ? 2 : 1) * plane->height);

  if (stage->convolve)
    return g_strdup_printf ("convolve%s-%dx%d-%s-s%u", words,
        stage->conv.kw, stage->conv.kh,
        stage->conv.separable ? "rank1" : "full", size_class);
  return g_strdup_printf ("epsilon%s-%s-r%d-s%u", words,
      plane->xstep == 2 ? "interleaved" : "planar",
      gst_cl_kernels_get_radius (stage->kernels), size_class);
}

static gboolean
run_stage (const GstClLaunch * launch, GstClEvents * events,
    gpointer user_data, GError ** error)
{
  const GstClAfter after = { 0, NULL, events };

  return gst_cl_stage_run (user_data, launch, &after, error);
}

/* The last variant @stage may run: SEPARABLE only for a separable
 * convolution. */
static GstClVariant
last_variant (const GstClStage * stage)
{
  return stage->convolve && stage->conv.separable ?
      GST_CL_VARIANT_SEPARABLE : GST_CL_VARIANT_WIDE;
}

/* Times every variant the stage allows with each of its work-group sizes. */
static gboolean
tune_stage (GstClTuner * self, const GstClStage * stage, const gchar * config,
    GstClLaunch * launch, GError ** error)
{
  GstClLaunch candidates[GST_CL_N_VARIANTS * 8];
  GstClVariant v;
  size_t sizes[8][2];
  guint i, m, n = 0, runs = self->runs;
  gint64 started = g_get_monotonic_time ();
  GstClTuning tuning = { config, candidates, 0, run_stage, (gpointer) stage };
  gboolean ok;

  for (v = GST_CL_VARIANT_PLAIN; v <= last_variant (stage); v++) {
    if (!gst_cl_kernels_has_variant (stage->kernels, stage->convolve, v))
      continue;
    m = gst_cl_kernels_local_sizes (stage->kernels, stage->convolve, v, sizes);
    for (i = 0; i < m; i++) {
      candidates[n].variant = v;
      candidates[n].local[0] = sizes[i][0];
      candidates[n].local[1] = sizes[i][1];
      n++;
    }
  }
  tuning.n_candidates = n;
  ok = gst_cl_tuner_tune (self, &tuning, launch, error);
  gst_cl_stats_add_tuning (self->stats, self->runs - runs,
      (g_get_monotonic_time () - started) / 1000.0);
  return ok;
}

/* Whether @launch is one that tune_stage() could have chosen for @stage. */
static gboolean
launch_is_known (const GstClStage * stage, const GstClLaunch * launch)
{
  size_t sizes[8][2];
  guint i, n;

  if (launch->variant > last_variant (stage) ||
      !gst_cl_kernels_has_variant (stage->kernels, stage->convolve,
          launch->variant))
    return FALSE;
  n = gst_cl_kernels_local_sizes (stage->kernels, stage->convolve,
      launch->variant, sizes);
  for (i = 0; i < n; i++) {
    if (sizes[i][0] == launch->local[0] && sizes[i][1] == launch->local[1])
      return TRUE;
  }
  return FALSE;
}

gboolean
gst_cl_tuner_choose (GstClTuner * self, const GstClStage * stage,
    GstClVariant forced, GstClLaunch * launch, GError ** error)
{
  GstClLaunch *known;
  size_t sizes[8][2];
  gboolean remembered;
  gchar *config;

  if (forced == GST_CL_VARIANT_AUTO &&
      !gst_cl_context_has_opencl (self->context)) {
    /* nothing to time on without OpenCL: what an earlier run chose, or the
     * plain kernel (every variant computes the same numbers) */
    config = stage_config (stage);
    remembered = gst_cl_tuner_lookup (self, config, launch) &&
        launch_is_known (stage, launch);
    g_free (config);
    if (remembered)
      return TRUE;
    GST_INFO ("no OpenCL context and no launch remembered: the plain kernel");
    forced = GST_CL_VARIANT_PLAIN;
  }
  if (forced != GST_CL_VARIANT_AUTO && (forced > last_variant (stage) ||
          !gst_cl_kernels_has_variant (stage->kernels, stage->convolve,
              forced)))
    forced = GST_CL_VARIANT_PLAIN;
  if (forced != GST_CL_VARIANT_AUTO) {
    gst_cl_kernels_local_sizes (stage->kernels, stage->convolve, forced, sizes);
    launch->variant = forced;
    launch->local[0] = sizes[0][0];
    launch->local[1] = sizes[0][1];
    return TRUE;
  }

  config = stage_config (stage);
  if ((known = g_hash_table_lookup (self->launches, config))) {
    *launch = *known;
    g_free (config);
    return TRUE;
  }
  /* A remembered choice this program cannot run (a damaged or foreign
   * cache file) is timed again, and overwritten. */
  if (!(gst_cl_tuner_lookup (self, config, launch) &&
          launch_is_known (stage, launch)) &&
      !tune_stage (self, stage, config, launch, error)) {
    g_free (config);
    return FALSE;
  }
  g_hash_table_insert (self->launches, config, g_memdup2 (launch,
          sizeof (*launch)));
  return TRUE;
}
