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

#ifndef __GST_CL_EPSILON_PRIVATE_H__
#define __GST_CL_EPSILON_PRIVATE_H__

#include "gstclepsilon.h"
#include "gstclplan-private.h"
#include "gstclcodingprobe-private.h"
#include "gstclstats-private.h"
#include "gstclfaults-private.h"
#include "gstcltuner-private.h"

G_BEGIN_DECLS

/* What the element's files share: gstclepsilon.c (caps, allocation,
 * frames, errors), gstclepsilonproperties.c (the properties, their checks
 * and the warnings a refused value posts) and gstclepsilonstrength.c (the
 * strength knob's levels, presets). */

/* The one knob (#GstClEpsilon:strength): a level sets the expert
 * properties from levels[]; "custom" leaves them as set. */
typedef enum
{
  GST_CL_EPSILON_STRENGTH_OFF,
  GST_CL_EPSILON_STRENGTH_LIGHT,
  GST_CL_EPSILON_STRENGTH_MEDIUM,
  GST_CL_EPSILON_STRENGTH_STRONG,
  GST_CL_EPSILON_STRENGTH_AUTO,
  GST_CL_EPSILON_STRENGTH_CUSTOM,
} GstClEpsilonStrength;

struct _GstClEpsilon
{
  GstVideoFilter parent;

  /* Properties, under the object lock. */
  GstClPlanSettings settings;
  GstClEpsilonStrength strength;
  /* neither strength nor an expert property set yet: the settings are
   * the default level's, the expert ones' defaults set aside */
  gboolean strength_default;
  gchar *kernel_text;
  guint settings_cookie;        /* bumped on every change of settings */
  GSList *pending_warnings;     /* refusals made without a bus, for start */
  gchar *device;
  gchar *device_taken;          /* while started: "device" narrowed to the
                                 * decoder's GPU, or NULL */
  gchar *device_name;
  guint frames_in_flight;
  GThread *preset_loader;       /* the thread loading a preset, or NULL */

  /* Streaming thread only (and start/stop). */
  GstClContext *context;        /* shared with the pipeline's elements */
  GstClContext *own_queues;     /* a sibling of context: what the element
                                 * enqueues goes on queues of its own */
  GstClTuner *tuner;
  GstClPlan *plan;              /* for the negotiated format */
  guint plan_cookie;            /* settings_cookie of the plan's settings */
  gboolean same_memory;         /* both pads carry the same kind of memory */
  gboolean share_untouched;     /* decided with the allocation */
  /* written by start and stop, read by transform_caps: object lock */
  gboolean cuda_checked;        /* start decided cuda_usable for the device */
  gboolean cuda_usable;         /* memory:CUDAMemory offered (start) */
  gboolean without_opencl;      /* start's context has none (NVIDIA MPS):
                                 * no memory:OpenCLBuffer offered */
  GstContext *cuda_context;     /* the pipeline's CUDA context, passed on */
  /* the decoder's CUDA context upstream, whose GPU start took, or NULL */
  GstContext *upstream_cuda;
  /* frames' kernels run in it from or into system memory (set_info): the
   * pools for system memory are then of memory CUDA holds pinned */
  gboolean host_pools_in_cuda;
  GstClStats *stats;            /* has its own lock */
  /* reads the coded pictures where the pipeline's decoders take them, for
   * strength=auto (gstclcodingprobe-private.h); NULL: in no pipeline */
  GstClCodingWatch *coding_watch;
  /* strength=auto said it finds nothing to do on this stream */
  gboolean told_idle;
  /* An ERROR was posted: the stream stays stopped (caps refused, frames
   * failed) until the element goes back to READY. */
  gboolean failed;
  GstClFaults *faults;          /* of frames handed downstream (the plan's) */
  /* outputs not written yet, oldest first (gstclepsilonheld.c) */
  GQueue held;
  gboolean release_held;        /* push every held one */
  gboolean discont_held;        /* the next held output follows a gap */
  guint held_frames;            /* the most held at once, 0: none */
  GstClockTime held_latency;    /* what holding adds (object lock) */
};

/* Installs the properties on @klass, with the set and get functions. */
void gst_cl_epsilon_install_properties (GObjectClass * klass);

/* The GType of the strength enum. */
GType gst_cl_epsilon_strength_get_type (void);
#define GST_TYPE_CL_EPSILON_STRENGTH (gst_cl_epsilon_strength_get_type ())

/* Sets the properties of a new element to their defaults. */
void gst_cl_epsilon_init_properties (GstClEpsilon * self);

/* Posts the refusals of property values made before the element had a bus
 * (gst-launch-1.0 sets properties first): at start. */
void gst_cl_epsilon_post_pending_warnings (GstClEpsilon * self);

/* strength=auto, the default: on the real-world set of docs/quality.md
 * it harms no coding (medium, the default before, loses 0.67 to 1.23 dB
 * on every rate-controlled one after decodebin). The expert properties keep
 * their own defaults (threshold 10, window-size 3, dct-stage off): the
 * first one set on an element with nothing set starts from them, so a
 * pipeline that sets one filters as it did when medium was the default. */
#define GST_CL_EPSILON_DEFAULT_STRENGTH GST_CL_EPSILON_STRENGTH_AUTO
#define GST_CL_EPSILON_DEFAULT_DCT_STAGE FALSE

/* Installs the strength and dct-stage properties on @klass, with the ids
 * @strength_id and @dct_stage_id (gstclepsilonstrength.c). */
void gst_cl_epsilon_install_strength_properties (GObjectClass * klass,
    guint strength_id, guint dct_stage_id);

/* Sets what @strength stands for, with the object lock held: a level's
 * values (and no kernel), or nothing for custom (gstclepsilonstrength.c). */
void gst_cl_epsilon_set_strength_locked (GstClEpsilon * self,
    GstClEpsilonStrength strength);

/* Tells watchers (gst-launch-1.0 -v, applications) what a change of
 * strength changed too: the expert properties where a level was set
 * (@by_level), else strength itself (an expert property set under a level
 * made it custom). */
void gst_cl_epsilon_notify_strength (GstClEpsilon * self, gboolean by_level);

/* The GstPreset interface: which properties a preset holds, and a load
 * that gives strings back as they were saved. */
void gst_cl_epsilon_preset_init (GstPresetInterface * iface);

/* Where @value is a string that this thread's gst_preset_load_preset is
 * setting, with the backslashes of GStreamer's preset files still in it:
 * sets @unescaped (unset it) to the string as it was saved and returns
 * TRUE; else FALSE (gstclepsilonstrength.c). */
gboolean gst_cl_epsilon_preset_unescape (GstClEpsilon * self,
    const GValue * value, GValue * unescaped);

/* Frames held in flight (gstclepsilonheld.c): where the output is CUDA
 * memory, or written from CUDA memory in the decoder's CUDA context
 * (@cuda_written, gstclcudaexec-private.h), and the plan keeps frames in
 * flight, its outputs are held until written; the latency that adds (self->held_latency), from
 * @out_info's frame rate, is posted where it changes. */
void gst_cl_epsilon_set_hold (GstClEpsilon * self,
    const GstVideoInfo * out_info, gboolean cuda_written);

/* What holding adds to the latency now (none in passthrough); any thread. */
GstClockTime gst_cl_epsilon_get_held_latency (GstClEpsilon * self);

/* Queues the output @buffer of a frame (taken). */
void gst_cl_epsilon_hold (GstClEpsilon * self, GstBuffer * buffer);

/* The oldest held output in @outbuf, written, where it is due: the depth
 * of frames is held, or one not held came after it; else NULL. FALSE with
 * @error set where writing it failed (every held one is dropped then). */
gboolean gst_cl_epsilon_next_held (GstClEpsilon * self, GstBuffer ** outbuf,
    GError ** error);

/* Writes and pushes every held output, oldest first (before a serialized
 * event or query); after an ERROR, drops them. FALSE with @error set where
 * writing one failed. */
gboolean gst_cl_epsilon_push_held (GstClEpsilon * self, GError ** error);

/* Lets go of the held outputs (a flush, stop, an error). */
void gst_cl_epsilon_drop_held (GstClEpsilon * self);

G_END_DECLS

#endif /* __GST_CL_EPSILON_PRIVATE_H__ */
