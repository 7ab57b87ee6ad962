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

struct _GstClBufferPool
{
  GstVideoBufferPool parent;

  GstAllocator *allocator;
};

G_DEFINE_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST_TYPE_VIDEO_BUFFER_POOL);

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
