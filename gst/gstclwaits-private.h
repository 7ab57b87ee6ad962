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

#ifndef __GST_CL_WAITS_PRIVATE_H__
#define __GST_CL_WAITS_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS
/* The times the streaming thread waits for a device, by cause: each wait
 * adds to its thread's own counters, which the plan takes once a frame,
 * for the element's "stats" (host-waits). A wait on the critical path of a
 * frame is what several streams on one device pay for; the causes name
 * which one. */
    typedef enum
{
  GST_CL_WAIT_CUDA_COPY_IN,     /* a decoder's CUDA frame into the pool */
  GST_CL_WAIT_CUDA_COPY_OUT,    /* the result into CUDA memory */
  GST_CL_WAIT_FRAME,            /* the end of a frame not left in flight */
  GST_CL_WAIT_SLOT,             /* a frame in flight, for its slot */
  GST_CL_WAIT_HISTOGRAM,        /* strength=auto's histogram, read back */
  GST_CL_WAIT_STAGING,          /* the staging buffer, mapped to be filled */
  GST_CL_WAIT_OTHER,            /* plane copies of a share that fell through */
  GST_CL_WAIT_N
} GstClWait;

/* The nicknames of the causes, as "stats" names them. */
const gchar *gst_cl_wait_to_string (GstClWait what);

/* A wait begins: returns the time to hand to gst_cl_wait_end(). */
gint64 gst_cl_wait_begin (void);

/* The wait on @what that began at @began has ended. */
void gst_cl_wait_end (GstClWait what, gint64 began);

/* Moves this thread's counters (ms) to @ms (where not NULL) and sets them
 * back to 0. */
void gst_cl_waits_take (gdouble ms[GST_CL_WAIT_N]);

G_END_DECLS
#endif /* __GST_CL_WAITS_PRIVATE_H__ */
