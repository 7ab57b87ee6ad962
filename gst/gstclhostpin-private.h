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

#ifndef __GST_CL_HOST_PIN_PRIVATE_H__
#define __GST_CL_HOST_PIN_PRIVATE_H__

#include <gst/gst.h>
#include "gstclcontext-private.h"

G_BEGIN_DECLS

/* System memory that a discrete device's driver holds pinned, so that the
 * uploads read it where it is by DMA instead of the CPU copying it into
 * pinned staging first (gstclplacement.c): a CL_MEM_USE_HOST_PTR buffer
 * wraps the memory's bytes for the memory's life (NVIDIA's OpenCL pins
 * them for the buffer's; tests/gpu/cl-host-register.c). No command ever
 * uses that buffer: it only keeps the pages pinned. Only memory that comes
 * back (a pool's) pays for the wrapping: a memory is wrapped the second
 * time it is seen. */

/* Whether the @size bytes at @data, the whole of @memory mapped for
 * reading, are held pinned for @context: TRUE from the second time the
 * same memory is seen at the same address by one context (one memory
 * seen once by each of two elements is not one that comes back), and
 * then for every context of that OpenCL context and device (siblings:
 * elements of one device after a tee), where the wrapping succeeds and
 * the process holds no more than GST_CL_HOST_PIN_MAX_BYTES so (pinned
 * pages are taken from everything else on the host); FALSE while another
 * thread wraps it. A memory is wrapped once and its wrapping goes with it
 * (when no upload can read it any more), or when a context of another
 * OpenCL context sees it and none uses the one that wrapped it (a ring
 * outliving a pipeline): it is wrapped anew then. Thread-safe. */
gboolean gst_cl_host_pin_holds (GstClContext * context, GstMemory * memory,
    const guint8 * data, gsize size);

#define GST_CL_HOST_PIN_MAX_BYTES ((gsize) 1 << 30)

/* How many memories are wrapped now (for the tests). */
guint gst_cl_host_pin_count (void);

G_END_DECLS

#endif /* __GST_CL_HOST_PIN_PRIVATE_H__ */
