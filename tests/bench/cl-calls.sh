#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The OpenCL calls clepsilon makes a frame, by function, once started: a
# pipeline whose "%N" is a frame count runs with N = FEW and N = MANY under
# libclfault's trace (tests/clfault), and each function's count is the
# difference over MANY - FEW frames, so that start-up (context, programs,
# pools) drops out. A driver that takes a process-wide lock for its calls
# makes this the cost that chains of one process share (docs/benchmarks.md).
# Usage, from the tree's root after a build:
#   bash tests/bench/cl-calls.sh [PIPELINE]
# Default PIPELINE: 1080p NV12 from videotestsrc (pattern=ball, so that every
# frame changes) through clepsilon strength=auto. Environment: FEW (10),
# MANY (40), CLFAULT (libclfault.so, default build/tests/libclfault.so),
# GST_PLUGIN_PATH (build/gst by default).
set -euo pipefail -f   # -f: the pipeline's words are no file patterns
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$top/build/gst}
lib=${CLFAULT:-$top/build/tests/libclfault.so}
few=${FEW:-10} many=${MANY:-40}
pipeline=${1:-"videotestsrc num-buffers=%N pattern=ball ! video/x-raw,format=NV12,width=1920,height=1080 ! clepsilon strength=auto ! fakesink"}
[ -f "$lib" ] || { echo "$0: no $lib (build the tree first)" >&2; exit 2; }
[ "$many" -gt "$few" ] || { echo "$0: MANY must exceed FEW" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a first run fills the program cache, whose builds and tuning would else
# fall on FEW's count alone
for n in warm "$few" "$many"; do
  [ "$n" = warm ] && { gst-launch-1.0 -q ${pipeline//%N/$few} > /dev/null 2>&1 || true; continue; }
  # shellcheck disable=SC2086 # the pipeline is split into gst-launch's words
  CLFAULT_TRACE=1 LD_PRELOAD=$lib gst-launch-1.0 -q ${pipeline//%N/$n} \
    > /dev/null 2> "$tmp/trace-$n" || { echo "$0: the pipeline failed:" >&2; grep -v '^clfault' "$tmp/trace-$n" | head -5 >&2; exit 1; }
  awk '$1 == "clfault:" && $2 == "call" {n[$4]++} END {for (f in n) print f, n[f]}' \
    "$tmp/trace-$n" | sort > "$tmp/count-$n"
done
echo "OpenCL calls a frame, over frames $((few + 1)) to $many of: $pipeline"
join -a 1 -a 2 -e 0 -o 0,1.2,2.2 "$tmp/count-$few" "$tmp/count-$many" |
  awk -v d=$((many - few)) '{c = ($3 - $2) / d; t += c; if (c >= 0.05) printf "%8.2f %s\n", c, $1}
    END {printf "%8.2f in all\n", t}' | sort -rn
