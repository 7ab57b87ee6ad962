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

/* memory:CUDAMemory where CUDA cannot be used (no libcuda.so.1, or PoCL,
 * which lacks cl_khr_device_uuid): the CUDA caps are not offered once the
 * element has its device, the reason is logged once, a frame in CUDA caps
 * is refused, and every other path works, with cuda-copy-bytes 0. The
 * CUDA path itself is checked on an NVIDIA GPU (docs/memory.md). */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gmodule.h>
#include <string.h>

#include "clfault.h"
#include "robust.h"

#define CUDA_FEATURE "memory:CUDAMemory"

static const gchar *
test_device (void)
{
  const gchar *d = g_getenv ("CLEPSILON_TEST_DEVICE");

  return d && *d ? d : "pocl";
}

/* Whether any structure of @caps names CUDA memory. */
static gboolean
names_cuda (GstCaps * caps)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && !gst_caps_features_is_any (f) &&
        gst_caps_features_contains (f, CUDA_FEATURE))
      return TRUE;
  }
  return FALSE;
}

static gint reasons;

static void
count_reasons (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (text && strstr (text, "memory:CUDAMemory not offered: "))
    g_atomic_int_inc (&reasons);
}

/* A pipeline to EOS. On PoCL (no CUDA device) the sink pad's caps in
 * PAUSED name no CUDA memory, the reason is logged once, and nothing was
 * copied for CUDA; on a device that is the GPU of CUDA (the GPU machine's,
 * CLEPSILON_TEST_DEVICE=nvidia) CUDA memory is offered and no reason is
 * logged. */
GST_START_TEST (test_cuda_not_offered)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=NV12,width=64,height=48 ! clepsilon name=e "
      "device=%s threshold=8 ! fakesink", test_device ());
  GstElement *pipeline, *e;
  GstStructure *stats = NULL;
  guint64 cuda_bytes = 1, frames = 0;
  gboolean offered;
  GstMessage *msg;
  GstCaps *caps;
  GstPad *pad;

  gst_debug_set_threshold_for_name ("clcudaimport", GST_LEVEL_INFO);
  gst_debug_add_log_function (count_reasons, NULL, NULL);
  reasons = 0;
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  e = gst_bin_get_by_name (GST_BIN (pipeline), "e");
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PAUSED),
      GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  pad = gst_element_get_static_pad (e, "sink");
  caps = gst_pad_query_caps (pad, NULL);
  offered = names_cuda (caps);
  fail_if (offered && g_str_has_prefix (test_device (), "pocl"),
      "CUDA offered: %" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  gst_object_unref (pad);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  g_object_get (e, "stats", &stats, NULL);
  gst_structure_get (stats, "cuda-copy-bytes", G_TYPE_UINT64, &cuda_bytes,
      "frames", G_TYPE_UINT64, &frames, NULL);
  fail_unless_equals_uint64 (frames, 5);
  if (!offered)
    fail_unless_equals_uint64 (cuda_bytes, 0);
  gst_structure_free (stats);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_debug_remove_log_function (count_reasons);
  fail_unless_equals_int (g_atomic_int_get (&reasons), offered ? 0 : 1);
  gst_object_unref (e);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* Upstream that insists on CUDA memory: not negotiated, and the element
 * still takes system memory afterwards. */
GST_START_TEST (test_cuda_caps_refused)
{
  GstHarness *h = gst_harness_new ("clepsilon");
  GstVideoInfo info;
  GstBuffer *buf;

  gst_util_set_object_arg (G_OBJECT (h->element), "device", test_device ());
  gst_harness_play (h);
  gst_harness_set_src_caps_str (h, "video/x-raw(" CUDA_FEATURE "),"
      "format=NV12,width=64,height=48,framerate=30/1");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  buf = gst_buffer_new_and_alloc (info.size);
  gst_buffer_memset (buf, 0, 16, info.size);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_NOT_NEGOTIATED);

  gst_harness_set_src_caps_str (h, "video/x-raw,format=NV12,width=64,"
      "height=48,framerate=30/1");
  buf = gst_buffer_new_and_alloc (info.size);
  gst_buffer_memset (buf, 0, 16, info.size);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A stand-in for a CUDA decoder: a source pad and the read-only
 * "cuda-device-id" of nvcodec's decoders. */
typedef GstElement FakeDecoder;
typedef GstElementClass FakeDecoderClass;
static GType fake_decoder_get_type (void);
G_DEFINE_TYPE (FakeDecoder, fake_decoder, GST_TYPE_ELEMENT);

static GstStaticPadTemplate fake_src = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static void
fake_decoder_get_property (GObject * object, guint id, GValue * value,
    GParamSpec * spec)
{
  g_value_set_uint (value, GPOINTER_TO_UINT (g_object_get_data (object,
              "device")));
}

static void
fake_decoder_class_init (FakeDecoderClass * klass)
{
  G_OBJECT_CLASS (klass)->get_property = fake_decoder_get_property;
  g_object_class_install_property (G_OBJECT_CLASS (klass), 1,
      g_param_spec_uint ("cuda-device-id", "id", "id", 0, G_MAXUINT, 0,
          G_PARAM_READABLE));
  gst_element_class_add_static_pad_template (klass, &fake_src);
  gst_element_class_set_static_metadata (klass, "fake", "Codec/Decoder",
      "fake", "tests");
}

static void
fake_decoder_init (FakeDecoder * self)
{
  gst_element_add_pad (self, gst_pad_new_from_static_template (&fake_src,
          "src"));
}

/* An element told its GPU, as cudaconvert is: a writable
 * "cuda-device-id" (0 here), which it may not use until it starts. */
typedef GstElement FakeConverter;
typedef GstElementClass FakeConverterClass;
static GType fake_converter_get_type (void);
G_DEFINE_TYPE (FakeConverter, fake_converter, GST_TYPE_ELEMENT);

static void
fake_converter_get_property (GObject * object, guint id, GValue * value,
    GParamSpec * spec)
{
  g_value_set_int (value, 0);
}

static void
fake_converter_set_property (GObject * object, guint id,
    const GValue * value, GParamSpec * spec)
{
}

static void
fake_converter_class_init (FakeConverterClass * klass)
{
  G_OBJECT_CLASS (klass)->get_property = fake_converter_get_property;
  G_OBJECT_CLASS (klass)->set_property = fake_converter_set_property;
  g_object_class_install_property (G_OBJECT_CLASS (klass), 1,
      g_param_spec_int ("cuda-device-id", "id", "id", -1, G_MAXINT, 0,
          G_PARAM_READWRITE));
  gst_element_class_add_static_pad_template (klass, &fake_src);
  gst_element_class_set_static_metadata (klass, "fake", "Filter/Converter",
      "fake", "tests");
}

static void
fake_converter_init (FakeConverter * self)
{
  gst_element_add_pad (self, gst_pad_new_from_static_template (&fake_src,
          "src"));
}

/* Where the one that asks and the element are, and what others hold. */
typedef enum
{
  QUEUE_BETWEEN = 1 << 0,       /* decoder ! queue ! clepsilon */
  ELEMENT_IN_BIN = 1 << 1,      /* decoder ! bin (a ghost pad to clepsilon) */
  DECODER_IN_BIN = 1 << 2,      /* bin (a ghost pad from the decoder) ! ... */
  HOLDER_DOWNSTREAM = 1 << 3,   /* clepsilon ! (has holder_context) */
  ELEMENT_KEPT = 1 << 4,        /* clepsilon was set kept_context */
  PIPELINE_HOLDS = 1 << 5,      /* another posted posted_context */
  CONVERTER_ASKS = 1 << 6,      /* converter ! clepsilon */
} Layout;

static GstContext *holder_context, *kept_context, *posted_context;

/* A CUDA context of GPU @device, the stand-in @object for its
 * GstCudaContext (any object with that "cuda-device-id"). */
static GstContext *
cuda_context_new (guint device, GObject ** object)
{
  GstContext *context = gst_context_new ("gst.cuda.context", TRUE);

  *object = gst_object_ref_sink (g_object_new (fake_decoder_get_type (), NULL));
  g_object_set_data (*object, "device", GUINT_TO_POINTER (device));
  gst_structure_set (gst_context_writable_structure (context),
      "gst.cuda.context", G_TYPE_OBJECT, *object,
      "cuda-device-id", G_TYPE_UINT, device, NULL);
  return context;
}

static gboolean
holder_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  const gchar *type;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT ||
      !gst_query_parse_context_type (query, &type) ||
      !g_str_equal (type, "gst.cuda.context"))
    return gst_pad_query_default (pad, parent, query);
  gst_query_set_context (query, holder_context);
  return TRUE;
}

/* @element in a new bin, its pad @name a ghost pad of the bin. */
static GstElement *
in_bin (GstElement * element, const gchar * name)
{
  GstElement *bin = gst_bin_new (NULL);
  GstPad *pad = gst_element_get_static_pad (element, name);

  gst_bin_add (GST_BIN (bin), element);
  gst_element_add_pad (bin, gst_ghost_pad_new (name, pad));
  gst_object_unref (pad);
  return bin;
}

/* The elements of @layout in a new pipeline, the one that asks (a decoder
 * of GPU @device, or the converter) in @asks. */
static GstElement *
pipeline_of (Layout layout, guint device, GstElement ** asks)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *e = gst_element_factory_make ("clepsilon", NULL);
  GstElement *first, *last, *next;
  GstPad *pad;

  *asks = g_object_new (layout & CONVERTER_ASKS ?
      fake_converter_get_type () : fake_decoder_get_type (), NULL);
  g_object_set_data (G_OBJECT (*asks), "device", GUINT_TO_POINTER (device));
  first = layout & DECODER_IN_BIN ? in_bin (*asks, "src") : *asks;
  last = layout & ELEMENT_IN_BIN ? in_bin (e, "sink") : e;
  gst_bin_add_many (GST_BIN (pipeline), first, last, NULL);
  if (layout & QUEUE_BETWEEN) {
    next = gst_element_factory_make ("queue", NULL);
    gst_bin_add (GST_BIN (pipeline), next);
    fail_unless (gst_element_link_many (first, next, last, NULL));
  } else {
    fail_unless (gst_element_link (first, last));
  }
  if (layout & HOLDER_DOWNSTREAM) {
    next = gst_element_factory_make ("identity", NULL);
    gst_bin_add (GST_BIN (pipeline), next);
    fail_unless (gst_element_link (e, next));
    pad = gst_element_get_static_pad (next, "sink");
    gst_pad_set_query_function (pad, holder_query);
    gst_object_unref (pad);
  }
  if (layout & ELEMENT_KEPT)
    gst_element_set_context (e, kept_context);
  if (layout & PIPELINE_HOLDS)  /* kept by the pipeline alone */
    gst_element_post_message (*asks, gst_message_new_have_context
        (GST_OBJECT (*asks), gst_context_ref (posted_context)));
  return pipeline;
}

/* What the element that asks in @layout finds downstream, as a CUDA
 * element that has no context yet asks (gst_cuda_ensure_element_context):
 * its src pad's context query. NULL where none answers; else the
 * context's GstCudaContext, with the ordinal checked. */
static GObject *
cuda_context_found (Layout layout, guint device)
{
  GstElement *asks, *pipeline = pipeline_of (layout, device, &asks);
  GstQuery *query = gst_query_new_context ("gst.cuda.context");
  GstContext *context = NULL;
  GObject *found = NULL;
  const GValue *value;
  GstPad *src = gst_element_get_static_pad (asks, "src");
  guint id = G_MAXUINT;

  if (gst_pad_peer_query (src, query))
    gst_query_parse_context (query, &context);
  if (context) {
    value = gst_structure_get_value (gst_context_get_structure (context),
        "gst.cuda.context");
    fail_unless (value && G_VALUE_HOLDS_OBJECT (value));
    found = g_value_dup_object (value);
    fail_unless (gst_structure_get_uint (gst_context_get_structure
            (context), "cuda-device-id", &id));
    fail_unless_equals_int (id, device);
    g_object_get (found, "cuda-device-id", &id, NULL);
    fail_unless_equals_int (id, device);
  }
  gst_query_unref (query);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  return found;
}

/* Whether what the decoder of GPU @device in @layout finds is @expected
 * (NULL: nothing); drops it. */
static gboolean
finds (Layout layout, guint device, GObject * expected)
{
  GObject *found = cuda_context_found (layout, device);
  gboolean same = found == expected;

  g_clear_object (&found);
  return same;
}

/* Without CUDA (this machine's PoCL, and CI) nothing answers a decoder
 * that asks for a CUDA context. */
GST_START_TEST (test_cuda_context_not_made)
{
  GModule *cuda = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);
  GObject *found;

  if (cuda) {
    g_module_close (cuda);
    return;                     /* the GPU machine: the test below */
  }
  found = cuda_context_found (QUEUE_BETWEEN, 0);
  fail_unless (found == NULL);
}

GST_END_TEST;

/* A CUDA decoder upstream that asks for a context is given its GPU's, one
 * for every element of the process while it is held: with the real CUDA
 * (CLEPSILON_TEST_DEVICE=nvidia, the GPU machine), or libgstcuda and the
 * driver faked (CLCUDA_FAKE_GSTCUDA, GST_CL_CUDA_LIBRARY; every case). */
GST_START_TEST (test_cuda_context_shared)
{
  gboolean fake = g_getenv ("CLCUDA_FAKE_GSTCUDA") != NULL;
  GObject *first, *second, *other, *holder, *kept, *posted;
  guint (*made) (void) = NULL;
  guint before = 0;
  GModule *module;

  if (!fake && !g_str_has_prefix (test_device (), "nvidia"))
    return;
  first = cuda_context_found (QUEUE_BETWEEN, 0);
  second = cuda_context_found (QUEUE_BETWEEN, 0);
  fail_unless (first != NULL && first == second);
  g_clear_object (&second);
  if (!fake) {
    /* a GPU that is not there */
    fail_unless (finds (QUEUE_BETWEEN, 63, NULL));
    g_clear_object (&first);
    return;
  }

  /* another GPU's is another; through bins, the same */
  other = cuda_context_found (QUEUE_BETWEEN, 1);
  fail_unless (other != NULL && other != first);
  g_clear_object (&other);
  fail_unless (finds (ELEMENT_IN_BIN, 0, first));
  fail_unless (finds (DECODER_IN_BIN | ELEMENT_IN_BIN, 0, first));

  /* what the element keeps, what downstream has, what the pipeline was
   * posted, in that order, each where it is of the decoder's GPU; a
   * converter told its GPU is not answered */
  holder_context = cuda_context_new (0, &holder);
  kept_context = cuda_context_new (0, &kept);
  posted_context = cuda_context_new (0, &posted);
  fail_unless (finds (ELEMENT_KEPT | HOLDER_DOWNSTREAM | PIPELINE_HOLDS, 0,
          kept));
  fail_unless (finds (HOLDER_DOWNSTREAM | PIPELINE_HOLDS, 0, holder));
  fail_unless (finds (PIPELINE_HOLDS, 0, posted));
  other = cuda_context_found (ELEMENT_KEPT | HOLDER_DOWNSTREAM |
      PIPELINE_HOLDS, 1);
  fail_unless (other != NULL && other != kept && other != holder &&
      other != posted && other != first);
  g_clear_object (&other);
  fail_unless (finds (CONVERTER_ASKS, 0, NULL));
  g_clear_pointer (&holder_context, gst_context_unref);
  g_clear_pointer (&kept_context, gst_context_unref);
  g_clear_pointer (&posted_context, gst_context_unref);
  g_clear_object (&holder);
  g_clear_object (&kept);
  g_clear_object (&posted);

  /* released with the last holder: a new one then */
  module = g_module_open (g_getenv ("CLCUDA_FAKE_GSTCUDA"), 0);
  fail_unless (module && g_module_symbol (module, "fakegstcuda_contexts_made",
          (gpointer *) & made));
  before = made ();
  g_clear_object (&first);
  other = cuda_context_found (QUEUE_BETWEEN, 0);
  fail_unless (other != NULL);
  fail_unless_equals_int (made (), before + 1);
  g_clear_object (&other);
  g_module_close (module);
}

GST_END_TEST;

/* A pipeline of the element on @device to its end: the ERROR it posted
 * (a new string), or NULL where it reached EOS. */
static gchar *
run_to_end (const gchar * device)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=NV12,width=64,height=48 ! clepsilon device=%s ! "
      "fakesink", device);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GError *error = NULL;
  gchar *message = NULL;
  GstMessage *msg;

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    message = g_strdup (error->message);
    g_error_free (error);
  }
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
  g_free (desc);
  return message;
}

/* Where NVIDIA's OpenCL makes no context (under NVIDIA MPS clCreateContext
 * fails, -9999), the element starts without one and loads its programs
 * from the cache by key (libclfault: the device's platform named NVIDIA's,
 * clCreateContext failed). With the cache empty: an ERROR that says how to
 * fill it. A run with OpenCL fills it; then the start finds the program by
 * the same key: on PoCL it is refused as not PTX, on NVIDIA's OpenCL it
 * loads and these frames (not a decoder's) are refused; an ERROR saying
 * so. No pipeline leaves an OpenCL object. */
GST_START_TEST (test_start_without_opencl)
{
  RtCacheDir *cache = rt_cache_dir_new ();
  const long live = clfault_live_total ();
  gchar *message;

  clfault_set_platform_name ("NVIDIA CUDA");
  clfault_arm (1, -9999, "clCreateContext", TRUE);
  message = run_to_end (test_device ());
  fail_unless (message && strstr (message, "No OpenCL context on") &&
      strstr (message, "is not in the program cache: run the pipeline once "
          "where OpenCL works"), "%s", message ? message : "(EOS)");
  g_free (message);
  fail_unless_equals_int (clfault_live_total (), live);

  clfault_reset ();
  message = run_to_end (test_device ());
  fail_unless (message == NULL, "%s", message);
  fail_unless_equals_int (clfault_live_total (), live);

  clfault_arm (1, -9999, "clCreateContext", TRUE);
  message = run_to_end (test_device ());
  if (g_str_has_prefix (test_device (), "pocl"))
    fail_unless (message && strstr (message, "its cached program is not "
            "PTX"), "%s", message ? message : "(EOS)");
  else
    fail_unless (message && strstr (message, "has no OpenCL context here "
            "(NVIDIA MPS?): it filters only frames of an NVIDIA decoder"),
        "%s", message ? message : "(EOS)");
  g_free (message);
  fail_unless_equals_int (clfault_live_total (), live);

  clfault_reset ();
  clfault_set_platform_name (NULL);
  fail_unless (rt_cache_dir_free (cache) > 0);
}

GST_END_TEST;

static Suite *
clepsiloncuda_suite (void)
{
  const gchar *fake = g_getenv ("CLCUDA_FAKE_GSTCUDA");
  Suite *s = suite_create ("clepsiloncuda");
  TCase *tc = tcase_create ("general");

  /* loaded first, it is the "libgstcuda-1.0.so.0" the plugin finds */
  if (fake && !g_module_open (fake, G_MODULE_BIND_LAZY))
    g_error ("cannot load %s: %s", fake, g_module_error ());

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cuda_not_offered);
  tcase_add_test (tc, test_cuda_caps_refused);
  tcase_add_test (tc, test_start_without_opencl);
  tcase_add_test (tc, test_cuda_context_not_made);
  tcase_add_test (tc, test_cuda_context_shared);
  return s;
}

GST_CHECK_MAIN (clepsiloncuda);
