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
 * GRAY8, Y444, Y42B, and 10-bit P010_10LE and I420_10LE (thresholds on the
 * 8-bit scale), any size; put a videoconvert in front for other decoder
 * outputs. With a #GstVideoCropMeta on the input, only the crop rectangle
 * is filtered, as a frame of its own; the rest is copied and the meta kept.
 *
 * ## One knob: strength
 *
 * #GstClEpsilon:strength sets the expert properties below from the
 * project's quality measurements (docs/quality.md; docs/properties.md says
 * which rows):
 *
 *  - "off": the element changes nothing (passthrough);
 *  - "light" (threshold 2, window-size 13): for sources of moderate quality;
 *    it never lowered a measured picture by more than 0.03 dB, and gains
 *    little; its wide window costs several times "medium";
 *  - "medium" (threshold 10, window-size 3), the default: low-quality MPEG-2
 *    and MJPEG gain on every picture measured, H.264 is about unchanged;
 *  - "strong" (threshold 20, window-size 3): heavily compressed MPEG-2 and
 *    MJPEG only: it loses on moderate-quality sources;
 *  - "auto": the DCT stage (#GstClEpsilon:dct-stage), which reads each
 *    frame's quantizer step and leaves frames that show none (H.264,
 *    pristine video) as they are: the largest gain measured on MPEG-2 and
 *    MJPEG, at about ten times the cost of "medium" on a CPU; 8-bit formats
 *    only (10-bit ones get "medium"'s epsilon filter, with a warning);
 *  - "custom": the expert properties as set. Setting any of them selects it.
 *
 * Each level sets chroma-threshold 0 and no kernel: the measurements score
 * luma only. With nothing set the element runs "medium", the setting the
 * measurements chose as safe on every low-quality source; "auto" is not the
 * default because of its cost on CPUs.
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
 * ## Properties
 *
 *  - #GstClEpsilon:strength (default "medium"): the knob above.
 *  - #GstClEpsilon:threshold (0..255, default 10): largest difference from
 *    the centre sample for a neighbour to be averaged in; 0 turns the luma
 *    stage off. On the 8-bit scale: threshold << 2 for 10-bit formats.
 *  - #GstClEpsilon:window-size (odd, 3..15, default 3): side of the window;
 *    an even value is refused.
 *  - #GstClEpsilon:chroma-threshold (0..255, default 0): the same filter on
 *    each chroma component; 0 leaves chroma untouched.
 *  - #GstClEpsilon:dct-stage (default false): luma of 8-bit formats by the
 *    DCT stage at a strength read off each frame, instead of the epsilon
 *    filter.
 *  - #GstClEpsilon:kernel (default empty): a convolution matrix applied to
 *    luma after the epsilon stage, rows separated by ';'.
 *  - #GstClEpsilon:divisor (|divisor| 1e-6..1e6, or 0 = sum of the
 *    coefficients) and #GstClEpsilon:bias (-1e6..1e6, default 0): the
 *    convolution sum is divided by the divisor, then the bias added.
 *  - #GstClEpsilon:device (default "auto"): the OpenCL device, chosen at
 *    start; "auto", an index from 0, or part of a platform or device name.
 *  - #GstClEpsilon:device-name (read-only): the device in use.
 *  - #GstClEpsilon:epsilon-variant and #GstClEpsilon:convolution-variant
 *    (default "auto"): which OpenCL kernel runs each stage; "auto" times
 *    them on the device once. They change speed, not output.
 *  - #GstClEpsilon:frames-in-flight (default 0, auto): frames on their way
 *    through a discrete GPU at once.
 *  - #GstClEpsilon:stats (read-only): frames, copies, transfers, kernel
 *    time and memory path since start, totals and per frame.
 *
 * All but device and frames-in-flight apply from the next frame when
 * changed while playing.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! decodebin ! videoconvert ! clepsilon ! videoconvert ! autovideosink
 * ]| De-noises a decoded file on the default OpenCL device and shows it.
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
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12 ! clepsilon threshold=12 window-size=7 chroma-threshold=6 kernel="0 -1 0; -1 5 -1; 0 -1 0" device=pocl ! videoconvert ! autovideosink
 * ]| Stronger de-noising on luma and chroma, followed by a sharpening kernel,
 * on the PoCL CPU device.
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclepsilon.h"
#include "gstclcontext-private.h"
#include "gstclerror-private.h"
#include "gstclmemory-private.h"
#include "gstclnegotiation-private.h"
#include "gstclsharing-private.h"
#include "gstclplan-private.h"
#include "gstclstats-private.h"
#include "gstclstream-private.h"
#include "gstcltuner-private.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_epsilon_debug);
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

#define GST_TYPE_CL_EPSILON_STRENGTH (gst_cl_epsilon_strength_get_type ())
static GType gst_cl_epsilon_strength_get_type (void);

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

/* strength=medium's values, chosen by tools/quality/run.sh (docs/quality.md);
 * auto is not the default for its cost on CPUs ("Should the automatic mode
 * become the default?" there). */
#define DEFAULT_STRENGTH GST_CL_EPSILON_STRENGTH_MEDIUM
#define DEFAULT_THRESHOLD 10
#define DEFAULT_WINDOW_SIZE 3
#define DEFAULT_CHROMA_THRESHOLD 0
#define DEFAULT_DCT_STAGE FALSE
#define DEFAULT_KERNEL ""
#define DEFAULT_DIVISOR 0.0
#define DEFAULT_BIAS 0.0
#define DEFAULT_DEVICE "auto"
#define DEFAULT_VARIANT GST_CL_VARIANT_AUTO
/* 0: GST_CL_PLAN_AUTO_DEPTH frames from host memory, on a device that
 * does not share host memory (docs/memory.md). */
#define DEFAULT_FRAMES_IN_FLIGHT 0

#define MIN_WINDOW_SIZE 3
#define MAX_WINDOW_SIZE 15
/* Beyond these the float arithmetic on the device stops meaning anything. */
#define MAX_ABS_DIVISOR 1e6
#define MIN_ABS_DIVISOR 1e-6
#define MAX_ABS_BIAS 1e6
/* Refusals kept for start beyond this many are only logged. */
#define MAX_PENDING_WARNINGS 8

#define CAPS_FORMATS \
    "{ NV12, I420, YV12, NV21, GRAY8, Y444, Y42B, P010_10LE, I420_10LE }"
/* Device memory first: where both sides take it (two OpenCL elements), the
 * frame stays on the device; transform_caps keeps other peers on system
 * memory. */
#define CAPS \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CL_BUFFER, \
        CAPS_FORMATS) "; " GST_VIDEO_CAPS_MAKE (CAPS_FORMATS)

static GstStaticPadTemplate gst_cl_epsilon_sink_template =
GST_STATIC_PAD_TEMPLATE ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (CAPS));

static GstStaticPadTemplate gst_cl_epsilon_src_template =
GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (CAPS));

struct _GstClEpsilon
{
  GstVideoFilter parent;

  /* Properties, under the object lock. */
  GstClPlanSettings settings;
  GstClEpsilonStrength strength;
  gchar *kernel_text;
  guint settings_cookie;        /* bumped on every change of settings */
  GSList *pending_warnings;     /* refusals made without a bus, for start */
  gchar *device;
  gchar *device_name;
  guint frames_in_flight;

  /* Streaming thread only (and start/stop). */
  GstClContext *context;
  GstClTuner *tuner;
  GstClPlan *plan;              /* for the negotiated format */
  guint plan_cookie;            /* settings_cookie of the plan's settings */
  gboolean same_memory;         /* both pads carry the same kind of memory */
  gboolean share_untouched;     /* decided with the allocation */
  GstClStats *stats;            /* has its own lock */
  gboolean dct_requested;       /* the plan's settings ask for the DCT stage */
  guint applied_threshold;      /* and this luma threshold */
  gboolean dct_fallback_warned; /* said that this format cannot have it */
  /* An ERROR was posted: the stream stays stopped (caps refused, frames
   * failed) until the element goes back to READY. */
  gboolean failed;
  GstClFaults *faults;          /* of frames handed downstream (the plan's) */
};

static void gst_cl_epsilon_preset_init (GstPresetInterface * iface);

#define gst_cl_epsilon_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstClEpsilon, gst_cl_epsilon, GST_TYPE_VIDEO_FILTER,
    G_IMPLEMENT_INTERFACE (GST_TYPE_PRESET, gst_cl_epsilon_preset_init));
GST_ELEMENT_REGISTER_DEFINE (clepsilon, "clepsilon", GST_RANK_NONE,
    GST_TYPE_CL_EPSILON);

static void gst_cl_epsilon_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cl_epsilon_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static void gst_cl_epsilon_finalize (GObject * object);
static gboolean gst_cl_epsilon_start (GstBaseTransform * trans);
static void gst_cl_epsilon_set_context (GstElement * element,
    GstContext * context);
static GstCaps *gst_cl_epsilon_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstCaps *gst_cl_epsilon_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
static gboolean gst_cl_epsilon_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
static gboolean gst_cl_epsilon_stop (GstBaseTransform * trans);
static void gst_cl_epsilon_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
static gboolean gst_cl_epsilon_set_info (GstVideoFilter * vfilter,
    GstCaps * incaps, GstVideoInfo * in_info, GstCaps * outcaps,
    GstVideoInfo * out_info);
static gboolean gst_cl_epsilon_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static gboolean gst_cl_epsilon_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);
static gboolean gst_cl_epsilon_decide_allocation (GstBaseTransform * trans,
    GstQuery * query);
static GstFlowReturn gst_cl_epsilon_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);
static GstFlowReturn gst_cl_epsilon_prepare_output_buffer (GstBaseTransform *
    trans, GstBuffer * input, GstBuffer ** outbuf);
static gboolean gst_cl_epsilon_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
static gboolean gst_cl_epsilon_filter_meta (GstBaseTransform * trans,
    GstQuery * query, GType api, const GstStructure * params);
static gboolean gst_cl_epsilon_sink_event (GstBaseTransform * trans,
    GstEvent * event);

static void
gst_cl_epsilon_class_init (GstClEpsilonClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING;

  GST_DEBUG_CATEGORY_INIT (gst_cl_epsilon_debug, "clepsilon", 0,
      "OpenCL epsilon filter");

  gobject_class->set_property = gst_cl_epsilon_set_property;
  gobject_class->get_property = gst_cl_epsilon_get_property;
  gobject_class->finalize = gst_cl_epsilon_finalize;

  /**
   * GstClEpsilon:threshold:
   *
   * Largest difference from the centre sample, 0..255, for a luma sample in
   * the window to be averaged in. 0 turns the luma epsilon stage off.
   * Always on the 8-bit scale: for 10-bit formats (P010_10LE, I420_10LE) the
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
          "(0 = luma epsilon stage off)",
          0, 255, DEFAULT_THRESHOLD, flags));

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
   * unchanged. On the 8-bit scale, as #GstClEpsilon:threshold: << 2 for
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

  /**
   * GstClEpsilon:device:
   *
   * The OpenCL device, chosen when the element starts: "auto" takes the first
   * GPU, else accelerator, else CPU device; a number N takes device N (from 0)
   * in platform-then-device order; any other text takes the first device whose
   * platform name, platform vendor or device name contains it, ignoring
   * case (e.g. "pocl", "nvidia").
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: auto, an index from 0, or part of its platform or "
          "device name", DEFAULT_DEVICE,
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
   *  - host-copy-bytes (guint64): bytes the element copied with the CPU;
   *  - upload-bytes, download-bytes (guint64): bytes moved by OpenCL transfer
   *    commands from host memory to device buffers, and back;
   *  - device-copy-bytes (guint64): bytes OpenCL copied between host-visible
   *    buffers (planes that no stage touches);
   *  - device-ms (double): time the kernels ran, from profiling events;
   *  - transform-ms (double): wall-clock time the element spent on frames,
   *    from taking the input to releasing the output (transfers, kernels and
   *    waiting included), in all;
   *  - transform-ms-per-frame, device-ms-per-frame (double): transform-ms
   *    and device-ms divided by frames (0 before the first frame): the
   *    element's cost per frame;
   *  - memory-path (string): for the last frame, "host-ptr" (kernels worked
   *    in place on host memory), "pinned" (DMA between pinned host memory and
   *    the device) or "copy" (a CPU copy or a pageable transfer was needed);
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
   *    was).
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
   * that paid on 2 cores and not on 16 (docs/benchmarks.md). Frames are
   * not held back, so the element adds no latency.
   * Applies from the next caps.
   */
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames on their way through a discrete GPU at once (0 = auto, "
          "1 = wait for each)", 0, GST_CL_PLAN_MAX_DEPTH,
          DEFAULT_FRAMES_IN_FLIGHT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  /**
   * GstClEpsilon:strength:
   *
   * How much to de-noise, for users who do not want to pick the expert
   * properties: "off" changes nothing (passthrough); "light", "medium"
   * (default) and "strong" set #GstClEpsilon:threshold and
   * #GstClEpsilon:window-size to 2/13, 10/3 and 20/3; "auto" turns on
   * #GstClEpsilon:dct-stage, which reads the strength off each frame's own
   * quantization (8-bit formats; far costlier than the epsilon filter on a
   * CPU). Every level also sets #GstClEpsilon:chroma-threshold 0, clears
   * #GstClEpsilon:kernel and sets dct-stage, and notifies what it set.
   * "custom": the expert properties as they are; setting any of threshold,
   * window-size, chroma-threshold, kernel or dct-stage selects it, and
   * notifies this property. docs/properties.md gives the measurements
   * behind each level.
   */
  g_object_class_install_property (gobject_class, PROP_STRENGTH,
      g_param_spec_enum ("strength", "Strength",
          "How much to de-noise: off (passthrough), light, medium, strong, "
          "auto (from each frame's quantization, 8-bit formats; costlier), "
          "custom (the expert properties as set); a level sets threshold, "
          "window-size, chroma-threshold, kernel and dct-stage",
          GST_TYPE_CL_EPSILON_STRENGTH, DEFAULT_STRENGTH, flags));

  /**
   * GstClEpsilon:dct-stage:
   *
   * FALSE (default): luma is de-noised by the epsilon filter with
   * #GstClEpsilon:threshold. TRUE: for 8-bit formats, each frame's
   * quantizer step is read off the 8x8 DCTs of its luma (coefficients of
   * block-coded video cluster on multiples of it), and luma is de-noised by
   * thresholding the DCTs of 8x8 blocks at 16 shifted grids (in the family
   * of FFmpeg's spp) at a strength set from that step; #GstClEpsilon:threshold
   * is then not used for luma. A frame that shows no coding (never encoded,
   * or H.264, whose deblocking leaves no comb) is left as it is; a frame
   * without a step of its own keeps the last one found for up to 64 frames.
   * Costs far more than the epsilon filter (docs/quality.md). 10-bit formats
   * keep the epsilon filter, with a warning on the bus. Chroma and the
   * convolution are as without it. The threshold chosen is in the stats
   * ("auto-threshold"). #GstClEpsilon:strength "auto" turns it on; setting
   * it selects strength "custom".
   */
  g_object_class_install_property (gobject_class, PROP_DCT_STAGE,
      g_param_spec_boolean ("dct-stage", "DCT stage",
          "De-noise 8-bit luma by thresholding shifted 8x8 DCTs at a "
          "strength read off each frame's quantization, instead of the "
          "epsilon filter (what strength=auto turns on)",
          DEFAULT_DCT_STAGE, flags));

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
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_prepare_output_buffer);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cl_epsilon_transform_meta);
  trans_class->filter_meta = GST_DEBUG_FUNCPTR (gst_cl_epsilon_filter_meta);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_epsilon_sink_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_EPSILON_STRENGTH, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_VARIANT, 0);
}

static void
gst_cl_epsilon_init (GstClEpsilon * self)
{
  self->settings.threshold = DEFAULT_THRESHOLD;
  self->settings.window_size = DEFAULT_WINDOW_SIZE;
  self->settings.chroma_threshold = DEFAULT_CHROMA_THRESHOLD;
  self->settings.divisor = DEFAULT_DIVISOR;
  self->settings.bias = DEFAULT_BIAS;
  self->settings.epsilon_variant = DEFAULT_VARIANT;
  self->settings.conv_variant = DEFAULT_VARIANT;
  self->settings.strength = DEFAULT_DCT_STAGE ? GST_CL_STRENGTH_AUTO :
      GST_CL_STRENGTH_OFF;
  self->strength = DEFAULT_STRENGTH;
  self->settings_cookie = 1;
  self->kernel_text = g_strdup (DEFAULT_KERNEL);
  self->device = g_strdup (DEFAULT_DEVICE);
  self->same_memory = TRUE;
  self->stats = gst_cl_stats_new ();
}

static void
gst_cl_epsilon_finalize (GObject * object)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);

  g_free (self->kernel_text);
  g_free (self->device);
  g_free (self->device_name);
  g_slist_free_full (self->pending_warnings, g_free);
  gst_cl_stats_free (self->stats);
  /* A context set on the element (set_context) that it never started with. */
  gst_clear_object (&self->context);

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
  self->dct_requested = settings.strength == GST_CL_STRENGTH_AUTO;
  self->applied_threshold = settings.threshold;

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
}

/* The DCT stage serves 8-bit luma only (gstclplan.c); on other formats
 * the epsilon filter runs instead, which the user must hear about: once,
 * until the format or the settings change that. */
static void
gst_cl_epsilon_warn_dct_fallback (GstClEpsilon * self)
{
  const GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  gboolean falls_back = self->dct_requested &&
      GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8;

  if (falls_back && !self->dct_fallback_warned)
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("The DCT stage "
            "(strength=auto) works on 8-bit formats only: %s is de-noised "
            "by the epsilon filter at threshold %u instead",
            GST_VIDEO_INFO_NAME (info), self->applied_threshold), (NULL));
  self->dct_fallback_warned = falls_back;
}

static void
gst_cl_epsilon_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstClockTime stream_time;

  /* Controlled properties follow stream time, which only a segment in time
   * gives (a stream in bytes has none: its frames use the values set). */
  if (trans->segment.format == GST_FORMAT_TIME) {
    stream_time = gst_segment_to_stream_time (&trans->segment,
        GST_FORMAT_TIME, GST_BUFFER_TIMESTAMP (buffer));
    if (GST_CLOCK_TIME_IS_VALID (stream_time))
      gst_object_sync_values (GST_OBJECT (trans), stream_time);
  }

  gst_cl_epsilon_update_settings (GST_CL_EPSILON (trans), FALSE);
  gst_cl_epsilon_warn_dct_fallback (GST_CL_EPSILON (trans));
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

static void
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
}

/* ---- Start and stop ------------------------------------------------------ */

static void
gst_cl_epsilon_free_resources (GstClEpsilon * self)
{
  g_clear_pointer (&self->plan, gst_cl_plan_free);
  if (self->faults)
    gst_cl_faults_detach (self->faults);
  g_clear_pointer (&self->faults, gst_cl_faults_unref);
  g_clear_pointer (&self->tuner, gst_cl_tuner_free);
  GST_OBJECT_LOCK (self);
  gst_clear_object (&self->context);
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cl_epsilon_start (GstBaseTransform * trans)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GError *error = NULL;
  gchar *device;
  guint radius;

  gst_cl_epsilon_post_pending_warnings (self);
  self->dct_fallback_warned = FALSE;
  GST_OBJECT_LOCK (self);
  device = g_strdup (self->device);
  radius = self->settings.window_size / 2;
  GST_OBJECT_UNLOCK (self);

  /* Shared with the pipeline's other OpenCL elements where they have one. */
  if (!gst_cl_context_ensure_for_element (GST_ELEMENT (self), device,
          &self->context, &error)) {
    g_free (device);
    goto no_device;
  }
  g_free (device);

  gst_cl_stats_reset (self->stats);
  self->failed = FALSE;
  self->faults = gst_cl_faults_new (GST_ELEMENT (self));
  self->tuner = gst_cl_tuner_new (self->context, self->stats);
  /* The program for the current window now, so that a build failure shows
   * at start. */
  if (!gst_cl_tuner_get_kernels (self->tuner, FALSE, radius, &error))
    goto build_failed;

  GST_OBJECT_LOCK (self);
  g_free (self->device_name);
  self->device_name =
      g_strdup (gst_cl_context_get_device_name (self->context));
  GST_OBJECT_UNLOCK (self);
  g_object_notify (G_OBJECT (self), "device-name");
  self->same_memory = TRUE;
  gst_cl_epsilon_update_settings (self, TRUE);
  return TRUE;

  /* ERRORS */
no_device:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", error->message),
        (NULL));
    g_clear_error (&error);
    return FALSE;
  }
build_failed:
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
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->device_name, g_free);
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

  GST_OBJECT_LOCK (self);
  device = g_strdup (self->device);
  GST_OBJECT_UNLOCK (self);
  gst_cl_context_handle_set_context (element, context, device,
      &self->context);
  g_free (device);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean
gst_cl_epsilon_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstClContext *context = NULL;
  gboolean answered;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GST_OBJECT_LOCK (self);
    if (self->context)
      context = gst_object_ref (self->context);
    GST_OBJECT_UNLOCK (self);
    answered = gst_cl_context_handle_context_query (GST_ELEMENT (self),
        query, context);
    gst_clear_object (&context);
    if (answered)
      return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

/* ---- Caps and allocation (rules in gstclnegotiation-private.h) ---------- */

static GstCaps *
gst_cl_epsilon_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *result = gst_cl_caps_transform (caps, filter);

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
        (trans), othercaps);
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
  GstClPlan *plan;
  guint depth;

  if (!self->context)
    return FALSE;
  if (self->failed)
    goto stopped;
  if (!gst_cl_plan_supports (in_info))
    goto too_large;
  GST_OBJECT_LOCK (self);
  depth = self->frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  /* Frames in flight of the old format may still fail: say so now. */
  if (self->plan && !gst_cl_plan_drain (self->plan, NULL, &error))
    goto plan_failed;
  if (!(plan = gst_cl_plan_new (self->context, self->tuner, in_info, depth,
              &error)))
    goto plan_failed;
  g_clear_pointer (&self->plan, gst_cl_plan_free);
  self->plan = plan;
  gst_cl_plan_set_faults (plan, self->faults);
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

/* Upstream allocates and maps the frames of the pool proposed in @query:
 * their failures are this element's to name (gstclstream-private.h). */
static void
watch_proposed_pool (GstClEpsilon * self, GstQuery * query)
{
  GstBufferPool *pool = NULL;
  GstAllocator *allocator = NULL;
  GstStructure *config;

  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  if (!pool)
    return;
  config = gst_buffer_pool_get_config (pool);
  if (gst_buffer_pool_config_get_allocator (config, &allocator, NULL) &&
      allocator && GST_IS_CL_ALLOCATOR (allocator))
    gst_cl_allocator_set_faults (allocator, self->faults);
  gst_structure_free (config);
  gst_object_unref (pool);
}

static gboolean
gst_cl_epsilon_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);

  /* Passthrough: upstream gets downstream's answer. */
  if (decide_query == NULL || self->context == NULL)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
        decide_query, query);
  if (!gst_cl_allocation_propose (self->context, decide_query, query))
    return FALSE;
  watch_proposed_pool (self, query);
  return TRUE;
}

static gboolean
gst_cl_epsilon_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstCaps *sinkcaps =
      gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
  gboolean ok = gst_cl_allocation_decide (self->context, query, sinkcaps,
      &self->share_untouched);

  gst_clear_caps (&sinkcaps);
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

/* Frames in flight end with the stream: at EOS they are waited for (a
 * failure of theirs is an error of the stream, which nothing else would
 * report), after a flush they are let go; either way the buffers they
 * read go back upstream. */
static gboolean
gst_cl_epsilon_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GError *error = NULL;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
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
 * output pool cannot allocate; the allocator's OpenCL error says why. */
static GstFlowReturn
gst_cl_epsilon_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  GstFlowReturn ret;

  gst_cl_clear_last_error ();
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans,
      input, outbuf);
  if (ret == GST_FLOW_ERROR)
    gst_cl_epsilon_fail (GST_CL_EPSILON (trans),
        g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "%s",
            gst_cl_get_last_error ()? gst_cl_get_last_error () :
            "Could not allocate an output frame"));
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

/* ---- Properties ----------------------------------------------------------- */

static GType
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
          "quantization (8-bit formats; costlier)", "auto"},
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

/* Sets what @strength stands for, with the object lock held: a level's
 * values, or nothing for custom. */
static void
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
  self->settings.strength = level->dct_stage ? GST_CL_STRENGTH_AUTO :
      GST_CL_STRENGTH_OFF;
  gst_cl_epsilon_set_kernel_locked (self, NULL);
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

/* Tells watchers (gst-launch-1.0 -v, applications) what a change of
 * strength, or of an expert property under a level, changed too. */
static void
gst_cl_epsilon_notify_strength (GstClEpsilon * self, guint prop_id)
{
  GObject *object = G_OBJECT (self);

  if (prop_id != PROP_STRENGTH) {
    g_object_notify (object, "strength");
    return;
  }
  g_object_notify (object, "threshold");
  g_object_notify (object, "window-size");
  g_object_notify (object, "chroma-threshold");
  g_object_notify (object, "kernel");
  g_object_notify (object, "dct-stage");
}

static void
gst_cl_epsilon_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);
  GstClPlanSettings *s = &self->settings, before;
  GstClEpsilonStrength strength_before;
  gboolean strength_changed;
  gchar *refusal = NULL;
  gdouble d;
  guint u;

  GST_OBJECT_LOCK (self);
  memcpy (&before, s, sizeof (before));
  strength_before = self->strength;
  switch (prop_id) {
    case PROP_THRESHOLD:
      s->threshold = g_value_get_uint (value);
      break;
    case PROP_WINDOW_SIZE:
      u = g_value_get_uint (value);
      if (u % 2 == 1)
        s->window_size = u;
      else
        refusal = g_strdup_printf ("Ignoring window-size %u: it must be odd; "
            "keeping %u", u, s->window_size);
      break;
    case PROP_CHROMA_THRESHOLD:
      s->chroma_threshold = g_value_get_uint (value);
      break;
    case PROP_KERNEL:
      refusal = gst_cl_epsilon_set_kernel_locked (self,
          g_value_get_string (value));
      break;
    case PROP_DIVISOR:
      d = g_value_get_double (value);
      if (isnan (d) || (d != 0.0 && fabs (d) < MIN_ABS_DIVISOR))
        refusal = g_strdup_printf ("Ignoring divisor %g: it must be 0 or at "
            "least %g in magnitude; keeping %g", d, MIN_ABS_DIVISOR,
            s->divisor);
      else
        s->divisor = d;
      break;
    case PROP_BIAS:
      d = g_value_get_double (value);
      if (isnan (d))
        refusal = g_strdup_printf ("Ignoring bias NaN; keeping %g", s->bias);
      else
        s->bias = d;
      break;
    case PROP_DEVICE:
      /* Set from code, a string need not be text: the device is chosen
       * by matching names, which only text can do. */
      if (g_value_get_string (value) &&
          !g_utf8_validate (g_value_get_string (value), -1, NULL)) {
        refusal = g_strdup_printf ("Ignoring a device that is not valid "
            "UTF-8; keeping \"%s\"", self->device);
        break;
      }
      g_free (self->device);
      self->device = g_value_dup_string (value);
      if (self->device == NULL)
        self->device = g_strdup (DEFAULT_DEVICE);
      break;
    case PROP_EPSILON_VARIANT:
      u = g_value_get_enum (value);
      if (u == GST_CL_VARIANT_SEPARABLE)
        refusal = g_strdup_printf ("Ignoring epsilon-variant separable: only "
            "convolutions separate; keeping %s",
            gst_cl_variant_to_string (s->epsilon_variant));
      else
        s->epsilon_variant = u;
      break;
    case PROP_CONVOLUTION_VARIANT:
      s->conv_variant = g_value_get_enum (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->frames_in_flight = g_value_get_uint (value);
      break;
    case PROP_STRENGTH:
      gst_cl_epsilon_set_strength_locked (self, g_value_get_enum (value));
      break;
    case PROP_DCT_STAGE:
      s->strength = g_value_get_boolean (value) ? GST_CL_STRENGTH_AUTO :
          GST_CL_STRENGTH_OFF;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
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

  if (refusal)
    gst_cl_epsilon_refuse (self, refusal);
  if (strength_changed)
    gst_cl_epsilon_notify_strength (self, prop_id);
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

static void
gst_cl_epsilon_preset_init (GstPresetInterface * iface)
{
  iface->get_property_names = gst_cl_epsilon_preset_get_property_names;
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
      g_value_set_boolean (value, s->strength == GST_CL_STRENGTH_AUTO);
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
