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

/* The leak check of the suites that link libclfault (clepsilonrobust,
 * clepsilonfaults): what the process holds, before and after. Apart from
 * harness.h because only those suites may count OpenCL objects: the others
 * must not interpose on the OpenCL API. */

#ifndef __CLEPSILON_LIVE_H__
#define __CLEPSILON_LIVE_H__

#include <glib.h>

G_BEGIN_DECLS

/* What the process holds: OpenCL objects (libclfault) and GStreamer objects
 * (leaks tracer, -1 without it). */
typedef struct
{
  glong cl;
  gint gst;
} Live;

/* The counts now. */
Live live_now (void);

/* Fails if more OpenCL or GStreamer objects are alive than at @before,
 * naming @ctx and what is alive. */
void check_no_leak (Live before, const gchar * ctx);

G_END_DECLS

#endif /* __CLEPSILON_LIVE_H__ */
