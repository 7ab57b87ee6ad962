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

#include "gstclstats-private.h"

#include <string.h>

struct _GstClStats
{
  GMutex lock;
  guint64 frames;
  guint64 zero_copy_frames;
  guint64 field_frames;
  GstClTransferStats totals;
  gdouble device_ms;
  gdouble transform_ms;
  gdouble host_wait_ms[GST_CL_WAIT_N];
  const gchar *memory_path;
  gchar epsilon_launch[32];
  gchar conv_launch[32];
  guint auto_threshold;
  guint programs_compiled;
  guint programs_cached;
  guint tuning_runs;
  gdouble build_ms;
  gdouble tuning_ms;
};

GstClStats *
gst_cl_stats_new (void)
{
  GstClStats *self = g_new0 (GstClStats, 1);

  g_mutex_init (&self->lock);
  gst_cl_stats_reset (self);
  return self;
}

void
gst_cl_stats_free (GstClStats * self)
{
  if (!self)
    return;
  g_mutex_clear (&self->lock);
  g_free (self);
}

void
gst_cl_stats_reset (GstClStats * self)
{
  g_mutex_lock (&self->lock);
  self->frames = self->zero_copy_frames = self->field_frames = 0;
  memset (&self->totals, 0, sizeof (self->totals));
  self->device_ms = self->transform_ms = self->build_ms = self->tuning_ms = 0;
  memset (self->host_wait_ms, 0, sizeof (self->host_wait_ms));
  self->memory_path = "none";
  g_strlcpy (self->epsilon_launch, "none", sizeof (self->epsilon_launch));
  g_strlcpy (self->conv_launch, "none", sizeof (self->conv_launch));
  self->programs_compiled = self->programs_cached = self->tuning_runs = 0;
  self->auto_threshold = 0;
  g_mutex_unlock (&self->lock);
}

void
gst_cl_stats_add_frame (GstClStats * self, const GstClFrameStats * frame)
{
  const GstClTransferStats *t = &frame->transfers;
  guint i;

  g_mutex_lock (&self->lock);
  self->frames++;
  if (g_str_equal (frame->memory_path, "copy") == FALSE)
    self->zero_copy_frames++;
  if (frame->in_fields)
    self->field_frames++;
  self->totals.host_copy_bytes += t->host_copy_bytes;
  self->totals.upload_bytes += t->upload_bytes;
  self->totals.download_bytes += t->download_bytes;
  self->totals.device_copy_bytes += t->device_copy_bytes;
  self->totals.cuda_copy_bytes += t->cuda_copy_bytes;
  self->device_ms += frame->device_ms;
  self->transform_ms += frame->wall_ms;
  for (i = 0; i < GST_CL_WAIT_N; i++)
    self->host_wait_ms[i] += frame->host_wait_ms[i];
  self->memory_path = frame->memory_path;
  g_strlcpy (self->epsilon_launch, frame->epsilon_launch,
      sizeof (self->epsilon_launch));
  g_strlcpy (self->conv_launch, frame->conv_launch, sizeof (self->conv_launch));
  self->auto_threshold = frame->auto_threshold;
  g_mutex_unlock (&self->lock);
}

void
gst_cl_stats_set_auto_threshold (GstClStats * self, guint threshold)
{
  g_mutex_lock (&self->lock);
  self->auto_threshold = threshold;
  g_mutex_unlock (&self->lock);
}

void
gst_cl_stats_add_build (GstClStats * self, gdouble ms, gboolean from_cache)
{
  g_mutex_lock (&self->lock);
  self->build_ms += ms;
  if (from_cache)
    self->programs_cached++;
  else
    self->programs_compiled++;
  g_mutex_unlock (&self->lock);
}

void
gst_cl_stats_add_tuning (GstClStats * self, guint runs, gdouble ms)
{
  g_mutex_lock (&self->lock);
  self->tuning_runs += runs;
  self->tuning_ms += ms;
  g_mutex_unlock (&self->lock);
}

/* "host-waits": each cause's ms a frame; the total, for
 * "host-wait-ms-per-frame", to @total. */
static GstStructure *
host_waits (GstClStats * self, gdouble per_frame, gdouble * total)
{
  GstStructure *s = gst_structure_new_empty ("host-waits");
  guint i;

  *total = 0;
  for (i = 0; i < GST_CL_WAIT_N; i++) {
    gst_structure_set (s, gst_cl_wait_to_string (i), G_TYPE_DOUBLE,
        self->host_wait_ms[i] * per_frame, NULL);
    *total += self->host_wait_ms[i] * per_frame;
  }
  return s;
}

GstStructure *
gst_cl_stats_to_structure (GstClStats * self)
{
  GstStructure *s, *waits;
  gdouble per_frame, wait_ms;

  g_mutex_lock (&self->lock);
  /* The per-frame figures are 0, not NaN, before the first frame. */
  per_frame = self->frames > 0 ? 1.0 / self->frames : 0.0;
  waits = host_waits (self, per_frame, &wait_ms);
  s = gst_structure_new ("application/x-clepsilon-stats",
      "frames", G_TYPE_UINT64, self->frames,
      "zero-copy-frames", G_TYPE_UINT64, self->zero_copy_frames,
      "field-frames", G_TYPE_UINT64, self->field_frames,
      "host-copy-bytes", G_TYPE_UINT64, self->totals.host_copy_bytes,
      "upload-bytes", G_TYPE_UINT64, self->totals.upload_bytes,
      "download-bytes", G_TYPE_UINT64, self->totals.download_bytes,
      "device-copy-bytes", G_TYPE_UINT64, self->totals.device_copy_bytes,
      "cuda-copy-bytes", G_TYPE_UINT64, self->totals.cuda_copy_bytes,
      "device-ms", G_TYPE_DOUBLE, self->device_ms,
      "transform-ms", G_TYPE_DOUBLE, self->transform_ms,
      "memory-path", G_TYPE_STRING, self->memory_path,
      "epsilon-launch", G_TYPE_STRING, self->epsilon_launch,
      "convolution-launch", G_TYPE_STRING, self->conv_launch,
      "programs-compiled", G_TYPE_UINT, self->programs_compiled,
      "programs-cached", G_TYPE_UINT, self->programs_cached,
      "tuning-runs", G_TYPE_UINT, self->tuning_runs,
      "build-ms", G_TYPE_DOUBLE, self->build_ms,
      "tuning-ms", G_TYPE_DOUBLE, self->tuning_ms,
      "auto-threshold", G_TYPE_UINT, self->auto_threshold,
      "transform-ms-per-frame", G_TYPE_DOUBLE, self->transform_ms * per_frame,
      "device-ms-per-frame", G_TYPE_DOUBLE, self->device_ms * per_frame,
      "host-wait-ms-per-frame", G_TYPE_DOUBLE, wait_ms,
      "host-waits", GST_TYPE_STRUCTURE, waits, NULL);
  gst_structure_free (waits);
  g_mutex_unlock (&self->lock);
  return s;
}
