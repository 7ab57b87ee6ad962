/* gst-clfilters
 * Copyright (C) 2026 gst-clfilters authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_CACHE_PRIVATE_H__
#define __GST_CL_CACHE_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* The on-disk cache of compiled programs and tuning results:
 * $XDG_CACHE_HOME/gst-clfilters (g_get_user_cache_dir()), or the folder
 * named by $GST_CL_CACHE_DIR. $GST_CL_CACHE_DIR set to an empty string turns
 * the cache off. Entries are named by a hash of everything their content
 * depends on, so a new driver, device or kernel source never reads an old
 * one; a damaged entry is only ever a cache miss. */

/* A file name for @what (a short word) keyed by the SHA-256 of @key:
 * "WHAT-HASH". Free with g_free(). */
gchar *gst_cl_cache_entry_name (const gchar * what, const gchar * key,
    gsize key_len);

/* Reads entry @name; FALSE (and nothing allocated) if it is not there, the
 * cache is off, or the entry fails its checksum (it is then removed). The
 * contents are followed by a NUL byte, not counted in @length. */
gboolean gst_cl_cache_read (const gchar * name, gchar ** contents,
    gsize * length);

/* Writes entry @name atomically (a temporary file, flushed, renamed over
 * it), with a checksum, so that a reader never uses half of it and
 * concurrent writers do not mix. Failure is logged and otherwise ignored:
 * the cache is an optimisation. */
void gst_cl_cache_write (const gchar * name, const gchar * contents,
    gsize length);

G_END_DECLS

#endif /* __GST_CL_CACHE_PRIVATE_H__ */
