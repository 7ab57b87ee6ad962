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

gboolean
gst_cl_cache_read (const gchar * name, gchar ** contents, gsize * length)
{
  gchar *dir, *path;
  gboolean found;

  ensure_debug_category ();
  if (!(dir = cache_dir ()))
    return FALSE;
  path = g_build_filename (dir, name, NULL);
  found = g_file_get_contents (path, contents, length, NULL);
  GST_DEBUG ("%s: %s", path, found ? "hit" : "miss");
  g_free (path);
  g_free (dir);
  return found;
}

void
gst_cl_cache_write (const gchar * name, const gchar * contents, gsize length)
{
  GError *error = NULL;
  gchar *dir, *path = NULL;

  ensure_debug_category ();
  if (!(dir = cache_dir ()))
    return;
  if (g_mkdir_with_parents (dir, 0700) != 0) {
    GST_WARNING ("cannot create cache folder %s", dir);
    goto done;
  }
  path = g_build_filename (dir, name, NULL);
  /* g_file_set_contents writes a temporary file and renames it over. */
  if (!g_file_set_contents (path, contents, length, &error)) {
    GST_WARNING ("cannot write %s: %s", path, error->message);
    g_clear_error (&error);
  } else {
    GST_DEBUG ("wrote %s (%" G_GSIZE_FORMAT " bytes)", path, length);
  }

done:
  g_free (path);
  g_free (dir);
}
