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

/* Frames (gst/gstclframe.c) on their own: gst_cl_frame_open() and
 * gst_cl_frame_close() on buffers of system memory (aligned, at an odd
 * address, padded strides in a GstVideoMeta, planes in two memories), of
 * the element's OpenCL memory (its pool, host-visible and device-resident,
 * planes shared from two buffers) and wrapped memory: each plane's kind,
 * offset and pitch, and the bytes each plane reference reaches read back
 * through gst_cl_copy_plane_on() against the input; undersized buffers
 * refused. The kinds expected follow the device's memory (host-unified,
 * fine-grained SVM, GST_CL_DISCRETE=1, GST_CL_SVM=0). The device is
 * $CLEPSILON_TEST_DEVICE (default "pocl"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <string.h>

#include "gstclbufferpool-private.h"
#include "gstclcopy-private.h"
#include "gstclframe-private.h"
#include "gstclmemory-private.h"
#include "robust.h"
#include "fixture.h"

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_I420_10LE,
};

/* The kind a plane of one system memory at @data is opened as. */
static GstClPlaneKind
system_kind (gconstpointer data)
{
  if (gst_cl_context_is_host_unified (fixture_context) &&
      (guintptr) data % gst_cl_context_get_host_ptr_align (fixture_context) ==
      0)
    return GST_CL_PLANE_WRAPPED;
  return GST_CL_PLANE_MAPPED;
}

/* The kind the planes of one memory of our host-visible pool are. */
static GstClPlaneKind
pool_kind (void)
{
  if (!gst_cl_context_is_host_unified (fixture_context))
    return GST_CL_PLANE_PINNED;
  return gst_cl_context_has_fine_svm (fixture_context) ? GST_CL_PLANE_SVM :
      GST_CL_PLANE_HOST_BUFFER;
}

/* Checks every plane of @frame: @kind, a cl_mem exactly for the kinds that
 * are OpenCL buffers, the pitch and offset (from @buffer's start) of @meta or
 * @info, and the bytes the reference reaches, read back by
 * gst_cl_copy_plane_on() into host memory, against @buffer's own bytes. */
static void
check_planes (const GstClFrame * frame, const GstVideoInfo * info,
    GstBuffer * buffer, GstClPlaneKind kind, const gchar * what)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  cl_command_queue queue = gst_cl_context_get_queue (fixture_context);
  GstMapInfo map;
  guint8 *bytes;
  gsize size;
  guint i;

  /* where one memory of system memory is, and the bytes of the buffer as
   * the CPU sees them (a copy: a map of an OpenCL memory must not stay
   * open while commands read it) */
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  gst_buffer_unmap (buffer, &map);
  gst_buffer_extract_dup (buffer, 0, gst_buffer_get_size (buffer),
      (gpointer *) & bytes, &size);
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    const GstClPlaneRef *ref = &frame->planes[i];
    gsize offset = meta ? meta->offset[i] : info->offset[i];
    gint pitch = meta ? meta->stride[i] : info->stride[i];
    GstClPlaneRef host = {.kind = GST_CL_PLANE_MAPPED };
    GstClTransferStats stats = { 0, };
    GError *error = NULL;
    gsize row_bytes, rows, y;
    guint8 *got;

    fixture_plane_extent (info, i, &row_bytes, &rows);
    fail_unless_equals_int (ref->kind, kind);
    fail_unless_equals_int (ref->pitch, pitch);
    if (kind == GST_CL_PLANE_MAPPED || kind == GST_CL_PLANE_PINNED) {
      fail_unless (ref->mem == NULL && ref->host != NULL, "%s plane %u",
          what, i);
    } else {
      fail_unless (ref->mem != NULL, "%s plane %u: no cl_mem", what, i);
      fail_unless (ref->host == NULL, "%s plane %u: a host pointer", what, i);
    }
    if (kind == GST_CL_PLANE_WRAPPED) {
      fail_unless (ref->mem == frame->wrapped);
      fail_unless_equals_uint64 (ref->offset, offset);
    } else if (ref->mem) {
      GstMemory *mem = gst_buffer_peek_memory (buffer, 0);

      fail_unless (ref->mem == gst_cl_memory_get_buffer (mem));
      fail_unless_equals_uint64 (ref->offset, mem->offset + offset);
    } else if (kind == GST_CL_PLANE_MAPPED && gst_buffer_n_memory (buffer) == 1) {
      /* one memory: mapped in place, the plane at its offset */
      fail_unless (ref->host == map.data + offset, "%s plane %u: %p, "
          "not %p", what, i, ref->host, map.data + offset);
    }

    got = g_malloc (row_bytes * rows);
    host.host = got;
    host.pitch = row_bytes;
    fail_unless (gst_cl_copy_plane_on (queue, &(GstClPlaneCopy) {
            ref, &host, row_bytes, rows}
            , 0, NULL, NULL, &stats, &error),
        "%s plane %u: %s", what, i, error ? error->message : "");
    fail_unless (clFinish (queue) == CL_SUCCESS);
    for (y = 0; y < rows; y++)
      fail_unless (memcmp (got + y * row_bytes,
              bytes + offset + y * pitch, row_bytes) == 0,
          "%s: plane %u row %" G_GSIZE_FORMAT " differs", what, i, y);
    g_free (got);
  }
  g_free (bytes);
}

/* Opens @buffer for reading, checks its planes as check_planes() does and
 * closes it. */
static void
check_open (const GstVideoInfo * info, GstBuffer * buffer,
    GstClPlaneKind kind, const gchar * what)
{
  GstClFrame frame;
  GError *error = NULL;

  fail_unless (gst_cl_frame_open (&frame, fixture_context, info, buffer,
          GST_MAP_READ, &error), "%s: %s", what, error ? error->message : "");
  fail_unless (frame.buffer == buffer);
  check_planes (&frame, info, buffer, kind, what);
  gst_cl_frame_close (&frame);
  fail_unless (frame.wrapped == NULL && !frame.frame_mapped &&
      frame.map.memory == NULL && frame.n_pending == 0, "%s: not closed", what);
}

/* System memory: aligned (wrapped where the device shares host memory),
 * at an odd address (mapped), with padded strides and gaps in a video meta,
 * for every format at odd sizes. */
GST_START_TEST (test_system_memory)
{
  GRand *rand = g_rand_new_with_seed (0x4a11);
  gsize align = gst_cl_context_get_host_ptr_align (fixture_context) - 1;
  guint f;

  RT_FOR_EACH_FORMAT (f, formats) {
    const gchar *name = gst_video_format_to_string (formats[f]);
    GstVideoInfo info;
    GstBuffer *buf;
    GstMapInfo map;
    gchar *what;

    gst_video_info_set_format (&info, formats[f], 37, 23);

    buf = rt_make_input (&info, rand, align, FALSE);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    gst_buffer_unmap (buf, &map);
    fail_unless_equals_int (system_kind (map.data),
        gst_cl_context_is_host_unified (fixture_context) ?
        GST_CL_PLANE_WRAPPED : GST_CL_PLANE_MAPPED);
    what = g_strdup_printf ("%s aligned", name);
    check_open (&info, buf, system_kind (map.data), what);
    g_free (what);
    gst_buffer_unref (buf);

    buf = rt_make_input (&info, rand, 0, TRUE);
    what = g_strdup_printf ("%s at an odd address", name);
    check_open (&info, buf, GST_CL_PLANE_MAPPED, what);
    g_free (what);
    gst_buffer_unref (buf);

    buf = rt_make_padded_input (&info, rand, 11, 5, 0xa5);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    gst_buffer_unmap (buf, &map);
    what = g_strdup_printf ("%s padded", name);
    check_open (&info, buf, system_kind (map.data), what);
    g_free (what);
    gst_buffer_unref (buf);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* Wrapped memory: a buffer around memory of our own, used from an offset
 * into it (GstMemory's offset), and planes split over two memories (never
 * wrapped: mapped, or merged into one map). */
GST_START_TEST (test_wrapped_memory)
{
  GRand *rand = g_rand_new_with_seed (0x77aa);
  gsize align = gst_cl_context_get_host_ptr_align (fixture_context);
  GstVideoInfo info;
  GstBuffer *buf, *split;
  GstMapInfo map;
  guint8 *data;
  gsize i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 33, 19);
  data = g_malloc (info.size + 2 * align + 64);
  for (i = 0; i < info.size + 2 * align + 64; i++)
    data[i] = g_rand_int (rand);
  /* from an aligned address inside the allocation, through the memory's
   * offset */
  {
    gsize skip = align - (guintptr) data % align;

    buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, data,
        info.size + 2 * align + 64, skip, info.size, NULL, NULL);
    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    fail_unless (map.data == data + skip);
    gst_buffer_unmap (buf, &map);
    check_open (&info, buf, system_kind (data + skip), "wrapped, aligned");
    gst_buffer_unref (buf);

    buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, data,
        info.size + 2 * align + 64, skip + 1, info.size, NULL, NULL);
    check_open (&info, buf, GST_CL_PLANE_MAPPED, "wrapped, one byte on");
    gst_buffer_unref (buf);
  }

  /* luma in one memory, chroma in another */
  split = gst_buffer_new ();
  gst_buffer_append_memory (split, gst_memory_new_wrapped
      (GST_MEMORY_FLAG_READONLY, data, info.offset[1], 0, info.offset[1],
          NULL, NULL));
  gst_buffer_append_memory (split, gst_memory_new_wrapped
      (GST_MEMORY_FLAG_READONLY, data + info.offset[1],
          info.size - info.offset[1], 0, info.size - info.offset[1], NULL,
          NULL));
  check_open (&info, split, GST_CL_PLANE_MAPPED, "two memories");
  gst_buffer_unref (split);
  g_free (data);
  g_rand_free (rand);
}

GST_END_TEST;

/* The element's OpenCL memory: host-visible (SVM, mapped per use, or
 * pinned on a discrete device) and device-resident, with and without
 * padded rows; one memory of the context, which the frame names. */
GST_START_TEST (test_cl_memory)
{
  GRand *rand = g_rand_new_with_seed (0xc1f0);
  guint f, pad, resident;

  RT_FOR_EACH_FORMAT (f, formats) {
    for (resident = 0; resident < 2; resident++) {
      for (pad = 0; pad <= 9; pad += 9) {
        GstVideoInfo info;
        GstBufferPool *pool;
        GstBuffer *buf;
        GstClFrame frame;
        GError *error = NULL;
        gchar *what;

        gst_video_info_set_format (&info, formats[f], 41, 27);
        pool = fixture_cl_pool (&info, resident, pad);
        buf = fixture_pool_frame (pool, rand);
        fail_unless (gst_buffer_n_memory (buf) == 1);
        fail_unless (gst_is_cl_memory (gst_buffer_peek_memory (buf, 0),
                fixture_context));
        if (pad)
          fail_unless (gst_buffer_get_video_meta (buf)->stride[0] >
              info.stride[0], "no padding in the pool's layout");
        what = g_strdup_printf ("%s %s pad %u",
            gst_video_format_to_string (formats[f]),
            resident ? "device-resident" : "host-visible", pad);
        fail_unless (gst_cl_frame_open (&frame, fixture_context, &info, buf,
                GST_MAP_READ, &error), "%s: %s", what,
            error ? error->message : "");
        fail_unless (frame.all_cl_memory, "%s", what);
        fail_unless (frame.cl_memory == gst_buffer_peek_memory (buf, 0));
        check_planes (&frame, &info, buf, resident ? GST_CL_PLANE_DEVICE :
            pool_kind (), what);
        if (pool_kind () == GST_CL_PLANE_PINNED && !resident)
          fail_unless (frame.planes[0].host ==
              gst_cl_memory_get_pinned_host (frame.cl_memory) +
              frame.cl_memory->offset);
        gst_cl_frame_close (&frame);
        g_free (what);
        gst_buffer_unref (buf);
        fixture_free_pool (pool);
      }
    }
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* Planes shared from two buffers of our pool (what an element that shares
 * its input's untouched planes gives): each plane in its own pinned memory
 * on a discrete device; mapped elsewhere (several memories are never one
 * OpenCL buffer). */
GST_START_TEST (test_shared_planes)
{
  GRand *rand = g_rand_new_with_seed (0x5ba2);
  GstVideoInfo info;
  GstBufferPool *pool;
  GstBuffer *a, *b;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 38, 22);
  pool = fixture_cl_pool (&info, FALSE, 0);
  a = fixture_pool_frame (pool, rand);
  b = fixture_pool_frame (pool, rand);
  /* a's luma, then b's chroma */
  {
    GstBuffer *split = gst_buffer_new ();
    GstMemory *ma = gst_buffer_peek_memory (a, 0);
    GstMemory *mb = gst_buffer_peek_memory (b, 0);

    gst_buffer_append_memory (split, gst_memory_share (ma, 0, info.offset[1]));
    gst_buffer_append_memory (split, gst_memory_share (mb, info.offset[1],
            info.size - info.offset[1]));
    fail_unless_equals_int (gst_buffer_get_size (split), info.size);
    check_open (&info, split, pool_kind () == GST_CL_PLANE_PINNED ?
        GST_CL_PLANE_PINNED : GST_CL_PLANE_MAPPED, "planes of two buffers");
    gst_buffer_unref (split);
  }
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  fixture_free_pool (pool);
  g_rand_free (rand);
}

GST_END_TEST;

/* Opening @buffer fails with a stream format error, and leaves nothing
 * open. */
static void
check_refused (const GstVideoInfo * info, GstBuffer * buffer,
    GstMapFlags flags, const gchar * what)
{
  GstClFrame frame;
  GError *error = NULL;

  fail_if (gst_cl_frame_open (&frame, fixture_context, info, buffer, flags,
          &error), "%s: opened", what);
  fail_unless (error != NULL, "%s: no error", what);
  fail_unless (g_error_matches (error, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FORMAT), "%s: %s", what, error->message);
  fail_unless (frame.wrapped == NULL && !frame.frame_mapped &&
      frame.map.memory == NULL && frame.n_pending == 0, "%s: left open", what);
  g_error_free (error);
}

/* Undersized buffers: one byte short of the last row of the last plane
 * (which needs no padding after it: that size is taken), a video meta
 * whose stride is below a row or whose planes run past the end, a meta of
 * another format, no memory at all, and our pool's memory cut short. */
GST_START_TEST (test_undersized)
{
  GRand *rand = g_rand_new_with_seed (0x5e7d);
  guint f;

  RT_FOR_EACH_FORMAT (f, formats) {
    const gchar *name = gst_video_format_to_string (formats[f]);
    guint last;
    gsize row_bytes, rows, need;
    GstVideoInfo info;
    GstBufferPool *pool;
    GstBuffer *buf;
    GstVideoMeta *meta;
    GstMapFlags flags;
    gchar *what;

    gst_video_info_set_format (&info, formats[f], 37, 23);
    last = GST_VIDEO_INFO_N_PLANES (&info) - 1;
    fixture_plane_extent (&info, last, &row_bytes, &rows);
    need = info.offset[last] + info.stride[last] * (rows - 1) + row_bytes;
    fail_unless (need <= info.size);

    for (flags = GST_MAP_READ; flags <= GST_MAP_WRITE; flags <<= 1) {
      buf = rt_make_input (&info, rand, 0, TRUE);
      gst_buffer_resize (buf, 0, need);
      what = g_strdup_printf ("%s of exactly its rows", name);
      check_open (&info, buf, GST_CL_PLANE_MAPPED, what);
      g_free (what);
      gst_buffer_resize (buf, 0, need - 1);
      what = g_strdup_printf ("%s one byte short, flags %d", name, flags);
      check_refused (&info, buf, flags, what);
      g_free (what);
      gst_buffer_unref (buf);
    }

    /* a video meta whose stride is below the row */
    buf = rt_make_padded_input (&info, rand, 4, 0, 0);
    meta = gst_buffer_get_video_meta (buf);
    meta->stride[last] = row_bytes - 1;
    what = g_strdup_printf ("%s stride below a row", name);
    check_refused (&info, buf, GST_MAP_READ, what);
    g_free (what);
    /* planes past the end */
    meta->stride[last] = row_bytes + 4;
    meta->offset[last] = gst_buffer_get_size (buf) - row_bytes;
    what = g_strdup_printf ("%s last plane past the end", name);
    check_refused (&info, buf, GST_MAP_READ, what);
    g_free (what);
    /* a meta of another size */
    meta->offset[last] = 0;
    meta->width = 36;
    what = g_strdup_printf ("%s meta narrower than the caps", name);
    check_refused (&info, buf, GST_MAP_READ, what);
    g_free (what);
    gst_buffer_unref (buf);

    /* our pool's memory, cut short */
    pool = fixture_cl_pool (&info, FALSE, 0);
    buf = fixture_pool_frame (pool, rand);
    gst_buffer_resize (buf, 0, need - 1);
    what = g_strdup_printf ("%s pool memory one byte short", name);
    check_refused (&info, buf, GST_MAP_READ, what);
    g_free (what);
    gst_buffer_unref (buf);
    fixture_free_pool (pool);
  }

  {
    GstVideoInfo info;
    GstBuffer *empty = gst_buffer_new ();

    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 16, 16);
    check_refused (&info, empty, GST_MAP_READ, "no memory");
    gst_buffer_unref (empty);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
clframe_suite (void)
{
  Suite *s = suite_create ("clframe");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, fixture_setup, fixture_teardown);
  tcase_add_test (tc, test_system_memory);
  tcase_add_test (tc, test_wrapped_memory);
  tcase_add_test (tc, test_cl_memory);
  tcase_add_test (tc, test_shared_planes);
  tcase_add_test (tc, test_undersized);
  return s;
}

GST_CHECK_MAIN (clframe);
