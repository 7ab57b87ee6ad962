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

#ifndef __GST_CL_STATS_PRIVATE_H__
#define __GST_CL_STATS_PRIVATE_H__

#include "gstclcopy-private.h"
#include "gstcldctestimate-private.h"
#include "gstclwaits-private.h"

G_BEGIN_DECLS
/* The one home of the figures the element's "stats" property reports:
 * written by the streaming thread (frames) and the tuner (programs and
 * timing), read by the property from any thread. Every function takes the
 * object's own lock; none blocks on anything else. */
typedef struct _GstClStats GstClStats;

/* What one frame cost and how it ran, for gst_cl_stats_add_frame(). */
typedef struct
{
  GstClTransferStats transfers;
  gdouble device_ms;            /* kernels, from profiling events */
  gdouble wall_ms;              /* from taking the input to releasing it */
  const gchar *memory_path;     /* "host-ptr", "pinned", "cuda" or "copy" */
  gchar epsilon_launch[32];     /* luma's "VARIANT WxH", or "none" */
  gchar conv_launch[32];
  guint auto_threshold;         /* strength=auto: the DCT threshold used
                                 * (of the second field, in fields) */
  GstClDctIdle auto_idle;       /* strength=auto: why it leaves the stream
                                 * alone, if it does */
  gboolean in_fields;           /* filtered field by field (interlaced) */
  gdouble host_wait_ms[GST_CL_WAIT_N];  /* the streaming thread's waits */
} GstClFrameStats;

/* A new set of figures, all zero and memory path "none". */
GstClStats *gst_cl_stats_new (void);
void gst_cl_stats_free (GstClStats * stats);

/* Sets every figure back to what gst_cl_stats_new() gives. */
void gst_cl_stats_reset (GstClStats * stats);

/* Counts one frame. */
void gst_cl_stats_add_frame (GstClStats * stats, const GstClFrameStats * frame);

/* Sets the last frame's strength=auto threshold, known only once the
 * frames in flight are done where the device decides (at EOS). */
void gst_cl_stats_set_auto_threshold (GstClStats * stats, guint threshold);

/* Counts a program built in @ms, compiled from source or loaded from the
 * program cache. */
void gst_cl_stats_add_build (GstClStats * stats, gdouble ms,
    gboolean from_cache);

/* Counts @runs launches timed in @ms by the tuner. */
void gst_cl_stats_add_tuning (GstClStats * stats, guint runs, gdouble ms);

/* The figures as an "application/x-clepsilon-stats" structure (fields
 * documented with the element's "stats" property). */
GstStructure *gst_cl_stats_to_structure (GstClStats * stats);

G_END_DECLS
#endif /* __GST_CL_STATS_PRIVATE_H__ */
