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

/* The steps follow GStreamer's convention for shared contexts (see the
 * GstContext documentation, and gst_cuda_ensure_element_context):
 *  1. a context already set on the element is used;
 *  2. else a context query goes downstream, then upstream;
 *  3. else a "need-context" message is posted: a bin that has the context
 *     from an earlier "have-context", or the application, sets it then;
 *  4. else the element takes the context of its device that another
 *     element of the process made, if one is still held, or makes one;
 *     it posts "have-context", so that the bins hand it to the others.
 * Contexts set on an element stay in its list (GstElement keeps them), so a
 * shared context lives as long as the pipeline holds it. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclsharing-private.h"
#include "gstclerror-private.h"
#include "gstclcudaimport-private.h"
#include "gstclcudaexec-private.h"

#define GST_CAT_DEFAULT gst_cl_sharing_debug


/* The GstClContext in @context's structure (a new reference), wrapping an
 * application's cl_context if that is what it holds; NULL if neither. */
static GstClContext *
context_from_gst_context (GstElement * element, GstContext * context,
    gboolean * wrapped)
{
  const GstStructure *s = gst_context_get_structure (context);
  GstClContext *cl_context = NULL;
  gpointer handle = NULL, device = NULL;
  GError *error = NULL;

  *wrapped = FALSE;
  if (gst_structure_get (s, "context", GST_TYPE_CL_CONTEXT, &cl_context, NULL))
    return cl_context;
  if (!gst_structure_get (s, "cl-context", G_TYPE_POINTER, &handle,
          "cl-device", G_TYPE_POINTER, &device, NULL) || !handle || !device)
    return NULL;
  cl_context = gst_cl_context_new_wrapped (handle, device, &error);
  if (!cl_context) {
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        ("Cannot use the application's OpenCL context"), ("%s",
            error->message));
    g_clear_error (&error);
  }
  *wrapped = cl_context != NULL;
  return cl_context;
}

/* Posts @cl_context for the bins to hand to the other elements; an element
 * in no bin has no one to share with (and a message would wait on its
 * bus). */
static void
post_have_context (GstElement * element, GstClContext * cl_context)
{
  GstContext *context;

  if (!GST_OBJECT_PARENT (element))
    return;
  context = gst_context_new (GST_CL_CONTEXT_TYPE, TRUE);
  gst_structure_set (gst_context_writable_structure (context), "context",
      GST_TYPE_CL_CONTEXT, cl_context, NULL);
  GST_INFO_OBJECT (element, "posting have-context for %s",
      gst_cl_context_get_device_name (cl_context));
  gst_element_post_message (element, gst_message_new_have_context
      (GST_OBJECT (element), context));
}

void
gst_cl_context_handle_set_context (GstElement * element, GstContext * context,
    const gchar * device_spec, GstClContext ** cl_context)
{
  GstClContext *candidate;
  gboolean wrapped = FALSE;

  gst_cl_debug_init ();
  if (!context || !g_str_equal (gst_context_get_context_type (context),
          GST_CL_CONTEXT_TYPE))
    return;
  GST_OBJECT_LOCK (element);
  if (*cl_context) {
    GST_OBJECT_UNLOCK (element);
    return;
  }
  GST_OBJECT_UNLOCK (element);

  if (!(candidate = context_from_gst_context (element, context, &wrapped)))
    return;
  if (!gst_cl_context_matches (candidate, device_spec)) {
    GST_INFO_OBJECT (element, "not sharing %s: device \"%s\" asks for "
        "another", gst_cl_context_get_device_name (candidate), device_spec);
    gst_object_unref (candidate);
    return;
  }

  GST_OBJECT_LOCK (element);
  if (!*cl_context) {
    GST_INFO_OBJECT (element, "sharing the OpenCL context on %s",
        gst_cl_context_get_device_name (candidate));
    *cl_context = gst_object_ref (candidate);
  } else {
    wrapped = FALSE;
  }
  GST_OBJECT_UNLOCK (element);

  /* The application's cl_context, once wrapped, is shared as the wrapper:
   * the other elements then use the same context and know its buffers. */
  if (wrapped)
    post_have_context (element, candidate);
  gst_object_unref (candidate);
}

gboolean
gst_cl_context_handle_context_query (GstElement * element, GstQuery * query,
    GstClContext * cl_context)
{
  const gchar *type;
  GstContext *old = NULL, *context;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT || !cl_context ||
      !gst_query_parse_context_type (query, &type) ||
      !g_str_equal (type, GST_CL_CONTEXT_TYPE))
    return FALSE;

  gst_query_parse_context (query, &old);
  context = old ? gst_context_copy (old) :
      gst_context_new (GST_CL_CONTEXT_TYPE, TRUE);
  gst_structure_set (gst_context_writable_structure (context), "context",
      GST_TYPE_CL_CONTEXT, cl_context, NULL);
  gst_query_set_context (query, context);
  gst_context_unref (context);
  return TRUE;
}

static gboolean
query_peer (const GValue * item, GValue * value, gpointer user_data)
{
  GstPad *pad = g_value_get_object (item);

  if (gst_pad_peer_query (pad, GST_QUERY (user_data))) {
    g_value_set_boolean (value, TRUE);
    return FALSE;
  }
  return TRUE;
}

/* Asks the peers of @element's pads on one side for the context. */
static gboolean
run_context_query (GstElement * element, GstQuery * query,
    GstPadDirection direction)
{
  GstIterator *it = direction == GST_PAD_SRC ?
      gst_element_iterate_src_pads (element) :
      gst_element_iterate_sink_pads (element);
  GValue answered = G_VALUE_INIT;
  gboolean found;

  g_value_init (&answered, G_TYPE_BOOLEAN);
  while (gst_iterator_fold (it, query_peer, &answered, query) ==
      GST_ITERATOR_RESYNC)
    gst_iterator_resync (it);
  found = g_value_get_boolean (&answered);
  gst_iterator_free (it);
  return found;
}

static gboolean
have_context (GstElement * element, GstClContext ** cl_context)
{
  gboolean have;

  GST_OBJECT_LOCK (element);
  have = *cl_context != NULL;
  GST_OBJECT_UNLOCK (element);
  return have;
}

/* Drops a context set earlier (set_context) for another device than
 * @device_spec names; the device list is read outside the object lock. */
static void
drop_foreign_context (GstElement * element, const gchar * device_spec,
    GstClContext ** cl_context)
{
  GstClContext *held = NULL;

  GST_OBJECT_LOCK (element);
  if (*cl_context)
    held = gst_object_ref (*cl_context);
  GST_OBJECT_UNLOCK (element);
  if (!held || gst_cl_context_matches (held, device_spec)) {
    gst_clear_object (&held);
    return;
  }
  GST_DEBUG_OBJECT (element, "dropping a context for another device");
  GST_OBJECT_LOCK (element);
  if (*cl_context == held)
    gst_clear_object (cl_context);
  GST_OBJECT_UNLOCK (element);
  gst_object_unref (held);
}

/* The contexts that elements of this process made (step 4), held weakly:
 * a bin hands an element only the context posted last, of whichever
 * device, so elements of another device in one bin, and those of other
 * pipelines, take the process's context of their device here instead of
 * making one more, which on a GPU would be one more context for it to
 * turn between. */
static GMutex made_lock;
static GSList *made_contexts;   /* GWeakRef *, of GstClContext */

/* A context of @device_spec's device: OpenCL's; or, where NVIDIA's OpenCL
 * makes none (under NVIDIA MPS clCreateContext fails) and the device's
 * work may run in CUDA instead, one without OpenCL
 * (gst_cl_context_new_without_opencl()). */
static GstClContext *
new_context (const gchar * device_spec, GError ** error)
{
  GstClContext *made = gst_cl_context_new (device_spec, error);
  GstClContext *without;

  if (made || !gst_cl_cuda_exec_wanted ())
    return made;
  without = gst_cl_context_new_without_opencl (device_spec, NULL);
  if (without && gst_cl_cuda_exec_may_run (without)) {
    GST_INFO ("%s: %s; its work in CUDA alone",
        gst_cl_context_get_device_name (without), (*error)->message);
    g_clear_error (error);
    return without;
  }
  gst_clear_object (&without);
  return NULL;
}

/* The process's context of @device_spec's device (a new reference), made
 * now where no element holds one. */
static GstClContext *
process_context (const gchar * device_spec, GError ** error)
{
  GstClContext *found = NULL, *alive;
  GSList *l, *next, *looked_at = NULL;
  GWeakRef *ref;

  g_mutex_lock (&made_lock);
  for (l = made_contexts; l; l = next) {
    next = l->next;
    if (!(alive = g_weak_ref_get (l->data))) {
      g_weak_ref_clear (l->data);
      g_free (l->data);
      made_contexts = g_slist_delete_link (made_contexts, l);
    } else if (!found && gst_cl_context_is_on (alive, device_spec)) {
      found = alive;
    } else {
      looked_at = g_slist_prepend (looked_at, alive);
    }
  }
  if (!found && (found = new_context (device_spec, error))) {
    ref = g_new0 (GWeakRef, 1);
    g_weak_ref_init (ref, found);
    made_contexts = g_slist_prepend (made_contexts, ref);
  } else if (found) {
    GST_DEBUG ("sharing the process's context on %s",
        gst_cl_context_get_device_name (found));
  }
  g_mutex_unlock (&made_lock);
  /* after the lock: a last reference frees its context's queues, which
   * may wait */
  g_slist_free_full (looked_at, gst_object_unref);
  return found;
}

gboolean
gst_cl_context_ensure_for_element (GstElement * element,
    const gchar * device_spec, GstClContext ** cl_context, GError ** error)
{
  GstQuery *query;
  GstContext *context = NULL;
  GstClContext *made;
  gint i;

  gst_cl_debug_init ();
  drop_foreign_context (element, device_spec, cl_context);
  if (have_context (element, cl_context))
    return TRUE;

  query = gst_query_new_context (GST_CL_CONTEXT_TYPE);
  for (i = 0; i < 2 && !have_context (element, cl_context); i++) {
    if (run_context_query (element, query, i == 0 ? GST_PAD_SRC : GST_PAD_SINK)) {
      gst_query_parse_context (query, &context);
      if (context)
        gst_element_set_context (element, context);
    }
  }
  gst_query_unref (query);
  if (have_context (element, cl_context))
    return TRUE;

  /* A bin with the context, or the application, sets it synchronously. */
  gst_element_post_message (element, gst_message_new_need_context
      (GST_OBJECT (element), GST_CL_CONTEXT_TYPE));
  if (have_context (element, cl_context))
    return TRUE;

  if (!(made = process_context (device_spec, error)))
    return FALSE;
  GST_OBJECT_LOCK (element);
  if (*cl_context) {
    /* Set while this one was being made. */
    GST_OBJECT_UNLOCK (element);
    gst_object_unref (made);
    return TRUE;
  }
  *cl_context = made;
  GST_OBJECT_UNLOCK (element);

  /* Not set on the element itself, so that nothing of OpenCL outlives its
   * NULL state there; the bins keep it for the others. */
  post_have_context (element, made);
  return TRUE;
}

gboolean
gst_cl_cuda_handle_set_context (GstElement * element, GstContext * context,
    GstContext ** cuda_context)
{
  if (!g_str_equal (gst_context_get_context_type (context),
          GST_CL_CUDA_CONTEXT_TYPE))
    return FALSE;
  GST_DEBUG_OBJECT (element, "CUDA context %" GST_PTR_FORMAT, context);
  GST_OBJECT_LOCK (element);
  gst_context_replace (cuda_context, context);
  GST_OBJECT_UNLOCK (element);
  return TRUE;
}

/* Asks the peers upstream (then downstream, with @downstream) for the
 * CUDA context; keeps the answer in @cuda_context and returns a new
 * reference to it, or NULL. */
static GstContext *
query_cuda_context (GstElement * element, GstContext ** cuda_context,
    gboolean downstream)
{
  GstQuery *query = gst_query_new_context (GST_CL_CUDA_CONTEXT_TYPE);
  GstContext *found = NULL;

  if (run_context_query (element, query, GST_PAD_SINK) ||
      (downstream && run_context_query (element, query, GST_PAD_SRC)))
    gst_query_parse_context (query, &found);
  if (found) {
    gst_cl_cuda_handle_set_context (element, found, cuda_context);
    gst_context_ref (found);
  }
  gst_query_unref (query);
  return found;
}

GstContext *
gst_cl_cuda_get_context (GstElement * element, GstContext ** cuda_context,
    gboolean ask)
{
  GstContext *found = NULL;

  GST_OBJECT_LOCK (element);
  if (*cuda_context)
    found = gst_context_ref (*cuda_context);
  GST_OBJECT_UNLOCK (element);
  if (found || !ask)
    return found;
  return query_cuda_context (element, cuda_context, TRUE);
}

GstContext *
gst_cl_cuda_query_upstream (GstElement * element, GstContext ** cuda_context)
{
  return query_cuda_context (element, cuda_context, FALSE);
}

gboolean
gst_cl_cuda_handle_context_query (GstElement * element, GstQuery * query,
    GstContext ** cuda_context)
{
  GstContext *kept;
  const gchar *type;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT ||
      !gst_query_parse_context_type (query, &type) ||
      !g_str_equal (type, GST_CL_CUDA_CONTEXT_TYPE) ||
      !(kept = gst_cl_cuda_get_context (element, cuda_context, FALSE)))
    return FALSE;
  GST_DEBUG_OBJECT (element, "answering with %" GST_PTR_FORMAT, kept);
  gst_query_set_context (query, kept);
  gst_context_unref (kept);
  return TRUE;
}
