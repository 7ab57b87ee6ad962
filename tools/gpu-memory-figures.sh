#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The memory-path figures of docs/memory.md on the GPU machine. Run there
# from the project's root with .device and build carried (see
# ../shared/device/README.md):
#   bash tools/gpu-memory-figures.sh [DEVICE]
# Prints the raw pinned/pageable round trips of one luma plane, then the
# element's stats for 4K GRAY8, 4K NV12 and 1080p NV12 three times in turn,
# then runs the memory-path and element suites on DEVICE (default nvidia).
set -u
source .device/gst-env.sh
export GST_PLUGIN_PATH=$PWD/build/gst
dev=${1:-nvidia}
out=${OUT:-.}

{
  build/tools/cl-roundtrip "$dev" 3840 2160 200
  build/tools/cl-roundtrip "$dev" 1920 1080 200
  for i in 1 2 3; do
    build/tools/clepsilon-bench GRAY8 3840 2160 300 device="$dev" threshold=20
    build/tools/clepsilon-bench NV12 3840 2160 300 device="$dev" threshold=20
    build/tools/clepsilon-bench NV12 1920 1080 300 device="$dev" threshold=20
  done
} 2>&1 | grep -v GStreamer-WARNING | tee "$out/memory-figures.log"

export GST_PLUGIN_SYSTEM_PATH_1_0=$GST_PLUGIN_SYSTEM_PATH
export GST_PLUGIN_PATH_1_0=$PWD/build/gst GST_REGISTRY_1_0=/tmp/clepsilon-test.reg
export CK_DEFAULT_TIMEOUT=300 CLEPSILON_TEST_DEVICE=$dev
build/tests/elements_clepsilonmemory 2>&1 | tail -2
build/tests/elements_clepsilon 2>&1 | tail -2
