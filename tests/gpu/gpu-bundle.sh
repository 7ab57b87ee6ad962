#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Packs what the GPU machine needs to run this build's test suites and
# programs there (it has no meson nor compiler): writes into the runtime
# folder $CLEPSILON_GPU_RUNTIME (README.md)
#   build/     the plugin and every program of ./build/tests, without
#              object files, registries or kernel caches;
#   suites.sh  every test of `meson test`, its command and environment as
#              meson runs it, with this tree's paths made relative to the
#              tree's root there and the runtime folder, the libraries of
#              the machine's LD_LIBRARY_PATH kept, and the OpenCL device
#              $CLEPSILON_TEST_DEVICE (default nvidia); run there from the
#              tree's root as
#                bash "$CLEPSILON_GPU_RUNTIME/suites.sh" [REGEX]
#              (the tests whose names REGEX matches, default all),
#              with the folder's gst-env.sh sourced where no GStreamer
#              is installed; it prints one line per test and a closing
#              count;
#   old/       with OLD=DIR (a build folder of another tree, e.g.
#              build-old/src/build), that build's plugin and
#              clepsilon-bench, for tests/bench/bench-cases.sh there.
# Usage: CLEPSILON_GPU_RUNTIME=DIR [OLD=build-old/src/build] \
#          bash tests/gpu/gpu-bundle.sh
set -euo pipefail
rt=${CLEPSILON_GPU_RUNTIME:?"set it to the GPU machine's runtime folder (tests/gpu/README.md)"}
mkdir -p "$rt"
rt=$(cd "$rt" && pwd)
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
rm -rf "$rt/build" "$rt/old"
mkdir -p "$rt/build/gst"
cp build/gst/*.so "$rt/build/gst/"
tar -C build -cf - --exclude='*.p' --exclude='*.registry' --exclude=clcache \
  tests | tar -C "$rt/build" -xf -
if [ -n "${OLD:-}" ]; then
  mkdir -p "$rt/old/gst"
  cp "$OLD"/gst/*.so "$rt/old/gst/"
  # tests/bench/, or tools/ in an older tree
  for b in tests/bench/clepsilon-bench tools/clepsilon-bench; do
    if [ -x "$OLD/$b" ]; then
      mkdir -p "$rt/old/${b%/*}"
      cp "$OLD/$b" "$rt/old/$b"
      break
    fi
  done
fi
meson introspect --tests build | python3 -c '
import json, shlex, sys
top = sys.argv[1]
def here(s):
    # this tree -> the tree ($TOP) and the runtime folder ($RT) on the
    # other machine; meson also writes "<build>/../tests/..." for sources
    return (s.replace(top + "/build/../", "$TOP/")
             .replace(top + "/build", "$RT/build")
             .replace(top, "$TOP"))
print("#!/usr/bin/env bash")
print("# Written by tests/gpu/gpu-bundle.sh: every test of meson test, as meson runs it.")
print("# Run from the root of the tree; the build and the logs are beside this file.")
print("TOP=$PWD RT=$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)")
print("# where no GStreamer is installed (the GPU machine), the one of the runtime folder")
print("command -v gst-inspect-1.0 > /dev/null || source \"$RT/gst-env.sh\" > /dev/null 2>&1")
print("pass=0 fail=0 only=${1:-} dev=${CLEPSILON_TEST_DEVICE:-nvidia}")
print("run() { local name=$1 limit=$2; shift 2")
print("  [[ $name =~ $only ]] || return 0")
print("  local t0=$SECONDS log=$RT/logs/${name//\\//_}.log")
print("  mkdir -p $RT/logs")
print("  local rc=0; timeout $limit env \"$@\" > $log 2>&1 || rc=$?")
print("  if [ $rc = 0 ]; then pass=$((pass+1)); r=OK; else fail=$((fail+1)); r=\"FAIL rc=$rc\"; fi")
print("  printf \"%-45s %-10s %4ds %s\\n\" $name \"$r\" $((SECONDS-t0)) \"$(grep -ao \"Checks: [0-9]*, Failures: [0-9]*, Errors: [0-9]*\" $log | tail -1)\"; }")
for t in json.load(sys.stdin):
    env = dict(t["env"])
    env["CLEPSILON_TEST_DEVICE"] = "${dev}"
    if "LD_LIBRARY_PATH" in env:
        env["LD_LIBRARY_PATH"] += ":${LD_LIBRARY_PATH:-}"
    words = ["%s=%s" % (k, here(v)) for k, v in env.items()]
    words += [here(c) for c in t["cmd"]]
    # double quotes: $TOP, $RT, $dev and $LD_LIBRARY_PATH expand there
    print("run %s %d %s" % (t["name"], t["timeout"],
          " ".join("\"%s\"" % w.replace("\"", "\\\"") for w in words)))
print("echo \"$pass passed, $fail failed\"")
' "$top" > "$rt/suites.sh"
du -sh "$rt"
