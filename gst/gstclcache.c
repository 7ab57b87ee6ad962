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

#include "gstcldebug-private.h"
#include "gstclcache-private.h"
#include "gstclerror-private.h"

#include <gst/gst.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define GST_CAT_DEFAULT gst_cl_cache_debug


/* Entries larger than this are refused unread: a program binary is a few
 * MB at most, a tuning file a few KB. */
#define MAX_ENTRY_SIZE (64 * 1024 * 1024)

/* Whether @st, of a file the cache is about to trust, belongs to this user
 * and can be written by nobody else: PoCL's program binaries are native
 * code, so a folder or entry others can write lets them plant some. */
static gboolean
is_private (const GStatBuf * st)
{
  return st->st_uid == geteuid () && (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/* The cache folder, or NULL when the cache is off or the folder cannot be
 * trusted (another owner, or writable by others: logged once). */
static gchar *
cache_dir (void)
{
  static gint warned = 0;
  const gchar *env = g_getenv ("GST_CL_CACHE_DIR");
  gchar *dir;
  GStatBuf st;

  if (env && !*env)
    return NULL;
  dir = env ? g_strdup (env) : g_build_filename (g_get_user_cache_dir (),
      "gst-clfilters", NULL);
  if (g_stat (dir, &st) == 0 && (!S_ISDIR (st.st_mode) || !is_private (&st))) {
    if (g_atomic_int_compare_and_exchange (&warned, 0, 1))
      GST_WARNING ("not using the cache folder %s: not a folder of this "
          "user's that only this user can write", dir);
    g_free (dir);
    return NULL;
  }
  return dir;
}

/* "WHAT-HASH": the file name of @what's entry for @key. */
static gchar *
entry_name (const gchar * what, const gchar * key_hash)
{
  return g_strdup_printf ("%s-%s", what, key_hash);
}

/* Each entry starts with a header: MAGIC, the payload's length and the
 * SHA-256 of the key's hash and the payload, so that a truncated or altered
 * file (power loss, disk errors, other tools), or a valid entry of another
 * key copied under this one's name, is a miss, never something handed to a
 * driver. */
#define MAGIC "gst-clfilters cache 2\n"
#define HEADER_LEN (sizeof (MAGIC) - 1 + 17 + 65)

static gchar *
entry_checksum (const gchar * key_hash, const gchar * payload, gsize length)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gchar *text;

  g_checksum_update (sum, (const guchar *) key_hash, strlen (key_hash));
  g_checksum_update (sum, (const guchar *) "\n", 1);
  g_checksum_update (sum, (const guchar *) payload, length);
  text = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return text;
}

/* The payload of @data, or NULL if its header does not vouch for it. */
static gchar *
check_entry (const gchar * key_hash, const gchar * data, gsize size,
    gsize * length)
{
  gchar lenhex[17] = { 0, }, sum[65] = { 0, };
  gchar *expected;
  guint64 n;
  gboolean ok;

  if (size < HEADER_LEN || memcmp (data, MAGIC, sizeof (MAGIC) - 1) != 0)
    return NULL;
  memcpy (lenhex, data + sizeof (MAGIC) - 1, 16);
  memcpy (sum, data + sizeof (MAGIC) - 1 + 17, 64);
  if (!g_ascii_string_to_unsigned (lenhex, 16, 0, G_MAXUINT64, &n, NULL) ||
      n != size - HEADER_LEN)
    return NULL;
  expected = entry_checksum (key_hash, data + HEADER_LEN, n);
  ok = g_str_equal (expected, sum);
  g_free (expected);
  if (!ok)
    return NULL;
  *length = n;
  return g_memdup2 (data + HEADER_LEN, n + 1);  /* with a NUL after */
}

/* The bytes of the file at @path, if it is a regular file of this user's
 * that only this user can write, of at most MAX_ENTRY_SIZE bytes. Never
 * blocks on a FIFO or device, never follows a link. */
static gchar *
read_private_file (const gchar * path, gsize * size)
{
  gchar *data = NULL;
  GStatBuf st;
  gsize done = 0;
  gint fd;

  fd = g_open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || !is_private (&st) ||
      st.st_size > MAX_ENTRY_SIZE) {
    GST_WARNING ("ignoring %s: not a regular file of this user's that only "
        "this user can write, of at most %d bytes", path, MAX_ENTRY_SIZE);
    close (fd);
    return NULL;
  }
  data = g_malloc (st.st_size + 1);
  while (done < (gsize) st.st_size) {
    gssize n = read (fd, data + done, st.st_size - done);

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    done += n;
  }
  close (fd);
  if (done != (gsize) st.st_size) {
    g_free (data);
    return NULL;
  }
  data[done] = '\0';
  *size = done;
  return data;
}

/* Reads @path as an entry for @key_hash: the payload, or NULL (a damaged
 * entry is removed). */
static gchar *
read_entry (const gchar * path, const gchar * key_hash, gsize * length)
{
  gchar *data, *contents = NULL;
  gsize size = 0;

  if ((data = read_private_file (path, &size))) {
    contents = check_entry (key_hash, data, size, length);
    if (!contents) {
      GST_WARNING ("%s is damaged or not this entry: removing it", path);
      g_unlink (path);
    }
  }
  GST_DEBUG ("%s: %s", path, contents ? "hit" : "miss");
  g_free (data);
  return contents;
}

static void
write_entry (const gchar * path, const gchar * key_hash,
    const gchar * contents, gsize length)
{
  GError *error = NULL;
  gchar *sum, *header;
  GString *entry;

  sum = entry_checksum (key_hash, contents, length);
  header = g_strdup_printf ("%s%016" G_GINT64_MODIFIER "x\n%s\n", MAGIC,
      (guint64) length, sum);
  g_assert (strlen (header) == HEADER_LEN);
  entry = g_string_new_len (header, HEADER_LEN);
  g_string_append_len (entry, contents, length);
  /* A temporary file renamed over the entry, flushed to disk first. */
  if (!g_file_set_contents_full (path, entry->str, entry->len,
          G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error)) {
    GST_WARNING ("cannot write %s: %s", path, error->message);
    g_clear_error (&error);
  } else {
    GST_DEBUG ("wrote %s (%" G_GSIZE_FORMAT " bytes)", path, length);
  }
  g_string_free (entry, TRUE);
  g_free (header);
  g_free (sum);
}

/* The folder (created if need be), the entry's path and the key's hash;
 * FALSE when the cache is off or unusable. */
static gboolean
locate (const gchar * what, const gchar * key, gboolean create,
    gchar ** path, gchar ** key_hash)
{
  gchar *dir, *name;

  gst_cl_debug_init ();
  if (!(dir = cache_dir ()))
    return FALSE;
  if (create && g_mkdir_with_parents (dir, 0700) != 0) {
    GST_WARNING ("cannot create cache folder %s", dir);
    g_free (dir);
    return FALSE;
  }
  *key_hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  name = entry_name (what, *key_hash);
  *path = g_build_filename (dir, name, NULL);
  g_free (name);
  g_free (dir);
  return TRUE;
}

gboolean
gst_cl_cache_read (const gchar * what, const gchar * key, gchar ** contents,
    gsize * length)
{
  gchar *path, *key_hash;

  *contents = NULL;
  if (!locate (what, key, FALSE, &path, &key_hash))
    return FALSE;
  *contents = read_entry (path, key_hash, length);
  g_free (key_hash);
  g_free (path);
  return *contents != NULL;
}

void
gst_cl_cache_write (const gchar * what, const gchar * key,
    const gchar * contents, gsize length)
{
  gchar *path, *key_hash;

  if (!locate (what, key, TRUE, &path, &key_hash))
    return;
  write_entry (path, key_hash, contents, length);
  g_free (key_hash);
  g_free (path);
}

/* How long an update waits for another process's lock on its entry, and
 * how often it tries again meanwhile: the streaming thread waits (the tuner
 * updates from transform), and the cache is only an optimisation. */
#define LOCK_WAIT_US (1 * G_USEC_PER_SEC)
#define LOCK_RETRY_US (10 * 1000)

/* Updates of one process take turns here, so that its threads never poll
 * for each other's flock() (polling is not fair: one could starve), and
 * because on a network filesystem flock() becomes a POSIX lock, which the
 * threads of one process share. */
static GMutex update_mutex;

/* Whether @fd (open on @lock_path) still names the file at @lock_path: its
 * last holder removes it before letting go. */
static gboolean
lock_file_current (gint fd, const gchar * lock_path)
{
  GStatBuf st_path;
  struct stat st_fd;

  return fstat (fd, &st_fd) == 0 && g_lstat (lock_path, &st_path) == 0 &&
      st_fd.st_dev == st_path.st_dev && st_fd.st_ino == st_path.st_ino;
}

/* Takes the exclusive lock of @lock_path without blocking, trying again
 * until LOCK_WAIT_US have passed: the descriptor that holds it, -1 where
 * another process kept it all that time (@held set), or -2 where the file
 * cannot be opened or the filesystem cannot lock (the caller updates
 * unlocked). */
static gint
lock_entry (const gchar * lock_path, gboolean * held)
{
  gint64 deadline = g_get_monotonic_time () + LOCK_WAIT_US;
  gint fd, locked, error;

  *held = FALSE;
  for (;;) {
    fd = g_open (lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
      return -2;
    locked = flock (fd, LOCK_EX | LOCK_NB);
    error = errno;
    /* a file its last holder removed is locked in vain: try the path again */
    if (locked == 0 && lock_file_current (fd, lock_path))
      return fd;
    close (fd);
    /* a filesystem that cannot lock: nobody holds the file, none is left */
    if (locked != 0 && error != EWOULDBLOCK && error != EINTR) {
      g_unlink (lock_path);
      return -2;
    }
    if (g_get_monotonic_time () >= deadline) {
      *held = TRUE;
      return -1;
    }
    g_usleep (LOCK_RETRY_US);
  }
}

/* Removes the lock file, then lets go of the lock: no 0-byte .lock file is
 * left in the folder, and a waiter that opened the removed file tries the
 * path again (lock_entry). */
static void
unlock_entry (gint fd, const gchar * lock_path)
{
  g_unlink (lock_path);
  close (fd);
}

void
gst_cl_cache_update (const gchar * what, const gchar * key,
    GstClCacheMergeFunc merge, gpointer user_data)
{
  gchar *path, *key_hash, *lock_path, *old, *merged;
  gsize old_length = 0, length = 0;
  gboolean held;
  gint fd;

  if (!locate (what, key, TRUE, &path, &key_hash))
    return;
  /* Read, merge and write under an exclusive lock on a file beside the
   * entry, so that no update of another process is lost; one that holds
   * it too long (stopped, in a debugger) costs this update, not the
   * stream. */
  lock_path = g_strconcat (path, ".lock", NULL);
  g_mutex_lock (&update_mutex);
  fd = lock_entry (lock_path, &held);
  if (held) {
    GST_DEBUG ("%s stayed locked by another process for %d ms: not "
        "updating %s", lock_path, LOCK_WAIT_US / 1000, path);
    goto done;
  }
  if (fd < 0)
    GST_WARNING ("cannot lock %s: updating it unlocked", lock_path);
  old = read_entry (path, key_hash, &old_length);
  merged = merge (old, old_length, &length, user_data);
  if (merged)
    write_entry (path, key_hash, merged, length);
  if (fd >= 0)
    unlock_entry (fd, lock_path);
  g_free (merged);
  g_free (old);

done:
  g_mutex_unlock (&update_mutex);
  g_free (lock_path);
  g_free (key_hash);
  g_free (path);
}
