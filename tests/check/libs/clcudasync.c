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


/* The element's CUDA stream ordered after the producers of stream-ordered
 * CUDA memory (gst/gstclcudasync.c), with GStreamer 1.24's libgstcuda and
 * the CUDA driver both faked: libfakegstcuda (loaded first, under
 * libgstcuda's soname, as nvcodec loads the real one) and libfakecudastreams
 * (GST_CL_CUDA_LIBRARY), which logs the calls that order streams. Flagged
 * memory makes the element's stream wait for an event recorded on the
 * memory's stream, with no host wait; unflagged memory makes no call; where
 * the event cannot be recorded, the host waits (gst_cuda_memory_sync). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gmodule.h>

#include "gstclcudasync-private.h"

#define PRODUCER ((gpointer) 0x100)
#define OURS ((gpointer) 0x200)
#define CONTEXT ((gpointer) 0x300)
#define BAD_STREAM ((gpointer) 0xbad)   /* fakecuda.c's FAKECUDA_BAD_STREAM */

typedef GstMemory *(*MemoryNew) (gpointer stream, gboolean need_sync);
typedef guint (*SyncCount) (void);
typedef gchar *(*TakeLog) (void);

static MemoryNew fake_memory_new;
static SyncCount fake_sync_count;
static TakeLog fake_take_log;

/* A symbol of the module named by the environment variable @variable. */
static gpointer
fake_symbol (const gchar * variable, const gchar * name)
{
  const gchar *path = g_getenv (variable);
  gpointer symbol = NULL;
  GModule *module;

  /* before the tests run: no check assertions yet */
  if (!path)
    g_error ("%s is not set (meson sets it)", variable);
  module = g_module_open (path, G_MODULE_BIND_LAZY);
  if (!module || !g_module_symbol (module, name, &symbol))
    g_error ("%s: %s", path, g_module_error ());
  return symbol;
}

/* Waits for @buffer's producers: the driver's calls must be @expected, the
 * host waits so far @host_waits. */
static void
check_wait (GstBuffer * buffer, const gchar * expected, guint host_waits)
{
  gchar *calls;

  g_free (fake_take_log ());
  gst_cl_cuda_sync_wait_producers (buffer, CONTEXT, OURS);
  calls = fake_take_log ();
  fail_unless_equals_string (calls, expected);
  fail_unless_equals_int (fake_sync_count (), host_waits);
  g_free (calls);
}

/* A buffer of @mem. */
static GstBuffer *
buffer_of (GstMemory * mem)
{
  GstBuffer *buffer = gst_buffer_new ();

  gst_buffer_append_memory (buffer, mem);
  return buffer;
}

static gchar *
expected_wait (gpointer producer)
{
  return g_strdup_printf ("push %p; create event 1; record event 1 on %p; "
      "%p waits for event 1; destroy event 1; pop; ", CONTEXT, producer, OURS);
}

GST_START_TEST (test_flagged_waits_on_device)
{
  GstBuffer *buffer = buffer_of (fake_memory_new (PRODUCER, TRUE));
  gchar *expected = expected_wait (PRODUCER);

  check_wait (buffer, expected, 0);
  /* the producer's memory stays flagged for its other readers */
  fail_unless (GST_MEMORY_FLAG_IS_SET (gst_buffer_peek_memory (buffer, 0),
          GST_CL_CUDA_MEMORY_NEED_SYNC));
  g_free (expected);
  gst_buffer_unref (buffer);
}

GST_END_TEST;

GST_START_TEST (test_unflagged_no_call)
{
  GstBuffer *buffer = buffer_of (fake_memory_new (PRODUCER, FALSE));

  check_wait (buffer, "", 0);
  gst_buffer_unref (buffer);
}

GST_END_TEST;

/* The flag's bit on memory that is not CUDA memory means something else. */
GST_START_TEST (test_system_memory_no_call)
{
  GstMemory *mem = gst_allocator_alloc (NULL, 64, NULL);
  GstBuffer *buffer;

  GST_MINI_OBJECT_FLAG_SET (mem, GST_CL_CUDA_MEMORY_NEED_SYNC);
  buffer = buffer_of (mem);
  check_wait (buffer, "", 0);
  gst_buffer_unref (buffer);
}

GST_END_TEST;

/* Of a buffer's memories, the flagged one alone is waited for. */
GST_START_TEST (test_flagged_of_several)
{
  GstBuffer *buffer = buffer_of (fake_memory_new ((gpointer) 0x111, FALSE));
  gchar *expected = expected_wait (PRODUCER);

  gst_buffer_append_memory (buffer, fake_memory_new (PRODUCER, TRUE));
  check_wait (buffer, expected, 0);
  g_free (expected);
  gst_buffer_unref (buffer);
}

GST_END_TEST;

/* cuEventRecord fails: the host waits instead, once, and the flag is gone. */
GST_START_TEST (test_host_wait_fallback)
{
  GstBuffer *buffer = buffer_of (fake_memory_new (BAD_STREAM, TRUE));
  gchar *expected = g_strdup_printf ("push %p; create event 1; "
      "destroy event 1; pop; ", CONTEXT);

  check_wait (buffer, expected, 1);
  fail_if (GST_MEMORY_FLAG_IS_SET (gst_buffer_peek_memory (buffer, 0),
          GST_CL_CUDA_MEMORY_NEED_SYNC));
  g_free (expected);
  gst_buffer_unref (buffer);
}

GST_END_TEST;

/* Output the element has finished writing needs no sync downstream. */
GST_START_TEST (test_mark_finished)
{
  GstBuffer *buffer = buffer_of (fake_memory_new (PRODUCER, TRUE));

  gst_cl_cuda_sync_mark_finished (buffer);
  fail_if (GST_MEMORY_FLAG_IS_SET (gst_buffer_peek_memory (buffer, 0),
          GST_CL_CUDA_MEMORY_NEED_SYNC));
  gst_buffer_unref (buffer);
}

GST_END_TEST;

static Suite *
clcudasync_suite (void)
{
  Suite *s = suite_create ("clcudasync");
  TCase *tc = tcase_create ("general");

  /* before anything looks libgstcuda up */
  fake_memory_new = fake_symbol ("CLCUDA_FAKE_GSTCUDA",
      "fakegstcuda_memory_new");
  fake_sync_count = fake_symbol ("CLCUDA_FAKE_GSTCUDA",
      "fakegstcuda_sync_count");
  fake_take_log = fake_symbol ("GST_CL_CUDA_LIBRARY", "fakecuda_take_log");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_flagged_waits_on_device);
  tcase_add_test (tc, test_unflagged_no_call);
  tcase_add_test (tc, test_system_memory_no_call);
  tcase_add_test (tc, test_flagged_of_several);
  tcase_add_test (tc, test_host_wait_fallback);
  tcase_add_test (tc, test_mark_finished);
  return s;
}

GST_CHECK_MAIN (clcudasync);
