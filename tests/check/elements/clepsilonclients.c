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

/* The real-client matrix: clepsilon's output fed to GStreamer elements that
 * nobody on this project wrote (encoders, muxers, converters, sinks, the
 * bins users embed it in), for each setting and format.
 *
 * Each cell runs two pipelines with the same client:
 *   test:      source (frames F) ! clepsilon <setting> ! client
 *   reference: appsrc (ref (F), the CPU reference of the filter) ! client
 * and asserts that the client gives the same result from both: the same
 * number of frames (all of them), the same timestamps, and the same bytes
 * (raw video compared sample by sample where a consumer that maps the
 * buffer whole finds it; files compared byte for byte). Encoders are
 * deterministic, so lossy clients are compared exactly too: their output
 * from clepsilon's frames must be their output from the reference frames.
 * Whatever a client cannot take (caps) in the reference pipeline is "n/a";
 * a client whose elements are not installed is skipped with a message.
 *
 * The frames come from appsrc in plain system memory, or from videotestsrc,
 * which writes into the pool clepsilon proposes. The OpenCL device is
 * $CLEPSILON_TEST_DEVICE (default "pocl"). Each test prints its row of the
 * matrix. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <string.h>

#include "harness.h"

#define N_FRAMES 4
#define FRAME_DURATION (GST_SECOND / 25)

/* ------------------------------------------------------------------------ */
/* The matrix's axes                                                        */

typedef enum
{
  SOURCE_APPSRC,                /* system memory, no pool */
  SOURCE_VIDEOTESTSRC,          /* written into clepsilon's pool */
} Source;

typedef struct
{
  const gchar *name;
  const gchar *properties;      /* clepsilon's, as on a launch line */
  guint threshold, window, chroma_threshold;
  const gchar *kernel;          /* rows of 3, for the reference */
} Setting;

static const Setting settings[] = {
  {"medium", "strength=medium", 10, 3, 0, NULL},
  {"chroma", "threshold=20 window-size=5 chroma-threshold=12", 20, 5, 12,
      NULL},
  {"kernel", "kernel=\"1 2 1; 2 4 2; 1 2 1\"", 10, 3, 0, "1 2 1 2 4 2 1 2 1"},
  {"kernel-only", "threshold=0 kernel=\"0 -1 0; -1 5 -1; 0 -1 0\"", 0, 3, 0,
      "0 -1 0 -1 5 -1 0 -1 0"},
  {"passthrough", "threshold=0", 0, 3, 0, NULL},
};

typedef enum
{
  CLIENT_CHAIN,                 /* source ! [clepsilon !] chain */
  CLIENT_DOUBLE,                /* clepsilon ! clepsilon ! chain */
  CLIENT_PLAYBIN,               /* playbin video-filter, appsink video-sink */
  CLIENT_URITRANSCODEBIN,       /* uritranscodebin video-filter, to a file */
} ClientKind;

typedef enum
{
  META_AS_IS,
  META_ADD,                     /* the appsinks announce GstVideoMeta */
  META_REMOVE,                  /* ... and never do */
} MetaAnswer;

typedef enum
{
  SIZE_ODD,                     /* 97x53 */
  SIZE_BLOCKS,                  /* 96x48: no padding in the default layout,
                                 * whole 16x16 blocks for the encoders */
} FrameSize;

/* @chain: a launch-line fragment whose sinks are "appsink name=sink" (and
 * "sink2"), or one filesink whose location is "%s". @needs: the factories
 * it takes. @size: the frame size it is given. */
typedef struct
{
  const gchar *name;
  ClientKind kind;
  const gchar *chain;
  const gchar *needs;
  MetaAnswer meta;
  FrameSize size;
} Client;

#define APPSINK "appsink name=sink sync=false wait-on-eos=false"

static const Client clients[] = {
  {"appsink+meta", CLIENT_CHAIN, APPSINK, "appsink", META_ADD},
  {"appsink-meta", CLIENT_CHAIN, APPSINK, "appsink", META_REMOVE},
  {"filesink", CLIENT_CHAIN, "filesink location=%s", "filesink"},
  /* y4menc 1.22 writes the buffer as it is, row padding included: an odd
   * width or height gives a file no reader reads right, whatever the
   * source. */
  {"y4menc", CLIENT_CHAIN, "y4menc ! filesink location=%s", "y4menc",
      META_AS_IS, SIZE_BLOCKS},
  {"pngenc", CLIENT_CHAIN, "pngenc snapshot=false ! filesink location=%s",
      "pngenc"},
  /* what y4menc does not take (YUY2, UYVY) through a converter */
  {"videoconvert!y4menc", CLIENT_CHAIN, "videoconvert ! video/x-raw,"
        "format=Y42B ! y4menc ! filesink location=%s", "videoconvert y4menc",
      META_AS_IS, SIZE_BLOCKS},
  {"videoconvert", CLIENT_CHAIN,
      "videoconvert ! video/x-raw,format=BGRA ! " APPSINK, "videoconvert"},
  {"videoconvert!pngenc", CLIENT_CHAIN, "videoconvert ! video/x-raw,"
        "format=RGB ! pngenc snapshot=false ! filesink location=%s",
      "videoconvert pngenc"},
  {"videoscale", CLIENT_CHAIN,
        "videoscale ! video/x-raw,width=61,height=37 ! " APPSINK,
      "videoscale"},
  {"compositor", CLIENT_CHAIN, "compositor ! " APPSINK, "compositor"},
  /* Writes the frame in place, chroma too: a plane the output shares with
   * the input is read-only, and must be copied on write, not written. */
  {"videobalance", CLIENT_CHAIN,
        "videobalance saturation=0.5 brightness=0.1 ! " APPSINK, "videobalance",
      META_ADD},
  {"tee+queues", CLIENT_CHAIN, "tee name=t ! queue ! " APPSINK
        " t. ! queue ! appsink name=sink2 sync=false wait-on-eos=false",
        "tee queue",
      META_ADD},
  /* Encoders read the padding of partial blocks too: whole blocks only.
   * x264enc's bitrate modes did not give the same stream twice for the
   * same frames in one process here (tried: threads=1); a fixed quantizer
   * does. */
  {"jpegenc!jpegdec", CLIENT_CHAIN, "jpegenc ! jpegdec ! " APPSINK,
      "jpegenc jpegdec", META_AS_IS, SIZE_BLOCKS},
  {"x264enc!avdec_h264", CLIENT_CHAIN,
      "x264enc threads=1 pass=quant quantizer=20 ! h264parse ! avdec_h264 ! "
        APPSINK, "x264enc h264parse avdec_h264", META_AS_IS, SIZE_BLOCKS},
  {"clepsilon!clepsilon", CLIENT_DOUBLE, APPSINK, "appsink"},
  {"playbin", CLIENT_PLAYBIN, NULL, "playbin appsink"},
  {"uritranscodebin", CLIENT_URITRANSCODEBIN, NULL,
        "uritranscodebin matroskamux matroskademux jpegenc jpegdec", META_AS_IS,
      SIZE_BLOCKS},
};

/* The configurations each client is run with. */
typedef struct
{
  GstVideoFormat format;
  const Setting *setting;
  Source source;
  gboolean interlaced;          /* interlace-mode=interleaved: in fields */
} Config;

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY,
  GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I422_10LE,
  GST_VIDEO_FORMAT_Y444_10LE,
};

/* Every setting on I420; every format with the defaults (from both
 * sources) and with chroma on. */
static GArray *
make_configs (void)
{
  GArray *configs = g_array_new (FALSE, FALSE, sizeof (Config));
  guint i;

  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    Config c = { GST_VIDEO_FORMAT_I420, &settings[i], SOURCE_APPSRC };
    g_array_append_val (configs, c);
  }
  RT_FOR_EACH_FORMAT (i, formats) {
    Config d = { formats[i], &settings[0], SOURCE_VIDEOTESTSRC };
    Config c = { formats[i], &settings[1], SOURCE_APPSRC };

    if (formats[i] != GST_VIDEO_FORMAT_I420) {
      Config a = { formats[i], &settings[0], SOURCE_APPSRC };
      g_array_append_val (configs, a);
      g_array_append_val (configs, c);
    }
    g_array_append_val (configs, d);
  }
  /* interlaced frames, filtered field by field */
  for (i = 0; i < 2; i++) {
    Config c = { i ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_I420,
      &settings[1], i ? SOURCE_VIDEOTESTSRC : SOURCE_APPSRC, TRUE
    };
    g_array_append_val (configs, c);
  }
  return configs;
}

static gchar *
config_name (const Config * c)
{
  return g_strdup_printf ("%s/%s/%s%s",
      gst_video_format_to_string (c->format), c->setting->name,
      c->source == SOURCE_APPSRC ? "appsrc" : "videotestsrc",
      c->interlaced ? "/interlaced" : "");
}

/* ------------------------------------------------------------------------ */
/* Frames and the reference                                                 */

static guint
sample_max (const GstVideoInfo * info)
{
  return GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, 0) > 8 ? 1023 : 255;
}

/* A gradient with noise and a few edges: something for the filter to do. */
static GstBuffer *
make_random_frame (const GstVideoInfo * info, GRand * rand)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame f;
  guint c, x, y;

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    for (y = 0; y < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++) {
      for (x = 0; x < (guint) GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++) {
        guint v = (x * 3 + y * 2 + g_rand_int_range (rand, 0, 24)) % 256;

        if ((x / 16 + y / 16) % 3 == 0)
          v = 255 - v / 4;
        v = v * sample_max (info) / 255;
        ref_set_sample (info, c, GST_VIDEO_FRAME_PLANE_DATA (&f,
                GST_VIDEO_FRAME_COMP_PLANE (&f, c)),
            GST_VIDEO_FRAME_PLANE_STRIDE (&f, GST_VIDEO_FRAME_COMP_PLANE (&f,
                    c)), x, y, v);
      }
    }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

static void
ref_params_from_setting (const Setting * s, RefParams * p)
{
  ref_params_init (p);
  p->threshold = s->threshold;
  p->window = s->window;
  p->chroma_threshold = s->chroma_threshold;
  if (s->kernel) {
    gchar **v = g_strsplit (s->kernel, " ", -1);
    guint i;

    for (i = 0; i < 9; i++)
      p->kernel[i] = g_ascii_strtod (v[i], NULL);
    p->kernel_width = p->kernel_height = 3;
    g_strfreev (v);
  }
}

/* The element's output for @in, in the default layout, by the reference. */
static GstBuffer *
reference_frame (const GstVideoInfo * info, GstBuffer * in, const RefParams * p)
{
  GstBuffer *out = gst_buffer_new_allocate (NULL, info->size, NULL);
  guint8 *sd[GST_VIDEO_MAX_PLANES], *dd[GST_VIDEO_MAX_PLANES];
  gint ss[GST_VIDEO_MAX_PLANES], ds[GST_VIDEO_MAX_PLANES];
  GstVideoFrame src, dst;
  guint i;

  gst_buffer_memset (out, 0, 0, info->size);
  fail_unless (gst_video_frame_map (&src, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, info, out, GST_MAP_WRITE));
  for (i = 0; i < GST_VIDEO_INFO_N_PLANES (info); i++) {
    sd[i] = GST_VIDEO_FRAME_PLANE_DATA (&src, i);
    ss[i] = GST_VIDEO_FRAME_PLANE_STRIDE (&src, i);
    dd[i] = GST_VIDEO_FRAME_PLANE_DATA (&dst, i);
    ds[i] = GST_VIDEO_FRAME_PLANE_STRIDE (&dst, i);
  }
  /* Passthrough and untouched planes: the input as it is. */
  gst_video_frame_copy (&dst, &src);
  if (p->threshold || p->chroma_threshold || p->kernel_width)
    (GST_VIDEO_INFO_IS_INTERLACED (info) ? ref_process_region_fields :
        ref_process_region) (info, sd, ss, dd, ds, p, 0, 0,
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  return out;
}

static GstCaps *
config_caps (const GstVideoInfo * info)
{
  GstCaps *caps = gst_video_info_to_caps (info);

  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 25, 1, NULL);
  return caps;
}

static gchar *
config_caps_string (const GstVideoInfo * info)
{
  GstCaps *caps = config_caps (info);
  gchar *s = gst_caps_to_string (caps);

  gst_caps_unref (caps);
  return s;
}

#define VIDEOTESTSRC "videotestsrc pattern=zone-plate kx2=20 ky2=20 kt=3 " \
    "num-buffers=%d"

/* The frames the source of @config gives (timestamps included), in
 * @frames. */
static void
make_input_frames (const Config * config, const GstVideoInfo * info,
    GPtrArray * frames)
{
  guint i;

  if (config->source == SOURCE_APPSRC) {
    GRand *rand = g_rand_new_with_seed (0xc11e + config->format);

    for (i = 0; i < N_FRAMES; i++) {
      GstBuffer *buf = make_random_frame (info, rand);

      GST_BUFFER_PTS (buf) = i * FRAME_DURATION;
      GST_BUFFER_DURATION (buf) = FRAME_DURATION;
      g_ptr_array_add (frames, buf);
    }
    g_rand_free (rand);
  } else {
    gchar *caps = config_caps_string (info);
    gchar *desc = g_strdup_printf (VIDEOTESTSRC " ! %s ! " APPSINK, N_FRAMES,
        caps);
    GstElement *pipeline = gst_parse_launch (desc, NULL);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
    GstSample *sample;

    fail_unless (pipeline != NULL, "%s", desc);
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
      g_ptr_array_add (frames, gst_buffer_copy_deep (gst_sample_get_buffer
              (sample)));
      gst_sample_unref (sample);
    }
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (sink);
    gst_object_unref (pipeline);
    g_free (desc);
    g_free (caps);
    fail_unless_equals_int (frames->len, N_FRAMES);
  }
}

/* How often a client's reference route stalled and ran again: more than
 * once is a pattern, not the machine's load, and fails the client. */
static guint reference_reruns;

/* ------------------------------------------------------------------------ */
/* Running a pipeline and collecting what the client gave                   */

/* What one route gave: raw frames from the appsinks, or a file's bytes. */
typedef struct
{
  GPtrArray *samples[2];        /* GstSample, from sink and sink2 */
  GBytes *file;
  gchar *error;                 /* the bus error, if any */
  gboolean not_negotiated;
  gboolean stalled;             /* no EOS nor error in time */
} Result;

static void
result_clear (Result * r)
{
  guint i;

  for (i = 0; i < 2; i++)
    if (r->samples[i])
      g_ptr_array_unref (r->samples[i]);
  if (r->file)
    g_bytes_unref (r->file);
  g_free (r->error);
}

/* appsink answers no ALLOCATION query: META_ADD answers it here, with a
 * video meta; META_REMOVE takes the meta out of any answer. */
static GstPadProbeReturn
meta_answer_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  MetaAnswer answer = GPOINTER_TO_INT (user_data);
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  guint idx;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  if (answer == META_ADD) {
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    return GST_PAD_PROBE_HANDLED;
  }
  while (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, &idx))
    gst_query_remove_nth_allocation_meta (query, idx);
  return GST_PAD_PROBE_OK;
}

static void
answer_meta (GstElement * sink, MetaAnswer answer)
{
  GstPad *pad;

  if (answer == META_AS_IS)
    return;
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM |
      (answer == META_ADD ? GST_PAD_PROBE_TYPE_PUSH : GST_PAD_PROBE_TYPE_PULL),
      meta_answer_probe, GINT_TO_POINTER (answer), NULL);
  gst_object_unref (pad);
}

static void
push_frames (GstElement * appsrc, GstCaps * caps, GPtrArray * frames)
{
  guint i;

  g_object_set (appsrc, "caps", caps, "format", GST_FORMAT_TIME,
      "max-bytes", (guint64) 0, NULL);
  for (i = 0; i < frames->len; i++)
    fail_unless (gst_app_src_push_buffer (GST_APP_SRC (appsrc),
            gst_buffer_ref (g_ptr_array_index (frames, i))) == GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (appsrc));
}

typedef struct
{
  GstCaps *caps;
  GPtrArray *frames;
} SourceSetup;

static void
on_source_setup (GstElement * bin, GstElement * source, SourceSetup * setup)
{
  push_frames (source, setup->caps, setup->frames);
}

/* Plays @pipeline to EOS (or an error), then takes what its appsinks hold. */
static void
run_to_eos (GstElement * pipeline, Result * r)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint i;

  /* A failure to start posts an error too. */
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg) {
    r->error = g_strdup ("no EOS within 120 s");
    r->stalled = TRUE;
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    r->error = g_strdup_printf ("%s (%s)", err->message, dbg ? dbg : "");
    r->not_negotiated = strstr (r->error, "not-negotiated") != NULL ||
        g_error_matches (err, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION) ||
        g_error_matches (err, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT);
    g_clear_error (&err);
    g_free (dbg);
  }
  if (msg)
    gst_message_unref (msg);

  for (i = 0; i < 2 && !r->error; i++) {
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline),
        i == 0 ? "sink" : "sink2");
    GstSample *sample;

    if (!sink || !GST_IS_APP_SINK (sink)) {
      gst_clear_object (&sink);
      continue;
    }
    r->samples[i] = g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_sample_unref);
    while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0)))
      g_ptr_array_add (r->samples[i], sample);
    gst_object_unref (sink);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
}

static GstElement *
make_clepsilon (const Setting * setting)
{
  gchar *desc = g_strdup_printf ("clepsilon device=\"%s\" %s", rt_device (),
      setting->properties);
  GstElement *e = gst_parse_launch (desc, NULL);

  fail_unless (e != NULL, "%s", desc);
  g_free (desc);
  return e;
}

/* Decodes the Matroska/JPEG file @path into @r's samples. */
static void
decode_mkv_jpeg (const gchar * path, Result * r)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! matroskademux ! "
      "jpegdec ! " APPSINK, path);
  GstElement *pipeline = gst_parse_launch (desc, NULL);

  fail_unless (pipeline != NULL, "%s", desc);
  run_to_eos (pipeline, r);
  gst_object_unref (pipeline);
  g_free (desc);
}

/* Runs @client on @frames, after a clepsilon with @setting if @with_element
 * (else @frames are the reference frames), and fills @r. */
static void
run_route (const Client * client, const Config * config,
    const GstVideoInfo * info, GPtrArray * frames, gboolean with_element,
    const gchar * dir, Result * r)
{
  gchar *path = g_build_filename (dir, with_element ? "test.out" : "ref.out",
      NULL);
  gchar *uri = g_filename_to_uri (path, NULL, NULL);
  GstCaps *caps = config_caps (info);
  SourceSetup setup = { caps, frames };
  GstElement *pipeline, *sink;

  memset (r, 0, sizeof (*r));
  g_unlink (path);
  if (client->kind == CLIENT_PLAYBIN || client->kind == CLIENT_URITRANSCODEBIN) {
    gboolean playbin = client->kind == CLIENT_PLAYBIN;

    pipeline = gst_element_factory_make (playbin ? "playbin" :
        "uritranscodebin", NULL);
    if (with_element)
      g_object_set (pipeline, "video-filter", make_clepsilon
          (config->setting), NULL);
    g_signal_connect (pipeline, "source-setup", G_CALLBACK (on_source_setup),
        &setup);
    if (playbin) {
      sink = gst_element_factory_make ("appsink", "sink");
      g_object_set (sink, "sync", FALSE, "wait-on-eos", FALSE, NULL);
      g_object_set (pipeline, "uri", "appsrc://", "video-sink", sink, NULL);
      gst_util_set_object_arg (G_OBJECT (pipeline), "flags",
          "video+native-video");
    } else {
      g_object_set (pipeline, "source-uri", "appsrc://", "dest-uri", uri, NULL);
      gst_util_set_object_arg (G_OBJECT (pipeline), "profile",
          "video/x-matroska:image/jpeg");
    }
    run_to_eos (pipeline, r);
    if (!playbin && !r->error)
      decode_mkv_jpeg (path, r);
  } else {
    const gchar *chain = client->chain;
    gchar *tail = strstr (chain, "%s") ? g_strdup_printf (chain, path) :
        g_strdup (chain);
    gchar *desc, *eps = NULL;
    GstElement *src;

    if (with_element) {
      eps = g_strdup_printf ("clepsilon device=\"%s\" %s ! %s", rt_device (),
          config->setting->properties, client->kind == CLIENT_DOUBLE ?
          "clepsilon device=\"%s\" %s ! " : "");
      if (client->kind == CLIENT_DOUBLE) {
        gchar *twice = g_strdup_printf (eps, rt_device (),
            config->setting->properties);
        g_free (eps);
        eps = twice;
      }
    }
    if (with_element && config->source == SOURCE_VIDEOTESTSRC) {
      gchar *caps_str = config_caps_string (info);
      desc = g_strdup_printf (VIDEOTESTSRC " ! %s ! %s%s", N_FRAMES, caps_str,
          eps, tail);
      g_free (caps_str);
    } else {
      desc = g_strdup_printf ("appsrc name=src ! %s%s", eps ? eps : "", tail);
    }
    pipeline = gst_parse_launch (desc, NULL);
    fail_unless (pipeline != NULL, "%s", desc);
    if ((sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink"))) {
      answer_meta (sink, client->meta);
      gst_object_unref (sink);
    }
    if ((sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink2"))) {
      answer_meta (sink, client->meta);
      gst_object_unref (sink);
    }
    if ((src = gst_bin_get_by_name (GST_BIN (pipeline), "src"))) {
      push_frames (src, caps, frames);
      gst_object_unref (src);
    }
    run_to_eos (pipeline, r);
    if (strstr (chain, "%s") && !r->error) {
      gchar *data;
      gsize len;

      fail_unless (g_file_get_contents (path, &data, &len, NULL));
      r->file = g_bytes_new_take (data, len);
    }
    g_free (desc);
    g_free (eps);
    g_free (tail);
  }
  gst_object_unref (pipeline);
  gst_caps_unref (caps);
  g_unlink (path);
  g_free (uri);
  g_free (path);
}

/* ------------------------------------------------------------------------ */
/* Comparing the two routes                                                 */

/* NULL if the image samples of @a and @b, buffers read whole in the default
 * layout of their caps, are equal; else where they differ. */
static gchar *
compare_raw (GstSample * a, GstSample * b)
{
  GstVideoInfo ia, ib;
  GstMapInfo ma, mb;
  GstBuffer *ba = gst_sample_get_buffer (a), *bb = gst_sample_get_buffer (b);
  gchar *err = NULL;
  guint p, row;

  if (!gst_video_info_from_caps (&ia, gst_sample_get_caps (a)) ||
      !gst_video_info_from_caps (&ib, gst_sample_get_caps (b)) ||
      GST_VIDEO_INFO_FORMAT (&ia) != GST_VIDEO_INFO_FORMAT (&ib) ||
      GST_VIDEO_INFO_WIDTH (&ia) != GST_VIDEO_INFO_WIDTH (&ib) ||
      GST_VIDEO_INFO_HEIGHT (&ia) != GST_VIDEO_INFO_HEIGHT (&ib))
    return gst_info_strdup_printf ("caps %" GST_PTR_FORMAT ", reference %"
        GST_PTR_FORMAT, gst_sample_get_caps (a), gst_sample_get_caps (b));
  if (gst_buffer_get_size (ba) != ia.size)
    return g_strdup_printf ("buffer of %zu bytes for a %zu-byte frame",
        gst_buffer_get_size (ba), ia.size);
  if (gst_buffer_get_size (bb) != ia.size)
    return g_strdup ("reference buffer is not one frame");
  fail_unless (gst_buffer_map (ba, &ma, GST_MAP_READ));
  fail_unless (gst_buffer_map (bb, &mb, GST_MAP_READ));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&ia) && !err; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gsize row_bytes;

    gst_video_format_info_component (ia.finfo, p, comp);
    row_bytes = (gsize) GST_VIDEO_INFO_COMP_WIDTH (&ia, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (&ia, comp[0]);
    for (row = 0; row < (guint) GST_VIDEO_INFO_COMP_HEIGHT (&ia, comp[0]);
        row++) {
      gsize at = ia.offset[p] + (gsize) row * ia.stride[p];

      if (memcmp (ma.data + at, mb.data + at, row_bytes) != 0) {
        err = g_strdup_printf ("plane %u row %u differs", p, row);
        break;
      }
    }
  }
  gst_buffer_unmap (bb, &mb);
  gst_buffer_unmap (ba, &ma);
  return err;
}

/* Whether @client may give fewer frames than it was given for @info, with
 * or without the element: uritranscodebin on interlaced video after
 * GStreamer 1.22 (the running library's version). */
static gboolean
client_halves_interlaced (const Client * client, const GstVideoInfo * info)
{
  guint major, minor, micro, nano;

  gst_version (&major, &minor, &micro, &nano);
  return client->kind == CLIENT_URITRANSCODEBIN
      && GST_VIDEO_INFO_IS_INTERLACED (info) && (major > 1 || minor > 22);
}

/* NULL if @t (clepsilon's route) and @r (the reference's) agree; else why
 * not. */
static gchar *
compare_results (const Result * t, const Result * r, const GstVideoInfo * info,
    const Client * client)
{
  guint s, i;

  if (t->file || r->file) {
    gsize tl, rl;
    const guint8 *td, *rd;

    if (!t->file || !r->file)
      return g_strdup ("no file");
    td = g_bytes_get_data (t->file, &tl);
    rd = g_bytes_get_data (r->file, &rl);
    /* A raw filesink: as many frames as went in. */
    if (g_str_has_prefix (client->chain, "filesink") &&
        tl != N_FRAMES * info->size)
      return g_strdup_printf ("file of %zu bytes for %d frames of %zu", tl,
          N_FRAMES, info->size);
    if (tl != rl)
      return g_strdup_printf ("file of %zu bytes, reference %zu", tl, rl);
    if (g_str_has_prefix (client->chain, "filesink")) {
      /* Frame by frame, image samples only (padding is unspecified). */
      for (i = 0; i < N_FRAMES; i++) {
        GstBuffer *a = gst_buffer_new_memdup (td + i * info->size, info->size);
        GstBuffer *b = gst_buffer_new_memdup (rd + i * info->size, info->size);
        GstCaps *caps = gst_video_info_to_caps (info);
        GstSample *sa = gst_sample_new (a, caps, NULL, NULL);
        GstSample *sb = gst_sample_new (b, caps, NULL, NULL);
        gchar *err = compare_raw (sa, sb);

        gst_sample_unref (sa);
        gst_sample_unref (sb);
        gst_buffer_unref (a);
        gst_buffer_unref (b);
        gst_caps_unref (caps);
        if (err) {
          gchar *e = g_strdup_printf ("frame %u: %s", i, err);
          g_free (err);
          return e;
        }
      }
      return NULL;
    }
    return memcmp (td, rd, tl) == 0 ? NULL : g_strdup ("file bytes differ");
  }

  for (s = 0; s < 2; s++) {
    if (!t->samples[s] && !r->samples[s])
      continue;
    if (!t->samples[s] || !r->samples[s])
      return g_strdup ("a sink is missing");
    /* As many frames as the client gives of the reference: all, but for
     * uritranscodebin of GStreamer 1.26 on interlaced video, which gives 2
     * of 4 frames with or without clepsilon (its encodebin's jpegparse;
     * 1.22 gives 4). */
    if (t->samples[s]->len != r->samples[s]->len || r->samples[s]->len == 0
        || r->samples[s]->len > N_FRAMES || (r->samples[s]->len < N_FRAMES
            && !client_halves_interlaced (client, info)))
      return g_strdup_printf ("%u frames (reference %u) of %d",
          t->samples[s]->len, r->samples[s]->len, N_FRAMES);
    for (i = 0; i < r->samples[s]->len; i++) {
      GstSample *a = g_ptr_array_index (t->samples[s], i);
      GstSample *b = g_ptr_array_index (r->samples[s], i);
      GstBuffer *ba = gst_sample_get_buffer (a), *bb =
          gst_sample_get_buffer (b);
      gchar *err;

      if (GST_BUFFER_PTS (ba) != GST_BUFFER_PTS (bb) ||
          GST_BUFFER_DURATION (ba) != GST_BUFFER_DURATION (bb))
        return g_strdup_printf ("frame %u: pts %" GST_TIME_FORMAT " duration %"
            GST_TIME_FORMAT ", reference %" GST_TIME_FORMAT " %"
            GST_TIME_FORMAT, i, GST_TIME_ARGS (GST_BUFFER_PTS (ba)),
            GST_TIME_ARGS (GST_BUFFER_DURATION (ba)),
            GST_TIME_ARGS (GST_BUFFER_PTS (bb)),
            GST_TIME_ARGS (GST_BUFFER_DURATION (bb)));
      if ((err = compare_raw (a, b))) {
        gchar *e = g_strdup_printf ("sink%s frame %u: %s", s ? "2" : "", i,
            err);
        g_free (err);
        return e;
      }
    }
  }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* One client against every configuration                                   */

static gchar *
missing_factory (const Client * client)
{
  gchar **names = g_strsplit (client->needs, " ", -1);
  gchar *missing = NULL;
  guint i;

  for (i = 0; names[i] && !missing; i++) {
    GstElementFactory *f = gst_element_factory_find (names[i]);

    if (!f)
      missing = g_strdup (names[i]);
    else
      gst_object_unref (f);
  }
  g_strfreev (names);
  return missing;
}

/* A checksum of every byte of @frames: what went in must come back as it
 * was (a shared plane is read-only downstream). */
static gchar *
frames_checksum (GPtrArray * frames)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gchar *text;
  guint i;

  for (i = 0; i < frames->len; i++) {
    GstBuffer *buf = g_ptr_array_index (frames, i);
    GstMapInfo map;

    fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
    g_checksum_update (sum, map.data, map.size);
    gst_buffer_unmap (buf, &map);
  }
  text = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return text;
}

/* Runs one cell; returns "ok", "n/a" or a failure (to free). */
static gchar *
run_cell (const Client * client, const Config * config, const gchar * dir)
{
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GPtrArray *refs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  static const gint sizes[][2] = { {97, 53}, {96, 48} };
  gint w = sizes[client->size][0], h = sizes[client->size][1];
  GstVideoInfo info;
  RefParams p;
  Result test, ref;
  gchar *verdict;
  guint i, pass;

  gst_video_info_set_interlaced_format (&info, config->format,
      config->interlaced ? GST_VIDEO_INTERLACE_MODE_INTERLEAVED :
      GST_VIDEO_INTERLACE_MODE_PROGRESSIVE, w, h);
  ref_params_from_setting (config->setting, &p);
  make_input_frames (config, &info, frames);
  for (i = 0; i < frames->len; i++) {
    GstBuffer *in = g_ptr_array_index (frames, i), *out = NULL;

    /* clepsilon ! clepsilon: the filter twice. */
    for (pass = 0; pass < (client->kind == CLIENT_DOUBLE ? 2 : 1); pass++) {
      GstBuffer *next = reference_frame (&info, out ? out : in, &p);

      if (out)
        gst_buffer_unref (out);
      out = next;
    }
    gst_buffer_copy_into (out, in, GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
    g_ptr_array_add (refs, out);
  }

  run_route (client, config, &info, refs, FALSE, dir, &ref);
  /* The reference route has nothing of ours in it: where GStreamer's own
   * elements stall there (uritranscodebin 1.22 did once, on a loaded
   * machine), it runs once more before the row fails (once a client:
   * run_client()). */
  if (ref.stalled) {
    g_printerr ("matrix: %s: the reference stalled, run again\n", client->name);
    reference_reruns++;
    result_clear (&ref);
    run_route (client, config, &info, refs, FALSE, dir, &ref);
  }
  if (ref.error) {
    /* What the client cannot take from plain frames is not ours to test. */
    verdict = ref.not_negotiated ? g_strdup ("n/a") :
        g_strdup_printf ("reference failed: %s", ref.error);
  } else {
    gchar *before = frames_checksum (frames);
    gchar *after;

    run_route (client, config, &info, frames, TRUE, dir, &test);
    after = frames_checksum (frames);
    if (!g_str_equal (before, after))
      verdict = g_strdup ("the input frames were written to");
    else if (test.error)
      verdict = g_strdup_printf ("error: %s", test.error);
    else if (!(verdict = compare_results (&test, &ref, &info, client)))
      verdict = g_strdup ("ok");
    result_clear (&test);
    g_free (before);
    g_free (after);
  }
  result_clear (&ref);
  g_ptr_array_unref (refs);
  g_ptr_array_unref (frames);
  return verdict;
}

static void
run_client (const Client * client)
{
  GArray *configs = make_configs ();
  gchar *dir = rt_tmp_dir_new ("clepsilonclients");
  gchar *missing = missing_factory (client);
  GString *failures = g_string_new (NULL);
  guint i, ok = 0, na = 0;

  reference_reruns = 0;
  if (missing) {
    g_print ("matrix: %-20s SKIPPED: element %s is not installed\n",
        client->name, missing);
    goto done;
  }
  for (i = 0; i < configs->len; i++) {
    const Config *config = &g_array_index (configs, Config, i);
    gchar *name = config_name (config);
    gchar *verdict = run_cell (client, config, dir);

    g_print ("matrix: %-20s %-34s %s\n", client->name, name, verdict);
    if (g_str_equal (verdict, "ok"))
      ok++;
    else if (g_str_equal (verdict, "n/a"))
      na++;
    else
      g_string_append_printf (failures, "\n  %s: %s", name, verdict);
    g_free (verdict);
    g_free (name);
  }
  g_print ("matrix: %-20s %u ok, %u n/a, %u failed\n", client->name, ok, na,
      configs->len - ok - na);
  fail_unless (failures->len == 0, "%s:%s", client->name, failures->str);
  fail_unless (reference_reruns <= 1, "%s: the reference stalled %u times",
      client->name, reference_reruns);

done:
  g_string_free (failures, TRUE);
  g_free (missing);
  rt_tmp_dir_remove (dir);
  g_free (dir);
  g_array_unref (configs);
}

GST_START_TEST (test_client)
{
  run_client (&clients[__i__]);
}

GST_END_TEST;

static Suite *
clepsilonclients_suite (void)
{
  Suite *s = suite_create ("clepsilonclients");
  TCase *tc = tcase_create ("matrix");

  /* uritranscodebin and transcodebin 1.22 unref the NULL filter they hold
   * when "video-filter" is first set: harmless, and not ours. */
  gst_check_add_log_filter ("GStreamer", G_LOG_LEVEL_CRITICAL,
      g_regex_new ("gst_object_unref: assertion 'object != NULL' failed", 0,
          0, NULL), NULL, NULL, NULL);

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 600);
  tcase_add_loop_test (tc, test_client, 0, G_N_ELEMENTS (clients));
  return s;
}

GST_CHECK_MAIN (clepsilonclients);
