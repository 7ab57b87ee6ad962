/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Nothing: a library named libcuda.so.1 to link the fault driver
 * (../cuda-wait-fault.c) against on a machine without CUDA, so that it
 * names the real driver as its dependency. Never loaded: the fault driver
 * gets no run path to this folder. */
int cuda_stub_nothing (void);

int
cuda_stub_nothing (void)
{
  return 0;
}
