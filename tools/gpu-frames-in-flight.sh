#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Frames in flight on the GPU machine (docs/memory.md, "Frames in flight"):
# the element of an older build (OLD, a folder with gst/libgstclfilters.so;
# e.g. main at ef17fb6 built there) against this build, side by side in one
# run, with the same (this build's) clepsilon-bench: 4K NV12 from the
# element's pool (twice, alternating), 4K NV12 from system memory and 1080p
# NV12 from the pool, 9x9 at threshold 20; this build with 1, 3 (auto) and 6
# frames in flight; sharing untouched planes forced; then the outputs of 40
# 4K frames of each configuration, whose checksums must all be equal, and
# the element suites on the device. Run there from the project's root with
# .device, build and OLD carried (see ../shared/device/README.md):
#   OLD=devrun/base bash tools/gpu-frames-in-flight.sh [DEVICE]
# The logs go to $OUT/frames-in-flight (or /tmp), and at the end into one
# frames-in-flight.tar.gz beside it: the device tool brings back few files.
set -u
source .device/gst-env.sh >/dev/null 2>&1
dev=${1:-nvidia}
old=${OLD:-devrun/base}
mkdir -m 700 -p /tmp/clcache
export GST_CL_CACHE_DIR=/tmp/clcache CK_DEFAULT_TIMEOUT=300
log=${OUT:-/tmp}/frames-in-flight; mkdir -p "$log"

bench () {  # label, old|new, clepsilon-bench options...
  local label=$1 dir=$PWD/build
  [ "$2" = old ] && dir=$PWD/$old
  shift 2
  GST_PLUGIN_PATH_1_0=$dir/gst GST_REGISTRY_1_0=/tmp/reg-$(basename "$dir").bin \
    timeout 45 build/tools/clepsilon-bench --no-smooth --frames=200 --repeat=3 "$@" \
    > "$log/$label.log" 2>&1
  echo "== $label"
  grep -E "^clepsilon|per frame" "$log/$label.log" | cut -c1-140
}
C="device=$dev threshold=20 window-size=9"
K4="--format=NV12 --width=3840 --height=2160"
F="--extra=frames-in-flight=1 --extra=frames-in-flight=3 --extra=frames-in-flight=6"
for r in 1 2; do
  bench "4k-pool-$r-old" old $K4 --clepsilon="$C"
  bench "4k-pool-$r-new" new $K4 --clepsilon="$C" $F
done
GST_CL_SHARE_UNTOUCHED=always bench 4k-pool-share new $K4 --clepsilon="$C" $F
bench 4k-system-old old $K4 --input=system --clepsilon="$C"
bench 4k-system-new new $K4 --input=system --clepsilon="$C" $F
bench 1080-pool-old old --format=NV12 --width=1920 --height=1080 --clepsilon="$C"
bench 1080-pool-new new --format=NV12 --width=1920 --height=1080 --clepsilon="$C" $F

# The same outputs whatever the build and the frames in flight.
for v in old:0 new:1 new:3 new:6; do
  which=${v%:*} f=${v#*:} dir=$PWD/build P="$C"
  [ "$which" = old ] && dir=$PWD/$old
  [ "$f" != 0 ] && P="$C frames-in-flight=$f"
  GST_PLUGIN_PATH_1_0=$dir/gst GST_REGISTRY_1_0=/tmp/reg-$which.bin timeout 30 \
    build/tools/clepsilon-bench --no-smooth $K4 --frames=40 --repeat=1 --ring=8 \
    --clepsilon="$P" --dump-output=/tmp/out-$which-$f.yuv > /dev/null 2>&1
  echo "outputs $which frames-in-flight=$f: $(md5sum < /tmp/out-$which-$f.yuv | cut -c1-12)"
done

for t in libs_clplan elements_clepsilon elements_clepsilonformats elements_clepsilonmemory \
    elements_clepsilonclients; do
  GST_PLUGIN_PATH_1_0=$PWD/build/gst GST_PLUGIN_SYSTEM_PATH_1_0= \
    GST_REGISTRY_1_0=/tmp/reg-$t.bin CLEPSILON_TEST_DEVICE=$dev \
    timeout 150 build/tests/$t > "$log/suite-$t.log" 2>&1
  echo "$t: $(grep -E 'Checks:' "$log/suite-$t.log" | tail -1)"
done
tar -czf "$log.tar.gz" -C "$(dirname "$log")" "$(basename "$log")" && rm -r "$log"
