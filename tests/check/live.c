/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
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
