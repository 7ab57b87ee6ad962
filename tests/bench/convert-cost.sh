#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What videoconvert costs to bring a packed format that clepsilon does not
# take (v210, Y210, YUY2, UYVY) to the planar one it does: ms per 1920x1080
# frame, the median of 5 alternating rounds of 200 frames with and without
# the conversion (videotestsrc's solid colour, fakesink), on this machine.
set -euo pipefail
# One run of 200 frames of format $1 through "${@:2}"; prints ns per frame.
run() {
  local s e
  s=$(date +%s%N)
  gst-launch-1.0 -q videotestsrc num-buffers=200 pattern=solid-color \
    ! "video/x-raw,format=$1,width=1920,height=1080" "${@:2}" ! fakesink
  e=$(date +%s%N)
  echo $(((e - s) / 200))
}
median() { sort -n | sed -n 3p; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| packed format | converted to | videoconvert, ms per 1080p frame |"
echo "| --- | --- | --- |"
for pair in v210:I422_10LE Y210:I422_10LE YUY2:Y42B UYVY:Y42B; do
  from=${pair%%:*} to=${pair#*:}
  : >"$tmp/with"
  : >"$tmp/without"
  for _ in 1 2 3 4 5; do
    run "$from" ! videoconvert ! "video/x-raw,format=$to" >>"$tmp/with"
    run "$from" >>"$tmp/without"
  done
  awk -v f="$from" -v t="$to" -v w="$(median <"$tmp/with")" \
    -v wo="$(median <"$tmp/without")" \
    'BEGIN { printf "| %s | %s | %.1f |\n", f, t, (w - wo) / 1e6 }'
done
