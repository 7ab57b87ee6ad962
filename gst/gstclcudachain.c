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

/* The order between a CUDA stream and an OpenCL queue kept on the device
 * (gstclcudachain-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclcudachain-private.h"
#include "gstclerror-private.h"

#include <CL/cl_ext.h>
#include <unistd.h>

#define GST_CAT_DEFAULT gst_cl_cuda_chain_debug

/* The list of devices a semaphore is for: cl_khr_semaphore's final
 * property, and the one of earlier headers and drivers. */
#define SEMAPHORE_DEVICE_HANDLE_LIST 0x2053
#define EARLY_DEVICE_HANDLE_LIST 0x2051

/* CUDA's external semaphores (cuda.h, NVIDIA's ABI): the handle
 * description, and the signal and wait parameters, all zero for a binary
 * semaphore. */
typedef gpointer CUexternalSemaphore;
#define CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD 1
typedef struct
{
  gint type;
  union
  {
    gint fd;
    gpointer win32[2];
  } handle;
  guint flags;
  guint reserved[16];
} CudaSemaphoreDesc;
typedef struct
{
  guint64 params[9];
  guint flags;
  guint reserved[16];
} CudaSemaphoreParams;

typedef CUresult (*ImportSemaphore) (CUexternalSemaphore * semaphore,
    const CudaSemaphoreDesc * desc);
typedef CUresult (*SemaphoresAsync) (const CUexternalSemaphore * semaphores,
    const CudaSemaphoreParams * params, guint n, CUstream stream);
typedef CUresult (*DestroySemaphore) (CUexternalSemaphore semaphore);

/* One direction: the semaphore as OpenCL and CUDA know it, and whether a
 * signal waits to be taken. */
typedef struct
{
  cl_semaphore_khr cl;
  CUexternalSemaphore cuda;
  gboolean pending;
  cl_event taken;               /* OpenCL's last wait, where OpenCL waits */
} Link;

struct _GstClCudaChain
{
  cl_device_id device;
  Link to_cl, to_cuda;
  gboolean broken;
  clCreateSemaphoreWithPropertiesKHR_fn create;
  clGetSemaphoreHandleForTypeKHR_fn get_handle;
  clEnqueueWaitSemaphoresKHR_fn wait;
  clEnqueueSignalSemaphoresKHR_fn signal;
  clReleaseSemaphoreKHR_fn release;
  ImportSemaphore import;
  SemaphoresAsync cuda_signal, cuda_wait;
  DestroySemaphore destroy;
};

static gboolean
has_extension (cl_device_id device, const gchar * name)
{
  gchar *text, **extensions;
  size_t size = 0;
  gboolean found;

  if (clGetDeviceInfo (device, CL_DEVICE_EXTENSIONS, 0, NULL, &size))
    return FALSE;
  text = g_malloc0 (size + 1);
  clGetDeviceInfo (device, CL_DEVICE_EXTENSIONS, size, text, NULL);
  extensions = g_strsplit (text, " ", -1);
  found = g_strv_contains ((const gchar * const *) extensions, name);
  g_strfreev (extensions);
  g_free (text);
  return found;
}

/* The entry points of both drivers; FALSE where one is missing. */
static gboolean
get_entry_points (GstClCudaChain * self)
{
  cl_platform_id platform;

#define CL_ENTRY(field, name) \
  (self->field = clGetExtensionFunctionAddressForPlatform (platform, name))
  if (clGetDeviceInfo (self->device, CL_DEVICE_PLATFORM, sizeof (platform),
          &platform, NULL) != CL_SUCCESS)
    return FALSE;
  if (!CL_ENTRY (create, "clCreateSemaphoreWithPropertiesKHR") ||
      !CL_ENTRY (get_handle, "clGetSemaphoreHandleForTypeKHR") ||
      !CL_ENTRY (wait, "clEnqueueWaitSemaphoresKHR") ||
      !CL_ENTRY (signal, "clEnqueueSignalSemaphoresKHR") ||
      !CL_ENTRY (release, "clReleaseSemaphoreKHR"))
    return FALSE;
#undef CL_ENTRY
  self->import = gst_cl_cuda_symbol ("cuImportExternalSemaphore");
  self->cuda_signal = gst_cl_cuda_symbol ("cuSignalExternalSemaphoresAsync");
  self->cuda_wait = gst_cl_cuda_symbol ("cuWaitExternalSemaphoresAsync");
  self->destroy = gst_cl_cuda_symbol ("cuDestroyExternalSemaphore");
  return self->import && self->cuda_signal && self->cuda_wait && self->destroy;
}

/* An exportable binary semaphore for the device: the context's one
 * device, or where the driver wants them named, in the list of either
 * property. */
static cl_semaphore_khr
create_semaphore (GstClCudaChain * self, cl_context context)
{
  static const cl_semaphore_properties_khr lists[] = { 0,
    SEMAPHORE_DEVICE_HANDLE_LIST, EARLY_DEVICE_HANDLE_LIST
  };
  cl_semaphore_khr semaphore = NULL;
  cl_int status = CL_SUCCESS;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (lists) && !semaphore; i++) {
    cl_semaphore_properties_khr props[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
      CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
      CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR,
      lists[i], (cl_semaphore_properties_khr) self->device, 0, 0
    };

    semaphore = self->create (context, props, &status);
    if (status != CL_SUCCESS)
      semaphore = NULL;
    GST_DEBUG ("clCreateSemaphoreWithPropertiesKHR, device list 0x%x: %s",
        (guint) lists[i], gst_cl_error_name (status));
  }
  return semaphore;
}

/* Makes @link's semaphore in OpenCL, exports it and imports it into CUDA;
 * the reason it could not in @why. */
static gboolean
make_link (GstClCudaChain * self, cl_context context, Link * link,
    const gchar ** why)
{
  CudaSemaphoreDesc desc = { CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, };
  CUresult imported;
  gint fd = -1;

  link->cl = create_semaphore (self, context);
  if (!link->cl) {
    *why = "clCreateSemaphoreWithPropertiesKHR failed";
    return FALSE;
  }
  if (self->get_handle (link->cl, self->device,
          CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, sizeof (fd), &fd, NULL) !=
      CL_SUCCESS || fd < 0) {
    *why = "clGetSemaphoreHandleForTypeKHR failed";
    return FALSE;
  }
  desc.handle.fd = fd;
  /* on success the descriptor is CUDA's */
  imported = self->import (&link->cuda, &desc);
  if (imported != CUDA_SUCCESS) {
    GST_DEBUG ("cuImportExternalSemaphore: %d", imported);
    close (fd);
    link->cuda = NULL;
    *why = "cuImportExternalSemaphore failed";
    return FALSE;
  }
  return TRUE;
}

GstClCudaChain *
gst_cl_cuda_chain_new (cl_context context, cl_device_id device)
{
  GstClCudaChain *self = g_new0 (GstClCudaChain, 1);
  const gchar *why = NULL;

  gst_cl_debug_init ();
  self->device = device;
  if (!has_extension (device, "cl_khr_external_semaphore_opaque_fd"))
    why = "the OpenCL device lacks cl_khr_external_semaphore_opaque_fd";
  else if (!get_entry_points (self))
    why = "a driver lacks an entry point of external semaphores";
  if (!why && make_link (self, context, &self->to_cl, &why) &&
      make_link (self, context, &self->to_cuda, &why)) {
    GST_INFO ("CUDA and OpenCL ordered on the device");
    return self;
  }
  GST_INFO ("CUDA and OpenCL ordered by the host: %s", why);
  gst_cl_cuda_chain_free (self);
  return NULL;
}

static void
free_link (GstClCudaChain * self, Link * link)
{
  if (link->taken)
    clReleaseEvent (link->taken);
  if (link->cuda)
    self->destroy (link->cuda);
  if (link->cl)
    self->release (link->cl);
}

void
gst_cl_cuda_chain_free (GstClCudaChain * chain)
{
  if (!chain)
    return;
  free_link (chain, &chain->to_cl);
  free_link (chain, &chain->to_cuda);
  g_free (chain);
}

/* Whether OpenCL's last wait for CUDA has run: a binary semaphore must
 * not be signalled again before (frames in flight may leave it queued). */
static gboolean
taken_on_device (const Link * link)
{
  cl_int status = CL_COMPLETE;

  return !link->taken || (clGetEventInfo (link->taken,
          CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status,
          NULL) == CL_SUCCESS && status == CL_COMPLETE);
}

gboolean
gst_cl_cuda_chain_can_signal_cl (const GstClCudaChain * chain)
{
  return chain && !chain->broken && !chain->to_cl.pending &&
      taken_on_device (&chain->to_cl);
}

gboolean
gst_cl_cuda_chain_can_signal_cuda (const GstClCudaChain * chain)
{
  return chain && !chain->broken && !chain->to_cuda.pending;
}

/* A signal that no wait took stays set: the next one would be an error,
 * so the chain is left for waits on the host. */
static void
break_chain (GstClCudaChain * self, const gchar * why)
{
  if (!self->broken)
    GST_INFO ("CUDA and OpenCL ordered by the host from now: %s", why);
  self->broken = TRUE;
}

gboolean
gst_cl_cuda_chain_signal_cl (GstClCudaChain * chain, CUstream stream,
    GError ** error)
{
  const CudaSemaphoreParams params = { {0,}, };
  CUresult status;

  g_return_val_if_fail (gst_cl_cuda_chain_can_signal_cl (chain), FALSE);

  status = chain->cuda_signal (&chain->to_cl.cuda, &params, 1, stream);
  if (status != CUDA_SUCCESS) {
    break_chain (chain, "a signal to OpenCL failed");
    return gst_cl_cuda_set_error (error, status,
        "cuSignalExternalSemaphoresAsync");
  }
  chain->to_cl.pending = TRUE;
  return TRUE;
}

gboolean
gst_cl_cuda_chain_wait_cl (GstClCudaChain * chain, cl_command_queue queue,
    cl_uint n_wait, const cl_event * wait_list, cl_event * event,
    GError ** error)
{
  cl_int status;

  *event = NULL;
  if (!chain || chain->broken || !chain->to_cl.pending)
    return TRUE;
  status = chain->wait (queue, 1, &chain->to_cl.cl, NULL, n_wait, wait_list,
      event);
  if (status != CL_SUCCESS) {
    *event = NULL;
    break_chain (chain, "a wait for CUDA failed");
    return gst_cl_set_error (error, status, "clEnqueueWaitSemaphoresKHR");
  }
  chain->to_cl.pending = FALSE;
  if (chain->to_cl.taken)
    clReleaseEvent (chain->to_cl.taken);
  chain->to_cl.taken = *event;
  clRetainEvent (*event);
  return TRUE;
}

gboolean
gst_cl_cuda_chain_signal_cuda (GstClCudaChain * chain,
    cl_command_queue queue, cl_uint n_wait, const cl_event * wait_list,
    GError ** error)
{
  cl_int status;

  g_return_val_if_fail (gst_cl_cuda_chain_can_signal_cuda (chain), FALSE);

  status = chain->signal (queue, 1, &chain->to_cuda.cl, NULL, n_wait,
      wait_list, NULL);
  if (status != CL_SUCCESS) {
    break_chain (chain, "a signal to CUDA failed");
    return gst_cl_set_error (error, status, "clEnqueueSignalSemaphoresKHR");
  }
  chain->to_cuda.pending = TRUE;
  return TRUE;
}

gboolean
gst_cl_cuda_chain_cuda_pending (const GstClCudaChain * chain)
{
  return chain && !chain->broken && chain->to_cuda.pending;
}

gboolean
gst_cl_cuda_chain_wait_cuda (GstClCudaChain * chain, CUstream stream,
    GError ** error)
{
  const CudaSemaphoreParams params = { {0,}, };
  CUresult status;

  g_return_val_if_fail (gst_cl_cuda_chain_cuda_pending (chain), FALSE);

  status = chain->cuda_wait (&chain->to_cuda.cuda, &params, 1, stream);
  if (status != CUDA_SUCCESS) {
    break_chain (chain, "a wait for OpenCL failed");
    return gst_cl_set_error (error, status, "cuWaitExternalSemaphoresAsync");
  }
  chain->to_cuda.pending = FALSE;
  return TRUE;
}
