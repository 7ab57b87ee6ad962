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

/* A CUDA driver with every entry point gst/gstclcuda.c resolves, on a
 * machine with no GPU: cuInit says CUDA_ERROR_NO_DEVICE, as the real
 * libcuda.so.1 does where the kernel module is loaded but no device is
 * there. The other calls are never reached; they fail.
 *
 * Built with FAKECUDA_STREAMS (libfakecudastreams), cuInit succeeds and the
 * calls that order one stream after another (contexts, events, waits) do
 * nothing but write themselves to a log that fakecuda_take_log() returns,
 * for libs/clcudasync (taking it numbers events from 1 again);
 * cuEventRecord fails on the stream FAKECUDA_BAD_STREAM. The rest still
 * fail. */

#include <gmodule.h>

#include "fakecuda.h"

#define CUDA_ERROR_INVALID_HANDLE 400
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_NOT_SUPPORTED 801
#define FAKECUDA_BAD_STREAM ((gpointer) 0xbad)

G_MODULE_EXPORT int cuInit (unsigned flags);
G_MODULE_EXPORT int cuGetErrorName (int status, const char **name);

int
cuGetErrorName (int status, const char **name)
{
  *name = status == CUDA_ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" :
      status == CUDA_ERROR_INVALID_HANDLE ? "CUDA_ERROR_INVALID_HANDLE" :
      "CUDA_ERROR_NOT_SUPPORTED";
  return 0;
}

#define UNSUPPORTED(symbol) \
  G_MODULE_EXPORT int symbol (void); \
  int symbol (void) { return CUDA_ERROR_NOT_SUPPORTED; }

#ifdef FAKECUDA_STREAMS

G_MODULE_EXPORT int cuCtxPushCurrent_v2 (gpointer context);
G_MODULE_EXPORT int cuCtxPopCurrent_v2 (gpointer * context);
G_MODULE_EXPORT int cuEventCreate (gpointer * event, unsigned flags);
G_MODULE_EXPORT int cuEventRecord (gpointer event, gpointer stream);
G_MODULE_EXPORT int cuStreamWaitEvent (gpointer stream, gpointer event,
    unsigned flags);
G_MODULE_EXPORT int cuEventDestroy_v2 (gpointer event);
G_MODULE_EXPORT gchar *fakecuda_take_log (void);

static GString *calls;
static guint n_events;

static void
log_call (const gchar * format, ...)
{
  va_list args;

  if (!calls)
    calls = g_string_new (NULL);
  va_start (args, format);
  g_string_append_vprintf (calls, format, args);
  va_end (args);
  g_string_append (calls, "; ");
}

gchar *
fakecuda_take_log (void)
{
  gchar *text = calls ? g_string_free (calls, FALSE) : g_strdup ("");

  calls = NULL;
  n_events = 0;
  return text;
}

int
cuInit (unsigned flags)
{
  return 0;
}

int
cuCtxPushCurrent_v2 (gpointer context)
{
  log_call ("push %p", context);
  return 0;
}

int
cuCtxPopCurrent_v2 (gpointer * context)
{
  log_call ("pop");
  return 0;
}

/* Events are numbered from 1, as pointers. */
int
cuEventCreate (gpointer * event, unsigned flags)
{
  *event = GUINT_TO_POINTER (++n_events);
  log_call ("create event %u", n_events);
  return 0;
}

int
cuEventRecord (gpointer event, gpointer stream)
{
  if (stream == FAKECUDA_BAD_STREAM)
    return CUDA_ERROR_INVALID_HANDLE;
  log_call ("record event %u on %p", GPOINTER_TO_UINT (event), stream);
  return 0;
}

int
cuStreamWaitEvent (gpointer stream, gpointer event, unsigned flags)
{
  log_call ("%p waits for event %u", stream, GPOINTER_TO_UINT (event));
  return 0;
}

int
cuEventDestroy_v2 (gpointer event)
{
  log_call ("destroy event %u", GPOINTER_TO_UINT (event));
  return 0;
}

#else

int
cuInit (unsigned flags)
{
  return CUDA_ERROR_NO_DEVICE;
}

/* *INDENT-OFF* */
UNSUPPORTED (cuCtxPushCurrent_v2)
UNSUPPORTED (cuCtxPopCurrent_v2)
UNSUPPORTED (cuEventCreate)
UNSUPPORTED (cuEventRecord)
UNSUPPORTED (cuStreamWaitEvent)
UNSUPPORTED (cuEventDestroy_v2)
/* *INDENT-ON* */

#endif

/* *INDENT-OFF* */
FAKECUDA_POOL_CALLS (UNSUPPORTED)
UNSUPPORTED (cuMemcpy2DAsync_v2)
UNSUPPORTED (cuStreamCreate)
UNSUPPORTED (cuStreamDestroy_v2)
UNSUPPORTED (cuStreamSynchronize)
UNSUPPORTED (cuEventSynchronize)
UNSUPPORTED (cuEventElapsedTime)
/* *INDENT-ON* */
