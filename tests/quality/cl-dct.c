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

/* The automatic mode's device work (gstcldct-private.h) outside the element,
 * for the quality harness and for timing:
 *
 *   cl-dct filter DEVICE WIDTH HEIGHT IN.yuv OUT.yuv PASSES THR
 *     I420 frames: luma through the stage at the fixed threshold THR (0:
 *     copied), chroma copied. Prints each frame's threshold.
 *   cl-dct auto DEVICE WIDTH HEIGHT IN.yuv OUT.yuv PASSES [SEGMENTS]
 *     strength=auto as the element runs it on progressive frames
 *     (gst_cl_dct_auto_update; an interlaced frame's macroblocks are not
 *     read here: every command takes frames as progressive), its
 *     state reset at the start of each sequence: SEGMENTS is a comma list
 *     of frame counts (the sequences concatenated in IN). Prints each
 *     frame's threshold.
 *   cl-dct hist DEVICE WIDTH HEIGHT IN.yuv OUT.bin
 *     each frame's histogram (GST_CL_DCT_HIST_SIZE native uint32s).
 *   cl-dct decide HIST.bin [SEGMENTS]
 *     gst_cl_dct_auto_update over histograms from hist, on the host only:
 *     each frame's threshold (what auto would do, without the stage);
 *     with CL_DCT_CODING=FILE, each frame's type and quantiser as the coded
 *     stream tells them (gst_cl_dct_auto_update_coded).
 *   cl-dct bench DEVICE WIDTH HEIGHT PASSES ITERATIONS [IN]
 *     a synthetic decoded-like luma plane, or IN's first luma plane (raw
 *     8-bit, WIDTH x HEIGHT bytes at its start): median wall ms (clFinish'd)
 *     of the histogram (read back) and of the stage, and the stage's fastest
 *     iteration, at threshold 70 or at the automatic mode's threshold for IN
 *     where a step is found, and the host's part of the estimate
 *     (gst_cl_dct_frame_threshold).
 *   cl-dct bench10 DEVICE WIDTH HEIGHT PASSES ITERATIONS [IN]
 *     the same on 10-bit samples, 16-bit words as I420_10LE's luma holds
 *     them: the same plane times 4 (whose estimate is the 8-bit plane's).
 *   cl-dct bench-auto DEVICE WIDTH HEIGHT PASSES ITERATIONS [IN]
 *     strength=auto decided on the device (gst_cl_dct_auto()) as the
 *     element runs it on an NV12 frame, luma then both chroma components
 *     (the synthetic plane for each, or IN's first NV12 frame): for each
 *     command that reports its events, in order, its type and median
 *     device time (profiling), then the median of their sum and of the
 *     frame's whole device span (between markers), over ITERATIONS frames
 *     after two warm-up ones, each waited for. Only where the device
 *     decides (gst_cl_dct_decides()). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gstcldct-private.h"

/* The tool's commands wait for nothing and keep no events. */
static const GstClAfter no_order = { 0, NULL, NULL };


static void
die (const gchar * what, GError * err)
{
  g_printerr ("cl-dct: %s: %s\n", what, err ? err->message : "failed");
  exit (1);
}

static int
cmp_double (const void *a, const void *b)
{
  const gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

/* Whether frame @n starts a sequence of @segments (a comma list of frame
 * counts; NULL: only frame 0). */
static gboolean
starts_sequence (const gchar * segments, guint n)
{
  guint first = 0;

  if (n == 0)
    return TRUE;
  while (segments && *segments) {
    first += strtoul (segments, (gchar **) & segments, 10);
    if (first == n)
      return TRUE;
    if (*segments == ',')
      segments++;
  }
  return FALSE;
}

static int
filter (GstClContext * ctx, GstClDct * dct, gint w, gint h, const gchar * in,
    const gchar * out, gboolean automatic, guint passes, guint fixed,
    const gchar * segments)
{
  cl_command_queue q = gst_cl_context_get_queue (ctx);
  const gsize ysize = (gsize) w * h, fsize = ysize + 2 * ((w + 1) / 2) *
      ((h + 1) / 2);
  guint8 *frame = g_malloc (fsize);
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  FILE *fi = fopen (in, "rb"), *fo = fopen (out, "wb");
  GstClDctAuto state = { 0, };
  GError *err = NULL;
  cl_mem src, dst;
  GstClPlaneRef sref, dref;
  const GstClDctPlane plane = { &sref, &dref, w, h };
  guint n = 0;

  if (!fi || !fo)
    die ("open", NULL);
  src = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, ysize, "in",
      &err);
  dst = src ? gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, ysize,
      "out", &err) : NULL;
  if (!dst)
    die ("buffers", err);
  sref = gst_cl_plane_ref_device (src, w);
  dref = gst_cl_plane_ref_device (dst, w);
  while (fread (frame, 1, fsize, fi) == fsize) {
    guint thr = fixed;

    clEnqueueWriteBuffer (q, src, CL_TRUE, 0, ysize, frame, 0, NULL, NULL);
    if (starts_sequence (segments, n))
      gst_cl_dct_auto_reset (&state);
    if (automatic) {
      /* strength=auto as the element decides it on a progressive frame */
      if (!gst_cl_dct_histogram (dct, &plane, &no_order, hist, NULL, &err))
        die ("histogram", err);
      thr = gst_cl_dct_auto_update (&state, hist);
    }
    if (thr) {
      if (!gst_cl_dct_threshold (dct, &plane, thr, passes, &no_order, &err))
        die ("stage", err);
      clEnqueueReadBuffer (q, dst, CL_TRUE, 0, ysize, frame, 0, NULL, NULL);
    }
    printf ("frame %u threshold %u\n", n++, thr);
    fwrite (frame, 1, fsize, fo);
  }
  fclose (fi);
  fclose (fo);
  clReleaseMemObject (src);
  clReleaseMemObject (dst);
  g_free (frame);
  return 0;
}

static int
bench (GstClContext * ctx, GstClDct * dct, gint bytes, gint w, gint h,
    guint passes, gint iterations, const gchar * in)
{
  const gint pitch = w * bytes;
  const gsize size = (gsize) pitch * h;
  cl_command_queue q = gst_cl_context_get_queue (ctx);
  guint8 *p = g_malloc ((gsize) w * h);
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  gdouble *th = g_new (gdouble, iterations), *ts = g_new (gdouble, iterations);
  GRand *rand = g_rand_new_with_seed (15);
  GError *err = NULL;
  cl_mem src, dst;
  GstClPlaneRef sref, dref;
  const GstClDctPlane plane = { &sref, &dref, w, h };
  guint thr = 70;
  gint i, x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      p[(gsize) y * w + x] = CLAMP (60 + x * 100 / w + (x % 97 > 50 ? 60 : 0)
          + g_rand_int_range (rand, -6, 7), 0, 255);
  if (in) {
    FILE *f = fopen (in, "rb");
    if (!f || fread (p, 1, (gsize) w * h, f) != (gsize) w * h)
      die ("read", NULL);
    fclose (f);
  }
  src = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, size, "in", &err);
  dst = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, size, "out",
      &err);
  sref = gst_cl_plane_ref_device (src, pitch);
  dref = gst_cl_plane_ref_device (dst, pitch);
  if (bytes == 2) {
    /* 10 bits: each value times 4, in the low bits of its word */
    guint16 *words = g_new (guint16, (gsize) w * h);
    gsize k;

    for (k = 0; k < (gsize) w * h; k++)
      words[k] = GUINT16_TO_LE (p[k] << 2);
    clEnqueueWriteBuffer (q, src, CL_TRUE, 0, size, words, 0, NULL, NULL);
    g_free (words);
  } else {
    clEnqueueWriteBuffer (q, src, CL_TRUE, 0, size, p, 0, NULL, NULL);
  }
  if (in) {
    GstClDctAutoParams params;

    if (!gst_cl_dct_histogram (dct, &plane, &no_order, hist, NULL, &err))
      die ("histogram", err);
    gst_cl_dct_auto_params_init (&params);
    thr = gst_cl_dct_frame_threshold (hist, &params);
    thr = thr ? thr : 70;
  }
  for (i = -2; i < iterations; i++) {   /* two warm-up rounds */
    gint64 t0 = g_get_monotonic_time (), t1, t2;
    if (!gst_cl_dct_histogram (dct, &plane, &no_order, hist, NULL, &err))
      die ("histogram", err);
    t1 = g_get_monotonic_time ();
    if (!gst_cl_dct_threshold (dct, &plane, thr, passes, &no_order, &err))
      die ("stage", err);
    clFinish (q);
    t2 = g_get_monotonic_time ();
    if (i >= 0) {
      th[i] = (t1 - t0) / 1000.0;
      ts[i] = (t2 - t1) / 1000.0;
    }
  }
  qsort (th, iterations, sizeof (gdouble), cmp_double);
  qsort (ts, iterations, sizeof (gdouble), cmp_double);
  /* the host's part of the estimate on this histogram
   * (gst_cl_dct_frame_threshold), the median of as many rounds of 20 calls */
  {
    GstClDctAutoParams params;
    gdouble *tl = g_new (gdouble, iterations);
    volatile guint sink = 0;
    gint k;

    gst_cl_dct_auto_params_init (&params);
    for (i = 0; i < iterations; i++) {
      gint64 t0 = g_get_monotonic_time ();
      for (k = 0; k < 20; k++)
        sink += gst_cl_dct_frame_threshold (hist, &params);
      tl[i] = (g_get_monotonic_time () - t0) / 20000.0;
    }
    qsort (tl, iterations, sizeof (gdouble), cmp_double);
    printf ("%dx%d %d-bit luma%s%s, %s: histogram (kernel + read) %.2f ms, "
        "host decision %.3f ms (threshold %u); stage (%u passes, threshold %u) "
        "%.2f ms; medians of %d (stage fastest %.2f ms)\n", w, h,
        bytes == 2 ? 10 : 8, in ? " of " : "", in ? in : "",
        gst_cl_context_get_device_name (ctx), th[iterations / 2],
        tl[iterations / 2],
        gst_cl_dct_frame_threshold (hist, &params), passes, thr,
        ts[iterations / 2], iterations, ts[0]);
    g_free (tl);
  }
  clReleaseMemObject (src);
  clReleaseMemObject (dst);
  g_free (p);
  g_free (th);
  g_free (ts);
  g_rand_free (rand);
  return 0;
}

/* The device ms @event's command ran, or 0. */
static gdouble
event_ms (cl_event event)
{
  cl_ulong a = 0, b = 0;

  if (clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START, sizeof (a),
          &a, NULL) != CL_SUCCESS || clGetEventProfilingInfo (event,
          CL_PROFILING_COMMAND_END, sizeof (b), &b, NULL) != CL_SUCCESS
      || b < a)
    return 0;
  return (b - a) / 1e6;
}

/* The device ms from @begin's end to @end's (markers), or 0. */
static gdouble
span_ms (cl_event begin, cl_event end)
{
  cl_ulong a = 0, b = 0;

  if (clGetEventProfilingInfo (begin, CL_PROFILING_COMMAND_END, sizeof (a),
          &a, NULL) != CL_SUCCESS || clGetEventProfilingInfo (end,
          CL_PROFILING_COMMAND_END, sizeof (b), &b, NULL) != CL_SUCCESS)
    return 0;
  return b > a ? (b - a) / 1e6 : 0;
}

#define AUTO_MAX_EVENTS 64

static int
bench_auto (GstClContext * ctx, GstClDct * dct, gint w, gint h,
    guint passes, gint iterations, const gchar * in)
{
  const gint cw = (w + 1) / 2, ch = (h + 1) / 2;
  const gsize ysize = (gsize) w * h, csize = (gsize) cw *2 * ch;
  cl_command_queue q = gst_cl_context_get_queue (ctx);
  guint8 *p = g_malloc (ysize + csize);
  GRand *rand = g_rand_new_with_seed (15);
  gdouble *times = g_new0 (gdouble, (gsize) AUTO_MAX_EVENTS * iterations);
  gdouble *sums = g_new (gdouble, iterations);
  gdouble *spans = g_new (gdouble, iterations);
  cl_command_type types[AUTO_MAX_EVENTS] = { 0 };
  GstClDctAutoParams luma_params, chroma_params;
  GError *err = NULL;
  cl_mem ysrc, ydst, csrc, cdst;
  GstClPlaneRef ys, yd, cs, cd;
  const GstClDctPlane luma = { &ys, &yd, w, h };
  const GstClDctPlane chroma = { &cs, &cd, cw, ch, FALSE, 2, 2, 1 };
  guint n_events = 0, k;
  gsize i;
  gint it;

  if (!gst_cl_dct_decides (dct) || !gst_cl_dct_reads_interleaved (dct))
    die ("bench-auto: the device does not decide, or does not read NV12's "
        "chroma in place", NULL);
  for (i = 0; i < ysize + csize; i++)
    p[i] = CLAMP (60 + (gint) (i % w) * 100 / w + (i % 97 > 50 ? 60 : 0) +
        g_rand_int_range (rand, -6, 7), 0, 255);
  if (in) {
    FILE *f = fopen (in, "rb");
    if (!f || fread (p, 1, ysize + csize, f) != ysize + csize)
      die ("read", NULL);
    fclose (f);
  }
  ysrc = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, ysize, "y",
      &err);
  ydst = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, ysize, "y'",
      &err);
  csrc = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, csize, "uv",
      &err);
  cdst = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, csize, "uv'",
      &err);
  if (!ysrc || !ydst || !csrc || !cdst)
    die ("buffers", err);
  ys = gst_cl_plane_ref_device (ysrc, w);
  yd = gst_cl_plane_ref_device (ydst, w);
  cs = gst_cl_plane_ref_device (csrc, cw * 2);
  cd = gst_cl_plane_ref_device (cdst, cw * 2);
  clEnqueueWriteBuffer (q, ysrc, CL_TRUE, 0, ysize, p, 0, NULL, NULL);
  clEnqueueWriteBuffer (q, csrc, CL_TRUE, 0, csize, p + ysize, 0, NULL, NULL);
  gst_cl_dct_auto_params_init (&luma_params);
  gst_cl_dct_auto_chroma_params_init (&chroma_params, FALSE);
  for (it = -2; it < iterations; it++) {
    GstClEvents events = { {0,}, 0 };
    const GstClAfter after = { 0, NULL, &events };
    cl_event begin, end, e;
    gdouble sum = 0;

    clEnqueueMarkerWithWaitList (q, 0, NULL, &begin);
    if (!gst_cl_dct_auto (dct, &luma, 0, &luma_params, NULL, passes, &after,
            &err) || !gst_cl_dct_auto (dct, &chroma, 1, &chroma_params, NULL,
            passes, &after, &err))
      die ("auto", err);
    clEnqueueMarkerWithWaitList (q, 0, NULL, &end);
    clFinish (q);
    n_events = MIN (events.n_events, AUTO_MAX_EVENTS);
    for (k = 0; k < events.n_events; k++) {
      e = k < GST_CL_EVENTS_INLINE ? events.events[k] :
          g_array_index (events.more, cl_event, k - GST_CL_EVENTS_INLINE);
      if (k < AUTO_MAX_EVENTS && it >= 0) {
        times[(gsize) k * iterations + it] = event_ms (e);
        clGetEventInfo (e, CL_EVENT_COMMAND_TYPE, sizeof (types[k]),
            &types[k], NULL);
        sum += times[(gsize) k * iterations + it];
      }
    }
    gst_cl_events_take_ms (&events);    /* releases them */
    if (it >= 0) {
      sums[it] = sum;
      spans[it] = span_ms (begin, end);
    }
    clReleaseEvent (begin);
    clReleaseEvent (end);
  }
  printf ("%dx%d NV12, %s, %u passes: the commands of strength=auto decided "
      "on the device, luma then chroma, median device ms of %d frames:\n",
      w, h, gst_cl_context_get_device_name (ctx), passes, iterations);
  for (k = 0; k < n_events; k++) {
    gdouble *t = times + (gsize) k * iterations;

    qsort (t, iterations, sizeof (gdouble), cmp_double);
    printf ("  %2u %s %.4f\n", k + 1, types[k] == CL_COMMAND_NDRANGE_KERNEL ?
        "kernel" : "other ", t[iterations / 2]);
  }
  qsort (sums, iterations, sizeof (gdouble), cmp_double);
  qsort (spans, iterations, sizeof (gdouble), cmp_double);
  printf ("  sum %.4f, the frame's span %.4f\n", sums[iterations / 2],
      spans[iterations / 2]);
  /* at threshold 0 the stage is a copy: say what the frames got */
  for (k = 0; k < 3; k++) {
    GstClDctAuto state;

    if (!gst_cl_dct_read_state (dct, k, NULL, &err))
      die ("state", err);
    gst_cl_dct_last_state (dct, TRUE, &state);
    printf ("  %s: threshold %u\n", k == 0 ? "luma" : k == 1 ? "U" : "V",
        state.threshold);
  }
  clReleaseMemObject (ysrc);
  clReleaseMemObject (ydst);
  clReleaseMemObject (csrc);
  clReleaseMemObject (cdst);
  g_free (p);
  g_free (times);
  g_free (sums);
  g_free (spans);
  g_rand_free (rand);
  return 0;
}

static int
dump_hist (GstClContext * ctx, GstClDct * dct, gint w, gint h,
    const gchar * in, const gchar * out)
{
  cl_command_queue q = gst_cl_context_get_queue (ctx);
  const gsize ysize = (gsize) w * h, fsize = ysize + 2 * ((w + 1) / 2) *
      ((h + 1) / 2);
  guint8 *frame = g_malloc (fsize);
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  FILE *fi = fopen (in, "rb"), *fo = fopen (out, "wb");
  GError *err = NULL;
  cl_mem src;
  GstClPlaneRef sref;
  const GstClDctPlane plane = { &sref, NULL, w, h };

  if (!fi || !fo)
    die ("open", NULL);
  src = gst_cl_context_create_buffer (ctx, CL_MEM_READ_WRITE, ysize, "in",
      &err);
  if (!src)
    die ("buffers", err);
  sref = gst_cl_plane_ref_device (src, w);
  while (fread (frame, 1, fsize, fi) == fsize) {
    clEnqueueWriteBuffer (q, src, CL_TRUE, 0, ysize, frame, 0, NULL, NULL);
    if (!gst_cl_dct_histogram (dct, &plane, &no_order, hist, NULL, &err))
      die ("histogram", err);
    fwrite (hist, sizeof (hist), 1, fo);
  }
  fclose (fi);
  fclose (fo);
  clReleaseMemObject (src);
  g_free (frame);
  return 0;
}

/* The next frame's coding from @f (lines "TYPE QUANTISER", TYPE one of I,
 * P, B, S or ? for unknown), or NULL where @f is NULL. */
static const GstClDctCoding *
read_coding (FILE * f, GstClDctCoding * coding)
{
  gchar type;

  if (f == NULL)
    return NULL;
  if (fscanf (f, " %c %lf", &type, &coding->quantiser) != 2)
    die ("CL_DCT_CODING: a line per frame", NULL);
  coding->picture = type == 'I' ? GST_CL_DCT_PICTURE_INTRA : type == 'B' ?
      GST_CL_DCT_PICTURE_B : type == 'P' || type == 'S' ?
      GST_CL_DCT_PICTURE_P : GST_CL_DCT_PICTURE_UNKNOWN;
  return coding;
}

static int
decide (const gchar * in, const gchar * segments)
{
  guint32 hist[GST_CL_DCT_HIST_SIZE];
  FILE *fi = fopen (in, "rb");
  GstClDctAuto state = { 0, };
  GstClDctAutoParams params;
  GstClDctCoding coding;
  const gchar *env = g_getenv ("CL_DCT_PARAMS");
  const gchar *coded = g_getenv ("CL_DCT_CODING");
  FILE *fc = coded ? fopen (coded, "r") : NULL;
  guint n = 0;

  /* CL_DCT_PARAMS=GAIN,GAIN_H263,HOLD_GAIN,MIN_COUNT[,STRONG_GAIN,
   * STRONG_LEVEL[,HOLD_GAIN_LATE,LATE_FRAMES[,HOLD_GAIN_P,HOLD_GAIN_B[,
   * RATIO_MIN,B_RATIO_POWER[,FIRST_GOP[,HOLD_GAIN_UNTOLD,
   * HOLD_GAIN_UNTOLD_LATE]]]]]]:
   * the fit's trials (without the last two, the hold gains given serve
   * where the stream tells no types too, as before there were two);
   * CL_DCT_CODING=FILE: each frame's coding as the stream tells it
   * (read_coding()) */
  gst_cl_dct_auto_params_init (&params);
  if (env) {
    const gint n = sscanf (env,
        "%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u",
        &params.gain, &params.gain_h263, &params.hold_gain, &params.min_count,
        &params.strong_gain, &params.strong_level, &params.hold_gain_late,
        &params.late_frames, &params.hold_gain_p, &params.hold_gain_b,
        &params.ratio_min, &params.b_ratio_power, &params.first_gop,
        &params.hold_gain_untold, &params.hold_gain_untold_late);

    if (n != 4 && n != 6 && n != 8 && n != 10 && n != 12 && n != 13 && n != 15)
      die ("CL_DCT_PARAMS", NULL);
    if (n < 15) {
      params.hold_gain_untold = params.hold_gain;
      params.hold_gain_untold_late = params.hold_gain_late;
    }
  }
  if (!fi || (coded && !fc))
    die ("open", NULL);
  while (fread (hist, sizeof (hist), 1, fi) == 1) {
    const GstClDctCoding *c = read_coding (fc, &coding);

    if (starts_sequence (segments, n))
      gst_cl_dct_auto_reset (&state);
    if (g_getenv ("CL_DCT_LATTICES")) {
      guint i, spacing;

      for (i = 0; i < GST_CL_DCT_HIST_COEFFS; i++) {
        const GstClDctLattice kind = gst_cl_dct_lattice (hist +
            i * GST_CL_DCT_BINS, params.min_count, &spacing);
        printf ("lattice %u %u ", kind, spacing);
      }
    }
    printf ("frame %u own %u threshold %u\n", n++,
        gst_cl_dct_frame_threshold (hist, &params),
        gst_cl_dct_auto_update_with (&state, hist, c, &params));
  }
  fclose (fi);
  if (fc)
    fclose (fc);
  return 0;
}

int
main (int argc, char **argv)
{
  GstClContext *ctx;
  GstClDct *dct;
  GError *err = NULL;
  gint w, h, r;

  gst_init (&argc, &argv);
  if (argc >= 3 && !strcmp (argv[1], "decide"))
    return decide (argv[2], argc > 3 ? argv[3] : NULL);
  if (argc < 7 || (strcmp (argv[1], "filter") && strcmp (argv[1], "bench")
          && strcmp (argv[1], "bench10") && strcmp (argv[1], "bench-auto")
          && strcmp (argv[1], "auto") && strcmp (argv[1], "hist"))) {
    g_printerr ("usage: cl-dct filter DEVICE W H IN OUT PASSES THRESHOLD\n"
        "       cl-dct auto DEVICE W H IN OUT PASSES "
        "[SEGMENTS]\n       cl-dct hist DEVICE W H IN OUT\n"
        "       cl-dct decide HIST [SEGMENTS]\n       cl-dct bench DEVICE W H PASSES ITERATIONS "
        "[IN]\n       cl-dct bench10 DEVICE W H PASSES ITERATIONS [IN]\n"
        "       cl-dct bench-auto DEVICE W H PASSES ITERATIONS [IN]\n");
    return 2;
  }
  w = atoi (argv[3]);
  h = atoi (argv[4]);
  ctx = gst_cl_context_new (argv[2], &err);
  if (!ctx)
    die ("device", err);
  /* 8-bit planes, or for bench10 10-bit ones in words */
  dct = gst_cl_dct_new (ctx, strcmp (argv[1], "bench10") ? 8 : 10, 0, &err);
  if (!dct)
    die ("kernels", err);
  if (!strcmp (argv[1], "auto"))
    r = filter (ctx, dct, w, h, argv[5], argv[6], TRUE, atoi (argv[7]), 0,
        argc > 8 ? argv[8] : NULL);
  else if (!strcmp (argv[1], "hist"))
    r = dump_hist (ctx, dct, w, h, argv[5], argv[6]);
  else if (!strcmp (argv[1], "bench-auto"))
    r = bench_auto (ctx, dct, w, h, atoi (argv[5]), atoi (argv[6]),
        argc > 7 ? argv[7] : NULL);
  else if (!strcmp (argv[1], "filter"))
    r = filter (ctx, dct, w, h, argv[5], argv[6], FALSE,
        argc > 7 ? atoi (argv[7]) : 8, argc > 8 ? atoi (argv[8]) : 0, NULL);
  else
    r = bench (ctx, dct, strcmp (argv[1], "bench10") ? 1 : 2, w, h,
        atoi (argv[5]), atoi (argv[6]), argc > 7 ? argv[7] : NULL);
  gst_cl_dct_free (dct);
  gst_object_unref (ctx);
  return r;
}
