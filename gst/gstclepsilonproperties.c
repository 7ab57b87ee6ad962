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

/* The element's properties: their specs, defaults and checks, and the
 * warnings a refused value posts (the strength knob's own specs, levels and
 * presets are gstclepsilonstrength.c's). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclepsilon-private.h"
#include "filters-shared.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_epsilon_debug);
#define GST_CAT_DEFAULT gst_cl_epsilon_debug

enum
{
  PROP_0,
  PROP_THRESHOLD,
  PROP_WINDOW_SIZE,
  PROP_CHROMA_THRESHOLD,
  PROP_KERNEL,
  PROP_DIVISOR,
  PROP_BIAS,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_EPSILON_VARIANT,
  PROP_CONVOLUTION_VARIANT,
  PROP_STATS,
  PROP_FRAMES_IN_FLIGHT,
  PROP_STRENGTH,
  PROP_DCT_STAGE,
};

/* The expert properties' defaults: strength=medium's values, chosen by
 * the quality measurements; the first expert property set on an element
 * with nothing set starts from them (GST_CL_EPSILON_DEFAULT_STRENGTH). */
#define DEFAULT_THRESHOLD 10
#define DEFAULT_WINDOW_SIZE 3
#define DEFAULT_CHROMA_THRESHOLD 0
#define DEFAULT_KERNEL ""
#define DEFAULT_DIVISOR 0.0
#define DEFAULT_BIAS 0.0
#define DEFAULT_DEVICE "auto"
#define DEFAULT_VARIANT GST_CL_VARIANT_AUTO
/* 0: GST_CL_PLAN_AUTO_DEPTH frames from host memory, on a device that
 * does not share host memory (docs/memory.md). */
#define DEFAULT_FRAMES_IN_FLIGHT 0

#define MIN_WINDOW_SIZE 3
#define MAX_WINDOW_SIZE (2 * FILTER_MAX_RADIUS + 1)
/* Beyond these the float arithmetic on the device stops meaning anything. */
#define MAX_ABS_DIVISOR 1e6
#define MIN_ABS_DIVISOR 1e-6
#define MAX_ABS_BIAS 1e6
/* Refusals kept for start beyond this many are only logged. */
#define MAX_PENDING_WARNINGS 8

static void gst_cl_epsilon_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cl_epsilon_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);

/* The filters' properties: what a level of strength sets, and the
 * convolution's divisor and bias. */
static void
install_filter_properties (GObjectClass * gobject_class)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  /**
   * GstClEpsilon:threshold:
   *
   * Largest difference from the centre sample, 0..255, for a luma sample in
   * the window to be averaged in. 0 turns the luma epsilon stage off.
   * Always on the 8-bit scale: for 10-bit formats (P010_10LE, I420_10LE,
   * I422_10LE, Y444_10LE) the
   * largest 10-bit difference is threshold << 2 (8 means 32).
   * Ringing weaker than the threshold is smoothed; texture weaker than it
   * is flattened too. The default suits low-quality MPEG-2 and MJPEG; about
   * 12..20 removes more of their ringing at some cost on fine texture
   * (docs/quality.md). Setting it selects #GstClEpsilon:strength "custom".
   */
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_uint ("threshold", "Threshold",
          "Largest luma difference from the centre sample averaged in; "
          "higher removes more ringing and more fine texture "
          "(0 = luma epsilon stage off)", 0, 255, DEFAULT_THRESHOLD, flags));

  /**
   * GstClEpsilon:window-size:
   *
   * Side of the square window, in samples: odd, 3..15. An even value is
   * refused with a warning on the bus and the previous value stays.
   * Larger windows average more samples (stronger smoothing, more texture
   * lost, more work per sample: window-size squared). Setting it selects
   * #GstClEpsilon:strength "custom".
   */
  g_object_class_install_property (gobject_class, PROP_WINDOW_SIZE,
      g_param_spec_uint ("window-size", "Window size",
          "Side of the square window in samples, odd; larger smooths more "
          "(even values are refused)", MIN_WINDOW_SIZE, MAX_WINDOW_SIZE,
          DEFAULT_WINDOW_SIZE, flags));

  /**
   * GstClEpsilon:chroma-threshold:
   *
   * Threshold of the epsilon filter on each chroma component, 0..255, with
   * the same window counted in chroma samples. 0 passes chroma through
   * unchanged, or through the DCT stage where #GstClEpsilon:dct-stage is on
   * (as strength "auto" sets it). On the 8-bit scale, as #GstClEpsilon:threshold: << 2 for
   * 10-bit formats. Setting it selects #GstClEpsilon:strength "custom".
   */
  g_object_class_install_property (gobject_class, PROP_CHROMA_THRESHOLD,
      g_param_spec_uint ("chroma-threshold", "Chroma threshold",
          "Largest chroma difference averaged in (0 = chroma untouched)",
          0, 255, DEFAULT_CHROMA_THRESHOLD, flags));

  /**
   * GstClEpsilon:kernel:
   *
   * Convolution matrix applied to luma after the epsilon stage: numbers
   * separated by spaces or commas, rows separated by ';', e.g.
   * "1 2 1; 2 4 2; 1 2 1". A single row whose count is a perfect square
   * (9, 25, ...) is read as a square matrix. Width and height are odd, 1..15.
   * The coefficient in row r, column c weighs the sample at
   * (x + c - width / 2, y + r - height / 2). Decimal points are always '.'.
   * Empty: no convolution. A malformed matrix is refused with a warning on
   * the bus and the previous one stays. Setting it selects
   * #GstClEpsilon:strength "custom"; the levels clear it.
   */
  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_string ("kernel", "Kernel",
          "Convolution matrix for luma, rows separated by ';' "
          "(empty = no convolution)", DEFAULT_KERNEL, flags));

  /**
   * GstClEpsilon:divisor:
   *
   * The convolution sum is divided by this; 0 means the sum of the
   * coefficients, or 1 where that sum is 0. Other values: 1e-6 <= |divisor|
   * <= 1e6; a smaller one is refused with a warning on the bus.
   */
  g_object_class_install_property (gobject_class, PROP_DIVISOR,
      g_param_spec_double ("divisor", "Divisor",
          "Divisor of the convolution sum (0 = sum of the coefficients)",
          -MAX_ABS_DIVISOR, MAX_ABS_DIVISOR, DEFAULT_DIVISOR, flags));

  /**
   * GstClEpsilon:bias:
   *
   * Added to the divided convolution sum before rounding and clamping to
   * 0..255 (0..1023 for 10-bit formats: the convolution works on the
   * format's own sample values, so the bias is in those units too).
   */
  g_object_class_install_property (gobject_class, PROP_BIAS,
      g_param_spec_double ("bias", "Bias",
          "Added to the convolution result before rounding",
          -MAX_ABS_BIAS, MAX_ABS_BIAS, DEFAULT_BIAS, flags));
}

/* Which device runs the filters and how, and what it did. */
static void
install_device_properties (GObjectClass * gobject_class)
{
  /**
   * GstClEpsilon:device:
   *
   * The OpenCL device, chosen when the element starts: "auto" takes the first
   * GPU, else accelerator, else CPU device; a number N takes device N (from 0)
   * in platform-then-device order; any other text takes the first device whose
   * platform name, platform vendor or device name contains it, ignoring
   * case (e.g. "pocl", "nvidia"). Where an NVIDIA decoder upstream has its
   * CUDA context when the element starts, "auto" and a text take that
   * decoder's GPU if they can choose it, so that its frames stay there.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: auto, an index from 0, or part of its platform or "
          "device name (auto and a name take the GPU of a CUDA decoder "
          "upstream where they can)", DEFAULT_DEVICE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstClEpsilon:device-name:
   *
   * The OpenCL device in use, "DEVICE (PLATFORM)", once the element started.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "The OpenCL device in use", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstClEpsilon:epsilon-variant:
   *
   * Which kernel runs the epsilon filter: "auto" times the variants and
   * work-group sizes on the device once per configuration (format layout,
   * window size, order of magnitude of the frame size), keeps the fastest
   * and remembers it in the cache folder for the next start; "plain",
   * "tiled", "vector" or "wide" (16 samples per work-item in 16-bit lanes,
   * for CPUs) force one, with a default work-group size. Every variant
   * gives the same output. "separable" is refused (convolution only).
   * 10-bit formats have plain and vector kernels only: "tiled" and "wide"
   * run "plain" there (the stats say which ran).
   */
  g_object_class_install_property (gobject_class, PROP_EPSILON_VARIANT,
      g_param_spec_enum ("epsilon-variant", "Epsilon variant",
          "Kernel variant of the epsilon filter (auto = fastest, tuned once)",
          GST_TYPE_CL_VARIANT, DEFAULT_VARIANT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstClEpsilon:convolution-variant:
   *
   * Which kernel runs the convolution, as for #GstClEpsilon:epsilon-variant;
   * "separable" (a row pass then a column pass) applies to kernels that are
   * the product of a column and a row (box, gaussian); for other kernels it
   * runs "plain". Output is the same within the convolution's tolerance
   * (equal for integer kernels). "wide" makes 16 samples per work-item in
   * float16 (for CPUs). 10-bit formats have plain, vector and separable
   * convolutions: "tiled" and "wide" run "plain" there.
   */
  g_object_class_install_property (gobject_class, PROP_CONVOLUTION_VARIANT,
      g_param_spec_enum ("convolution-variant", "Convolution variant",
          "Kernel variant of the convolution (auto = fastest, tuned once)",
          GST_TYPE_CL_VARIANT, DEFAULT_VARIANT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstClEpsilon:stats:
   *
   * Figures since the element started, as a GstStructure:
   *  - frames (guint64): frames filtered (not counting passthrough);
   *  - zero-copy-frames (guint64): frames that went through with no copy by
   *    the CPU and no transfer from or to pageable memory;
   *  - field-frames (guint64): frames filtered field by field (interlaced;
   *    each counts once in frames, its kernel time is both fields');
   *  - host-copy-bytes (guint64): bytes the element copied with the CPU;
   *  - upload-bytes, download-bytes (guint64): bytes moved by OpenCL transfer
   *    commands from host memory to device buffers, and back;
   *  - device-copy-bytes (guint64): bytes OpenCL copied between host-visible
   *    buffers (planes that no stage touches);
   *  - cuda-copy-bytes (guint64): bytes copied device to device between
   *    CUDA memory (memory:CUDAMemory, from an NVIDIA decoder, or to a CUDA
   *    element after) and the element's buffers: host-copy, upload and
   *    download bytes stay 0 on that path;
   *  - device-ms (double): time the kernels ran, from profiling events;
   *    where the kernels run in a decoder's CUDA context, each frame's
   *    span on the GPU from its first command to its last (kernels, fills,
   *    copies and the download, and any wait between them: other
   *    processes' turns on the GPU too; not the upload of an input from
   *    system memory);
   *  - transform-ms (double): wall-clock time the element spent on frames,
   *    from taking the input to releasing the output (transfers, kernels and
   *    waiting included), in all;
   *  - transform-ms-per-frame, device-ms-per-frame (double): transform-ms
   *    and device-ms divided by frames (0 before the first frame): the
   *    element's cost per frame;
   *  - memory-path (string): for the last frame, "host-ptr" (kernels worked
   *    in place on host memory), "pinned" (DMA between pinned host memory and
   *    the device), "cuda" (CUDA memory copied on the device) or "copy" (a
   *    CPU copy or a pageable transfer was needed);
   *  - epsilon-launch, convolution-launch (string): for the last frame's
   *    luma, the kernel variant and work-group size, e.g. "vector 16x8", or
   *    "none";
   *  - programs-compiled, programs-cached (guint): OpenCL programs compiled
   *    from source, and loaded as binaries from the cache, since start;
   *  - tuning-runs (guint): variant and work-group combinations timed since
   *    start (0 when every choice came from the cache);
   *  - build-ms, tuning-ms (double): wall time spent building or loading
   *    programs, and timing variants, since start: the start-up costs that
   *    the caches save.
   *  - auto-threshold (guint): with #GstClEpsilon:strength auto, the DCT
   *    threshold of the last frame's luma (quarter levels; 0: left as it
   *    was). On a GPU, whose frames are left in flight and decided on the
   *    device, that of the last frame the device has finished; the last
   *    frame's at EOS.
   *
   * Notified at EOS, so that `gst-launch-1.0 -v` prints the figures of the
   * whole stream.
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Frames, bytes copied and transferred, kernel time, memory path",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstClEpsilon:frames-in-flight:
   *
   * How many frames may be on their way through the device at once, on a
   * device that does not share host memory (a discrete GPU): the element
   * enqueues a frame's upload, kernels and download and hands the frame on
   * without waiting; whoever maps it waits for it, and another OpenCL
   * element waits on the device. Uploads, kernels and downloads of
   * successive frames then overlap. 1 waits for each frame before handing
   * it on; 0 (default) keeps 3 in flight: from system memory (a
   * decoder's) the CPU's copy into pinned memory then overlaps the device's
   * work, from the element's own pool its pinned memory goes to the device
   * by DMA, and from another OpenCL element's device memory a chain waits
   * only at the last map. Devices that work
   * on host memory (CPUs, integrated GPUs) take 1 at 0: their kernels work
   * on the frames in place. Where their frames are shared virtual memory
   * (PoCL), a value above 1 leaves frames from the element's pool in
   * flight, so that one frame's launch overlaps the previous one's kernel:
   * that paid on 2 cores and not on 16 (commit cbd214f). Frames are
   * not held back, so the element adds no latency.
   * Applies from the next caps.
   */
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames on their way through a discrete GPU at once (0 = auto, "
          "1 = wait for each)", 0, GST_CL_PLAN_MAX_DEPTH,
          DEFAULT_FRAMES_IN_FLIGHT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

}

void
gst_cl_epsilon_install_properties (GObjectClass * gobject_class)
{
  gobject_class->set_property = gst_cl_epsilon_set_property;
  gobject_class->get_property = gst_cl_epsilon_get_property;
  install_filter_properties (gobject_class);
  install_device_properties (gobject_class);
  gst_cl_epsilon_install_strength_properties (gobject_class, PROP_STRENGTH,
      PROP_DCT_STAGE);
}

void
gst_cl_epsilon_init_properties (GstClEpsilon * self)
{
  self->settings.threshold = DEFAULT_THRESHOLD;
  self->settings.window_size = DEFAULT_WINDOW_SIZE;
  self->settings.chroma_threshold = DEFAULT_CHROMA_THRESHOLD;
  self->settings.divisor = DEFAULT_DIVISOR;
  self->settings.bias = DEFAULT_BIAS;
  self->settings.epsilon_variant = DEFAULT_VARIANT;
  self->settings.conv_variant = DEFAULT_VARIANT;
  self->settings.dct_stage = GST_CL_EPSILON_DEFAULT_DCT_STAGE;
  self->kernel_text = g_strdup (DEFAULT_KERNEL);
  gst_cl_epsilon_set_strength_locked (self, GST_CL_EPSILON_DEFAULT_STRENGTH);
  self->strength_default = TRUE;
  self->settings_cookie = 1;
  self->device = g_strdup (DEFAULT_DEVICE);
}

/* ---- Warnings a user sees ------------------------------------------------ */

static void
gst_cl_epsilon_post_warning (GstClEpsilon * self, const gchar * text)
{
  GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s", text), (NULL));
}

/* Says why a property value was refused (@text, taken), on the bus: at once
 * where the element is READY or beyond, else when it starts. In NULL a
 * message is lost: gst-launch-1.0 sets properties before the element is in
 * a pipeline, and a pipeline set back to NULL flushes its bus (the child
 * bus of a bin never flushes, so the state decides, not the element's bus).
 * Not with the object lock held. */
static void
gst_cl_epsilon_refuse (GstClEpsilon * self, gchar * text)
{
  GstBus *bus = gst_element_get_bus (GST_ELEMENT (self));
  gboolean delivers = bus && !GST_OBJECT_FLAG_IS_SET (bus, GST_BUS_FLUSHING);

  gst_clear_object (&bus);
  GST_OBJECT_LOCK (self);
  delivers = delivers && GST_STATE (self) > GST_STATE_NULL;
  GST_OBJECT_UNLOCK (self);
  /* Posting logs it too. */
  if (delivers) {
    gst_cl_epsilon_post_warning (self, text);
    g_free (text);
    return;
  }
  GST_WARNING_OBJECT (self, "%s (posted when the element starts)", text);
  GST_OBJECT_LOCK (self);
  if (g_slist_length (self->pending_warnings) < MAX_PENDING_WARNINGS) {
    self->pending_warnings = g_slist_append (self->pending_warnings, text);
    text = NULL;
  }
  GST_OBJECT_UNLOCK (self);
  g_free (text);
}

void
gst_cl_epsilon_post_pending_warnings (GstClEpsilon * self)
{
  GSList *pending, *l;

  GST_OBJECT_LOCK (self);
  pending = self->pending_warnings;
  self->pending_warnings = NULL;
  GST_OBJECT_UNLOCK (self);
  for (l = pending; l; l = l->next)
    gst_cl_epsilon_post_warning (self, l->data);
  g_slist_free_full (pending, g_free);
}

/* ---- Properties ----------------------------------------------------------- */

/* Parses and stores a new kernel text; with the object lock held. A bad one
 * is refused, so that a typo never stops a running stream: returns why
 * (free it), else NULL. */
static gchar *
gst_cl_epsilon_set_kernel_locked (GstClEpsilon * self, const gchar * text)
{
  GstClConvKernel kernel;
  GError *error = NULL;
  gchar *refusal;

  if (text == NULL || text[strspn (text, " \t\r\n")] == '\0') {
    self->settings.have_kernel = FALSE;
    g_free (self->kernel_text);
    self->kernel_text = g_strdup ("");
    return NULL;
  }

  if (!gst_cl_conv_kernel_parse (text, &kernel, &error)) {
    refusal = g_strdup_printf ("Ignoring kernel \"%.64s%s\": %s; keeping "
        "\"%s\"", text, strlen (text) > 64 ? "..." : "", error->message,
        self->kernel_text);
    g_clear_error (&error);
    return refusal;
  }
  self->settings.kernel = kernel;
  self->settings.have_kernel = TRUE;
  g_free (self->kernel_text);
  self->kernel_text = g_strdup (text);
  return NULL;
}

/* The properties a level sets: setting one of them by hand makes the
 * strength custom. */
static gboolean
gst_cl_epsilon_is_expert_property (guint prop_id)
{
  return prop_id == PROP_THRESHOLD || prop_id == PROP_WINDOW_SIZE ||
      prop_id == PROP_CHROMA_THRESHOLD || prop_id == PROP_KERNEL ||
      prop_id == PROP_DCT_STAGE;
}

/* Checks and stores a new window-size; returns why it was refused (free
 * it), else NULL. These setters run with the object lock held. */
static gchar *
set_window_size_locked (GstClEpsilon * self, guint size)
{
  if (size % 2 == 0)
    return g_strdup_printf ("Ignoring window-size %u: it must be odd; "
        "keeping %u", size, self->settings.window_size);
  self->settings.window_size = size;
  return NULL;
}

static gchar *
set_divisor_locked (GstClEpsilon * self, gdouble d)
{
  if (isnan (d) || (d != 0.0 && fabs (d) < MIN_ABS_DIVISOR))
    return g_strdup_printf ("Ignoring divisor %g: it must be 0 or at least "
        "%g in magnitude; keeping %g", d, MIN_ABS_DIVISOR,
        self->settings.divisor);
  self->settings.divisor = d;
  return NULL;
}

static gchar *
set_bias_locked (GstClEpsilon * self, gdouble d)
{
  if (isnan (d))
    return g_strdup_printf ("Ignoring bias NaN; keeping %g",
        self->settings.bias);
  self->settings.bias = d;
  return NULL;
}

static gchar *
set_device_locked (GstClEpsilon * self, const gchar * device)
{
  /* Set from code, a string need not be text: the device is chosen by
   * matching names, which only text can do. */
  if (device && !g_utf8_validate (device, -1, NULL))
    return g_strdup_printf ("Ignoring a device that is not valid UTF-8; "
        "keeping \"%s\"", self->device);
  g_free (self->device);
  self->device = g_strdup (device ? device : DEFAULT_DEVICE);
  return NULL;
}

static gchar *
set_epsilon_variant_locked (GstClEpsilon * self, GstClVariant variant)
{
  if (variant == GST_CL_VARIANT_SEPARABLE)
    return g_strdup_printf ("Ignoring epsilon-variant separable: only "
        "convolutions separate; keeping %s",
        gst_cl_variant_to_string (self->settings.epsilon_variant));
  self->settings.epsilon_variant = variant;
  return NULL;
}

/* Stores @value as property @prop_id; returns why it was refused (free
 * it), else NULL. */
static gchar *
gst_cl_epsilon_check_and_set_locked (GstClEpsilon * self, guint prop_id,
    const GValue * value)
{
  GstClPlanSettings *s = &self->settings;

  switch (prop_id) {
    case PROP_THRESHOLD:
      s->threshold = g_value_get_uint (value);
      return NULL;
    case PROP_WINDOW_SIZE:
      return set_window_size_locked (self, g_value_get_uint (value));
    case PROP_CHROMA_THRESHOLD:
      s->chroma_threshold = g_value_get_uint (value);
      return NULL;
    case PROP_KERNEL:
      return gst_cl_epsilon_set_kernel_locked (self,
          g_value_get_string (value));
    case PROP_DIVISOR:
      return set_divisor_locked (self, g_value_get_double (value));
    case PROP_BIAS:
      return set_bias_locked (self, g_value_get_double (value));
    case PROP_DEVICE:
      return set_device_locked (self, g_value_get_string (value));
    case PROP_EPSILON_VARIANT:
      return set_epsilon_variant_locked (self, g_value_get_enum (value));
    case PROP_CONVOLUTION_VARIANT:
      s->conv_variant = g_value_get_enum (value);
      return NULL;
    case PROP_FRAMES_IN_FLIGHT:
      self->frames_in_flight = g_value_get_uint (value);
      return NULL;
    case PROP_STRENGTH:
      gst_cl_epsilon_set_strength_locked (self, g_value_get_enum (value));
      return NULL;
    case PROP_DCT_STAGE:
      s->dct_stage = g_value_get_boolean (value);
      return NULL;
    default:
      return NULL;
  }
}

/* Stores @value as property @prop_id, or sets @refusal to why it was
 * refused; FALSE for an id that is no property. */
static gboolean
gst_cl_epsilon_set_locked (GstClEpsilon * self, guint prop_id,
    const GValue * value, gchar ** refusal)
{
  *refusal = gst_cl_epsilon_check_and_set_locked (self, prop_id, value);
  return prop_id > PROP_0 && prop_id <= PROP_DCT_STAGE;
}

static void
gst_cl_epsilon_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);
  GstClPlanSettings *s = &self->settings, before;
  GstClEpsilonStrength strength_before;
  GValue unescaped = G_VALUE_INIT;
  gboolean strength_changed;
  gchar *refusal;

  if (gst_cl_epsilon_preset_unescape (self, value, &unescaped))
    value = &unescaped;
  GST_OBJECT_LOCK (self);
  memcpy (&before, s, sizeof (before));
  strength_before = self->strength;
  /* The default level differs from the expert defaults in dct-stage
   * alone: the first expert property set starts from them. */
  if (self->strength_default && gst_cl_epsilon_is_expert_property (prop_id))
    s->dct_stage = GST_CL_EPSILON_DEFAULT_DCT_STAGE;
  if (!gst_cl_epsilon_set_locked (self, prop_id, value, &refusal))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  if (refusal)
    s->dct_stage = before.dct_stage;
  else if (prop_id == PROP_STRENGTH ||
      gst_cl_epsilon_is_expert_property (prop_id))
    self->strength_default = FALSE;
  /* A value the level already has leaves the level as it is. */
  if (gst_cl_epsilon_is_expert_property (prop_id) &&
      !gst_cl_plan_settings_equal (&before, s))
    self->strength = GST_CL_EPSILON_STRENGTH_CUSTOM;
  strength_changed = self->strength != strength_before ||
      (prop_id == PROP_STRENGTH && self->strength !=
      GST_CL_EPSILON_STRENGTH_CUSTOM);
  /* The streaming thread hands the settings to the plan at the next frame
   * (gst_cl_epsilon_update_settings), where they changed. */
  if (!gst_cl_plan_settings_equal (&before, s))
    self->settings_cookie++;
  GST_OBJECT_UNLOCK (self);

  if (G_IS_VALUE (&unescaped))
    g_value_unset (&unescaped);
  if (refusal)
    gst_cl_epsilon_refuse (self, refusal);
  if (strength_changed)
    gst_cl_epsilon_notify_strength (self, prop_id == PROP_STRENGTH);
}

static void
gst_cl_epsilon_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);
  const GstClPlanSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      g_value_set_uint (value, s->threshold);
      break;
    case PROP_WINDOW_SIZE:
      g_value_set_uint (value, s->window_size);
      break;
    case PROP_CHROMA_THRESHOLD:
      g_value_set_uint (value, s->chroma_threshold);
      break;
    case PROP_KERNEL:
      g_value_set_string (value, self->kernel_text);
      break;
    case PROP_DIVISOR:
      g_value_set_double (value, s->divisor);
      break;
    case PROP_BIAS:
      g_value_set_double (value, s->bias);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, self->device_name);
      break;
    case PROP_EPSILON_VARIANT:
      g_value_set_enum (value, s->epsilon_variant);
      break;
    case PROP_CONVOLUTION_VARIANT:
      g_value_set_enum (value, s->conv_variant);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->frames_in_flight);
      break;
    case PROP_STRENGTH:
      g_value_set_enum (value, self->strength);
      break;
    case PROP_DCT_STAGE:
      g_value_set_boolean (value, s->dct_stage);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_cl_stats_to_structure (self->stats));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}
