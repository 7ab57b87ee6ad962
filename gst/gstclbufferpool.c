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

#include "gstcldebug-private.h"
#include "gstclbufferpool-private.h"
#include "gstclmemory-private.h"

struct _GstClBufferPool
{
  GstVideoBufferPool parent;

  GstAllocator *allocator;
  gboolean system_fallback;
};

#define GST_CAT_DEFAULT gst_cl_memory_debug

G_DEFINE_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static GQuark
own_memory_quark (void)
{
  static GQuark quark = 0;

  if (!quark)
    quark = g_quark_from_static_string ("GstClBufferPoolOwnMemory");
  return quark;
}

/* Whether @buffer's planes lie where @info's default layout puts them: no
 * video meta, or one that says the same offsets and strides. */
static gboolean
has_default_layout (GstBuffer * buffer, const GstVideoInfo * info)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  guint p;

  if (gst_buffer_get_size (buffer) < GST_VIDEO_INFO_SIZE (info))
    return FALSE;
  if (!meta)
    return TRUE;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    if (meta->offset[p] != info->offset[p] ||
        meta->stride[p] != info->stride[p])
      return FALSE;
  return TRUE;
}

/* Where @planes begin in @info's default layout, if they are its tail:
 * every other plane starts before the first of them (planes of a default
 * layout do not overlap, so those end before it too). 0 if they are not. */
static gsize
shared_tail_start (const GstVideoInfo * info, guint planes)
{
  gsize start = GST_VIDEO_INFO_SIZE (info);
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    if (planes & (1 << p))
      start = MIN (start, info->offset[p]);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++)
    if (!(planes & (1 << p)) && info->offset[p] >= start)
      return 0;
  return start;
}

/* The memory of @source that holds its bytes from @start to the end of the
 * frame, with their offset in it; NULL if no single shareable one does. */
static GstMemory *
find_tail_memory (GstBuffer * source, const GstVideoInfo * info, gsize start,
    gsize * skip)
{
  guint idx, length;
  GstMemory *mem;

  if (!gst_buffer_find_memory (source, start, GST_VIDEO_INFO_SIZE (info) -
          start, &idx, &length, skip) || length != 1)
    return NULL;
  mem = gst_buffer_peek_memory (source, idx);
  return GST_MEMORY_FLAG_IS_SET (mem, GST_MEMORY_FLAG_NO_SHARE) ? NULL : mem;
}

gboolean
gst_cl_buffer_pool_can_share_planes (GstBuffer * buffer, GstBuffer * source,
    const GstVideoInfo * info, guint planes)
{
  gsize start = shared_tail_start (info, planes), skip;

  return buffer->pool && GST_IS_CL_BUFFER_POOL (buffer->pool) &&
      gst_buffer_n_memory (buffer) == 1 && gst_buffer_is_writable (buffer) &&
      !gst_mini_object_get_qdata (GST_MINI_OBJECT (buffer),
      own_memory_quark ()) && start > 0 &&
      has_default_layout (buffer, info) && has_default_layout (source, info)
      && find_tail_memory (source, info, start, &skip) != NULL;
}

gboolean
gst_cl_buffer_pool_share_planes (GstBuffer * buffer, GstBuffer * source,
    const GstVideoInfo * info, guint planes)
{
  gsize start = shared_tail_start (info, planes), skip;
  GstMemory *mem, *tail;

  if (!gst_cl_buffer_pool_can_share_planes (buffer, source, info, planes))
    return FALSE;
  mem = find_tail_memory (source, info, start, &skip);
  if (!(tail = gst_memory_share (mem, skip, GST_VIDEO_INFO_SIZE (info) -
              start)))
    return FALSE;

  /* Remembered by address only, to tell at reset whether it is still there
   * (a consumer that maps the buffer whole may merge its memories). */
  gst_mini_object_set_qdata (GST_MINI_OBJECT (buffer), own_memory_quark (),
      gst_buffer_peek_memory (buffer, 0), NULL);
  /* The buffer's own memory keeps the planes before @start; the share
   * follows it, so the buffer read whole is the frame in its default
   * layout, and the video meta stays as it was. */
  gst_buffer_resize (buffer, 0, start);
  gst_buffer_append_memory (buffer, tail);
  /* @source goes back to its pool only once @buffer is done with its
   * memory (reset_buffer takes the share off before this meta goes): until
   * then the share keeps that memory read-only, and a pool drops buffers
   * whose memory is not writable. */
  gst_buffer_add_parent_buffer_meta (buffer, source);
  return TRUE;
}

/* Takes the share off a buffer coming back with its own memory still in
 * place, so that it is whole again; the base class then resizes that
 * memory back to the pool's size and drops the parent meta, which releases
 * the source. A buffer whose memories were replaced stays tagged, and the
 * base class drops it. */
static void
gst_cl_buffer_pool_reset_buffer (GstBufferPool * pool, GstBuffer * buffer)
{
  GstMemory *own = gst_mini_object_steal_qdata (GST_MINI_OBJECT (buffer),
      own_memory_quark ());

  if (own && gst_buffer_n_memory (buffer) == 2 &&
      gst_buffer_peek_memory (buffer, 0) == own) {
    gst_buffer_remove_memory_range (buffer, 1, -1);
    GST_BUFFER_FLAG_UNSET (buffer, GST_BUFFER_FLAG_TAG_MEMORY);
  }
  GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->reset_buffer (pool,
      buffer);
}

/* GstVideoBufferPool allocates with the config's allocator: make it ours. */
static gboolean
gst_cl_buffer_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GstAllocationParams params;

  if (!gst_buffer_pool_config_get_allocator (config, NULL, &params))
    gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_allocator (config, self->allocator, &params);

  return GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->set_config
      (pool, config);
}

/* A frame in system memory laid out as the pool's would be: what the pool
 * hands out where it has no device memory left and system memory will do
 * (gst_cl_buffer_pool_set_system_fallback()). */
static GstFlowReturn
alloc_system_buffer (GstBufferPool * pool, GstBuffer ** buffer)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocationParams params;
  GstCaps *caps = NULL;
  GstVideoInfo info;
  guint size = 0;

  *buffer = NULL;
  if (!gst_buffer_pool_config_get_allocator (config, NULL, &params))
    gst_allocation_params_init (&params);
  if (gst_buffer_pool_config_get_params (config, &caps, &size, NULL, NULL) &&
      caps && gst_video_info_from_caps (&info, caps)) {
    if (gst_buffer_pool_config_has_option (config,
            GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT)) {
      GstVideoAlignment align;

      gst_buffer_pool_config_get_video_alignment (config, &align);
      gst_video_info_align (&info, &align);
    }
    *buffer = gst_buffer_new_allocate (NULL, MAX (size, info.size), &params);
  }
  if (*buffer && gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META))
    gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&info), GST_VIDEO_INFO_WIDTH (&info),
        GST_VIDEO_INFO_HEIGHT (&info), GST_VIDEO_INFO_N_PLANES (&info),
        info.offset, info.stride);
  gst_structure_free (config);
  GST_INFO_OBJECT (pool, "no device memory for a frame: %s", *buffer ?
      "one in system memory" : "none in system memory either");
  return *buffer ? GST_FLOW_OK : GST_FLOW_ERROR;
}

static GstFlowReturn
gst_cl_buffer_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstFlowReturn ret =
      GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->alloc_buffer
      (pool, buffer, params);

  if (ret != GST_FLOW_ERROR || !GST_CL_BUFFER_POOL (pool)->system_fallback)
    return ret;
  return alloc_system_buffer (pool, buffer);
}

static void
gst_cl_buffer_pool_finalize (GObject * object)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (object);

  gst_clear_object (&self->allocator);
  G_OBJECT_CLASS (gst_cl_buffer_pool_parent_class)->finalize (object);
}

static void
gst_cl_buffer_pool_class_init (GstClBufferPoolClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_buffer_pool_finalize;
  GST_BUFFER_POOL_CLASS (klass)->set_config = gst_cl_buffer_pool_set_config;
  GST_BUFFER_POOL_CLASS (klass)->reset_buffer = gst_cl_buffer_pool_reset_buffer;
  GST_BUFFER_POOL_CLASS (klass)->alloc_buffer = gst_cl_buffer_pool_alloc_buffer;
}

static void
gst_cl_buffer_pool_init (GstClBufferPool * self)
{
}

GstBufferPool *
gst_cl_buffer_pool_new (GstClContext * context, gboolean device_resident)
{
  GstClBufferPool *self;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (context), NULL);

  self = g_object_new (GST_TYPE_CL_BUFFER_POOL, NULL);
  gst_object_ref_sink (self);
  self->allocator = gst_cl_allocator_new (context, device_resident);
  return GST_BUFFER_POOL_CAST (self);
}

void
gst_cl_buffer_pool_set_system_fallback (GstBufferPool * pool)
{
  g_return_if_fail (GST_IS_CL_BUFFER_POOL (pool));
  GST_CL_BUFFER_POOL (pool)->system_fallback = TRUE;
}
