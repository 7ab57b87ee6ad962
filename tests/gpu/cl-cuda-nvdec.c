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

/* cl-cuda-nvdec CLIP [DEVICE] [DECODE]
 *
 * What GStreamer's NVIDIA decoders (1.22's nvh264dec, nvh265dec,
 * nvmpeg2videodec...) hand on in memory:CUDAMemory, and whether
 * gst/gstclcuda.c takes it into OpenCL, without libgstcuda's headers.
 * Decodes CLIP with DECODE (default "qtdemux ! h264parse ! nvh264dec"; any
 * format of whole bytes: NV12, P010_10LE...) into an appsink that asks for
 * CUDA memory, and prints
 *  - the gst.cuda.context GstContext the decoder posts: its structure, the
 *    GstCudaContext's properties, its CUcontext from libgstcuda-1.0's
 *    gst_cuda_context_get_handle(); what a context query upstream answers;
 *  - per frame: the memory's allocator, the video meta, the planes'
 *    CUdeviceptr and pitch from a GST_MAP_CUDA map, the GstCudaMemory
 *    fields at 1.22's offsets, the pointer's own CUcontext;
 *  - each frame copied into a pool buffer of the OpenCL device DEVICE
 *    (default "nvidia"), read back, and compared bit for bit with the same
 *    frame mapped to system memory (the decoder's own download); the
 *    median time of the copy. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <gmodule.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include "gstclcontext-private.h"
#include "gstclcuda-private.h"

/* GStreamer 1.22's gst/cuda/gstcudamemory.h */
#define GST_MAP_CUDA (GST_MAP_FLAG_LAST << 1)
typedef struct
{
  GstMemory mem;
  GstObject *context;           /* GstCudaContext */
  GstVideoInfo info;
  gpointer priv;
  gpointer _gst_reserved[GST_PADDING];
} CudaMemory122;

typedef struct
{
  GstObject *posted;            /* the GstCudaContext of have-context */
    gpointer (*get_handle) (GstObject * cuda_context);
  GstClContext *ctx;
  GstClCudaPool *pool;
  guint8 *host;
  gdouble ms[1024];
  gint frames, identical;
  gint failed;                  /* an ERROR on the bus (atomic) */
} Probe;

static void
fail (const gchar * what, GError * error)
{
  g_printerr ("FAILED: %s%s%s\n", what, error ? ": " : "",
      error ? error->message : "");
  exit (1);
}

static void
print_properties (GObject * object)
{
  GParamSpec **specs;
  guint i, n;

  specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  for (i = 0; i < n; i++) {
    GValue value = G_VALUE_INIT;
    gchar *text;

    if (!(specs[i]->flags & G_PARAM_READABLE))
      continue;
    g_value_init (&value, specs[i]->value_type);
    g_object_get_property (object, specs[i]->name, &value);
    text = g_strdup_value_contents (&value);
    g_print ("    property \"%s\" (%s): %s\n", specs[i]->name,
        g_type_name (specs[i]->value_type), text);
    g_free (text);
    g_value_unset (&value);
  }
  g_free (specs);
}

/* Prints @context and keeps the GstCudaContext it carries. */
static void
print_context (Probe * p, GstContext * context, const gchar * how)
{
  const GstStructure *s = gst_context_get_structure (context);
  const GValue *v = gst_structure_get_value (s, "gst.cuda.context");
  gchar *text = gst_structure_to_string (s);

  g_print ("%s: type \"%s\", persistent %d, structure %s\n", how,
      gst_context_get_context_type (context),
      gst_context_is_persistent (context), text);
  g_free (text);
  if (v && G_VALUE_HOLDS_OBJECT (v)) {
    GObject *object = g_value_get_object (v);

    g_print ("  field \"gst.cuda.context\" holds a %s\n",
        G_OBJECT_TYPE_NAME (object));
    print_properties (object);
    if (p->get_handle)
      g_print ("  gst_cuda_context_get_handle (): CUcontext %p\n",
          p->get_handle (GST_OBJECT (object)));
    if (!p->posted)
      p->posted = gst_object_ref (GST_OBJECT (object));
  }
}

static GstBusSyncReply
on_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  const gchar *type = NULL;
  GstContext *context;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT &&
      gst_message_parse_context_type (msg, &type))
    g_print ("need-context \"%s\" from %s\n", type, GST_MESSAGE_SRC_NAME (msg));
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *error = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &error, &debug);
    g_print ("ERROR from %s: %s (%s)\n", GST_MESSAGE_SRC_NAME (msg),
        error->message, debug ? debug : "");
    g_atomic_int_set (&((Probe *) data)->failed, 1);
    g_clear_error (&error);
    g_free (debug);
  }
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
    gchar *how = g_strdup_printf ("have-context from %s",
        GST_MESSAGE_SRC_NAME (msg));

    gst_message_parse_have_context (msg, &context);
    print_context (data, context, how);
    gst_context_unref (context);
    g_free (how);
  }
  return GST_BUS_PASS;
}

static void
query_context (Probe * p, GstElement * sink)
{
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstQuery *query = gst_query_new_context ("gst.cuda.context");
  GstContext *context = NULL;

  if (gst_pad_peer_query (pad, query)) {
    gst_query_parse_context (query, &context);
    print_context (p, context, "context query upstream answered");
  } else {
    g_print ("context query upstream: no answer\n");
  }
  gst_query_unref (query);
  gst_object_unref (pad);
}

/* The pool and the device match, at the first frame, in the context that
 * owns the frame's memory. */
static void
make_pool (Probe * p, CUcontext cuda, gsize size, const gchar * spec)
{
  GError *error = NULL;
  gchar *reason = NULL;
  guint8 uuid[16];

  p->ctx = gst_cl_context_new (spec, &error);
  if (!p->ctx || !gst_cl_cuda_context_get_uuid (cuda, uuid, &error))
    fail ("OpenCL device or CUDA UUID", error);
  if (!gst_cl_cuda_device_matches (gst_cl_context_get_device (p->ctx), uuid,
          &reason)) {
    g_printerr ("FAILED: %s\n", reason);
    exit (1);
  }
  p->pool = gst_cl_cuda_pool_new (cuda, gst_cl_context_get_handle (p->ctx),
      gst_cl_context_get_device (p->ctx), 2, size, &error);
  if (!p->pool)
    fail ("pool", error);
  p->host = g_malloc (size);
}

/* Prints what the first frames are made of; returns the frame's CUcontext
 * (by cuPointerGetAttribute on plane 0). */
static CUcontext
describe (Probe * p, GstBuffer * buf, GstVideoFrame * frame)
{
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  CudaMemory122 *cmem = (CudaMemory122 *) mem;
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  CUdeviceptr y = (CUdeviceptr) GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  CUcontext cuda = gst_cl_cuda_pointer_get_context (y, NULL);

  g_print ("frame: %u memory, allocator %s (mem_type \"%s\"), video meta %s"
      " (strides %d %d, offsets %" G_GSIZE_FORMAT " %" G_GSIZE_FORMAT ")\n",
      gst_buffer_n_memory (buf), G_OBJECT_TYPE_NAME (mem->allocator),
      mem->allocator->mem_type, meta ? "yes" : "no", meta ? meta->stride[0] :
      0, meta ? meta->stride[1] : 0, meta ? meta->offset[0] : 0,
      meta ? meta->offset[1] : 0);
  g_print ("  GST_MAP_CUDA map: plane 0 CUdeviceptr 0x%" G_GINT64_MODIFIER
      "x stride %d, plane 1 0x%" G_GINT64_MODIFIER "x stride %d\n", y,
      GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0),
      (CUdeviceptr) GST_VIDEO_FRAME_PLANE_DATA (frame, 1),
      GST_VIDEO_FRAME_PLANE_STRIDE (frame, 1));
  g_print ("  GstCudaMemory at 1.22's offsets: context (offset %"
      G_GSIZE_FORMAT ") %s the posted GstCudaContext; info (offset %"
      G_GSIZE_FORMAT ") stride %d, offset[1] %" G_GSIZE_FORMAT ", size %"
      G_GSIZE_FORMAT "\n", G_STRUCT_OFFSET (CudaMemory122, context),
      cmem->context == p->posted ? "is" : "IS NOT",
      G_STRUCT_OFFSET (CudaMemory122, info), cmem->info.stride[0],
      cmem->info.offset[1], cmem->info.size);
  g_print ("  plane 0's context (cuPointerGetAttribute) %p, "
      "gst_cuda_context_get_handle () %p\n", cuda, p->get_handle ?
      p->get_handle (cmem->context) : NULL);
  return cuda;
}

/* The planes of @frame (mapped for CUDA), one after the other in a pool
 * buffer with rows of their width; returns the bytes they take there. */
static gsize
frame_planes (GstVideoFrame * frame, GstClCudaPlaneCopy * planes)
{
  const GstVideoInfo *info = &frame->info;
  gsize offset = 0;
  guint i;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gsize row;

    gst_video_format_info_component (info->finfo, i, comp);
    row = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
    planes[i].cuda_ptr = (CUdeviceptr) GST_VIDEO_FRAME_PLANE_DATA (frame, i);
    planes[i].cuda_pitch = GST_VIDEO_FRAME_PLANE_STRIDE (frame, i);
    planes[i].offset = offset;
    planes[i].pitch = planes[i].width_in_bytes = row;
    planes[i].height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    offset += row * planes[i].height;
  }
  return offset;
}

/* Reads pool buffer 0 back into p->host with OpenCL. */
static void
read_back (Probe * p, gsize size)
{
  cl_command_queue queue = gst_cl_context_get_queue (p->ctx);
  GError *error = NULL;

  if (!gst_cl_cuda_pool_acquire (p->pool, 0, queue, 0, NULL, NULL, &error) ||
      clEnqueueReadBuffer (queue, gst_cl_cuda_pool_get_buffer (p->pool, 0),
          CL_TRUE, 0, size, p->host, 0, NULL, NULL) != CL_SUCCESS ||
      !gst_cl_cuda_pool_release (p->pool, 0, queue, 0, NULL, NULL, &error) ||
      clFinish (queue) != CL_SUCCESS)
    fail ("OpenCL read back", error);
}

/* Copies the frame into a pool buffer, reads it back with OpenCL and
 * compares it with the frame mapped to system memory. */
static void
import_frame (Probe * p, GstBuffer * buf, GstVideoInfo * info,
    const gchar * spec)
{
  GstClCudaPlaneCopy planes[GST_VIDEO_MAX_PLANES];
  GstVideoFrame frame;
  GError *error = NULL;
  gint64 t0;
  guint i, row, n, differ = 0;
  gsize size;

  if (!gst_video_frame_map (&frame, info, buf, GST_MAP_READ | GST_MAP_CUDA))
    fail ("GST_MAP_CUDA map", NULL);
  n = GST_VIDEO_FRAME_N_PLANES (&frame);
  size = frame_planes (&frame, planes);
  if (!p->pool)
    make_pool (p, describe (p, buf, &frame), size, spec);
  else if (p->frames < 2)
    describe (p, buf, &frame);
  t0 = g_get_monotonic_time ();
  if (!gst_cl_cuda_pool_copy_in (p->pool, 0, planes, n, &error))
    fail ("copy in", error);
  p->ms[p->frames % G_N_ELEMENTS (p->ms)] =
      (g_get_monotonic_time () - t0) / 1e3;
  gst_video_frame_unmap (&frame);
  read_back (p, size);

  if (!gst_video_frame_map (&frame, info, buf, GST_MAP_READ))
    fail ("system memory map", NULL);
  for (i = 0; i < n; i++) {
    for (row = 0; row < planes[i].height; row++) {
      const guint8 *sys = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
          i) + (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, i);

      differ += memcmp (sys, p->host + planes[i].offset + row *
          planes[i].pitch, planes[i].width_in_bytes) != 0;
    }
  }
  gst_video_frame_unmap (&frame);
  p->identical += differ == 0;
  p->frames++;
}

static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  Probe p = { 0, };
  const gchar *reason;
  GError *error = NULL;
  GstElement *pipeline, *sink;
  GModule *gstcuda;
  GstSample *sample;
  gchar *desc;
  gint n;

  gst_init (&argc, &argv);
  if (argc < 2) {
    g_printerr ("usage: %s CLIP [DEVICE] [DECODE]\n", argv[0]);
    return 2;
  }
  desc = g_strdup_printf ("filesrc location=\"%s\" ! %s ! appsink name=sink "
      "sync=false caps=\"video/x-raw(memory:CUDAMemory)\"", argv[1],
      argc > 3 ? argv[3] : "qtdemux ! h264parse ! nvh264dec");
  pipeline = gst_parse_launch (desc, &error);
  g_free (desc);
  if (!pipeline || error)
    fail ("pipeline", error);
  if (!gst_cl_cuda_load (&reason))
    fail (reason, NULL);
  gstcuda = g_module_open ("libgstcuda-1.0.so.0", G_MODULE_BIND_LAZY);
  if (!gstcuda || !g_module_symbol (gstcuda, "gst_cuda_context_get_handle",
          (gpointer *) & p.get_handle))
    g_print ("libgstcuda-1.0.so.0: gst_cuda_context_get_handle not found\n");
  gst_bus_set_sync_handler (GST_ELEMENT_BUS (pipeline), on_message, &p, NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  /* an ERROR leaves appsink waiting for ever: pull with a timeout */
  while (!g_atomic_int_get (&p.failed) && (sample =
          gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              10 * GST_SECOND))) {
    GstVideoInfo info;

    if (p.frames == 0) {
      gchar *caps = gst_caps_to_string (gst_sample_get_caps (sample));

      g_print ("caps: %s\n", caps);
      g_free (caps);
      query_context (&p, sink);
    }
    gst_video_info_from_caps (&info, gst_sample_get_caps (sample));
    import_frame (&p, gst_sample_get_buffer (sample), &info,
        argc > 2 ? argv[2] : "nvidia");
    gst_sample_unref (sample);
  }
  if (!gst_app_sink_is_eos (GST_APP_SINK (sink)))
    g_print ("no EOS: %s\n", g_atomic_int_get (&p.failed) ? "an ERROR" :
        "no frame for 10 s");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  n = MIN (p.frames, (gint) G_N_ELEMENTS (p.ms));
  qsort (p.ms, n, sizeof (gdouble), compare_doubles);
  g_print ("%d frames decoded to CUDA memory, %d identical after the import "
      "to what the decoder downloads; copy into the pool: median %.4f ms\n",
      p.frames, p.identical, n ? p.ms[n / 2] : 0.0);
  gst_cl_cuda_pool_free (p.pool);
  g_clear_object (&p.ctx);
  g_clear_object (&p.posted);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (p.host);
  return p.frames > 0 && p.identical == p.frames && !p.failed ? 0 : 1;
}
