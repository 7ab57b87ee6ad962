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
    ptx_error (error, "%s", "OpenCL: the program's devices could not be read, "
        "or it was not built for the device");
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
  else if (!gst_cl_ptx_is_ptx ((gchar *) binaries[i]))
    ptx_error (error, "%s", "the device's program binary is not PTX text");
  else                          /* the text, up to a NUL the size may count */
    ptx = g_strdup ((gchar *) binaries[i]);
  g_free (binaries[i]);
  return ptx;
}

gboolean
gst_cl_ptx_is_ptx (const gchar * binary)
{
  return strstr (binary, ".version") && strstr (binary, ".entry");
}

gboolean
gst_cl_ptx_find_entry (const gchar * ptx, const gchar * name, guint * n_params)
{
  gchar *head = g_strdup_printf (".entry %s(", name);
  const gchar *at = strstr (ptx, head), *end, *p;
  guint n = 0;

  if (at) {
    at += strlen (head);
    end = strchr (at, ')');
    for (p = at; end && (p = strstr (p, ".param")) && p < end; p++)
      n++;
    if (!end)
      at = NULL;
  }
  g_free (head);
  if (at && n_params)
    *n_params = n;
  return at != NULL;
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
      "\\s*;", G_REGEX_RAW, 0, NULL);
  gboolean known = TRUE;
  gchar *out = g_regex_replace_eval (mov, ptx, -1, 0, 0, rewrite_envreg,
      &known, error);

  g_regex_unref (mov);
  if (!out)
    return NULL;
  if (known && !strstr (out, "%envreg"))
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

/* What the rewrite of one module found: the names of the __local pointer
 * parameters made unread, and the largest alignment they asked for. */
typedef struct
{
  GPtrArray *names;
  guint align;
} LocalParams;

/* @text with parameter @name's loads (ld.param.@type, the whole of it)
 * made the dynamic shared memory's address; NULL with @error set where a
 * replacement fails. */
static gchar *
load_local_array (const gchar * text, const gchar * type, const gchar * name,
    GError ** error)
{
  gchar *pattern = g_strdup_printf ("ld\\.param\\.%s\\s+(%%\\w+)\\s*,\\s*"
      "\\[%s(?:\\+0)?\\]\\s*;", type, name);
  GRegex *ld = g_regex_new (pattern, G_REGEX_RAW, 0, NULL);
  const gchar *by = strcmp (type, "u64") == 0 ?
      "mov.u64 \\1, " LOCAL_ARRAY ";" :
      "{ .reg .u64 %gst_cl_a; mov.u64 %gst_cl_a, " LOCAL_ARRAY
      "; cvt.u32.u64 \\1, %gst_cl_a; }";
  gchar *out = g_regex_replace (ld, text, -1, 0, by, 0, error);

  g_regex_unref (ld);
  g_free (pattern);
  return out;
}

/* @kernel (its text from its .entry line to the next kernel's) with its
 * __local pointer parameter, if any, declared plain and its loads the
 * address of the dynamic shared memory (a read of another kind is left
 * for check_unread() to find). FALSE where it has two. */
static gboolean
rewrite_local_param (GString * kernel, LocalParams * found, GError ** error)
{
  GRegex *decl = g_regex_new ("\\.param\\s+\\.(u32|u64)\\s+\\.ptr\\s+"
      "\\.shared(?:\\s+\\.align\\s+(\\d+))?\\s+(\\w+)", G_REGEX_RAW, 0, NULL);
  gchar *type = NULL, *align = NULL, *name = NULL, *plain, *text = NULL,
      *out = NULL;
  GMatchInfo *m;

  if (g_regex_match (decl, kernel->str, 0, &m)) {
    type = g_match_info_fetch (m, 1);
    align = g_match_info_fetch (m, 2);
    name = g_match_info_fetch (m, 3);
    g_match_info_next (m, NULL);
  }
  if (name && g_match_info_matches (m)) {
    ptx_error (error, "the PTX's kernel of parameter %s has two __local "
        "pointer parameters", name);
  } else if (name) {
    plain = g_strdup_printf (".param .%s %s", type, name);
    text = g_regex_replace_literal (decl, kernel->str, -1, 0, plain, 0, error);
    out = text ? load_local_array (text, type, name, error) : NULL;
    g_free (plain);
  }
  if (out) {
    g_string_assign (kernel, out);
    g_ptr_array_add (found->names, g_strdup (name));
    found->align = MAX (found->align, align ? (guint) atoi (align) : 0);
  }
  g_match_info_free (m);
  g_regex_unref (decl);
  g_free (out);
  g_free (text);
  g_free (type);
  g_free (align);
  g_free (name);
  return name == NULL || out != NULL;
}

/* The extern .shared array, declared after the module's header. */
static gboolean
declare_local_array (GString * ptx, guint align, GError ** error)
{
  const gchar *line = strstr (ptx->str, ".address_size");
  const gchar *end = line ? strchr (line, '\n') : NULL;
  gchar *declaration;

  if (!end)
    return ptx_error (error, "%s", "the PTX has no .address_size line");
  declaration = g_strdup_printf (".extern .shared .align %u .b8 "
      LOCAL_ARRAY "[];\n", MAX (align, 16));
  g_string_insert (ptx, end + 1 - ptx->str, declaration);
  g_free (declaration);
  return TRUE;
}

/* Each parameter made unread is named once in the whole module, by its
 * declaration: no load of it is left (nor one in a piece cut wrongly). */
static gboolean
check_unread (const gchar * ptx, const LocalParams * found, GError ** error)
{
  guint i;

  for (i = 0; i < found->names->len; i++) {
    const gchar *name = g_ptr_array_index (found->names, i);

    if (count_word (ptx, name) != 1)
      return ptx_error (error, "the PTX reads __local pointer parameter %s "
          "otherwise than by the one ld.param NVIDIA's OpenCL writes", name);
  }
  return TRUE;
}

gchar *
gst_cl_ptx_for_cuda (const gchar * ptx, GError ** error)
{
  /* a kernel starts at a line of its .entry directive */
  GRegex *entry = g_regex_new ("^[ \\t]*(?:\\.visible[ \\t]+|\\.weak[ \\t]+)?"
      "\\.entry\\s", G_REGEX_RAW | G_REGEX_MULTILINE, 0, NULL);
  LocalParams found = { g_ptr_array_new_with_free_func (g_free), 0 };
  gchar *plain = without_envreg (ptx, error);
  GMatchInfo *m = NULL;
  GString *out, *kernel;
  gboolean ok = plain != NULL;
  gint from = -1, start, end;

  out = g_string_new (NULL);
  if (ok)
    g_regex_match (entry, plain, 0, &m);
  /* the header, then each kernel with what follows it */
  while (ok) {
    const gboolean more = g_match_info_matches (m);

    if (more)
      g_match_info_fetch_pos (m, 0, &start, &end);
    else
      start = strlen (plain);
    if (from < 0) {
      g_string_append_len (out, plain, start);
    } else {
      kernel = g_string_new_len (plain + from, start - from);
      ok = rewrite_local_param (kernel, &found, error);
      g_string_append (out, kernel->str);
      g_string_free (kernel, TRUE);
    }
    if (!more)
      break;
    from = start;
    g_match_info_next (m, NULL);
  }
  if (ok && found.names->len > 0)
    ok = declare_local_array (out, found.align, error) &&
        check_unread (out->str, &found, error);
  g_match_info_free (m);
  g_regex_unref (entry);
  g_ptr_array_unref (found.names);
  g_free (plain);
  return g_string_free (out, !ok);
}
