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

/* The streaming thread's waits for a device, by cause
 * (gstclwaits-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclwaits-private.h"

#include <string.h>

typedef struct
{
  gint64 us[GST_CL_WAIT_N];
} ThreadWaits;

static GPrivate thread_waits = G_PRIVATE_INIT (g_free);

static ThreadWaits *
get_thread_waits (void)
{
  ThreadWaits *waits = g_private_get (&thread_waits);

  if (!waits) {
    waits = g_new0 (ThreadWaits, 1);
    g_private_set (&thread_waits, waits);
  }
  return waits;
}

const gchar *
gst_cl_wait_to_string (GstClWait what)
{
  static const gchar *const names[GST_CL_WAIT_N] = {
    "cuda-copy-in", "cuda-copy-out", "frame", "slot", "histogram", "staging",
    "other"
  };

  g_return_val_if_fail (what < GST_CL_WAIT_N, "other");
  return names[what];
}

gint64
gst_cl_wait_begin (void)
{
  return g_get_monotonic_time ();
}

void
gst_cl_wait_end (GstClWait what, gint64 began)
{
  g_return_if_fail (what < GST_CL_WAIT_N);
  get_thread_waits ()->us[what] += g_get_monotonic_time () - began;
}

void
gst_cl_waits_take (gdouble ms[GST_CL_WAIT_N])
{
  ThreadWaits *waits = get_thread_waits ();
  guint i;

  for (i = 0; ms && i < GST_CL_WAIT_N; i++)
    ms[i] = waits->us[i] / 1000.0;
  memset (waits, 0, sizeof (*waits));
}
