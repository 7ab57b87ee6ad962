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

/* Frames in system memory that CUDA holds pinned (gstclcudahost-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclcudahost-private.h"
#include "gstclcudaimport-private.h"
#include "gstcldebug-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cl_cuda_debug

#define GST_CL_CUDA_HOST_MEMORY_TYPE "ClCudaHostMemory"
#define CU_MEMHOSTALLOC_PORTABLE 0x01

typedef struct
{
  GstMemory mem;
  gpointer data;
} GstClCudaHostMemory;

struct _GstClCudaHostAllocator
{
  GstAllocator parent;
  GstContext *cuda_context;
  CUcontext cuda;
    CUresult (*push) (CUcontext ctx);
    CUresult (*pop) (CUcontext * ctx);
    CUresult (*host_alloc) (gpointer * ptr, gsize size, guint flags);
    CUresult (*free_host) (gpointer ptr);
};

G_DEFINE_TYPE (GstClCudaHostAllocator, gst_cl_cuda_host_allocator,
    GST_TYPE_ALLOCATOR);

/* A GstVideoBufferPool that keeps its allocator: the base classes' default
 * decide_allocation sets the query's (or none) on the config. */
G_DECLARE_FINAL_TYPE (GstClCudaHostPool, gst_cl_cuda_host_pool, GST,
    CL_CUDA_HOST_POOL, GstVideoBufferPool);

struct _GstClCudaHostPool
{
  GstVideoBufferPool parent;
  GstAllocator *allocator;
};

G_DEFINE_TYPE (GstClCudaHostPool, gst_cl_cuda_host_pool,
    GST_TYPE_VIDEO_BUFFER_POOL);

static GstMemory *
host_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  GstClCudaHostAllocator *self = GST_CL_CUDA_HOST_ALLOCATOR (allocator);
  const gsize maxsize = size + params->prefix + params->padding;
  GstClCudaHostMemory *mem;
  gpointer data = NULL;
  CUresult status;

  if (self->push (self->cuda) != CUDA_SUCCESS)
    return NULL;
  /* page-aligned, which covers any alignment asked for */
  status = self->host_alloc (&data, maxsize, CU_MEMHOSTALLOC_PORTABLE);
  self->pop (NULL);
  if (status != CUDA_SUCCESS) {
    /* plain system memory will do: it goes through the executor's own
     * pinned memory */
    GST_WARNING ("cuMemHostAlloc of %" G_GSIZE_FORMAT " bytes: CUDA error %d;"
        " system memory instead", maxsize, status);
    return gst_allocator_alloc (NULL, size, params);
  }
  mem = g_new0 (GstClCudaHostMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL,
      maxsize, params->align, params->prefix, size);
  mem->data = data;
  if (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED)
    memset (data, 0, params->prefix);
  if (params->flags & GST_MEMORY_FLAG_ZERO_PADDED)
    memset ((guint8 *) data + params->prefix + size, 0, params->padding);
  return GST_MEMORY_CAST (mem);
}

static void
host_free (GstAllocator * allocator, GstMemory * memory)
{
  GstClCudaHostAllocator *self = GST_CL_CUDA_HOST_ALLOCATOR (allocator);
  GstClCudaHostMemory *mem = (GstClCudaHostMemory *) memory;

  /* a share: its parent owns the data */
  if (memory->parent) {
    g_free (mem);
    return;
  }
  if (self->push (self->cuda) == CUDA_SUCCESS) {
    self->free_host (mem->data);
    self->pop (NULL);
  } else {
    GST_WARNING ("pinned frame memory leaked: its CUDA context is gone");
  }
  g_free (mem);
}

/* A share of @memory's bytes (read-only, as shares are), which keeps it. */
static GstMemory *
host_share (GstMemory * memory, gssize offset, gssize size)
{
  GstMemory *parent = memory->parent ? memory->parent : memory;
  GstClCudaHostMemory *share = g_new0 (GstClCudaHostMemory, 1);

  if (size == -1)
    size = memory->size - offset;
  gst_memory_init (GST_MEMORY_CAST (share),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      memory->allocator, parent, memory->maxsize, memory->align,
      memory->offset + offset, size);
  share->data = ((GstClCudaHostMemory *) parent)->data;
  return GST_MEMORY_CAST (share);
}

static gpointer
host_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  return ((GstClCudaHostMemory *) memory)->data;
}

static void
host_unmap (GstMemory * memory)
{
}

/* A copy in system memory: it need not be pinned. */
static GstMemory *
host_copy (GstMemory * memory, gssize offset, gssize size)
{
  GstClCudaHostMemory *mem = (GstClCudaHostMemory *) memory;
  GstMemory *copy;
  GstMapInfo map;

  if (size == -1)
    size = memory->size > (gsize) offset ? memory->size - offset : 0;
  copy = gst_allocator_alloc (NULL, size, NULL);
  if (!copy || !gst_memory_map (copy, &map, GST_MAP_WRITE)) {
    if (copy)
      gst_memory_unref (copy);
    return NULL;
  }
  memcpy (map.data, (guint8 *) mem->data + memory->offset + offset, size);
  gst_memory_unmap (copy, &map);
  return copy;
}

static void
gst_cl_cuda_host_allocator_finalize (GObject * object)
{
  GstClCudaHostAllocator *self = GST_CL_CUDA_HOST_ALLOCATOR (object);

  g_clear_pointer (&self->cuda_context, gst_context_unref);
  G_OBJECT_CLASS (gst_cl_cuda_host_allocator_parent_class)->finalize (object);
}

static void
gst_cl_cuda_host_allocator_class_init (GstClCudaHostAllocatorClass * klass)
{
  GST_ALLOCATOR_CLASS (klass)->alloc = host_alloc;
  GST_ALLOCATOR_CLASS (klass)->free = host_free;
  G_OBJECT_CLASS (klass)->finalize = gst_cl_cuda_host_allocator_finalize;
}

static void
gst_cl_cuda_host_allocator_init (GstClCudaHostAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CL_CUDA_HOST_MEMORY_TYPE;
  allocator->mem_map = host_map;
  allocator->mem_unmap = host_unmap;
  allocator->mem_copy = host_copy;
  allocator->mem_share = host_share;
}

GstAllocator *
gst_cl_cuda_host_allocator_new (GstContext * cuda_context)
{
  GstClCudaHostAllocator *self;
  CUcontext cuda;

  if (!gst_cl_cuda_load (NULL) ||
      !(cuda = gst_cl_cuda_context_handle (cuda_context)))
    return NULL;
  self = g_object_new (GST_TYPE_CL_CUDA_HOST_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->push = gst_cl_cuda_symbol ("cuCtxPushCurrent_v2");
  self->pop = gst_cl_cuda_symbol ("cuCtxPopCurrent_v2");
  self->host_alloc = gst_cl_cuda_symbol ("cuMemHostAlloc");
  self->free_host = gst_cl_cuda_symbol ("cuMemFreeHost");
  if (!self->push || !self->pop || !self->host_alloc || !self->free_host) {
    gst_object_unref (self);
    return NULL;
  }
  self->cuda_context = gst_context_ref (cuda_context);
  self->cuda = cuda;
  return GST_ALLOCATOR_CAST (self);
}

gboolean
gst_cl_is_cuda_host_memory (GstMemory * mem)
{
  return mem && GST_IS_CL_CUDA_HOST_ALLOCATOR (mem->allocator);
}

static gboolean
gst_cl_cuda_host_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstClCudaHostPool *self = GST_CL_CUDA_HOST_POOL (pool);
  GstAllocationParams params;

  if (!gst_buffer_pool_config_get_allocator (config, NULL, &params))
    gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_allocator (config, self->allocator, &params);
  return GST_BUFFER_POOL_CLASS (gst_cl_cuda_host_pool_parent_class)->set_config
      (pool, config);
}

static void
gst_cl_cuda_host_pool_finalize (GObject * object)
{
  GstClCudaHostPool *self = GST_CL_CUDA_HOST_POOL (object);

  gst_clear_object (&self->allocator);
  G_OBJECT_CLASS (gst_cl_cuda_host_pool_parent_class)->finalize (object);
}

static void
gst_cl_cuda_host_pool_class_init (GstClCudaHostPoolClass * klass)
{
  GST_BUFFER_POOL_CLASS (klass)->set_config = gst_cl_cuda_host_pool_set_config;
  G_OBJECT_CLASS (klass)->finalize = gst_cl_cuda_host_pool_finalize;
}

static void
gst_cl_cuda_host_pool_init (GstClCudaHostPool * self)
{
}

GstBufferPool *
gst_cl_cuda_host_pool_new (GstContext * cuda_context, GstCaps * caps,
    guint size, guint min, guint max, gboolean video_meta)
{
  GstAllocator *allocator = gst_cl_cuda_host_allocator_new (cuda_context);
  GstClCudaHostPool *pool;
  GstStructure *config;

  if (!allocator)
    return NULL;
  pool = g_object_new (gst_cl_cuda_host_pool_get_type (), NULL);
  gst_object_ref_sink (pool);
  pool->allocator = allocator;
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (pool));
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (GST_BUFFER_POOL (pool), config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return GST_BUFFER_POOL (pool);
}
