#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# PoCL frame memory, side by side in one run with the same build: mapped
# buffers (GST_CL_SVM=0, mode "mapped"), fine-grained SVM with every frame
# waited for (the default, "svm") and SVM with 3 frames in flight
# (frames-in-flight=3, "svm-flight"). 1080p I420 3x3 (defaults) and 9x9
# threshold 20, ROUNDS rounds of the three in turn on 2 and on all cores
# (POCL_MAX_PTHREAD_COUNT, taskset), each one clepsilon-bench (median ms a
# frame, and the element's kernel ms); then the fixed cost of a frame
# (64x64). docs/benchmarks.md, "Frames in shared virtual memory". Run from
# the project's root:
#   [ROUNDS=5] [CORES="2 16"] bash tools/pocl-svm-cores.sh
set -u
rounds=${ROUNDS:-5}
cores=${CORES:-"2 $(nproc)"}
[ -f .device/gst-env.sh ] && source .device/gst-env.sh >/dev/null 2>&1
cache=$(mktemp -d); chmod 700 "$cache"; export GST_CL_CACHE_DIR=$cache
log=$(mktemp)
bench () {  # mode cores properties clepsilon-bench options...
  local svm=1 p=$3 n=$2
  case $1 in mapped) svm=0 ;; svm-flight) p="$p frames-in-flight=3" ;; esac
  shift 3
  GST_CL_SVM=$svm POCL_MAX_PTHREAD_COUNT=$n timeout 60 taskset -c 0-$((n - 1)) \
    build/tools/clepsilon-bench --no-smooth --format=I420 --clepsilon="device=pocl $p" \
    "$@" > "$log" 2>&1
  echo "$(awk '/^clepsilon / && !/device:/ {print $(NF-4)}' "$log") ms" \
    "($(grep -o 'kernels [0-9.]* ms' "$log"))"
}
for n in $cores; do
  for c in "threshold=10" "threshold=20 window-size=9"; do
    for r in $(seq "$rounds"); do
      for m in mapped svm svm-flight; do
        echo "cores=$n $m round=$r [$c] $(bench $m $n "$c" --frames=20 --repeat=3)"
      done
    done
  done
  for m in mapped svm svm-flight; do
    echo "cores=$n $m 64x64 $(bench $m $n threshold=10 --width=64 --height=64 \
      --frames=500 --repeat=5)"
  done
done
rm -rf "$cache" "$log"
