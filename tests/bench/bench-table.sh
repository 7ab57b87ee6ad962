#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs the benchmark cases of docs/benchmarks.md with clepsilon-bench (and
# tests/bench/bench-ffmpeg-conv.sh), then writes their tables, plots
# (docs/img/bench-MACHINE-*.png) and exact commands into the MACHINE section
# of docs/benchmarks.md, between its "<!-- bench:MACHINE:begin/end -->" lines.
# Logs and the CSV stay in out/bench/MACHINE/.
#
# Usage: bash tests/bench/bench-table.sh        (as root, or with sudo, for apt)
# Environment:
#   MACHINE   the section and plot names: pocl (default), h100, any word
#   CASES     cases to run (default "i420 random nv12 720p 4k conv")
#   DEVICE    clepsilon's device property (default: its own choice, auto)
#   FRAMES, REPEAT                 clepsilon frames per batch, batches (30, 5)
#   SMOOTH_FRAMES, SMOOTH_REPEAT   the same for smooth (3, 3)
#   EXTRA     more clepsilon contenders for the epsilon cases, '|' between
#             them, each on top of the case's properties (default: each
#             epsilon-variant forced in turn; EXTRA="" for none)
#   CONV_EXTRA  the same for the convolution cases (default: each
#             convolution-variant forced in turn)
#   DOC, IMG  the Markdown file and the plot folder (docs/benchmarks.md, docs/img)
#   TREE      what the report calls the source tree (default: git describe;
#             set it where the tree travels without .git)
#   SETUP=0   install nothing and build nothing (a machine without network,
#             with the build carried); smooth and FFmpeg are then used if
#             present and skipped with a message if not
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"

machine=${MACHINE:-pocl}
cases=${CASES:-i420 3x3 random nv12 720p 4k conv}
frames=${FRAMES:-30}
repeat=${REPEAT:-5}
out=out/bench/$machine
csv=$out/bench.csv
bench=build/tests/bench/clepsilon-bench
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-build/gst}

if [ "${SETUP:-1}" != 0 ]; then
  source tools/setup.sh
  cd "$top"
  # Contenders and plotting: optional, the benchmark runs without them.
  optional=(gstreamer1.0-plugins-bad ffmpeg python3-matplotlib python3-numpy)
  install_packages "${optional[@]}" ||
    echo "warning: could not install ${optional[*]}; going on without" >&2
fi
[ -x "$bench" ] || {
  echo "$bench is missing: build first (meson setup build && ninja -C build)" >&2
  exit 1
}

# A python3 with matplotlib (Debian's, where pyenv or a venv shadows it).
py=""
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import matplotlib, numpy' 2>/dev/null; then
    py=$p
    break
  fi
done
[ -n "$py" ] || echo "no python3 with matplotlib and numpy: tables only, no plots" >&2

rm -rf "$out"
mkdir -p "$out"

# A property this build lacks is reported and its contender skipped.
default_extra="epsilon-variant=plain|epsilon-variant=tiled|epsilon-variant=vector"
default_conv_extra="convolution-variant=plain|convolution-variant=tiled|convolution-variant=vector|convolution-variant=separable"
EXTRA=${EXTRA-$default_extra}
CONV_EXTRA=${CONV_EXTRA-$default_conv_extra}
extra=()
if [ -n "$EXTRA" ]; then
  IFS='|' read -r -a list <<<"$EXTRA"
  for e in "${list[@]}"; do extra+=(--extra="$e"); done
fi
device=${DEVICE:+device=$DEVICE }
eps="${device}threshold=20 window-size=9"

# Prints a command as one could paste it (arguments with spaces, quotes or
# semicolons in single quotes; none of ours holds a single quote).
show() {
  local a line='$'
  for a in "$@"; do
    case $a in
    --*=*[\ \"\;]*) line+=" ${a%%=*}='${a#*=}'" ;;
    *[\ \"\;]*) line+=" '$a'" ;;
    *) line+=" $a" ;;
    esac
  done
  echo "$line"
}

# What ran where, for the report: one line at the top of every case's log.
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1 || true)
os=$( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || uname -sr)
gst=$(gst-launch-1.0 --gst-version 2>/dev/null | sed -n '1s/.*version //p' || true)
ff=$(ffmpeg -version 2>/dev/null | sed -n '1s/ffmpeg version \([^ ]*\).*/FFmpeg \1/p' || true)
tree=${TREE:-$(git describe --always --dirty 2>/dev/null || echo "unknown (set TREE)")}
settings="MACHINE=$machine FRAMES=$frames REPEAT=$repeat${DEVICE:+ DEVICE=$DEVICE}"
[ "$cases" = "i420 3x3 random nv12 720p 4k conv" ] || settings+=" CASES=\"$cases\""
[ "$EXTRA" = "$default_extra" ] || settings+=" EXTRA=\"$EXTRA\""
[ "$CONV_EXTRA" = "$default_conv_extra" ] || settings+=" CONV_EXTRA=\"$CONV_EXTRA\""
machine_line="machine: $(date '+%Y-%m-%d %H:%M'); ${cpu:-unknown CPU}, $(nproc) CPUs, $os; GStreamer ${gst:-?}; ${ff:-no FFmpeg}; tree $tree; run as: $settings bash tests/bench/bench-table.sh"

failed=0
# run_case ID LABEL ARGS...: one clepsilon-bench run, its log in $out/ID.txt.
run_case() {
  local id=$1 label=$2
  shift 2
  local cmd=("$bench" "$@" --frames="$frames" --repeat="$repeat"
    --smooth-frames="${SMOOTH_FRAMES:-3}" --smooth-repeat="${SMOOTH_REPEAT:-3}"
    ${extra[@]+"${extra[@]}"} --csv="$csv" --label="$label")
  { echo "$machine_line"; echo "== $label"
    show "GST_PLUGIN_PATH=$GST_PLUGIN_PATH" "${cmd[@]}"
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    "${cmd[@]}"; } 2>&1 |
    tee "$out/$id.txt" || {
    echo "case $id failed (see $out/$id.txt)" >&2
    failed=1
  }
}

for c in $cases; do
  case $c in
  i420)
    run_case i420 "1080p I420, 9x9 epsilon, threshold 20" \
      --format=I420 --width=1920 --height=1080 --clepsilon="$eps" \
      --smooth="filter-size=4 tolerance=21" --smooth="filter-size=9 tolerance=20"
    ;;
  3x3)
    # The element's defaults (3x3, threshold 10); smooth has no 3x3 window.
    run_case 3x3 "1080p I420, 3x3 epsilon, threshold 10 (defaults)" \
      --format=I420 --width=1920 --height=1080 \
      --clepsilon="${device}threshold=10 window-size=3" --no-smooth
    ;;
  random)
    run_case random "1080p I420, 9x9 epsilon, threshold 20, random frames" \
      --format=I420 --width=1920 --height=1080 --pattern=random \
      --clepsilon="$eps" --smooth="filter-size=4 tolerance=21"
    ;;
  nv12)
    run_case nv12 "1080p NV12, 9x9 epsilon, threshold 20" \
      --format=NV12 --width=1920 --height=1080 --clepsilon="$eps" --no-smooth
    ;;
  720p)
    run_case 720p "720p I420, 9x9 epsilon, threshold 20" \
      --format=I420 --width=1280 --height=720 --clepsilon="$eps" \
      --smooth="filter-size=4 tolerance=21"
    ;;
  4k)
    run_case 4k "2160p NV12, 9x9 epsilon, threshold 20" \
      --format=NV12 --width=3840 --height=2160 --clepsilon="$eps" --no-smooth
    ;;
  conv)
    { echo "$machine_line"; CSV=$csv BENCH=$bench FRAMES=$frames REPEAT=$repeat EXTRA=$CONV_EXTRA \
      PYTHON=${py:-python3} bash tests/bench/bench-ffmpeg-conv.sh "$out"; } 2>&1 |
      tee "$out/conv.txt" || {
      echo "case conv failed (see $out/conv.txt)" >&2
      failed=1
    }
    ;;
  *)
    echo "unknown case '$c' (i420 3x3 random nv12 720p 4k conv)" >&2
    failed=1
    ;;
  esac
done

if [ -n "$py" ]; then
  "$py" tests/bench/bench-report.py --machine "$machine" --csv "$csv" --logs "$out" \
    --doc "${DOC:-docs/benchmarks.md}" --img "${IMG:-docs/img}"
else
  python3 tests/bench/bench-report.py --machine "$machine" --csv "$csv" \
    --logs "$out" --doc "${DOC:-docs/benchmarks.md}" --img "${IMG:-docs/img}" --no-plots
fi
exit $failed
