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


/* One component of an interleaved plane to and from a plane of its own
 * (gstclpacked-private.h, kernels/packed.cl). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclpacked-private.h"
#include "gstclerror-private.h"
#include "gstclprogram-private.h"
#include "gstclkernels.h"
#include "filters-shared.h"

struct _GstClPacked
{
  GstClContext *context;
  GstClProgram *program;
  GstClKernel *unpack, *pack;
  size_t local[2];              /* work-group of both kernels */
  gint bytes;                   /* a sample's: 1, or 2 (16-bit words) */
};

/* Runs of a work-group, where the device allows as many: with one run a
 * group, a 1080p YUY2 frame took PoCL 20 to 29 ms of kernel time against
 * 12 with 64 (side by side, 3 rounds of 60 frames). */
#define PACKED_GROUP 64

/* The work-group both kernels are launched with: PACKED_GROUP runs of a
 * row, or what the kernels allow on the device. */
static void
choose_local (GstClPacked * self)
{
  size_t unpack = 1, pack = 1;

  if (!gst_cl_kernel_get_max_group (self->unpack, &unpack, NULL) ||
      !gst_cl_kernel_get_max_group (self->pack, &pack, NULL))
    unpack = pack = 1;
  self->local[0] = MAX (1, MIN (PACKED_GROUP, MIN (unpack, pack)));
  self->local[1] = 1;
}

GstClPacked *
gst_cl_packed_new (GstClContext * context, guint depth, GError ** error)
{
  static const gchar *sources[] = {
    gst_cl_kernel_filters_shared, gst_cl_kernel_common, gst_cl_kernel_packed,
    NULL
  };
  GstClPacked *self = g_new0 (GstClPacked, 1);

  self->context = gst_object_ref (context);
  self->bytes = depth > 8 ? 2 : 1;
  self->program = gst_cl_program_build (context, sources,
      depth > 8 ? "-DSAMPLE_BITS=10" : "", NULL, error);
  if (self->program)
    self->unpack = gst_cl_program_create_kernel (self->program,
        "luma_unpack", error);
  if (self->unpack)
    self->pack = gst_cl_program_create_kernel (self->program, "luma_pack",
        error);
  if (self->pack) {
    choose_local (self);
    return self;
  }
  gst_cl_packed_free (self);
  return NULL;
}

void
gst_cl_packed_free (GstClPacked * self)
{
  if (!self)
    return;
  g_clear_pointer (&self->unpack, gst_cl_kernel_free);
  g_clear_pointer (&self->pack, gst_cl_kernel_free);
  g_clear_pointer (&self->program, gst_cl_program_free);
  gst_object_unref (self->context);
  g_free (self);
}

/* Sets @kernel's arguments from @first on: the plane @from, then @to, then
 * @region's size. */
static void
set_planes (GstClKernel * kernel, cl_uint first, const GstClPlaneRef * from,
    const GstClPlaneRef * to, const GstClPackedRegion * region,
    GstClArgs * args)
{
  const cl_uint from_offset = from->offset, to_offset = to->offset;

  GST_CL_ARG (kernel, first, from->mem, args);
  GST_CL_ARG (kernel, first + 1, from_offset, args);
  GST_CL_ARG (kernel, first + 2, from->pitch, args);
  GST_CL_ARG (kernel, first + 3, to->mem, args);
  GST_CL_ARG (kernel, first + 4, to_offset, args);
  GST_CL_ARG (kernel, first + 5, to->pitch, args);
  GST_CL_ARG (kernel, first + 6, region->width, args);
  GST_CL_ARG (kernel, first + 7, region->height, args);
}

gboolean
gst_cl_packed_unpack (GstClPacked * self, const GstClPackedRegion * region,
    const GstClAfter * after, GError ** error)
{
  GstClArgs args = GST_CL_ARGS_INIT;
  const GstClEnqueue how = { self->local, *after, "luma_unpack", &args };

  set_planes (self->unpack, 0, region->packed, region->luma, region, &args);
  GST_CL_ARG (self->unpack, 8, region->component, &args);
  return gst_cl_args_check (&args, "luma_unpack", error) &&
      gst_cl_enqueue_kernel (self->context, self->unpack,
      (region->width + PACKED_RUN - 1) / PACKED_RUN, region->height, &how,
      error);
}

gboolean
gst_cl_packed_pack (GstClPacked * self, const GstClPackedRegion * region,
    const GstClPlaneRef * dst, gsize span, const GstClAfter * after,
    GError ** error)
{
  const cl_uint luma_offset = region->luma->offset;
  const cl_int span_samples = span / self->bytes;
  GstClArgs args = GST_CL_ARGS_INIT;
  const GstClEnqueue how = { self->local, *after, "luma_pack", &args };

  GST_CL_ARG (self->pack, 0, region->luma->mem, &args);
  GST_CL_ARG (self->pack, 1, luma_offset, &args);
  GST_CL_ARG (self->pack, 2, region->luma->pitch, &args);
  set_planes (self->pack, 3, region->packed, dst, region, &args);
  GST_CL_ARG (self->pack, 11, span_samples, &args);
  GST_CL_ARG (self->pack, 12, region->component, &args);
  return gst_cl_args_check (&args, "luma_pack", error) &&
      gst_cl_enqueue_kernel (self->context, self->pack,
      (span_samples + 2 * PACKED_RUN - 1) / (2 * PACKED_RUN), region->height,
      &how, error);
}
