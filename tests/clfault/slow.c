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

/* libclfault's slow device (clfault.h): every command enqueued while it is
 * on waits, first in its wait list, for a user event of ours, which a
 * thread of ours completes after a random delay. The delays are drawn per
 * command, so commands of different queues complete in another order than
 * they were enqueued (an in-order queue still runs its own in order, as
 * OpenCL says), and late: on a CPU device, where a command is otherwise
 * done before the application looks, a wait the application leaves out
 * shows as data read before it was written. A held command can also end
 * in error after it was enqueued, as where a device fails a command it ran:
 * the application then sees it failed, and every command that waits on it
 * (in its wait list, or after it in its in-order queue while it was
 * pending), through the status of their events (clGetEventInfo) and the
 * waits on them (clWaitForEvents returns
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST). The library tracks those
 * failures itself rather than setting the user event to a negative status:
 * PoCL 3.1 aborts while it passes such a failure on along a chain of
 * commands (pocl_update_event_failed, "Invalid argument"). The commands
 * themselves run. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 200

#include "clfault-slow-private.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__ ((visibility ("default")))

/* How much later than its delay the command to fail fails. */
#define FAIL_LATE_US 20000

struct _ClFaultHold
{
  cl_event *list;               /* our gate, then the caller's wait list */
  int fails;                    /* FAILS_ITSELF, FAILS_AFTER or 0 */
};

#define FAILS_ITSELF 2          /* the command to fail */
#define FAILS_AFTER 1           /* a command that waits on a failed one */

/* A queue where a failed command is pending: what is enqueued after it
 * there until @until_us fails too. */
typedef struct
{
  cl_command_queue queue;
  long long until_us;
} FailedQueue;

#define MAX_FAILED 256
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

/* The gate has two references: the opener's, dropped once it opened it,
 * and the hold's, dropped once the command was enqueued (which keeps its
 * own): a gate opened at once stays valid until the enqueue took it. */

/* A gate to open: when, and with which status. */
typedef struct
{
  cl_event gate;
  long long due_us;
  cl_int status;
} Pending;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake, opened;
/* The opener is between completing a gate and dropping its reference (a
 * user event holds its context). */
static int opening;
static unsigned long max_delay_us, fail_nth, held, failed;
static cl_int fail_status = CL_OUT_OF_RESOURCES;
static unsigned long long seed = 0x41;
static Pending *pending;
static size_t n_pending, pending_size;
static int trace;
static pid_t opener_pid;        /* the process whose thread opens gates */
/* Events of failed commands the application holds, and queues where one
 * is pending. */
static cl_event failed_events[MAX_FAILED];
#define MAX_FAILED_QUEUES 16
static FailedQueue failed_queues[MAX_FAILED_QUEUES];
static long long fail_due_us;   /* when the failed command fails */

static
__typeof__ (&clCreateUserEvent)
    real_create_user_event;
     static __typeof__ (&clSetUserEventStatus) real_set_status;
     static __typeof__ (&clReleaseEvent) real_release_event;
     static __typeof__ (&clRetainEvent) real_retain_event;
     static __typeof__ (&clGetCommandQueueInfo) real_queue_info;

     static long long now_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (long long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* A random delay in [0, max_delay_us]; with the lock held. */
static long long
draw_delay (void)
{
  /* xorshift64*: the same delays for the same seed, run after run */
  seed ^= seed >> 12;
  seed ^= seed << 25;
  seed ^= seed >> 27;
  return (long long) ((seed * 2685821657736338717ULL) >> 33) %
      (max_delay_us + 1);
}

/* Opens each gate when it is due, the earliest first. */
static void *
opener (void *data)
{
  (void) data;
  pthread_mutex_lock (&lock);
  for (;;) {
    size_t i, first = 0;
    Pending due;
    struct timespec until;

    while (n_pending == 0)
      pthread_cond_wait (&wake, &lock);
    for (i = 1; i < n_pending; i++)
      if (pending[i].due_us < pending[first].due_us)
        first = i;
    if (pending[first].due_us > now_us ()) {
      until.tv_sec = pending[first].due_us / 1000000;
      until.tv_nsec = (pending[first].due_us % 1000000) * 1000;
      pthread_cond_timedwait (&wake, &lock, &until);
      continue;
    }
    due = pending[first];
    pending[first] = pending[--n_pending];
    opening = 1;
    pthread_mutex_unlock (&lock);
    real_set_status (due.gate, due.status);
    real_release_event (due.gate);
    pthread_mutex_lock (&lock);
    opening = 0;
    pthread_cond_broadcast (&opened);
  }
  return NULL;
}

/* The condition variable on the monotonic clock, as now_us () reads it. */
static void
init_wake (void)
{
  pthread_condattr_t attr;

  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&wake, &attr);
  pthread_condattr_destroy (&attr);
  pthread_cond_init (&opened, NULL);
}

/* Starts the opener in this process if it has none (a forked child has
 * not); with the lock held. */
static int
ensure_opener (void)
{
  pthread_t thread;

  if (opener_pid == getpid ())
    return 1;
  if (pthread_create (&thread, NULL, opener, NULL) != 0)
    return 0;
  pthread_detach (thread);
  opener_pid = getpid ();
  return 1;
}

static int
resolve (void)
{
  if (real_set_status)
    return 1;
  real_create_user_event = (__typeof__ (real_create_user_event))
      clfault_real_symbol ("clCreateUserEvent");
  real_release_event = (__typeof__ (real_release_event))
      clfault_real_symbol ("clReleaseEvent");
  real_retain_event =
      (__typeof__ (real_retain_event)) clfault_real_symbol ("clRetainEvent");
  real_queue_info = (__typeof__ (real_queue_info))
      clfault_real_symbol ("clGetCommandQueueInfo");
  real_set_status = (__typeof__ (real_set_status))
      clfault_real_symbol ("clSetUserEventStatus");
  return real_create_user_event && real_release_event && real_retain_event
      && real_queue_info && real_set_status;
}

/* Opens @gate at once, with @status. */
static void
open_now (cl_event gate, cl_int status)
{
  real_set_status (gate, status);
  real_release_event (gate);
}

/* Whether @event is the event of a failed command; with the lock held. */
static int
is_failed_locked (cl_event event)
{
  int i;

  for (i = 0; event != NULL && i < MAX_FAILED; i++)
    if (failed_events[i] == event)
      return 1;
  return 0;
}

/* Whether a command on @queue after @n events of @list fails: it waits on
 * a failed one; with the lock held. */
static int
waits_on_failed_locked (cl_command_queue queue, cl_uint n,
    const cl_event * list)
{
  cl_uint i;

  for (i = 0; queue != NULL && i < MAX_FAILED_QUEUES; i++)
    if (failed_queues[i].queue == queue &&
        now_us () < failed_queues[i].until_us)
      return 1;
  for (i = 0; list != NULL && i < n; i++)
    if (is_failed_locked (list[i]))
      return 1;
  return 0;
}

/* What is enqueued on @queue until @until_us fails: it runs after a
 * failed command; with the lock held. */
static void
fail_queue_until_locked (cl_command_queue queue, long long until_us)
{
  int i, free_ = -1;

  for (i = 0; i < MAX_FAILED_QUEUES; i++) {
    if (failed_queues[i].queue == queue) {
      if (failed_queues[i].until_us < until_us)
        failed_queues[i].until_us = until_us;
      return;
    }
    if (free_ < 0 && (failed_queues[i].queue == NULL ||
            failed_queues[i].until_us < now_us ()))
      free_ = i;
  }
  if (free_ >= 0) {
    failed_queues[free_].queue = queue;
    failed_queues[free_].until_us = until_us;
  }
}

/* Has the opener open @gate after a random delay; returns whether its
 * command is the one to fail. @fails_after: whether it waits on a failed
 * one. */
static int
schedule (cl_event gate, cl_command_queue queue, const char *name,
    int fails_after)
{
  Pending p = { gate, 0, CL_COMPLETE };
  int fails = 0;

  pthread_mutex_lock (&lock);
  held++;
  p.due_us = now_us () + draw_delay ();
  /* The command to fail completes late: the rest of its frame is enqueued
   * by then, as where a device fails a command it ran. */
  if (fail_nth != 0 && held == fail_nth) {
    fails = 1;
    p.due_us += FAIL_LATE_US;
    failed++;
  }
  /* An in-order queue: what comes after a failed command there, while it
   * is pending, fails with it (as PoCL fails it). */
  if (fails)
    fail_due_us = p.due_us;
  /* one that waits on it runs once it failed, at the earliest */
  if (fails || fails_after)
    fail_queue_until_locked (queue, MAX (p.due_us, fail_due_us +
            (long long) max_delay_us));
  if (trace)
    fprintf (stderr, "clfault: held command %lu %s%s\n", held, name,
        fails ? " FAILS" : "");
  if (!ensure_opener ()) {
    pthread_mutex_unlock (&lock);
    open_now (gate, p.status);
    return fails;
  }
  if (n_pending == pending_size) {
    pending_size = pending_size ? 2 * pending_size : 64;
    pending = realloc (pending, pending_size * sizeof (*pending));
  }
  pending[n_pending++] = p;
  pthread_cond_signal (&wake);
  pthread_mutex_unlock (&lock);
  return fails;
}

ClFaultHold *
clfault_slow_hold (const char *name, cl_command_queue queue, cl_uint * n_wait,
    const cl_event ** wait_list)
{
  ClFaultHold *hold;
  cl_context context;
  cl_event gate;
  cl_int err;
  cl_uint i;

  pthread_mutex_lock (&lock);
  if (max_delay_us == 0 && fail_nth == 0) {
    pthread_mutex_unlock (&lock);
    return NULL;
  }
  pthread_mutex_unlock (&lock);
  if (!resolve () || real_queue_info (queue, CL_QUEUE_CONTEXT,
          sizeof (context), &context, NULL) != CL_SUCCESS)
    return NULL;
  gate = real_create_user_event (context, &err);
  if (gate == NULL)
    return NULL;
  hold = calloc (1, sizeof (*hold));
  pthread_mutex_lock (&lock);
  hold->fails = waits_on_failed_locked (queue, *n_wait, *wait_list) ?
      FAILS_AFTER : 0;
  pthread_mutex_unlock (&lock);
  hold->list = calloc (*n_wait + 1, sizeof (cl_event));
  hold->list[0] = gate;
  real_retain_event (gate);
  for (i = 0; i < *n_wait; i++)
    hold->list[i + 1] = (*wait_list)[i];
  *n_wait += 1;
  *wait_list = hold->list;
  /* Scheduled before the command is enqueued: a blocking command returns
   * only once its gate is open. */
  if (schedule (gate, queue, name, hold->fails))
    hold->fails = FAILS_ITSELF;
  return hold;
}

cl_int
clfault_slow_commit (ClFaultHold * hold, cl_int enqueued, cl_event * event,
    cl_bool blocking)
{
  cl_int status = enqueued;
  int i;

  if (hold == NULL)
    return enqueued;
  /* A blocking call returns what its command came to. */
  if (hold->fails && enqueued == CL_SUCCESS && blocking)
    status = hold->fails == FAILS_ITSELF ? clfault_slow_failure () :
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  /* A command that was not enqueued leaves its gate to open unwatched. */
  if (trace && hold->fails)
    fprintf (stderr, "clfault: failed command's event %p\n",
        event ? (void *) *event : NULL);
  /* kept with a reference of ours, so that its handle does not come back
   * for another event while it is kept */
  if (hold->fails && enqueued == CL_SUCCESS && event != NULL) {
    pthread_mutex_lock (&lock);
    for (i = 0; i < MAX_FAILED; i++) {
      if (failed_events[i] == NULL) {
        failed_events[i] = *event;
        real_retain_event (*event);
        break;
      }
    }
    pthread_mutex_unlock (&lock);
  }
  real_release_event (hold->list[0]);
  free (hold->list);
  free (hold);
  return status;
}

int
clfault_slow_failed_event (cl_event event)
{
  int failed_;

  pthread_mutex_lock (&lock);
  failed_ = is_failed_locked (event);
  pthread_mutex_unlock (&lock);
  return failed_;
}

int
clfault_slow_any_failed (cl_uint n, const cl_event * list)
{
  int any;

  pthread_mutex_lock (&lock);
  any = waits_on_failed_locked (NULL, n, list);
  pthread_mutex_unlock (&lock);
  return any;
}

cl_int
clfault_slow_failure (void)
{
  cl_int status;

  pthread_mutex_lock (&lock);
  status = fail_status;
  pthread_mutex_unlock (&lock);
  return status;
}

void
clfault_slow_settle (void)
{
  pthread_mutex_lock (&lock);
  while (opening && opener_pid == getpid ())
    pthread_cond_wait (&opened, &lock);
  pthread_mutex_unlock (&lock);
}

EXPORT void
clfault_slow (unsigned long delay_us)
{
  pthread_mutex_lock (&lock);
  max_delay_us = delay_us;
  pthread_mutex_unlock (&lock);
}

EXPORT void
clfault_slow_fail (unsigned long nth, cl_int status)
{
  int i;

  pthread_mutex_lock (&lock);
  fail_nth = nth;
  fail_status = status < 0 ? status : CL_OUT_OF_RESOURCES;
  held = failed = 0;
  memset (failed_queues, 0, sizeof (failed_queues));
  for (i = 0; i < MAX_FAILED; i++) {
    if (failed_events[i])
      real_release_event (failed_events[i]);
    failed_events[i] = NULL;
  }
  pthread_mutex_unlock (&lock);
}

/* A count, read under the lock. */
static unsigned long
read_count (const unsigned long *count_)
{
  unsigned long n;

  pthread_mutex_lock (&lock);
  n = *count_;
  pthread_mutex_unlock (&lock);
  return n;
}

EXPORT unsigned long
clfault_slow_held (void)
{
  return read_count (&held);
}

EXPORT unsigned long
clfault_slow_failed (void)
{
  return read_count (&failed);
}

/* fork (gst-check runs each test in a child): the lock is taken around it,
 * so that the child gets it free; the child has no opener thread and none
 * of the parent's gates to open. */
static void
before_fork (void)
{
  pthread_mutex_lock (&lock);
}

static void
after_fork_parent (void)
{
  pthread_mutex_unlock (&lock);
}

static void
after_fork_child (void)
{
  n_pending = 0;
  opening = 0;
  memset (failed_events, 0, sizeof (failed_events));
  opener_pid = 0;
  init_wake ();
  pthread_mutex_unlock (&lock);
}

void
clfault_slow_init (void)
{
  const char *s;

  init_wake ();
  trace = getenv ("CLFAULT_TRACE") != NULL;
  pthread_atfork (before_fork, after_fork_parent, after_fork_child);
  if ((s = getenv ("CLFAULT_SLOW")) != NULL)
    max_delay_us = strtoul (s, NULL, 10);
  if ((s = getenv ("CLFAULT_SLOW_FAIL")) != NULL)
    fail_nth = strtoul (s, NULL, 10);
  if ((s = getenv ("CLFAULT_SLOW_SEED")) != NULL && strtoull (s, NULL, 0))
    seed = strtoull (s, NULL, 0);
}
