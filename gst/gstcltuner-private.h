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

#ifndef __GST_CL_TUNER_PRIVATE_H__
#define __GST_CL_TUNER_PRIVATE_H__

#include "gstclstage-private.h"
#include "gstclstats-private.h"

G_BEGIN_DECLS

/* Choosing and remembering kernel variants, for one device and one run of
 * an element. The tuner keeps the programs (one per sample size and window
 * radius, built on first use) and, for each configuration (a short key such
 * as "epsilon-planar-r4-s21": stage, layout, window radius, size class),
 * the fastest launch: timed once, remembered on disk (one GKeyFile in the
 * cache folder, named by a hash of the device identity and the kernel
 * sources) so that the next start does not time again. Builds and timings
 * are counted in the GstClStats given at creation. Streaming thread only. */
typedef struct _GstClTuner GstClTuner;

/* A tuner for @context that counts in @stats (borrowed: it must outlive the
 * tuner), with the choices remembered on disk for this device loaded. */
GstClTuner *gst_cl_tuner_new (GstClContext * context, GstClStats * stats);
void gst_cl_tuner_free (GstClTuner * tuner);

/* The program for epsilon windows of @radius (1..7) on bytes, or on 16-bit
 * words when @deep: built (or loaded from the program cache) the first time
 * it is asked for, then kept until the tuner is freed. Owned by the tuner. */
GstClKernels *gst_cl_tuner_get_kernels (GstClTuner * tuner, gboolean deep,
    gint radius, GError ** error);

/* The launch @stage runs with: with @forced (not AUTO) that variant with its
 * first work-group size (PLAIN where the program lacks it, or for SEPARABLE
 * on a kernel that does not separate); with AUTO the fastest for the
 * stage's configuration, chosen earlier in this run, remembered on disk, or
 * timed now by running @stage on the buffers it names (blocking; their
 * content does not matter). */
gboolean gst_cl_tuner_choose (GstClTuner * tuner, const GstClStage * stage,
    GstClVariant forced, GstClLaunch * launch, GError ** error);

/* The remembered choice for @config, if any. */
gboolean gst_cl_tuner_lookup (GstClTuner * tuner, const gchar * config,
    GstClLaunch * launch);

/* Enqueues one run of @launch, adding its kernels' events to @events. */
typedef gboolean (*GstClTunerRun) (const GstClLaunch * launch,
    GstClEvents * events, gpointer user_data, GError ** error);

/* A timing request: @n_candidates launches, each enqueued by @run with
 * @user_data, and the configuration the fastest is remembered under. */
typedef struct
{
  const gchar *config;
  const GstClLaunch *candidates;
  guint n_candidates;
  GstClTunerRun run;
  gpointer user_data;
} GstClTuning;

/* Times @tuning's candidates (one warm-up, then the median of three runs
 * by profiling events): first each variant with its first work-group size,
 * then the other sizes of the fastest variant. Stores the fastest under
 * @tuning->config and returns it in @best (untouched where none ran).
 * Blocks until the runs are done. */
gboolean gst_cl_tuner_tune (GstClTuner * tuner, const GstClTuning * tuning,
    GstClLaunch * best, GError ** error);

G_END_DECLS

#endif /* __GST_CL_TUNER_PRIVATE_H__ */
