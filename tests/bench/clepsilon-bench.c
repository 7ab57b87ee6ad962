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

/* clepsilon-bench: how fast clepsilon filters frames, against a passthrough
 * baseline (identity) and GStreamer's CPU epsilon filter (smooth), on the same
 * frames in the same run.
 *
 * Frames are made once, before anything is timed: a ring of --ring distinct
 * frames (a synthetic picture with edges, fine detail and noise, moving a
 * little from frame to frame; or plain noise), from a fixed seed. Each
 * contender is a pipeline `appsrc ! ELEMENT ! appsink`. In every batch a
 * feeding thread pushes --frames ring frames into appsrc (whose queue has no
 * limit) while this thread pulls as many outputs from appsink; the batch's
 * wall time over its frames is one sample, and the median over --repeat
 * batches is what is reported. Batches of the contenders are interleaved
 * (batch 1 of each, then batch 2 of each, ...) so that the machine's noise
 * spreads over all of them.
 *
 * Memory as in a real pipeline, without its costs: where the element offers
 * a buffer pool (clepsilon offers its OpenCL buffers), the ring is copied once
 * into --ring buffers of that pool, and each is mapped for writing before it
 * is pushed again, as the upstream element that filled it would have done;
 * every output is mapped and read, as a downstream element would. A discrete
 * GPU's driver may otherwise keep host-visible buffers on the device and skip
 * transfers that a real pipeline pays. --input=system pushes system memory;
 * --no-write-input and --no-read-output show what skipping those costs.
 *
 * Printed per contender: median, min and max ms per frame, fps, the median
 * minus identity's (the element's own cost), and for clepsilon its stats
 * property over the timed frames (warm-up excluded); at the end, the ratios.
 * --csv appends one line per contender to a file, for
 * tests/bench/bench-table.sh.
 *
 * Only GStreamer core, base plugins and this plugin are needed; smooth
 * (gst-plugins-bad) is skipped with a message where it is missing, and
 * clepsilon is looked for in its build (../../gst) when GST_PLUGIN_PATH
 * does not lead to it. The earlier positional form still works:
 * `clepsilon-bench FORMAT WIDTH HEIGHT FRAMES [PROPERTIES...]` is
 * `--format --width --height --frames --clepsilon="PROPERTIES..." --no-smooth`.
 * Examples:
 *   clepsilon-bench --format=I420 --clepsilon="threshold=20 window-size=9"
 *   clepsilon-bench --format=NV12 --width=3840 --height=2160 \
 *       --clepsilon="device=nvidia threshold=20" --frames=300 --no-smooth
 *   clepsilon-bench --format=GRAY8 --no-smooth \
 *       --clepsilon='threshold=0 kernel="1 4 6 4 1; 4 16 24 16 4; ..."'
 */

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum
{
  KIND_BASELINE,                /* identity */
  KIND_CLEPSILON,               /* the first one is "the" clepsilon */
  KIND_OTHER                    /* smooth */
} ContenderKind;

typedef struct
{
  gchar *name;                  /* "clepsilon threshold=20 window-size=9" */
  const gchar *factory;
  gchar *props;
  ContenderKind kind;
  gint frames, repeat, warmup;

  GstElement *pipeline, *src, *filter, *sink;
  GstBufferPool *pool;
  GstBuffer **ring;             /* the shared ring, where no pool is used */
  const gchar *input;
  guint64 pushed, pulled;
  guint8 *sequence;             /* ring frame of each push, in push order */
  guint64 n_sequence;
  gdouble *ms;                  /* ms per frame of each batch */
  gint batches;
  GstStructure *stats0, *stats1;
  gchar *device_name;
  gchar *failed;                /* why it stopped, NULL while it runs */
  gchar *skipped;               /* why it never ran */
  gboolean dump_output;
  guint dumped;                 /* bit k: the output of ring frame k is out */
  gdouble median, min, max;
} Contender;

/* Options. */
static gchar *opt_format = (gchar *) "I420";
static gint opt_width = 1920, opt_height = 1080;
static gint opt_frames = 30, opt_warmup = 5, opt_repeat = 5, opt_ring = 8;
static gint opt_smooth_frames = 3, opt_smooth_repeat = 3;
static gint opt_seed = 1, opt_noise = 6;
static gchar *opt_pattern = (gchar *) "scene";
static gchar *opt_input = (gchar *) "pool";
static gchar *opt_clepsilon = (gchar *) "threshold=20 window-size=9";
static gchar **opt_extra = NULL;
static gchar **opt_smooth = NULL;
static gboolean opt_no_smooth = FALSE, opt_concurrent = FALSE;
static gchar *opt_csv = NULL, *opt_label = NULL;
static gchar *opt_dump_input = NULL, *opt_dump_output = NULL;
static gdouble opt_timeout = 120.0;
static gboolean opt_read_output = TRUE, opt_write_input = TRUE;
static gboolean opt_downstream_meta = TRUE;

/* The smooth element's window is 2 * filter-size + 1 samples wide (and two
 * rows taller), and it averages samples strictly closer than tolerance: this
 * is the same work as clepsilon's default 9x9 window at threshold 20. */
#define DEFAULT_SMOOTH "filter-size=4 tolerance=21"

static GOptionEntry entries[] = {
  {"format", 'f', 0, G_OPTION_ARG_STRING, &opt_format,
      "Video format: I420, NV12, YV12, NV21, GRAY8, Y444, Y42B, "
        "I420_10LE, P010_10LE... " "(default I420)", "FMT"},
  {"width", 0, 0, G_OPTION_ARG_INT, &opt_width, "Width (default 1920)",
      "N"},
  {"height", 0, 0, G_OPTION_ARG_INT, &opt_height, "Height (default 1080)",
      "N"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt_frames,
      "Frames per timed batch (default 30)", "N"},
  {"warmup", 0, 0, G_OPTION_ARG_INT, &opt_warmup,
      "Untimed frames first, start-up included (default 5)", "N"},
  {"repeat", 'r', 0, G_OPTION_ARG_INT, &opt_repeat,
      "Timed batches; the median is reported (default 5)", "N"},
  {"ring", 0, 0, G_OPTION_ARG_INT, &opt_ring,
      "Distinct frames made and pushed in turn, 1-255 (default 8)", "N"},
  {"seed", 0, 0, G_OPTION_ARG_INT, &opt_seed, "Seed of the frames (default 1)",
      "N"},
  {"pattern", 0, 0, G_OPTION_ARG_STRING, &opt_pattern,
      "scene (edges, detail and noise; default) or random", "P"},
  {"noise", 0, 0, G_OPTION_ARG_INT, &opt_noise,
      "Noise amplitude of the scene, in levels (default 6)", "N"},
  {"input", 0, 0, G_OPTION_ARG_STRING, &opt_input,
        "pool (the element's pool where it offers one; default) or system",
      "I"},
  {"clepsilon", 'c', 0, G_OPTION_ARG_STRING, &opt_clepsilon,
        "clepsilon's properties (default \"threshold=20 window-size=9\")",
      "\"PROP=VAL ...\""},
  {"extra", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &opt_extra,
      "Another clepsilon contender: these properties on top of --clepsilon's "
        "(repeatable)", "\"PROP=VAL ...\""},
  {"smooth", 's', 0, G_OPTION_ARG_STRING_ARRAY, &opt_smooth,
      "A smooth contender with these properties (repeatable; default "
        "\"" DEFAULT_SMOOTH "\", I420 only)", "\"PROP=VAL ...\""},
  {"concurrent", 0, 0, G_OPTION_ARG_NONE, &opt_concurrent,
      "Run the clepsilon contenders' batches at the same time, one thread "
        "each (e.g. one per GPU: --extra=\"device=1\"), and report their "
        "aggregate frames per second", NULL},
  {"no-smooth", 0, 0, G_OPTION_ARG_NONE, &opt_no_smooth,
      "No smooth contender", NULL},
  {"smooth-frames", 0, 0, G_OPTION_ARG_INT, &opt_smooth_frames,
      "Frames per batch for smooth, which is slow (default 3)", "N"},
  {"smooth-repeat", 0, 0, G_OPTION_ARG_INT, &opt_smooth_repeat,
      "Batches for smooth (default 3)", "N"},
  {"csv", 0, 0, G_OPTION_ARG_FILENAME, &opt_csv,
      "Append one line per contender to FILE (header if it is new)", "FILE"},
  {"label", 0, 0, G_OPTION_ARG_STRING, &opt_label,
      "Case name for the CSV lines", "TEXT"},
  {"dump-input", 0, 0, G_OPTION_ARG_FILENAME, &opt_dump_input,
      "Write the ring frames as raw video (planes packed) to FILE", "FILE"},
  {"dump-output", 0, 0, G_OPTION_ARG_FILENAME, &opt_dump_output,
      "Write the first clepsilon's outputs of the ring frames (32 at most), "
        "in ring order, to FILE", "FILE"},
  {"no-read-output", 0, G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE,
        &opt_read_output,
      "Do not map the outputs (by default every output is mapped and read, "
        "as a downstream element would)", NULL},
  {"no-downstream-meta", 0, G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE,
        &opt_downstream_meta,
      "appsink does not take GstVideoMeta (by default it does, as an "
        "encoder or videoconvert downstream would)", NULL},
  {"no-write-input", 0, G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE,
        &opt_write_input,
      "Push pool buffers without mapping them for writing first (by "
        "default each is, as if upstream had just filled it)", NULL},
  {"timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_timeout,
        "Seconds without output before a contender is given up (default 120)",
      "S"},
  {NULL}
};

/* Frames. */

static guint32 rng;

static inline guint32
next_random (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

/* Triangular noise in -amp..amp. */
static inline gint
noise (gint amp)
{
  guint32 r = next_random ();

  return ((gint) (r & 0xff) + (gint) ((r >> 8) & 0xff) - 255) * amp / 255;
}

/* One picture in luma coordinates (x, y) of a w x h frame, k-th of the ring:
 * a gradient background, flat blocks with hard edges, a disc, fine stripes
 * and a checker board, panning 3 samples per frame. Returns component c. */
static gint
scene (gint c, gint x, gint y, gint w, gint h, gint k)
{
  gint xs = x + 3 * k;
  gint dx, dy, r;

  /* Fine vertical stripes, 4 samples wide. */
  if (y > h * 7 / 10 && y < h * 9 / 10 && xs % (w + 1) > w / 10
      && xs % (w + 1) < w * 4 / 10)
    return c == 0 ? ((xs / 4) & 1 ? 200 : 40) : 128;
  /* Checker board of 16-sample squares. */
  if (y > h / 10 && y < h * 3 / 10 && x > w * 6 / 10 && x < w * 9 / 10)
    return c == 0 ? (((x / 16) ^ (y / 16)) & 1 ? 230 : 20) : c == 1 ? 100 : 160;
  /* A disc. */
  dx = xs % (w + 1) - w * 7 / 10;
  dy = y - h * 6 / 10;
  r = h * 15 / 100;
  if ((gint64) dx * dx + (gint64) dy * dy < (gint64) r * r)
    return c == 0 ? 220 : c == 1 ? 60 : 200;
  /* Flat blocks. */
  if (y > h / 5 && y < h / 2 && xs % (w + 1) > w / 20
      && xs % (w + 1) < w * 3 / 10)
    return c == 0 ? 30 : c == 1 ? 150 : 110;
  if (y > h * 3 / 10 && y < h * 6 / 10 && x > w * 35 / 100 && x < w / 2)
    return c == 0 ? 160 : c == 1 ? 90 : 140;
  /* Background. */
  return c == 0 ? 60 + 120 * x / MAX (w, 1) + 40 * y / MAX (h, 1) :
      c == 1 ? 110 + 40 * y / MAX (h, 1) : 150 - 40 * x / MAX (w, 1);
}

static void
fill_frame (GstVideoFrame * frame, gint k)
{
  const GstVideoInfo *info = &frame->info;
  gboolean random = g_strcmp0 (opt_pattern, "random") == 0;
  guint c;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    guint8 *data = GST_VIDEO_FRAME_COMP_DATA (frame, c);
    gint stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, c);
    gint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c);
    gint cw = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
    gint ch = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
    gint ws = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, c);
    gint hs = GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, c);
    gint amp = c == 0 ? opt_noise : opt_noise / 2;
    /* 10-bit formats: the 8-bit picture times 4, at the format's shift */
    gboolean deep = GST_VIDEO_INFO_COMP_DEPTH (info, c) > 8;
    guint shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, c);
    gint x, y;

    for (y = 0; y < ch; y++) {
      guint8 *p = data + (gsize) y * stride;

      for (x = 0; x < cw; x++, p += pstride) {
        gint v = random ? (gint) (next_random () & 0xff) :
            scene (c, x << ws, y << hs, GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info), k) + noise (amp);
        if (deep)
          GST_WRITE_UINT16_LE (p, CLAMP (v, 0, 255) << 2 << shift);
        else
          *p = CLAMP (v, 0, 255);
      }
    }
  }
}

/* A buffer laid out as @info describes, at a page-aligned address (so that a
 * host-unified OpenCL device may use it in place), with a video meta. */
static GstBuffer *
new_frame (const GstVideoInfo * info)
{
  GstAllocationParams params = { 0, 4095, 0, 0 };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, &params);

  gst_buffer_memset (buf, 0, 0, info->size);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
  return buf;
}

/* Writes the frame's planes, rows packed, to @f (the layout FFmpeg's rawvideo
 * expects: for GRAY8 "gray", I420 "yuv420p", NV12 "nv12"). */
static gboolean
write_frame (FILE * f, GstVideoFrame * frame)
{
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint row, rows, bytes;

    gst_video_format_info_component (frame->info.finfo, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
    bytes = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
    for (row = 0; row < rows; row++)
      if (fwrite (data + (gsize) row * stride, 1, bytes, f) != (gsize) bytes)
        return FALSE;
  }
  return TRUE;
}

static GstBuffer **
make_ring (const GstVideoInfo * info)
{
  GstBuffer **ring = g_new0 (GstBuffer *, opt_ring);
  FILE *dump = NULL;
  gint k;

  if (opt_dump_input && !(dump = fopen (opt_dump_input, "wb")))
    g_printerr ("cannot write %s\n", opt_dump_input);
  rng = 2463534242u ^ (guint32) opt_seed *2654435761u;
  if (rng == 0)
    rng = 1;
  for (k = 0; k < opt_ring; k++) {
    GstVideoFrame frame;

    ring[k] = new_frame (info);
    gst_video_frame_map (&frame, info, ring[k], GST_MAP_WRITE);
    fill_frame (&frame, k);
    if (dump && !write_frame (dump, &frame))
      g_printerr ("short write to %s\n", opt_dump_input);
    gst_video_frame_unmap (&frame);
  }
  if (dump)
    fclose (dump);
  return ring;
}

/* Properties. */

/* Sets "NAME=VALUE ..." (shell quoting, so kernel="1 2 1" works) on @obj.
 * Every name must be a writable property and every value must parse; the
 * element may still refuse a value in its setter, which is reported when the
 * value read back differs. Returns FALSE with a message in @why. */
static gboolean
set_properties (GObject * obj, const gchar * props, gchar ** why)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (obj);
  const gchar *element = G_OBJECT_TYPE_NAME (obj);
  GError *error = NULL;
  gchar **argv = NULL;
  gint argc = 0, i;

  if (GST_IS_ELEMENT (obj) && gst_element_get_factory (GST_ELEMENT (obj)))
    element = GST_OBJECT_NAME (gst_element_get_factory (GST_ELEMENT (obj)));
  if (!props || !*props || strspn (props, " \t") == strlen (props))
    return TRUE;
  if (!g_shell_parse_argv (props, &argc, &argv, &error)) {
    *why = g_strdup_printf ("cannot read properties '%s': %s", props,
        error->message);
    g_error_free (error);
    return FALSE;
  }
  for (i = 0; i < argc; i++) {
    gchar *eq = strchr (argv[i], '=');
    GValue asked = G_VALUE_INIT, got = G_VALUE_INIT;
    GParamSpec *pspec;
    const gchar *value;
    gchar *name;

    if (!eq) {
      *why = g_strdup_printf ("'%s' is not PROPERTY=VALUE", argv[i]);
      goto fail;
    }
    name = g_strndup (argv[i], eq - argv[i]);
    value = eq + 1;
    pspec = g_object_class_find_property (klass, name);
    if (!pspec || !(pspec->flags & G_PARAM_WRITABLE)) {
      *why = g_strdup_printf ("%s has no%s property '%s' (this build of the "
          "element does not know it; gst-inspect-1.0 %s lists them)", element,
          pspec ? " writable" : "", name, element);
      g_free (name);
      goto fail;
    }
    g_value_init (&asked, pspec->value_type);
    if (!gst_value_deserialize_with_pspec (&asked, value, pspec)) {
      *why = g_strdup_printf ("%s: '%s' is not a valid %s for property '%s'",
          element, value, g_type_name (pspec->value_type), name);
      g_value_unset (&asked);
      g_free (name);
      goto fail;
    }
    gst_util_set_object_arg (obj, name, value);

    g_value_init (&got, pspec->value_type);
    g_object_get_property (obj, name, &got);
    /* A string may come back normalised: only an empty one is a refusal. */
    if (G_VALUE_HOLDS_STRING (&got) ? *value && (!g_value_get_string (&got)
            || !*g_value_get_string (&got)) :
        gst_value_compare (&asked, &got) != GST_VALUE_EQUAL) {
      gchar *now = gst_value_serialize (&got);

      g_printerr ("warning: %s did not take %s=%s (it holds %s); see its "
          "debug log (GST_DEBUG=%s:4)\n", element, name, value, now, element);
      g_free (now);
    }
    g_value_unset (&asked);
    g_value_unset (&got);
    g_free (name);
  }
  g_strfreev (argv);
  return TRUE;

fail:
  g_strfreev (argv);
  return FALSE;
}

/* Statistics. */

static int
compare_doubles (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

/* The median of @n values (mean of the middle two for an even count). */
static gdouble
median (const gdouble * v, gint n)
{
  gdouble *s;
  gdouble m;

  if (n <= 0)
    return NAN;
  s = g_new (gdouble, n);
  memcpy (s, v, n * sizeof (gdouble));
  qsort (s, n, sizeof (gdouble), compare_doubles);
  m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  g_free (s);
  return m;
}

typedef struct
{
  const GstStructure *before;
  GstStructure *delta;
  /* the frames counted in the two readings, for the means a frame */
  gdouble frames_before, frames_after;
  gboolean all_means;           /* every double is a mean a frame */
} DeltaData;

static GstStructure *stats_delta_frames (const GstStructure * before,
    const GstStructure * after, gdouble frames_before, gdouble frames_after,
    gboolean all_means);

/* A mean a frame over the frames between the two readings: its total
 * (mean times frames) gained, over the frames gained. Subtracting the two
 * means gives nothing meaningful (and negative figures). */
static gdouble
delta_mean (const DeltaData * d, gdouble before, gdouble after)
{
  gdouble frames = d->frames_after - d->frames_before;

  if (frames <= 0)
    return 0;
  return (after * d->frames_after - before * d->frames_before) / frames;
}

static gboolean
delta_field (GQuark field, const GValue * value, gpointer user_data)
{
  DeltaData *d = user_data;
  const GValue *old = gst_structure_id_get_value (d->before, field);

  /* a figure in force, not a count: as it is in @after */
  if (field == g_quark_from_static_string ("auto-threshold"))
    old = NULL;
  if (old && G_VALUE_TYPE (old) == G_VALUE_TYPE (value)) {
    if (G_VALUE_HOLDS_UINT64 (value)) {
      gst_structure_id_set (d->delta, field, G_TYPE_UINT64,
          g_value_get_uint64 (value) - g_value_get_uint64 (old), NULL);
      return TRUE;
    }
    if (G_VALUE_HOLDS_DOUBLE (value)) {
      gdouble a = g_value_get_double (value), b = g_value_get_double (old);

      gst_structure_id_set (d->delta, field, G_TYPE_DOUBLE,
          d->all_means || g_str_has_suffix (g_quark_to_string (field),
              "-per-frame") ? delta_mean (d, b, a) : a - b, NULL);
      return TRUE;
    }
    if (G_VALUE_HOLDS_UINT (value)) {
      gst_structure_id_set (d->delta, field, G_TYPE_UINT,
          g_value_get_uint (value) - g_value_get_uint (old), NULL);
      return TRUE;
    }
    if (G_VALUE_HOLDS_INT (value)) {
      gst_structure_id_set (d->delta, field, G_TYPE_INT,
          g_value_get_int (value) - g_value_get_int (old), NULL);
      return TRUE;
    }
    if (GST_VALUE_HOLDS_STRUCTURE (value) &&
        field == g_quark_from_static_string ("host-waits")) {
      /* every cause's ms a frame, a mean each */
      GstStructure *sub = stats_delta_frames (gst_value_get_structure (old),
          gst_value_get_structure (value), d->frames_before,
          d->frames_after, TRUE);

      gst_structure_id_set (d->delta, field, GST_TYPE_STRUCTURE, sub, NULL);
      gst_structure_free (sub);
      return TRUE;
    }
  }
  gst_structure_id_set_value (d->delta, field, value);
  return TRUE;
}

/* stats_delta(), with the frames of each reading given; @all_means: every
 * double of the structures is a mean a frame. */
static GstStructure *
stats_delta_frames (const GstStructure * before, const GstStructure * after,
    gdouble frames_before, gdouble frames_after, gboolean all_means)
{
  DeltaData d = { before, gst_structure_new_empty (gst_structure_get_name
        (after)), frames_before, frames_after, all_means
  };

  gst_structure_foreach (after, delta_field, &d);
  return d.delta;
}

/* What the counters of a stats structure gained between two readings, and
 * its means a frame ("...-per-frame", "host-waits") over the frames
 * between them; fields that are not counts (memory-path, auto-threshold)
 * as they are in @after. */
static GstStructure *
stats_delta (const GstStructure * before, const GstStructure * after)
{
  guint64 frames_before = 0, frames_after = 0;

  gst_structure_get_uint64 (before, "frames", &frames_before);
  gst_structure_get_uint64 (after, "frames", &frames_after);
  return stats_delta_frames (before, after, frames_before, frames_after, FALSE);
}

/* A numeric field of @s as a double, or NAN when it has none. */
static gdouble
stats_number (const GstStructure * s, const gchar * field)
{
  const GValue *v = s ? gst_structure_get_value (s, field) : NULL;

  if (!v)
    return NAN;
  if (G_VALUE_HOLDS_UINT64 (v))
    return g_value_get_uint64 (v);
  if (G_VALUE_HOLDS_DOUBLE (v))
    return g_value_get_double (v);
  if (G_VALUE_HOLDS_UINT (v))
    return g_value_get_uint (v);
  if (G_VALUE_HOLDS_INT (v))
    return g_value_get_int (v);
  return NAN;
}

/* Running one contender. */

static void
fail (Contender * c, gchar * why)
{
  if (!c->failed)
    c->failed = why;
  else
    g_free (why);
}

/* An error or warning on the bus, if any: the contender fails on an error. */
static void
check_bus (Contender * c)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (c->pipeline),
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GError *error = NULL;
    gchar *debug = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &error, &debug);
      fail (c, g_strdup_printf ("%s: %s (%s)", GST_OBJECT_NAME (msg->src),
              error->message, debug ? debug : "no details"));
    } else {
      gst_message_parse_warning (msg, &error, &debug);
      g_printerr ("warning from %s: %s\n", GST_OBJECT_NAME (msg->src),
          error->message);
    }
    g_clear_error (&error);
    g_free (debug);
    gst_message_unref (msg);
  }
}

/* Bytes of one frame as write_frame() writes it. */
static gsize
packed_size (const GstVideoInfo * info)
{
  gsize size = 0;
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, p, comp);
    size += (gsize) GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]) *
        GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
  }
  return size;
}

/* Writes the output of ring frame @k to its place in the --dump-output file
 * (frame k at k frames from the start), once. */
static void
dump_output (Contender * c, GstSample * sample, guint k)
{
  static FILE *f = NULL;
  GstVideoInfo info;
  GstVideoFrame frame;

  if (k >= 32 || (c->dumped & (1u << k)))
    return;
  if (!f && !(f = fopen (opt_dump_output, "wb"))) {
    g_printerr ("cannot write %s\n", opt_dump_output);
    c->dump_output = FALSE;
    return;
  }
  if (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) &&
      gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample),
          GST_MAP_READ)) {
    fseek (f, (long) (k * packed_size (&info)), SEEK_SET);
    write_frame (f, &frame);
    gst_video_frame_unmap (&frame);
  }
  c->dumped |= 1u << k;
  if (c->dumped == (opt_ring >= 32 ? G_MAXUINT : (1u << opt_ring) - 1)) {
    /* All of the ring (its first 32 frames at most). */
    fclose (f);
    f = NULL;
    c->dump_output = FALSE;
  }
}

static GQuark
ring_quark (void)
{
  return g_quark_from_static_string ("clepsilon-bench-ring-frame");
}

/* Remembers which ring frame the next push holds, so that the output pulled
 * in its turn is known to be that frame's (for --dump-output). */
static void
note_input (Contender * c, guint k)
{
  if (c->pushed < c->n_sequence)
    c->sequence[c->pushed] = k;
}

/* The next input: a reference to a shared ring frame; or, with the element's
 * pool, one of its buffers (they hold the ring frames), mapped for writing
 * as the upstream element that filled it would have done. That keeps the
 * benchmark honest on a discrete GPU: a driver may keep a device copy of a
 * host-visible buffer and skip an upload when the host never wrote to it
 * since. NULL when the pool is flushing (the contender failed). */
static GstBuffer *
next_input (Contender * c)
{
  GstBuffer *buf = NULL;
  GstMapInfo map;
  guint i;

  if (!c->pool) {
    note_input (c, c->pushed % opt_ring);
    return gst_buffer_ref (c->ring[c->pushed % opt_ring]);
  }
  if (gst_buffer_pool_acquire_buffer (c->pool, &buf, NULL) != GST_FLOW_OK)
    return NULL;
  note_input (c, GPOINTER_TO_UINT (gst_mini_object_get_qdata
          (GST_MINI_OBJECT (buf), ring_quark ())) - 1);
  for (i = 0; opt_write_input && i < gst_buffer_n_memory (buf); i++)
    if (gst_buffer_map_range (buf, i, 1, &map, GST_MAP_WRITE))
      gst_buffer_unmap (buf, &map);
  return buf;
}

typedef struct
{
  Contender *c;
  gint n;
} FeedJob;

/* The feeding thread: pushes the batch's frames into appsrc, as far ahead
 * as the pool's buffers allow (all at once without a pool). */
static gpointer
feed (gpointer data)
{
  FeedJob *job = data;
  gint i;

  for (i = 0; i < job->n; i++) {
    GstBuffer *buf = next_input (job->c);

    if (!buf || gst_app_src_push_buffer (GST_APP_SRC (job->c->src),
            buf) != GST_FLOW_OK)
      break;
    job->c->pushed++;
  }
  return NULL;
}

/* appsink answers the ALLOCATION query taking GstVideoMeta, as encoders and
 * videoconvert do: planes may then sit anywhere in the buffer. */
static GstPadProbeReturn
take_video_meta (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);

  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION &&
      !gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return GST_PAD_PROBE_OK;
}

/* Reads every output as a downstream element would: maps each memory and
 * touches every page (a device whose output lands in host memory only when
 * read pays for it here). */
static void
read_output (GstBuffer * buf)
{
  volatile guint8 sink = 0;
  GstMapInfo map;
  guint i;
  gsize k;

  for (i = 0; i < gst_buffer_n_memory (buf); i++) {
    if (!gst_buffer_map_range (buf, i, 1, &map, GST_MAP_READ))
      continue;
    for (k = 0; k < map.size; k += 4096)
      sink ^= map.data[k];
    gst_buffer_unmap (buf, &map);
  }
  (void) sink;
}

static gdouble run_frames (Contender * c, gint n);

/* One clepsilon contender's batch, in a thread of its own. */
static gpointer
concurrent_batch (gpointer data)
{
  Contender *c = data;
  gdouble s = run_frames (c, c->frames);

  if (s >= 0)
    c->ms[c->batches++] = s * 1e3 / c->frames;
  else
    g_printerr ("%s: failed: %s\n", c->name, c->failed);
  return NULL;
}

/* Batch @r of every clepsilon contender at once; returns their frames per
 * second together. */
static gdouble
run_concurrent (GPtrArray * list, gint r)
{
  GThread *threads[64];
  gint64 start = g_get_monotonic_time ();
  gint i, n = 0, frames = 0;

  for (i = 0; i < (gint) list->len && n < 64; i++) {
    Contender *c = g_ptr_array_index (list, i);

    if (c->kind != KIND_CLEPSILON || c->skipped || c->failed || r >= c->repeat)
      continue;
    frames += c->frames;
    threads[n++] = g_thread_new ("batch", concurrent_batch, c);
  }
  for (i = 0; i < n; i++)
    g_thread_join (threads[i]);
  return frames / ((g_get_monotonic_time () - start) / 1e6);
}

/* Pushes @n frames from a feeding thread and pulls @n outputs here; returns
 * the wall time in seconds, or a negative number when the contender failed. */
static gdouble
run_frames (Contender * c, gint n)
{
  FeedJob job = { c, n };
  gint64 start = g_get_monotonic_time ();
  GThread *feeder = g_thread_new ("feed", feed, &job);
  gint got = 0;
  gdouble seconds;

  while (got < n && !c->failed) {
    GstSample *sample = NULL;
    gint64 waited = g_get_monotonic_time ();

    while (!sample && !c->failed) {
      sample = gst_app_sink_try_pull_sample (GST_APP_SINK (c->sink),
          100 * GST_MSECOND);
      if (sample)
        break;
      check_bus (c);
      if (!c->failed && gst_app_sink_is_eos (GST_APP_SINK (c->sink)))
        fail (c, g_strdup ("end of stream before all outputs came"));
      if (!c->failed
          && g_get_monotonic_time () - waited > opt_timeout * G_USEC_PER_SEC)
        fail (c, g_strdup_printf ("no output for %.0f s", opt_timeout));
    }
    if (!sample)
      break;
    if (opt_read_output)
      read_output (gst_sample_get_buffer (sample));
    if (c->dump_output && c->pulled < c->n_sequence)
      dump_output (c, sample, c->sequence[c->pulled]);
    gst_sample_unref (sample);
    c->pulled++;
    got++;
  }
  seconds = (g_get_monotonic_time () - start) / 1e6;
  /* A failed contender's feeder may wait for a pool buffer: release it. */
  if (c->failed && c->pool)
    gst_buffer_pool_set_flushing (c->pool, TRUE);
  g_thread_join (feeder);
  return c->failed ? -1 : seconds;
}

static GstStructure *
get_stats (Contender * c)
{
  GstStructure *s = NULL;

  if (c->kind == KIND_CLEPSILON
      && g_object_class_find_property (G_OBJECT_GET_CLASS (c->filter), "stats"))
    g_object_get (c->filter, "stats", &s, NULL);
  return s;
}

/* Where the element offers upstream a pool, makes it hold the ring: exactly
 * --ring buffers, each filled with one ring frame and given back, so that
 * next_input() finds ring frames in turn. Else the contender pushes the
 * shared system-memory ring. Needs caps negotiated (the allocation query is
 * answered only then). */
static void
use_upstream_pool (Contender * c, GstBuffer ** shared,
    const GstVideoInfo * info)
{
  GstPad *pad = gst_element_get_static_pad (c->src, "src");
  GstCaps *caps = gst_video_info_to_caps (info);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstBuffer **bufs = NULL;
  GstStructure *config;
  guint size = 0, min = 0, max = 0;
  gint k;

  c->ring = shared;
  c->input = "system";
  if (g_strcmp0 (opt_input, "pool") != 0)
    goto done;
  if (!gst_pad_peer_query (pad, query)
      || gst_query_get_n_allocation_pools (query) == 0)
    goto done;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (!pool)
    goto done;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, MAX (size, info->size),
      opt_ring, opt_ring);
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)
      || !gst_buffer_pool_set_active (pool, TRUE)) {
    g_printerr ("%s: its pool refused %d buffers; pushing system memory\n",
        c->name, opt_ring);
    gst_object_unref (pool);
    goto done;
  }
  bufs = g_new0 (GstBuffer *, opt_ring);
  for (k = 0; k < opt_ring; k++) {
    GstVideoFrame src, dst;

    if (gst_buffer_pool_acquire_buffer (pool, &bufs[k], NULL) != GST_FLOW_OK
        || !gst_video_frame_map (&dst, info, bufs[k], GST_MAP_WRITE)) {
      g_printerr ("%s: its pool gave no buffer; pushing system memory\n",
          c->name);
      while (k >= 0)
        gst_clear_buffer (&bufs[k--]);
      g_free (bufs);
      gst_buffer_pool_set_active (pool, FALSE);
      gst_object_unref (pool);
      goto done;
    }
    /* The pool keeps its buffers, and this mark on them, as they go round. */
    gst_mini_object_set_qdata (GST_MINI_OBJECT (bufs[k]), ring_quark (),
        GUINT_TO_POINTER (k + 1), NULL);
    gst_video_frame_map (&src, info, shared[k], GST_MAP_READ);
    gst_video_frame_copy (&dst, &src);
    gst_video_frame_unmap (&dst);
    gst_video_frame_unmap (&src);
  }
  for (k = 0; k < opt_ring; k++)
    gst_buffer_unref (bufs[k]);
  g_free (bufs);
  c->pool = pool;
  c->ring = NULL;
  c->input = "pool";

done:
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_object_unref (pad);
}

/* Builds the pipeline, sets its properties, starts it and runs the warm-up
 * frames (start-up and the first frame included), untimed. */
static void
start_contender (Contender * c, GstBuffer ** shared, const GstVideoInfo * info)
{
  GstCaps *caps;
  gchar *why = NULL;

  c->filter = gst_element_factory_make (c->factory, NULL);
  if (!c->filter) {
    c->skipped = g_strdup_printf ("no element '%s'%s", c->factory,
        c->kind == KIND_OTHER ? " (install gstreamer1.0-plugins-bad)" :
        c->kind == KIND_CLEPSILON ? " (set GST_PLUGIN_PATH to the folder "
        "of libgstclfilters.so)" : "");
    return;
  }
  gst_object_ref_sink (c->filter);
  if (!set_properties (G_OBJECT (c->filter), c->props, &why)) {
    c->skipped = why;
    return;
  }

  c->pipeline = gst_pipeline_new (NULL);
  c->src = gst_element_factory_make ("appsrc", NULL);
  c->sink = gst_element_factory_make ("appsink", NULL);
  caps = gst_video_info_to_caps (info);
  g_object_set (c->src, "caps", caps, "format", GST_FORMAT_TIME,
      "is-live", FALSE, "block", FALSE, "max-bytes", (guint64) 0,
      "max-buffers", (guint64) 0, "max-time", (guint64) 0, NULL);
  gst_caps_unref (caps);
  /* A few outputs waiting at most, as downstream elements hold (an encoder,
   * a queue of 10 MB): frames in flight must not outrun the reader, which
   * would only make the pool allocate ever more buffers. */
  g_object_set (c->sink, "sync", FALSE, "max-buffers", 4, "drop", FALSE,
      "enable-last-sample", FALSE, "qos", FALSE, NULL);
  if (opt_downstream_meta) {
    GstPad *pad = gst_element_get_static_pad (c->sink, "sink");

    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
        take_video_meta, NULL, NULL);
    gst_object_unref (pad);
  }
  gst_bin_add_many (GST_BIN (c->pipeline), c->src, c->filter, c->sink, NULL);
  if (!gst_element_link_many (c->src, c->filter, c->sink, NULL)) {
    c->skipped = g_strdup_printf ("%s does not link with %s caps",
        c->factory, GST_VIDEO_INFO_NAME (info));
    return;
  }
  if (gst_element_set_state (c->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    check_bus (c);
    fail (c, g_strdup ("the pipeline did not start"));
    return;
  }

  /* One frame in system memory negotiates caps, then the pool is asked. */
  c->ring = shared;
  c->input = "system";
  if (run_frames (c, 1) < 0)
    return;
  use_upstream_pool (c, shared, info);
  if (c->warmup > 1 && run_frames (c, c->warmup - 1) < 0)
    return;
  if (c->kind == KIND_CLEPSILON)
    g_object_get (c->filter, "device-name", &c->device_name, NULL);
  c->stats0 = get_stats (c);
}

static void
stop_contender (Contender * c)
{
  if (c->pipeline) {
    gst_element_set_state (c->pipeline, GST_STATE_NULL);
    gst_object_unref (c->pipeline);
  }
  if (c->pool) {
    gst_buffer_pool_set_active (c->pool, FALSE);
    gst_object_unref (c->pool);
  }
  gst_clear_object (&c->filter);
}

static Contender *
add_contender (GPtrArray * list, ContenderKind kind, const gchar * factory,
    const gchar * props)
{
  Contender *c = g_new0 (Contender, 1);

  c->kind = kind;
  c->factory = factory;
  c->props = g_strstrip (g_strdup (props ? props : ""));
  c->name = *c->props ? g_strdup_printf ("%s %s", factory, c->props) :
      g_strdup (factory);
  c->frames = kind == KIND_OTHER ? opt_smooth_frames : opt_frames;
  c->repeat = kind == KIND_OTHER ? opt_smooth_repeat : opt_repeat;
  c->warmup = kind == KIND_OTHER ? 1 : MAX (opt_warmup, 1);
  c->ms = g_new0 (gdouble, c->repeat);
  c->n_sequence = (guint64) c->warmup + (guint64) c->repeat * c->frames + 1;
  c->sequence = g_new0 (guint8, c->n_sequence);
  g_ptr_array_add (list, c);
  return c;
}

static gboolean
ran (const Contender * c)
{
  return c && !c->skipped && !c->failed && c->batches > 0;
}

/* Output. */

static void
print_stats (const Contender * c)
{
  GstStructure *d;
  gchar *text;
  gdouble frames, per;

  if (!c->stats0 || !c->stats1)
    return;
  d = stats_delta (c->stats0, c->stats1);
  frames = stats_number (d, "frames");
  text = gst_structure_to_string (d);
  g_print ("    stats over the timed frames: %s\n", text);
  g_free (text);
  if (frames > 0) {
    g_print ("    per frame:");
    if (!isnan (per = stats_number (d, "device-ms")))
      g_print (" kernels %.3f ms,", per / frames);
    if (!isnan (per = stats_number (d, "transform-ms")))
      g_print (" in the element %.3f ms,", per / frames);
    g_print (" host copy %.0f B, upload %.0f B, download %.0f B\n",
        stats_number (d, "host-copy-bytes") / frames,
        stats_number (d, "upload-bytes") / frames,
        stats_number (d, "download-bytes") / frames);
  }
  gst_structure_free (d);
}

static void
print_ratio (const Contender * a, const Contender * b, const Contender * base)
{
  g_print ("  %s / %s: %.2fx", a->name, b->name, a->median / b->median);
  if (ran (base) && a->median > base->median && b->median > base->median)
    g_print (" (%.2fx net of identity)", (a->median - base->median) /
        (b->median - base->median));
  g_print ("\n");
}

/* The kernels the element ran for its last frame, from the stats fields
 * ending in "-launch" that say one ("epsilon tiled 32x8"), or "". */
static gchar *
launch_text (const GstStructure * s)
{
  GString *text = g_string_new (NULL);
  gint i;

  for (i = 0; s && i < gst_structure_n_fields (s); i++) {
    const gchar *field = gst_structure_nth_field_name (s, i);
    const gchar *value;

    if (!g_str_has_suffix (field, "-launch")
        || !(value = gst_structure_get_string (s, field))
        || !*value || g_strcmp0 (value, "none") == 0)
      continue;
    g_string_append_printf (text, "%s%.*s %s", text->len ? ", " : "",
        (gint) (strlen (field) - strlen ("-launch")), field, value);
  }
  return g_string_free (text, FALSE);
}

static void
csv_quote (FILE * f, const gchar * s)
{
  fputc ('"', f);
  for (; s && *s; s++) {
    if (*s == '"')
      fputc ('"', f);
    fputc (*s, f);
  }
  fputc ('"', f);
}

static void
write_csv (GPtrArray * list, const Contender * base)
{
  FILE *f = fopen (opt_csv, "a");
  guint i;

  if (!f) {
    g_printerr ("cannot append to %s\n", opt_csv);
    return;
  }
  if (ftell (f) == 0)
    fprintf (f, "label,format,width,height,contender,element,properties,"
        "input,frames,batches,median_ms,min_ms,max_ms,fps,minus_identity_ms,"
        "kernel_ms,element_ms,host_copy_bytes,upload_bytes,download_bytes,"
        "zero_copy_frames,timed_frames,memory_path,launch,device,status\n");
  for (i = 0; i < list->len; i++) {
    const Contender *c = g_ptr_array_index (list, i);
    GstStructure *d = c->stats0 && c->stats1 ?
        stats_delta (c->stats0, c->stats1) : NULL;
    gdouble frames = d ? stats_number (d, "frames") : NAN;
    gchar *launch;

    csv_quote (f, opt_label ? opt_label : "");
    fprintf (f, ",%s,%d,%d,", opt_format, opt_width, opt_height);
    csv_quote (f, c->name);
    fprintf (f, ",%s,", c->factory);
    csv_quote (f, c->props);
    fprintf (f, ",%s,%d,%d,", c->input ? c->input : "", c->frames, c->batches);
    if (ran (c)) {
      fprintf (f, "%.4f,%.4f,%.4f,%.3f,", c->median, c->min, c->max,
          1e3 / c->median);
      if (ran (base) && c != base)
        fprintf (f, "%.4f", c->median - base->median);
    } else {
      fprintf (f, ",,,,");
    }
    fputc (',', f);
    if (frames > 0) {
      gdouble v;
      const gchar *path = gst_structure_get_string (d, "memory-path");

      if (!isnan (v = stats_number (d, "device-ms")))
        fprintf (f, "%.4f", v / frames);
      fputc (',', f);
      if (!isnan (v = stats_number (d, "transform-ms")))
        fprintf (f, "%.4f", v / frames);
      fprintf (f, ",%.0f,%.0f,%.0f,%.0f,%.0f,%s,",
          stats_number (d, "host-copy-bytes") / frames,
          stats_number (d, "upload-bytes") / frames,
          stats_number (d, "download-bytes") / frames,
          stats_number (d, "zero-copy-frames"), frames, path ? path : "");
    } else {
      fprintf (f, ",,,,,,,,");
    }
    launch = launch_text (c->stats1);
    csv_quote (f, launch);
    g_free (launch);
    fputc (',', f);
    csv_quote (f, c->device_name ? c->device_name : "");
    fputc (',', f);
    csv_quote (f, c->skipped ? c->skipped : c->failed ? c->failed : "ok");
    fputc ('\n', f);
    if (d)
      gst_structure_free (d);
  }
  fclose (f);
}

/* Where GST_PLUGIN_PATH does not lead to clepsilon, the plugin of this
 * program's build (build/gst, this program being build/tests/bench's) is
 * registered. */
static void
find_plugin (const gchar * argv0)
{
  GstElementFactory *factory = gst_element_factory_find ("clepsilon");
  gchar *dir, *path;

  if (factory) {
    gst_object_unref (factory);
    return;
  }
  dir = g_path_get_dirname (argv0);
  path = g_build_filename (dir, "..", "..", "gst", NULL);
  g_free (dir);
  dir = path;
  path = g_canonicalize_filename (dir, NULL);
  gst_registry_scan_path (gst_registry_get (), path);
  g_free (path);
  g_free (dir);
}

/* The command line. */

/* The earlier command line, FORMAT WIDTH HEIGHT FRAMES [PROPERTIES...], in
 * @argv once the options are out: clepsilon against identity alone, FRAMES
 * frames per batch, each argument one PROPERTY=VALUE, spaces and all.
 * FALSE, said on stderr, for any other argument. */
static gboolean
parse_positional (gint argc, gchar ** argv)
{
  GString *props;
  gint i;

  if (argc > 1 && argc < 5) {
    g_printerr ("unexpected argument '%s' (see --help)\n", argv[1]);
    return FALSE;
  }
  if (argc < 5)
    return TRUE;
  opt_format = argv[1];
  opt_width = atoi (argv[2]);
  opt_height = atoi (argv[3]);
  opt_frames = atoi (argv[4]);
  opt_no_smooth = TRUE;
  if (argc == 5)
    return TRUE;
  props = g_string_new (NULL);
  for (i = 5; i < argc; i++) {
    const gchar *eq = strchr (argv[i], '=');
    gchar *quoted = !eq ? NULL : strpbrk (eq + 1, " \t'\"\\") ?
        g_shell_quote (eq + 1) : g_strdup (eq + 1);

    if (eq)
      g_string_append_printf (props, "%s%.*s=%s", i > 5 ? " " : "",
          (gint) (eq - argv[i]), argv[i], quoted);
    else
      g_string_append_printf (props, "%s%s", i > 5 ? " " : "", argv[i]);
    g_free (quoted);
  }
  opt_clepsilon = g_string_free (props, FALSE);
  return TRUE;
}

/* Parses the options (GStreamer's included) and the positional form out of
 * @argc and @argv; FALSE, said on stderr, where they are wrong. */
static gboolean
parse_options (gint * argc, gchar *** argv)
{
  GOptionContext *ctx;
  GError *error = NULL;

  ctx = g_option_context_new ("[FORMAT WIDTH HEIGHT FRAMES [PROPERTIES...]] "
      "- clepsilon against identity and smooth");
  g_option_context_set_summary (ctx, "Pushes the same pre-made frames "
      "through identity, clepsilon and smooth (appsrc ! ELEMENT ! appsink) "
      "and prints the median ms per frame of each, clepsilon's stats and the "
      "ratios.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, argc, argv, &error)) {
    g_printerr ("%s\n", error->message);
    return FALSE;
  }
  g_option_context_free (ctx);
  return parse_positional (*argc, *argv);
}

/* Checks the option values and sets @info to the frames they ask for;
 * FALSE, said on stderr, where one is out of range. */
static gboolean
check_options (GstVideoInfo * info)
{
  GstVideoFormat format = gst_video_format_from_string (opt_format);

  if (format == GST_VIDEO_FORMAT_UNKNOWN || opt_width < 1 || opt_height < 1
      || opt_frames < 1 || opt_repeat < 1 || opt_ring < 1 || opt_ring > 255
      || opt_smooth_frames < 1 || opt_smooth_repeat < 1 || opt_warmup < 0
      || (g_strcmp0 (opt_pattern, "scene") && g_strcmp0 (opt_pattern,
              "random")) || (g_strcmp0 (opt_input, "pool")
          && g_strcmp0 (opt_input, "system"))) {
    g_printerr ("bad option value (see --help)\n");
    return FALSE;
  }
  gst_video_info_set_format (info, format, opt_width, opt_height);
  if ((GST_VIDEO_INFO_COMP_DEPTH (info, 0) != 8 &&
          (GST_VIDEO_INFO_COMP_DEPTH (info, 0) != 10 ||
              GST_VIDEO_INFO_COMP_PSTRIDE (info, 0) != 2))
      || (!GST_VIDEO_INFO_IS_YUV (info) && !GST_VIDEO_INFO_IS_GRAY (info))) {
    g_printerr ("%s: frames are made for 8-bit and 10-bit (16-bit words) "
        "YUV and gray formats only\n", opt_format);
    return FALSE;
  }
  return TRUE;
}

/* The run. */

/* Adds the contenders the options ask for to @list, identity first; returns
 * the first clepsilon, the one the others are compared with. */
static Contender *
add_contenders (GPtrArray * list, GstVideoFormat format)
{
  Contender *main_c;
  gint i;

  add_contender (list, KIND_BASELINE, "identity", NULL);
  main_c = add_contender (list, KIND_CLEPSILON, "clepsilon", opt_clepsilon);
  main_c->dump_output = opt_dump_output != NULL;
  for (i = 0; opt_extra && opt_extra[i]; i++) {
    gchar *props = g_strdup_printf ("%s %s", opt_clepsilon, opt_extra[i]);

    add_contender (list, KIND_CLEPSILON, "clepsilon", props);
    g_free (props);
  }
  if (!opt_no_smooth) {
    const gchar *def[] = { DEFAULT_SMOOTH, NULL };
    const gchar **props = opt_smooth ? (const gchar **) opt_smooth : def;

    for (i = 0; props[i]; i++) {
      Contender *c = add_contender (list, KIND_OTHER, "smooth", props[i]);

      if (format != GST_VIDEO_FORMAT_I420)
        c->skipped = g_strdup_printf ("smooth takes I420 only, not %s",
            opt_format);
    }
  }
  return main_c;
}

/* What is measured, and the plugin clepsilon comes from. */
static void
print_header (void)
{
  GstElementFactory *factory;

  g_print ("%s %dx%d, ring of %d %s frames (seed %d), %s input; "
      "median of %d batches of %d frames after %d warm-up frames",
      opt_format, opt_width, opt_height, opt_ring, opt_pattern, opt_seed,
      opt_input, opt_repeat, opt_frames, MAX (opt_warmup, 1));
  if (!opt_no_smooth)
    g_print (" (smooth: %d of %d after 1)", opt_smooth_repeat,
        opt_smooth_frames);
  g_print ("\n");
  if ((factory = gst_element_factory_find ("clepsilon"))) {
    GstPlugin *plugin = gst_plugin_feature_get_plugin (GST_PLUGIN_FEATURE
        (factory));

    g_print ("plugin: %s\n", plugin ? gst_plugin_get_filename (plugin) : "?");
    gst_clear_object (&plugin);
    gst_object_unref (factory);
  }
}

/* Starts every contender of @list that is not skipped, saying on stderr
 * which could not start; returns the most batches any of them runs. */
static gint
start_contenders (GPtrArray * list, GstBuffer ** shared,
    const GstVideoInfo * info)
{
  gint i, max_repeat = 0;

  for (i = 0; i < (gint) list->len; i++) {
    Contender *c = g_ptr_array_index (list, i);

    if (!c->skipped)
      start_contender (c, shared, info);
    if (c->skipped)
      g_printerr ("%s: skipped: %s\n", c->name, c->skipped);
    else if (c->failed)
      g_printerr ("%s: failed: %s\n", c->name, c->failed);
    max_repeat = MAX (max_repeat, c->repeat);
  }
  return max_repeat;
}

/* Batch r of every contender, then batch r + 1; with --concurrent the
 * clepsilon contenders' batches of a round run at once. Returns the
 * aggregate frames per second of each round (0 without --concurrent), to
 * be freed. */
static gdouble *
run_batches (GPtrArray * list, gint max_repeat)
{
  gdouble *aggregate = g_new0 (gdouble, max_repeat);
  gint i, r;

  for (r = 0; r < max_repeat; r++) {
    if (opt_concurrent)
      aggregate[r] = run_concurrent (list, r);
    for (i = 0; i < (gint) list->len; i++) {
      Contender *c = g_ptr_array_index (list, i);
      gdouble s;

      if (c->skipped || c->failed || r >= c->repeat)
        continue;
      if (opt_concurrent && c->kind == KIND_CLEPSILON)
        continue;
      s = run_frames (c, c->frames);
      if (s < 0) {
        g_printerr ("%s: failed: %s\n", c->name, c->failed);
        continue;
      }
      c->ms[c->batches++] = s * 1e3 / c->frames;
    }
  }
  return aggregate;
}

/* Each contender's median, min and max over its batches, and its stats at
 * the end. */
static void
summarize (GPtrArray * list)
{
  gint i, k;

  for (i = 0; i < (gint) list->len; i++) {
    Contender *c = g_ptr_array_index (list, i);

    if (c->batches > 0) {
      c->median = median (c->ms, c->batches);
      c->min = c->max = c->ms[0];
      for (k = 1; k < c->batches; k++) {
        c->min = MIN (c->min, c->ms[k]);
        c->max = MAX (c->max, c->ms[k]);
      }
    }
    if (!c->skipped && !c->failed)
      c->stats1 = get_stats (c);
  }
}

/* The table: a row per contender (why it did not run, or its times and
 * clepsilon's stats). */
static void
print_table (GPtrArray * list, const Contender * base)
{
  gint i;

  g_print ("%-48s %-6s %10s %10s %10s %9s %12s\n", "contender", "input",
      "median ms", "min ms", "max ms", "fps", "- identity");
  for (i = 0; i < (gint) list->len; i++) {
    const Contender *c = g_ptr_array_index (list, i);

    if (!ran (c)) {
      g_print ("%-48s %s: %s\n", c->name, c->skipped ? "skipped" : "failed",
          c->skipped ? c->skipped : c->failed ? c->failed : "no batch ran");
      continue;
    }
    g_print ("%-48s %-6s %10.3f %10.3f %10.3f %9.1f", c->name, c->input,
        c->median, c->min, c->max, 1e3 / c->median);
    if (c != base && ran (base))
      g_print (" %12.3f", c->median - base->median);
    g_print ("\n");
    print_stats (c);
  }
}

/* Every other contender that ran against the first clepsilon. */
static void
print_ratios (GPtrArray * list, const Contender * main_c,
    const Contender * base)
{
  gboolean header = FALSE;
  gint i;

  if (!ran (main_c))
    return;
  for (i = 0; i < (gint) list->len; i++) {
    const Contender *c = g_ptr_array_index (list, i);

    if (c == base || c == main_c || !ran (c))
      continue;
    if (!header)
      g_print ("ratios of the median ms per frame:\n");
    header = TRUE;
    print_ratio (c, main_c, base);
  }
}

/* Everything printed after the run: the device, the aggregate rate of
 * --concurrent (@aggregate, one per round of @max_repeat), the table and
 * the ratios. */
static void
print_results (GPtrArray * list, const Contender * base,
    const Contender * main_c, gdouble * aggregate, gint max_repeat)
{
  if (main_c->device_name)
    g_print ("clepsilon device: %s\n", main_c->device_name);
  if (opt_concurrent && max_repeat > 0)
    g_print ("clepsilon contenders at once: aggregate %.1f fps (median of %d "
        "rounds)\n", median (aggregate, max_repeat), max_repeat);
  print_table (list, base);
  print_ratios (list, main_c, base);
}

/* Stops and frees every contender of @list; returns the exit status: 1
 * where one failed, the first clepsilon was skipped or identity did not
 * run, else 0. */
static gint
free_contenders (GPtrArray * list, const Contender * base,
    const Contender * main_c)
{
  gint i, status = 0;

  for (i = 0; i < (gint) list->len; i++) {
    Contender *c = g_ptr_array_index (list, i);

    if (c->failed || (c == main_c && c->skipped) || (c == base && !ran (c)))
      status = 1;
    stop_contender (c);
    if (c->stats0)
      gst_structure_free (c->stats0);
    if (c->stats1)
      gst_structure_free (c->stats1);
    g_free (c->device_name);
    g_free (c->failed);
    g_free (c->skipped);
    g_free (c->ms);
    g_free (c->sequence);
    g_free (c->props);
    g_free (c->name);
    g_free (c);
  }
  return status;
}

int
main (int argc, char **argv)
{
  GPtrArray *list;
  GstBuffer **shared;
  GstVideoInfo info;
  Contender *base, *main_c;
  gint i, max_repeat, status;
  gdouble *aggregate;

  /* Lines in order with the messages on stderr, also into a pipe. */
  setvbuf (stdout, NULL, _IOLBF, 0);
  if (!parse_options (&argc, &argv) || !check_options (&info))
    return 2;
  find_plugin (argv[0]);

  list = g_ptr_array_new ();
  main_c = add_contenders (list, GST_VIDEO_INFO_FORMAT (&info));
  base = g_ptr_array_index (list, 0);
  shared = make_ring (&info);
  print_header ();
  max_repeat = start_contenders (list, shared, &info);
  aggregate = run_batches (list, max_repeat);
  summarize (list);
  print_results (list, base, main_c, aggregate, max_repeat);
  g_free (aggregate);

  if (opt_csv)
    write_csv (list, base);
  if (main_c->dump_output && ran (main_c))
    g_printerr ("--dump-output: the outputs of only %u of the %d ring frames "
        "came out (more --frames or --warmup)\n",
        (guint) __builtin_popcount (main_c->dumped), MIN (opt_ring, 32));

  status = free_contenders (list, base, main_c);
  for (i = 0; i < opt_ring; i++)
    gst_buffer_unref (shared[i]);
  g_free (shared);
  g_ptr_array_free (list, TRUE);
  return status;
}
