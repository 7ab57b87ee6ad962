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

/* libclfault: fault injection and object counting around the OpenCL API, for
 * tests only. See clfault.h for what it does and how it is loaded.
 *
 * Every wrapper has the prototype of the OpenCL header, so that a mismatch
 * does not compile. The real function is found with dlsym (RTLD_NEXT): the
 * next definition after this library in the lookup order, the ICD loader. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

/* clSVMAlloc and clSVMFree are OpenCL 2.0; the rest is declared as 1.2. */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 200
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

#include "clfault.h"
#include "clfault-slow-private.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__ ((visibility ("default")))

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long calls, failures, nth;
static cl_int fault_error = CL_OUT_OF_RESOURCES;
static char only[64];
static int armed, persist, suspended, break_build, report, trace;
static const char *last_failed;
static long live[CLFAULT_N_KINDS];
#define MAX_KEPT 64
static struct
{
  unsigned long call;
  const char *name;
} kept[MAX_KEPT];

static const char *const kind_names[CLFAULT_N_KINDS] = {
  "context", "queue", "program", "kernel", "mem", "event"
};

void *
clfault_real_symbol (const char *name)
{
  void *sym = dlsym (RTLD_NEXT, name);

  /* Not in the global scope (we were dlopen'ed): open the loader ourselves. */
  if (sym == NULL) {
    void *handle = dlopen ("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);

    if (handle != NULL)
      sym = dlsym (handle, name);
  }
  if (sym == NULL)
    fprintf (stderr, "clfault: no real %s\n", name);
  return sym;
}

/* Whether the call @name must fail now; counts it. A failure is kept under
 * @record, which may tell the case apart (clCreateBuffer of host memory). */
static int
inject_as (const char *name, const char *record, cl_int * error)
{
  int fail = 0;

  pthread_mutex_lock (&lock);
  if (!suspended && (only[0] == '\0' || strcmp (only, name) == 0)) {
    calls++;
    if (armed && (calls == nth || (persist && calls > nth))) {
      fail = 1;
      if (failures < MAX_KEPT) {
        kept[failures].call = calls;
        kept[failures].name = record;
      }
      failures++;
      last_failed = name;
      *error = fault_error;
    }
    if (trace)
      fprintf (stderr, "clfault: call %lu %s%s\n", calls, record,
          fail ? " FAILED" : "");
  }
  pthread_mutex_unlock (&lock);
  return fail;
}

static int
inject (const char *name, cl_int * error)
{
  return inject_as (name, name, error);
}

/* Programs created from a binary, so that a failed build of one is told
 * apart from a failed build from source. */
#define MAX_BINARY_PROGRAMS 64
static cl_program binary_programs[MAX_BINARY_PROGRAMS];

static int
is_binary_program (cl_program program, int forget)
{
  int i, found = 0;

  pthread_mutex_lock (&lock);
  for (i = 0; i < MAX_BINARY_PROGRAMS && !found; i++) {
    if (program != NULL && binary_programs[i] == program) {
      found = 1;
      if (forget)
        binary_programs[i] = NULL;
    }
  }
  pthread_mutex_unlock (&lock);
  return found;
}

static void
count (ClFaultKind kind, long delta)
{
  pthread_mutex_lock (&lock);
  live[kind] += delta;
  pthread_mutex_unlock (&lock);
}

#define REAL(name) \
  static __typeof__ (&name) real_##name; \
  if (real_##name == NULL) \
    real_##name = (__typeof__ (&name)) clfault_real_symbol (#name); \
  if (real_##name == NULL) \
    return CL_INVALID_OPERATION;

#define REAL_OBJ(name) \
  static __typeof__ (&name) real_##name; \
  if (real_##name == NULL) \
    real_##name = (__typeof__ (&name)) clfault_real_symbol (#name); \
  if (real_##name == NULL) { \
    if (errcode_ret) \
      *errcode_ret = CL_INVALID_OPERATION; \
    return NULL; \
  }

/* A call that returns a status. */
#define STATUS_FN(name, params, args) \
  EXPORT cl_int CL_API_CALL name params \
  { \
    cl_int err_; \
    REAL (name); \
    if (inject (#name, &err_)) \
      return err_; \
    return real_##name args; \
  }

/* Whether a command's wait list breaks the rules that PoCL does not check
 * and stricter drivers (NVIDIA's) do: a list with no events must be NULL,
 * a NULL list must have no events, and no entry may be NULL. Says which
 * call, on stderr. */
static int
bad_wait_list (const char *name, cl_uint n, const cl_event * list)
{
  cl_uint i;

  for (i = 0; list != NULL && i < n; i++)
    if (list[i] == NULL)
      break;
  if ((n == 0) == (list == NULL) && (list == NULL || i == n))
    return 0;
  fprintf (stderr, "clfault: %s with a wait list of %u events at %p: "
      "CL_INVALID_EVENT_WAIT_LIST\n", name, n, (const void *) list);
  return 1;
}

/* A command that may return an event (its last parameter, `event`), after
 * the num_events_in_wait_list events of event_wait_list; an invalid list
 * fails as a strict driver fails it. The slow device (slow.c) holds it
 * behind a gate of its own; @blocking: whether the call waits for it. */
#define EVENT_FN(name, blocking, params, args) \
  EXPORT cl_int CL_API_CALL name params \
  { \
    cl_int err_; \
    ClFaultHold *hold_; \
    REAL (name); \
    if (bad_wait_list (#name, num_events_in_wait_list, event_wait_list)) \
      return CL_INVALID_EVENT_WAIT_LIST; \
    if (inject (#name, &err_)) \
      return err_; \
    hold_ = clfault_slow_hold (#name, command_queue, \
        &num_events_in_wait_list, \
        &event_wait_list); \
    err_ = real_##name args; \
    err_ = clfault_slow_commit (hold_, err_, event, blocking); \
    if (err_ == CL_SUCCESS && event != NULL) \
      count (CLFAULT_EVENT, 1); \
    return err_; \
  }

/* A call that creates an object and returns its status in errcode_ret. */
#define CREATE_FN(type, kind, name, params, args) \
  EXPORT type CL_API_CALL name params \
  { \
    cl_int err_; \
    type obj_; \
    REAL_OBJ (name); \
    if (inject (#name, &err_)) { \
      if (errcode_ret) \
        *errcode_ret = err_; \
      return NULL; \
    } \
    obj_ = real_##name args; \
    if (obj_ != NULL) \
      count (kind, 1); \
    return obj_; \
  }

/* Retain and release: counted as objects, never as calls, never failed. */
#define REFCOUNT_FN(name, type, kind, delta) \
  EXPORT cl_int CL_API_CALL name (type obj) \
  { \
    cl_int err_; \
    REAL (name); \
    err_ = real_##name (obj); \
    if (err_ == CL_SUCCESS) \
      count (kind, delta); \
    return err_; \
  }

/* The OpenCL entry points, most of them made by the macros above: GNU
 * indent cannot parse a macro call as a definition, so scripts/gst-indent
 * leaves them as they are. */
/* *INDENT-OFF* */
/* ---- Platforms, devices, contexts, queues ------------------------------- */

STATUS_FN (clGetPlatformIDs, (cl_uint num_entries, cl_platform_id * platforms,
        cl_uint * num_platforms), (num_entries, platforms, num_platforms))

/* clGetPlatformInfo: below, for clfault_set_platform_name() */

STATUS_FN (clGetDeviceIDs, (cl_platform_id platform,
        cl_device_type device_type, cl_uint num_entries,
        cl_device_id * devices, cl_uint * num_devices), (platform,
        device_type, num_entries, devices, num_devices))

STATUS_FN (clGetDeviceInfo, (cl_device_id device, cl_device_info param_name,
        size_t param_value_size, void *param_value,
        size_t *param_value_size_ret), (device, param_name,
        param_value_size, param_value, param_value_size_ret))

CREATE_FN (cl_context, CLFAULT_CONTEXT, clCreateContext,
    (const cl_context_properties * properties, cl_uint num_devices,
        const cl_device_id * devices, void (CL_CALLBACK * pfn_notify) (const
            char *errinfo, const void *private_info, size_t cb,
            void *user_data), void *user_data, cl_int * errcode_ret),
    (properties, num_devices, devices, pfn_notify, user_data, errcode_ret))

CREATE_FN (cl_context, CLFAULT_CONTEXT, clCreateContextFromType,
    (const cl_context_properties * properties, cl_device_type device_type,
        void (CL_CALLBACK * pfn_notify) (const char *errinfo,
            const void *private_info, size_t cb, void *user_data),
        void *user_data, cl_int * errcode_ret), (properties, device_type,
        pfn_notify, user_data, errcode_ret))

REFCOUNT_FN (clRetainContext, cl_context, CLFAULT_CONTEXT, 1)
REFCOUNT_FN (clReleaseContext, cl_context, CLFAULT_CONTEXT, -1)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CREATE_FN (cl_command_queue, CLFAULT_QUEUE, clCreateCommandQueue,
    (cl_context context, cl_device_id device,
        cl_command_queue_properties properties, cl_int * errcode_ret),
    (context, device, properties, errcode_ret))
#pragma GCC diagnostic pop

REFCOUNT_FN (clRetainCommandQueue, cl_command_queue, CLFAULT_QUEUE, 1)
REFCOUNT_FN (clReleaseCommandQueue, cl_command_queue, CLFAULT_QUEUE, -1)

STATUS_FN (clFlush, (cl_command_queue command_queue), (command_queue))

/* A failed clFinish still drains the queue, as an error found while the
 * commands ran is reported: commands left running after it, on memory the
 * application then frees, are not a fault the application could handle. */
EXPORT cl_int CL_API_CALL
clFinish (cl_command_queue command_queue)
{
  cl_int err, real_err;

  REAL (clFinish);
  real_err = real_clFinish (command_queue);
  clfault_slow_settle ();
  return inject ("clFinish", &err) ? err : real_err;
}

/* ---- Memory objects ----------------------------------------------------- */

EXPORT cl_mem CL_API_CALL
clCreateBuffer (cl_context context, cl_mem_flags flags, size_t size,
    void *host_ptr, cl_int * errcode_ret)
{
  cl_int err;
  cl_mem mem;

  REAL_OBJ (clCreateBuffer);
  if (inject_as ("clCreateBuffer", flags & CL_MEM_USE_HOST_PTR ?
          "clCreateBuffer(USE_HOST_PTR)" : "clCreateBuffer", &err)) {
    if (errcode_ret)
      *errcode_ret = err;
    return NULL;
  }
  mem = real_clCreateBuffer (context, flags, size, host_ptr, errcode_ret);
  if (mem != NULL)
    count (CLFAULT_MEM, 1);
  return mem;
}

/* Shared virtual memory: counted with the memory objects; a failure is a
 * NULL, as clSVMAlloc has no error code. */
EXPORT void *CL_API_CALL
clSVMAlloc (cl_context context, cl_svm_mem_flags flags, size_t size,
    cl_uint alignment)
{
  static __typeof__ (&clSVMAlloc) real_clSVMAlloc;
  cl_int err;
  void *p;

  if (real_clSVMAlloc == NULL)
    real_clSVMAlloc = (__typeof__ (&clSVMAlloc))
        clfault_real_symbol ("clSVMAlloc");
  if (real_clSVMAlloc == NULL)
    return NULL;
  if (inject ("clSVMAlloc", &err))
    return NULL;
  p = real_clSVMAlloc (context, flags, size, alignment);
  if (p != NULL)
    count (CLFAULT_MEM, 1);
  return p;
}

EXPORT void CL_API_CALL
clSVMFree (cl_context context, void *svm_pointer)
{
  static __typeof__ (&clSVMFree) real_clSVMFree;

  if (real_clSVMFree == NULL)
    real_clSVMFree = (__typeof__ (&clSVMFree))
        clfault_real_symbol ("clSVMFree");
  if (svm_pointer != NULL)
    count (CLFAULT_MEM, -1);
  if (real_clSVMFree != NULL)
    real_clSVMFree (context, svm_pointer);
}

CREATE_FN (cl_mem, CLFAULT_MEM, clCreateSubBuffer, (cl_mem buffer,
        cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
        const void *buffer_create_info, cl_int * errcode_ret), (buffer, flags,
        buffer_create_type, buffer_create_info, errcode_ret))

REFCOUNT_FN (clRetainMemObject, cl_mem, CLFAULT_MEM, 1)
REFCOUNT_FN (clReleaseMemObject, cl_mem, CLFAULT_MEM, -1)

STATUS_FN (clGetMemObjectInfo, (cl_mem memobj, cl_mem_info param_name,
        size_t param_value_size, void *param_value,
        size_t *param_value_size_ret), (memobj, param_name, param_value_size,
        param_value, param_value_size_ret))

/* ---- Programs and kernels ----------------------------------------------- */

EXPORT cl_program CL_API_CALL
clCreateProgramWithSource (cl_context context, cl_uint count_,
    const char **strings, const size_t *lengths, cl_int * errcode_ret)
{
  static const char broken[] =
      "\n#error \"clfault: injected build failure\"\n";
  const char **s = strings;
  size_t *l = (size_t *) lengths;
  cl_program program;
  cl_int err;

  REAL_OBJ (clCreateProgramWithSource);
  if (inject ("clCreateProgramWithSource", &err)) {
    if (errcode_ret)
      *errcode_ret = err;
    return NULL;
  }

  pthread_mutex_lock (&lock);
  err = break_build;
  pthread_mutex_unlock (&lock);
  if (err && strings != NULL) {
    /* One more source string: the build then fails in the compiler. */
    s = calloc (count_ + 1, sizeof (*s));
    memcpy (s, strings, count_ * sizeof (*s));
    s[count_] = broken;
    if (lengths != NULL) {
      l = calloc (count_ + 1, sizeof (*l));
      memcpy (l, lengths, count_ * sizeof (*l));
      l[count_] = 0;
    }
    count_++;
  }
  program = real_clCreateProgramWithSource (context, count_, s, l,
      errcode_ret);
  if (s != strings)
    free (s);
  if (l != lengths)
    free (l);
  if (program != NULL)
    count (CLFAULT_PROGRAM, 1);
  return program;
}

EXPORT cl_program CL_API_CALL
clCreateProgramWithBinary (cl_context context, cl_uint num_devices,
    const cl_device_id * device_list, const size_t *lengths,
    const unsigned char **binaries, cl_int * binary_status,
    cl_int * errcode_ret)
{
  cl_program program;
  cl_int err;
  int i;

  REAL_OBJ (clCreateProgramWithBinary);
  if (inject ("clCreateProgramWithBinary", &err)) {
    if (errcode_ret)
      *errcode_ret = err;
    return NULL;
  }
  program = real_clCreateProgramWithBinary (context, num_devices, device_list,
      lengths, binaries, binary_status, errcode_ret);
  if (program != NULL) {
    count (CLFAULT_PROGRAM, 1);
    pthread_mutex_lock (&lock);
    for (i = 0; i < MAX_BINARY_PROGRAMS; i++) {
      if (binary_programs[i] == NULL) {
        binary_programs[i] = program;
        break;
      }
    }
    pthread_mutex_unlock (&lock);
  }
  return program;
}

REFCOUNT_FN (clRetainProgram, cl_program, CLFAULT_PROGRAM, 1)

/* A released program's handle may come back for another program. */
EXPORT cl_int CL_API_CALL
clReleaseProgram (cl_program program)
{
  static __typeof__ (&clGetProgramInfo) get_info;
  cl_uint refs = 0;
  cl_int err;

  REAL (clReleaseProgram);
  if (get_info == NULL)
    get_info = (__typeof__ (&clGetProgramInfo))
        clfault_real_symbol ("clGetProgramInfo");
  if (get_info && get_info (program, CL_PROGRAM_REFERENCE_COUNT,
          sizeof (refs), &refs, NULL) == CL_SUCCESS && refs == 1)
    is_binary_program (program, 1);
  err = real_clReleaseProgram (program);
  if (err == CL_SUCCESS)
    count (CLFAULT_PROGRAM, -1);
  return err;
}

EXPORT cl_int CL_API_CALL
clBuildProgram (cl_program program, cl_uint num_devices,
    const cl_device_id * device_list, const char *options,
    void (CL_CALLBACK * pfn_notify) (cl_program program, void *user_data),
    void *user_data)
{
  cl_int err;

  REAL (clBuildProgram);
  if (inject_as ("clBuildProgram", is_binary_program (program, 0) ?
          "clBuildProgram(binary)" : "clBuildProgram", &err))
    return err;
  return real_clBuildProgram (program, num_devices, device_list, options,
      pfn_notify, user_data);
}

STATUS_FN (clGetProgramInfo, (cl_program program, cl_program_info param_name,
        size_t param_value_size, void *param_value,
        size_t *param_value_size_ret), (program, param_name,
        param_value_size, param_value, param_value_size_ret))

STATUS_FN (clGetProgramBuildInfo, (cl_program program, cl_device_id device,
        cl_program_build_info param_name, size_t param_value_size,
        void *param_value, size_t *param_value_size_ret), (program, device,
        param_name, param_value_size, param_value, param_value_size_ret))

CREATE_FN (cl_kernel, CLFAULT_KERNEL, clCreateKernel, (cl_program program,
        const char *kernel_name, cl_int * errcode_ret), (program, kernel_name,
        errcode_ret))

REFCOUNT_FN (clRetainKernel, cl_kernel, CLFAULT_KERNEL, 1)
REFCOUNT_FN (clReleaseKernel, cl_kernel, CLFAULT_KERNEL, -1)

STATUS_FN (clSetKernelArg, (cl_kernel kernel, cl_uint arg_index,
        size_t arg_size, const void *arg_value), (kernel, arg_index, arg_size,
        arg_value))

STATUS_FN (clGetKernelWorkGroupInfo, (cl_kernel kernel, cl_device_id device,
        cl_kernel_work_group_info param_name, size_t param_value_size,
        void *param_value, size_t *param_value_size_ret), (kernel, device,
        param_name, param_value_size, param_value, param_value_size_ret))

/* ---- Events ------------------------------------------------------------- */

EXPORT cl_int CL_API_CALL
clWaitForEvents (cl_uint num_events, const cl_event * event_list)
{
  cl_int err, real_err;

  REAL (clWaitForEvents);
  real_err = real_clWaitForEvents (num_events, event_list);
  clfault_slow_settle ();
  if (real_err == CL_SUCCESS && clfault_slow_any_failed (num_events,
          event_list))
    real_err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return inject ("clWaitForEvents", &err) ? err : real_err;
}

/* A command the slow device failed reads as failed once it completed. */
EXPORT cl_int CL_API_CALL
clGetEventInfo (cl_event event, cl_event_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
  cl_int err;

  REAL (clGetEventInfo);
  if (inject ("clGetEventInfo", &err))
    return err;
  err = real_clGetEventInfo (event, param_name, param_value_size,
      param_value, param_value_size_ret);
  if (err == CL_SUCCESS && param_name == CL_EVENT_COMMAND_EXECUTION_STATUS &&
      param_value != NULL && *(cl_int *) param_value == CL_COMPLETE &&
      clfault_slow_failed_event (event))
    *(cl_int *) param_value = clfault_slow_failure ();
  return err;
}

STATUS_FN (clGetEventProfilingInfo, (cl_event event,
        cl_profiling_info param_name, size_t param_value_size,
        void *param_value, size_t *param_value_size_ret), (event, param_name,
        param_value_size, param_value, param_value_size_ret))

CREATE_FN (cl_event, CLFAULT_EVENT, clCreateUserEvent, (cl_context context,
        cl_int * errcode_ret), (context, errcode_ret))

REFCOUNT_FN (clRetainEvent, cl_event, CLFAULT_EVENT, 1)
REFCOUNT_FN (clReleaseEvent, cl_event, CLFAULT_EVENT, -1)

/* ---- Commands ----------------------------------------------------------- */

EVENT_FN (clEnqueueReadBuffer, blocking_read, (cl_command_queue command_queue,
        cl_mem buffer, cl_bool blocking_read, size_t offset, size_t size, void
        *ptr, cl_uint num_events_in_wait_list, const cl_event *
        event_wait_list, cl_event * event), (command_queue, buffer,
        blocking_read, offset, size, ptr, num_events_in_wait_list,
        event_wait_list, event))

EVENT_FN (clEnqueueReadBufferRect, blocking_read, (cl_command_queue
        command_queue, cl_mem buffer, cl_bool blocking_read, const size_t
        *buffer_origin, const size_t *host_origin, const size_t *region, size_t
        buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
        size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
        const cl_event * event_wait_list, cl_event * event), (command_queue,
        buffer, blocking_read, buffer_origin, host_origin, region,
        buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
        ptr, num_events_in_wait_list, event_wait_list, event))

EVENT_FN (clEnqueueWriteBuffer, blocking_write, (cl_command_queue
        command_queue, cl_mem buffer, cl_bool blocking_write, size_t offset,
        size_t size, const void *ptr, cl_uint num_events_in_wait_list, const
        cl_event * event_wait_list, cl_event * event), (command_queue, buffer,
        blocking_write, offset, size, ptr, num_events_in_wait_list,
        event_wait_list, event))

EVENT_FN (clEnqueueWriteBufferRect, blocking_write, (cl_command_queue
        command_queue, cl_mem buffer, cl_bool blocking_write, const size_t
        *buffer_origin, const size_t *host_origin, const size_t *region, size_t
        buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
        size_t host_slice_pitch, const void *ptr, cl_uint
        num_events_in_wait_list, const cl_event * event_wait_list, cl_event *
        event), (command_queue, buffer, blocking_write, buffer_origin,
        host_origin, region, buffer_row_pitch, buffer_slice_pitch,
        host_row_pitch, host_slice_pitch, ptr, num_events_in_wait_list,
        event_wait_list, event))

EVENT_FN (clEnqueueFillBuffer, CL_FALSE, (cl_command_queue command_queue,
        cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
        size_t size, cl_uint num_events_in_wait_list, const cl_event *
        event_wait_list, cl_event * event), (command_queue, buffer, pattern,
        pattern_size, offset, size, num_events_in_wait_list, event_wait_list,
        event))

EVENT_FN (clEnqueueCopyBuffer, CL_FALSE, (cl_command_queue command_queue,
        cl_mem src_buffer, cl_mem dst_buffer, size_t src_offset, size_t
        dst_offset, size_t size, cl_uint num_events_in_wait_list, const
        cl_event * event_wait_list, cl_event * event), (command_queue,
        src_buffer, dst_buffer, src_offset, dst_offset, size,
        num_events_in_wait_list, event_wait_list, event))

EVENT_FN (clEnqueueCopyBufferRect, CL_FALSE, (cl_command_queue command_queue,
        cl_mem src_buffer, cl_mem dst_buffer, const size_t *src_origin, const
        size_t *dst_origin, const size_t *region, size_t src_row_pitch, size_t
        src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint
        num_events_in_wait_list, const cl_event * event_wait_list, cl_event *
        event), (command_queue, src_buffer, dst_buffer, src_origin, dst_origin,
        region, src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch,
        num_events_in_wait_list, event_wait_list, event))

EVENT_FN (clEnqueueUnmapMemObject, CL_FALSE, (cl_command_queue command_queue,
        cl_mem memobj, void *mapped_ptr, cl_uint num_events_in_wait_list, const
        cl_event * event_wait_list, cl_event * event), (command_queue, memobj,
        mapped_ptr, num_events_in_wait_list, event_wait_list, event))

EVENT_FN (clEnqueueNDRangeKernel, CL_FALSE, (cl_command_queue command_queue,
        cl_kernel kernel, cl_uint work_dim, const size_t *global_work_offset,
        const size_t *global_work_size, const size_t *local_work_size, cl_uint
        num_events_in_wait_list, const cl_event * event_wait_list, cl_event *
        event), (command_queue, kernel, work_dim, global_work_offset,
        global_work_size, local_work_size, num_events_in_wait_list,
        event_wait_list, event))

EVENT_FN (clEnqueueMarkerWithWaitList, CL_FALSE, (cl_command_queue
        command_queue, cl_uint num_events_in_wait_list, const cl_event *
        event_wait_list, cl_event * event), (command_queue,
        num_events_in_wait_list, event_wait_list, event))

EVENT_FN (clEnqueueBarrierWithWaitList, CL_FALSE, (cl_command_queue
        command_queue, cl_uint num_events_in_wait_list, const cl_event *
        event_wait_list, cl_event * event), (command_queue,
        num_events_in_wait_list, event_wait_list, event))
/* *INDENT-ON* */

EXPORT void *CL_API_CALL
clEnqueueMapBuffer (cl_command_queue command_queue, cl_mem buffer,
    cl_bool blocking_map, cl_map_flags map_flags, size_t offset, size_t size,
    cl_uint num_events_in_wait_list, const cl_event * event_wait_list,
    cl_event * event, cl_int * errcode_ret)
{
  ClFaultHold *hold;
  cl_int err;
  void *p;

  REAL_OBJ (clEnqueueMapBuffer);
  if (bad_wait_list ("clEnqueueMapBuffer", num_events_in_wait_list,
          event_wait_list)) {
    if (errcode_ret)
      *errcode_ret = CL_INVALID_EVENT_WAIT_LIST;
    return NULL;
  }
  if (inject ("clEnqueueMapBuffer", &err)) {
    if (errcode_ret)
      *errcode_ret = err;
    return NULL;
  }
  hold = clfault_slow_hold ("clEnqueueMapBuffer", command_queue,
      &num_events_in_wait_list, &event_wait_list);
  p = real_clEnqueueMapBuffer (command_queue, buffer, blocking_map, map_flags,
      offset, size, num_events_in_wait_list, event_wait_list, event, &err);
  err = clfault_slow_commit (hold, err, event, blocking_map);
  if (err != CL_SUCCESS)
    p = NULL;
  if (errcode_ret)
    *errcode_ret = err;
  if (p != NULL && event != NULL)
    count (CLFAULT_EVENT, 1);
  return p;
}

/* ---- Control ------------------------------------------------------------ */

EXPORT void
clfault_reset (void)
{
  pthread_mutex_lock (&lock);
  armed = persist = 0;
  calls = failures = nth = 0;
  only[0] = '\0';
  last_failed = NULL;
  pthread_mutex_unlock (&lock);
}

EXPORT void
clfault_arm (unsigned long n, cl_int error, const char *func, int persistent)
{
  pthread_mutex_lock (&lock);
  armed = n > 0;
  nth = n;
  persist = persistent;
  fault_error = error;
  snprintf (only, sizeof (only), "%s", func ? func : "");
  calls = failures = 0;
  last_failed = NULL;
  pthread_mutex_unlock (&lock);
}

EXPORT void
clfault_suspend (int s)
{
  pthread_mutex_lock (&lock);
  suspended = s;
  pthread_mutex_unlock (&lock);
}

EXPORT unsigned long
clfault_calls (void)
{
  unsigned long n;

  pthread_mutex_lock (&lock);
  n = calls;
  pthread_mutex_unlock (&lock);
  return n;
}

EXPORT unsigned long
clfault_failures (void)
{
  unsigned long n;

  pthread_mutex_lock (&lock);
  n = failures;
  pthread_mutex_unlock (&lock);
  return n;
}

EXPORT const char *
clfault_last_failed (void)
{
  const char *name;

  pthread_mutex_lock (&lock);
  name = last_failed;
  pthread_mutex_unlock (&lock);
  return name;
}

EXPORT unsigned long
clfault_failure (unsigned int i, const char **name)
{
  unsigned long call = 0;

  pthread_mutex_lock (&lock);
  if (i < failures && i < MAX_KEPT) {
    call = kept[i].call;
    if (name)
      *name = kept[i].name;
  }
  pthread_mutex_unlock (&lock);
  return call;
}

EXPORT void
clfault_set_break_build (int broken)
{
  pthread_mutex_lock (&lock);
  break_build = broken;
  pthread_mutex_unlock (&lock);
}

EXPORT long
clfault_live (ClFaultKind kind)
{
  long n;

  pthread_mutex_lock (&lock);
  n = kind < CLFAULT_N_KINDS ? live[kind] : 0;
  pthread_mutex_unlock (&lock);
  return n;
}

EXPORT long
clfault_live_total (void)
{
  long n = 0;
  int i;

  pthread_mutex_lock (&lock);
  for (i = 0; i < CLFAULT_N_KINDS; i++)
    n += live[i];
  pthread_mutex_unlock (&lock);
  return n;
}

EXPORT const char *
clfault_describe_live (void)
{
  static char buf[256];
  size_t pos = 0;
  int i;

  pthread_mutex_lock (&lock);
  for (i = 0; i < CLFAULT_N_KINDS; i++)
    pos += snprintf (buf + pos, sizeof (buf) - pos, "%s%s=%ld", i ? " " : "",
        kind_names[i], live[i]);
  pthread_mutex_unlock (&lock);
  return buf;
}

static char platform_name[64];

EXPORT void
clfault_set_platform_name (const char *name)
{
  pthread_mutex_lock (&lock);
  snprintf (platform_name, sizeof (platform_name), "%s", name ? name : "");
  pthread_mutex_unlock (&lock);
}

EXPORT cl_int CL_API_CALL
clGetPlatformInfo (cl_platform_id platform, cl_platform_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
  cl_int err;
  size_t size;

  REAL (clGetPlatformInfo);
  if (inject ("clGetPlatformInfo", &err))
    return err;
  pthread_mutex_lock (&lock);
  size = strlen (platform_name) + 1;
  if (param_name != CL_PLATFORM_NAME || size == 1) {
    pthread_mutex_unlock (&lock);
    return real_clGetPlatformInfo (platform, param_name, param_value_size,
        param_value, param_value_size_ret);
  }
  err = param_value && param_value_size < size ? CL_INVALID_VALUE : CL_SUCCESS;
  if (err == CL_SUCCESS && param_value)
    memcpy (param_value, platform_name, size);
  if (err == CL_SUCCESS && param_value_size_ret)
    *param_value_size_ret = size;
  pthread_mutex_unlock (&lock);
  return err;
}

static void clfault_init (void) __attribute__((constructor));

static void
clfault_init (void)
{
  const char *s;

  if ((s = getenv ("CLFAULT_NTH")) != NULL && atol (s) > 0) {
    nth = strtoul (s, NULL, 10);
    armed = 1;
  }
  if ((s = getenv ("CLFAULT_ERROR")) != NULL)
    fault_error = (cl_int) atoi (s);
  if ((s = getenv ("CLFAULT_FUNC")) != NULL)
    snprintf (only, sizeof (only), "%s", s);
  persist = getenv ("CLFAULT_PERSIST") != NULL;
  break_build = getenv ("CLFAULT_BREAK_BUILD") != NULL;
  report = getenv ("CLFAULT_REPORT") != NULL;
  trace = getenv ("CLFAULT_TRACE") != NULL;
  clfault_slow_init ();
}

static void clfault_fini (void) __attribute__((destructor));

static void
clfault_fini (void)
{
  if (report)
    fprintf (stderr, "clfault: %lu calls counted, %lu failed (last %s); "
        "live at exit: %s\n", calls, failures,
        last_failed ? last_failed : "none", clfault_describe_live ());
}
