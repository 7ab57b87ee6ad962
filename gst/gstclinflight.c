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

/* Frames in flight: the slots, the three queues of a frame, retiring and
 * draining, and where the failures of frames that left the element are
 * raised (gstclinflight-private.h). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcldebug-private.h"
#include "gstclinflight-private.h"
#include "gstclwaits-private.h"
#include "gstclerror-private.h"
#include "gstclmemory-private.h"
#include "gstclcudasync-private.h"

#define GST_CAT_DEFAULT gst_cl_in_flight_debug

/* An input that the device reads where it is, in system memory the driver
 * holds pinned (GstClFrame.host_pinned): let go of by a thread that waits
 * for its frame's last command, so that upstream has it back without
 * waiting for this element's next frame (its pool may have no other
 * buffer: a wait there for ours would never end). The slot's retire lets
 * go of it instead where no thread has yet, or waits until one has. (An
 * event callback instead of the waiting thread made NVIDIA's 1080p frames
 * slower still: see the commit that made this.) */
typedef struct
{
  GstClFrame in;                /* open, its buffer referenced */
  /* the frames' queues (retained), finished first where the frame failed:
   * its other commands may still read the input */
  cl_command_queue queues[3];
  cl_event done;                /* the frame's last command */
  gint claimed;
  gint refs;
  /* under lock */
  gboolean closed;
  GMutex lock;
  GCond cond;
} GstClInputRelease;

/* What one frame in flight holds until it completes. */
typedef struct
{
  cl_event done;                /* its last command; NULL when idle */
  GstClEvents events;           /* its kernels, for their times */
  GstClFrame in;                /* read by commands still in flight: open,
                                 * its buffer referenced */
  gboolean in_open;
  GstClInputRelease *release;   /* or, read where it is, handed to a
                                 * thread to close (release_when_done()) */
  GstClFrame out;               /* an imported CUDA output (any output with
                                 * GST_CL_HOLD_FRAMES=1), open and its
                                 * buffer referenced, copied back once done */
  gboolean out_open;
  GError *commit_error;         /* where its copy back failed to start */
  /* the pool and buffer of a CUDA input's copy in, checked once done */
  GstClCudaImport *copied_in;
  guint copied_in_slot;
  /* where its commands ran in CUDA instead: their end marked there (not
   * owned; @done is then NULL) */
  GstClCudaExec *cuda;
} GstClSlot;

G_STATIC_ASSERT (GST_CL_IN_FLIGHT_MAX_DEPTH <= GST_CL_CUDA_EXEC_SLOTS);

struct _GstClInFlight
{
  GstClContext *context;
  guint depth;
  cl_command_queue compute;     /* the context's */
  cl_command_queue async_up, async_down;
  GstClSlot slots[GST_CL_IN_FLIGHT_MAX_DEPTH];
  guint next;                   /* the slot of the next frame */
  GstClFaults *faults;
  gboolean hold_cuda;           /* CUDA outputs may be left in flight */
  gboolean hold_all;            /* and every output left in flight is held
                                 * (GST_CL_HOLD_FRAMES=1, for the tests) */
  guint64 cuda_bytes;           /* copied back since last taken */
  gdouble retired_ms;           /* kernels of frames completed between
                                 * frames, for the next one's figures */
};

/* The upload and download queues of frames in flight. */
static gboolean
create_queues (GstClInFlight * self, GError ** error)
{
  cl_context handle = gst_cl_context_get_handle (self->context);
  cl_device_id device = gst_cl_context_get_device (self->context);
  cl_int status;

  /* without OpenCL, frames go on CUDA streams alone */
  if (self->depth == 1 || !gst_cl_context_has_opencl (self->context))
    return TRUE;
  self->async_up = clCreateCommandQueue (handle, device, 0, &status);
  if (status == CL_SUCCESS)
    self->async_down = clCreateCommandQueue (handle, device, 0, &status);
  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clCreateCommandQueue (frames "
        "in flight)");
  return TRUE;
}

GstClInFlight *
gst_cl_in_flight_new (GstClContext * context, guint depth, GError ** error)
{
  GstClInFlight *self = g_new0 (GstClInFlight, 1);

  gst_cl_debug_init ();
  self->context = gst_object_ref (context);
  self->compute = gst_cl_context_get_queue (context);
  /* Frames in flight overlap transfers on a discrete GPU. Where kernels
   * work on the frames in place, one frame at a time by default; with SVM
   * frames a depth asked for overlaps a frame's launch and wait with the
   * next one's kernel, which paid on 2 cores and not on 16 (PoCL, commit
   * cbd214f); without SVM the CPU's maps would wait anyway. */
  self->depth = gst_cl_context_is_host_unified (context) &&
      (depth == 0 || !gst_cl_context_has_fine_svm (context)) ? 1 :
      depth == 0 ? GST_CL_IN_FLIGHT_AUTO_DEPTH :
      MIN (depth, GST_CL_IN_FLIGHT_MAX_DEPTH);
  GST_DEBUG ("%u frames in flight", self->depth);
  if (create_queues (self, error))
    return self;
  gst_cl_in_flight_free (self);
  return NULL;
}

guint
gst_cl_in_flight_get_depth (GstClInFlight * self)
{
  return self->depth;
}

/* The outcome of @event's command in @outcome (CL_COMPLETE, or the
 * failure it ended with, negative); returns the status of the query. */
static cl_int
event_outcome (cl_event event, cl_int * outcome)
{
  *outcome = CL_COMPLETE;
  return clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS,
      sizeof (*outcome), outcome, NULL);
}

/* Waits for @done, a frame's last command: TRUE where it completed, FALSE
 * where it or the wait failed (a wait may return CL_SUCCESS after a failed
 * command: PoCL's does). */
static gboolean
frame_waited (cl_event done)
{
  cl_int outcome;

  return clWaitForEvents (1, &done) == CL_SUCCESS &&
      event_outcome (done, &outcome) == CL_SUCCESS && outcome == CL_COMPLETE;
}

/* FALSE with @error set where the copy of CUDA input @cuda into the buffer
 * of @slot failed (its commands read what it left there): once they are
 * done. TRUE for no CUDA input (@cuda NULL). */
static gboolean
cuda_copied_in (GstClCudaImport * cuda, guint slot, GError ** error)
{
  return !cuda || gst_cl_cuda_pool_copied_in (gst_cl_cuda_import_get_pool
      (cuda), slot, error);
}

/* Copies the imported CUDA output that @slot holds, if any, back into its
 * buffer (its commands are done), or waits for the copy that
 * gst_cl_in_flight_poll() started, and lets go of it; @error NULL: a
 * command failed, or nobody is told (a drain after a flush), and the
 * output is let go of unwritten (a copy started is still waited for). */
static gboolean
commit_output (GstClInFlight * self, GstClSlot * slot, GError ** error)
{
  GstBuffer *buffer = slot->out.buffer;
  GError *wait_error = NULL;
  gboolean ok;

  if (!slot->out_open)
    return TRUE;
  if (slot->out.commit_started) {
    /* what was enqueued is waited for, whatever failed before */
    ok = gst_cl_frame_commit (&slot->out, &wait_error) &&
        slot->commit_error == NULL;
    if (slot->commit_error)
      g_propagate_error (error, g_steal_pointer (&slot->commit_error));
    else if (wait_error)
      g_propagate_error (error, g_steal_pointer (&wait_error));
    g_clear_error (&wait_error);
  } else {
    ok = error == NULL || gst_cl_frame_commit (&slot->out, error);
  }
  self->cuda_bytes += slot->out.cuda_bytes;
  gst_cl_frame_close (&slot->out);
  gst_buffer_unref (buffer);
  slot->out_open = FALSE;
  return ok;
}

static void
input_release_unref (GstClInputRelease * release)
{
  guint i;

  if (!g_atomic_int_dec_and_test (&release->refs))
    return;
  clReleaseEvent (release->done);
  /* never claimed: the frame's queues, retained, still held */
  for (i = 0; i < G_N_ELEMENTS (release->queues); i++)
    if (release->queues[i])
      clReleaseCommandQueue (release->queues[i]);
  g_mutex_clear (&release->lock);
  g_cond_clear (&release->cond);
  g_free (release);
}

/* Closes @release's input, its frame done (after the frames' queues where
 * it @failed), unless another has claimed it; lets go of the queues then,
 * so that nothing of the element's outlives its retire of the slot. */
static void
input_release_run (GstClInputRelease * release, gboolean failed)
{
  GstBuffer *buffer = release->in.buffer;
  guint i;

  if (!g_atomic_int_compare_and_exchange (&release->claimed, 0, 1))
    return;
  for (i = 0; failed && i < G_N_ELEMENTS (release->queues); i++)
    if (release->queues[i])
      clFinish (release->queues[i]);
  gst_cl_frame_close (&release->in);
  gst_buffer_unref (buffer);
  for (i = 0; i < G_N_ELEMENTS (release->queues); i++)
    if (release->queues[i])
      clReleaseCommandQueue (g_steal_pointer (&release->queues[i]));
  g_mutex_lock (&release->lock);
  release->closed = TRUE;
  g_cond_broadcast (&release->cond);
  g_mutex_unlock (&release->lock);
}

static void
input_release_thread (gpointer data, gpointer user_data)
{
  GstClInputRelease *release = data;

  input_release_run (release, !frame_waited (release->done));
  input_release_unref (release);
}

/* The pool of threads that let go of inputs read where they are, made on
 * first use and kept for the process (GLib's shared threads), as many as
 * frames wait (each waits for its own: at most the frames in flight of
 * each element). */
static GThreadPool *
release_pool (void)
{
  static GThreadPool *pool;
  static gsize made;

  if (g_once_init_enter (&made)) {
    pool = g_thread_pool_new (input_release_thread, NULL, -1, FALSE, NULL);
    g_once_init_leave (&made, 1);
  }
  return pool;
}

static void let_input_go (GstClSlot * slot, gboolean failed);

/* Hands @in, read where it is by the frame whose last command is @slot's
 * done, to be let go of once that is done. */
static void
release_when_done (GstClInFlight * self, GstClSlot * slot, GstClFrame * in)
{
  GstClInputRelease *release = g_new0 (GstClInputRelease, 1);
  const cl_command_queue queues[3] = { self->async_up, self->compute,
    self->async_down
  };
  guint i;

  release->in = *in;
  gst_buffer_ref (in->buffer);
  for (i = 0; i < G_N_ELEMENTS (queues); i++)
    if ((release->queues[i] = queues[i]))
      clRetainCommandQueue (queues[i]);
  release->refs = 2;
  release->done = slot->done;
  clRetainEvent (release->done);
  g_mutex_init (&release->lock);
  g_cond_init (&release->cond);
  slot->release = release;
  if (g_thread_pool_push (release_pool (), release, NULL))
    return;
  /* no thread could start: waited for here, and let go of at once
   * (upstream might wait for it before our next frame); the push stays
   * queued, and finds it claimed when a thread takes it (never, where
   * none ever can: then the struct and its event stay) */
  GST_DEBUG ("no thread for a frame's end: its input waited for");
  let_input_go (slot, !frame_waited (slot->done));
}

/* Closes the input that @slot held open, if any: its frame is done, or
 * @failed (then, for one read where it is, after the frames' queues). */
static void
let_input_go (GstClSlot * slot, gboolean failed)
{
  GstBuffer *buffer = slot->in.buffer;

  if (slot->release) {
    GstClInputRelease *release = g_steal_pointer (&slot->release);

    input_release_run (release, failed);
    g_mutex_lock (&release->lock);
    while (!release->closed)
      g_cond_wait (&release->cond, &release->lock);
    g_mutex_unlock (&release->lock);
    input_release_unref (release);
  }
  if (!slot->in_open)
    return;
  gst_cl_frame_close (&slot->in);
  gst_buffer_unref (buffer);
  slot->in_open = FALSE;
}

/* Waits for the frame in @slot, if any, and lets go of what it held (an
 * imported CUDA output is copied back first); adds its kernels' time to
 * @device_ms. FALSE with @error set (if not NULL) where one of its
 * commands, or that copy, failed. */
static gboolean
retire_slot (GstClInFlight * self, GstClSlot * slot, gdouble * device_ms,
    GError ** error)
{
  cl_int status = CL_SUCCESS, outcome = CL_COMPLETE;
  const gchar *step = "clWaitForEvents (frame in flight)";
  gboolean ok;

  if (slot->cuda) {
    /* its output, written, need not be waited for downstream */
    ok = gst_cl_cuda_exec_wait_mark (slot->cuda, slot - self->slots,
        device_ms, error);
    slot->cuda = NULL;
    if (ok && slot->out_open)
      gst_cl_cuda_sync_mark_finished (slot->out.buffer);
    let_input_go (slot, !ok);
    return commit_output (self, slot, ok ? error : NULL) && ok;
  }
  if (slot->done) {
    gint64 began = gst_cl_wait_begin ();

    status = clWaitForEvents (1, &slot->done);
    gst_cl_wait_end (GST_CL_WAIT_SLOT, began);
    if (status == CL_SUCCESS) {
      step = "clGetEventInfo (frame in flight)";
      status = event_outcome (slot->done, &outcome);
    }
    if (status == CL_SUCCESS && outcome < 0) {
      step = "a command of a frame in flight";
      status = outcome;
    }
    clReleaseEvent (slot->done);
    slot->done = NULL;
  }
  *device_ms += gst_cl_events_take_ms (&slot->events);
  let_input_go (slot, status != CL_SUCCESS);
  if (status != CL_SUCCESS)
    gst_cl_set_error (error, status, "%s", step);
  ok = status == CL_SUCCESS && cuda_copied_in (slot->copied_in,
      slot->copied_in_slot, error);
  slot->copied_in = NULL;
  return commit_output (self, slot, ok ? error : NULL) && ok;
}

/* Waits for every command on the queues of frames. */
static gboolean
finish_queues (GstClInFlight * self, GError ** error)
{
  cl_command_queue queues[3] = { self->async_up, self->async_down,
    self->compute
  };
  cl_int status, first = CL_SUCCESS;
  gint64 began = gst_cl_wait_begin ();
  guint i;

  for (i = 0; i < 3; i++) {
    if (queues[i]) {
      status = clFinish (queues[i]);
      if (first == CL_SUCCESS)
        first = status;
    }
  }
  gst_cl_wait_end (GST_CL_WAIT_FRAME, began);
  return first == CL_SUCCESS ||
      gst_cl_set_error (error, first, "clFinish (frame)");
}

/* Waits for the frames in flight and lets go of what they held; see
 * gst_cl_in_flight_drain(), which also raises a kept fault. */
static gboolean
wait_in_flight (GstClInFlight * self, gdouble * device_ms, GError ** error)
{
  gboolean ok, busy = FALSE;
  gdouble ms = 0;
  guint k;

  for (k = 0; k < self->depth; k++)
    busy |= self->slots[k].done != NULL || self->slots[k].cuda != NULL;
  /* Every command of a frame that was waited for is done. */
  if (!busy)
    return TRUE;
  ok = finish_queues (self, error);
  for (k = 0; k < self->depth; k++)
    ok = retire_slot (self, &self->slots[k], &ms, ok ? error : NULL) && ok;
  if (device_ms)
    *device_ms += ms;
  return ok;
}

void
gst_cl_in_flight_set_faults (GstClInFlight * self, GstClFaults * faults)
{
  g_clear_pointer (&self->faults, gst_cl_faults_unref);
  self->faults = faults ? gst_cl_faults_ref (faults) : NULL;
}

/* FALSE with @error set where a frame already handed downstream failed. */
static gboolean
check_faults (GstClInFlight * self, GError ** error)
{
  return !self->faults || gst_cl_faults_check (self->faults, error);
}

gboolean
gst_cl_in_flight_drain (GstClInFlight * self, gdouble * device_ms,
    GError ** error)
{
  gboolean ok = wait_in_flight (self, device_ms, error);

  return check_faults (self, ok ? error : NULL) && ok;
}

gboolean
gst_cl_in_flight_begin (GstClInFlight * self, guint * slot,
    gdouble * device_ms, GError ** error)
{
  *slot = self->next;
  *device_ms += self->retired_ms;
  self->retired_ms = 0;
  /* The slot's previous frame must be done with its buffers; an error of
   * its commands, or of a map of an earlier frame's output, is this
   * frame's (those went out already). */
  if (check_faults (self, error) &&
      retire_slot (self, &self->slots[self->next], device_ms, error))
    return TRUE;
  gst_cl_in_flight_drain (self, NULL, NULL);
  return FALSE;
}

void
gst_cl_in_flight_queues (GstClInFlight * self, const GstClFrame * in,
    const GstClFrame * out, GstClFrameQueues * q)
{
  GstClSlot *slot = &self->slots[self->next];
  guint i;

  /* Frames in flight need the output's memory to carry the event (else
   * nothing would wait for it), or an imported CUDA output the caller
   * holds until gst_cl_in_flight_complete(); anything else is waited for
   * here. On a
   * discrete GPU every input can be: system memory is copied into pinned
   * staging, or read by DMA where it is once held pinned (let go of when
   * its frame is done), our pool's pinned memory goes by DMA from where it
   * is, and
   * device memory (from another OpenCL element) is held until read, so
   * that a chain of elements waits only at the last map. Where the device
   * works on host memory (SVM, when asked for), only frames from our pool:
   * the kernels read a system-memory input in place, until they are
   * done. */
  q->slot = self->next;
  q->cuda = in->exec && in->exec == out->exec ? in->exec : NULL;
  /* in CUDA, a frame into CUDA memory that may be held, as an imported
   * one */
  q->in_flight = q->cuda ? self->depth > 1 && self->hold_cuda :
      self->depth > 1 && (out->cl_memory != NULL ||
      (out->cuda != NULL && self->hold_cuda)) &&
      (!gst_cl_context_is_host_unified (self->context) || in->cl_memory);
  if (q->cuda)
    gst_cl_cuda_exec_begin (q->cuda, q->slot);
  q->events = &slot->events;
  q->n_pending = 0;
  q->n_acquired = 0;
  q->n_released = 0;
  q->input_copy = NULL;
  for (i = 0; i < in->n_pending; i++)
    q->pending[q->n_pending++] = in->pending[i];
  for (i = 0; i < out->n_pending; i++)
    q->pending[q->n_pending++] = out->pending[i];
  gst_cl_stream_init (&q->up, q->in_flight ? self->async_up : self->compute,
      q->pending, q->n_pending);
  gst_cl_stream_init (&q->compute, self->compute, q->pending, q->n_pending);
  gst_cl_stream_init (&q->down, q->in_flight ? self->async_down :
      self->compute, q->pending, q->n_pending);
  q->up.cuda = q->compute.cuda = q->down.cuda = q->cuda;
}

/* FALSE with @error set where work that @f's memories still wait for
 * (its pending events, or those waited for at open) has failed; @whose
 * says whose work that is. */
static gboolean
frame_pending_ok (const GstClFrame * f, const gchar * whose, GError ** error)
{
  guint i;

  if (f->pending_failed != CL_SUCCESS)
    return gst_cl_set_error (error, f->pending_failed, "%s", whose);
  for (i = 0; i < f->n_pending; i++) {
    cl_int outcome, status = event_outcome (f->pending[i], &outcome);

    if (status != CL_SUCCESS)
      return gst_cl_set_error (error, status, "clGetEventInfo (%s)", whose);
    if (outcome < 0)
      return gst_cl_set_error (error, outcome, "%s", whose);
  }
  return TRUE;
}

/* FALSE with @error set where work that @q's streams wait for has failed
 * already: an OpenCL element upstream writing @in, or an earlier frame
 * writing @out. What is enqueued after a failed event of its wait list
 * need not run nor fail: on PoCL 3.1 it stays queued for ever, and so does
 * everything after it on the queue. A frame not left in flight is waited
 * for at its end anyway: its pending work is waited for here, so that none
 * can fail after the check. A frame left in flight is not: work that fails
 * while it is being enqueued can still leave it queued (docs/robustness.md,
 * "Not done"). */
static gboolean
check_pending (const GstClFrameQueues * q, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  cl_int waited = CL_SUCCESS;

  if (!q->in_flight && q->n_pending > 0) {
    /* a CUDA input's pending event is its copy in */
    gint64 began = gst_cl_wait_begin ();

    waited = clWaitForEvents (q->n_pending, q->pending);
    if (in->cuda)
      gst_cl_wait_end (GST_CL_WAIT_CUDA_COPY_IN, began);
  }
  /* a failed command is named from its status; a wait that failed
   * otherwise, by itself */
  return frame_pending_ok (in, "work still writing the input frame (an "
      "OpenCL element upstream)", error) && frame_pending_ok (out,
      "work of an earlier frame still writing the output buffer", error) &&
      (waited == CL_SUCCESS || gst_cl_set_error (error, waited,
          "clWaitForEvents (work still writing the frame's buffers)"));
}

gboolean
gst_cl_in_flight_acquire (GstClFrameQueues * q, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  const GstClFrame *frames[2] = { in, out };
  cl_event event;
  guint i;

  if (!check_pending (q, in, out, error))
    return FALSE;
  for (i = 0; i < 2; i++) {
    const GstClFrame *f = frames[i];

    if (!f->cuda)
      continue;
    if (!gst_cl_cuda_pool_acquire (gst_cl_cuda_import_get_pool (f->cuda),
            f->cuda_slot, q->up.queue,
            q->n_pending, q->n_pending ? q->pending : NULL, &event, error))
      return FALSE;
    q->acquired[q->n_acquired++] = event;
    gst_cl_stream_wait_for (&q->up, event);
    gst_cl_stream_wait_for (&q->compute, event);
    gst_cl_stream_wait_for (&q->down, event);
  }
  return TRUE;
}

/* Releases the imported CUDA buffers of @in and @out for CUDA after the
 * frame's last command: on the download stream, which follows the others
 * (gst_cl_in_flight_to_downloads()). */
static gboolean
release_imports (GstClFrameQueues * q, const GstClFrame * in,
    const GstClFrame * out, GError ** error)
{
  const GstClFrame *frames[2] = { in, out };
  GstClStream *s = &q->down;
  cl_event event = NULL;
  guint i, seen = 0;

  /* the ones acquired, in gst_cl_in_flight_acquire()'s order, less those
   * released already (a second call after a failed release) */
  for (i = 0; i < 2 && seen < q->n_acquired; i++) {
    if (!frames[i]->cuda)
      continue;
    if (seen++ < q->n_released)
      continue;
    if (!gst_cl_cuda_pool_release (gst_cl_cuda_import_get_pool
            (frames[i]->cuda), frames[i]->cuda_slot, s->queue, s->n_wait,
            s->n_wait ? s->wait : NULL, &event, error))
      return FALSE;
    gst_cl_stream_enqueued (s, event);
    q->n_released++;
  }
  return TRUE;
}

/* Makes @next wait for all that @before enqueued, flushing the queue of
 * @before first where it is another one (OpenCL's rule for waiting on the
 * events of another queue). */
static gboolean
hand_over (const GstClStream * before, GstClStream * next, GError ** error)
{
  cl_int status = before->queue == next->queue || !before->queue ?
      CL_SUCCESS : clFlush (before->queue);

  if (status != CL_SUCCESS)
    return gst_cl_set_error (error, status, "clFlush");
  gst_cl_stream_follow (next, before);
  return TRUE;
}

/* A frame that failed after acquiring its imports still releases them,
 * after whatever of its commands were enqueued: NVIDIA's driver keeps an
 * external memory object that was left acquired, and the pipeline hung at
 * its way to NULL after such an ERROR (a fault injected into a kernel
 * argument of a CUDA-memory frame). The frame's first error is the one
 * raised; these calls' own are not. */
static void
release_imports_after_failure (GstClFrameQueues * q, const GstClFrame * in,
    const GstClFrame * out)
{
  if (hand_over (&q->up, &q->down, NULL) &&
      hand_over (&q->compute, &q->down, NULL))
    release_imports (q, in, out, NULL);
}

gboolean
gst_cl_in_flight_to_kernels (GstClFrameQueues * q, GError ** error)
{
  return hand_over (&q->up, &q->compute, error);
}

gboolean
gst_cl_in_flight_to_downloads (GstClFrameQueues * q, GError ** error)
{
  return hand_over (&q->compute, &q->down, error);
}

/* Starts what the queues hold, without waiting. */
static gboolean
flush_queues (GstClFrameQueues * q, GError ** error)
{
  const cl_command_queue queues[] = { q->up.queue, q->compute.queue,
    q->down.queue
  };
  cl_int status = CL_SUCCESS;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (queues) && status == CL_SUCCESS; i++)
    status = queues[i] ? clFlush (queues[i]) : CL_SUCCESS;
  return status == CL_SUCCESS || gst_cl_set_error (error, status, "clFlush");
}

/* Leaves the frame of @q in flight: the slot and @out's memory get the
 * event of its last command, and the queues are started. */
static gboolean
leave_in_flight (GstClInFlight * self, GstClFrameQueues * q,
    const GstClFrame * out, GError ** error)
{
  GstClSlot *slot = &self->slots[q->slot];

  if (q->cuda) {
    if (!gst_cl_cuda_exec_mark (q->cuda, error))
      return FALSE;
    slot->cuda = q->cuda;
    return TRUE;
  }
  if (!gst_cl_stream_join (&q->down, &slot->done, error))
    return FALSE;
  if (out->cl_memory)
    gst_cl_memory_set_pending (out->cl_memory, slot->done);
  return flush_queues (q, error);
}

/* Keeps @out open in the slot of @q where it is an imported CUDA output,
 * to be copied back once its commands are done (retire_slot()); closes it
 * otherwise. With GST_CL_HOLD_FRAMES=1 (in the tests) every output left
 * in flight is kept so, and held by the element as a CUDA output would
 * be: that order of things runs on any device. */
static void
hold_output (GstClInFlight * self, GstClFrameQueues * q, GstClFrame * out)
{
  GstClSlot *slot = &self->slots[q->slot];

  if (!out->cuda && !out->exec && !self->hold_all) {
    gst_cl_frame_close (out);
    return;
  }
  slot->out = *out;
  gst_buffer_ref (out->buffer);
  slot->out_open = TRUE;
}

/* The end of an input handed to its staging copy (hold_input()), on the
 * copy thread that finished it: the unmap and the last unref may run
 * upstream's code there (its pool's release, a GL or VA unmap), which is
 * thread-safe, as any element's may run on another's thread. */
static void
close_copied_input (gpointer data)
{
  GstClFrame *in = data;
  GstBuffer *buffer = in->buffer;

  gst_cl_frame_close (in);
  gst_buffer_unref (buffer);
  g_free (in);
}

/* Keeps @in open in the slot of @q until the slot comes round again, where
 * its memories are OpenCL memories that the uploads still read; input in
 * system memory is copied to the staging buffer: closed once that copy is
 * done (by the thread that finishes it), so that upstream has it back at
 * once; or, held pinned and read where it is, closed once the frame is
 * done (release_when_done()). */
static void
hold_input (GstClInFlight * self, GstClFrameQueues * q, GstClFrame * in)
{
  GstClSlot *slot = &self->slots[q->slot];

  if (q->input_copy) {
    GstClFrame *copied = g_memdup2 (in, sizeof (*in));

    gst_buffer_ref (in->buffer);
    gst_cl_copy_job_then (q->input_copy, close_copied_input, copied);
    return;
  }

  if (in->host_pinned && slot->done) {
    release_when_done (self, slot, in);
    return;
  }
  if (in->cuda) {
    slot->copied_in = in->cuda;
    slot->copied_in_slot = in->cuda_slot;
  }
  /* a frame that the kernels' stream reads where it is (CUDA memory, or
   * system memory that CUDA holds pinned): its memory not handed back to
   * the decoder before they are done (other system memory was copied for
   * them) */
  if (!in->all_cl_memory && !in->host_pinned && (!in->exec || (in->exec_host &&
              !in->exec_host_pinned))) {
    gst_cl_frame_close (in);
    return;
  }
  slot->in = *in;
  gst_buffer_ref (in->buffer);
  slot->in_open = TRUE;
}

/* FALSE with @error set where the last command of one of @q's streams
 * failed: that of a frame waited for at its end, whose wait (clFinish)
 * need not say so (PoCL's returns CL_SUCCESS after a failed command). A
 * command that failed fails those that wait on it, and so the last. */
static gboolean
streams_ok (const GstClFrameQueues * q, GError ** error)
{
  const GstClStream *streams[3] = { &q->up, &q->compute, &q->down };
  cl_int status, outcome;
  guint i;

  for (i = 0; i < 3; i++) {
    if (!streams[i]->last)
      continue;
    status = event_outcome (streams[i]->last, &outcome);
    if (status != CL_SUCCESS)
      return gst_cl_set_error (error, status, "clGetEventInfo (frame)");
    if (outcome < 0)
      return gst_cl_set_error (error, outcome, "a command of the frame");
  }
  return TRUE;
}

gboolean
gst_cl_in_flight_end (GstClInFlight * self, GstClFrameQueues * q,
    gboolean ok, GstClFrame * in, GstClFrame * out, gdouble * device_ms,
    GError ** error)
{
  gboolean left;

  ok = ok && (q->n_acquired == 0 || release_imports (q, in, out, error));
  if (!ok && q->n_acquired > 0)
    release_imports_after_failure (q, in, out);
  /* an output in system memory, from the executor's device memory */
  ok = ok && (!q->cuda || gst_cl_frame_download_on_cuda (out, error));
  left = ok && q->in_flight && leave_in_flight (self, q, out, error);
  ok = ok && (left || !q->in_flight);
  /* The frames stay open until every command on them has completed. */
  if (!left && q->cuda) {
    /* everything of the frame ran on the executor's stream */
    ok = gst_cl_cuda_exec_sync (q->cuda, device_ms, ok ? error : NULL) && ok;
    if (ok)
      gst_cl_cuda_sync_mark_finished (out->buffer);
  } else if (!left) {
    ok = finish_queues (self, ok ? error : NULL) && ok;
    ok = ok && streams_ok (q, error) && cuda_copied_in (in->cuda,
        in->cuda_slot, error);
  }
  gst_cl_stream_clear (&q->up);
  gst_cl_stream_clear (&q->compute);
  gst_cl_stream_clear (&q->down);
  while (q->n_acquired > 0)
    clReleaseEvent (q->acquired[--q->n_acquired]);
  /* Whoever maps the output and finds its data missing tells us. */
  if (ok && out->cl_memory)
    gst_cl_memory_set_faults (out->cl_memory, self->faults);
  if (left) {
    hold_output (self, q, out);
    hold_input (self, q, in);
    self->next = (q->slot + 1) % self->depth;
    return TRUE;
  }
  ok = ok && gst_cl_frame_commit (out, error);
  gst_cl_frame_close (out);
  if (q->input_copy)
    gst_cl_copy_job_wait (q->input_copy);
  gst_cl_frame_close (in);
  return retire_slot (self, &self->slots[q->slot], device_ms,
      ok ? error : NULL) && ok;
}

void
gst_cl_in_flight_set_hold_cuda (GstClInFlight * self, gboolean hold)
{
  self->hold_cuda = hold;
  self->hold_all = hold &&
      g_strcmp0 (g_getenv ("GST_CL_HOLD_FRAMES"), "1") == 0;
}

gboolean
gst_cl_in_flight_holds (GstClInFlight * self, GstBuffer * buffer)
{
  guint k;

  for (k = 0; k < self->depth; k++) {
    if (self->slots[k].out_open && self->slots[k].out.buffer == buffer)
      return TRUE;
  }
  return FALSE;
}

void
gst_cl_in_flight_poll (GstClInFlight * self)
{
  cl_int outcome;
  guint k;

  /* oldest first (the next slot to be taken holds the oldest frame): the
   * copies run in that order on the stream */
  for (k = 0; k < self->depth; k++) {
    GstClSlot *slot = &self->slots[(self->next + k) % self->depth];

    if (!slot->out_open || slot->out.commit_started || !slot->done ||
        event_outcome (slot->done, &outcome) != CL_SUCCESS ||
        outcome != CL_COMPLETE)
      continue;
    if (!gst_cl_frame_commit_start (&slot->out, &slot->commit_error))
      GST_DEBUG ("the copy back of a held frame failed to start");
  }
}

gboolean
gst_cl_in_flight_complete (GstClInFlight * self, GstBuffer * buffer,
    GError ** error)
{
  guint k;

  for (k = 0; k < self->depth; k++) {
    GstClSlot *slot = &self->slots[k];

    if (slot->out_open && slot->out.buffer == buffer) {
      if (retire_slot (self, slot, &self->retired_ms, error))
        return TRUE;
      gst_cl_in_flight_drain (self, NULL, NULL);
      return FALSE;
    }
  }
  return TRUE;
}

guint64
gst_cl_in_flight_take_cuda_bytes (GstClInFlight * self)
{
  guint64 bytes = self->cuda_bytes;

  self->cuda_bytes = 0;
  return bytes;
}

void
gst_cl_in_flight_free (GstClInFlight * self)
{
  if (!self)
    return;
  /* Frames in flight still read and write the plan's buffers; a frame
   * waited for left nothing behind. */
  if (self->depth > 1)
    wait_in_flight (self, NULL, NULL);
  if (self->async_up)
    clReleaseCommandQueue (self->async_up);
  if (self->async_down)
    clReleaseCommandQueue (self->async_down);
  gst_cl_faults_unref (self->faults);
  gst_object_unref (self->context);
  g_free (self);
}
