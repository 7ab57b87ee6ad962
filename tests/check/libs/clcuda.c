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

/* The CUDA loader and the import checks (gst/gstclcuda.c) where CUDA is
 * missing or cannot be used: a library that is not there, one without the
 * driver's entry points, a driver whose cuInit fails (libfakecuda), and
 * PoCL, which cannot take CUDA's memory. Nothing may crash, and each "no"
 * says why. On a machine with CUDA the loader's own answer is printed and
 * the calls that need it are not made. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <string.h>

#include "gstclcontext-private.h"
#include "gstclcuda-private.h"

GST_START_TEST (test_missing_library)
{
  gchar *reason = NULL;

  fail_if (gst_cl_cuda_probe_library ("libgstcl-no-such-cuda.so.1", &reason));
  fail_unless (reason != NULL);
  fail_unless (strstr (reason, "libgstcl-no-such-cuda.so.1") != NULL,
      "%s", reason);
  g_free (reason);
}

GST_END_TEST;

/* A library that exists but is no CUDA driver: the first entry point that
 * is missing is named. */
GST_START_TEST (test_library_without_driver)
{
  gchar *reason = NULL;

  fail_if (gst_cl_cuda_probe_library ("libm.so.6", &reason));
  fail_unless (reason != NULL);
  fail_unless (strstr (reason, "lacks cuInit") != NULL, "%s", reason);
  g_free (reason);
}

GST_END_TEST;

GST_START_TEST (test_init_fails)
{
  const gchar *fake = g_getenv ("CLCUDA_FAKE_DRIVER");
  gchar *reason = NULL;

  fail_unless (fake != NULL, "CLCUDA_FAKE_DRIVER is not set (meson sets it)");
  fail_if (gst_cl_cuda_probe_library (fake, &reason));
  fail_unless_equals_string (reason,
      "cuInit failed: CUDA_ERROR_NO_DEVICE (100)");
  g_free (reason);
}

GST_END_TEST;

/* The process's own loader: loaded once, the same answer and reason every
 * time; without CUDA every call that needs it fails with that reason. */
GST_START_TEST (test_loader)
{
  const gchar *reason = NULL, *again = NULL;
  GError *err = NULL;
  guint8 uuid[16];
  gboolean loaded = gst_cl_cuda_load (&reason);

  fail_unless (gst_cl_cuda_load (&again) == loaded);
  fail_unless (reason == again);
  if (loaded) {
    GST_INFO ("CUDA is there: the calls that need a GPU are not made");
    fail_unless (gst_cl_cuda_symbol ("cuInit") != NULL);
  } else {
    fail_unless (reason != NULL && *reason != '\0');
    GST_INFO ("no CUDA: %s", reason);
    fail_unless (gst_cl_cuda_symbol ("cuInit") == NULL);

    fail_if (gst_cl_cuda_context_get_uuid (NULL, uuid, &err));
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND));
    fail_unless (strstr (err->message, reason) != NULL, "%s", err->message);
    g_clear_error (&err);
    fail_unless (gst_cl_cuda_pointer_get_context (0x1000, &err) == NULL);
    fail_unless (err != NULL);
    g_clear_error (&err);
  }
  gst_cl_cuda_pool_free (NULL);
}

GST_END_TEST;

/* PoCL has no CUDA device's UUID and imports nothing: it does not match,
 * and the reason names the device; without CUDA no pool is made for it. */
GST_START_TEST (test_pocl_does_not_match)
{
  static const guint8 uuid[16] = { 0 };
  GError *err = NULL;
  gchar *reason = NULL;
  GstClContext *ctx = gst_cl_context_new ("pocl", &err);
  GstClCudaPool *pool;

  fail_unless (ctx != NULL, "no PoCL device: %s", err ? err->message : "");
  fail_if (gst_cl_cuda_device_matches (gst_cl_context_get_device (ctx), uuid,
          &reason));
  fail_unless (reason != NULL);
  GST_INFO ("%s", reason);
  fail_unless (strstr (reason, "cannot take CUDA memory") != NULL, "%s",
      reason);
  g_free (reason);

  if (!gst_cl_cuda_load (NULL)) {
    pool = gst_cl_cuda_pool_new (NULL, gst_cl_context_get_handle (ctx),
        gst_cl_context_get_device (ctx), 2, 4096, &err);
    fail_unless (pool == NULL);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND));
    g_clear_error (&err);
  }
  gst_object_unref (ctx);
}

GST_END_TEST;

static Suite *
clcuda_suite (void)
{
  Suite *s = suite_create ("clcuda");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_missing_library);
  tcase_add_test (tc, test_library_without_driver);
  tcase_add_test (tc, test_init_fails);
  tcase_add_test (tc, test_loader);
  tcase_add_test (tc, test_pocl_does_not_match);
  return s;
}

GST_CHECK_MAIN (clcuda);
