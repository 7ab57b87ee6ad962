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

/* OpenCL commands of a frame run in a CUDA context
 * (gstclcudaexec-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclcudaexec-private.h"
#include "gstclcopy-private.h"
#include "gstclerror-private.h"
#include "gstclptx-private.h"
#include "gstclwaits-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cl_cuda_debug

typedef gpointer CUmodule;
typedef gpointer CUfunction;
typedef gpointer CUevent;

#define CU_STREAM_NON_BLOCKING 0x1
#define CU_EVENT_DISABLE_TIMING 0x2
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_CONTEXT_IS_DESTROYED 709
/* Dynamic shared memory beyond this needs cuFuncSetAttribute; the tiles'
 * is a few KB. */
#define MAX_SHARED_BYTES (48 * 1024)
/* Pinned host memory for one frame's reads back: the DCT stage's two
 * histograms where the host decides (2 x 12 KB), its states otherwise. */
#define BOUNCE_BYTES (32 * 1024)

/* Threads a block of the word copies (copy_words_ptx), blocks at most,
 * and words at most (so that a thread's index does not wrap). */
#define COPY_THREADS 256
#define COPY_BLOCKS 64
#define COPY_WORDS (G_MAXUINT32 - COPY_THREADS * COPY_BLOCKS)

/* The driver's entry points used here, beyond what gstclcuda.c loads:
 * field, exported name, parameters. */
#define EXEC_CALLS(X) \
  X (CtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext ctx)) \
  X (CtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext * ctx)) \
  X (ModuleLoadData, "cuModuleLoadData", (CUmodule * module, \
          gconstpointer image)) \
  X (ModuleUnload, "cuModuleUnload", (CUmodule module)) \
  X (ModuleGetFunction, "cuModuleGetFunction", (CUfunction * function, \
          CUmodule module, const gchar * name)) \
  X (LaunchKernel, "cuLaunchKernel", (CUfunction function, guint gx, \
          guint gy, guint gz, guint bx, guint by, guint bz, guint shared, \
          CUstream stream, gpointer * params, gpointer * extra)) \
  X (MemAlloc, "cuMemAlloc_v2", (CUdeviceptr * ptr, gsize size)) \
  X (MemFree, "cuMemFree_v2", (CUdeviceptr ptr)) \
  X (MemAllocHost, "cuMemAllocHost_v2", (gpointer * ptr, gsize size)) \
  X (MemFreeHost, "cuMemFreeHost", (gpointer ptr)) \
  X (MemsetD8Async, "cuMemsetD8Async", (CUdeviceptr ptr, guint8 value, \
          gsize n, CUstream stream)) \
  X (MemsetD32Async, "cuMemsetD32Async", (CUdeviceptr ptr, guint32 value, \
          gsize n, CUstream stream)) \
  X (MemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr dst, gconstpointer src, \
          gsize size)) \
  X (MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", (CUdeviceptr dst, \
          gconstpointer src, gsize size, CUstream stream)) \
  X (MemcpyDtoH, "cuMemcpyDtoH_v2", (gpointer dst, CUdeviceptr src, \
          gsize size)) \
  X (MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", (gpointer dst, \
          CUdeviceptr src, gsize size, CUstream stream)) \
  X (Memcpy2DAsync, "cuMemcpy2DAsync_v2", (const CUDA_MEMCPY2D * copy, \
          CUstream stream)) \
  X (StreamCreate, "cuStreamCreate", (CUstream * stream, guint flags)) \
  X (StreamDestroy, "cuStreamDestroy_v2", (CUstream stream)) \
  X (StreamSynchronize, "cuStreamSynchronize", (CUstream stream)) \
  X (StreamWaitEvent, "cuStreamWaitEvent", (CUstream stream, \
          CUevent event, guint flags)) \
  X (EventCreate, "cuEventCreate", (CUevent * event, guint flags)) \
  X (EventRecord, "cuEventRecord", (CUevent event, CUstream stream)) \
  X (EventSynchronize, "cuEventSynchronize", (CUevent event)) \
  X (EventElapsedTime, "cuEventElapsedTime", (gfloat * ms, CUevent start, \
          CUevent end)) \
  X (EventDestroy, "cuEventDestroy_v2", (CUevent event))

#define DECLARE_CALL(field, symbol, params) CUresult (*field) params;
typedef struct
{
EXEC_CALLS (DECLARE_CALL)} ExecCalls;

/* An OpenCL buffer's CUDA twin. */
typedef struct
{
  cl_mem mem;
  CUdeviceptr ptr;
  gsize size;
} Twin;

typedef struct
{
  GstClProgram *program;
  CUmodule module;
} Module;

typedef struct
{
  GstClKernel *kernel;
  CUfunction function;
  guint n_args;
} Function;

/* A read back, in pinned memory of its frame's slot until that frame is
 * waited for. */
typedef struct
{
  gpointer host;
  guint slot;
  const guint8 *pinned;         /* the slot's bounce buffer, or host frame */
  gsize size;
  GstClCudaRead *done;          /* our reference, or NULL */
} Read;

struct _GstClCudaRead
{
  gint status;                  /* GstClCudaReadStatus */
  gint abandoned;               /* the caller let go while pending */
};

/* Memory of frames in system memory, made at first use: a slot's device
 * memory that the commands write or read (a slot's own: a frame's
 * download runs on a stream of its own, out_stream, beside the next
 * frames' commands), and the pinned memory of a slot that it is copied
 * through. */
typedef struct
{
  CUresult failed;              /* the first allocation that failed: not
                                 * tried again */
  const gchar *failed_call;     /* its call */
  gsize size[GST_CL_CUDA_EXEC_SLOTS];
  CUdeviceptr device[GST_CL_CUDA_EXEC_SLOTS];
  guint8 *pinned[GST_CL_CUDA_EXEC_SLOTS];
  gsize pinned_size[GST_CL_CUDA_EXEC_SLOTS];
} HostFrames;

/* GST_CL_CUDA_COMMAND_TIMES: the end of a command of a frame, and what it
 * was; each command's time on the GPU, by what it was, in all */
typedef struct
{
  CUevent event;
  const gchar *what;            /* interned */
  /* µs on the host from the frame's begin to the return of the call that
   * enqueued it */
  gint64 enqueued;
} CommandEnd;

typedef struct
{
  gdouble ms;
  gdouble enqueued_ms;          /* in all, as CommandEnd's */
  guint times;
} CommandTime;

struct _GstClCudaExec
{
  ExecCalls cu;
  CUcontext cuda_context;
  GstClContext *context;
  CUstream stream;
  /* the stand-ins (OpenCL buffers of a few bytes, which kernel arguments
   * accept), and the memory each stands for */
  cl_mem stand_in[2];
  CUdeviceptr bound[2];
  GArray *twins;                /* Twin */
  GArray *modules;              /* Module */
  GArray *functions;            /* Function */
  GArray *reads;                /* Read */
  /* BOUNCE_BYTES a slot, pinned, and what the slot's frame uses */
  guint8 *bounce;
  gsize bounce_used[GST_CL_CUDA_EXEC_SLOTS];
  guint slot;                   /* the frame's (gst_cl_cuda_exec_begin()) */
  CUevent marks[GST_CL_CUDA_EXEC_SLOTS];        /* made at first use */
  /* where each slot's frame began on the stream, if recorded (the frame's
   * span on the GPU, from there to its mark): at its begin, after its
   * settings are applied (its programs built) and after the upload of an
   * input from system memory, which is not in its span */
  CUevent starts[GST_CL_CUDA_EXEC_SLOTS];
  gboolean started[GST_CL_CUDA_EXEC_SLOTS];
  gint64 began[GST_CL_CUDA_EXEC_SLOTS]; /* on the host, µs */
  /* with GST_CL_CUDA_COMMAND_TIMES: each slot's frame's command ends
   * (CommandEnd), events to reuse, and the times by what (CommandTime) */
  GArray *ends[GST_CL_CUDA_EXEC_SLOTS];
  GArray *spare_events;
  GHashTable *command_times;
  HostFrames host;              /* outputs */
  /* The downloads of outputs into system memory: their stream, made at
   * the first, and where each slot's ended (downloaded: whether the
   * slot's frame has one); commands_done, recorded on the stream for
   * out_stream to wait for. Where processes share the GPU by time slices,
   * a command that follows a copy to the host on a stream waits for the
   * context's next turn: on out_stream the next frame's commands do not
   * follow it. */
  CUstream out_stream;
  CUevent commands_done;
  CUevent downloads[GST_CL_CUDA_EXEC_SLOTS];
  gboolean downloaded[GST_CL_CUDA_EXEC_SLOTS];
  HostFrames host_in;           /* inputs */
  /* copy_words_ptx's, loaded at the first read back; NULL where it could
   * not be yet, or cannot be here (copy_words_failed) */
  CUmodule copy_module;
  CUfunction copy_words;
  gboolean copy_words_failed;
};

gboolean
gst_cl_cuda_exec_wanted (void)
{
  return g_strcmp0 (g_getenv ("GST_CL_CUDA_KERNELS"), "0") != 0;
}

gboolean
gst_cl_cuda_exec_may_run (GstClContext * context)
{
  cl_device_id device = gst_cl_context_get_device (context);
  cl_platform_id platform;
  gchar name[64] = "";

  return gst_cl_cuda_exec_wanted () &&
      clGetDeviceInfo (device, CL_DEVICE_PLATFORM, sizeof (platform),
      &platform, NULL) == CL_SUCCESS &&
      clGetPlatformInfo (platform, CL_PLATFORM_NAME, sizeof (name) - 1, name,
      NULL) == CL_SUCCESS && g_str_has_prefix (name, "NVIDIA");
}

static gboolean
load_calls (ExecCalls * cu, GError ** error)
{
#define LOAD_CALL(field, symbol, params) \
  if (!(cu->field = (gpointer) gst_cl_cuda_symbol (symbol))) { \
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND, \
        "The CUDA driver has no %s", symbol); \
    return FALSE; \
  }
  EXEC_CALLS (LOAD_CALL);
#undef LOAD_CALL
  return TRUE;
}

/* Makes the executor's context current: CUDA_SUCCESS, or the failure
 * (@error set). */
static CUresult
push_status (GstClCudaExec * self, GError ** error)
{
  CUresult status = self->cu.CtxPushCurrent (self->cuda_context);

  if (status != CUDA_SUCCESS)
    gst_cl_cuda_set_error (error, status, "cuCtxPushCurrent");
  return status;
}

static gboolean
push (GstClCudaExec * self, GError ** error)
{
  return push_status (self, error) == CUDA_SUCCESS;
}

/* Whether a wait may still be made after the push failed with @status:
 * the stream and its events need no current context, but where the
 * context itself is gone so are they (and its work with it). */
static gboolean
may_wait_after (CUresult status)
{
  if (status == CUDA_ERROR_INVALID_CONTEXT ||
      status == CUDA_ERROR_CONTEXT_IS_DESTROYED)
    return FALSE;
  if (status != CUDA_SUCCESS)
    GST_WARNING ("waiting for the frames' CUDA stream without its context");
  return TRUE;
}

static void
pop (GstClCudaExec * self)
{
  self->cu.CtxPopCurrent (NULL);
}

/* ---- Command times (GST_CL_CUDA_COMMAND_TIMES) -------------------------- */

static void take_command_times (GstClCudaExec * self, guint slot, gboolean ok);

static void
command_times_new (GstClCudaExec * self)
{
  guint k;

  for (k = 0; k < GST_CL_CUDA_EXEC_SLOTS; k++)
    self->ends[k] = g_array_new (FALSE, FALSE, sizeof (CommandEnd));
  self->spare_events = g_array_new (FALSE, FALSE, sizeof (CUevent));
  self->command_times = g_hash_table_new_full (NULL, NULL, NULL, g_free);
}

/* Says the times by command, and frees them and their events (where
 * @pushed, in the context; else the events are left). */
static void
command_times_free (GstClCudaExec * self, gboolean pushed)
{
  GHashTableIter iter;
  gpointer what, t;
  guint k;

  if (!self->command_times)
    return;
  g_hash_table_iter_init (&iter, self->command_times);
  while (g_hash_table_iter_next (&iter, &what, &t))
    GST_INFO ("on the GPU, %s: %u times, %.4f ms each, enqueued %.4f ms "
        "after the frame's begin", (const gchar *) what,
        ((CommandTime *) t)->times, ((CommandTime *) t)->ms /
        MAX (((CommandTime *) t)->times, 1), ((CommandTime *) t)->enqueued_ms /
        MAX (((CommandTime *) t)->times, 1));
  for (k = 0; k < GST_CL_CUDA_EXEC_SLOTS; k++) {
    take_command_times (self, k, FALSE);
    g_array_free (self->ends[k], TRUE);
  }
  for (k = 0; pushed && k < self->spare_events->len; k++)
    self->cu.EventDestroy (g_array_index (self->spare_events, CUevent, k));
  g_array_free (self->spare_events, TRUE);
  g_clear_pointer (&self->command_times, g_hash_table_destroy);
}

GstClCudaExec *
gst_cl_cuda_exec_new (CUcontext cuda_context, GstClContext * context,
    GError ** error)
{
  GstClCudaExec *self = g_new0 (GstClCudaExec, 1);
  const gchar *call;
  CUresult status;

  self->cuda_context = cuda_context;
  self->context = gst_object_ref (context);
  self->twins = g_array_new (FALSE, FALSE, sizeof (Twin));
  self->modules = g_array_new (FALSE, FALSE, sizeof (Module));
  self->functions = g_array_new (FALSE, FALSE, sizeof (Function));
  self->reads = g_array_new (FALSE, FALSE, sizeof (Read));
  if (g_strcmp0 (g_getenv ("GST_CL_CUDA_COMMAND_TIMES"), "1") == 0)
    command_times_new (self);
  if (!load_calls (&self->cu, error) ||
      !(self->stand_in[0] = gst_cl_context_create_buffer (context,
              CL_MEM_READ_WRITE, 16, "stand-in", error)) ||
      !(self->stand_in[1] = gst_cl_context_create_buffer (context,
              CL_MEM_READ_WRITE, 16, "stand-in", error)) || !push (self, error))
    goto failed;
  call = "cuStreamCreate";
  status = self->cu.StreamCreate (&self->stream, CU_STREAM_NON_BLOCKING);
  if (status == CUDA_SUCCESS) {
    call = "cuMemAllocHost (pinned memory for reads back)";
    status = self->cu.MemAllocHost ((gpointer *) & self->bounce,
        BOUNCE_BYTES * GST_CL_CUDA_EXEC_SLOTS);
  }
  pop (self);
  if (status == CUDA_SUCCESS)
    return self;
  gst_cl_cuda_set_error (error, status, "%s", call);
failed:
  gst_cl_cuda_exec_free (self);
  return NULL;
}

/* Completes the reads back of the frame in @slot (G_MAXUINT: of every
 * slot), with their data where @ok. */
static void
complete_reads (GstClCudaExec * self, guint slot, gboolean ok)
{
  guint i = 0, k;

  while (i < self->reads->len) {
    Read *r = &g_array_index (self->reads, Read, i);

    if (slot != G_MAXUINT && r->slot != slot) {
      i++;
      continue;
    }
    if (ok && !(r->done && g_atomic_int_get (&r->done->abandoned)))
      gst_cl_copy_host_run (r->host, r->pinned, r->size, FALSE);
    if (r->done) {
      g_atomic_int_set (&r->done->status, ok ? GST_CL_CUDA_READ_DONE :
          GST_CL_CUDA_READ_FAILED);
      g_atomic_rc_box_release (r->done);
    }
    g_array_remove_index (self->reads, i);
  }
  for (k = 0; k < GST_CL_CUDA_EXEC_SLOTS; k++)
    if (slot == G_MAXUINT || slot == k)
      self->bounce_used[k] = 0;
}

/* Records @event (made here at first use, with timing) on @stream, in
 * the pushed context. */
static CUresult
record (GstClCudaExec * self, CUevent * event, CUstream stream)
{
  CUresult status = *event ? CUDA_SUCCESS : self->cu.EventCreate (event, 0);

  return status == CUDA_SUCCESS ? self->cu.EventRecord (*event, stream) :
      status;
}

/* With GST_CL_CUDA_COMMAND_TIMES, marks the end of the command of the
 * frame of @slot just enqueued on @stream, @what (in the pushed context). */
static void
time_command_on (GstClCudaExec * self, guint slot, const gchar * what,
    CUstream stream)
{
  CommandEnd end = { NULL, NULL, 0 };
  GArray *spare = self->spare_events;

  if (!self->command_times || !self->started[slot])
    return;
  end.what = g_intern_string (what);
  end.enqueued = g_get_monotonic_time () - self->began[slot];
  if (spare->len > 0) {
    end.event = g_array_index (spare, CUevent, spare->len - 1);
    g_array_set_size (spare, spare->len - 1);
  } else if (self->cu.EventCreate (&end.event, 0) != CUDA_SUCCESS) {
    return;
  }
  if (self->cu.EventRecord (end.event, stream) == CUDA_SUCCESS)
    g_array_append_val (self->ends[slot], end);
  else
    g_array_append_val (spare, end.event);
}

/* time_command_on() the frame's stream */
static void
time_command (GstClCudaExec * self, guint slot, const gchar * what)
{
  time_command_on (self, slot, what, self->stream);
}

/* Adds each marked command's time (from the end of the one before, or the
 * frame's start) to its total where @ok (in the pushed context), and lets
 * go of the marks. */
static void
take_command_times (GstClCudaExec * self, guint slot, gboolean ok)
{
  GArray *ends = self->ends[slot];
  CUevent before = self->starts[slot];
  CommandTime *t;
  gfloat ms;
  guint i;

  for (i = 0; ends && i < ends->len; i++) {
    CommandEnd *end = &g_array_index (ends, CommandEnd, i);

    if (ok && self->cu.EventElapsedTime (&ms, before, end->event) ==
        CUDA_SUCCESS) {
      if (!(t = g_hash_table_lookup (self->command_times, end->what))) {
        t = g_new0 (CommandTime, 1);
        g_hash_table_insert (self->command_times, (gpointer) end->what, t);
      }
      t->ms += ms;
      t->enqueued_ms += end->enqueued / 1000.0;
      t->times++;
    }
    before = end->event;
    g_array_append_val (self->spare_events, end->event);
  }
  if (ends)
    g_array_set_size (ends, 0);
}

gdouble
gst_cl_cuda_exec_get_command_ms (GstClCudaExec * self, const gchar * what,
    guint * times, gdouble * enqueued_ms)
{
  CommandTime *t = self->command_times ?
      g_hash_table_lookup (self->command_times, g_intern_string (what)) : NULL;

  if (times)
    *times = t ? t->times : 0;
  if (enqueued_ms)
    *enqueued_ms = t ? t->enqueued_ms : 0;
  return t ? t->ms : 0;
}

void
gst_cl_cuda_exec_begin (GstClCudaExec * self, guint slot)
{
  g_return_if_fail (slot < GST_CL_CUDA_EXEC_SLOTS);
  self->slot = slot;
  /* the frame's start: where it cannot be recorded the frame goes without
   * its time (its commands fail on their own if the driver does) */
  self->started[slot] = FALSE;
  self->began[slot] = g_get_monotonic_time ();
  if (push_status (self, NULL) == CUDA_SUCCESS) {
    self->started[slot] =
        record (self, &self->starts[slot], self->stream) == CUDA_SUCCESS;
    pop (self);
  }
}

/* Adds to @device_ms (where not NULL) the time on the GPU of the frame of
 * @slot, which @end (recorded after its commands) and @download (its
 * download's end, if it has one, else NULL) have completed, whichever
 * ended last, in the pushed context; the slot's next frame starts anew. */
static void
take_ms (GstClCudaExec * self, guint slot, CUevent end, CUevent download,
    gdouble * device_ms)
{
  gfloat ms = 0, download_ms = 0;

  if (device_ms && self->started[slot] &&
      self->cu.EventElapsedTime (&ms, self->starts[slot],
          end) == CUDA_SUCCESS) {
    if (download
        && self->cu.EventElapsedTime (&download_ms, self->starts[slot],
            download) == CUDA_SUCCESS)
      ms = MAX (ms, download_ms);
    *device_ms += ms;
  }
  take_command_times (self, slot, device_ms && self->started[slot]);
  self->started[slot] = FALSE;
}

gboolean
gst_cl_cuda_exec_mark (GstClCudaExec * self, GError ** error)
{
  CUresult status;

  if (!push (self, error))
    return FALSE;
  status = record (self, &self->marks[self->slot], self->stream);
  pop (self);
  return status == CUDA_SUCCESS ||
      gst_cl_cuda_set_error (error, status, "cuEventRecord (frame)");
}

/* Waits for the downloads, then the commands: of the frame of @slot (its
 * mark), or of every frame (G_MAXUINT: both streams), even where the push
 * failed with @pushed (an event or a stream needs no current context;
 * may_wait_after()): the frames' memory, pinned memory the copies read or
 * write by DMA, is let go after this. Names the wait that failed. */
static gboolean
wait_frame (GstClCudaExec * self, CUresult pushed, guint slot, GError ** error)
{
  const gchar *call = slot == G_MAXUINT ? "cuStreamSynchronize" :
      "cuEventSynchronize";
  CUresult downloaded = CUDA_SUCCESS, done;

  if (!may_wait_after (pushed))
    return FALSE;
  if (slot == G_MAXUINT && self->out_stream)
    downloaded = self->cu.StreamSynchronize (self->out_stream);
  else if (slot != G_MAXUINT && self->downloaded[slot])
    downloaded = self->cu.EventSynchronize (self->downloads[slot]);
  if (slot == G_MAXUINT)
    memset (self->downloaded, 0, sizeof (self->downloaded));
  else
    self->downloaded[slot] = FALSE;
  done = slot == G_MAXUINT ? self->cu.StreamSynchronize (self->stream) :
      self->cu.EventSynchronize (self->marks[slot]);
  if (pushed != CUDA_SUCCESS)   /* said by the push */
    return FALSE;
  if (downloaded != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, downloaded, "%s (download)", call);
  return done == CUDA_SUCCESS ||
      gst_cl_cuda_set_error (error, done, "%s (frame)", call);
}

gboolean
gst_cl_cuda_exec_wait_mark (GstClCudaExec * self, guint slot,
    gdouble * device_ms, GError ** error)
{
  gint64 began = gst_cl_wait_begin ();
  CUevent download;
  CUresult pushed;
  gboolean ok;

  g_return_val_if_fail (slot < GST_CL_CUDA_EXEC_SLOTS, FALSE);
  if (!self->marks[slot]) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "No frame in flight in CUDA in slot %u", slot);
    take_command_times (self, slot, FALSE);
    self->started[slot] = FALSE;
    complete_reads (self, slot, FALSE);
    return FALSE;
  }
  download = self->downloaded[slot] ? self->downloads[slot] : NULL;
  pushed = push_status (self, error);
  ok = wait_frame (self, pushed, slot, error);
  gst_cl_wait_end (GST_CL_WAIT_SLOT, began);
  take_ms (self, slot, self->marks[slot], download, ok ? device_ms : NULL);
  if (pushed == CUDA_SUCCESS)
    pop (self);
  complete_reads (self, slot, ok);
  return ok;
}

gboolean
gst_cl_cuda_exec_sync (GstClCudaExec * self, gdouble * device_ms,
    GError ** error)
{
  gint64 began = gst_cl_wait_begin ();
  CUresult pushed = push_status (self, error);
  const guint slot = self->slot;
  CUevent download = self->downloaded[slot] ? self->downloads[slot] : NULL;
  gboolean timed = FALSE, ok;

  /* the frame's end, where its time is asked for */
  if (pushed == CUDA_SUCCESS && device_ms && self->started[slot])
    timed = record (self, &self->marks[slot], self->stream) == CUDA_SUCCESS;
  ok = wait_frame (self, pushed, G_MAXUINT, error);
  gst_cl_wait_end (GST_CL_WAIT_FRAME, began);
  if (device_ms)
    take_ms (self, slot, self->marks[slot], download,
        ok && timed ? device_ms : NULL);
  if (pushed == CUDA_SUCCESS)
    pop (self);
  complete_reads (self, G_MAXUINT, ok);
  return ok;
}

/* Frees the memory of @frames, in the pushed context. */
static void
drop_host_frames (GstClCudaExec * self, HostFrames * frames)
{
  guint i;

  for (i = 0; i < GST_CL_CUDA_EXEC_SLOTS; i++) {
    if (frames->device[i])
      self->cu.MemFree (frames->device[i]);
    if (frames->pinned[i])
      self->cu.MemFreeHost (frames->pinned[i]);
  }
  memset (frames, 0, sizeof (*frames));
}

/* Frees the twins, in the pushed context. */
static void
drop_twins (GstClCudaExec * self)
{
  guint i;

  for (i = 0; i < self->twins->len; i++)
    self->cu.MemFree (g_array_index (self->twins, Twin, i).ptr);
  g_array_set_size (self->twins, 0);
}

void
gst_cl_cuda_exec_forget (GstClCudaExec * self)
{
  gst_cl_cuda_exec_sync (self, NULL, NULL);
  if (!push (self, NULL))
    return;
  drop_twins (self);
  pop (self);
}

/* Writes @twin's contents back into its OpenCL buffer, in the pushed
 * context, after the stream's work. */
static gboolean
write_back (GstClCudaExec * self, const Twin * twin)
{
  gpointer contents = g_malloc (twin->size);
  gboolean ok = self->cu.MemcpyDtoH (contents, twin->ptr,
      twin->size) == CUDA_SUCCESS &&
      gst_cl_context_write_buffer (self->context, twin->mem, 0, twin->size,
      contents, "twin", NULL);

  g_free (contents);
  return ok;
}

gboolean
gst_cl_cuda_exec_hand_back (GstClCudaExec * self, GError ** error)
{
  gboolean ok = gst_cl_cuda_exec_sync (self, NULL, error);
  guint i;

  if (!push (self, ok ? error : NULL))
    return FALSE;
  for (i = 0; i < self->twins->len; i++) {
    if (ok && !write_back (self, &g_array_index (self->twins, Twin, i))) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "The DCT stage's state could not be handed back to OpenCL");
      ok = FALSE;
    }
  }
  drop_twins (self);
  pop (self);
  return ok;
}

void
gst_cl_cuda_exec_free (GstClCudaExec * self)
{
  guint i;

  if (!self)
    return;
  if (self->stream)
    gst_cl_cuda_exec_sync (self, NULL, NULL);
  if (self->cu.CtxPushCurrent && push (self, NULL)) {
    drop_twins (self);
    for (i = 0; i < self->modules->len; i++)
      self->cu.ModuleUnload (g_array_index (self->modules, Module, i).module);
    if (self->copy_module)
      self->cu.ModuleUnload (self->copy_module);
    if (self->bounce)
      self->cu.MemFreeHost (self->bounce);
    drop_host_frames (self, &self->host);
    drop_host_frames (self, &self->host_in);
    command_times_free (self, TRUE);
    for (i = 0; i < GST_CL_CUDA_EXEC_SLOTS; i++) {
      if (self->marks[i])
        self->cu.EventDestroy (self->marks[i]);
      if (self->starts[i])
        self->cu.EventDestroy (self->starts[i]);
      if (self->downloads[i])
        self->cu.EventDestroy (self->downloads[i]);
    }
    if (self->commands_done)
      self->cu.EventDestroy (self->commands_done);
    if (self->out_stream)
      self->cu.StreamDestroy (self->out_stream);
    if (self->stream)
      self->cu.StreamDestroy (self->stream);
    pop (self);
  }
  command_times_free (self, FALSE);     /* where the push failed */
  g_array_free (self->twins, TRUE);
  g_array_free (self->modules, TRUE);
  g_array_free (self->functions, TRUE);
  g_array_free (self->reads, TRUE);
  gst_cl_context_release_buffer (self->context, self->stand_in[0]);
  gst_cl_context_release_buffer (self->context, self->stand_in[1]);
  gst_object_unref (self->context);
  g_free (self);
}

CUcontext
gst_cl_cuda_exec_get_context (GstClCudaExec * self)
{
  return self->cuda_context;
}

CUstream
gst_cl_cuda_exec_get_stream (GstClCudaExec * self)
{
  return self->stream;
}

cl_mem
gst_cl_cuda_exec_bind (GstClCudaExec * self, guint which, CUdeviceptr ptr)
{
  g_return_val_if_fail (which < G_N_ELEMENTS (self->stand_in), NULL);
  self->bound[which] = ptr;
  return self->stand_in[which];
}

/* ---- Memory -------------------------------------------------------------- */

/* Has the executor's stream wait for what the legacy default stream holds
 * now, in the pushed context; the call that failed in @call. */
static CUresult
wait_for_legacy_stream (GstClCudaExec * self, const gchar ** call)
{
  CUevent landed = NULL;
  CUresult status;

  *call = "cuEventCreate (twin)";
  status = self->cu.EventCreate (&landed, CU_EVENT_DISABLE_TIMING);
  if (status == CUDA_SUCCESS) {
    *call = "cuEventRecord (twin)";
    status = self->cu.EventRecord (landed, NULL);
  }
  if (status == CUDA_SUCCESS) {
    *call = "cuStreamWaitEvent (twin)";
    status = self->cu.StreamWaitEvent (self->stream, landed, 0);
  }
  /* a wait enqueued keeps what it waits for */
  if (landed)
    self->cu.EventDestroy (landed);
  return status;
}

/* A twin of @mem in the pushed context, with its contents. A synchronous
 * cuMemcpyHtoD from pageable memory returns once its source is staged,
 * its DMA still on the legacy default stream, which the executor's stream
 * (CU_STREAM_NON_BLOCKING) does not wait for: it is made to, or its
 * kernels could read the twin before the contents land (strength=auto's
 * state, on a stream's first frame). */
static gboolean
make_twin (GstClCudaExec * self, cl_mem mem, Twin * twin, GError ** error)
{
  const gchar *call = "cuMemAlloc (twin)";
  gpointer contents;
  CUresult status;

  twin->mem = mem;
  if (!gst_cl_context_get_buffer_size (self->context, mem, &twin->size, error))
    return FALSE;
  contents = g_malloc (twin->size);
  if (!gst_cl_context_read_buffer (self->context, mem, 0, twin->size,
          contents, "twin", error)) {
    g_free (contents);
    return FALSE;
  }
  status = self->cu.MemAlloc (&twin->ptr, twin->size);
  if (status == CUDA_SUCCESS) {
    call = "cuMemcpyHtoD (twin)";
    status = self->cu.MemcpyHtoD (twin->ptr, contents, twin->size);
    if (status == CUDA_SUCCESS)
      status = wait_for_legacy_stream (self, &call);
    if (status != CUDA_SUCCESS) {
      /* not freed under the copy */
      self->cu.StreamSynchronize (NULL);
      self->cu.MemFree (twin->ptr);
    }
  }
  g_free (contents);
  return status == CUDA_SUCCESS ||
      gst_cl_cuda_set_error (error, status, "%s", call);
}

/* The device address of @mem (a stand-in, or an OpenCL buffer's twin, made
 * at first use), in the pushed context; 0 for NULL. */
static gboolean
resolve (GstClCudaExec * self, cl_mem mem, CUdeviceptr * ptr, GError ** error)
{
  Twin twin;
  guint i;

  *ptr = 0;
  if (!mem)
    return TRUE;
  for (i = 0; i < G_N_ELEMENTS (self->stand_in); i++) {
    if (mem == self->stand_in[i]) {
      *ptr = self->bound[i];
      return TRUE;
    }
  }
  for (i = 0; i < self->twins->len; i++) {
    Twin *t = &g_array_index (self->twins, Twin, i);
    gsize size = 0;

    if (t->mem != mem)
      continue;
    /* a buffer freed and made anew (a larger scratch) may come back at the
     * same address: its twin is taken anew where its size differs */
    if (gst_cl_context_get_buffer_size (self->context, mem, &size, NULL) &&
        size == t->size) {
      *ptr = t->ptr;
      return TRUE;
    }
    self->cu.MemFree (t->ptr);
    g_array_remove_index_fast (self->twins, i);
    break;
  }
  if (!make_twin (self, mem, &twin, error))
    return FALSE;
  g_array_append_val (self->twins, twin);
  *ptr = twin.ptr;
  return TRUE;
}

/* Pushes the context and resolves @mem (resolve()): TRUE with the context
 * pushed, else FALSE with @error set and nothing pushed. */
static gboolean
push_resolved (GstClCudaExec * self, cl_mem mem, CUdeviceptr * ptr,
    GError ** error)
{
  if (!push (self, error))
    return FALSE;
  if (resolve (self, mem, ptr, error))
    return TRUE;
  pop (self);
  return FALSE;
}

/* ---- Kernels ------------------------------------------------------------- */

/* The module of @program, loaded at first use, in the pushed context. */
static gboolean
module_of (GstClCudaExec * self, GstClProgram * program, CUmodule * module,
    GError ** error)
{
  Module m = { program, NULL };
  gchar *ptx, *cuda_ptx = NULL;
  CUresult status;
  guint i;

  for (i = 0; i < self->modules->len; i++) {
    if (g_array_index (self->modules, Module, i).program == program) {
      *module = g_array_index (self->modules, Module, i).module;
      return TRUE;
    }
  }
  ptx = gst_cl_program_get_ptx (program, error);
  if (ptx)
    cuda_ptx = gst_cl_ptx_for_cuda (ptx, error);
  g_free (ptx);
  if (!cuda_ptx)
    return FALSE;
  status = self->cu.ModuleLoadData (&m.module, cuda_ptx);
  g_free (cuda_ptx);
  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "cuModuleLoadData");
  g_array_append_val (self->modules, m);
  *module = m.module;
  return TRUE;
}

/* The function of @kernel, found at first use, in the pushed context. */
static Function *
function_of (GstClCudaExec * self, GstClKernel * kernel, GError ** error)
{
  Function f = { kernel, NULL, 0 };
  const gchar *name = gst_cl_kernel_get_name (kernel);
  CUmodule module = NULL;
  CUresult status;
  guint i;

  for (i = 0; i < self->functions->len; i++) {
    if (g_array_index (self->functions, Function, i).kernel == kernel)
      return &g_array_index (self->functions, Function, i);
  }
  if (!gst_cl_kernel_get_n_args (kernel, &f.n_args, error) ||
      !module_of (self, gst_cl_kernel_get_program (kernel), &module, error))
    return NULL;
  status = self->cu.ModuleGetFunction (&f.function, module, name);
  if (status != CUDA_SUCCESS) {
    gst_cl_cuda_set_error (error, status, "cuModuleGetFunction (%s)", name);
    return NULL;
  }
  g_array_append_val (self->functions, f);
  return &g_array_index (self->functions, Function, self->functions->len - 1);
}

/* The parameters of a launch of @f from @args: values in place, buffers
 * as device addresses in @ptrs, local memory as the dynamic shared bytes
 * (@shared). In the pushed context. */
static gboolean
launch_params (GstClCudaExec * self, const Function * f,
    const GstClArgs * args, gpointer * params, CUdeviceptr * ptrs,
    guint * shared, const gchar * what, GError ** error)
{
  guint i;

  *shared = 0;
  for (i = 0; i < f->n_args; i++) {
    const GstClArgValue *v = &args->values[i];
    cl_mem mem;

    if (i >= GST_CL_ARGS_MAX || !(args->set & (1u << i))) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "Kernel %s: argument %u was not recorded for CUDA", what, i);
      return FALSE;
    }
    ptrs[i] = 0;
    params[i] = &ptrs[i];
    if (v->local) {
      *shared = v->size;
    } else if (v->mem) {
      memcpy (&mem, v->value.bytes, sizeof (mem));
      if (!resolve (self, mem, &ptrs[i], error))
        return FALSE;
    } else {
      params[i] = (gpointer) v->value.bytes;
    }
  }
  if (*shared > MAX_SHARED_BYTES) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "Kernel %s: %u bytes of local memory", what, *shared);
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cl_cuda_exec_launch (GstClCudaExec * self, GstClKernel * kernel,
    const GstClArgs * args, const size_t global[2], const size_t local[2],
    const gchar * what, GError ** error)
{
  gpointer params[GST_CL_ARGS_MAX];
  CUdeviceptr ptrs[GST_CL_ARGS_MAX];
  CUresult status;
  Function *f;
  guint shared;

  what = what ? what : "kernel";
  if (!args) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "Kernel %s: no arguments recorded for CUDA", what);
    return FALSE;
  }
  if (!push (self, error))
    return FALSE;
  if (!(f = function_of (self, kernel, error)) ||
      !launch_params (self, f, args, params, ptrs, &shared, what, error)) {
    pop (self);
    return FALSE;
  }
  status = self->cu.LaunchKernel (f->function, global[0] / local[0],
      global[1] / local[1], 1, local[0], local[1], 1, shared, self->stream,
      params, NULL);
  if (status == CUDA_SUCCESS)
    time_command (self, self->slot, what);
  pop (self);
  return status == CUDA_SUCCESS ||
      gst_cl_cuda_set_error (error, status, "cuLaunchKernel (%s)", what);
}

/* ---- Fills, copies, reads ------------------------------------------------ */

gboolean
gst_cl_cuda_exec_fill (GstClCudaExec * self, cl_mem mem, const void *pattern,
    gsize pattern_size, gsize offset, gsize size, const gchar * what,
    GError ** error)
{
  CUresult status = CUDA_ERROR_INVALID_VALUE;
  CUdeviceptr ptr;
  guint32 word;

  if (!push_resolved (self, mem, &ptr, error))
    return FALSE;
  if (pattern_size == 1) {
    status = self->cu.MemsetD8Async (ptr + offset, *(const guint8 *) pattern,
        size, self->stream);
  } else if (pattern_size == 4 && (offset | size) % 4 == 0) {
    memcpy (&word, pattern, 4);
    status = self->cu.MemsetD32Async (ptr + offset, word, size / 4,
        self->stream);
  }
  if (status == CUDA_SUCCESS)
    time_command (self, self->slot, what ? what : "fill");
  pop (self);
  return status == CUDA_SUCCESS ||
      gst_cl_cuda_set_error (error, status, "cuMemsetAsync");
}

gboolean
gst_cl_cuda_exec_copy (GstClCudaExec * self, cl_mem src, gsize src_offset,
    gsize src_pitch, cl_mem dst, gsize dst_offset, gsize dst_pitch,
    gsize row_bytes, gsize height, GError ** error)
{
  CUDA_MEMCPY2D copy = {
    .srcMemoryType = CU_MEMORYTYPE_DEVICE,.srcPitch = src_pitch,
    .dstMemoryType = CU_MEMORYTYPE_DEVICE,.dstPitch = dst_pitch,
    .WidthInBytes = row_bytes,.Height = height
  };
  CUresult status;

  if (!push_resolved (self, src, &copy.srcDevice, error))
    return FALSE;
  if (!resolve (self, dst, &copy.dstDevice, error)) {
    pop (self);
    return FALSE;
  }
  copy.srcDevice += src_offset;
  copy.dstDevice += dst_offset;
  status = self->cu.Memcpy2DAsync (&copy, self->stream);
  if (status == CUDA_SUCCESS)
    time_command (self, self->slot, "copy");
  pop (self);
  return status == CUDA_SUCCESS ||
      gst_cl_cuda_set_error (error, status, "cuMemcpy2DAsync (plane)");
}

/* The reads back go by a kernel of ours, whose threads store the words
 * into the slot's pinned memory (at the same address on the device: all
 * of cuMemAllocHost's is, with unified addressing), not by
 * cuMemcpyDtoHAsync. Where processes share the GPU by time slices, a
 * command that follows a copy to the host on the stream waits for the
 * context's next turn (1.2 ms a frame at 8 processes of 1080p: the
 * frame's next fill took it), and a copy on a stream of its own waits as
 * long for its own; stores from a kernel wait for nothing. PTX, which the
 * driver compiles for its GPU; word i by thread i of the grid, then
 * i + the grid's threads, ... */
/* *INDENT-OFF* */
static const gchar copy_words_ptx[] =
    ".version 6.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry gst_cl_copy_words (.param .u64 p_dst,\n"
    "    .param .u64 p_src, .param .u32 p_n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<7>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_dst];\n"
    "  ld.param.u64 %rd2, [p_src];\n"
    "  ld.param.u32 %r1, [p_n];\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r2, %r2, %r3, %r4;\n"
    "  mov.u32 %r5, %nctaid.x;\n"
    "  mul.lo.s32 %r3, %r5, %r3;\n"
    "$L_next:\n"
    "  setp.ge.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra $L_done;\n"
    "  mul.wide.u32 %rd5, %r2, 4;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u32 %r6, [%rd6];\n"
    "  add.s64 %rd7, %rd3, %rd5;\n"
    "  st.global.u32 [%rd7], %r6;\n"
    "  add.s32 %r2, %r2, %r3;\n"
    "  bra.uni $L_next;\n"
    "$L_done:\n"
    "  ret;\n"
    "}\n";
/* *INDENT-ON* */

/* Whether @status says that the PTX itself cannot load here (not a
 * failure that may pass, as memory short). */
static gboolean
ptx_refused (CUresult status)
{
  switch (status) {
    case 200:                  /* CUDA_ERROR_INVALID_IMAGE */
    case 209:                  /* CUDA_ERROR_NO_BINARY_FOR_GPU */
    case 218:                  /* CUDA_ERROR_INVALID_PTX */
    case 221:                  /* CUDA_ERROR_JIT_COMPILER_NOT_FOUND */
    case 222:                  /* CUDA_ERROR_UNSUPPORTED_PTX_VERSION */
    case 500:                  /* CUDA_ERROR_NOT_FOUND */
      return TRUE;
  }
  return FALSE;
}

/* Whether the kernels reach the pinned memory at its host address (in the
 * pushed context): a 64-bit process, and the driver says so of the bounce
 * buffer. */
static gboolean
host_address_on_device (GstClCudaExec * self)
{
  CUresult (*device_pointer) (CUdeviceptr * ptr, gpointer host, guint flags);
  CUdeviceptr ptr = 0;

  if (GLIB_SIZEOF_VOID_P != 8)
    return FALSE;
  device_pointer = gst_cl_cuda_symbol ("cuMemHostGetDevicePointer_v2");
  return device_pointer && device_pointer (&ptr, self->bounce, 0) ==
      CUDA_SUCCESS && ptr == (CUdeviceptr) (guintptr) self->bounce;
}

/* copy_words_ptx's kernel, loaded at first use in the pushed context;
 * NULL where it cannot be (for good where the process or the PTX does not
 * suit the driver, said once: the copies go by DMA then). */
static CUfunction
copy_words (GstClCudaExec * self)
{
  CUresult status;

  if (self->copy_words || self->copy_words_failed)
    return self->copy_words;
  if (!host_address_on_device (self)) {
    GST_WARNING ("reads back by DMA: pinned memory is not at its host "
        "address on the device");
    self->copy_words_failed = TRUE;
    return NULL;
  }
  status = self->cu.ModuleLoadData (&self->copy_module, copy_words_ptx);
  if (status == CUDA_SUCCESS) {
    status = self->cu.ModuleGetFunction (&self->copy_words,
        self->copy_module, "gst_cl_copy_words");
    if (status != CUDA_SUCCESS) {
      self->cu.ModuleUnload (self->copy_module);
      self->copy_module = NULL;
      self->copy_words = NULL;
    }
  }
  if (status != CUDA_SUCCESS && ptx_refused (status)) {
    GST_WARNING ("reads back by DMA: the copy kernel does not load (CUDA "
        "error %d)", status);
    self->copy_words_failed = TRUE;
  } else if (status != CUDA_SUCCESS) {
    GST_INFO ("this read back by DMA: the copy kernel did not load (CUDA "
        "error %d)", status);
  }
  return self->copy_words;
}

/* Enqueues the copy of @size bytes from @src to @dst (device addresses,
 * pinned host memory's included) by copy_words(); where the copy is not
 * of whole words or the kernel cannot load, by DMA to @host (@dst on the
 * host). @call says which call it was. */
static CUresult
enqueue_copy_words (GstClCudaExec * self, CUdeviceptr dst, CUdeviceptr src,
    gsize size, gpointer host, const gchar ** call)
{
  guint32 words = size / 4;
  gpointer params[] = { &dst, &src, &words };
  CUfunction f;

  if ((dst | src | size) % 4 != 0 || size == 0 || size / 4 > COPY_WORDS ||
      !(f = copy_words (self))) {
    *call = "cuMemcpyDtoHAsync";
    return self->cu.MemcpyDtoHAsync (host, src, size, self->stream);
  }
  *call = "cuLaunchKernel";
  return self->cu.LaunchKernel (f, MIN ((words + COPY_THREADS - 1) /
          COPY_THREADS, COPY_BLOCKS), 1, 1, COPY_THREADS, 1, 1, 0,
      self->stream, params, NULL);
}

GstClCudaReadStatus
gst_cl_cuda_read_status (GstClCudaRead * read)
{
  return g_atomic_int_get (&read->status);
}

void
gst_cl_cuda_read_unref (GstClCudaRead * read)
{
  g_atomic_int_set (&read->abandoned, TRUE);
  g_atomic_rc_box_release (read);
}

gboolean
gst_cl_cuda_exec_read (GstClCudaExec * self, cl_mem mem, gsize offset,
    gsize size, gpointer host, GstClCudaRead ** done, GError ** error)
{
  gsize used = self->bounce_used[self->slot];
  Read r = { host, self->slot,
    self->bounce + self->slot * BOUNCE_BYTES + used, size, NULL
  };
  const gchar *call = NULL;
  CUresult status;
  CUdeviceptr ptr;

  if (size > BOUNCE_BYTES - used) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "More than %u bytes read back in one frame", BOUNCE_BYTES);
    return FALSE;
  }
  if (!push_resolved (self, mem, &ptr, error))
    return FALSE;
  status = enqueue_copy_words (self, (CUdeviceptr) (guintptr) r.pinned,
      ptr + offset, size, (gpointer) r.pinned, &call);
  if (status == CUDA_SUCCESS)
    time_command (self, self->slot, "read back");
  pop (self);
  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "%s (read back)", call);
  r.done = g_atomic_rc_box_new0 (GstClCudaRead);
  *done = g_atomic_rc_box_acquire (r.done);
  self->bounce_used[r.slot] += GST_ROUND_UP_8 (size);
  g_array_append_val (self->reads, r);
  return TRUE;
}

/* ---- Frames into system memory ------------------------------------------ */

/* @slot's device memory of @frames, of @size bytes at least, and where
 * @bounce its pinned memory (the slot's last frame has been waited for,
 * its download included), in the pushed context; @call names the call
 * that failed. */
static CUresult
host_memory_alloc (GstClCudaExec * self, HostFrames * frames, guint slot,
    gsize size, gboolean bounce, const gchar ** call)
{
  CUresult status = CUDA_SUCCESS;

  *call = "cuMemAlloc";
  if (frames->size[slot] < size) {
    if (frames->device[slot])
      self->cu.MemFree (frames->device[slot]);
    frames->device[slot] = 0;
    frames->size[slot] = 0;
    status = self->cu.MemAlloc (&frames->device[slot], size);
    if (status != CUDA_SUCCESS)
      return status;
    frames->size[slot] = size;
  }
  if (!bounce || frames->pinned_size[slot] >= size)
    return CUDA_SUCCESS;
  if (frames->pinned[slot])
    self->cu.MemFreeHost (frames->pinned[slot]);
  frames->pinned[slot] = NULL;
  frames->pinned_size[slot] = 0;
  *call = "cuMemAllocHost";
  status = self->cu.MemAllocHost ((gpointer *) & frames->pinned[slot], size);
  if (status == CUDA_SUCCESS)
    frames->pinned_size[slot] = size;
  return status;
}

/* host_memory_alloc(), which is not tried again once it failed (the
 * frames go through OpenCL instead, or without OpenCL are refused:
 * gst_cl_frame_open_host_on_cuda()); frames->failed_call names the call
 * that failed. */
static CUresult
host_memory (GstClCudaExec * self, HostFrames * frames, guint slot,
    gsize size, gboolean bounce)
{
  if (frames->failed != CUDA_SUCCESS)
    return frames->failed;
  frames->failed = host_memory_alloc (self, frames, slot, size, bounce,
      &frames->failed_call);
  if (frames->failed != CUDA_SUCCESS)
    GST_WARNING ("no memory for frames in system memory (%s, CUDA error "
        "%d)%s", frames->failed_call, frames->failed,
        gst_cl_context_has_opencl (self->context) ?
        ": they go through OpenCL" : "");
  return frames->failed;
}

cl_mem
gst_cl_cuda_exec_bind_host_frame (GstClCudaExec * self, guint which,
    guint slot, gsize size, gboolean pinned, GError ** error)
{
  CUresult status;

  g_return_val_if_fail (slot < GST_CL_CUDA_EXEC_SLOTS, NULL);
  if (!push (self, error))
    return NULL;
  status = host_memory (self, &self->host, slot, size, !pinned);
  pop (self);
  if (status != CUDA_SUCCESS) {
    gst_cl_cuda_set_error (error, status, "%s (frame for system memory)",
        self->host.failed_call);
    return NULL;
  }
  return gst_cl_cuda_exec_bind (self, which, self->host.device[slot]);
}

/* Enqueues the copy of @size bytes from @src to @host on out_stream (made
 * at the first) after the commands so far on the stream, and records the
 * slot's download after it, in the pushed context; @call names the call
 * that failed. */
static CUresult
enqueue_download (GstClCudaExec * self, gpointer host, CUdeviceptr src,
    gsize size, const gchar ** call)
{
  const guint slot = self->slot;
  CUresult status = CUDA_SUCCESS;

  self->downloaded[slot] = FALSE;
  *call = "cuStreamCreate";
  if (!self->out_stream)
    status = self->cu.StreamCreate (&self->out_stream, CU_STREAM_NON_BLOCKING);
  if (status != CUDA_SUCCESS)
    return status;
  *call = "cuEventRecord";
  if (!self->commands_done)
    status = self->cu.EventCreate (&self->commands_done,
        CU_EVENT_DISABLE_TIMING);
  if (status == CUDA_SUCCESS)
    status = self->cu.EventRecord (self->commands_done, self->stream);
  if (status != CUDA_SUCCESS)
    return status;
  *call = "cuStreamWaitEvent";
  status = self->cu.StreamWaitEvent (self->out_stream, self->commands_done, 0);
  if (status != CUDA_SUCCESS)
    return status;
  *call = "cuMemcpyDtoHAsync";
  status = self->cu.MemcpyDtoHAsync (host, src, size, self->out_stream);
  if (status != CUDA_SUCCESS)
    return status;
  *call = "cuEventRecord";
  status = record (self, &self->downloads[slot], self->out_stream);
  if (status != CUDA_SUCCESS) {
    /* nothing would wait for the copy, which writes the frame: now */
    self->cu.StreamSynchronize (self->out_stream);
    return status;
  }
  self->downloaded[slot] = TRUE;
  time_command_on (self, slot, "download", self->out_stream);
  return status;
}

gboolean
gst_cl_cuda_exec_download (GstClCudaExec * self, gpointer host, gsize size,
    gboolean pinned, GError ** error)
{
  const gchar *call;
  const guint slot = self->slot;
  Read r = { host, slot, self->host.pinned[slot], size, NULL };
  CUresult status;

  if (size > self->host.size[slot] || (!pinned &&
          size > self->host.pinned_size[self->slot])) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "No frame of %" G_GSIZE_FORMAT " bytes in slot %u to read back", size,
        self->slot);
    return FALSE;
  }
  if (!push (self, error))
    return FALSE;
  /* after the frame's commands, on out_stream: into pinned host memory at
   * once, by DMA; else through the slot's */
  status = enqueue_download (self, pinned ? host : (gpointer) r.pinned,
      self->host.device[slot], size, &call);
  pop (self);
  if (status != CUDA_SUCCESS)
    return gst_cl_cuda_set_error (error, status, "%s (download)", call);
  if (!pinned)
    g_array_append_val (self->reads, r);
  return TRUE;
}

cl_mem
gst_cl_cuda_exec_upload_host_frame (GstClCudaExec * self, guint which,
    guint slot, gconstpointer host, gsize size, gboolean pinned,
    GError ** error)
{
  HostFrames *frames = &self->host_in;
  const gchar *call;
  CUresult status;

  g_return_val_if_fail (slot < GST_CL_CUDA_EXEC_SLOTS, NULL);
  if (!push (self, error))
    return NULL;
  status = host_memory (self, frames, slot, size, !pinned);
  call = status == CUDA_SUCCESS ? "cuMemcpyHtoDAsync" : frames->failed_call;
  if (status == CUDA_SUCCESS && pinned) {
    /* by DMA from where it is: the caller keeps it until the frame is
     * done */
    status = self->cu.MemcpyHtoDAsync (frames->device[slot], host, size,
        self->stream);
  } else if (status == CUDA_SUCCESS) {
    /* the slot's last frame has been waited for: its copy is done */
    gst_cl_copy_host_run (frames->pinned[slot], host, size, TRUE);
    status = self->cu.MemcpyHtoDAsync (frames->device[slot],
        frames->pinned[slot], size, self->stream);
  }
  pop (self);
  if (status != CUDA_SUCCESS) {
    gst_cl_cuda_set_error (error, status, "%s (frame from system memory)",
        call);
    return NULL;
  }
  return gst_cl_cuda_exec_bind (self, which, frames->device[slot]);
}
