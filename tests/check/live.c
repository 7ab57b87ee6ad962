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

#include <gst/check/gstcheck.h>

#include "live.h"
#include "robust.h"
#include "clfault.h"

Live
live_now (void)
{
  Live l = { clfault_live_total (), rt_live_gst_objects (NULL) };

  return l;
}

void
check_no_leak (Live before, const gchar * ctx)
{
  Live now = live_now ();

  fail_unless (now.cl == before.cl, "%s: %ld OpenCL objects alive, %ld "
      "before (%s)", ctx, now.cl, before.cl, clfault_describe_live ());
  if (before.gst >= 0 && now.gst != before.gst) {
    gchar *what = NULL;

    rt_live_gst_objects (&what);
    fail ("%s: %d GStreamer objects alive, %d before: %s", ctx, now.gst,
        before.gst, what);
  }
}
