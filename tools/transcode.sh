#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Transcodes video files through clepsilon, one after the other, as one task
# of a batch (docs/deploy.md): a Kubernetes Job's index, a Slurm array task, a
# GNU parallel job.
#
#   tools/transcode.sh [OPTIONS] FILE...
#   tools/transcode.sh [OPTIONS] --list LIST --index N [--chunk K]
#
# The second form takes lines N*K+1 .. N*K+K of LIST (one input path a line;
# K defaults to 1), so that index N of a batch finds its own files.
#   -o DIR          where the outputs go (default: the current folder)
#   --filter S      clepsilon's settings (default: strength=auto)
#   --encode S      the encoder and muxer (default: x264enc ! matroskamux)
#   --ext E         the outputs' extension (default: mkv)
# Each FILE becomes DIR/<its name without extension>.E: written as
# DIR/.<name>.E.part and renamed once gst-launch-1.0 ended without an error
# and at least one frame went through clepsilon, so that a file of that name
# is always complete; a failed or interrupted run leaves no .part behind. An
# output that exists already is not made again, so that a task run again
# does only what is left. Prints per file one line: "ok", "failed" or
# "exists", the file, and clepsilon's frames and transform-ms-per-frame;
# exits 0 when every file is done, 1 when one failed (the others are still
# made), 2 on a usage error, 143 when terminated.
set -uo pipefail

# usage STATUS: the comment above, then exits with STATUS.
usage() {
  sed -n '/^#   tools/,/^set /p' "$0" | sed -n 's/^# \{0,1\}//p' >&2
  exit "$1"
}
outdir=. filter="strength=auto" encode="x264enc ! matroskamux" ext=mkv
list="" index="" chunk=1 files=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) outdir=${2:?}; shift 2 ;;
    --filter) filter=${2?}; shift 2 ;;
    --encode) encode=${2:?}; shift 2 ;;
    --ext) ext=${2:?}; shift 2 ;;
    --list) list=${2:?}; shift 2 ;;
    --index) index=${2:?}; shift 2 ;;
    --chunk) chunk=${2:?}; shift 2 ;;
    -h | --help) usage 0 ;;
    -*) echo "transcode.sh: unknown option $1" >&2; usage 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
if [ -n "$list" ]; then
  [[ $index =~ ^[0-9]+$ && $chunk =~ ^[1-9][0-9]*$ ]] ||
    { echo "transcode.sh: --list needs --index N (and --chunk K), numbers" >&2; exit 2; }
  mapfile -t files < <(sed -n "$((index * chunk + 1)),$((index * chunk + chunk))p" "$list")
  [ ${#files[@]} -gt 0 ] ||
    { echo "transcode.sh: $list has no line for index $index (chunk $chunk)" >&2; exit 2; }
fi
[ ${#files[@]} -gt 0 ] || usage 2
mkdir -p "$outdir" || exit 2

part="" child=""
# Terminated (a node drained, a job cancelled): no partial output stays.
stop() {
  [ -z "$child" ] || kill -TERM "$child" 2>/dev/null
  [ -z "$part" ] || rm -f "$part"
  exit 143
}
trap stop TERM INT

log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=0
for in in "${files[@]}"; do
  name=$(basename "$in")
  out=$outdir/${name%.*}.$ext
  if [ -e "$out" ]; then
    echo "exists $in -> $out"
    continue
  fi
  part=$outdir/.${name%.*}.$ext.part
  # shellcheck disable=SC2086 # the settings and the encoder are words
  gst-launch-1.0 -v filesrc location="$in" ! decodebin ! videoconvert \
    ! clepsilon $filter ! $encode ! filesink location="$part" >"$log" 2>&1 &
  child=$!
  wait $child
  rc=$?
  child=""
  stats=$(grep -o 'stats = .*' "$log" | tail -n 1)
  frames=$(sed -n 's/.* frames=(guint64)\([0-9]*\).*/\1/p' <<<"$stats")
  ms=$(sed -n 's/.*transform-ms-per-frame=(double)\([0-9.]*\).*/\1/p' <<<"$stats")
  if [ $rc -eq 0 ] && [ "${frames:-0}" -gt 0 ] && mv -f "$part" "$out"; then
    echo "ok $in -> $out frames=$frames transform-ms-per-frame=${ms:-?}"
  else
    rm -f "$part"
    failed=1
    echo "failed $in (gst-launch-1.0 exit $rc, frames=${frames:-0})"
    grep -E '^(ERROR|WARNING)|^Additional debug info' "$log" | head -n 4 | sed 's/^/  /'
  fi
  part=""
done
exit $failed
