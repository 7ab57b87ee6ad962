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

/* Helpers shared by the suites (the element's through harness.h, the
 * library's through libs/fixture.h, libs/clcache) and the fuzz target: the
 * sets of formats the suites loop over, frames with random content and
 * optional odd layouts, the reference output, comparison, harness and bus
 * helpers, live object counts from GStreamer's leaks tracer, a test's own
 * temporary and cache folders. None of them calls fail (): they return
 * what they found, so that the fuzz target can use them too. */

#ifndef __CLEPSILON_ROBUST_H__
#define __CLEPSILON_ROBUST_H__

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "reference.h"

G_BEGIN_DECLS

/* $CLEPSILON_TEST_DEVICE, or "pocl". */
const gchar *rt_device (void);

/* The formats the element takes, in the sets the suites loop over, each in
 * the order of the element's caps: NV12 and I420, 4:2:0 with interleaved
 * and with planar chroma, the two shapes of every chroma path (where more
 * formats would only repeat them); every 8-bit format; every 10-bit
 * format. */
extern const GstVideoFormat rt_formats_420[2];
extern const GstVideoFormat rt_formats_8bit[7];
extern const GstVideoFormat rt_formats_10bit[4];

/* The loop over a set of formats: runs the statement that follows for @i
 * (an unsigned integer) = 0, 1, ... over the array @formats (one of the
 * sets above, or a test's own list), whose format is @formats[@i]. */
#define RT_FOR_EACH_FORMAT(i, formats) \
  for ((i) = 0; (i) < G_N_ELEMENTS (formats); (i)++)

/* "video/x-raw, format=..., width=..., height=..., framerate=30/1". */
gchar *rt_caps_string (GstVideoFormat fmt, gint w, gint h);
GstCaps *rt_caps (GstVideoFormat fmt, gint w, gint h);

/* Sets threshold, window-size, chroma-threshold, divisor and bias of @e
 * from @p, and its kernel to @kernel (NULL: none). */
void rt_apply_params (GstElement * e, const RefParams * p,
    const gchar * kernel);

/* Parses the kernel text the element would accept into @p (width, height,
 * coefficients); FALSE if the element's parser would reject it. Only for
 * simple texts: numbers separated by blanks or commas, rows by ';'. */
gboolean rt_params_set_kernel (RefParams * p, const gchar * text);

/* Writes random bytes over the whole buffer. */
void rt_fill_random (GstBuffer * buf, GRand * rand);

/* The bytes a row of plane @plane of @info needs: the widest of its
 * components' rows (whole pairs of YUY2 and UYVY, whose last V comes after
 * an odd width's last luma sample). */
gsize rt_row_bytes (const GstVideoInfo * info, guint plane);

/* A buffer of @info's size and default layout with random content, its
 * memory aligned to @align + 1 bytes (@align is a mask, as in
 * GstAllocationParams), or at an odd address when @odd. */
GstBuffer *rt_make_input (const GstVideoInfo * info, GRand * rand,
    gsize align, gboolean odd);

/* A buffer with a GstVideoMeta whose strides are @extra bytes wider than
 * needed and whose planes start @gap bytes apart (plus the plane index
 * times 7); image samples random, everything else @poison. */
GstBuffer *rt_make_padded_input (const GstVideoInfo * info, GRand * rand,
    gint extra, gint gap, guint8 poison);

/* The reference output for @in (mapped with its video meta if it has one),
 * in the default layout of @info; bytes outside the image are 0. @in is
 * left as it is: a buffer of several memories is not merged. */
GstBuffer *rt_make_expected (const GstVideoInfo * info, GstBuffer * in,
    const RefParams * p);

/* Compares the image samples of @out (mapped with its video meta if any)
 * with @exp; luma may differ by @luma_tol. Returns the number of samples
 * that differ and describes the first one in @first (may be NULL; free it). */
guint rt_compare (const GstVideoInfo * info, GstBuffer * out, GstBuffer * exp,
    guint luma_tol, gchar ** first);

/* Whether every sample of every component of @a and @b (same format) is
 * equal, padding excluded. */
gboolean rt_same_image (const GstVideoInfo * info, GstBuffer * a,
    GstBuffer * b);

/* Gives @e a bus of its own (so that its messages can be read) and sets it
 * to PLAYING. Returns the state change result. */
GstStateChangeReturn rt_start (GstElement * e);

/* The next ERROR message on @e's bus, or NULL. */
GstMessage *rt_pop_error (GstElement * e);

/* Pops every ERROR message on @e's bus; returns how many there were and
 * the text of the first ("message | debug") in @text (may be NULL). */
guint rt_drain_errors (GstElement * e, gchar ** text);

/* "message | debug" of an ERROR message. */
gchar *rt_error_text (GstMessage * msg);

/* Pushes stream-start, @caps (taken) and a TIME segment on the harness's
 * source pad without asserting. Whether the element took the caps shows at
 * the next buffer (GST_FLOW_NOT_NEGOTIATED): a pad stores sticky events and
 * reports them pushed even when downstream refused them. */
void rt_push_caps (GstHarness * hr, GstCaps * caps);

/* Tears @hr down, dropping the messages on the element's bus first (they
 * hold references to the element). */
void rt_teardown (GstHarness * hr);

/* GStreamer objects and mini objects alive now, as the leaks tracer counts
 * them (GST_TRACERS=leaks), or -1 when the tracer is not active. With
 * @describe, a list of their types (free it). Objects flagged as possibly
 * leaked on purpose (static caps and the like) are not counted. */
gint rt_live_gst_objects (gchar ** describe);

/* Runs this program again, with @child_env=1, @var=@value and only the test
 * @test (GST_CHECKS), in a new process; fails with its output unless that
 * test ran and passed. */
void rt_run_child (const gchar * child_env, const gchar * test,
    const gchar * var, const gchar * value);

/* Turns the program and tuning cache off (GST_CL_CACHE_DIR=""), returning
 * the variable's value before, for rt_cache_restore(), which frees it. */
gchar *rt_cache_off (void);
void rt_cache_restore (gchar * saved);

/* A new folder in $TMPDIR named "@prefix-XXXXXX" (free the name). Aborts
 * where none can be made: no test can go on without it. */
gchar *rt_tmp_dir_new (const gchar * prefix);

/* Removes @dir with everything in it (folders emptied and made writable
 * first; links removed, not followed); returns how many files (links,
 * FIFOs...: everything but folders) it held. */
guint rt_tmp_dir_remove (const gchar * dir);

/* The program and tuning cache of one test: a fresh folder of its own
 * (@dir) set as GST_CL_CACHE_DIR, so that what the test stores and reads is
 * its own, and the variable's value before (@saved). */
typedef struct
{
  gchar *dir;
  gchar *saved;
} RtCacheDir;

/* Makes the folder (rt_tmp_dir_new()) and points GST_CL_CACHE_DIR at it. */
RtCacheDir *rt_cache_dir_new (void);

/* Removes @cache's folder with what it holds, sets GST_CL_CACHE_DIR back as
 * it was and frees @cache; returns how many files the folder held. */
guint rt_cache_dir_free (RtCacheDir * cache);

G_END_DECLS

#endif /* __CLEPSILON_ROBUST_H__ */
