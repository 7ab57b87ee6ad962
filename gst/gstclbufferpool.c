/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclbufferpool-private.h"
#include "gstclmemory-private.h"

#include <string.h>

struct _GstClBufferPool
{
  GstVideoBufferPool parent;

  GstAllocator *allocator;
};

G_DEFINE_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST_TYPE_VIDEO_BUFFER_POOL);

/* What a buffer's video meta said before planes were shared into it. */
typedef struct
{
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
} SavedLayout;

static GQuark
saved_layout_quark (void)
{
  static GQuark quark = 0;

  if (!quark)
    quark = g_quark_from_static_string ("GstClBufferPoolSavedLayout");
  return quark;
}

gboolean
gst_cl_buffer_pool_share_planes (GstBuffer * buffer, GstBuffer * source,
    const GstVideoInfo * info, guint planes)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  GstVideoMeta *src_meta = gst_buffer_get_video_meta (source);
  SavedLayout *saved;
  gsize base;
  guint p;

  if (!buffer->pool || !GST_IS_CL_BUFFER_POOL (buffer->pool) || !meta ||
      gst_buffer_n_memory (buffer) != 1 || gst_buffer_n_memory (source) != 1
      || !gst_buffer_is_writable (buffer) ||
      gst_mini_object_get_qdata (GST_MINI_OBJECT (buffer),
          saved_layout_quark ()))
    return FALSE;

  saved = g_new (SavedLayout, 1);
  memcpy (saved->offset, meta->offset, sizeof (saved->offset));
  memcpy (saved->stride, meta->stride, sizeof (saved->stride));
  gst_mini_object_set_qdata (GST_MINI_OBJECT (buffer), saved_layout_quark (),
      saved, g_free);

  /* Meta offsets count from the start of the buffer's first memory. */
  base = gst_buffer_get_size (buffer);
  gst_buffer_append_memory (buffer,
      gst_memory_ref (gst_buffer_peek_memory (source, 0)));
  /* @source goes back to its pool only once @buffer is done with its
   * memory (reset_buffer takes the memory off before this meta goes), so
   * that it comes back whole and is reused, not reallocated. */
  gst_buffer_add_parent_buffer_meta (buffer, source);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    if (!(planes & (1 << p)))
      continue;
    meta->offset[p] = base + (src_meta ? src_meta->offset[p] : info->offset[p]);
    meta->stride[p] = src_meta ? src_meta->stride[p] : info->stride[p];
  }
  return TRUE;
}

/* Takes shared planes off a buffer coming back, so that it is whole again
 * (the base class would otherwise drop a buffer whose memory changed); the
 * base class then drops the parent meta, which releases the source. */
static void
gst_cl_buffer_pool_reset_buffer (GstBufferPool * pool, GstBuffer * buffer)
{
  SavedLayout *saved = gst_mini_object_steal_qdata (GST_MINI_OBJECT (buffer),
      saved_layout_quark ());
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);

  if (saved) {
    gst_buffer_remove_memory_range (buffer, 1, -1);
    GST_BUFFER_FLAG_UNSET (buffer, GST_BUFFER_FLAG_TAG_MEMORY);
    if (meta) {
      memcpy (meta->offset, saved->offset, sizeof (saved->offset));
      memcpy (meta->stride, saved->stride, sizeof (saved->stride));
    }
    g_free (saved);
  }
  GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->reset_buffer (pool,
      buffer);
}

/* GstVideoBufferPool allocates with the config's allocator: make it ours. */
static gboolean
gst_cl_buffer_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GstAllocationParams params;

  if (!gst_buffer_pool_config_get_allocator (config, NULL, &params))
    gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_allocator (config, self->allocator, &params);

  return GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->set_config
      (pool, config);
}

static void
gst_cl_buffer_pool_finalize (GObject * object)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (object);

  gst_clear_object (&self->allocator);
  G_OBJECT_CLASS (gst_cl_buffer_pool_parent_class)->finalize (object);
}

static void
gst_cl_buffer_pool_class_init (GstClBufferPoolClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_buffer_pool_finalize;
  GST_BUFFER_POOL_CLASS (klass)->set_config = gst_cl_buffer_pool_set_config;
  GST_BUFFER_POOL_CLASS (klass)->reset_buffer =
      gst_cl_buffer_pool_reset_buffer;
}

static void
gst_cl_buffer_pool_init (GstClBufferPool * self)
{
}

GstBufferPool *
gst_cl_buffer_pool_new (GstClContext * context, gboolean device_resident)
{
  GstClBufferPool *self;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (context), NULL);

  self = g_object_new (GST_TYPE_CL_BUFFER_POOL, NULL);
  gst_object_ref_sink (self);
  self->allocator = gst_cl_allocator_new (context, device_resident);
  return GST_BUFFER_POOL_CAST (self);
}
