#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every test of `meson test` on the GPU machine, within its limit of 10
# minutes a command: the bundle of gpu-bundle.sh (suites.sh in the runtime
# folder $CLEPSILON_GPU_RUNTIME, README.md) in four calls, PART=1 to 4,
# each a few lanes at once, a lane a regular expression over the tests'
# names. Test processes that share the GPU slow
# each other down far more than the 16 cores suggest (eight lanes at once
# finished almost nothing in 10 minutes), so a part runs at most three
# lanes of about 7 minutes, from the times each suite took there; PART=4 is
# clfault/sweep alone, three runs at a time. The libFuzzer build is left
# out: the machine has no clang. Run there from the tree's root, with the
# runtime folder carried:
#   source "$CLEPSILON_GPU_RUNTIME/gst-env.sh"; PART=1 bash tests/gpu/gpu-suites.sh
# or name the lanes: bash tests/gpu/gpu-suites.sh REGEX...
# One line per test as suites.sh prints it, lane by lane, then a count;
# the logs of the tests in the runtime folder's logs/, and in $OUT/logs.tgz
# where OUT is set. Exit status 1 where a test failed or a lane ran past
# LIMIT seconds (default 570).
set -uo pipefail
rt=${CLEPSILON_GPU_RUNTIME:?"set it to the GPU machine's runtime folder (tests/gpu/README.md)"}
[ -f "$rt/suites.sh" ] || { echo "$0: no suites.sh in $rt (tests/gpu/README.md)" >&2; exit 2; }
rt=$(cd "$rt" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
limit=${LIMIT:-570}
case ${PART:-1} in
  1) lanes=('^elements/clepsilon(|-discrete)$'
       '^elements/clepsilon(-mapped|formats)$'
       '^elements/clepsilonclients(|-discrete)$') ;;
  2) lanes=('^elements/clepsilon(formats-discrete|memory.*|share.*|knob)$'
       '^elements/clepsilon(clients-mapped|robust)$'
       '^elements/clepsilon(robust-discrete|faults)$') ;;
  3) lanes=('^elements/clepsilonfaults-(discrete|mapped)$'
       '^(libs/.*|elements/clepsilon(interlaced.*|cuda|limits.*)|fuzz/corpus)$') ;;
  4) # the sweep alone, three runs at a time (318 s on the H100)
     LD_LIBRARY_PATH=$rt/build/tests:$rt/build/gst:${LD_LIBRARY_PATH:-} \
       CLEPSILON_TEST_DEVICE=${CLEPSILON_TEST_DEVICE:-nvidia} \
       exec timeout "$limit" python3 tests/clfault/sweep.py \
       --build "$rt/build" --jobs 3 ;;
  *) echo "PART is 1, 2, 3 or 4" >&2; exit 2 ;;
esac
[ $# -gt 0 ] && lanes=("$@")
rm -rf "$rt/logs"
tmp=$(mktemp -d)
for i in "${!lanes[@]}"; do
  (timeout "$limit" bash "$rt/suites.sh" "${lanes[$i]}" >"$tmp/$i" 2>&1
    echo "lane $i (${lanes[$i]}): rc $?" >>"$tmp/$i") &
done
wait
failed=0
for i in "${!lanes[@]}"; do
  cat "$tmp/$i"
  grep -q "rc 0$" "$tmp/$i" && grep -q " 0 failed$" "$tmp/$i" || failed=1
done
rm -rf "$tmp"
[ -n "${OUT:-}" ] && tar czf "$OUT/logs.tgz" -C "$rt" logs
exit $failed
