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

#ifndef __GST_CL_FAULTS_PRIVATE_H__
#define __GST_CL_FAULTS_PRIVATE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The first failure of a frame outside the element: a map of its output
 * memory (by any element, on any thread) whose wait for the frame's
 * commands, or whose map command, failed, so that the data never reached
 * the consumer; or a frame of the pool the element proposed upstream that
 * could not be allocated or mapped. Kept until the element raises it as an ERROR at its next
 * frame or at EOS (gst_cl_faults_check()); posted on the element's bus at
 * once as well, since the map may run after the element saw EOS (a queue
 * downstream). Shared and counted: a plan holds it, and so does each
 * output memory it wrote (gst_cl_memory_set_faults()) and the allocator of
 * the pool proposed upstream (gst_cl_allocator_set_faults()). Thread-safe.
 * docs/memory.md. */
typedef struct _GstClFaults GstClFaults;

/* Faults of @element's frames (not owned: a weak reference). */
GstClFaults *gst_cl_faults_new (GstElement * element);
GstClFaults *gst_cl_faults_ref (GstClFaults * faults);
void gst_cl_faults_unref (GstClFaults * faults);

/* The element's stream ended (READY): no more posting on its bus. */
void gst_cl_faults_detach (GstClFaults * faults);

/* Keeps @error (the first one only; NULL @faults: nothing) and posts it as
 * an ERROR of the element, with @what (what was lost) as its debug text. */
void gst_cl_faults_keep (GstClFaults * faults, const GError * error,
    const gchar * what);

/* TRUE where nothing was kept; else FALSE with @error set to what was. */
gboolean gst_cl_faults_check (GstClFaults * faults, GError ** error);

/* Whether the element's ERROR was posted already, by gst_cl_faults_keep()
 * or by the element (which then says so with gst_cl_faults_set_posted(), so
 * that a failure kept later is not posted again). */
gboolean gst_cl_faults_posted (GstClFaults * faults);
void gst_cl_faults_set_posted (GstClFaults * faults);

G_END_DECLS

#endif /* __GST_CL_FAULTS_PRIVATE_H__ */
