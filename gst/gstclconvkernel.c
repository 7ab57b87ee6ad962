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

#include "gstclconvkernel-private.h"

#include <gio/gio.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#define MAX_SIDE GST_CL_CONV_KERNEL_MAX_SIDE
/* The device sums in float: beyond this a coefficient is surely a mistake. */
#define MAX_ABS_COEFF 1e6
/* The smallest non-zero coefficient sum, the automatic divisor. */
#define MIN_ABS_SUM 1e-6

/* Parse state: the numbers read so far, row by row. */
typedef struct
{
  gdouble values[MAX_SIDE * MAX_SIDE];
  gint n_values;
  gint row_len[MAX_SIDE];
  gint n_rows;
} ParseState;

/* *INDENT-OFF* */
static gboolean
fail (GError ** error, const gchar * format, ...) G_GNUC_PRINTF (2, 3);
/* *INDENT-ON* */

static gboolean
fail (GError ** error, const gchar * format, ...)
{
  va_list args;
  gchar *msg;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, msg);
  g_free (msg);
  return FALSE;
}

static const gchar *
skip_blanks (const gchar * p)
{
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
    p++;
  return p;
}

/* Reads one number at *p into @state's current row and moves *p past it. */
static gboolean
read_number (ParseState * state, const gchar ** p, GError ** error)
{
  const gchar *start = *p;
  gchar *end = NULL;
  gdouble v;

  if (state->n_values == MAX_SIDE * MAX_SIDE)
    return fail (error, "more than %d coefficients", MAX_SIDE * MAX_SIDE);

  errno = 0;
  v = g_ascii_strtod (start, &end);
  if (end == start)
    return fail (error, "expected a number at \"%.16s\"", start);
  if (*end != '\0' && !strchr (" \t\n\r,;", *end))
    return fail (error, "unexpected text after a number at \"%.16s\"", start);
  if (errno == ERANGE || !isfinite (v))
    return fail (error, "\"%.*s\" is out of range or not finite",
        (gint) MIN (end - start, 24), start);
  if (fabs (v) > MAX_ABS_COEFF)
    return fail (error, "coefficient %g is beyond +/-%g", v, MAX_ABS_COEFF);

  state->values[state->n_values++] = v;
  state->row_len[state->n_rows]++;
  *p = end;
  return TRUE;
}

/* Reads the numbers of one row, up to ';' or the end of the text. */
static gboolean
read_row (ParseState * state, const gchar ** p, GError ** error)
{
  gboolean need_number = TRUE;

  if (state->n_rows == MAX_SIDE)
    return fail (error, "more than %d rows", MAX_SIDE);

  for (*p = skip_blanks (*p); **p != '\0' && **p != ';'; *p = skip_blanks (*p)) {
    if (**p == ',') {
      if (need_number)
        return fail (error, "a comma without a number before it");
      need_number = TRUE;
      (*p)++;
      continue;
    }
    if (!read_number (state, p, error))
      return FALSE;
    need_number = FALSE;
  }
  if (state->row_len[state->n_rows] == 0)
    return fail (error, "row %d is empty", state->n_rows + 1);
  if (need_number)
    return fail (error, "a comma without a number after it");
  state->n_rows++;
  return TRUE;
}

/* Decides the shape from the rows read and checks it. */
static gboolean
shape_kernel (const ParseState * state, gint * width, gint * height,
    GError ** error)
{
  gint i, side;

  *width = state->row_len[0];
  *height = state->n_rows;
  if (state->n_rows == 1) {
    side = (gint) (sqrt ((gdouble) state->n_values) + 0.5);
    if (side * side == state->n_values && side > 1)
      *width = *height = side;
  }

  for (i = 1; i < state->n_rows; i++) {
    if (state->row_len[i] != *width)
      return fail (error, "row %d has %d numbers, row 1 has %d", i + 1,
          state->row_len[i], *width);
  }
  if (*width > MAX_SIDE || *height > MAX_SIDE)
    return fail (error, "%dx%d is larger than %dx%d", *width, *height,
        MAX_SIDE, MAX_SIDE);
  if (*width % 2 == 0 || *height % 2 == 0)
    return fail (error, "%dx%d: width and height must be odd", *width, *height);
  return TRUE;
}

gboolean
gst_cl_conv_kernel_parse (const gchar * text, GstClConvKernel * kernel,
    GError ** error)
{
  ParseState state = { {0,}, 0, {0,}, 0 };
  const gchar *p = text ? text : "";
  gint width, height, i;
  gdouble sum;

  g_return_val_if_fail (kernel != NULL, FALSE);

  if (*skip_blanks (p) == '\0')
    return fail (error, "the kernel is empty");

  while (TRUE) {
    if (!read_row (&state, &p, error))
      return FALSE;
    if (*p == '\0')
      break;
    p++;                        /* past ';' */
  }

  if (!shape_kernel (&state, &width, &height, error))
    return FALSE;

  /* The automatic divisor is the sum: one that float cancels into noise
   * would make the result meaningless. */
  sum = 0.0;
  for (i = 0; i < state.n_values; i++)
    sum += state.values[i];
  if (sum != 0.0 && fabs (sum) < MIN_ABS_SUM)
    return fail (error, "the coefficients sum to %g: too close to 0 to divide "
        "by; make them sum to 0 or to at least %g", sum, MIN_ABS_SUM);

  kernel->width = width;
  kernel->height = height;
  memcpy (kernel->coeffs, state.values, state.n_values * sizeof (gdouble));
  return TRUE;
}

gdouble
gst_cl_conv_kernel_effective_divisor (const GstClConvKernel * kernel,
    gdouble divisor)
{
  gdouble sum = 0.0;
  gint i;

  if (divisor != 0.0)
    return divisor;
  for (i = 0; i < kernel->width * kernel->height; i++)
    sum += kernel->coeffs[i];
  return sum != 0.0 ? sum : 1.0;
}

static gboolean
exact_in_float (gdouble v)
{
  return (gdouble) (gfloat) v == v;
}

/* The greatest common divisor of the magnitudes of @row's coefficients if
 * they are all integers below 2^31, else 1. */
static gdouble
row_gcd (const gdouble * row, gint n)
{
  guint64 g = 0, a, b, t;
  gint i;

  for (i = 0; i < n; i++) {
    if (row[i] != floor (row[i]) || fabs (row[i]) >= 2147483648.0)
      return 1.0;
    a = (guint64) fabs (row[i]);
    for (b = g; b != 0; t = a % b, a = b, b = t);
    g = a;
  }
  return g > 0 ? (gdouble) g : 1.0;
}

gboolean
gst_cl_conv_kernel_factor (const GstClConvKernel * kernel, gdouble * column,
    gdouble * row)
{
  const gdouble *k = kernel->coeffs;
  gint w = kernel->width, h = kernel->height, i, r0 = -1, c0 = -1, r, c;
  gdouble g;

  for (i = 0; i < w * h && r0 < 0; i++) {
    if (k[i] != 0.0) {
      r0 = i / w;
      c0 = i % w;
    }
  }
  if (r0 < 0)
    return FALSE;

  /* The pivot's row, made small by its common factor; the column scaled to
   * match: column[r] * row[c] = k[r][c0] * k[r0][c] / k[r0][c0]. */
  g = row_gcd (k + r0 * w, w);
  for (c = 0; c < w; c++)
    row[c] = k[r0 * w + c] / g;
  for (r = 0; r < h; r++)
    column[r] = k[r * w + c0] / row[c0];

  for (r = 0; r < h; r++) {
    if (!exact_in_float (column[r]))
      return FALSE;
    for (c = 0; c < w; c++) {
      if (!exact_in_float (row[c]) || column[r] * row[c] != k[r * w + c])
        return FALSE;
    }
  }
  return TRUE;
}
