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

#define GST_CAT_DEFAULT gst_cl_cuda_import_debug

/* How far upstream the decoder may be (a queue, a capsfilter, a tee). */
#define MAX_HOPS 8
/* GPUs a process shares contexts of; a higher ordinal is not answered. */
#define MAX_DEVICES 64

/* The peer of @pad, out of ghost pads: a ghost pad's target, and for the
 * pad inside a ghost sink pad (@pad's element in a bin), the peer of that
 * ghost pad. A new reference, or NULL. */
static GstPad *
peer_through_ghosts (GstPad * pad)
{
  GstPad *peer = gst_pad_get_peer (pad), *next;
  GstObject *parent;
  guint hop;

  for (hop = 0; peer && hop < MAX_HOPS; hop++) {
    parent = NULL;
    if (GST_IS_GHOST_PAD (peer)) {
      next = gst_ghost_pad_get_target (GST_GHOST_PAD (peer));
    } else if (GST_IS_PROXY_PAD (peer) &&
        (parent = gst_object_get_parent (GST_OBJECT (peer))) &&
        GST_IS_GHOST_PAD (parent)) {
      next = gst_pad_get_peer (GST_PAD (parent));
    } else {
      gst_clear_object (&parent);
      return peer;
    }
    gst_clear_object (&parent);
    gst_object_unref (peer);
    peer = next;
  }
  gst_clear_object (&peer);
  return NULL;
}

/* Whether @element has a "cuda-device-id" (TRUE), and then in @ordinal
 * its GPU where the element has one of its own: a read-only id of 0 or
 * more, as a decoder of one GPU has (G_MAXUINT otherwise: an element told
 * its GPU, or that takes any, may not have started on it yet). */
static gboolean
cuda_device_id (GstElement * element, guint * ordinal)
{
  GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), "cuda-device-id");
  GValue value = G_VALUE_INIT;

  if (!spec || !(spec->flags & G_PARAM_READABLE))
    return FALSE;
  *ordinal = G_MAXUINT;
  if (spec->flags & G_PARAM_WRITABLE)
    return TRUE;
  g_value_init (&value, spec->value_type);
  g_object_get_property (G_OBJECT (element), "cuda-device-id", &value);
  if (G_VALUE_HOLDS_UINT (&value))
    *ordinal = g_value_get_uint (&value);
  else if (G_VALUE_HOLDS_INT (&value) && g_value_get_int (&value) >= 0)
    *ordinal = g_value_get_int (&value);
  g_value_unset (&value);
  return TRUE;
}

/* The GPU of the nearest element upstream of @element with a
 * "cuda-device-id", through the pads named "sink"; FALSE where there is
 * none, or it has no GPU of its own. */
static gboolean
upstream_cuda_device (GstElement * element, guint * ordinal)
{
  GstElement *at = gst_object_ref (element);
  GstPad *sink, *peer;
  gboolean found = FALSE;
  guint hop;

  for (hop = 0; hop < MAX_HOPS && !found; hop++) {
    sink = gst_element_get_static_pad (at, "sink");
    peer = sink ? peer_through_ghosts (sink) : NULL;
    gst_clear_object (&sink);
    gst_object_unref (at);
    at = peer ? gst_pad_get_parent_element (peer) : NULL;
    gst_clear_object (&peer);
    if (!at)
      return FALSE;
    found = cuda_device_id (at, ordinal);
  }
  gst_object_unref (at);
  return found && *ordinal != G_MAXUINT;
}

/* A CUDA context of GPU @ordinal that a bin holding @element keeps (from
 * an application, or posted by another CUDA element), or NULL. */
static GstContext *
bin_cuda_context (GstElement * element, guint ordinal)
{
  GstObject *at = gst_object_get_parent (GST_OBJECT (element)), *up;
  GstContext *context = NULL;
  guint held;

  while (at && !context) {
    if (GST_IS_ELEMENT (at) && (context = gst_element_get_context
            (GST_ELEMENT (at), GST_CL_CUDA_CONTEXT_TYPE)) &&
        (!gst_cl_cuda_context_ordinal (context, &held) || held != ordinal))
      g_clear_pointer (&context, gst_context_unref);
    up = gst_object_get_parent (at);
    gst_object_unref (at);
    at = up;
  }
  gst_clear_object (&at);
  return context;
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

/* The process's context of GPU @ordinal as a GstContext, as libgstcuda
 * makes its own (context_set_cuda_context); NULL where it cannot be made. */
static GstContext *
process_cuda_context (guint ordinal)
{
  GstObject *cuda_context = shared_cuda_context (ordinal);
  GstContext *context;

  if (!cuda_context)
    return NULL;
  context = gst_context_new (GST_CL_CUDA_CONTEXT_TYPE, TRUE);
  gst_structure_set (gst_context_writable_structure (context),
      GST_CL_CUDA_CONTEXT_TYPE, G_OBJECT_TYPE (cuda_context), cuda_context,
      "cuda-device-id", G_TYPE_UINT, ordinal, NULL);
  gst_object_unref (cuda_context);
  return context;
}

gboolean
gst_cl_cuda_share_asks (GstQuery * query)
{
  const gchar *type;

  return GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_query_parse_context_type (query, &type) &&
      g_str_equal (type, GST_CL_CUDA_CONTEXT_TYPE);
}

/* Whether a peer of @element's src pads answers @query. */
static gboolean
downstream_answers (GstElement * element, GstQuery * query)
{
  GstPad *src = gst_element_get_static_pad (element, "src");
  gboolean answered = src && gst_pad_peer_query (src, query);

  gst_clear_object (&src);
  return answered;
}

/* Answers @query with @context where it holds GPU @ordinal (G_MAXUINT:
 * any); under @element's object lock where @context is the element's. */
static gboolean
answer_if_on (GstElement * element, GstQuery * query, GstContext ** context,
    guint ordinal)
{
  GstContext *kept = NULL;
  guint held;

  GST_OBJECT_LOCK (element);
  if (*context)
    kept = gst_context_ref (*context);
  GST_OBJECT_UNLOCK (element);
  if (kept && (ordinal == G_MAXUINT ||
          (gst_cl_cuda_context_ordinal (kept, &held) && held == ordinal)))
    gst_query_set_context (query, kept);
  else
    g_clear_pointer (&kept, gst_context_unref);
  if (!kept)
    return FALSE;
  gst_context_unref (kept);
  return TRUE;
}

gboolean
gst_cl_cuda_share_handle_context_query (GstElement * element,
    GstQuery * query, GstContext ** cuda_context)
{
  GstContext *context = NULL;
  gboolean downstream;
  const gchar *reason;
  guint ordinal, held;

  g_return_val_if_fail (gst_cl_cuda_share_asks (query), FALSE);

  if (!upstream_cuda_device (element, &ordinal))
    ordinal = G_MAXUINT;
  if (answer_if_on (element, query, cuda_context, ordinal))
    return TRUE;
  /* what downstream has, unless it is another GPU's, which the decoder
   * would refuse */
  if ((downstream = downstream_answers (element, query))) {
    gst_query_parse_context (query, &context);
    if (ordinal == G_MAXUINT || !context ||
        (gst_cl_cuda_context_ordinal (context, &held) && held == ordinal))
      return TRUE;
  }
  if (ordinal == G_MAXUINT || !gst_cl_cuda_load (&reason))
    return downstream;
  if ((context = bin_cuda_context (element, ordinal)))
    GST_DEBUG_OBJECT (element, "answering with the bin's CUDA context of "
        "GPU %u", ordinal);
  else if ((context = process_cuda_context (ordinal)))
    GST_DEBUG_OBJECT (element, "answering with the process's CUDA context "
        "of GPU %u", ordinal);
  else
    return downstream;
  gst_query_set_context (query, context);
  gst_context_unref (context);
  return TRUE;
}
