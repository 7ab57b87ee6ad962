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

/* Frames held in flight: where the output is GStreamer's CUDA memory,
 * which carries no event that a consumer could wait for (1.22), a frame's
 * output is written (copied back from the imported buffer) only once its
 * commands are done. Instead of waiting for each frame before it goes
 * downstream, the element keeps up to the plan's depth of them in flight
 * and pushes the oldest once that many are held: the device works on the
 * frames before while the streaming thread enqueues the next, and the
 * latency grows by depth - 1 frames (told in the LATENCY query; the output
 * pool holds depth more). Order is kept: a frame that is not held, a
 * discontinuity, a serialized event or query, new caps and EOS push the
 * held ones first; a flush or an ERROR drops them. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclepsilon-private.h"

void
gst_cl_epsilon_set_hold (GstClEpsilon * self, const GstVideoInfo * out_info,
    gboolean cuda_written)
{
  const guint depth = gst_cl_plan_get_depth (self->plan);
  /* buffers a second: fields of alternate interlacing come two a frame */
  const gint per_s = GST_VIDEO_INFO_FPS_N (out_info) *
      (GST_VIDEO_INFO_INTERLACE_MODE (out_info) ==
      GST_VIDEO_INTERLACE_MODE_ALTERNATE ? 2 : 1);
  /* the added latency needs a buffer's duration; in pull mode nothing
   * would push the held ones at the end; GST_CL_HOLD_FRAMES=1 holds any
   * output left in flight (gstclinflight.c), for the tests */
  const gboolean hold = (cuda_written ||
      g_strcmp0 (g_getenv ("GST_CL_HOLD_FRAMES"), "1") == 0) && depth > 1 &&
      per_s > 0 && GST_VIDEO_INFO_FPS_D (out_info) > 0 &&
      GST_PAD_MODE (GST_BASE_TRANSFORM_SINK_PAD (self)) != GST_PAD_MODE_PULL;
  const GstClockTime latency = hold ? gst_util_uint64_scale (GST_SECOND,
      (guint64) (depth - 1) * GST_VIDEO_INFO_FPS_D (out_info), per_s) : 0;
  gboolean changed;

  gst_cl_plan_set_hold_cuda (self->plan, hold);
  self->held_frames = hold ? depth : 0;
  GST_OBJECT_LOCK (self);
  changed = latency != self->held_latency;
  self->held_latency = latency;
  GST_OBJECT_UNLOCK (self);
  if (changed)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
}

GstClockTime
gst_cl_epsilon_get_held_latency (GstClEpsilon * self)
{
  GstClockTime latency;

  /* in passthrough nothing is held */
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self)))
    return 0;
  GST_OBJECT_LOCK (self);
  latency = self->held_latency;
  GST_OBJECT_UNLOCK (self);
  return latency;
}

void
gst_cl_epsilon_hold (GstClEpsilon * self, GstBuffer * buffer)
{
  g_queue_push_tail (&self->held, buffer);
  /* the copy back of those done starts now, ahead of their turn */
  if (self->plan)
    gst_cl_plan_poll (self->plan);
  /* one already written: every frame before it goes out first */
  if (!self->plan || !gst_cl_plan_holds (self->plan, buffer))
    self->release_held = TRUE;
}

gboolean
gst_cl_epsilon_next_held (GstClEpsilon * self, GstBuffer ** outbuf,
    GError ** error)
{
  GstBuffer *buffer;

  *outbuf = NULL;
  if (g_queue_is_empty (&self->held)) {
    self->release_held = FALSE;
    return TRUE;
  }
  if (!self->release_held && self->plan &&
      g_queue_get_length (&self->held) < gst_cl_plan_get_depth (self->plan))
    return TRUE;
  buffer = g_queue_pop_head (&self->held);
  if (self->plan && !gst_cl_plan_complete (self->plan, buffer, error)) {
    gst_buffer_unref (buffer);
    gst_cl_epsilon_drop_held (self);
    return FALSE;
  }
  *outbuf = buffer;
  return TRUE;
}

gboolean
gst_cl_epsilon_push_held (GstClEpsilon * self, GError ** error)
{
  GstPad *srcpad = GST_BASE_TRANSFORM_SRC_PAD (self);
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *buffer;

  /* after an ERROR no frame goes out: some may never have been written */
  if (self->failed) {
    gst_cl_epsilon_drop_held (self);
    return TRUE;
  }
  self->release_held = TRUE;
  while (gst_cl_epsilon_next_held (self, &buffer, error)) {
    if (!buffer)
      return TRUE;
    /* a flushing or unlinked peer takes none of the others either */
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (srcpad, buffer);
    else
      gst_buffer_unref (buffer);
    if (ret != GST_FLOW_OK)
      GST_DEBUG_OBJECT (self, "held frame pushed: %s", gst_flow_get_name (ret));
  }
  return FALSE;
}

void
gst_cl_epsilon_drop_held (GstClEpsilon * self)
{
  g_queue_clear_full (&self->held, (GDestroyNotify) gst_buffer_unref);
  self->release_held = FALSE;
  self->discont_held = FALSE;
}
