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

#ifndef __GST_CL_CPU_COPY_PRIVATE_H__
#define __GST_CL_CPU_COPY_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Copies @rows rows of @row_bytes from @src (rows @src_pitch bytes apart)
 * to @dst (rows @dst_pitch bytes apart) by the CPU, the rows split over a
 * process-wide pool of a few threads where the plane is large; returns once
 * every row is copied. The regions must not overlap. */
void gst_cl_cpu_copy_rows (guint8 * dst, gsize dst_pitch,
    const guint8 * src, gsize src_pitch, gsize row_bytes, gsize rows);

G_END_DECLS

#endif /* __GST_CL_CPU_COPY_PRIVATE_H__ */
