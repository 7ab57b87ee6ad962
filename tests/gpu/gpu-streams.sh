#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Many streams on one GPU host (docs/benchmarks.md): the aggregate frame rate
# of N decode chains at once, the decoders alone and with clepsilon, as N
# separate processes ("procs"), as N chains of one process ("chains"), and
# as a process a GPU with that GPU's chains ("gpuprocs", with GPUS), and
# as one process whose chains of each GPU are in a bin of their own
# ("gpubins": each bin keeps its GPU's contexts; for the decoders alone,
# which in one bin are handed another GPU's CUDA context and make their
# own, where the element's answer, gstclcudashare.c, spares that),
# through CUDA memory and through system memory. Run on the GPU machine from
# the tree's root, with the runtime folder $CLEPSILON_GPU_RUNTIME
# (README.md; its clips/ from gpu-cuda-clips.sh):
#   bash tests/gpu/gpu-streams.sh
# Settings (environment): CLIPS (1080 4k), NS (1 2 4 8 16), MODES (procs
# chains; also gpuprocs, gpubins), ROUNDS (3; the median is kept; with
# REPLAY=1 a configuration's rounds are played by the same processes, each
# after a flushing seek back to the start and the barrier, so that their
# set-up, seconds a process, is paid once: the rounds of a configuration
# then follow each other instead of alternating with the others', the
# host waits and GPU times below are over all its rounds, and the chains of
# one process start together as with SYNC_START=1), FILTERS (medium auto;
# kernel:LOOPS puts in the element's place a stand-in that runs a kernel
# of LOOPS rounds a frame in the decoder's CUDA context and needs no OpenCL,
# cuda-stand-in.h: on the cuda path only, and in MODES=procs ("-" in the
# others);
# its time on the GPU a frame is printed after the table), PATHS
# (cuda sys; cudasys: CUDA memory in, system memory out, against the
# decoders alone into CUDA memory: those of the cuda path where PATHS has
# both), BUILDS (build; "build old" adds the columns of the plugin in
# the runtime folder's old/, of gpu-bundle.sh's OLD=, run alternately),
# MPS=1 to run under NVIDIA MPS (its control daemon started and stopped
# here), GPUS (1): stream K decoded on GPU (K-1) mod GPUS, by that GPU's
# decoder (nvmpeg2videodec, nvmpeg2videodevice1dec, ...), with clepsilon
# device=nvidia, which takes the decoder's GPU; CHECK=1 adds, per clip, filter and path, the md5 of each of
# CHECK_N (4) chains run at once, in each of MODES procs and chains (N
# processes, N chains of one process), against the same chain run alone,
# and for strength=auto the threshold each ended with against the chain
# alone's (NS=" " runs that check alone), CHECK_ROUNDS (1) times over (a
# difference between runs may show in one run of many); PROPS, more properties of each clepsilon
# (e.g. PROPS=frames-in-flight=8); UTIL=1 adds, per clip, mode, N and
# setting, how busy the GPU's kernels and its decoders were (nvidia-smi's
# utilization.gpu and utilization.decoder while decoding, all rounds);
# GST_CL_CUDA_COMMAND_TIMES=1 adds, per clip, mode, N and setting, each
# command's time on the GPU in the element's frames and how many a chain
# ran (gstclcudaexec-private.h; its GST_DEBUG=clcuda:4 lines, means over
# the chains of the last round; its events slow the GPU a little, so
# compare such runs with each other);
# QUEUE=1 puts a queue after each decoder
# (the decoders alone too), so that the element's waits on the device run
# in a thread of their own.
# Prints one row per clip, mode and N: frames a second of the decoders
# alone, then with each filter as a share of that, on each memory path; then
# the element's host waits (ms a frame, by cause, mean over the chains of
# the last round). Separate processes (procs, gpuprocs) preroll, then play
# together once all have (cl-cuda-seek.c's barrier); SYNC_START=1 starts
# the chains of one process so too, after its preroll (otherwise their time
# runs from the first frame of any chain, set-up included), for comparisons
# with gpuprocs, which with GPUS=1 is one process as chains. A process that
# started late or alone, or one without EOS, is named on stderr (its log
# says "barrier: late"). Logs in $OUT (default
# /tmp/out/streams; an earlier run's are removed first).
set -uo pipefail
rt=${CLEPSILON_GPU_RUNTIME:?"set it to the GPU machine's runtime folder (tests/gpu/README.md)"}
[ -f "$rt/gst-env.sh" ] || { echo "$0: no gst-env.sh in $rt (tests/gpu/README.md)" >&2; exit 2; }
rt=$(cd "$rt" && pwd)
source "$rt/gst-env.sh" >/dev/null 2>&1
export GST_CL_CACHE_DIR=/tmp/clcache
seek=$rt/build/tests/gpu/cl-cuda-seek
out=${OUT:-/tmp/out}/streams
mkdir -p "$out"
rm -rf "$out"/barrier.* "$out"/*-r[0-9]*   # an earlier run's logs and samples
# UTIL=1's samplers end with the script, however it ends
trap 'for p in "$out"/*-util.pid; do [ -e "$p" ] && kill "$(cat "$p")" 2> /dev/null; rm -f "$p"; done' EXIT
unset CL_CUDA_SEEK_BARRIER CL_CUDA_SEEK_KERNEL CL_CUDA_SEEK_ROUNDS
if [ "${GST_CL_CUDA_COMMAND_TIMES:-}" = 1 ]; then
  # first, so that a level the caller gives clcuda wins; into the logs
  export GST_DEBUG=clcuda:4${GST_DEBUG:+,$GST_DEBUG}
  unset GST_DEBUG_FILE
fi
CLIPS=${CLIPS:-1080 4k} NS=${NS:-1 2 4 8 16} MODES=${MODES:-procs chains}
ROUNDS=${ROUNDS:-3} FILTERS=${FILTERS:-medium auto} PATHS=${PATHS:-cuda sys}
# the rounds run as processes, and the logs of the last one
# (and a process's time limit: 300 s a round)
runs=$ROUNDS last=$ROUNDS limit=300
if [ "${REPLAY:-0}" = 1 ]; then
  runs=1 last=1 limit=$((300 * ROUNDS)) SYNC_START=1
  export CL_CUDA_SEEK_ROUNDS=$ROUNDS
fi
BUILDS=${BUILDS:-build} GPUS=${GPUS:-1}
declare -A source=(
  [1080]="filesrc location=$rt/clips/broadcast-1080.m2v ! mpegvideoparse ! nvmpeg2video"
  [4k]="filesrc location=$rt/clips/pan-4k.mp4 ! qtdemux ! h264parse ! nvh264")
# each path's caps before the element, and after it where they differ
declare -A caps=([cuda]="video/x-raw(memory:CUDAMemory)" [sys]="video/x-raw"
  [cudasys]="video/x-raw(memory:CUDAMemory)")
declare -A out_caps=([cuda]="" [sys]="" [cudasys]=" ! video/x-raw")

decoder () { # CLIP K: the source and decoder of stream K (1, 2, ...)
  local gpu=$((($2 + GPUS - 1) % GPUS))
  echo "${source[$1]}$([ $gpu = 0 ] || echo "device$gpu")dec"
}

chain () { # CLIP PATH FILTER K: stream K's decode chain, its sink sinkK
  local f="" q=""
  [ "${QUEUE:-0}" = 1 ] && q=" ! queue"
  case $3 in
    dec | kernel:*) ;;
    *) f="! clepsilon device=nvidia strength=$3${PROPS:+ $PROPS}${out_caps[$2]}" ;;
  esac
  echo "$(decoder "$1" "$4")$q ! ${caps[$2]} $f ! fakesink name=sink$4 sync=false"
}

# The aggregate frames a second of the "frames ... first ... last" lines of
# the files given after ROUND ("" for all; a line ends "round K" with
# REPLAY=1): all frames over the first frame to the last, of any.
aggregate () { # ROUND FILE...
  local round=$1
  shift
  awk -v round="$round" '/^frames/ && $2 > 0 && (round == "" || $NF == round) {
      f += $2; if (!mn || $4 < mn) mn = $4; if ($6 > mx) mx = $6}
    END {printf "%.0f\n", (mx > mn ? f * 1e6 / (mx - mn) : 0)}' "$@"
}

# Every process prerolls, then all play at once when the last is ready
# (cl-cuda-seek.c): a new barrier folder for that many processes.
barrier () { # PROCESSES
  local d
  d=$(mktemp -d "$out/barrier.XXXXXX") || return 1
  export CL_CUDA_SEEK_BARRIER=$d:$1
}

barrier_done () {
  rm -rf "${CL_CUDA_SEEK_BARRIER%:*}"
  unset CL_CUDA_SEEK_BARRIER
}

# Says on stderr which of the logs given came late to the start or did not
# reach EOS: their frames, or the lack of them, are in that cell.
check_logs () {
  local f
  for f in "$@"; do
    grep -q "barrier: late" "$f" && echo "$0: late to the start: $f" >&2
    grep -q "^frames.* EOS yes" "$f" && ! grep -q "^frames.* EOS no" "$f" ||
      echo "$0: no EOS: $f" >&2
    grep -h "^stand-in: [^0-9]" "$f" | sed "s|^|$0: $f: |" >&2
  done
  return 0
}

measure () { # CLIP MODE N PATH FILTER BUILD LOG: prints frames a second
  local b g k p="" loops=""
  export GST_PLUGIN_PATH=$rt/$6/gst GST_REGISTRY=/tmp/gst-registry-$6.bin
  # the stand-in, or none (cl-cuda-seek reads it)
  case $5 in kernel:*) loops=${5#kernel:} ;; esac
  if [ -n "$loops" ]; then export CL_CUDA_SEEK_KERNEL=$loops; else unset CL_CUDA_SEEK_KERNEL; fi
  set -- "$1" "$2" "$3" "$4" "$5" "$7"
  [ "${UTIL:-0}" = 1 ] && sample_start "$6-util"
  if [ "$2" = procs ]; then
    barrier "$3"
    for k in $(seq "$3"); do
      timeout "$limit" "$seek" "$(chain "$1" "$4" "$5" "$k")" 0 > "$6.$k" 2>&1 &
    done
    wait
    barrier_done
  elif [ "$2" = gpuprocs ]; then
    # a process a GPU, each with the chains of its GPU's streams
    barrier $(($3 < GPUS ? $3 : GPUS))
    for g in $(seq 0 $((GPUS - 1))); do
      p=""
      for k in $(seq "$3"); do
        [ $(((k - 1) % GPUS)) = "$g" ] && p="$p $(chain "$1" "$4" "$5" "$k")"
      done
      [ -z "$p" ] || timeout "$limit" "$seek" "$p" 0 > "$6.$((g + 1))" 2>&1 &
    done
    wait
    barrier_done
  else
    [ "${SYNC_START:-0}" = 1 ] && barrier 1
    if [ "$2" = gpubins ]; then
      for g in $(seq 0 $((GPUS - 1))); do
        b=""
        for k in $(seq "$3"); do
          [ $(((k - 1) % GPUS)) = "$g" ] && b="$b $(chain "$1" "$4" "$5" "$k")"
        done
        [ -z "$b" ] || p="$p ( $b )"
      done
    else
      for k in $(seq "$3"); do p="$p $(chain "$1" "$4" "$5" "$k")"; done
    fi
    timeout "$limit" "$seek" "$p" 0 > "$6.1" 2>&1
    [ "${SYNC_START:-0}" = 1 ] && barrier_done
  fi
  [ "${UTIL:-0}" = 1 ] && sample_stop "$6-util"
  check_logs "$6".*
  if [ "${REPLAY:-0}" = 1 ]; then
    for r in $(seq "$ROUNDS"); do aggregate "$r" "$6".*; done
  else
    aggregate "" "$6".*
  fi
}

# UTIL=1: nvidia-smi's utilization.gpu (the share of time some kernel ran)
# and utilization.decoder of each GPU the streams are on, a line per GPU
# every 0.1 s, into FILE while a measure runs; started from a subshell, so
# that measure's `wait` is not for it.
sample_start () { # FILE
  (nvidia-smi -i "$(seq -s, 0 $((GPUS - 1)))" \
    --query-gpu=utilization.gpu,utilization.decoder \
    --format=csv,noheader,nounits -lms 100 > "$1" 2> /dev/null &
    echo $! > "$1.pid")
}

sample_stop () { # FILE
  kill "$(cat "$1.pid")" 2> /dev/null
  rm -f "$1.pid"
}

median () { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# The md5 of the frames of CLIP through PATH and FILTER, N chains at once
# ($out/md5-K, spread over the GPUS: MODE chains, of one process; procs, a
# process each) and one chain alone on the first GPU ($out/md5-0), each
# chain's frames read by md5sum from a named pipe: prints how many equal it
# and how many runs failed (a chain of no frames, or ended by an error,
# equals none); with strength=auto, how many ended with the chain alone's
# threshold in force (the last auto-threshold of each element's stats, in
# the runs' -v logs $out/check-K.log).
check_row () { # CLIP PATH FILTER N MODE
  local k p chains="" pids="" same=0 failed=0 empty alone thresholds
  empty=$(md5sum < /dev/null | cut -c1-32)
  export GST_PLUGIN_PATH=$rt/build/gst GST_REGISTRY=/tmp/gst-registry-build.bin
  rm -f "$out"/check-*.log
  for k in $(seq 0 "$4"); do
    rm -f "$out/pipe-$k" "$out/md5-$k"; mkfifo "$out/pipe-$k"
    # its own open of the pipe, which waits for a writer: under a limit,
    # for a run that ends before its filesink opens it
    timeout 900 md5sum "$out/pipe-$k" | cut -c1-32 > "$out/md5-$k" &
  done
  for k in $(seq "$4"); do
    p="$(decoder "$1" "$k") ! ${caps[$2]} ! clepsilon device=nvidia strength=$3${out_caps[$2]} ! filesink location=$out/pipe-$k"
    if [ "$5" = procs ]; then
      timeout 600 gst-launch-1.0 -v $p > "$out/check-$k.log" 2>&1 &
      pids="$pids $!"
    else
      chains="$chains $p"
    fi
  done
  # (not a bare wait: the md5 of the chain alone waits for its writer)
  if [ "$5" = procs ]; then
    for k in $pids; do wait "$k" || failed=$((failed + 1)); done
  else
    timeout 600 gst-launch-1.0 -v $chains > "$out/check-1.log" 2>&1 || failed=$((failed + 1))
  fi
  timeout 300 gst-launch-1.0 -v $(decoder "$1" 1) ! ${caps[$2]} ! clepsilon \
    device=nvidia strength=$3${out_caps[$2]} ! filesink location=$out/pipe-0 > "$out/check-0.log" 2>&1 ||
    failed=$((failed + 1))
  # a pipe no run opened (one that failed first): a writer of no bytes for
  # its reader, which then ends (opened for both, the open does not wait)
  for k in $(seq 0 "$4"); do exec 3<> "$out/pipe-$k"; exec 3>&-; done
  wait
  for k in $(seq "$4"); do
    [ -s "$out/md5-0" ] && [ "$(cat "$out/md5-0")" != "$empty" ] &&
      cmp -s "$out/md5-0" "$out/md5-$k" && same=$((same + 1))
  done
  echo "md5 $1 $2 $3: $same of $4 $([ "$5" = procs ] && echo processes || echo chains) equal to the chain alone ($(cat "$out/md5-0")); runs failed: $failed"
  [ "$3" = auto ] || return 0
  alone=$(last_thresholds "$out/check-0.log")
  thresholds=$(for k in $(seq "$4"); do [ -e "$out/check-$k.log" ] && last_thresholds "$out/check-$k.log"; done)
  echo "auto-threshold $1 $2 $3: $(printf "%s\n" $thresholds | grep -cx "$alone") of $4 ended with the chain alone's ($alone)"
}

# The last auto-threshold in the stats of each clepsilon of the -v log $1,
# a line each.
last_thresholds () {
  grep -oE 'GstClEpsilon:[a-z0-9_]+: stats = .*auto-threshold=\(uint\)[0-9]+' "$1" |
    sed -E 's/^GstClEpsilon:([a-z0-9_]+): .*auto-threshold=\(uint\)([0-9]+)$/\1 \2/' |
    awk '{last[$1] = $2} END {for (e in last) print last[e]}'
}

echo "card: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l) on the machine, streams over $GPUS""$([ "${QUEUE:-0}" = 1 ] && echo ", a queue after each decoder")"
configs=()
for f in $FILTERS; do
  case $f in
    kernel:*[!0-9]* | kernel:) echo "$0: $f is not kernel:LOOPS" >&2; exit 2 ;;
  esac
done
CHECK_ROUNDS=${CHECK_ROUNDS:-1}
case $CHECK_ROUNDS in
  "" | *[!0-9]* | 0*) echo "$0: CHECK_ROUNDS=$CHECK_ROUNDS is not a count of 1 or more" >&2; exit 2 ;;
esac
for path in $PATHS; do
  # CUDA in, system out is against the decoders alone into CUDA memory: the
  # cuda path's runs where that path is measured too
  [ "$path" = cudasys ] && [[ " $PATHS " = *" cuda "* ]] ||
    configs+=("$path dec build")
  for f in $FILTERS; do
    # the stand-in reads frames in CUDA memory only
    [ "${f%%:*}" = kernel ] && [ "$path" != cuda ] && continue
    for b in $BUILDS; do
      configs+=("$path $f $b")
      [ "${f%%:*}" = kernel ] && break   # needs no plugin: once
    done
  done
done
# warms the registries and the program and tuning caches, before MPS:
# under it the element builds no program and tunes no kernel
# (docs/troubleshooting.md), so there every clip and path
warm_clips=1080 warm_paths=cuda
[ "${MPS:-0}" = 1 ] && warm_clips=$CLIPS warm_paths=$PATHS
for b in $BUILDS; do
  for f in auto $FILTERS; do
    [ "${f%%:*}" = kernel ] && continue
    for clip in $warm_clips; do
      for path in $warm_paths; do
        GST_PLUGIN_PATH=$rt/$b/gst GST_REGISTRY=/tmp/gst-registry-$b.bin CL_CUDA_SEEK_ROUNDS=1 \
          "$seek" "$(chain "$clip" "$path" "$f" 1)" 0 > /dev/null 2>&1
      done
    done
  done
done
if [ "${MPS:-0}" = 1 ]; then
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
  mkdir -p /tmp/mps-pipe /tmp/mps-log
  nvidia-cuda-mps-control -d && echo "NVIDIA MPS: on" || echo "NVIDIA MPS: could not start"
fi
printf "%-5s %-8s %3s" clip mode N
for c in "${configs[@]}"; do c=${c% build}; printf " %14s" "${c// /:}"; done; echo
for clip in $CLIPS; do
  for mode in $MODES; do
    for n in $NS; do
      printf "%-5s %-8s %3d" "$clip" "$mode" "$n"
      declare -A fps=()
      # the rounds alternate over the configurations, so that a slow spell
      # of the machine falls on all of them (with REPLAY=1 one run a
      # configuration plays all its rounds)
      for r in $(seq "$runs"); do
        for c in "${configs[@]}"; do
          set -- $c
          # the stand-in is one a process: not for chains of one process
          [ "${2%%:*}" = kernel ] && [ "$mode" != procs ] && continue
          log=$out/$clip-$mode-$n-$1-$2-$3-r$r
          rm -f "$log".*
          fps[$c]="${fps[$c]:-} $(measure "$clip" "$mode" "$n" "$1" "$2" "$3" "$log")"
        done
      done
      for c in "${configs[@]}"; do
        fps[$c]=$(printf "%s\n" ${fps[$c]:-} | median)
      done
      for c in "${configs[@]}"; do
        set -- $c
        base="$1 dec build"
        [ -n "${fps[$base]+set}" ] || base="cuda dec build"
        if [ -z "${fps[$c]}" ]; then
          printf " %14s" -
        elif [ "$2" = dec ]; then
          printf " %14s" "${fps[$c]}"
        else
          printf " %9s %3d%%" "${fps[$c]}" $((100 * fps[$c] / (fps[$base] > 0 ? fps[$base] : 1)))
        fi
      done
      echo
      unset fps
    done
  done
done
[ -n "${NS// /}" ] &&
  echo "host waits, ms a frame (mean over the chains of the last round$([ "$last" = "$ROUNDS" ] || echo ", its rounds all")): total, then by cause; after "GPU", the element's time on the GPU (device-ms-per-frame)"
for f in "$out"/*-r"$last".*; do
  [ -e "$f" ] || continue
  grep -h '^stats' "$f" | sed "s|^|$(basename "${f%-r*}") |"
done | python3 -c '
import re, sys, collections
rows = collections.defaultdict(list)
for line in sys.stdin:
    name = line.split()[0]
    total = float(re.search(r"host-wait-ms-per-frame=\(double\)([0-9.e-]+)", line).group(1))
    causes = dict((k, float(v)) for k, v in re.findall(r"\\ ([a-z-]+)\\=\\\(double\\\)([0-9.e-]+)", line))
    device = re.search(r"device-ms-per-frame=\(double\)([0-9.e-]+)", line)
    rows[name].append((total, causes, float(device.group(1)) if device else 0))
for name, v in sorted(rows.items()):
    mean = lambda xs: sum(xs) / len(xs)
    causes = {k: mean([c.get(k, 0) for _, c, _ in v]) for k in v[0][1]}
    print("%-28s %6.3f  %s  | GPU %.3f" % (name, mean([t for t, _, _ in v]),
          " ".join("%s %.3f" % (k, x) for k, x in causes.items() if x >= 0.0005),
          mean([d for _, _, d in v])))
' 2>&1
for f in "$out"/*-kernel:*-r"$last".*; do
  [ -e "$f" ] && grep -h '^stand-in: [0-9]' "$f" | sed "s|^|$(basename "${f%-r*}") |"
done | awk '{t[$1] += $3; n[$1]++}
  END {for (k in n) printf "%-30s stand-in %.4f ms a frame on the GPU (mean over the chains of the last round)\n", k, t[k] / n[k]}' | sort
if [ "${GST_CL_CUDA_COMMAND_TIMES:-}" = 1 ]; then
  echo "the element's commands on the GPU: ms each, how many a chain, and when the host enqueued them, ms after the frame's begin (GST_CL_CUDA_COMMAND_TIMES; the last round)"
  for f in "$out"/*-r"$last".*; do
    # (a build before e13c429 says no time enqueued: "-")
    [ -e "$f" ] && sed -nE "s/.*on the GPU, (.*): ([0-9]+) times, ([0-9.]+) ms each(, enqueued ([0-9.]+) ms)?.*/$(basename "${f%-r*}")|\1|\3|\2|\5/p" "$f"
  done | awk -F'|' '{k = $1 " " $2; t[k] += $3; c[k] += $4; q[k] += $5; n[k]++; if ($5 == "") none[k] = 1}
    END {for (k in n) printf "%-44s %.4f %6.0f  enqueued %s\n", k, t[k] / n[k], c[k] / n[k], none[k] ? "-" : sprintf("%.4f", q[k] / n[k])}' | sort
fi
if [ "${UTIL:-0}" = 1 ] && [ -n "${NS// /}" ]; then
  echo "GPU busy and decoders busy, % (nvidia-smi; each GPU's 0.1 s samples while its decoders work, all rounds)"
  for f in "$out"/*-r*-util; do
    [ -e "$f" ] && awk -F', *' -v name="$(basename "${f%-r*}")" \
      '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $2 + 0 > 0 {print name, $1, $2}' "$f"
  done | awk '{g[$1] += $2; d[$1] += $3; n[$1]++}
    END {for (k in n) printf "%-30s gpu %3.0f  decoders %3.0f  (%d samples)\n", k, g[k] / n[k], d[k] / n[k], n[k]}' | sort
fi
if [ "${CHECK:-0}" = 1 ]; then
  for clip in $CLIPS; do
    for path in $PATHS; do
      for f in $FILTERS; do
        [ "${f%%:*}" = kernel ] && continue
        for mode in $MODES; do
          case $mode in procs | chains) ;; *) continue ;; esac
          for r in $(seq "$CHECK_ROUNDS"); do
            [ "$CHECK_ROUNDS" = 1 ] || printf "round %s of %s: " "$r" "$CHECK_ROUNDS"
            check_row "$clip" "$path" "$f" "${CHECK_N:-4}" $mode
          done
        done
      done
    done
  done
fi
if [ "${MPS:-0}" = 1 ]; then echo quit | nvidia-cuda-mps-control; fi
