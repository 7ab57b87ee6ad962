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

/* The filters' sizes that the host and the kernels must agree on, defined
 * once: the host includes this file (gst/gstclstage.c, and the limits of
 * gst/gstclconvkernel-private.h, gst/gstcltuner.c and
 * gst/gstclepsilonproperties.c, gst/gstclpacked.c), and the epsilon,
 * convolution and packed programs are built with it prepended to their
 * sources (kernels/epsilon.cl, kernels/convolve.cl, kernels/packed.cl).
 * Plain #defines, valid C and OpenCL C. */

#ifndef __GST_CL_FILTERS_SHARED_H__
#define __GST_CL_FILTERS_SHARED_H__

/* Samples per work-item of the vector variants (epsilon_vector,
 * conv_vector). */
#define FILTER_VW 8

/* Bytes of a row per work-item of the wide variants (epsilon_wide,
 * conv_wide). */
#define FILTER_STRIP 256

/* Largest side of a convolution matrix, in samples: the kernels' private
 * arrays and the host's tiles are sized for it. */
#define FILTER_MAX_SIDE 15

/* Largest radius of the epsilon filter's window (window-size
 * 2 * FILTER_MAX_RADIUS + 1). */
#define FILTER_MAX_RADIUS 7

/* Luma samples per work-item of packed 4:2:2's unpacking and packing
 * (kernels/packed.cl, gst/gstclpacked.c). */
#define PACKED_RUN 16

#endif /* __GST_CL_FILTERS_SHARED_H__ */
