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
#include "gstclnegotiation-private.h"
#include "gstclcudahost-private.h"
#include "gstclerror-private.h"
#include "gstclbufferpool-private.h"
#include "gstclmemory-private.h"
#include "gstclplan-private.h"
#include "gstclcudaimport-private.h"

#define GST_CAT_DEFAULT gst_cl_negotiation_debug


gboolean
gst_cl_caps_in_device_memory (GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features && gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_CL_BUFFER);
}

gboolean
gst_cl_caps_in_cuda_memory (GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features && gst_caps_features_contains (features,
      GST_CL_CAPS_FEATURE_MEMORY_CUDA);
}

gboolean
gst_cl_caps_same_memory (GstCaps * in, GstCaps * out)
{
  return !in || !out ||
      gst_caps_features_is_equal (gst_caps_get_features (in, 0),
      gst_caps_get_features (out, 0));
}

/* @caps with every structure in the memory of @feature (NULL: system
 * memory). */
static GstCaps *
caps_with_memory (GstCaps * caps, const gchar * feature)
{
  GstCaps *out = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (out); i++) {
    GstCapsFeatures *had = gst_caps_get_features (out, i);
    /* one field a buffer (interlace-mode=alternate) stays so */
    gboolean fields = had && !gst_caps_features_is_any (had) &&
        gst_caps_features_contains (had, GST_CAPS_FEATURE_FORMAT_INTERLACED);
    GstCapsFeatures *features = feature ?
        gst_caps_features_new (feature, NULL) : gst_caps_features_new_empty ();

    if (fields)
      gst_caps_features_add (features, GST_CAPS_FEATURE_FORMAT_INTERLACED);
    gst_caps_set_features (out, i, features);
  }
  return out;
}

GstCaps *
gst_cl_caps_transform (GstCaps * caps, GstCaps * filter, gboolean device,
    gboolean cuda)
{
  GstCaps *result = device ? caps_with_memory (caps,
      GST_CAPS_FEATURE_MEMORY_CL_BUFFER) : gst_caps_new_empty ();

  if (cuda)
    result = gst_caps_merge (result, caps_with_memory (caps,
            GST_CL_CAPS_FEATURE_MEMORY_CUDA));
  result = gst_caps_merge (result, caps_with_memory (caps, NULL));

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (result);
    result = tmp;
  }
  return result;
}

/* Whether the caps feature @feature is in @f (not ANY). */
static gboolean
has_feature (GstCapsFeatures * f, const gchar * feature)
{
  return f && !gst_caps_features_is_any (f) &&
      gst_caps_features_contains (f, feature);
}

/* The memory the peer of @pad should get (rule 2): the caps feature, or
 * NULL for system memory (a sink that takes ANY caps names none). */
static const gchar *
peer_memory (GstPad * pad, GstCaps * incaps)
{
  GstCaps *peer = gst_pad_peer_query_caps (pad, NULL);
  gboolean device = FALSE, cuda = FALSE;
  guint i;

  if (peer && gst_caps_is_any (peer) && incaps &&
      gst_cl_caps_in_cuda_memory (incaps))
    cuda = TRUE;

  gst_cl_debug_init ();
  for (i = 0; peer && !gst_caps_is_any (peer) && i < gst_caps_get_size (peer);
      i++) {
    device |= has_feature (gst_caps_get_features (peer, i),
        GST_CAPS_FEATURE_MEMORY_CL_BUFFER);
    cuda |= has_feature (gst_caps_get_features (peer, i),
        GST_CL_CAPS_FEATURE_MEMORY_CUDA);
  }
  GST_LOG_OBJECT (pad, "peer takes %" GST_PTR_FORMAT ": device memory %s, "
      "CUDA memory %s", peer, device ? "yes" : "no", cuda ? "yes" : "no");
  gst_clear_caps (&peer);
  return device ? GST_CAPS_FEATURE_MEMORY_CL_BUFFER :
      cuda ? GST_CL_CAPS_FEATURE_MEMORY_CUDA : NULL;
}

GstCaps *
gst_cl_caps_keep_peer_memory (GstPad * srcpad, GstCaps * incaps,
    GstCaps * othercaps)
{
  const gchar *memory = peer_memory (srcpad, incaps);
  GstCaps *kept = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (othercaps, i);
    gboolean in_memory = memory ? has_feature (f, memory) :
        !has_feature (f, GST_CAPS_FEATURE_MEMORY_CL_BUFFER) &&
        !has_feature (f, GST_CL_CAPS_FEATURE_MEMORY_CUDA);

    if (in_memory)
      gst_caps_append_structure_full (kept,
          gst_structure_copy (gst_caps_get_structure (othercaps, i)),
          f ? gst_caps_features_copy (f) : NULL);
  }
  if (gst_caps_is_empty (kept)) {
    gst_caps_unref (kept);
    return othercaps;
  }
  gst_caps_unref (othercaps);
  return kept;
}

/* Our pool for @caps, with a video meta when @video_meta; its frames that
 * cannot be allocated or mapped, by whichever element, are the element's to
 * report (@faults). */
static GstBufferPool *
create_pool (GstClContext * context, GstCaps * caps, guint size, guint min,
    guint max, gboolean video_meta, GstClFaults * faults)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstAllocator *allocator = NULL;

  /* without OpenCL, system memory of GStreamer's own (the CUDA path
   * copies it, gstclcudaexec.c) */
  if (!gst_cl_context_has_opencl (context)) {
    if (gst_cl_caps_in_device_memory (caps))
      return NULL;
    pool = gst_video_buffer_pool_new ();
  } else {
    pool = gst_cl_buffer_pool_new (context,
        gst_cl_caps_in_device_memory (caps));
  }
  config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_cl_debug_init ();
    GST_WARNING ("pool refused its config for %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return NULL;
  }
  config = gst_buffer_pool_get_config (pool);
  if (gst_buffer_pool_config_get_allocator (config, &allocator, NULL) &&
      allocator && GST_IS_CL_ALLOCATOR (allocator))
    gst_cl_allocator_set_faults (allocator, faults);
  gst_structure_free (config);
  return pool;
}

gboolean
gst_cl_allocation_propose (GstClContext * context, GstQuery * decide_query,
    GstQuery * query, GstClFaults * faults, guint held, GstContext * host_cuda)
{
  GstBufferPool *pool;
  guint min = 0;
  GstVideoInfo info;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  /* No pool for frames the plan refuses: their size may not even fit the
   * 32-bit buffer size of a pool. */
  if (!gst_cl_plan_supports (&info))
    return FALSE;
  /* NVIDIA's decoders use a pool from downstream only if it is a
   * GstCudaBufferPool, which the element cannot make without libgstcuda:
   * they allocate their own, with room for the frames the element holds
   * where they read it (no pool, a minimum). */
  if (gst_cl_caps_in_cuda_memory (caps)) {
    if (held > 0)
      gst_query_add_allocation_pool (query, NULL, info.size, held, 0);
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    return TRUE;
  }

  /* memory CUDA holds pinned: its frames the element holds until their
   * copy to the GPU is done (gstclinflight.c), beside the decoder's */
  pool = host_cuda && !gst_cl_caps_in_device_memory (caps) ?
      gst_cl_cuda_host_pool_new (host_cuda, caps, info.size, held, 0,
      TRUE) : NULL;
  if (pool)
    min = held;
  if (!pool && (pool = create_pool (context, caps, info.size, 0, 0, TRUE,
              faults)) && !gst_cl_caps_in_device_memory (caps) &&
      gst_cl_context_has_opencl (context))
    gst_cl_buffer_pool_set_system_fallback (pool);
  if (!pool)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, info.size, min, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  /* Frames with a crop meta are filtered on the crop rectangle and keep the
   * meta (the element's transform_meta); only where downstream crops them
   * in the end. */
  if (gst_query_find_allocation_meta (decide_query,
          GST_VIDEO_CROP_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_CROP_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return TRUE;
}

/* Puts @pool first in @query. */
static void
put_pool_first (GstQuery * query, GstBufferPool * pool, guint size,
    guint min, guint max)
{
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
}

/* Rule 4 for CUDA output: downstream's GstCudaBufferPool (the first of
 * @query), or a new one for @cuda_context, configured for @caps. */
static gboolean
decide_cuda_pool (GstQuery * query, GstCaps * caps, guint size, guint min,
    guint max, GstContext * cuda_context)
{
  GstBufferPool *pool = NULL;
  GstStructure *config;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  if (pool && g_strcmp0 (G_OBJECT_TYPE_NAME (pool), "GstCudaBufferPool"))
    gst_clear_object (&pool);
  if (!pool && !(pool = gst_cl_cuda_buffer_pool_new (cuda_context))) {
    GST_WARNING ("no CUDA buffer pool downstream, and no CUDA context (or no "
        "libgstcuda) to make one for %" GST_PTR_FORMAT, caps);
    return FALSE;
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config))
    GST_DEBUG ("the CUDA pool changed its config; taken as it is");
  put_pool_first (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

gboolean
gst_cl_allocation_decide (GstClContext * context, GstClFaults * faults,
    GstQuery * query, GstCaps * sinkcaps, GstContext * cuda_context,
    guint held, gboolean * share_untouched, GstContext * host_cuda)
{
  guint size, min = 0, max = 0;
  GstBufferPool *pool;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean video_meta;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, &size, &min, &max);
  size = info.size;
  video_meta = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
      NULL);
  /* Both sides in system memory and downstream reading the meta; the
   * placement decides per frame whether sharing pays
   * (gst_cl_placement_select()). */
  *share_untouched = video_meta && !gst_cl_caps_in_device_memory (caps) &&
      !(sinkcaps && gst_cl_caps_in_device_memory (sinkcaps));
  /* the frames the element holds, beside those downstream keeps */
  min += held;
  if (max != 0 && max < min)
    max = min;
  if (gst_cl_caps_in_cuda_memory (caps)) {
    *share_untouched = FALSE;
    gst_cl_debug_init ();
    return decide_cuda_pool (query, caps, size, min, max, cuda_context);
  }

  pool = host_cuda && !gst_cl_caps_in_device_memory (caps) ?
      gst_cl_cuda_host_pool_new (host_cuda, caps, size, min, max,
      video_meta) : NULL;
  if (!pool)
    pool = create_pool (context, caps, size, min, max, video_meta, faults);
  if (!pool)
    return FALSE;
  put_pool_first (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}
