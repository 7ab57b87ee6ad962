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

#ifndef __GST_CL_CUDA_CHAIN_PRIVATE_H__
#define __GST_CL_CUDA_CHAIN_PRIVATE_H__

#include "gstclcuda-private.h"

G_BEGIN_DECLS

/* The order between a CUDA stream and an OpenCL queue kept on the device:
 * two binary semaphores that OpenCL makes and exports
 * (cl_khr_external_semaphore_opaque_fd) and CUDA imports, one for each
 * direction. A frame copied in on the CUDA stream signals one, and OpenCL
 * waits for it before acquiring the frame; OpenCL signals the other after
 * releasing the result, and the CUDA stream waits for it before copying
 * the result out. The streaming thread then waits once a frame (after the
 * copy out) instead of after each step, where each wait, with several
 * processes on one GPU, lasts until the other contexts' time slices have
 * passed.
 *
 * Each signal is waited for once before the next: a signal that no wait
 * took (a frame that failed between the two) breaks the chain, and the
 * callers go back to waiting on the host. */
typedef struct _GstClCudaChain GstClCudaChain;

/* The chain between the CUDA context current on this thread and OpenCL's
 * @context on @device, or NULL where either driver cannot make it (logged
 * once, with why). */
GstClCudaChain *gst_cl_cuda_chain_new (cl_context context,
    cl_device_id device);

/* With the CUDA context current. NULL is ignored. */
void gst_cl_cuda_chain_free (GstClCudaChain * chain);

/* Whether the chain can carry a signal to OpenCL now (the last one was
 * waited for, on the device), or to CUDA. */
gboolean gst_cl_cuda_chain_can_signal_cl (const GstClCudaChain * chain);
gboolean gst_cl_cuda_chain_can_signal_cuda (const GstClCudaChain * chain);

/* CUDA to OpenCL: signals after what @stream holds (the context current);
 * FALSE with @error set where the call failed. */
gboolean gst_cl_cuda_chain_signal_cl (GstClCudaChain * chain,
    CUstream stream, GError ** error);

/* Enqueues on @queue, after @wait_list, the wait for the signal of
 * gst_cl_cuda_chain_signal_cl() where one is pending; @event gets its event
 * (NULL where none was pending). */
gboolean gst_cl_cuda_chain_wait_cl (GstClCudaChain * chain,
    cl_command_queue queue, cl_uint n_wait, const cl_event * wait_list,
    cl_event * event, GError ** error);

/* OpenCL to CUDA: signals on @queue after @wait_list. */
gboolean gst_cl_cuda_chain_signal_cuda (GstClCudaChain * chain,
    cl_command_queue queue, cl_uint n_wait, const cl_event * wait_list,
    GError ** error);

/* Whether a signal of gst_cl_cuda_chain_signal_cuda() is pending. */
gboolean gst_cl_cuda_chain_cuda_pending (const GstClCudaChain * chain);

/* Makes @stream (the context current) wait for that signal. */
gboolean gst_cl_cuda_chain_wait_cuda (GstClCudaChain * chain,
    CUstream stream, GError ** error);

G_END_DECLS

#endif /* __GST_CL_CUDA_CHAIN_PRIVATE_H__ */
