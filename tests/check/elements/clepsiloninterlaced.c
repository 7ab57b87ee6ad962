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

/* Interlaced video through the element, as users meet it: an interlaced
 * MPEG-2 stream (tests/data/interlaced-tff.m2v: testsrc2 at 176x144,
 * interlaced top field first, coded with field and frame DCT by
 *   ffmpeg -f lavfi -i testsrc2=s=176x144:r=50 -vf interlace=scan=tff
 *     -frames:v 6 -c:v mpeg2video -flags +ildct+ilme -top 1 -q:v 12 -g 6
 *     -bf 0 -f mpeg2video
 * ) decoded by decodebin (a mixed stream, each frame flagged interlaced),
 * videotestsrc's interleaved frames, and a stream of one field a buffer
 * (interlace-mode=alternate). Each output is compared sample by sample
 * with the CPU reference filtering each field on its own, and with the one
 * filtering the woven frame, which must differ somewhere: a test that
 * cannot tell fields from frames proves nothing. The OpenCL device is
 * $CLEPSILON_TEST_DEVICE (default "pocl"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <string.h>

#include "reference.h"

static const gchar *
device (void)
{
  const gchar *d = g_getenv ("CLEPSILON_TEST_DEVICE");

  return d ? d : "pocl";
}

/* Every sample of @out against @ref's; the number that differ. */
static guint
count_differences (const GstVideoFrame * out, const GstVideoFrame * ref)
{
  const GstVideoInfo *info = &out->info;
  guint comp, n = 0;
  gint x, y;

  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
    guint plane = GST_VIDEO_INFO_COMP_PLANE (info, comp);

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (out, comp); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (out, comp); x++)
        n += ref_get_sample (info, comp, out->data[plane],
            out->info.stride[plane], x, y) !=
            ref_get_sample (&ref->info, comp, ref->data[plane],
            ref->info.stride[plane], x, y);
  }
  return n;
}

/* The reference of @in (filtered by @fields or as a frame) into a new
 * buffer of @info. */
static GstBuffer *
reference (const GstVideoInfo * info, GstBuffer * in, const RefParams * p,
    gboolean fields)
{
  GstBuffer *ref = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame fin, fref;
  gint height = GST_VIDEO_INFO_FIELD_HEIGHT (info);

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, info, ref, GST_MAP_WRITE));
  (fields ? ref_process_region_fields : ref_process_region) (info,
      (guint8 **) fin.data, fin.info.stride, (guint8 **) fref.data,
      fref.info.stride, p, 0, 0, GST_VIDEO_INFO_WIDTH (info), height);
  gst_video_frame_unmap (&fref);
  gst_video_frame_unmap (&fin);
  return ref;
}

/* Checks @out against the field-wise reference of @in (@fields) or the
 * frame-wise one; returns how many samples the other reference differs
 * in. */
static guint
check_output (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const RefParams * p, gboolean fields, const gchar * what)
{
  GstBuffer *want = reference (info, in, p, fields);
  GstBuffer *other = reference (info, in, p, !fields);
  GstVideoFrame fout, fwant, fother;
  guint wrong, differ;

  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fwant, info, want, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fother, info, other, GST_MAP_READ));
  wrong = count_differences (&fout, &fwant);
  differ = count_differences (&fother, &fwant);
  fail_unless (wrong == 0, "%s: %u samples differ from the %s reference",
      what, wrong, fields ? "field-wise" : "frame-wise");
  gst_video_frame_unmap (&fother);
  gst_video_frame_unmap (&fwant);
  gst_video_frame_unmap (&fout);
  gst_buffer_unref (other);
  gst_buffer_unref (want);
  return differ;
}

/* The next sample of @sink, or NULL at EOS; fails on an ERROR of @pipe
 * instead of waiting for a sample that will not come. */
static GstSample *
pull (GstElement * pipe, GstElement * sink)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstSample *sample = NULL;
  GstMessage *msg;

  while (!sample && !gst_app_sink_is_eos (GST_APP_SINK (sink))) {
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        GST_SECOND / 10);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      GError *error = NULL;

      gst_message_parse_error (msg, &error, NULL);
      fail ("pipeline error: %s", error->message);
    }
  }
  gst_object_unref (bus);
  return sample;
}

/* Runs @source ! tee, one branch into appsink "in", the other through
 * clepsilon with @props into appsink "out"; checks every output frame and
 * returns the samples the frame-wise reference differs in, in all. */
static guint
run_tee (const gchar * source, const gchar * props, const RefParams * p,
    gboolean expect_fields, guint * frames)
{
  gchar *desc = g_strdup_printf ("%s ! tee name=t t. ! queue ! appsink "
      "name=in sync=false t. ! queue ! clepsilon name=e device=%s %s ! "
      "appsink name=out sync=false", source, device (), props);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *in = gst_bin_get_by_name (GST_BIN (pipe), "in");
  GstElement *out = gst_bin_get_by_name (GST_BIN (pipe), "out");
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), "e");
  GstSample *s_in, *s_out;
  GstStructure *stats = NULL;
  guint differ = 0;
  guint64 field_frames = 0;

  fail_unless (pipe != NULL, "%s", desc);
  *frames = 0;
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((s_out = pull (pipe, out))) {
    GstVideoInfo info;
    GstBuffer *bin, *bout;
    gboolean fields;

    s_in = gst_app_sink_pull_sample (GST_APP_SINK (in));
    fail_unless (s_in != NULL);
    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (s_in)));
    bin = gst_sample_get_buffer (s_in);
    bout = gst_sample_get_buffer (s_out);
    fields = GST_VIDEO_INFO_INTERLACE_MODE (&info) ==
        GST_VIDEO_INTERLACE_MODE_INTERLEAVED ||
        (GST_VIDEO_INFO_INTERLACE_MODE (&info) ==
        GST_VIDEO_INTERLACE_MODE_MIXED &&
        GST_BUFFER_FLAG_IS_SET (bin, GST_VIDEO_BUFFER_FLAG_INTERLACED));
    fail_unless (fields == expect_fields, "frame %u: fields %d", *frames,
        fields);
    differ += check_output (&info, bin, bout, p, fields, desc);
    (*frames)++;
    gst_sample_unref (s_in);
    gst_sample_unref (s_out);
  }
  g_object_get (e, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint64 (stats, "field-frames", &field_frames));
  fail_unless_equals_uint64 (field_frames, expect_fields ? *frames : 0);
  gst_structure_free (stats);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (e);
  gst_object_unref (out);
  gst_object_unref (in);
  gst_object_unref (pipe);
  g_free (desc);
  return differ;
}

static void
params (RefParams * p, guint threshold, guint window, guint chroma)
{
  ref_params_init (p);
  p->threshold = threshold;
  p->window = window;
  p->chroma_threshold = chroma;
}

/* The decoded interlaced MPEG-2: each frame flagged interlaced, filtered
 * field by field, luma and chroma. */
GST_START_TEST (test_interlaced_mpeg2)
{
  gchar *path = g_build_filename (g_getenv ("CLEPSILON_TEST_DATA"),
      "interlaced-tff.m2v", NULL);
  gchar *source = g_strdup_printf ("filesrc location=\"%s\" ! decodebin",
      path);
  RefParams p;
  guint frames, differ;

  if (!gst_registry_check_feature_version (gst_registry_get (),
          "avdec_mpeg2video", 1, 0, 0)) {
    g_print ("test_interlaced_mpeg2: skipped, no avdec_mpeg2video "
        "(gstreamer1.0-libav)\n");
    g_free (source);
    g_free (path);
    return;
  }
  params (&p, 20, 5, 12);
  differ = run_tee (source, "threshold=20 window-size=5 chroma-threshold=12",
      &p, TRUE, &frames);
  fail_unless_equals_int (frames, 6);
  fail_unless (differ > 0, "the frame-wise reference differs nowhere");
  GST_INFO ("frame-wise filtering would differ in %u samples", differ);
  g_free (source);
  g_free (path);
}

GST_END_TEST;

/* videotestsrc's interleaved frames, of an odd height, planar, semi-planar
 * and packed. */
GST_START_TEST (test_interleaved)
{
  static const gchar *formats[] = { "NV12", "I420", "GRAY8", "YUY2", "UYVY" };
  guint f, frames, differ;
  RefParams p;

  params (&p, 30, 3, 20);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    gchar *source = g_strdup_printf ("videotestsrc num-buffers=3 "
        "pattern=zone-plate kx2=20 ky2=20 kt=1 ! video/x-raw,format=%s,"
        "width=70,height=45,interlace-mode=interleaved", formats[f]);

    differ = run_tee (source, "threshold=30 window-size=3 "
        "chroma-threshold=20", &p, TRUE, &frames);
    fail_unless_equals_int (frames, 3);
    fail_unless (differ > 0, "%s: the frame-wise reference differs nowhere",
        formats[f]);
    g_free (source);
  }
}

GST_END_TEST;

/* A progressive stream is still filtered as frames. */
GST_START_TEST (test_progressive)
{
  guint frames, differ;
  RefParams p;

  params (&p, 30, 3, 0);
  differ = run_tee ("videotestsrc num-buffers=2 pattern=zone-plate kx2=20 "
      "ky2=20 kt=1 ! video/x-raw,format=I420,width=64,height=36",
      "threshold=30 window-size=3", &p, FALSE, &frames);
  fail_unless_equals_int (frames, 2);
  fail_unless (differ > 0);
}

GST_END_TEST;

/* One field a buffer: each is filtered as the picture it is. */
GST_START_TEST (test_alternate)
{
  GstHarness *h = gst_harness_new_parse ("clepsilon threshold=25 "
      "window-size=3");
  GRand *rand = g_rand_new_with_seed (0xa17e);
  GstVideoInfo info;
  GstCaps *caps;
  RefParams p;
  guint i, k;

  g_object_set (gst_harness_find_element (h, "clepsilon"), "device",
      device (), NULL);
  caps = gst_caps_from_string ("video/x-raw(format:Interlaced),format=I420,"
      "width=64,height=49,framerate=25/1,interlace-mode=alternate");
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, caps);
  params (&p, 25, 3, 0);
  for (i = 0; i < 2; i++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL);
    GstBuffer *out;
    GstMapInfo map;

    gst_buffer_map (in, &map, GST_MAP_WRITE);
    for (k = 0; k < map.size; k++)
      map.data[k] = g_rand_int_range (rand, 0, 256);
    gst_buffer_unmap (in, &map);
    GST_BUFFER_FLAG_SET (in, i == 0 ? GST_VIDEO_BUFFER_FLAG_TOP_FIELD :
        GST_VIDEO_BUFFER_FLAG_BOTTOM_FIELD);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    fail_unless_equals_int (gst_buffer_get_size (out) >= info.size, TRUE);
    check_output (&info, in, out, &p, FALSE, "alternate");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  g_rand_free (rand);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A crop rectangle of a field-geometry case; width 0: no crop meta. */
typedef struct
{
  gint x, y, width, height;
} Crop;

/* One frame of @caps_str (interleaved or mixed, @flagged with
 * GST_VIDEO_BUFFER_FLAG_INTERLACED) with @crop through a new element:
 * compares every sample with the input, the reference filtering the crop
 * rectangle (or the frame) by fields (@fields) written over it; returns
 * how many samples the other reference (by frames instead) differs in. */
static guint
run_geometry (const gchar * caps_str, gboolean flagged, const Crop * crop,
    const RefParams * p, gboolean fields, guint32 seed)
{
  GstHarness *h = gst_harness_new ("clepsilon");
  GRand *rand = g_rand_new_with_seed (seed);
  GstElement *e = gst_harness_find_element (h, "clepsilon");
  gchar *what = g_strdup_printf ("%s%s, crop %d,%d %dx%d (seed 0x%x)",
      caps_str, flagged ? " (flagged interlaced)" : "", crop->x, crop->y,
      crop->width, crop->height, seed);
  GstBuffer *in, *out, *want[2];
  GstVideoFrame fin, fw[2], fout;
  GstVideoCropMeta *meta;
  GstVideoInfo info;
  GstCaps *caps;
  GstMapInfo map;
  guint i, k, wrong, differ;
  gint x = 0, y = 0, w, hh;

  g_object_set (e, "device", device (), "threshold", p->threshold,
      "window-size", p->window, "chroma-threshold", p->chroma_threshold, NULL);
  gst_object_unref (e);
  caps = gst_caps_from_string (caps_str);
  fail_unless (gst_video_info_from_caps (&info, caps), "%s", caps_str);
  gst_harness_set_src_caps (h, caps);
  w = GST_VIDEO_INFO_WIDTH (&info);
  hh = GST_VIDEO_INFO_HEIGHT (&info);

  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_map (in, &map, GST_MAP_WRITE);
  for (k = 0; k < map.size; k++)
    map.data[k] = g_rand_int_range (rand, 0, 256);
  gst_buffer_unmap (in, &map);
  if (flagged)
    GST_BUFFER_FLAG_SET (in, GST_VIDEO_BUFFER_FLAG_INTERLACED |
        GST_VIDEO_BUFFER_FLAG_TFF);
  if (crop->width > 0) {
    meta = gst_buffer_add_video_crop_meta (in);
    meta->x = x = crop->x;
    meta->y = y = crop->y;
    meta->width = w = crop->width;
    meta->height = hh = crop->height;
  }
  /* the input, with each reference's result over the rectangle */
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  for (i = 0; i < 2; i++) {
    want[i] = gst_buffer_copy_deep (in);
    fail_unless (gst_video_frame_map (&fw[i], &info, want[i], GST_MAP_WRITE));
    ((i == 0) == fields ? ref_process_region_fields : ref_process_region)
        (&info, (guint8 **) fin.data, fin.info.stride, (guint8 **) fw[i].data,
        fw[i].info.stride, p, x, y, w, hh);
  }
  gst_video_frame_unmap (&fin);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s: no output", what);
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  wrong = count_differences (&fout, &fw[0]);
  differ = count_differences (&fw[1], &fw[0]);
  fail_unless (wrong == 0, "%s: %u samples differ from the %s reference",
      what, wrong, fields ? "field-wise" : "frame-wise");
  meta = gst_buffer_get_video_crop_meta (out);
  fail_unless ((meta != NULL) == (crop->width > 0), "%s: crop meta %s", what,
      meta ? "appeared" : "lost");
  gst_video_frame_unmap (&fout);
  for (i = 0; i < 2; i++) {
    gst_video_frame_unmap (&fw[i]);
    gst_buffer_unref (want[i]);
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_rand_free (rand);
  g_free (what);
  gst_harness_teardown (h);
  return differ;
}

/* Fields at every parity: frames of odd and even heights, crop rectangles
 * starting on either field's row and spanning an odd or an even number of
 * rows (a field then has one row more than the other, or none at all), in
 * a 4:2:0 format, whose chroma fields are of chroma rows, in a semi-planar
 * one and in grey. Each field is filtered as a picture of its own within
 * the rectangle; the rest of the frame is left as it came. */
GST_START_TEST (test_field_geometry)
{
  static const gchar *formats[] = { "I420", "NV12", "GRAY8" };
  static const gint heights[] = { 45, 46, 7 };
  static const Crop crops[] = {
    {0, 0, 0, 0},
    {3, 0, 21, 20}, {3, 1, 21, 20}, {5, 2, 19, 13}, {5, 3, 19, 13},
    {0, 1, 30, 1}, {2, 4, 17, 2}, {1, 5, 28, 3},
  };
  guint f, hi, c, differ = 0;
  RefParams p;

  params (&p, 40, 5, 30);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (hi = 0; hi < G_N_ELEMENTS (heights); hi++) {
      for (c = 0; c < G_N_ELEMENTS (crops); c++) {
        gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=30,"
            "height=%d,framerate=25/1,interlace-mode=interleaved",
            formats[f], heights[hi]);

        if (crops[c].y + crops[c].height > heights[hi]) {
          g_free (caps);
          continue;
        }
        differ += run_geometry (caps, FALSE, &crops[c], &p, TRUE,
            0x6e0 + f * 256 + hi * 16 + c);
        g_free (caps);
      }
    }
  }
  fail_unless (differ > 0, "the frame-wise reference differs nowhere");
}

GST_END_TEST;

/* interlace-mode=mixed: a frame flagged interlaced is filtered by fields,
 * one without the flag whole, with and without a crop rectangle, in one
 * stream as a decoder of mixed content sends them. */
GST_START_TEST (test_mixed_flag)
{
  static const Crop crops[] = { {0, 0, 0, 0}, {2, 1, 25, 18}, {4, 2, 9, 7} };
  static const gint heights[] = { 37, 36 };
  guint c, hi, flagged, differ[2] = { 0, 0 };
  RefParams p;

  params (&p, 40, 3, 30);
  for (hi = 0; hi < G_N_ELEMENTS (heights); hi++) {
    gchar *caps = g_strdup_printf ("video/x-raw,format=I420,width=30,"
        "height=%d,framerate=25/1,interlace-mode=mixed", heights[hi]);

    for (c = 0; c < G_N_ELEMENTS (crops); c++)
      for (flagged = 0; flagged < 2; flagged++)
        differ[flagged] += run_geometry (caps, flagged, &crops[c], &p,
            flagged, 0x3170 + hi * 16 + c * 2 + flagged);
    g_free (caps);
  }
  fail_unless (differ[0] > 0 && differ[1] > 0,
      "fields and frames filter alike (%u, %u samples differ)", differ[0],
      differ[1]);
}

GST_END_TEST;

static Suite *
clepsiloninterlaced_suite (void)
{
  Suite *s = suite_create ("clepsiloninterlaced");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_interlaced_mpeg2);
  tcase_add_test (tc, test_interleaved);
  tcase_add_test (tc, test_progressive);
  tcase_add_test (tc, test_alternate);
  tcase_add_test (tc, test_field_geometry);
  tcase_add_test (tc, test_mixed_flag);
  return s;
}

GST_CHECK_MAIN (clepsiloninterlaced);
