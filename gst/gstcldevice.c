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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstcldevice-private.h"
#include "gstclerror-private.h"

#include <string.h>

/* The devices are listed in the context's category, where the log of the
 * device taken is too (docs/devices.md: GST_DEBUG=clcontext:5). */
#define GST_CAT_DEFAULT gst_cl_context_debug

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/* One enumerated device, with what selection looks at. */
typedef struct
{
  cl_device_id device;
  cl_device_type type;
  gchar *platform_name;
  gchar *platform_vendor;       /* "The pocl project": where "pocl" is found */
  gchar *device_name;
} GstClDeviceEntry;

static void
gst_cl_device_entry_clear (gpointer data)
{
  GstClDeviceEntry *entry = data;

  g_free (entry->platform_name);
  g_free (entry->platform_vendor);
  g_free (entry->device_name);
}

/* Adds "OpenCL @step failed: NAME (code)" to @problems (NULL: nothing):
 * what a "no device matches" message says besides. */
static void
note_failure (GString * problems, cl_int status, const gchar * step)
{
  if (!problems)
    return;
  g_string_append_printf (problems, "%sOpenCL %s failed: %s (%d)",
      problems->len ? "; " : "", step, gst_cl_error_name (status), status);
}

static gchar *
query_platform_string (cl_platform_id platform, cl_platform_info param,
    GString * problems)
{
  gchar buf[512] = { 0, };
  cl_int status;

  status = clGetPlatformInfo (platform, param, sizeof (buf) - 1, buf, NULL);
  if (status != CL_SUCCESS) {
    note_failure (problems, status, "clGetPlatformInfo");
    return g_strdup ("?");
  }
  return g_strstrip (g_strdup (buf));
}

static gchar *
query_device_string (cl_device_id device, cl_device_info param,
    GString * problems)
{
  gchar buf[512] = { 0, };
  cl_int status;

  status = clGetDeviceInfo (device, param, sizeof (buf) - 1, buf, NULL);
  if (status != CL_SUCCESS) {
    note_failure (problems, status, "clGetDeviceInfo");
    return g_strdup ("?");
  }
  return g_strstrip (g_strdup (buf));
}

/* Adds the devices of @platform to @entries. A platform that reports no device
 * is skipped: one broken ICD must not hide the others. Returns the status of
 * a clGetDeviceIDs that failed, for the message when no device is found;
 * failed queries go to @problems too. */
static cl_int
list_platform_devices (cl_platform_id platform, GArray * entries,
    GString * problems)
{
  cl_uint n_devices = 0, i;
  cl_device_id *devices;
  gchar *platform_name, *platform_vendor;
  cl_int status;

  status = clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n_devices);
  if (status == CL_DEVICE_NOT_FOUND || (status == CL_SUCCESS && n_devices == 0))
    return CL_SUCCESS;
  if (status != CL_SUCCESS) {
    note_failure (problems, status, "clGetDeviceIDs");
    return status;
  }

  devices = g_new0 (cl_device_id, n_devices);
  status = clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, n_devices, devices,
      NULL);
  if (status != CL_SUCCESS)
    note_failure (problems, status, "clGetDeviceIDs");
  platform_name = query_platform_string (platform, CL_PLATFORM_NAME, problems);
  platform_vendor = query_platform_string (platform, CL_PLATFORM_VENDOR,
      problems);
  for (i = 0; status == CL_SUCCESS && i < n_devices; i++) {
    GstClDeviceEntry entry = { devices[i], 0, g_strdup (platform_name),
      g_strdup (platform_vendor),
      query_device_string (devices[i], CL_DEVICE_NAME, problems)
    };

    if (clGetDeviceInfo (devices[i], CL_DEVICE_TYPE, sizeof (entry.type),
            &entry.type, NULL))
      entry.type = CL_DEVICE_TYPE_DEFAULT;
    GST_DEBUG ("device %u: %s (%s), type 0x%x", entries->len,
        entry.device_name, entry.platform_name, (guint) entry.type);
    g_array_append_val (entries, entry);
  }
  g_free (platform_name);
  g_free (platform_vendor);
  g_free (devices);
  return status;
}

/* Every device of every platform, in enumeration order; the queries that
 * failed on the way go to @problems (may be NULL). */
static GArray *
list_devices (GString * problems, GError ** error)
{
  cl_uint n_platforms = 0, i;
  cl_platform_id *platforms;
  GArray *entries;
  cl_int status, failed = CL_SUCCESS;
  const gchar *failed_step = NULL;

  status = clGetPlatformIDs (0, NULL, &n_platforms);
  if (status == CL_PLATFORM_NOT_FOUND_KHR || (status == CL_SUCCESS
          && n_platforms == 0)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No OpenCL platform found: install an OpenCL driver (ICD), "
        "e.g. pocl-opencl-icd for the CPU");
    return NULL;
  }
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status, "clGetPlatformIDs");
    return NULL;
  }

  platforms = g_new0 (cl_platform_id, n_platforms);
  status = clGetPlatformIDs (n_platforms, platforms, NULL);
  if (status != CL_SUCCESS) {
    failed = status;
    failed_step = "clGetPlatformIDs";
  }
  entries = g_array_new (FALSE, TRUE, sizeof (GstClDeviceEntry));
  g_array_set_clear_func (entries, gst_cl_device_entry_clear);
  for (i = 0; status == CL_SUCCESS && i < n_platforms; i++) {
    cl_int s = list_platform_devices (platforms[i], entries, problems);

    if (s != CL_SUCCESS && failed == CL_SUCCESS) {
      failed = s;
      failed_step = "clGetDeviceIDs";
    }
  }
  g_free (platforms);

  /* No device because a call failed: say which, rather than "none". */
  if (entries->len == 0 && failed != CL_SUCCESS) {
    gst_cl_set_error (error, failed, "%s", failed_step);
    g_array_unref (entries);
    return NULL;
  }
  if (entries->len == 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No OpenCL device found on %u OpenCL platform(s)", n_platforms);
    g_array_unref (entries);
    return NULL;
  }
  return entries;
}

static gint
pick_auto (GArray * entries)
{
  static const cl_device_type preference[] = {
    CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CPU
  };
  guint p, i;

  for (p = 0; p < G_N_ELEMENTS (preference); p++) {
    for (i = 0; i < entries->len; i++) {
      if (g_array_index (entries, GstClDeviceEntry, i).type & preference[p])
        return i;
    }
  }
  return 0;
}

/* Case-insensitive substring search. Either string may come from outside
 * (a driver's name, a property set from code): invalid UTF-8 is made valid
 * first, as g_utf8_casefold() reads past the end of what it cannot parse. */
static gboolean
contains_casefold (const gchar * haystack, const gchar * needle)
{
  gchar *vh = g_utf8_make_valid (haystack, -1);
  gchar *vn = g_utf8_make_valid (needle, -1);
  gchar *h = g_utf8_casefold (vh, -1);
  gchar *n = g_utf8_casefold (vn, -1);
  gboolean found = strstr (h, n) != NULL;

  g_free (h);
  g_free (n);
  g_free (vh);
  g_free (vn);
  return found;
}

static gboolean
spec_is_auto (const gchar * spec)
{
  return spec == NULL || *spec == '\0'
      || g_ascii_strcasecmp (spec, "auto") == 0;
}

/* Whether @spec, a text that is not a number, names entry @e. */
static gboolean
spec_names (const gchar * spec, const GstClDeviceEntry * e)
{
  return contains_casefold (e->platform_name, spec)
      || contains_casefold (e->platform_vendor, spec)
      || contains_casefold (e->device_name, spec);
}

/* Whether @spec could select entry @i of @entries: "auto" any, a number
 * that one, a text the entries it names. */
static gboolean
spec_admits (GArray * entries, const gchar * spec, guint i)
{
  guint64 index;

  if (spec_is_auto (spec))
    return TRUE;
  if (g_ascii_string_to_unsigned (spec, 10, 0, G_MAXINT, &index, NULL))
    return index == i;
  return spec_names (spec, &g_array_index (entries, GstClDeviceEntry, i));
}

/* The index in @entries that @spec selects, or -1: for "auto" the first
 * GPU, accelerator or CPU; else the first it admits. */
static gint
pick_device (GArray * entries, const gchar * spec)
{
  guint i;

  if (spec_is_auto (spec))
    return pick_auto (entries);
  for (i = 0; i < entries->len; i++) {
    if (spec_admits (entries, spec, i))
      return i;
  }
  return -1;
}

gint
gst_cl_device_find_index (const gchar * spec, GstClDeviceFilter filter,
    gpointer user_data)
{
  GArray *entries;
  gint found = -1;
  guint i;

  gst_cl_debug_init ();
  if (!(entries = list_devices (NULL, NULL)))
    return -1;
  for (i = 0; found < 0 && i < entries->len; i++) {
    if (spec_admits (entries, spec, i) &&
        filter (g_array_index (entries, GstClDeviceEntry, i).device, user_data))
      found = i;
  }
  g_array_unref (entries);
  return found;
}

cl_device_id
gst_cl_device_find (const gchar * spec, gchar ** name, GError ** error)
{
  GArray *entries;
  GString *problems = g_string_new (NULL);
  GstClDeviceEntry *entry;
  cl_device_id device = NULL;
  gint index;

  gst_cl_debug_init ();
  entries = list_devices (problems, error);
  if (!entries) {
    g_string_free (problems, TRUE);
    return NULL;
  }
  index = pick_device (entries, spec);
  if (index < 0) {
    /* A platform whose devices could not be listed, or a name that could not
     * be read, may be the one meant: say so. */
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No OpenCL device matches \"%s\" among %u device(s)%s%s%s",
        spec, entries->len, problems->len ? " (" : "", problems->str,
        problems->len ? ")" : "");
  } else {
    entry = &g_array_index (entries, GstClDeviceEntry, index);
    device = entry->device;
    if (name)
      *name = g_strdup_printf ("%s (%s)", entry->device_name,
          entry->platform_name);
  }
  g_string_free (problems, TRUE);
  g_array_unref (entries);
  return device;
}

gchar *
gst_cl_device_get_name (cl_device_id device)
{
  cl_platform_id platform = NULL;
  gchar *device_name, *platform_name, *name;

  clGetDeviceInfo (device, CL_DEVICE_PLATFORM, sizeof (platform), &platform,
      NULL);
  device_name = query_device_string (device, CL_DEVICE_NAME, NULL);
  platform_name = query_platform_string (platform, CL_PLATFORM_NAME, NULL);
  name = g_strdup_printf ("%s (%s)", device_name, platform_name);
  g_free (device_name);
  g_free (platform_name);
  return name;
}

gchar *
gst_cl_device_describe (cl_device_id device)
{
  cl_platform_id platform = NULL;
  gchar *parts[6], *identity;
  guint i;

  clGetDeviceInfo (device, CL_DEVICE_PLATFORM, sizeof (platform), &platform,
      NULL);
  parts[0] = query_platform_string (platform, CL_PLATFORM_NAME, NULL);
  parts[1] = query_platform_string (platform, CL_PLATFORM_VERSION, NULL);
  parts[2] = query_device_string (device, CL_DEVICE_NAME, NULL);
  parts[3] = query_device_string (device, CL_DEVICE_VERSION, NULL);
  parts[4] = query_device_string (device, CL_DRIVER_VERSION, NULL);
  parts[5] = NULL;
  identity = g_strjoinv ("\n", parts);
  for (i = 0; i < 5; i++)
    g_free (parts[i]);
  return identity;
}
