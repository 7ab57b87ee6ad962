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

/* A CUDA driver whose device is the host, for libs/clcudaexec: device
 * pointers are host addresses (cuMemAlloc is g_malloc, its bytes 0xa5;
 * fakecudahost_blocks counts those not freed), the asynchronous
 * commands (and the DMA of a synchronous copy to the device, queued on the
 * legacy default stream, NULL here, as from pageable memory) run on the
 * calling thread at the synchronisation that needs
 * them (of their stream, or of an event recorded after them on it), each
 * stream's in order, a stream's wait for an event running the commands
 * before the event on the event's stream first (an event holds its stream
 * and the number of commands enqueued before it was recorded, and the
 * time between two is 0.25 ms a command enqueued between them, where both
 * were recorded and made with timing), and the
 * memory commands of gst/gstclcudaexec.c do what the driver's do: fills,
 * plane copies, copies to and from the host, and its word copy kernel
 * (gst_cl_copy_words, which reads and writes the driver's allocations
 * only, launched on a grid the driver takes). fakecudahost_word_copies
 * counts its launches, fakecudahost_modules its modules loaded and not
 * unloaded. Read at each call: FAKECUDA_NO_PTX fails its module ("1" with
 * CUDA_ERROR_INVALID_PTX, "oom" as short of memory), FAKECUDA_NO_UVA=1
 * puts pinned memory at another address on the device,
 * FAKECUDA_LAUNCH_FAILS=1 fails its launch, FAKECUDA_ALLOC_FAILS=1 fails
 * each cuMemAlloc, FAKECUDA_FAIL=CALL[:N] fails CALL (cuStreamCreate,
 * cuStreamWaitEvent, cuEventRecord or cuMemcpyDtoHAsync) every time, or
 * only the Nth time since the variable was set. Other modules and launches
 * fail (nothing here runs PTX), as do the calls of the imported pools;
 * cuInit succeeds, so that the driver loads (gst_cl_cuda_load()). */

#include <gmodule.h>

#include "fakecuda.h"
#include <string.h>

#define CUDA_ERROR_CONTEXT_IS_DESTROYED 709
#define CUDA_ERROR_UNKNOWN 999
#define CUDA_ERROR_NOT_SUPPORTED 801

typedef struct
{
  gsize srcXInBytes, srcY;
  gint srcMemoryType;
  gconstpointer srcHost;
  guint64 srcDevice;
  gpointer srcArray;
  gsize srcPitch;
  gsize dstXInBytes, dstY;
  gint dstMemoryType;
  gpointer dstHost;
  guint64 dstDevice;
  gpointer dstArray;
  gsize dstPitch;
  gsize WidthInBytes, Height;
} Copy2D;

#define HOST_MEMORY 1

#define OK(symbol, params) \
  G_MODULE_EXPORT int symbol params; \
  int symbol params { return 0; }
#define UNSUPPORTED(symbol) \
  G_MODULE_EXPORT int symbol (void); \
  int symbol (void) { return CUDA_ERROR_NOT_SUPPORTED; }

static GHashTable *blocks;      /* what the allocations gave: address, size */
G_MODULE_EXPORT guint fakecudahost_blocks;

static gpointer
alloc_block (gsize size)
{
  /* what a driver's allocation holds is not known: not zeroes */
  gpointer block = memset (g_malloc (size), 0xa5, size);

  if (!blocks)
    blocks = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (blocks, block, GSIZE_TO_POINTER (size));
  fakecudahost_blocks++;
  return block;
}

G_MODULE_EXPORT int cuGetErrorName (int status, const char **name);
G_MODULE_EXPORT int cuStreamCreate (gpointer * stream, unsigned flags);
G_MODULE_EXPORT int cuEventCreate (gpointer * event, unsigned flags);
G_MODULE_EXPORT int cuMemAlloc_v2 (guint64 * ptr, gsize size);
G_MODULE_EXPORT int cuMemFree_v2 (guint64 ptr);
G_MODULE_EXPORT int cuMemAllocHost_v2 (gpointer * ptr, gsize size);
G_MODULE_EXPORT int cuMemHostAlloc (gpointer * ptr, gsize size, unsigned flags);
G_MODULE_EXPORT int cuMemFreeHost (gpointer ptr);
G_MODULE_EXPORT int cuMemsetD8Async (guint64 ptr, guint8 value, gsize n,
    gpointer stream);
G_MODULE_EXPORT int cuMemsetD32Async (guint64 ptr, guint32 value, gsize n,
    gpointer stream);
G_MODULE_EXPORT int cuMemcpyHtoD_v2 (guint64 dst, gconstpointer src,
    gsize size);
G_MODULE_EXPORT int cuMemcpyDtoH_v2 (gpointer dst, guint64 src, gsize size);
G_MODULE_EXPORT int cuMemcpyHtoDAsync_v2 (guint64 dst, gconstpointer src,
    gsize size, gpointer stream);
G_MODULE_EXPORT int cuMemcpyDtoHAsync_v2 (gpointer dst, guint64 src,
    gsize size, gpointer stream);
G_MODULE_EXPORT int cuMemcpy2DAsync_v2 (const Copy2D * copy, gpointer stream);

int
cuGetErrorName (int status, const char **name)
{
  *name = status == CUDA_ERROR_NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED" :
      "CUDA_ERROR_UNKNOWN";
  return 0;
}

/* Whether FAKECUDA_FAIL names @call, counting its calls since the
 * variable last changed: "CALL" fails each, "CALL:N" the Nth. */
static gboolean
fails (const gchar * call)
{
  static gchar *spec;
  static guint calls;
  const gchar *now = g_getenv ("FAKECUDA_FAIL");
  gsize length = strlen (call);
  guint64 nth = 0;

  if (g_strcmp0 (now, spec) != 0) {
    g_free (spec);
    spec = g_strdup (now);
    calls = 0;
  }
  if (!now || strncmp (now, call, length) != 0 ||
      (now[length] != '\0' && now[length] != ':'))
    return FALSE;
  if (now[length] == ':')
    nth = g_ascii_strtoull (now + length + 1, NULL, 10);
  calls++;
  return nth == 0 || calls == nth;
}

/* each stream a name of its own */
int
cuStreamCreate (gpointer * stream, unsigned flags)
{
  static guint streams;

  if (fails ("cuStreamCreate"))
    return CUDA_ERROR_UNKNOWN;
  *stream = GUINT_TO_POINTER (++streams);
  return 0;
}

/* commands enqueued so far: the events' clock */
static guint64 commands;
static gint pushed;             /* contexts made current, not yet popped */

typedef struct
{
  guint64 at;                   /* commands enqueued before it */
  gpointer stream;              /* where it was recorded */
  gboolean recorded, timing;
} Event;

#define CU_EVENT_DISABLE_TIMING 0x2
#define CUDA_ERROR_INVALID_HANDLE 400

/* a command or a record with no context current is the caller's error:
 * the test stops there */
static void
need_context (const gchar * call)
{
  if (pushed <= 0)
    g_error ("fakecudahost: %s without a context pushed", call);
}

int
cuEventCreate (gpointer * event, unsigned flags)
{
  Event *e = g_new0 (Event, 1);

  e->timing = !(flags & CU_EVENT_DISABLE_TIMING);
  *event = e;
  return 0;
}

G_MODULE_EXPORT int cuEventRecord (Event * event, gpointer stream);
G_MODULE_EXPORT int cuEventDestroy_v2 (Event * event);
G_MODULE_EXPORT int cuEventElapsedTime (gfloat * ms, const Event * start,
    const Event * end);

int
cuEventRecord (Event * event, gpointer stream)
{
  need_context ("cuEventRecord");
  if (fails ("cuEventRecord"))
    return CUDA_ERROR_UNKNOWN;
  event->at = commands;
  event->stream = stream;
  event->recorded = TRUE;
  return 0;
}

int
cuEventDestroy_v2 (Event * event)
{
  g_free (event);
  return 0;
}

/* as the driver's, with a context current */
int
cuEventElapsedTime (gfloat * ms, const Event * start, const Event * end)
{
  need_context ("cuEventElapsedTime");
  if (!start->timing || !end->timing || !start->recorded || !end->recorded)
    return CUDA_ERROR_INVALID_HANDLE;
  *ms = ((gint64) end->at - (gint64) start->at) * 0.25f;
  return 0;
}

/* fails with FAKECUDA_ALLOC_FAILS=1 (read at each call) */
int
cuMemAlloc_v2 (guint64 * ptr, gsize size)
{
  if (g_strcmp0 (g_getenv ("FAKECUDA_ALLOC_FAILS"), "1") == 0)
    return CUDA_ERROR_UNKNOWN;
  *ptr = (guint64) (guintptr) alloc_block (size);
  return 0;
}

int
cuMemAllocHost_v2 (gpointer * ptr, gsize size)
{
  *ptr = alloc_block (size);
  return 0;
}

int
cuMemHostAlloc (gpointer * ptr, gsize size, unsigned flags)
{
  return cuMemAllocHost_v2 (ptr, size);
}


/* The stream's commands wait for its next synchronisation, and run then
 * in order, as a device's would (so that a test sees a wait missing); with
 * FAKECUDA_QUEUE=0 (read at each call) at once; with FAKECUDA_EAGER=1
 * at once too, but for those of a stream that has waited for an event. */
typedef enum
{
  COPY,
  SET8,
  SET32,
  COPY2D,
  WORDS,                        /* gst_cl_copy_words: @size words */
  WAIT                          /* for @on's commands up to @size */
} Kind;

typedef struct
{
  Kind kind;
  gpointer stream, on;
  guint64 seq;                  /* the commands enqueued before, and it */
  guint8 *dst;
  const guint8 *src;
  gsize size;
  guint32 value;
  Copy2D copy;
  gpointer staged;              /* the source, where the driver copied it */
} Command;

static GArray *queue;           /* Command */

static void
run (const Command * c)
{
  const guint8 *src;
  guint8 *dst;
  gsize i;

  switch (c->kind) {
    case COPY:
      memcpy (c->dst, c->src, c->size);
      g_free (c->staged);
      break;
    case SET8:
      memset (c->dst, c->value, c->size);
      break;
    case SET32:
      for (i = 0; i < c->size; i++)
        ((guint32 *) c->dst)[i] = c->value;
      break;
    case WORDS:
      for (i = 0; i < c->size; i++)
        ((guint32 *) c->dst)[i] = ((const guint32 *) c->src)[i];
      break;
    case WAIT:
      break;
    case COPY2D:
      src = c->copy.srcMemoryType == HOST_MEMORY ? c->copy.srcHost :
          (gconstpointer) (guintptr) c->copy.srcDevice;
      dst = c->copy.dstMemoryType == HOST_MEMORY ? c->copy.dstHost :
          (gpointer) (guintptr) c->copy.dstDevice;
      for (i = 0; i < c->copy.Height; i++)
        memcpy (dst + (c->copy.dstY + i) * c->copy.dstPitch +
            c->copy.dstXInBytes, src + (c->copy.srcY + i) * c->copy.srcPitch +
            c->copy.srcXInBytes, c->copy.WidthInBytes);
      break;
  }
}

static int drain (gpointer stream, guint64 upto);
/* the streams that have waited for an event */
static GHashTable *waiting;

static int
enqueue (Command * c, gpointer stream)
{
  need_context ("a command");
  c->stream = stream;
  /* a wait is no command on the events' clock */
  c->seq = c->kind == WAIT ? commands : ++commands;
  if (c->kind == WAIT && !waiting)
    waiting = g_hash_table_new (NULL, NULL);
  if (c->kind == WAIT)
    g_hash_table_add (waiting, stream);
  if (g_strcmp0 (g_getenv ("FAKECUDA_QUEUE"), "0") == 0 ||
      (g_strcmp0 (g_getenv ("FAKECUDA_EAGER"), "1") == 0 && (!waiting ||
              !g_hash_table_contains (waiting, stream)))) {
    if (c->kind == WAIT)
      drain (c->on, c->size);
    run (c);
    return 0;
  }
  if (!queue)
    queue = g_array_new (FALSE, FALSE, sizeof (Command));
  g_array_append_vals (queue, c, 1);
  return 0;
}

/* Runs @stream's commands among the first @upto enqueued, in order (a
 * wait for another stream's, those first), and takes them off the queue. */
static int
drain (gpointer stream, guint64 upto)
{
  Command c;
  guint i = 0;

  while (queue && i < queue->len) {
    c = g_array_index (queue, Command, i);
    if (c.stream != stream || c.seq > upto) {
      i++;
      continue;
    }
    g_array_remove_index (queue, i);
    if (c.kind == WAIT)
      drain (c.on, c.size);
    run (&c);
    i = 0;                      /* a wait may have taken others off */
  }
  return 0;
}

/* Whether [@start, @start + @size) meets [@lo, @hi). */
static gboolean
meets (const guint8 * start, gsize size, const guint8 * lo, const guint8 * hi)
{
  return size > 0 && start < hi && lo < start + size;
}

/* The bytes a 2D copy's side at @base spans. */
static gsize
span_2d (const Copy2D * c, gsize pitch)
{
  return c->Height ? (c->Height - 1) * pitch + c->WidthInBytes : 0;
}

static gboolean
touches (const Command * c, const guint8 * lo, const guint8 * hi)
{
  const guint8 *src, *dst;

  switch (c->kind) {
    case WAIT:
      return FALSE;
    case COPY:
      return meets (c->dst, c->size, lo, hi) || meets (c->src, c->size, lo, hi);
    case SET8:
      return meets (c->dst, c->size, lo, hi);
    case SET32:
    case WORDS:
      return meets (c->dst, c->size * 4, lo, hi) || (c->kind == WORDS &&
          meets (c->src, c->size * 4, lo, hi));
    case COPY2D:
      src = c->copy.srcMemoryType == HOST_MEMORY ? c->copy.srcHost :
          (gconstpointer) (guintptr) c->copy.srcDevice;
      dst = c->copy.dstMemoryType == HOST_MEMORY ? c->copy.dstHost :
          (gpointer) (guintptr) c->copy.dstDevice;
      return meets (src + c->copy.srcY * c->copy.srcPitch +
          c->copy.srcXInBytes, span_2d (&c->copy, c->copy.srcPitch), lo, hi)
          || meets (dst + c->copy.dstY * c->copy.dstPitch +
          c->copy.dstXInBytes, span_2d (&c->copy, c->copy.dstPitch), lo, hi);
  }
  return FALSE;
}

/* A driver's free does not race the stream's work on that memory; here
 * freeing memory that a queued command still reads or writes is the
 * caller's error (a wait missing): the test stops there. */
static void
free_block (gpointer block)
{
  gsize size = GPOINTER_TO_SIZE (g_hash_table_lookup (blocks, block));
  guint i;

  for (i = 0; queue && i < queue->len; i++)
    if (touches (&g_array_index (queue, Command, i), block,
            (guint8 *) block + size))
      g_error ("fakecudahost: memory freed while a queued command uses it");
  if (g_hash_table_remove (blocks, block))
    fakecudahost_blocks--;
  g_free (block);
}

int
cuMemFree_v2 (guint64 ptr)
{
  free_block ((gpointer) (guintptr) ptr);
  return 0;
}

int
cuMemFreeHost (gpointer ptr)
{
  free_block (ptr);
  return 0;
}

int
cuMemsetD8Async (guint64 ptr, guint8 value, gsize n, gpointer stream)
{
  Command c = { SET8,.dst = (guint8 *) (guintptr) ptr,.size = n,.value = value
  };

  return enqueue (&c, stream);
}

int
cuMemsetD32Async (guint64 ptr, guint32 value, gsize n, gpointer stream)
{
  Command c = { SET32,.dst = (guint8 *) (guintptr) ptr,.size = n,.value = value
  };

  return enqueue (&c, stream);
}

/* As the driver's from pageable memory: it returns once the source is
 * staged, its DMA still queued on the legacy default stream (NULL here),
 * which a stream made CU_STREAM_NON_BLOCKING does not wait for: it lands
 * at that stream's synchronisation, or before a later synchronous copy. */
int
cuMemcpyHtoD_v2 (guint64 dst, gconstpointer src, gsize size)
{
  Command c = { COPY,.dst = (guint8 *) (guintptr) dst,.size = size };

  c.staged = g_memdup2 (src, size);
  c.src = c.staged;
  return enqueue (&c, NULL);
}

/* Returns once copied, after what the legacy default stream holds. */
int
cuMemcpyDtoH_v2 (gpointer dst, guint64 src, gsize size)
{
  drain (NULL, commands);
  memcpy (dst, (gconstpointer) (guintptr) src, size);
  return 0;
}

int
cuMemcpyHtoDAsync_v2 (guint64 dst, gconstpointer src, gsize size,
    gpointer stream)
{
  Command c = { COPY,.dst = (guint8 *) (guintptr) dst,.src = src,.size = size
  };

  return enqueue (&c, stream);
}

int
cuMemcpyDtoHAsync_v2 (gpointer dst, guint64 src, gsize size, gpointer stream)
{
  Command c = { COPY,.dst = dst,.src = (const guint8 *) (guintptr) src,.size =
        size
  };

  if (fails ("cuMemcpyDtoHAsync"))
    return CUDA_ERROR_UNKNOWN;
  return enqueue (&c, stream);
}

int
cuMemcpy2DAsync_v2 (const Copy2D * copy, gpointer stream)
{
  Command c = { COPY2D,.copy = *copy };

  return enqueue (&c, stream);
}

G_MODULE_EXPORT int cuStreamSynchronize (gpointer stream);
G_MODULE_EXPORT int cuEventSynchronize (gpointer event);

int
cuStreamSynchronize (gpointer stream)
{
  return drain (stream, commands);
}

G_MODULE_EXPORT int cuCtxPushCurrent_v2 (gpointer context);
G_MODULE_EXPORT int cuCtxPopCurrent_v2 (gpointer * context);

/* fails with FAKECUDA_PUSH_FAILS (read at each call): "1" as a driver's
 * call may (CUDA_ERROR_UNKNOWN), "gone" as for a context destroyed */
int
cuCtxPushCurrent_v2 (gpointer context)
{
  const gchar *fails = g_getenv ("FAKECUDA_PUSH_FAILS");

  if (g_strcmp0 (fails, "1") == 0)
    return CUDA_ERROR_UNKNOWN;
  if (g_strcmp0 (fails, "gone") == 0)
    return CUDA_ERROR_CONTEXT_IS_DESTROYED;
  pushed++;
  return 0;
}

/* a pop without its push is the caller's error: the test stops there */
int
cuCtxPopCurrent_v2 (gpointer * context)
{
  if (pushed <= 0)
    g_error ("fakecudahost: cuCtxPopCurrent without a context pushed");
  pushed--;
  return 0;
}

/* the commands before the event on its stream (and those they wait for) */
int
cuEventSynchronize (gpointer event)
{
  const Event *e = event;

  if (fails ("cuEventSynchronize"))
    return CUDA_ERROR_UNKNOWN;
  return e->recorded ? drain (e->stream, e->at) : 0;
}

G_MODULE_EXPORT int cuStreamWaitEvent (gpointer stream, gpointer event,
    unsigned flags);

/* @stream's later commands after those before the event on its stream
 * (the event as recorded now; none if it never was) */
int
cuStreamWaitEvent (gpointer stream, gpointer event, unsigned flags)
{
  const Event *e = event;
  Command c = { WAIT,.on = e->stream,.size = e->at };

  if (fails ("cuStreamWaitEvent"))
    return CUDA_ERROR_UNKNOWN;
  return e->recorded ? enqueue (&c, stream) : 0;
}

/* ---- gst_cl_copy_words, the one kernel run here; others recorded ---- */

#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_INVALID_PTX 218

static gint word_kernel;        /* its handle: the address */
static GHashTable *modules;     /* those loaded: handle, its PTX */
static GHashTable *functions;   /* the other kernels found: name, handle */

/* A kernel other than gst_cl_copy_words: its name and parameter count. */
typedef struct
{
  gchar *name;
  guint n_params;
} FakeFunction;
G_MODULE_EXPORT guint fakecudahost_word_copies, fakecudahost_modules;

/* fakecuda.h */
G_MODULE_EXPORT guint fakecudahost_launches;
G_MODULE_EXPORT FakeLaunch fakecudahost_last_launch;

G_MODULE_EXPORT int cuModuleLoadData (gpointer * module, const char *image);
G_MODULE_EXPORT int cuModuleUnload (gpointer module);
G_MODULE_EXPORT int cuModuleGetFunction (gpointer * function,
    gpointer module, const char *name);
G_MODULE_EXPORT int cuLaunchKernel (gpointer function, unsigned gx,
    unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
    unsigned shared, gpointer stream, gpointer * params, gpointer * extra);

int
cuModuleLoadData (gpointer * module, const char *image)
{
  need_context ("cuModuleLoadData");
  if (!strstr (image, ".entry "))
    return CUDA_ERROR_NOT_SUPPORTED;
  if (g_strcmp0 (g_getenv ("FAKECUDA_NO_PTX"), "1") == 0)
    return CUDA_ERROR_INVALID_PTX;
  if (g_strcmp0 (g_getenv ("FAKECUDA_NO_PTX"), "oom") == 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  if (!modules)
    modules = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  *module = g_new0 (gint, 1);
  g_hash_table_insert (modules, *module, g_strdup (image));
  fakecudahost_modules++;
  return 0;
}

/* an unload of a module not loaded (twice) is the caller's error */
int
cuModuleUnload (gpointer module)
{
  need_context ("cuModuleUnload");
  if (!modules || !g_hash_table_remove (modules, module))
    g_error ("fakecudahost: cuModuleUnload of a module not loaded");
  /* the functions found stay: a handle is its name's, in any module */
  g_free (module);
  fakecudahost_modules--;
  return 0;
}

int
cuModuleGetFunction (gpointer * function, gpointer module, const char *name)
{
  const gchar *image = modules ? g_hash_table_lookup (modules, module) : NULL;
  /* the whole name: NVIDIA's OpenCL writes "k(", gstclcudaexec.c "k (" */
  gchar *entry = g_strdup_printf (".entry %s(", name);
  gchar *spaced = g_strdup_printf (".entry %s (", name);
  const gchar *at = image ? strstr (image, entry) : NULL, *end, *p;
  FakeFunction *f;
  guint n = 0;

  if (!at && image)
    at = strstr (image, spaced);
  g_free (entry);
  g_free (spaced);
  if (!at)
    return CUDA_ERROR_NOT_SUPPORTED;
  end = strchr (at, ')');
  for (p = at; end && (p = strstr (p, ".param")) && p < end; p++)
    n++;
  if (strcmp (name, "gst_cl_copy_words") == 0) {
    *function = &word_kernel;
    return 0;
  }
  if (!functions)
    functions = g_hash_table_new (g_str_hash, g_str_equal);
  if (!(f = g_hash_table_lookup (functions, name))) {
    f = g_new0 (FakeFunction, 1);
    f->name = g_strdup (name);
    f->n_params = n;
    g_hash_table_insert (functions, f->name, f);
  }
  *function = f;
  return 0;
}

/* Whether [@start, @start + @size) lies in one of the allocations. */
static gboolean
allocated (const guint8 * start, gsize size)
{
  GHashTableIter iter;
  gpointer block, block_size;

  g_hash_table_iter_init (&iter, blocks);
  while (g_hash_table_iter_next (&iter, &block, &block_size))
    if (start >= (guint8 *) block &&
        start + size <= (guint8 *) block + GPOINTER_TO_SIZE (block_size))
      return TRUE;
  return FALSE;
}

G_MODULE_EXPORT int cuMemHostGetDevicePointer_v2 (guint64 * ptr,
    gpointer host, unsigned flags);

int
cuMemHostGetDevicePointer_v2 (guint64 * ptr, gpointer host, unsigned flags)
{
  *ptr = (guint64) (guintptr) host;
  if (g_strcmp0 (g_getenv ("FAKECUDA_NO_UVA"), "1") == 0)
    *ptr += 4096;
  return 0;
}

static gboolean
is_function (gpointer name, gpointer function, gpointer handle)
{
  return function == handle;
}

/* a kernel other than gst_cl_copy_words: recorded, not run */
static int
record_launch (gpointer function, unsigned gx, unsigned gy, unsigned gz,
    unsigned bx, unsigned by, unsigned bz, unsigned shared, gpointer * params)
{
  FakeLaunch *l = &fakecudahost_last_launch;
  const FakeFunction *f = function;
  guint i;

  if (!functions || !g_hash_table_find (functions, is_function, function))
    return CUDA_ERROR_NOT_SUPPORTED;
  need_context ("cuLaunchKernel");
  memset (l, 0, sizeof (*l));
  l->name = f->name;
  l->grid[0] = gx, l->grid[1] = gy, l->grid[2] = gz;
  l->block[0] = bx, l->block[1] = by, l->block[2] = bz;
  l->shared = shared;
  for (i = 0; i < G_N_ELEMENTS (l->param64) && i < f->n_params; i++) {
    memcpy (&l->param64[i], params[i], 8);
    memcpy (&l->param32[i], params[i], 4);
  }
  fakecudahost_launches++;
  return 0;
}

/* a kernel's threads reach the device's memory and pinned host memory of
 * the driver's (unified addressing), nothing else; a grid the driver
 * refuses, or shared memory the kernel has not, is the caller's error:
 * the test stops there */
int
cuLaunchKernel (gpointer function, unsigned gx, unsigned gy, unsigned gz,
    unsigned bx, unsigned by, unsigned bz, unsigned shared, gpointer stream,
    gpointer * params, gpointer * extra)
{
  Command c = { WORDS };

  if (function != &word_kernel)
    return record_launch (function, gx, gy, gz, bx, by, bz, shared, params);
  c.dst = (guint8 *) (guintptr) * (guint64 *) params[0];
  c.src = (const guint8 *) (guintptr) * (guint64 *) params[1];
  c.size = *(guint32 *) params[2];
  need_context ("cuLaunchKernel");
  if (gx == 0 || gy != 1 || gz != 1 || bx == 0 || bx > 1024 || by != 1 ||
      bz != 1 || shared != 0)
    g_error ("fakecudahost: gst_cl_copy_words launched on %ux%ux%u blocks "
        "of %ux%ux%u, %u bytes shared", gx, gy, gz, bx, by, bz, shared);
  if (!blocks || !allocated (c.dst, c.size * 4) ||
      !allocated (c.src, c.size * 4))
    g_error ("fakecudahost: gst_cl_copy_words on memory not the driver's");
  if (g_strcmp0 (g_getenv ("FAKECUDA_LAUNCH_FAILS"), "1") == 0)
    return CUDA_ERROR_UNKNOWN;
  fakecudahost_word_copies++;
  return enqueue (&c, stream);
}

/* *INDENT-OFF* */
FAKECUDA_POOL_CALLS (UNSUPPORTED)
OK (cuInit, (unsigned flags))
OK (cuStreamDestroy_v2, (gpointer stream))
/* *INDENT-ON* */
