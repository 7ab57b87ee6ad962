#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Whether every program the element builds on NVIDIA's OpenCL runs as a
# CUDA module (gst/gstclptx-private.h): the element filters a few frames
# in each setting that builds a program of its own (the epsilon filter,
# chroma, convolutions, the DCT stage, 10-bit, packed YUV) into an empty
# cache folder, then cl-ptx-in-cuda --programs rewrites each cached
# program's PTX and loads it into a CUDA context with all its kernels;
# then cl-ptx-in-cuda compares dct_tile and epsilon_tiled_planar launched
# by CUDA with OpenCL's, byte for byte. Run on the GPU machine from the tree's root, with the
# runtime folder $CLEPSILON_GPU_RUNTIME (README.md):
#   bash tests/gpu/gpu-ptx-programs.sh
# Prints a program a line with its kernels, then the comparison; the
# whole listing (with the lines that read each __local pointer) in
# $OUT/programs.txt (default /tmp/out). Exit status 1 where a pipeline, a
# program or the comparison failed.
set -uo pipefail
rt=${CLEPSILON_GPU_RUNTIME:?"set it to the GPU machine's runtime folder (tests/gpu/README.md)"}
[ -f "$rt/gst-env.sh" ] || { echo "$0: no gst-env.sh in $rt (tests/gpu/README.md)" >&2; exit 2; }
rt=$(cd "$rt" && pwd)
source "$rt/gst-env.sh" >/dev/null 2>&1
out=${OUT:-/tmp/out}
mkdir -p "$out"
export GST_PLUGIN_PATH=$rt/build/gst GST_REGISTRY=/tmp/gst-registry-ptx.bin
export GST_CL_CACHE_DIR=$(mktemp -d)
status=0
while read -r fmt props; do
  eval "timeout 60 gst-launch-1.0 -q videotestsrc num-buffers=3 pattern=ball \
    ! video/x-raw,format=$fmt,width=352,height=288 ! clepsilon device=nvidia $props \
    ! fakesink" < /dev/null > "$out/launch.log" 2>&1 || { echo "failed: $fmt $props"; tail -3 "$out/launch.log"; status=1; }
done <<'SETTINGS'
NV12 strength=auto
NV12 strength=medium
NV12 strength=off threshold=20 window-size=9 chroma-threshold=8
I420 strength=off threshold=12 kernel="1 2 1; 2 4 2; 1 2 1"
I420 strength=off threshold=12 window-size=15 kernel="1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1"
P010_10LE strength=auto
P010_10LE strength=medium
YUY2 strength=medium
SETTINGS
"$rt/build/tests/gpu/cl-ptx-in-cuda" --programs "$GST_CL_CACHE_DIR" > "$out/programs.txt" 2>&1 || status=1
grep -v '^    ' "$out/programs.txt"
timeout 60 "$rt/build/tests/gpu/cl-ptx-in-cuda" 2>&1 | grep -v '^the PTX reads'
[ "${PIPESTATUS[0]}" = 0 ] || status=1
rm -rf "$GST_CL_CACHE_DIR"
exit $status
