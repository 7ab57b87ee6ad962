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

/**
 * SECTION:element-clepsilon
 * @title: clepsilon
 *
 * Removes mosquito noise, the ringing that block-transform codecs leave in
 * flat areas next to edges, on any OpenCL device.
 *
 * Stage 1, the epsilon filter: each luma sample becomes the rounded mean of
 * the samples in the #GstClEpsilon:window-size square around it that differ
 * from it by at most #GstClEpsilon:threshold. Edges stay sharp, because the
 * samples across them differ by more than the threshold, while the ringing
 * beside them is averaged away. With #GstClEpsilon:chroma-threshold above 0
 * the same filter runs on each chroma component; otherwise chroma passes
 * through untouched.
 *
 * Stage 2, optional: a convolution of the luma result with the matrix given in
 * #GstClEpsilon:kernel, #GstClEpsilon:divisor and #GstClEpsilon:bias.
 *
 * Frame borders replicate the edge samples. Formats: NV12, I420, YV12, NV21,
 * GRAY8, Y444, Y42B, the packed 4:2:2 YUY2 and UYVY of webcams (luma
 * filtered, chroma left as it is), and 10-bit P010_10LE, I420_10LE,
 * I422_10LE and Y444_10LE (thresholds on the 8-bit scale), any size;
 * interlaced frames field by field; put a videoconvert in front for other
 * decoder outputs. With a #GstVideoCropMeta on the input, only the crop rectangle
 * is filtered, as a frame of its own; the rest is copied and the meta kept.
 *
 * ## One knob: strength
 *
 * #GstClEpsilon:strength sets the expert properties from the project's
 * quality measurements: "off" (passthrough), "light", "medium" (the
 * default, safe on every low-quality source measured), "strong", "auto"
 * (the DCT stage, which reads each frame's quantizer step and leaves frames
 * that show none as they are; 8-bit and 10-bit formats) and "custom" (the expert
 * properties as set; setting any of them selects it).
 *
 * Presets for common sources (dvd-rip, divx-xvid, mjpeg-camera,
 * low-bitrate-stream, broadcast-capture) are installed with the plugin:
 * `clepsilon @preset=dvd-rip` in gst-launch-1.0, gst_preset_load_preset()
 * in an application.
 *
 * A value the element refuses (an even window-size, a malformed kernel, a
 * divisor too small) keeps the previous value and posts a warning on the
 * bus; set before the element is in a pipeline, the warning is posted when
 * it starts. At EOS the element notifies #GstClEpsilon:stats, which
 * `gst-launch-1.0 -v` prints.
 *
 * Each property is described on its own (gst-inspect-1.0 clepsilon lists
 * them; docs/properties.md in the source).
 *
 * All but device and frames-in-flight apply from the next frame when
 * changed while playing.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=in.ts ! decodebin ! videoconvert ! clepsilon ! x264enc ! mp4mux ! filesink location=out.mp4
 * ]| Transcodes an MPEG-2 transport stream to H.264, removing the MPEG-2
 * ringing before the new encoder spends bits on it.
 * |[
 * gst-launch-1.0 -v filesrc location=in.mpg ! decodebin ! videoconvert ! clepsilon @preset=dvd-rip ! videoconvert ! x264enc ! mp4mux ! filesink location=out.mp4
 * ]| Transcodes a DVD rip with the preset for it (strength=auto), and prints
 * the element's figures at the end.
 * |[
 * gst-launch-1.0 playbin uri=file:///path/in.mp4 video-filter="clepsilon strength=strong"
 * ]| Plays a file with clepsilon as playbin's video filter.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=NV12 ! clepsilon threshold=12 window-size=7 chroma-threshold=6 kernel="0 -1 0; -1 5 -1; 0 -1 0" device=pocl ! fakesink
 * ]| Luma and chroma, then a sharpening kernel, on the PoCL CPU device.
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclepsilon-private.h"
#include "gstclcontext-private.h"
#include "gstcldebug-private.h"
#include "gstclerror-private.h"
#include "gstclmemory-private.h"
#include "gstclnegotiation-private.h"
#include "gstclsharing-private.h"
#include "gstclcudaimport-private.h"
#include "gstclcudashare-private.h"

#include <string.h>

GST_DEBUG_CATEGORY (gst_cl_epsilon_debug);
#define GST_CAT_DEFAULT gst_cl_epsilon_debug

#define CAPS_FORMATS \
    "{ NV12, I420, YV12, NV21, GRAY8, Y444, Y42B, YUY2, UYVY, P010_10LE, " \
    "I420_10LE, I422_10LE, Y444_10LE }"
/* Device memory first: where both sides take it (two OpenCL elements), the
 * frame stays on the device; then CUDA memory, which transform_caps offers
 * only where the device is the GPU of CUDA (gstclnegotiation.c); other
 * peers get system memory. A stream whose buffers each hold one field
 * (interlace-mode=alternate, behind the format:Interlaced feature) is
 * filtered buffer by buffer: each field as the picture it is. */
#define ALTERNATE ", interlace-mode = (string) alternate"
#define CAPS \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CL_BUFFER, \
        CAPS_FORMATS) "; " \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CL_CAPS_FEATURE_MEMORY_CUDA, \
        CAPS_FORMATS) "; " GST_VIDEO_CAPS_MAKE (CAPS_FORMATS) "; " \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CL_BUFFER \
        ", " GST_CAPS_FEATURE_FORMAT_INTERLACED, CAPS_FORMATS) ALTERNATE "; " \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_FORMAT_INTERLACED, \
        CAPS_FORMATS) ALTERNATE

static GstStaticPadTemplate gst_cl_epsilon_sink_template =
GST_STATIC_PAD_TEMPLATE ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (CAPS));

static GstStaticPadTemplate gst_cl_epsilon_src_template =
GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (CAPS));

#define gst_cl_epsilon_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstClEpsilon, gst_cl_epsilon, GST_TYPE_VIDEO_FILTER,
    G_IMPLEMENT_INTERFACE (GST_TYPE_PRESET, gst_cl_epsilon_preset_init));
/* The category with the element, not with its class: a registry that knows
 * the element already does not make the class when the plugin loads. */
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (clepsilon, "clepsilon", GST_RANK_NONE,
    GST_TYPE_CL_EPSILON, GST_DEBUG_CATEGORY_INIT (gst_cl_epsilon_debug,
        "clepsilon", 0, GST_CL_DEBUG_DESCRIPTION_PREFIX
        "OpenCL epsilon filter"));


static void
gst_cl_epsilon_init (GstClEpsilon * self)
{
  gst_cl_epsilon_init_properties (self);
  self->settings_cookie = 1;
  self->same_memory = TRUE;
  self->stats = gst_cl_stats_new ();
}

static void
gst_cl_epsilon_finalize (GObject * object)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);

  g_free (self->kernel_text);
  g_free (self->device);
  g_free (self->device_taken);
  g_free (self->device_name);
  g_slist_free_full (self->pending_warnings, g_free);
  gst_cl_stats_free (self->stats);
  /* A context set on the element (set_context) that it never started with. */
  gst_clear_object (&self->context);
  if (self->cuda_context)
    gst_context_unref (self->cuda_context);
  g_clear_pointer (&self->upstream_cuda, gst_context_unref);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* ---- Settings, from the properties to the plan -------------------------- */

/* Gives the plan the properties' values where they changed since it last
 * got them, and turns passthrough on exactly when no stage would change a
 * sample. Streaming thread only (and start), so that concurrent setters
 * cannot leave a stale decision; a change of passthrough renegotiates the
 * allocation, since a passthrough element had none of its own. */
static void
gst_cl_epsilon_update_settings (GstClEpsilon * self, gboolean force)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstClPlanSettings settings;
  gboolean passthrough;

  GST_OBJECT_LOCK (self);
  if (!force && self->settings_cookie == self->plan_cookie) {
    GST_OBJECT_UNLOCK (self);
    return;
  }
  settings = self->settings;
  self->plan_cookie = self->settings_cookie;
  GST_OBJECT_UNLOCK (self);

  if (self->plan)
    gst_cl_plan_set_settings (self->plan, &settings);
  /* Frames in device memory on one side and system memory on the other
   * need the element to move them, even when no stage runs. */
  passthrough = gst_cl_plan_settings_are_identity (&settings) &&
      self->same_memory;
  if (passthrough == gst_base_transform_is_passthrough (trans))
    return;
  GST_DEBUG_OBJECT (self, "passthrough %s", passthrough ? "on" : "off");
  gst_base_transform_set_passthrough (trans, passthrough);
  gst_base_transform_reconfigure_src (trans);
  /* frames held add latency only while filtering */
  if (self->held_frames > 0)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
}

static void gst_cl_epsilon_fail (GstClEpsilon * self, GError * error);

static void
gst_cl_epsilon_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GError *error = NULL;
  GstClockTime stream_time;

  /* Controlled properties follow stream time, which only a segment in time
   * gives (a stream in bytes has none: its frames use the values set). */
  if (trans->segment.format == GST_FORMAT_TIME) {
    stream_time = gst_segment_to_stream_time (&trans->segment,
        GST_FORMAT_TIME, GST_BUFFER_TIMESTAMP (buffer));
    if (GST_CLOCK_TIME_IS_VALID (stream_time))
      gst_object_sync_values (GST_OBJECT (trans), stream_time);
  }

  gst_cl_epsilon_update_settings (self, FALSE);
  /* a renegotiation (in submit_input_buffer) sends new caps downstream:
   * the frames held under the old ones go first */
  if (gst_pad_needs_reconfigure (GST_BASE_TRANSFORM_SRC_PAD (trans)) &&
      !gst_cl_epsilon_push_held (self, &error))
    gst_cl_epsilon_fail (self, error);
}

/* ---- Errors --------------------------------------------------------------- */

/* Posts @error (taken) as the element's ERROR and stops the stream for good:
 * from now on caps are refused and frames fail, until READY. Only the first
 * error is posted (a map of an output frame may have posted it already,
 * from another thread: gst_cl_faults_keep()). */
static void
gst_cl_epsilon_fail (GstClEpsilon * self, GError * error)
{
  if (!self->failed && !(self->faults && gst_cl_faults_posted (self->faults)))
    GST_CL_ELEMENT_ERROR_FROM_GERROR (self, error);
  g_clear_error (&error);
  self->failed = TRUE;
  if (self->faults)
    gst_cl_faults_set_posted (self->faults);
  /* held outputs may never have been written */
  gst_cl_epsilon_drop_held (self);
}

/* ---- Start and stop ------------------------------------------------------ */

static void
gst_cl_epsilon_free_resources (GstClEpsilon * self)
{
  gst_cl_epsilon_drop_held (self);
  self->held_frames = 0;
  GST_OBJECT_LOCK (self);
  self->held_latency = 0;
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->plan, gst_cl_plan_free);
  g_clear_pointer (&self->upstream_cuda, gst_context_unref);
  if (self->faults)
    gst_cl_faults_detach (self->faults);
  g_clear_pointer (&self->faults, gst_cl_faults_unref);
  g_clear_pointer (&self->tuner, gst_cl_tuner_free);
  gst_clear_object (&self->own_queues);
  GST_OBJECT_LOCK (self);
  gst_clear_object (&self->context);
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cl_epsilon_start (GstBaseTransform * trans)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GError *error = NULL;
  gchar *device, *followed;
  gboolean cuda_usable;
  guint radius;

  gst_cl_epsilon_post_pending_warnings (self);
  GST_OBJECT_LOCK (self);
  device = g_strdup (self->device);
  radius = self->settings.window_size / 2;
  GST_OBJECT_UNLOCK (self);
  /* Of the GPUs "device" allows, the one that decodes: its frames stay
   * there (docs/devices.md). */
  followed = gst_cl_cuda_follow_upstream (GST_ELEMENT (self), device,
      &self->cuda_context);
  if (followed) {
    g_free (device);
    device = followed;
    /* what answered upstream now, not what downstream may answer later */
    g_clear_pointer (&self->upstream_cuda, gst_context_unref);
    self->upstream_cuda = gst_cl_cuda_get_context (GST_ELEMENT (self),
        &self->cuda_context, FALSE);
  }
  /* what a context set on the element now must match (set_context) */
  GST_OBJECT_LOCK (self);
  g_free (self->device_taken);
  self->device_taken = g_strdup (followed);
  GST_OBJECT_UNLOCK (self);

  /* Shared with the pipeline's other OpenCL elements where they have one. */
  if (!gst_cl_context_ensure_for_element (GST_ELEMENT (self), device,
          &self->context, &error)) {
    g_free (device);
    goto no_device;
  }
  g_free (device);
  if (!(self->own_queues = gst_cl_context_new_sibling (self->context, &error)))
    goto cl_failed;

  gst_cl_stats_reset (self->stats);
  self->failed = FALSE;
  self->faults = gst_cl_faults_new (GST_ELEMENT (self));
  self->tuner = gst_cl_tuner_new (self->own_queues, self->stats);
  /* The program for the current window now, so that a build failure shows
   * at start. */
  if (!gst_cl_tuner_get_kernels (self->tuner, FALSE, radius, &error))
    goto cl_failed;

  /* memory:CUDAMemory where the device is the GPU of CUDA */
  cuda_usable = gst_cl_cuda_offer (GST_ELEMENT (self), self->context);
  /* under the lock: transform_caps reads them from any thread */
  GST_OBJECT_LOCK (self);
  g_free (self->device_name);
  self->device_name = g_strdup (gst_cl_context_get_device_name (self->context));
  self->cuda_usable = cuda_usable;
  self->without_opencl = !gst_cl_context_has_opencl (self->context);
  self->cuda_checked = TRUE;
  GST_OBJECT_UNLOCK (self);
  g_object_notify (G_OBJECT (self), "device-name");
  self->same_memory = TRUE;
  gst_cl_epsilon_update_settings (self, TRUE);
  /* each frame's coding, for strength=auto's hold, where the pipeline's
   * decoders take MPEG-1/2, MPEG-4 Part 2, H.263 or H.264; last, so that a
   * start that fails leaves no watch (stop does not follow it) */
  g_clear_pointer (&self->coding_watch, gst_cl_coding_watch_stop);
  self->coding_watch = gst_cl_coding_watch_start (GST_ELEMENT (self));
  return TRUE;

  /* ERRORS */
no_device:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", error->message),
        (NULL));
    g_clear_error (&error);
    return FALSE;
  }
cl_failed:
  {
    GST_CL_ELEMENT_ERROR_FROM_GERROR (self, error);
    gst_cl_epsilon_free_resources (self);
    return FALSE;
  }
}

static gboolean
gst_cl_epsilon_stop (GstBaseTransform * trans)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);

  gst_cl_epsilon_free_resources (self);
  g_clear_pointer (&self->coding_watch, gst_cl_coding_watch_stop);
  GST_OBJECT_LOCK (self);
  self->cuda_checked = FALSE;
  g_clear_pointer (&self->device_name, g_free);
  g_clear_pointer (&self->device_taken, g_free);
  GST_OBJECT_UNLOCK (self);
  g_object_notify (G_OBJECT (self), "device-name");
  return TRUE;
}

/* ---- Sharing the device -------------------------------------------------- */

static void
gst_cl_epsilon_set_context (GstElement * element, GstContext * context)
{
  GstClEpsilon *self = GST_CL_EPSILON (element);
  gchar *device;

  /* The CUDA context of the decoders is passed on, as it is. */
  if (gst_cl_cuda_handle_set_context (element, context, &self->cuda_context))
    goto chain;
  GST_OBJECT_LOCK (self);
  device = g_strdup (self->device_taken ? self->device_taken : self->device);
  GST_OBJECT_UNLOCK (self);
  gst_cl_context_handle_set_context (element, context, device, &self->context);
  g_free (device);

chain:
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* Adds what held frames add (gstclepsilonheld.c) to the LATENCY @query
 * answered upstream. */
static void
gst_cl_epsilon_add_latency (GstClEpsilon * self, GstQuery * query)
{
  GstClockTime held = gst_cl_epsilon_get_held_latency (self), min, max;
  gboolean live;

  if (held == 0)
    return;
  gst_query_parse_latency (query, &live, &min, &max);
  min += held;
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += held;
  gst_query_set_latency (query, live, min, max);
}

static gboolean
gst_cl_epsilon_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstClContext *context = NULL;
  GError *error = NULL;
  gboolean answered;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    /* a CUDA decoder upstream that asks is given its GPU's context */
    if (direction == GST_PAD_SINK && gst_cl_cuda_share_asks (query))
      return gst_cl_cuda_share_handle_context_query (GST_ELEMENT (self),
          query, &self->cuda_context);
    GST_OBJECT_LOCK (self);
    if (self->context)
      context = gst_object_ref (self->context);
    GST_OBJECT_UNLOCK (self);
    answered = gst_cl_context_handle_context_query (GST_ELEMENT (self),
        query, context) || gst_cl_cuda_handle_context_query (GST_ELEMENT
        (self), query, &self->cuda_context);
    gst_clear_object (&context);
    if (answered)
      return TRUE;
  }
  /* held frames go before what a serialized query asks of downstream */
  if (direction == GST_PAD_SINK && GST_QUERY_IS_SERIALIZED (query) &&
      !gst_cl_epsilon_push_held (self, &error)) {
    gst_cl_epsilon_fail (self, error);
    return FALSE;
  }
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query))
    return FALSE;
  if (direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY)
    gst_cl_epsilon_add_latency (self, query);
  return TRUE;
}

/* ---- Caps and allocation (rules in gstclnegotiation-private.h) ---------- */

static GstCaps *
gst_cl_epsilon_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  gboolean checked, usable, opencl;
  GstCaps *result;

  GST_OBJECT_LOCK (self);
  checked = self->cuda_checked;
  usable = self->cuda_usable;
  opencl = !self->without_opencl;
  GST_OBJECT_UNLOCK (self);
  /* Before start, when gst-launch-1.0 links elements, the device is not
   * known: CUDA memory wherever the CUDA driver loads; start decides. */
  result = gst_cl_caps_transform (caps, filter, !checked || opencl,
      checked ? usable : gst_cl_cuda_load (NULL));

  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SRC ? "src" : "sink", caps, result);
  return result;
}

static GstCaps *
gst_cl_epsilon_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  if (direction == GST_PAD_SINK)
    othercaps = gst_cl_caps_keep_peer_memory (GST_BASE_TRANSFORM_SRC_PAD
        (trans), caps, othercaps);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->fixate_caps (trans,
      direction, caps, othercaps);
}

/* Builds the plan for the new format, beside the old one, which stays if
 * these caps fail: GstBaseTransform then keeps the previous caps, and does
 * not call set_info again when they come back. */
static gboolean
gst_cl_epsilon_set_info (GstVideoFilter * vfilter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClEpsilon *self = GST_CL_EPSILON (vfilter);
  GError *error = NULL;
  gboolean upstream_runs, runs_in_cuda;
  GstClPlan *plan;
  guint depth;

  if (!self->own_queues)
    return FALSE;
  if (self->failed)
    goto stopped;
  /* frames held under the old caps go out under them (a renegotiation
   * that before_transform did not see coming) */
  if (!gst_cl_epsilon_push_held (self, &error))
    goto plan_failed;
  if (!gst_cl_plan_supports (in_info))
    goto too_large;
  /* accept-caps checks the template only */
  if (!self->cuda_usable && (gst_cl_caps_in_cuda_memory (incaps) ||
          gst_cl_caps_in_cuda_memory (outcaps)))
    goto no_cuda;
  GST_OBJECT_LOCK (self);
  depth = self->frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  /* Frames in flight of the old format may still fail: say so now. */
  if (self->plan && !gst_cl_plan_drain (self->plan, NULL, &error))
    goto plan_failed;
  if (!(plan = gst_cl_plan_new (self->own_queues, self->tuner, in_info, depth,
              &error)))
    goto plan_failed;
  /* frames in system memory from the decoder whose GPU start took: their
   * kernels in its CUDA context, where the device is NVIDIA's OpenCL */
  upstream_runs = !gst_cl_caps_in_cuda_memory (incaps) &&
      !gst_cl_caps_in_device_memory (incaps) &&
      gst_cl_plan_set_cuda_context (plan, self->upstream_cuda);
  /* input whose kernels may run in a CUDA context (CUDA memory, or system
   * memory from that decoder), into system memory (not into a second
   * element's OpenCL memory) */
  runs_in_cuda = !gst_cl_caps_in_device_memory (outcaps) && (upstream_runs ||
      (gst_cl_caps_in_cuda_memory (incaps) &&
          gst_cl_cuda_exec_may_run (self->own_queues)));
  if (!runs_in_cuda && !gst_cl_context_has_opencl (self->own_queues)) {
    gst_cl_plan_free (plan);
    goto no_opencl;
  }
  g_clear_pointer (&self->plan, gst_cl_plan_free);
  self->plan = plan;
  gst_cl_plan_set_faults (plan, self->faults);
  gst_cl_epsilon_set_hold (self, out_info,
      gst_cl_caps_in_cuda_memory (outcaps) || runs_in_cuda);
  /* system memory on either side of such frames: pinned by CUDA, which
   * copies it by DMA (gstclcudahost-private.h) */
  self->host_pools_in_cuda = self->upstream_cuda && runs_in_cuda;
  self->same_memory = gst_cl_caps_same_memory (incaps, outcaps);
  gst_cl_epsilon_update_settings (self, TRUE);
  GST_DEBUG_OBJECT (self, "planned %" GST_PTR_FORMAT, incaps);
  return TRUE;

  /* ERRORS */
stopped:
  {
    GST_DEBUG_OBJECT (self, "an error stopped the stream: caps refused");
    return FALSE;
  }
no_cuda:
  {
    GST_WARNING_OBJECT (self, "memory:CUDAMemory refused: not offered on "
        "this device");
    return FALSE;
  }
no_opencl:
  {
    gst_cl_epsilon_fail (self, g_error_new (GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_SETTINGS, "%s has no OpenCL context here "
            "(NVIDIA MPS?): it filters only frames of an NVIDIA decoder, "
            "in CUDA memory or from its pool, into CUDA or system memory",
            gst_cl_context_get_device_name (self->own_queues)));
    return FALSE;
  }
too_large:
  {
    gst_cl_epsilon_fail (self, g_error_new (GST_STREAM_ERROR,
            GST_STREAM_ERROR_FORMAT, "frames of %dx%d are too large",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info)));
    return FALSE;
  }
plan_failed:
  {
    gst_cl_epsilon_fail (self, error);
    return FALSE;
  }
}

static gboolean
gst_cl_epsilon_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->set_caps (trans, incaps,
          outcaps))
    return FALSE;
  /* GstVideoFilter turns in-place on for a subclass without transform_frame;
   * this one implements transform, always into a new buffer, so that it can
   * work on OpenCL memory without mapping it. */
  gst_base_transform_set_in_place (trans, FALSE);
  return TRUE;
}

static gboolean
gst_cl_epsilon_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);

  /* Passthrough: upstream gets downstream's answer. */
  if (decide_query == NULL || self->own_queues == NULL)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
        decide_query, query);
  return gst_cl_allocation_propose (self->own_queues, decide_query, query,
      self->faults, self->held_frames,
      self->host_pools_in_cuda ? self->upstream_cuda : NULL);
}

static gboolean
gst_cl_epsilon_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstCaps *sinkcaps =
      gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
  /* CUDA output needs a CUDA pool: downstream's, or one made for the
   * decoder's context. */
  GstContext *cuda_context = gst_cl_cuda_get_context (GST_ELEMENT (self),
      &self->cuda_context, self->cuda_usable);
  gboolean ok = gst_cl_allocation_decide (self->own_queues, self->faults, query,
      sinkcaps, cuda_context, self->held_frames, &self->share_untouched,
      self->host_pools_in_cuda ? self->upstream_cuda : NULL);

  gst_clear_caps (&sinkcaps);
  if (cuda_context)
    gst_context_unref (cuda_context);
  return ok && GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation
      (trans, query);
}

/* The output has the input's size and layout, so the input's crop rectangle
 * still says what is visible: keep the crop meta, which GstVideoFilter drops
 * (it is tagged "size" and "orientation"). */
static gboolean
gst_cl_epsilon_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf)
{
  if (meta->info->api == GST_VIDEO_CROP_META_API_TYPE)
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_meta (trans,
      outbuf, meta, inbuf);
}

/* Of the metas downstream takes, GstBaseTransform keeps in the query that
 * propose_allocation sees only those this returns TRUE for: the crop meta,
 * which passes through (transform_meta). */
static gboolean
gst_cl_epsilon_filter_meta (GstBaseTransform * trans, GstQuery * query,
    GType api, const GstStructure * params)
{
  return api == GST_VIDEO_CROP_META_API_TYPE;
}

/* ---- Frames -------------------------------------------------------------- */

/* Tells the user, once a stream, that strength=auto leaves it alone and
 * why (after the first GST_CL_DCT_IDLE_FRAMES frames, or at the end of a
 * shorter stream), as an INFO message; in its debug text too, which is
 * what gst-launch-1.0 prints of an INFO. */
static void
gst_cl_epsilon_tell_idle (GstClEpsilon * self, GstClDctIdle idle)
{
  const gchar *why = idle == GST_CL_DCT_IDLE_FLAT ?
      "are too flat to read a quantizer from" : "show no block-DCT "
      "quantization (a codec that deblocks, such as H.264 or HEVC, a source "
      "never coded, or one scaled after decoding)";
  gchar *text;

  if (self->told_idle)
    return;
  self->told_idle = TRUE;
  text = g_strdup_printf ("strength=auto leaves the video as it is: its "
      "first frames %s; it keeps looking", why);
  GST_ELEMENT_INFO (self, STREAM, FORMAT, ("%s", text), ("%s", text));
  g_free (text);
}

/* Frames in flight end with the stream: at EOS they are waited for (a
 * failure of theirs is an error of the stream, which nothing else would
 * report), after a flush they are let go; either way the buffers they
 * read go back upstream. */
static gboolean
gst_cl_epsilon_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstClDctIdle idle;
  guint threshold;
  GError *error = NULL;

  /* held frames go before a serialized event; a flush lets go of them */
  if (GST_EVENT_IS_SERIALIZED (event) &&
      GST_EVENT_TYPE (event) != GST_EVENT_FLUSH_STOP &&
      !gst_cl_epsilon_push_held (self, &error))
    gst_cl_epsilon_fail (self, error);
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      /* a stream shorter than the frames it looks at first */
      if (self->plan) {
        idle = gst_cl_plan_auto_at_end (self->plan, &threshold);
        /* frames in flight are done now: the last frame's */
        gst_cl_stats_set_auto_threshold (self->stats, threshold);
        if (idle != GST_CL_DCT_IDLE_NO)
          gst_cl_epsilon_tell_idle (self, idle);
      }
      /* A frame in flight failed, or an error stopped the stream before:
       * the stream ends in that ERROR, not in EOS. */
      if (self->plan && !gst_cl_plan_drain (self->plan, NULL, &error))
        gst_cl_epsilon_fail (self, error);
      /* The figures of the whole stream, for gst-launch-1.0 -v and
       * applications that watch the property. */
      g_object_notify (G_OBJECT (self), "stats");
      if (self->failed)
        goto stopped;
      break;
    case GST_EVENT_FLUSH_STOP:
      if (self->plan)
        gst_cl_plan_drain (self->plan, NULL, NULL);
      gst_cl_epsilon_drop_held (self);
      break;
    case GST_EVENT_STREAM_START:
      self->told_idle = FALSE;
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);

  /* ERRORS */
stopped:
  {
    GST_DEBUG_OBJECT (self, "an error stopped the stream: %" GST_PTR_FORMAT
        " dropped", event);
    gst_event_unref (event);
    return FALSE;
  }
}

/* GstBaseTransform returns GST_FLOW_ERROR without an error message when the
 * output pool cannot allocate; our pool's allocator kept its OpenCL error
 * with the element's faults (gst_cl_allocation_decide()), which says why. */
static GstFlowReturn
gst_cl_epsilon_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstFlowReturn ret;
  GError *error = NULL;

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans,
      input, outbuf);
  if (ret == GST_FLOW_ERROR) {
    if (!self->faults || gst_cl_faults_check (self->faults, &error))
      error = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "Could not allocate an output frame");
    gst_cl_epsilon_fail (self, error);
  }
  return ret;
}

static GstFlowReturn
gst_cl_epsilon_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  gint64 started = g_get_monotonic_time ();
  GstClFrameStats frame;
  GError *error = NULL;

  if (G_UNLIKELY (self->failed))
    goto stopped;
  if (G_UNLIKELY (self->plan == NULL))
    goto not_negotiated;
  if (!gst_cl_plan_process (self->plan, inbuf, outbuf, self->share_untouched,
          &frame, &error))
    goto failed;
  frame.wall_ms = (g_get_monotonic_time () - started) / 1000.0;
  gst_cl_stats_add_frame (self->stats, &frame);
  if (G_UNLIKELY (frame.auto_idle != GST_CL_DCT_IDLE_NO))
    gst_cl_epsilon_tell_idle (self, frame.auto_idle);
  return GST_FLOW_OK;

  /* ERRORS */
stopped:
  {
    GST_DEBUG_OBJECT (self, "an error stopped the stream: frame refused");
    return GST_FLOW_ERROR;
  }
not_negotiated:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("transform before caps were set"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
failed:
  {
    gst_cl_epsilon_fail (self, error);
    return GST_FLOW_ERROR;
  }
}

/* A discontinuity (a DISCONT input, or a frame QoS dropped) goes on the
 * first output after it: the held frames, from before it, go out first,
 * and the next frame's output is flagged here, as it may go out at an
 * event, past GstBaseTransform (which flags the first output it hands on,
 * that frame's too). */
static GstFlowReturn
gst_cl_epsilon_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GError *error = NULL;
  GstFlowReturn ret;

  /* the input's own flag goes to its output with its metadata */
  if (GST_BUFFER_IS_DISCONT (input) && !gst_cl_epsilon_push_held (self, &error))
    goto failed;
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans,
      is_discont, input);
  if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED) {
    self->discont_held = TRUE;
    if (!gst_cl_epsilon_push_held (self, &error))
      goto failed;
  }
  return ret;

failed:
  gst_cl_epsilon_fail (self, error);
  return GST_FLOW_ERROR;
}

/* GstBaseTransform's own generate_output filters the queued input frame
 * (transform); its output is held where it is not written yet
 * (gstclepsilonheld.c), and this hands on the oldest held one when it is
 * due. GstBaseTransform calls it again while it hands one on. */
static GstFlowReturn
gst_cl_epsilon_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstBuffer *buffer = NULL;
  GError *error = NULL;
  GstFlowReturn ret;

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (trans,
      &buffer);
  if (ret == GST_FLOW_OK && buffer && self->discont_held) {
    /* a new output: the element (and the slot that writes it) alone
     * refer to it */
    GST_BUFFER_FLAG_SET (buffer, GST_BUFFER_FLAG_DISCONT);
    self->discont_held = FALSE;
  }
  if (ret != GST_FLOW_OK || (buffer && g_queue_is_empty (&self->held) &&
          !(self->plan && gst_cl_plan_holds (self->plan, buffer)))) {
    if (ret < GST_FLOW_OK)
      gst_cl_epsilon_drop_held (self);
    *outbuf = buffer;
    return ret;
  }
  if (buffer)
    gst_cl_epsilon_hold (self, buffer);
  if (gst_cl_epsilon_next_held (self, outbuf, &error))
    return GST_FLOW_OK;
  gst_cl_epsilon_fail (self, error);
  return GST_FLOW_ERROR;
}

/* ---- The class ------------------------------------------------------------ */

static void
gst_cl_epsilon_class_init (GstClEpsilonClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);

  gobject_class->finalize = gst_cl_epsilon_finalize;
  gst_cl_epsilon_install_properties (gobject_class);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL mosquito noise denoiser", "Filter/Effect/Video",
      "Denoises decoded video: removes the mosquito noise (ringing) of "
      "MPEG-2, MJPEG and other block-coded video with an epsilon filter or "
      "a DCT stage, and an optional convolution, on an OpenCL device",
      "gst-clfilters authors");
  gst_element_class_add_static_pad_template (element_class,
      &gst_cl_epsilon_sink_template);
  gst_element_class_add_static_pad_template (element_class,
      &gst_cl_epsilon_src_template);

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cl_epsilon_set_context);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_epsilon_start);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_epsilon_query);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cl_epsilon_fixate_caps);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_epsilon_stop);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_before_transform);
  vfilter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_epsilon_set_info);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_epsilon_set_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_decide_allocation);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_epsilon_transform);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_generate_output);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_submit_input_buffer);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_prepare_output_buffer);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_transform_meta);
  trans_class->filter_meta = GST_DEBUG_FUNCPTR (gst_cl_epsilon_filter_meta);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_epsilon_sink_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_EPSILON_STRENGTH, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_VARIANT, 0);
}
