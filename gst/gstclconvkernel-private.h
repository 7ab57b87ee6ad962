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

#ifndef __GST_CL_CONV_KERNEL_PRIVATE_H__
#define __GST_CL_CONV_KERNEL_PRIVATE_H__

#include <glib.h>
#include "filters-shared.h"

G_BEGIN_DECLS

/* Largest accepted kernel side, in samples (kernels/filters-shared.h). */
#define GST_CL_CONV_KERNEL_MAX_SIDE FILTER_MAX_SIDE

/**
 * GstClConvKernel:
 * @width: number of columns, odd, 1..15
 * @height: number of rows, odd, 1..15
 * @coeffs: @width x @height coefficients, row-major; element (row r, column c)
 *   weighs the sample at (x + c - width / 2, y + r - height / 2)
 *
 * A convolution matrix as parsed from the element's `kernel` property.
 * Plain data: copy it by value.
 */
typedef struct
{
  gint width;
  gint height;
  gdouble coeffs[GST_CL_CONV_KERNEL_MAX_SIDE * GST_CL_CONV_KERNEL_MAX_SIDE];
} GstClConvKernel;

/* Parses @text: numbers separated by spaces, tabs or commas, rows separated by
 * ';'. One row whose count is a perfect square is read as a square matrix.
 * Parsing ignores the locale. Returns TRUE and fills @kernel, or FALSE with
 * @error (G_IO_ERROR_INVALID_DATA) saying what is wrong; @kernel is then
 * untouched. An empty or blank @text is an error: the caller decides what
 * "no kernel" means. */
gboolean gst_cl_conv_kernel_parse (const gchar * text, GstClConvKernel * kernel,
    GError ** error);

/* The divisor that the filter divides by: @divisor itself unless it is 0, then
 * the sum of the coefficients, or 1 where that sum is 0. */
gdouble gst_cl_conv_kernel_effective_divisor (const GstClConvKernel * kernel,
    gdouble divisor);

/* Whether @kernel is the outer product of a column and a row (a box or a
 * gaussian, say), with factors that single precision holds exactly and whose
 * products give back every coefficient exactly; if so, fills @column
 * (@kernel->height values) and @row (@kernel->width values), keeping integer
 * factors for integer kernels so that sums stay exact integers. */
gboolean gst_cl_conv_kernel_factor (const GstClConvKernel * kernel,
    gdouble * column, gdouble * row);

G_END_DECLS

#endif /* __GST_CL_CONV_KERNEL_PRIVATE_H__ */
