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

#include "gstclcopy-private.h"
#include "gstclerror-private.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Large planes copied by the CPU are split over the caller's thread and a
 * process-wide pool's: a thread a whole half megabyte, from
 * COPY_MIN_THREADS to COPY_THREADS (a 4K luma plane: 15), no more than the
 * processors there are. One core copied a 4K luma plane into pinned
 * staging memory in about 0.8 ms on the H100's host, most of a frame from
 * system memory; on the H200's (16 cores), 7 threads (a megabyte each) 0.24
 * ms, 15 threads 0.14 (docs/memory.md). */
#define COPY_THREADS 16
#define COPY_MIN_THREADS 4
#define COPY_SPLIT_BYTES (1 << 19)

/* How a copy writes its rows: through the cache, or past it (see
 * stream_bytes()). */
typedef enum
{
  COPY_CACHED,
  COPY_STREAMED,
} GstClCopyStores;

/* One copy split over threads. A synchronous one: the caller runs the
 * last part and every part no pool thread has claimed yet, then waits for
 * those that pool threads claimed. A started one
 * (gst_cl_copy_host_plane_start()): pool threads run every part while the
 * caller goes on, and the thread that copies the last rows runs the
 * callbacks given with gst_cl_copy_job_then(). The job lives on the heap
 * until its holders (the caller, and each queued part) have let go of it:
 * a part queued on a pool that could not start a thread may run after the
 * caller returned (GLib queues it anyway), and then finds itself claimed
 * and does nothing. */
typedef struct
{
  GstClCopyJob *job;
  guint index;
  gint claimed;
} GstClCopyPart;

#define COPY_THEN_MAX 2

struct _GstClCopyJob
{
  guint8 *dst;
  const guint8 *src;
  gsize dst_pitch, src_pitch, row_bytes;
  GstClCopyStores stores;
  guint n;
  gsize first[COPY_THREADS], rows[COPY_THREADS];
  GstClCopyPart parts[COPY_THREADS];
  gint refs;
  /* under lock */
  guint left;                   /* parts not copied yet */
  gboolean copied;              /* every part is: callbacks run at once */
  gboolean finished;            /* ... and the callbacks ran */
  GDestroyNotify then[COPY_THEN_MAX];
  gpointer then_data[COPY_THEN_MAX];
  guint n_then;
  GMutex lock;
  GCond cond;
};

/* Copies @n bytes with non-temporal stores, which write whole cache lines
 * to memory without reading them first and without evicting the source:
 * a third less memory traffic than memcpy() for a plane far larger than
 * the cache (glibc's memcpy() streams only past about the size of the
 * last-level cache, tens of megabytes, and each thread's band of a 4K luma
 * plane is 2 MB). Needs stream_fence() before another thread or the device
 * may read the bytes. */
static void
stream_bytes (guint8 * dst, const guint8 * src, gsize n)
{
#ifdef __SSE2__
  gsize i = MIN (n, (16 - ((guintptr) dst & 15)) & 15);

  /* the stores need 16-byte aligned destinations; the loads do not */
  memcpy (dst, src, i);
  for (; i + 64 <= n; i += 64) {
    const __m128i a = _mm_loadu_si128 ((const __m128i *) (src + i));
    const __m128i b = _mm_loadu_si128 ((const __m128i *) (src + i + 16));
    const __m128i c = _mm_loadu_si128 ((const __m128i *) (src + i + 32));
    const __m128i d = _mm_loadu_si128 ((const __m128i *) (src + i + 48));

    _mm_stream_si128 ((__m128i *) (dst + i), a);
    _mm_stream_si128 ((__m128i *) (dst + i + 16), b);
    _mm_stream_si128 ((__m128i *) (dst + i + 32), c);
    _mm_stream_si128 ((__m128i *) (dst + i + 48), d);
  }
  memcpy (dst + i, src + i, n - i);
#else
  memcpy (dst, src, n);
#endif
}

/* Orders this thread's non-temporal stores before its later stores (the
 * signal that a band is done), which x86 does not otherwise promise. */
static void
stream_fence (void)
{
#ifdef __SSE2__
  _mm_sfence ();
#endif
}

static void
copy_bytes (guint8 * dst, const guint8 * src, gsize n, GstClCopyStores stores)
{
  if (stores == COPY_STREAMED)
    stream_bytes (dst, src, n);
  else
    memcpy (dst, src, n);
}

static void
copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row_bytes, gsize rows, GstClCopyStores stores)
{
  gsize y;

  if (dst_pitch == row_bytes && src_pitch == row_bytes)
    copy_bytes (dst, src, row_bytes * rows, stores);
  else
    for (y = 0; y < rows; y++)
      copy_bytes (dst + y * dst_pitch, src + y * src_pitch, row_bytes, stores);
  if (stores == COPY_STREAMED)
    stream_fence ();
}

void
gst_cl_copy_job_unref (GstClCopyJob * job)
{
  if (!job || !g_atomic_int_dec_and_test (&job->refs))
    return;
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job);
}

/* The thread that copied the last rows: runs the callbacks, then says the
 * job is finished. */
static void
copy_job_finish (GstClCopyJob * job)
{
  guint i;

  g_mutex_lock (&job->lock);
  job->copied = TRUE;
  g_mutex_unlock (&job->lock);
  /* no callback is added once copied is set: this reads them alone */
  for (i = 0; i < job->n_then; i++)
    job->then[i] (job->then_data[i]);
  g_mutex_lock (&job->lock);
  job->finished = TRUE;
  g_cond_broadcast (&job->cond);
  g_mutex_unlock (&job->lock);
}

/* Copies @part's rows if nobody has claimed it yet. */
static void
copy_part_run (GstClCopyPart * part)
{
  GstClCopyJob *job = part->job;
  guint i = part->index;
  gboolean last;

  if (!g_atomic_int_compare_and_exchange (&part->claimed, 0, 1))
    return;
  copy_rows (job->dst + job->first[i] * job->dst_pitch, job->dst_pitch,
      job->src + job->first[i] * job->src_pitch, job->src_pitch,
      job->row_bytes, job->rows[i], job->stores);
  g_mutex_lock (&job->lock);
  last = --job->left == 0;
  g_mutex_unlock (&job->lock);
  if (last)
    copy_job_finish (job);
}

static void
copy_part (gpointer data, gpointer user_data)
{
  GstClCopyPart *part = data;
  GstClCopyJob *job = part->job;

  copy_part_run (part);
  gst_cl_copy_job_unref (job);
}

/* The pool of the copies' helper threads, made on first use and kept for
 * the process; NULL where it cannot be made. */
static GThreadPool *
copy_pool (void)
{
  static GThreadPool *pool;
  static gsize made;

  if (g_once_init_enter (&made)) {
    pool = g_thread_pool_new (copy_part, NULL, COPY_THREADS - 1, FALSE, NULL);
    g_once_init_leave (&made, 1);
  }
  return pool;
}

/* The parts a copy of @rows rows of @row_bytes is split into: one a
 * whole half megabyte, from COPY_MIN_THREADS to COPY_THREADS and no more
 * than the processors, where the pool of threads is there; else 1. */
static guint
copy_parts (gsize row_bytes, gsize rows)
{
  guint n = MIN (CLAMP ((row_bytes * rows) / COPY_SPLIT_BYTES,
          COPY_MIN_THREADS, COPY_THREADS), (guint) g_get_num_processors ());

  return row_bytes * rows >= COPY_SPLIT_BYTES && n > 1 && rows >= n &&
      copy_pool ()? n : 1;
}

/* A job copying @rows rows of @row_bytes from @src (rows @src_pitch bytes
 * apart) to @dst (rows @dst_pitch bytes apart) with @stores, in @n parts;
 * the caller holds it. */
static GstClCopyJob *
copy_job_new (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row_bytes, gsize rows, GstClCopyStores stores,
    guint n)
{
  GstClCopyJob *job = g_new0 (GstClCopyJob, 1);
  gsize y = 0;
  guint i;

  *job = (GstClCopyJob) {
  dst, src, dst_pitch, src_pitch, row_bytes, stores, n};
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  job->left = n;
  job->refs = 1;
  for (i = 0; i < n; i++) {
    job->first[i] = y;
    job->rows[i] = rows / n + (i < rows % n);
    job->parts[i] = (GstClCopyPart) {
    job, i, 0};
    y += job->rows[i];
  }
  return job;
}

/* Queues the first @n parts of @job on the pool, each holding the job.
 * FALSE where the pool could not start a thread for one: it is queued all
 * the same, and may run late or never. */
static gboolean
copy_job_queue (GstClCopyJob * job, guint n)
{
  gboolean started = TRUE;
  guint i;

  for (i = 0; i < n; i++) {
    g_atomic_int_inc (&job->refs);
    started = g_thread_pool_push (copy_pool (), &job->parts[i], NULL) &&
        started;
  }
  return started;
}

/* Runs every part of @job that no thread has claimed, last first, then
 * waits until the job is finished. */
static void
copy_job_join (GstClCopyJob * job)
{
  guint i;

  for (i = job->n; i > 0; i--)
    copy_part_run (&job->parts[i - 1]);
  gst_cl_copy_job_wait (job);
}

/* Copies the rows as copy_job_new() describes them, split over the pool's
 * threads where the plane is large; returns once every row is copied. The
 * regions must not overlap. */
static void
cpu_copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row_bytes, gsize rows, GstClCopyStores stores)
{
  const guint n = copy_parts (row_bytes, rows);
  GstClCopyJob *job;

  if (n == 1) {
    copy_rows (dst, dst_pitch, src, src_pitch, row_bytes, rows, stores);
    return;
  }
  job = copy_job_new (dst, dst_pitch, src, src_pitch, row_bytes, rows, stores,
      n);
  copy_job_queue (job, n - 1);
  copy_job_join (job);
  gst_cl_copy_job_unref (job);
}

void
gst_cl_copy_job_wait (GstClCopyJob * job)
{
  g_mutex_lock (&job->lock);
  while (!job->finished)
    g_cond_wait (&job->cond, &job->lock);
  g_mutex_unlock (&job->lock);
}

void
gst_cl_copy_job_then (GstClCopyJob * job, GDestroyNotify fn, gpointer data)
{
  gboolean now;

  g_mutex_lock (&job->lock);
  now = job->copied;
  if (!now) {
    g_assert (job->n_then < COPY_THEN_MAX);
    job->then[job->n_then] = fn;
    job->then_data[job->n_then++] = data;
  }
  g_mutex_unlock (&job->lock);
  if (now)
    fn (data);
}

/* ---- Plane copies -------------------------------------------------------- */

static void
count_cl_copy (const GstClPlaneRef * src, const GstClPlaneRef * dst,
    guint64 bytes, GstClTransferStats * stats)
{
  const gboolean src_device = src->kind == GST_CL_PLANE_DEVICE;
  const gboolean dst_device = dst->kind == GST_CL_PLANE_DEVICE;

  if (src_device == dst_device)
    stats->device_copy_bytes += bytes;
  else if (dst_device)
    stats->upload_bytes += bytes;
  else
    stats->download_bytes += bytes;
}

/* Large copies into pinned memory stream past the cache: only the
 * device's DMA reads them next, and keeping them would evict the source. */
static GstClCopyStores
stores_for (const GstClPlaneCopy * copy)
{
  return copy->dst->kind == GST_CL_PLANE_PINNED &&
      copy->row_bytes * copy->height >= COPY_SPLIT_BYTES ?
      COPY_STREAMED : COPY_CACHED;
}

void
gst_cl_copy_host_plane (const GstClPlaneCopy * copy, GstClTransferStats * stats)
{
  cpu_copy_rows (copy->dst->host, copy->dst->pitch, copy->src->host,
      copy->src->pitch, copy->row_bytes, copy->height, stores_for (copy));
  stats->host_copy_bytes += (guint64) copy->row_bytes * copy->height;
}

gboolean
gst_cl_copy_host_plane_splits (const GstClPlaneCopy * copy)
{
  return copy_parts (copy->row_bytes, copy->height) > 1;
}

GstClCopyJob *
gst_cl_copy_host_plane_start (const GstClPlaneCopy * copy,
    GstClTransferStats * stats)
{
  const guint n = copy_parts (copy->row_bytes, copy->height);
  GstClCopyJob *job = copy_job_new (copy->dst->host, copy->dst->pitch,
      copy->src->host, copy->src->pitch, copy->row_bytes, copy->height,
      stores_for (copy), n);

  /* the parts on the pool's threads (one part: one thread), or here where
   * one of those could not start */
  if (!(copy_pool () && copy_job_queue (job, n)))
    copy_job_join (job);
  else
    stats->host_copy_started_bytes += (guint64) copy->row_bytes * copy->height;
  stats->host_copy_bytes += (guint64) copy->row_bytes * copy->height;
  return job;
}

/* The rows a run of bytes is cut into for cpu_copy_rows(): small beside a
 * thread's part, so that the parts come out even. */
#define RUN_ROW_BYTES (64 * 1024)

void
gst_cl_copy_host_run (gpointer dst, gconstpointer src, gsize size,
    gboolean to_device)
{
  const GstClCopyStores stores = to_device && size >= COPY_SPLIT_BYTES ?
      COPY_STREAMED : COPY_CACHED;
  const gsize rows = size / RUN_ROW_BYTES, whole = rows * RUN_ROW_BYTES;

  if (rows > 0)
    cpu_copy_rows (dst, RUN_ROW_BYTES, src, RUN_ROW_BYTES, RUN_ROW_BYTES,
        rows, stores);
  if (size > whole)
    copy_rows ((guint8 *) dst + whole, size - whole,
        (const guint8 *) src + whole, size - whole, size - whole, 1, stores);
}

/* Whether a plane of @height rows of @row_bytes lies in one run of bytes
 * at both ends, so that a plain transfer (not a rectangle one) moves it. */
static gboolean
contiguous (const GstClPlaneRef * src, const GstClPlaneRef * dst,
    gsize row_bytes, gsize height)
{
  return height == 1 || ((gsize) src->pitch == row_bytes &&
      (gsize) dst->pitch == row_bytes);
}

gboolean
gst_cl_copy_plane_on (cl_command_queue queue, const GstClPlaneCopy * copy,
    cl_uint n_wait, const cl_event * wait, cl_event * event,
    GstClTransferStats * stats, GError ** error)
{
  const GstClPlaneRef *src = copy->src, *dst = copy->dst;
  const gsize row_bytes = copy->row_bytes, height = copy->height;
  const size_t src_origin[3] = { src->offset, 0, 0 };
  const size_t dst_origin[3] = { dst->offset, 0, 0 };
  const size_t host_origin[3] = { 0, 0, 0 };
  const size_t region[3] = { row_bytes, height, 1 };
  const gboolean plain = contiguous (src, dst, row_bytes, height);
  guint64 bytes = (guint64) row_bytes * height;
  cl_int status;

  /* Plain transfers where the plane is one run of bytes: some drivers
   * move rectangles more slowly. */
  if (src->mem && dst->mem) {
    status = plain ? clEnqueueCopyBuffer (queue, src->mem, dst->mem,
        src->offset, dst->offset, bytes, n_wait, wait, event) :
        clEnqueueCopyBufferRect (queue, src->mem, dst->mem, src_origin,
        dst_origin, region, src->pitch, 0, dst->pitch, 0, n_wait, wait, event);
    if (status != CL_SUCCESS)
      return gst_cl_set_error (error, status, "clEnqueueCopyBuffer%s",
          plain ? "" : "Rect");
    count_cl_copy (src, dst, bytes, stats);
  } else if (src->mem) {
    status = plain ? clEnqueueReadBuffer (queue, src->mem, CL_FALSE,
        src->offset, bytes, dst->host, n_wait, wait, event) :
        clEnqueueReadBufferRect (queue, src->mem, CL_FALSE, src_origin,
        host_origin, region, src->pitch, 0, dst->pitch, 0, dst->host, n_wait,
        wait, event);
    if (status != CL_SUCCESS)
      return gst_cl_set_error (error, status, "clEnqueueReadBuffer%s",
          plain ? "" : "Rect");
    stats->download_bytes += bytes;
    stats->pageable |= dst->kind != GST_CL_PLANE_PINNED;
  } else if (dst->mem) {
    status = plain ? clEnqueueWriteBuffer (queue, dst->mem, CL_FALSE,
        dst->offset, bytes, src->host, n_wait, wait, event) :
        clEnqueueWriteBufferRect (queue, dst->mem, CL_FALSE, dst_origin,
        host_origin, region, dst->pitch, 0, src->pitch, 0, src->host, n_wait,
        wait, event);
    if (status != CL_SUCCESS)
      return gst_cl_set_error (error, status, "clEnqueueWriteBuffer%s",
          plain ? "" : "Rect");
    stats->upload_bytes += bytes;
    stats->pageable |= src->kind != GST_CL_PLANE_PINNED;
  } else {
    gst_cl_copy_host_plane (copy, stats);
    if (event)
      *event = NULL;
  }
  return TRUE;
}
