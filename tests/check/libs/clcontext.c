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

/* A context's siblings (gstclcontext.c): one OpenCL context and device,
 * queues of their own, and memory of either taken as memory of both. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "fixture.h"
#include "robust.h"
#include "gstclmemory-private.h"

GST_START_TEST (test_sibling_has_own_queues)
{
  GError *error = NULL;
  GstClContext *sibling = gst_cl_context_new_sibling (fixture_context, &error);

  fail_unless (sibling != NULL, "%s", error ? error->message : "?");
  fail_unless (gst_cl_context_get_handle (sibling) ==
      gst_cl_context_get_handle (fixture_context));
  fail_unless (gst_cl_context_get_device (sibling) ==
      gst_cl_context_get_device (fixture_context));
  fail_unless (gst_cl_context_get_queue (sibling) !=
      gst_cl_context_get_queue (fixture_context));
  fail_unless (gst_cl_context_get_host_queue (sibling) !=
      gst_cl_context_get_host_queue (fixture_context));
  fail_unless (gst_cl_context_get_host_queue (sibling) !=
      gst_cl_context_get_queue (sibling));
  /* what the element tells and the paths it takes stay the shared one's */
  fail_unless_equals_string (gst_cl_context_get_device_name (sibling),
      gst_cl_context_get_device_name (fixture_context));
  fail_unless_equals_string (gst_cl_context_get_identity (sibling),
      gst_cl_context_get_identity (fixture_context));
  fail_unless_equals_int (gst_cl_context_is_host_unified (sibling),
      gst_cl_context_is_host_unified (fixture_context));
  fail_unless (gst_cl_context_is_sibling (sibling, fixture_context));
  fail_unless (gst_cl_context_is_sibling (fixture_context, sibling));
  fail_unless (gst_cl_context_is_sibling (sibling, sibling));
  gst_object_unref (sibling);
}

GST_END_TEST;

/* An OpenCL context is in use while any of its GstClContexts lives: a
 * sibling keeps it so after the one it was made from is gone; each has a
 * serial of its own. */
GST_START_TEST (test_handle_in_use)
{
  GstClContext *made = gst_cl_context_new (rt_device (), NULL);
  GstClContext *sibling;
  cl_context handle;

  fail_unless (made != NULL);
  handle = gst_cl_context_get_handle (made);
  sibling = gst_cl_context_new_sibling (made, NULL);
  fail_unless (sibling != NULL);
  fail_unless (gst_cl_context_get_serial (sibling) !=
      gst_cl_context_get_serial (made));
  fail_unless (gst_cl_context_get_serial (made) !=
      gst_cl_context_get_serial (fixture_context));
  fail_unless (gst_cl_context_handle_in_use (handle));
  /* the handle stays valid here: the sibling holds it */
  gst_object_unref (made);
  fail_unless (gst_cl_context_handle_in_use (handle));
  fail_unless (gst_cl_context_handle_in_use (gst_cl_context_get_handle
          (fixture_context)));
  clRetainContext (handle);
  gst_object_unref (sibling);
  fail_if (gst_cl_context_handle_in_use (handle));
  clReleaseContext (handle);
}

GST_END_TEST;

/* A buffer of the sibling's allocator, written on the sibling's queue and
 * read on the shared context's after that write's event: memory of both;
 * not memory of a context of its own on the same device. */
GST_START_TEST (test_sibling_memory)
{
  GError *error = NULL, *error_apart = NULL;
  GstClContext *sibling = gst_cl_context_new_sibling (fixture_context, &error);
  GstClContext *apart = gst_cl_context_new (rt_device (), &error_apart);
  GstAllocator *allocator;
  GstMemory *mem;
  guint8 data[256], back[256];
  cl_event written = NULL;
  guint i;

  fail_unless (sibling != NULL, "%s", error ? error->message : "?");
  fail_unless (apart != NULL, "%s", error_apart ? error_apart->message : "?");
  fail_if (gst_cl_context_is_sibling (apart, fixture_context));
  allocator = gst_cl_allocator_new (sibling, TRUE);
  mem = gst_allocator_alloc (allocator, sizeof (data), NULL);
  fail_unless (mem != NULL);
  fail_unless (gst_is_cl_memory (mem, sibling));
  fail_unless (gst_is_cl_memory (mem, fixture_context));
  fail_if (gst_is_cl_memory (mem, apart));

  for (i = 0; i < sizeof (data); i++)
    data[i] = i * 7 + 3;
  memset (back, 0, sizeof (back));
  fail_unless_equals_int (clEnqueueWriteBuffer (gst_cl_context_get_queue
          (sibling), gst_cl_memory_get_buffer (mem), CL_FALSE, mem->offset,
          sizeof (data), data, 0, NULL, &written), CL_SUCCESS);
  /* a wait on another queue's event needs that queue flushed (OpenCL 1.2,
   * 5.13) */
  fail_unless_equals_int (clFlush (gst_cl_context_get_queue (sibling)),
      CL_SUCCESS);
  fail_unless_equals_int (clEnqueueReadBuffer (gst_cl_context_get_queue
          (fixture_context), gst_cl_memory_get_buffer (mem), CL_TRUE,
          mem->offset, sizeof (back), back, 1, &written, NULL), CL_SUCCESS);
  fail_unless (memcmp (data, back, sizeof (data)) == 0);

  clReleaseEvent (written);
  gst_memory_unref (mem);
  gst_object_unref (allocator);
  gst_object_unref (apart);
  gst_object_unref (sibling);
}

GST_END_TEST;

static gboolean
is_device (cl_device_id device, gpointer wanted)
{
  return device == wanted;
}

static gboolean
no_device (cl_device_id device, gpointer unused)
{
  return FALSE;
}

/* gst_cl_context_narrow_spec() gives @expected (NULL: none). */
static void
assert_narrowed (const gchar * spec, GstClDeviceFilter filter, gpointer data,
    const gchar * expected)
{
  gchar *narrowed = gst_cl_context_narrow_spec (spec, filter, data);

  fail_unless_equals_string (narrowed, expected);
  g_free (narrowed);
}

/* A context without OpenCL (NVIDIA MPS): the device, its name and the
 * identity that keys the caches as with OpenCL, no context or queues; its
 * siblings are siblings; its buffers host memory, zeroed, written, read and
 * filled in place, an access past the end refused with a message. */
GST_START_TEST (test_without_opencl)
{
  GstClContext *without = gst_cl_context_new_without_opencl (rt_device (),
      NULL);
  GstClContext *sibling;
  const guint32 pattern = 0xa5a55a5a;
  guint8 bytes[64], expected[64] = { 0 };
  GError *error = NULL;
  gsize size = 0;
  cl_mem mem;
  guint i;

  fail_unless (without != NULL);
  fail_if (gst_cl_context_has_opencl (without));
  fail_unless (gst_cl_context_has_opencl (fixture_context));
  fail_unless (gst_cl_context_get_handle (without) == NULL);
  fail_unless (gst_cl_context_get_queue (without) == NULL);
  fail_unless (gst_cl_context_get_host_queue (without) == NULL);
  fail_unless (gst_cl_context_get_device (without) ==
      gst_cl_context_get_device (fixture_context));
  fail_unless_equals_string (gst_cl_context_get_identity (without),
      gst_cl_context_get_identity (fixture_context));
  fail_unless_equals_string (gst_cl_context_get_device_name (without),
      gst_cl_context_get_device_name (fixture_context));
  fail_if (gst_cl_context_is_host_unified (without));
  fail_if (gst_cl_context_is_sibling (without, fixture_context));
  sibling = gst_cl_context_new_sibling (without, &error);
  fail_unless (sibling != NULL, "%s", error ? error->message : "");
  fail_if (gst_cl_context_has_opencl (sibling));
  fail_unless (gst_cl_context_get_queue (sibling) == NULL);
  fail_unless (gst_cl_context_is_sibling (sibling, without));

  mem = gst_cl_context_create_buffer (without, CL_MEM_READ_WRITE, 64, "test",
      &error);
  fail_unless (mem != NULL, "%s", error ? error->message : "");
  fail_unless (gst_cl_context_get_buffer_size (without, mem, &size, NULL));
  fail_unless_equals_uint64 (size, 64);
  memset (bytes, 1, sizeof (bytes));
  fail_unless (gst_cl_context_read_buffer (without, mem, 0, 64, bytes, "test",
          NULL));
  fail_unless (memcmp (bytes, expected, 64) == 0);

  fail_unless (gst_cl_context_fill_buffer (without, mem, &pattern, 4, 32,
          "test", NULL));
  for (i = 0; i < 32; i += 4)
    memcpy (expected + i, &pattern, 4);
  memset (bytes, 0xff, 8);
  fail_unless (gst_cl_context_write_buffer (without, mem, 60, 4, bytes,
          "test", NULL));
  memset (expected + 60, 0xff, 4);
  fail_unless (gst_cl_context_read_buffer (without, mem, 0, 64, bytes, "test",
          NULL));
  fail_unless (memcmp (bytes, expected, 64) == 0);

  fail_if (gst_cl_context_write_buffer (without, mem, 61, 4, bytes, "past",
          &error));
  fail_unless (error && strstr (error->message, "past: bytes 61 to 65 of a "
          "buffer of 64"), "%s", error ? error->message : "(no error)");
  g_clear_error (&error);
  fail_if (gst_cl_context_read_buffer (without, mem, 65, 0, bytes, "past",
          NULL));
  fail_if (gst_cl_context_fill_buffer (without, mem, &pattern, 4, 68, "past",
          NULL));
  /* nothing written by the refused calls */
  fail_unless (gst_cl_context_read_buffer (without, mem, 0, 64, bytes, "test",
          NULL));
  fail_unless (memcmp (bytes, expected, 64) == 0);

  gst_cl_context_release_buffer (without, mem);
  gst_object_unref (sibling);
  gst_object_unref (without);
}

GST_END_TEST;

/* How device=auto, or a text, comes to take the GPU that decodes
 * (gst_cl_cuda_follow_upstream()): of the devices the "device" string
 * could choose, the one a filter accepts, as its index. */
GST_START_TEST (test_narrow_spec)
{
  cl_device_id device = gst_cl_context_get_device (fixture_context);
  gchar *index = gst_cl_context_narrow_spec ("auto", is_device, device);
  gchar *name = g_strdup (gst_cl_context_get_device_name (fixture_context));
  GError *error = NULL;
  GstClContext *again;

  fail_unless (index != NULL);
  /* the index is a "device" string of that very device */
  again = gst_cl_context_new (index, &error);
  fail_unless (again != NULL, "%s", error ? error->message : "");
  fail_unless (gst_cl_context_get_device (again) == device);
  fail_unless (gst_cl_context_matches (again, index));
  gst_object_unref (again);

  assert_narrowed (NULL, is_device, device, index);
  assert_narrowed ("", is_device, device, index);
  assert_narrowed (index, is_device, device, index);
  /* "DEVICE (PLATFORM)": the device's name names it */
  *strstr (name, " (") = '\0';
  assert_narrowed (name, is_device, device, index);
  /* a string that cannot choose it, or a filter that takes none */
  assert_narrowed ("no-such-opencl-device", is_device, device, NULL);
  assert_narrowed ("9999", is_device, device, NULL);
  assert_narrowed ("auto", no_device, NULL, NULL);
  assert_narrowed (name, no_device, NULL, NULL);
  g_free (name);
  g_free (index);
}

GST_END_TEST;

static Suite *
clcontext_suite (void)
{
  Suite *s = suite_create ("clcontext");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, fixture_setup, fixture_teardown);
  tcase_add_test (tc, test_sibling_has_own_queues);
  tcase_add_test (tc, test_handle_in_use);
  tcase_add_test (tc, test_sibling_memory);
  tcase_add_test (tc, test_narrow_spec);
  tcase_add_test (tc, test_without_opencl);
  return s;
}

GST_CHECK_MAIN (clcontext);
