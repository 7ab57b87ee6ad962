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

#include "gstcldebug-private.h"
#include "gstclmemory-private.h"
#include "gstclerror-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cl_memory_debug

typedef struct
{
  GstMemory mem;

  cl_mem buffer;
  GMutex lock;                  /* guards map_count and host */
  gint map_count;
  gpointer host;                /* the mapping, while map_count > 0 */
  gboolean writable;            /* the mapping was made for writing */
  cl_event pending;             /* the last command writing the buffer */
  GstClFaults *faults;          /* where a failed map is kept */
  /* Where the CPU always finds the bytes, with no map command: the
   * buffer's storage where it is SVM, or its pinned host memory mapped once
   * for its whole life on a discrete device (never used by kernels then). */
  gpointer svm;
  gpointer pinned;
} GstClMemory;

struct _GstClAllocator
{
  GstAllocator parent;

  GstClContext *context;
  gboolean device_resident;
  GstClFaults *faults;          /* of the element that proposed the pool */
};

G_DEFINE_TYPE_WITH_CODE (GstClAllocator, gst_cl_allocator, GST_TYPE_ALLOCATOR,
    gst_cl_debug_init ());

/* Keeps @error with the faults of the element that proposed the pool of
 * @self's memories, if one did. */
static void
keep_for_pool (GstClAllocator * self, const GError * error, const gchar * what)
{
  GstClFaults *faults;

  GST_OBJECT_LOCK (self);
  faults = self->faults ? gst_cl_faults_ref (self->faults) : NULL;
  GST_OBJECT_UNLOCK (self);
  gst_cl_faults_keep (faults, error, what);
  gst_cl_faults_unref (faults);
}

/* Maps @buffer (CL_MEM_ALLOC_HOST_PTR: pinned host memory) once for good.
 * On a discrete device a map and an unmap per frame each made the driver
 * move the buffer (docs/memory.md); mapped for life, the CPU writes and
 * reads the pinned memory in place, and frames go to the device and back
 * by DMA from it (clEnqueueWrite/ReadBuffer with this pointer, never a
 * kernel on @buffer, as OpenCL wants while it is mapped). */
static gpointer
map_for_life (GstClAllocator * self, cl_mem buffer, gsize size, GError ** error)
{
  cl_int status;
  gpointer host = clEnqueueMapBuffer (gst_cl_context_get_host_queue
      (self->context), buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size,
      0, NULL, NULL, &status);

  if (status != CL_SUCCESS)
    gst_cl_set_error (error, status, "clEnqueueMapBuffer (frame memory)");
  return status == CL_SUCCESS ? host : NULL;
}

/* New frame memory of @self for @size bytes; NULL with @error set where the
 * device gives none. */
static GstMemory *
frame_memory_new (GstClAllocator * self, gsize size,
    const GstAllocationParams * params, GError ** error)
{
  gsize maxsize = size + params->prefix + params->padding;
  GstClMemory *mem;
  gpointer svm = NULL, pinned = NULL;
  cl_mem buffer;

  /* OpenCL buffers start at the device's base address alignment, which is at
   * least what GstAllocationParams asks for in practice (128 bytes). */
  if (self->device_resident) {
    buffer = gst_cl_context_create_buffer (self->context, CL_MEM_READ_WRITE,
        maxsize, "frame memory", error);
  } else {
    GError *no_svm = NULL;

    /* SVM where the device has it; a mapped buffer where it has not, or
     * where SVM runs out (this memory then works as without SVM). */
    buffer = gst_cl_context_has_fine_svm (self->context) ?
        gst_cl_context_create_svm_buffer (self->context, maxsize, &svm,
        "frame memory", &no_svm) : NULL;
    if (no_svm) {
      GST_INFO_OBJECT (self, "%s: a mapped buffer instead", no_svm->message);
      g_clear_error (&no_svm);
    }
    if (!buffer)
      buffer = gst_cl_context_create_buffer (self->context,
          CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, maxsize, "frame memory",
          error);
    if (buffer && !svm && !gst_cl_context_is_host_unified (self->context)
        && !(pinned = map_for_life (self, buffer, maxsize, error))) {
      clReleaseMemObject (buffer);
      buffer = NULL;
    }
  }
  if (!buffer) {
    if (error && !*error)
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
          "No frame memory of %" G_GSIZE_FORMAT " bytes", maxsize);
    return NULL;
  }

  mem = g_new0 (GstClMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags,
      GST_ALLOCATOR_CAST (self), NULL, maxsize, params->align, params->prefix,
      size);
  mem->buffer = buffer;
  mem->svm = svm;
  mem->pinned = pinned;
  g_mutex_init (&mem->lock);
  return GST_MEMORY_CAST (mem);
}

static GstMemory *
gst_cl_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (allocator);
  GError *error = NULL;
  GstMemory *mem = frame_memory_new (self, size, params, &error);

  if (!mem) {
    GST_WARNING_OBJECT (self, "%s", error->message);
    keep_for_pool (self, error, "a frame of the pool could not be allocated");
    g_clear_error (&error);
  }
  return mem;
}

static void
gst_cl_allocator_free (GstAllocator * allocator, GstMemory * memory)
{
  GstClMemory *mem = (GstClMemory *) memory;

  if (mem->map_count > 0) {
    GST_ERROR_OBJECT (allocator, "freeing memory %p that is still mapped",
        memory);
  }
  /* clSVMFree, or the unmap of pinned memory, does not wait for the
   * commands still writing the memory. */
  if (mem->pending && (mem->svm || mem->pinned))
    clWaitForEvents (1, &mem->pending);
  if (mem->pending)
    clReleaseEvent (mem->pending);
  g_clear_pointer (&mem->faults, gst_cl_faults_unref);
  if (mem->pinned) {
    cl_command_queue queue = gst_cl_context_get_host_queue
        (GST_CL_ALLOCATOR (allocator)->context);

    /* The buffer goes once the unmap has run: started now, not waited for.
     * Nobody is left to tell of an error; it is logged. */
    cl_int status = clEnqueueUnmapMemObject (queue, mem->buffer, mem->pinned,
        0, NULL, NULL);

    if (status == CL_SUCCESS)
      status = clFlush (queue);
    if (status != CL_SUCCESS)
      GST_WARNING_OBJECT (allocator, "unmapping pinned memory %p: %s",
          memory, gst_cl_error_name (status));
  }
  clReleaseMemObject (mem->buffer);
  gst_cl_context_svm_free (GST_CL_ALLOCATOR (allocator)->context, mem->svm);
  g_mutex_clear (&mem->lock);
  g_free (mem);
}

/* The memory that owns the mapping: @memory, or the one it is a share of. */
static GstClMemory *
gst_cl_memory_root (GstMemory * memory)
{
  return (GstClMemory *) (memory->parent ? memory->parent : memory);
}

/* Lets go of the pending event (waited for, or replaced). With the lock. */
static void
clear_pending (GstClMemory * mem)
{
  if (mem->pending)
    clReleaseEvent (mem->pending);
  mem->pending = NULL;
}

/* A map of @mem failed with @status at @step: kept by the element whose
 * output it holds, or else by the one that proposed its pool. */
static void
keep_map_failure (GstClMemory * mem, GstClAllocator * alloc, cl_int status,
    const gchar * step)
{
  GError *error = NULL;

  gst_cl_set_error (&error, status, "%s", step);
  if (mem->faults)
    gst_cl_faults_keep (mem->faults, error, "an output frame's data could "
        "not be delivered");
  else
    keep_for_pool (alloc, error, "a frame of the pool could not be mapped");
  g_error_free (error);
}

/* Maps the whole buffer for reading and writing on the first map; nested maps
 * share that mapping. Maps and unmaps go to the context's host queue: a map
 * waits for the buffer's pending event (what wrote it last), not for
 * unrelated kernels; commands on other queues wait for the unmap's event.
 * A share maps its root: both span the root's maxsize, so the root's base
 * address is the share's too. */
static gpointer
gst_cl_memory_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  GstClMemory *mem = gst_cl_memory_root (memory);
  GstClAllocator *alloc = GST_CL_ALLOCATOR (memory->allocator);
  cl_int status = CL_SUCCESS;
  const gchar *step = "clEnqueueMapBuffer (frame memory)";
  gpointer host;

  g_mutex_lock (&mem->lock);
  if (mem->map_count == 0) {
    mem->writable = (flags & GST_MAP_WRITE) != 0;
    /* What still writes the memory, if anything, is waited for first, on
     * its own: a blocking map whose wait list holds a failed event never
     * returns on PoCL 3.1, a wait fails. */
    if (mem->pending) {
      status = clWaitForEvents (1, &mem->pending);
      step = "clWaitForEvents (map of an output frame)";
      if (status == CL_SUCCESS)
        clear_pending (mem);
    }
    if (status != CL_SUCCESS) {
      /* kept below */
    } else if (mem->svm || mem->pinned) {
      /* SVM, or pinned memory mapped for good: no map command */
      mem->host = mem->svm ? mem->svm : mem->pinned;
    } else {
      /* A read-only mapping has nothing to write back at unmap: on a
       * discrete GPU that saves sending the whole buffer back. */
      step = "clEnqueueMapBuffer (frame memory)";
      mem->host = clEnqueueMapBuffer (gst_cl_context_get_host_queue
          (alloc->context), mem->buffer, CL_TRUE, mem->writable ?
          CL_MAP_READ | CL_MAP_WRITE : CL_MAP_READ, 0, memory->maxsize, 0,
          NULL, NULL, &status);
    }
  } else if ((flags & GST_MAP_WRITE) && !mem->writable) {
    /* Nested inside a read-only mapping: refuse rather than lose writes
     * (the caller's mistake, not the frame's). */
    status = CL_INVALID_OPERATION;
    step = NULL;
  }
  if (status == CL_SUCCESS)
    mem->map_count++;
  host = status == CL_SUCCESS ? mem->host : NULL;
  /* The frame's data is not there: the element that made it raises the
   * failure (kept where the wait fails: the next map waits again). */
  if (status != CL_SUCCESS && step)
    keep_map_failure (mem, alloc, status, step);
  g_mutex_unlock (&mem->lock);

  if (status != CL_SUCCESS)
    GST_ERROR_OBJECT (alloc, "%s failed: %s", step ? step :
        "a writable map inside a read-only one", gst_cl_error_name (status));
  return host;
}

static void
gst_cl_memory_unmap (GstMemory * memory)
{
  GstClMemory *mem = gst_cl_memory_root (memory);
  GstClAllocator *alloc = GST_CL_ALLOCATOR (memory->allocator);
  cl_command_queue queue = gst_cl_context_get_host_queue (alloc->context);
  cl_int status = CL_SUCCESS;

  g_mutex_lock (&mem->lock);
  if (--mem->map_count == 0 && (mem->svm || mem->pinned)) {
    /* The CPU's stores are the device's to see at its next command (SVM),
     * or read from there by the next transfer (pinned). */
    mem->host = NULL;
  } else if (mem->map_count == 0) {
    /* Commands on other queues (frames in flight) wait for this event;
     * those enqueued later on the same in-order queue see the data anyway. */
    clear_pending (mem);
    status = clEnqueueUnmapMemObject (queue, mem->buffer, mem->host, 0, NULL,
        &mem->pending);
    /* Commands of other queues wait for its event: OpenCL wants the queue
     * that holds it flushed first. */
    if (status == CL_SUCCESS)
      status = clFlush (queue);
    mem->host = NULL;
  }
  g_mutex_unlock (&mem->lock);

  if (status != CL_SUCCESS)
    GST_ERROR_OBJECT (alloc, "clEnqueueUnmapMemObject failed: %s",
        gst_cl_error_name (status));
}

/* A share is a memory of its own over the root's OpenCL buffer (one more
 * reference on it), read-only, mapped through the root. GstMemory's parent
 * link keeps the root alive, and not writable, while the share lives. */
static GstMemory *
gst_cl_memory_share (GstMemory * memory, gssize offset, gssize size)
{
  GstClMemory *root = gst_cl_memory_root (memory);
  GstClMemory *sub;

  if (size == -1)
    size = memory->size - offset;
  sub = g_new0 (GstClMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (root) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      memory->allocator, GST_MEMORY_CAST (root), memory->maxsize,
      memory->align, memory->offset + offset, size);
  clRetainMemObject (root->buffer);
  sub->buffer = root->buffer;
  g_mutex_init (&sub->lock);
  return GST_MEMORY_CAST (sub);
}

static void
gst_cl_allocator_finalize (GObject * object)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (object);

  gst_clear_object (&self->context);
  gst_cl_faults_unref (self->faults);
  G_OBJECT_CLASS (gst_cl_allocator_parent_class)->finalize (object);
}

/* A copy of @memory's bytes from @offset on (@size of them; -1: to the end),
 * in new frame memory, or in system memory where the device has none left.
 * GstVideoDecoder copies an output frame so when it cannot take it for
 * itself (libav still holding it as a reference), and GStreamer 1.22's
 * crashes where that copy is NULL: a copy never fails for want of device
 * memory. */
static GstMemory *
gst_cl_memory_copy (GstMemory * memory, gssize offset, gssize size)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (memory->allocator);
  GstAllocationParams params = { 0, memory->align, 0, 0, };
  GError *error = NULL;
  GstMemory *copy = NULL;
  GstMapInfo from, to;

  if (!gst_memory_map (memory, &from, GST_MAP_READ))
    return NULL;
  if (size == -1)
    size = (gssize) from.size > offset ? (gssize) from.size - offset : 0;
  if (offset < 0 || offset + size > (gssize) from.size)
    goto done;
  copy = frame_memory_new (self, size, &params, &error);
  if (copy && !gst_memory_map (copy, &to, GST_MAP_WRITE))
    g_clear_pointer (&copy, gst_memory_unref);
  if (!copy) {
    GST_INFO_OBJECT (self, "%s: the copy in system memory", error ?
        error->message : "new frame memory could not be mapped");
    g_clear_error (&error);
    copy = gst_allocator_alloc (NULL, size, &params);
    if (copy && !gst_memory_map (copy, &to, GST_MAP_WRITE))
      g_clear_pointer (&copy, gst_memory_unref);
  }
  if (copy) {
    memcpy (to.data, from.data + offset, size);
    gst_memory_unmap (copy, &to);
  }
done:
  gst_memory_unmap (memory, &from);
  return copy;
}

static void
gst_cl_allocator_class_init (GstClAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gst_cl_allocator_finalize;
  allocator_class->alloc = gst_cl_allocator_alloc;
  allocator_class->free = gst_cl_allocator_free;
}

static void
gst_cl_allocator_init (GstClAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CL_MEMORY_TYPE;
  allocator->mem_map = gst_cl_memory_map;
  allocator->mem_unmap = gst_cl_memory_unmap;
  allocator->mem_share = gst_cl_memory_share;
  allocator->mem_copy = gst_cl_memory_copy;
}

GstAllocator *
gst_cl_allocator_new (GstClContext * context, gboolean device_resident)
{
  GstClAllocator *self;

  g_return_val_if_fail (GST_IS_CL_CONTEXT (context), NULL);

  self = g_object_new (GST_TYPE_CL_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  self->device_resident = device_resident;
  return GST_ALLOCATOR_CAST (self);
}

void
gst_cl_allocator_set_faults (GstAllocator * allocator, GstClFaults * faults)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (allocator);

  GST_OBJECT_LOCK (self);
  gst_cl_faults_unref (self->faults);
  self->faults = faults ? gst_cl_faults_ref (faults) : NULL;
  GST_OBJECT_UNLOCK (self);
}

gboolean
gst_cl_memory_is_device_resident (GstMemory * mem)
{
  g_return_val_if_fail (gst_is_cl_memory (mem, NULL), FALSE);
  return GST_CL_ALLOCATOR (mem->allocator)->device_resident;
}

gboolean
gst_is_cl_memory (GstMemory * mem, GstClContext * context)
{
  if (!mem || !GST_IS_CL_ALLOCATOR (mem->allocator))
    return FALSE;
  return !context ||
      gst_cl_context_is_sibling (GST_CL_ALLOCATOR (mem->allocator)->context,
      context);
}

cl_mem
gst_cl_memory_get_buffer (GstMemory * mem)
{
  g_return_val_if_fail (gst_is_cl_memory (mem, NULL), NULL);
  return ((GstClMemory *) mem)->buffer;
}

gboolean
gst_cl_memory_needs_map (GstMemory * mem)
{
  GstClMemory *root;

  g_return_val_if_fail (gst_is_cl_memory (mem, NULL), TRUE);
  root = gst_cl_memory_root (mem);
  return !root->svm && !root->pinned;
}

guint8 *
gst_cl_memory_get_pinned_host (GstMemory * mem)
{
  g_return_val_if_fail (gst_is_cl_memory (mem, NULL), NULL);
  return gst_cl_memory_root (mem)->pinned;
}

void
gst_cl_memory_set_pending (GstMemory * memory, cl_event event)
{
  GstClMemory *mem;

  g_return_if_fail (gst_is_cl_memory (memory, NULL));
  mem = gst_cl_memory_root (memory);
  if (event)
    clRetainEvent (event);
  g_mutex_lock (&mem->lock);
  clear_pending (mem);
  mem->pending = event;
  g_mutex_unlock (&mem->lock);
}

void
gst_cl_memory_set_faults (GstMemory * memory, GstClFaults * faults)
{
  GstClMemory *mem;

  g_return_if_fail (gst_is_cl_memory (memory, NULL));
  mem = gst_cl_memory_root (memory);
  if (faults)
    gst_cl_faults_ref (faults);
  g_mutex_lock (&mem->lock);
  gst_cl_faults_unref (mem->faults);
  mem->faults = faults;
  g_mutex_unlock (&mem->lock);
}

cl_event
gst_cl_memory_get_pending (GstMemory * memory)
{
  GstClMemory *mem;
  cl_event event;

  g_return_val_if_fail (gst_is_cl_memory (memory, NULL), NULL);
  mem = gst_cl_memory_root (memory);
  g_mutex_lock (&mem->lock);
  event = mem->pending;
  if (event)
    clRetainEvent (event);
  g_mutex_unlock (&mem->lock);
  return event;
}
