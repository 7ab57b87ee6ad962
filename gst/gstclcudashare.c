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

/* One CUDA context a GPU for the process (gstclcudashare-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclcudashare-private.h"
#include "gstclcuda-private.h"
#include "gstclcudaimport-private.h"

#include <gmodule.h>

#define GST_CAT_DEFAULT gst_cl_cuda_import_debug

/* How far upstream the decoder may be (a queue, a capsfilter, a tee). */
#define MAX_HOPS 8
/* GPUs a process shares contexts of; a higher ordinal is not answered. */
#define MAX_DEVICES 64

gpointer
gst_cl_gstcuda_symbol (const gchar * name)
{
  static GModule *module;
  static gsize loaded;
  gpointer symbol = NULL;

  if (g_once_init_enter (&loaded)) {
    module = g_module_open ("libgstcuda-1.0.so.0", G_MODULE_BIND_LAZY);
    g_once_init_leave (&loaded, 1);
  }
  if (!module || !g_module_symbol (module, name, &symbol))
    return NULL;
  return symbol;
}

/* The element whose src pad feeds @pad, through ghost pads; NULL if none. */
static GstElement *
element_upstream_of (GstPad * pad)
{
  GstPad *peer = gst_pad_get_peer (pad), *target;
  GstElement *element;

  while (peer && GST_IS_GHOST_PAD (peer)) {
    target = gst_ghost_pad_get_target (GST_GHOST_PAD (peer));
    gst_object_unref (peer);
    peer = target;
  }
  if (!peer)
    return NULL;
  element = gst_pad_get_parent_element (peer);
  gst_object_unref (peer);
  return element;
}

/* The "cuda-device-id" of @element (a uint, or a non-negative int). */
static gboolean
cuda_device_id (GstElement * element, guint * ordinal)
{
  GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), "cuda-device-id");
  GValue value = G_VALUE_INIT;
  gboolean found = FALSE;

  if (!spec || !(spec->flags & G_PARAM_READABLE))
    return FALSE;
  g_value_init (&value, spec->value_type);
  g_object_get_property (G_OBJECT (element), "cuda-device-id", &value);
  if (G_VALUE_HOLDS_UINT (&value)) {
    *ordinal = g_value_get_uint (&value);
    found = TRUE;
  } else if (G_VALUE_HOLDS_INT (&value) && g_value_get_int (&value) >= 0) {
    *ordinal = g_value_get_int (&value);
    found = TRUE;
  }
  g_value_unset (&value);
  return found;
}

/* The GPU of the nearest CUDA element upstream of @element, following
 * each element's first sink pad. */
static gboolean
upstream_cuda_device (GstElement * element, guint * ordinal)
{
  GstElement *at = gst_object_ref (element), *up;
  GstPad *sink;
  gboolean found = FALSE;
  guint hop;

  for (hop = 0; hop < MAX_HOPS && !found; hop++) {
    sink = gst_element_get_static_pad (at, "sink");
    up = sink ? element_upstream_of (sink) : NULL;
    gst_clear_object (&sink);
    gst_object_unref (at);
    if (!(at = up))
      return FALSE;
    found = cuda_device_id (at, ordinal);
  }
  gst_object_unref (at);
  return found;
}

typedef gboolean (*CudaLoadLibrary) (void);
typedef GstObject *(*CudaContextNew) (guint device_id);

/* A new reference to the process's GstCudaContext of GPU @ordinal, made
 * where none is alive; NULL where it cannot be made. */
static GstObject *
shared_cuda_context (guint ordinal)
{
  static GWeakRef shared[MAX_DEVICES];
  static GMutex lock;
  CudaLoadLibrary load_library =
      (CudaLoadLibrary) gst_cl_gstcuda_symbol ("gst_cuda_load_library");
  CudaContextNew context_new =
      (CudaContextNew) gst_cl_gstcuda_symbol ("gst_cuda_context_new");
  GstObject *cuda_context;

  if (ordinal >= MAX_DEVICES || !load_library || !context_new ||
      !load_library ())
    return NULL;
  g_mutex_lock (&lock);
  cuda_context = g_weak_ref_get (&shared[ordinal]);
  if (!cuda_context && (cuda_context = context_new (ordinal))) {
    GST_INFO ("made the process's CUDA context of GPU %u", ordinal);
    g_weak_ref_set (&shared[ordinal], cuda_context);
  }
  g_mutex_unlock (&lock);
  return cuda_context;
}

gboolean
gst_cl_cuda_share_answer (GstElement * element, GstQuery * query)
{
  GstObject *cuda_context;
  GstContext *context;
  const gchar *type;
  const gchar *reason;
  guint ordinal;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT ||
      !gst_query_parse_context_type (query, &type) ||
      !g_str_equal (type, GST_CL_CUDA_CONTEXT_TYPE) ||
      !upstream_cuda_device (element, &ordinal) ||
      !gst_cl_cuda_load (&reason) ||
      !(cuda_context = shared_cuda_context (ordinal)))
    return FALSE;
  /* as libgstcuda's own contexts are (context_set_cuda_context) */
  context = gst_context_new (GST_CL_CUDA_CONTEXT_TYPE, TRUE);
  gst_structure_set (gst_context_writable_structure (context),
      GST_CL_CUDA_CONTEXT_TYPE, G_OBJECT_TYPE (cuda_context), cuda_context,
      "cuda-device-id", G_TYPE_UINT, ordinal, NULL);
  GST_DEBUG_OBJECT (element, "answering with the CUDA context of GPU %u",
      ordinal);
  gst_query_set_context (query, context);
  gst_context_unref (context);
  gst_object_unref (cuda_context);
  return TRUE;
}
