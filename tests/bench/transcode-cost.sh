#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What clepsilon adds to a transcoding chain, in CPU time (user + sys, the
# whole gst-launch-1.0 process): filesrc ! decodebin ! [clepsilon ...] !
# x264enc speed-preset=veryfast ! matroskamux ! filesink, on a 1080p MPEG-2
# clip coded as broadcast and DVD material is (mpeg2video -b:v 8M -maxrate
# 15M -bufsize 1835k -g 12 -bf 2; a pan over python3-skimage's coffee.png,
# FRAMES frames). Each setting runs once per round, the rounds alternate the
# settings, and the table gives the median over ROUNDS rounds and its ratio
# to the chain without the element. "strength=off" is the element passing
# frames through: what it costs when it filters nothing, the coding watch
# that reads each coded picture's type and quantiser included.
# Environment: ROUNDS (7), FRAMES (100), DEVICE (clepsilon's, default auto),
# GST_PLUGIN_PATH (build/gst of this tree by default). Needs ffmpeg,
# gstreamer1.0-plugins-ugly (x264enc), -good (matroskamux), -libav.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$top/build/gst}
rounds=${ROUNDS:-7} frames=${FRAMES:-100}
dev=${DEVICE:+device=$DEVICE}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ffmpeg -v error -loop 1 -i /usr/lib/python3/dist-packages/skimage/data/coffee.png \
  -vf "scale=3200:-2,crop=1920:1080:x=t*160:y=(ih-1080)/2,format=yuv420p" \
  -r 25 -frames:v "$frames" -c:v mpeg2video -b:v 8M -maxrate 15M \
  -bufsize 1835k -g 12 -bf 2 -f mpegts "$tmp/clip.ts"

settings=("" "strength=off" "" "strength=medium")
names=("without clepsilon" "clepsilon strength=off" \
  "clepsilon (nothing set: strength=auto)" "clepsilon strength=medium")
# One run of setting $1 (an index into settings): CPU seconds.
run() {
  local element=()
  if [ "$1" -gt 0 ]; then
    element=(clepsilon $dev ${settings[$1]} !)
  fi
  /usr/bin/time -f "%U %S" -o "$tmp/time" gst-launch-1.0 -q \
    filesrc location="$tmp/clip.ts" ! decodebin ! "${element[@]}" \
    x264enc speed-preset=veryfast ! matroskamux \
    ! filesink location="$tmp/out.mkv"
  awk '{ print $1 + $2 }' "$tmp/time"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for i in "${!settings[@]}"; do run "$i" >/dev/null; done  # warm caches
for _ in $(seq "$rounds"); do
  for i in "${!settings[@]}"; do run "$i" >>"$tmp/cpu$i"; done
done
base=$(median <"$tmp/cpu0")
echo "| chain (1080p MPEG-2, $frames frames, x264 veryfast) | CPU s, median of $rounds | ratio |"
echo "| --- | ---: | ---: |"
for i in "${!settings[@]}"; do
  awk -v n="${names[$i]}" -v m="$(median <"$tmp/cpu$i")" -v b="$base" \
    'BEGIN { printf "| %s | %.2f | %.2f |\n", n, m, m / b }'
done
