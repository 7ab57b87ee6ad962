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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclstage-private.h"
#include "gstclerror-private.h"
#include "gstclprogram-private.h"
#include "gstclkernels.h"
#include "filters-shared.h"

struct _GstClKernels
{
  GstClContext *context;
  gint radius;
  gboolean deep;                /* 10-bit samples in 16-bit words */
  GstClProgram *program;
  /* [variant][xstep - 1], PLAIN..WIDE; NULL where the program has none */
  GstClKernel *epsilon[GST_CL_VARIANT_WIDE + 1][2];
  GstClKernel *convolve[GST_CL_VARIANT_WIDE + 1];
  GstClKernel *rows, *columns;
  size_t max_item[2];
  size_t max_group;             /* over every kernel of the program */
  cl_ulong local_mem;
};

static const GEnumValue variant_values[] = {
  {GST_CL_VARIANT_AUTO, "Fastest on the device, timed once and remembered",
      "auto"},
  {GST_CL_VARIANT_PLAIN, "One sample per work-item", "plain"},
  {GST_CL_VARIANT_TILED, "Local-memory tiles", "tiled"},
  {GST_CL_VARIANT_VECTOR, "Eight samples per work-item, vector arithmetic",
      "vector"},
  {GST_CL_VARIANT_WIDE,
        "A row strip per work-item in 16-bit lanes, for CPUs",
      "wide"},
  {GST_CL_VARIANT_SEPARABLE,
        "Row pass then column pass (convolution with a rank-1 kernel)",
      "separable"},
  {0, NULL, NULL}
};

GType
gst_cl_variant_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstClVariant", variant_values));
  return type;
}

const gchar *
gst_cl_variant_to_string (GstClVariant variant)
{
  g_return_val_if_fail (variant < GST_CL_N_VARIANTS, "auto");
  return variant_values[variant].value_nick;
}

GstClVariant
gst_cl_variant_from_string (const gchar * nick)
{
  guint i;

  for (i = 0; nick && i < GST_CL_N_VARIANTS; i++) {
    if (g_str_equal (nick, variant_values[i].value_nick))
      return variant_values[i].value;
  }
  return GST_CL_VARIANT_AUTO;
}

/* ---- Building ------------------------------------------------------------ */

/* Whether the kernels of @variant exist at the program's sample size: the
 * tiled and wide ones work on bytes only (kernels/epsilon.cl, convolve.cl
 * build them for SAMPLE_BITS 8 alone); the tuner then never picks them, and
 * a forced one runs plain. */
static gboolean
variant_is_built (const GstClKernels * self, GstClVariant variant)
{
  return !self->deep || (variant != GST_CL_VARIANT_TILED &&
      variant != GST_CL_VARIANT_WIDE);
}

static gboolean
create_kernels (GstClKernels * self, GError ** error)
{
  static const gchar *names[][2] = {
    {NULL, NULL},
    {"epsilon_planar", "epsilon_interleaved"},
    {"epsilon_tiled_planar", "epsilon_tiled_interleaved"},
    {"epsilon_vector_planar", "epsilon_vector_interleaved"},
    {"epsilon_wide_planar", "epsilon_wide_interleaved"},
  };
  static const gchar *conv_names[] = {
    NULL, "convolve", "convolve_tiled", "convolve_vector", "convolve_wide"
  };
  GstClProgram *p = self->program;
  guint v, x;

  for (v = GST_CL_VARIANT_PLAIN; v <= GST_CL_VARIANT_WIDE; v++) {
    if (!variant_is_built (self, v))
      continue;
    for (x = 0; x < 2; x++) {
      if (!(self->epsilon[v][x] = gst_cl_program_create_kernel (p,
                  names[v][x], error)))
        return FALSE;
    }
    if (!(self->convolve[v] = gst_cl_program_create_kernel (p,
                conv_names[v], error)))
      return FALSE;
  }
  self->rows = gst_cl_program_create_kernel (p, "convolve_rows", error);
  if (!self->rows)
    return FALSE;
  self->columns = gst_cl_program_create_kernel (p, "convolve_columns", error);
  return self->columns != NULL;
}

/* The largest work-group every kernel of the program can run, and the
 * device's limits per dimension and on local memory. */
static gboolean
query_limits (GstClKernels * self, GError ** error)
{
  cl_device_id device = gst_cl_context_get_device (self->context);
  GstClKernel *all[] = { self->epsilon[1][0], self->epsilon[1][1],
    self->epsilon[2][0], self->epsilon[2][1], self->epsilon[3][0],
    self->epsilon[3][1], self->epsilon[4][0], self->epsilon[4][1],
    self->convolve[1], self->convolve[2], self->convolve[4],
    self->convolve[3], self->rows, self->columns
  };
  size_t items[3] = { 0, }, wg;
  cl_int status;
  guint i;

  status = clGetDeviceInfo (device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
      sizeof (items), items, NULL);
  if (status == CL_SUCCESS)
    status = clGetDeviceInfo (device, CL_DEVICE_LOCAL_MEM_SIZE,
        sizeof (self->local_mem), &self->local_mem, NULL);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clGetDeviceInfo (limits)");
  self->max_item[0] = MAX (items[0], 1);
  self->max_item[1] = MAX (items[1], 1);
  self->max_group = G_MAXSIZE;
  for (i = 0; i < G_N_ELEMENTS (all); i++) {
    if (!all[i])
      continue;
    if (!gst_cl_kernel_get_max_group (all[i], &wg, error))
      return FALSE;
    self->max_group = MIN (self->max_group, MAX (wg, 1));
  }
  return TRUE;
}

/* The kernels read and write 16-bit words as the device's ushort. */
static gboolean
check_little_endian (GstClContext * context, GError ** error)
{
  cl_bool little = CL_TRUE;
  cl_int status = clGetDeviceInfo (gst_cl_context_get_device (context),
      CL_DEVICE_ENDIAN_LITTLE, sizeof (little), &little, NULL);

  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clGetDeviceInfo (endianness)");
  if (!little) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "10-bit formats need a little-endian OpenCL device");
    return FALSE;
  }
  return TRUE;
}

/* The filters' program: its sources, one per filter, and its options for
 * @radius, built for bytes or (SAMPLE_BITS 10) words. */
static const gchar *const filter_sources[] = {
  gst_cl_kernel_filters_shared, gst_cl_kernel_common, gst_cl_kernel_epsilon,
  gst_cl_kernel_convolve, NULL
};

static gchar *
filter_options (gint radius, gboolean deep)
{
  return g_strdup_printf ("-DRADIUS=%d%s", radius,
      deep ? " -DSAMPLE_BITS=10" : "");
}

gchar *
gst_cl_kernels_cached_binary (cl_device_id device, gint radius,
    gboolean deep, gsize * size)
{
  gchar *options = filter_options (radius, deep);
  gchar *binary = gst_cl_program_cached_binary (device, filter_sources,
      options, size);

  g_free (options);
  return binary;
}

GstClKernels *
gst_cl_kernels_new (GstClContext * context, gint radius, gboolean deep,
    gboolean * from_cache, GError ** error)
{
  GstClKernels *self;
  gchar *options;

  if (deep && !check_little_endian (context, error))
    return NULL;

  self = g_new0 (GstClKernels, 1);
  options = filter_options (radius, deep);
  self->context = gst_object_ref (context);
  self->radius = radius;
  self->deep = deep;
  self->program = gst_cl_program_build (context, filter_sources, options,
      from_cache, error);
  g_free (options);
  if (!self->program || !create_kernels (self, error)
      || !query_limits (self, error)) {
    gst_cl_kernels_free (self);
    return NULL;
  }
  return self;
}

void
gst_cl_kernels_free (GstClKernels * self)
{
  guint v;

  if (!self)
    return;
  for (v = GST_CL_VARIANT_PLAIN; v <= GST_CL_VARIANT_WIDE; v++) {
    gst_cl_kernel_free (self->epsilon[v][0]);
    gst_cl_kernel_free (self->epsilon[v][1]);
    gst_cl_kernel_free (self->convolve[v]);
  }
  gst_cl_kernel_free (self->rows);
  gst_cl_kernel_free (self->columns);
  gst_cl_program_free (self->program);
  gst_object_unref (self->context);
  g_free (self);
}

gint
gst_cl_kernels_get_radius (GstClKernels * self)
{
  return self->radius;
}

gboolean
gst_cl_kernels_is_deep (GstClKernels * self)
{
  return self->deep;
}

gboolean
gst_cl_kernels_has_variant (GstClKernels * self, gboolean convolve,
    GstClVariant variant)
{
  if (variant == GST_CL_VARIANT_SEPARABLE)
    return convolve && self->rows != NULL;
  if (variant < GST_CL_VARIANT_PLAIN || variant > GST_CL_VARIANT_WIDE)
    return FALSE;
  return convolve ? self->convolve[variant] != NULL :
      self->epsilon[variant][0] != NULL;
}

/* ---- Work-group sizes ---------------------------------------------------- */

/* Local memory of a tiled launch (epsilon: packed uint samples; convolution:
 * bytes); the widest case (xstep 2, a 15x15 kernel) so one size fits all. */
static gsize
tile_bytes (const GstClKernels * self, gboolean convolve, const size_t *local)
{
  if (convolve)
    return (local[0] + FILTER_MAX_SIDE - 1) * (local[1] + FILTER_MAX_SIDE - 1);
  return (local[0] + 4 * self->radius) * (local[1] + 2 * self->radius) * 4;
}

guint
gst_cl_kernels_local_sizes (GstClKernels * self, gboolean convolve,
    GstClVariant variant, size_t sizes[][2])
{
  /* Wide rows suit both CPU vectorisation and GPU coalescing; square ones
   * suit tiles (less border per sample). */
  static const size_t wide[][2] = { {64, 4}, {32, 8}, {128, 2}, {256, 1} };
  static const size_t square[][2] = { {32, 8}, {16, 16}, {64, 4}, {32, 4} };
  static const size_t narrow[][2] = { {16, 8}, {32, 4}, {8, 16}, {64, 2} };
  /* The wide variants: a work-item is a row strip of FILTER_STRIP bytes; a
   * few rows per work-group keep many cores busy. */
  static const size_t strips[][2] = { {1, 8}, {2, 4}, {1, 16}, {8, 1} };
  const size_t (*list)[2] = variant == GST_CL_VARIANT_TILED ? square :
      variant == GST_CL_VARIANT_WIDE ? strips :
      variant == GST_CL_VARIANT_VECTOR ? narrow : wide;
  guint i, n = 0;

  for (i = 0; i < 4; i++) {
    size_t l[2] = { MIN (list[i][0], self->max_item[0]),
      MIN (list[i][1], self->max_item[1])
    };
    while (l[0] * l[1] > self->max_group)
      l[l[1] > 1 ? 1 : 0] /= 2;
    if (variant == GST_CL_VARIANT_TILED &&
        tile_bytes (self, convolve, l) > self->local_mem / 2)
      continue;
    if (n > 0 && sizes[n - 1][0] == l[0] && sizes[n - 1][1] == l[1])
      continue;
    sizes[n][0] = l[0];
    sizes[n][1] = l[1];
    n++;
  }
  if (n == 0) {
    /* Tiles that do not fit: the smallest work-group still runs. */
    sizes[0][0] = sizes[0][1] = 1;
    n = 1;
  }
  return n;
}

/* ---- Launching ----------------------------------------------------------- */

/* The arguments every plane kernel starts with: source plane, destination
 * plane, size. */
static void
set_plane_args (GstClKernel * kernel, const GstClStagePlane * plane,
    GstClArgs * args)
{
  cl_uint src_offset = plane->src->offset, dst_offset = plane->dst->offset;

  GST_CL_ARG (kernel, 0, plane->src->mem, args);
  GST_CL_ARG (kernel, 1, src_offset, args);
  GST_CL_ARG (kernel, 2, plane->src->pitch, args);
  GST_CL_ARG (kernel, 3, plane->dst->mem, args);
  GST_CL_ARG (kernel, 4, dst_offset, args);
  GST_CL_ARG (kernel, 5, plane->dst->pitch, args);
  GST_CL_ARG (kernel, 6, plane->width, args);
  GST_CL_ARG (kernel, 7, plane->height, args);
}

gboolean
gst_cl_enqueue_kernel (GstClContext * context, GstClKernel * kernel,
    gsize width, gsize height, const GstClEnqueue * how, GError ** error)
{
  static const size_t one[2] = { 1, 1 };
  const size_t *local = how->local ? how->local : one;
  size_t global[2] = { (width + local[0] - 1) / local[0] * local[0],
    (height + local[1] - 1) / local[1] * local[1]
  };
  cl_event event = NULL;
  cl_int status;

  if (how->after.cuda)
    return gst_cl_cuda_exec_launch (how->after.cuda, kernel, how->args,
        global, local, how->what, error);
  status = clEnqueueNDRangeKernel (gst_cl_context_get_queue (context),
      gst_cl_kernel_get_handle (kernel), 2, NULL, global, how->local,
      how->after.n_wait, how->after.n_wait ? how->after.wait : NULL,
      how->after.events ? &event : NULL);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clEnqueueNDRangeKernel (%s)",
        how->what);
  if (how->after.events)
    gst_cl_events_add (how->after.events, event);
  return TRUE;
}

/* gst_cl_enqueue_kernel() on the program's context. */
static gboolean
enqueue (GstClKernels * self, GstClKernel * kernel, gsize width, gsize height,
    const GstClEnqueue * how, GError ** error)
{
  return gst_cl_enqueue_kernel (self->context, kernel, width, height, how,
      error);
}

/* Enqueues @kernel of @launch's variant over @items samples per row: the
 * vector variants make several samples per work-item, the wide ones a
 * strip. */
static gboolean
enqueue_variant (GstClKernels * self, GstClKernel * kernel,
    const GstClLaunch * launch, gsize items, gsize height,
    const GstClEnqueue * how, const GstClArgs * args, GError ** error)
{
  GstClEnqueue named = *how;

  named.args = args;
  if (launch->variant == GST_CL_VARIANT_VECTOR)
    items = (items + FILTER_VW - 1) / FILTER_VW;
  else if (launch->variant == GST_CL_VARIANT_WIDE)
    items = (items + FILTER_STRIP - 1) / FILTER_STRIP;
  named.local = launch->local;
  named.what = gst_cl_variant_to_string (launch->variant);
  return enqueue (self, kernel, items, height, &named, error);
}

/* The epsilon filter of @plane with @launch, @threshold in sample units. */
static gboolean
run_epsilon (GstClKernels * self, const GstClLaunch * launch,
    const GstClStagePlane * plane, guint threshold, const GstClEnqueue * how,
    GError ** error)
{
  GstClVariant v = launch->variant;
  GstClKernel *kernel;
  gsize items = (gsize) plane->width * plane->xstep;
  GstClArgs args = GST_CL_ARGS_INIT;

  g_return_val_if_fail (v >= GST_CL_VARIANT_PLAIN
      && v <= GST_CL_VARIANT_WIDE, FALSE);
  g_return_val_if_fail (plane->xstep == 1 || plane->xstep == 2, FALSE);
  g_return_val_if_fail (self->epsilon[v][0] != NULL, FALSE);

  kernel = self->epsilon[v][plane->xstep - 1];
  set_plane_args (kernel, plane, &args);
  GST_CL_ARG (kernel, 8, self->radius, &args);
  GST_CL_ARG (kernel, 9, threshold, &args);
  GST_CL_ARG (kernel, 10, plane->shift, &args);
  if (v == GST_CL_VARIANT_TILED)
    gst_cl_kernel_arg (kernel, 11, tile_bytes (self, FALSE, launch->local),
        NULL, FALSE, "local tile", &args);
  if (!gst_cl_args_check (&args, "epsilon", error))
    return FALSE;

  return enqueue_variant (self, kernel, launch, items, plane->height, how,
      &args, error);
}

/* The row pass then the column pass; only the first waits for @how's
 * list, the second follows it on the in-order queue. */
static gboolean
run_separable (GstClKernels * self, const GstClLaunch * launch,
    const GstClStagePlane * plane, const GstClConvParams * params,
    const GstClEnqueue * how, GError ** error)
{
  GstClEnqueue rows = *how, columns = *how;
  cl_uint src_offset = plane->src->offset, dst_offset = plane->dst->offset;
  GstClArgs row_args = GST_CL_ARGS_INIT, column_args = GST_CL_ARGS_INIT;

  GST_CL_ARG (self->rows, 0, plane->src->mem, &row_args);
  GST_CL_ARG (self->rows, 1, src_offset, &row_args);
  GST_CL_ARG (self->rows, 2, plane->src->pitch, &row_args);
  GST_CL_ARG (self->rows, 3, params->scratch, &row_args);
  GST_CL_ARG (self->rows, 4, plane->width, &row_args);
  GST_CL_ARG (self->rows, 5, plane->height, &row_args);
  GST_CL_ARG (self->rows, 6, params->row_factor, &row_args);
  GST_CL_ARG (self->rows, 7, params->kw, &row_args);
  GST_CL_ARG (self->rows, 8, plane->shift, &row_args);
  GST_CL_ARG (self->columns, 0, params->scratch, &column_args);
  GST_CL_ARG (self->columns, 1, plane->dst->mem, &column_args);
  GST_CL_ARG (self->columns, 2, dst_offset, &column_args);
  GST_CL_ARG (self->columns, 3, plane->dst->pitch, &column_args);
  GST_CL_ARG (self->columns, 4, plane->width, &column_args);
  GST_CL_ARG (self->columns, 5, plane->height, &column_args);
  GST_CL_ARG (self->columns, 6, params->column_factor, &column_args);
  GST_CL_ARG (self->columns, 7, params->kh, &column_args);
  GST_CL_ARG (self->columns, 8, params->divisor, &column_args);
  GST_CL_ARG (self->columns, 9, params->bias, &column_args);
  GST_CL_ARG (self->columns, 10, plane->shift, &column_args);
  if (!gst_cl_args_check (&row_args, "convolve rows", error) ||
      !gst_cl_args_check (&column_args, "convolve columns", error))
    return FALSE;

  rows.local = columns.local = launch->local;
  rows.args = &row_args;
  columns.args = &column_args;
  rows.what = "convolve rows";
  columns.what = "convolve columns";
  columns.after.n_wait = 0;
  columns.after.wait = NULL;
  return enqueue (self, self->rows, plane->width, plane->height, &rows,
      error) && enqueue (self, self->columns, plane->width, plane->height,
      &columns, error);
}

/* The convolution of a one-component @plane with @launch. */
static gboolean
run_convolve (GstClKernels * self, const GstClLaunch * launch,
    const GstClStagePlane * plane, const GstClConvParams * params,
    const GstClEnqueue * how, GError ** error)
{
  GstClVariant v = launch->variant;
  gsize items = plane->width;
  GstClKernel *kernel;
  GstClArgs args = GST_CL_ARGS_INIT;

  g_return_val_if_fail (v >= GST_CL_VARIANT_PLAIN &&
      v <= GST_CL_VARIANT_SEPARABLE, FALSE);
  g_return_val_if_fail (plane->xstep == 1, FALSE);

  if (v == GST_CL_VARIANT_SEPARABLE) {
    g_return_val_if_fail (params->separable, FALSE);
    return run_separable (self, launch, plane, params, how, error);
  }

  kernel = self->convolve[v];
  g_return_val_if_fail (kernel != NULL, FALSE);
  set_plane_args (kernel, plane, &args);
  GST_CL_ARG (kernel, 8, params->coeffs, &args);
  GST_CL_ARG (kernel, 9, params->kw, &args);
  GST_CL_ARG (kernel, 10, params->kh, &args);
  GST_CL_ARG (kernel, 11, params->divisor, &args);
  GST_CL_ARG (kernel, 12, params->bias, &args);
  GST_CL_ARG (kernel, 13, plane->shift, &args);
  if (v == GST_CL_VARIANT_TILED)
    gst_cl_kernel_arg (kernel, 14, tile_bytes (self, TRUE, launch->local),
        NULL, FALSE, "local tile", &args);
  if (!gst_cl_args_check (&args, "convolve", error))
    return FALSE;

  return enqueue_variant (self, kernel, launch, items, plane->height, how,
      &args, error);
}

gboolean
gst_cl_stage_run (const GstClStage * stage, const GstClLaunch * launch,
    const GstClAfter * after, GError ** error)
{
  const GstClEnqueue how = { launch->local, *after, NULL };

  if (stage->convolve)
    return run_convolve (stage->kernels, launch, &stage->plane, &stage->conv,
        &how, error);
  return run_epsilon (stage->kernels, launch, &stage->plane, stage->threshold,
      &how, error);
}
