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

/* Device faults: no OpenCL platform, a device name that matches nothing, a
 * program that fails to build, frames too large for the device's buffers,
 * and every OpenCL call of an element's life failing in turn, through
 * libclfault (tests/clfault), the test-only seam around the OpenCL API that
 * this test links. Each must end in GST_ELEMENT_ERROR naming the OpenCL step
 * and error (or, for the few calls whose failure the element can live with,
 * in right output), with no crash, no leak of OpenCL or GStreamer objects,
 * and no hang.
 *
 * Cases that need another OpenCL environment (no platform, a PoCL memory
 * limit) run this program again with that environment; the child runs only
 * the test it is given.
 *
 * The OpenCL device is taken from $CLEPSILON_TEST_DEVICE (default "pocl"). */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "../harness.h"
#include "../live.h"
#include "../../clfault/clfault.h"

#define CHILD_ENV "CLEPSILON_FAULTS_CHILD"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static GstElement *
make_element (const gchar * device)
{
  GstElement *e = th_make_element ();

  if (device)
    g_object_set (e, "device", device, NULL);
  g_object_set (e, "threshold", 20, "window-size", 5, "chroma-threshold", 10,
      NULL);
  th_plain_variants_under_valgrind (e);
  return e;
}

/* Fails unless starting @e fails with one ERROR whose text contains each of
 * the NULL-terminated strings; returns that text. Leaves @e in NULL. */
static gchar *
check_start_fails (GstElement * e, const gchar * ctx, ...)
{
  GstStateChangeReturn ret = rt_start (e);
  gchar *text = NULL;
  const gchar *want;
  va_list args;
  guint n;

  fail_unless (ret == GST_STATE_CHANGE_FAILURE, "%s: starting returned %s",
      ctx, gst_element_state_change_return_get_name (ret));
  n = rt_drain_errors (e, &text);
  fail_unless (n == 1, "%s: %u error messages", ctx, n);
  va_start (args, ctx);
  while ((want = va_arg (args, const gchar *)) != NULL)
      fail_unless (strstr (text, want) != NULL, "%s: the error \"%s\" does not "
        "say \"%s\"", ctx, text, want);
  va_end (args);
  fail_unless (gst_element_set_state (e, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  return text;
}

/* Drops @e's bus messages (they hold references to it) and unrefs it. */
static void
dispose_element (GstElement * e)
{
  GstBus *bus = gst_element_get_bus (e);

  gst_element_set_state (e, GST_STATE_NULL);
  if (bus) {
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
  }
  gst_object_unref (e);
}

/* Runs this program again with @var=@value and only @test (a child). */
static void
run_child (const gchar * test, const gchar * var, const gchar * value)
{
  rt_run_child (CHILD_ENV, test, var, value);
}

/* ------------------------------------------------------------------------ */
/* No platform, no such device, broken build, too large                     */

/* Child: OCL_ICD_VENDORS names an empty folder, so the ICD loader finds no
 * platform. The plugin loads, and the element fails to start, twice, with
 * a message saying what to install. */
GST_START_TEST (test_child_no_platform)
{
  Live before = live_now ();
  guint i;

  fail_unless (gst_element_factory_find ("clepsilon") != NULL,
      "the plugin did not load without an OpenCL platform");
  for (i = 0; i < 2; i++) {
    GstElement *e = make_element ("auto");
    gchar *text = check_start_fails (e, "no platform",
        "No OpenCL platform found", "install", NULL);

    GST_INFO ("%s", text);
    g_free (text);
    dispose_element (e);
  }
  check_no_leak (before, "no platform");
}

GST_END_TEST;

GST_START_TEST (test_no_platform)
{
  gchar *dir = rt_tmp_dir_new ("clepsilon-no-icd");
  /* a loader may take its drivers from OCL_ICD_FILENAMES as well (the GPU
   * machine's environment sets it): the child has none */
  gchar *filenames = g_strdup (g_getenv ("OCL_ICD_FILENAMES"));

  g_unsetenv ("OCL_ICD_FILENAMES");
  run_child ("test_child_no_platform", "OCL_ICD_VENDORS", dir);
  if (filenames)
    g_setenv ("OCL_ICD_FILENAMES", filenames, TRUE);
  g_free (filenames);
  rt_tmp_dir_remove (dir);
  g_free (dir);
}

GST_END_TEST;

/* A device name that matches nothing: the start fails naming it; the same
 * element then starts with a device that exists and filters. */
GST_START_TEST (test_no_such_device)
{
  GRand *rand = g_rand_new_with_seed (0xde71ce);
  Live before = live_now ();
  GstElement *e = make_element ("no-such-device-xyz");
  RefParams p;
  GstVideoInfo info;
  GstHarness *hr;
  gchar *text;

  text = check_start_fails (e, "no such device", "no-such-device-xyz",
      "OpenCL", NULL);
  g_free (text);
  fail_unless (clfault_live_total () == before.cl, "OpenCL objects left: %s",
      clfault_describe_live ());

  g_object_set (e, "device", rt_device (), NULL);
  fail_unless (rt_start (e) == GST_STATE_CHANGE_SUCCESS);
  hr = gst_harness_new_with_element (e, "sink", "src");
  rt_push_caps (hr, rt_caps (GST_VIDEO_FORMAT_NV12, 20, 10));
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 20,
          10));
  th_params_init (&p, 20, 5, 10);
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
      "after no such device");
  rt_teardown (hr);
  gst_object_unref (e);
  g_rand_free (rand);
}

GST_END_TEST;

/* A program that fails to build (libclfault appends an #error line to its
 * source): the start fails with clBuildProgram, CL_BUILD_PROGRAM_FAILURE and
 * the compiler's log; once the fault is gone the element starts. */
GST_START_TEST (test_build_failure)
{
  gchar *cache = rt_cache_off ();
  Live before = live_now ();
  GstElement *e = make_element (NULL);
  gchar *text;

  /* no program binary from the cache: build from source */
  clfault_set_break_build (TRUE);
  text = check_start_fails (e, "broken build", "clBuildProgram",
      "CL_BUILD_PROGRAM_FAILURE", "injected build failure", NULL);
  GST_INFO ("%s", text);
  g_free (text);
  clfault_set_break_build (FALSE);
  fail_unless (clfault_live_total () == before.cl, "OpenCL objects left: %s",
      clfault_describe_live ());

  fail_unless (rt_start (e) == GST_STATE_CHANGE_SUCCESS);
  dispose_element (e);
  check_no_leak (before, "broken build");
  rt_cache_restore (cache);
}

GST_END_TEST;

/* After an error the stream stays stopped: no second error; back to READY
 * and PLAYING, the element takes @caps (taken) again. */
static void
restart_stream (GstHarness * hr, GstCaps * caps)
{
  fail_unless (rt_drain_errors (hr->element, NULL) == 0, "a second error");
  fail_unless (gst_element_set_state (hr->element, GST_STATE_READY) ==
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_set_state (hr->element, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_SUCCESS);
  rt_push_caps (hr, caps);
}

/* Caps whose planes are larger than the device's largest buffer
 * (CL_DEVICE_MAX_MEM_ALLOC_SIZE: 1/4 of POCL_MEMORY_LIMIT on PoCL): refused
 * before any buffer is asked for, with an error saying what the device
 * lacks, which stops the stream: caps that fit are refused as well until
 * the element goes back to READY, and taken after it. */
static void
check_too_large_for_device (GstVideoFormat fmt, gint w, gint h)
{
  GRand *rand = g_rand_new_with_seed (0x1a6e);
  GstElement *e = make_element (NULL);
  GstVideoInfo info;
  GstHarness *hr;
  GstFlowReturn ret;
  gchar *text = NULL;
  RefParams p;
  Live before;

  fail_unless (rt_start (e) == GST_STATE_CHANGE_SUCCESS);
  hr = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  before = live_now ();
  gst_harness_set_sink_caps_str (hr, "video/x-raw");
  rt_push_caps (hr, rt_caps (fmt, w, h));
  ret = gst_harness_push (hr, gst_buffer_new_allocate (NULL, 16, NULL));
  fail_unless (ret == GST_FLOW_NOT_NEGOTIATED, "push returned %s",
      gst_flow_get_name (ret));
  fail_unless (rt_drain_errors (hr->element, &text) >= 1);
  fail_unless (strstr (text, "too large for the device") != NULL,
      "error \"%s\"", text);
  GST_INFO ("%s", text);
  g_free (text);
  fail_unless (clfault_live_total () == before.cl, "OpenCL objects left: %s",
      clfault_describe_live ());

  /* the error stopped the stream: caps that fit are refused too, until the
   * element goes back to READY */
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 20,
          10));
  rt_push_caps (hr, gst_video_info_to_caps (&info));
  ret = gst_harness_push (hr, rt_make_input (&info, rand, 127, FALSE));
  fail_unless (ret == GST_FLOW_NOT_NEGOTIATED, "after the error, a push "
      "returned %s", gst_flow_get_name (ret));
  restart_stream (hr, gst_video_info_to_caps (&info));
  th_params_init (&p, 20, 5, 10);
  th_push_check_unref (hr, &info, rt_make_input (&info, rand, 127, FALSE), &p,
      "after too large");
  rt_teardown (hr);
  g_rand_free (rand);
}

/* Child: POCL_MEMORY_LIMIT=1 (1 GiB, buffers up to 256 MiB). */
GST_START_TEST (test_child_memory_limit)
{
  check_too_large_for_device (GST_VIDEO_FORMAT_GRAY8, 16400, 16384);
}

GST_END_TEST;

GST_START_TEST (test_memory_limit)
{
  if (!strstr (rt_device (), "pocl")) {
    g_print ("clepsilonfaults: POCL_MEMORY_LIMIT needs PoCL; skipped\n");
    return;
  }
  run_child ("test_child_memory_limit", "POCL_MEMORY_LIMIT", "1");
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Every call of a life failing in turn                                      */

typedef struct
{
  const gchar *stage;           /* where it stopped: "start", "frame N", "end" */
  guint outputs;                /* frames through, all right */
  GstFlowReturn flow;           /* the first flow that was not OK */
  gboolean start_failed;
  guint n_errors;
  gchar *error;                 /* text of the first error, or NULL */
  gulong calls_at_end;          /* counted calls when the frames were done */
} Life;

static gboolean
push_frame (GstHarness * hr, const GstVideoInfo * info, GstBuffer * in,
    const RefParams * p, Life * life, const gchar * stage)
{
  GstBuffer *exp, *out;
  GstFlowReturn ret;
  gchar *first = NULL;
  guint bad;

  clfault_suspend (TRUE);
  exp = rt_make_expected (info, in, p);
  clfault_suspend (FALSE);
  life->stage = stage;
  ret = gst_harness_push (hr, in);
  clfault_suspend (TRUE);
  if (ret != GST_FLOW_OK) {
    life->flow = ret;
    fail_unless (gst_harness_try_pull (hr) == NULL, "%s: output after %s",
        stage, gst_flow_get_name (ret));
    gst_buffer_unref (exp);
    clfault_suspend (FALSE);
    return FALSE;
  }
  out = gst_harness_try_pull (hr);
  fail_unless (out != NULL, "%s: pushed fine, no output", stage);
  bad = rt_compare (info, out, exp, 0, &first);
  fail_unless (bad == 0, "%s: the frame went through with %u samples wrong "
      "(first %s), failed call %s", stage, bad, first,
      clfault_last_failed ()? clfault_last_failed () : "none");
  gst_buffer_unref (out);
  gst_buffer_unref (exp);
  life->outputs++;
  clfault_suspend (FALSE);
  return TRUE;
}

/* One element's life: start; NV12 caps; a frame in aligned system memory
 * (wrapped in place), a kernel change, a frame at an odd address (copied),
 * a frame from the pool the element proposes (OpenCL memory); I420 caps and
 * a frame; NULL. Every frame that comes out is checked. */
static void
run_life (Life * life)
{
  GRand *rand = g_rand_new_with_seed (0x11fe);
  GstElement *e = make_element (NULL);
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  GstBuffer *in;
  GstBufferPool *pool = NULL;
  GstQuery *query;
  GstCaps *caps;

  memset (life, 0, sizeof (*life));
  life->flow = GST_FLOW_OK;
  th_params_init (&p, 20, 5, 10);
  g_object_set (e, "kernel", "1 2 1; 2 4 2; 1 2 1", NULL);
  fail_unless (rt_params_set_kernel (&p, "1 2 1; 2 4 2; 1 2 1"));

  life->stage = "start";
  if (rt_start (e) == GST_STATE_CHANGE_FAILURE) {
    life->start_failed = TRUE;
    life->n_errors = rt_drain_errors (e, &life->error);
    dispose_element (e);
    g_rand_free (rand);
    return;
  }
  hr = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);

  rt_push_caps (hr, rt_caps (GST_VIDEO_FORMAT_NV12, 40, 30));
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 40,
          30));
  clfault_suspend (TRUE);
  in = rt_make_input (&info, rand, 127, FALSE);
  clfault_suspend (FALSE);
  if (!push_frame (hr, &info, in, &p, life, "frame 1 (wrapped)"))
    goto done;

  g_object_set (hr->element, "kernel", "0 -1 0; -1 5 -1; 0 -1 0", NULL);
  fail_unless (rt_params_set_kernel (&p, "0 -1 0; -1 5 -1; 0 -1 0"));
  clfault_suspend (TRUE);
  in = rt_make_input (&info, rand, 0, TRUE);
  clfault_suspend (FALSE);
  if (!push_frame (hr, &info, in, &p, life, "frame 2 (copied)"))
    goto done;

  /* the pool is upstream's: its allocations are not the element's calls */
  clfault_suspend (TRUE);
  caps = rt_caps (GST_VIDEO_FORMAT_NV12, 40, 30);
  query = gst_query_new_allocation (caps, TRUE);
  gst_caps_unref (caps);
  if (gst_pad_peer_query (hr->srcpad, query) &&
      gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  gst_query_unref (query);
  in = NULL;
  if (pool && gst_buffer_pool_set_active (pool, TRUE))
    gst_buffer_pool_acquire_buffer (pool, &in, NULL);
  if (in == NULL)
    in = rt_make_input (&info, rand, 127, FALSE);
  else
    rt_fill_random (in, rand);
  clfault_suspend (FALSE);
  if (!push_frame (hr, &info, in, &p, life, "frame 3 (pool)"))
    goto done;

  rt_push_caps (hr, rt_caps (GST_VIDEO_FORMAT_I420, 17, 11));
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 17,
          11));
  clfault_suspend (TRUE);
  in = rt_make_input (&info, rand, 127, FALSE);
  clfault_suspend (FALSE);
  if (!push_frame (hr, &info, in, &p, life, "frame 4 (new caps)"))
    goto done;
  life->stage = "end";
  life->calls_at_end = clfault_calls ();

done:
  life->n_errors = rt_drain_errors (hr->element, &life->error);
  gst_element_set_state (hr->element, GST_STATE_NULL);
  rt_drain_errors (hr->element, NULL);
  rt_teardown (hr);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  g_rand_free (rand);
}

/* Calls whose failure the element may absorb, the output staying right:
 * queries for names and preferences, profiling times (stats only), the
 * build log (only read after a failed build), wrapping system memory in
 * place (it then copies), shared virtual memory for frames (or the buffer
 * over it: a mapped buffer is made instead), the program cache (loading or
 * building a cached binary, reading a binary to store: it then builds from
 * source). */
static const gchar *const tolerated[] = {
  "clGetPlatformInfo", "clGetDeviceInfo", "clGetEventProfilingInfo",
  "clGetProgramBuildInfo", "clCreateBuffer(USE_HOST_PTR)", "clSVMAlloc",
  "clGetProgramInfo", "clCreateProgramWithBinary", "clBuildProgram(binary)",
};

/* Whether the test device is PoCL ($CLEPSILON_TEST_DEVICE, default
 * "pocl"), whose frame memory (gstclmemory.c) the environment chooses:
 * pinned host memory mapped for its whole life with GST_CL_DISCRETE=1 (as
 * on a discrete GPU), else SVM, or mapped per use with GST_CL_SVM=0. */
static gboolean
device_is_pocl (void)
{
  const gchar *d = g_getenv ("CLEPSILON_TEST_DEVICE");

  return !d || !*d || g_strcmp0 (d, "pocl") == 0;
}

/* How many OpenCL platforms the loader offers (not counted by libclfault).
 * Where there are several, a platform whose devices cannot be listed is
 * passed over, and the device is found on another: the GPU machine's
 * loader has NVIDIA's and PoCL's. */
static cl_uint
n_platforms (void)
{
  static cl_uint n = 0;

  if (n == 0) {
    clfault_suspend (TRUE);
    if (clGetPlatformIDs (0, NULL, &n) != CL_SUCCESS)
      n = 0;
    clfault_suspend (FALSE);
  }
  return n;
}

/* Whether frames are pinned for life: PoCL taken as discrete, or (as the
 * sweeps assume) another device, a discrete GPU. */
static gboolean
frames_pinned (void)
{
  return !device_is_pocl () ||
      g_strcmp0 (g_getenv ("GST_CL_DISCRETE"), "1") == 0;
}

/* Whether a map of an output frame is no OpenCL call (SVM or pinned). */
static gboolean
frames_unmapped (void)
{
  return frames_pinned () || g_strcmp0 (g_getenv ("GST_CL_SVM"), "0") != 0;
}

static gboolean
is_tolerated (const gchar * name)
{
  guint i;

  /* Pinned frame memory is unmapped (and the unmap flushed) only as it is
   * freed: nobody is left to tell, and the buffer is released all the same. */
  if (frames_pinned () && (g_strcmp0 (name, "clEnqueueUnmapMemObject") == 0
          || g_strcmp0 (name, "clFlush") == 0))
    return TRUE;
  for (i = 0; i < G_N_ELEMENTS (tolerated); i++)
    if (g_strcmp0 (name, tolerated[i]) == 0)
      return TRUE;
  return g_strcmp0 (name, "clGetDeviceIDs") == 0 && n_platforms () > 1;
}

/* Fails the N-th OpenCL call of the life above for every N (@persist: that
 * call and every one after it, as a lost device does), with @error; @only:
 * count only that function. Checks each outcome. With @cache, in a cache
 * folder of its own; without, with the cache off. */
static void
sweep (cl_int error, const gchar * error_name, const gchar * only,
    gboolean persist, gboolean cache)
{
  GHashTable *absorbed = g_hash_table_new (g_str_hash, g_str_equal);
  RtCacheDir *cache_dir = cache ? rt_cache_dir_new () : NULL;
  gchar *saved = cache ? NULL : rt_cache_off ();
  Life life;
  Live before;
  gulong total, n, n_failed = 0, n_absorbed = 0, n_teardown = 0;

  /* a first life fills the caches and creates what lives for the process */
  run_life (&life);
  fail_unless (life.outputs == 4 && life.error == NULL, "a life without "
      "faults failed at %s: %s", life.stage, life.error);
  before = live_now ();
  clfault_arm (0, CL_SUCCESS, only, FALSE);
  run_life (&life);
  total = clfault_calls ();
  fail_unless (life.outputs == 4);
  fail_unless (total > 0, "no OpenCL call went through libclfault: is it "
      "loaded before libOpenCL?");
  check_no_leak (before, "the counting life");

  for (n = 1; n <= total + 1; n++) {
    const gchar *failed;
    gchar *ctx;

    clfault_arm (n, error, only, persist);
    run_life (&life);
    failed = clfault_last_failed ();
    ctx = g_strdup_printf ("%s call %lu of %lu%s%s failing with %s (%s)",
        persist ? "from" : "only", n, total, only ? " of " : "",
        only ? only : "", error_name, failed ? failed : "no call");
    if (g_getenv ("CLEPSILON_FAULTS_VERBOSE"))
      g_print ("%s: stage %s, %u frames, %s: %s\n", ctx, life.stage,
          life.outputs, life.start_failed ? "start failed" :
          gst_flow_get_name (life.flow), life.error ? life.error : "-");
    if (failed == NULL) {
      /* past the last call: the life went through */
      clfault_reset ();
      fail_unless (life.outputs == 4, "%s: stopped at %s", ctx, life.stage);
      g_free (ctx);
      break;
    }
    if (life.start_failed || life.flow != GST_FLOW_OK || life.error) {
      /* an error: it names the call and its error (with @persist, the call
       * the element stopped at may be a later one than the first) */
      fail_unless (life.n_errors >= 1 && life.error != NULL, "%s: stopped at "
          "%s (%s) without an error message", ctx, life.stage,
          gst_flow_get_name (life.flow));
      fail_unless ((persist ? strstr (life.error, "OpenCL cl") :
              strstr (life.error, failed)) != NULL &&
          strstr (life.error, error_name) != NULL, "%s: stopped at %s with "
          "an error that does not name the call and its error: \"%s\"", ctx,
          life.stage, life.error);
      /* an ERROR stops the stream: caps refused with one are not taken
       * again when the next frame brings them */
      fail_unless (life.start_failed || life.flow != GST_FLOW_OK,
          "%s: an error (\"%s\"), then the stream went on to %s", ctx,
          life.error, life.stage);
      n_failed++;
      fail_unless (life.start_failed || life.flow == GST_FLOW_ERROR ||
          life.flow == GST_FLOW_NOT_NEGOTIATED, "%s: %s returned %s", ctx,
          life.stage, gst_flow_get_name (life.flow));
    } else if (n > life.calls_at_end) {
      /* in the teardown, after the last frame: nobody left to tell; no
       * crash and no leak is what counts */
      n_teardown++;
    } else {
      /* absorbed: every frame right (push_frame checked), and every call
       * that failed before the teardown one the element may do without */
      const gchar *name = NULL;
      gulong call;
      guint k;

      n_absorbed++;
      for (k = 0; (call = clfault_failure (k, &name)) != 0 &&
          call <= life.calls_at_end; k++) {
        g_hash_table_add (absorbed, (gpointer) name);
        /* without the cache the start tunes, trying kernel variants: one
         * that fails is passed over, so only the output counts there */
        fail_unless (!cache || is_tolerated (name), "%s: the failure of %s "
            "(call %lu) was swallowed: no error, %u frames through", ctx,
            name, call, life.outputs);
      }
    }
    clfault_reset ();
    check_no_leak (before, ctx);
    g_free (life.error);
    g_free (ctx);
  }
  g_print ("clepsilonfaults: %s%s%s, %s, cache %s: %lu calls in a life; %lu "
      "stopped the stream with an element error, %lu were absorbed with "
      "right output, "
      "%lu came in the teardown\n",
      persist ? "every call from the N-th" : "the N-th call",
      only ? " of " : "", only ? only : "", error_name, cache ? "on" : "off",
      total, n_failed, n_absorbed, n_teardown);
  {
    GList *names = g_hash_table_get_keys (absorbed), *l;
    GString *all = g_string_new (NULL);

    names = g_list_sort (names, (GCompareFunc) g_strcmp0);
    for (l = names; l; l = l->next)
      g_string_append_printf (all, "%s%s", l == names ? "" : ", ",
          (gchar *) l->data);
    if (names)
      g_print ("clepsilonfaults:   absorbed: %s\n", all->str);
    g_string_free (all, TRUE);
    g_list_free (names);
  }
  g_hash_table_unref (absorbed);
  if (cache_dir)
    rt_cache_dir_free (cache_dir);
  else
    rt_cache_restore (saved);
}

GST_START_TEST (test_nth_call_fails)
{
  sweep (CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES", NULL, FALSE, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_calls_fail_from_nth)
{
  sweep (CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY", NULL, TRUE, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_nth_allocation_fails)
{
  sweep (CL_MEM_OBJECT_ALLOCATION_FAILURE,
      "CL_MEM_OBJECT_ALLOCATION_FAILURE", "clCreateBuffer", FALSE, TRUE);
}

GST_END_TEST;

/* Without the cache every start builds from source and tunes: every build
 * failing in turn must end in an error. */
GST_START_TEST (test_nth_build_fails)
{
  sweep (CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE",
      "clBuildProgram", FALSE, FALSE);
}

GST_END_TEST;

/* The whole life without the cache (about 2700 calls, most of them the
 * tuning's; a few minutes): not in the default run; CLEPSILON_FAULTS_FULL=1
 * adds it. Failures the tuning passes over are listed, not failed. */
GST_START_TEST (test_nth_call_fails_no_cache)
{
  sweep (CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES", NULL, FALSE, FALSE);
}

GST_END_TEST;

/* A downstream map of @out (OpenCL memory holding @copy, made by @element)
 * failing once, then always, then not. */
static void
check_map_failures (GstElement * element, GstBuffer * out,
    gconstpointer copy, gsize size)
{
  GstMapInfo map;
  gchar *text = NULL;

  /* one failed map: GStreamer copies the memory, mapping it once more; the
   * failure is the element's ERROR (a consumer mapping with gst_memory_map
   * alone would have no data) */
  clfault_arm (1, CL_OUT_OF_RESOURCES, "clEnqueueMapBuffer", FALSE);
  if (gst_buffer_map (out, &map, GST_MAP_READ)) {
    fail_unless (map.size == size && memcmp (map.data, copy,
            map.size) == 0, "a mapping after a failed map has other data");
    gst_buffer_unmap (out, &map);
  }
  fail_unless (clfault_failures () == 1, "the output is not OpenCL memory");
  fail_unless (rt_drain_errors (element, &text) == 1, "no error for a "
      "failed map of an output frame");
  fail_unless (strstr (text, "clEnqueueMapBuffer") && strstr (text,
          "CL_OUT_OF_RESOURCES"), "error \"%s\"", text);
  g_free (text);
  /* every map failing: refused, no crash */
  clfault_arm (1, CL_OUT_OF_RESOURCES, "clEnqueueMapBuffer", TRUE);
  fail_if (gst_buffer_map (out, &map, GST_MAP_READ), "mapped although "
      "clEnqueueMapBuffer always fails");
  clfault_reset ();
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless (memcmp (map.data, copy, map.size) == 0);
  gst_buffer_unmap (out, &map);
}

/* Errors that show only when the queue is drained, or when memory is
 * mapped: clFinish failing ends the frame, and the stream until READY, with
 * an error naming it; when a downstream map of an output frame fails,
 * GStreamer copies the memory (one failure) or refuses the map (every map
 * failing), never with other data, and the next map works. */
GST_START_TEST (test_finish_and_map_errors)
{
  const gchar *caps =
      "video/x-raw, format=NV12, width=20, height=10, framerate=30/1";
  GRand *rand = g_rand_new_with_seed (0xf1);
  GstElement *e = make_element (NULL);
  GstVideoInfo info;
  GstHarness *hr;
  GstBuffer *out;
  GstMapInfo map, good;
  gpointer copy;
  gchar *text = NULL;

  /* each frame waited for (one clFinish per frame), also where frames would
   * otherwise be in flight (GST_CL_DISCRETE=1) */
  g_object_set (e, "frames-in-flight", 1, NULL);
  fail_unless (rt_start (e) == GST_STATE_CHANGE_SUCCESS);
  hr = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_harness_set_caps_str (hr, caps, caps);
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 20,
          10));
  /* no tuning (it calls clFinish too): fixed variants, and a first frame */
  g_object_set (hr->element, "epsilon-variant", 1, "convolution-variant", 1,
      NULL);
  fail_unless (gst_harness_push (hr, rt_make_input (&info, rand, 127,
              FALSE)) == GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (hr));

  clfault_arm (1, CL_OUT_OF_RESOURCES, "clFinish", FALSE);
  fail_unless (gst_harness_push (hr, rt_make_input (&info, rand, 127,
              FALSE)) == GST_FLOW_ERROR);
  fail_unless (rt_drain_errors (hr->element, &text) == 1);
  fail_unless (strstr (text, "clFinish") && strstr (text,
          "CL_OUT_OF_RESOURCES"), "error \"%s\"", text);
  g_free (text);
  clfault_reset ();
  /* the error stopped the stream until READY */
  fail_unless (gst_harness_push (hr, rt_make_input (&info, rand, 127,
              FALSE)) == GST_FLOW_ERROR);
  restart_stream (hr, gst_caps_from_string (caps));

  fail_unless (gst_harness_push (hr, rt_make_input (&info, rand, 127,
              FALSE)) == GST_FLOW_OK);
  out = gst_harness_pull (hr);
  fail_unless (gst_buffer_map (out, &good, GST_MAP_READ));
  copy = g_memdup2 (good.data, good.size);
  gst_buffer_unmap (out, &good);

  /* A map of a frame already waited for is no OpenCL call at all where
   * frames are SVM or pinned for life, so nothing can fail there; PoCL's
   * mode is known from the environment, another device's is seen. */
  clfault_reset ();
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless (memcmp (map.data, copy, map.size) == 0);
  gst_buffer_unmap (out, &map);
  if (device_is_pocl ())
    fail_unless ((clfault_calls () == 0) == frames_unmapped (), "%lu OpenCL "
        "calls in a map and unmap of an output frame", clfault_calls ());
  if (clfault_calls () > 0)
    check_map_failures (hr->element, out, copy, good.size);
  g_free (copy);
  gst_buffer_unref (out);
  rt_teardown (hr);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
clepsilonfaults_suite (void)
{
  Suite *s = suite_create ("clepsilonfaults");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  if (g_getenv (CHILD_ENV)) {
    tcase_add_test (tc, test_child_no_platform);
    tcase_add_test (tc, test_child_memory_limit);
    return s;
  }
  tcase_add_test (tc, test_no_platform);
  tcase_add_test (tc, test_no_such_device);
  tcase_add_test (tc, test_build_failure);
  tcase_add_test (tc, test_memory_limit);
  tcase_add_test (tc, test_finish_and_map_errors);
  tcase_add_test (tc, test_nth_call_fails);
  tcase_add_test (tc, test_calls_fail_from_nth);
  tcase_add_test (tc, test_nth_allocation_fails);
  tcase_add_test (tc, test_nth_build_fails);
  if (g_getenv ("CLEPSILON_FAULTS_FULL"))
    tcase_add_test (tc, test_nth_call_fails_no_cache);

  return s;
}

GST_CHECK_MAIN (clepsilonfaults);
