#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The kernel-variant and start-up figures of docs/benchmarks.md on the GPU
# machine. Run there from the project's root with .device and build carried
# (see ../shared/device/README.md):
#   bash tools/gpu-kernel-figures.sh [DEVICE]
set -u
source .device/gst-env.sh
export GST_PLUGIN_PATH=$PWD/build/gst
dev=${1:-nvidia}
out=${OUT:-.}
gauss5="1 4 6 4 1; 4 16 24 16 4; 6 24 36 24 6; 4 16 24 16 4; 1 4 6 4 1"
full5="1 2 3 2 1; 2 -4 6 -4 2; 3 6 12 6 3; 2 -4 6 -4 2; 1 2 3 2 1"
{
  build/tools/cl-variants "$dev" 3840 2160 --iterations 50 --lanes 128 --kernel "$gauss5"
  build/tools/cl-variants "$dev" 3840 2160 --iterations 50 --window 3 --kernel "$full5"
  build/tools/cl-variants "$dev" 3840 2160 --iterations 50 --window 15
  build/tools/cl-variants "$dev" 1920 1080 --iterations 50
  # Start-up: a one-frame pipeline with an empty cache (and the driver's own
  # cache off), then again with the cache filled.
  export CUDA_CACHE_DISABLE=1 GST_CL_CACHE_DIR=/tmp/clepsilon-cache
  rm -rf "$GST_CL_CACHE_DIR"
  for run in cold warm warm; do
    s=$(date +%s%N)
    gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
      video/x-raw,format=NV12,width=3840,height=2160 ! \
      clepsilon device="$dev" threshold=20 ! fakesink
    e=$(date +%s%N)
    echo "start-up $run: $(( (e - s) / 1000000 )) ms"
  done
  ls -l "$GST_CL_CACHE_DIR"
} 2>&1 | grep -v GStreamer-WARNING | tee "$out/kernel-figures.log"
