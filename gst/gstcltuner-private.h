/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_TUNER_PRIVATE_H__
#define __GST_CL_TUNER_PRIVATE_H__

#include "gstclvariant-private.h"

G_BEGIN_DECLS

/* Autotuning: for one device and one configuration (a short key such as
 * "epsilon-planar-r4-s21": stage, layout, window radius, size class), time
 * candidate launches once, keep the fastest, and remember it on disk (one
 * GKeyFile in the cache folder, named by a hash of the device identity and
 * the kernel sources) so that the next start does not time again. */
typedef struct _GstClTuner GstClTuner;

GstClTuner *gst_cl_tuner_new (GstClContext * context);
void gst_cl_tuner_free (GstClTuner * tuner);

/* The remembered choice for @config, if any. */
gboolean gst_cl_tuner_lookup (GstClTuner * tuner, const gchar * config,
    GstClLaunch * launch);

/* Enqueues one run of @launch, adding its kernels' events to @events. */
typedef gboolean (*GstClTunerRun) (const GstClLaunch * launch,
    GstClEvents * events, gpointer user_data, GError ** error);

/* Times @candidates with @run (one warm-up, then the median of three runs
 * by profiling events): first each variant with its first work-group size,
 * then the other sizes of the fastest variant. Stores the fastest under
 * @config and returns it in @best. Blocks until the runs are done. */
gboolean gst_cl_tuner_tune (GstClTuner * tuner, const gchar * config,
    const GstClLaunch * candidates, guint n_candidates, GstClTunerRun run,
    gpointer user_data, GstClLaunch * best, GError ** error);

/* How many launches gst_cl_tuner_tune() timed since @tuner was made. */
guint gst_cl_tuner_get_runs (GstClTuner * tuner);

G_END_DECLS

#endif /* __GST_CL_TUNER_PRIVATE_H__ */
