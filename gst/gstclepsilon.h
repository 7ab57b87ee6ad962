/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
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
