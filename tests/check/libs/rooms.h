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

/* What the suites of the private library's rooms (libs/clframe,
 * clplacement, clinflight, clkernels, cltuner) share: the device as a
 * checked fixture, a plane's extent, and a started pool of our OpenCL
 * memory. These assert (fail_unless): check suites only. */

#ifndef __CLEPSILON_ROOMS_H__
#define __CLEPSILON_ROOMS_H__

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include "gstclcontext-private.h"

G_BEGIN_DECLS

/* The device of $CLEPSILON_TEST_DEVICE (default "pocl"), made by
 * rooms_setup() and let go by rooms_teardown(): tcase_add_checked_fixture
 * (tc, rooms_setup, rooms_teardown). */
extern GstClContext *rooms_context;
void rooms_setup (void);
void rooms_teardown (void);

/* Bytes of one row of plane @i of @info, and its rows (the plane's
 * geometry, gst_cl_plane_describe()). */
void rooms_plane_extent (const GstVideoInfo * info, guint i,
    gsize * row_bytes, gsize * rows);

/* A started pool of our OpenCL memory on rooms_context for @info, host-
 * visible or @device_resident, with a video meta, and @pad bytes of
 * padding right of every row where not 0. */
GstBufferPool *rooms_cl_pool (const GstVideoInfo * info,
    gboolean device_resident, guint pad);
void rooms_free_pool (GstBufferPool * pool);

/* A buffer of @pool with random bytes from @rand, written through a map as
 * upstream writes it. */
GstBuffer *rooms_pool_frame (GstBufferPool * pool, GRand * rand);

G_END_DECLS

#endif /* __CLEPSILON_ROOMS_H__ */
