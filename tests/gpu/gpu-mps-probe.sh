#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Whether the element could start under NVIDIA MPS, which would let separate
# processes share the GPU instead of taking turns on it
# (docs/benchmarks.md), where NVIDIA's OpenCL makes no context. Run on the
# GPU machine from the tree's root, with the runtime folder
# $CLEPSILON_GPU_RUNTIME (README.md; its clips/ from gpu-cuda-clips.sh):
#   bash tests/gpu/gpu-mps-probe.sh
# Without MPS, then with its control daemon started here (and stopped
# however the script ends):
#   - the element on the 1080p MPEG-2 clip through CUDA memory
#     (strength=auto; without MPS it writes its programs into a cache
#     folder of its own): its exit status and first error;
#   - cl-mps-probe: which of the OpenCL and CUDA steps of the element's
#     start work (its program found in that cache by key, and loaded in
#     CUDA, included);
#   - cl-ptx-in-cuda --programs on that folder: whether every program
#     loads as a CUDA module there.
# Logs in $OUT/mps (default /tmp/out).
set -uo pipefail
rt=${CLEPSILON_GPU_RUNTIME:?"set it to the GPU machine's runtime folder (tests/gpu/README.md)"}
[ -f "$rt/gst-env.sh" ] || { echo "$0: no gst-env.sh in $rt (tests/gpu/README.md)" >&2; exit 2; }
rt=$(cd "$rt" && pwd)
source "$rt/gst-env.sh" >/dev/null 2>&1
out=${OUT:-/tmp/out}/mps
rm -rf "$out"
mkdir -p "$out"
export GST_PLUGIN_PATH=$rt/build/gst GST_REGISTRY=$out/registry.bin
export GST_CL_CACHE_DIR=$out/cache
bin=$rt/build/tests/gpu

probe () { # LABEL (a file name)
  echo "== $1"
  timeout 120 gst-launch-1.0 filesrc location="$rt/clips/broadcast-1080.m2v" \
    ! mpegvideoparse ! nvmpeg2videodec ! "video/x-raw(memory:CUDAMemory)" \
    ! clepsilon device=nvidia strength=auto ! fakesink > "$out/launch-$1.log" 2>&1
  echo "the element: exit status $?"
  grep -m 2 "^ERROR\|^WARNING" "$out/launch-$1.log"
  timeout 60 "$bin/cl-mps-probe"
  timeout 120 "$bin/cl-ptx-in-cuda" --programs "$GST_CL_CACHE_DIR" > "$out/ptx-$1.log" 2>&1
  echo "cl-ptx-in-cuda --programs: exit status $? ($(ls "$GST_CL_CACHE_DIR" 2> /dev/null | grep -c '^program-') programs)"
}

echo "card: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
probe without-mps
export CUDA_MPS_PIPE_DIRECTORY=$out/mps-pipe CUDA_MPS_LOG_DIRECTORY=$out/mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
if nvidia-cuda-mps-control -d; then
  trap 'echo quit | nvidia-cuda-mps-control' EXIT
  probe under-mps
else
  echo "NVIDIA MPS: the control daemon did not start"
fi
