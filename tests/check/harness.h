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

/* The scaffolding every element suite (tests/check/elements/) shares: a
 * started clepsilon in a GstHarness with caps, settings and their
 * description, random frames, the reference output, pushing a frame and
 * comparing it with the reference, and the element's error messages.
 *
 * These helpers assert (gst-check's fail_unless): a failure ends the test
 * with a message that names the test's @ctx. They are built on robust.h's
 * helpers, which return what they found instead, for the fuzz target. */

#ifndef __CLEPSILON_HARNESS_H__
#define __CLEPSILON_HARNESS_H__

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "reference.h"
#include "robust.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */

/* ref_params_init() with the two thresholds and the window set. */
void th_params_init (RefParams * p, guint threshold, guint window,
    guint chroma_threshold);

/* Every setting of the element a test may choose: the reference's values,
 * the kernel text set on the "kernel" property, and forced variants. */
typedef struct
{
  RefParams ref;
  gchar kernel_str[8192];       /* what is set on the "kernel" property */
  const gchar *epsilon_variant; /* NULL: the element's default (auto) */
  const gchar *conv_variant;
} ThConfig;

/* Clears @cfg: th_params_init()'s values, no kernel, default variants. */
void th_config_init (ThConfig * cfg, guint threshold, guint window,
    guint chroma_threshold);

/* Sets a kernel given both as the property text @str and as @kw x @kh
 * row-major @coeffs (odd sides up to REF_KERNEL_MAX_SIDE). */
void th_config_set_kernel_str (ThConfig * cfg, const gchar * str, gint kw,
    gint kh, const gdouble * coeffs, gdouble divisor, gdouble bias);

/* Sets a kernel from coefficients, the text written "a b c; d e f" with
 * each number as "%.17g" (integers as integers). */
void th_config_set_kernel (ThConfig * cfg, gint kw, gint kh,
    const gdouble * coeffs, gdouble divisor, gdouble bias);

/* Sets every mutable property of @cfg on @element. */
void th_config_apply (const ThConfig * cfg, GstElement * element);

/* The settings in one line, for failure messages (free it). */
gchar *th_config_describe (const ThConfig * cfg);

/* "[@what] FORMAT WxH seed=0x... settings device=..." (free it). */
gchar *th_config_ctx (const gchar * what, GstVideoFormat fmt, gint w, gint h,
    guint32 seed, const ThConfig * cfg);

/* ------------------------------------------------------------------------ */
/* Element and harness                                                      */

/* A new clepsilon on the test device (rt_device()); fails if the plugin
 * cannot make one. The caller owns it. */
GstElement *th_make_element (void);

/* Where the suite runs under valgrind (CLEPSILON_UNDER_VALGRIND), forces the
 * plain kernel variants on @e: timing every variant there takes minutes. */
void th_plain_variants_under_valgrind (GstElement * e);

/* Starts @e with a bus of its own (rt_start()), failing with the element's
 * error message if it does not start, and wraps it in a harness, which
 * takes the reference to @e. */
GstHarness *th_harness_from_element (GstElement * e);

/* Sets caps @fmt @w x @h on both sides of @hr and fills @info with them. */
/* After an ERROR, which stops the element's stream until READY: back to
 * READY and PLAYING, and a new stream with the caps of @info (as
 * th_harness_set_format() sets them). */
void th_restart_stream (GstHarness * hr, const GstVideoInfo * info);

void th_harness_set_format (GstHarness * hr, GstVideoFormat fmt, gint w,
    gint h, GstVideoInfo * info);

/* th_harness_from_element (@e) with caps @fmt @w x @h (@info filled in).
 * With @downstream_meta (0 for none), the harness's sink side answers the
 * ALLOCATION query with that meta API. */
GstHarness *th_harness_new (GstElement * e, GstVideoFormat fmt, gint w,
    gint h, GType downstream_meta, GstVideoInfo * info);

/* The next ERROR message of the harnessed element (a reference), or NULL.
 * Fails if the element has no bus. */
GstMessage *th_pop_error (GstHarness * hr);

/* Tears @hr down, failing first if the element posted an ERROR. The bus's
 * messages hold the element: they are dropped, or the element, its bus and
 * the messages would outlive the test (valgrind, leaks tracer). */
void th_teardown_checked (GstHarness * hr);

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */

typedef enum
{
  TH_FILL_NOISE,                /* uniform 0..255 */
  TH_FILL_SMOOTH,               /* gradient plus -24..+24 noise */
} ThFill;

/* Random bytes over all of @buf, padding included. Maps each memory on its
 * own: mapping a buffer of several memories, or of memory it cannot write
 * in place, would replace them with a merged copy. */
void th_fill_bytes (GstBuffer * buf, GRand * rand);

/* Writes every image sample (not the padding) of the mapped 8-bit @frame. */
void th_fill_frame (GstVideoFrame * frame, GRand * rand, ThFill mode);

/* Maps @buf as a frame of @info (by its GstVideoMeta if it has one) and
 * fills its image samples. */
void th_fill_buffer (const GstVideoInfo * info, GstBuffer * buf, GRand * rand,
    ThFill mode);

/* A system buffer in the default layout of @info: random bytes
 * (th_fill_bytes()), then image samples (th_fill_buffer()). */
GstBuffer *th_make_input (const GstVideoInfo * info, GRand * rand,
    ThFill mode);

/* Compares every image sample of @out with @exp (rt_compare()); luma may
 * differ by @luma_tol, chroma must be equal. NULL if they match, else a
 * description of the mismatches (free it). */
gchar *th_compare_frame (const GstVideoInfo * info, GstBuffer * out,
    GstBuffer * exp, guint luma_tol);

/* th_compare_frame(), failing with @ctx and the first mismatch. */
void th_check_frame (const GstVideoInfo * info, GstBuffer * out,
    GstBuffer * exp, guint luma_tol, const gchar * ctx);

/* Pushes @in (taking it), failing unless the push returns GST_FLOW_OK, and
 * pulls the output, failing if none comes. Returns it (unref it). */
GstBuffer *th_push_pull (GstHarness * hr, GstBuffer * in, const gchar * ctx);

/* Computes the reference output of @in for @p, pushes @in (taking it),
 * fails unless the push returns GST_FLOW_OK and exactly one output comes
 * out, and checks it (exact). Returns the output (unref it). */
GstBuffer *th_push_check (GstHarness * hr, const GstVideoInfo * info,
    GstBuffer * in, const RefParams * p, const gchar * ctx);

/* th_push_check() with the output dropped. */
void th_push_check_unref (GstHarness * hr, const GstVideoInfo * info,
    GstBuffer * in, const RefParams * p, const gchar * ctx);

/* ------------------------------------------------------------------------ */
/* Memory                                                                   */

/* A system memory of @size bytes followed by a PROT_NONE page: reading past
 * its end crashes. It starts at an address aligned to @align (a power of 2;
 * it then ends less than @align bytes before the guard page) or, with @odd,
 * at an odd address (it ends right at the guard page when @size is odd).
 * Its bytes are 0. */
GstMemory *th_guarded_memory_new (gsize size, gsize align, gboolean odd);

G_END_DECLS

#endif /* __CLEPSILON_HARNESS_H__ */
