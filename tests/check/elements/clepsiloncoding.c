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

/* strength=auto with each frame's picture type and quantiser from the coded
 * stream, read where the decoder upstream takes it, with no special
 * pipeline: a rate-controlled MPEG-2 stream (tests/data/pan-rate.m2v,
 * testsrc2 at 176x144 scrolled by a fraction of a sample a frame, made by
 *   ffmpeg -f lavfi -i "testsrc2=size=176x144:rate=25,scroll=
 *     horizontal=0.0031:vertical=0.0017" -frames:v 26 -c:v mpeg2video
 *     -b:v 400k -maxrate 400k -bufsize 200k -bf 2 -g 9 -threads 1
 *     -f mpeg2video
 * whose intra frames show their lattice and whose predicted frames do not)
 * through mpegvideoparse ! avdec_mpeg2video and through decodebin (whose
 * decoder is made after the element started, and must be read from its
 * first picture on). The
 * frame types and quantisers expected are FFmpeg's (ffprobe -show_frames,
 * ffmpeg -debug qp), not the element's parser's: each B frame must take 6/16
 * of the last intra frame's threshold, each P frame 10/16 of it times the
 * square root of its quantiser over the intra frame's (within a quarter to
 * twice), which no frame gets without its coding (the gains by position
 * are 14/16 and 9/16). The thresholds are the element's stats after each
 * frame. The same for H.263 through decodebin (h263parse ! avdec_h263): a
 * fixed-quantiser sample (tests/data/pan-h263.h263, the same content,
 *   ffmpeg -f lavfi -i "testsrc2=size=176x144:rate=25,scroll=
 *     horizontal=0.0031:vertical=0.0017" -frames:v 26 -c:v h263 -q:v 10
 *     -g 9 -threads 1 -f h263
 * intra frames every 9, P frames between, each at quantiser 10), and for
 * H.263+ (PLUSPTYPE) through h263parse ! avdec_h263 (typefind takes no
 * H.263+ elementary stream) a sample coded the same with -c:v h263p
 * (tests/data/pan-h263p.h263). H.264, whose deblocked frames show no
 * lattice: each frame's threshold from its slices' QP (half the quantiser
 * step, 3/8 on B frames), on a sample coded by x264 at fixed QPs
 * (tests/data/pan-h264.h264, the same content,
 *   ffmpeg -f lavfi -i "testsrc2=size=176x144:rate=25,scroll=
 *     horizontal=0.0031:vertical=0.0017" -frames:v 26 -c:v libx264 -qp 34
 *     -bf 2 -g 9 -x264-params aq-mode=0:scenecut=0:b-adapt=0:bframes=2:
 *     b-pyramid=0 -threads 1 -f h264
 * QP 31 on I frames, 34 on P frames, 36 on B frames: FFmpeg's -debug qp)
 * through h264parse ! avdec_h264 as byte-stream and in AVC form and
 * through decodebin, and its luma against the C reference's stage at
 * those thresholds, its chroma untouched. The OpenCL device is
 * $CLEPSILON_TEST_DEVICE (default "pocl"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <gst/app/gstappsink.h>
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "reference.h"

/* pan-rate.m2v in display order: type and quantiser_scale of each frame */
static const gchar types[] = "IBBPBBPBBIBBPBBPBBIBBPBBPI";
static const guint quantisers[] = { 8, 8, 10, 4, 18, 28, 10, 50, 22, 26, 44,
  28, 12, 40, 30, 20, 26, 22, 32, 40, 36, 24, 36, 30, 24, 24
};

/* pan-h263.h263: type of each frame; every PQUANT is 10 */
static const gchar h263_types[] = "IPPPPPPPPIPPPPPPPPIPPPPPPP";
static const guint h263_quantisers[26] = { 10, 10, 10, 10, 10, 10, 10, 10,
  10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10
};


static const gchar *
device (void)
{
  const gchar *d = g_getenv ("CLEPSILON_TEST_DEVICE");

  return d ? d : "pocl";
}

/* After each frame the element pushes: the threshold strength=auto used. */
static GstPadProbeReturn
note_threshold (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GArray *thresholds = user_data;
  GstElement *e = gst_pad_get_parent_element (pad);
  GstStructure *stats;
  guint t = 0;

  g_object_get (e, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint (stats, "auto-threshold", &t));
  gst_structure_free (stats);
  gst_object_unref (e);
  g_array_append_val (thresholds, t);
  return GST_PAD_PROBE_OK;
}

/* Plays "filesrc ! @decode ! clepsilon strength=auto ! fakesink" on
 * tests/data/@file; each frame's threshold. */
static GArray *
thresholds_of (const gchar * file, const gchar * decode)
{
  gchar *path = g_build_filename (g_getenv ("CLEPSILON_TEST_DATA"), file,
      NULL);
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! %s ! clepsilon "
      "name=e strength=auto device=\"%s\" ! fakesink", path, decode,
      device ());
  GstElement *pipeline = gst_parse_launch (desc, NULL), *e;
  GArray *thresholds = g_array_new (FALSE, FALSE, sizeof (guint));
  GstPad *src;
  GstBus *bus;
  GstMessage *msg;

  fail_unless (pipeline != NULL, "%s", desc);
  e = gst_bin_get_by_name (GST_BIN (pipeline), "e");
  src = gst_element_get_static_pad (e, "src");
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, note_threshold,
      thresholds, NULL);
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "%s: no EOS", desc);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (e);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (path);
  return thresholds;
}

static GArray *
thresholds_through (const gchar * decode)
{
  return thresholds_of ("pan-rate.m2v", decode);
}

/* Every frame: intra frames have a threshold of their own (the held one),
 * B and P frames the one their coding (@types, @quantisers) gives, half of
 * it before the second intra frame; where every quantiser so far was the
 * held one's (two frames after the first intra frame, no other between:
 * a fixed quantiser), 14/16 of it, and 9/16 for a B frame within two
 * frames of the next intra frame (the distance between the last two) or
 * before that distance is known. */
static void
check_coded_thresholds (GArray * thresholds, const gchar * what,
    const gchar * types, const guint * quantisers)
{
  guint i, held = 0, held_q = 0, intras = 0, same = 0, last_i = 0, period = 0;
  gboolean varied = FALSE;

  fail_unless_equals_int (thresholds->len, strlen (types));
  for (i = 0; i < thresholds->len; i++) {
    const guint t = g_array_index (thresholds, guint, i);
    guint expected;

    if (held_q > 0 && quantisers[i] != held_q)
      varied = TRUE;
    else if (held_q > 0)
      same++;
    if (types[i] == 'I') {
      fail_unless (t > 0, "%s: intra frame %u shows no lattice", what, i);
      if (intras > 0)
        period = MAX (period, i - last_i);
      held = t;
      held_q = quantisers[i];
      last_i = i;
      intras++;
      continue;
    }
    if (!varied && same >= 2) {
      const gboolean late = types[i] == 'B' && (period == 0 ||
          i - last_i + 2 >= period);

      expected = (held * (late ? 9 : 14) + 8) >> 4;
    } else if (types[i] == 'B') {
      expected = (guint) floor ((intras < 2 ? 0.5 : 1.0) * held * 6 / 16.0 +
          0.5);
    } else {
      gdouble ratio = CLAMP ((gdouble) quantisers[i] / held_q, 0.25, 2.0);

      expected = (guint) floor ((intras < 2 ? 0.5 : 1.0) * held * 10 / 16.0 *
          sqrt (ratio) + 0.5);
    }
    fail_unless (t == expected, "%s: frame %u (%c, quantiser %u after %u): "
        "threshold %u, expected %u of the held %u", what, i, types[i],
        quantisers[i], held_q, t, expected, held);
  }
}

static void
check_thresholds (GArray * thresholds, const gchar * what)
{
  check_coded_thresholds (thresholds, what, types, quantisers);
}

/* Whether the element factories @decoder and @parser (NULL: none) are
 * there; says which test does not run where one is missing. */
static gboolean
have (const gchar * decoder, const gchar * parser)
{
  if (gst_registry_check_feature_version (gst_registry_get (), decoder, 1, 0,
          0) && (parser == NULL ||
          gst_registry_check_feature_version (gst_registry_get (), parser,
              1, 0, 0)))
    return TRUE;
  GST_WARNING ("no %s%s%s: not run", decoder, parser ? " or " : "",
      parser ? parser : "");
  return FALSE;
}

GST_START_TEST (test_parser_and_decoder)
{
  GArray *t;

  if (!have ("avdec_mpeg2video", NULL))
    return;
  t = thresholds_through ("mpegvideoparse ! avdec_mpeg2video");
  check_thresholds (t, "mpegvideoparse ! avdec_mpeg2video");
  g_array_unref (t);
}

GST_END_TEST;

GST_START_TEST (test_decodebin)
{
  GArray *t;

  if (!have ("avdec_mpeg2video", NULL))
    return;
  t = thresholds_through ("decodebin ! queue");
  check_thresholds (t, "decodebin ! queue");
  g_array_unref (t);
}

GST_END_TEST;

/* tests/data/@file through @decode: the told thresholds of pan-h263's
 * coding. */
static void
check_h263 (const gchar * file, const gchar * decode)
{
  GArray *t;

  if (!have ("avdec_h263", "h263parse"))
    return;
  t = thresholds_of (file, decode);
  check_coded_thresholds (t, file, h263_types, h263_quantisers);
  g_array_unref (t);
}

GST_START_TEST (test_h263_decodebin)
{
  check_h263 ("pan-h263.h263", "decodebin ! queue");
}

GST_END_TEST;

GST_START_TEST (test_h263_plus_parser)
{
  check_h263 ("pan-h263p.h263", "h263parse ! avdec_h263");
}

GST_END_TEST;

/* pan-h264.h264 in display order: type of each frame, and each type's QP
 * (FFmpeg's) */
static const gchar h264_types[] = "IBBPBBPBPIBBPBBPBPIBBPBBPP";

/* The threshold of an H.264 frame of @type: half the quantiser step of its
 * QP (0.625 x 2^(QP/6)), 3/8 of it on B frames. */
static guint
h264_threshold (gchar type)
{
  const gdouble qp = type == 'I' ? 31 : type == 'P' ? 34 : 36;

  return (guint) floor (0.625 * pow (2, qp / 6) * (type == 'B' ? 6 : 8) /
      16.0 + 0.5);
}

static void
check_h264 (const gchar * decode)
{
  GArray *t;
  guint i;

  if (!have ("avdec_h264", "h264parse"))
    return;
  t = thresholds_of ("pan-h264.h264", decode);
  fail_unless_equals_int (t->len, strlen (h264_types));
  for (i = 0; i < t->len; i++)
    fail_unless (g_array_index (t, guint, i) == h264_threshold (h264_types[i]),
        "%s: frame %u (%c): threshold %u, expected %u", decode, i,
        h264_types[i], g_array_index (t, guint, i),
        h264_threshold (h264_types[i]));
  g_array_unref (t);
}

GST_START_TEST (test_h264_parser_and_decoder)
{
  /* expected values that tell the frame types apart */
  fail_unless (h264_threshold ('I') != h264_threshold ('P') &&
      h264_threshold ('P') != h264_threshold ('B'));
  check_h264 ("h264parse ! avdec_h264");
  check_h264 ("h264parse ! video/x-h264,stream-format=avc,alignment=au ! "
      "avdec_h264");
}

GST_END_TEST;

GST_START_TEST (test_h264_decodebin)
{
  check_h264 ("decodebin ! queue");
}

GST_END_TEST;

/* The next frame of appsink @name in @pipeline, mapped into @frame. */
static GstSample *
pull_frame (GstElement * pipeline, const gchar * name, GstVideoFrame * frame)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  GstVideoInfo info;

  gst_object_unref (sink);
  if (sample == NULL)
    return NULL;
  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless (gst_video_frame_map (frame, &info,
          gst_sample_get_buffer (sample), GST_MAP_READ));
  return sample;
}

/* The decoded frames of pan-h264 and the element's, side by side: luma the
 * C reference's stage on the decoded luma at the frame's threshold, chroma
 * as decoded. */
GST_START_TEST (test_h264_output)
{
  gchar *path = g_build_filename (g_getenv ("CLEPSILON_TEST_DATA"),
      "pan-h264.h264", NULL);
  gchar *desc;
  GstElement *pipeline;
  guint n;

  if (!have ("avdec_h264", "h264parse")) {
    g_free (path);
    return;
  }
  desc = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! avdec_h264 "
      "! video/x-raw,format=I420 ! tee name=t t. ! queue ! appsink name=raw "
      "sync=false t. ! queue ! clepsilon strength=auto device=\"%s\" ! "
      "appsink name=out sync=false", path, device ());
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (n = 0;; n++) {
    GstVideoFrame raw, out;
    GstSample *rs = pull_frame (pipeline, "raw", &raw), *os;
    const gint w = GST_VIDEO_FRAME_COMP_WIDTH (&raw, 0);
    const gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&raw, 0);
    guint8 *want;
    gint y, c;

    if (rs == NULL)
      break;
    fail_unless (n < strlen (h264_types));
    os = pull_frame (pipeline, "out", &out);
    fail_unless (os != NULL);
    want = g_malloc ((gsize) w * h);
    ref_dct_threshold_plane (GST_VIDEO_FRAME_COMP_DATA (&raw, 0),
        GST_VIDEO_FRAME_COMP_STRIDE (&raw, 0), want, w, w, h,
        h264_threshold (h264_types[n]), 16);
    for (y = 0; y < h; y++)
      fail_unless (memcmp (want + y * w, GST_VIDEO_FRAME_COMP_DATA (&out, 0) +
              y * GST_VIDEO_FRAME_COMP_STRIDE (&out, 0), w) == 0,
          "frame %u (%c): luma row %d differs from the reference", n,
          h264_types[n], y);
    for (c = 1; c < 3; c++)
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&raw, c); y++)
        fail_unless (memcmp (GST_VIDEO_FRAME_COMP_DATA (&raw, c) + y *
                GST_VIDEO_FRAME_COMP_STRIDE (&raw, c),
                GST_VIDEO_FRAME_COMP_DATA (&out, c) + y *
                GST_VIDEO_FRAME_COMP_STRIDE (&out, c),
                GST_VIDEO_FRAME_COMP_WIDTH (&raw, c)) == 0,
            "frame %u: chroma %d row %d changed", n, c, y);
    /* the stage changes a frame of such a threshold */
    fail_unless (memcmp (want, GST_VIDEO_FRAME_COMP_DATA (&raw, 0), w) != 0 ||
        memcmp (want + (h / 2) * w, GST_VIDEO_FRAME_COMP_DATA (&raw, 0) +
            (h / 2) * GST_VIDEO_FRAME_COMP_STRIDE (&raw, 0), w) != 0);
    g_free (want);
    gst_video_frame_unmap (&out);
    gst_video_frame_unmap (&raw);
    gst_sample_unref (os);
    gst_sample_unref (rs);
  }
  fail_unless_equals_int (n, strlen (h264_types));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

static Suite *
clepsiloncoding_suite (void)
{
  Suite *s = suite_create ("clepsiloncoding");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parser_and_decoder);
  tcase_add_test (tc, test_decodebin);
  tcase_add_test (tc, test_h263_decodebin);
  tcase_add_test (tc, test_h263_plus_parser);
  tcase_add_test (tc, test_h264_parser_and_decoder);
  tcase_add_test (tc, test_h264_decodebin);
  tcase_add_test (tc, test_h264_output);
  return s;
}

GST_CHECK_MAIN (clepsiloncoding);
