/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclcache-private.h"

#include <gst/gst.h>
#include <glib/gstdio.h>
#include <string.h>

#define GST_CAT_DEFAULT gst_cl_cache_debug
GST_DEBUG_CATEGORY_STATIC (GST_CAT_DEFAULT);

static void
ensure_debug_category (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_cache_debug, "clcache", 0,
        "gst-clfilters on-disk cache of programs and tuning");
    g_once_init_leave (&done, 1);
  }
}

/* The cache folder, or NULL when the cache is off. */
static gchar *
cache_dir (void)
{
  const gchar *dir = g_getenv ("GST_CL_CACHE_DIR");

  if (dir)
    return *dir ? g_strdup (dir) : NULL;
  return g_build_filename (g_get_user_cache_dir (), "gst-clfilters", NULL);
}

gchar *
gst_cl_cache_entry_name (const gchar * what, const gchar * key, gsize key_len)
{
  gchar *hash = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
      (const guchar *) key, key_len);
  gchar *name = g_strdup_printf ("%s-%s", what, hash);

  g_free (hash);
  return name;
}

/* Each entry starts with a header: MAGIC, the payload's length and its
 * SHA-256, so that a truncated or altered file (power loss, disk errors,
 * other tools) is a miss, never something handed to a driver's parser. */
#define MAGIC "gst-clfilters cache 1\n"
#define HEADER_LEN (sizeof (MAGIC) - 1 + 17 + 65)

static gchar *
payload_checksum (const gchar * payload, gsize length)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256,
      (const guchar *) payload, length);
}

/* The payload of @data, or NULL if its header does not vouch for it. */
static gchar *
check_entry (const gchar * data, gsize size, gsize * length)
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
  expected = payload_checksum (data + HEADER_LEN, n);
  ok = g_str_equal (expected, sum);
  g_free (expected);
  if (!ok)
    return NULL;
  *length = n;
  return g_memdup2 (data + HEADER_LEN, n + 1);    /* with a NUL after */
}

gboolean
gst_cl_cache_read (const gchar * name, gchar ** contents, gsize * length)
{
  gchar *dir, *path, *data = NULL;
  gsize size = 0;

  ensure_debug_category ();
  if (!(dir = cache_dir ()))
    return FALSE;
  path = g_build_filename (dir, name, NULL);
  *contents = NULL;
  if (g_file_get_contents (path, &data, &size, NULL)) {
    *contents = check_entry (data, size, length);
    if (!*contents) {
      GST_WARNING ("%s is damaged: removing it", path);
      g_unlink (path);
    }
  }
  GST_DEBUG ("%s: %s", path, *contents ? "hit" : "miss");
  g_free (data);
  g_free (path);
  g_free (dir);
  return *contents != NULL;
}

void
gst_cl_cache_write (const gchar * name, const gchar * contents, gsize length)
{
  GError *error = NULL;
  gchar *dir, *path = NULL, *sum, *header;
  GString *entry;

  ensure_debug_category ();
  if (!(dir = cache_dir ()))
    return;
  if (g_mkdir_with_parents (dir, 0700) != 0) {
    GST_WARNING ("cannot create cache folder %s", dir);
    goto done;
  }
  path = g_build_filename (dir, name, NULL);
  sum = payload_checksum (contents, length);
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

done:
  g_free (path);
  g_free (dir);
}
