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

/* Plane copies (gst/gstclcopy.c) on their own, on the host: rows copied by
 * the CPU, split over threads where the plane is large (with rows left
 * over after an even split), between padded pitches, into pinned memory
 * with non-temporal stores, every row's bytes and nothing past them,
 * counted as host copy bytes; and the copy between two host pointers that
 * gst_cl_copy_plane_on() makes at once, with no event. Needs no OpenCL
 * device. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>

#include "gstclcopy-private.h"

#define POISON 0xa5

/* One host copy checked: @rows rows of @row_bytes from a source of
 * @src_pitch into a destination of @dst_kind and @dst_pitch that starts
 * @dst_shift bytes past an allocation (so that no row need be aligned),
 * through gst_cl_copy_plane_on() where @through_queue_call. */
typedef struct
{
  gsize row_bytes, rows;
  gint src_pitch, dst_pitch;
  gboolean through_queue_call;
  GstClPlaneKind dst_kind;
  gsize dst_shift;
} HostCopyCase;

/* Copies @c into a poisoned destination: each row the source's bytes, the
 * padding after it and the bytes around the plane still poisoned. */
static void
check_copy (const HostCopyCase * c)
{
  GRand *rand = g_rand_new_with_seed (c->row_bytes * 31 + c->rows);
  const gsize src_size = (gsize) c->src_pitch * c->rows;
  const gsize dst_size = (gsize) c->dst_pitch * c->rows;
  guint8 *src = g_malloc (src_size);
  guint8 *block = g_malloc (c->dst_shift + dst_size + 64), *dst =
      block + c->dst_shift;
  GstClPlaneRef from = {.kind = GST_CL_PLANE_MAPPED,.host = src,.pitch =
        c->src_pitch
  };
  GstClPlaneRef to = {.kind = c->dst_kind,.host = dst,.pitch = c->dst_pitch };
  const GstClPlaneCopy copy = { &from, &to, c->row_bytes, c->rows };
  GstClTransferStats stats = { 0, };
  gsize i, y;

  for (i = 0; i < src_size; i++)
    src[i] = g_rand_int (rand);
  memset (block, POISON, c->dst_shift + dst_size + 64);
  if (c->through_queue_call) {
    cl_event event = (cl_event) 1;
    GError *error = NULL;

    fail_unless (gst_cl_copy_plane_on (NULL, &copy, 0, NULL, &event, &stats,
            &error));
    fail_unless (event == NULL, "an event for a copy made at once");
  } else {
    gst_cl_copy_host_plane (&copy, &stats);
  }
  for (i = 0; i < c->dst_shift; i++)
    fail_unless_equals_int (block[i], POISON);
  for (y = 0; y < c->rows; y++) {
    const guint8 *row = dst + y * c->dst_pitch;

    fail_unless (memcmp (row, src + y * c->src_pitch, c->row_bytes) == 0,
        "%" G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT ": row %" G_GSIZE_FORMAT
        " differs", c->row_bytes, c->rows, y);
    for (i = c->row_bytes; i < (gsize) c->dst_pitch; i++)
      fail_unless_equals_int (row[i], POISON);
  }
  for (i = 0; i < 64; i++)
    fail_unless_equals_int (dst[dst_size + i], POISON);
  fail_unless_equals_uint64 (stats.host_copy_bytes,
      (guint64) c->row_bytes * c->rows);
  fail_unless_equals_uint64 (stats.upload_bytes + stats.download_bytes +
      stats.device_copy_bytes, 0);
  g_free (src);
  g_free (block);
  g_rand_free (rand);
}

static void
check_host_copy (gsize row_bytes, gsize rows, gint src_pitch, gint dst_pitch,
    gboolean through_queue_call)
{
  const HostCopyCase c = { row_bytes, rows, src_pitch, dst_pitch,
    through_queue_call, GST_CL_PLANE_MAPPED, 0
  };

  check_copy (&c);
}

/* Planes of a few rows and of one row: copied by the calling thread. */
GST_START_TEST (test_host_copy_small)
{
  check_host_copy (1, 1, 1, 1, FALSE);
  check_host_copy (17, 3, 32, 20, FALSE);
  check_host_copy (640, 480, 640, 704, FALSE);
}

GST_END_TEST;

/* Planes past the split (half a megabyte and more), of row counts that no
 * number of threads divides evenly (1087 is prime): every row is copied,
 * the last ones too. */
GST_START_TEST (test_host_copy_split)
{
  check_host_copy (1921, 1087, 2048, 1984, FALSE);
  check_host_copy (3840, 2161, 3840, 3840, FALSE);
  check_host_copy (4096, 257, 4096, 4160, FALSE);
}

GST_END_TEST;

/* Into pinned memory (system memory staged for the device), planes past
 * the split are written with non-temporal stores, which need aligned
 * destinations: rows that start anywhere in a 16-byte line (odd pitches,
 * a destination 1 to 15 bytes past one), short rows and long, row counts
 * no number of threads divides, one run of bytes and padded pitches; and
 * planes below the split, copied through the cache. */
GST_START_TEST (test_host_copy_pinned)
{
  static const HostCopyCase cases[] = {
    {3840, 2160, 3840, 3840, FALSE, GST_CL_PLANE_PINNED, 0},
    {3840, 1087, 4096, 3840, FALSE, GST_CL_PLANE_PINNED, 0},
    {1921, 1087, 2048, 1921, FALSE, GST_CL_PLANE_PINNED, 5},
    {1921, 1087, 1921, 1921, FALSE, GST_CL_PLANE_PINNED, 13},
    {4099, 257, 4100, 4163, FALSE, GST_CL_PLANE_PINNED, 1},
    {63, 16661, 64, 79, FALSE, GST_CL_PLANE_PINNED, 15},
    {1048576, 1, 1048576, 1048576, FALSE, GST_CL_PLANE_PINNED, 7},
    {1921, 1087, 2048, 1984, TRUE, GST_CL_PLANE_PINNED, 3},
    {17, 3, 32, 20, FALSE, GST_CL_PLANE_PINNED, 1},
    {640, 480, 640, 640, FALSE, GST_CL_PLANE_PINNED, 0},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    check_copy (&cases[i]);
}

GST_END_TEST;

/* A run of bytes (a frame's span, gst_cl_copy_host_run()): every byte
 * copied, the bytes after it untouched, for runs below one cut row, of
 * whole cut rows and with a remainder, past the split into threads, each
 * to the device (non-temporal stores, any alignment) and from it. */
GST_START_TEST (test_host_copy_run)
{
  static const gsize sizes[] = { 0, 1, 65535, 65536, 65537,
    3 * 1048576 + 17, 12441600
  };
  guint i, k;
  gsize x;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    for (k = 0; k < 2; k++) {
      const gsize size = sizes[i], shift = k ? 7 : 0;
      guint8 *src = g_malloc (size + 1);
      guint8 *block = g_malloc (size + shift + 64), *dst = block + shift;

      for (x = 0; x < size; x++)
        src[x] = (guint8) (x * 31 + x / 65536 + i);
      memset (block, POISON, size + shift + 64);
      gst_cl_copy_host_run (dst, src, size, k == 1);
      fail_unless (memcmp (dst, src, size) == 0, "%" G_GSIZE_FORMAT
          " bytes differ", size);
      for (x = 0; x < 64; x++)
        fail_unless_equals_int (dst[size + x], POISON);
      for (x = 0; x < shift; x++)
        fail_unless_equals_int (block[x], POISON);
      g_free (src);
      g_free (block);
    }
  }
}

GST_END_TEST;

/* Between two host pointers gst_cl_copy_plane_on() copies at once, by the
 * CPU, whatever queue it is given. */
GST_START_TEST (test_copy_plane_on_host)
{
  check_host_copy (33, 7, 40, 48, TRUE);
  check_host_copy (1921, 1087, 2048, 1984, TRUE);
}

GST_END_TEST;

static Suite *
clcopy_suite (void)
{
  Suite *s = suite_create ("clcopy");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_host_copy_small);
  tcase_add_test (tc, test_host_copy_split);
  tcase_add_test (tc, test_host_copy_pinned);
  tcase_add_test (tc, test_host_copy_run);
  tcase_add_test (tc, test_copy_plane_on_host);
  return s;
}

GST_CHECK_MAIN (clcopy);
