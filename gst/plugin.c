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

#include "gstclepsilon.h"
#include "gstcldebug-private.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  /* No OpenCL platform is no reason to hide the element: it still registers,
   * gst-inspect-1.0 still documents it, and starting it says what is missing. */
  /* Every debug category now, not at its first use, so that
   * gst-launch-1.0 --gst-debug-help lists them all. */
  gst_cl_debug_init ();
  return GST_ELEMENT_REGISTER (clepsilon, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, clfilters,
    "Video filters that run on any OpenCL device",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
