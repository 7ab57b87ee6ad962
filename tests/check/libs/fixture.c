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

#include "fixture.h"
#include "robust.h"
#include "gstclbufferpool-private.h"
#include "gstclplane-private.h"


GstClContext *fixture_context;

void
fixture_setup (void)
{
  GError *error = NULL;

  fixture_context = gst_cl_context_new (rt_device (), &error);
  fail_unless (fixture_context != NULL, "no device: %s",
      error ? error->message : "");
}

void
fixture_teardown (void)
{
  gst_clear_object (&fixture_context);
}

void
fixture_plane_extent (const GstVideoInfo * info, guint i, gsize * row_bytes,
    gsize * rows)
{
  GstClPlane plane;

  fail_unless (gst_cl_plane_describe (&plane, info, i));
  *row_bytes = plane.row_bytes;
  *rows = plane.height;
}

GstBufferPool *
fixture_cl_pool (const GstVideoInfo * info, gboolean device_resident, guint pad)
{
  GstBufferPool *pool = gst_cl_buffer_pool_new (fixture_context,
      device_resident);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_video_info_to_caps (info);
  GstVideoAlignment align;

  gst_video_alignment_reset (&align);
  align.padding_right = pad;
  gst_buffer_pool_config_set_params (config, caps, info->size, 0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (pad) {
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
    gst_buffer_pool_config_set_video_alignment (config, &align);
  }
  gst_caps_unref (caps);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  return pool;
}

void
fixture_free_pool (GstBufferPool * pool)
{
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
}

GstBuffer *
fixture_pool_frame (GstBufferPool * pool, GRand * rand)
{
  GstBuffer *buf = NULL;

  fail_unless (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) ==
      GST_FLOW_OK);
  rt_fill_random (buf, rand);
  return buf;
}
