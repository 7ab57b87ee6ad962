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

/* Where each plane lives: device buffers, staging, uploads, downloads, the
 * copies around a crop rectangle, share or copy of untouched planes
 * (gstclplacement-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclplacement-private.h"
#include "gstclwaits-private.h"
#include "gstclbufferpool-private.h"
#include "gstclerror-private.h"

#define GST_CAT_DEFAULT gst_cl_placement_debug

/* A plane's device buffers. One input and one output buffer per slot:
 * frames in flight upload into and download from their slot's pair while
 * the next frame's kernels run on another. Slot 0's are what the tuner
 * times on. */
typedef struct
{
  cl_mem src[GST_CL_IN_FLIGHT_MAX_DEPTH];       /* the uploaded input */
  cl_mem dst[GST_CL_IN_FLIGHT_MAX_DEPTH];       /* the filtered output */
  cl_mem tmp;                   /* luma and interleaved chroma only: between
                                 * two stages, or a component's result */
  cl_mem unpacked;              /* packed luma and interleaved chroma only:
                                 * one component's samples alone */
} GstClPlaneBuffers;

/* The pinned staging buffer of a slot, for system-memory input. */
typedef struct
{
  cl_mem mem;
  guint8 *host;                 /* mapped for the CPU until released */
  /* the copy into it that ran on the copy threads, and the user event that
   * completes with it (which the uploads wait for), until the slot's next
   * frame */
  GstClCopyJob *copy;
  cl_event copied;
} GstClStaging;

struct _GstClPlacement
{
  GstClContext *context;
  GstVideoInfo info;
  guint depth;
  GstClPlane planes[GST_VIDEO_MAX_PLANES];
  GstClPlaneBuffers buffers[GST_VIDEO_MAX_PLANES];
  guint n_planes;
  gboolean allocated;           /* the planes' device buffers are made */
  GstClStaging staging[GST_CL_IN_FLIGHT_MAX_DEPTH];
  gint share_forced;            /* GST_CL_SHARE_UNTOUCHED: 1 always, -1 never */
  /* frames in CUDA memory: imported into a pool buffer a slot */
  GstClCudaImport *cuda_in, *cuda_out;
  /* or where they are, the commands run in their CUDA context (made at the
   * first such frame), where asked for (gst_cl_cuda_exec_wanted()) */
  GstClCudaExec *cuda_exec;
  gboolean cuda_exec_tried;
  GError *cuda_exec_error;      /* why it could not be made, or NULL */
  /* the CUDA context upstream, where frames in system memory come from
   * one (gst_cl_placement_set_cuda_context()), or NULL; ours, for as long
   * as the executor may use it */
  GstContext *upstream_context;
  CUcontext upstream_cuda;
  gboolean last_on_cuda;        /* the last frame was the executor's */
};

/* ---- Device buffers ------------------------------------------------------ */

/* Whether plane @i's components are unpacked one at a time: packed luma,
 * and interleaved chroma where the DCT stage takes it so (on CPUs; the GPU
 * shape reads it in place). */
static gboolean
plane_unpacked (GstClPlacement * self, guint i)
{
  return self->planes[i].packed || (self->planes[i].interleaved &&
      gst_cl_context_dct_strips (self->context));
}

/* How many device buffers alloc_plane() makes for plane @i: for each slot
 * an input and an output; an intermediate one for luma, and for
 * interleaved chroma where it is unpacked (the stage's result); the
 * unpacked component. */
static guint
plane_buffers (GstClPlacement * self, guint i)
{
  const gboolean unpacked = plane_unpacked (self, i);

  return 2 * self->depth + (self->planes[i].is_luma || (unpacked &&
          self->planes[i].interleaved) ? 1 : 0) + (unpacked ? 1 : 0);
}

/* A device buffer of plane @i into @mem, unless there is one already (a
 * first attempt may have failed half way). */
static gboolean
alloc_buffer (GstClPlacement * self, guint i, cl_mem * mem,
    const gchar * what, GError ** error)
{
  return *mem || (*mem = gst_cl_context_create_buffer (self->context,
          CL_MEM_READ_WRITE, gst_cl_plane_size (&self->planes[i]), what,
          error));
}

static gboolean
alloc_plane (GstClPlacement * self, guint i, GError ** error)
{
  GstClPlaneBuffers *b = &self->buffers[i];
  static const guint8 zero = 0;
  guint k;

  for (k = 0; k < self->depth; k++) {
    if (!alloc_buffer (self, i, &b->src[k], "input plane", error) ||
        !alloc_buffer (self, i, &b->dst[k], "output plane", error))
      return FALSE;
  }
  if ((self->planes[i].is_luma || (self->planes[i].interleaved &&
              plane_unpacked (self, i))) &&
      !alloc_buffer (self, i, &b->tmp, "intermediate plane", error))
    return FALSE;
  /* a component alone: packed luma, or one of interleaved chroma's */
  if (plane_unpacked (self, i) &&
      !alloc_buffer (self, i, &b->unpacked, "unpacked component", error))
    return FALSE;
  /* The tuner times kernels on the input plane before any frame: give it
   * defined samples, not whatever the allocation held (valgrind flags the
   * kernels' reads, and NaNs or denormals would skew the timings).
   * Without OpenCL the buffers are zeroed host memory, never written. */
  return !gst_cl_context_has_opencl (self->context) ||
      gst_cl_context_fill_buffer (self->context, b->src[0], &zero, 1,
      gst_cl_plane_size (&self->planes[i]), "input plane", error);
}

gboolean
gst_cl_placement_alloc (GstClPlacement * self, GError ** error)
{
  cl_int status;
  guint i;

  if (self->allocated)
    return TRUE;
  for (i = 0; i < self->n_planes; i++) {
    if (!alloc_plane (self, i, error))
      return FALSE;
  }
  /* The fills ran on the kernels' queue; a frame in flight uploads into the
   * same buffers on another queue, which does not wait for them. */
  status = gst_cl_context_has_opencl (self->context) ?
      clFinish (gst_cl_context_get_queue (self->context)) : CL_SUCCESS;
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clFinish (plane fills)");
  self->allocated = TRUE;
  return TRUE;
}

/* Whether the device can ever hold the planes' buffers (each one no larger
 * than one allocation may be, all of them together within its memory), so
 * that absurd caps are refused before anything is allocated. */
static gboolean
device_holds_planes (GstClPlacement * self, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (self->context);
  cl_ulong max_alloc = 0, global = 0;
  guint64 needed = 0, largest = 0;
  gchar *needed_text, *global_text;
  guint i;

  if (clGetDeviceInfo (device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
          sizeof (max_alloc), &max_alloc, NULL) != CL_SUCCESS ||
      clGetDeviceInfo (device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof (global),
          &global, NULL) != CL_SUCCESS)
      return TRUE;              /* the allocations will say */
  for (i = 0; i < self->n_planes; i++) {
    guint64 size = gst_cl_plane_size (&self->planes[i]);

    largest = MAX (largest, size);
    needed += size * plane_buffers (self, i);
  }
  if (largest <= max_alloc && needed <= global)
    return TRUE;
  needed_text = g_format_size_full (needed, G_FORMAT_SIZE_IEC_UNITS);
  global_text = g_format_size_full (global, G_FORMAT_SIZE_IEC_UNITS);
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "frames of %dx%d are too large for the device: they need %s of its "
      "memory (a plane of %" G_GUINT64_FORMAT " bytes, at most %"
      G_GUINT64_FORMAT " in one buffer), it has %s",
      GST_VIDEO_INFO_WIDTH (&self->info), GST_VIDEO_INFO_HEIGHT (&self->info),
      needed_text, largest, (guint64) max_alloc, global_text);
  g_free (needed_text);
  g_free (global_text);
  return FALSE;
}

GstClPlacement *
gst_cl_placement_new (GstClContext * context, const GstVideoInfo * info,
    guint depth, GError ** error)
{
  GstClPlacement *self = g_new0 (GstClPlacement, 1);
  guint i;

  gst_cl_debug_init ();
  self->context = gst_object_ref (context);
  self->info = *info;
  self->depth = depth;
  self->share_forced = gst_cl_context_get_switches (context)->share_untouched;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    if (!gst_cl_plane_describe (&self->planes[i], info, i)) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "frames of %dx%d are too large", GST_VIDEO_INFO_WIDTH (info),
          GST_VIDEO_INFO_HEIGHT (info));
      goto failed;
    }
    self->n_planes = i + 1;
  }
  self->cuda_in = gst_cl_cuda_import_new (context, info, depth);
  self->cuda_out = gst_cl_cuda_import_new (context, info, depth);
  /* not asked for, or not NVIDIA's OpenCL: never for this format */
  self->cuda_exec_tried = !gst_cl_cuda_exec_may_run (context);
  if (device_holds_planes (self, error))
    return self;
failed:
  gst_cl_placement_free (self);
  return NULL;
}

void
gst_cl_placement_free (GstClPlacement * self)
{
  guint i, k;

  if (!self)
    return;
  gst_cl_placement_release_staging (self, NULL);
  for (k = 0; k < GST_CL_IN_FLIGHT_MAX_DEPTH; k++)
    gst_cl_context_release_buffer (self->context, self->staging[k].mem);
  for (i = 0; i < self->n_planes; i++) {
    GstClPlaneBuffers *b = &self->buffers[i];

    for (k = 0; k < GST_CL_IN_FLIGHT_MAX_DEPTH; k++) {
      gst_cl_context_release_buffer (self->context, b->src[k]);
      gst_cl_context_release_buffer (self->context, b->dst[k]);
    }
    gst_cl_context_release_buffer (self->context, b->tmp);
    gst_cl_context_release_buffer (self->context, b->unpacked);
  }
  g_clear_pointer (&self->cuda_exec, gst_cl_cuda_exec_free);
  g_clear_error (&self->cuda_exec_error);
  if (self->upstream_context)
    gst_context_unref (self->upstream_context);
  g_clear_pointer (&self->cuda_in, gst_cl_cuda_import_free);
  g_clear_pointer (&self->cuda_out, gst_cl_cuda_import_free);
  gst_object_unref (self->context);
  g_free (self);
}

const GstVideoInfo *
gst_cl_placement_get_info (GstClPlacement * self)
{
  return &self->info;
}

const GstClPlane *
gst_cl_placement_get_planes (GstClPlacement * self, guint * n_planes)
{
  *n_planes = self->n_planes;
  return self->planes;
}

/* The CUDA context of @buffer's one CUDA memory, or NULL. */
static CUcontext
cuda_context_of (GstBuffer * buffer)
{
  GstMemory *mem;
  GstMapInfo map;
  CUcontext context;

  if (gst_buffer_n_memory (buffer) != 1 ||
      !gst_cl_is_cuda_memory (mem = gst_buffer_peek_memory (buffer, 0)) ||
      !gst_memory_map (mem, &map, GST_MAP_READ | GST_CL_MAP_CUDA))
    return NULL;
  context = gst_cl_cuda_pointer_get_context ((CUdeviceptr) (guintptr)
      map.data, NULL);
  gst_memory_unmap (mem, &map);
  return context;
}

/* Whether the device is the GPU of @context. */
static gboolean
on_gpu_of (GstClPlacement * self, CUcontext context)
{
  gchar *reason = NULL;
  guint8 uuid[16];
  gboolean ok;

  ok = gst_cl_cuda_context_get_uuid (context, uuid, NULL) &&
      gst_cl_cuda_device_matches (gst_cl_context_get_device (self->context),
      uuid, &reason);
  g_free (reason);
  return ok;
}

/* The executor for frames of @inbuf's CUDA context, made at the first
 * (once: where it cannot be, frames are imported as before, said in the
 * log; without OpenCL they are refused, gst_cl_placement_open()), or
 * NULL. */
static GstClCudaExec *
cuda_exec_for (GstClPlacement * self, GstBuffer * inbuf)
{
  CUcontext context;

  if (self->cuda_exec || self->cuda_exec_tried)
    return self->cuda_exec;
  /* a CUDA frame's own context, or for system memory the one upstream */
  if (!(context = cuda_context_of (inbuf)))
    context = self->upstream_cuda;
  if (!context)
    return NULL;
  self->cuda_exec_tried = TRUE;
  if (!on_gpu_of (self, context)) {
    GST_INFO ("kernels stay in OpenCL: not NVIDIA's OpenCL on the frames' "
        "GPU");
    return NULL;
  }
  self->cuda_exec = gst_cl_cuda_exec_new (context, self->context,
      &self->cuda_exec_error);
  if (!self->cuda_exec) {
    /* kept: without OpenCL it is why no frame can be filtered */
    GST_WARNING ("%s: %s", gst_cl_context_has_opencl (self->context) ?
        "kernels stay in OpenCL" : "no kernel can run",
        self->cuda_exec_error->message);
  } else {
    GST_INFO ("kernels run in the frames' CUDA context");
  }
  return self->cuda_exec;
}

/* Opens both frames for the executor where the input is CUDA memory of its
 * context, and the output that too or system memory (written in device
 * memory of @slot first): TRUE, or FALSE with @error set where that
 * failed; FALSE with @error unset where they are not (opened as usual
 * then). */
static gboolean
open_on_cuda (GstClPlacement * self, guint slot, GstBuffer * inbuf,
    GstBuffer * outbuf, GstClFrame * in, GstClFrame * out, GError ** error)
{
  GstClCudaExec *exec = cuda_exec_for (self, inbuf);
  GError *failed = NULL;

  if (!exec)
    return FALSE;
  if (!gst_cl_frame_open_on_cuda (out, self->context, &self->info, outbuf,
          GST_MAP_WRITE, exec, 1, &failed) && (failed ||
          !gst_cl_frame_open_host_on_cuda (out, self->context, &self->info,
              outbuf, GST_MAP_WRITE, exec, slot, &failed))) {
    if (failed)
      g_propagate_error (error, failed);
    return FALSE;
  }
  if (gst_cl_frame_open_on_cuda (in, self->context, &self->info, inbuf,
          GST_MAP_READ, exec, 0, &failed) || (!failed &&
          gst_cl_frame_open_host_on_cuda (in, self->context, &self->info,
              inbuf, GST_MAP_READ, exec, slot, &failed)))
    return TRUE;
  gst_cl_frame_close (out);
  if (failed)
    g_propagate_error (error, failed);
  return FALSE;
}

gboolean
gst_cl_placement_set_cuda_context (GstClPlacement * self, GstContext * context)
{
  CUcontext handle;

  g_return_val_if_fail (self->upstream_context == NULL, FALSE);
  if (!context || !gst_cl_cuda_exec_may_run (self->context) ||
      !(handle = gst_cl_cuda_context_handle (context)) ||
      !on_gpu_of (self, handle))
    return FALSE;
  self->upstream_context = gst_context_ref (context);
  self->upstream_cuda = handle;
  return TRUE;
}

void
gst_cl_placement_sync_cuda (GstClPlacement * self)
{
  if (self->cuda_exec)
    gst_cl_cuda_exec_sync (self->cuda_exec, NULL, NULL);
}

void
gst_cl_placement_forget_cuda (GstClPlacement * self)
{
  if (self->cuda_exec)
    gst_cl_cuda_exec_forget (self->cuda_exec);
}

gboolean
gst_cl_placement_open (GstClPlacement * self, guint slot, GstBuffer * inbuf,
    GstBuffer * outbuf, GstClFrame * in, GstClFrame * out, GError ** error)
{
  GError *failed = NULL;

  if (open_on_cuda (self, slot, inbuf, outbuf, in, out, &failed)) {
    self->last_on_cuda = TRUE;
    return TRUE;
  }
  if (failed) {
    g_propagate_error (error, failed);
    return FALSE;
  }
  if (!gst_cl_context_has_opencl (self->context)) {
    if (self->cuda_exec_error)
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "%s has no OpenCL context here (NVIDIA MPS?), and its kernels "
          "cannot run in the frames' CUDA context: %s",
          gst_cl_context_get_device_name (self->context),
          self->cuda_exec_error->message);
    else
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "%s has no OpenCL context here (NVIDIA MPS?), and this frame does "
          "not run in CUDA: not of an NVIDIA decoder on this GPU "
          "(GST_DEBUG=clplacement:4 says why)",
          gst_cl_context_get_device_name (self->context));
    return FALSE;
  }
  /* a frame through OpenCL after the executor's: the DCT stage's state
   * goes on from the executor's */
  if (self->last_on_cuda &&
      !gst_cl_cuda_exec_hand_back (self->cuda_exec, error))
    return FALSE;
  self->last_on_cuda = FALSE;
  /* A CUDA input's copy is left to complete before the frame's commands
   * run only into CUDA output: it is held until its commands are done
   * (gstclinflight.c), and whether the copy went well is known before it
   * is handed on; into other memory, handed on with the event of its last
   * command, the copy is waited for here. */
  if (!gst_cl_frame_open_full (out, self->context, &self->info, outbuf,
          GST_MAP_WRITE, self->cuda_out, slot, TRUE, error))
    return FALSE;
  if (gst_cl_frame_open_full (in, self->context, &self->info, inbuf,
          GST_MAP_READ, self->cuda_in, slot, out->cuda == NULL, error))
    return TRUE;
  gst_cl_frame_close (out);
  return FALSE;
}

GstClPlaneRef
gst_cl_placement_input (GstClPlacement * self, guint i, guint slot, gint field)
{
  return gst_cl_plane_device_field_ref (&self->planes[i],
      self->buffers[i].src[slot], field);
}

GstClPlaneRef
gst_cl_placement_output (GstClPlacement * self, guint i, guint slot, gint field)
{
  return gst_cl_plane_device_field_ref (&self->planes[i],
      self->buffers[i].dst[slot], field);
}

GstClPlaneRef
gst_cl_placement_intermediate (GstClPlacement * self, guint i, gint field)
{
  return gst_cl_plane_device_field_ref (&self->planes[i],
      self->buffers[i].tmp, field);
}

GstClPlaneRef
gst_cl_placement_unpacked (GstClPlacement * self, guint i, gint field)
{
  return gst_cl_plane_device_field_ref (&self->planes[i],
      self->buffers[i].unpacked, field);
}

/* ---- Staging ------------------------------------------------------------- */

/* Waits for the copy into @staging that ran on the copy threads, if any,
 * and lets go of it. */
static void
settle_staging (GstClStaging * staging)
{
  if (!staging->copy)
    return;
  gst_cl_copy_job_wait (staging->copy);
  g_clear_pointer (&staging->copy, gst_cl_copy_job_unref);
  clReleaseEvent (staging->copied);
  staging->copied = NULL;
}

/* The pinned staging buffer of @slot, made and mapped on first use: system
 * memory input is copied there by the CPU, then sent to the device by DMA
 * while the CPU goes on with the next frame. */
static guint8 *
slot_staging (GstClPlacement * self, guint slot, GError ** error)
{
  GstClStaging *staging = &self->staging[slot];
  cl_int status;

  if (staging->host)
    return staging->host;
  if (!staging->mem)
    staging->mem = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, self->info.size,
        "staging frame", error);
  if (!staging->mem)
    return NULL;
  staging->host = clEnqueueMapBuffer (gst_cl_context_get_queue
      (self->context), staging->mem, CL_TRUE, CL_MAP_WRITE, 0,
      self->info.size, 0, NULL, NULL, &status);
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status, "clEnqueueMapBuffer (staging frame)");
    return NULL;
  }
  return staging->host;
}

/* The last step of a staging copy, on the thread that finished it: the
 * uploads may go. A copy by the CPU cannot fail, and the event always
 * completes (one that failed would leave NVIDIA's commands after it queued
 * for ever, gstclcuda.c). */
static void
staging_copied (gpointer data)
{
  cl_event copied = data;
  cl_int status = clSetUserEventStatus (copied, CL_COMPLETE);

  /* only for an event set already, or not a user event: never here */
  if (status != CL_SUCCESS)
    GST_ERROR ("clSetUserEventStatus failed: %d", status);
  clReleaseEvent (copied);
}

/* Starts the copy of @copy into the staging buffer of @q's slot on the
 * copy threads: the next upload on @q waits for it (by a user event), and
 * the input stays open until it is done (@q's input_copy). Copied here at
 * once where the event cannot be made. The OpenCL specification leaves
 * undefined the release of other objects than events while commands wait
 * on an unset user event; the element releases none a frame (its drain
 * settles the copies first), and the event is set within the copy's
 * time, a fraction of a millisecond. */
static void
start_staging (GstClPlacement * self, GstClFrameQueues * q,
    const GstClPlaneCopy * copy, GstClTransferStats * stats)
{
  GstClStaging *staging = &self->staging[q->slot];
  cl_int status;

  staging->copied = clCreateUserEvent (gst_cl_context_get_handle
      (self->context), &status);
  if (status != CL_SUCCESS) {
    GST_DEBUG ("clCreateUserEvent failed (%d): staging copy on this thread",
        status);
    staging->copied = NULL;
    gst_cl_copy_host_plane (copy, stats);
    return;
  }
  GST_LOG ("slot %u: staging copy of %" G_GSIZE_FORMAT " rows started",
      q->slot, copy->height);
  staging->copy = gst_cl_copy_host_plane_start (copy, stats);
  clRetainEvent (staging->copied);
  gst_cl_copy_job_then (staging->copy, staging_copied, staging->copied);
  gst_cl_stream_wait_for (&q->up, staging->copied);
  q->input_copy = staging->copy;
}

/* Copies the whole of @plane from host memory at @ref into the pinned
 * staging buffer of @q's slot and points @ref there. The first plane of a
 * frame (luma where it is filtered) is copied on the copy threads while
 * this one goes on (start_staging()) where @upload (its uploads are on @q's
 * OpenCL queue) and the copy is split over threads anyway (a large plane);
 * others here, at once. */
static gboolean
stage_plane (GstClPlacement * self, GstClFrameQueues * q,
    const GstClPlane * plane, gboolean upload, GstClPlaneRef * ref,
    GstClTransferStats * stats, GError ** error)
{
  guint8 *staging;
  GstClPlaneRef to = {.kind = GST_CL_PLANE_PINNED,.pitch = plane->row_bytes };
  const GstClPlaneCopy copy = { ref, &to, plane->row_bytes, plane->height };

  /* the slot's last frame is done, and its uploads waited for its copy;
   * this frame's copy may be under way */
  if (!q->input_copy)
    settle_staging (&self->staging[q->slot]);
  staging = slot_staging (self, q->slot, error);
  if (!staging)
    return FALSE;
  to.host = staging + self->info.offset[plane->index];
  if (upload && !q->input_copy && !q->cuda &&
      gst_cl_copy_host_plane_splits (&copy))
    start_staging (self, q, &copy, stats);
  else
    gst_cl_copy_host_plane (&copy, stats);
  *ref = to;
  return TRUE;
}

gboolean
gst_cl_placement_release_staging (GstClPlacement * self, GError ** error)
{
  cl_command_queue queue = gst_cl_context_get_queue (self->context);
  cl_int status, first = CL_SUCCESS;
  guint k;

  for (k = 0; k < self->depth; k++) {
    GstClStaging *staging = &self->staging[k];

    settle_staging (staging);
    if (!staging->host)
      continue;
    status = clEnqueueUnmapMemObject (queue, staging->mem, staging->host, 0,
        NULL, NULL);
    staging->host = NULL;
    if (first == CL_SUCCESS)
      first = status;
  }
  return first == CL_SUCCESS ||
      gst_cl_set_error (error, first, "clEnqueueUnmapMemObject (staging)");
}

/* ---- One frame ----------------------------------------------------------- */

/* Whether kernels may work on @ref where it is: an OpenCL buffer that the
 * device reaches (device memory, or any where it shares host memory);
 * 16-bit samples need even offsets and pitches (a frame whose video meta
 * says otherwise goes through the plane's device buffers). */
static gboolean
kernel_reaches (GstClPlacement * self, const GstClPlane * plane,
    const GstClPlaneRef * ref)
{
  return ref->mem && (ref->kind == GST_CL_PLANE_DEVICE ||
      gst_cl_context_is_host_unified (self->context)) &&
      (plane->bytes == 1 || ((ref->offset | (gsize) ref->pitch) & 1) == 0);
}

/* Waits on the CPU for the @n events of what still writes the frames
 * (@pending), before the CPU copies between them. */
static gboolean
cpu_waits (const cl_event * pending, guint n, GError ** error)
{
  gint64 began = gst_cl_wait_begin ();
  cl_int status = n ? clWaitForEvents (n, pending) : CL_SUCCESS;

  gst_cl_wait_end (GST_CL_WAIT_OTHER, began);
  return status == CL_SUCCESS ||
      gst_cl_set_error (error, status, "clWaitForEvents (frame in flight)");
}

/* cpu_waits() for @q's frames, and for the staging copy under way (the CPU
 * copies around a crop rectangle read the staged plane). */
static gboolean
cpu_waits_frame (const GstClFrameQueues * q, GError ** error)
{
  if (q->input_copy)
    gst_cl_copy_job_wait (q->input_copy);
  return cpu_waits (q->pending, q->n_pending, error);
}

/* Phase 1 for a plane no stage touches: copied whole into the output. */
static gboolean
copy_untouched (GstClPlacement * self, GstClFrameQueues * q,
    GstClPlaneWork * w, GstClTransferStats * stats, GError ** error)
{
  const GstClPlane *plane = &w->plane;
  GstClPlaneRef dev_src = gst_cl_placement_input (self, w->index, q->slot,
      GST_CL_FRAME);
  GstClPlaneCopy whole = { &w->src, &w->dst, plane->row_bytes,
    plane->height
  };

  if (w->src.kind == GST_CL_PLANE_PINNED && w->dst.kind == GST_CL_PLANE_PINNED) {
    /* From pinned memory (ours, or system memory held pinned) into our
     * pinned memory: by DMA through the device
     * (gst_cl_placement_download() brings it back), not by the CPU. */
    w->kdst = dev_src;
    whole.dst = &dev_src;
    return gst_cl_stream_copy (&q->up, &whole, stats, error);
  }
  if (!w->dst.mem)
    /* Into other host memory: by a transfer from device memory, or by the
     * CPU now, once, after what still writes either frame (pinned memory
     * of a frame in flight). */
    return (w->src.mem || cpu_waits (q->pending, q->n_pending, error)) &&
        gst_cl_stream_copy (&q->up, &whole, stats, error);
  if (!w->src.mem && w->src.kind != GST_CL_PLANE_PINNED && q->in_flight &&
      !stage_plane (self, q, plane, FALSE, &w->src, stats, error))
    return FALSE;
  return gst_cl_stream_copy (&q->down, &whole, stats, error);
}

/* Phase 1 for a filtered plane or field: where the kernels read and write
 * its region, and the upload of what they cannot reach where it is. A
 * field with no row in the crop rectangle is only copied around it. */
static gboolean
place_filtered (GstClPlacement * self, GstClFrameQueues * q,
    GstClPlaneWork * w, GstClTransferStats * stats, GError ** error)
{
  const GstClPlane *plane = &w->plane;
  const GstClRegion *r = &w->region;
  GstClPlaneRef dev_src = gst_cl_placement_input (self, w->index, q->slot,
      w->field);
  const GstClPlaneCopy upload = { &w->src, &dev_src,
    gst_cl_plane_span (plane, r->x, r->width), r->height
  };

  /* A crop rectangle: the rest of the plane is copied as it is, in
   * gst_cl_placement_download() */
  w->around = r->width != plane->width || r->height != plane->height;
  w->whole_src = w->src;
  w->whole_dst = w->dst;
  w->filtered = r->height > 0;
  if (!w->filtered)
    return TRUE;
  w->src = gst_cl_plane_ref_at (plane, &w->whole_src, r->x, r->y);
  w->dst = gst_cl_plane_ref_at (plane, &w->whole_dst, r->x, r->y);
  w->kdst = kernel_reaches (self, plane, &w->dst) ? w->dst :
      gst_cl_placement_output (self, w->index, q->slot, w->field);
  w->ksrc = w->src;
  if (kernel_reaches (self, plane, &w->src))
    return TRUE;
  w->ksrc = dev_src;
  return gst_cl_stream_copy (&q->up, &upload, stats, error);
}

gboolean
gst_cl_placement_in_fields (GstClPlacement * self, const GstClFrame * in)
{
  switch (GST_VIDEO_INFO_INTERLACE_MODE (&self->info)) {
    case GST_VIDEO_INTERLACE_MODE_INTERLEAVED:
      return TRUE;
    case GST_VIDEO_INTERLACE_MODE_MIXED:
      return GST_BUFFER_FLAG_IS_SET (in->buffer,
          GST_VIDEO_BUFFER_FLAG_INTERLACED);
    default:
      return FALSE;
  }
}

/* Phase 1 for a filtered plane, @whole (its work on the whole frame, as
 * the frame gives it), whole or field by field (@fields): appends its work
 * to @frame. */
static gboolean
place_plane (GstClPlacement * self, GstClFrameQueues * q,
    GstClPlaneWork whole, gboolean fields, GstClFrameWork * frame,
    GstClTransferStats * stats, GError ** error)
{
  gint f, first = fields ? 0 : GST_CL_FRAME, last = fields ? 1 : GST_CL_FRAME;

  /* A frame in flight from system memory (not held pinned, which DMA
   * reads where it is): the CPU copies the plane into pinned memory (luma
   * on the copy threads, while this one enqueues the frame), and every
   * later read is from there (DMA, while the next frame is prepared), so
   * that the input can go as soon as it is copied. */
  if (!whole.src.mem && whole.src.kind != GST_CL_PLANE_PINNED &&
      q->in_flight && !stage_plane (self, q, &whole.plane, TRUE, &whole.src,
          stats, error))
    return FALSE;
  for (f = first; f <= last; f++) {
    GstClPlaneWork *w = &frame->work[frame->n_work++];

    *w = (GstClPlaneWork) {
    .plane = gst_cl_plane_field (&whole.plane, f),.index =
          whole.index,.field = f,.region =
          gst_cl_region_field (&whole.region, f),.src =
          gst_cl_plane_ref_field (&whole.src, f),.dst =
          gst_cl_plane_ref_field (&whole.dst, f)};
    if (!place_filtered (self, q, w, stats, error))
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_cl_placement_upload (GstClPlacement * self, GstClFrameQueues * q,
    GstClFrameWork * frame, GstClTransferStats * stats, GError ** error)
{
  const GstClPlaneSelection *planes = &frame->planes;
  GstClRegion regions[GST_VIDEO_MAX_PLANES];
  gboolean fields = gst_cl_placement_in_fields (self, frame->in);
  guint k;

  frame->n_work = 0;
  gst_cl_plane_regions (self->planes, self->n_planes, &self->info,
      gst_buffer_get_video_crop_meta (frame->in->buffer), regions);
  for (k = 0; k < self->n_planes; k++) {
    const GstClPlane *plane = &self->planes[k];
    const GstClPlaneWork whole = {.plane = *plane,.index = k,.field =
          GST_CL_FRAME,.region = regions[k],.src =
          frame->in->planes[plane->index],.dst =
          frame->out->planes[plane->index]
    };
    GstClPlaneWork *w;

    if (planes->touched & (1 << plane->index)) {
      if (!place_plane (self, q, whole, fields &&
              !(planes->whole & (1 << plane->index)), frame, stats, error))
        return FALSE;
      continue;
    }
    if (planes->shared & (1 << plane->index))
      continue;
    w = &frame->work[frame->n_work++];
    *w = whole;
    if (!copy_untouched (self, q, w, stats, error))
      return FALSE;
  }
  return TRUE;
}

/* Copies the samples of @w's plane around its region from the whole
 * source to the whole destination on @s (downloads): the rows above and
 * below it, and the parts of its rows left and right of it. */
static gboolean
copy_around (GstClStream * s, const GstClPlaneWork * w,
    GstClTransferStats * stats, GError ** error)
{
  const GstClPlane *plane = &w->plane;
  const GstClRegion *region = &w->region;
  const gint below = region->y + region->height;
  const gint right = region->x + region->width;
  const GstClRegion parts[4] = {
    {0, 0, plane->width, region->y},
    {0, below, plane->width, plane->height - below},
    {0, region->y, region->x, region->height},
    {right, region->y, plane->width - right, region->height},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (parts); i++) {
    const GstClRegion *part = &parts[i];
    GstClPlaneRef from, to;
    GstClPlaneCopy copy = { &from, &to,
      gst_cl_plane_span (plane, part->x, part->width), part->height
    };

    if (part->width <= 0 || part->height <= 0)
      continue;
    from = gst_cl_plane_ref_at (plane, &w->whole_src, part->x, part->y);
    to = gst_cl_plane_ref_at (plane, &w->whole_dst, part->x, part->y);
    if (!gst_cl_stream_copy (s, &copy, stats, error))
      return FALSE;
  }
  return TRUE;
}

/* Phase 3 for one plane: the filtered region into the output, where the
 * kernels did not write it there, and around a crop rectangle the rest of
 * the plane as it is (by the CPU where both are in host memory, after what
 * still writes them). */
static gboolean
download_plane (GstClFrameQueues * q, const GstClPlaneWork * w,
    GstClTransferStats * stats, GError ** error)
{
  const GstClPlane *plane = &w->plane;
  /* the region, or an untouched plane going through the device whole
   * (copy_untouched()) */
  gsize height = w->filtered ? (gsize) w->region.height : (gsize) plane->height;
  const GstClPlaneCopy result = { &w->kdst, &w->dst,
    w->filtered ? gst_cl_plane_span (plane, w->region.x, w->region.width) :
        (gsize) plane->row_bytes, height
  };

  if (w->around && !((w->whole_src.mem || w->whole_dst.mem ||
              cpu_waits_frame (q, error)) &&
          copy_around (&q->down, w, stats, error)))
    return FALSE;
  if (!w->kdst.mem || w->kdst.mem == w->dst.mem)
    return TRUE;
  return gst_cl_stream_copy (&q->down, &result, stats, error);
}

gboolean
gst_cl_placement_download (GstClPlacement * self, GstClFrameQueues * q,
    const GstClFrameWork * frame, GstClTransferStats * stats, GError ** error)
{
  guint k;

  for (k = 0; k < frame->n_work; k++) {
    if (!download_plane (q, &frame->work[k], stats, error))
      return FALSE;
  }
  return TRUE;
}

/* ---- Untouched planes ---------------------------------------------------- */

/* Whether untouched planes of @in are better shared than copied: always
 * where the device works on host memory or @in is in host memory (system
 * memory, or our pool's pinned memory); not from device memory on a
 * discrete GPU, where the device copies them (docs/memory.md).
 * GST_CL_SHARE_UNTOUCHED=always or never (read when the placement is made)
 * overrides this, to measure the other way. */
static gboolean
sharing_pays (GstClPlacement * self, const GstClFrame * in)
{
  GstClPlaneKind kind = in->planes[0].kind;

  if (self->share_forced)
    return self->share_forced > 0;
  return gst_cl_context_is_host_unified (self->context) ||
      (kind != GST_CL_PLANE_DEVICE && kind != GST_CL_PLANE_HOST_BUFFER);
}

void
gst_cl_placement_select (GstClPlacement * self, const GstClFrame * in,
    GstBuffer * outbuf, guint touched, guint whole, gboolean share_allowed,
    GstClPlaneSelection * planes)
{
  const guint untouched = ~touched & ((1 << self->n_planes) - 1);

  planes->touched = touched;
  planes->whole = whole;
  /* Luma is never untouched here (the element would be in passthrough), so
   * the filtered plane is always in the output's own memory. An imported
   * CUDA frame is a pool buffer of ours, not the input's memory: there is
   * nothing to share. */
  planes->shared = share_allowed && untouched != 0 && !(untouched & 1) &&
      !in->cuda && !in->exec && sharing_pays (self, in) &&
      gst_cl_buffer_pool_can_share_planes (outbuf, in->buffer, &self->info,
      untouched) ? untouched : 0;
}

/* Copies the planes in @mask from @inbuf into @outbuf and waits for the
 * copies: the way back when a share that was planned could not be made. */
static gboolean
copy_planes (GstClPlacement * self, const GstClFrameQueues * q,
    GstBuffer * inbuf,
    GstBuffer * outbuf, guint mask, GstClTransferStats * stats, GError ** error)
{
  GstClFrame in, out;
  gboolean ok;
  guint i;

  if (!gst_cl_frame_open (&in, self->context, &self->info, inbuf,
          GST_MAP_READ, error))
    return FALSE;
  if (!gst_cl_frame_open (&out, self->context, &self->info, outbuf,
          GST_MAP_WRITE, error)) {
    gst_cl_frame_close (&in);
    return FALSE;
  }
  /* pinned memory is copied by the CPU, at once: after what writes it */
  ok = cpu_waits (in.pending, in.n_pending, error) &&
      cpu_waits (out.pending, out.n_pending, error);
  for (i = 0; ok && i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];
    const GstClPlaneCopy copy = { &in.planes[plane->index],
      &out.planes[plane->index], plane->row_bytes, plane->height
    };

    if (mask & (1 << plane->index))
      ok = gst_cl_copy_plane_on (q->down.queue, &copy, 0, NULL, NULL, stats,
          error);
  }
  ok = gst_cl_stream_finish (&q->down, "plane copy", ok ? error : NULL) && ok;
  if (q->down.queue != q->compute.queue)
    gst_cl_stream_finish (&q->compute, "plane copy", NULL);
  gst_cl_frame_close (&out);
  gst_cl_frame_close (&in);
  return ok;
}

gboolean
gst_cl_placement_share (GstClPlacement * self, GstClFrameQueues * q,
    GstBuffer * inbuf, GstBuffer * outbuf, const GstClPlaneSelection * planes,
    GstClTransferStats * stats, GError ** error)
{
  if (!planes->shared || gst_cl_buffer_pool_share_planes (outbuf, inbuf,
          &self->info, planes->shared))
    return TRUE;
  GST_WARNING ("sharing untouched planes failed, copying");
  return copy_planes (self, q, inbuf, outbuf, planes->shared, stats, error);
}

const gchar *
gst_cl_placement_memory_path (GstClPlacement * self,
    const GstClTransferStats * stats)
{
  return stats->host_copy_bytes > 0 || stats->pageable ? "copy" :
      stats->cuda_copy_bytes > 0 || stats->in_cuda ? "cuda" :
      gst_cl_context_is_host_unified (self->context) ? "host-ptr" : "pinned";
}
