#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds the libFuzzer targets tests/fuzz/clepsilon_fuzz.c and
# tests/fuzz/codinginfo_fuzz.c (BUILDDIR/fuzz/codinginfo-fuzz) with clang.
#
#   tests/fuzz/build.sh [BUILDDIR] [--plugin-coverage]
#
# BUILDDIR (default ./build) holds the plugin the target loads; the target is
# written to BUILDDIR/fuzz/clepsilon-fuzz. The target carries libFuzzer, ASan
# and UBSan; the plugin is the one of BUILDDIR, so libFuzzer sees coverage of
# the target, the kernel parser and the reference only. With
# --plugin-coverage the plugin is built again, with clang, ASan, UBSan and
# libFuzzer's coverage, in BUILDDIR-fuzz (a few minutes), and the target
# loads that one: run.sh then sets GST_PLUGIN_PATH to it.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$top/build}
[ "${1:-}" = "--plugin-coverage" ] && build=$top/build
plugin_coverage=0
for a in "$@"; do [ "$a" = "--plugin-coverage" ] && plugin_coverage=1; done
build=$(cd "$build" && pwd)
clang=$(command -v clang || command -v clang-14)

if [ $plugin_coverage = 1 ]; then
  if [ ! -f "$build-fuzz/build.ninja" ]; then
    CC=$clang meson setup "$build-fuzz" "$top" -Db_sanitize=address,undefined \
      -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link >/dev/null
  fi
  ninja -C "$build-fuzz" gst/libgstclfilters.so >/dev/null
fi

mkdir -p "$build/fuzz"
cflags=$(pkg-config --cflags gstreamer-check-1.0 gstreamer-video-1.0 gstreamer-base-1.0 gio-2.0)
# The C reference and the frame helpers are the oracle, not the target: built
# optimised and without instrumentation, they are most of the run time else.
for f in robust reference; do
  # shellcheck disable=SC2086
  "$clang" -O2 -c -DGST_USE_UNSTABLE_API $cflags \
    "$top/tests/check/$f.c" -o "$build/fuzz/$f.o"
done
# shellcheck disable=SC2046,SC2086
"$clang" -g -O1 -fsanitize=fuzzer,address,undefined \
  -DGST_USE_UNSTABLE_API -I"$build" -I"$top/tests/check" -I"$top/gst" \
  -I"$top/kernels" $cflags "$top/tests/fuzz/clepsilon_fuzz.c" "$top/gst/gstclconvkernel.c" \
  "$build/fuzz/robust.o" "$build/fuzz/reference.o" \
  $(pkg-config --libs gstreamer-check-1.0 gstreamer-video-1.0 gstreamer-base-1.0 gio-2.0) -lm \
  -o "$build/fuzz/clepsilon-fuzz"
# The coded-picture parsers' target (codinginfo_fuzz.c): the parsers are
# instrumented; libgstcodecparsers, which reads MPEG-1/2's and H.264's headers, is not
# (valgrind checks it: meson test --setup valgrind fuzz/codinginfo).
# shellcheck disable=SC2046
"$clang" -g -O1 -fsanitize=fuzzer,address,undefined \
  -DGST_USE_UNSTABLE_API -I"$build" -I"$top/gst" \
  $(pkg-config --cflags gstreamer-codecparsers-1.0 gstreamer-base-1.0) \
  "$top/tests/fuzz/codinginfo_fuzz.c" "$top/gst/gstclcodinginfo.c" \
  "$top/gst/gstclcodingh264.c" \
  $(pkg-config --libs gstreamer-codecparsers-1.0 gstreamer-base-1.0) \
  -o "$build/fuzz/codinginfo-fuzz"
echo "$build/fuzz/clepsilon-fuzz"
