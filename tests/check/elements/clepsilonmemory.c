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

/* Tests of how clepsilon handles memory: the OpenCL buffer pool it proposes
 * upstream and uses for its output, system memory wrapped in place or
 * transferred, odd layouts, undersized buffers, and the "stats" property that
 * says which path each frame took. Every output sample is compared with the
 * plain C reference in ../reference.c.
 *
 * The OpenCL device is taken from $CLEPSILON_TEST_DEVICE (default "pocl").
 * Whether that device shares host memory (PoCL's CPU device does) decides
 * which memory path the stats must report; the test asks OpenCL itself, for
 * the device the element reports in its "device-name" property.
 *
 * This test runs with the system plugins available (videotestsrc, fakesink);
 * the pipeline test is skipped, with a note, where they are missing. */

#include <string.h>

#include <CL/cl.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "../harness.h"

/* The mem_type of the element's OpenCL buffer allocator. */
#define CL_MEMORY_TYPE "OpenCLBuffer"
/* What GstAllocationParams usually ask for, and what the brief of the element
 * promises to wrap in place: 128 bytes. */
#define HOST_ALIGN 128

/* ------------------------------------------------------------------------ */
/* The device, as OpenCL describes it                                       */

typedef struct
{
  gboolean found;
  gboolean host_unified;        /* CL_DEVICE_HOST_UNIFIED_MEMORY */
  gboolean in_flight;           /* frames may be in flight by default */
  gsize host_ptr_align;         /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
} DeviceInfo;

static gchar *
cl_platform_string (cl_platform_id platform, cl_platform_info param)
{
  gchar buf[512] = { 0, };

  if (clGetPlatformInfo (platform, param, sizeof (buf) - 1, buf, NULL))
    return g_strdup ("?");
  return g_strstrip (g_strdup (buf));
}

static gchar *
cl_device_string (cl_device_id device, cl_device_info param)
{
  gchar buf[512] = { 0, };

  if (clGetDeviceInfo (device, param, sizeof (buf) - 1, buf, NULL))
    return g_strdup ("?");
  return g_strstrip (g_strdup (buf));
}

/* Finds the device whose "DEVICE (PLATFORM)" is @device_name, the form of
 * the element's "device-name" property. */
static DeviceInfo
lookup_device (const gchar * device_name)
{
  DeviceInfo info = { FALSE, FALSE, 1 };
  cl_platform_id platforms[16];
  cl_uint n_platforms = 0, p, d;

  if (clGetPlatformIDs (G_N_ELEMENTS (platforms), platforms, &n_platforms))
    return info;
  n_platforms = MIN (n_platforms, G_N_ELEMENTS (platforms));

  for (p = 0; p < n_platforms && !info.found; p++) {
    cl_device_id devices[32];
    cl_uint n_devices = 0;
    gchar *platform_name;

    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL,
            G_N_ELEMENTS (devices), devices, &n_devices))
      continue;
    n_devices = MIN (n_devices, G_N_ELEMENTS (devices));
    platform_name = cl_platform_string (platforms[p], CL_PLATFORM_NAME);
    for (d = 0; d < n_devices && !info.found; d++) {
      gchar *dev = cl_device_string (devices[d], CL_DEVICE_NAME);
      gchar *full = g_strdup_printf ("%s (%s)", dev, platform_name);

      if (g_strcmp0 (full, device_name) == 0) {
        cl_bool unified = CL_FALSE;
        cl_uint align_bits = 0;

        clGetDeviceInfo (devices[d], CL_DEVICE_HOST_UNIFIED_MEMORY,
            sizeof (unified), &unified, NULL);
        clGetDeviceInfo (devices[d], CL_DEVICE_MEM_BASE_ADDR_ALIGN,
            sizeof (align_bits), &align_bits, NULL);
        info.found = TRUE;
        /* GST_CL_DISCRETE=1: the element treats every device as a
         * discrete GPU (gst_cl_context_is_host_unified()). */
        info.host_unified = unified &&
            g_strcmp0 (g_getenv ("GST_CL_DISCRETE"), "1") != 0;
        /* by default only on a discrete GPU (gstclplan.c) */
        info.in_flight = !info.host_unified;
        info.host_ptr_align = MAX (align_bits / 8, 1);
      }
      g_free (full);
      g_free (dev);
    }
    g_free (platform_name);
  }
  return info;
}

/* The device @element (started) runs on. */
static DeviceInfo
element_device (GstElement * element)
{
  gchar *name = NULL;
  DeviceInfo info;

  g_object_get (element, "device-name", &name, NULL);
  fail_unless (name != NULL, "device-name not set once started");
  info = lookup_device (name);
  fail_unless (info.found, "OpenCL lists no device named \"%s\"", name);
  GST_INFO ("device %s: host-unified %d, host pointer alignment %"
      G_GSIZE_FORMAT, name, info.host_unified, info.host_ptr_align);
  g_free (name);
  return info;
}

/* What a frame that needed no copy reports as its memory path. */
static const gchar *
zero_copy_path (const DeviceInfo * dev)
{
  return dev->host_unified ? "host-ptr" : "pinned";
}

/* The alignment a system memory needs to be wrapped in place: 128 bytes, or
 * more if the device asks for more. */
static gsize
wrap_align (const DeviceInfo * dev)
{
  return MAX ((gsize) HOST_ALIGN, dev->host_ptr_align);
}

/* ------------------------------------------------------------------------ */
/* The stats property                                                       */

typedef struct
{
  guint64 frames;
  guint64 zero_copy_frames;
  guint64 host_copy_bytes;
  guint64 upload_bytes;
  guint64 download_bytes;
  guint64 device_copy_bytes;
  gdouble device_ms;
  gdouble transform_ms;
  gchar path[32];
} Stats;

static void
get_stats (GstElement * element, Stats * s)
{
  GstStructure *st = NULL;
  const gchar *path;
  gchar *str;

  g_object_get (element, "stats", &st, NULL);
  fail_unless (st != NULL, "the stats property is NULL");
  str = gst_structure_to_string (st);
  fail_unless (gst_structure_get (st,
          "frames", G_TYPE_UINT64, &s->frames,
          "zero-copy-frames", G_TYPE_UINT64, &s->zero_copy_frames,
          "host-copy-bytes", G_TYPE_UINT64, &s->host_copy_bytes,
          "upload-bytes", G_TYPE_UINT64, &s->upload_bytes,
          "download-bytes", G_TYPE_UINT64, &s->download_bytes,
          "device-copy-bytes", G_TYPE_UINT64, &s->device_copy_bytes,
          "device-ms", G_TYPE_DOUBLE, &s->device_ms,
          "transform-ms", G_TYPE_DOUBLE, &s->transform_ms, NULL),
      "stats lack a field or have one of the wrong type: %s", str);
  path = gst_structure_get_string (st, "memory-path");
  fail_unless (path != NULL, "stats have no memory-path string: %s", str);
  g_strlcpy (s->path, path, sizeof (s->path));
  GST_INFO ("stats: %s", str);
  g_free (str);
  gst_structure_free (st);
}

static gchar *
stats_describe (const Stats * s)
{
  return g_strdup_printf ("frames %" G_GUINT64_FORMAT ", zero-copy-frames %"
      G_GUINT64_FORMAT ", host-copy-bytes %" G_GUINT64_FORMAT
      ", upload-bytes %" G_GUINT64_FORMAT ", download-bytes %"
      G_GUINT64_FORMAT ", device-copy-bytes %" G_GUINT64_FORMAT
      ", device-ms %g, transform-ms %g, memory-path \"%s\"", s->frames,
      s->zero_copy_frames, s->host_copy_bytes, s->upload_bytes,
      s->download_bytes, s->device_copy_bytes, s->device_ms, s->transform_ms,
      s->path);
}

/* The @n frames pushed since @before (NULL: since the start) all went
 * through without a copy, by the path the device allows. */
static void
check_zero_copy_stats (GstElement * element, const DeviceInfo * dev,
    const Stats * before, guint64 n, const gchar * ctx)
{
  static const Stats zero = { 0, };
  Stats s;
  gchar *d, *b;

  if (before == NULL)
    before = &zero;
  get_stats (element, &s);
  d = stats_describe (&s);
  b = stats_describe (before);
  fail_unless (s.frames - before->frames == n, "%s: expected %"
      G_GUINT64_FORMAT " more frames in the stats; before: %s; now: %s", ctx,
      n, b, d);
  fail_unless (s.zero_copy_frames - before->zero_copy_frames == n,
      "%s: expected %" G_GUINT64_FORMAT " more zero-copy frames; before: %s; "
      "now: %s", ctx, n, b, d);
  fail_unless (s.host_copy_bytes == before->host_copy_bytes,
      "%s: expected no host copy; before: %s; now: %s", ctx, b, d);
  fail_unless (g_strcmp0 (s.path, zero_copy_path (dev)) == 0,
      "%s: expected memory-path \"%s\"; now: %s", ctx, zero_copy_path (dev), d);
  if (dev->host_unified) {
    /* Kernels worked in place on host memory: nothing to transfer. */
    fail_unless (s.upload_bytes == before->upload_bytes &&
        s.download_bytes == before->download_bytes,
        "%s: expected no transfer on a host-unified device; before: %s; "
        "now: %s", ctx, b, d);
  }
  g_free (b);
  g_free (d);
}

/* The @n frames pushed since @before (NULL: since the start) all took the
 * fallback: their data was copied by the CPU or transferred from (or to)
 * pageable memory. @payload: image bytes of one frame; at least that much
 * had to be moved per frame. */
static void
check_copy_stats (GstElement * element, const Stats * before, guint64 n,
    gsize payload, const gchar * ctx)
{
  static const Stats zero = { 0, };
  Stats s;
  gchar *d, *b;
  guint64 moved;

  if (before == NULL)
    before = &zero;
  get_stats (element, &s);
  d = stats_describe (&s);
  b = stats_describe (before);
  moved = (s.host_copy_bytes - before->host_copy_bytes) +
      (s.upload_bytes - before->upload_bytes) +
      (s.download_bytes - before->download_bytes);
  fail_unless (s.frames - before->frames == n, "%s: expected %"
      G_GUINT64_FORMAT " more frames in the stats; before: %s; now: %s", ctx,
      n, b, d);
  fail_unless (s.zero_copy_frames == before->zero_copy_frames,
      "%s: expected no zero-copy frame (the input cannot be used in "
      "place); before: %s; now: %s", ctx, b, d);
  fail_unless (s.zero_copy_frames < s.frames);
  fail_unless (g_strcmp0 (s.path, "copy") == 0,
      "%s: expected memory-path \"copy\"; now: %s", ctx, d);
  fail_unless (moved >= n * payload, "%s: expected at least %"
      G_GUINT64_FORMAT " bytes copied or transferred; before: %s; now: %s",
      ctx, (guint64) (n * payload), b, d);
  g_free (b);
  g_free (d);
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */

/* Bytes of image samples in one frame: what has to be moved at least. */
static gsize
image_payload (const GstVideoInfo * info)
{
  gsize total = 0;
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, p, comp);
    total += (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) *
        GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
  }
  return total;
}

/* @out read whole, as a consumer that ignores the video meta reads it: as
 * many bytes as @info's frame, each plane's samples where @info's default
 * layout puts them, equal to @exp's. */
static void
check_whole_buffer (const GstVideoInfo * info, GstBuffer * out, GstBuffer * exp,
    const gchar * ctx)
{
  GstVideoFrame ef;
  GstMapInfo map;
  guint p, row;

  fail_unless_equals_int ((gint) gst_buffer_get_size (out),
      (gint) GST_VIDEO_INFO_SIZE (info));
  fail_unless (gst_video_frame_map (&ef, info, exp, GST_MAP_READ));
  /* Not writable while mapped, so that its memories are not merged for
   * good (the caller checks them). */
  gst_buffer_ref (out);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gsize row_bytes;
    guint rows;

    gst_video_format_info_component (info->finfo, p, comp);
    row_bytes = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    for (row = 0; row < rows; row++)
      fail_unless (memcmp (map.data + info->offset[p] + row * info->stride[p],
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&ef, p) +
              row * GST_VIDEO_FRAME_PLANE_STRIDE (&ef, p), row_bytes) == 0,
          "%s: plane %u row %u differs when the buffer is read whole", ctx,
          p, row);
  }
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_video_frame_unmap (&ef);
}

/* The buffer holds exactly one memory, from the element's OpenCL allocator. */
static void
check_cl_memory (GstBuffer * buf, const gchar * what, const gchar * ctx)
{
  GstMemory *mem;

  fail_unless_equals_int (gst_buffer_n_memory (buf), 1);
  mem = gst_buffer_peek_memory (buf, 0);
  fail_unless (mem != NULL && mem->allocator != NULL,
      "%s: %s has no allocator", ctx, what);
  fail_unless (g_strcmp0 (mem->allocator->mem_type, CL_MEMORY_TYPE) == 0,
      "%s: %s memory has mem_type \"%s\", expected \"%s\"", ctx, what,
      mem->allocator->mem_type, CL_MEMORY_TYPE);
  fail_unless (gst_memory_is_type (mem, CL_MEMORY_TYPE));
}

/* ------------------------------------------------------------------------ */
/* Element and harness                                                      */

/* A clepsilon with the thresholds and window of @p. */
static GstElement *
make_element (const RefParams * p)
{
  GstElement *e = th_make_element ();

  g_object_set (e, "threshold", p->threshold, "window-size", p->window,
      "chroma-threshold", p->chroma_threshold, NULL);
  return e;
}

/* A started clepsilon with @p, caps @fmt @w x @h on both sides. With
 * @downstream_video_meta, the harness's sink side answers the ALLOCATION
 * query with GstVideoMeta support; by default it answers without. */
static GstHarness *
make_harness_full (GstVideoFormat fmt, gint w, gint h, const RefParams * p,
    gboolean downstream_video_meta, GstVideoInfo * info)
{
  return th_harness_new (make_element (p), fmt, w, h,
      downstream_video_meta ? GST_VIDEO_META_API_TYPE : 0, info);
}

static GstHarness *
make_harness (GstVideoFormat fmt, gint w, gint h, const RefParams * p,
    GstVideoInfo * info)
{
  return make_harness_full (fmt, w, h, p, FALSE, info);
}

/* Sends an ALLOCATION query for the caps now on the harness's source pad
 * (@info) to the element's sink pad, the way an upstream element would, and
 * returns the first pool it proposes (a reference), with its size. Checks
 * that a GstVideoMeta is proposed too. */
static GstBufferPool *
query_proposed_pool (GstHarness * hr, const GstVideoInfo * info,
    guint * size, const gchar * ctx)
{
  GstCaps *caps = gst_pad_get_current_caps (hr->srcpad);
  GstQuery *query;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *config_caps = NULL;
  GstVideoInfo caps_info;
  guint min, max, config_size;

  fail_unless (caps != NULL, "%s: no caps on the harness source pad", ctx);
  fail_unless (gst_video_info_from_caps (&caps_info, caps));
  fail_unless (GST_VIDEO_INFO_FORMAT (&caps_info) ==
      GST_VIDEO_INFO_FORMAT (info) &&
      GST_VIDEO_INFO_WIDTH (&caps_info) == GST_VIDEO_INFO_WIDTH (info) &&
      GST_VIDEO_INFO_HEIGHT (&caps_info) == GST_VIDEO_INFO_HEIGHT (info),
      "%s: the caps on the harness are not the ones tested", ctx);
  query = gst_query_new_allocation (caps, TRUE);

  fail_unless (gst_pad_peer_query (hr->srcpad, query),
      "%s: the ALLOCATION query was not answered", ctx);
  fail_unless (gst_query_get_n_allocation_pools (query) > 0,
      "%s: no pool proposed", ctx);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, size, &min, &max);
  fail_unless (pool != NULL, "%s: the proposed pool is NULL", ctx);
  fail_unless (*size >= info->size, "%s: proposed size %u, below the %"
      G_GSIZE_FORMAT " bytes a frame needs", ctx, *size, info->size);
  fail_unless (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL), "%s: GstVideoMeta not proposed", ctx);
  fail_if (gst_buffer_pool_is_active (pool),
      "%s: the proposed pool is already active", ctx);

  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_params (config, &config_caps,
          &config_size, NULL, NULL));
  fail_unless (config_caps != NULL && gst_caps_is_equal (config_caps, caps),
      "%s: the pool is configured for other caps", ctx);
  fail_unless (config_size >= info->size);
  fail_unless (gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META),
      "%s: the proposed pool does not add a GstVideoMeta", ctx);
  gst_structure_free (config);

  gst_query_unref (query);
  gst_caps_unref (caps);
  return pool;
}

/* Acquires a buffer of @pool (active) and checks it is what the element
 * promises: one OpenCL buffer memory and a GstVideoMeta for @info. */
static GstBuffer *
acquire_pool_buffer (GstBufferPool * pool, const GstVideoInfo * info,
    const gchar * ctx)
{
  GstBuffer *buf = NULL;
  GstVideoMeta *meta;
  GstFlowReturn ret;

  ret = gst_buffer_pool_acquire_buffer (pool, &buf, NULL);
  fail_unless (ret == GST_FLOW_OK && buf != NULL,
      "%s: acquiring a buffer from the proposed pool returned %s", ctx,
      gst_flow_get_name (ret));
  check_cl_memory (buf, "pool buffer", ctx);
  meta = gst_buffer_get_video_meta (buf);
  fail_unless (meta != NULL, "%s: pool buffer without GstVideoMeta", ctx);
  fail_unless_equals_int (meta->format, GST_VIDEO_INFO_FORMAT (info));
  fail_unless_equals_int (meta->width, GST_VIDEO_INFO_WIDTH (info));
  fail_unless_equals_int (meta->height, GST_VIDEO_INFO_HEIGHT (info));
  fail_unless_equals_int (meta->n_planes, GST_VIDEO_INFO_N_PLANES (info));
  fail_unless (gst_buffer_get_size (buf) >= info->size);
  return buf;
}

/* A buffer of @pool (active) holding the image of @src (@info). */
static GstBuffer *
pool_copy (GstBufferPool * pool, const GstVideoInfo * info, GstBuffer * src,
    const gchar * ctx)
{
  GstBuffer *buf = acquire_pool_buffer (pool, info, ctx);
  GstVideoFrame from, to;

  fail_unless (gst_video_frame_map (&from, info, src, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&to, info, buf, GST_MAP_WRITE));
  fail_unless (gst_video_frame_copy (&to, &from));
  gst_video_frame_unmap (&to);
  gst_video_frame_unmap (&from);
  return buf;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

GST_START_TEST (test_stats_initial)
{
  GstElement *e = gst_element_factory_make ("clepsilon", NULL);
  RefParams p;
  GstVideoInfo info;
  GstHarness *hr;
  Stats s;

  /* never started */
  fail_unless (e != NULL);
  get_stats (e, &s);
  fail_unless (s.frames == 0 && s.zero_copy_frames == 0 &&
      s.host_copy_bytes == 0 && s.upload_bytes == 0 && s.download_bytes == 0
      && s.device_copy_bytes == 0 && s.device_ms == 0.0
      && s.transform_ms == 0.0);
  fail_unless_equals_string (s.path, "none");
  gst_object_unref (e);

  /* started and negotiated, no frame yet */
  th_params_init (&p, 20, 5, 0);
  hr = make_harness (GST_VIDEO_FORMAT_NV12, 16, 8, &p, &info);
  get_stats (hr->element, &s);
  fail_unless (s.frames == 0 && s.zero_copy_frames == 0 &&
      s.host_copy_bytes == 0);
  fail_unless_equals_string (s.path, "none");
  th_teardown_checked (hr);
}

GST_END_TEST;

/* videotestsrc ! clepsilon ! fakesink: every output compared with the
 * reference of the input, caught with a probe on the element's sink pad. */
typedef struct
{
  GstVideoInfo info;
  RefParams params;
  GMutex lock;
  GstBuffer *last_in;           /* default layout, system memory */
  GstBuffer *last_exp;
  GQueue expected;              /* one reference per input, in order */
  guint n_in, n_out, n_refs;
  gchar *error;                 /* the first problem seen */
} PipelineCheck;

static void
pipeline_check_error (PipelineCheck * pc, gchar * error)
{
  g_mutex_lock (&pc->lock);
  if (pc->error == NULL)
    pc->error = error;
  else
    g_free (error);
  g_mutex_unlock (&pc->lock);
}

static GstPadProbeReturn
pipeline_input_probe (GstPad * pad, GstPadProbeInfo * pinfo, gpointer data)
{
  PipelineCheck *pc = data;
  GstBuffer *in = GST_PAD_PROBE_INFO_BUFFER (pinfo);
  GstBuffer *copy = gst_buffer_new_allocate (NULL, pc->info.size, NULL);
  GstVideoFrame src, dst;
  GstBuffer *exp;

  gst_buffer_memset (copy, 0, 0, pc->info.size);
  if (!gst_video_frame_map (&src, &pc->info, in, GST_MAP_READ)) {
    pipeline_check_error (pc, g_strdup ("cannot map an input frame"));
    gst_buffer_unref (copy);
    return GST_PAD_PROBE_OK;
  }
  fail_unless (gst_video_frame_map (&dst, &pc->info, copy, GST_MAP_WRITE));
  gst_video_frame_copy (&dst, &src);
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);

  /* videotestsrc's default pattern is still: compute the reference only for
   * an input that differs from the one before. */
  {
    gboolean same = FALSE;

    if (pc->last_in != NULL) {
      GstMapInfo a, b;

      gst_buffer_map (copy, &a, GST_MAP_READ);
      gst_buffer_map (pc->last_in, &b, GST_MAP_READ);
      same = a.size == b.size && memcmp (a.data, b.data, a.size) == 0;
      gst_buffer_unmap (pc->last_in, &b);
      gst_buffer_unmap (copy, &a);
    }
    if (same) {
      gst_buffer_unref (copy);
    } else {
      gst_clear_buffer (&pc->last_in);
      gst_clear_buffer (&pc->last_exp);
      pc->last_in = copy;
      pc->last_exp = rt_make_expected (&pc->info, copy, &pc->params);
      pc->n_refs++;
    }
  }
  exp = gst_buffer_ref (pc->last_exp);

  g_mutex_lock (&pc->lock);
  g_queue_push_tail (&pc->expected, exp);
  pc->n_in++;
  g_mutex_unlock (&pc->lock);
  return GST_PAD_PROBE_OK;
}

static void
pipeline_handoff (GstElement * sink, GstBuffer * out, GstPad * pad,
    gpointer data)
{
  PipelineCheck *pc = data;
  GstBuffer *exp;
  guint n;
  gchar *err;

  g_mutex_lock (&pc->lock);
  exp = g_queue_pop_head (&pc->expected);
  n = pc->n_out++;
  g_mutex_unlock (&pc->lock);

  if (exp == NULL) {
    pipeline_check_error (pc, g_strdup_printf ("output %u without input", n));
    return;
  }
  err = th_compare_frame (&pc->info, out, exp, 0);
  if (err != NULL) {
    pipeline_check_error (pc, g_strdup_printf ("output %u: %s", n, err));
    g_free (err);
  }
  gst_buffer_unref (exp);
}

static gboolean
have_factory (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (f == NULL)
    return FALSE;
  gst_object_unref (f);
  return TRUE;
}

static void
run_videotestsrc_pipeline (GstVideoFormat fmt, guint threshold,
    guint chroma_threshold)
{
  const guint n_frames = 20;
  const gint w = 1920, h = 1080;
  PipelineCheck pc;
  GstElement *pipeline, *eps, *sink;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  GError *error = NULL;
  DeviceInfo dev;
  gchar *desc, *ctx, *d;
  Stats s;

  if (!have_factory ("videotestsrc") || !have_factory ("fakesink")) {
    g_print ("NOTE: videotestsrc or fakesink is not available; skipping the "
        "videotestsrc ! clepsilon ! fakesink test\n");
    return;
  }

  memset (&pc, 0, sizeof (pc));
  g_mutex_init (&pc.lock);
  g_queue_init (&pc.expected);
  fail_unless (gst_video_info_set_format (&pc.info, fmt, w, h));
  th_params_init (&pc.params, threshold, 9, chroma_threshold);

  desc = g_strdup_printf ("videotestsrc num-buffers=%u ! "
      "video/x-raw,format=%s,width=%d,height=%d ! "
      "clepsilon name=eps device=\"%s\" threshold=%u window-size=9 "
      "chroma-threshold=%u ! "
      "fakesink name=sink signal-handoffs=true", n_frames,
      gst_video_format_to_string (fmt), w, h, rt_device (), threshold,
      chroma_threshold);
  ctx = g_strdup_printf ("[%s]", desc);
  pipeline = gst_parse_launch (desc, &error);
  fail_unless (pipeline != NULL && error == NULL, "%s: %s", ctx,
      error ? error->message : "no pipeline");

  eps = gst_bin_get_by_name (GST_BIN (pipeline), "eps");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  fail_unless (eps != NULL && sink != NULL);
  pad = gst_element_get_static_pad (eps, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, pipeline_input_probe,
      &pc, NULL);
  gst_object_unref (pad);
  g_signal_connect (sink, "handoff", G_CALLBACK (pipeline_handoff), &pc);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s: cannot start the pipeline", ctx);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS within 120 s", ctx);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &error, &dbg);
    fail ("%s: error from %s: %s (%s)", ctx, GST_MESSAGE_SRC_NAME (msg),
        error->message, dbg ? dbg : "");
  }
  gst_message_unref (msg);
  gst_object_unref (bus);

  /* Read before stopping, although stop keeps them. */
  dev = element_device (eps);
  get_stats (eps, &s);
  d = stats_describe (&s);
  GST_INFO ("%s: %s; %u reference frames computed", ctx, d, pc.n_refs);

  fail_unless (pc.error == NULL, "%s: %s", ctx, pc.error);
  fail_unless (pc.n_in == n_frames && pc.n_out == n_frames,
      "%s: %u inputs and %u outputs, expected %u of each", ctx, pc.n_in,
      pc.n_out, n_frames);
  fail_unless (s.frames == n_frames, "%s: stats: %s", ctx, d);
  fail_unless (s.zero_copy_frames == s.frames,
      "%s: expected every frame zero-copy (videotestsrc writes into the "
      "proposed pool); stats: %s", ctx, d);
  fail_unless (s.host_copy_bytes == 0, "%s: stats: %s", ctx, d);
  fail_unless (g_strcmp0 (s.path, zero_copy_path (&dev)) == 0,
      "%s: expected memory-path \"%s\"; stats: %s", ctx,
      zero_copy_path (&dev), d);
  fail_unless (s.device_ms > 0.0, "%s: no kernel time; stats: %s", ctx, d);
  /* The element waits for its kernels inside transform, unless frames are
   * in flight (a discrete GPU: whoever maps the output waits). */
  fail_unless (dev.in_flight || s.transform_ms >= s.device_ms,
      "%s: transform time below kernel time; stats: %s", ctx, d);

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (eps);
  gst_object_unref (sink);
  gst_object_unref (pipeline);

  g_queue_clear_full (&pc.expected, (GDestroyNotify) gst_buffer_unref);
  gst_clear_buffer (&pc.last_in);
  gst_clear_buffer (&pc.last_exp);
  g_mutex_clear (&pc.lock);
  g_free (d);
  g_free (ctx);
  g_free (desc);
}

GST_START_TEST (test_videotestsrc_nv12)
{
  run_videotestsrc_pipeline (GST_VIDEO_FORMAT_NV12, 20, 0);
}

GST_END_TEST;

GST_START_TEST (test_videotestsrc_i420_chroma)
{
  run_videotestsrc_pipeline (GST_VIDEO_FORMAT_I420, 20, 12);
}

GST_END_TEST;

/* What webcams give, straight from videotestsrc into the proposed pool:
 * the luma filtered, the chroma (chroma-threshold set) as it came. */
GST_START_TEST (test_videotestsrc_packed_422)
{
  run_videotestsrc_pipeline (GST_VIDEO_FORMAT_YUY2, 20, 12);
  run_videotestsrc_pipeline (GST_VIDEO_FORMAT_UYVY, 20, 0);
}

GST_END_TEST;

/* The memories that reach one element's sink pad, each counted once. */
static GstPadProbeReturn
count_memories_probe (GstPad * pad, GstPadProbeInfo * pinfo, gpointer data)
{
  GstBuffer *in = GST_PAD_PROBE_INFO_BUFFER (pinfo);
  guint i;

  for (i = 0; i < gst_buffer_n_memory (in); i++)
    g_hash_table_add (data, gst_buffer_peek_memory (in, i));
  return GST_PAD_PROBE_OK;
}

/* videotestsrc's own pool of system memory read by two elements after a
 * tee (which offers upstream no pool of theirs), its buffers coming back
 * frame after frame. Both outputs match the reference of their inputs.
 * Where frames in system memory are held pinned (GST_CL_DISCRETE=1: any
 * size), each memory is wrapped the second time either element sees it,
 * and then read where it is by both: each element copies (stages) a
 * memory's first frame, and its second only where the other element is
 * wrapping it just then; an element that read only the memories it had
 * wrapped itself would stage every frame of the others. */
GST_START_TEST (test_tee_system_memory)
{
  const guint n_frames = 150;
  const gchar *names[2] = { "a", "b" };
  PipelineCheck pc[2];
  GHashTable *memories = g_hash_table_new (NULL, NULL);
  GstElement *pipeline, *eps[2];
  GstMessage *msg;
  GstBus *bus;
  GError *error = NULL;
  DeviceInfo dev;
  gboolean pinning;
  gchar *desc;
  guint i;

  if (!have_factory ("videotestsrc") || !have_factory ("tee")) {
    g_print ("NOTE: videotestsrc or tee is not available; skipping\n");
    g_hash_table_unref (memories);
    return;
  }
  desc = g_strdup_printf ("videotestsrc num-buffers=%u pattern=ball ! "
      "video/x-raw,format=NV12,width=160,height=120 ! tee name=t "
      "t. ! queue max-size-buffers=2 ! clepsilon name=a device=\"%s\" "
      "threshold=20 window-size=9 ! fakesink name=sink-a signal-handoffs=true "
      "t. ! queue max-size-buffers=2 ! clepsilon name=b device=\"%s\" "
      "threshold=20 window-size=9 ! fakesink name=sink-b signal-handoffs=true",
      n_frames, rt_device (), rt_device ());
  pipeline = gst_parse_launch (desc, &error);
  fail_unless (pipeline != NULL && error == NULL, "%s: %s", desc,
      error ? error->message : "no pipeline");
  for (i = 0; i < 2; i++) {
    gchar *sink_name = g_strdup_printf ("sink-%s", names[i]);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), sink_name);
    GstPad *pad;

    memset (&pc[i], 0, sizeof (pc[i]));
    g_mutex_init (&pc[i].lock);
    g_queue_init (&pc[i].expected);
    fail_unless (gst_video_info_set_format (&pc[i].info,
            GST_VIDEO_FORMAT_NV12, 160, 120));
    th_params_init (&pc[i].params, 20, 9, 0);
    eps[i] = gst_bin_get_by_name (GST_BIN (pipeline), names[i]);
    fail_unless (eps[i] != NULL && sink != NULL);
    pad = gst_element_get_static_pad (eps[i], "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, pipeline_input_probe,
        &pc[i], NULL);
    if (i == 0)
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER,
          count_memories_probe, memories, NULL);
    gst_object_unref (pad);
    g_signal_connect (sink, "handoff", G_CALLBACK (pipeline_handoff), &pc[i]);
    gst_object_unref (sink);
    g_free (sink_name);
  }

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "%s: no EOS within 120 s", desc);
  gst_message_unref (msg);
  gst_object_unref (bus);

  dev = element_device (eps[0]);
  pinning = !dev.host_unified &&
      g_strcmp0 (g_getenv ("GST_CL_DISCRETE"), "1") == 0;
  for (i = 0; i < 2; i++) {
    Stats s;
    gchar *d;

    get_stats (eps[i], &s);
    d = stats_describe (&s);
    GST_INFO ("%s: %s; %u memories", names[i], d, g_hash_table_size (memories));
    fail_unless (pc[i].error == NULL, "%s: %s", names[i], pc[i].error);
    fail_unless (pc[i].n_in == n_frames && pc[i].n_out == n_frames,
        "%s: %u inputs and %u outputs", names[i], pc[i].n_in, pc[i].n_out);
    fail_unless (s.frames == n_frames, "%s: stats: %s", names[i], d);
    if (pinning)
      fail_unless (s.frames - s.zero_copy_frames <=
          2 * g_hash_table_size (memories), "%s: more than two frames of "
          "each of %u memories staged: %s", names[i],
          g_hash_table_size (memories), d);
    g_free (d);
  }
  /* the check bites only where the pool's buffers come back */
  fail_unless (g_hash_table_size (memories) * 4 <= n_frames,
      "%u memories for %u frames", g_hash_table_size (memories), n_frames);

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  for (i = 0; i < 2; i++) {
    gst_object_unref (eps[i]);
    g_queue_clear_full (&pc[i].expected, (GDestroyNotify) gst_buffer_unref);
    gst_clear_buffer (&pc[i].last_in);
    gst_clear_buffer (&pc[i].last_exp);
    g_mutex_clear (&pc[i].lock);
  }
  gst_object_unref (pipeline);
  g_hash_table_unref (memories);
  g_free (desc);
}

GST_END_TEST;

/* Upstream writes its frames into the pool the element proposes. */
GST_START_TEST (test_upstream_uses_pool)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
    guint chroma;
  } cases[] = {
    {GST_VIDEO_FORMAT_NV12, 320, 240, 0},
    {GST_VIDEO_FORMAT_I420, 97, 61, 14},
    {GST_VIDEO_FORMAT_YUY2, 97, 61, 14},
    {GST_VIDEO_FORMAT_UYVY, 33, 2, 0},
  };
  const guint n_frames = 4;
  guint c, i;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GRand *rand = g_rand_new_with_seed (0x9001 + c);
    RefParams p;
    GstVideoInfo info;
    GstHarness *hr;
    GstBufferPool *pool;
    DeviceInfo dev;
    guint size;
    gchar *ctx;

    th_params_init (&p, 20, 7, cases[c].chroma);
    hr = make_harness (cases[c].fmt, cases[c].w, cases[c].h, &p, &info);
    dev = element_device (hr->element);
    ctx = g_strdup_printf ("[upstream pool] %s %dx%d chroma-threshold %u",
        gst_video_format_to_string (cases[c].fmt), cases[c].w, cases[c].h,
        cases[c].chroma);

    pool = query_proposed_pool (hr, &info, &size, ctx);
    fail_unless (gst_buffer_pool_set_active (pool, TRUE),
        "%s: cannot activate the proposed pool", ctx);

    for (i = 0; i < n_frames; i++) {
      GstBuffer *in = acquire_pool_buffer (pool, &info, ctx);
      GstBuffer *out;

      th_fill_bytes (in, rand);
      th_fill_buffer (&info, in, rand, TH_FILL_SMOOTH);
      /* still the pool's memory once written */
      check_cl_memory (in, "pool buffer once written", ctx);
      GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
      out = th_push_check (hr, &info, in, &p, ctx);
      /* the output comes from the element's own OpenCL pool */
      check_cl_memory (out, "output buffer", ctx);
      gst_buffer_unref (out);
    }
    check_zero_copy_stats (hr->element, &dev, NULL, n_frames, ctx);

    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
    th_teardown_checked (hr);
    g_free (ctx);
    g_rand_free (rand);
  }
}

GST_END_TEST;

/* The address of memory @m of @buf, read without changing the buffer. */
static guintptr
memory_address (GstBuffer * buf, guint m)
{
  GstMemory *mem = gst_buffer_peek_memory (buf, m);
  GstMapInfo map;
  guintptr addr;

  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  addr = (guintptr) map.data;
  gst_memory_unmap (mem, &map);
  return addr;
}

static void
add_video_meta (GstBuffer * buf, const GstVideoInfo * info,
    const gsize * offsets, const gint * strides)
{
  gsize o[GST_VIDEO_MAX_PLANES] = { 0, };
  gint s[GST_VIDEO_MAX_PLANES] = { 0, };
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    o[i] = offsets[i];
    s[i] = strides[i];
  }
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), o, s);
}

/* A GstVideoMeta that gives the default layout of @info. */
static void
add_default_video_meta (GstBuffer * buf, const GstVideoInfo * info)
{
  add_video_meta (buf, info, info->offset, info->stride);
}

/* The bytes of @src in a new buffer of several system memories, cut at
 * @cuts (increasing offsets). Each memory is written on its own, so that
 * they stay separate. */
static GstBuffer *
copy_to_memories (GstBuffer * src, const gsize * cuts, guint n_cuts)
{
  gsize size = gst_buffer_get_size (src), start = 0;
  GstBuffer *buf = gst_buffer_new ();
  guint i;

  for (i = 0; i <= n_cuts; i++) {
    gsize end = i < n_cuts ? cuts[i] : size;
    GstMemory *mem = gst_allocator_alloc (NULL, end - start, NULL);
    GstMapInfo map;

    fail_unless (end > start);
    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    fail_unless_equals_int (gst_buffer_extract (src, start, map.data,
            end - start), end - start);
    gst_memory_unmap (mem, &map);
    gst_buffer_append_memory (buf, mem);
    start = end;
  }
  fail_unless_equals_int (gst_buffer_n_memory (buf), n_cuts + 1);
  return buf;
}

/* The bytes of @src in one memory at an odd address: a share, at offset 1,
 * of a larger memory; it ends at most one byte before an inaccessible page,
 * so that reading further past its end crashes. */
static GstBuffer *
copy_to_odd_share (GstBuffer * src)
{
  gsize size = gst_buffer_get_size (src);
  GstMemory *parent = th_guarded_memory_new (size + 1, 2, FALSE);
  GstBuffer *buf = gst_buffer_new ();
  GstMapInfo map;

  fail_unless (gst_memory_map (parent, &map, GST_MAP_WRITE));
  map.data[0] = 0xa5;
  fail_unless_equals_int (gst_buffer_extract (src, 0, map.data + 1, size),
      size);
  gst_memory_unmap (parent, &map);
  gst_buffer_append_memory (buf, gst_memory_share (parent, 1, size));
  gst_memory_unref (parent);
  fail_unless ((memory_address (buf, 0) & 1) == 1);
  return buf;
}

/* Upstream's own single system memory at a 128-byte aligned address: wrapped
 * in place where the device shares host memory. */
GST_START_TEST (test_system_memory_aligned)
{
  const guint n_frames = 3;
  GRand *rand = g_rand_new_with_seed (0xa119);
  RefParams p;
  GstVideoInfo info;
  GstHarness *hr;
  DeviceInfo dev;
  GstAllocationParams params;
  const gchar *ctx = "[aligned system memory] NV12 200x120";
  guint i;

  th_params_init (&p, 20, 5, 0);
  hr = make_harness (GST_VIDEO_FORMAT_NV12, 200, 120, &p, &info);
  dev = element_device (hr->element);
  gst_allocation_params_init (&params);
  params.align = wrap_align (&dev) - 1;

  for (i = 0; i < n_frames; i++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, &params);

    th_fill_bytes (in, rand);
    th_fill_buffer (&info, in, rand, TH_FILL_SMOOTH);
    fail_unless_equals_int (gst_buffer_n_memory (in), 1);
    fail_unless (memory_address (in, 0) % wrap_align (&dev) == 0,
        "gst_buffer_new_allocate ignored the alignment");
    gst_buffer_unref (th_push_check (hr, &info, in, &p, ctx));
  }

  if (dev.host_unified)
    check_zero_copy_stats (hr->element, &dev, NULL, n_frames, ctx);
  else
    check_copy_stats (hr->element, NULL, n_frames, image_payload (&info), ctx);

  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* One GstMemory per plane, located by a GstVideoMeta: cannot be wrapped as
 * one OpenCL buffer, so the element maps the frame and transfers. */
GST_START_TEST (test_system_memory_per_plane)
{
  guint f;

  RT_FOR_EACH_FORMAT (f, rt_formats_420) {
    GRand *rand = g_rand_new_with_seed (0x9e7 + f);
    RefParams p;
    GstVideoInfo info;
    GstHarness *hr;
    GstBuffer *plain, *in;
    guint n_planes;
    gchar *ctx;

    th_params_init (&p, 20, 7, f == 1 ? 11 : 0);
    hr = make_harness (rt_formats_420[f], 75, 43, &p, &info);
    ctx = g_strdup_printf ("[memory per plane] %s 75x43",
        gst_video_format_to_string (rt_formats_420[f]));
    n_planes = GST_VIDEO_INFO_N_PLANES (&info);

    plain = th_make_input (&info, rand, TH_FILL_SMOOTH);
    in = copy_to_memories (plain, &info.offset[1], n_planes - 1);
    gst_buffer_unref (plain);
    add_default_video_meta (in, &info);
    fail_unless_equals_int (gst_buffer_n_memory (in), n_planes);
    fail_unless_equals_int (gst_buffer_get_size (in), info.size);

    gst_buffer_unref (th_push_check (hr, &info, in, &p, ctx));
    check_copy_stats (hr->element, NULL, 1, image_payload (&info), ctx);

    th_teardown_checked (hr);
    g_free (ctx);
    g_rand_free (rand);
  }
}

GST_END_TEST;

/* Two memories that split the luma plane, no video meta: mapping the frame
 * merges them; the output must still be exact. */
GST_START_TEST (test_system_memory_split_no_meta)
{
  GRand *rand = g_rand_new_with_seed (0x5b117);
  RefParams p;
  GstVideoInfo info;
  GstHarness *hr;
  GstBuffer *plain, *in;
  gsize cut;
  const gchar *ctx = "[two memories, no meta] NV12 64x36";

  th_params_init (&p, 25, 5, 9);
  hr = make_harness (GST_VIDEO_FORMAT_NV12, 64, 36, &p, &info);
  cut = info.offset[1] / 2 + 13;
  plain = th_make_input (&info, rand, TH_FILL_SMOOTH);
  in = copy_to_memories (plain, &cut, 1);
  gst_buffer_unref (plain);

  gst_buffer_unref (th_push_check (hr, &info, in, &p, ctx));
  check_copy_stats (hr->element, NULL, 1, image_payload (&info), ctx);

  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* One system memory at an odd address (a share of a larger memory at offset
 * 1), with a video meta: cannot be wrapped, goes through the fallback. */
GST_START_TEST (test_system_memory_unaligned)
{
  guint f;

  RT_FOR_EACH_FORMAT (f, rt_formats_420) {
    GRand *rand = g_rand_new_with_seed (0x0dd + f);
    RefParams p;
    GstVideoInfo info;
    GstHarness *hr;
    GstBuffer *plain, *in;
    gchar *ctx;

    th_params_init (&p, 20, 9, 13);
    hr = make_harness (rt_formats_420[f], 81, 47, &p, &info);
    ctx = g_strdup_printf ("[unaligned system memory] %s 81x47",
        gst_video_format_to_string (rt_formats_420[f]));

    plain = th_make_input (&info, rand, TH_FILL_SMOOTH);
    in = copy_to_odd_share (plain);
    gst_buffer_unref (plain);
    add_default_video_meta (in, &info);

    gst_buffer_unref (th_push_check (hr, &info, in, &p, ctx));
    /* An odd address cannot be wrapped: the frame took the fallback. */
    check_copy_stats (hr->element, NULL, 1, image_payload (&info), ctx);

    th_teardown_checked (hr);
    g_free (ctx);
    g_rand_free (rand);
  }
}

GST_END_TEST;

/* A buffer with a GstVideoMeta: strides @extra bytes larger than needed and
 * gaps of @gap (and more) bytes between planes, in one system memory aligned
 * to @align or, where @align is 0, at an odd address that ends at an
 * inaccessible page. Non-image bytes are random. */
static GstBuffer *
make_padded_input (const GstVideoInfo * info, GRand * rand, gint extra,
    gint gap, gsize align)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  guint n_planes = GST_VIDEO_INFO_N_PLANES (info);
  gsize pos = gap;
  GstBuffer *buf;
  guint p;

  for (p = 0; p < n_planes; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint row_bytes = rt_row_bytes (info, p), rows;

    gst_video_format_info_component (info->finfo, p, comp);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    stride[p] = row_bytes + extra;
    offset[p] = pos;
    /* the last plane ends the buffer: no slack after its last row */
    pos += (gsize) stride[p] * (rows - 1) + row_bytes;
    if (p + 1 < n_planes)
      pos += extra + gap + 7 * p;
  }
  if (align == 0 && (pos & 1) == 0) {
    /* an odd size, so that an odd address ends right at the guard page */
    offset[0]++;
    for (p = 1; p < n_planes; p++)
      offset[p]++;
    pos++;
  }

  buf = gst_buffer_new ();
  if (align > 0) {
    GstAllocationParams params;

    gst_allocation_params_init (&params);
    params.align = align - 1;
    gst_buffer_append_memory (buf, gst_allocator_alloc (NULL, pos, &params));
    fail_unless (memory_address (buf, 0) % align == 0);
  } else {
    gst_buffer_append_memory (buf, th_guarded_memory_new (pos, 1, TRUE));
    fail_unless ((memory_address (buf, 0) & 1) == 1);
  }
  add_video_meta (buf, info, offset, stride);
  th_fill_bytes (buf, rand);
  th_fill_buffer (info, buf, rand, TH_FILL_SMOOTH);
  fail_unless_equals_int (gst_buffer_n_memory (buf), 1);
  return buf;
}

/* Padded strides and plane gaps given by a GstVideoMeta on a system buffer
 * without a pool: the aligned memory is wrapped in place (zero-copy on a
 * host-unified device) and the meta's layout followed; at an odd address the
 * same layout goes through the fallback. */
GST_START_TEST (test_padded_strides_system_memory)
{
  /* { extra stride bytes, gap between planes } */
  static const gint layouts[][2] = { {64, 256}, {3, 5} };
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY
  };
  guint f, l;

  RT_FOR_EACH_FORMAT (f, formats) {
    GRand *rand = g_rand_new_with_seed (0x7add + f);
    RefParams p;
    GstVideoInfo info;
    GstHarness *hr;
    DeviceInfo dev;

    th_params_init (&p, 20, 7, 15);
    hr = make_harness (formats[f], 37, 23, &p, &info);
    dev = element_device (hr->element);

    for (l = 0; l < G_N_ELEMENTS (layouts); l++) {
      gchar *ctx = g_strdup_printf ("[padded strides] %s 37x23 stride+%d "
          "gap %d", gst_video_format_to_string (formats[f]),
          layouts[l][0], layouts[l][1]);
      gchar *ctx_odd = g_strdup_printf ("%s, odd address", ctx);
      GstBuffer *in;
      Stats before;

      /* wrapped path */
      get_stats (hr->element, &before);
      in = make_padded_input (&info, rand, layouts[l][0], layouts[l][1],
          wrap_align (&dev));
      gst_buffer_unref (th_push_check (hr, &info, in, &p, ctx));
      if (dev.host_unified)
        check_zero_copy_stats (hr->element, &dev, &before, 1, ctx);

      /* fallback path, same layout */
      get_stats (hr->element, &before);
      in = make_padded_input (&info, rand, layouts[l][0], layouts[l][1], 0);
      gst_buffer_unref (th_push_check (hr, &info, in, &p, ctx_odd));
      check_copy_stats (hr->element, &before, 1, image_payload (&info),
          ctx_odd);

      g_free (ctx_odd);
      g_free (ctx);
    }
    th_teardown_checked (hr);
    g_rand_free (rand);
  }
}

GST_END_TEST;

/* Downstream that does not take a GstVideoMeta gets frames in the default
 * layout; downstream that does gets a meta describing them. Either way the
 * output is the element's own OpenCL memory and exact. */
static void
check_downstream (gboolean downstream_video_meta)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
  } cases[] = {
    {GST_VIDEO_FORMAT_NV12, 45, 27},
    {GST_VIDEO_FORMAT_I420, 45, 27},
    {GST_VIDEO_FORMAT_YV12, 30, 18},
    {GST_VIDEO_FORMAT_GRAY8, 33, 5},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GRand *rand = g_rand_new_with_seed (0xd0e + c);
    RefParams p;
    GstVideoInfo info;
    GstHarness *hr;
    GstBuffer *in, *out;
    GstVideoMeta *meta;
    gchar *ctx;
    guint i;

    th_params_init (&p, 20, 5, 10);
    hr = make_harness_full (cases[c].fmt, cases[c].w, cases[c].h, &p,
        downstream_video_meta, &info);
    ctx = g_strdup_printf ("[downstream %s video meta] %s %dx%d",
        downstream_video_meta ? "with" : "without",
        gst_video_format_to_string (cases[c].fmt), cases[c].w, cases[c].h);

    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    th_fill_bytes (in, rand);
    th_fill_buffer (&info, in, rand, TH_FILL_SMOOTH);
    out = th_push_check (hr, &info, in, &p, ctx);
    check_cl_memory (out, "output buffer", ctx);
    fail_unless (gst_buffer_get_size (out) >= info.size,
        "%s: output of %" G_GSIZE_FORMAT " bytes, a frame needs %"
        G_GSIZE_FORMAT, ctx, gst_buffer_get_size (out), info.size);

    meta = gst_buffer_get_video_meta (out);
    if (downstream_video_meta) {
      fail_unless (meta != NULL, "%s: output without GstVideoMeta", ctx);
      fail_unless_equals_int (meta->format, GST_VIDEO_INFO_FORMAT (&info));
      fail_unless_equals_int (meta->width, GST_VIDEO_INFO_WIDTH (&info));
      fail_unless_equals_int (meta->height, GST_VIDEO_INFO_HEIGHT (&info));
    } else if (meta != NULL) {
      /* A meta is allowed only if it describes the default layout, which is
       * all such a downstream element can read. */
      for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&info); i++) {
        fail_unless (meta->offset[i] == info.offset[i] &&
            meta->stride[i] == info.stride[i],
            "%s: plane %u at offset %" G_GSIZE_FORMAT " stride %d, the "
            "default layout has %" G_GSIZE_FORMAT " and %d", ctx, i,
            meta->offset[i], meta->stride[i], info.offset[i], info.stride[i]);
      }
    }
    gst_buffer_unref (out);
    th_teardown_checked (hr);
    g_free (ctx);
    g_rand_free (rand);
  }
}

GST_START_TEST (test_downstream_without_video_meta)
{
  check_downstream (FALSE);
}

GST_END_TEST;

GST_START_TEST (test_downstream_with_video_meta)
{
  check_downstream (TRUE);
}

GST_END_TEST;

/* With chroma untouched and a downstream that reads plane offsets from the
 * video meta, on a host-unified device, the output's chroma is a share of
 * the input's own memory holding the chroma bytes only: no copy by the CPU
 * or by OpenCL, and the buffer read whole is still exactly one frame in the
 * default layout. The pool takes the share off when a buffer comes back,
 * so buffers are reused whole.
 * Without a video meta downstream, or on a discrete GPU (where a device
 * copy measured faster), chroma is copied into the output. */
GST_START_TEST (test_untouched_planes_shared)
{
  guint f, i, meta_case;

  for (meta_case = 0; meta_case < 2; meta_case++) {
    RT_FOR_EACH_FORMAT (f, rt_formats_420) {
      GRand *rand = g_rand_new_with_seed (0x5a4e + f);
      gboolean with_meta = meta_case == 0, shared;
      RefParams p;
      DeviceInfo dev;
      GstVideoInfo info;
      GstHarness *hr;
      Stats s;
      gchar *ctx = g_strdup_printf ("[untouched planes, downstream %s video "
          "meta] %s", with_meta ? "with" : "without",
          gst_video_format_to_string (rt_formats_420[f]));

      th_params_init (&p, 20, 5, 0);
      hr = make_harness_full (rt_formats_420[f], 45, 27, &p, with_meta, &info);
      dev = element_device (hr->element);
      /* system memory input: its untouched planes are shared on any
       * device (on a discrete GPU they would cross to it and back) */
      shared = with_meta;
      for (i = 0; i < 4; i++) {
        GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL);
        GstBuffer *out;

        GstBuffer *exp;

        th_fill_bytes (in, rand);
        th_fill_buffer (&info, in, rand, TH_FILL_SMOOTH);
        exp = rt_make_expected (&info, in, &p);
        gst_buffer_ref (in);
        out = th_push_check (hr, &info, in, &p, ctx);
        check_whole_buffer (&info, out, exp, ctx);
        gst_buffer_unref (exp);
        if (shared) {
          GstMemory *chroma;

          fail_unless_equals_int (gst_buffer_n_memory (out), 2);
          chroma = gst_buffer_peek_memory (out, 1);
          fail_unless (chroma->parent == gst_buffer_peek_memory (in, 0),
              "%s: the output's chroma is not a share of the input's memory",
              ctx);
          fail_unless_equals_int ((gint) chroma->size,
              (gint) (info.size - info.offset[1]));
        } else {
          fail_unless_equals_int (gst_buffer_n_memory (out), 1);
        }
        gst_buffer_unref (in);
        gst_buffer_unref (out);
      }
      get_stats (hr->element, &s);
      /* On a discrete GPU, frames from system memory are copied by the CPU
       * into pinned staging memory: luma, and chroma only where it is not
       * shared. */
      fail_unless (s.host_copy_bytes == (guint64) (dev.host_unified ? 0 :
              4 * (shared ? GST_VIDEO_INFO_COMP_WIDTH (&info, 0) *
                  GST_VIDEO_INFO_COMP_HEIGHT (&info, 0) :
                  GST_VIDEO_INFO_COMP_WIDTH (&info, 0) *
                  GST_VIDEO_INFO_COMP_HEIGHT (&info, 0) +
                  2 * GST_VIDEO_INFO_COMP_WIDTH (&info, 1) *
                  GST_VIDEO_INFO_COMP_HEIGHT (&info, 1))),
          "%s: %" G_GUINT64_FORMAT " bytes copied by the CPU", ctx,
          s.host_copy_bytes);
      if (shared)
        fail_unless (s.device_copy_bytes == 0,
            "%s: chroma was copied (%" G_GUINT64_FORMAT " bytes)", ctx,
            s.device_copy_bytes);
      else
        fail_unless (s.device_copy_bytes > 0 || s.upload_bytes > 0 ||
            s.host_copy_bytes > 0, "%s: chroma neither shared nor copied", ctx);
      th_teardown_checked (hr);
      g_free (ctx);
      g_rand_free (rand);
    }
  }
}

GST_END_TEST;

/* NV12 frames through a clepsilon at frames-in-flight=3: four inputs and
 * their references, and the element's proposed pool, active. */
typedef struct
{
  GstHarness *hr;
  GstVideoInfo info;
  GstBufferPool *pool;
  GstBuffer *inputs[4], *exps[4];
  const gchar *ctx;
} InFlightRun;

static void
in_flight_run_start (InFlightRun * run, gint w, gint h, const RefParams * p,
    guint32 seed, const gchar * ctx)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint i, size;

  run->ctx = ctx;
  run->hr = th_harness_new (make_element (p), GST_VIDEO_FORMAT_NV12, w, h, 0,
      &run->info);
  g_object_set (run->hr->element, "frames-in-flight", 3, NULL);
  run->pool = query_proposed_pool (run->hr, &run->info, &size, ctx);
  fail_unless (gst_buffer_pool_set_active (run->pool, TRUE));
  for (i = 0; i < G_N_ELEMENTS (run->inputs); i++) {
    run->inputs[i] = th_make_input (&run->info, rand, TH_FILL_SMOOTH);
    run->exps[i] = rt_make_expected (&run->info, run->inputs[i], p);
  }
  g_rand_free (rand);
}

/* Frame @n's input: input @n mod 4, copied into a buffer of the pool or of
 * system memory. */
static GstBuffer *
in_flight_run_input (InFlightRun * run, guint n, gboolean from_pool)
{
  GstBuffer *in = run->inputs[n % G_N_ELEMENTS (run->inputs)];

  in = from_pool ? pool_copy (run->pool, &run->info, in, run->ctx) :
      gst_buffer_copy_deep (in);
  GST_BUFFER_PTS (in) = n * GST_SECOND / 30;
  return in;
}

/* Checks @out (taken) as frame @n's output. */
static void
in_flight_run_check (InFlightRun * run, guint n, GstBuffer * out)
{
  guint k = n % G_N_ELEMENTS (run->inputs);
  gchar *what = g_strdup_printf ("%s: frame %u (input %u)", run->ctx, n, k);

  fail_unless (out != NULL, "%s: no output", what);
  th_check_frame (&run->info, out, run->exps[k], 0, what);
  gst_buffer_unref (out);
  g_free (what);
}

static void
in_flight_run_finish (InFlightRun * run)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (run->inputs); i++) {
    gst_buffer_unref (run->inputs[i]);
    gst_buffer_unref (run->exps[i]);
  }
  fail_unless (gst_buffer_pool_set_active (run->pool, FALSE));
  gst_object_unref (run->pool);
  th_teardown_checked (run->hr);
}

/* A slow consumer: more frames than are in flight pushed before any output
 * is read, frames large enough that each slot comes round again while its
 * previous frame may still run; every output is compared with the
 * reference of its own input. Inputs alternate between system memory and
 * the element's proposed pool, and four inputs take turns in three slots,
 * so that a slot reused too early shows another frame's samples. */
GST_START_TEST (test_frames_in_flight_slow_consumer)
{
  const guint n_frames = 12;
  InFlightRun run;
  RefParams p;
  guint i;

  th_params_init (&p, 40, 15, 25);
  /* an odd number of rows: a CPU copy split over threads has a remainder */
  in_flight_run_start (&run, 1920, 1081, &p, 0x51c0,
      "[slow consumer] NV12 1920x1081 frames-in-flight=3");
  for (i = 0; i < n_frames; i++) {
    GstFlowReturn ret = gst_harness_push (run.hr,
        in_flight_run_input (&run, i, i % 2));

    fail_unless (ret == GST_FLOW_OK, "%s: push %u returned %s", run.ctx, i,
        gst_flow_get_name (ret));
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (run.hr), n_frames);
  for (i = 0; i < n_frames; i++)
    in_flight_run_check (&run, i, gst_harness_pull (run.hr));
  in_flight_run_finish (&run);
}

GST_END_TEST;

/* An output that downstream drops without mapping it (fakesink) goes back
 * to the pool with its frame's commands maybe still running: on a discrete
 * GPU, a frame from the proposed pool has its untouched chroma copied into
 * the output by the device, after the kernels. The next frame, from system
 * memory, gets that buffer again and its untouched chroma is copied by the
 * CPU: only once those commands are done, or they overwrite it. Frames in
 * flight, inputs from the pool and from system memory in turn; every
 * system-memory frame's output against its reference. */
GST_START_TEST (test_untouched_plane_after_dropped_output)
{
  InFlightRun run;
  RefParams p;
  guint i;

  th_params_init (&p, 40, 9, 0);
  in_flight_run_start (&run, 1280, 720, &p, 0x51c1,
      "[dropped output] NV12 1280x720 chroma untouched");
  for (i = 0; i < 8; i++) {
    gboolean from_pool = i % 2 == 0;
    GstBuffer *out = th_push_pull (run.hr,
        in_flight_run_input (&run, i, from_pool), run.ctx);

    if (from_pool)
      gst_buffer_unref (out);
    else
      in_flight_run_check (&run, i, out);
  }
  in_flight_run_finish (&run);
}

GST_END_TEST;

/* Sharing the input's chroma must not cost the input's pool its buffers:
 * the output keeps the input buffer until it is done with its memory, and
 * both come back whole to their pools and are reused, not reallocated. */
GST_START_TEST (test_shared_input_buffers_reused)
{
  static GQuark tag = 0;
  const gchar *ctx = "[shared chroma, input pool reuse] NV12 64x48";
  GRand *rand = g_rand_new_with_seed (0x5a4f);
  GstBufferPool *pool;
  GstVideoInfo info;
  GstHarness *hr;
  RefParams p;
  guint size, i, reused = 0;
  DeviceInfo dev;

  if (!tag)
    tag = g_quark_from_static_string ("test-input-tag");
  th_params_init (&p, 20, 5, 0);
  hr = make_harness_full (GST_VIDEO_FORMAT_NV12, 64, 48, &p, TRUE, &info);
  dev = element_device (hr->element);
  pool = query_proposed_pool (hr, &info, &size, ctx);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  for (i = 0; i < 6; i++) {
    GstBuffer *in = acquire_pool_buffer (pool, &info, ctx), *out;

    if (gst_mini_object_get_qdata (GST_MINI_OBJECT (in), tag))
      reused++;
    gst_mini_object_set_qdata (GST_MINI_OBJECT (in), tag, GINT_TO_POINTER (1),
        NULL);
    th_fill_buffer (&info, in, rand, TH_FILL_SMOOTH);
    out = th_push_check (hr, &info, in, &p, ctx);
    /* the pool's memory is host memory (SVM or mapped, or pinned and
     * mapped for good on a discrete GPU): its untouched chroma is shared */
    fail_unless_equals_int (gst_buffer_n_memory (out), 2);
    gst_buffer_unref (out);
  }
  /* Three frames in flight (a discrete GPU) each hold their input. */
  fail_unless (reused >= (dev.in_flight ? 2 : 5), "%s: only %u of 5 input "
      "buffers were reused", ctx, reused);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* New caps mid-stream: each frame, written into the pool proposed for its
 * caps, comes out exact; each new ALLOCATION query gets a new pool for the
 * new format and size. */
GST_START_TEST (test_caps_change_new_pool)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
  } steps[] = {
    {GST_VIDEO_FORMAT_NV12, 64, 48},
    {GST_VIDEO_FORMAT_I420, 33, 17},
    {GST_VIDEO_FORMAT_NV12, 1, 1},
  };
  GstBufferPool *pools[G_N_ELEMENTS (steps)] = { NULL, };
  GRand *rand = g_rand_new_with_seed (0xca95);
  RefParams p;
  GstVideoInfo info;
  GstHarness *hr;
  DeviceInfo dev;
  guint i, j;

  th_params_init (&p, 20, 5, 9);
  hr = make_harness (steps[0].fmt, steps[0].w, steps[0].h, &p, &info);
  dev = element_device (hr->element);

  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    gchar *ctx = g_strdup_printf ("[caps change] step %u: %s %dx%d", i,
        gst_video_format_to_string (steps[i].fmt), steps[i].w, steps[i].h);
    GstCaps *in_caps, *out_caps;
    GstBuffer *in, *out;
    guint size;

    if (i > 0)
      th_harness_set_format (hr, steps[i].fmt, steps[i].w, steps[i].h, &info);

    pools[i] = query_proposed_pool (hr, &info, &size, ctx);
    for (j = 0; j < i; j++)
      fail_unless (pools[i] != pools[j],
          "%s: the pool proposed for step %u was proposed again", ctx, j);
    fail_unless (gst_buffer_pool_set_active (pools[i], TRUE));

    in = acquire_pool_buffer (pools[i], &info, ctx);
    th_fill_bytes (in, rand);
    th_fill_buffer (&info, in, rand, TH_FILL_SMOOTH);
    out = th_push_check (hr, &info, in, &p, ctx);
    check_cl_memory (out, "output buffer", ctx);
    gst_buffer_unref (out);

    in_caps = gst_pad_get_current_caps (hr->srcpad);
    out_caps = gst_pad_get_current_caps (hr->sinkpad);
    fail_unless (in_caps != NULL && out_caps != NULL &&
        gst_caps_is_equal (in_caps, out_caps),
        "%s: output caps differ from input caps", ctx);
    gst_caps_unref (in_caps);
    gst_caps_unref (out_caps);
    g_free (ctx);
  }
  check_zero_copy_stats (hr->element, &dev, NULL, G_N_ELEMENTS (steps),
      "[caps change]");

  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    fail_unless (gst_buffer_pool_set_active (pools[i], FALSE));
    gst_object_unref (pools[i]);
  }
  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* Pushes @in, which the element must refuse: GST_FLOW_ERROR, one STREAM
 * error message on the bus, no output, no frame counted. */
static void
check_refused (GstHarness * hr, GstBuffer * in, guint64 frames_before,
    const gchar * ctx)
{
  GstFlowReturn ret;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;
  Stats s;

  ret = gst_harness_push (hr, in);
  fail_unless (ret == GST_FLOW_ERROR, "%s: push returned %s, expected %s",
      ctx, gst_flow_get_name (ret), gst_flow_get_name (GST_FLOW_ERROR));
  fail_unless (gst_harness_try_pull (hr) == NULL,
      "%s: an output came out of a refused buffer", ctx);

  msg = th_pop_error (hr);
  fail_unless (msg != NULL, "%s: no ERROR message posted", ctx);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (hr->element));
  gst_message_parse_error (msg, &err, &dbg);
  GST_INFO ("%s: error: %s (%s)", ctx, err->message, dbg ? dbg : "");
  fail_unless (err->domain == GST_STREAM_ERROR,
      "%s: error \"%s\" is in domain %s, expected a stream error", ctx,
      err->message, g_quark_to_string (err->domain));
  g_clear_error (&err);
  g_free (dbg);
  gst_message_unref (msg);
  fail_unless (th_pop_error (hr) == NULL, "%s: more than one error", ctx);

  get_stats (hr->element, &s);
  fail_unless (s.frames == frames_before,
      "%s: the refused frame was counted (%" G_GUINT64_FORMAT " frames)",
      ctx, s.frames);
}

static GstBuffer *
guarded_buffer (gsize size, gboolean odd)
{
  GstBuffer *buf = gst_buffer_new ();
  GstMapInfo map;
  gsize i;

  gst_buffer_append_memory (buf, th_guarded_memory_new (size,
          odd ? 1 : HOST_ALIGN, odd));
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  fail_unless (odd ? ((guintptr) map.data & 1) == 1 :
      (guintptr) map.data % HOST_ALIGN == 0);
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) (i * 7);
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* A buffer smaller than its caps need, without a video meta, is refused
 * with an ERROR and never read past its end (it ends at an inaccessible
 * page); the ERROR stops the stream until READY, after which the element
 * goes on with proper frames. */
GST_START_TEST (test_undersized_refused)
{
  GRand *rand = g_rand_new_with_seed (0x5ba11);
  RefParams p;
  GstVideoInfo info;
  GstHarness *hr;
  GstBuffer *in;
  gchar *ctx;
  guint i;
  static const struct
  {
    const gchar *what;
    gboolean half;              /* else one byte short */
    gboolean odd;
  } cases[] = {
    {"half size, aligned", TRUE, FALSE},
    {"half size, odd address", TRUE, TRUE},
    {"one byte short, aligned", FALSE, FALSE},
    {"one byte short, odd address", FALSE, TRUE},
  };

  th_params_init (&p, 20, 5, 10);
  hr = make_harness (GST_VIDEO_FORMAT_NV12, 64, 48, &p, &info);

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gsize size = cases[i].half ? info.size / 2 : info.size - 1;

    ctx = g_strdup_printf ("[undersized] NV12 64x48, %" G_GSIZE_FORMAT
        " of %" G_GSIZE_FORMAT " bytes, %s", size, info.size, cases[i].what);
    in = guarded_buffer (size, cases[i].odd);
    check_refused (hr, in, 0, ctx);
    g_free (ctx);
    th_restart_stream (hr, &info);
  }

  /* still working */
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  th_fill_bytes (in, rand);
  th_fill_buffer (&info, in, rand, TH_FILL_SMOOTH);
  gst_buffer_unref (th_push_check (hr, &info, in, &p,
          "[undersized] proper frame after the refused ones"));
  {
    Stats s;

    get_stats (hr->element, &s);
    fail_unless (s.frames == 1);
  }

  th_teardown_checked (hr);
  g_rand_free (rand);
}

GST_END_TEST;

/* Same with a GstVideoMeta giving the default layout, which the buffer is
 * one byte too small for: every plane starts inside the buffer, but the last
 * row of the last plane runs one byte past its end, onto the inaccessible
 * page. A crash (SIGSEGV) here means the element read past the end of the
 * buffer instead of refusing it. @odd: at an odd address, so that the
 * element cannot wrap the memory and maps the frame instead. */
static void
check_undersized_with_meta (gboolean odd)
{
  RefParams p;
  GstVideoInfo info;
  GstHarness *hr;
  GstBuffer *in;
  gsize size;
  gchar *ctx;

  th_params_init (&p, 20, 5, 10);
  hr = make_harness (GST_VIDEO_FORMAT_NV12, 64, 48, &p, &info);
  size = info.size - 1;
  fail_unless (size % 2 == 1, "the guard page must follow the last byte");
  fail_unless (info.offset[1] < size);

  in = guarded_buffer (size, odd);
  add_default_video_meta (in, &info);
  ctx = g_strdup_printf ("[undersized with video meta] NV12 64x48, %"
      G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes, %s", size, info.size,
      odd ? "odd address" : "aligned");
  check_refused (hr, in, 0, ctx);
  g_free (ctx);
  th_teardown_checked (hr);
}

GST_START_TEST (test_undersized_with_meta_refused_aligned)
{
  check_undersized_with_meta (FALSE);
}

GST_END_TEST;

GST_START_TEST (test_undersized_with_meta_refused_odd_address)
{
  check_undersized_with_meta (TRUE);
}

GST_END_TEST;

static Suite *
clepsilonmemory_suite (void)
{
  Suite *s = suite_create ("clepsilonmemory");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_stats_initial);
  tcase_add_test (tc, test_videotestsrc_nv12);
  tcase_add_test (tc, test_tee_system_memory);
  tcase_add_test (tc, test_videotestsrc_i420_chroma);
  tcase_add_test (tc, test_videotestsrc_packed_422);
  tcase_add_test (tc, test_upstream_uses_pool);
  tcase_add_test (tc, test_system_memory_aligned);
  tcase_add_test (tc, test_system_memory_per_plane);
  tcase_add_test (tc, test_system_memory_split_no_meta);
  tcase_add_test (tc, test_system_memory_unaligned);
  tcase_add_test (tc, test_padded_strides_system_memory);
  tcase_add_test (tc, test_downstream_without_video_meta);
  tcase_add_test (tc, test_downstream_with_video_meta);
  tcase_add_test (tc, test_untouched_planes_shared);
  tcase_add_test (tc, test_shared_input_buffers_reused);
  tcase_add_test (tc, test_frames_in_flight_slow_consumer);
  tcase_add_test (tc, test_untouched_plane_after_dropped_output);
  tcase_add_test (tc, test_caps_change_new_pool);
  tcase_add_test (tc, test_undersized_refused);
  tcase_add_test (tc, test_undersized_with_meta_refused_aligned);
  tcase_add_test (tc, test_undersized_with_meta_refused_odd_address);

  return s;
}

GST_CHECK_MAIN (clepsilonmemory);
