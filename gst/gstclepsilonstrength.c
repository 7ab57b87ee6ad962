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

/* The one knob (#GstClEpsilon:strength): its levels and the expert
 * properties each sets, and the presets, which are loaded through the
 * same properties. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclepsilon-private.h"

#include <string.h>

/* What a level sets; each also clears the kernel. From docs/quality.md, by
 * the rules docs/properties.md states: light, the largest gain among the
 * settings that lose at most 0.03 dB on every sequence of every encode
 * measured; medium, the same on the low-quality encodes (the defaults'
 * rule); strong, the largest mean gain on low-quality MPEG-2 and MJPEG
 * among the settings that lose at most 0.03 dB on any of their sequences;
 * auto, the DCT stage, with medium's epsilon filter where that cannot run
 * (10-bit formats). Chroma is not measured: left untouched. */
typedef struct
{
  guint threshold;
  guint window_size;
  gboolean dct_stage;
} GstClEpsilonLevel;

static const GstClEpsilonLevel levels[] = {
  [GST_CL_EPSILON_STRENGTH_OFF] = {0, 3, FALSE},
  [GST_CL_EPSILON_STRENGTH_LIGHT] = {2, 13, FALSE},
  [GST_CL_EPSILON_STRENGTH_MEDIUM] = {10, 3, FALSE},
  [GST_CL_EPSILON_STRENGTH_STRONG] = {20, 3, FALSE},
  [GST_CL_EPSILON_STRENGTH_AUTO] = {10, 3, TRUE},
};

GType
gst_cl_epsilon_strength_get_type (void)
{
  static const GEnumValue values[] = {
    {GST_CL_EPSILON_STRENGTH_OFF, "Change nothing (passthrough)", "off"},
    {GST_CL_EPSILON_STRENGTH_LIGHT, "Light: moderate-quality sources "
          "(threshold 2, window-size 13; costs more than medium)", "light"},
    {GST_CL_EPSILON_STRENGTH_MEDIUM, "Medium: low-quality MPEG-2 and MJPEG, "
          "safe on H.264 (threshold 10, window-size 3)", "medium"},
    {GST_CL_EPSILON_STRENGTH_STRONG, "Strong: heavily compressed MPEG-2 and "
          "MJPEG only (threshold 20, window-size 3)", "strong"},
    {GST_CL_EPSILON_STRENGTH_AUTO, "Auto: the DCT stage, from each frame's "
          "quantization (8-bit and 10-bit formats; costlier)", "auto"},
    {GST_CL_EPSILON_STRENGTH_CUSTOM, "Custom: the expert properties as set",
        "custom"},
    {0, NULL, NULL}
  };
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstClEpsilonStrength",
            values));
  return type;
}

/* Sets what @strength stands for, with the object lock held: a level's
 * values, or nothing for custom. */
void
gst_cl_epsilon_set_strength_locked (GstClEpsilon * self,
    GstClEpsilonStrength strength)
{
  const GstClEpsilonLevel *level = &levels[strength];

  self->strength = strength;
  if (strength == GST_CL_EPSILON_STRENGTH_CUSTOM)
    return;
  self->settings.threshold = level->threshold;
  self->settings.window_size = level->window_size;
  self->settings.chroma_threshold = 0;
  self->settings.dct_stage = level->dct_stage;
  self->settings.have_kernel = FALSE;
  g_free (self->kernel_text);
  self->kernel_text = g_strdup ("");
}

void
gst_cl_epsilon_notify_strength (GstClEpsilon * self, gboolean by_level)
{
  GObject *object = G_OBJECT (self);

  if (!by_level) {
    g_object_notify (object, "strength");
    return;
  }
  g_object_notify (object, "threshold");
  g_object_notify (object, "window-size");
  g_object_notify (object, "chroma-threshold");
  g_object_notify (object, "kernel");
  g_object_notify (object, "dct-stage");
}

void
gst_cl_epsilon_install_strength_properties (GObjectClass * gobject_class,
    guint strength_id, guint dct_stage_id)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  /**
   * GstClEpsilon:strength:
   *
   * How much to de-noise, for users who do not want to pick the expert
   * properties: "off" changes nothing (passthrough); "light", "medium"
   * and "strong" set #GstClEpsilon:threshold and
   * #GstClEpsilon:window-size to 2/13, 10/3 and 20/3; "auto" (default)
   * turns on #GstClEpsilon:dct-stage, which reads the strength off each
   * frame's own quantization and leaves alone what shows none (8-bit and
   * 10-bit formats; far costlier than the epsilon filter on a CPU). With
   * nothing set the element runs "auto"; the first expert property set
   * on it starts from the expert properties' own defaults (threshold 10,
   * window-size 3, dct-stage off), as when "medium" was the default. Every
   * level also sets #GstClEpsilon:chroma-threshold 0, clears
   * #GstClEpsilon:kernel and sets dct-stage, and notifies what it set.
   * "custom": the expert properties as they are; setting any of threshold,
   * window-size, chroma-threshold, kernel or dct-stage selects it, and
   * notifies this property. docs/properties.md gives the measurements
   * behind each level.
   */
  g_object_class_install_property (gobject_class, strength_id,
      g_param_spec_enum ("strength", "Strength",
          "How much to de-noise: off (passthrough), light, medium, strong, "
          "auto (from each frame's quantization; costlier), "
          "custom (the expert properties as set); a level sets threshold, "
          "window-size, chroma-threshold, kernel and dct-stage",
          GST_TYPE_CL_EPSILON_STRENGTH, GST_CL_EPSILON_DEFAULT_STRENGTH,
          flags));

  /**
   * GstClEpsilon:dct-stage:
   *
   * FALSE (the expert default; nothing set runs strength "auto", which
   * sets it TRUE): luma is de-noised by the epsilon filter with
   * #GstClEpsilon:threshold. TRUE: each frame's quantizer step is read
   * off the 8x8 DCTs of its luma, 8-bit or 10-bit (coefficients of
   * block-coded video cluster on multiples of it), and luma is de-noised by
   * thresholding the DCTs of 8x8 blocks at 16 shifted grids (in the family
   * of FFmpeg's spp) at a strength set from that step; #GstClEpsilon:threshold
   * is then not used for luma. A frame that shows no coding (never encoded,
   * or H.264, whose deblocking leaves no comb) is left as it is, but where
   * a video decoder upstream takes H.264 from h264parse (through decodebin
   * too): its luma is thresholded at half the quantizer step of its
   * slices' QP (3/8 on B frames); a frame
   * without a step of its own keeps a part of the last one found for up to
   * 64 frames: where a video decoder upstream takes MPEG-1/2 or MPEG-4
   * Part 2 (through decodebin too), the element reads each picture's type
   * and quantiser there, and a B frame keeps 6/16 of it, a P frame 10/16
   * times the square root of its quantiser over the intra frame's; else
   * 14/16, and 9/16 on the last frames before the next intra frame.
   * Costs far more than the epsilon filter (docs/quality.md). On 10-bit
   * formats the steps and thresholds are in the same units as on 8-bit
   * ones (quarter 8-bit levels, which are 10-bit levels), so that a 10-bit
   * copy of an 8-bit picture gets the same strength. With
   * #GstClEpsilon:chroma-threshold at 0, each chroma component gets the
   * same stage at the strength of its own estimate (I420, YV12, Y42B, Y444
   * and their 10-bit forms, NV12, NV21 and P010_10LE; not packed 4:2:2's
   * chroma); the convolution is as without it. The threshold chosen is in
   * the stats
   * ("auto-threshold"). Where none of a stream's first 64 frames (or of a
   * shorter stream) shows a step, an INFO message says so once, and why
   * (no block-DCT quantization, or too flat a picture). #GstClEpsilon:strength "auto" turns it on; setting
   * it selects strength "custom".
   */
  g_object_class_install_property (gobject_class, dct_stage_id,
      g_param_spec_boolean ("dct-stage", "DCT stage",
          "De-noise luma by thresholding shifted 8x8 DCTs at a "
          "strength read off each frame's quantization, instead of the "
          "epsilon filter (what strength=auto turns on)",
          GST_CL_EPSILON_DEFAULT_DCT_STAGE, flags));
}

/* ---- Presets ------------------------------------------------------------- */

/* What a preset holds: the filter's settings, not the machine's (device,
 * frames-in-flight) nor the object's (name, parent). strength comes last,
 * as presets are loaded in this order: a level then sets its values over
 * the expert ones, and custom keeps them. */
static gchar **
gst_cl_epsilon_preset_get_property_names (GstPreset * preset)
{
  static const gchar *const names[] = { "threshold", "window-size",
    "chroma-threshold", "kernel", "divisor", "bias", "dct-stage",
    "strength", NULL
  };

  return g_strdupv ((gchar **) names);
}

/* GStreamer's load of a preset, which gst_cl_epsilon_preset_load wraps. */
static gboolean (*default_load_preset) (GstPreset * preset, const gchar * name);

/* GStreamer's preset code (1.22 and later) saves a string property with
 * gst_value_serialize and then g_key_file_set_string, which escapes the
 * serializer's backslashes once more, but loads it with
 * g_key_file_get_value (raw) and gst_value_deserialize: the string comes
 * back with one level of escapes left ("1\ 2\ 1\;..." for a kernel). The
 * element undoes that level for the strings set while a preset loads;
 * a string saved by a GStreamer that escapes once has no backslash left and
 * stays as it is (no property the presets hold takes a backslash). */
static gboolean
gst_cl_epsilon_preset_load (GstPreset * preset, const gchar * name)
{
  GstClEpsilon *self = GST_CL_EPSILON (preset);
  gboolean loaded;

  GST_OBJECT_LOCK (self);
  self->preset_loader = g_thread_self ();
  GST_OBJECT_UNLOCK (self);
  loaded = default_load_preset (preset, name);
  GST_OBJECT_LOCK (self);
  self->preset_loader = NULL;
  GST_OBJECT_UNLOCK (self);
  return loaded;
}

gboolean
gst_cl_epsilon_preset_unescape (GstClEpsilon * self, const GValue * value,
    GValue * unescaped)
{
  const gchar *text;
  gchar *quoted;
  gboolean loading, done;

  GST_OBJECT_LOCK (self);
  loading = self->preset_loader == g_thread_self ();
  GST_OBJECT_UNLOCK (self);
  if (!loading || !G_VALUE_HOLDS_STRING (value) ||
      !(text = g_value_get_string (value)) || !strchr (text, '\\'))
    return FALSE;
  /* The escapes left are gst_value_serialize's: its own inverse, on the
   * text in quotes, removes them. */
  quoted = g_strdup_printf ("\"%s\"", text);
  g_value_init (unescaped, G_TYPE_STRING);
  done = gst_value_deserialize (unescaped, quoted);
  g_free (quoted);
  if (!done)
    g_value_unset (unescaped);
  return done;
}

void
gst_cl_epsilon_preset_init (GstPresetInterface * iface)
{
  iface->get_property_names = gst_cl_epsilon_preset_get_property_names;
  default_load_preset = iface->load_preset;
  iface->load_preset = gst_cl_epsilon_preset_load;
}
