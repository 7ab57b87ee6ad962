/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
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
 * Frame borders replicate the edge samples. With both thresholds at 0 and no
 * kernel the element is in passthrough. Formats: NV12, I420, YV12, NV21,
 * GRAY8, Y444, Y42B, and 10-bit P010_10LE and I420_10LE (thresholds on the
 * 8-bit scale), any size; put a videoconvert in front for other decoder
 * outputs. With a #GstVideoCropMeta on the input, only the crop rectangle
 * is filtered, as a frame of its own; the rest is copied and the meta kept.
 *
 * The defaults, threshold 10 and window-size 3, were chosen by the project's
 * quality harness (docs/quality.md): on low-quality MPEG-2 and MJPEG they
 * raise the luma PSNR against the pristine pictures, and on no picture of
 * the low-quality MPEG-2, MJPEG and H.264 encodes measured do they lower it
 * by more than 0.03 dB. Higher thresholds and larger windows remove more
 * ringing but flatten fine texture; on H.264, whose in-loop deblocking
 * already removes most ringing, and on clean sources the filter gains
 * little.
 *
 * ## Properties
 *
 *  - #GstClEpsilon:threshold (0..255, default 10): largest difference from
 *    the centre sample for a neighbour to be averaged in; 0 turns the luma
 *    stage off. On the 8-bit scale: threshold << 2 for 10-bit formats.
 *  - #GstClEpsilon:window-size (odd, 3..15, default 3): side of the window;
 *    an even value is ignored.
 *  - #GstClEpsilon:chroma-threshold (0..255, default 0): the same filter on
 *    each chroma component; 0 leaves chroma untouched.
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
 *  - #GstClEpsilon:stats (read-only): frames, copies, transfers, kernel
 *    time and memory path since start.
 *
 * All but device apply from the next frame when changed while playing.
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
 * gst-launch-1.0 playbin uri=file:///path/in.mp4 video-filter="clepsilon threshold=12"
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
#include "gstclconvkernel-private.h"
#include "gstclbufferpool-private.h"
#include "gstclerror-private.h"
#include "gstclframe-private.h"
#include "gstclmemory-private.h"
#include "gstclsharing-private.h"
#include "gstcltuner-private.h"
#include "gstclvariant-private.h"

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
};

/* Chosen by tools/quality/run.sh, see docs/quality.md. */
#define DEFAULT_THRESHOLD 10
#define DEFAULT_WINDOW_SIZE 3
#define DEFAULT_CHROMA_THRESHOLD 0
#define DEFAULT_KERNEL ""
#define DEFAULT_DIVISOR 0.0
#define DEFAULT_BIAS 0.0
#define DEFAULT_DEVICE "auto"
#define DEFAULT_VARIANT GST_CL_VARIANT_AUTO

#define MIN_WINDOW_SIZE 3
#define MAX_WINDOW_SIZE 15
/* Beyond these the float arithmetic on the device stops meaning anything. */
#define MAX_ABS_DIVISOR 1e6
#define MIN_ABS_DIVISOR 1e-6
#define MAX_ABS_BIAS 1e6

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

/* One plane of the negotiated format, with its device buffers. */
typedef struct
{
  guint index;                  /* plane of the GstVideoFrame */
  gint width;                   /* samples of one component per row */
  gint height;
  gint xstep;                   /* components interleaved in the plane */
  gint bytes;                   /* per sample: 1, or 2 (10-bit in 16-bit words) */
  guint depth;                  /* bits per sample: 8 or 10 */
  guint shift;                  /* 10-bit value's lowest bit in its word */
  guint wsub, hsub;             /* log2 of the subsampling against luma */
  gint row_bytes;               /* width * xstep * bytes: rows are packed on
                                 * the device */
  gboolean is_luma;
  cl_mem src;                   /* the uploaded input */
  cl_mem dst;                   /* the filtered output */
  cl_mem tmp;                   /* luma only: epsilon result, convolution input */
  cl_mem scratch;               /* luma only, made on first use: row sums of
                                 * the separable convolution, floats */
  GstClLaunch epsilon_launch;   /* chosen per frame, for the frame's values */
  GstClLaunch conv_launch;
} GstClPlane;

/* The property values one frame is filtered with, taken together. */
typedef struct
{
  guint threshold;
  guint radius;
  guint chroma_threshold;
  gboolean have_kernel;
  gint kernel_width;
  gint kernel_height;
  gfloat divisor;
  gfloat bias;
  gboolean separable;
  GstClVariant epsilon_variant;
  GstClVariant conv_variant;
  /* This frame's untouched planes go out as the input's memory. */
  gboolean share_untouched;
} GstClEpsilonParams;

struct _GstClEpsilon
{
  GstVideoFilter parent;

  /* Properties, under the object lock. */
  guint threshold;
  guint window_size;
  guint chroma_threshold;
  gchar *kernel_text;
  GstClConvKernel kernel;
  gboolean have_kernel;
  guint kernel_cookie;          /* bumped on every accepted kernel */
  gdouble divisor;
  gdouble bias;
  gchar *device;
  gchar *device_name;
  GstClVariant epsilon_variant;
  GstClVariant conv_variant;
  gboolean separable;           /* the kernel is rank-1: */
  gdouble column[GST_CL_CONV_KERNEL_MAX_SIDE];  /* kernel = column x row */
  gdouble row[GST_CL_CONV_KERNEL_MAX_SIDE];

  /* Streaming thread only (and start/stop). */
  GstClContext *context;
  /* Programs by sample size (bytes, 16-bit words) and epsilon radius, built
   * when first used. */
  GstClKernels *kernels[2][MAX_WINDOW_SIZE / 2 + 1];
  GstClTuner *tuner;
  GHashTable *launches;         /* tuning key -> GstClLaunch, this run */
  cl_mem coeffs;                /* float coefficients of the current kernel */
  cl_mem row_factor;            /* and its factors, when separable */
  cl_mem column_factor;
  guint coeffs_cookie;          /* kernel_cookie of what coeffs holds */
  GstClPlane planes[GST_VIDEO_MAX_PLANES];
  guint n_planes;
  GstClEvents events;           /* the frame's kernels, for their times */
  gboolean share_untouched_ok;  /* decided with the allocation */

  /* What the stats property reports; under the object lock. */
  struct
  {
    guint64 frames;
    guint64 zero_copy_frames;
    GstClTransferStats totals;
    gdouble device_ms;
    gdouble transform_ms;
    const gchar *memory_path;
    gchar epsilon_launch[32];   /* "VARIANT WxH" of the last luma frame */
    gchar conv_launch[32];
    guint programs_compiled;
    guint programs_cached;
    guint tuning_runs;
    gdouble build_ms;
    gdouble tuning_ms;
  } stats;
};

#define gst_cl_epsilon_parent_class parent_class
G_DEFINE_TYPE (GstClEpsilon, gst_cl_epsilon, GST_TYPE_VIDEO_FILTER);
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
   * (docs/quality.md).
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
   * rejected with a warning in the debug log and the previous value stays.
   * Larger windows average more samples (stronger smoothing, more texture
   * lost, more work per sample: window-size squared).
   */
  g_object_class_install_property (gobject_class, PROP_WINDOW_SIZE,
      g_param_spec_uint ("window-size", "Window size",
          "Side of the square window in samples, odd; larger smooths more "
          "(even values are ignored)", MIN_WINDOW_SIZE, MAX_WINDOW_SIZE,
          DEFAULT_WINDOW_SIZE, flags));

  /**
   * GstClEpsilon:chroma-threshold:
   *
   * Threshold of the epsilon filter on each chroma component, 0..255, with
   * the same window counted in chroma samples. 0 passes chroma through
   * unchanged. On the 8-bit scale, as #GstClEpsilon:threshold: << 2 for
   * 10-bit formats.
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
   * Empty: no convolution. A malformed matrix is rejected with a warning in
   * the debug log and the previous one stays.
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
   * <= 1e6.
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
   *    waiting included); divided by frames, the element's cost per frame;
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
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Frames, bytes copied and transferred, kernel time, memory path",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL epsilon filter", "Filter/Effect/Video",
      "Removes mosquito noise with an epsilon filter and an optional "
      "convolution, on an OpenCL device", "gst-clfilters authors");
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
}

/* Passthrough exactly when no stage would change a sample. Decided only on
 * the streaming thread (and in start), so that concurrent setters cannot
 * leave a stale decision; a change renegotiates the allocation, since a
 * passthrough element had none of its own. */
static gboolean
same_memory_both_sides (GstBaseTransform * trans)
{
  GstCaps *in = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstCaps *out = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (trans));
  gboolean same = !in || !out ||
      gst_caps_features_is_equal (gst_caps_get_features (in, 0),
      gst_caps_get_features (out, 0));

  gst_clear_caps (&in);
  gst_clear_caps (&out);
  return same;
}

static void
gst_cl_epsilon_update_passthrough (GstClEpsilon * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gboolean passthrough;

  GST_OBJECT_LOCK (self);
  passthrough = self->threshold == 0 && self->chroma_threshold == 0 &&
      !self->have_kernel;
  GST_OBJECT_UNLOCK (self);
  /* Frames in device memory on one side and system memory on the other
   * need the element to move them, even when no stage runs. */
  passthrough = passthrough && same_memory_both_sides (trans);

  if (passthrough == gst_base_transform_is_passthrough (trans))
    return;
  GST_DEBUG_OBJECT (self, "passthrough %s", passthrough ? "on" : "off");
  gst_base_transform_set_passthrough (trans, passthrough);
  gst_base_transform_reconfigure_src (trans);
}

static void
gst_cl_epsilon_init (GstClEpsilon * self)
{
  self->threshold = DEFAULT_THRESHOLD;
  self->window_size = DEFAULT_WINDOW_SIZE;
  self->chroma_threshold = DEFAULT_CHROMA_THRESHOLD;
  self->kernel_text = g_strdup (DEFAULT_KERNEL);
  self->divisor = DEFAULT_DIVISOR;
  self->bias = DEFAULT_BIAS;
  self->device = g_strdup (DEFAULT_DEVICE);
  self->epsilon_variant = DEFAULT_VARIANT;
  self->conv_variant = DEFAULT_VARIANT;
}

static void
gst_cl_epsilon_finalize (GObject * object)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);

  g_free (self->kernel_text);
  g_free (self->device);
  g_free (self->device_name);
  /* A context set on the element (set_context) that it never started with. */
  gst_clear_object (&self->context);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* ---- OpenCL resources ---------------------------------------------------- */

static void
gst_cl_epsilon_free_planes (GstClEpsilon * self)
{
  guint i;

  for (i = 0; i < self->n_planes; i++) {
    GstClPlane *plane = &self->planes[i];

    g_clear_pointer (&plane->src, clReleaseMemObject);
    g_clear_pointer (&plane->dst, clReleaseMemObject);
    g_clear_pointer (&plane->tmp, clReleaseMemObject);
    g_clear_pointer (&plane->scratch, clReleaseMemObject);
  }
  self->n_planes = 0;
}

/* Frees the plan in self->planes and puts @planes in its place. */
static void
gst_cl_epsilon_replace_planes (GstClEpsilon * self, const GstClPlane * planes,
    guint n_planes)
{
  gst_cl_epsilon_free_planes (self);
  memcpy (self->planes, planes, sizeof (self->planes));
  self->n_planes = n_planes;
}

static void
gst_cl_epsilon_free_resources (GstClEpsilon * self)
{
  guint i;

  gst_cl_epsilon_free_planes (self);
  g_clear_pointer (&self->coeffs, clReleaseMemObject);
  g_clear_pointer (&self->row_factor, clReleaseMemObject);
  g_clear_pointer (&self->column_factor, clReleaseMemObject);
  for (i = 0; i < G_N_ELEMENTS (self->kernels[0]); i++) {
    g_clear_pointer (&self->kernels[0][i], gst_cl_kernels_free);
    g_clear_pointer (&self->kernels[1][i], gst_cl_kernels_free);
  }
  g_clear_pointer (&self->tuner, gst_cl_tuner_free);
  g_clear_pointer (&self->launches, g_hash_table_unref);
  GST_OBJECT_LOCK (self);
  gst_clear_object (&self->context);
  GST_OBJECT_UNLOCK (self);
}

/* The program for epsilon windows of @radius on bytes, or on 16-bit words
 * when @deep, built (or loaded from the program cache) the first time it is
 * used. */
static GstClKernels *
gst_cl_epsilon_get_kernels (GstClEpsilon * self, gboolean deep, gint radius,
    GError ** error)
{
  GstClKernels **kernels = &self->kernels[deep ? 1 : 0][radius];
  gboolean from_cache = FALSE;
  gint64 started;

  if (*kernels)
    return *kernels;

  started = g_get_monotonic_time ();
  *kernels = gst_cl_kernels_new (self->context, radius, deep, &from_cache,
      error);
  if (*kernels) {
    GST_OBJECT_LOCK (self);
    self->stats.build_ms += (g_get_monotonic_time () - started) / 1000.0;
    if (from_cache)
      self->stats.programs_cached++;
    else
      self->stats.programs_compiled++;
    GST_OBJECT_UNLOCK (self);
  }
  return *kernels;
}

/* Builds what every frame needs on the device just opened: the program for
 * the current window size (so that a build failure shows at start), the
 * tuner and the coefficient buffers. */
static gboolean
gst_cl_epsilon_build (GstClEpsilon * self, GError ** error)
{
  const gsize side = sizeof (gfloat) * GST_CL_CONV_KERNEL_MAX_SIDE;
  guint radius;

  GST_OBJECT_LOCK (self);
  radius = self->window_size / 2;
  GST_OBJECT_UNLOCK (self);
  if (!gst_cl_epsilon_get_kernels (self, FALSE, radius, error))
    return FALSE;

  self->tuner = gst_cl_tuner_new (self->context);
  self->launches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  self->coeffs_cookie = 0;
  self->coeffs = gst_cl_context_create_buffer (self->context,
      CL_MEM_READ_ONLY, side * GST_CL_CONV_KERNEL_MAX_SIDE,
      "kernel coefficients", error);
  if (self->coeffs)
    self->row_factor = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_ONLY, side, "kernel row factor", error);
  if (self->row_factor)
    self->column_factor = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_ONLY, side, "kernel column factor", error);
  return self->column_factor != NULL;
}

static gboolean
gst_cl_epsilon_start (GstBaseTransform * trans)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GError *error = NULL;
  gchar *device;

  GST_OBJECT_LOCK (self);
  device = g_strdup (self->device);
  GST_OBJECT_UNLOCK (self);

  /* Shared with the pipeline's other OpenCL elements where they have one;
   * one set earlier for another device than "device" now names is
   * dropped. */
  GST_OBJECT_LOCK (self);
  if (self->context && !gst_cl_context_matches (self->context, device))
    gst_clear_object (&self->context);
  GST_OBJECT_UNLOCK (self);
  if (!gst_cl_context_ensure_for_element (GST_ELEMENT (self), device,
          &self->context, &error)) {
    g_free (device);
    goto no_device;
  }
  g_free (device);

  GST_OBJECT_LOCK (self);
  memset (&self->stats, 0, sizeof (self->stats));
  self->stats.memory_path = "none";
  GST_OBJECT_UNLOCK (self);
  if (!gst_cl_epsilon_build (self, &error))
    goto build_failed;

  GST_OBJECT_LOCK (self);
  g_free (self->device_name);
  self->device_name =
      g_strdup (gst_cl_context_get_device_name (self->context));
  GST_OBJECT_UNLOCK (self);
  g_object_notify (G_OBJECT (self), "device-name");
  gst_cl_epsilon_update_passthrough (self);
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

/* Describes @plane_index of @info; FALSE if the plane is too large for the
 * 32-bit offsets the kernels compute with, or if GstVideoInfo's own size
 * math overflowed (a row of 2^31 - 1 bytes gets a negative stride and a
 * size near 2^64). */
static gboolean
describe_plane (const GstVideoInfo * info, guint plane_index,
    GstClPlane * plane)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane_index, comp);
  plane->index = plane_index;
  plane->is_luma = comp[0] == GST_VIDEO_COMP_Y;
  plane->width = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
  plane->height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
  plane->depth = GST_VIDEO_INFO_COMP_DEPTH (info, comp[0]);
  plane->bytes = plane->depth > 8 ? 2 : 1;
  plane->shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, comp[0]);
  plane->wsub = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, comp[0]);
  plane->hsub = GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, comp[0]);
  plane->xstep = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) / plane->bytes;

  if ((plane->depth != 8 && plane->depth != 10) || plane->xstep < 1 ||
      plane->xstep > 2 || (gint64) plane->width * plane->xstep *
      plane->bytes * plane->height > G_MAXINT32 ||
      GST_VIDEO_INFO_PLANE_STRIDE (info, plane_index) <
      (gint64) plane->width * plane->xstep * plane->bytes ||
      info->size > G_MAXUINT32)
    return FALSE;
  plane->row_bytes = plane->width * plane->xstep * plane->bytes;
  return TRUE;
}

static gboolean
gst_cl_epsilon_alloc_plane (GstClEpsilon * self, GstClPlane * plane,
    GError ** error)
{
  gsize size = (gsize) plane->row_bytes * plane->height;

  static const guint8 zero = 0;
  cl_int status;

  plane->src = gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
      size, "input plane", error);
  if (!plane->src)
    return FALSE;
  plane->dst = gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
      size, "output plane", error);
  if (!plane->dst)
    return FALSE;
  if (plane->is_luma) {
    plane->tmp = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_WRITE, size, "intermediate plane", error);
    if (!plane->tmp)
      return FALSE;
  }
  /* The tuner times kernels on the input plane before any frame: give it
   * defined samples, not whatever the allocation held (valgrind flags the
   * kernels' reads, and NaNs or denormals would skew the timings). */
  status = clEnqueueFillBuffer (gst_cl_context_get_queue (self->context),
      plane->src, &zero, 1, 0, size, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clEnqueueFillBuffer (input "
        "plane)");
  return TRUE;
}

/* Prepares the plan for the new format: one GstClPlane per plane with its
 * device buffers, so that transform only enqueues work. */
static gboolean
gst_cl_epsilon_set_info (GstVideoFilter * vfilter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClEpsilon *self = GST_CL_EPSILON (vfilter);
  GstClPlane old[GST_VIDEO_MAX_PLANES], built[GST_VIDEO_MAX_PLANES];
  guint old_n = self->n_planes, n_built;
  GError *error = NULL;
  guint i;

  if (!self->context)
    return FALSE;

  /* The new plan is built beside the old one, which stays if these caps
   * fail: GstBaseTransform then keeps the previous caps, and does not call
   * set_info again when they come back. */
  memcpy (old, self->planes, sizeof (old));
  memset (self->planes, 0, sizeof (self->planes));
  self->n_planes = 0;
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (in_info); i++) {
    if (!describe_plane (in_info, i, &self->planes[i]))
      goto too_large;
    self->n_planes = i + 1;
    if (!gst_cl_epsilon_alloc_plane (self, &self->planes[i], &error))
      goto alloc_failed;
  }
  memcpy (built, self->planes, sizeof (built));
  n_built = self->n_planes;
  memcpy (self->planes, old, sizeof (old));
  self->n_planes = old_n;
  gst_cl_epsilon_replace_planes (self, built, n_built);
  GST_DEBUG_OBJECT (self, "prepared %u planes for %" GST_PTR_FORMAT,
      self->n_planes, incaps);
  return TRUE;

  /* ERRORS */
too_large:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, (NULL),
        ("frames of %dx%d are too large", GST_VIDEO_INFO_WIDTH (in_info),
            GST_VIDEO_INFO_HEIGHT (in_info)));
    gst_cl_epsilon_replace_planes (self, old, old_n);
    return FALSE;
  }
alloc_failed:
  {
    GST_CL_ELEMENT_ERROR_FROM_GERROR (self, error);
    gst_cl_epsilon_replace_planes (self, old, old_n);
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

/* Our pool for @caps, with a video meta when @video_meta. */
/* Whether @caps (fixed) carry frames in device-resident OpenCL buffers. */
static gboolean
caps_in_device_memory (GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features && gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_CL_BUFFER);
}

static gboolean
sink_in_device_memory (GstBaseTransform * trans)
{
  GstCaps *caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD
      (trans));
  gboolean device = caps && caps_in_device_memory (caps);

  gst_clear_caps (&caps);
  return device;
}

/* Whether the peer of @pad names memory:OpenCLBuffer among what it takes
 * (a sink that takes ANY caps does not count). */
static gboolean
peer_takes_device_memory (GstPad * pad)
{
  GstCaps *peer = gst_pad_peer_query_caps (pad, NULL);
  gboolean takes = FALSE;
  guint i;

  for (i = 0; peer && !gst_caps_is_any (peer) && i < gst_caps_get_size (peer);
      i++) {
    GstCapsFeatures *f = gst_caps_get_features (peer, i);

    takes |= f && !gst_caps_features_is_any (f) &&
        gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_CL_BUFFER);
  }
  GST_LOG_OBJECT (pad, "peer takes %" GST_PTR_FORMAT ": device memory %s",
      peer, takes ? "yes" : "no");
  gst_clear_caps (&peer);
  return takes;
}

/* @caps with every structure in system memory, or in device memory. */
static GstCaps *
caps_with_memory (GstCaps * caps, gboolean device)
{
  GstCaps *out = gst_caps_copy (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (out); i++)
    gst_caps_set_features (out, i, device ?
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CL_BUFFER, NULL) :
        gst_caps_features_new_empty ());
  return out;
}

/* The filter keeps format and size; frames may come or go in system memory
 * or stay on the device (memory:OpenCLBuffer), whatever the other side. */
static GstCaps *
gst_cl_epsilon_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *result = gst_caps_merge (caps_with_memory (caps, TRUE),
      caps_with_memory (caps, FALSE));

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SRC ? "src" : "sink", caps, result);
  return result;
}

/* Output stays on the device only for a peer that names memory:OpenCLBuffer,
 * such as another clepsilon: system memory is the default for every other
 * element, including sinks that take ANY caps. */
static GstCaps *
gst_cl_epsilon_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  gboolean device;
  GstCaps *kept;
  guint i;

  if (direction == GST_PAD_SINK) {
    device = peer_takes_device_memory (GST_BASE_TRANSFORM_SRC_PAD (trans));
    kept = gst_caps_new_empty ();
    for (i = 0; i < gst_caps_get_size (othercaps); i++) {
      GstCapsFeatures *f = gst_caps_get_features (othercaps, i);
      gboolean on_device = f && gst_caps_features_contains (f,
          GST_CAPS_FEATURE_MEMORY_CL_BUFFER);

      if (on_device == device)
        gst_caps_append_structure_full (kept,
            gst_structure_copy (gst_caps_get_structure (othercaps, i)),
            f ? gst_caps_features_copy (f) : NULL);
    }
    if (!gst_caps_is_empty (kept)) {
      gst_caps_unref (othercaps);
      othercaps = kept;
    } else {
      gst_caps_unref (kept);
    }
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->fixate_caps (trans,
      direction, caps, othercaps);
}

static GstBufferPool *
gst_cl_epsilon_create_pool (GstClEpsilon * self, GstCaps * caps, guint size,
    guint min, guint max, gboolean video_meta)
{
  GstBufferPool *pool = gst_cl_buffer_pool_new (self->context,
      caps_in_device_memory (caps));
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (self, "pool refused its config for %" GST_PTR_FORMAT,
        caps);
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* Offers upstream a pool of OpenCL buffers: frames written there need no
 * copy to reach the device. */
static gboolean
gst_cl_epsilon_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstBufferPool *pool;
  GstVideoInfo info;
  GstClPlane plane;
  GstCaps *caps;
  guint i;

  /* Passthrough: upstream gets downstream's answer. */
  if (decide_query == NULL || self->context == NULL)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
        decide_query, query);

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  /* No pool for frames set_info refuses: their size may not even fit the
   * 32-bit buffer size of a pool. */
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (&info); i++)
    if (!describe_plane (&info, i, &plane))
      return FALSE;

  pool = gst_cl_epsilon_create_pool (self, caps, info.size, 0, 0, TRUE);
  if (!pool)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, info.size, 0, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  /* Frames with a crop meta are filtered on the crop rectangle and keep the
   * meta (transform_meta); only where downstream crops them in the end. */
  if (gst_query_find_allocation_meta (decide_query,
          GST_VIDEO_CROP_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_CROP_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return TRUE;
}

/* Output frames come from our pool too, so that kernels write them in place
 * (or DMA lands in pinned memory); with a video meta if downstream takes
 * one, else in the default layout. */
static gboolean
gst_cl_epsilon_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  guint size, min = 0, max = 0;
  GstBufferPool *pool;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean video_meta;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, &size, &min, &max);
  size = info.size;
  video_meta = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
      NULL);
  /* Only where the device works on host memory: on a discrete GPU,
   * downstream reading the input's pinned buffer cost more than copying
   * the planes on the device (4K NV12 on an H100, docs/memory.md). */
  self->share_untouched_ok = video_meta && !caps_in_device_memory (caps) &&
      !sink_in_device_memory (trans) &&
      gst_cl_context_is_host_unified (self->context);

  pool = gst_cl_epsilon_create_pool (self, caps, size, min, max, video_meta);
  if (!pool)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
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
    GST_ELEMENT_ERROR (trans, RESOURCE, FAILED, ("%s",
            gst_cl_get_last_error ()? gst_cl_get_last_error () :
            "Could not allocate an output frame"),
        ("no output frame from the pool"));
  return ret;
}

static void
gst_cl_epsilon_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstClockTime timestamp, stream_time;

  timestamp = GST_BUFFER_TIMESTAMP (buffer);
  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      timestamp);
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);

  gst_cl_epsilon_update_passthrough (GST_CL_EPSILON (trans));
}

/* ---- Per frame ------------------------------------------------------------ */

/* Writes @n floats to @mem, blocking: the next frame may overwrite them
 * again. A few hundred bytes, only when the kernel changes. */
static gboolean
write_floats (GstClEpsilon * self, cl_mem mem, const gfloat * values, gint n,
    const gchar * what, GError ** error)
{
  cl_int status = clEnqueueWriteBuffer (gst_cl_context_get_queue
      (self->context), mem, CL_TRUE, 0, sizeof (gfloat) * n, values, 0, NULL,
      NULL);

  if (status != CL_SUCCESS) {
    gchar *step = g_strdup_printf ("clEnqueueWriteBuffer (%s)", what);

    gst_cl_set_error (error, status, step);
    g_free (step);
    return FALSE;
  }
  return TRUE;
}

/* Takes the property values for one frame under the lock, and uploads the
 * convolution coefficients (and their factors) if the kernel changed since
 * the last frame. */
static gboolean
gst_cl_epsilon_snapshot (GstClEpsilon * self, GstClEpsilonParams * params,
    GError ** error)
{
  gfloat coeffs[G_N_ELEMENTS (self->kernel.coeffs)];
  gfloat column[GST_CL_CONV_KERNEL_MAX_SIDE], row[GST_CL_CONV_KERNEL_MAX_SIDE];
  gboolean upload = FALSE;
  guint cookie = 0;
  gint i, n = 0;

  GST_OBJECT_LOCK (self);
  params->threshold = self->threshold;
  params->radius = self->window_size / 2;
  params->chroma_threshold = self->chroma_threshold;
  params->have_kernel = self->have_kernel;
  params->kernel_width = self->kernel.width;
  params->kernel_height = self->kernel.height;
  params->divisor = gst_cl_conv_kernel_effective_divisor (&self->kernel,
      self->divisor);
  params->bias = self->bias;
  params->separable = self->have_kernel && self->separable;
  params->epsilon_variant = self->epsilon_variant;
  params->conv_variant = self->conv_variant;
  if (self->have_kernel && self->kernel_cookie != self->coeffs_cookie) {
    n = self->kernel.width * self->kernel.height;
    for (i = 0; i < n; i++)
      coeffs[i] = self->kernel.coeffs[i];
    for (i = 0; i < self->kernel.height; i++)
      column[i] = self->column[i];
    for (i = 0; i < self->kernel.width; i++)
      row[i] = self->row[i];
    cookie = self->kernel_cookie;
    upload = TRUE;
  }
  GST_OBJECT_UNLOCK (self);

  if (!upload)
    return TRUE;
  if (!write_floats (self, self->coeffs, coeffs, n, "kernel coefficients",
          error))
    return FALSE;
  if (params->separable && (!write_floats (self, self->row_factor, row,
              params->kernel_width, "kernel row factor", error) ||
          !write_floats (self, self->column_factor, column,
              params->kernel_height, "kernel column factor", error)))
    return FALSE;
  self->coeffs_cookie = cookie;
  return TRUE;
}

/* A packed device buffer of @plane, as a plane reference. */
static GstClPlaneRef
device_ref (const GstClPlane * plane, cl_mem mem)
{
  GstClPlaneRef ref = { mem, 0, NULL, plane->row_bytes, TRUE };

  return ref;
}

/* A rectangle of one plane, in samples of one component: the part a frame
 * filters (all of it, or what lies under the input's crop rectangle). */
typedef struct
{
  gint x, y;
  gint width, height;
} GstClRegion;

/* @ref moved on to the sample at (@x, @y) of @plane. */
static GstClPlaneRef
region_ref (const GstClPlane * plane, const GstClPlaneRef * ref, gint x,
    gint y)
{
  GstClPlaneRef moved = *ref;
  gsize skip = (gsize) y * ref->pitch + (gsize) x * plane->xstep *
      plane->bytes;

  if (moved.mem)
    moved.offset += skip;
  else
    moved.host += skip;
  return moved;
}

/* Whether kernels may work on @ref where it is: 16-bit samples need even
 * offsets and pitches (a frame whose video meta says otherwise goes through
 * the plane's device buffers). */
static gboolean
kernel_aligned (const GstClPlane * plane, const GstClPlaneRef * ref)
{
  return plane->bytes == 1 || ((ref->offset | (gsize) ref->pitch) & 1) == 0;
}

/* Runs the epsilon filter on @region of @plane; @threshold on the 8-bit
 * scale, as the properties give it. */
static gboolean
run_epsilon (GstClEpsilon * self, GstClKernels * kernels,
    const GstClPlane * plane, const GstClRegion * region,
    const GstClPlaneRef * src, const GstClPlaneRef * dst, guint threshold,
    GError ** error)
{
  GstClStagePlane stage = { src, dst, region->width, region->height,
    plane->xstep, plane->shift
  };

  return gst_cl_kernels_run_epsilon (kernels, &plane->epsilon_launch, &stage,
      threshold << (plane->depth - 8), &self->events, error);
}

static gboolean
run_convolve (GstClEpsilon * self, GstClKernels * kernels,
    const GstClPlane * plane, const GstClRegion * region,
    const GstClPlaneRef * src, const GstClPlaneRef * dst,
    const GstClEpsilonParams * params, GError ** error)
{
  GstClStagePlane stage = { src, dst, region->width, region->height, 1,
    plane->shift
  };
  GstClConvParams conv = { self->coeffs, params->kernel_width,
    params->kernel_height, params->divisor, params->bias, params->separable,
    self->row_factor, self->column_factor, plane->scratch
  };

  return gst_cl_kernels_run_convolve (kernels, &plane->conv_launch, &stage,
      &conv, &self->events, error);
}

/* ---- Choosing kernel variants -------------------------------------------- */

/* One stage of one plane, for the tuner to time on the plane's own device
 * buffers (their content does not matter for the time). */
typedef struct
{
  GstClEpsilon *self;
  GstClKernels *kernels;
  GstClPlane *plane;
  const GstClEpsilonParams *params;
  gboolean convolve;
} GstClTuneJob;

static gboolean
tune_run (const GstClLaunch * launch, GstClEvents * events,
    gpointer user_data, GError ** error)
{
  GstClTuneJob *job = user_data;
  GstClPlane *plane = job->plane;
  GstClPlaneRef src = device_ref (plane, plane->src);
  GstClPlaneRef dst = device_ref (plane, plane->dst);
  GstClStagePlane stage = { &src, &dst, plane->width, plane->height,
    job->convolve ? 1 : plane->xstep, plane->shift
  };
  GstClConvParams conv = { job->self->coeffs, job->params->kernel_width,
    job->params->kernel_height, job->params->divisor, job->params->bias,
    job->params->separable, job->self->row_factor,
    job->self->column_factor, plane->scratch
  };

  if (job->convolve)
    return gst_cl_kernels_run_convolve (job->kernels, launch, &stage, &conv,
        events, error);
  return gst_cl_kernels_run_epsilon (job->kernels, launch, &stage,
      MAX (job->params->threshold, 1), events, error);
}

/* What the tuner remembers a choice under: stage, layout, window or kernel
 * shape, and the size's order of magnitude (the best launch depends on how
 * much work there is, not on the exact size). */
static gchar *
tuning_key (const GstClTuneJob * job)
{
  const GstClPlane *plane = job->plane;
  const GstClEpsilonParams *params = job->params;
  const gchar *words = plane->bytes == 2 ? "16" : "";
  guint size_class = g_bit_storage ((gulong) plane->row_bytes *
      plane->height);

  if (job->convolve)
    return g_strdup_printf ("convolve%s-%dx%d-%s-s%u", words,
        params->kernel_width, params->kernel_height,
        params->separable ? "rank1" : "full", size_class);
  return g_strdup_printf ("epsilon%s-%s-r%u-s%u", words,
      plane->xstep == 2 ? "interleaved" : "planar", params->radius,
      size_class);
}

/* Times every variant the stage allows with each of its work-group sizes. */
static gboolean
tune (GstClEpsilon * self, GstClTuneJob * job, const gchar * key,
    GstClLaunch * launch, GError ** error)
{
  GstClLaunch candidates[GST_CL_N_VARIANTS * 8];
  GstClVariant v, last = job->convolve && job->params->separable ?
      GST_CL_VARIANT_SEPARABLE : GST_CL_VARIANT_WIDE;
  size_t sizes[8][2];
  guint i, m, n = 0;
  gint64 started = g_get_monotonic_time ();
  gboolean ok;

  for (v = GST_CL_VARIANT_PLAIN; v <= last; v++) {
    if (!gst_cl_kernels_has_variant (job->kernels, job->convolve, v))
      continue;
    m = gst_cl_kernels_local_sizes (job->kernels, job->convolve, v, sizes);
    for (i = 0; i < m; i++) {
      candidates[n].variant = v;
      candidates[n].local[0] = sizes[i][0];
      candidates[n].local[1] = sizes[i][1];
      n++;
    }
  }
  ok = gst_cl_tuner_tune (self->tuner, key, candidates, n, tune_run, job,
      launch, error);
  GST_OBJECT_LOCK (self);
  self->stats.tuning_runs = gst_cl_tuner_get_runs (self->tuner);
  self->stats.tuning_ms += (g_get_monotonic_time () - started) / 1000.0;
  GST_OBJECT_UNLOCK (self);
  return ok;
}

/* Whether @launch is one that tune() could have chosen for @job. */
static gboolean
launch_is_known (const GstClTuneJob * job, const GstClLaunch * launch)
{
  size_t sizes[8][2];
  guint i, n;

  if (launch->variant == GST_CL_VARIANT_SEPARABLE ?
      !(job->convolve && job->params->separable) :
      !gst_cl_kernels_has_variant (job->kernels, job->convolve,
          launch->variant))
    return FALSE;
  n = gst_cl_kernels_local_sizes (job->kernels, job->convolve,
      launch->variant, sizes);
  for (i = 0; i < n; i++) {
    if (sizes[i][0] == launch->local[0] && sizes[i][1] == launch->local[1])
      return TRUE;
  }
  return FALSE;
}

/* The launch of one stage: a forced variant with its first work-group size,
 * or the fastest, as chosen earlier in this run, remembered on disk, or
 * timed now. */
static gboolean
choose_launch (GstClEpsilon * self, GstClTuneJob * job, GstClLaunch * launch,
    GError ** error)
{
  GstClVariant forced = job->convolve ? job->params->conv_variant :
      job->params->epsilon_variant;
  GstClLaunch *known;
  size_t sizes[8][2];
  gchar *key;

  if (forced == GST_CL_VARIANT_SEPARABLE && !job->params->separable)
    forced = GST_CL_VARIANT_PLAIN;
  /* The 16-bit programs have no tiled kernels. */
  if (forced != GST_CL_VARIANT_AUTO &&
      !gst_cl_kernels_has_variant (job->kernels, job->convolve, forced))
    forced = GST_CL_VARIANT_PLAIN;
  if (forced != GST_CL_VARIANT_AUTO) {
    gst_cl_kernels_local_sizes (job->kernels, job->convolve, forced, sizes);
    launch->variant = forced;
    launch->local[0] = sizes[0][0];
    launch->local[1] = sizes[0][1];
    return TRUE;
  }

  key = tuning_key (job);
  if ((known = g_hash_table_lookup (self->launches, key))) {
    *launch = *known;
    g_free (key);
    return TRUE;
  }
  /* A remembered choice this program cannot run (a damaged or foreign
   * cache file) is timed again, and overwritten. */
  if (!(gst_cl_tuner_lookup (self->tuner, key, launch) &&
          launch_is_known (job, launch)) &&
      !tune (self, job, key, launch, error)) {
    g_free (key);
    return FALSE;
  }
  g_hash_table_insert (self->launches, key, g_memdup2 (launch,
          sizeof (*launch)));
  return TRUE;
}

/* The float plane the separable convolution's row pass writes. */
static gboolean
ensure_scratch (GstClEpsilon * self, GstClPlane * plane, GError ** error)
{
  if (!plane->scratch)
    plane->scratch = gst_cl_context_create_buffer (self->context,
        CL_MEM_READ_WRITE, sizeof (gfloat) * plane->width * plane->height,
        "separable convolution rows", error);
  return plane->scratch != NULL;
}

/* Chooses the launch of every stage that will run on the frame's planes. */
static gboolean
gst_cl_epsilon_prepare_launches (GstClEpsilon * self, GstClKernels * kernels,
    const GstClEpsilonParams * params, GError ** error)
{
  GstClTuneJob job = { self, kernels, NULL, params, FALSE };
  guint i;

  for (i = 0; i < self->n_planes; i++) {
    GstClPlane *plane = job.plane = &self->planes[i];
    guint threshold = plane->is_luma ? params->threshold :
        params->chroma_threshold;

    job.convolve = FALSE;
    if (threshold > 0 && !choose_launch (self, &job, &plane->epsilon_launch,
            error))
      return FALSE;
    job.convolve = TRUE;
    if (plane->is_luma && params->have_kernel &&
        ((params->separable && !ensure_scratch (self, plane, error)) ||
            !choose_launch (self, &job, &plane->conv_launch, error)))
      return FALSE;
  }
  return TRUE;
}

/* Runs the stages from @src to @dst, through the plane's intermediate buffer
 * when both run. */
static gboolean
run_stages (GstClEpsilon * self, GstClKernels * kernels,
    const GstClPlane * plane, const GstClRegion * region,
    const GstClEpsilonParams * params, guint threshold, gboolean convolve,
    const GstClPlaneRef * src, const GstClPlaneRef * dst, GError ** error)
{
  GstClPlaneRef tmp = device_ref (plane, plane->tmp);

  if (threshold > 0) {
    const GstClPlaneRef *out = convolve ? &tmp : dst;

    if (!run_epsilon (self, kernels, plane, region, src, out, threshold,
            error))
      return FALSE;
    src = out;
  }
  return !convolve || run_convolve (self, kernels, plane, region, src, dst,
      params, error);
}

/* Copies the samples of @plane around @region from @src to @dst: the rows
 * above and below it, and the parts of its rows left and right of it. */
static gboolean
copy_around (GstClEpsilon * self, const GstClPlane * plane,
    const GstClRegion * region, const GstClPlaneRef * src,
    const GstClPlaneRef * dst, GstClTransferStats * stats, GError ** error)
{
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

    if (part->width <= 0 || part->height <= 0)
      continue;
    from = region_ref (plane, src, part->x, part->y);
    to = region_ref (plane, dst, part->x, part->y);
    if (!gst_cl_copy_plane (self->context, &from, &to, (gsize) part->width *
            plane->xstep * plane->bytes, part->height, stats, error))
      return FALSE;
  }
  return TRUE;
}

/* Filters @region of one plane of @in into @out, and copies the rest of the
 * plane. Where the device shares host memory,
 * kernels read and write the frames' buffers in place; otherwise the plane
 * goes through device buffers, with DMA from and to pinned memory when the
 * frames are OpenCL buffers. A plane that no stage touches is copied by
 * OpenCL, and by the CPU only when neither frame is an OpenCL buffer. */
static gboolean
gst_cl_epsilon_filter_plane (GstClEpsilon * self, GstClKernels * kernels,
    const GstClPlane * plane, const GstClRegion * region,
    const GstClEpsilonParams * params, const GstClFrame * in,
    const GstClFrame * out, GstClTransferStats * stats, GError ** error)
{
  guint threshold = plane->is_luma ? params->threshold :
      params->chroma_threshold;
  gboolean convolve = plane->is_luma && params->have_kernel;
  gboolean in_place = gst_cl_context_is_host_unified (self->context);
  const GstClPlaneRef *src = &in->planes[plane->index];
  const GstClPlaneRef *dst = &out->planes[plane->index];
  GstClPlaneRef dev_src = device_ref (plane, plane->src);
  GstClPlaneRef dev_dst = device_ref (plane, plane->dst);
  GstClPlaneRef src_region, dst_region;
  gsize row_bytes = (gsize) region->width * plane->xstep * plane->bytes;

  if (threshold == 0 && !convolve)
    return params->share_untouched || gst_cl_copy_plane (self->context, src,
        dst, plane->row_bytes, plane->height, stats, error);

  /* A crop rectangle: the rest of the plane is copied as it is. */
  if ((region->width != plane->width || region->height != plane->height) &&
      !copy_around (self, plane, region, src, dst, stats, error))
    return FALSE;
  src_region = region_ref (plane, src, region->x, region->y);
  dst_region = region_ref (plane, dst, region->x, region->y);
  src = &src_region;
  dst = &dst_region;

  /* Device-resident frames (memory:OpenCLBuffer) are used where they are. */
  if (!src->mem || !(in_place || src->device_side) ||
      !kernel_aligned (plane, src)) {
    if (!gst_cl_copy_plane (self->context, src, &dev_src, row_bytes,
            region->height, stats, error))
      return FALSE;
    src = &dev_src;
  }
  if (dst->mem && (in_place || dst->device_side) &&
      kernel_aligned (plane, dst))
    return run_stages (self, kernels, plane, region, params, threshold,
        convolve, src, dst, error);

  return run_stages (self, kernels, plane, region, params, threshold,
      convolve, src, &dev_dst, error) &&
      gst_cl_copy_plane (self->context, &dev_dst, dst, row_bytes,
      region->height, stats, error);
}

/* "VARIANT WxH" of @launch, or "none" where the stage did not run. */
static void
describe_launch (gchar * text, gsize size, gboolean ran,
    const GstClLaunch * launch)
{
  if (ran)
    g_snprintf (text, size, "%s %zux%zu",
        gst_cl_variant_to_string (launch->variant), launch->local[0],
        launch->local[1]);
  else
    g_strlcpy (text, "none", size);
}

/* Adds one frame's figures to the stats property. */
static void
gst_cl_epsilon_count_frame (GstClEpsilon * self,
    const GstClEpsilonParams * params, const GstClTransferStats * frame,
    gdouble device_ms, gint64 started)
{
  const GstClPlane *luma = &self->planes[0];
  gdouble wall_ms = (g_get_monotonic_time () - started) / 1000.0;
  gboolean copied = frame->host_copy_bytes > 0 || frame->pageable;

  GST_OBJECT_LOCK (self);
  self->stats.frames++;
  self->stats.zero_copy_frames += copied ? 0 : 1;
  self->stats.totals.host_copy_bytes += frame->host_copy_bytes;
  self->stats.totals.upload_bytes += frame->upload_bytes;
  self->stats.totals.download_bytes += frame->download_bytes;
  self->stats.totals.device_copy_bytes += frame->device_copy_bytes;
  self->stats.device_ms += device_ms;
  self->stats.transform_ms += wall_ms;
  self->stats.memory_path = copied ? "copy" :
      gst_cl_context_is_host_unified (self->context) ? "host-ptr" : "pinned";
  describe_launch (self->stats.epsilon_launch,
      sizeof (self->stats.epsilon_launch), params->threshold > 0,
      &luma->epsilon_launch);
  describe_launch (self->stats.conv_launch, sizeof (self->stats.conv_launch),
      params->have_kernel, &luma->conv_launch);
  GST_OBJECT_UNLOCK (self);
}

/* The part of each plane the frame filters: all of it or, with a crop meta
 * on @inbuf, what lies under the crop rectangle (clipped to the frame): for
 * subsampled chroma, every chroma sample that covers one of its luma
 * samples. A rectangle that is empty once clipped is ignored: a malformed
 * meta must not turn the filter off. */
static void
gst_cl_epsilon_regions (GstClEpsilon * self, GstBuffer * inbuf,
    GstClRegion * regions)
{
  const GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (inbuf);
  guint i, x = 0, y = 0, w = 0, h = 0;

  if (crop) {
    x = MIN (crop->x, (guint) GST_VIDEO_INFO_WIDTH (info));
    y = MIN (crop->y, (guint) GST_VIDEO_INFO_HEIGHT (info));
    w = MIN (crop->width, GST_VIDEO_INFO_WIDTH (info) - x);
    h = MIN (crop->height, GST_VIDEO_INFO_HEIGHT (info) - y);
    GST_LOG_OBJECT (self, "crop meta %u,%u %ux%u: filtering %u,%u %ux%u",
        crop->x, crop->y, crop->width, crop->height, x, y, w, h);
    if (w == 0 || h == 0)
      crop = NULL;
  }

  for (i = 0; i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];
    GstClRegion *r = &regions[i];

    if (!crop) {
      *r = (GstClRegion) {
      0, 0, plane->width, plane->height};
    } else {
      r->x = x >> plane->wsub;
      r->y = y >> plane->hsub;
      r->width = ((x + w - 1) >> plane->wsub) - r->x + 1;
      r->height = ((y + h - 1) >> plane->hsub) - r->y + 1;
    }
  }
}

/* The planes no stage touches with @params, as a bit mask. */
static guint
untouched_planes (GstClEpsilon * self, const GstClEpsilonParams * params)
{
  guint i, mask = 0;

  for (i = 0; i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];

    if (plane->is_luma ? params->threshold == 0 && !params->have_kernel :
        params->chroma_threshold == 0)
      mask |= 1 << plane->index;
  }
  return mask;
}

/* Whether this frame's untouched planes can go downstream as a share of
 * the input's memory instead of a copy: both sides in system memory on a
 * host-unified device, downstream reads plane offsets from the video meta,
 * and the pool can share them (gst_cl_buffer_pool_can_share_planes()).
 * Luma is never untouched here (the element would be in passthrough), so
 * the filtered plane is always in the output's own memory. */
static gboolean
can_share_untouched (GstClEpsilon * self, const GstClEpsilonParams * params,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  guint mask = untouched_planes (self, params);

  return self->share_untouched_ok && mask != 0 && !(mask & 1) &&
      gst_cl_buffer_pool_can_share_planes (outbuf, inbuf,
      &GST_VIDEO_FILTER (self)->in_info, mask);
}

/* Copies the planes in @mask from @inbuf into @outbuf and waits for the
 * copies: the way back when a share that was planned could not be made. */
static gboolean
gst_cl_epsilon_copy_planes (GstClEpsilon * self, GstBuffer * inbuf,
    GstBuffer * outbuf, guint mask, GstClTransferStats * stats,
    GError ** error)
{
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  GstClFrame in, out;
  cl_int status;
  gboolean ok;
  guint i;

  if (!gst_cl_frame_open (&in, self->context, &vfilter->in_info, inbuf,
          GST_MAP_READ, error))
    return FALSE;
  if (!gst_cl_frame_open (&out, self->context, &vfilter->out_info, outbuf,
          GST_MAP_WRITE, error)) {
    gst_cl_frame_close (&in);
    return FALSE;
  }
  ok = TRUE;
  for (i = 0; ok && i < self->n_planes; i++) {
    const GstClPlane *plane = &self->planes[i];

    if (mask & (1 << plane->index))
      ok = gst_cl_copy_plane (self->context, &in.planes[plane->index],
          &out.planes[plane->index], plane->row_bytes, plane->height, stats,
          error);
  }
  status = clFinish (gst_cl_context_get_queue (self->context));
  if (ok && status != CL_SUCCESS)
    ok = gst_cl_set_error (error, status, "clFinish (plane copy)");
  gst_cl_frame_close (&out);
  gst_cl_frame_close (&in);
  return ok;
}

static GstFlowReturn
gst_cl_epsilon_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstClEpsilon *self = GST_CL_EPSILON (trans);
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (trans);
  GstClTransferStats stats = { 0, };
  GstClFrame in, out;
  gboolean in_open = FALSE, out_open = FALSE;
  GstClEpsilonParams params;
  GstClRegion regions[GST_VIDEO_MAX_PLANES];
  GstClKernels *kernels;
  GError *error = NULL;
  gint64 started = g_get_monotonic_time ();
  cl_int status;
  guint i;

  if (G_UNLIKELY (self->n_planes == 0))
    goto not_negotiated;

  /* The buffers first: one too small for its caps is refused before any
   * program is built or tuned for those caps. */
  if (!(in_open = gst_cl_frame_open (&in, self->context, &vfilter->in_info,
              inbuf, GST_MAP_READ, &error)))
    goto failed;
  if (!(out_open = gst_cl_frame_open (&out, self->context,
              &vfilter->out_info, outbuf, GST_MAP_WRITE, &error)))
    goto failed;
  if (!gst_cl_epsilon_snapshot (self, &params, &error))
    goto failed;
  if (!(kernels = gst_cl_epsilon_get_kernels (self,
              self->planes[0].bytes == 2, params.radius, &error)) ||
      !gst_cl_epsilon_prepare_launches (self, kernels, &params, &error))
    goto failed;
  gst_cl_epsilon_regions (self, inbuf, regions);
  params.share_untouched = can_share_untouched (self, &params, inbuf, outbuf);

  for (i = 0; i < self->n_planes; i++) {
    if (!gst_cl_epsilon_filter_plane (self, kernels, &self->planes[i],
            &regions[i], &params, &in, &out, &stats, &error))
      goto failed;
  }

  /* The frames stay open until every command on them has completed. */
  status = clFinish (gst_cl_context_get_queue (self->context));
  if (status != CL_SUCCESS) {
    gst_cl_set_error (&error, status, "clFinish (frame)");
    goto failed;
  }
  gst_cl_frame_close (&out);
  gst_cl_frame_close (&in);
  in_open = out_open = FALSE;
  /* filter_plane skipped the untouched planes: share them, or copy them
   * now if the share cannot be made after all. */
  if (params.share_untouched && !gst_cl_buffer_pool_share_planes (outbuf,
          inbuf, &vfilter->in_info, untouched_planes (self, &params))) {
    GST_WARNING_OBJECT (self, "sharing untouched planes failed, copying");
    if (!gst_cl_epsilon_copy_planes (self, inbuf, outbuf,
            untouched_planes (self, &params), &stats, &error))
      goto failed;
  }
  gst_cl_epsilon_count_frame (self, &params, &stats,
      gst_cl_events_take_ms (&self->events), started);
  return GST_FLOW_OK;

  /* ERRORS */
not_negotiated:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("transform before caps were set"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
failed:
  {
    /* Commands already enqueued may still use the frames' memory. */
    clFinish (gst_cl_context_get_queue (self->context));
    gst_cl_events_take_ms (&self->events);
    if (out_open)
      gst_cl_frame_close (&out);
    if (in_open)
      gst_cl_frame_close (&in);
    GST_CL_ELEMENT_ERROR_FROM_GERROR (self, error);
    return GST_FLOW_ERROR;
  }
}

/* ---- Properties ----------------------------------------------------------- */

/* Parses and stores a new kernel text; with the object lock held. A bad one
 * is logged and ignored, so that a typo never stops a running stream. */
static void
gst_cl_epsilon_set_kernel_locked (GstClEpsilon * self, const gchar * text)
{
  GstClConvKernel kernel;
  GError *error = NULL;

  if (text == NULL || text[strspn (text, " \t\r\n")] == '\0') {
    self->have_kernel = FALSE;
    g_free (self->kernel_text);
    self->kernel_text = g_strdup ("");
    return;
  }

  if (!gst_cl_conv_kernel_parse (text, &kernel, &error)) {
    GST_WARNING_OBJECT (self, "Ignoring kernel \"%.64s%s\": %s; keeping \"%s\"",
        text, strlen (text) > 64 ? "..." : "", error->message,
        self->kernel_text);
    g_clear_error (&error);
    return;
  }

  self->kernel = kernel;
  self->have_kernel = TRUE;
  self->separable = gst_cl_conv_kernel_factor (&kernel, self->column,
      self->row);
  self->kernel_cookie++;
  if (self->kernel_cookie == 0)         /* 0 means "nothing uploaded" */
    self->kernel_cookie = 1;
  g_free (self->kernel_text);
  self->kernel_text = g_strdup (text);
}

static void
gst_cl_epsilon_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);
  gdouble d;
  guint u;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      self->threshold = g_value_get_uint (value);
      break;
    case PROP_WINDOW_SIZE:
      u = g_value_get_uint (value);
      if (u % 2 == 1)
        self->window_size = u;
      else
        GST_WARNING_OBJECT (self, "Ignoring window-size %u: it must be odd; "
            "keeping %u", u, self->window_size);
      break;
    case PROP_CHROMA_THRESHOLD:
      self->chroma_threshold = g_value_get_uint (value);
      break;
    case PROP_KERNEL:
      gst_cl_epsilon_set_kernel_locked (self, g_value_get_string (value));
      break;
    case PROP_DIVISOR:
      d = g_value_get_double (value);
      if (isnan (d) || (d != 0.0 && fabs (d) < MIN_ABS_DIVISOR))
        GST_WARNING_OBJECT (self, "Ignoring divisor %g: it must be 0 or at "
            "least %g in magnitude; keeping %g", d, MIN_ABS_DIVISOR,
            self->divisor);
      else
        self->divisor = d;
      break;
    case PROP_BIAS:
      d = g_value_get_double (value);
      if (isnan (d))
        GST_WARNING_OBJECT (self, "Ignoring bias NaN; keeping %g", self->bias);
      else
        self->bias = d;
      break;
    case PROP_DEVICE:
      /* Set from code, a string need not be text: the device is chosen
       * by matching names, which only text can do. */
      if (g_value_get_string (value) &&
          !g_utf8_validate (g_value_get_string (value), -1, NULL)) {
        GST_WARNING_OBJECT (self, "Ignoring a device that is not valid "
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
        GST_WARNING_OBJECT (self, "Ignoring epsilon-variant separable: only "
            "convolutions separate; keeping %s",
            gst_cl_variant_to_string (self->epsilon_variant));
      else
        self->epsilon_variant = u;
      break;
    case PROP_CONVOLUTION_VARIANT:
      self->conv_variant = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static GstStructure *
gst_cl_epsilon_stats_locked (GstClEpsilon * self)
{
  return gst_structure_new ("application/x-clepsilon-stats",
      "frames", G_TYPE_UINT64, self->stats.frames,
      "zero-copy-frames", G_TYPE_UINT64, self->stats.zero_copy_frames,
      "host-copy-bytes", G_TYPE_UINT64, self->stats.totals.host_copy_bytes,
      "upload-bytes", G_TYPE_UINT64, self->stats.totals.upload_bytes,
      "download-bytes", G_TYPE_UINT64, self->stats.totals.download_bytes,
      "device-copy-bytes", G_TYPE_UINT64,
      self->stats.totals.device_copy_bytes,
      "device-ms", G_TYPE_DOUBLE, self->stats.device_ms,
      "transform-ms", G_TYPE_DOUBLE, self->stats.transform_ms,
      "memory-path", G_TYPE_STRING,
      self->stats.memory_path ? self->stats.memory_path : "none",
      "epsilon-launch", G_TYPE_STRING, self->stats.epsilon_launch[0] ?
      self->stats.epsilon_launch : "none",
      "convolution-launch", G_TYPE_STRING, self->stats.conv_launch[0] ?
      self->stats.conv_launch : "none",
      "programs-compiled", G_TYPE_UINT, self->stats.programs_compiled,
      "programs-cached", G_TYPE_UINT, self->stats.programs_cached,
      "tuning-runs", G_TYPE_UINT, self->stats.tuning_runs,
      "build-ms", G_TYPE_DOUBLE, self->stats.build_ms,
      "tuning-ms", G_TYPE_DOUBLE, self->stats.tuning_ms, NULL);
}

static void
gst_cl_epsilon_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClEpsilon *self = GST_CL_EPSILON (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      g_value_set_uint (value, self->threshold);
      break;
    case PROP_WINDOW_SIZE:
      g_value_set_uint (value, self->window_size);
      break;
    case PROP_CHROMA_THRESHOLD:
      g_value_set_uint (value, self->chroma_threshold);
      break;
    case PROP_KERNEL:
      g_value_set_string (value, self->kernel_text);
      break;
    case PROP_DIVISOR:
      g_value_set_double (value, self->divisor);
      break;
    case PROP_BIAS:
      g_value_set_double (value, self->bias);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, self->device_name);
      break;
    case PROP_EPSILON_VARIANT:
      g_value_set_enum (value, self->epsilon_variant);
      break;
    case PROP_CONVOLUTION_VARIANT:
      g_value_set_enum (value, self->conv_variant);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_cl_epsilon_stats_locked (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}
