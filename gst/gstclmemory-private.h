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

#ifndef __GST_CL_MEMORY_PRIVATE_H__
#define __GST_CL_MEMORY_PRIVATE_H__

#include "gstclcontext-private.h"
#include "gstclfaults-private.h"

G_BEGIN_DECLS

#define GST_CL_MEMORY_TYPE "OpenCLBuffer"
/* The caps feature of frames in device-resident OpenCL buffers. */
#define GST_CAPS_FEATURE_MEMORY_CL_BUFFER "memory:OpenCLBuffer"

#define GST_TYPE_CL_ALLOCATOR (gst_cl_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstClAllocator, gst_cl_allocator, GST, CL_ALLOCATOR,
    GstAllocator);

/* An allocator of GstMemory backed by one OpenCL buffer each on @context:
 *  - by default with CL_MEM_ALLOC_HOST_PTR: host-visible memory (pinned, on
 *    a discrete GPU) that upstream elements write frames into and that
 *    kernels read and write without a copy where the device shares host
 *    memory;
 *  - @device_resident: plain device buffers, for frames that stay on the
 *    device between OpenCL elements (caps feature memory:OpenCLBuffer).
 * Either is mapped for the CPU only while a GstMemory map is held (for
 * device-resident memory the driver copies it out and back). Memories can be
 * shared (gst_memory_share()): a share is read-only and maps its root.
 * Returns a new reference. */
GstAllocator *gst_cl_allocator_new (GstClContext * context,
    gboolean device_resident);

/* Allocations of @allocator that fail (but for those of a copy of its
 * memory, which is then made in system memory), and maps of its memories
 * that fail where they hold no output frame (gst_cl_memory_set_faults()),
 * are kept in @faults (a reference is taken; NULL: none) and posted as the
 * ERROR of its element: the pool an element proposes upstream is allocated
 * and mapped there, where only a generic error would be posted. */
void gst_cl_allocator_set_faults (GstAllocator * allocator,
    GstClFaults * faults);

/* Whether @mem (a gst_is_cl_memory() memory) lives in device memory. */
gboolean gst_cl_memory_is_device_resident (GstMemory * mem);

/* Whether @mem is an OpenCL buffer memory of @context or of a sibling of it
 * (of any context when @context is NULL). */
gboolean gst_is_cl_memory (GstMemory * mem, GstClContext * context);

/* The OpenCL buffer behind @mem, owned by @mem (for a share, its root's
 * buffer). The bytes of @mem start at @mem->offset in it. Only valid for gst_is_cl_memory() memory. */
cl_mem gst_cl_memory_get_buffer (GstMemory * mem);

/* Whether a map of @mem by the CPU is an OpenCL command (device-resident
 * memory, or memory mapped per use); FALSE for SVM and for pinned memory
 * mapped for its life, which the CPU reaches in place. */
gboolean gst_cl_memory_needs_map (GstMemory * mem);

/* On a discrete device, the pinned host memory that holds @mem's buffer for
 * good (its first byte, at the buffer's offset 0; the bytes of @mem start
 * at @mem->offset): the CPU, and transfers, use it without map commands,
 * and kernels never use the buffer itself. NULL for device-resident
 * memory and on host-unified devices. */
guint8 *gst_cl_memory_get_pinned_host (GstMemory * mem);

/* Frames in flight: the event of the last OpenCL command that writes @mem's
 * buffer (a download into it, a kernel, an unmap), which any later reader
 * or writer must wait for, as GStreamer's CUDA memory keeps a pending sync.
 * gst_cl_memory_set_pending() retains @event (NULL clears) and releases the
 * one it replaces; gst_cl_memory_get_pending() returns a new reference, or
 * NULL when nothing is pending. A map waits for the pending event first; an
 * unmap leaves its own. A share has its root's. */
void gst_cl_memory_set_pending (GstMemory * mem, cl_event event);
cl_event gst_cl_memory_get_pending (GstMemory * mem);

/* @mem holds an output frame of the element whose @faults these are (a
 * reference is taken; NULL: none): a map of it that cannot deliver the data
 * (its wait or map command failed) keeps the failure there, to be raised as
 * that element's ERROR, and fails (gstclstream-private.h). */
void gst_cl_memory_set_faults (GstMemory * mem, GstClFaults * faults);

G_END_DECLS

#endif /* __GST_CL_MEMORY_PRIVATE_H__ */
