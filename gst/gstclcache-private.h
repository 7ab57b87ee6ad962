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

#ifndef __GST_CL_CACHE_PRIVATE_H__
#define __GST_CL_CACHE_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* The on-disk cache of compiled programs and tuning results:
 * $XDG_CACHE_HOME/gst-clfilters (g_get_user_cache_dir()), or the folder
 * named by $GST_CL_CACHE_DIR. $GST_CL_CACHE_DIR set to an empty string turns
 * the cache off, and so does a folder that another user owns or others can
 * write. An entry is named by @what and a hash of its @key (everything its
 * content depends on), and checked against both: a damaged entry, or one
 * of another key copied under its name, is only ever a miss. Entries are
 * read only if they are regular files of this user's that only this user
 * can write, of at most 64 MiB, without blocking or following links. */

/* Reads @what's entry for the NUL-terminated @key; FALSE (and nothing
 * allocated) if it is not there, the cache is off, or the entry fails its
 * checks (it is then removed). The contents are followed by a NUL byte, not
 * counted in @length. */
gboolean gst_cl_cache_read (const gchar * what, const gchar * key,
    gchar ** contents, gsize * length);

/* Writes @what's entry for @key atomically (a temporary file, flushed,
 * renamed over it), so that a reader never uses half of it. Failure is
 * logged and otherwise ignored: the cache is an optimisation. */
void gst_cl_cache_write (const gchar * what, const gchar * key,
    const gchar * contents, gsize length);

/* Given the entry's current contents (@old, NULL if none or damaged), returns
 * the new contents (newly allocated, @length set), or NULL to leave it. */
typedef gchar *(*GstClCacheMergeFunc) (const gchar * old, gsize old_length,
    gsize * length, gpointer user_data);

/* Replaces @what's entry for @key by what @merge makes of it, with the read,
 * the merge and the write under an exclusive lock, so that processes
 * updating one entry at the same time lose none of each other's changes.
 * The lock is waited for about a second at most: where another process
 * holds it longer (stopped, in a debugger), the entry is left as it is and
 * @merge is not called (a debug message says so). No lock file stays in
 * the folder afterwards. */
void gst_cl_cache_update (const gchar * what, const gchar * key,
    GstClCacheMergeFunc merge, gpointer user_data);

G_END_DECLS

#endif /* __GST_CL_CACHE_PRIVATE_H__ */
