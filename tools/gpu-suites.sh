#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every test of `meson test` on the GPU machine within its limit of 10
# minutes a command: the bundle of tools/gpu-bundle.sh (.devrun/suites.sh)
# run in LANES at once, each a regular expression over the tests' names (the
# default splits the tests into eight lanes of up to about 7 minutes on
# the H100's 16 cores, from the times each took there; the libFuzzer build
# is left out: the machine has no clang). Run there from the tree's root, with .device and .devrun carried:
#   source .device/gst-env.sh; bash tools/gpu-suites.sh
# One line per test as suites.sh prints it, lane by lane, then a count;
# the logs of the tests in .devrun/logs, and in $OUT/logs.tgz where OUT is
# set. Exit status 1 where a test failed or a lane ran past LIMIT seconds
# (default 560).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
limit=${LIMIT:-560}
lanes=(
  '^elements/clepsilon(|-mapped)$'
  '^elements/clepsilon(-discrete|memory.*)$'
  '^elements/clepsilon(formats.*|knob|share.*)$'
  '^elements/clepsilonclients(|-discrete)$'
  '^elements/clepsilon(clients-mapped|robust.*)$'
  '^elements/clepsilon(faults|faults-discrete|interlaced.*|cuda|limits.*)$'
  '^(elements/clepsilonfaults-mapped|libs/.*|fuzz/corpus)$'
  '^clfault/sweep$'
)
[ $# -gt 0 ] && lanes=("$@")
rm -rf .devrun/logs
tmp=$(mktemp -d)
for i in "${!lanes[@]}"; do
  (timeout "$limit" bash .devrun/suites.sh "${lanes[$i]}" >"$tmp/$i" 2>&1
    echo "lane $i (${lanes[$i]}): rc $?" >>"$tmp/$i") &
done
wait
failed=0
for i in "${!lanes[@]}"; do
  cat "$tmp/$i"
  grep -q "rc 0$" "$tmp/$i" && grep -q " 0 failed$" "$tmp/$i" || failed=1
done
rm -rf "$tmp"
[ -n "${OUT:-}" ] && tar czf "$OUT/logs.tgz" .devrun/logs
exit $failed
