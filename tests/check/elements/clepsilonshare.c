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

/* Several clepsilon in one pipeline: one OpenCL context shared through
 * GstContext ("gst.opencl.context"), or the application's own; frames that
 * stay on the device between them (memory:OpenCLBuffer).
 *
 * The OpenCL device is taken from $CLEPSILON_TEST_DEVICE (default "pocl");
 * these tests use videotestsrc and fakesink from the installed plugins. */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <CL/cl.h>

#include "../harness.h"

#define CONTEXT_TYPE "gst.opencl.context"

typedef struct
{
  guint need_context;
  guint have_context;
  /* Set on need-context when the test plays the application. */
  cl_context app_context;
  cl_device_id app_device;
} BusLog;

static GstBusSyncReply
on_sync_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  BusLog *log = data;
  const gchar *type = NULL;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
    GstContext *context = NULL;

    gst_message_parse_have_context (msg, &context);
    if (g_str_equal (gst_context_get_context_type (context), CONTEXT_TYPE))
      log->have_context++;
    gst_context_unref (context);
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT &&
      gst_message_parse_context_type (msg, &type) &&
      g_str_equal (type, CONTEXT_TYPE)) {
    log->need_context++;
    if (log->app_context) {
      GstContext *context = gst_context_new (CONTEXT_TYPE, TRUE);

      gst_structure_set (gst_context_writable_structure (context),
          "cl-context", G_TYPE_POINTER, log->app_context,
          "cl-device", G_TYPE_POINTER, log->app_device, NULL);
      gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), context);
      gst_context_unref (context);
    }
  }
  return GST_BUS_PASS;
}

/* Runs @desc to EOS, with @log counting context messages. */
static GstElement *
run_pipeline (const gchar * desc, BusLog * log)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  GstBus *bus;
  GstMessage *msg;

  fail_unless (pipeline != NULL && error == NULL, "%s: %s", desc,
      error ? error->message : "?");
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, on_sync_message, log, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    fail ("%s: %s", desc, error->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  return pipeline;
}

/* The GstClContext object in the GstContext @e holds, or NULL (none, or an
 * application's). */
static gpointer
cl_context_of (GstElement * e)
{
  GstContext *context = gst_element_get_context (e, CONTEXT_TYPE);
  const GValue *v;
  gpointer object;

  if (!context)
    return NULL;
  /* An application's context holds raw handles, not the object. */
  v = gst_structure_get_value (gst_context_get_structure (context), "context");
  object = v && G_VALUE_HOLDS_OBJECT (v) ? g_value_get_object (v) : NULL;
  gst_context_unref (context);
  return object;
}

/* The GstClContext the pipeline keeps; element @name holds the same one,
 * unless it is the element that made it (which keeps it in its own state
 * only). */
static gpointer
element_cl_context (GstElement * pipeline, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  gpointer shared = cl_context_of (pipeline), own = cl_context_of (e);

  fail_unless (shared != NULL, "the pipeline keeps no %s context",
      CONTEXT_TYPE);
  fail_unless (own == NULL || own == shared,
      "%s holds another OpenCL context than the pipeline's", name);
  gst_object_unref (e);
  return shared;
}

static gpointer
cl_context_of_name (GstElement * pipeline, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  gpointer object = cl_context_of (e);

  gst_object_unref (e);
  return object;
}

static gchar *
element_device_name (GstElement * pipeline, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  gchar *device_name = NULL;

  g_object_get (e, "device-name", &device_name, NULL);
  gst_object_unref (e);
  return device_name;
}

GST_START_TEST (test_two_elements_share)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=NV12,width=64,height=48 ! "
      "clepsilon name=a device=%s ! clepsilon name=b device=%s "
      "kernel=\"1 2 1; 2 4 2; 1 2 1\" ! clepsilon name=c ! fakesink",
      rt_device (), rt_device ());
  BusLog log = { 0, };
  GstElement *pipeline = run_pipeline (desc, &log);

  /* One element made the context, the others took it. */
  fail_unless_equals_int (log.have_context, 1);
  fail_unless ((cl_context_of_name (pipeline, "a") != NULL) +
      (cl_context_of_name (pipeline, "b") != NULL) +
      (cl_context_of_name (pipeline, "c") != NULL) == 2,
      "expected the two elements that did not make it to hold it");
  fail_unless (element_cl_context (pipeline, "a") ==
      element_cl_context (pipeline, "b"));
  fail_unless (element_cl_context (pipeline, "b") ==
      element_cl_context (pipeline, "c"));

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* Restarting keeps one context: the pipeline hands back the one it has. */
GST_START_TEST (test_restart_reuses)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=32,height=16 ! clepsilon name=a "
      "device=%s ! clepsilon name=b ! fakesink", rt_device ());
  BusLog log = { 0, };
  GstElement *pipeline = run_pipeline (desc, &log);
  gpointer first = element_cl_context (pipeline, "a");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless_equals_int (log.have_context, 1);
  fail_unless (element_cl_context (pipeline, "a") == first);
  fail_unless (element_cl_context (pipeline, "b") == first);

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* Two pipelines of one process, each with an element that would make the
 * OpenCL context: the second takes the first's, while the first's
 * pipeline holds it (a GPU turns between contexts; GstContext alone
 * shares only within a pipeline), and nothing keeps it after both. */
GST_START_TEST (test_pipelines_share)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=NV12,width=32,height=16 ! clepsilon name=a "
      "device=%s ! fakesink", rt_device ());
  BusLog one_log = { 0, }, other_log = { 0, };
  gpointer shared;
  GstElement *one = run_pipeline (desc, &one_log);
  GstElement *other = run_pipeline (desc, &other_log);

  fail_unless_equals_int (one_log.have_context, 1);
  fail_unless_equals_int (other_log.have_context, 1);
  fail_unless (element_cl_context (one, "a") ==
      element_cl_context (other, "a"));

  /* and is freed with the last pipeline that holds it */
  shared = element_cl_context (one, "a");
  g_object_add_weak_pointer (shared, &shared);
  fail_unless_equals_int (gst_element_set_state (one, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (gst_element_set_state (other, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (one);
  fail_unless (shared != NULL);
  gst_object_unref (other);
  fail_unless (shared == NULL);
  g_free (desc);
}

GST_END_TEST;

/* The first OpenCL device whose platform name, platform vendor or device
 * name contains the test device's name (lower case, as the element's
 * "device" property matches). */
static cl_device_id
find_test_device (void)
{
  cl_platform_id platforms[16];
  cl_device_id devices[16];
  cl_uint n_platforms = 0, n_devices, p, d;
  gchar name[256];

  fail_unless (clGetPlatformIDs (16, platforms, &n_platforms) == CL_SUCCESS);
  for (p = 0; p < MIN (n_platforms, 16); p++) {
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 16, devices,
            &n_devices) != CL_SUCCESS)
      continue;
    for (d = 0; d < MIN (n_devices, 16); d++) {
      gchar *a, *b, *c;
      gboolean match;

      clGetPlatformInfo (platforms[p], CL_PLATFORM_NAME, sizeof (name), name,
          NULL);
      a = g_ascii_strdown (name, -1);
      clGetPlatformInfo (platforms[p], CL_PLATFORM_VENDOR, sizeof (name),
          name, NULL);
      b = g_ascii_strdown (name, -1);
      clGetDeviceInfo (devices[d], CL_DEVICE_NAME, sizeof (name), name, NULL);
      c = g_ascii_strdown (name, -1);
      match = strstr (a, rt_device ()) || strstr (b, rt_device ()) ||
          strstr (c, rt_device ());
      g_free (a);
      g_free (b);
      g_free (c);
      if (match)
        return devices[d];
    }
  }
  fail ("no OpenCL device matches \"%s\"", rt_device ());
  return NULL;
}

static cl_uint
context_refs (cl_context context)
{
  cl_uint refs = 0;

  clGetContextInfo (context, CL_CONTEXT_REFERENCE_COUNT, sizeof (refs), &refs,
      NULL);
  return refs;
}

/* An application answers need-context with its own cl_context: the
 * elements run on it, hold it while they run and let it go at NULL. */
GST_START_TEST (test_application_context)
{
  BusLog log = { 0, };
  GstElement *pipeline;
  cl_int status;
  gchar name[256], *device_name;

  log.app_device = find_test_device ();
  log.app_context = clCreateContext (NULL, 1, &log.app_device, NULL, NULL,
      &status);
  fail_unless (status == CL_SUCCESS);
  clGetDeviceInfo (log.app_device, CL_DEVICE_NAME, sizeof (name), name, NULL);

  pipeline = run_pipeline ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=NV12,width=48,height=32 ! clepsilon name=a ! "
      "clepsilon name=b threshold=12 ! fakesink", &log);
  fail_unless (log.need_context >= 1);
  /* The element that wrapped it shares the wrapper: one queue for all. */
  fail_unless_equals_int (log.have_context, 1);
  fail_unless (element_cl_context (pipeline, "a") ==
      element_cl_context (pipeline, "b"));
  fail_unless (context_refs (log.app_context) > 1,
      "the elements do not hold the application's context");
  device_name = element_device_name (pipeline, "b");
  fail_unless (g_str_has_prefix (device_name, g_strstrip (name)),
      "element runs on \"%s\", the application's device is \"%s\"",
      device_name, name);
  g_free (device_name);

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
  fail_unless_equals_int (context_refs (log.app_context), 1);
  clReleaseContext (log.app_context);
}

GST_END_TEST;

/* An element whose device property names another device than the shared
 * context's does not take it. */
GST_START_TEST (test_mismatched_device_not_shared)
{
  GstElement *e = gst_element_factory_make ("clepsilon", NULL);
  GstContext *context = gst_context_new (CONTEXT_TYPE, TRUE);
  GstElement *maker;
  gchar *desc;
  BusLog log = { 0, };
  GstElement *pipeline;

  /* A context whose structure holds no usable context is ignored. */
  gst_element_set_context (e, context);
  gst_context_unref (context);
  gst_object_unref (e);

  desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY8,width=16,height=16 ! clepsilon name=a "
      "device=%s ! fakesink", rt_device ());
  pipeline = run_pipeline (desc, &log);
  maker = gst_bin_get_by_name (GST_BIN (pipeline), "a");
  context = gst_element_get_context (pipeline, CONTEXT_TYPE);
  fail_unless (context != NULL);

  /* "no-such-device" matches nothing: the shared context is refused and
   * the element fails at start with its own error. */
  e = gst_element_factory_make ("clepsilon", NULL);
  g_object_set (e, "device", "no-such-device", NULL);
  gst_element_set_context (e, context);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);

  gst_context_unref (context);
  gst_object_unref (maker);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* ---- Frames that stay on the device ---------------------------------- */

static void
fill_random (GstBuffer * buf, guint32 seed)
{
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (seed);
  gsize i;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int_range (rand, 0, 256);
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
}

/* @in through the reference with @first's values, then @second's. */
static GstBuffer *
expected_chain (const GstVideoInfo * info, GstBuffer * in,
    const RefParams * first, const RefParams * second)
{
  GstBuffer *mid = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstBuffer *out = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame fi, fm, fo;

  gst_video_frame_map (&fi, info, in, GST_MAP_READ);
  gst_video_frame_map (&fm, info, mid, GST_MAP_WRITE);
  ref_process_frame (&fi, &fm, first);
  gst_video_frame_unmap (&fm);
  gst_video_frame_unmap (&fi);
  gst_video_frame_map (&fm, info, mid, GST_MAP_READ);
  gst_video_frame_map (&fo, info, out, GST_MAP_WRITE);
  ref_process_frame (&fm, &fo, second);
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fm);
  gst_buffer_unref (mid);
  return out;
}

static void
check_same_frame (const GstVideoInfo * info, GstBuffer * out, GstBuffer * exp)
{
  GstVideoFrame fo, fe;
  guint p, y;

  fail_unless (gst_video_frame_map (&fo, info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fe, info, exp, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fo); p++) {
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&fo, p == 0 ? 0 : 1);
    gint row = GST_VIDEO_FRAME_COMP_WIDTH (&fo, p == 0 ? 0 : 1) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&fo, p == 0 ? 0 : 1);

    for (y = 0; y < (guint) h; y++)
      fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, p) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p),
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fe, p) +
              y * GST_VIDEO_FRAME_PLANE_STRIDE (&fe, p), row) == 0,
          "plane %u row %u differs from the reference", p, y);
  }
  gst_video_frame_unmap (&fe);
  gst_video_frame_unmap (&fo);
}

static gboolean
pad_on_device (GstElement * bin, const gchar * name, const gchar * pad_name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (bin), name);
  GstPad *pad = gst_element_get_static_pad (e, pad_name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstCapsFeatures *f;
  gboolean device;

  fail_unless (caps != NULL, "%s.%s has no caps", name, pad_name);
  f = gst_caps_get_features (caps, 0);
  device = f && gst_caps_features_contains (f, "memory:OpenCLBuffer");
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (e);
  return device;
}

static guint64
stat_of (GstElement * bin, const gchar * name, const gchar * field)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (bin), name);
  GstStructure *st = NULL;
  guint64 v = G_MAXUINT64;

  g_object_get (e, "stats", &st, NULL);
  fail_unless (gst_structure_get_uint64 (st, field, &v));
  gst_structure_free (st);
  gst_object_unref (e);
  return v;
}

/* clepsilon ! clepsilon: the frame stays on the device between them
 * (memory:OpenCLBuffer), leaves in system memory, and is what the two
 * stages give in the reference. The first element downloads nothing and the
 * second uploads nothing; once chained, the frame crosses the bus once each
 * way. */
GST_START_TEST (test_chain_stays_on_device)
{
  gchar *desc = g_strdup_printf ("clepsilon name=a device=%s threshold=20 "
      "window-size=5 chroma-threshold=10 ! clepsilon name=b "
      "kernel=\"1 2 1; 2 4 2; 1 2 1\" threshold=0", rt_device ());
  GstHarness *h = gst_harness_new_parse (desc);
  const gchar *caps = "video/x-raw,format=NV12,width=53,height=31,"
      "framerate=30/1";
  GstVideoInfo info;
  RefParams first, second;
  GstBuffer *in, *exp, *out;
  static const gdouble blur[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 53, 31);
  ref_params_init (&first);
  first.threshold = 20;
  first.window = 5;
  first.chroma_threshold = 10;
  ref_params_init (&second);
  second.threshold = 0;
  second.kernel_width = second.kernel_height = 3;
  memcpy (second.kernel, blur, sizeof (blur));

  for (i = 0; i < 3; i++) {
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    fill_random (in, 0xc4a10000 + i);
    exp = expected_chain (&info, in, &first, &second);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    check_same_frame (&info, out, exp);
    gst_buffer_unref (out);
    gst_buffer_unref (exp);
  }

  fail_unless (pad_on_device (h->element, "a", "src"),
      "a's output is not in memory:OpenCLBuffer");
  fail_unless (!pad_on_device (h->element, "b", "src"),
      "b's output should be in system memory");
  fail_unless_equals_uint64 (stat_of (h->element, "a", "download-bytes"), 0);
  fail_unless_equals_uint64 (stat_of (h->element, "b", "upload-bytes"), 0);
  fail_unless_equals_uint64 (stat_of (h->element, "a", "frames"), 3);
  fail_unless_equals_uint64 (stat_of (h->element, "b", "frames"), 3);
  fail_unless_equals_uint64 (stat_of (h->element, "b", "host-copy-bytes"), 0);

  gst_harness_teardown (h);
  g_free (desc);
}

GST_END_TEST;

/* clepsilon ! clepsilon, frames in flight, the frame on the device between
 * them: each one copies the plane it leaves untouched on its own download
 * queue (the first one chroma, the second one luma), and the second one's
 * copy must wait for the first one's luma kernel, its chroma kernel for the
 * first one's copy. Large frames, a wide window first; every output
 * against the reference of both stages. */
GST_START_TEST (test_chain_in_flight)
{
  gchar *desc = g_strdup_printf ("clepsilon name=a device=%s threshold=20 "
      "window-size=9 chroma-threshold=0 frames-in-flight=3 ! "
      "clepsilon name=b threshold=0 window-size=3 chroma-threshold=8 "
      "frames-in-flight=3", rt_device ());
  GstHarness *h = gst_harness_new_parse (desc);
  const gchar *caps = "video/x-raw,format=NV12,width=1920,height=1081,"
      "framerate=30/1";
  GstBuffer *ins[2], *exps[2];
  GstVideoInfo info;
  RefParams first, second;
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 1920, 1081);
  th_params_init (&first, 20, 9, 0);
  th_params_init (&second, 0, 3, 8);
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    ins[i] = gst_buffer_new_allocate (NULL, info.size, NULL);
    fill_random (ins[i], 0xc4a20000 + i);
    exps[i] = expected_chain (&info, ins[i], &first, &second);
  }
  for (i = 0; i < 12; i++) {
    GstBuffer *out;

    fail_unless_equals_int (gst_harness_push (h,
            gst_buffer_copy_deep (ins[i % 2])), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL, "frame %u: no output", i);
    check_same_frame (&info, out, exps[i % 2]);
    gst_buffer_unref (out);
  }
  fail_unless_equals_uint64 (stat_of (h->element, "b", "frames"), 12);
  for (i = 0; i < G_N_ELEMENTS (ins); i++) {
    gst_buffer_unref (ins[i]);
    gst_buffer_unref (exps[i]);
  }
  gst_harness_teardown (h);
  g_free (desc);
}

GST_END_TEST;

/* A downstream that asks for memory:OpenCLBuffer gets device buffers, and
 * mapping one for the CPU gives the filtered frame. Without asking, system
 * memory is the default (a sink that takes ANY caps included). */
GST_START_TEST (test_device_memory_maps)
{
  gchar *desc = g_strdup_printf ("clepsilon device=%s threshold=20 "
      "window-size=9", rt_device ());
  const gchar *in_caps = "video/x-raw,format=I420,width=37,height=23,"
      "framerate=30/1";
  const gchar *out_caps = "video/x-raw(memory:OpenCLBuffer),format=I420,"
      "width=37,height=23,framerate=30/1";
  GstHarness *h = gst_harness_new_parse (desc);
  GstVideoInfo info;
  RefParams p, none;
  GstBuffer *in, *exp, *out;
  GstCaps *caps;

  gst_harness_set_caps_str (h, in_caps, out_caps);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 37, 23);
  ref_params_init (&p);
  p.threshold = 20;
  p.window = 9;
  ref_params_init (&none);
  none.threshold = 0;
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  fill_random (in, 0xc4a20001);
  exp = expected_chain (&info, in, &p, &none);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          "memory:OpenCLBuffer"));
  gst_caps_unref (caps);
  fail_unless_equals_string (gst_buffer_peek_memory (out,
          0)->allocator->mem_type, "OpenCLBuffer");
  check_same_frame (&info, out, exp);
  gst_buffer_unref (out);
  gst_buffer_unref (exp);
  gst_harness_teardown (h);
  g_free (desc);
}

GST_END_TEST;

/* A second clepsilon with nothing to do, between device memory from the
 * first and system memory downstream, still moves the frame (it is not in
 * passthrough, which would hand device buffers on as system memory). */
GST_START_TEST (test_idle_element_moves_frames)
{
  gchar *desc = g_strdup_printf ("clepsilon name=a device=%s threshold=20 "
      "window-size=5 ! clepsilon name=b threshold=0", rt_device ());
  GstHarness *h = gst_harness_new_parse (desc);
  const gchar *caps = "video/x-raw,format=I420,width=29,height=17,"
      "framerate=30/1";
  GstVideoInfo info;
  RefParams first, none;
  GstBuffer *in, *exp, *out;
  guint i;

  gst_harness_set_caps_str (h, caps, caps);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 29, 17);
  ref_params_init (&first);
  first.threshold = 20;
  first.window = 5;
  ref_params_init (&none);
  none.threshold = 0;
  for (i = 0; i < 2; i++) {
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    fill_random (in, 0xc4a30000 + i);
    exp = expected_chain (&info, in, &first, &none);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    check_same_frame (&info, out, exp);
    gst_buffer_unref (out);
    gst_buffer_unref (exp);
  }
  fail_unless (pad_on_device (h->element, "b", "sink"));
  fail_unless (!pad_on_device (h->element, "b", "src"));
  fail_unless_equals_uint64 (stat_of (h->element, "b", "frames"), 2);
  gst_harness_teardown (h);
  g_free (desc);
}

GST_END_TEST;

static Suite *
clepsilonshare_suite (void)
{
  Suite *s = suite_create ("clepsilonshare");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_two_elements_share);
  tcase_add_test (tc, test_restart_reuses);
  tcase_add_test (tc, test_pipelines_share);
  tcase_add_test (tc, test_application_context);
  tcase_add_test (tc, test_mismatched_device_not_shared);
  tcase_add_test (tc, test_chain_stays_on_device);
  tcase_add_test (tc, test_chain_in_flight);
  tcase_add_test (tc, test_device_memory_maps);
  tcase_add_test (tc, test_idle_element_moves_frames);
  return s;
}

GST_CHECK_MAIN (clepsilonshare);
