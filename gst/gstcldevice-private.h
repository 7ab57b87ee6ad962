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

#ifndef __GST_CL_DEVICE_PRIVATE_H__
#define __GST_CL_DEVICE_PRIVATE_H__

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

/* The OpenCL devices the ICD loader lists, and the one a "device" string
 * selects (docs/devices.md). Calls into the drivers: the caller serialises
 * them (gstclcontext.c's lock), as some drivers' first-time set-up is not
 * safe from two threads at once. */

/* The device @spec selects: "auto" (or NULL, ""): the first GPU, else
 * accelerator, else CPU; a number: that index in enumeration order; else
 * the first whose platform name, vendor or device name contains @spec,
 * case-insensitively. Its name, "DEVICE (PLATFORM)", goes to @name where
 * not NULL (free with g_free()). NULL with @error set
 * (GST_RESOURCE_ERROR_NOT_FOUND, or the OpenCL call that failed) where no
 * device is listed or none matches: the message names the queries that
 * failed on the way. */
cl_device_id gst_cl_device_find (const gchar * spec, gchar ** name,
    GError ** error);

/* Says whether @device is the one looked for. */
typedef gboolean (*GstClDeviceFilter) (cl_device_id device,
    gpointer user_data);

/* The index, in the order a number in a "device" string counts, of the
 * first device that @spec could select (any for "auto", that one for a
 * number, those it names for a text) and @filter accepts; -1 where there
 * is none. */
gint gst_cl_device_find_index (const gchar * spec, GstClDeviceFilter filter,
    gpointer user_data);

/* "DEVICE (PLATFORM)" of @device (free with g_free()); "?" for a part
 * that cannot be read. */
gchar *gst_cl_device_get_name (cl_device_id device);

/* What a compiled program or a timing depends on: platform, device and
 * driver, with their versions, one a line (free with g_free()). */
gchar *gst_cl_device_describe (cl_device_id device);

G_END_DECLS

#endif /* __GST_CL_DEVICE_PRIVATE_H__ */
