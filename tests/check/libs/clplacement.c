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

/* Placement (gst/gstclplacement.c) on its own, with no filter: a
 * frame's planes uploaded (gst_cl_placement_upload), each filtered region
 * copied from where the kernels read it to where they write it (a kernel
 * that changes nothing), and downloaded (gst_cl_placement_download); the
 * untouched planes copied with the frame, or shared after it
 * (gst_cl_placement_select / _share). Every output, poisoned first,
 * equals its input: random frames of odd sizes, padded strides in a video
 * meta, default layouts, our pool's memory, crop rectangles; the regions
 * and the kernels' buffers as the header says; in plain and in discrete
 * mode (GST_CL_DISCRETE=1, the libs/clplacement-discrete test). The device
 * is $CLEPSILON_TEST_DEVICE (default "pocl"). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <string.h>

#include "gstclplacement-private.h"
#include "clfault.h"
#include "robust.h"
#include "fixture.h"

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_I422_10LE,
};

/* Where an input or an output comes from. */
typedef enum
{
  SYSTEM,                       /* default layout, system memory */
  PADDED,                       /* padded strides and gaps, video meta */
  POOL,                         /* our pool's OpenCL memory */
  N_SOURCES
} Source;

static const gchar *source_names[] = { "system", "padded", "pool" };

static GstBuffer *
make_buffer (const GstVideoInfo * info, Source source, GstBufferPool * pool,
    GRand * rand)
{
  switch (source) {
    case SYSTEM:
      return rt_make_input (info, rand,
          gst_cl_context_get_host_ptr_align (fixture_context) - 1, FALSE);
    case PADDED:
      return rt_make_padded_input (info, rand, 9, 3, 0x5a);
    default:
      return fixture_pool_frame (pool, rand);
  }
}

/* One frame through the placement of @info, @in into @out: @touched the
 * planes "filtered", the others copied or, where the placement says so,
 * shared. Checks the work's regions and kernel buffers, and returns the
 * frame's transfers in @stats. */
static void
place_frame (GstClPlacement * placement, GstClInFlight * in_flight,
    GstBuffer * inbuf, GstBuffer * outbuf, guint touched,
    GstClTransferStats * stats, gboolean * shared, const gchar * what)
{
  const GstVideoInfo *info = gst_cl_placement_get_info (placement);
  const GstClPlane *planes;
  GstClFrameWork frame = { 0, };
  GstClRegion regions[GST_VIDEO_MAX_PLANES];
  GstClFrameQueues q;
  GstClFrame in, out;
  GError *error = NULL;
  guint i, n_planes, untouched, slot;
  gdouble device_ms = 0;

  planes = gst_cl_placement_get_planes (placement, &n_planes);
  fail_unless_equals_int (n_planes, GST_VIDEO_INFO_N_PLANES (info));
  untouched = ((1 << n_planes) - 1) & ~touched;
  gst_cl_plane_regions (planes, n_planes, info,
      gst_buffer_get_video_crop_meta (inbuf), regions);

  memset (stats, 0, sizeof (*stats));
  fail_unless (gst_cl_in_flight_begin (in_flight, &slot, &device_ms, &error),
      "%s: %s", what, error ? error->message : "");
  fail_unless (gst_cl_placement_open (placement, slot, inbuf, outbuf, &in,
          &out, &error), "%s: %s", what, error ? error->message : "");
  fail_unless (gst_cl_placement_alloc (placement, &error), "%s: %s", what,
      error ? error->message : "");
  fail_if (gst_cl_placement_in_fields (placement, &in));
  gst_cl_placement_select (placement, &in, outbuf, touched, 0, TRUE,
      &frame.planes);
  fail_unless (frame.planes.shared == 0 || frame.planes.shared == untouched,
      "%s: shares 0x%x of 0x%x", what, frame.planes.shared, untouched);
  gst_cl_in_flight_queues (in_flight, &in, &out, &q);
  frame.in = &in;
  frame.out = &out;
  fail_unless (gst_cl_placement_upload (placement, &q, &frame, stats,
          &error), "%s: %s", what, error ? error->message : "");
  fail_unless (frame.n_work >= 1 && frame.n_work <= n_planes, "%s: %u work",
      what, frame.n_work);
  fail_unless (gst_cl_in_flight_to_kernels (&q, &error));

  /* the kernels: a copy of each filtered region, from where they read it
   * to where they write it */
  for (i = 0; i < frame.n_work; i++) {
    const GstClPlaneWork *w = &frame.work[i];
    const GstClPlane *p = &planes[w->index];

    fail_unless_equals_int (w->field, GST_CL_FRAME);
    fail_unless_equals_int (w->filtered, (touched >> w->index) & 1);
    if (!w->filtered)
      continue;
    fail_unless (w->region.x == regions[w->index].x &&
        w->region.y == regions[w->index].y &&
        w->region.width == regions[w->index].width &&
        w->region.height == regions[w->index].height, "%s: plane %u "
        "region %d,%d %dx%d", what, w->index, w->region.x, w->region.y,
        w->region.width, w->region.height);
    fail_unless (w->ksrc.mem != NULL && w->kdst.mem != NULL,
        "%s: plane %u: kernels on host memory", what, w->index);
    if (!gst_cl_context_is_host_unified (fixture_context)) {
      /* a discrete device: the kernels read and write device memory */
      fail_unless_equals_int (w->ksrc.kind, GST_CL_PLANE_DEVICE);
      fail_unless_equals_int (w->kdst.kind, GST_CL_PLANE_DEVICE);
      fail_unless (w->kdst.mem == gst_cl_placement_output (placement,
              w->index, q.slot, GST_CL_FRAME).mem, "%s: plane %u not in "
          "the slot's output buffer", what, w->index);
    }
    fail_unless (gst_cl_stream_copy (&q.compute, &(GstClPlaneCopy) {
            &w->ksrc, &w->kdst, (gsize) w->region.width * p->xstep *
              p->bytes, w->region.height}
            , stats, &error), "%s: %s", what, error ? error->message : "");
  }
  fail_unless (gst_cl_in_flight_to_downloads (&q, &error));
  fail_unless (gst_cl_placement_download (placement, &q, &frame, stats,
          &error), "%s: %s", what, error ? error->message : "");
  fail_unless (gst_cl_in_flight_end (in_flight, &q, TRUE, &in, &out,
          &device_ms, &error), "%s: %s", what, error ? error->message : "");
  fail_unless (gst_cl_placement_share (placement, &q, inbuf, outbuf,
          &frame.planes, stats, &error), "%s: %s", what,
      error ? error->message : "");
  *shared = frame.planes.shared != 0;
}

/* The output's image equals the input's, poison gone. */
static void
check_same (const GstVideoInfo * info, GstBuffer * out, GstBuffer * in,
    const gchar * what)
{
  gchar *first = NULL;
  guint n = rt_compare (info, out, in, 0, &first);

  fail_unless (n == 0, "%s: %u samples differ, first %s", what, n, first);
  g_free (first);
}

/* A placement of @info and its frames in flight, @depth deep. */
static void
open_placement (const GstVideoInfo * info, guint depth,
    GstClPlacement ** placement, GstClInFlight ** in_flight)
{
  GError *error = NULL;

  *placement = gst_cl_placement_new (fixture_context, info, depth, &error);
  fail_unless (*placement != NULL, "%s", error ? error->message : "");
  *in_flight = gst_cl_in_flight_new (fixture_context, depth, &error);
  fail_unless (*in_flight != NULL, "%s", error ? error->message : "");
}

/* Waits for every frame still in flight, then frees both. */
static void
close_placement (GstClPlacement * placement, GstClInFlight * in_flight)
{
  GError *error = NULL;

  fail_unless (gst_cl_in_flight_drain (in_flight, NULL, &error), "%s",
      error ? error->message : "");
  gst_cl_in_flight_free (in_flight);
  gst_cl_placement_free (placement);
}

/* The device buffers the planes take, one slot: an input and an output
 * each, one more for luma (between two stages); interleaved chroma (NV12,
 * P010) two more (the component unpacked and the stage's result) only
 * where the DCT stage takes the shape for CPUs, which unpacks it: the GPU
 * shape reads it in place (tests/meson.build runs this suite with
 * GST_CL_DCT_KERNEL=tiles too). */
GST_START_TEST (test_plane_buffers)
{
  static const GstVideoFormat interleaved[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_P010_10LE
  };
  const gboolean strips = gst_cl_context_dct_strips (fixture_context);
  guint f;

  for (f = 0; f < G_N_ELEMENTS (interleaved); f++) {
    GstVideoInfo info;
    GstClPlacement *placement;
    GstClInFlight *in_flight;
    GError *error = NULL;
    long before;

    gst_video_info_set_format (&info, interleaved[f], 64, 32);
    open_placement (&info, 1, &placement, &in_flight);
    before = clfault_live (CLFAULT_MEM);
    fail_unless (gst_cl_placement_alloc (placement, &error), "%s",
        error ? error->message : "");
    fail_unless_equals_int (clfault_live (CLFAULT_MEM) - before,
        3 + (strips ? 4 : 2));
    close_placement (placement, in_flight);
  }
}

GST_END_TEST;

/* Every format, from and into each kind of buffer, luma alone or every
 * plane touched, with and without a crop rectangle. */
GST_START_TEST (test_planes_placed)
{
  GRand *rand = g_rand_new_with_seed (0x91ac);
  guint f, total_upload = 0;

  RT_FOR_EACH_FORMAT (f, formats) {
    GstVideoInfo info;
    GstClPlacement *placement;
    GstClInFlight *in_flight;
    GstBufferPool *in_pool, *out_pool;
    Source si, so;
    guint crop, all;

    gst_video_info_set_format (&info, formats[f], 39, 25);
    open_placement (&info, 1, &placement, &in_flight);
    in_pool = fixture_cl_pool (&info, FALSE, 0);
    out_pool = fixture_cl_pool (&info, FALSE, 0);
    for (si = 0; si < N_SOURCES; si++) {
      for (so = 0; so < N_SOURCES; so++) {
        for (all = 0; all < 2; all++) {
          for (crop = 0; crop < 2; crop++) {
            guint n_planes = GST_VIDEO_INFO_N_PLANES (&info);
            guint touched = all ? (1 << n_planes) - 1 : 1;
            GstBuffer *in = make_buffer (&info, si, in_pool, rand);
            GstBuffer *out = make_buffer (&info, so, out_pool, rand);
            GstClTransferStats stats;
            gboolean shared;
            gchar *what;

            /* poison: nothing of the input is there */
            gst_buffer_memset (out, 0, 0xa5, gst_buffer_get_size (out));
            if (crop) {
              GstVideoCropMeta *c = gst_buffer_add_video_crop_meta (in);

              c->x = 5;
              c->y = 3;
              c->width = 21;
              c->height = 17;
            }
            what = g_strdup_printf ("%s %s into %s, %s, %s",
                gst_video_format_to_string (formats[f]), source_names[si],
                source_names[so], all ? "every plane" : "luma",
                crop ? "crop 5,3 21x17" : "whole");
            place_frame (placement, in_flight, in, out, touched, &stats,
                &shared, what);
            check_same (&info, out, in, what);
            /* shared: only into our pool's buffers, from one memory in
             * the default layout; the output then holds a share of the
             * input's memory */
            if (shared) {
              fail_unless (si != PADDED && so == POOL && touched == 1,
                  "%s: shared", what);
              fail_unless (gst_buffer_n_memory (out) == 2, "%s", what);
            } else if (si == POOL && so == POOL && n_planes > 1 && !all) {
              fail_unless (FALSE, "%s: not shared", what);
            }
            /* a discrete device: system memory goes up and comes back */
            if (!gst_cl_context_is_host_unified (fixture_context)) {
              fail_unless (stats.upload_bytes > 0 &&
                  stats.download_bytes > 0, "%s: %" G_GUINT64_FORMAT
                  " up, %" G_GUINT64_FORMAT " down", what,
                  stats.upload_bytes, stats.download_bytes);
              total_upload++;
            }
            g_free (what);
            gst_buffer_unref (in);
            gst_buffer_unref (out);
          }
        }
      }
    }
    close_placement (placement, in_flight);
    fixture_free_pool (in_pool);
    fixture_free_pool (out_pool);
  }
  g_rand_free (rand);
}

GST_END_TEST;

#define STAGED_FRAMES 5

/* Frames in flight from system memory (a discrete device) are copied into
 * their slot's pinned staging by the CPU, planes past a megabyte split over
 * threads and written with non-temporal stores: at odd sizes whose rows
 * start anywhere in a cache line, in the default layout, at an odd address
 * and with padded strides, luma alone or every plane touched, frames back
 * to back before any is read, each output is its input. */
GST_START_TEST (test_staged_large)
{
  static const GstVideoFormat staged[] = {
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE,
  };
  GRand *rand = g_rand_new_with_seed (0x5a9e);
  guint f, si, all, k;

  RT_FOR_EACH_FORMAT (f, staged) {
    GstVideoInfo info;
    GstClPlacement *placement;
    GstClInFlight *in_flight;
    GstBufferPool *out_pool;

    gst_video_info_set_format (&info, staged[f], 1283, 833);
    open_placement (&info, 3, &placement, &in_flight);
    out_pool = fixture_cl_pool (&info, FALSE, 0);
    for (si = 0; si < 3; si++) {
      for (all = 0; all < 2; all++) {
        GstBuffer *in[STAGED_FRAMES], *out[STAGED_FRAMES];
        gchar *what = g_strdup_printf ("%s %s, %s",
            gst_video_format_to_string (staged[f]),
            si == 0 ? "system" : si == 1 ? "odd address" : "padded",
            all ? "every plane" : "luma");

        for (k = 0; k < STAGED_FRAMES; k++) {
          guint touched = all ? (1 << GST_VIDEO_INFO_N_PLANES (&info)) - 1 : 1;
          GstClTransferStats stats;
          gboolean shared;

          in[k] = si == 2 ? rt_make_padded_input (&info, rand, 9, 3, 0x5a) :
              rt_make_input (&info, rand, 63, si == 1);
          out[k] = fixture_pool_frame (out_pool, rand);
          gst_buffer_memset (out[k], 0, 0xa5, gst_buffer_get_size (out[k]));
          place_frame (placement, in_flight, in[k], out[k], touched, &stats,
              &shared, what);
          /* a discrete device: the luma at least went through staging */
          if (!gst_cl_context_is_host_unified (fixture_context))
            fail_unless (stats.host_copy_bytes >=
                (guint64) rt_row_bytes (&info, 0) * 833,
                "%s: host copy %" G_GUINT64_FORMAT, what,
                stats.host_copy_bytes);
        }
        for (k = 0; k < STAGED_FRAMES; k++) {
          check_same (&info, out[k], in[k], what);
          gst_buffer_unref (in[k]);
          gst_buffer_unref (out[k]);
        }
        g_free (what);
      }
    }
    close_placement (placement, in_flight);
    fixture_free_pool (out_pool);
  }
  g_rand_free (rand);
}

GST_END_TEST;

/* Where the device shares host memory, system memory at an aligned address
 * is filtered in place: no transfer at all, only copies between buffers the
 * host sees (the kernel's copy, the untouched planes). */
GST_START_TEST (test_in_place)
{
  GRand *rand = g_rand_new_with_seed (0x1b9c);
  GstVideoInfo info;
  GstClPlacement *placement;
  GstClInFlight *in_flight;
  GstClTransferStats stats;
  GstBuffer *in, *out;
  gboolean shared;

  if (!gst_cl_context_is_host_unified (fixture_context))
    goto done;
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 35, 21);
  placement = gst_cl_placement_new (fixture_context, &info, 1, NULL);
  in_flight = gst_cl_in_flight_new (fixture_context, 1, NULL);
  fail_unless (placement && in_flight);
  in = make_buffer (&info, SYSTEM, NULL, rand);
  out = make_buffer (&info, SYSTEM, NULL, rand);
  gst_buffer_memset (out, 0, 0xa5, gst_buffer_get_size (out));
  place_frame (placement, in_flight, in, out, 1, &stats, &shared, "in place");
  check_same (&info, out, in, "in place");
  fail_unless_equals_uint64 (stats.upload_bytes, 0);
  fail_unless_equals_uint64 (stats.download_bytes, 0);
  fail_unless_equals_string (gst_cl_placement_memory_path (placement,
          &stats), "host-ptr");
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_cl_in_flight_free (in_flight);
  gst_cl_placement_free (placement);
done:
  g_rand_free (rand);
}

GST_END_TEST;

/* Without OpenCL (NVIDIA MPS) a frame that does not run in CUDA (system
 * memory, no CUDA context) is refused with an error that says so, and no
 * OpenCL call is made for it. */
GST_START_TEST (test_refused_without_opencl)
{
  GstClContext *without = gst_cl_context_new_without_opencl (rt_device (),
      NULL);
  GRand *rand = g_rand_new_with_seed (7);
  GstClPlacement *placement;
  GstClFrame in, out;
  GstVideoInfo info;
  GstBuffer *inbuf, *outbuf;
  GError *error = NULL;
  unsigned long calls;

  fail_unless (without != NULL);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 35, 21);
  placement = gst_cl_placement_new (without, &info, 1, &error);
  fail_unless (placement != NULL, "%s", error ? error->message : "");
  inbuf = make_buffer (&info, SYSTEM, NULL, rand);
  outbuf = make_buffer (&info, SYSTEM, NULL, rand);
  clfault_reset ();
  fail_if (gst_cl_placement_open (placement, 0, inbuf, outbuf, &in, &out,
          &error));
  calls = clfault_calls ();
  fail_unless (error && strstr (error->message, "has no OpenCL context here "
          "(NVIDIA MPS?), and this frame does not run in CUDA"), "%s",
      error ? error->message : "(no error)");
  g_clear_error (&error);
  fail_unless_equals_int (calls, 0);

  gst_buffer_unref (inbuf);
  gst_buffer_unref (outbuf);
  gst_cl_placement_free (placement);
  gst_object_unref (without);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
clplacement_suite (void)
{
  Suite *s = suite_create ("clplacement");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, fixture_setup, fixture_teardown);
  tcase_add_test (tc, test_plane_buffers);
  tcase_add_test (tc, test_planes_placed);
  tcase_add_test (tc, test_in_place);
  tcase_add_test (tc, test_staged_large);
  tcase_add_test (tc, test_refused_without_opencl);
  return s;
}

GST_CHECK_MAIN (clplacement);
