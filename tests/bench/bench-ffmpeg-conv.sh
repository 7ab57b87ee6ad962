#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# 5x5 and 3x3 convolution of 8-bit luma: clepsilon (kernel=..., epsilon stage
# off) against FFmpeg's CPU `convolution` filter, on the same frames in the
# same run.
#
# For each matrix (a non-separable 5x5 sharpen, a separable 5x5 binomial
# gaussian, and a 3x3 box, which FFmpeg runs in its x86 SIMD code),
# clepsilon-bench makes its ring of GRAY8 frames, times identity and
# clepsilon on them and writes the frames (--dump-input) and clepsilon's
# outputs (--dump-output) to files; FFmpeg then reads those frames as rawvideo
# gray, looped, once with `-vf null` and once with `-vf convolution=...`, each
# RUNS times in turn under -benchmark. FFmpeg's time per frame is the median
# `rtime` of the convolution runs over the frames, and its net cost the median
# of the convolution runs minus the median of the null runs (reading and
# passing the frames). Last, FFmpeg filters the ring once to a file and the
# outputs are compared sample by sample with clepsilon's.
#
# Usage: tests/bench/bench-ffmpeg-conv.sh [OUTDIR]   (default out/bench;
# paths are relative to the repository's root, where the script runs)
# Environment: BENCH (clepsilon-bench, default
#   build/tests/bench/clepsilon-bench), GST_PLUGIN_PATH (default build/gst),
#   WIDTH, HEIGHT (1920x1080), FRAMES (clepsilon frames per batch, 30),
#   REPEAT (clepsilon batches, 5), RUNS (FFmpeg runs of each kind, 5),
#   LOOPS (FFmpeg reads the 8-frame ring LOOPS times, 8), DEVICE (clepsilon's
#   device, default auto), CSV (file the rows are appended to, default
#   OUTDIR/bench.csv), PYTHON (a python3 with numpy, default /usr/bin/python3),
#   EXTRA (more clepsilon contenders, '|' between them, each on top of the
#   kernel: EXTRA="convolution-variant=plain|convolution-variant=separable").
# Without ffmpeg on the PATH, only clepsilon is timed (with a message).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
out=${1:-out/bench}
mkdir -p "$out"
bench=${BENCH:-build/tests/bench/clepsilon-bench}
width=${WIDTH:-1920}
height=${HEIGHT:-1080}
frames=${FRAMES:-30}
repeat=${REPEAT:-5}
runs=${RUNS:-5}
loops=${LOOPS:-8}
ring=8
csv=${CSV:-$out/bench.csv}
py=${PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-build/gst}
device=${DEVICE:+device=$DEVICE }

# name | rows for clepsilon (';' between rows) ; FFmpeg takes the same 25
# numbers in the same order (both correlate: the matrix is not flipped).
matrices=(
  "sharpen5|0 0 -1 0 0; 0 -1 -2 -1 0; -1 -2 17 -2 -1; 0 -1 -2 -1 0; 0 0 -1 0 0"
  "gauss5|1 4 6 4 1; 4 16 24 16 4; 6 24 36 24 6; 4 16 24 16 4; 1 4 6 4 1"
  "box3|1 1 1; 1 1 1; 1 1 1"
)

extra=()
if [ -n "${EXTRA:-}" ]; then
  IFS='|' read -r -a list <<<"$EXTRA"
  for e in "${list[@]}"; do extra+=(--extra="$e"); done
fi

have_ffmpeg=1
command -v ffmpeg >/dev/null || {
  have_ffmpeg=0
  echo "ffmpeg not found (apt-get install ffmpeg): FFmpeg is skipped" >&2
}

# Prints FFmpeg's rtime in seconds for one run on the ring, filter $1.
ff_rtime() {
  ffmpeg -nostdin -hide_banner -benchmark -f rawvideo -pix_fmt gray \
    -video_size "${width}x${height}" -framerate 25 \
    -stream_loop $((loops - 1)) -i "$out/conv-in.gray" -vf "$1" -f null - 2>&1 |
    sed -n 's/.*bench:.*rtime=\([0-9.]*\)s.*/\1/p' | tail -n 1
}

# per_frame FRAMES SECONDS...: median, min and max of the runs, in ms per frame.
per_frame() {
  local n=$1
  shift
  printf '%s\n' "$@" | sort -g | awk -v n="$n" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.4f %.4f %.4f\n", m * 1e3 / n, v[1] * 1e3 / n, v[NR] * 1e3 / n }'
}

# Prints a command as one could paste it: arguments with spaces or quotes in
# single quotes (none of ours holds a single quote).
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

csvq() { printf '"%s"' "${1//\"/\"\"}"; }

for m in "${matrices[@]}"; do
  name=${m%%|*}
  rows=${m#*|}
  coeffs=${rows//;/}
  coeffs=$(echo $coeffs)
  sum=$(echo "$coeffs" | tr ' ' '\n' | awk '{s+=$1} END {print s}')
  side=$(awk -F';' '{ print NF }' <<<"$rows")
  label="conv${side}x${side} $name ${width}x${height}"
  echo "== $label"
  echo "clepsilon kernel=\"$rows\" against FFmpeg's convolution filter"

  cmd=("$bench" --format=GRAY8 --width="$width" --height="$height"
    --frames="$frames" --repeat="$repeat" --ring=$ring --no-smooth
    --clepsilon="${device}threshold=0 kernel=\"$rows\""
    --dump-input="$out/conv-in.gray" --dump-output="$out/conv-cl-$name.gray"
    ${extra[@]+"${extra[@]}"} --csv="$csv" --label="$label")
  show "GST_PLUGIN_PATH=$GST_PLUGIN_PATH" "${cmd[@]}"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  "${cmd[@]}"

  [ $have_ffmpeg -eq 1 ] || continue
  filter="convolution=0m='$coeffs':0rdiv=1/$sum"
  n=$((ring * loops))
  nulls="" convs="" threads=$(nproc)
  ff_rtime null >/dev/null # page cache and start-up, untimed
  for ((i = 0; i < runs; i++)); do
    nulls+=" $(ff_rtime null)"
    convs+=" $(ff_rtime "$filter")"
  done
  if ! [[ "$nulls$convs" =~ ^(\ [0-9.]+)+$ ]]; then
    echo "FFmpeg failed (rtimes:$nulls |$convs); try: ffmpeg -vf \"$filter\" ..." >&2
    continue
  fi
  read -r null_ms null_min null_max < <(per_frame $n $nulls)
  read -r conv_ms conv_min conv_max < <(per_frame $n $convs)
  net_ms=$(awk "BEGIN { printf \"%.4f\", $conv_ms - $null_ms }")
  echo "\$ ffmpeg -nostdin -benchmark -f rawvideo -pix_fmt gray -video_size ${width}x${height} -framerate 25 -stream_loop $((loops - 1)) -i $out/conv-in.gray -vf \"$filter\" -f null -    # and -vf null"
  echo "FFmpeg $(ffmpeg -version | sed -n '1s/ffmpeg version \([^ ]*\).*/\1/p'), default filter threads (one per CPU: $threads), $n frames, median of $runs runs:"
  echo "  null:        $null_ms ms/frame (rtime s:$nulls)"
  echo "  convolution: $conv_ms ms/frame, $net_ms ms/frame net of null (rtime s:$convs)"
  {
    csvq "$label"; printf ',GRAY8,%s,%s,' "$width" "$height"
    csvq "ffmpeg null"; printf ',ffmpeg,'; csvq "-vf null"
    printf ',file,%s,%s,%s,%s,%s,%.3f,,,,,,,,,,,' "$n" "$runs" "$null_ms" "$null_min" "$null_max" \
      "$(awk "BEGIN{print 1e3/$null_ms}")"
    csvq "FFmpeg, $threads threads"; printf ',"ok"\n'
    csvq "$label"; printf ',GRAY8,%s,%s,' "$width" "$height"
    csvq "ffmpeg convolution"; printf ',ffmpeg,'; csvq "-vf $filter"
    printf ',file,%s,%s,%s,%s,%s,%.3f,%s,,,,,,,,,,' "$n" "$runs" "$conv_ms" "$conv_min" "$conv_max" \
      "$(awk "BEGIN{print 1e3/$conv_ms}")" "$net_ms"
    csvq "FFmpeg, $threads threads"; printf ',"ok"\n'
  } >>"$csv"

  # Same outputs? FFmpeg mirrors at the borders, clepsilon replicates.
  ffmpeg -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt gray \
    -video_size "${width}x${height}" -i "$out/conv-in.gray" -vf "$filter" \
    -f rawvideo -pix_fmt gray "$out/conv-ff-$name.gray"
  "$py" -c 'import numpy' 2>/dev/null || {
    echo "  (no numpy for $py: outputs not compared)"
    continue
  }
  "$py" - "$out/conv-cl-$name.gray" "$out/conv-ff-$name.gray" "$width" "$height" <<'PY'
import sys
import numpy as np
a = np.fromfile(sys.argv[1], np.uint8)
b = np.fromfile(sys.argv[2], np.uint8)
w, h = int(sys.argv[3]), int(sys.argv[4])
if a.size != b.size or a.size % (w * h):
    sys.exit("outputs differ in size: %d and %d bytes" % (a.size, b.size))
a = a.reshape(-1, h, w).astype(int)
b = b.reshape(-1, h, w).astype(int)
d = np.abs(a - b)
inner = d[:, 2:-2, 2:-2]
border = d.copy()
border[:, 2:-2, 2:-2] = 0
print("  outputs (%d frames): inside the 2-sample border %d of %d samples differ "
      "(max %d); on the border %d of %d differ (max %d)"
      % (a.shape[0], (inner > 0).sum(), inner.size, inner.max(),
         (border > 0).sum(), d.size - inner.size, border.max()))
PY
done
