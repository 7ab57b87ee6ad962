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

/* clfault/slowcheck: what the slow device (slow.c) promises, on the first
 * OpenCL device: commands complete after the call that enqueued them
 * returned (a non-blocking read's data arrives late), a blocking read
 * returns its data, and the command chosen to fail is seen failed by its
 * event and by a wait on what follows it, while the commands before it are
 * not. Exits 0 when all holds; prints what did not. */

#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 200

#include "clfault.h"

#include <stdio.h>
#include <string.h>

#define N 32
#define SIZE 4096

static int failures;

static void
check (int ok, const char *what)
{
  if (!ok) {
    fprintf (stderr, "slowcheck: %s\n", what);
    failures++;
  }
}

static cl_int
status_of (cl_event event)
{
  cl_int status = CL_COMPLETE;

  clGetEventInfo (event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status),
      &status, NULL);
  return status;
}

/* Reads of a filled buffer, non-blocking: some must not be done yet when
 * the last is enqueued; then all hold the fill. */
static void
check_late (cl_command_queue queue, cl_mem mem)
{
  static unsigned char host[N][SIZE];
  cl_event events[N];
  int i, pending = 0, right = 1;

  memset (host, 0, sizeof (host));
  for (i = 0; i < N; i++)
    clEnqueueReadBuffer (queue, mem, CL_FALSE, 0, SIZE, host[i], 0, NULL,
        &events[i]);
  clFlush (queue);
  for (i = 0; i < N; i++)
    pending += status_of (events[i]) != CL_COMPLETE;
  check (pending > 0, "every command complete as soon as enqueued");
  check (clWaitForEvents (N, events) == CL_SUCCESS, "a wait failed");
  for (i = 0; i < N; i++) {
    right &= host[i][0] == 0x5a && host[i][SIZE - 1] == 0x5a;
    clReleaseEvent (events[i]);
  }
  check (right, "a read did not deliver the data");
}

/* The third command fails: its event and the wait on the fourth say so,
 * the first two are done. */
static void
check_failure (cl_command_queue queue, cl_mem mem)
{
  unsigned char host[SIZE];
  cl_event events[4];
  int i;

  clfault_slow_fail (3, CL_OUT_OF_RESOURCES);
  for (i = 0; i < 4; i++)
    clEnqueueReadBuffer (queue, mem, CL_FALSE, 0, SIZE, host, i ? 1 : 0,
        i ? &events[i - 1] : NULL, &events[i]);
  check (clfault_slow_failed () == 1, "the third command was not failed");
  check (clWaitForEvents (1, &events[3]) ==
      CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
      "a wait on what follows a failed command succeeded");
  check (status_of (events[2]) == CL_OUT_OF_RESOURCES,
      "the failed command's event does not say so");
  check (status_of (events[1]) == CL_COMPLETE,
      "a command before the failed one failed");
  check (clEnqueueReadBuffer (queue, mem, CL_TRUE, 0, SIZE, host, 1,
          &events[2], NULL) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
      "a blocking read after a failed command succeeded");
  for (i = 0; i < 4; i++)
    clReleaseEvent (events[i]);
  clfault_slow_fail (0, 0);
}

int
main (void)
{
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_mem mem;
  cl_int err;
  unsigned char pattern = 0x5a, back[SIZE];

  if (clGetPlatformIDs (1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, 1, &device,
          NULL) != CL_SUCCESS) {
    fprintf (stderr, "slowcheck: no OpenCL device\n");
    return 77;
  }
  context = clCreateContext (NULL, 1, &device, NULL, NULL, &err);
  queue = clCreateCommandQueueWithProperties (context, device, NULL, &err);
  mem = clCreateBuffer (context, CL_MEM_READ_WRITE, SIZE, NULL, &err);
  clfault_slow (2000);
  clEnqueueFillBuffer (queue, mem, &pattern, 1, 0, SIZE, 0, NULL, NULL);
  check (clEnqueueReadBuffer (queue, mem, CL_TRUE, 0, SIZE, back, 0, NULL,
          NULL) == CL_SUCCESS && back[0] == 0x5a, "a blocking read");
  check_late (queue, mem);
  check_failure (queue, mem);
  clfault_slow (0);
  clFinish (queue);
  clReleaseMemObject (mem);
  clReleaseCommandQueue (queue);
  clReleaseContext (context);
  return failures ? 1 : 0;
}
