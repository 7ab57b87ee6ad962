#!/usr/bin/env bash
# PoCL frame memory, fine-grained SVM (the default where the device has it)
# against mapped buffers (GST_CL_SVM=0), side by side in one run: the same
# build, 1080p I420 3x3 (defaults) and 9x9 threshold 20, ROUNDS alternating
# rounds on 2 and on all cores (POCL_MAX_PTHREAD_COUNT, taskset), each
# round one clepsilon-bench (median ms a frame, and the element's kernel ms);
# then the fixed cost of a frame (64x64). docs/benchmarks.md, "The fixed
# cost of a frame". Run from the project's root:
#   [ROUNDS=5] [CORES="2 16"] bash tools/pocl-svm-cores.sh
set -u
rounds=${ROUNDS:-5}
cores=${CORES:-"2 $(nproc)"}
[ -f .device/gst-env.sh ] && source .device/gst-env.sh >/dev/null 2>&1
cache=$(mktemp -d); chmod 700 "$cache"; export GST_CL_CACHE_DIR=$cache
log=$(mktemp)
bench () {  # svm cores clepsilon-bench options...
  local s=$1 n=$2; shift 2
  GST_CL_SVM=$s POCL_MAX_PTHREAD_COUNT=$n timeout 60 taskset -c 0-$((n - 1)) \
    build/tools/clepsilon-bench --no-smooth --format=I420 "$@" > "$log" 2>&1
  echo "$(awk '/^clepsilon / && !/device:/ {print $(NF-4)}' "$log") ms" \
    "($(grep -o 'kernels [0-9.]* ms' "$log"))"
}
for n in $cores; do
  for c in "threshold=10" "threshold=20 window-size=9"; do
    for r in $(seq "$rounds"); do
      for s in 0 1; do
        echo "cores=$n svm=$s round=$r [$c] $(bench $s $n --frames=20 --repeat=3 \
          --clepsilon="device=pocl $c")"
      done
    done
  done
  for s in 0 1; do
    echo "cores=$n svm=$s 64x64 $(bench $s $n --width=64 --height=64 --frames=500 \
      --repeat=5 --clepsilon="device=pocl threshold=10")"
  done
done
rm -rf "$cache" "$log"
