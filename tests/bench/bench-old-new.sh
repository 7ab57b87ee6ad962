#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The same clepsilon-bench case on two builds of the plugin, side by side in
# one run: OLD and NEW alternate ROUNDS times (old, new, new, old, ...) so
# the machine's noise falls on both; each round is one clepsilon-bench
# process (its own median over --repeat batches). Prints each round's
# element ms/frame and kernel ms/frame, then the median over the rounds and
# the ratio old / new.
#
# Usage: tests/bench/bench-old-new.sh [clepsilon-bench options...]
#   e.g. tests/bench/bench-old-new.sh --format=I420 --clepsilon="threshold=10"
# Environment:
#   OLD, NEW  build folders (default build-old/src/build and build), each
#             with tests/bench/clepsilon-bench (tools/clepsilon-bench in a
#             tree that still has it there) and gst/libgstclfilters.so; the old
#             tree, e.g. where this branch left main, can be made with
#               mkdir -p build-old/src &&
#                 git archive $(git merge-base main HEAD) | tar -x -C build-old/src
#               meson setup build-old/src/build build-old/src -Dtests=disabled
#               meson compile -C build-old/src/build
#   ROUNDS    rounds of each (default 5)
#   PREFIX    a command put before each run, e.g. "taskset -c 0-1"
#   LABEL     printed at the start of the summary line
#   LOGDIR    where to keep each run's clepsilon-bench output (default: none)
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
old=${OLD:-build-old/src/build}
new=${NEW:-build}
rounds=${ROUNDS:-5}
read -r -a prefix <<<"${PREFIX:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The clepsilon-bench of build @1: tests/bench/, or tools/ in an older tree.
bench_of() {
  if [ -x "$1/tests/bench/clepsilon-bench" ]; then
    echo "$1/tests/bench/clepsilon-bench"
  else
    echo "$1/tools/clepsilon-bench"
  fi
}

# One run of @1's build; prints "ELEMENT_MS KERNEL_MS".
run() {
  local build=$1 log=$tmp/log
  mkdir -p -m 700 "$tmp/cache-$2"
  GST_PLUGIN_PATH_1_0="$PWD/$build/gst" GST_PLUGIN_PATH="$PWD/$build/gst" \
    GST_REGISTRY_1_0="$tmp/registry-$2" GST_CL_CACHE_DIR="$tmp/cache-$2" \
    "${prefix[@]}" "$(bench_of "$build")" --no-smooth "${@:3}" >"$log" 2>&1 || {
    cat "$log" >&2
    return 1
  }
  if [ -n "${LOGDIR:-}" ]; then
    mkdir -p "$LOGDIR"
    cp "$log" "$LOGDIR/${LABEL:-run}-$2-$i.log"
  fi
  awk '/^clepsilon / && !/device:/ && !e {
        for (i = 2; i < NF; i++) if ($i == "pool" || $i == "system") { e = $(i + 1); break } }
      /per frame: kernels/ && !k { k = $4 }
      END { print e, k }' "$log"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$tmp/old" && : >"$tmp/new"
for ((i = 1; i <= rounds; i++)); do
  # ABBA: the build that runs second in a round was measured slower by a few
  # per cent on PoCL whichever it was, so each goes first every other round
  if ((i % 2)); then
    o=$(run "$old" old "$@")
    n=$(run "$new" new "$@")
  else
    n=$(run "$new" new "$@")
    o=$(run "$old" old "$@")
  fi
  echo "round $i: old $o   new $n   (element ms, kernel ms)"
  echo "$o" >>"$tmp/old"
  echo "$n" >>"$tmp/new"
done
oe=$(cut -d' ' -f1 "$tmp/old" | median)
ok=$(cut -d' ' -f2 "$tmp/old" | median)
ne=$(cut -d' ' -f1 "$tmp/new" | median)
nk=$(cut -d' ' -f2 "$tmp/new" | median)
awk -v l="${LABEL:-}" -v oe="$oe" -v ok="$ok" -v ne="$ne" -v nk="$nk" 'BEGIN {
  printf "%s median ms/frame: old %.3f (kernel %.3f), new %.3f (kernel %.3f), old/new %.2fx\n",
      l, oe, ok, ne, nk, oe / ne }'
