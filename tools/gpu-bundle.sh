#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Packs what the GPU machine needs to run this build's test suites and
# tools there (it has no meson nor compiler; ../shared/device/README.md says
# how it is reached): writes BUNDLE (default .devrun) with
#   build/     the plugin, every test program and tool of ./build, without
#              object files, registries or kernel caches;
#   suites.sh  every test of `meson test`, its command and environment as
#              meson runs it, with this tree's paths made relative to the
#              bundle's parent (the tree's root there), the libraries of
#              the machine's LD_LIBRARY_PATH kept, and the OpenCL device
#              $CLEPSILON_TEST_DEVICE (default nvidia); run there as
#                bash .devrun/suites.sh [REGEX]
#              (the tests whose names REGEX matches, default all); it
#              prints one line per test and a closing count;
#   old/       with OLD=DIR (a build folder of another tree, e.g.
#              build-old/src/build), that build's plugin and
#              tools/clepsilon-bench, for tests/bench/bench-cases.sh there.
# Usage: [OLD=build-old/src/build] [BUNDLE=.devrun] tools/gpu-bundle.sh
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
bundle=${BUNDLE:-.devrun}
rm -rf "$bundle/build" "$bundle/old"
mkdir -p "$bundle/build/gst" "$bundle/build/tests" "$bundle/build/tools"
cp build/gst/*.so "$bundle/build/gst/"
for f in build/tests/* build/tools/*; do
  case $f in *.p | *.registry | */clcache) continue ;; esac
  cp -r "$f" "$bundle/${f%/*}/"
done
if [ -n "${OLD:-}" ]; then
  mkdir -p "$bundle/old/gst" "$bundle/old/tools"
  cp "$OLD"/gst/*.so "$bundle/old/gst/"
  cp "$OLD/tools/clepsilon-bench" "$bundle/old/tools/"
fi
meson introspect --tests build | python3 -c '
import json, shlex, sys
top, bundle = sys.argv[1], sys.argv[2]
def here(s):
    # this tree -> the tree on the other machine; meson also writes
    # "<build>/../tests/..." for sources
    return (s.replace(top + "/build/../", "$TOP/")
             .replace(top + "/build", "$TOP/" + bundle + "/build")
             .replace(top, "$TOP"))
print("#!/usr/bin/env bash")
print("# Written by tools/gpu-bundle.sh: every test of meson test, as meson runs it.")
print("TOP=$(cd \"$(dirname \"${BASH_SOURCE[0]}\")/..\" && pwd)")
print("pass=0 fail=0 only=${1:-} dev=${CLEPSILON_TEST_DEVICE:-nvidia}")
print("run() { local name=$1 limit=$2; shift 2")
print("  [[ $name =~ $only ]] || return 0")
print("  local t0=$SECONDS log=$TOP/%s/logs/${name//\\//_}.log" % bundle)
print("  mkdir -p $TOP/%s/logs" % bundle)
print("  if timeout $limit env \"$@\" > $log 2>&1; then pass=$((pass+1)); r=OK; else fail=$((fail+1)); r=\"FAIL rc=$?\"; fi")
print("  printf \"%-45s %-10s %4ds %s\\n\" $name \"$r\" $((SECONDS-t0)) \"$(grep -ao \"Checks: [0-9]*, Failures: [0-9]*, Errors: [0-9]*\" $log | tail -1)\"; }")
for t in json.load(sys.stdin):
    env = dict(t["env"])
    env["CLEPSILON_TEST_DEVICE"] = "${dev}"
    if "LD_LIBRARY_PATH" in env:
        env["LD_LIBRARY_PATH"] += ":${LD_LIBRARY_PATH:-}"
    words = ["%s=%s" % (k, here(v)) for k, v in env.items()]
    words += [here(c) for c in t["cmd"]]
    # double quotes: $TOP, $dev and $LD_LIBRARY_PATH expand there
    print("run %s %d %s" % (t["name"], t["timeout"],
          " ".join("\"%s\"" % w.replace("\"", "\\\"") for w in words)))
print("echo \"$pass passed, $fail failed\"")
' "$top" "$bundle" > "$bundle/suites.sh"
du -sh "$bundle"
