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

#include <string.h>

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>

#include "robust.h"

#define DEFAULT_TEST_DEVICE "pocl"

const GstVideoFormat rt_formats_420[2] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
};

const GstVideoFormat rt_formats_8bit[7] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_Y42B,
};

const GstVideoFormat rt_formats_10bit[4] = {
  GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_Y444_10LE,
};

const gchar *
rt_device (void)
{
  const gchar *d = g_getenv ("CLEPSILON_TEST_DEVICE");

  return (d != NULL && *d != '\0') ? d : DEFAULT_TEST_DEVICE;
}

gchar *
rt_caps_string (GstVideoFormat fmt, gint w, gint h)
{
  return g_strdup_printf ("video/x-raw, format=(string)%s, width=(int)%d, "
      "height=(int)%d, framerate=(fraction)30/1, "
      "pixel-aspect-ratio=(fraction)1/1", gst_video_format_to_string (fmt),
      w, h);
}

GstCaps *
rt_caps (GstVideoFormat fmt, gint w, gint h)
{
  gchar *s = rt_caps_string (fmt, w, h);
  GstCaps *caps = gst_caps_from_string (s);

  g_free (s);
  return caps;
}

void
rt_apply_params (GstElement * e, const RefParams * p, const gchar * kernel)
{
  g_object_set (e, "threshold", p->threshold, "window-size", p->window,
      "chroma-threshold", p->chroma_threshold, "kernel", kernel ? kernel : "",
      "divisor", p->divisor, "bias", p->bias, NULL);
}

gboolean
rt_params_set_kernel (RefParams * p, const gchar * text)
{
  gchar **rows = g_strsplit (text, ";", -1);
  gint n_rows = 0, width = -1, n = 0, r, side;
  gboolean ok = TRUE;

  for (r = 0; rows[r] != NULL && ok; r++) {
    gchar **nums;
    gint c, count = 0;

    g_strdelimit (rows[r], ",\t\n\r", ' ');
    if (*g_strstrip (rows[r]) == '\0') {
      ok = rows[r + 1] == NULL && r > 0;        /* a trailing ';' */
      break;
    }
    nums = g_strsplit (rows[r], " ", -1);
    for (c = 0; nums[c] != NULL && ok; c++) {
      gchar *end;

      if (nums[c][0] == '\0')
        continue;
      if (n == REF_KERNEL_MAX_SIDE * REF_KERNEL_MAX_SIDE) {
        ok = FALSE;
        break;
      }
      p->kernel[n++] = g_ascii_strtod (nums[c], &end);
      ok = *end == '\0';
      count++;
    }
    g_strfreev (nums);
    ok = ok && count > 0 && (width < 0 || count == width);
    width = count;
    n_rows++;
  }
  g_strfreev (rows);
  if (!ok || n == 0)
    return FALSE;

  p->kernel_width = width;
  p->kernel_height = n_rows;
  side = 1;
  while (side * side < n)
    side++;
  if (n_rows == 1 && side * side == n && side > 1)
    p->kernel_width = p->kernel_height = side;
  return p->kernel_width % 2 == 1 && p->kernel_height % 2 == 1 &&
      p->kernel_width <= REF_KERNEL_MAX_SIDE &&
      p->kernel_height <= REF_KERNEL_MAX_SIDE;
}

gsize
rt_row_bytes (const GstVideoInfo * info, guint plane)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  gsize row_bytes = 0;
  guint c;

  gst_video_format_info_component (info->finfo, plane, comp);
  for (c = 0; c < GST_VIDEO_MAX_COMPONENTS && comp[c] >= 0; c++)
    row_bytes = MAX (row_bytes, (gsize) GST_VIDEO_INFO_COMP_WIDTH (info,
            comp[c]) * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[c]));
  return row_bytes;
}

void
rt_fill_random (GstBuffer * buf, GRand * rand)
{
  GstMapInfo map;
  gsize i;

  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
    g_error ("cannot map a buffer for writing");
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) g_rand_int_range (rand, 0, 256);
  gst_buffer_unmap (buf, &map);
}

GstBuffer *
rt_make_input (const GstVideoInfo * info, GRand * rand, gsize align,
    gboolean odd)
{
  GstAllocationParams params = { 0, align, 0, 0, };
  GstBuffer *buf;

  if (odd) {
    /* One byte into a larger allocation: an odd address, never wrapped. */
    GstMemory *mem = gst_allocator_alloc (NULL, info->size + 1, &params);

    gst_memory_resize (mem, 1, info->size);
    buf = gst_buffer_new ();
    gst_buffer_append_memory (buf, mem);
  } else {
    buf = gst_buffer_new_allocate (NULL, info->size, &params);
  }
  rt_fill_random (buf, rand);
  return buf;
}

GstBuffer *
rt_make_padded_input (const GstVideoInfo * info, GRand * rand, gint extra,
    gint gap, guint8 poison)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  guint n_planes = GST_VIDEO_INFO_N_PLANES (info);
  GstVideoInfo vinfo = *info;
  GstVideoFrame frame;
  GstBuffer *buf;
  gsize pos = gap;
  guint p, comp, x, y;

  for (p = 0; p < n_planes; p++) {
    gint comps[GST_VIDEO_MAX_COMPONENTS];
    gint row_bytes, rows;

    gst_video_format_info_component (info->finfo, p, comps);
    row_bytes = GST_VIDEO_INFO_COMP_WIDTH (info, comps[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comps[0]);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comps[0]);
    stride[p] = row_bytes + extra;
    offset[p] = pos;
    pos += (gsize) stride[p] * rows + gap + 7 * p;
  }

  buf = gst_buffer_new_allocate (NULL, pos, NULL);
  gst_buffer_memset (buf, 0, poison, pos);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), n_planes, offset, stride);

  if (!gst_video_frame_map (&frame, &vinfo, buf, GST_MAP_WRITE))
    g_error ("cannot map a padded frame");
  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (&frame); comp++) {
    guint8 *data = GST_VIDEO_FRAME_COMP_DATA (&frame, comp);
    gint s = GST_VIDEO_FRAME_COMP_STRIDE (&frame, comp);
    gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp);

    for (y = 0; y < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp); y++)
      for (x = 0; x < (guint) GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp); x++)
        data[y * s + x * ps] = (guint8) g_rand_int_range (rand, 0, 256);
  }
  gst_video_frame_unmap (&frame);
  return buf;
}

GstBuffer *
rt_make_expected (const GstVideoInfo * info, GstBuffer * in,
    const RefParams * p)
{
  GstBuffer *exp = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame in_frame, exp_frame;

  /* Not writable while mapped: a buffer of several memories is then mapped
   * through a temporary merged copy instead of being merged for good. */
  gst_buffer_ref (in);
  gst_buffer_memset (exp, 0, 0, info->size);
  if (!gst_video_frame_map (&in_frame, info, in, GST_MAP_READ))
    g_error ("cannot map an input frame");
  if (!gst_video_frame_map (&exp_frame, info, exp, GST_MAP_WRITE))
    g_error ("cannot map an expected frame");
  ref_process_frame (&in_frame, &exp_frame, p);
  gst_video_frame_unmap (&exp_frame);
  gst_video_frame_unmap (&in_frame);
  gst_buffer_unref (in);
  return exp;
}

guint
rt_compare (const GstVideoInfo * info, GstBuffer * out, GstBuffer * exp,
    guint luma_tol, gchar ** first)
{
  GstVideoFrame of, ef;
  guint comp, x, y, n_bad = 0;

  if (first)
    *first = NULL;
  if (!gst_video_frame_map (&of, info, out, GST_MAP_READ)) {
    if (first)
      *first = g_strdup ("the output buffer cannot be mapped as a frame");
    return G_MAXUINT;
  }
  if (!gst_video_frame_map (&ef, info, exp, GST_MAP_READ))
    g_error ("cannot map an expected frame");

  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (&of); comp++) {
    const guint8 *o = GST_VIDEO_FRAME_COMP_DATA (&of, comp);
    const guint8 *e = GST_VIDEO_FRAME_COMP_DATA (&ef, comp);
    gint os = GST_VIDEO_FRAME_COMP_STRIDE (&of, comp);
    gint es = GST_VIDEO_FRAME_COMP_STRIDE (&ef, comp);
    gint ops = GST_VIDEO_FRAME_COMP_PSTRIDE (&of, comp);
    gint eps = GST_VIDEO_FRAME_COMP_PSTRIDE (&ef, comp);
    guint tol = comp == 0 ? luma_tol : 0;

    for (y = 0; y < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&of, comp); y++) {
      for (x = 0; x < (guint) GST_VIDEO_FRAME_COMP_WIDTH (&of, comp); x++) {
        gint got = o[y * os + x * ops], want = e[y * es + x * eps];

        if ((guint) ABS (got - want) <= tol)
          continue;
        if (n_bad++ == 0 && first)
          *first = g_strdup_printf ("component %u x %u y %u: got %d, "
              "expected %d", comp, x, y, got, want);
      }
    }
  }
  gst_video_frame_unmap (&ef);
  gst_video_frame_unmap (&of);
  return n_bad;
}

gboolean
rt_same_image (const GstVideoInfo * info, GstBuffer * a, GstBuffer * b)
{
  return rt_compare (info, a, b, 0, NULL) == 0;
}

GstStateChangeReturn
rt_start (GstElement * e)
{
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (e, bus);
  gst_object_unref (bus);
  return gst_element_set_state (e, GST_STATE_PLAYING);
}

GstMessage *
rt_pop_error (GstElement * e)
{
  GstBus *bus = gst_element_get_bus (e);
  GstMessage *msg;

  if (bus == NULL)
    return NULL;
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gst_object_unref (bus);
  return msg;
}

gchar *
rt_error_text (GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL, *text;

  gst_message_parse_error (msg, &err, &dbg);
  text = g_strdup_printf ("%s | %s", err->message, dbg ? dbg : "");
  g_error_free (err);
  g_free (dbg);
  return text;
}

guint
rt_drain_errors (GstElement * e, gchar ** text)
{
  GstMessage *msg;
  guint n = 0;

  if (text)
    *text = NULL;
  while ((msg = rt_pop_error (e)) != NULL) {
    if (n++ == 0 && text)
      *text = rt_error_text (msg);
    gst_message_unref (msg);
  }
  return n;
}

void
rt_push_caps (GstHarness * hr, GstCaps * caps)
{
  static guint stream = 0;
  gchar *id = g_strdup_printf ("robust-%u", ++stream);
  GstSegment segment;

  gst_pad_push_event (hr->srcpad, gst_event_new_stream_start (id));
  g_free (id);
  gst_pad_push_event (hr->srcpad, gst_event_new_caps (caps));
  gst_caps_unref (caps);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_push_event (hr->srcpad, gst_event_new_segment (&segment));
}

static GstTracer *
leaks_tracer (void)
{
  GList *tracers = gst_tracing_get_active_tracers (), *l;
  GstTracer *found = NULL;

  for (l = tracers; l != NULL; l = l->next) {
    if (found == NULL && g_str_equal (G_OBJECT_TYPE_NAME (l->data),
            "GstLeaksTracer"))
      found = gst_object_ref (l->data);
  }
  g_list_free_full (tracers, gst_object_unref);
  return found;
}

gint
rt_live_gst_objects (gchar ** describe)
{
  GstTracer *tracer = leaks_tracer ();
  GstStructure *info = NULL;
  const GValue *list;
  GString *s;
  guint i, n;

  if (describe)
    *describe = NULL;
  if (tracer == NULL)
    return -1;
  g_signal_emit_by_name (tracer, "get-live-objects", &info);
  gst_object_unref (tracer);
  list = gst_structure_get_value (info, "live-objects-list");
  n = gst_value_list_get_size (list);
  s = g_string_new (NULL);
  for (i = 0; describe && i < n; i++) {
    const GstStructure *o =
        gst_value_get_structure (gst_value_list_get_value (list, i));
    const GValue *obj = gst_structure_get_value (o, "object");

    g_string_append_printf (s, "%s%s", i ? ", " : "",
        g_type_name (G_VALUE_TYPE (obj)));
  }
  gst_structure_free (info);
  if (describe)
    *describe = g_string_free (s, FALSE);
  else
    g_string_free (s, TRUE);
  return (gint) n;
}

void
rt_teardown (GstHarness * hr)
{
  GstBus *bus = gst_element_get_bus (hr->element);

  /* The bus holds the messages, and they the element: drop them. */
  if (bus != NULL) {
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
  }
  gst_harness_teardown (hr);
}

void
rt_run_child (const gchar * child_env, const gchar * test, const gchar * var,
    const gchar * value)
{
  /* the program's path, read as a link: valgrind answers with its client's
   * path, where executing /proc/self/exe would start valgrind itself */
  gchar *self = g_file_read_link ("/proc/self/exe", NULL);
  gchar *argv[] = { self ? self : (gchar *) "/proc/self/exe", NULL };
  gchar **env = g_get_environ ();
  gchar *out = NULL, *err = NULL;
  GError *error = NULL;
  gint status = 0;

  env = g_environ_setenv (env, var, value, TRUE);
  env = g_environ_setenv (env, child_env, "1", TRUE);
  env = g_environ_setenv (env, "GST_CHECKS", test, TRUE);
  fail_unless (g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err, &status, &error), "cannot run the child: %s",
      error ? error->message : "?");
  fail_unless (g_spawn_check_wait_status (status, NULL), "%s with %s=%s "
      "failed:\n%s\n%s", test, var, value, out, err);
  fail_unless (strstr (out, "100%: Checks: 1") != NULL, "%s with %s=%s did "
      "not run:\n%s\n%s", test, var, value, out, err);
  g_free (out);
  g_free (err);
  g_free (self);
  g_strfreev (env);
}

gchar *
rt_cache_off (void)
{
  gchar *saved = g_strdup (g_getenv ("GST_CL_CACHE_DIR"));

  g_setenv ("GST_CL_CACHE_DIR", "", TRUE);
  return saved;
}

void
rt_cache_restore (gchar * saved)
{
  if (saved)
    g_setenv ("GST_CL_CACHE_DIR", saved, TRUE);
  else
    g_unsetenv ("GST_CL_CACHE_DIR");
  g_free (saved);
}

gchar *
rt_tmp_dir_new (const gchar * prefix)
{
  gchar *tmpl = g_strdup_printf ("%s-XXXXXX", prefix);
  GError *error = NULL;
  gchar *dir = g_dir_make_tmp (tmpl, &error);

  if (dir == NULL)
    g_error ("no folder %s: %s", tmpl, error->message);
  g_free (tmpl);
  return dir;
}

guint
rt_tmp_dir_remove (const gchar * dir)
{
  GDir *d;
  const gchar *name;
  guint n = 0;

  /* a test may have taken the write permission away */
  g_chmod (dir, 0700);
  d = g_dir_open (dir, 0, NULL);
  while (d && (name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);

    /* a link is removed, never followed */
    if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK) &&
        g_file_test (path, G_FILE_TEST_IS_DIR))
      n += rt_tmp_dir_remove (path);
    else if (g_unlink (path) == 0)
      n++;
    g_free (path);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
  return n;
}

RtCacheDir *
rt_cache_dir_new (void)
{
  RtCacheDir *cache = g_new0 (RtCacheDir, 1);

  cache->dir = rt_tmp_dir_new ("clepsilon-cache");
  cache->saved = g_strdup (g_getenv ("GST_CL_CACHE_DIR"));
  g_setenv ("GST_CL_CACHE_DIR", cache->dir, TRUE);
  return cache;
}

guint
rt_cache_dir_free (RtCacheDir * cache)
{
  guint n = rt_tmp_dir_remove (cache->dir);

  rt_cache_restore (cache->saved);
  g_free (cache->dir);
  g_free (cache);
  return n;
}
