/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The median the measuring tools report: of @n doubles at @v, sorted in
 * place (the upper one of an even count). */
#ifndef __BENCH_MEDIAN_H__
#define __BENCH_MEDIAN_H__

#include <glib.h>
#include <stdlib.h>

static int
median_compare (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static inline gdouble
median (gdouble * v, gint n)
{
  qsort (v, n, sizeof (gdouble), median_compare);
  return v[n / 2];
}

#endif /* __BENCH_MEDIAN_H__ */
