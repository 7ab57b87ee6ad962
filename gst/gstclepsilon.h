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

#ifndef __GST_CL_EPSILON_H__
#define __GST_CL_EPSILON_H__

#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_EPSILON (gst_cl_epsilon_get_type ())
G_DECLARE_FINAL_TYPE (GstClEpsilon, gst_cl_epsilon, GST, CL_EPSILON,
    GstVideoFilter);

GST_ELEMENT_REGISTER_DECLARE (clepsilon);

G_END_DECLS

#endif /* __GST_CL_EPSILON_H__ */
