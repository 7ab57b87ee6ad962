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

/* cl-cuda-import [DEVICE] [ITERATIONS]
 *
 * CUDA frames into OpenCL through gst/gstclcuda.c, on a machine with an
 * NVIDIA GPU. A CUDA context on device 0; a 4K NV12 frame in pitched
 * memory from cuMemAllocPitch, as GStreamer 1.22's CUDA memory is, filled
 * with a known pattern from the host; the OpenCL device DEVICE (default
 * "nvidia") matched by UUID; then
 *  - CUDA to OpenCL: the frame copied into a pool buffer, read back with
 *    clEnqueueReadBuffer and compared bit for bit;
 *  - OpenCL to CUDA: a kernel reads that buffer and writes another (each
 *    byte XOR 0xA5), which is copied out into a second pitched frame and
 *    compared with the pattern's XOR;
 *  - the medians over ITERATIONS (default 200) of the device-to-device
 *    copy of the frame in, out, in with the OpenCL acquire and release
 *    around it, and a plain pitched-to-pitched cuMemcpy2D for reference;
 *  - open file descriptors before the pool, with it and after it (whether
 *    OpenCL keeps the exported descriptors).
 * Exits 1 at the first failure, saying which call failed. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "gstclcontext-private.h"
#include "gstclcuda-private.h"
#include "gstclerror-private.h"
#include <CL/cl_ext.h>

#include "median.h"

#define WIDTH 3840
#define HEIGHT 2160
#define ROWS (HEIGHT * 3 / 2)   /* NV12: luma rows, then half as many UV */
#define FRAME_SIZE ((gsize) WIDTH * ROWS)
#define POOL_BUFFERS 3

/* The driver's calls that the library does not wrap. */
static struct
{
  CUresult (*DeviceGet) (CUdevice * device, gint ordinal);
  CUresult (*DeviceGetName) (gchar * name, gint size, CUdevice device);
  CUresult (*CtxCreate) (CUcontext * ctx, guint flags, CUdevice device);
  CUresult (*CtxDestroy) (CUcontext ctx);
  CUresult (*CtxSynchronize) (void);
  CUresult (*MemAllocPitch) (CUdeviceptr * ptr, gsize * pitch,
      gsize width_in_bytes, gsize height, guint element_size);
  CUresult (*MemFree) (CUdeviceptr ptr);
  CUresult (*Memcpy2D) (const CUDA_MEMCPY2D * copy);
  CUresult (*MemRetainAllocationHandle) (guint64 * handle, gpointer ptr);
} cu;

static const gchar *KERNEL =
    "__kernel void flip (__global const uchar *src, __global uchar *dst)\n"
    "{ size_t i = get_global_id (0); dst[i] = src[i] ^ (uchar) 0xA5; }\n";

typedef struct
{
  CUdeviceptr ptr;
  gsize pitch;
} Frame;

static void
die (const gchar * what, GError * error)
{
  g_printerr ("FAILED: %s: %s\n", what, error ? error->message : "");
  exit (1);
}

static void
check_cu (CUresult status, const gchar * call)
{
  GError *error = NULL;

  if (status != CUDA_SUCCESS) {
    gst_cl_cuda_set_error (&error, status, "%s", call);
    die (call, error);
  }
}

static void
check_cl (cl_int status, const gchar * call)
{
  if (status != CL_SUCCESS) {
    g_printerr ("FAILED: %s: %s (%d)\n", call, gst_cl_error_name (status),
        status);
    exit (1);
  }
}

static void
load_calls (void)
{
  const gchar *reason;

  if (!gst_cl_cuda_load (&reason)) {
    g_printerr ("no CUDA: %s\n", reason);
    exit (1);
  }
  cu.DeviceGet = gst_cl_cuda_symbol ("cuDeviceGet");
  cu.DeviceGetName = gst_cl_cuda_symbol ("cuDeviceGetName");
  cu.CtxCreate = gst_cl_cuda_symbol ("cuCtxCreate_v2");
  cu.CtxDestroy = gst_cl_cuda_symbol ("cuCtxDestroy_v2");
  cu.CtxSynchronize = gst_cl_cuda_symbol ("cuCtxSynchronize");
  cu.MemAllocPitch = gst_cl_cuda_symbol ("cuMemAllocPitch_v2");
  cu.MemFree = gst_cl_cuda_symbol ("cuMemFree_v2");
  cu.Memcpy2D = gst_cl_cuda_symbol ("cuMemcpy2D_v2");
  cu.MemRetainAllocationHandle =
      gst_cl_cuda_symbol ("cuMemRetainAllocationHandle");
  if (!cu.DeviceGet || !cu.DeviceGetName || !cu.CtxCreate || !cu.CtxDestroy
      || !cu.CtxSynchronize || !cu.MemAllocPitch || !cu.MemFree
      || !cu.Memcpy2D || !cu.MemRetainAllocationHandle)
    die ("the driver lacks an entry point the tool uses", NULL);
}

static gint
open_fds (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  gint n = 0;

  while (dir && g_dir_read_name (dir))
    n++;
  if (dir)
    g_dir_close (dir);
  return n - 1;                 /* the folder's own descriptor */
}

static void
print_uuid (const gchar * what, const guint8 uuid[16])
{
  gint i;

  g_print ("%s UUID ", what);
  for (i = 0; i < 16; i++)
    g_print ("%02x%s", uuid[i], i == 3 || i == 5 || i == 7 || i == 9 ?
        "-" : "");
  g_print ("\n");
}

/* A pitched NV12 frame as cuMemAllocPitch gives it (16-byte elements, as
 * GStreamer 1.22's allocator asks). */
static Frame
alloc_frame (void)
{
  Frame frame;

  check_cu (cu.MemAllocPitch (&frame.ptr, &frame.pitch, WIDTH, ROWS, 16),
      "cuMemAllocPitch");
  return frame;
}

/* Copies between @host (rows of WIDTH bytes) and @frame. */
static void
host_copy (Frame * frame, guint8 * host, gboolean to_device)
{
  CUDA_MEMCPY2D copy = {.WidthInBytes = WIDTH,.Height = ROWS };

  copy.srcMemoryType = to_device ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
  copy.dstMemoryType = to_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  copy.srcHost = host;
  copy.dstHost = host;
  copy.srcDevice = copy.dstDevice = frame->ptr;
  copy.srcPitch = to_device ? WIDTH : frame->pitch;
  copy.dstPitch = to_device ? frame->pitch : WIDTH;
  check_cu (cu.Memcpy2D (&copy), "cuMemcpy2D (host)");
}

/* The frame's two planes at the pool buffer's dense layout (pitch WIDTH). */
static void
frame_planes (const Frame * frame, GstClCudaPlaneCopy planes[2])
{
  GstClCudaPlaneCopy y = { frame->ptr, frame->pitch, 0, WIDTH, WIDTH,
    HEIGHT
  };
  GstClCudaPlaneCopy uv = { frame->ptr + frame->pitch * HEIGHT, frame->pitch,
    (gsize) WIDTH * HEIGHT, WIDTH, WIDTH, HEIGHT / 2
  };

  planes[0] = y;
  planes[1] = uv;
}

/* Counts the bytes where @a and @b differ; prints the first. */
static gsize
count_differences (const guint8 * a, const guint8 * b, gsize size)
{
  gsize i, n = 0;

  for (i = 0; i < size; i++) {
    if (a[i] != b[i] && n++ == 0)
      g_print ("  first difference at byte %" G_GSIZE_FORMAT
          " (row %" G_GSIZE_FORMAT "): %u, expected %u\n", i, i / WIDTH,
          a[i], b[i]);
  }
  return n;
}

typedef struct
{
  GstClContext *ctx;
  cl_command_queue queue;
  CUcontext cuda;
  GstClCudaPool *pool;
  Frame in, out;
  guint8 *pattern, *host;
  gint iterations;
} Probe;

/* Acquires (or releases) pool buffers 0 .. @n - 1 on the queue. */
static void
hand_over (Probe * p, guint n, gboolean acquire)
{
  GError *error = NULL;
  guint i;

  for (i = 0; i < n; i++) {
    if (!(acquire ? gst_cl_cuda_pool_acquire : gst_cl_cuda_pool_release)
        (p->pool, i, p->queue, 0, NULL, NULL, &error))
      die (acquire ? "acquire" : "release", error);
  }
}

static gboolean
cuda_to_opencl (Probe * p)
{
  GstClCudaPlaneCopy planes[2];
  GError *error = NULL;
  gsize n;

  frame_planes (&p->in, planes);
  if (!gst_cl_cuda_pool_copy_in (p->pool, 0, planes, 2, &error))
    die ("copy in", error);
  hand_over (p, 1, TRUE);
  memset (p->host, 0x5a, FRAME_SIZE);
  check_cl (clEnqueueReadBuffer (p->queue, gst_cl_cuda_pool_get_buffer (p->pool,
              0), CL_FALSE, 0, FRAME_SIZE, p->host, 0, NULL, NULL),
      "clEnqueueReadBuffer");
  hand_over (p, 1, FALSE);
  check_cl (clFinish (p->queue), "clFinish");
  n = count_differences (p->host, p->pattern, FRAME_SIZE);
  g_print ("CUDA -> OpenCL (cuMemcpy2DAsync into the pool, clEnqueueReadBuffer"
      "): %" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT " differ%s\n",
      FRAME_SIZE, n, n ? "" : ": bytes identical");
  return n == 0;
}

static cl_kernel
build_kernel (Probe * p)
{
  cl_context context = gst_cl_context_get_handle (p->ctx);
  cl_device_id device = gst_cl_context_get_device (p->ctx);
  cl_int status;
  cl_program program = clCreateProgramWithSource (context, 1, &KERNEL, NULL,
      &status);
  cl_kernel kernel;

  check_cl (status, "clCreateProgramWithSource");
  check_cl (clBuildProgram (program, 1, &device, "", NULL, NULL),
      "clBuildProgram");
  kernel = clCreateKernel (program, "flip", &status);
  check_cl (status, "clCreateKernel");
  clReleaseProgram (program);
  return kernel;
}

/* A kernel reads pool buffer 0 (imported from CUDA) and writes buffer 1,
 * which is copied out into CUDA memory. */
static gboolean
opencl_to_cuda (Probe * p)
{
  cl_mem src = gst_cl_cuda_pool_get_buffer (p->pool, 0);
  cl_mem dst = gst_cl_cuda_pool_get_buffer (p->pool, 1);
  cl_kernel kernel = build_kernel (p);
  gsize global = FRAME_SIZE, i, n;
  GstClCudaPlaneCopy planes[2];
  GError *error = NULL;

  check_cl (clSetKernelArg (kernel, 0, sizeof (cl_mem), &src), "arg 0");
  check_cl (clSetKernelArg (kernel, 1, sizeof (cl_mem), &dst), "arg 1");
  hand_over (p, 2, TRUE);
  check_cl (clEnqueueNDRangeKernel (p->queue, kernel, 1, NULL, &global, NULL,
          0, NULL, NULL), "clEnqueueNDRangeKernel");
  hand_over (p, 2, FALSE);
  check_cl (clFinish (p->queue), "clFinish");
  clReleaseKernel (kernel);

  frame_planes (&p->out, planes);
  if (!gst_cl_cuda_pool_copy_out (p->pool, 1, planes, 2, &error))
    die ("copy out", error);
  memset (p->host, 0x5a, FRAME_SIZE);
  host_copy (&p->out, p->host, FALSE);
  for (i = 0; i < FRAME_SIZE; i++)
    p->host[i] ^= 0xA5;
  n = count_differences (p->host, p->pattern, FRAME_SIZE);
  g_print ("OpenCL -> CUDA (kernel reads the import, writes another, "
      "cuMemcpy2DAsync out): %" G_GSIZE_FORMAT " differ%s\n", n,
      n ? "" : ": bytes identical");
  return n == 0;
}

typedef enum
{
  TIME_COPY_IN,
  TIME_COPY_OUT,
  TIME_IN_ACQUIRED,
  TIME_REFERENCE,
} What;

static const gchar *what_names[] = {
  "copy in (CUDA pitched -> pool buffer, 2 planes, waited)",
  "copy out (pool buffer -> CUDA pitched, 2 planes, waited)",
  "copy in + OpenCL acquire + release + clFinish",
  "reference: cuMemcpy2D pitched -> pitched + cuCtxSynchronize",
};

static void
run_once (Probe * p, What what, guint i)
{
  GstClCudaPlaneCopy planes[2];
  CUDA_MEMCPY2D copy = {.srcMemoryType = CU_MEMORYTYPE_DEVICE,
    .dstMemoryType = CU_MEMORYTYPE_DEVICE,.srcDevice = p->in.ptr,
    .srcPitch = p->in.pitch,.dstDevice = p->out.ptr,.dstPitch = p->out.pitch,
    .WidthInBytes = WIDTH,.Height = ROWS
  };
  GError *error = NULL;
  guint index = i % POOL_BUFFERS;

  frame_planes (what == TIME_COPY_OUT ? &p->out : &p->in, planes);
  if (what == TIME_REFERENCE) {
    check_cu (cu.Memcpy2D (&copy), "cuMemcpy2D");
    check_cu (cu.CtxSynchronize (), "cuCtxSynchronize");
  } else if (what == TIME_COPY_OUT) {
    if (!gst_cl_cuda_pool_copy_out (p->pool, index, planes, 2, &error))
      die ("copy out", error);
  } else {
    if (!gst_cl_cuda_pool_copy_in (p->pool, index, planes, 2, &error))
      die ("copy in", error);
  }
  if (what == TIME_IN_ACQUIRED) {
    if (!gst_cl_cuda_pool_acquire (p->pool, index, p->queue, 0, NULL, NULL,
            &error) || !gst_cl_cuda_pool_release (p->pool, index, p->queue,
            0, NULL, NULL, &error))
      die ("acquire/release", error);
    check_cl (clFinish (p->queue), "clFinish");
  }
}

static void
print_times (Probe * p)
{
  gdouble *ms = g_new (gdouble, p->iterations);
  What what;
  gint i;

  g_print ("4K NV12 frame (%" G_GSIZE_FORMAT " bytes), median of %d, after 10 "
      "untimed:\n", FRAME_SIZE, p->iterations);
  for (what = TIME_COPY_IN; what <= TIME_REFERENCE; what++) {
    gdouble m;

    for (i = 0; i < 10; i++)
      run_once (p, what, i);
    for (i = 0; i < p->iterations; i++) {
      gint64 t0 = g_get_monotonic_time ();

      run_once (p, what, i);
      ms[i] = (g_get_monotonic_time () - t0) / 1e3;
    }
    m = median (ms, p->iterations);
    g_print ("  %-60s %.4f ms  (%.0f GB/s)\n", what_names[what], m,
        FRAME_SIZE / (m * 1e6));
  }
  g_free (ms);
}

/* The CUDA context on device 0 and the OpenCL device @spec, which must be
 * the same GPU. */
static void
open_devices (Probe * p, const gchar * spec)
{
  guint8 uuid[16], cl_uuid[16];
  GError *error = NULL;
  gchar name[256] = "", *reason = NULL;
  CUdevice device;

  check_cu (cu.DeviceGet (&device, 0), "cuDeviceGet");
  check_cu (cu.DeviceGetName (name, sizeof (name) - 1, device),
      "cuDeviceGetName");
  check_cu (cu.CtxCreate (&p->cuda, 0, device), "cuCtxCreate");
  if (!gst_cl_cuda_context_get_uuid (p->cuda, uuid, &error))
    die ("UUID", error);
  g_print ("CUDA device 0: %s\n", name);
  print_uuid ("  CUDA", uuid);

  p->ctx = gst_cl_context_new (spec, &error);
  if (!p->ctx)
    die ("OpenCL device", error);
  p->queue = gst_cl_context_get_queue (p->ctx);
  g_print ("OpenCL device: %s\n", gst_cl_context_get_device_name (p->ctx));
  if (clGetDeviceInfo (gst_cl_context_get_device (p->ctx),
          CL_DEVICE_UUID_KHR, 16, cl_uuid, NULL) == CL_SUCCESS)
    print_uuid ("  OpenCL", cl_uuid);
  if (!gst_cl_cuda_device_matches (gst_cl_context_get_device (p->ctx), uuid,
          &reason)) {
    g_printerr ("FAILED: %s\n", reason);
    exit (1);
  }
  g_print ("  the same GPU, and it imports opaque file descriptors\n");
}

/* What the probe found about GStreamer 1.22's memory: it cannot be
 * exported; and the context of a frame's pointer. */
static void
probe_pitched (Probe * p)
{
  GError *error = NULL;
  guint64 handle = 0;
  CUresult status;
  CUcontext owner;

  g_print ("pitched frames: pitch %" G_GSIZE_FORMAT " for %d bytes a row\n",
      p->in.pitch, WIDTH);
  status = cu.MemRetainAllocationHandle (&handle, (gpointer) p->in.ptr);
  if (status != CUDA_SUCCESS) {
    gst_cl_cuda_set_error (&error, status, "cuMemRetainAllocationHandle");
    g_print ("  exportable in place? no: %s\n", error->message);
    g_clear_error (&error);
  } else {
    g_print ("  exportable in place? cuMemRetainAllocationHandle succeeded\n");
  }
  owner = gst_cl_cuda_pointer_get_context (p->in.ptr, &error);
  g_print ("  its context by cuPointerGetAttribute: %s\n",
      owner == p->cuda ? "the one that allocated it" : error ?
      error->message : "ANOTHER ONE");
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  Probe p = { 0, };
  GError *error = NULL;
  gint fds[3];
  gboolean ok;
  gsize i;

  gst_init (&argc, &argv);
  p.iterations = argc > 2 ? MAX (atoi (argv[2]), 1) : 200;
  load_calls ();
  open_devices (&p, argc > 1 ? argv[1] : "nvidia");
  p.in = alloc_frame ();
  p.out = alloc_frame ();
  probe_pitched (&p);

  p.pattern = g_malloc (FRAME_SIZE);
  p.host = g_malloc (FRAME_SIZE);
  for (i = 0; i < FRAME_SIZE; i++)
    p.pattern[i] = (guint8) ((i * 2654435761u) >> 13) ^ (guint8) (i / WIDTH);
  host_copy (&p.in, p.pattern, TRUE);

  fds[0] = open_fds ();
  p.pool = gst_cl_cuda_pool_new (p.cuda, gst_cl_context_get_handle (p.ctx),
      gst_cl_context_get_device (p.ctx), POOL_BUFFERS, FRAME_SIZE, &error);
  if (!p.pool)
    die ("pool", error);
  fds[1] = open_fds ();
  g_print ("pool: %d buffers of %" G_GSIZE_FORMAT " bytes (asked %"
      G_GSIZE_FORMAT ")\n", POOL_BUFFERS, gst_cl_cuda_pool_get_size (p.pool),
      FRAME_SIZE);

  ok = cuda_to_opencl (&p) & opencl_to_cuda (&p);
  print_times (&p);

  gst_cl_cuda_pool_free (p.pool);
  fds[2] = open_fds ();
  g_print ("open file descriptors: %d before the pool, %d with it, %d after "
      "it (%s)\n", fds[0], fds[1], fds[2], fds[2] != fds[0] ?
      "LEAKED" : fds[1] == fds[0] + POOL_BUFFERS ?
      "OpenCL keeps each exported one while its buffer lives" : "none kept");
  check_cu (cu.MemFree (p.in.ptr), "cuMemFree");
  check_cu (cu.MemFree (p.out.ptr), "cuMemFree");
  check_cu (cu.CtxDestroy (p.cuda), "cuCtxDestroy");
  gst_object_unref (p.ctx);
  g_free (p.pattern);
  g_free (p.host);
  g_print ("%s\n", ok ? "OK" : "FAILED: bytes differ");
  return ok ? 0 : 1;
}
