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

#ifndef __GST_CL_STAGE_PRIVATE_H__
#define __GST_CL_STAGE_PRIVATE_H__

#include "gstclcontext-private.h"
#include "gstclstream-private.h"

G_BEGIN_DECLS

/* The kernel variants of kernels/epsilon.cl and kernels/convolve.cl: each
 * computes the same numbers in its own way, and which is fastest depends on
 * the device (see gstcltuner-private.h). */
typedef enum
{
  GST_CL_VARIANT_AUTO,
  GST_CL_VARIANT_PLAIN,
  GST_CL_VARIANT_TILED,
  GST_CL_VARIANT_VECTOR,
  GST_CL_VARIANT_WIDE,          /* a row strip per work-item; 8-bit only */
  GST_CL_VARIANT_SEPARABLE,     /* convolution with a rank-1 kernel only */
  GST_CL_N_VARIANTS
} GstClVariant;

#define GST_TYPE_CL_VARIANT (gst_cl_variant_get_type ())
GType gst_cl_variant_get_type (void);

/* "plain", "tiled", ...; and back (GST_CL_VARIANT_AUTO if unknown). */
const gchar *gst_cl_variant_to_string (GstClVariant variant);
GstClVariant gst_cl_variant_from_string (const gchar * nick);

/* A variant with its work-group size: what one stage is launched with. */
typedef struct
{
  GstClVariant variant;
  size_t local[2];
} GstClLaunch;

/* Where a command stands in the order of the device's work: it runs after
 * the @n_wait events of @wait (not owned; say a frame's upload on another
 * queue), and its events are added to @events (may be NULL); or, where
 * @cuda is set, it runs there instead, in order (gstclcudaexec.c). */
typedef struct
{
  cl_uint n_wait;
  const cl_event *wait;
  GstClEvents *events;
  GstClCudaExec *cuda;
} GstClAfter;

/* What one kernel enqueued needs besides its global size: its work-group
 * size (@local; NULL: the implementation's), what it waits for and where
 * its event goes (@after), its name for errors, and the arguments set
 * (@args: what a launch through @after's cuda passes). */
typedef struct
{
  const size_t *local;
  GstClAfter after;
  const gchar *what;
  const GstClArgs *args;
} GstClEnqueue;

/* Enqueues @kernel, its arguments set, on @context's queue over @width x
 * @height work-items as @how says: the one launch of every kernel of the
 * library (the filters' stages, the DCT stage and its histogram). The
 * global size is rounded up to whole work-groups of @how->local, which
 * OpenCL 1.2 needs; kernels skip the excess. Returns FALSE with @error set
 * ("clEnqueueNDRangeKernel (@what)") on failure. */
gboolean gst_cl_enqueue_kernel (GstClContext * context, GstClKernel * kernel,
    gsize width, gsize height, const GstClEnqueue * how, GError ** error);

/* All kernels of one program, built for one epsilon window radius (the
 * tiled and vector epsilon kernels unroll their window loops; the others
 * take sizes at run time) and one sample size, from the same sources
 * (kernels/epsilon.cl, convolve.cl): 8-bit samples in bytes (every
 * variant), or 10-bit samples in 16-bit little-endian words (plain, vector
 * and separable only). */
typedef struct _GstClKernels GstClKernels;

/* Builds (or loads from the program cache) the kernels for @radius (1..7),
 * for 16-bit words when @deep, else for bytes. @from_cache: whether no
 * compilation was needed. A @deep program fails on a big-endian device. */
GstClKernels *gst_cl_kernels_new (GstClContext * context, gint radius,
    gboolean deep, gboolean * from_cache, GError ** error);
void gst_cl_kernels_free (GstClKernels * kernels);

/* The device's binary of the program of gst_cl_kernels_new() for
 * @radius and @deep that an earlier build left in the program cache, found
 * with no OpenCL context (gst_cl_program_cached_binary()), or NULL. */
gchar *gst_cl_kernels_cached_binary (cl_device_id device, gint radius,
    gboolean deep, gsize * size);

/* The window radius and sample size the program was built for. */
gint gst_cl_kernels_get_radius (GstClKernels * kernels);
gboolean gst_cl_kernels_is_deep (GstClKernels * kernels);

/* Whether the program has @variant (not AUTO) for the epsilon filter or,
 * with @convolve, the convolution. */
gboolean gst_cl_kernels_has_variant (GstClKernels * kernels,
    gboolean convolve, GstClVariant variant);

/* The work-group sizes worth trying for @variant on the device, best guess
 * first; at most 8. The first is the default of a forced variant. */
guint gst_cl_kernels_local_sizes (GstClKernels * kernels, gboolean convolve,
    GstClVariant variant, size_t sizes[][2]);

/* One plane for a stage: where it reads and writes, and its size in samples
 * of one component (@xstep interleaved components per sample position).
 * Deep programs only: the 10-bit value of a 16-bit word is
 * (word >> @shift) & 1023 (P010: 6, I420_10LE: 0); offsets and pitches of
 * @src and @dst must be even. */
typedef struct
{
  const GstClPlaneRef *src;
  const GstClPlaneRef *dst;
  gint width;
  gint height;
  gint xstep;
  guint shift;
} GstClStagePlane;

/* The convolution's parameters on the device. */
typedef struct
{
  cl_mem coeffs;                /* kw * kh floats, row by row */
  gint kw, kh;
  gfloat divisor, bias;
  /* Rank-1 kernels: coeffs[r][c] == column[r] * row[c], with the row pass
   * into @scratch (width * height floats) */
  gboolean separable;
  cl_mem row_factor, column_factor, scratch;
} GstClConvParams;

/* One stage of one plane with every argument of its kernels: the single
 * place where frames, the tuner and the tools say what a launch computes.
 * @threshold is in sample units (10-bit ones for a deep program); @conv is
 * read only when @convolve. */
typedef struct
{
  GstClKernels *kernels;
  gboolean convolve;
  GstClStagePlane plane;
  guint threshold;
  GstClConvParams conv;
} GstClStage;

/* Enqueues @stage with @launch (not AUTO; a variant the program has;
 * SEPARABLE needs a separable convolution) on the context's queue, its
 * first kernel after @after's wait list, the others after it on the
 * in-order queue. The kernels' events are added to @after's events.
 * The epsilon filter's @threshold is in sample units (10-bit ones for a
 * deep program); the convolution takes one-component planes and clamps its
 * output to 0..255, or 0..1023 for a deep program. */
gboolean gst_cl_stage_run (const GstClStage * stage,
    const GstClLaunch * launch, const GstClAfter * after, GError ** error);

G_END_DECLS

#endif /* __GST_CL_STAGE_PRIVATE_H__ */
