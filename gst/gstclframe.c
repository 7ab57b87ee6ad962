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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclframe-private.h"
#include "gstclhostpin-private.h"
#include "gstcldebug-private.h"
#include "gstclcudahost-private.h"
#include "gstclplane-private.h"
#include "gstclerror-private.h"
#include "gstclmemory-private.h"
#include "gstclcudasync-private.h"

#include <string.h>

/* Bytes in one row of @plane, and its rows. */
static void
plane_extent (const GstVideoInfo * info, guint plane, gsize * row_bytes,
    gsize * rows)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comp);
  *row_bytes = gst_cl_plane_row_bytes (info, plane);
  *rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
}

/* Fills the offsets and pitches of @frame's planes from the GstVideoMeta of
 * its buffer, or @info, starting at @base in @mem; checks that every row lies
 * within @size bytes. */
static gboolean
layout_planes (GstClFrame * frame, const GstVideoInfo * info, cl_mem mem,
    GstClPlaneKind kind, gsize base, gsize size, GError ** error)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (frame->buffer);
  guint i;

  /* What gst_video_frame_map would refuse with a critical warning. */
  if (meta && (meta->format != GST_VIDEO_INFO_FORMAT (info) ||
          meta->n_planes != GST_VIDEO_INFO_N_PLANES (info) ||
          meta->width < (guint) GST_VIDEO_INFO_WIDTH (info) ||
          meta->height < (guint) GST_VIDEO_INFO_FIELD_HEIGHT (info))) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "The buffer's video meta (%s %ux%u, %u planes) does not match the "
        "caps (%s %dx%d)", gst_video_format_to_string (meta->format),
        meta->width, meta->height, meta->n_planes, GST_VIDEO_INFO_NAME (info),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
    return FALSE;
  }

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    gsize offset = meta ? meta->offset[i] : info->offset[i];
    gint pitch = meta ? meta->stride[i] : info->stride[i];
    gsize row_bytes, rows;

    plane_extent (info, i, &row_bytes, &rows);
    /* Every row of the plane must lie within the memory: never read or
     * write past the end of a buffer smaller than its caps need. */
    if (pitch < 0 || (gsize) pitch < row_bytes || offset > size ||
        size - offset < row_bytes ||
        (size - offset - row_bytes) / pitch < rows - 1)
      goto too_small;
    frame->planes[i] = (GstClPlaneRef) {
    .kind = kind,.mem = mem,.offset = base + offset,.pitch = pitch};
  }
  return TRUE;

too_small:
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "Buffer of %" G_GSIZE_FORMAT " bytes with plane %u at offset %"
      G_GSIZE_FORMAT ", stride %d is too small for %s %dx%d", size, i,
      meta ? meta->offset[i] : info->offset[i],
      meta ? meta->stride[i] : info->stride[i],
      GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info));
  return FALSE;
}

/* The planes as host pointers into the @size bytes at @data: a mapped
 * buffer, or (@pinned) the pinned memory of an OpenCL memory mapped for
 * good (gstclmemory.c), read and written by transfers after the memory's
 * pending event (the plan waits for it). */
static gboolean
layout_host_planes (GstClFrame * frame, const GstVideoInfo * info,
    guint8 * data, gsize size, gboolean pinned, GError ** error)
{
  guint i;

  if (!layout_planes (frame, info, NULL, pinned ? GST_CL_PLANE_PINNED :
          GST_CL_PLANE_MAPPED, 0, size, error))
    return FALSE;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    frame->planes[i].host = data + frame->planes[i].offset;
    frame->planes[i].offset = 0;
  }
  return TRUE;
}

/* A buffer of several pinned OpenCL memories of the context (from an
 * element that shared its input's untouched planes into its output), each
 * plane wholly inside one of them: the planes as their pinned pointers.
 * FALSE for any other buffer (whose planes are then laid out again). */
static gboolean
layout_pinned_memories (GstClFrame * frame, const GstVideoInfo * info)
{
  GstClPlaneRef planes[GST_VIDEO_MAX_PLANES];
  guint i, n = gst_buffer_n_memory (frame->buffer);

  /* no more memories than planes: the plan waits for each one's events */
  if (n < 2 || n > GST_VIDEO_MAX_PLANES)
    return FALSE;
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (frame->buffer, i);

    if (!gst_is_cl_memory (mem, frame->context) ||
        !gst_cl_memory_get_pinned_host (mem))
      return FALSE;
  }
  if (!layout_planes (frame, info, NULL, GST_CL_PLANE_PINNED, 0,
          gst_buffer_get_size (frame->buffer), NULL))
    return FALSE;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    GstClPlaneRef *p = &frame->planes[i];
    gsize row_bytes, rows, skip, length;
    guint idx, len;
    GstMemory *mem;

    plane_extent (info, i, &row_bytes, &rows);
    if (!gst_buffer_find_memory (frame->buffer, p->offset, 1, &idx, &len,
            &skip))
      return FALSE;
    mem = gst_buffer_peek_memory (frame->buffer, idx);
    length = (rows - 1) * p->pitch + row_bytes;
    if (skip > mem->size || mem->size - skip < length)
      return FALSE;
    planes[i] = *p;
    planes[i].host = gst_cl_memory_get_pinned_host (mem) + mem->offset + skip;
    planes[i].offset = 0;
  }
  memcpy (frame->planes, planes, sizeof (planes));
  return TRUE;
}

/* Wraps the buffer's one system memory as a CL_MEM_USE_HOST_PTR buffer, where
 * the device shares host memory and the address is aligned enough. */
static gboolean
try_wrap_host_memory (GstClFrame * frame, const GstVideoInfo * info,
    GError ** error)
{
  GstClContext *context = frame->context;
  cl_mem_flags mem_flags = CL_MEM_USE_HOST_PTR |
      (frame->flags & GST_MAP_WRITE ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY);
  cl_int status;

  if (!gst_cl_context_is_host_unified (context) ||
      gst_buffer_n_memory (frame->buffer) != 1)
    return FALSE;
  if (!gst_buffer_map (frame->buffer, &frame->map, frame->flags))
    return FALSE;
  if (frame->map.size == 0 || (guintptr) frame->map.data %
      gst_cl_context_get_host_ptr_align (context) != 0)
    goto no_wrap;

  frame->wrapped = clCreateBuffer (gst_cl_context_get_handle (context),
      mem_flags, frame->map.size, frame->map.data, &status);
  if (status != CL_SUCCESS)
    goto no_wrap;
  return TRUE;

no_wrap:
  gst_buffer_unmap (frame->buffer, &frame->map);
  memset (&frame->map, 0, sizeof (frame->map));
  frame->wrapped = NULL;
  return FALSE;
}

/* Whether every row of @plane lies within the memory mapped for it. With a
 * video meta, gst_video_frame_map maps only the memory a plane starts in,
 * so a plane that continues in the next memory is cut short. */
static gboolean
plane_in_map (const GstVideoFrame * vframe, guint plane, gsize row_bytes,
    gsize rows)
{
  const GstMapInfo *map = &vframe->map[vframe->meta ? plane : 0];
  const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (vframe, plane);
  gsize pitch = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, plane);

  return data >= map->data && data <= map->data + map->size &&
      (gsize) (map->data + map->size - data) >= row_bytes &&
      (gsize) (map->data + map->size - data - row_bytes) / pitch >= rows - 1;
}

/* Maps the whole buffer as one, its memories merged, for a frame whose
 * planes gst_video_frame_map cannot give whole. */
static gboolean
map_whole_buffer (GstClFrame * frame, const GstVideoInfo * info,
    GError ** error)
{
  if (frame->frame_mapped)
    gst_video_frame_unmap (&frame->frame);
  frame->frame_mapped = FALSE;
  if (!gst_buffer_map (frame->buffer, &frame->map, frame->flags)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "Cannot map a buffer of %u memories as one", gst_buffer_n_memory
        (frame->buffer));
    return FALSE;
  }
  return layout_host_planes (frame, info, frame->map.data, frame->map.size,
      FALSE, error);
}

static gboolean
map_video_frame (GstClFrame * frame, const GstVideoInfo * info, GError ** error)
{
  guint i;

  /* gst_video_frame_map only checks where planes start: check that every row
   * of every plane lies within the buffer first. */
  if (!layout_planes (frame, info, NULL, GST_CL_PLANE_MAPPED, 0,
          gst_buffer_get_size (frame->buffer), error))
    return FALSE;
  /* Without a meta, gst_video_frame_map wants info->size bytes, padding
   * after the last row included; every row is inside the buffer, as the
   * wrapped and OpenCL paths take it: map it whole. */
  if (!gst_video_frame_map (&frame->frame, info, frame->buffer, frame->flags))
    return map_whole_buffer (frame, info, error);
  frame->frame_mapped = TRUE;

  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    gsize row_bytes, rows;
    gint pitch = GST_VIDEO_FRAME_PLANE_STRIDE (&frame->frame, i);

    plane_extent (info, i, &row_bytes, &rows);
    if (pitch < 0 || (gsize) pitch < row_bytes) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "Plane %u has stride %d, below its %" G_GSIZE_FORMAT " bytes", i,
          pitch, row_bytes);
      return FALSE;
    }
    if (!plane_in_map (&frame->frame, i, row_bytes, rows))
      return map_whole_buffer (frame, info, error);
    frame->planes[i] = (GstClPlaneRef) {
    .kind = GST_CL_PLANE_MAPPED,.host =
          GST_VIDEO_FRAME_PLANE_DATA (&frame->frame, i),.pitch = pitch};
  }
  return TRUE;
}

GstClPlaneRef
gst_cl_plane_ref_device (cl_mem mem, gint pitch)
{
  GstClPlaneRef ref = {.kind = GST_CL_PLANE_DEVICE,.mem = mem,.pitch = pitch };

  return ref;
}

/* The kind of the planes of @mem, one OpenCL memory of the context that is
 * not pinned. */
static GstClPlaneKind
cl_memory_kind (GstMemory * mem)
{
  if (gst_cl_memory_is_device_resident (mem))
    return GST_CL_PLANE_DEVICE;
  return gst_cl_memory_needs_map (mem) ? GST_CL_PLANE_HOST_BUFFER :
      GST_CL_PLANE_SVM;
}

/* Lays out the planes of a buffer of one OpenCL memory of the context. */
static gboolean
open_cl_memory (GstClFrame * frame, const GstVideoInfo * info,
    GstMemory * mem, GError ** error)
{
  guint8 *pinned = gst_cl_memory_get_pinned_host (mem);

  if (pinned)
    return layout_host_planes (frame, info, pinned + mem->offset, mem->size,
        TRUE, error);
  return layout_planes (frame, info, gst_cl_memory_get_buffer (mem),
      cl_memory_kind (mem), mem->offset, mem->size, error);
}

/* Sorts the memories of the buffer: whether all are OpenCL memories of the
 * context, and what still writes them (their pending events; those beyond
 * GST_VIDEO_MAX_PLANES, a buffer of more memories than planes, are waited
 * for here, a failure kept in pending_failed). */
static void
sort_memories (GstClFrame * frame)
{
  guint i, n = gst_buffer_n_memory (frame->buffer);
  cl_event event;

  frame->all_cl_memory = TRUE;
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (frame->buffer, i);

    if (!gst_is_cl_memory (mem, frame->context)) {
      frame->all_cl_memory = FALSE;
      continue;
    }
    if (n == 1)
      frame->cl_memory = mem;
    if (!(event = gst_cl_memory_get_pending (mem)))
      continue;
    if (frame->n_pending < G_N_ELEMENTS (frame->pending)) {
      frame->pending[frame->n_pending++] = event;
    } else {
      const cl_int status = clWaitForEvents (1, &event);

      if (status != CL_SUCCESS && frame->pending_failed == CL_SUCCESS)
        frame->pending_failed = status;
      clReleaseEvent (event);
    }
  }
}

/* Imports a buffer of one CUDA memory into the buffer of @slot of @cuda:
 * its planes as DEVICE planes there, in @info's layout; an input's copy
 * waited for here where @wait_copy. FALSE with @error unset where the
 * frame is on another GPU (mapped then). */
static gboolean
open_cuda_memory (GstClFrame * frame, const GstVideoInfo * info,
    GstClCudaImport * cuda, guint slot, gboolean wait_copy, GError ** error)
{
  cl_event ready = NULL;
  cl_mem mem = NULL;
  guint i;

  if (gst_cl_cuda_import_open (cuda, frame->buffer, frame->flags, slot,
          &frame->frame, &mem, wait_copy ? NULL : &ready, &frame->cuda_bytes,
          error) != GST_CL_CUDA_IMPORT_DONE)
    return FALSE;
  /* the copy in: what the frame's commands wait for (no OpenCL memory of
   * the buffer left pending events) */
  if (ready)
    frame->pending[frame->n_pending++] = ready;
  /* an output stays mapped for CUDA until its copy back */
  frame->frame_mapped = (frame->flags & GST_MAP_WRITE) != 0;
  frame->cuda = cuda;
  frame->cuda_slot = slot;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++)
    frame->planes[i] = (GstClPlaneRef) {
    .kind = GST_CL_PLANE_DEVICE,.mem = mem,.offset = info->offset[i],.pitch =
        info->stride[i]};
  return TRUE;
}

/* An input in one system memory that comes back (a pool's), as large as
 * the context asks (gst_cl_context_get_host_pin_min_size(): 4K frames on
 * NVIDIA): held pinned by the driver (gstclhostpin-private.h), its planes
 * are read by DMA where they are, not staged. Only GStreamer's system
 * memory, whose bytes stay where they are for the memory's life: the
 * pinned pages are the ones a later map gives (a map of another kind of
 * memory may give other pages at the same address). */
static void
pin_host_memory (GstClFrame * frame, const GstVideoInfo * info)
{
  const GstMapInfo *map = frame->frame_mapped ? &frame->frame.map[0] :
      &frame->map;
  const gsize min_size = gst_cl_context_get_host_pin_min_size (frame->context);
  guint i;

  if (frame->flags != GST_MAP_READ || min_size == 0 || map->size < min_size ||
      !gst_cl_context_has_opencl (frame->context) ||
      gst_buffer_n_memory (frame->buffer) != 1 ||
      !gst_memory_is_type (gst_buffer_peek_memory (frame->buffer, 0),
          GST_ALLOCATOR_SYSMEM) ||
      !gst_cl_host_pin_holds (frame->context, gst_buffer_peek_memory
          (frame->buffer, 0), map->data, map->size))
    return;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++)
    frame->planes[i].kind = GST_CL_PLANE_PINNED;
  frame->host_pinned = TRUE;
}

/* Lays out the planes of a buffer that is not one OpenCL memory. */
static gboolean
open_other_memory (GstClFrame * frame, const GstVideoInfo * info,
    GstClCudaImport * cuda, guint slot, gboolean wait_copy, GError ** error)
{
  if (cuda && gst_buffer_n_memory (frame->buffer) == 1 &&
      gst_cl_is_cuda_memory (gst_buffer_peek_memory (frame->buffer, 0))) {
    GError *failed = NULL;

    if (open_cuda_memory (frame, info, cuda, slot, wait_copy, &failed))
      return TRUE;
    if (failed) {
      g_propagate_error (error, failed);
      return FALSE;
    }
  }
  if (layout_pinned_memories (frame, info))
    return TRUE;
  if (try_wrap_host_memory (frame, info, error))
    return layout_planes (frame, info, frame->wrapped, GST_CL_PLANE_WRAPPED,
        0, frame->map.size, error);
  if (!map_video_frame (frame, info, error))
    return FALSE;
  pin_host_memory (frame, info);
  return TRUE;
}

gboolean
gst_cl_frame_open (GstClFrame * frame, GstClContext * context,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GError ** error)
{
  return gst_cl_frame_open_full (frame, context, info, buffer, flags, NULL, 0,
      TRUE, error);
}

gboolean
gst_cl_frame_open_full (GstClFrame * frame, GstClContext * context,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GstClCudaImport * cuda, guint slot, gboolean wait_copy, GError ** error)
{
  gboolean ok;

  memset (frame, 0, sizeof (*frame));
  frame->context = context;
  frame->buffer = buffer;
  frame->flags = flags;

  /* gst_buffer_peek_memory() of a buffer with no memory is a critical
   * warning (an abort under G_DEBUG=fatal-criticals), not NULL. */
  if (gst_buffer_n_memory (buffer) == 0) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "The buffer has no memory: no frame in it");
    return FALSE;
  }
  sort_memories (frame);
  ok = frame->cl_memory ? open_cl_memory (frame, info, frame->cl_memory,
      error) : open_other_memory (frame, info, cuda, slot, wait_copy, error);
  if (!ok)
    gst_cl_frame_close (frame);
  return ok;
}

gboolean
gst_cl_frame_open_on_cuda (GstClFrame * frame, GstClContext * context,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GstClCudaExec * exec, guint which, GError ** error)
{
  CUcontext cuda_context = gst_cl_cuda_exec_get_context (exec);
  CUdeviceptr base = G_MAXUINT64, ptr;
  cl_mem mem;
  guint i, n = GST_VIDEO_INFO_N_PLANES (info);

  memset (frame, 0, sizeof (*frame));
  frame->context = context;
  frame->buffer = buffer;
  frame->flags = flags;
  if (gst_buffer_n_memory (buffer) != 1 ||
      !gst_cl_is_cuda_memory (gst_buffer_peek_memory (buffer, 0)))
    return FALSE;
  if (!gst_video_frame_map (&frame->frame, info, buffer,
          flags | GST_CL_MAP_CUDA)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "Cannot map a frame of CUDA memory for CUDA");
    return FALSE;
  }
  frame->frame_mapped = TRUE;
  for (i = 0; i < n; i++)
    base = MIN (base, (CUdeviceptr) (guintptr)
        GST_VIDEO_FRAME_PLANE_DATA (&frame->frame, i));
  if (gst_cl_cuda_pointer_get_context (base, NULL) != cuda_context) {
    gst_cl_frame_close (frame);
    return FALSE;
  }
  mem = gst_cl_cuda_exec_bind (exec, which, base);
  for (i = 0; i < n; i++) {
    ptr = (CUdeviceptr) (guintptr) GST_VIDEO_FRAME_PLANE_DATA (&frame->frame,
        i);
    frame->planes[i] = (GstClPlaneRef) {
    .kind = GST_CL_PLANE_DEVICE,.mem = mem,.offset = ptr - base,.pitch =
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame->frame, i)};
  }
  /* after what the memory's stream still does with it: an input's writes,
   * an output's last readers */
  gst_cl_cuda_sync_wait_producers (buffer, cuda_context,
      gst_cl_cuda_exec_get_stream (exec));
  frame->exec = exec;
  return TRUE;
}

/* Whether @buffer is one memory of system memory (an OpenCL buffer only
 * where it is host memory). */
static gboolean
in_one_host_memory (GstBuffer * buffer)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (gst_cl_is_cuda_memory (mem))
    return FALSE;
  return !gst_is_cl_memory (mem, NULL) ||
      !gst_cl_memory_is_device_resident (mem);
}

gboolean
gst_cl_frame_open_host_on_cuda (GstClFrame * frame, GstClContext * context,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    GstClCudaExec * exec, guint slot, GError ** error)
{
  guint8 *base = NULL, *end = NULL, *last;
  guint i, n = GST_VIDEO_INFO_N_PLANES (info);
  GError *failed = NULL;
  gsize row_bytes, rows;
  cl_mem mem;

  memset (frame, 0, sizeof (*frame));
  frame->context = context;
  frame->buffer = buffer;
  frame->flags = flags;
  /* mapped as any frame: every row of every plane within the memory */
  if (!in_one_host_memory (buffer) || !map_video_frame (frame, info, error))
    goto not_opened;
  /* the planes and what lies between them, as they are laid out */
  for (i = 0; i < n; i++) {
    plane_extent (info, i, &row_bytes, &rows);
    last = frame->planes[i].host + (rows - 1) * frame->planes[i].pitch +
        row_bytes;
    base = base ? MIN (base, frame->planes[i].host) : frame->planes[i].host;
    end = MAX (end, last);
  }
  frame->exec_host = base;
  frame->exec_host_size = end - base;
  frame->exec_host_pinned =
      gst_cl_is_cuda_host_memory (gst_buffer_peek_memory (buffer, 0));
  mem = (flags & GST_MAP_WRITE) ? gst_cl_cuda_exec_bind_host_frame (exec, 1,
      slot, frame->exec_host_size, frame->exec_host_pinned, &failed) :
      gst_cl_cuda_exec_upload_host_frame (exec, 0, slot, frame->exec_host,
      frame->exec_host_size, frame->exec_host_pinned, &failed);
  if (!mem) {
    /* without OpenCL nothing else can take the frame: the reason is the
     * error; with it the frame goes through OpenCL instead (said once,
     * gstclcudaexec.c) */
    if (!gst_cl_context_has_opencl (context)) {
      g_propagate_error (error, failed);
      goto not_opened;
    }
    GST_CAT_DEBUG (gst_cl_placement_debug, "%s", failed->message);
    g_clear_error (&failed);
    goto not_opened;
  }
  for (i = 0; i < n; i++) {
    frame->planes[i].kind = GST_CL_PLANE_DEVICE;
    frame->planes[i].mem = mem;
    frame->planes[i].offset = frame->planes[i].host - base;
    frame->planes[i].host = NULL;
  }
  frame->exec = exec;
  return TRUE;

not_opened:
  gst_cl_frame_close (frame);
  return FALSE;
}

gboolean
gst_cl_frame_download_on_cuda (GstClFrame * frame, GError ** error)
{
  if (!frame->exec || !frame->exec_host || !(frame->flags & GST_MAP_WRITE))
    return TRUE;
  return gst_cl_cuda_exec_download (frame->exec, frame->exec_host,
      frame->exec_host_size, frame->exec_host_pinned, error);
}

/* Whether @frame is an imported CUDA output still to be copied back. */
static gboolean
commits (const GstClFrame * frame)
{
  return frame->cuda && (frame->flags & GST_MAP_WRITE) && frame->frame_mapped;
}

gboolean
gst_cl_frame_commit_start (GstClFrame * frame, GError ** error)
{
  if (!commits (frame) || frame->commit_started)
    return TRUE;
  /* started even where it fails: what was enqueued is waited for */
  frame->commit_started = TRUE;
  frame->commit_failed = !gst_cl_cuda_import_commit_start (frame->cuda,
      frame->cuda_slot, &frame->frame, &frame->cuda_bytes, error);
  return !frame->commit_failed;
}

gboolean
gst_cl_frame_commit (GstClFrame * frame, GError ** error)
{
  if (!commits (frame))
    return TRUE;
  if (frame->commit_started && frame->commit_failed) {
    /* what was enqueued is waited for; the frame is not written */
    gst_cl_cuda_import_commit_finish (frame->cuda, &frame->frame, NULL);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "The copy of a frame back into CUDA memory failed to start");
    return FALSE;
  }
  if (frame->commit_started)
    return gst_cl_cuda_import_commit_finish (frame->cuda, &frame->frame, error);
  return gst_cl_cuda_import_commit (frame->cuda, frame->cuda_slot,
      &frame->frame, &frame->cuda_bytes, error);
}

void
gst_cl_frame_close (GstClFrame * frame)
{
  while (frame->n_pending > 0)
    clReleaseEvent (frame->pending[--frame->n_pending]);
  if (frame->wrapped) {
    /* A USE_HOST_PTR buffer's host memory is only sure to hold what kernels
     * wrote once it is mapped; on host-unified devices this costs nothing. */
    if (frame->flags & GST_MAP_WRITE) {
      cl_command_queue queue = gst_cl_context_get_queue (frame->context);
      cl_int status;
      gpointer p = clEnqueueMapBuffer (queue, frame->wrapped, CL_TRUE,
          CL_MAP_READ, 0, frame->map.size, 0, NULL, NULL, &status);

      if (status == CL_SUCCESS) {
        clEnqueueUnmapMemObject (queue, frame->wrapped, p, 0, NULL, NULL);
        clFinish (queue);
      }
    }
    clReleaseMemObject (frame->wrapped);
    frame->wrapped = NULL;
  }
  if (frame->map.memory) {
    gst_buffer_unmap (frame->buffer, &frame->map);
    frame->map.memory = NULL;
  }
  if (frame->frame_mapped) {
    gst_video_frame_unmap (&frame->frame);
    frame->frame_mapped = FALSE;
  }
}
