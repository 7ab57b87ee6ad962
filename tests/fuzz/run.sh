#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds (tests/fuzz/build.sh) and runs the libFuzzer targets, each for a
# bounded time, starting from the corpus in tests/fuzz/corpus (clepsilon)
# and tests/fuzz/corpus-codinginfo (the coded-picture parsers). New inputs go
# to a scratch folder, never into the repository; a crashing input is written to
# BUILDDIR/fuzz/ and the script fails.
#
#   tests/fuzz/run.sh [SECONDS] [BUILDDIR] [--plugin-coverage]
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-30}
build=${2:-$top/build}
extra=()
for a in "$@"; do [ "$a" = "--plugin-coverage" ] && extra=(--plugin-coverage); done
[ "$build" = "--plugin-coverage" ] && build=$top/build
target=$("$top/tests/fuzz/build.sh" "$build" "${extra[@]}" | tail -1)
build=$(cd "$build" && pwd)

plugins=$build/gst
[ ${#extra[@]} -gt 0 ] && plugins=$build-fuzz/gst
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$top"/tests/fuzz/corpus/* "$work"/

# PoCL and LLVM keep memory for the process's life: leaks are checked with
# the leaks tracer and valgrind instead. The plugin may not be built with
# ASan, so the registry is scanned in this process (no plugin scanner).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export GST_PLUGIN_SYSTEM_PATH_1_0=""
export GST_PLUGIN_PATH_1_0=$plugins
export GST_REGISTRY_1_0=$build/fuzz/registry.bin
export GST_REGISTRY_FORK=no
export GST_CL_CACHE_DIR=${GST_CL_CACHE_DIR:-$build/fuzz/clcache}
cd "$build/fuzz"
"$target" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
  -max_len=1024 -print_final_stats=1 -artifact_prefix="$build/fuzz/" \
  "$work" 2>&1 |
  grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" || status=${PIPESTATUS[0]}

# The coded-picture parsers' target, as long, from its own corpus.
mkdir "$work/codinginfo"
cp "$top"/tests/fuzz/corpus-codinginfo/* "$work/codinginfo"/
"$build/fuzz/codinginfo-fuzz" -max_total_time="$seconds" -timeout=30 \
  -rss_limit_mb=4096 -max_len=1024 -print_final_stats=1 \
  -artifact_prefix="$build/fuzz/codinginfo-" "$work/codinginfo" 2>&1 |
  grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" ||
  { s=${PIPESTATUS[0]}; [ "$s" -eq 0 ] || status=$s; }
exit "${status:-0}"
