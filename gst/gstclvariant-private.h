/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_VARIANT_PRIVATE_H__
#define __GST_CL_VARIANT_PRIVATE_H__

#include "gstclcontext-private.h"
#include "gstclframe-private.h"

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

/* Events of the kernels enqueued for one frame, for their times. */
typedef struct
{
  cl_event events[16];
  guint n_events;
} GstClEvents;

/* Milliseconds the events' commands ran (profiling), releasing them. */
gdouble gst_cl_events_take_ms (GstClEvents * events);

/* All kernels of one program, built for one epsilon window radius (the
 * tiled and vector epsilon kernels unroll their window loops; the others
 * take sizes at run time). */
typedef struct _GstClKernels GstClKernels;

/* Builds (or loads from the program cache) the kernels for @radius (1..7).
 * @from_cache: whether no compilation was needed. */
GstClKernels *gst_cl_kernels_new (GstClContext * context, gint radius,
    gboolean * from_cache, GError ** error);
void gst_cl_kernels_free (GstClKernels * kernels);

/* The work-group sizes worth trying for @variant on the device, best guess
 * first; at most 8. The first is the default of a forced variant. */
guint gst_cl_kernels_local_sizes (GstClKernels * kernels, gboolean convolve,
    GstClVariant variant, size_t sizes[][2]);

/* One plane for a stage: where it reads and writes, and its size in samples
 * of one component (@xstep interleaved components per sample position). */
typedef struct
{
  const GstClPlaneRef *src;
  const GstClPlaneRef *dst;
  gint width;
  gint height;
  gint xstep;
} GstClStagePlane;

/* Enqueues the epsilon filter of @plane with @launch (not AUTO). */
gboolean gst_cl_kernels_run_epsilon (GstClKernels * kernels,
    const GstClLaunch * launch, const GstClStagePlane * plane,
    guint threshold, GstClEvents * events, GError ** error);

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

/* Enqueues the convolution of a one-component @plane with @launch (not
 * AUTO; SEPARABLE needs @params->separable). */
gboolean gst_cl_kernels_run_convolve (GstClKernels * kernels,
    const GstClLaunch * launch, const GstClStagePlane * plane,
    const GstClConvParams * params, GstClEvents * events, GError ** error);

G_END_DECLS

#endif /* __GST_CL_VARIANT_PRIVATE_H__ */
