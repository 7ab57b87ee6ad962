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

/* Shared virtual memory (clSVMAlloc) is OpenCL 2.0: this file alone asks
 * for it, and only calls it on devices that report it; the queues stay
 * those of OpenCL 1.2, which every device has. */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 200
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclcontext-private.h"
#include "gstcldevice-private.h"
#include "gstclerror-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cl_context_debug

struct _GstClContext
{
  GstObject parent;

  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_command_queue host_queue;  /* maps and unmaps of frame memory */
  gchar *device_name;
  gchar *identity;
  gboolean host_unified;
  gboolean fine_svm;            /* host-unified with fine-grained buffer SVM */
  gsize host_pin_min_size;      /* gst_cl_context_get_host_pin_min_size() */
  gsize host_ptr_align;
  gboolean dct_strips;          /* gst_cl_context_dct_strips() */
  GstClSwitches switches;       /* read once, when the context is made */
  guint serial;                 /* gst_cl_context_get_serial() */
};

/* A buffer of a context without OpenCL: its size and a host copy of what
 * was written or filled into it, which the CUDA path copies into the
 * buffer's twin at its first use (gstclcudaexec.c). The context's buffer
 * functions alone look inside. */
typedef struct
{
  gsize size;
  guint8 *contents;
} HostBuffer;

#define HOST_BUFFER(mem) ((HostBuffer *) (mem))

G_DEFINE_TYPE_WITH_CODE (GstClContext, gst_cl_context, GST_TYPE_OBJECT,
    gst_cl_debug_init ());

/* Enumerating platforms and devices, querying them and creating contexts
 * are serialised across the process: two pipelines starting at once in a
 * process that had not used OpenCL yet crashed inside PoCL's first-time
 * set-up, or found no device (docs/robustness.md). */
G_LOCK_DEFINE_STATIC (opencl_setup);

/* How many GstClContexts use each OpenCL context (siblings share one):
 * gst_cl_context_handle_in_use(). */
static GHashTable *handle_users;
G_LOCK_DEFINE_STATIC (handle_users);

/* Makes @context @self's OpenCL context (its reference taken over),
 * counted as used until @self is finalized. */
static void
use_handle (GstClContext * self, cl_context context)
{
  self->context = context;
  G_LOCK (handle_users);
  if (!handle_users)
    handle_users = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (handle_users, context,
      GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (handle_users,
                  context)) + 1));
  G_UNLOCK (handle_users);
}

static void
stop_using_handle (GstClContext * self)
{
  guint users;

  G_LOCK (handle_users);
  users = GPOINTER_TO_UINT (g_hash_table_lookup (handle_users,
          self->context)) - 1;
  if (users)
    g_hash_table_insert (handle_users, self->context, GUINT_TO_POINTER (users));
  else
    g_hash_table_remove (handle_users, self->context);
  G_UNLOCK (handle_users);
  clReleaseContext (g_steal_pointer (&self->context));
}

static void CL_CALLBACK
on_context_notify (const char *errinfo, const void *private_info,
    size_t cb, void *user_data)
{
  GST_WARNING ("OpenCL context: %s", errinfo);
}

/* The measurement switches of the environment (gstclcontext-private.h),
 * read here alone, once a context. */
static void
read_switches (GstClSwitches * sw)
{
  const gchar *dct = g_getenv ("GST_CL_DCT_KERNEL");
  const gchar *share = g_getenv ("GST_CL_SHARE_UNTOUCHED");
  const gchar *decide = g_getenv ("GST_CL_AUTO_DECIDE");

  sw->no_svm = g_strcmp0 (g_getenv ("GST_CL_SVM"), "0") == 0;
  sw->discrete = g_strcmp0 (g_getenv ("GST_CL_DISCRETE"), "1") == 0;
  sw->dct_shape = g_strcmp0 (dct, "strips") == 0 ? GST_CL_DCT_SHAPE_STRIPS :
      g_strcmp0 (dct, "tiles") == 0 ? GST_CL_DCT_SHAPE_TILES :
      g_strcmp0 (dct, "small-tiles") == 0 ? GST_CL_DCT_SHAPE_SMALL_TILES :
      GST_CL_DCT_SHAPE_AUTO;
  sw->auto_decide = g_strcmp0 (decide, "host") == 0 ? GST_CL_AUTO_DECIDE_HOST :
      g_strcmp0 (decide, "device") == 0 ? GST_CL_AUTO_DECIDE_DEVICE :
      GST_CL_AUTO_DECIDE_AUTO;
  sw->share_untouched = g_strcmp0 (share, "always") == 0 ? 1 :
      g_strcmp0 (share, "never") == 0 ? -1 : 0;
}

/* Whether frame memory can be fine-grained buffer SVM: the CPU then reads
 * and writes it with no map command (one round trip to the driver's
 * threads each, which on PoCL is most of a small frame's cost,
 * docs/benchmarks.md). An OpenCL 1.x device refuses the query: no.
 * GST_CL_SVM=0 keeps mapped buffers, to test and measure that path. */
static gboolean
gst_cl_context_query_fine_svm (GstClContext * self)
{
  cl_device_svm_capabilities caps = 0;
  cl_device_id device = self->device;

  if (self->switches.no_svm)
    return FALSE;
  if (clGetDeviceInfo (device, CL_DEVICE_SVM_CAPABILITIES, sizeof (caps),
          &caps, NULL) != CL_SUCCESS)
    return FALSE;
  return (caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
}

/* gst_cl_context_dct_strips(), asked once: the placement (which buffers
 * it makes) and the DCT stage (which kernels it runs) must agree. A device
 * whose type cannot be read is taken for a GPU. */
static gboolean
gst_cl_context_query_dct_strips (GstClContext * self)
{
  cl_device_type type = 0;

  if (self->switches.dct_shape != GST_CL_DCT_SHAPE_AUTO)
    return self->switches.dct_shape == GST_CL_DCT_SHAPE_STRIPS;
  if (clGetDeviceInfo (self->device, CL_DEVICE_TYPE, sizeof (type), &type,
          NULL) != CL_SUCCESS)
    type = 0;
  return (type & CL_DEVICE_TYPE_CPU) != 0;
}

/* Whether the device is on NVIDIA's OpenCL platform. */
static gboolean
gst_cl_context_on_nvidia (GstClContext * self)
{
  cl_platform_id platform;
  gchar name[64] = "";

  return clGetDeviceInfo (self->device, CL_DEVICE_PLATFORM, sizeof (platform),
      &platform, NULL) == CL_SUCCESS &&
      clGetPlatformInfo (platform, CL_PLATFORM_NAME, sizeof (name) - 1, name,
      NULL) == CL_SUCCESS && g_str_has_prefix (name, "NVIDIA");
}

static gboolean
gst_cl_context_query_memory (GstClContext * self, GError ** error)
{
  cl_bool unified = CL_FALSE;
  cl_uint align_bits = 0;
  cl_int status;

  status = clGetDeviceInfo (self->device, CL_DEVICE_HOST_UNIFIED_MEMORY,
      sizeof (unified), &unified, NULL);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status,
        "clGetDeviceInfo (CL_DEVICE_HOST_UNIFIED_MEMORY)");
  status = clGetDeviceInfo (self->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
      sizeof (align_bits), &align_bits, NULL);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status,
        "clGetDeviceInfo (CL_DEVICE_MEM_BASE_ADDR_ALIGN)");

  /* GST_CL_DISCRETE=1 takes the discrete-GPU paths (device buffers,
   * transfers, frames in flight) on any device: how the suite tests them on
   * PoCL. */
  if (unified && self->switches.discrete) {
    GST_INFO_OBJECT (self, "GST_CL_DISCRETE=1: treating the device as "
        "discrete");
    unified = CL_FALSE;
  }
  self->host_unified = unified;
  self->fine_svm = unified && gst_cl_context_query_fine_svm (self);
  self->host_pin_min_size = unified ? 0 : self->switches.discrete ? 1 :
      gst_cl_context_on_nvidia (self) ? GST_CL_HOST_PIN_MIN_SIZE : 0;
  self->dct_strips = gst_cl_context_query_dct_strips (self);
  self->host_ptr_align = MAX (align_bits / 8, 1);
  self->identity = gst_cl_device_describe (self->device);
  GST_INFO_OBJECT (self, "host-unified memory: %s, fine-grained SVM frames: "
      "%s, host pointer alignment %" G_GSIZE_FORMAT, unified ? "yes" : "no",
      self->fine_svm ? "yes" : "no", self->host_ptr_align);
  return TRUE;
}

/* The queues, once self->context is there. */
static gboolean
gst_cl_context_create_queues (GstClContext * self, GError ** error)
{
  cl_int status;

  self->queue = clCreateCommandQueue (self->context, self->device,
      CL_QUEUE_PROFILING_ENABLE, &status);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clCreateCommandQueue");
  self->host_queue = clCreateCommandQueue (self->context, self->device, 0,
      &status);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clCreateCommandQueue (maps)");
  return TRUE;
}

/* The queues and the device's memory properties, once self->context is
 * there. */
static gboolean
gst_cl_context_prepare (GstClContext * self, GError ** error)
{
  read_switches (&self->switches);
  return gst_cl_context_create_queues (self, error) &&
      gst_cl_context_query_memory (self, error);
}

static gboolean
gst_cl_context_open (GstClContext * self, GError ** error)
{
  cl_int status;

  cl_context context = clCreateContext (NULL, 1, &self->device,
      on_context_notify, NULL, &status);

  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clCreateContext");
  use_handle (self, context);
  return gst_cl_context_prepare (self, error);
}

GstClContext *
gst_cl_context_new_wrapped (cl_context context, cl_device_id device,
    GError ** error)
{
  GstClContext *self;
  g_return_val_if_fail (context != NULL && device != NULL, NULL);

  g_type_ensure (GST_TYPE_CL_CONTEXT);
  self = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (self);
  clRetainContext (context);
  use_handle (self, context);
  self->device = device;
  G_LOCK (opencl_setup);
  self->device_name = gst_cl_device_get_name (device);
  G_UNLOCK (opencl_setup);
  GST_INFO_OBJECT (self, "using the application's OpenCL context on %s",
      self->device_name);

  if (!gst_cl_context_prepare (self, error)) {
    gst_object_unref (self);
    return NULL;
  }
  return self;
}

GstClContext *
gst_cl_context_new_sibling (GstClContext * shared, GError ** error)
{
  GstClContext *self;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (shared), NULL);

  self = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (self);
  if (shared->context) {
    clRetainContext (shared->context);
    use_handle (self, shared->context);
  }
  self->device = shared->device;
  self->device_name = g_strdup (shared->device_name);
  self->identity = g_strdup (shared->identity);
  self->host_unified = shared->host_unified;
  self->fine_svm = shared->fine_svm;
  self->host_pin_min_size = shared->host_pin_min_size;
  self->dct_strips = shared->dct_strips;
  self->host_ptr_align = shared->host_ptr_align;
  self->switches = shared->switches;
  if (self->context && !gst_cl_context_create_queues (self, error)) {
    gst_object_unref (self);
    return NULL;
  }
  GST_DEBUG_OBJECT (self, "queues of its own on %" GST_PTR_FORMAT, shared);
  return self;
}

gboolean
gst_cl_context_is_sibling (GstClContext * a, GstClContext * b)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (a) && GST_IS_CL_CONTEXT (b), FALSE);
  /* without OpenCL, the buffers are the host's: any such context of the
   * device takes them */
  return a->context == b->context && (a->context || a->device == b->device);
}

gboolean
gst_cl_context_matches (GstClContext * self, const gchar * device_spec)
{
  cl_device_id device;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);

  if (device_spec == NULL || *device_spec == '\0' ||
      g_ascii_strcasecmp (device_spec, "auto") == 0)
    return TRUE;
  G_LOCK (opencl_setup);
  device = gst_cl_device_find (device_spec, NULL, NULL);
  G_UNLOCK (opencl_setup);
  return device != NULL && device == self->device;
}

gboolean
gst_cl_context_is_on (GstClContext * self, const gchar * device_spec)
{
  cl_device_id device;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);

  G_LOCK (opencl_setup);
  device = gst_cl_device_find (device_spec, NULL, NULL);
  G_UNLOCK (opencl_setup);
  return device != NULL && device == self->device;
}

gchar *
gst_cl_context_narrow_spec (const gchar * device_spec,
    GstClDeviceFilter filter, gpointer user_data)
{
  gint index;

  G_LOCK (opencl_setup);
  index = gst_cl_device_find_index (device_spec, filter, user_data);
  G_UNLOCK (opencl_setup);
  return index < 0 ? NULL : g_strdup_printf ("%d", index);
}

static GstClContext *
gst_cl_context_new_locked (const gchar * device_spec, GError ** error)
{
  GstClContext *self;
  cl_device_id device;
  gchar *name;

  /* Registers the type, and with it the debug category. */
  g_type_ensure (GST_TYPE_CL_CONTEXT);
  device = gst_cl_device_find (device_spec, &name, error);
  if (!device)
    return NULL;
  self = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (self);
  self->device = device;
  self->device_name = name;
  GST_INFO_OBJECT (self, "using OpenCL device %s", self->device_name);

  if (!gst_cl_context_open (self, error)) {
    gst_object_unref (self);
    return NULL;
  }
  return self;
}

GstClContext *
gst_cl_context_new (const gchar * device_spec, GError ** error)
{
  GstClContext *self;

  G_LOCK (opencl_setup);
  self = gst_cl_context_new_locked (device_spec, error);
  G_UNLOCK (opencl_setup);
  return self;
}

GstClContext *
gst_cl_context_new_without_opencl (const gchar * device_spec, GError ** error)
{
  GstClContext *self;
  cl_device_id device;
  gchar *name;

  g_type_ensure (GST_TYPE_CL_CONTEXT);
  G_LOCK (opencl_setup);
  device = gst_cl_device_find (device_spec, &name, error);
  if (!device) {
    G_UNLOCK (opencl_setup);
    return NULL;
  }
  self = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (self);
  self->device = device;
  self->device_name = name;
  read_switches (&self->switches);
  if (!gst_cl_context_query_memory (self, error)) {
    G_UNLOCK (opencl_setup);
    gst_object_unref (self);
    return NULL;
  }
  G_UNLOCK (opencl_setup);
  /* the CUDA path alone: it works on device memory */
  self->host_unified = self->fine_svm = FALSE;
  GST_INFO_OBJECT (self, "on %s with no OpenCL context", self->device_name);
  return self;
}

gboolean
gst_cl_context_has_opencl (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);
  return self->context != NULL;
}

void
gst_cl_queue_release (cl_command_queue queue)
{
  cl_event done = NULL;

  /* Not clFinish: PoCL 6.0 touches a queue that clFinish waited on after
   * clFinish returned (pocl_update_event_finished), and aborts if the queue
   * was freed meanwhile. A marker's event, held until after the release,
   * keeps the queue alive until PoCL is done with it: until PoCL has let go
   * of the event (a bounded wait), so that the queue, and with it the
   * cl_context, is freed here and not later in PoCL's thread. */
  if (clEnqueueMarkerWithWaitList (queue, 0, NULL, &done) == CL_SUCCESS) {
    cl_uint refs = 0;
    guint i;

    clWaitForEvents (1, &done);
    for (i = 0; i < 2000; i++) {
      if (clGetEventInfo (done, CL_EVENT_REFERENCE_COUNT, sizeof (refs),
              &refs, NULL) != CL_SUCCESS || refs <= 1)
        break;
      g_usleep (50);
    }
    clReleaseCommandQueue (queue);
    clReleaseEvent (done);
  } else {
    clFinish (queue);
    clReleaseCommandQueue (queue);
  }
}

static void
gst_cl_context_finalize (GObject * object)
{
  GstClContext *self = GST_CL_CONTEXT (object);

  if (self->host_queue)
    gst_cl_queue_release (self->host_queue);
  if (self->queue)
    gst_cl_queue_release (self->queue);
  if (self->context)
    stop_using_handle (self);
  g_free (self->device_name);
  g_free (self->identity);

  G_OBJECT_CLASS (gst_cl_context_parent_class)->finalize (object);
}

static void
gst_cl_context_class_init (GstClContextClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_context_finalize;
}

static void
gst_cl_context_init (GstClContext * self)
{
  static gint serials;

  self->serial = (guint) g_atomic_int_add (&serials, 1) + 1;
}

guint
gst_cl_context_get_serial (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), 0);
  return self->serial;
}

gboolean
gst_cl_context_handle_in_use (cl_context handle)
{
  gboolean used;

  G_LOCK (handle_users);
  used = handle_users && g_hash_table_contains (handle_users, handle);
  G_UNLOCK (handle_users);
  return used;
}

cl_context
gst_cl_context_get_handle (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), NULL);
  return self->context;
}

cl_device_id
gst_cl_context_get_device (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), NULL);
  return self->device;
}

cl_command_queue
gst_cl_context_get_host_queue (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), NULL);
  return self->host_queue;
}

cl_command_queue
gst_cl_context_get_queue (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), NULL);
  return self->queue;
}

const gchar *
gst_cl_context_get_identity (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), NULL);
  return self->identity;
}

gboolean
gst_cl_context_is_host_unified (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);
  return self->host_unified;
}

gsize
gst_cl_context_get_host_pin_min_size (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), 0);
  return self->host_pin_min_size;
}

gboolean
gst_cl_context_has_fine_svm (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);
  return self->fine_svm;
}

cl_mem
gst_cl_context_create_svm_buffer (GstClContext * self, gsize size,
    gpointer * svm, const gchar * what, GError ** error)
{
  cl_int status;
  cl_mem mem;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), NULL);
  g_return_val_if_fail (self->fine_svm && size > 0, NULL);

  /* Alignment 0: that of the largest OpenCL type, at least what
   * GstAllocationParams asks for in practice (128 bytes). */
  *svm = clSVMAlloc (self->context, CL_MEM_READ_WRITE |
      CL_MEM_SVM_FINE_GRAIN_BUFFER, size, 0);
  if (!*svm) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "clSVMAlloc (%s, %" G_GSIZE_FORMAT " bytes) failed", what, size);
    return NULL;
  }
  /* OpenCL 2.0: a buffer made with CL_MEM_USE_HOST_PTR over SVM has that
   * memory as its storage, so kernels keep taking a cl_mem. */
  mem = clCreateBuffer (self->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
      size, *svm, &status);
  if (status != CL_SUCCESS) {
    clSVMFree (self->context, *svm);
    *svm = NULL;
    gst_cl_set_error (error, status, "clCreateBuffer (%s over SVM, %"
        G_GSIZE_FORMAT " bytes)", what, size);
    return NULL;
  }
  return mem;
}

void
gst_cl_context_svm_free (GstClContext * self, gpointer svm)
{
  g_return_if_fail (GST_IS_CL_CONTEXT (self));
  if (svm)
    clSVMFree (self->context, svm);
}

gsize
gst_cl_context_get_host_ptr_align (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), 1);
  return self->host_ptr_align;
}

const gchar *
gst_cl_context_get_device_name (GstClContext * self)
{
  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), NULL);
  return self->device_name;
}

cl_mem
gst_cl_context_create_buffer (GstClContext * self, cl_mem_flags flags,
    gsize size, const gchar * what, GError ** error)
{
  cl_int status;
  cl_mem mem;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), NULL);
  g_return_val_if_fail (size > 0, NULL);

  if (!self->context) {
    HostBuffer *buffer = g_new0 (HostBuffer, 1);

    buffer->size = size;
    buffer->contents = g_malloc0 (size);
    return (cl_mem) buffer;
  }
  mem = clCreateBuffer (self->context, flags, size, NULL, &status);
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status,
        "clCreateBuffer (%s, %" G_GSIZE_FORMAT " bytes)", what, size);
    return NULL;
  }
  return mem;
}

void
gst_cl_context_release_buffer (GstClContext * self, cl_mem mem)
{
  g_return_if_fail (GST_IS_CL_CONTEXT (self));
  if (!mem)
    return;
  if (self->context) {
    clReleaseMemObject (mem);
    return;
  }
  g_free (HOST_BUFFER (mem)->contents);
  g_free (HOST_BUFFER (mem));
}

gboolean
gst_cl_context_get_buffer_size (GstClContext * self, cl_mem mem, gsize * size,
    GError ** error)
{
  cl_int status;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);
  if (!self->context) {
    *size = HOST_BUFFER (mem)->size;
    return TRUE;
  }
  status = clGetMemObjectInfo (mem, CL_MEM_SIZE, sizeof (*size), size, NULL);
  return status == CL_SUCCESS || gst_cl_set_error (error, status,
      "clGetMemObjectInfo (size)");
}

/* Whether @offset + @size lies in @mem (a HostBuffer). */
static gboolean
host_buffer_holds (cl_mem mem, gsize offset, gsize size, const gchar * what,
    GError ** error)
{
  if (offset <= HOST_BUFFER (mem)->size &&
      size <= HOST_BUFFER (mem)->size - offset)
    return TRUE;
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "%s: bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT " of a buffer of %"
      G_GSIZE_FORMAT, what, offset, offset + size, HOST_BUFFER (mem)->size);
  return FALSE;
}

gboolean
gst_cl_context_read_buffer (GstClContext * self, cl_mem mem, gsize offset,
    gsize size, gpointer dst, const gchar * what, GError ** error)
{
  cl_int status;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);
  if (!self->context) {
    if (!host_buffer_holds (mem, offset, size, what, error))
      return FALSE;
    memcpy (dst, HOST_BUFFER (mem)->contents + offset, size);
    return TRUE;
  }
  status = clEnqueueReadBuffer (self->queue, mem, CL_TRUE, offset, size, dst,
      0, NULL, NULL);
  return status == CL_SUCCESS || gst_cl_set_error (error, status,
      "clEnqueueReadBuffer (%s)", what);
}

gboolean
gst_cl_context_write_buffer (GstClContext * self, cl_mem mem, gsize offset,
    gsize size, gconstpointer src, const gchar * what, GError ** error)
{
  cl_int status;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);
  if (!self->context) {
    if (!host_buffer_holds (mem, offset, size, what, error))
      return FALSE;
    memcpy (HOST_BUFFER (mem)->contents + offset, src, size);
    return TRUE;
  }
  status = clEnqueueWriteBuffer (self->queue, mem, CL_TRUE, offset, size, src,
      0, NULL, NULL);
  return status == CL_SUCCESS || gst_cl_set_error (error, status,
      "clEnqueueWriteBuffer (%s)", what);
}

gboolean
gst_cl_context_fill_buffer (GstClContext * self, cl_mem mem,
    gconstpointer pattern, gsize pattern_size, gsize size, const gchar * what,
    GError ** error)
{
  cl_int status;
  gsize at;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (self), FALSE);
  g_return_val_if_fail (pattern_size > 0 && size % pattern_size == 0, FALSE);
  if (!self->context) {
    if (!host_buffer_holds (mem, 0, size, what, error))
      return FALSE;
    for (at = 0; at < size; at += pattern_size)
      memcpy (HOST_BUFFER (mem)->contents + at, pattern, pattern_size);
    return TRUE;
  }
  status = clEnqueueFillBuffer (self->queue, mem, pattern, pattern_size, 0,
      size, 0, NULL, NULL);
  return status == CL_SUCCESS || gst_cl_set_error (error, status,
      "clEnqueueFillBuffer (%s)", what);
}

const GstClSwitches *
gst_cl_context_get_switches (GstClContext * self)
{
  return &self->switches;
}

gboolean
gst_cl_context_dct_strips (GstClContext * self)
{
  return self->dct_strips;
}
