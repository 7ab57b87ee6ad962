#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Before and after on the cases a change of the frame's path must keep:
# 4K NV12 with a 9x9 window from the element's pool and from system memory,
# 1080p NV12 9x9, and strength=auto at 1080p; each through
# tests/bench/bench-old-new.sh (OLD and NEW builds alternating ROUNDS times,
# medians), on DEVICE. Prints one summary line per case.
#
# Usage: OLD=build-old/src/build NEW=build DEVICE=nvidia tests/bench/bench-cases.sh
# Environment: DEVICE (default pocl), ROUNDS (default 9), FRAMES (frames per
# timed batch, default 30; fewer on a CPU), REPEAT (batches, default 3).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
device=${DEVICE:-pocl}
export ROUNDS=${ROUNDS:-9}
frames=${FRAMES:-30}
repeat=${REPEAT:-3}
common=(--format=NV12 -n "$frames" -r "$repeat" --warmup=3)
uhd=(--width=3840 --height=2160)
hd=(--width=1920 --height=1080)
eps="threshold=20 window-size=9 device=$device"
run() { LABEL="$1" bash "$top/tests/bench/bench-old-new.sh" "${@:2}" | tail -1; }
run "4K 9x9 pool" "${common[@]}" "${uhd[@]}" --input=pool --clepsilon="$eps"
run "4K 9x9 system" "${common[@]}" "${uhd[@]}" --input=system --clepsilon="$eps"
run "1080p 9x9 pool" "${common[@]}" "${hd[@]}" --input=pool --clepsilon="$eps"
run "1080p auto pool" "${common[@]}" "${hd[@]}" --input=pool \
  --clepsilon="strength=auto device=$device"
