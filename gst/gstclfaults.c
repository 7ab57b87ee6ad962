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

/* GstClFaults: where the failure of a frame that already left the element
 * is kept until it is raised (gstclfaults-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclfaults-private.h"
#include "gstclerror-private.h"

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
