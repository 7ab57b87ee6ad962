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

/* libclfault: a test-only seam around the OpenCL API, never part of the
 * plugin. It defines the clXxx entry points, forwards each to the real ICD
 * loader (dlsym (RTLD_NEXT)), and on request fails one call, or every call
 * from one on, with a chosen error code instead of forwarding it. It also
 * counts the OpenCL objects the application holds (created or retained and
 * not yet released), so that tests can check that nothing leaks.
 *
 * Loading: a test links it (it then comes before libOpenCL in the global
 * symbol scope, so the plugin's calls land here), or any program gets it
 * with LD_PRELOAD=build/tests/libclfault.so.
 *
 * clRetain* and clRelease* are counted for the object figures but never
 * failed nor counted as calls: drivers do not fail them on valid objects,
 * and a failed release would only make a leak of the test's own making.
 * A failed clFinish or clWaitForEvents still waits for the commands first,
 * as an error found while they ran is reported; a driver that returns
 * without draining leaves the application no safe way to free the host
 * memory the commands use.
 *
 * Environment, read once at load time (for use with LD_PRELOAD):
 *   CLFAULT_NTH=N          fail the N-th counted call (1-based)
 *   CLFAULT_ERROR=code     the error returned, a number (default -5,
 *                          CL_OUT_OF_RESOURCES)
 *   CLFAULT_FUNC=clFoo     count only calls of clFoo
 *   CLFAULT_PERSIST=1      fail call N and every counted call after it
 *   CLFAULT_BREAK_BUILD=1  append an #error line to every program source, so
 *                          that clBuildProgram really fails, with a build log
 *   CLFAULT_REPORT=1       print calls, failures and live objects at exit
 *   CLFAULT_TRACE=1        print every counted call, and which failed
 *   CLFAULT_SLOW=US        the slow device: every command enqueued waits
 *                          first for a gate that a thread of the library
 *                          opens 0..US microseconds later (drawn per
 *                          command), so that commands complete late, those
 *                          of different queues out of order
 *   CLFAULT_SLOW_FAIL=N    the N-th command held (from load) fails after it
 *                          was enqueued (CL_OUT_OF_RESOURCES), and what
 *                          waits on it; holds commands even without
 *                          CLFAULT_SLOW (gates opened at once)
 *   CLFAULT_SLOW_SEED=S    the seed of the delays (default 0x41)
 */

#ifndef __CLFAULT_H__
#define __CLFAULT_H__

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CLFAULT_CONTEXT,
  CLFAULT_QUEUE,
  CLFAULT_PROGRAM,
  CLFAULT_KERNEL,
  CLFAULT_MEM,
  CLFAULT_EVENT,
  CLFAULT_N_KINDS
} ClFaultKind;

/* Forgets any armed fault and sets the call count to 0. */
void clfault_reset (void);

/* From now on, fails the @nth counted call (1-based) with @error; with
 * @persist, also every counted call after it. @only: count only calls of the
 * function of that name (NULL: every call). Resets the call count. */
void clfault_arm (unsigned long nth, cl_int error, const char *only,
    int persist);

/* Stops counting and failing calls while @suspended (e.g. while a test maps
 * and checks the element's output). Objects are still counted. */
void clfault_suspend (int suspended);

/* Calls counted since the last reset or arm. */
unsigned long clfault_calls (void);

/* Calls failed since the last reset or arm. */
unsigned long clfault_failures (void);

/* The name of the last call failed on purpose (static string), or NULL. */
const char *clfault_last_failed (void);

/* The @i-th call failed on purpose since the last reset or arm (from 0, up
 * to 64 are kept): its number among the counted calls, and its name in
 * @name; 0 when there is no such failure. */
unsigned long clfault_failure (unsigned int i, const char **name);

/* From now on, clGetPlatformInfo (CL_PLATFORM_NAME) answers @name for every
 * platform (NULL or "": the platform's own again): a device of another
 * vendor's, as the plugin's checks by platform name see it. */
void clfault_set_platform_name (const char *name);

/* Makes every program built from source from now on fail to build. */
void clfault_set_break_build (int broken);

/* Objects of @kind the application holds now. */
long clfault_live (ClFaultKind kind);

/* All objects the application holds now. */
long clfault_live_total (void);

/* A line "context=N queue=N ..." with the live objects, for messages.
 * Static buffer, overwritten by the next call. */
const char *clfault_describe_live (void);

/* The slow device, from now on: every command enqueued (clEnqueue*) waits
 * first for a user event of the library's, which its own thread completes
 * 0..@max_delay_us microseconds later (a delay drawn per command, from a
 * fixed seed). An in-order queue still runs its commands in order; commands
 * of different queues complete in any order, and every command completes
 * after the call that enqueued it returned, as on a discrete GPU, where a
 * CPU device would have it done at once. 0: off (commands already held
 * still complete when due). Blocking calls (a blocking read, write or map)
 * wait for their delay. */
void clfault_slow (unsigned long max_delay_us);

/* The @nth command held from now on (1-based; 0: none) ends in @status (a
 * negative OpenCL error; CL_OUT_OF_RESOURCES where it is not negative)
 * after it was enqueued, 20 ms later than its delay: its event, and those
 * of the commands waiting on it (in their wait lists, or after it on its
 * queue while it is pending), read @status once complete
 * (clGetEventInfo), and waits on them return
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. The commands themselves
 * still run (PoCL 3.1 aborts when a user event's failure goes down a chain
 * of commands): what the application sees is a device's failure. Holds
 * commands while armed even with no delay (clfault_slow (0)). Resets the
 * counts below. */
void clfault_slow_fail (unsigned long nth, cl_int status);

/* Commands held since the last clfault_slow_fail(). */
unsigned long clfault_slow_held (void);

/* Commands ended in error by clfault_slow_fail() since it was armed (0 or
 * 1). */
unsigned long clfault_slow_failed (void);

#ifdef __cplusplus
}
#endif

#endif /* __CLFAULT_H__ */
