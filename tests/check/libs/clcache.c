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

/* The on-disk cache (gst/gstclcache.c) against what a hostile or broken
 * cache folder holds: FIFOs, links to devices, huge files, valid entries
 * under another key's name, files and folders others can write, and
 * several writers updating one entry at once. Each case runs in a cache
 * folder of its own (GST_CL_CACHE_DIR), made before it and removed after
 * it. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gstclcache-private.h"
#include "robust.h"

/* Each case's own cache folder (robust.h), made before it and removed
 * after it. */
static RtCacheDir *cache;

static void
cache_setup (void)
{
  cache = rt_cache_dir_new ();
}

static void
cache_teardown (void)
{
  rt_cache_dir_free (cache);
}

/* Where the cache keeps @what's entry for @key: "WHAT-SHA256(KEY)", as
 * gst/gstclcache.c names it. */
static gchar *
entry_path (const gchar * dir, const gchar * what, const gchar * key)
{
  gchar *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  gchar *name = g_strdup_printf ("%s-%s", what, hash);
  gchar *path = g_build_filename (dir, name, NULL);

  g_free (name);
  g_free (hash);
  return path;
}

static gboolean
read_entry (const gchar * what, const gchar * key, gchar ** contents)
{
  gsize length;

  return gst_cl_cache_read (what, key, contents, &length);
}

GST_START_TEST (test_round_trip)
{
  gchar *contents = NULL;
  gsize length = 0;

  gst_cl_cache_write ("program", "key one", "binary\0bytes", 12);
  fail_unless (gst_cl_cache_read ("program", "key one", &contents, &length));
  fail_unless_equals_int (length, 12);
  fail_unless (memcmp (contents, "binary\0bytes", 12) == 0);
  fail_unless (contents[12] == '\0');
  g_free (contents);
  fail_if (read_entry ("program", "key two", &contents));
  fail_if (read_entry ("tuning", "key one", &contents));
}

GST_END_TEST;

/* A FIFO where an entry should be: read without blocking, and refused
 * (g_file_get_contents would wait on it, and the element's start with it,
 * forever). */
GST_START_TEST (test_fifo_entry)
{
  gchar *contents = NULL;
  gchar *path = entry_path (cache->dir, "tuning", "k");

  fail_unless (mkfifo (path, 0600) == 0);
  fail_if (read_entry ("tuning", "k", &contents));
  fail_unless (contents == NULL);
  g_free (path);
}

GST_END_TEST;

/* A link to /dev/zero, and a 3 GB sparse file: refused unread (read, the
 * first grows the process until memory runs out, the second takes seconds
 * at every start). */
GST_START_TEST (test_endless_and_huge_entries)
{
  gchar *contents = NULL;
  gchar *link = entry_path (cache->dir, "program", "zero");
  gchar *huge = entry_path (cache->dir, "program", "huge");
  FILE *f;

  fail_unless (symlink ("/dev/zero", link) == 0);
  fail_if (read_entry ("program", "zero", &contents));
  f = fopen (huge, "w");
  fail_unless (f != NULL);
  fail_unless (ftruncate (fileno (f), (off_t) 3 << 30) == 0);
  fclose (f);
  fail_if (read_entry ("program", "huge", &contents));
  fail_unless (contents == NULL);
  g_free (link);
  g_free (huge);
}

GST_END_TEST;

/* A valid entry copied under another key's name is a miss, and the copy
 * is removed (taken as a hit, the window-15 program would run for window
 * 3). */
GST_START_TEST (test_entry_of_another_key)
{
  gchar *contents = NULL, *data;
  gchar *a = entry_path (cache->dir, "program", "window 15");
  gchar *b = entry_path (cache->dir, "program", "window 3");
  gsize size;

  gst_cl_cache_write ("program", "window 15", "fifteen", 7);
  gst_cl_cache_write ("program", "window 3", "three", 5);
  fail_unless (g_file_get_contents (a, &data, &size, NULL));
  fail_unless (g_file_set_contents_full (b, data, size,
          G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  g_free (data);
  fail_if (read_entry ("program", "window 3", &contents));
  fail_if (g_file_test (b, G_FILE_TEST_EXISTS));
  fail_unless (read_entry ("program", "window 15", &contents));
  fail_unless_equals_string (contents, "fifteen");
  g_free (contents);
  g_free (a);
  g_free (b);
}

GST_END_TEST;

/* Entries and folders that others can write, or that another user owns,
 * are not trusted: a program binary is native code. */
GST_START_TEST (test_untrusted_files)
{
  gchar *contents = NULL;
  gchar *path = entry_path (cache->dir, "program", "k");

  gst_cl_cache_write ("program", "k", "code", 4);
  fail_unless (read_entry ("program", "k", &contents));
  g_clear_pointer (&contents, g_free);

  fail_unless (g_chmod (path, 0620) == 0);
  fail_if (read_entry ("program", "k", &contents), "group-writable entry");
  fail_unless (g_chmod (path, 0602) == 0);
  fail_if (read_entry ("program", "k", &contents), "world-writable entry");
  fail_unless (g_chmod (path, 0600) == 0);
  fail_unless (read_entry ("program", "k", &contents));
  g_clear_pointer (&contents, g_free);

  fail_unless (g_chmod (cache->dir, 0777) == 0);
  fail_if (read_entry ("program", "k", &contents), "world-writable folder");
  gst_cl_cache_write ("program", "other", "x", 1);
  fail_unless (g_chmod (cache->dir, 0700) == 0);
  fail_if (read_entry ("program", "other", &contents),
      "written into a world-writable folder");

  if (geteuid () == 0) {
    /* Root can give the entry away: another user's file is refused. */
    fail_unless (chown (path, 1, 1) == 0);
    fail_if (read_entry ("program", "k", &contents), "another user's entry");
  } else {
    GST_INFO ("not root: another owner's entry not tried");
  }
  g_free (path);
}

GST_END_TEST;

/* Several writers adding lines to one entry at the same time: with the
 * read, merge and write under one lock, no line is lost (without it, the
 * tuning file loses the entries of concurrent processes). */
#define WRITERS 6
#define LINES 25

static gchar *
append_line (const gchar * old, gsize old_length, gsize * length,
    gpointer user_data)
{
  GString *s = g_string_new_len (old, old ? old_length : 0);

  g_string_append_printf (s, "%s\n", (const gchar *) user_data);
  *length = s->len;
  return g_string_free (s, FALSE);
}

static gpointer
writer (gpointer data)
{
  guint id = GPOINTER_TO_UINT (data), i;

  for (i = 0; i < LINES; i++) {
    gchar *line = g_strdup_printf ("writer %u line %u", id, i);

    gst_cl_cache_update ("tuning", "shared", append_line, line);
    g_free (line);
  }
  return NULL;
}

GST_START_TEST (test_concurrent_updates)
{
  gchar *contents = NULL;
  GThread *threads[WRITERS];
  gchar **lines;
  guint i;

  for (i = 0; i < WRITERS; i++)
    threads[i] = g_thread_new ("writer", writer, GUINT_TO_POINTER (i));
  for (i = 0; i < WRITERS; i++)
    g_thread_join (threads[i]);
  fail_unless (read_entry ("tuning", "shared", &contents));
  lines = g_strsplit (contents, "\n", -1);
  /* The last element is the empty string after the final newline. */
  fail_unless_equals_int (g_strv_length (lines) - 1, WRITERS * LINES);
  g_strfreev (lines);
  g_free (contents);
}

GST_END_TEST;

/* Another process holds an entry's lock and keeps it (stopped, in a
 * debugger, on a network filesystem): the update gives up after a bounded
 * wait, without calling its merge, and works again once the lock is free;
 * no lock file is left in the folder. (A blocking flock() would hold the
 * update, and the streaming thread with it, for as long as the lock is
 * held; a lock file left by every update would pile up.) The lock is held
 * through a descriptor of the test's own, as another process's would be:
 * flock() locks belong to open file descriptions. */
typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done;
  guint merges;
} HeldLockUpdate;

static gchar *
count_merge (const gchar * old, gsize old_length, gsize * length,
    gpointer user_data)
{
  HeldLockUpdate *u = user_data;

  u->merges++;
  *length = 7;
  return g_strdup ("updated");
}

static gpointer
update_in_thread (gpointer data)
{
  HeldLockUpdate *u = data;

  gst_cl_cache_update ("tuning", "held", count_merge, u);
  g_mutex_lock (&u->lock);
  u->done = TRUE;
  g_cond_signal (&u->cond);
  g_mutex_unlock (&u->lock);
  return NULL;
}

/* Whether @u's update returned within a minute: far beyond the bound, only
 * so that a blocked update fails the test instead of hanging it. */
static gboolean
wait_update (HeldLockUpdate * u)
{
  gint64 until = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
  gboolean done;

  g_mutex_lock (&u->lock);
  while (!u->done && g_cond_wait_until (&u->cond, &u->lock, until));
  done = u->done;
  g_mutex_unlock (&u->lock);
  return done;
}

GST_START_TEST (test_held_lock)
{
  gchar *contents = NULL, *lock_path, *entry;
  gchar *path = entry_path (cache->dir, "tuning", "held");
  const gchar *name;
  HeldLockUpdate u = { 0, };
  GThread *thread;
  gboolean returned;
  GDir *d;
  gint fd;

  g_mutex_init (&u.lock);
  g_cond_init (&u.cond);
  lock_path = g_strconcat (path, ".lock", NULL);
  fd = g_open (lock_path, O_RDWR | O_CREAT, 0600);
  fail_unless (fd >= 0);
  fail_unless (flock (fd, LOCK_EX) == 0);

  thread = g_thread_new ("update", update_in_thread, &u);
  returned = wait_update (&u);
  close (fd);                   /* lets a blocked update go on */
  g_thread_join (thread);
  fail_unless (returned, "the update waited for a held lock for a minute");
  fail_unless_equals_int (u.merges, 0);
  fail_if (read_entry ("tuning", "held", &contents));

  /* the lock free again: updated, and nothing but the entry left */
  gst_cl_cache_update ("tuning", "held", count_merge, &u);
  fail_unless_equals_int (u.merges, 1);
  fail_unless (read_entry ("tuning", "held", &contents));
  fail_unless_equals_string (contents, "updated");
  g_free (contents);
  entry = g_path_get_basename (path);
  d = g_dir_open (cache->dir, 0, NULL);
  fail_unless (d != NULL);
  while ((name = g_dir_read_name (d)))
    fail_unless_equals_string (name, entry);
  g_dir_close (d);
  g_free (entry);

  g_mutex_clear (&u.lock);
  g_cond_clear (&u.cond);
  g_free (lock_path);
  g_free (path);
}

GST_END_TEST;

static Suite *
clcache_suite (void)
{
  Suite *s = suite_create ("clcache");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, cache_setup, cache_teardown);
  tcase_add_test (tc, test_round_trip);
  tcase_add_test (tc, test_fifo_entry);
  tcase_add_test (tc, test_endless_and_huge_entries);
  tcase_add_test (tc, test_entry_of_another_key);
  tcase_add_test (tc, test_untrusted_files);
  tcase_add_test (tc, test_concurrent_updates);
  tcase_add_test (tc, test_held_lock);
  return s;
}

GST_CHECK_MAIN (clcache);
