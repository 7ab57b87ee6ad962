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
 * over after an even split), between padded pitches, every row's bytes
 * and nothing past them, counted as host copy bytes; and the copy between
 * two host pointers that gst_cl_copy_plane_on() makes at once, with no
 * event. Needs no OpenCL device. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/check/gstcheck.h>

#include "gstclcopy-private.h"

#define POISON 0xa5

/* @rows rows of @row_bytes from a source of @src_pitch into a destination
 * of @dst_pitch, poisoned first: each row the source's bytes, the padding
 * after it still poisoned. */
static void
check_host_copy (gsize row_bytes, gsize rows, gint src_pitch, gint dst_pitch,
    gboolean through_queue_call)
{
  GRand *rand = g_rand_new_with_seed (row_bytes * 31 + rows);
  guint8 *src = g_malloc ((gsize) src_pitch * rows);
  guint8 *dst = g_malloc ((gsize) dst_pitch * rows + 64);
  GstClPlaneRef from = {.kind = GST_CL_PLANE_MAPPED,.host = src,.pitch =
        src_pitch
  };
  GstClPlaneRef to = {.kind = GST_CL_PLANE_MAPPED,.host = dst,.pitch = dst_pitch
  };
  const GstClPlaneCopy copy = { &from, &to, row_bytes, rows };
  GstClTransferStats stats = { 0, };
  gsize i, y;

  for (i = 0; i < (gsize) src_pitch * rows; i++)
    src[i] = g_rand_int (rand);
  memset (dst, POISON, (gsize) dst_pitch * rows + 64);
  if (through_queue_call) {
    cl_event event = (cl_event) 1;
    GError *error = NULL;

    fail_unless (gst_cl_copy_plane_on (NULL, &copy, 0, NULL, &event, &stats,
            &error));
    fail_unless (event == NULL, "an event for a copy made at once");
  } else {
    gst_cl_copy_host_plane (&copy, &stats);
  }
  for (y = 0; y < rows; y++) {
    const guint8 *row = dst + y * dst_pitch;

    fail_unless (memcmp (row, src + y * src_pitch, row_bytes) == 0,
        "%" G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT ": row %" G_GSIZE_FORMAT
        " differs", row_bytes, rows, y);
    for (i = row_bytes; i < (gsize) dst_pitch; i++)
      fail_unless_equals_int (row[i], POISON);
  }
  for (i = 0; i < 64; i++)
    fail_unless_equals_int (dst[(gsize) dst_pitch * rows + i], POISON);
  fail_unless_equals_uint64 (stats.host_copy_bytes, (guint64) row_bytes * rows);
  fail_unless_equals_uint64 (stats.upload_bytes + stats.download_bytes +
      stats.device_copy_bytes, 0);
  g_free (src);
  g_free (dst);
  g_rand_free (rand);
}

/* Planes of a few rows and of one row: copied by the calling thread. */
GST_START_TEST (test_host_copy_small)
{
  check_host_copy (1, 1, 1, 1, FALSE);
  check_host_copy (17, 3, 32, 20, FALSE);
  check_host_copy (640, 480, 640, 704, FALSE);
}

GST_END_TEST;

/* Planes past the split (a megabyte and more), of row counts that no
 * number of threads divides evenly (1087 is prime): every row is copied,
 * the last ones too. */
GST_START_TEST (test_host_copy_split)
{
  check_host_copy (1921, 1087, 2048, 1984, FALSE);
  check_host_copy (3840, 2161, 3840, 3840, FALSE);
  check_host_copy (4096, 257, 4096, 4160, FALSE);
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
  tcase_add_test (tc, test_copy_plane_on_host);
  return s;
}

GST_CHECK_MAIN (clcopy);
