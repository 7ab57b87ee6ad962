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

/* A main for the fuzz target when it is not built with libFuzzer: runs every
 * file given (folders: every file in them, sorted), then, with --random N,
 * N inputs of random bytes from --seed S (default 1). Any broken promise
 * aborts, as under libFuzzer. Used by meson test (fuzz/corpus). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

static guint n_run;

static void
run_file (const gchar * path)
{
  gchar *data = NULL;
  gsize size = 0;
  GError *error = NULL;

  if (!g_file_get_contents (path, &data, &size, &error)) {
    g_printerr ("%s: %s\n", path, error->message);
    exit (1);
  }
  if (g_getenv ("CLEPSILON_FUZZ_VERBOSE"))
    g_printerr ("%s\n", path);
  LLVMFuzzerTestOneInput ((const guint8 *) data, size);
  n_run++;
  g_free (data);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

static void
run_path (const gchar * path)
{
  GPtrArray *names;
  const gchar *name;
  GDir *dir;
  guint i;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR)) {
    run_file (path);
    return;
  }
  dir = g_dir_open (path, 0, NULL);
  if (dir == NULL) {
    g_printerr ("%s: cannot open\n", path);
    exit (1);
  }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_dir_close (dir);
  g_ptr_array_sort (names, compare_names);
  for (i = 0; i < names->len; i++)
    run_file (g_ptr_array_index (names, i));
  g_ptr_array_unref (names);
}

int
main (int argc, char **argv)
{
  guint n_random = 0, seed = 1, i;
  guint n_files = 0;
  gchar *name;

  LLVMFuzzerInitialize (&argc, &argv);
  for (i = 1; i < (guint) argc; i++) {
    if (g_str_equal (argv[i], "--random") && i + 1 < (guint) argc)
      n_random = atoi (argv[++i]);
    else if (g_str_equal (argv[i], "--seed") && i + 1 < (guint) argc)
      seed = atoi (argv[++i]);
    else {
      run_path (argv[i]);
      n_files++;
    }
  }
  if (n_random) {
    GRand *rand = g_rand_new_with_seed (seed);
    guint8 buf[1024];

    for (i = 0; i < n_random; i++) {
      gsize size = g_rand_int_range (rand, 1, sizeof (buf)), k;

      for (k = 0; k < size; k++)
        buf[k] = g_rand_int_range (rand, 0, 256);
      LLVMFuzzerTestOneInput (buf, size);
      n_run++;
    }
    g_rand_free (rand);
  }
  /* The target's name: this main serves the clepsilon and codinginfo
   * targets. */
  name = g_path_get_basename (argv[0]);
  g_print ("%s: %u inputs run (%u random, seed %u), no failure\n", name,
      n_run, n_random, seed);
  g_free (name);
  return 0;
}
