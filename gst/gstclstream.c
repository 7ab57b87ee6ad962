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

/* GstClStream: one queue of a frame in flight, ordered against the others
 * by the events of its commands (gstclstream-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclstream-private.h"
#include "gstclerror-private.h"

void
gst_cl_stream_wait_for (GstClStream * s, cl_event event)
{
  cl_uint i;

  for (i = 0; i < s->n_wait; i++)
    if (s->wait[i] == event)
      return;
  if (!event)
    return;
  if (G_LIKELY (s->n_wait < GST_CL_STREAM_MAX_WAIT))
    s->wait[s->n_wait++] = event;
  else
    clWaitForEvents (1, &event);
}

gboolean
gst_cl_stream_wait_on_cpu (GstClStream * s, GError ** error)
{
  cl_int status = s->n_wait ? clWaitForEvents (s->n_wait, s->wait) :
      CL_SUCCESS;

  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status,
        "clWaitForEvents (frame in flight)");
  s->n_wait = 0;
  return TRUE;
}

void
gst_cl_stream_init (GstClStream * s, cl_command_queue queue, cl_event * pending,
    guint n)
{
  guint i;

  s->queue = queue;
  s->n_wait = 0;
  s->last = NULL;
  for (i = 0; i < n; i++)
    gst_cl_stream_wait_for (s, pending[i]);
}

void
gst_cl_stream_follow (GstClStream * s, const GstClStream * before)
{
  cl_uint i;

  gst_cl_stream_wait_for (s, before->last);
  for (i = 0; i < before->n_wait; i++)
    gst_cl_stream_wait_for (s, before->wait[i]);
}

void
gst_cl_stream_enqueued (GstClStream * s, cl_event event)
{
  if (!event)
    return;
  if (s->last)
    clReleaseEvent (s->last);
  s->last = event;
  s->n_wait = 0;
}

gboolean
gst_cl_stream_mark (GstClStream * s, GError ** error)
{
  cl_event event;
  cl_int status = clEnqueueMarkerWithWaitList (s->queue, 0, NULL, &event);

  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clEnqueueMarkerWithWaitList");
  gst_cl_stream_enqueued (s, event);
  return TRUE;
}

gboolean
gst_cl_stream_copy (GstClStream * s, const GstClPlaneRef * src,
    const GstClPlaneRef * dst, gsize row_bytes, gsize height,
    GstClTransferStats * stats, GError ** error)
{
  cl_event event = NULL;

  if (!gst_cl_copy_plane_on (s->queue, src, dst, row_bytes, height,
          s->n_wait, s->n_wait ? s->wait : NULL, &event, stats, error))
    return FALSE;
  gst_cl_stream_enqueued (s, event);
  return TRUE;
}

gboolean
gst_cl_stream_join (GstClStream * s, cl_event * done, GError ** error)
{
  cl_int status;

  if (s->n_wait == 0 && s->last) {
    clRetainEvent (*done = s->last);
    return TRUE;
  }
  gst_cl_stream_wait_for (s, s->last);
  status = clEnqueueMarkerWithWaitList (s->queue, s->n_wait,
      s->n_wait ? s->wait : NULL, done);
  return status == CL_SUCCESS ||
      gst_cl_set_error (error, status, "clEnqueueMarkerWithWaitList");
}

void
gst_cl_stream_clear (GstClStream * s)
{
  if (s->last)
    clReleaseEvent (s->last);
  s->last = NULL;
}

struct _GstClFaults
{
  gint refcount;
  GMutex lock;                  /* guards error and posted */
  GError *error;                /* the first failure kept */
  gboolean posted;
  GWeakRef element;
};

GstClFaults *
gst_cl_faults_new (GstElement * element)
{
  GstClFaults *faults = g_new0 (GstClFaults, 1);

  faults->refcount = 1;
  g_mutex_init (&faults->lock);
  g_weak_ref_init (&faults->element, element);
  return faults;
}

GstClFaults *
gst_cl_faults_ref (GstClFaults * faults)
{
  g_atomic_int_inc (&faults->refcount);
  return faults;
}

void
gst_cl_faults_unref (GstClFaults * faults)
{
  if (!faults || !g_atomic_int_dec_and_test (&faults->refcount))
    return;
  g_weak_ref_clear (&faults->element);
  g_clear_error (&faults->error);
  g_mutex_clear (&faults->lock);
  g_free (faults);
}

void
gst_cl_faults_detach (GstClFaults * faults)
{
  g_weak_ref_set (&faults->element, NULL);
}

void
gst_cl_faults_keep (GstClFaults * faults, const GError * error,
    const gchar * what)
{
  GstElement *element = NULL;
  gchar *message = NULL;

  if (!faults)
    return;
  g_mutex_lock (&faults->lock);
  if (!faults->error) {
    faults->error = g_error_copy (error);
    element = faults->posted ? NULL : g_weak_ref_get (&faults->element);
    faults->posted |= element != NULL;
    message = g_strdup (faults->error->message);
  }
  g_mutex_unlock (&faults->lock);
  /* Nothing else would name the call: a consumer takes a failed map for an
   * empty frame (filesink writes nothing and goes on), a source says only
   * that its stream stopped. */
  if (element) {
    gst_element_message_full (element, GST_MESSAGE_ERROR, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_FAILED, message, g_strdup (what),
        __FILE__, GST_FUNCTION, __LINE__);
    gst_object_unref (element);
  } else {
    g_free (message);
  }
}

gboolean
gst_cl_faults_check (GstClFaults * faults, GError ** error)
{
  gboolean ok;

  g_mutex_lock (&faults->lock);
  ok = faults->error == NULL;
  if (!ok && error)
    *error = g_error_copy (faults->error);
  g_mutex_unlock (&faults->lock);
  return ok;
}

void
gst_cl_faults_set_posted (GstClFaults * faults)
{
  g_mutex_lock (&faults->lock);
  faults->posted = TRUE;
  g_mutex_unlock (&faults->lock);
}

gboolean
gst_cl_faults_posted (GstClFaults * faults)
{
  gboolean posted;

  g_mutex_lock (&faults->lock);
  posted = faults->posted;
  g_mutex_unlock (&faults->lock);
  return posted;
}
