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


/* GStreamer 1.24's libgstcuda-1.0, as far as gst/gstclcudasync.c and
 * gst/gstclcudashare.c call it:
 * built with that library's soname, so that once a test has loaded it, the
 * plugin's look-up of "libgstcuda-1.0.so.0" finds this copy as it finds the
 * one nvcodec loaded. A memory's stream is the pointer given to
 * fakegstcuda_memory_new(), and that stream's handle is the same pointer;
 * gst_cuda_memory_sync counts its calls and clears the flag, as the real one
 * does after its host wait. gst_cuda_context_new makes an object with the
 * read-only "cuda-device-id" of a GstCudaContext, and counts them. */

#include <gmodule.h>
#include <gst/gst.h>

#define NEED_SYNC (GST_MEMORY_FLAG_LAST << 2)

G_MODULE_EXPORT gpointer gst_cuda_memory_get_stream (GstMemory * mem);
G_MODULE_EXPORT gpointer gst_cuda_stream_get_handle (gpointer stream);
G_MODULE_EXPORT void gst_cuda_memory_sync (GstMemory * mem);
G_MODULE_EXPORT GstMemory *fakegstcuda_memory_new (gpointer stream,
    gboolean need_sync);
G_MODULE_EXPORT guint fakegstcuda_sync_count (void);
G_MODULE_EXPORT gboolean gst_cuda_load_library (void);
G_MODULE_EXPORT GstObject *gst_cuda_context_new (guint device_id);
G_MODULE_EXPORT gpointer gst_cuda_context_get_handle (GstObject * context);
G_MODULE_EXPORT guint fakegstcuda_contexts_made (void);

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

/* A GstCudaContext as far as its "cuda-device-id". */
typedef GstObject FakeCudaContext;
typedef GstObjectClass FakeCudaContextClass;

GType fake_cuda_context_get_type (void);
G_DEFINE_TYPE (FakeCudaContext, fake_cuda_context, GST_TYPE_OBJECT);

static guint n_contexts;

static void
fake_cuda_context_get_property (GObject * object, guint id, GValue * value,
    GParamSpec * spec)
{
  g_value_set_uint (value, GPOINTER_TO_UINT (g_object_get_data (object,
              "device")));
}

static void
fake_cuda_context_class_init (FakeCudaContextClass * klass)
{
  G_OBJECT_CLASS (klass)->get_property = fake_cuda_context_get_property;
  g_object_class_install_property (G_OBJECT_CLASS (klass), 1,
      g_param_spec_uint ("cuda-device-id", "id", "id", 0, G_MAXUINT, 0,
          G_PARAM_READABLE));
}

static void
fake_cuda_context_init (FakeCudaContext * self)
{
}

gboolean
gst_cuda_load_library (void)
{
  return TRUE;
}

GstObject *
gst_cuda_context_new (guint device_id)
{
  GstObject *context = g_object_new (fake_cuda_context_get_type (), NULL);

  gst_object_ref_sink (context);
  g_object_set_data (G_OBJECT (context), "device",
      GUINT_TO_POINTER (device_id));
  n_contexts++;
  return context;
}

/* The fake's CUcontext: the object itself (the fake drivers take any). */
gpointer
gst_cuda_context_get_handle (GstObject * context)
{
  return context;
}

guint
fakegstcuda_contexts_made (void)
{
  return n_contexts;
}
