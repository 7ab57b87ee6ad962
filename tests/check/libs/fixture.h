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

/* The fixture the suites of the private library share (libs/clframe,
 * clplacement, clinflight, clstage, cltuner, cldct): the device as a
 * checked fixture, a plane's extent, and a started pool of our OpenCL
 * memory. These assert (fail_unless): check suites only. */

#ifndef __CLEPSILON_FIXTURE_H__
#define __CLEPSILON_FIXTURE_H__

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include "gstclcontext-private.h"

G_BEGIN_DECLS

/* The device of $CLEPSILON_TEST_DEVICE (default "pocl"), made by
 * fixture_setup() and let go by fixture_teardown():
 * tcase_add_checked_fixture (tc, fixture_setup, fixture_teardown). */
extern GstClContext *fixture_context;
void fixture_setup (void);
void fixture_teardown (void);

/* Bytes of one row of plane @i of @info, and its rows (the plane's
 * geometry, gst_cl_plane_describe()). */
void fixture_plane_extent (const GstVideoInfo * info, guint i,
    gsize * row_bytes, gsize * rows);

/* A started pool of our OpenCL memory on fixture_context for @info, host-
 * visible or @device_resident, with a video meta, and @pad bytes of
 * padding right of every row where not 0. */
GstBufferPool *fixture_cl_pool (const GstVideoInfo * info,
    gboolean device_resident, guint pad);
void fixture_free_pool (GstBufferPool * pool);

/* A buffer of @pool with random bytes from @rand, written through a map as
 * upstream writes it. */
GstBuffer *fixture_pool_frame (GstBufferPool * pool, GRand * rand);

G_END_DECLS

#endif /* __CLEPSILON_FIXTURE_H__ */
