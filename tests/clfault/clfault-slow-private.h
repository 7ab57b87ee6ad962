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

/* What clfault.c's command wrappers call of the slow device (slow.c), and
 * what the slow device calls of clfault.c. */

#ifndef __CLFAULT_SLOW_PRIVATE_H__
#define __CLFAULT_SLOW_PRIVATE_H__

#include "clfault.h"

typedef struct _ClFaultHold ClFaultHold;

/* The OpenCL entry point @name of the ICD loader (not ours), or NULL
 * (clfault.c). */
void *clfault_real_symbol (const char *name);

/* Where the slow device is on, puts a gate of ours first in the wait list
 * of a command (@name, for CLFAULT_TRACE) about to be enqueued on @queue, and schedules it to open
 * after a random delay (later where this is the command to fail):
 * replaces *@n_wait and *@wait_list (the caller's list is left as it is)
 * and returns the hold, which clfault_slow_commit() takes. NULL where it
 * is off (the list is unchanged). */
ClFaultHold *clfault_slow_hold (const char *name, cl_command_queue queue,
    cl_uint * n_wait, const cl_event ** wait_list);

/* After the command was enqueued (@enqueued: what the real call
 * returned, @event its event or NULL, @blocking whether the call waited
 * for it): keeps @event as failed where the command fails; frees @hold
 * (NULL is allowed). Returns what the call returns: @enqueued, or the
 * failure of a blocking command that failed. */
cl_int clfault_slow_commit (ClFaultHold * hold, cl_int enqueued,
    cl_event * event, cl_bool blocking);

/* Whether @event is that of a command the slow device failed. */
int clfault_slow_failed_event (cl_event event);

/* Whether one of the @n events of @list is. */
int clfault_slow_any_failed (cl_uint n, const cl_event * list);

/* Returns once the gate completed last has been let go of: a wait for a
 * command returns when the command completed, which its gate's completion
 * let it do, and the gate's reference to its context must be gone by the
 * time the application counts those. */
void clfault_slow_settle (void);

/* The status a failed command ends in. */
cl_int clfault_slow_failure (void);


/* Reads the environment (CLFAULT_SLOW...) once, at load time. */
void clfault_slow_init (void);

#endif /* __CLFAULT_SLOW_PRIVATE_H__ */
