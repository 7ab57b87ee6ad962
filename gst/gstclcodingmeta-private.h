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

#ifndef __GST_CL_CODING_META_PRIVATE_H__
#define __GST_CL_CODING_META_PRIVATE_H__

#include <gst/gst.h>

#include "gstclcodinginfo-private.h"

G_BEGIN_DECLS

/* GstClCodingMeta: a coded picture's GstClCodingInfo
 * (gstclcodinginfo-private.h) on a buffer: put on a decoder's input buffer
 * by whoever parsed it, and carried by GstVideoDecoder to the decoded frame
 * (gstclcodingmeta.c says how), where strength=auto can read it. */
typedef struct
{
  GstMeta meta;
  GstClCodingInfo info;
} GstClCodingMeta;

GType gst_cl_coding_meta_api_get_type (void);
#define GST_CL_CODING_META_API_TYPE (gst_cl_coding_meta_api_get_type ())

const GstMetaInfo *gst_cl_coding_meta_get_info (void);
#define GST_CL_CODING_META_INFO (gst_cl_coding_meta_get_info ())

/* Adds a GstClCodingMeta holding a copy of @info to @buffer, which must be
 * writable; returns the meta, owned by @buffer. */
GstClCodingMeta *gst_buffer_add_cl_coding_meta (GstBuffer * buffer,
    const GstClCodingInfo * info);

/* The GstClCodingMeta of @buffer, owned by it; NULL where it has none. */
GstClCodingMeta *gst_buffer_get_cl_coding_meta (GstBuffer * buffer);

G_END_DECLS

#endif /* __GST_CL_CODING_META_PRIVATE_H__ */
