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

/* One copy split over threads: the caller runs the last part and every
 * part no pool thread has claimed yet, then waits for those that pool
 * threads claimed. The job lives on the heap until the caller and every
 * queued part have let go of it: a part queued on a pool that could not
 * start a thread may run after the caller returned (GLib queues it
 * anyway), and then finds itself claimed and does nothing. */
typedef struct _GstClCopyJob GstClCopyJob;

typedef struct
{
  GstClCopyJob *job;
  guint index;
  gint claimed;
} GstClCopyPart;

struct _GstClCopyJob
{
  guint8 *dst;
  const guint8 *src;
  gsize dst_pitch, src_pitch, row_bytes;
  GstClCopyStores stores;
  gsize first[COPY_THREADS], rows[COPY_THREADS];
  GstClCopyPart parts[COPY_THREADS];
  gint refs;
  guint left;                   /* parts not copied yet, under lock */
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

static void
copy_job_unref (GstClCopyJob * job)
{
  if (!g_atomic_int_dec_and_test (&job->refs))
    return;
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job);
}

/* Copies @part's rows if nobody has claimed it yet. */
static void
copy_part_run (GstClCopyPart * part)
{
  GstClCopyJob *job = part->job;
  guint i = part->index;

  if (!g_atomic_int_compare_and_exchange (&part->claimed, 0, 1))
    return;
  copy_rows (job->dst + job->first[i] * job->dst_pitch, job->dst_pitch,
      job->src + job->first[i] * job->src_pitch, job->src_pitch,
      job->row_bytes, job->rows[i], job->stores);
  g_mutex_lock (&job->lock);
  if (--job->left == 0)
    g_cond_signal (&job->cond);
  g_mutex_unlock (&job->lock);
}

static void
copy_part (gpointer data, gpointer user_data)
{
  GstClCopyPart *part = data;
  GstClCopyJob *job = part->job;

  copy_part_run (part);
  copy_job_unref (job);
}

/* The pool of cpu_copy_rows()'s helper threads, made on first use and
 * kept for the process; NULL where it cannot be made. */
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

/* Copies @rows rows of @row_bytes from @src (rows @src_pitch bytes apart)
 * to @dst (rows @dst_pitch bytes apart) by the CPU with @stores, the rows
 * split over a process-wide pool of a few threads where the plane is
 * large; returns once every row is copied. The regions must not overlap. */
static void
cpu_copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row_bytes, gsize rows, GstClCopyStores stores)
{
  guint n = MIN (CLAMP ((row_bytes * rows) / COPY_SPLIT_BYTES,
          COPY_MIN_THREADS, COPY_THREADS), (guint) g_get_num_processors ()), i;
  GThreadPool *pool = NULL;
  GstClCopyJob *job;
  gsize y = 0;

  if (row_bytes * rows >= COPY_SPLIT_BYTES && n > 1 && rows >= n)
    pool = copy_pool ();
  if (!pool) {
    copy_rows (dst, dst_pitch, src, src_pitch, row_bytes, rows, stores);
    return;
  }
  job = g_new0 (GstClCopyJob, 1);
  *job = (GstClCopyJob) {
  dst, src, dst_pitch, src_pitch, row_bytes, stores};
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  job->left = n;
  job->refs = n;                /* the caller's, and one a queued part */
  for (i = 0; i < n; i++) {
    job->first[i] = y;
    job->rows[i] = rows / n + (i < rows % n);
    job->parts[i] = (GstClCopyPart) {
    job, i, 0};
    y += job->rows[i];
  }
  for (i = 0; i + 1 < n; i++)
    g_thread_pool_push (pool, &job->parts[i], NULL);
  /* the last part, and any a pool thread has not taken */
  for (i = n; i > 0; i--)
    copy_part_run (&job->parts[i - 1]);
  g_mutex_lock (&job->lock);
  while (job->left > 0)
    g_cond_wait (&job->cond, &job->lock);
  g_mutex_unlock (&job->lock);
  copy_job_unref (job);
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
