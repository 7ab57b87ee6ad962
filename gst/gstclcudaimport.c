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


/* GStreamer's CUDA memory as the element's frames: the device check, the
 * pool of a format's imported buffers, copies in and out
 * (gstclcudaimport-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclcudaimport-private.h"
#include "gstclcuda-private.h"
#include "gstclcudasync-private.h"
#include "gstclplane-private.h"
#include "gstclerror-private.h"
#include "gstclsharing-private.h"

#define GST_CAT_DEFAULT gst_cl_cuda_import_debug

struct _GstClCudaImport
{
  GstClContext *context;
  GstVideoInfo info;
  guint n_slots;
  CUcontext cuda_context;       /* of the first frame */
  GstClCudaPool *pool;
  gboolean other_gpu;           /* the frames are not on our device */
};

gboolean
gst_cl_is_cuda_memory (GstMemory * mem)
{
  return mem && mem->allocator &&
      g_strcmp0 (mem->allocator->mem_type, "gst.cuda.memory") == 0;
}

typedef CUresult (*DeviceGetCount) (gint * count);
typedef CUresult (*DeviceGet) (CUdevice * device, gint ordinal);
typedef CUresult (*DeviceGetUuid) (guint8 * uuid, CUdevice device);

/* The UUID of CUDA device @ordinal; FALSE where there is none. The driver
 * is loaded (gst_cl_cuda_load()). */
static gboolean
cuda_device_uuid (gint ordinal, guint8 uuid[16])
{
  DeviceGet get = (DeviceGet) gst_cl_cuda_symbol ("cuDeviceGet");
  DeviceGetUuid get_uuid =
      (DeviceGetUuid) gst_cl_cuda_symbol ("cuDeviceGetUuid");
  CUdevice device;

  return get && get_uuid && get (&device, ordinal) == CUDA_SUCCESS &&
      get_uuid (uuid, device) == CUDA_SUCCESS;
}

gboolean
gst_cl_cuda_usable (GstClContext * context, gchar ** reason)
{
  cl_device_id device = gst_cl_context_get_device (context);
  const gchar *load_reason = NULL;
  DeviceGetCount get_count;
  gint n = 0, i;

  gst_cl_debug_init ();
  if (!gst_cl_cuda_load (&load_reason)) {
    *reason = g_strdup (load_reason);
    return FALSE;
  }
  get_count = (DeviceGetCount) gst_cl_cuda_symbol ("cuDeviceGetCount");
  if (!get_count || get_count (&n) != CUDA_SUCCESS)
    n = 0;
  *reason = NULL;
  for (i = 0; i < n; i++) {
    guint8 uuid[16];

    g_clear_pointer (reason, g_free);
    if (!cuda_device_uuid (i, uuid))
      continue;
    if (gst_cl_cuda_device_matches (device, uuid, reason))
      return TRUE;
  }
  if (!*reason)
    *reason = g_strdup ("the CUDA driver lists no device");
  else if (n > 1) {
    gchar *one = *reason;

    *reason = g_strdup_printf ("none of the %d CUDA devices fits (%s)", n, one);
    g_free (one);
  }
  return FALSE;
}

gboolean
gst_cl_cuda_context_ordinal (GstContext * cuda_context, guint * ordinal)
{
  const GstStructure *s = gst_context_get_structure (cuda_context);
  const GValue *value = gst_structure_get_value (s, GST_CL_CUDA_CONTEXT_TYPE);
  GValue id = G_VALUE_INIT;
  GObject *object;

  if (gst_structure_get_uint (s, "cuda-device-id", ordinal))
    return TRUE;
  if (!value || !G_VALUE_HOLDS_OBJECT (value) ||
      !(object = g_value_get_object (value)) ||
      !g_object_class_find_property (G_OBJECT_GET_CLASS (object),
          "cuda-device-id"))
    return FALSE;
  g_value_init (&id, G_TYPE_UINT);
  g_object_get_property (object, "cuda-device-id", &id);
  *ordinal = g_value_get_uint (&id);
  return TRUE;
}

CUcontext
gst_cl_cuda_context_handle (GstContext * cuda_context)
{
  const GstStructure *s = gst_context_get_structure (cuda_context);
  const GValue *value = gst_structure_get_value (s, GST_CL_CUDA_CONTEXT_TYPE);
  CUcontext (*get_handle) (gpointer context) =
      gst_cl_gstcuda_symbol ("gst_cuda_context_get_handle");
  GObject *object;

  if (!get_handle || !value || !G_VALUE_HOLDS_OBJECT (value) ||
      !(object = g_value_get_object (value)))
    return NULL;
  return get_handle (object);
}

static gboolean
device_has_uuid (cl_device_id device, gpointer uuid)
{
  gchar *reason = NULL;
  gboolean same = gst_cl_cuda_device_matches (device, uuid, &reason);

  g_free (reason);
  return same;
}

gchar *
gst_cl_cuda_follow_upstream (GstElement * element, const gchar * device_spec,
    GstContext ** cuda_context)
{
  const gchar *reason = NULL;
  GstContext *context;
  gchar *followed = NULL;
  guint8 uuid[16];
  guint ordinal;

  gst_cl_debug_init ();
  if (!gst_cl_cuda_load (&reason) ||
      !(context = gst_cl_cuda_query_upstream (element, cuda_context)))
    return NULL;
  if (gst_cl_cuda_context_ordinal (context, &ordinal) &&
      cuda_device_uuid (ordinal, uuid))
    followed = gst_cl_context_narrow_spec (device_spec, device_has_uuid, uuid);
  gst_context_unref (context);
  if (followed)
    GST_INFO_OBJECT (element, "device \"%s\": OpenCL device %s, the GPU of "
        "the CUDA context upstream (CUDA device %u)",
        device_spec ? device_spec : "auto", followed, ordinal);
  return followed;
}

gboolean
gst_cl_cuda_offer (GstElement * element, GstClContext * context)
{
  gchar *reason = NULL;
  gboolean usable = gst_cl_cuda_usable (context, &reason);

  if (usable)
    GST_INFO_OBJECT (element, "memory:CUDAMemory offered: %s is a CUDA "
        "device", gst_cl_context_get_device_name (context));
  else
    GST_INFO_OBJECT (element, "memory:CUDAMemory not offered: %s", reason);
  g_free (reason);
  return usable;
}

typedef gpointer (*CudaBufferPoolNew) (gpointer cuda_context);

GstBufferPool *
gst_cl_cuda_buffer_pool_new (GstContext * cuda_context)
{
  CudaBufferPoolNew pool_new =
      (CudaBufferPoolNew) gst_cl_gstcuda_symbol ("gst_cuda_buffer_pool_new");
  const GValue *value;
  GObject *object;

  if (!pool_new || !cuda_context)
    return NULL;
  value = gst_structure_get_value (gst_context_get_structure (cuda_context),
      GST_CL_CUDA_CONTEXT_TYPE);
  if (!value || !G_VALUE_HOLDS_OBJECT (value) ||
      !(object = g_value_get_object (value)))
    return NULL;
  return pool_new (object);
}

GstClCudaImport *
gst_cl_cuda_import_new (GstClContext * context, const GstVideoInfo * info,
    guint n_slots)
{
  GstClCudaImport *self = g_new0 (GstClCudaImport, 1);

  gst_cl_debug_init ();
  self->context = gst_object_ref (context);
  self->info = *info;
  self->n_slots = MAX (n_slots, 1);
  return self;
}

void
gst_cl_cuda_import_free (GstClCudaImport * self)
{
  if (!self)
    return;
  gst_cl_cuda_pool_free (self->pool);
  gst_object_unref (self->context);
  g_free (self);
}

/* The pool, made for the CUDA context of @ptr (a frame's plane) at the
 * first frame; FALSE with @other_gpu where that context's GPU is not the
 * element's device (and @error unset), or with @error set. */
static gboolean
ensure_pool (GstClCudaImport * self, CUdeviceptr ptr, GError ** error)
{
  CUcontext cuda_context = gst_cl_cuda_pointer_get_context (ptr, error);
  cl_device_id device = gst_cl_context_get_device (self->context);
  gchar *reason = NULL;
  guint8 uuid[16];

  if (!cuda_context)
    return FALSE;
  if (self->pool && cuda_context == self->cuda_context)
    return TRUE;
  if (self->pool) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "CUDA frames of a second CUDA context in one format");
    return FALSE;
  }
  if (!gst_cl_cuda_context_get_uuid (cuda_context, uuid, error))
    return FALSE;
  if (!gst_cl_cuda_device_matches (device, uuid, &reason)) {
    GST_INFO ("CUDA frames go through host memory: %s", reason);
    g_free (reason);
    self->other_gpu = TRUE;
    return FALSE;
  }
  self->pool = gst_cl_cuda_pool_new (cuda_context,
      gst_cl_context_get_handle (self->context), device, self->n_slots,
      self->info.size, error);
  self->cuda_context = cuda_context;
  return self->pool != NULL;
}

/* The copies of the planes between @vframe (mapped for CUDA) and a pool
 * buffer in @info's layout; the bytes of a frame go to @bytes. */
static guint
plane_copies (const GstVideoInfo * info, GstVideoFrame * vframe,
    GstClCudaPlaneCopy * planes, guint64 * bytes)
{
  guint i, n = GST_VIDEO_INFO_N_PLANES (info);

  for (i = 0; i < n; i++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, i, comp);
    planes[i] = (GstClCudaPlaneCopy) {
    .cuda_ptr = (CUdeviceptr) (guintptr) GST_VIDEO_FRAME_PLANE_DATA (vframe,
          i),.cuda_pitch = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, i),.offset =
          info->offset[i],.pitch = info->stride[i],.width_in_bytes =
          gst_cl_plane_row_bytes (info, i),.height =
          GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0])};
    *bytes += (guint64) planes[i].width_in_bytes * planes[i].height;
  }
  return n;
}

/* Unmaps and frees an input frame held until its copy in was done. */
static void
let_input_go (gpointer data)
{
  gst_video_frame_unmap (data);
  g_free (data);
}

GstClCudaImportResult
gst_cl_cuda_import_open (GstClCudaImport * self, GstBuffer * buffer,
    GstMapFlags flags, guint slot, GstVideoFrame * vframe, cl_mem * mem,
    cl_event * ready, guint64 * bytes, GError ** error)
{
  /* an input whose copy is not waited for here is held mapped until it is
   * done: in a frame of its own */
  const gboolean held = !(flags & GST_MAP_WRITE) && ready;
  GstClCudaPlaneCopy planes[GST_VIDEO_MAX_PLANES];
  gboolean ok;
  guint n;

  if (ready)
    *ready = NULL;
  if (self->other_gpu || slot >= self->n_slots)
    return GST_CL_CUDA_IMPORT_NOT;
  if (held)
    vframe = g_new0 (GstVideoFrame, 1);
  if (!gst_video_frame_map (vframe, &self->info, buffer,
          flags | GST_CL_MAP_CUDA)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "Cannot map a frame of CUDA memory for CUDA");
    if (held)
      g_free (vframe);
    return GST_CL_CUDA_IMPORT_FAILED;
  }
  if (!ensure_pool (self, (CUdeviceptr) (guintptr)
          GST_VIDEO_FRAME_PLANE_DATA (vframe, 0), error)) {
    if (held)
      let_input_go (vframe);
    else
      gst_video_frame_unmap (vframe);
    return self->other_gpu ? GST_CL_CUDA_IMPORT_NOT : GST_CL_CUDA_IMPORT_FAILED;
  }
  *mem = gst_cl_cuda_pool_get_buffer (self->pool, slot);
  if (flags & GST_MAP_WRITE)
    return GST_CL_CUDA_IMPORT_DONE;
  /* Input: copied after the decoder's writes, which may still run on its
   * stream (GStreamer 1.24+). Where @ready, without waiting here: the
   * frame's commands wait for it, and the decoder has its memory back once
   * the copy is done (a host wait for it held up the streaming thread,
   * which is the decoder's where no queue is between them). */
  gst_cl_cuda_sync_wait_producers (buffer, self->cuda_context,
      gst_cl_cuda_pool_get_stream (self->pool));
  n = plane_copies (&self->info, vframe, planes, bytes);
  if (!held) {
    ok = gst_cl_cuda_pool_copy_in (self->pool, slot, planes, n, error);
    gst_video_frame_unmap (vframe);
    return ok ? GST_CL_CUDA_IMPORT_DONE : GST_CL_CUDA_IMPORT_FAILED;
  }
  ok = gst_cl_cuda_pool_copy_in_start (self->pool, slot, planes, n,
      let_input_go, vframe, ready, error);
  if (!ok)
    let_input_go (vframe);
  return ok ? GST_CL_CUDA_IMPORT_DONE : GST_CL_CUDA_IMPORT_FAILED;
}

gboolean
gst_cl_cuda_import_commit_start (GstClCudaImport * self, guint slot,
    GstVideoFrame * vframe, guint64 * bytes, GError ** error)
{
  GstClCudaPlaneCopy planes[GST_VIDEO_MAX_PLANES];
  guint n = plane_copies (&self->info, vframe, planes, bytes);

  gst_cl_cuda_sync_wait_producers (vframe->buffer, self->cuda_context,
      gst_cl_cuda_pool_get_stream (self->pool));
  return gst_cl_cuda_pool_copy_out_start (self->pool, slot, planes, n, error);
}

gboolean
gst_cl_cuda_import_commit_finish (GstClCudaImport * self,
    GstVideoFrame * vframe, GError ** error)
{
  if (!gst_cl_cuda_pool_sync (self->pool, error))
    return FALSE;
  gst_cl_cuda_sync_mark_finished (vframe->buffer);
  return TRUE;
}

/* Written after what the memory's stream still does with it, and finished
 * before the frame is pushed (the sync waits): downstream need not wait. */
gboolean
gst_cl_cuda_import_commit (GstClCudaImport * self, guint slot,
    GstVideoFrame * vframe, guint64 * bytes, GError ** error)
{
  return gst_cl_cuda_import_commit_start (self, slot, vframe, bytes, error) &&
      gst_cl_cuda_import_commit_finish (self, vframe, error);
}

GstClCudaPool *
gst_cl_cuda_import_get_pool (GstClCudaImport * self)
{
  return self->pool;
}
