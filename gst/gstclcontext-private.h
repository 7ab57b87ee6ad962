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

#ifndef __GST_CL_CONTEXT_PRIVATE_H__
#define __GST_CL_CONTEXT_PRIVATE_H__

#include <gst/gst.h>
#include <CL/cl.h>

#include "gstcldevice-private.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_CONTEXT (gst_cl_context_get_type ())
G_DECLARE_FINAL_TYPE (GstClContext, gst_cl_context, GST, CL_CONTEXT, GstObject);

/* One OpenCL device with its context and an in-order command queue (with
 * profiling enabled, for kernel times).
 *
 * @device_spec chooses the device among all devices of all platforms, listed
 * platform by platform in the ICD loader's order:
 *  - NULL, "" or "auto": the first GPU, else the first accelerator, else the
 *    first CPU device, else the first device;
 *  - a decimal number N: the device at index N of that list, from 0;
 *  - any other text: the first device whose platform name, platform vendor
 *    or device name contains it, ignoring case (e.g. "pocl", "nvidia").
 * Returns a new reference, or NULL with @error set (GST_RESOURCE_ERROR) saying
 * why in words a user can act on. */
GstClContext *gst_cl_context_new (const gchar * device_spec, GError ** error);

/* A context of @device_spec's device (as for gst_cl_context_new()) with no
 * OpenCL context, for NVIDIA's OpenCL where it makes none (under NVIDIA
 * MPS, clCreateContext fails) and the device's work runs in CUDA
 * (gstclcudaexec-private.h): device queries work, programs come from the
 * program cache by key (gstclprogram-private.h), and its buffers are host
 * memory that the CUDA path copies to the GPU at first use
 * (gst_cl_context_create_buffer()). It has no queues: no OpenCL command
 * may be given for it. Returns a new reference, or NULL with @error set. */
GstClContext *gst_cl_context_new_without_opencl (const gchar * device_spec,
    GError ** error);

/* FALSE for a context of gst_cl_context_new_without_opencl(). */
gboolean gst_cl_context_has_opencl (GstClContext * self);

/* Wraps an application's @context and its @device (retained; a queue of
 * the element's own is made on it). Returns a new reference, or NULL with
 * @error set. */
GstClContext *gst_cl_context_new_wrapped (cl_context context,
    cl_device_id device, GError ** error);

/* A context of @shared's OpenCL context and device with queues of its own:
 * each element orders its frames on its own queues, as each of GStreamer's
 * CUDA elements has its own stream, so that an element that waits for its
 * frame does not wait behind the frames of the process's other streams.
 * Memory of either is memory of both (gst_cl_context_is_sibling()).
 * Returns a new reference, or NULL with @error set. */
GstClContext *gst_cl_context_new_sibling (GstClContext * shared,
    GError ** error);

/* Whether @a and @b are one context, or siblings of one OpenCL context, or
 * both without OpenCL on one device: each's buffers and events are the
 * other's. */
gboolean gst_cl_context_is_sibling (GstClContext * a, GstClContext * b);

/* Whether @device_spec (as for gst_cl_context_new()) chooses @self's device:
 * always for NULL, "" and "auto", which accept whatever device is shared. */
gboolean gst_cl_context_matches (GstClContext * self,
    const gchar * device_spec);

/* Whether @device_spec chooses @self's device, "auto" as
 * gst_cl_context_new() resolves it (strictly: unlike
 * gst_cl_context_matches()). */
gboolean gst_cl_context_is_on (GstClContext * self, const gchar * device_spec);

/* The device, as a "device" string of its index, that @device_spec could
 * choose and @filter accepts (gst_cl_device_find_index()); NULL where none
 * is. Free with g_free(). */
gchar *gst_cl_context_narrow_spec (const gchar * device_spec,
    GstClDeviceFilter filter, gpointer user_data);

/* A number no other GstClContext of the process has had (a context's
 * address may be another's after it is gone). */
guint gst_cl_context_get_serial (GstClContext * self);

/* Whether a GstClContext of the process uses the OpenCL context @handle
 * (siblings share one): where none does, no command of ours runs in it
 * any more. */
gboolean gst_cl_context_handle_in_use (cl_context handle);

/* The handles stay owned by the GstClContext and live as long as it does;
 * the context and the queues are NULL without OpenCL. */
cl_context gst_cl_context_get_handle (GstClContext * self);
cl_device_id gst_cl_context_get_device (GstClContext * self);
cl_command_queue gst_cl_context_get_queue (GstClContext * self);

/* A second in-order queue, for the CPU's maps and unmaps of frame memory
 * (gstclmemory.c): they wait for the events of the memory they map, not
 * behind the kernels of other frames on the main queue. */
cl_command_queue gst_cl_context_get_host_queue (GstClContext * self);

/* Whether the device works on host memory itself (a CPU or integrated GPU):
 * kernels can then read and write host-visible buffers in place. FALSE for
 * every device when the environment has GST_CL_DISCRETE=1 (tests). */
gboolean gst_cl_context_is_host_unified (GstClContext * self);

/* The smallest system memory worth holding pinned so that transfers read
 * it where it is (gstclhostpin-private.h), or 0: none. A discrete device's
 * driver must pin the pages of a CL_MEM_USE_HOST_PTR buffer: NVIDIA's
 * OpenCL does (tests/gpu/cl-host-register.c), and there it paid for frames
 * of GST_CL_HOST_PIN_MIN_SIZE or more (4K: the copy it saves is large;
 * at 1080p the hand-over of the input cost more than the copy, which the
 * copy threads overlap); 1 (any) with GST_CL_DISCRETE=1, so that the
 * suites take that path on any device. */
gsize gst_cl_context_get_host_pin_min_size (GstClContext * self);

#define GST_CL_HOST_PIN_MIN_SIZE ((gsize) 8 << 20)

/* Measurement switches: how the suites and benchmarks force one path on any
 * device. Read from the environment once, when a context is made
 * (GST_CL_SVM=0: no SVM frames; GST_CL_DISCRETE=1: the discrete-GPU paths;
 * GST_CL_DCT_KERNEL=strips|tiles|small-tiles: the DCT stage's shape;
 * GST_CL_AUTO_DECIDE=host|device: where strength=auto decides;
 * GST_CL_SHARE_UNTOUCHED=always|never: untouched planes shared or copied
 * whatever the measurement says); the library takes them from the context
 * and reads no environment of its own. */
typedef enum
{
  GST_CL_DCT_SHAPE_AUTO,        /* strips on a CPU, tiles elsewhere */
  GST_CL_DCT_SHAPE_STRIPS,
  GST_CL_DCT_SHAPE_TILES,
  GST_CL_DCT_SHAPE_SMALL_TILES, /* tiles of the size every GPU runs */
} GstClDctShape;

typedef enum
{
  GST_CL_AUTO_DECIDE_AUTO,      /* the device, unless it works on host memory */
  GST_CL_AUTO_DECIDE_HOST,
  GST_CL_AUTO_DECIDE_DEVICE,
} GstClAutoDecide;

typedef struct
{
  gboolean no_svm;
  gboolean discrete;
  GstClDctShape dct_shape;
  GstClAutoDecide auto_decide;
  gint share_untouched;         /* 1 always, -1 never, 0 as measured */
} GstClSwitches;

/* @self's switches; owned by @self. */
const GstClSwitches *gst_cl_context_get_switches (GstClContext * self);

/* Whether the DCT stage takes its shape for CPUs on @self's device (strips:
 * kernels/dct-strips.cl), where interleaved chroma is unpacked for it,
 * rather than the tiles, which read it in place: on a CPU device, or as
 * GST_CL_DCT_KERNEL says. */
gboolean gst_cl_context_dct_strips (GstClContext * self);

/* Whether frame memory is fine-grained buffer SVM (host-unified devices
 * that offer it, unless GST_CL_SVM=0): the CPU uses it with no map. */
gboolean gst_cl_context_has_fine_svm (GstClContext * self);

/* A buffer over @size bytes of fine-grained buffer SVM, whose address goes
 * to @svm; only where gst_cl_context_has_fine_svm(). The SVM is freed with
 * gst_cl_context_svm_free() after the buffer is released and no command
 * uses it (clSVMFree does not wait). */
cl_mem gst_cl_context_create_svm_buffer (GstClContext * self, gsize size,
    gpointer * svm, const gchar * what, GError ** error);
void gst_cl_context_svm_free (GstClContext * self, gpointer svm);

/* The alignment, in bytes, that host pointers need to be wrapped as
 * CL_MEM_USE_HOST_PTR buffers without a copy. */
gsize gst_cl_context_get_host_ptr_align (GstClContext * self);

/* "DEVICE NAME (PLATFORM NAME)", for logs and the element's device-name. */
const gchar *gst_cl_context_get_device_name (GstClContext * self);

/* Platform, device and driver names and versions, one per line: what keys
 * the on-disk caches of programs and tuning results. */
const gchar *gst_cl_context_get_identity (GstClContext * self);

/* Creates a device buffer of @size bytes (> 0) with @flags, or returns NULL
 * with @error set naming @what. The caller releases it with
 * gst_cl_context_release_buffer(). In a context without OpenCL, a handle
 * of host memory of @size zeroed bytes that only the functions below and
 * the CUDA path (which keys its copy on the GPU by it) take. */
cl_mem gst_cl_context_create_buffer (GstClContext * self, cl_mem_flags flags,
    gsize size, const gchar * what, GError ** error);
void gst_cl_context_release_buffer (GstClContext * self, cl_mem mem);

/* A buffer of gst_cl_context_create_buffer(): its size; @size bytes from
 * @offset read into @dst, or written from @src, once the queue's commands
 * before are done (blocking); its first @size bytes filled with
 * @pattern (@size a multiple of @pattern_size), in order on the queue.
 * FALSE with @error set naming @what where that fails. */
gboolean gst_cl_context_get_buffer_size (GstClContext * self, cl_mem mem,
    gsize * size, GError ** error);
gboolean gst_cl_context_read_buffer (GstClContext * self, cl_mem mem,
    gsize offset, gsize size, gpointer dst, const gchar * what,
    GError ** error);
gboolean gst_cl_context_write_buffer (GstClContext * self, cl_mem mem,
    gsize offset, gsize size, gconstpointer src, const gchar * what,
    GError ** error);
gboolean gst_cl_context_fill_buffer (GstClContext * self, cl_mem mem,
    gconstpointer pattern, gsize pattern_size, gsize size,
    const gchar * what, GError ** error);

/* Waits for every command of @queue, then releases it (the caller's
 * reference). */
void gst_cl_queue_release (cl_command_queue queue);

G_END_DECLS

#endif /* __GST_CL_CONTEXT_PRIVATE_H__ */
