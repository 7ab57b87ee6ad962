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

#include "gstclcpucopy-private.h"

#include <string.h>

/* Large planes copied by the CPU are split over this many threads (the
 * caller's and a process-wide pool's): one core copied a 4K luma plane
 * into pinned staging memory in about 0.8 ms on the H100's host, most of a
 * frame from system memory (docs/memory.md). */
#define COPY_THREADS 4
#define COPY_SPLIT_BYTES (1 << 20)

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
  gsize first[COPY_THREADS], rows[COPY_THREADS];
  GstClCopyPart parts[COPY_THREADS];
  gint refs;
  guint left;                   /* parts not copied yet, under lock */
  GMutex lock;
  GCond cond;
};

static void
copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row_bytes, gsize rows)
{
  gsize y;

  if (dst_pitch == row_bytes && src_pitch == row_bytes) {
    memcpy (dst, src, row_bytes * rows);
    return;
  }
  for (y = 0; y < rows; y++)
    memcpy (dst + y * dst_pitch, src + y * src_pitch, row_bytes);
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
      job->row_bytes, job->rows[i]);
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

/* The pool of gst_cl_cpu_copy_rows()'s helper threads, made on first use and
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

void
gst_cl_cpu_copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row_bytes, gsize rows)
{
  guint n = MIN (COPY_THREADS, (guint) g_get_num_processors ()), i;
  GThreadPool *pool = NULL;
  GstClCopyJob *job;
  gsize y = 0;

  if (row_bytes * rows >= COPY_SPLIT_BYTES && n > 1 && rows >= n)
    pool = copy_pool ();
  if (!pool) {
    copy_rows (dst, dst_pitch, src, src_pitch, row_bytes, rows);
    return;
  }
  job = g_new0 (GstClCopyJob, 1);
  *job = (GstClCopyJob) {
  dst, src, dst_pitch, src_pitch, row_bytes};
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
