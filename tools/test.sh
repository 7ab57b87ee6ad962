#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs what is missing, builds, and runs the whole test suite on the PoCL
# CPU device. Exits non-zero on any failure. With --package, then also builds
# the Debian package, installs it, tests it and removes it (tools/package.sh).
# With --debian13, all that in a Debian 13 ("trixie", GStreamer 1.26) root
# instead of this system: made from the Debian archive the first time (as
# root, with mmdebstrap), reused afterwards, in $CLEPSILON_DEBIAN13_ROOT
# (default ~/.cache/gst-clfilters-roots/trixie); the tree is copied into it.
set -euo pipefail
# After --, the tests to run (meson test's arguments: names, --suite NAME)
# instead of all of them; the closing line counts those (.ci/run).
package=0 debian13=0 tests=()
while [ $# -gt 0 ]; do
  case "$1" in
    --package) package=1 ;;
    --debian13) debian13=1 ;;
    --) shift; tests=("$@"); break ;;
    *) echo "usage: tools/test.sh [--debian13] [--package] [-- TEST...]" >&2; exit 2 ;;
  esac
  shift
done
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $debian13 -eq 1 ]; then
  root=${CLEPSILON_DEBIAN13_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/gst-clfilters-roots/trixie}
  source "$top/scripts/debian-root.sh"
  root_lock "$root"
  debian_root "$root" trixie
  copy_tree "$top" "$root/root/gst-clfilters"
  args=()
  [ $package -eq 0 ] || args+=(--package)
  [ ${#tests[@]} -eq 0 ] || args+=(-- "${tests[@]}")
  # package.sh copies the tree as git lists it: the copy gets an index.
  status=0
  in_root "$root" bash -c 'cd /root/gst-clfilters && git init -q && git add -A &&
    exec bash tools/test.sh "$@"' test.sh "${args[@]}" || status=$?
  exit $status
fi
source "$top/tools/setup.sh"
cd "$top"
# The real-client matrix (tests/check/elements/clepsilonclients.c) feeds the
# output to elements of these too: uritranscodebin, x264enc, avdec_h264.
install_packages gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly \
  gstreamer1.0-libav
# GNU indent, for GStreamer's C style (scripts/check-indent).
install_packages indent
# docs/deploy.md's checks: its Kubernetes manifest (yamllint,
# scripts/check-job.py) and its GNU parallel recipe.
install_packages yamllint python3-kubernetes parallel

status=0
meson test -C build --print-errorlogs "${tests[@]}" || status=$?

# The commands of README.md and docs/ that take seconds, as a user runs them
# (scripts/check-docs.py --slow --system runs the rest); counted as one test
# in the closing line.
docs=0
python3 "$top/scripts/check-docs.py" || { status=1; docs=1; }

# The C files of gst/ and tests/ in GStreamer's style (scripts/gst-indent);
# counted as one test in the closing line, skipped (77) where GNU indent is
# not the version that defines the style (Debian 13's).
style=0
bash "$top/scripts/check-indent" || style=$?
[ $style -eq 0 ] || [ $style -eq 77 ] || status=1

# One closing line that any CI reads: "N passed, N failed".
python3 - build/meson-logs/testlog.json "$docs" "$style" <<'PY'
import json, re, sys
passed = failed = skipped = 0
# scripts/check-docs.py and scripts/check-indent: 0 passed, 77 skipped,
# else failed
for check in sys.argv[2:4]:
    if int(check) == 77:
        skipped += 1
    elif int(check):
        failed += 1
    else:
        passed += 1
for line in open(sys.argv[1]):
    t = json.loads(line)
    # gst-check prints "100%: Checks: N, Failures: F, Errors: E" per file.
    m = re.search(r"Checks: (\d+), Failures: (\d+), Errors: (\d+)", t.get("stdout") or "")
    if m and t["result"] != "SKIP":
        bad = int(m.group(2)) + int(m.group(3))
        passed += int(m.group(1)) - bad
        failed += bad + (1 if t["result"] not in ("OK", "EXPECTEDFAIL") and bad == 0 else 0)
    elif t["result"] in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif t["result"] == "SKIP":
        skipped += 1
    else:
        failed += 1
print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
PY

if [ $package -eq 1 ]; then
  bash "$top/tools/package.sh" || status=1
fi
exit $status
