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

/* y4m-psnr REFERENCE.y4m TEST.y4m
 *
 * Prints the luma PSNR of TEST against REFERENCE over all frames (the mean
 * squared error of every luma sample, then 10 log10 (255^2 / MSE)). Both files
 * must hold 4:2:0 8-bit frames of the same size, as y4menc writes them. */

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  FILE *file;
  gint width, height;
} Y4mFile;

static gboolean
y4m_open (Y4mFile * y4m, const gchar * path)
{
  gchar header[512];
  gchar **tokens;
  guint i;

  y4m->file = fopen (path, "rb");
  if (!y4m->file || !fgets (header, sizeof (header), y4m->file)
      || !g_str_has_prefix (header, "YUV4MPEG2 ")) {
    g_printerr ("%s: not a YUV4MPEG2 file\n", path);
    return FALSE;
  }
  y4m->width = y4m->height = 0;
  tokens = g_strsplit (g_strstrip (header), " ", -1);
  for (i = 0; tokens[i]; i++) {
    if (tokens[i][0] == 'W')
      y4m->width = atoi (tokens[i] + 1);
    else if (tokens[i][0] == 'H')
      y4m->height = atoi (tokens[i] + 1);
    else if (tokens[i][0] == 'C' && !g_str_has_prefix (tokens[i], "C420")) {
      g_printerr ("%s: only 4:2:0 is supported, not %s\n", path, tokens[i]);
      g_strfreev (tokens);
      return FALSE;
    }
  }
  g_strfreev (tokens);
  return y4m->width > 0 && y4m->height > 0;
}

/* Reads the next frame's luma into @luma (chroma is skipped). */
static gboolean
y4m_read_luma (Y4mFile * y4m, guint8 * luma)
{
  gsize luma_size = (gsize) y4m->width * y4m->height;
  gsize chroma_size = 2 * (gsize) ((y4m->width + 1) / 2) *
      ((y4m->height + 1) / 2);
  gchar line[256];

  if (!fgets (line, sizeof (line), y4m->file) || !g_str_has_prefix (line,
          "FRAME"))
    return FALSE;
  if (fread (luma, 1, luma_size, y4m->file) != luma_size)
    return FALSE;
  return fseek (y4m->file, chroma_size, SEEK_CUR) == 0;
}

int
main (int argc, char **argv)
{
  Y4mFile ref, test;
  guint8 *a, *b;
  gdouble sse = 0.0;
  guint64 samples = 0;
  guint frames = 0;
  gsize i, n;

  if (argc != 3) {
    g_printerr ("usage: %s REFERENCE.y4m TEST.y4m\n", argv[0]);
    return 2;
  }
  if (!y4m_open (&ref, argv[1]) || !y4m_open (&test, argv[2]))
    return 1;
  if (ref.width != test.width || ref.height != test.height) {
    g_printerr ("sizes differ: %dx%d and %dx%d\n", ref.width, ref.height,
        test.width, test.height);
    return 1;
  }

  n = (gsize) ref.width * ref.height;
  a = g_malloc (n);
  b = g_malloc (n);
  while (y4m_read_luma (&ref, a) && y4m_read_luma (&test, b)) {
    for (i = 0; i < n; i++) {
      gdouble d = (gdouble) a[i] - b[i];
      sse += d * d;
    }
    samples += n;
    frames++;
  }
  if (frames == 0) {
    g_printerr ("no frame to compare\n");
    return 1;
  }
  if (sse == 0.0)
    g_print ("inf (identical, %u frames)\n", frames);
  else
    g_print ("%.3f dB (%u frames)\n", 10.0 * log10 (255.0 * 255.0 /
            (sse / samples)), frames);
  g_free (a);
  g_free (b);
  return 0;
}
