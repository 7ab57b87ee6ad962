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

/* cl-host-copy [WIDTH HEIGHT COPIES ROUNDS]
 *
 * The CPU's copy of a frame from system memory into pinned staging, alone:
 * what clepsilon pays a frame from system memory on a discrete GPU beyond
 * the transfers (gst/gstclplacement.c: stage_plane). Copies an 8-bit plane
 * of WIDTH x HEIGHT (default 3840x2160, a 4K luma plane) COPIES times
 * (default 200) with gst_cl_copy_host_plane(), from a ring of 8 sources (as
 * a decoder's frames come, far from the cache) into 3 destinations (the
 * slots' staging), each once as a pinned destination (written past the
 * cache) and once as other host memory (through it), alternating for
 * ROUNDS rounds (default 5). Prints each round's median ms a copy and the
 * median over the rounds. Needs no OpenCL device: pinned memory is host
 * memory to the CPU. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gstclcopy-private.h"
#include "median.h"

#define RING 8
#define SLOTS 3

typedef struct
{
  gsize width, height;
  gint copies;
  guint8 *src[RING], *dst[SLOTS];
} Bench;

/* The median ms of @b's copies into destinations of @kind. */
static gdouble
time_copies (Bench * b, GstClPlaneKind kind)
{
  gdouble *ms = g_new (gdouble, b->copies), m;
  GstClTransferStats stats = { 0, };
  gint i;

  for (i = 0; i < b->copies; i++) {
    GstClPlaneRef from = {.kind = GST_CL_PLANE_MAPPED,.host =
          b->src[i % RING],.pitch = b->width
    };
    GstClPlaneRef to = {.kind = kind,.host = b->dst[i % SLOTS],.pitch = b->width
    };
    const GstClPlaneCopy copy = { &from, &to, b->width, b->height };
    gint64 start = g_get_monotonic_time ();

    gst_cl_copy_host_plane (&copy, &stats);
    ms[i] = (g_get_monotonic_time () - start) / 1e3;
  }
  m = median (ms, b->copies);
  g_free (ms);
  return m;
}

int
main (int argc, char **argv)
{
  Bench b = { argc > 2 ? atoi (argv[1]) : 3840,
    argc > 2 ? atoi (argv[2]) : 2160, argc > 3 ? atoi (argv[3]) : 200
  };
  gint rounds = argc > 4 ? atoi (argv[4]) : 5, r, i;
  gdouble *pinned, *cached;
  const gsize size = b.width * b.height;

  if (b.width < 1 || b.height < 1 || b.copies < 1 || rounds < 1) {
    fprintf (stderr, "usage: %s [WIDTH HEIGHT COPIES ROUNDS]\n", argv[0]);
    return 2;
  }
  pinned = g_new (gdouble, rounds);
  cached = g_new (gdouble, rounds);
  /* written once, so that every page is there before the timing */
  for (i = 0; i < RING; i++)
    b.src[i] = memset (g_malloc (size), i + 1, size);
  for (i = 0; i < SLOTS; i++)
    b.dst[i] = memset (g_malloc (size), 0, size);
  for (r = 0; r < rounds; r++) {
    pinned[r] = time_copies (&b, GST_CL_PLANE_PINNED);
    cached[r] = time_copies (&b, GST_CL_PLANE_MAPPED);
    printf ("round %d: %.3f ms into pinned memory, %.3f ms through the "
        "cache\n", r + 1, pinned[r], cached[r]);
  }
  printf ("%" G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT " (%.2f MB), %u "
      "processors: median %.3f ms a copy into pinned memory (%.1f GB/s), "
      "%.3f ms through the cache (%.1f GB/s)\n", b.width, b.height,
      size / 1e6, g_get_num_processors (), median (pinned, rounds),
      size / median (pinned, rounds) / 1e6, median (cached, rounds),
      size / median (cached, rounds) / 1e6);
  for (i = 0; i < RING; i++)
    g_free (b.src[i]);
  for (i = 0; i < SLOTS; i++)
    g_free (b.dst[i]);
  g_free (pinned);
  g_free (cached);
  return 0;
}
