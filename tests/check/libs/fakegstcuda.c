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


/* GStreamer 1.24's libgstcuda-1.0, as far as gst/gstclcudasync.c calls it:
 * built with that library's soname, so that once a test has loaded it, the
 * plugin's look-up of "libgstcuda-1.0.so.0" finds this copy as it finds the
 * one nvcodec loaded. A memory's stream is the pointer given to
 * fakegstcuda_memory_new(), and that stream's handle is the same pointer;
 * gst_cuda_memory_sync counts its calls and clears the flag, as the real one
 * does after its host wait. */

#include <gmodule.h>
#include <gst/gst.h>

#define NEED_SYNC (GST_MEMORY_FLAG_LAST << 2)

G_MODULE_EXPORT gpointer gst_cuda_memory_get_stream (GstMemory * mem);
G_MODULE_EXPORT gpointer gst_cuda_stream_get_handle (gpointer stream);
G_MODULE_EXPORT void gst_cuda_memory_sync (GstMemory * mem);
G_MODULE_EXPORT GstMemory *fakegstcuda_memory_new (gpointer stream,
    gboolean need_sync);
G_MODULE_EXPORT guint fakegstcuda_sync_count (void);

static GQuark stream_quark;
static guint n_syncs;

/* Memory of the type GStreamer's CUDA memory has ("gst.cuda.memory"),
 * holding no data. */
typedef GstAllocator FakeCudaAllocator;
typedef GstAllocatorClass FakeCudaAllocatorClass;

GType fake_cuda_allocator_get_type (void);
G_DEFINE_TYPE (FakeCudaAllocator, fake_cuda_allocator, GST_TYPE_ALLOCATOR);

static void
fake_cuda_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  g_free (mem);
}

static void
fake_cuda_allocator_class_init (FakeCudaAllocatorClass * klass)
{
  klass->free = fake_cuda_allocator_free;
}

static void
fake_cuda_allocator_init (FakeCudaAllocator * self)
{
  self->mem_type = "gst.cuda.memory";
}

GstMemory *
fakegstcuda_memory_new (gpointer stream, gboolean need_sync)
{
  static GstAllocator *allocator;
  GstMemory *mem = g_new0 (GstMemory, 1);

  if (!allocator) {
    allocator = g_object_new (fake_cuda_allocator_get_type (), NULL);
    stream_quark = g_quark_from_static_string ("fakegstcuda-stream");
  }
  gst_memory_init (mem, GST_MEMORY_FLAG_NO_SHARE, allocator, NULL, 4096, 0, 0,
      4096);
  gst_mini_object_set_qdata (GST_MINI_OBJECT (mem), stream_quark, stream, NULL);
  if (need_sync)
    GST_MINI_OBJECT_FLAG_SET (mem, NEED_SYNC);
  return mem;
}

gpointer
gst_cuda_memory_get_stream (GstMemory * mem)
{
  return gst_mini_object_get_qdata (GST_MINI_OBJECT (mem), stream_quark);
}

gpointer
gst_cuda_stream_get_handle (gpointer stream)
{
  return stream;
}

void
gst_cuda_memory_sync (GstMemory * mem)
{
  n_syncs++;
  GST_MEMORY_FLAG_UNSET (mem, NEED_SYNC);
}

guint
fakegstcuda_sync_count (void)
{
  return n_syncs;
}
