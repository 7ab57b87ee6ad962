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

/* An OpenCL program's PTX as a CUDA module's (gstclptx-private.h). What
 * NVIDIA's OpenCL PTX reads from its runtime was seen in its output for
 * the element's programs (tests/gpu/cl-ptx-in-cuda prints it). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclptx-private.h"
#include "gstclerror-private.h"

#include <stdlib.h>
#include <string.h>

/* The module's dynamic shared memory, where __local pointers point. */
#define LOCAL_ARRAY "gst_cl_local"

static gboolean
ptx_error (GError ** error, const gchar * format, const gchar * what)
{
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, format,
      what);
  return FALSE;
}

/* The index of @device among @program's devices, or -1. */
static gint
device_index (cl_program program, cl_device_id device, cl_uint * n_devices)
{
  cl_device_id devices[64];
  cl_uint i;

  if (clGetProgramInfo (program, CL_PROGRAM_NUM_DEVICES, sizeof (*n_devices),
          n_devices, NULL) != CL_SUCCESS || *n_devices == 0 ||
      *n_devices > G_N_ELEMENTS (devices) ||
      clGetProgramInfo (program, CL_PROGRAM_DEVICES,
          *n_devices * sizeof (cl_device_id), devices, NULL) != CL_SUCCESS)
    return -1;
  for (i = 0; i < *n_devices; i++)
    if (devices[i] == device)
      return (gint) i;
  return -1;
}

gchar *
gst_cl_ptx_of_program (cl_program program, cl_device_id device, GError ** error)
{
  size_t sizes[64] = { 0 };
  guchar *binaries[64] = { NULL };
  cl_uint n = 0;
  const gint i = device_index (program, device, &n);
  gchar *ptx = NULL;
  cl_int status;

  if (i < 0) {
    ptx_error (error, "%s", "OpenCL: the program was not built for the "
        "device");
    return NULL;
  }
  status = clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES,
      n * sizeof (size_t), sizes, NULL);
  if (status != CL_SUCCESS) {
    gst_cl_set_error (error, status, "clGetProgramInfo (binary sizes)");
    return NULL;
  }
  binaries[i] = g_malloc0 (sizes[i] + 1);
  status = clGetProgramInfo (program, CL_PROGRAM_BINARIES,
      n * sizeof (guchar *), binaries, NULL);
  if (status != CL_SUCCESS)
    gst_cl_set_error (error, status, "clGetProgramInfo (binaries)");
  else if (!strstr ((gchar *) binaries[i], ".version") ||
      !strstr ((gchar *) binaries[i], ".entry"))
    ptx_error (error, "%s", "the device's program binary is not PTX text");
  else                          /* the text, up to a NUL the size may count */
    ptx = g_strdup ((gchar *) binaries[i]);
  g_free (binaries[i]);
  return ptx;
}

/* %envregN's value in a launch of the whole NDRange with no offset. */
static gboolean
rewrite_envreg (const GMatchInfo * match, GString * out, gpointer data)
{
  static const gchar *values[] = { "0", "0", "0", "0", "0", "0",
    "%nctaid.x", "%nctaid.y", "%nctaid.z"
  };
  gchar *reg = g_match_info_fetch (match, 1);
  gchar *n = g_match_info_fetch (match, 2);
  const guint64 i = g_ascii_strtoull (n, NULL, 10);

  if (i < G_N_ELEMENTS (values))
    g_string_append_printf (out, "mov.u32 %s, %s;", reg, values[i]);
  else
    *(gboolean *) data = FALSE;
  g_free (reg);
  g_free (n);
  return FALSE;
}

static gchar *
without_envreg (const gchar * ptx, GError ** error)
{
  GRegex *mov = g_regex_new ("mov\\.[bu]32\\s+(%\\w+)\\s*,\\s*%envreg(\\d+)"
      "\\s*;", 0, 0, NULL);
  gboolean known = TRUE;
  gchar *out = g_regex_replace_eval (mov, ptx, -1, 0, 0, rewrite_envreg,
      &known, NULL);

  g_regex_unref (mov);
  if (known && out && !strstr (out, "%envreg"))
    return out;
  g_free (out);
  ptx_error (error, "%s", "the PTX reads a value of NVIDIA's OpenCL runtime "
      "(%envreg) that is not known here");
  return NULL;
}

/* How many times @word occurs in @text as a whole word. */
static guint
count_word (const gchar * text, const gchar * word)
{
  const gsize len = strlen (word);
  const gchar *p = text;
  guint n = 0;

  while ((p = strstr (p, word))) {
    const gboolean start = p == text || !(g_ascii_isalnum (p[-1]) ||
        p[-1] == '_' || p[-1] == '$');
    const gboolean end = !(g_ascii_isalnum (p[len]) || p[len] == '_' ||
        p[len] == '$');

    n += start && end;
    p += len;
  }
  return n;
}

/* One kernel's text (from its .entry to the next) with its __local pointer
 * parameter, if any, made the dynamic shared memory's address; FALSE
 * where it has two, or one read otherwise than by ld.param. */
static gboolean
rewrite_local_param (GString * entry, gboolean * used, GError ** error)
{
  GRegex *decl = g_regex_new ("\\.param\\s+\\.(u32|u64)\\s+\\.ptr\\s+"
      "\\.shared(?:\\s+\\.align\\s+\\d+)?\\s+(\\w+)", 0, 0, NULL);
  GMatchInfo *m;
  gchar *type, *name, *load, *by, *text, *plain, *pattern;
  GRegex *ld;
  gboolean ok;

  if (!g_regex_match (decl, entry->str, 0, &m)) {
    g_match_info_free (m);
    g_regex_unref (decl);
    return TRUE;
  }
  type = g_match_info_fetch (m, 1);
  name = g_match_info_fetch (m, 2);
  g_match_info_next (m, NULL);
  ok = !g_match_info_matches (m);
  g_match_info_free (m);
  plain = g_strdup_printf (".param .%s %s", type, name);
  text = g_regex_replace_literal (decl, entry->str, -1, 0, plain, 0, NULL);
  g_regex_unref (decl);
  pattern = g_strdup_printf ("ld\\.param\\.%s\\s+(%%\\w+)\\s*,\\s*\\[%s"
      "(?:\\+0)?\\]\\s*;", type, name);
  ld = g_regex_new (pattern, 0, 0, NULL);
  by = strcmp (type, "u64") == 0 ? g_strdup ("mov.u64 \\1, " LOCAL_ARRAY ";")
      : g_strdup ("{ .reg .u64 %gst_cl_a; mov.u64 %gst_cl_a, " LOCAL_ARRAY
      "; cvt.u32.u64 \\1, %gst_cl_a; }");
  load = g_regex_replace (ld, text, -1, 0, by, 0, NULL);
  ok = ok && load && count_word (load, name) == 1;
  if (ok) {
    g_string_assign (entry, load);
    *used = TRUE;
  } else {
    ptx_error (error, "the PTX's kernel of parameter %s has two __local "
        "pointers, or reads one otherwise than NVIDIA's OpenCL does", name);
  }
  g_regex_unref (ld);
  g_free (pattern);
  g_free (by);
  g_free (load);
  g_free (text);
  g_free (plain);
  g_free (type);
  g_free (name);
  return ok;
}

/* The extern .shared array, declared after the module's header. */
static gboolean
declare_local_array (GString * ptx, GError ** error)
{
  const gchar *line = strstr (ptx->str, ".address_size");
  const gchar *end = line ? strchr (line, '\n') : NULL;

  if (!end)
    return ptx_error (error, "%s", "the PTX has no .address_size line");
  g_string_insert (ptx, end + 1 - ptx->str,
      ".extern .shared .align 16 .b8 " LOCAL_ARRAY "[];\n");
  return TRUE;
}

gchar *
gst_cl_ptx_for_cuda (const gchar * ptx, GError ** error)
{
  gchar *plain = without_envreg (ptx, error);
  gchar **parts;
  GString *out, *entry;
  gboolean ok = TRUE, used = FALSE;
  guint i;

  if (!plain)
    return NULL;
  /* parts[0] is the header; each further one a kernel and what follows */
  parts = g_strsplit (plain, ".entry", -1);
  out = g_string_new (parts[0]);
  for (i = 1; parts[i] && ok; i++) {
    entry = g_string_new (parts[i]);
    ok = rewrite_local_param (entry, &used, error);
    g_string_append (out, ".entry");
    g_string_append (out, entry->str);
    g_string_free (entry, TRUE);
  }
  g_strfreev (parts);
  g_free (plain);
  if (ok && used)
    ok = declare_local_array (out, error);
  return g_string_free (out, !ok);
}
