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

#ifndef __GST_CL_DEBUG_PRIVATE_H__
#define __GST_CL_DEBUG_PRIVATE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The debug categories of the private library: the variable a file logs
 * to (its GST_CAT_DEFAULT), the category's name, what it covers. All are
 * registered together by gst_cl_debug_init(), which the plugin calls when
 * it loads, so that gst-launch-1.0 --gst-debug-help lists them all before
 * any of them is used. (The element's own, clepsilon, is registered with
 * its class, which the plugin's loading makes too.) */
/* *INDENT-OFF* */
#define GST_CL_DEBUG_CATEGORIES(X) \
  X (gst_cl_cache_debug, "clcache", "on-disk cache of programs and tuning") \
  X (gst_cl_coding_debug, "clcoding", \
      "picture types and quantisers of the coded stream") \
  X (gst_cl_context_debug, "clcontext", "OpenCL devices, context, queues") \
  X (gst_cl_dct_debug, "cldct", \
      "the shifted-DCT stage and strength=auto's histogram and decision") \
  X (gst_cl_cuda_debug, "clcuda", "CUDA memory into OpenCL") \
  X (gst_cl_cuda_import_debug, "clcudaimport", \
      "CUDA frames as OpenCL buffers") \
  X (gst_cl_cuda_sync_debug, "clcudasync", \
      "waits for the producers of CUDA memory") \
  X (gst_cl_in_flight_debug, "clinflight", "frames in flight") \
  X (gst_cl_memory_debug, "clmemory", "OpenCL buffer memory") \
  X (gst_cl_negotiation_debug, "clnegotiation", "caps and allocation") \
  X (gst_cl_placement_debug, "clplacement", \
      "where the planes of a frame are") \
  X (gst_cl_plan_debug, "clplan", "what runs on a frame") \
  X (gst_cl_plane_debug, "clplane", "planes and regions") \
  X (gst_cl_program_debug, "clprogram", "OpenCL program build") \
  X (gst_cl_sharing_debug, "clsharing", \
      "OpenCL context sharing between elements") \
  X (gst_cl_tuner_debug, "cltuner", "kernel autotuning")

#define GST_CL_DEBUG_DECLARE(cat, name, description) \
  GST_DEBUG_CATEGORY_EXTERN (cat);
GST_CL_DEBUG_CATEGORIES (GST_CL_DEBUG_DECLARE)
/* *INDENT-ON* */

/* The words every category's description starts with. */
#define GST_CL_DEBUG_DESCRIPTION_PREFIX "gst-clfilters: "

/* Registers every category of GST_CL_DEBUG_CATEGORIES, once for the process
 * and thread-safe; after gst_init(). The library's entry points call it
 * again before they log, for programs that link the library without
 * loading the plugin. */
void gst_cl_debug_init (void);

G_END_DECLS

#endif /* __GST_CL_DEBUG_PRIVATE_H__ */
