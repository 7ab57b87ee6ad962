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


/* The library's debug categories, registered together
 * (gstcldebug-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"

/* *INDENT-OFF* */
#define DEFINE_CATEGORY(cat, name, description) GST_DEBUG_CATEGORY (cat);
GST_CL_DEBUG_CATEGORIES (DEFINE_CATEGORY)
/* *INDENT-ON* */

void
gst_cl_debug_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
#define INIT_CATEGORY(cat, name, description) \
    GST_DEBUG_CATEGORY_INIT (cat, name, 0, \
        GST_CL_DEBUG_DESCRIPTION_PREFIX description);
    /* *INDENT-OFF* */
    GST_CL_DEBUG_CATEGORIES (INIT_CATEGORY)
    /* *INDENT-ON* */
#undef INIT_CATEGORY
    g_once_init_leave (&done, 1);
  }
}
