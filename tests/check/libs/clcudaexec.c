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

/* The commands of gst/gstclcudaexec.c that move memory, on a CUDA driver
 * whose device is the host (check/libs/fakecudahost.c): plane copies
 * between frames bound to stand-ins, an OpenCL buffer's twin taken with its
 * contents, filled and read back, the read complete only once waited for,
 * the twin handed back to OpenCL. Launches cannot run there: a PoCL
 * program's is refused with a message, not a crash. The launches
 * themselves run on the GPU machine (tests/gpu/gpu-cuda-checks.sh). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gmodule.h>
#include <string.h>

#include "gstclcudaexec-private.h"
#include "gstclframe-private.h"
#include "gstclnegotiation-private.h"
#include "gstclcudahost-private.h"
#include "gstclcudaimport-private.h"
#include "gstclinflight-private.h"
#include "gstclstage-private.h"
#include "fixture.h"
#include "robust.h"
#include "fakecuda.h"

#define POISON 0xa5

/* The fake driver's context: any pointer. */
#define CUDA_CONTEXT ((CUcontext) 0x1)

static GstClCudaExec *
new_exec (void)
{
  GError *error = NULL;
  GstClCudaExec *exec;

  fail_unless (gst_cl_cuda_load (NULL), "the fake driver does not load");
  exec = gst_cl_cuda_exec_new (CUDA_CONTEXT, fixture_context, &error);
  fail_unless (exec != NULL, "%s", error ? error->message : "");
  return exec;
}

/* The fake driver's count @name (fakecudahost.c). */
static guint
fake_count (const gchar * name)
{
  GModule *driver = g_module_open (g_getenv ("GST_CL_CUDA_LIBRARY"), 0);
  guint *count = NULL;

  fail_unless (driver && g_module_symbol (driver, name, (gpointer *) & count));
  g_module_make_resident (driver);
  return *count;
}

/* How many times the fake driver has run the word copy kernel
 * (gst_cl_copy_words: the reads back's). */
static guint
word_copies (void)
{
  return fake_count ("fakecudahost_word_copies");
}

/* A buffer of @size bytes on the fixture's device holding @bytes. */
static cl_mem
cl_buffer_with (const guint8 * bytes, gsize size)
{
  GError *error = NULL;
  cl_mem mem = gst_cl_context_create_buffer (fixture_context,
      CL_MEM_READ_WRITE, size, "test", &error);

  fail_unless (mem != NULL, "%s", error ? error->message : "");
  fail_unless_equals_int (clEnqueueWriteBuffer (gst_cl_context_get_queue
          (fixture_context), mem, CL_TRUE, 0, size, bytes, 0, NULL, NULL),
      CL_SUCCESS);
  return mem;
}

static void
cl_buffer_read (cl_mem mem, guint8 * bytes, gsize size)
{
  fail_unless_equals_int (clEnqueueReadBuffer (gst_cl_context_get_queue
          (fixture_context), mem, CL_TRUE, 0, size, bytes, 0, NULL, NULL),
      CL_SUCCESS);
}

/* A plane copy between the stand-ins of two frames: the rows of the region
 * only, from each frame's offset and pitch. */
GST_START_TEST (test_plane_copy)
{
  GstClCudaExec *exec = new_exec ();
  const gsize src_pitch = 40, dst_pitch = 56, rows = 7, row_bytes = 29;
  guint8 *src = g_malloc (src_pitch * 10), *dst = g_malloc (dst_pitch * 10);
  GError *error = NULL;
  cl_mem in, out;
  gsize x, y;

  for (x = 0; x < src_pitch * 10; x++)
    src[x] = (guint8) (x * 7 + 3);
  memset (dst, POISON, dst_pitch * 10);
  in = gst_cl_cuda_exec_bind (exec, 0, (CUdeviceptr) (guintptr) src);
  out = gst_cl_cuda_exec_bind (exec, 1, (CUdeviceptr) (guintptr) dst);
  fail_unless (in != NULL && out != NULL && in != out);
  fail_unless (gst_cl_cuda_exec_copy (exec, in, 2 * src_pitch + 3, src_pitch,
          out, dst_pitch + 5, dst_pitch, row_bytes, rows, &error), "%s",
      error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
      error ? error->message : "");
  for (y = 0; y < 10; y++)
    for (x = 0; x < dst_pitch; x++) {
      const gboolean inside = y >= 1 && y < 1 + rows && x >= 5 &&
          x < 5 + row_bytes;
      const guint8 want = inside ? src[(y + 1) * src_pitch + x - 2] : POISON;

      fail_unless_equals_int (dst[y * dst_pitch + x], want);
    }
  gst_cl_cuda_exec_free (exec);
  g_free (src);
  g_free (dst);
}

GST_END_TEST;

/* An OpenCL buffer named in a command gets a twin with its contents; a
 * fill changes the twin alone; its read back (by the word copy kernel)
 * completes at the wait; handed back, the OpenCL buffer holds the twin's
 * contents. */
GST_START_TEST (test_twin)
{
  GstClCudaExec *exec = new_exec ();
  guint8 bytes[64], got[64], read[64];
  const guint32 word = 0x11223344;
  const guint copies = word_copies ();
  const guint modules = fake_count ("fakecudahost_modules");
  GError *error = NULL;
  GstClCudaRead *done = NULL;
  cl_mem mem;
  guint i;

  for (i = 0; i < sizeof (bytes); i++)
    bytes[i] = (guint8) (200 - i);
  mem = cl_buffer_with (bytes, sizeof (bytes));
  memset (read, POISON, sizeof (read));

  fail_unless (gst_cl_cuda_exec_fill (exec, mem, &word, sizeof (word), 8, 16,
          NULL, &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_read (exec, mem, 4, 32, read, &done,
          &error), "%s", error ? error->message : "");
  fail_unless_equals_int (word_copies (), copies + 1);
  /* not before the wait: the host's copy is made there */
  fail_unless (gst_cl_cuda_read_status (done) == GST_CL_CUDA_READ_PENDING);
  fail_unless_equals_int (read[0], POISON);
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (gst_cl_cuda_read_status (done),
      GST_CL_CUDA_READ_DONE);
  for (i = 0; i < 32; i++) {
    const guint at = 4 + i;
    const guint8 want = at >= 8 && at < 24 ?
        ((const guint8 *) &word)[(at - 8) % 4] : bytes[at];

    fail_unless_equals_int (read[i], want);
  }
  gst_cl_cuda_read_unref (done);

  /* OpenCL's copy is untouched until handed back */
  cl_buffer_read (mem, got, sizeof (got));
  fail_unless (memcmp (got, bytes, sizeof (bytes)) == 0);
  fail_unless (gst_cl_cuda_exec_hand_back (exec, &error), "%s",
      error ? error->message : "");
  cl_buffer_read (mem, got, sizeof (got));
  for (i = 0; i < sizeof (got); i++) {
    const guint8 want = i >= 8 && i < 24 ?
        ((const guint8 *) &word)[(i - 8) % 4] : bytes[i];

    fail_unless_equals_int (got[i], want);
  }

  /* a twin let go of is taken anew from OpenCL: written there since */
  fail_unless (gst_cl_cuda_exec_read (exec, mem, 0, sizeof (read), read,
          &done, &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error));
  fail_unless (memcmp (read, got, sizeof (got)) == 0);
  gst_cl_cuda_read_unref (done);
  memset (bytes, 9, sizeof (bytes));
  fail_unless_equals_int (clEnqueueWriteBuffer (gst_cl_context_get_queue
          (fixture_context), mem, CL_TRUE, 0, sizeof (bytes), bytes, 0, NULL,
          NULL), CL_SUCCESS);
  gst_cl_cuda_exec_forget (exec);
  fail_unless (gst_cl_cuda_exec_read (exec, mem, 0, sizeof (read), read,
          &done, &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error));
  fail_unless (memcmp (read, bytes, sizeof (bytes)) == 0);
  gst_cl_cuda_read_unref (done);

  clReleaseMemObject (mem);
  gst_cl_cuda_exec_free (exec);
  /* its module unloaded with it */
  fail_unless_equals_int (fake_count ("fakecudahost_modules"), modules);
}

GST_END_TEST;

/* A twin whose contents the stream cannot be made to wait for is refused,
 * the failing call named, its memory freed; the next command takes it
 * anew, whole. */
GST_START_TEST (test_twin_refused)
{
  GstClCudaExec *exec = new_exec ();
  const gchar *calls[] = { "cuEventRecord", "cuStreamWaitEvent" };
  guint8 bytes[32], read[32];
  GError *error = NULL;
  GstClCudaRead *done = NULL;
  cl_mem mem;
  guint i;

  for (i = 0; i < sizeof (bytes); i++)
    bytes[i] = (guint8) (3 * i + 1);
  mem = cl_buffer_with (bytes, sizeof (bytes));
  for (i = 0; i < G_N_ELEMENTS (calls); i++) {
    gchar *want = g_strdup_printf ("%s (twin)", calls[i]);
    gchar *fail = g_strdup_printf ("%s:1", calls[i]);
    const guint blocks = fake_count ("fakecudahost_blocks");

    g_setenv ("FAKECUDA_FAIL", fail, TRUE);
    fail_if (gst_cl_cuda_exec_read (exec, mem, 0, sizeof (read), read, &done,
            &error));
    g_unsetenv ("FAKECUDA_FAIL");
    fail_unless (error != NULL && strstr (error->message, want) != NULL,
        "%s", error ? error->message : "no error");
    /* the refused twin's memory freed */
    fail_unless_equals_int (fake_count ("fakecudahost_blocks"), blocks);
    g_clear_error (&error);
    g_free (fail);
    g_free (want);
  }
  memset (read, POISON, sizeof (read));
  fail_unless (gst_cl_cuda_exec_read (exec, mem, 0, sizeof (read), read,
          &done, &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
      error ? error->message : "");
  fail_unless (memcmp (read, bytes, sizeof (bytes)) == 0);
  gst_cl_cuda_read_unref (done);
  clReleaseMemObject (mem);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* A read back goes by DMA where it is not of whole words, or where the
 * word copy kernel does not load or would not find pinned memory at its
 * host address; as right. */
GST_START_TEST (test_read_by_dma)
{
  GstClCudaExec *exec, *no_ptx, *no_uva;
  const guint copies = word_copies ();
  guint8 bytes[64], read[64], *big, *big_read;
  GError *error = NULL;
  GstClCudaRead *done = NULL;
  cl_mem mem;
  guint i, k;

  for (i = 0; i < sizeof (bytes); i++)
    bytes[i] = (guint8) (3 * i + 1);
  mem = cl_buffer_with (bytes, sizeof (bytes));
  exec = new_exec ();
  no_ptx = new_exec ();
  no_uva = new_exec ();
  for (k = 0; k < 4; k++) {
    GstClCudaExec *e = k == 0 ? no_ptx : k == 1 ? no_uva : exec;
    const gsize offset = k == 2 ? 1 : 4, size = k == 3 ? 6 : 32;

    if (k == 0)
      g_setenv ("FAKECUDA_NO_PTX", "1", TRUE);
    if (k == 1)
      g_setenv ("FAKECUDA_NO_UVA", "1", TRUE);
    memset (read, POISON, sizeof (read));
    fail_unless (gst_cl_cuda_exec_read (e, mem, offset, size, read, &done,
            &error), "%s", error ? error->message : "");
    fail_unless (gst_cl_cuda_exec_sync (e, NULL, &error), "%s",
        error ? error->message : "");
    fail_unless (memcmp (read, bytes + offset, size) == 0);
    fail_unless_equals_int (read[size], POISON);
    gst_cl_cuda_read_unref (done);
    g_unsetenv ("FAKECUDA_NO_PTX");
    g_unsetenv ("FAKECUDA_NO_UVA");
  }
  fail_unless_equals_int (word_copies (), copies);

  /* for good where the PTX is refused; a load that failed otherwise (memory
   * short) is tried again at the next read */
  g_setenv ("FAKECUDA_NO_PTX", "oom", TRUE);
  for (k = 0; k < 4; k++) {
    GstClCudaExec *e = k == 0 || k == 3 ? no_ptx : exec;

    if (k == 2)
      g_unsetenv ("FAKECUDA_NO_PTX");
    fail_unless (gst_cl_cuda_exec_read (e, mem, 0, 32, read, &done,
            &error), "%s", error ? error->message : "");
    fail_unless (gst_cl_cuda_exec_sync (e, NULL, &error));
    fail_unless (memcmp (read, bytes, 32) == 0);
    gst_cl_cuda_read_unref (done);
    fail_unless_equals_int (word_copies (), copies + (k >= 2));
  }

  /* 16 KB: words for the threads of many blocks (the fake takes the grid) */
  big = g_malloc (16384);
  big_read = g_malloc (16384);
  for (i = 0; i < 16384; i++)
    big[i] = (guint8) (i * 7 + i / 256);
  clReleaseMemObject (mem);
  mem = cl_buffer_with (big, 16384);
  fail_unless (gst_cl_cuda_exec_read (exec, mem, 0, 16384, big_read, &done,
          &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error));
  fail_unless (memcmp (big_read, big, 16384) == 0);
  fail_unless_equals_int (word_copies (), copies + 2);
  gst_cl_cuda_read_unref (done);
  /* a launch that fails says so */
  g_setenv ("FAKECUDA_LAUNCH_FAILS", "1", TRUE);
  fail_if (gst_cl_cuda_exec_read (exec, mem, 0, 32, big_read, &done, &error));
  g_unsetenv ("FAKECUDA_LAUNCH_FAILS");
  fail_unless (error && strstr (error->message, "cuLaunchKernel (read back)"),
      "%s", error ? error->message : "no error");
  g_clear_error (&error);
  g_free (big);
  g_free (big_read);
  clReleaseMemObject (mem);
  gst_cl_cuda_exec_free (exec);
  gst_cl_cuda_exec_free (no_ptx);
  gst_cl_cuda_exec_free (no_uva);
}

GST_END_TEST;

/* A launch of a kernel whose program is not PTX (PoCL's) fails with a
 * message; one with no recorded arguments too. */
GST_START_TEST (test_launch_refused)
{
  static const gchar *source = "kernel void k (global uchar * a) { }\n";
  const gchar *sources[] = { source, NULL };
  static const size_t global[2] = { 64, 1 }, local[2] = { 64, 1 };
  GstClCudaExec *exec = new_exec ();
  GError *error = NULL;
  GstClProgram *program = gst_cl_program_build (fixture_context, sources, "",
      NULL, &error);
  GstClArgs args = GST_CL_ARGS_INIT;
  GstClKernel *kernel;
  cl_mem mem;

  fail_unless (program != NULL, "%s", error ? error->message : "");
  kernel = gst_cl_program_create_kernel (program, "k", &error);
  fail_unless (kernel != NULL, "%s", error ? error->message : "");
  mem = gst_cl_cuda_exec_bind (exec, 0, 0x1000);
  fail_if (gst_cl_cuda_exec_launch (exec, kernel, NULL, global, local, "k",
          &error));
  fail_unless (error && strstr (error->message, "no arguments recorded"),
      "%s", error ? error->message : "(no error)");
  g_clear_error (&error);
  GST_CL_ARG (kernel, 0, mem, &args);
  fail_if (gst_cl_cuda_exec_launch (exec, kernel, &args, global, local, "k",
          &error));
  fail_unless (error && strstr (error->message, "PTX"), "%s",
      error ? error->message : "(no error)");
  g_clear_error (&error);

  gst_cl_kernel_free (kernel);
  gst_cl_program_free (program);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* A made-up PTX of one kernel k with two parameters, as NVIDIA's OpenCL
 * leaves it in the program cache. */
#define FAKE_PTX ".version 7.0\n.target sm_50\n.address_size 64\n\n" \
  ".entry k(\n\t.param .u64 .ptr .global .align 1 k_param_0,\n" \
  "\t.param .u32 k_param_1\n)\n{\n\tret;\n}\n"

/* The fake driver's record of its last launch. */
static const FakeLaunch *
last_launch (void)
{
  GModule *driver = g_module_open (g_getenv ("GST_CL_CUDA_LIBRARY"), 0);
  FakeLaunch *launch = NULL;

  fail_unless (driver && g_module_symbol (driver, "fakecudahost_last_launch",
          (gpointer *) & launch));
  g_module_make_resident (driver);
  return launch;
}

/* In a context without OpenCL (NVIDIA MPS) the executor runs a kernel of
 * the cached PTX with no OpenCL object: a buffer's twin takes the host
 * copy written into it, fills and reads go to the twin; a launch passes
 * the twin's address, a stand-in's bound address and the values, over the
 * grid of whole groups; an argument not recorded is refused by name. */
GST_START_TEST (test_launch_without_opencl)
{
  static const size_t global[2] = { 128, 2 }, local[2] = { 64, 1 };
  const gchar *sources[] = { "kernel void k (global uchar * a, uint b) { }",
    NULL
  };
  RtCacheDir *cache = rt_cache_dir_new ();
  GstClContext *without;
  GstClCudaExec *exec;
  GstClProgram *program;
  GstClKernel *kernel;
  GstClArgs args = GST_CL_ARGS_INIT, partial = GST_CL_ARGS_INIT;
  GstClCudaRead *done = NULL;
  GError *error = NULL;
  const guint32 word = 0x11223344, value = 77;
  const guint launches = fake_count ("fakecudahost_launches");
  const guint modules = fake_count ("fakecudahost_modules");
  guint8 bytes[64], read[64];
  cl_mem mem, bound;
  guint i;

  without = gst_cl_context_new_without_opencl (rt_device (), NULL);
  fail_unless (without != NULL);
  gst_cl_program_store_binary (gst_cl_context_get_device (without), sources,
      "", FAKE_PTX, strlen (FAKE_PTX));
  program = gst_cl_program_build (without, sources, "", NULL, &error);
  fail_unless (program != NULL, "%s", error ? error->message : "");
  kernel = gst_cl_program_create_kernel (program, "k", &error);
  fail_unless (kernel != NULL, "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_load (NULL), "the fake driver does not load");
  exec = gst_cl_cuda_exec_new (CUDA_CONTEXT, without, &error);
  fail_unless (exec != NULL, "%s", error ? error->message : "");

  for (i = 0; i < sizeof (bytes); i++)
    bytes[i] = (guint8) (3 * i + 1);
  mem = gst_cl_context_create_buffer (without, CL_MEM_READ_WRITE,
      sizeof (bytes), "test", &error);
  fail_unless (mem != NULL, "%s", error ? error->message : "");
  fail_unless (gst_cl_context_write_buffer (without, mem, 0, sizeof (bytes),
          bytes, "test", NULL));
  fail_unless (gst_cl_cuda_exec_fill (exec, mem, &word, sizeof (word), 8, 16,
          NULL, &error), "%s", error ? error->message : "");
  for (i = 8; i < 24; i++)
    bytes[i] = ((const guint8 *) &word)[i % 4];

  GST_CL_ARG (kernel, 0, mem, &args);
  GST_CL_ARG (kernel, 1, value, &args);
  fail_unless (gst_cl_args_check (&args, "k", NULL));
  fail_unless (gst_cl_cuda_exec_launch (exec, kernel, &args, global, local,
          "k", &error), "%s", error ? error->message : "");
  fail_unless_equals_int (fake_count ("fakecudahost_launches"), launches + 1);
  fail_unless_equals_string (last_launch ()->name, "k");
  fail_unless_equals_int (last_launch ()->grid[0], 2);
  fail_unless_equals_int (last_launch ()->grid[1], 2);
  fail_unless_equals_int (last_launch ()->grid[2], 1);
  fail_unless_equals_int (last_launch ()->block[0], 64);
  fail_unless_equals_int (last_launch ()->block[1], 1);
  fail_unless_equals_int (last_launch ()->shared, 0);
  fail_unless_equals_int (last_launch ()->param32[1], value);
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
      error ? error->message : "");
  /* the fake's device memory is the host's: the twin holds the contents */
  fail_unless (memcmp ((const guint8 *) (guintptr)
          last_launch ()->param64[0], bytes, sizeof (bytes)) == 0);
  memset (read, POISON, sizeof (read));
  fail_unless (gst_cl_cuda_exec_read (exec, mem, 0, sizeof (read), read,
          &done, &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error));
  fail_unless_equals_int (gst_cl_cuda_read_status (done),
      GST_CL_CUDA_READ_DONE);
  fail_unless (memcmp (read, bytes, sizeof (bytes)) == 0);
  gst_cl_cuda_read_unref (done);

  bound = gst_cl_cuda_exec_bind (exec, 0, 0x1000);
  args = (GstClArgs) GST_CL_ARGS_INIT;
  GST_CL_ARG (kernel, 0, bound, &args);
  GST_CL_ARG (kernel, 1, value, &args);
  fail_unless (gst_cl_cuda_exec_launch (exec, kernel, &args, global, local,
          "k", &error), "%s", error ? error->message : "");
  fail_unless_equals_uint64 (last_launch ()->param64[0], 0x1000);

  GST_CL_ARG (kernel, 0, bound, &partial);
  fail_if (gst_cl_cuda_exec_launch (exec, kernel, &partial, global, local,
          "k", &error));
  fail_unless (error && strstr (error->message, "argument 1 was not "
          "recorded"), "%s", error ? error->message : "(no error)");
  g_clear_error (&error);
  fail_unless_equals_int (fake_count ("fakecudahost_launches"), launches + 2);

  gst_cl_context_release_buffer (without, mem);
  gst_cl_cuda_exec_free (exec);
  fail_unless_equals_int (fake_count ("fakecudahost_modules"), modules);
  gst_cl_kernel_free (kernel);
  gst_cl_program_free (program);
  gst_object_unref (without);
  rt_cache_dir_free (cache);
}

GST_END_TEST;

/* A frame's GPU time is from its begin to its end: its own commands (the
 * fake's clock: 0.25 ms a command), taken once, at the wait for its slot
 * or at the wait that ends it (not at one within it, nor at one that
 * failed). */
GST_START_TEST (test_frame_time)
{
  GstClCudaExec *exec = new_exec ();
  guint8 *src = g_malloc0 (64), *dst = g_malloc0 (64);
  GError *error = NULL;
  gdouble ms = 0;
  cl_mem in, out;

  in = gst_cl_cuda_exec_bind (exec, 0, (CUdeviceptr) (guintptr) src);
  out = gst_cl_cuda_exec_bind (exec, 1, (CUdeviceptr) (guintptr) dst);
#define COPY() fail_unless (gst_cl_cuda_exec_copy (exec, in, 0, 8, out, 0, 8, \
        8, 8, &error), "%s", error ? error->message : "")
  gst_cl_cuda_exec_begin (exec, 2);
  COPY ();
  COPY ();
  fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  gst_cl_cuda_exec_begin (exec, 5);
  COPY ();
  fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 5, &ms, &error));
  fail_unless_equals_float (ms, 0.25);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 2, &ms, &error));
  fail_unless_equals_float (ms, 0.75);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 2, &ms, &error));
  fail_unless_equals_float (ms, 0.75);

  /* a frame waited for whole, with a wait within it */
  gst_cl_cuda_exec_begin (exec, 0);
  COPY ();
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error));
  COPY ();
  fail_unless (gst_cl_cuda_exec_sync (exec, &ms, &error));
  fail_unless_equals_float (ms, 1.25);
  fail_unless (gst_cl_cuda_exec_sync (exec, &ms, &error));
  fail_unless_equals_float (ms, 1.25);

  /* a failed wait adds nothing */
  gst_cl_cuda_exec_begin (exec, 3);
  COPY ();
  fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  g_setenv ("FAKECUDA_PUSH_FAILS", "1", TRUE);
  fail_if (gst_cl_cuda_exec_wait_mark (exec, 3, &ms, &error));
  g_unsetenv ("FAKECUDA_PUSH_FAILS");
  g_clear_error (&error);
  fail_unless_equals_float (ms, 1.25);

  /* a frame from system memory: its upload, before its begin, is not in
   * its time */
  fail_unless (gst_cl_cuda_exec_upload_host_frame (exec, 0, 4, src, 64,
          FALSE, &error) != NULL, "%s", error ? error->message : "");
  gst_cl_cuda_exec_begin (exec, 4);
  COPY ();
  fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 4, &ms, &error));
  fail_unless_equals_float (ms, 1.5);
#undef COPY
  gst_cl_cuda_exec_free (exec);
  g_free (src);
  g_free (dst);
}

GST_END_TEST;

/* GST_CL_CUDA_COMMAND_TIMES=1: each command's time, from the end of the
 * one before (or the frame's start) to its own, by what it was, at the
 * frame's wait (the fake's clock: 0.25 ms a command; the upload, before
 * the begin, is not timed; a fill by the name its caller gives), with
 * when the host enqueued it; nothing where the wait failed, nor without
 * the variable or with it 0. */
GST_START_TEST (test_command_times)
{
  GstClCudaExec *exec, *plain, *off;
  guint8 *src = g_malloc0 (64), *dst = g_malloc0 (64);
  const guint32 word = 7;
  GError *error = NULL;
  gdouble ms = 0, enqueued = 0;
  guint times;
  cl_mem in, out;

  plain = new_exec ();
  g_setenv ("GST_CL_CUDA_COMMAND_TIMES", "0", TRUE);
  off = new_exec ();
  g_setenv ("GST_CL_CUDA_COMMAND_TIMES", "1", TRUE);
  exec = new_exec ();
  g_unsetenv ("GST_CL_CUDA_COMMAND_TIMES");
  fail_unless (gst_cl_cuda_exec_upload_host_frame (exec, 0, 1, src, 64,
          FALSE, &error) != NULL, "%s", error ? error->message : "");
  in = gst_cl_cuda_exec_bind (exec, 0, (CUdeviceptr) (guintptr) src);
  out = gst_cl_cuda_exec_bind (exec, 1, (CUdeviceptr) (guintptr) dst);
#define COPY(e) fail_unless (gst_cl_cuda_exec_copy (e, in, 0, 8, out, 0, 8, \
        8, 8, &error), "%s", error ? error->message : "")
  gst_cl_cuda_exec_begin (exec, 1);
  g_usleep (2000);              /* the host's time before it enqueues them */
  COPY (exec);
  COPY (exec);
  fail_unless (gst_cl_cuda_exec_fill (exec, out, &word, sizeof (word), 0, 4,
          "histogram fill", &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  fail_unless_equals_float (gst_cl_cuda_exec_get_command_ms (exec, "copy",
          &times, NULL), 0);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 1, &ms, &error));
  fail_unless_equals_float (ms, 0.75);
  fail_unless_equals_float (gst_cl_cuda_exec_get_command_ms (exec, "copy",
          &times, &enqueued), 0.5);
  fail_unless_equals_int (times, 2);
  /* each enqueued 2 ms after the begin at least */
  fail_unless (enqueued >= 4.0, "%f", enqueued);
  /* a fill goes by the name its caller gives */
  fail_unless_equals_float (gst_cl_cuda_exec_get_command_ms (exec,
          "histogram fill", &times, NULL), 0.25);
  fail_unless_equals_int (times, 1);
  fail_unless_equals_float (gst_cl_cuda_exec_get_command_ms (exec, "fill",
          &times, NULL), 0);
  fail_unless_equals_float (gst_cl_cuda_exec_get_command_ms (exec, "upload",
          &times, NULL), 0);
  fail_unless_equals_int (times, 0);

  /* a failed wait */
  gst_cl_cuda_exec_begin (exec, 2);
  COPY (exec);
  fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  g_setenv ("FAKECUDA_PUSH_FAILS", "1", TRUE);
  fail_if (gst_cl_cuda_exec_wait_mark (exec, 2, &ms, &error));
  g_unsetenv ("FAKECUDA_PUSH_FAILS");
  g_clear_error (&error);
  fail_unless_equals_float (gst_cl_cuda_exec_get_command_ms (exec, "copy",
          &times, NULL), 0.5);
  fail_unless_equals_int (times, 2);

  /* without the variable, or with it 0 */
  for (guint k = 0; k < 2; k++) {
    GstClCudaExec *e = k == 0 ? plain : off;

    in = gst_cl_cuda_exec_bind (e, 0, (CUdeviceptr) (guintptr) src);
    out = gst_cl_cuda_exec_bind (e, 1, (CUdeviceptr) (guintptr) dst);
    gst_cl_cuda_exec_begin (e, 0);
    COPY (e);
    fail_unless (gst_cl_cuda_exec_mark (e, &error));
    fail_unless (gst_cl_cuda_exec_wait_mark (e, 0, &ms, &error));
    fail_unless_equals_float (gst_cl_cuda_exec_get_command_ms (e, "copy",
            &times, NULL), 0);
    fail_unless_equals_int (times, 0);
  }
#undef COPY
  gst_cl_cuda_exec_free (exec);
  gst_cl_cuda_exec_free (plain);
  gst_cl_cuda_exec_free (off);
  g_free (src);
  g_free (dst);
}

GST_END_TEST;

/* Frames left in flight: the reads back of the frame of each slot land in
 * the slot's own memory and complete at that slot's wait alone; a wait
 * on a slot never marked fails with a message. */
GST_START_TEST (test_slots)
{
  GstClCudaExec *exec = new_exec ();
  guint8 bytes[2][16], read[2][16];
  GstClCudaRead *done[2] = { NULL, NULL };
  GError *error = NULL;
  cl_mem mem[2];
  guint k;

  for (k = 0; k < 2; k++) {
    memset (bytes[k], 10 + k, sizeof (bytes[k]));
    mem[k] = cl_buffer_with (bytes[k], sizeof (bytes[k]));
    memset (read[k], POISON, sizeof (read[k]));
    gst_cl_cuda_exec_begin (exec, 3 + k);
    fail_unless (gst_cl_cuda_exec_read (exec, mem[k], 0, sizeof (read[k]),
            read[k], &done[k], &error), "%s", error ? error->message : "");
    fail_unless (gst_cl_cuda_exec_mark (exec, &error), "%s",
        error ? error->message : "");
  }
  /* the later frame first */
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 4, NULL, &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (gst_cl_cuda_read_status (done[1]),
      GST_CL_CUDA_READ_DONE);
  fail_unless (memcmp (read[1], bytes[1], sizeof (bytes[1])) == 0);
  fail_unless (gst_cl_cuda_read_status (done[0]) == GST_CL_CUDA_READ_PENDING);
  fail_unless_equals_int (read[0][0], POISON);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 3, NULL, &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (gst_cl_cuda_read_status (done[0]),
      GST_CL_CUDA_READ_DONE);
  fail_unless (memcmp (read[0], bytes[0], sizeof (bytes[0])) == 0);

  fail_if (gst_cl_cuda_exec_wait_mark (exec, 5, NULL, &error));
  fail_unless (error != NULL);
  g_clear_error (&error);

  for (k = 0; k < 2; k++) {
    gst_cl_cuda_read_unref (done[k]);
    clReleaseMemObject (mem[k]);
  }
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* A read back whose frame's wait failed is failed and not written; one
 * let go of before its frame's wait is not written (its memory may be
 * gone); the others are done. */
GST_START_TEST (test_read_outcomes)
{
  GstClCudaExec *exec = new_exec ();
  guint8 bytes[16], read[3][16];
  GstClCudaRead *done[3];
  GError *error = NULL;
  cl_mem mem;
  guint k;

  memset (bytes, 77, sizeof (bytes));
  mem = cl_buffer_with (bytes, sizeof (bytes));
  for (k = 0; k < 3; k++) {
    memset (read[k], POISON, sizeof (read[k]));
    gst_cl_cuda_exec_begin (exec, k);
    fail_unless (gst_cl_cuda_exec_read (exec, mem, 0, sizeof (read[k]),
            read[k], &done[k], &error), "%s", error ? error->message : "");
    fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  }
  g_setenv ("FAKECUDA_FAIL", "cuEventSynchronize", TRUE);
  fail_if (gst_cl_cuda_exec_wait_mark (exec, 0, NULL, &error));
  g_unsetenv ("FAKECUDA_FAIL");
  fail_unless (error != NULL);
  g_clear_error (&error);
  fail_unless_equals_int (gst_cl_cuda_read_status (done[0]),
      GST_CL_CUDA_READ_FAILED);
  fail_unless_equals_int (read[0][0], POISON);
  g_clear_pointer (&done[2], gst_cl_cuda_read_unref);
  for (k = 1; k < 3; k++)
    fail_unless (gst_cl_cuda_exec_wait_mark (exec, k, NULL, &error), "%s",
        error ? error->message : "");
  fail_unless_equals_int (gst_cl_cuda_read_status (done[1]),
      GST_CL_CUDA_READ_DONE);
  fail_unless (memcmp (read[1], bytes, sizeof (bytes)) == 0);
  fail_unless_equals_int (read[2][0], POISON);
  gst_cl_cuda_read_unref (done[0]);
  gst_cl_cuda_read_unref (done[1]);
  clReleaseMemObject (mem);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* Commands of @slot's frame into system memory (a copy of @src, 3 bytes
 * filled), read back towards @host. */
static void
host_frame_unmarked (GstClCudaExec * exec, guint slot, const guint8 * src,
    gsize size, guint8 * host)
{
  const guint8 eleven = 11;
  GError *error = NULL;
  cl_mem in, out;

  in = gst_cl_cuda_exec_bind (exec, 0, (CUdeviceptr) (guintptr) src);
  out = gst_cl_cuda_exec_bind_host_frame (exec, 1, slot, size, FALSE, &error);
  fail_unless (out != NULL, "%s", error ? error->message : "");
  memset (host, POISON, size);
  gst_cl_cuda_exec_begin (exec, slot);
  fail_unless (gst_cl_cuda_exec_copy (exec, in, 0, size, out, 0, size, size,
          1, &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_fill (exec, out, &eleven, 1, 4, 3, NULL,
          &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_download (exec, host, size, FALSE, &error),
      "%s", error ? error->message : "");
}

static void
host_frame (GstClCudaExec * exec, guint slot, const guint8 * src, gsize size,
    guint8 * host)
{
  GError *error = NULL;

  host_frame_unmarked (exec, slot, src, size, host);
  fail_unless (gst_cl_cuda_exec_mark (exec, &error), "%s",
      error ? error->message : "");
}

/* What host_frame() wrote into @host from @src. */
static void
check_host_frame (const guint8 * src, gsize size, const guint8 * host)
{
  gsize x;

  for (x = 0; x < size; x++)
    fail_unless_equals_int (host[x], x >= 4 && x < 7 ? 11 : src[x]);
}

/* Frames into system memory: each frame's output is read back into its
 * host memory only at its slot's wait, from pinned memory of its slot's (the
 * first frame's still unread when the second is written), and not at a
 * wait that fails; a larger frame later gets larger memory, and a smaller
 * one after it writes no more than its own bytes; a read back larger than
 * the memory is refused. */
GST_START_TEST (test_host_frame)
{
  GstClCudaExec *exec = new_exec ();
  guint8 src[2][96], host[2][96];
  GError *error = NULL;
  gsize x;

  for (x = 0; x < sizeof (src[0]); x++) {
    src[0][x] = (guint8) (x * 5 + 1);
    src[1][x] = (guint8) (x * 3 + 2);
  }
  host_frame (exec, 2, src[0], 64, host[0]);
  host_frame (exec, 5, src[1], 64, host[1]);
  fail_unless_equals_int (host[0][0], POISON);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 2, NULL, &error), "%s",
      error ? error->message : "");
  check_host_frame (src[0], 64, host[0]);
  fail_unless_equals_int (host[1][0], POISON);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 5, NULL, &error), "%s",
      error ? error->message : "");
  check_host_frame (src[1], 64, host[1]);

  host_frame (exec, 2, src[1], 96, host[1]);
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
      error ? error->message : "");
  check_host_frame (src[1], 96, host[1]);
  memset (host[0], POISON, sizeof (host[0]));
  host_frame (exec, 2, src[0], 64, host[0]);
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 2, NULL, &error), "%s",
      error ? error->message : "");
  check_host_frame (src[0], 64, host[0]);
  for (x = 64; x < 96; x++)
    fail_unless_equals_int (host[0][x], POISON);

  /* nothing marked: the wait fails, the host memory is left alone */
  host_frame_unmarked (exec, 3, src[0], 64, host[0]);
  fail_if (gst_cl_cuda_exec_wait_mark (exec, 3, NULL, &error));
  fail_unless (error != NULL);
  g_clear_error (&error);
  for (x = 0; x < 64; x++)
    fail_unless_equals_int (host[0][x], POISON);

  gst_cl_cuda_exec_begin (exec, 5);
  fail_if (gst_cl_cuda_exec_download (exec, host[0], 96, FALSE, &error));
  fail_unless (error != NULL);
  g_clear_error (&error);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* The NV12 33x17 frame of nv12_with_meta(): each plane's bytes a row, rows,
 * offset and stride (padded, with a gap before the chroma plane), and the
 * bytes from its first plane to its last plane's last row. */
static const gsize nv12_row_bytes[2] = { 33, 34 }, nv12_rows[2] = { 17, 9 };
static const gsize nv12_offset[2] = { 16, 16 + 48 * 17 + 40 };
static const gsize nv12_pitch[2] = { 48, 40 };

#define NV12_SPAN (48 * 17 + 40 + 40 * 8 + 34)

/* A buffer of that frame with its video meta, filled with POISON; with
 * @fits FALSE, a meta whose luma rows do not fit the memory. */
static GstBuffer *
nv12_with_meta (GstVideoInfo * info, gboolean fits)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { nv12_offset[0], nv12_offset[1] };
  gint stride[GST_VIDEO_MAX_PLANES] = { fits ? 48 : 48 * 4, 40 };
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      nv12_offset[1] + 40 * 9 + 24, NULL);

  gst_video_info_set_format (info, GST_VIDEO_FORMAT_NV12, 33, 17);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_NV12, 33, 17, 2, offset, stride);
  gst_buffer_memset (buffer, 0, POISON, gst_buffer_get_size (buffer));
  return buffer;
}

/* An output in system memory opened for the executor: its planes are the
 * executor's device memory laid out as the buffer's meta says, from its
 * first plane to its last plane's last row; what the commands write there
 * lands in each plane's rows of the buffer at the wait. A meta whose rows
 * do not fit the memory is refused with an error. */
GST_START_TEST (test_host_frame_layout)
{
  GstClCudaExec *exec = new_exec ();
  guint8 src[2][40 * 17];
  GstBuffer *buffer;
  GstVideoInfo info;
  GstClFrame out;
  GstMapInfo map;
  GError *error = NULL;
  cl_mem in;
  gsize x, y, i;

  buffer = nv12_with_meta (&info, TRUE);
  fail_unless (gst_cl_frame_open_host_on_cuda (&out, fixture_context, &info,
          buffer, GST_MAP_WRITE, exec, 1, &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (out.exec_host_size, NV12_SPAN);
  gst_cl_cuda_exec_begin (exec, 1);
  for (i = 0; i < 2; i++) {
    fail_unless_equals_int (out.planes[i].offset,
        nv12_offset[i] - nv12_offset[0]);
    fail_unless_equals_int (out.planes[i].pitch, nv12_pitch[i]);
    for (x = 0; x < sizeof (src[i]); x++)
      src[i][x] = (guint8) (x * 13 + i * 7 + 1);
    in = gst_cl_cuda_exec_bind (exec, 0, (CUdeviceptr) (guintptr) src[i]);
    fail_unless (gst_cl_cuda_exec_copy (exec, in, 0, 40, out.planes[i].mem,
            out.planes[i].offset, out.planes[i].pitch, nv12_row_bytes[i],
            nv12_rows[i], &error), "%s", error ? error->message : "");
  }
  fail_unless (gst_cl_frame_download_on_cuda (&out, &error), "%s",
      error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
      error ? error->message : "");
  gst_cl_frame_close (&out);
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  for (i = 0; i < 2; i++)
    for (y = 0; y < nv12_rows[i]; y++)
      for (x = 0; x < nv12_row_bytes[i]; x++)
        fail_unless_equals_int (map.data[nv12_offset[i] + y * nv12_pitch[i] +
                x], src[i][y * 40 + x]);
  /* before the first plane, and after the last plane's last row */
  fail_unless_equals_int (map.data[nv12_offset[0] - 1], POISON);
  fail_unless_equals_int (map.data[nv12_offset[0] + NV12_SPAN], POISON);
  gst_buffer_unmap (buffer, &map);
  gst_buffer_unref (buffer);

  buffer = nv12_with_meta (&info, FALSE);
  fail_if (gst_cl_frame_open_host_on_cuda (&out, fixture_context, &info,
          buffer, GST_MAP_WRITE, exec, 1, &error));
  fail_unless (error != NULL);
  g_clear_error (&error);
  gst_buffer_unref (buffer);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* An input in system memory opened for the executor: its planes are a copy
 * in the executor's device memory, made at open and laid out as the
 * buffer's meta says, which the commands read: each plane's rows, copied
 * out of it after the buffer was let go of and written over, are the
 * buffer's at open; nothing is read back. */
GST_START_TEST (test_host_frame_input)
{
  GstClCudaExec *exec = new_exec ();
  guint8 dst[2][34 * 17], *at_open;
  GstBuffer *buffer;
  GstVideoInfo info;
  GstClFrame in;
  GstMapInfo map;
  GError *error = NULL;
  cl_mem out;
  gsize x, y, i;

  buffer = nv12_with_meta (&info, TRUE);
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  for (x = 0; x < map.size; x++)
    map.data[x] = (guint8) (x * 11 + 5);
  at_open = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (buffer, &map);
  gst_cl_cuda_exec_begin (exec, 4);
  fail_unless (gst_cl_frame_open_host_on_cuda (&in, fixture_context, &info,
          buffer, GST_MAP_READ, exec, 4, &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (in.exec_host_size, NV12_SPAN);
  gst_cl_frame_close (&in);
  gst_buffer_memset (buffer, 0, POISON, gst_buffer_get_size (buffer));
  for (i = 0; i < 2; i++) {
    out = gst_cl_cuda_exec_bind (exec, 1, (CUdeviceptr) (guintptr) dst[i]);
    fail_unless (gst_cl_cuda_exec_copy (exec, in.planes[i].mem,
            in.planes[i].offset, in.planes[i].pitch, out, 0,
            nv12_row_bytes[i], nv12_row_bytes[i], nv12_rows[i], &error),
        "%s", error ? error->message : "");
  }
  fail_unless (gst_cl_frame_download_on_cuda (&in, &error));
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
      error ? error->message : "");
  for (i = 0; i < 2; i++)
    for (y = 0; y < nv12_rows[i]; y++)
      for (x = 0; x < nv12_row_bytes[i]; x++)
        fail_unless_equals_int (dst[i][y * nv12_row_bytes[i] + x],
            at_open[nv12_offset[i] + y * nv12_pitch[i] + x]);
  g_free (at_open);
  gst_buffer_unref (buffer);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* The answer to a decoder's ALLOCATION query for CUDA caps: no pool (the
 * decoders take only their own kind), the video meta, and where the
 * element holds frames in flight (their memory read where it is), that
 * many as the minimum. */
GST_START_TEST (test_propose_held)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),"
      "format=NV12,width=64,height=32,framerate=25/1");
  guint held, size, min, max;
  GstBufferPool *pool;
  GstQuery *query;

  for (held = 0; held <= 3; held += 3) {
    query = gst_query_new_allocation (caps, TRUE);
    fail_unless (gst_cl_allocation_propose (fixture_context, NULL, query,
            NULL, held, NULL));
    fail_unless (gst_query_find_allocation_meta (query,
            GST_VIDEO_META_API_TYPE, NULL));
    fail_unless_equals_int (gst_query_get_n_allocation_pools (query),
        held > 0 ? 1 : 0);
    if (held > 0) {
      gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
      fail_unless (pool == NULL);
      fail_unless_equals_int (size, 64 * 32 * 3 / 2);
      fail_unless_equals_int (min, held);
      fail_unless_equals_int (max, 0);
    }
    gst_query_unref (query);
  }
  gst_caps_unref (caps);
}

GST_END_TEST;

/* Without OpenCL (NVIDIA MPS) the element offers no memory:OpenCLBuffer,
 * and the pool it proposes for system memory is GStreamer's own, whose
 * buffers can be had; none for OpenCL memory. */
GST_START_TEST (test_negotiation_without_opencl)
{
  GstContext *none = NULL;
  GstClContext *without = gst_cl_context_new_without_opencl (rt_device (),
      NULL);
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=NV12,width=64,"
      "height=32,framerate=25/1");
  GstCaps *cl_caps = gst_caps_from_string ("video/x-raw(memory:OpenCLBuffer),"
      "format=NV12,width=64,height=32,framerate=25/1");
  GstCaps *with = gst_cl_caps_transform (caps, NULL, TRUE, TRUE);
  GstCaps *transformed = gst_cl_caps_transform (caps, NULL, FALSE, TRUE);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstQuery *decide = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstBuffer *buffer = NULL;
  guint i, cuda = 0, system = 0;

  fail_unless (without != NULL);
  fail_unless (gst_caps_can_intersect (with, cl_caps));
  fail_if (gst_caps_can_intersect (transformed, cl_caps));
  for (i = 0; i < gst_caps_get_size (transformed); i++) {
    GstCapsFeatures *f = gst_caps_get_features (transformed, i);

    if (gst_caps_features_contains (f, "memory:CUDAMemory"))
      cuda++;
    else if (gst_caps_features_is_equal (f,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      system++;
  }
  fail_unless_equals_int (cuda, 1);
  fail_unless_equals_int (system, 1);
  fail_unless_equals_int (gst_caps_get_size (transformed), 2);

  fail_unless (gst_cl_allocation_propose (without, decide, query, NULL, 0,
          none));
  fail_unless_equals_int (gst_query_get_n_allocation_pools (query), 1);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  fail_unless (pool != NULL);
  fail_unless_equals_string (G_OBJECT_TYPE_NAME (pool), "GstVideoBufferPool");
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
          NULL), GST_FLOW_OK);
  fail_unless (gst_buffer_get_size (buffer) >= 64 * 32 * 3 / 2);
  gst_buffer_unref (buffer);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  gst_query_unref (query);

  query = gst_query_new_allocation (cl_caps, TRUE);
  fail_if (gst_cl_allocation_propose (without, decide, query, NULL, 0, none));
  fail_unless_equals_int (gst_query_get_n_allocation_pools (query), 0);

  gst_query_unref (query);
  gst_query_unref (decide);
  gst_caps_unref (transformed);
  gst_caps_unref (with);
  gst_caps_unref (cl_caps);
  gst_caps_unref (caps);
  gst_object_unref (without);
}

GST_END_TEST;

/* A GstContext of the fake libgstcuda's GstCudaContext (CLCUDA_FAKE_GSTCUDA),
 * whose handle the fake drivers take; the module stays open. */
static GstContext *
fake_cuda_context (void)
{
  GModule *module = g_module_open (g_getenv ("CLCUDA_FAKE_GSTCUDA"), 0);
  GstObject *(*context_new) (guint device_id) = NULL;
  GstContext *context;
  GstObject *object;

  fail_unless (module && g_module_symbol (module, "gst_cuda_context_new",
          (gpointer *) & context_new), "the fake libgstcuda does not load");
  g_module_make_resident (module);
  object = context_new (0);
  context = gst_context_new (GST_CL_CUDA_CONTEXT_TYPE, TRUE);
  gst_structure_set (gst_context_writable_structure (context),
      GST_CL_CUDA_CONTEXT_TYPE, G_OBJECT_TYPE (object), object, NULL);
  gst_object_unref (object);
  return context;
}

/* Memory that CUDA holds pinned, from a pool of video frames: the pool keeps
 * its allocator where a base class's decide_allocation sets none on its
 * config; its buffers are such memory (with the video meta), mapped for
 * reading and writing where it is; a share reads the same bytes, a copy is
 * plain system memory with them; the memory outlives the pool. */
GST_START_TEST (test_host_pool)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=NV12,width=64,"
      "height=32,framerate=25/1");
  GstContext *context = fake_cuda_context ();
  GstBufferPool *pool;
  GstBuffer *buffer = NULL;
  GstMemory *mem, *copy, *share;
  GstAllocationParams params;
  GstStructure *config;
  GstMapInfo map;
  gsize x;

  pool = gst_cl_cuda_host_pool_new (context, caps, 64 * 32 * 3 / 2, 2, 0, TRUE);
  fail_unless (pool != NULL);
  gst_context_unref (context);
  /* as GstBaseTransform's and GstVideoDecoder's decide_allocation do */
  config = gst_buffer_pool_get_config (pool);
  gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_allocator (config, NULL, &params);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
          NULL), GST_FLOW_OK);
  fail_unless (gst_buffer_get_video_meta (buffer) != NULL);
  mem = gst_buffer_peek_memory (buffer, 0);
  fail_unless (gst_cl_is_cuda_host_memory (mem));
  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  for (x = 0; x < map.size; x++)
    map.data[x] = (guint8) (x * 3 + 1);
  gst_memory_unmap (mem, &map);
  share = gst_memory_share (mem, 8, 100);
  fail_unless (gst_memory_map (share, &map, GST_MAP_READ));
  fail_unless_equals_int (map.size, 100);
  fail_unless_equals_int (map.data[0], (guint8) (8 * 3 + 1));
  gst_memory_unmap (share, &map);
  gst_memory_unref (share);
  copy = gst_memory_copy (mem, 8, 100);
  fail_unless (copy != NULL && !gst_cl_is_cuda_host_memory (copy));
  fail_unless (gst_memory_map (copy, &map, GST_MAP_READ));
  fail_unless_equals_int (map.size, 100);
  for (x = 0; x < map.size; x++)
    fail_unless_equals_int (map.data[x], (guint8) ((x + 8) * 3 + 1));
  gst_memory_unmap (copy, &map);
  gst_memory_unref (copy);
  gst_buffer_ref (buffer);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  /* the pool is gone; its buffer's memory is still readable */
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  fail_unless_equals_int (map.data[5], 16);
  gst_buffer_unmap (buffer, &map);
  gst_buffer_unref (buffer);
  gst_buffer_unref (buffer);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* An active pool of NV12 64x32 frames (@info) in memory CUDA holds
 * pinned, of the fake context. */
static GstBufferPool *
nv12_host_pool (GstVideoInfo * info)
{
  GstContext *context = fake_cuda_context ();
  GstBufferPool *pool;
  GstCaps *caps;

  gst_video_info_set_format (info, GST_VIDEO_FORMAT_NV12, 64, 32);
  caps = gst_video_info_to_caps (info);
  pool = gst_cl_cuda_host_pool_new (context, caps, info->size, 2, 0, TRUE);
  gst_context_unref (context);
  gst_caps_unref (caps);
  fail_unless (pool && gst_buffer_pool_set_active (pool, TRUE));
  return pool;
}

/* Frames in memory CUDA holds pinned are known as such, and go to and from
 * the device where they are: the output, read back into its memory by the
 * stream, holds the input's rows after its slot's wait (nothing copied
 * over it from the slot's own pinned memory then). */
/* An NV12 pool of pinned host memory (nv12_host_pool()) and two of its
 * buffers, @inbuf holding byte x * @step + @add at x. */
static GstBufferPool *
pinned_pair (GstVideoInfo * info, GstBuffer ** inbuf, GstBuffer ** outbuf,
    guint step, guint add)
{
  GstBufferPool *pool = nv12_host_pool (info);
  GstMapInfo map;
  gsize x;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, inbuf,
          NULL), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, outbuf,
          NULL), GST_FLOW_OK);
  fail_unless (gst_buffer_map (*inbuf, &map, GST_MAP_WRITE));
  for (x = 0; x < map.size; x++)
    map.data[x] = (guint8) (x * step + add);
  gst_buffer_unmap (*inbuf, &map);
  return pool;
}

GST_START_TEST (test_host_frame_pinned)
{
  GstClCudaExec *exec = new_exec ();
  GstBufferPool *pool;
  GstBuffer *inbuf = NULL, *outbuf = NULL;
  GstVideoInfo info;
  GstClFrame in, out;
  GstMapInfo map;
  GError *error = NULL;
  gsize x;

  pool = pinned_pair (&info, &inbuf, &outbuf, 7, 2);
  gst_buffer_memset (outbuf, 0, POISON, info.size);
  gst_cl_cuda_exec_begin (exec, 2);
  fail_unless (gst_cl_frame_open_host_on_cuda (&out, fixture_context, &info,
          outbuf, GST_MAP_WRITE, exec, 2, &error), "%s",
      error ? error->message : "");
  fail_unless (gst_cl_frame_open_host_on_cuda (&in, fixture_context, &info,
          inbuf, GST_MAP_READ, exec, 2, &error), "%s",
      error ? error->message : "");
  fail_unless (in.exec_host_pinned && out.exec_host_pinned);
  fail_unless (gst_cl_cuda_exec_copy (exec, in.planes[0].mem, 0, 64,
          out.planes[0].mem, 0, 64, 64, 32, &error), "%s",
      error ? error->message : "");
  fail_unless (gst_cl_frame_download_on_cuda (&out, &error), "%s",
      error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, 2, NULL, &error));
  gst_cl_frame_close (&in);
  gst_cl_frame_close (&out);
  fail_unless (gst_buffer_map (outbuf, &map, GST_MAP_READ));
  fail_unless (gst_buffer_map (inbuf, &in.map, GST_MAP_READ));
  for (x = 0; x < 64 * 32; x++)
    fail_unless_equals_int (map.data[x], in.map.data[x]);
  gst_buffer_unmap (inbuf, &in.map);
  gst_buffer_unmap (outbuf, &map);
  gst_buffer_unref (inbuf);
  gst_buffer_unref (outbuf);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* Where the device memory for frames from system memory cannot be had,
 * the upload says so, naming the allocation, and does not try again (the
 * frames go through OpenCL); the outputs' memory, of its own, still can
 * be. */
GST_START_TEST (test_host_frame_no_memory)
{
  GstClCudaExec *exec = new_exec ();
  guint8 *src = g_malloc0 (64);
  GError *error = NULL;
  guint k;

  g_setenv ("FAKECUDA_ALLOC_FAILS", "1", TRUE);
  fail_if (gst_cl_cuda_exec_upload_host_frame (exec, 0, 0, src, 64, FALSE,
          &error));
  g_unsetenv ("FAKECUDA_ALLOC_FAILS");
  fail_unless (error && g_str_has_prefix (error->message,
          "CUDA cuMemAlloc (frame from system memory) failed"), "%s",
      error ? error->message : "no error");
  g_clear_error (&error);
  for (k = 0; k < 2; k++) {
    fail_if (gst_cl_cuda_exec_upload_host_frame (exec, 0, k, src, 64, FALSE,
            &error));
    fail_unless (error && strstr (error->message, "cuMemAlloc"));
    g_clear_error (&error);
  }
  fail_unless (gst_cl_cuda_exec_bind_host_frame (exec, 1, 0, 64, FALSE,
          &error) != NULL, "%s", error ? error->message : "");
  gst_cl_cuda_exec_free (exec);
  g_free (src);
}

GST_END_TEST;

/* Without OpenCL (NVIDIA MPS) nothing else takes a frame in system memory
 * whose device memory cannot be had, input or output: opening it fails
 * with the error naming the allocation; with OpenCL it fails with none
 * (the frame goes through OpenCL). An executor that cannot start names
 * its call too. */
GST_START_TEST (test_host_frame_no_memory_without_opencl)
{
  GstClContext *without = gst_cl_context_new_without_opencl (rt_device (),
      NULL);
  GstClContext *contexts[2] = { fixture_context, without };
  const GstMapFlags flags[2] = { GST_MAP_READ, GST_MAP_WRITE };
  const gchar *expected[2] = { "CUDA cuMemAlloc (frame from system memory) "
        "failed", "CUDA cuMemAlloc (frame for system memory) failed"
  };
  GstBuffer *buffer;
  GstVideoInfo info;
  GError *error = NULL;
  GstClCudaExec *exec;
  GstClFrame frame;
  guint k, f;

  fail_unless (without != NULL);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 32);
  buffer = gst_buffer_new_allocate (NULL, info.size, NULL);
  for (k = 0; k < 2; k++) {
    for (f = 0; f < 2; f++) {
      exec = gst_cl_cuda_exec_new (CUDA_CONTEXT, contexts[k], &error);
      fail_unless (exec != NULL, "%s", error ? error->message : "");
      g_setenv ("FAKECUDA_ALLOC_FAILS", "1", TRUE);
      fail_if (gst_cl_frame_open_host_on_cuda (&frame, contexts[k], &info,
              buffer, flags[f], exec, 0, &error));
      g_unsetenv ("FAKECUDA_ALLOC_FAILS");
      if (k == 0)
        fail_unless (error == NULL, "%s", error->message);
      else
        fail_unless (error && g_str_has_prefix (error->message, expected[f]),
            "%s", error ? error->message : "no error");
      g_clear_error (&error);
      gst_cl_cuda_exec_free (exec);
    }
  }

  g_setenv ("FAKECUDA_FAIL", "cuStreamCreate", TRUE);
  fail_if (gst_cl_cuda_exec_new (CUDA_CONTEXT, without, &error));
  g_unsetenv ("FAKECUDA_FAIL");
  fail_unless (error && g_str_has_prefix (error->message,
          "CUDA cuStreamCreate failed"), "%s",
      error ? error->message : "no error");
  g_clear_error (&error);
  gst_buffer_unref (buffer);
  gst_object_unref (without);
}

GST_END_TEST;

/* Three frames in flight, one a slot, each downloaded into system memory
 * (pinned, plain, pinned) before any is waited for: each output holds its
 * own input's rows, the downloads running on a stream of their own after
 * their frame's commands (with FAKECUDA_EAGER=1 the other commands run at
 * once, so that a download not waited for, or a slot's device memory
 * written by a later frame before its download, shows). */
static void
downloads_in_flight (void)
{
  GstClCudaExec *exec = new_exec ();
  GstBuffer *inbuf[3], *outbuf[3];
  GstClFrame in[3], out[3];
  GError *error = NULL;
  GstBufferPool *pool;
  GstMapInfo map[2];
  GstVideoInfo info;
  guint k;
  gsize x;

  pool = nv12_host_pool (&info);
  for (k = 0; k < 3; k++) {
    inbuf[k] = gst_buffer_new_allocate (NULL, info.size, NULL);
    fail_unless (gst_buffer_map (inbuf[k], &map[0], GST_MAP_WRITE));
    for (x = 0; x < map[0].size; x++)
      map[0].data[x] = (guint8) (x * 3 + 40 * k);
    gst_buffer_unmap (inbuf[k], &map[0]);
    if (k == 1)
      outbuf[k] = gst_buffer_new_allocate (NULL, info.size, NULL);
    else
      fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool,
              &outbuf[k], NULL), GST_FLOW_OK);
    gst_buffer_memset (outbuf[k], 0, POISON, info.size);
    gst_cl_cuda_exec_begin (exec, k);
    fail_unless (gst_cl_frame_open_host_on_cuda (&out[k], fixture_context,
            &info, outbuf[k], GST_MAP_WRITE, exec, k, &error), "%s",
        error ? error->message : "");
    fail_unless (gst_cl_frame_open_host_on_cuda (&in[k], fixture_context,
            &info, inbuf[k], GST_MAP_READ, exec, k, &error), "%s",
        error ? error->message : "");
    fail_unless (gst_cl_cuda_exec_copy (exec, in[k].planes[0].mem, 0, 64,
            out[k].planes[0].mem, 0, 64, 64, 32, &error), "%s",
        error ? error->message : "");
    fail_unless (gst_cl_frame_download_on_cuda (&out[k], &error), "%s",
        error ? error->message : "");
    fail_unless (gst_cl_cuda_exec_mark (exec, &error));
  }
  for (k = 0; k < 3; k++) {
    fail_unless (gst_cl_cuda_exec_wait_mark (exec, k, NULL, &error), "%s",
        error ? error->message : "");
    gst_cl_frame_close (&in[k]);
    gst_cl_frame_close (&out[k]);
    fail_unless (gst_buffer_map (outbuf[k], &map[0], GST_MAP_READ));
    fail_unless (gst_buffer_map (inbuf[k], &map[1], GST_MAP_READ));
    for (x = 0; x < 64 * 32; x++)
      fail_unless_equals_int (map[0].data[x], map[1].data[x]);
    gst_buffer_unmap (inbuf[k], &map[1]);
    gst_buffer_unmap (outbuf[k], &map[0]);
    gst_buffer_unref (inbuf[k]);
    gst_buffer_unref (outbuf[k]);
  }
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_cl_cuda_exec_free (exec);
}

GST_START_TEST (test_downloads_in_flight)
{
  downloads_in_flight ();
  g_setenv ("FAKECUDA_EAGER", "1", TRUE);
  downloads_in_flight ();
  g_unsetenv ("FAKECUDA_EAGER");
}

GST_END_TEST;

/* One frame in @slot, its input's first 32 rows of 64 bytes copied to its
 * output (pinned memory of @pool's), downloaded with FAKECUDA_FAIL set to
 * @fail (none: NULL), then waited for; the download's error, if any, is
 * returned in @error. Whether the output then holds the input's rows. */
static gboolean
frame_downloaded (GstClCudaExec * exec, guint slot, GstBuffer * inbuf,
    GstBuffer * outbuf, const GstVideoInfo * info, const gchar * fail,
    GError ** error)
{
  GError *other = NULL;
  GstMapInfo map[2];
  GstClFrame in, out;
  gboolean same = TRUE;
  gsize x;

  gst_buffer_memset (outbuf, 0, POISON, info->size);
  gst_cl_cuda_exec_begin (exec, slot);
  fail_unless (gst_cl_frame_open_host_on_cuda (&out, fixture_context, info,
          outbuf, GST_MAP_WRITE, exec, slot, &other), "%s",
      other ? other->message : "");
  fail_unless (gst_cl_frame_open_host_on_cuda (&in, fixture_context, info,
          inbuf, GST_MAP_READ, exec, slot, &other), "%s",
      other ? other->message : "");
  fail_unless (gst_cl_cuda_exec_copy (exec, in.planes[0].mem, 0, 64,
          out.planes[0].mem, 0, 64, 64, 32, &other), "%s",
      other ? other->message : "");
  if (fail)
    g_setenv ("FAKECUDA_FAIL", fail, TRUE);
  gst_cl_frame_download_on_cuda (&out, error);
  g_unsetenv ("FAKECUDA_FAIL");
  fail_unless (gst_cl_cuda_exec_mark (exec, &other));
  fail_unless (gst_cl_cuda_exec_wait_mark (exec, slot, NULL, &other), "%s",
      other ? other->message : "");
  gst_cl_frame_close (&in);
  gst_cl_frame_close (&out);
  fail_unless (gst_buffer_map (outbuf, &map[0], GST_MAP_READ));
  fail_unless (gst_buffer_map (inbuf, &map[1], GST_MAP_READ));
  for (x = 0; x < 64 * 32; x++)
    same = same && map[0].data[x] == map[1].data[x];
  gst_buffer_unmap (inbuf, &map[1]);
  gst_buffer_unmap (outbuf, &map[0]);
  return same;
}

/* A download whose call fails says which, with "(download)", and leaves
 * the output as it was, but where only the event after the copy could not
 * be recorded: then the copy is waited for at once, and the output holds
 * the frame. The frame's wait still succeeds, and the next frame, in
 * another slot, is downloaded (the stream made then, where it could not
 * be before). */
GST_START_TEST (test_download_refused)
{
  const struct
  {
    const gchar *fail, *call;
    gboolean written;
  } cases[] = {
    {"cuStreamCreate", "cuStreamCreate", FALSE},
    {"cuEventRecord:1", "cuEventRecord", FALSE},
    {"cuStreamWaitEvent", "cuStreamWaitEvent", FALSE},
    {"cuMemcpyDtoHAsync", "cuMemcpyDtoHAsync", FALSE},
    {"cuEventRecord:2", "cuEventRecord", TRUE},
  };
  GstBuffer *inbuf = NULL, *outbuf = NULL;
  GError *error = NULL;
  GstBufferPool *pool;
  GstVideoInfo info;
  gchar *want;
  guint i;

  pool = pinned_pair (&info, &inbuf, &outbuf, 5, 1);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstClCudaExec *exec = new_exec ();

    want = g_strdup_printf ("CUDA %s (download) failed", cases[i].call);
    fail_unless_equals_int (frame_downloaded (exec, 0, inbuf, outbuf, &info,
            cases[i].fail, &error), cases[i].written);
    fail_unless (error && g_str_has_prefix (error->message, want),
        "%s: %s", cases[i].fail, error ? error->message : "no error");
    g_clear_error (&error);
    fail_unless (frame_downloaded (exec, 1, inbuf, outbuf, &info, NULL,
            &error), "%s", cases[i].fail);
    fail_unless (error == NULL, "%s", error ? error->message : "");
    gst_cl_cuda_exec_free (exec);
    g_free (want);
  }
  gst_buffer_unref (inbuf);
  gst_buffer_unref (outbuf);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
}

GST_END_TEST;

/* A frame of pinned memory left in flight: the input, which the stream
 * reads where it is, and the output are held by the slot until it retires
 * (then the output holds the input's rows); a frame of other memory lets
 * its input go at once (it was copied). The first frame's time on the GPU
 * reaches the next frame's begin: its copy and download (0.25 ms each on
 * the fake's clock; the upload, before the begin, is not in it). */
GST_START_TEST (test_host_frame_held)
{
  GstClCudaExec *exec = new_exec ();
  GstBuffer *inbuf[2] = { NULL, NULL }, *outbuf = NULL;
  GError *error = NULL;
  GstClInFlight *in_flight;
  GstClFrameQueues q;
  GstBufferPool *pool;
  GstVideoInfo info;
  GstClFrame in, out;
  gdouble device_ms = 0;
  GstMapInfo map[2];
  guint slot, k;
  gsize x;

  pool = nv12_host_pool (&info);
  /* pinned, then plain system memory */
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &inbuf[0],
          NULL), GST_FLOW_OK);
  inbuf[1] = gst_buffer_new_allocate (NULL, info.size, NULL);
  in_flight = gst_cl_in_flight_new (fixture_context, 3, &error);
  fail_unless (in_flight != NULL, "%s", error ? error->message : "");
  gst_cl_in_flight_set_hold_cuda (in_flight, TRUE);
  for (k = 0; k < 2; k++) {
    fail_unless (gst_buffer_map (inbuf[k], &map[0], GST_MAP_WRITE));
    for (x = 0; x < map[0].size; x++)
      map[0].data[x] = (guint8) (x * 5 + k);
    gst_buffer_unmap (inbuf[k], &map[0]);
    fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &outbuf,
            NULL), GST_FLOW_OK);
    fail_unless (gst_cl_in_flight_begin (in_flight, &slot, &device_ms,
            &error), "%s", error ? error->message : "");
    fail_unless (gst_cl_frame_open_host_on_cuda (&out, fixture_context,
            &info, outbuf, GST_MAP_WRITE, exec, slot, &error));
    fail_unless (gst_cl_frame_open_host_on_cuda (&in, fixture_context, &info,
            inbuf[k], GST_MAP_READ, exec, slot, &error));
    gst_cl_in_flight_queues (in_flight, &in, &out, &q);
    fail_unless (q.cuda == exec && q.in_flight);
    fail_unless (gst_cl_cuda_exec_copy (exec, in.planes[0].mem, 0, 64,
            out.planes[0].mem, 0, 64, 64, 32, &error));
    fail_unless (gst_cl_in_flight_end (in_flight, &q, TRUE, &in, &out,
            &device_ms, &error), "%s", error ? error->message : "");
    /* the test's, the slot's and its open frame's map's */
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (outbuf), 3);
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (inbuf[k]),
        k == 0 ? 3 : 1);
    fail_unless (gst_cl_in_flight_complete (in_flight, outbuf, &error));
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (outbuf), 1);
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (inbuf[k]), 1);
    fail_unless (gst_buffer_map (outbuf, &map[0], GST_MAP_READ));
    fail_unless (gst_buffer_map (inbuf[k], &map[1], GST_MAP_READ));
    for (x = 0; x < 64 * 32; x++)
      fail_unless_equals_int (map[0].data[x], map[1].data[x]);
    gst_buffer_unmap (inbuf[k], &map[1]);
    gst_buffer_unmap (outbuf, &map[0]);
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf[k]);
  }
  fail_unless_equals_float (device_ms, 0.5);
  gst_cl_in_flight_free (in_flight);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* With the fake's stream holding its commands until a wait, as a device's
 * does: an input of memory CUDA holds pinned is read by the copy where it
 * is, when the stream runs it (a change after open is seen); an input of
 * other memory was copied at open
 * (a change after it is not). */
GST_START_TEST (test_host_frame_order)
{
  GstClCudaExec *exec = new_exec ();
  GstVideoInfo info;
  GstBufferPool *pool = nv12_host_pool (&info);
  GstBuffer *inbuf[2] = { NULL, NULL };
  guint8 dst[64 * 32];
  GError *error = NULL;
  GstClFrame in;
  GstMapInfo map;
  guint8 *bytes;
  cl_mem out;
  guint k;
  gsize x;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &inbuf[0],
          NULL), GST_FLOW_OK);
  inbuf[1] = gst_buffer_new_allocate (NULL, info.size, NULL);
  for (k = 0; k < 2; k++) {
    /* the bytes, to change while the frame holds the buffer mapped */
    fail_unless (gst_buffer_map (inbuf[k], &map, GST_MAP_WRITE));
    bytes = map.data;
    memset (bytes, 1, info.size);
    gst_buffer_unmap (inbuf[k], &map);
    memset (dst, POISON, sizeof (dst));
    gst_cl_cuda_exec_begin (exec, k);
    fail_unless (gst_cl_frame_open_host_on_cuda (&in, fixture_context, &info,
            inbuf[k], GST_MAP_READ, exec, k, &error), "%s",
        error ? error->message : "");
    fail_unless_equals_int (in.exec_host_pinned, k == 0);
    out = gst_cl_cuda_exec_bind (exec, 1, (CUdeviceptr) (guintptr) dst);
    fail_unless (gst_cl_cuda_exec_copy (exec, in.planes[0].mem, 0, 64, out,
            0, 64, 64, 32, &error), "%s", error ? error->message : "");
    memset (bytes, 2, info.size);
    /* nothing ran yet */
    fail_unless_equals_int (dst[0], POISON);
    fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
        error ? error->message : "");
    gst_cl_frame_close (&in);
    for (x = 0; x < sizeof (dst); x++)
      fail_unless_equals_int (dst[x], k == 0 ? 2 : 1);
    gst_buffer_unref (inbuf[k]);
  }
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

/* A frame's wait where its context could not be made current still waits
 * for the stream's commands (the event needs no context): its pinned
 * memory, which the copies read and write, is let go only then; where the
 * context is gone, nothing is waited for. Mutants killed: no wait where the
 * push failed; a wait on a context gone. */
GST_START_TEST (test_wait_without_context)
{
  GstClCudaExec *exec = new_exec ();
  guint8 src[64 * 32], dst[64 * 32];
  GError *error = NULL;
  cl_mem in, out;
  gsize x;

  memset (src, 7, sizeof (src));
  memset (dst, POISON, sizeof (dst));
  gst_cl_cuda_exec_begin (exec, 0);
  in = gst_cl_cuda_exec_bind (exec, 0, (CUdeviceptr) (guintptr) src);
  out = gst_cl_cuda_exec_bind (exec, 1, (CUdeviceptr) (guintptr) dst);
  fail_unless (gst_cl_cuda_exec_copy (exec, in, 0, 64, out, 0, 64, 64, 32,
          &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_mark (exec, &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (dst[0], POISON);
  g_setenv ("FAKECUDA_PUSH_FAILS", "1", TRUE);
  fail_if (gst_cl_cuda_exec_wait_mark (exec, 0, NULL, &error));
  fail_unless (error && strstr (error->message, "cuCtxPushCurrent"));
  g_clear_error (&error);
  for (x = 0; x < sizeof (dst); x++)
    fail_unless_equals_int (dst[x], 7);
  /* and the stream's wait */
  memset (dst, POISON, sizeof (dst));
  g_unsetenv ("FAKECUDA_PUSH_FAILS");
  fail_unless (gst_cl_cuda_exec_copy (exec, in, 0, 64, out, 0, 64, 64, 32,
          &error), "%s", error ? error->message : "");
  g_setenv ("FAKECUDA_PUSH_FAILS", "1", TRUE);
  fail_if (gst_cl_cuda_exec_sync (exec, NULL, &error));
  fail_unless (error && strstr (error->message, "cuCtxPushCurrent"));
  g_clear_error (&error);
  fail_unless_equals_int (dst[0], 7);
  /* where the context is gone, so is its work: nothing to wait for (the
   * fake's queue still holds the copy, run by the wait after) */
  memset (dst, POISON, sizeof (dst));
  g_unsetenv ("FAKECUDA_PUSH_FAILS");
  fail_unless (gst_cl_cuda_exec_copy (exec, in, 0, 64, out, 0, 64, 64, 32,
          &error), "%s", error ? error->message : "");
  fail_unless (gst_cl_cuda_exec_mark (exec, &error), "%s",
      error ? error->message : "");
  g_setenv ("FAKECUDA_PUSH_FAILS", "gone", TRUE);
  fail_if (gst_cl_cuda_exec_wait_mark (exec, 0, NULL, &error));
  g_clear_error (&error);
  fail_if (gst_cl_cuda_exec_sync (exec, NULL, &error));
  g_clear_error (&error);
  fail_unless_equals_int (dst[0], POISON);
  g_unsetenv ("FAKECUDA_PUSH_FAILS");
  fail_unless (gst_cl_cuda_exec_sync (exec, NULL, &error), "%s",
      error ? error->message : "");
  fail_unless_equals_int (dst[0], 7);
  gst_cl_cuda_exec_free (exec);
}

GST_END_TEST;

static Suite *
clcudaexec_suite (void)
{
  Suite *s = suite_create ("clcudaexec");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, fixture_setup, fixture_teardown);
  tcase_add_test (tc, test_plane_copy);
  tcase_add_test (tc, test_twin);
  tcase_add_test (tc, test_twin_refused);
  tcase_add_test (tc, test_read_by_dma);
  tcase_add_test (tc, test_launch_refused);
  tcase_add_test (tc, test_launch_without_opencl);
  tcase_add_test (tc, test_slots);
  tcase_add_test (tc, test_read_outcomes);
  tcase_add_test (tc, test_frame_time);
  tcase_add_test (tc, test_command_times);
  tcase_add_test (tc, test_host_frame);
  tcase_add_test (tc, test_host_frame_layout);
  tcase_add_test (tc, test_host_frame_input);
  tcase_add_test (tc, test_propose_held);
  tcase_add_test (tc, test_negotiation_without_opencl);
  tcase_add_test (tc, test_host_pool);
  tcase_add_test (tc, test_host_frame_pinned);
  tcase_add_test (tc, test_host_frame_held);
  tcase_add_test (tc, test_host_frame_no_memory);
  tcase_add_test (tc, test_host_frame_no_memory_without_opencl);
  tcase_add_test (tc, test_downloads_in_flight);
  tcase_add_test (tc, test_download_refused);
  tcase_add_test (tc, test_host_frame_order);
  tcase_add_test (tc, test_wait_without_context);
  return s;
}

GST_CHECK_MAIN (clcudaexec);
