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

/* What a stream can ask of clepsilon before it sends any image: caps of a
 * huge size, which any parser whose caps come from the file can set, must
 * hold no memory of their own, in passthrough or not, and caps the device
 * could never filter are refused with an error; a buffer with no memory at
 * all is refused with an error, without a GLib critical warning.
 *
 * The memory is the process's peak resident size (VmHWM in
 * /proc/self/status, reset through /proc/self/clear_refs), so that what the
 * OpenCL driver allocates and touches for the element counts too. */

#include <stdio.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "../harness.h"

/* More than the element may hold for caps alone, and far less than a plane
 * of the sizes below (256 MiB and more). */
#define MAX_PEAK_GROWTH (64 * 1024 * 1024)

/* The size of a frame of @caps. */
static gsize
frame_size (const gchar * caps)
{
  GstCaps *c = gst_caps_from_string (caps);
  GstVideoInfo info;

  fail_unless (c && gst_video_info_from_caps (&info, c));
  gst_caps_unref (c);
  return GST_VIDEO_INFO_SIZE (&info);
}

/* The value in kB of @field ("VmHWM", "VmRSS") in /proc/self/status, or -1. */
static gint64
status_kb (const gchar * field)
{
  gchar *text = NULL, *at;
  gint64 kb = -1;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return -1;
  at = strstr (text, field);
  if (at)
    kb = g_ascii_strtoll (at + strlen (field) + 1, NULL, 10);
  g_free (text);
  return kb;
}

/* Sets the peak resident size back to the current one; FALSE where the
 * kernel cannot (then the memory is not measured). */
static gboolean
reset_peak (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  gboolean done;

  if (!f)
    return FALSE;
  done = fputs ("5", f) >= 0;
  done = fclose (f) == 0 && done;
  return done && status_kb ("VmHWM") >= 0;
}

/* Bytes the peak resident size grew by since reset_peak(). */
static gint64
peak_growth (gint64 rss_kb_before)
{
  return (status_kb ("VmHWM") - rss_kb_before) * 1024;
}

/* A started clepsilon in a harness: in passthrough (no stage runs) or
 * filtering luma. */
static GstHarness *
new_harness (gboolean passthrough)
{
  GstElement *e = th_make_element ();

  th_plain_variants_under_valgrind (e);
  g_object_set (e, "threshold", passthrough ? 0 : 20, "chroma-threshold", 0,
      NULL);
  return th_harness_from_element (e);
}

/* Pushes @caps then 100 bytes of data through a new clepsilon, in
 * passthrough or filtering, as a stream whose header claims a huge frame
 * would; fails if the process's peak resident size grew by
 * MAX_PEAK_GROWTH or more meanwhile, plus, filtering, the output frame
 * that GstBaseTransform takes from the element's pool before the input is
 * looked at (malloc'd by PoCL; meson test's MALLOC_PERTURB_ fills it).
 * Returns the push's result, and the element's error ("message | debug",
 * or NULL) in @error_text. */
static GstFlowReturn
push_huge_caps (const gchar * caps, gboolean passthrough, gchar ** error_text)
{
  const gchar *mode = passthrough ? "passthrough" : "filtering";
  gint64 allowed = MAX_PEAK_GROWTH + (passthrough ? 0 : frame_size (caps));
  GstHarness *hr = new_harness (passthrough);
  gboolean measured = reset_peak ();
  gint64 rss_kb = status_kb ("VmRSS"), growth;
  GstFlowReturn ret;
  GstBuffer *out;

  gst_harness_set_caps_str (hr, caps, caps);
  ret = gst_harness_push (hr, gst_buffer_new_allocate (NULL, 100, NULL));
  growth = measured ? peak_growth (rss_kb) : 0;
  if ((out = gst_harness_try_pull (hr)))
    gst_buffer_unref (out);
  *error_text = NULL;
  rt_drain_errors (hr->element, error_text);
  rt_teardown (hr);

  GST_INFO ("%s, %s: %s, peak +%" G_GINT64_FORMAT " bytes%s, %s", caps, mode,
      gst_flow_get_name (ret), growth, measured ? "" : " (not measured)",
      *error_text ? *error_text : "no error");
  fail_unless (growth < allowed, "%s, %s: the peak resident size grew by %"
      G_GINT64_FORMAT " bytes, more than %" G_GINT64_FORMAT, caps, mode,
      growth, allowed);
  return ret;
}

/* Fails unless the caps were taken: in passthrough the 100 bytes went
 * through, filtering they were refused as too small for the caps. */
static void
check_caps_taken (gboolean passthrough, GstFlowReturn ret, const gchar * text)
{
  if (passthrough) {
    fail_unless (ret == GST_FLOW_OK, "passthrough: push returned %s: %s",
        gst_flow_get_name (ret), text);
    fail_unless (text == NULL, "passthrough: error \"%s\"", text);
  } else {
    fail_unless (ret == GST_FLOW_ERROR, "filtering: push returned %s",
        gst_flow_get_name (ret));
    fail_unless (text && strstr (text, "too small"), "filtering: error "
        "\"%s\"", text);
  }
}

/* Caps of huge frames, each pushed with 100 bytes of data, in passthrough
 * and filtering. Caps the device can hold are taken, and no plane's device
 * memory is taken for them, let alone touched. Where the device could
 * never hold the planes' buffers, the caps are refused with an error
 * saying so, before anything is allocated. Either way the peak resident
 * size stays low: caps alone must not allocate or fill planes' worth of
 * memory, in passthrough either (hundreds of MiB to gigabytes for these
 * caps). */
GST_START_TEST (test_huge_caps)
{
  static const struct
  {
    const gchar *caps;
    gboolean device_may_refuse;
  } huge[] = {
    /* 256 MiB of luma a frame, which any device here holds */
    {"video/x-raw, format=GRAY8, width=16384, height=16384, "
          "framerate=30/1", FALSE},
    /* 2 GB a frame: more than PoCL holds here, three planes of it */
    {"video/x-raw, format=GRAY8, width=46000, height=46000, "
          "framerate=30/1", TRUE},
  };
  guint i, passthrough;

  for (i = 0; i < G_N_ELEMENTS (huge); i++) {
    for (passthrough = 0; passthrough < 2; passthrough++) {
      gchar *text;
      GstFlowReturn ret = push_huge_caps (huge[i].caps, passthrough, &text);

      if (huge[i].device_may_refuse && ret == GST_FLOW_NOT_NEGOTIATED)
        fail_unless (text && strstr (text, "too large for the device"),
            "%s: caps refused with error \"%s\"", huge[i].caps, text);
      else
        check_caps_taken (passthrough, ret, text);
      g_free (text);
    }
  }
}

GST_END_TEST;

/* Counts the critical warnings GStreamer logs (and keeps gstcheck from
 * failing at the first, so that the test says what it saw). */
static gboolean
count_critical (const gchar * log_domain, GLogLevelFlags log_level,
    const gchar * message, gpointer user_data)
{
  guint *n_criticals = user_data;

  GST_ERROR ("critical warning: %s", message);
  (*n_criticals)++;
  return TRUE;
}

/* A buffer with no memory at all (gst_buffer_new() from an application):
 * refused with an error that says so, with no critical warning
 * (gst_buffer_peek_memory() on it asserts: an abort under
 * G_DEBUG=fatal-criticals). */
GST_START_TEST (test_buffer_without_memory)
{
  GstCheckLogFilter *filter;
  guint n_criticals = 0;
  GstVideoInfo info;
  GstHarness *hr;
  GstFlowReturn ret;
  gchar *text = NULL;

  hr = new_harness (FALSE);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 32, 16, &info);
  filter = gst_check_add_log_filter ("GStreamer", G_LOG_LEVEL_CRITICAL,
      g_regex_new (".*", 0, 0, NULL), count_critical, &n_criticals, NULL);
  ret = gst_harness_push (hr, gst_buffer_new ());
  gst_check_remove_log_filter (filter);
  fail_unless_equals_int (n_criticals, 0);
  fail_unless (ret == GST_FLOW_ERROR, "push returned %s",
      gst_flow_get_name (ret));
  fail_unless (gst_harness_try_pull (hr) == NULL);
  fail_unless (rt_drain_errors (hr->element, &text) == 1);
  fail_unless (strstr (text, "no memory") != NULL, "error \"%s\"", text);
  g_free (text);
  rt_teardown (hr);
}

GST_END_TEST;

/* A stream in bytes (a segment in GST_FORMAT_BYTES, as fakesrc without
 * format=time or a parser sends): frames are filtered and no critical
 * warning is raised (gst_segment_to_stream_time() asserts on a segment
 * that is not in time: the stream time of a timestamp is asked only of a
 * time segment, or G_DEBUG=fatal-criticals aborts). */
GST_START_TEST (test_bytes_segment)
{
  GstCheckLogFilter *filter;
  guint n_criticals = 0;
  GstVideoInfo info;
  GstSegment segment;
  GstHarness *hr;
  GstBuffer *in, *out;

  hr = new_harness (FALSE);
  th_harness_set_format (hr, GST_VIDEO_FORMAT_NV12, 32, 16, &info);
  gst_segment_init (&segment, GST_FORMAT_BYTES);
  fail_unless (gst_harness_push_event (hr, gst_event_new_segment (&segment)));
  in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (in, 0, 0x80, GST_VIDEO_INFO_SIZE (&info));
  GST_BUFFER_PTS (in) = GST_SECOND;
  filter = gst_check_add_log_filter ("GStreamer", G_LOG_LEVEL_CRITICAL,
      g_regex_new (".*", 0, 0, NULL), count_critical, &n_criticals, NULL);
  fail_unless_equals_int (gst_harness_push (hr, in), GST_FLOW_OK);
  gst_check_remove_log_filter (filter);
  fail_unless_equals_int (n_criticals, 0);
  out = gst_harness_pull (hr);
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  rt_teardown (hr);
}

GST_END_TEST;

static Suite *
clepsilonlimits_suite (void)
{
  Suite *s = suite_create ("clepsilonlimits");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_huge_caps);
  tcase_add_test (tc, test_buffer_without_memory);
  tcase_add_test (tc, test_bytes_segment);
  return s;
}

GST_CHECK_MAIN (clepsilonlimits);
