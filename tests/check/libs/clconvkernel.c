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

/* Unit tests of the convolution kernel parser (gstclconvkernel-private.h). */

#include <locale.h>
#include <string.h>

#include <gio/gio.h>
#include <gst/check/gstcheck.h>

#include "gstclconvkernel-private.h"

/* Parses @text, which must succeed with a @w x @h kernel equal to @coeffs. */
static void
check_good (const gchar * text, gint w, gint h, const gdouble * coeffs)
{
  GstClConvKernel k;
  GError *err = NULL;
  gint i;

  memset (&k, 0xab, sizeof (k));
  fail_unless (gst_cl_conv_kernel_parse (text, &k, &err),
      "\"%s\" was rejected: %s", text, err ? err->message : "(no error)");
  fail_unless (err == NULL, "\"%s\": success with an error set", text);
  fail_unless (k.width == w && k.height == h,
      "\"%s\": parsed as %dx%d, expected %dx%d (width x height)", text,
      k.width, k.height, w, h);
  for (i = 0; i < w * h; i++) {
    fail_unless (k.coeffs[i] == coeffs[i],
        "\"%s\": coefficient %d (row %d column %d) is %.17g, expected %.17g",
        text, i, i / w, i % w, k.coeffs[i], coeffs[i]);
  }
}

/* Parses @text, which must fail with G_IO_ERROR_INVALID_DATA and leave the
 * kernel untouched. */
static void
check_bad (const gchar * text)
{
  GstClConvKernel k, before;
  GError *err = NULL;

  memset (&k, 0x5a, sizeof (k));
  before = k;
  fail_if (gst_cl_conv_kernel_parse (text, &k, &err),
      "\"%.80s\" was accepted as %dx%d", text, k.width, k.height);
  fail_unless (err != NULL, "\"%.80s\": failure without an error", text);
  fail_unless (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_INVALID_DATA),
      "\"%.80s\": wrong error domain/code (%s, %d): %s", text,
      g_quark_to_string (err->domain), err->code, err->message);
  fail_unless (err->message != NULL && err->message[0] != '\0');
  fail_unless (memcmp (&k, &before, sizeof (k)) == 0,
      "\"%.80s\": the kernel was modified on failure", text);
  g_error_free (err);

  /* a NULL error must be accepted too */
  fail_if (gst_cl_conv_kernel_parse (text, &k, NULL));
}

static const gdouble blur[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };

GST_START_TEST (test_parse_separators)
{
  check_good ("1 2 1; 2 4 2; 1 2 1", 3, 3, blur);
  check_good ("1 2 1;2 4 2;1 2 1", 3, 3, blur);
  check_good ("1,2,1;2,4,2;1,2,1", 3, 3, blur);
  check_good ("1, 2, 1; 2, 4, 2; 1, 2, 1", 3, 3, blur);
  check_good ("1 ,2 , 1 ;2\t4,2;\t1  2\t\t1", 3, 3, blur);
  check_good ("1\t2\t1;2\t4\t2;1\t2\t1", 3, 3, blur);
  check_good ("  1 2 1 ; 2 4 2 ; 1 2 1  ", 3, 3, blur);
  check_good ("\t1 2 1; 2 4 2; 1 2 1\t", 3, 3, blur);
}

GST_END_TEST;

GST_START_TEST (test_parse_trailing_semicolon)
{
  /* The brief leaves a trailing ';' open: it may be accepted or rejected,
   * but if accepted it must mean the 3x3 matrix, not a fourth empty row. */
  GstClConvKernel k;
  GError *err = NULL;

  if (gst_cl_conv_kernel_parse ("1 2 1; 2 4 2; 1 2 1;", &k, &err)) {
    check_good ("1 2 1; 2 4 2; 1 2 1;", 3, 3, blur);
  } else {
    fail_unless (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_INVALID_DATA));
    g_error_free (err);
  }
}

GST_END_TEST;

GST_START_TEST (test_parse_square_row)
{
  gdouble c25[25], c225[225];
  GString *s;
  gint i;

  check_good ("1 2 1 2 4 2 1 2 1", 3, 3, blur);
  check_good ("1,2,1,2,4,2,1,2,1", 3, 3, blur);

  s = g_string_new (NULL);
  for (i = 0; i < 25; i++) {
    c25[i] = i - 12;
    g_string_append_printf (s, "%s%d", i ? " " : "", i - 12);
  }
  check_good (s->str, 5, 5, c25);
  g_string_free (s, TRUE);

  s = g_string_new (NULL);
  for (i = 0; i < 225; i++) {
    c225[i] = i % 7;
    g_string_append_printf (s, "%s%d", i ? " " : "", i % 7);
  }
  check_good (s->str, 15, 15, c225);
  g_string_free (s, TRUE);

  /* a single number is 1x1 */
  {
    const gdouble one[1] = { 7 };
    check_good ("7", 1, 1, one);
    check_good ("  7 ", 1, 1, one);
  }
}

GST_END_TEST;

GST_START_TEST (test_parse_row_and_column)
{
  gdouble c[15];
  GString *row = g_string_new (NULL), *col = g_string_new (NULL);
  gint i;

  for (i = 0; i < 15; i++) {
    c[i] = i + 1;
    g_string_append_printf (row, "%s%d", i ? " " : "", i + 1);
    g_string_append_printf (col, "%s%d", i ? "; " : "", i + 1);
  }
  check_good (row->str, 15, 1, c);
  check_good (col->str, 1, 15, c);

  {
    const gdouble c3[3] = { 1, 2, 3 };
    const gdouble c13[13] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    check_good ("1 2 3", 3, 1, c3);
    check_good ("1;2;3", 1, 3, c3);
    check_good ("1 1 1 1 1 1 1 1 1 1 1 1 1", 13, 1, c13);
  }
  {
    /* 3 wide, 5 high */
    const gdouble c35[15] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
      15
    };
    check_good ("1 2 3;4 5 6;7 8 9;10 11 12;13 14 15", 3, 5, c35);
    check_good ("1 2 3 4 5;6 7 8 9 10;11 12 13 14 15", 5, 3, c35);
  }

  g_string_free (row, TRUE);
  g_string_free (col, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_parse_numbers)
{
  const gdouble c1[3] = { -0.5, 0.1, 2 };
  const gdouble c2[3] = { 1.5, -2.25, 1e-3 };
  const gdouble c3[9] = { -1, -1, -1, -1, 8, -1, -1, -1, -1 };
  const gdouble c5[3] = { 1e5, -1e-10, 1.0 / 3.0 };

  check_good ("-0.5 1e-1 2", 3, 1, c1);
  check_good ("1.5 -2.25 1E-3", 3, 1, c2);
  check_good ("-1 -1 -1; -1 8 -1; -1 -1 -1", 3, 3, c3);
  check_good ("1e5 -1e-10 0.33333333333333331", 3, 1, c5);
}

GST_END_TEST;

GST_START_TEST (test_parse_bad)
{
  const gchar *bad[] = {
    "", " ", "  \t ", ";", ";;", ",", "abc", "1 2", "1 2 1 2", "1 2 3; 4 5",
    "1 2 3; 4 5 6 7; 1 2 3", "1 2 3; 4 5 6", "1 1; 1 1", "1 1 1 1",
    "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    "nan", "nan 1 1 1 1 1 1 1 1", "NaN 1 1", "inf", "inf 1 1", "-inf 1 1",
    "infinity 1 1", "1e999", "1 1e999 1", "-1e999 1 1", "1 2 1;;1 2 1",
    "1 2 1; ;1 2 1", ";1 2 1", "1x", "1x 2 1", "1 2 1x", "1 2x1",
    "1 - 1", "1 2 1; 2 4 2; 1 2 a", "1.2.3", "--1", "1e", "(1 2 1)",
    "1;2", "1 1; 1 1; 1 1",
  };
  gchar *s;
  GString *g;
  gint i, r;

  for (i = 0; i < (gint) G_N_ELEMENTS (bad); i++)
    check_bad (bad[i]);

  /* 16 columns in one row (not a perfect square) */
  g = g_string_new (NULL);
  for (i = 0; i < 16; i++)
    g_string_append (g, i ? " 1" : "1");
  check_bad (g->str);
  /* 17 columns: odd, but too wide */
  g_string_append (g, " 1");
  check_bad (g->str);
  g_string_free (g, TRUE);

  /* 17 rows of 1 */
  g = g_string_new (NULL);
  for (i = 0; i < 17; i++)
    g_string_append (g, i ? ";1" : "1");
  check_bad (g->str);
  g_string_free (g, TRUE);

  /* 17x17, as rows and as one row of 289 */
  g = g_string_new (NULL);
  for (r = 0; r < 17; r++) {
    if (r)
      g_string_append_c (g, ';');
    for (i = 0; i < 17; i++)
      g_string_append (g, i ? " 1" : "1");
  }
  check_bad (g->str);
  s = g_strdelimit (g_strdup (g->str), ";", ' ');
  check_bad (s);
  g_free (s);
  g_string_free (g, TRUE);

  /* 16x16 as one row of 256 (a perfect square, but even) */
  g = g_string_new (NULL);
  for (i = 0; i < 256; i++)
    g_string_append (g, i ? " 1" : "1");
  check_bad (g->str);
  g_string_free (g, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_parse_commas_are_separators)
{
  /* "0,5" is two numbers: as a row of two it is an even width */
  const gdouble c[3] = { 0, 5, 1 };

  check_bad ("0,5");
  check_good ("0,5,1", 3, 1, c);
}

GST_END_TEST;

static const gchar *comma_locales[] = {
  "de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8",
  "fr_FR", "nl_NL.UTF-8", "es_ES.UTF-8", "it_IT.UTF-8", "ru_RU.UTF-8",
  "pt_BR.UTF-8", "de_AT.UTF-8", "de_CH.UTF-8", "pl_PL.UTF-8",
};

GST_START_TEST (test_parse_locale_independent)
{
  const gdouble c[3] = { 0.5, 1.25, -0.75 };
  const gchar *used = NULL;
  gchar *old = g_strdup (setlocale (LC_NUMERIC, NULL));
  guint i;

  for (i = 0; i < G_N_ELEMENTS (comma_locales); i++) {
    if (setlocale (LC_NUMERIC, comma_locales[i]) != NULL
        && strcmp (localeconv ()->decimal_point, ",") == 0) {
      used = comma_locales[i];
      break;
    }
  }

  if (used == NULL) {
    setlocale (LC_NUMERIC, old);
    g_free (old);
    g_print ("convkernel: no comma-decimal locale available (set LOCPATH or "
        "install de_DE.UTF-8); locale check skipped\n");
    return;
  }

  GST_INFO ("using locale %s", used);
  /* sanity check that the locale is in effect */
  fail_unless (g_strtod ("0,5", NULL) == 0.5,
      "locale %s does not use a decimal comma in strtod", used);

  check_good ("0.5 1.25 -0.75", 3, 1, c);
  check_good ("0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5", 3, 3, (const gdouble[9]) {
        0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5
      });
  /* and commas still separate numbers */
  check_bad ("0,5");

  setlocale (LC_NUMERIC, old);
  g_free (old);
}

GST_END_TEST;

GST_START_TEST (test_effective_divisor)
{
  GstClConvKernel k;

  fail_unless (gst_cl_conv_kernel_parse ("1 2 1; 2 4 2; 1 2 1", &k, NULL));
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 0), 16);
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 3.5),
      3.5);
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, -2), -2);

  fail_unless (gst_cl_conv_kernel_parse ("-1 -1 -1; -1 8 -1; -1 -1 -1", &k,
          NULL));
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 0), 1);
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 4), 4);

  fail_unless (gst_cl_conv_kernel_parse ("0 -1 0; -1 5 -1; 0 -1 0", &k, NULL));
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 0), 1);

  fail_unless (gst_cl_conv_kernel_parse ("-1 -2 -1", &k, NULL));
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 0), -4);

  fail_unless (gst_cl_conv_kernel_parse ("0.5 0.25 0.75", &k, NULL));
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 0), 1.5);

  fail_unless (gst_cl_conv_kernel_parse ("0 0 0", &k, NULL));
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 0), 1);

  /* only the kernel's own coefficients count, not stale array contents */
  memset (&k, 0, sizeof (k));
  {
    gint i;
    for (i = 0; i < GST_CL_CONV_KERNEL_MAX_SIDE * GST_CL_CONV_KERNEL_MAX_SIDE;
        i++)
      k.coeffs[i] = 100;
  }
  fail_unless (gst_cl_conv_kernel_parse ("1 1 1", &k, NULL));
  fail_unless_equals_float (gst_cl_conv_kernel_effective_divisor (&k, 0), 3);
}

GST_END_TEST;

static Suite *
clconvkernel_suite (void)
{
  Suite *s = suite_create ("clconvkernel");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse_separators);
  tcase_add_test (tc, test_parse_trailing_semicolon);
  tcase_add_test (tc, test_parse_square_row);
  tcase_add_test (tc, test_parse_row_and_column);
  tcase_add_test (tc, test_parse_numbers);
  tcase_add_test (tc, test_parse_bad);
  tcase_add_test (tc, test_parse_commas_are_separators);
  tcase_add_test (tc, test_parse_locale_independent);
  tcase_add_test (tc, test_effective_divisor);

  return s;
}

GST_CHECK_MAIN (clconvkernel);
