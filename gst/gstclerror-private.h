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

#ifndef __GST_CL_ERROR_PRIVATE_H__
#define __GST_CL_ERROR_PRIVATE_H__

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

/* The symbolic name of an OpenCL status code, e.g. "CL_OUT_OF_RESOURCES",
 * or "unknown OpenCL error" for a code OpenCL does not define. Static string. */
const gchar *gst_cl_error_name (cl_int status);

/* Fills @error (GST_RESOURCE_ERROR_FAILED) with a message a user can act on:
 * "OpenCL <step> failed: <CL_ERROR_NAME> (<code>)". The printf-style
 * @step_format names the OpenCL call or the step of the work that failed.
 * Returns FALSE, so that callers can write
 * `return gst_cl_set_error (error, status, "clFoo (%s)", what);`. */
gboolean gst_cl_set_error (GError ** error, cl_int status,
    const gchar * step_format, ...) G_GNUC_PRINTF (3, 4);

/* Posts @err as the element's error message, in its own domain and code,
 * with its message as the text users see, and frees it. */
#define GST_CL_ELEMENT_ERROR_FROM_GERROR(el, err) G_STMT_START {             \
    if (err) {                                                               \
      gst_element_message_full (GST_ELEMENT (el), GST_MESSAGE_ERROR,         \
          (err)->domain, (err)->code, g_strdup ((err)->message), NULL,       \
          __FILE__, GST_FUNCTION, __LINE__);                                 \
      g_clear_error (&(err));                                                \
    } else {                                                                 \
      GST_ELEMENT_ERROR (el, LIBRARY, FAILED, (NULL),                        \
          ("OpenCL work failed without saying why (a bug)"));                \
    }                                                                        \
  } G_STMT_END

G_END_DECLS

#endif /* __GST_CL_ERROR_PRIVATE_H__ */
