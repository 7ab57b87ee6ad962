#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# NVDEC frames through clepsilon on the GPU machine (docs/memory.md),
# from the tree's root there, with the runtime folder $CLEPSILON_GPU_RUNTIME
# (README.md: GStreamer with the nvcodec packages, the bundle of
# gpu-bundle.sh and the clips of gpu-cuda-clips.sh):
#   bash tests/gpu/gpu-cuda-checks.sh
# Each case's output is compared with the same decoder's frames downloaded
# and filtered on PoCL: H.264 NV12 and HEVC Main 10 P010 (CUDA memory in;
# system or CUDA memory out), MPEG-2 from an elementary stream, a program
# stream and a transport stream (and by the second GPU's decoder where
# there are two GPUs), the MPEG-2 frames made P010 by videoconvert (the
# DCT stage on its interleaved 10-bit chroma, from system memory and
# through cudaupload), interlaced MPEG-2 coded with field DCT (the DCT
# stage on fields), a change of resolution mid-stream, two
# elements chained; then a flushing seek and EOS, a failed wait for a
# frame's copy into the element (cuda-wait-fault.c), and OpenCL faults
# injected into a CUDA-memory pipeline (libclfault), each run classed as
# right, clean error, silent, hang or crash. Logs go to $OUT.
# FAULTS_ONLY=1 runs the faults alone, FAULTS_FROM=N from call N on,
# FAULTS=0 the checks without the faults; CUDA_FAULTS_ONLY=1 (CUDA_FAULTS_FROM=N)
# the sweep of CUDA faults with the element's kernels in CUDA alone, which
# CUDA_FAULTS=1 adds to the end of a whole run (CUDA_FAULTS_OUT=sys,
# CUDA_FAULTS_IN=sys: the element's output, input in system memory). The cases from CUDA memory
# into CUDA memory run the element's kernels in the decoder's CUDA context
# (docs/memory.md), and the *_import ones (GST_CL_CUDA_KERNELS=0) the same
# in OpenCL, through imported pools, against the same PoCL references.
# SWEEP_JOBS=N runs N faulted pipelines at a time (default 4).
rt=${CLEPSILON_GPU_RUNTIME:?"set it to the GPU machine's runtime folder (tests/gpu/README.md)"}
[ -f "$rt/gst-env.sh" ] || { echo "$0: no gst-env.sh in $rt (tests/gpu/README.md)" >&2; exit 2; }
rt=$(cd "$rt" && pwd)
cd "$(dirname "$0")/../.."
source "$rt/gst-env.sh" >/dev/null 2>&1
B=$rt/build C=$rt/clips
export GST_PLUGIN_PATH=$B/gst GST_CL_CACHE_DIR=/tmp/clcache
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
gst-inspect-1.0 nvcodec > /dev/null 2>&1
gst-inspect-1.0 clepsilon > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
CUDA="video/x-raw(memory:CUDAMemory)"
F="threshold=20 window-size=9"
F2="threshold=10 window-size=5 chroma-threshold=6"
H264="filesrc location=$C/clip-4k.mp4 ! qtdemux ! h264parse ! nvh264dec"
H265="filesrc location=$C/clip-4k-p010.mp4 ! qtdemux ! h265parse ! nvh265dec"
M2V="filesrc location=$C/clip-1080.m2v ! mpegvideoparse ! nvmpeg2videodec"
MPG="filesrc location=$C/clip-1080.mpg ! mpegpsdemux ! mpegvideoparse ! nvmpeg2videodec"
MTS="filesrc location=$C/clip-1080.ts ! tsdemux ! mpegvideoparse ! nvmpeg2videodec"
CAPS="filesrc location=$C/caps-change.h264 ! h264parse ! nvh264dec"
M2VI="filesrc location=$C/clip-1080i.m2v ! mpegvideoparse ! nvmpeg2videodec"
# interlaced whatever the decoder's caps say: the DCT stage on fields
WOVEN="capssetter join=true caps=video/x-raw,interlace-mode=interleaved"
fails=0

# The last auto-threshold in the stats of the log $1 (the estimate's state
# read back: on the CUDA path, by gstclcudaexec.c's copy kernel), or "".
threshold_of () {
  grep -o 'stats = [^;]*' "$1" | tail -1 | grep -oE 'auto-threshold=\(uint\)[0-9]+' |
    grep -oE '[0-9]+$'
}

# case NAME REF PIPELINE...: runs PIPELINE ! filesink, prints its md5, the
# sink caps and the element's copy counters; with REF (a case run before),
# fails unless the bytes, and the last auto-threshold where both say one,
# are the same.
case_ () {
  local name=$1 ref=$2
  shift 2
  timeout 120 gst-launch-1.0 -v "$@" ! filesink location=/tmp/$name.yuv \
    > "$OUT/$name.log" 2>&1
  local rc=$? sum
  sum=$(md5sum < /tmp/$name.yuv | cut -c1-12)
  local st
  st=$(grep -o 'stats = [^;]*' "$OUT/$name.log" | tail -1 |
    grep -oE '(host-copy|upload|download|cuda-copy)-bytes=\(guint64\)[0-9]+|memory-path=\(string\)[a-z-]+|auto-threshold=\(uint\)[0-9]+' |
    sed 's/(guint64)//;s/(string)//;s/(uint)//' | tr '\n' ' ')
  local caps
  caps=$(grep -o 'clepsilon0.GstPad:sink: caps = [^,]*' "$OUT/$name.log" | head -1 | sed 's/.*caps = //')
  local verdict=""
  local thr ref_thr
  thr=$(threshold_of "$OUT/$name.log") ref_thr=$(threshold_of "$OUT/$ref.log" 2> /dev/null)
  if [ -n "$ref" ]; then
    if [ $rc = 0 ] && cmp -s /tmp/$name.yuv /tmp/$ref.yuv; then verdict="= $ref";
    else verdict="DIFFERS from $ref"; fails=$((fails + 1)); fi
    if [ -n "$thr" ] && [ -n "$ref_thr" ] && [ "$thr" != "$ref_thr" ]; then
      verdict="$verdict, auto-threshold $thr against $ref_thr"; fails=$((fails + 1))
    fi
  elif [ $rc != 0 ]; then fails=$((fails + 1)); fi
  printf "%-14s rc=%d md5=%s bytes=%s in=%s %s %s\n" "$name" $rc "$sum" \
    "$(stat -c %s /tmp/$name.yuv)" "$caps" "$st" "$verdict"
  [ $rc = 0 ] || grep -m3 -E "ERROR|WARN" "$OUT/$name.log" | cut -c1-300
}

checks () {
echo "== H.264 NV12 (clip-4k.mp4, 30 frames)"
case_ h264_pocl "" $H264 ! video/x-raw ! clepsilon device=pocl $F ! video/x-raw
case_ h264_cuda h264_pocl $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! video/x-raw
case_ h264_sys h264_pocl $H264 ! video/x-raw ! clepsilon device=nvidia $F ! video/x-raw
case_ h264_cudaout h264_pocl $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! "$CUDA" ! cudadownload ! video/x-raw
# strength=auto on H.264: each frame's threshold from its slice QP, read at
# nvh264dec's sink; the last frame's in the stats (auto-threshold above 0)
case_ h264auto_pocl "" $H264 ! video/x-raw ! clepsilon device=pocl strength=auto ! video/x-raw
case_ h264auto_cuda h264auto_pocl $H264 ! "$CUDA" ! clepsilon device=nvidia strength=auto ! video/x-raw
case_ h264auto_sys h264auto_pocl $H264 ! video/x-raw ! clepsilon device=nvidia strength=auto ! video/x-raw
echo "== two chained"
case_ chain_pocl "" $H264 ! video/x-raw ! clepsilon device=pocl $F ! clepsilon device=pocl $F2 ! video/x-raw
case_ chain_cuda chain_pocl $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! clepsilon device=nvidia $F2 ! video/x-raw
case_ chain_cudaout chain_pocl $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! "$CUDA" ! clepsilon device=nvidia $F2 ! "$CUDA" ! cudadownload ! video/x-raw
echo "== HEVC Main 10 P010 (clip-4k-p010.mp4, 20 frames)"
case_ h265_pocl "" $H265 ! video/x-raw,format=P010_10LE ! clepsilon device=pocl $F ! video/x-raw
case_ h265_cuda h265_pocl $H265 ! "$CUDA,format=P010_10LE" ! clepsilon device=nvidia $F ! video/x-raw
case_ h265_cudaout h265_pocl $H265 ! "$CUDA,format=P010_10LE" ! clepsilon device=nvidia $F ! "$CUDA" ! cudadownload ! video/x-raw
GST_CL_CUDA_KERNELS=0 case_ h265_import h265_pocl $H265 ! "$CUDA,format=P010_10LE" ! clepsilon device=nvidia $F ! "$CUDA" ! cudadownload ! video/x-raw
echo "== MPEG-2 (clip-1080.*, 30 frames, -q:v 12 -g 12 -bf 2): the decoder alone, then through clepsilon"
for src in M2V MPG MTS; do
  timeout 60 gst-launch-1.0 ${!src} ! fakesink > "$OUT/nvmpeg2-$src.log" 2>&1
  echo "nvmpeg2videodec alone from $src: rc=$?"
done
case_ mpeg2_pocl "" $M2V ! video/x-raw ! clepsilon device=pocl strength=auto ! video/x-raw
case_ mpeg2_cuda mpeg2_pocl $M2V ! "$CUDA" ! clepsilon device=nvidia strength=auto ! video/x-raw
case_ mpeg2_cudaout mpeg2_pocl $M2V ! "$CUDA" ! clepsilon device=nvidia strength=auto ! "$CUDA" ! cudadownload ! video/x-raw
GST_CL_CUDA_KERNELS=0 case_ mpeg2_import mpeg2_pocl $M2V ! "$CUDA" ! clepsilon device=nvidia strength=auto ! "$CUDA" ! cudadownload ! video/x-raw
# decided on the host: the histograms read back by the copy kernel
GST_CL_AUTO_DECIDE=host case_ mpeg2_cudahost mpeg2_pocl $M2V ! "$CUDA" ! clepsilon device=nvidia strength=auto ! video/x-raw
case_ mpeg2_ps mpeg2_pocl $MPG ! "$CUDA" ! clepsilon device=nvidia strength=auto ! video/x-raw
case_ mpeg2_ts mpeg2_pocl $MTS ! "$CUDA" ! clepsilon device=nvidia strength=auto ! video/x-raw
echo "== MPEG-2 made 10-bit P010 by videoconvert: strength=auto on P010's interleaved chroma"
P010="videoconvert dither=none ! video/x-raw,format=P010_10LE"
case_ mpeg2p010_pocl "" $M2V ! video/x-raw ! $P010 ! clepsilon device=pocl strength=auto ! video/x-raw
case_ mpeg2p010_sys mpeg2p010_pocl $M2V ! video/x-raw ! $P010 ! clepsilon device=nvidia strength=auto ! video/x-raw
case_ mpeg2p010_cuda mpeg2p010_pocl $M2V ! video/x-raw ! $P010 ! cudaupload ! "$CUDA,format=P010_10LE" ! clepsilon device=nvidia strength=auto ! video/x-raw
echo "== MPEG-2 interlaced, field DCT (clip-1080i.m2v, 30 frames): strength=auto on fields"
GST_DEBUG=clplan:6 case_ mpeg2i_pocl "" $M2VI ! video/x-raw ! $WOVEN ! clepsilon device=pocl strength=auto ! video/x-raw
if grep -q ", on each field" "$OUT/mpeg2i_pocl.log"; then echo "mpeg2i_pocl: frames on fields"
else echo "mpeg2i_pocl: no frame on fields"; fails=$((fails + 1)); fi
case_ mpeg2i_cuda mpeg2i_pocl $M2VI ! "$CUDA" ! $WOVEN ! clepsilon device=nvidia strength=auto ! video/x-raw
case_ mpeg2i_sys mpeg2i_pocl $M2VI ! video/x-raw ! $WOVEN ! clepsilon device=nvidia strength=auto ! video/x-raw
if [ "$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)" -ge 2 ]; then
  echo "== the second GPU's decoder: device=nvidia and auto take that GPU, its frames stay there"
  M2V1=${M2V/nvmpeg2videodec/nvmpeg2videodevice1dec}
  case_ gpu1_cuda mpeg2_pocl $M2V1 ! "$CUDA" ! clepsilon device=nvidia strength=auto ! video/x-raw
  case_ gpu1_cudaout mpeg2_pocl $M2V1 ! "$CUDA" ! clepsilon strength=auto ! "$CUDA" ! cudadownload ! video/x-raw
  case_ gpu1_sys mpeg2_pocl $M2V1 ! video/x-raw ! clepsilon device=nvidia strength=auto ! video/x-raw
  # through system memory the path is the same on either GPU: the log says which it took
  GST_DEBUG=clcudaimport:4 timeout 60 gst-launch-1.0 $M2V1 ! video/x-raw ! clepsilon \
    device=nvidia strength=auto ! fakesink > "$OUT/gpu1_follow.log" 2>&1
  grep -q "the GPU of the CUDA context upstream (CUDA device 1)" "$OUT/gpu1_follow.log" &&
    echo "gpu1_sys: the element took the second GPU" ||
    { echo "gpu1_sys: the element did not take the second GPU"; fails=$((fails + 1)); }
  for name in gpu1_cuda gpu1_cudaout; do
    grep -o 'stats = [^;]*' "$OUT/$name.log" | tail -1 | grep -q 'memory-path=(string)cuda' ||
      { echo "$name: not on the CUDA path"; fails=$((fails + 1)); }
  done
  # two chains of one pipeline, one a GPU: each element on its decoder's
  # GPU, though the pipeline shares the first one's OpenCL context
  timeout 120 gst-launch-1.0 -v $M2V ! "$CUDA" ! clepsilon name=e0 device=nvidia strength=auto ! \
    video/x-raw ! filesink location=/tmp/gpu01_0.yuv $M2V1 ! "$CUDA" ! clepsilon name=e1 \
    device=nvidia strength=auto ! video/x-raw ! filesink location=/tmp/gpu01_1.yuv > "$OUT/gpu01.log" 2>&1
  for k in 0 1; do
    if cmp -s /tmp/gpu01_$k.yuv /tmp/mpeg2_pocl.yuv && grep -o "e$k: stats = [^;]*" "$OUT/gpu01.log" |
      tail -1 | grep -q 'memory-path=(string)cuda'; then echo "gpu01 chain $k: = mpeg2_pocl, on the CUDA path"
    else echo "gpu01 chain $k: DIFFERS from mpeg2_pocl or not on the CUDA path"; fails=$((fails + 1)); fi
  done
fi
echo "== resolution change mid-stream (caps-change.h264: 15 frames 1080p, 15 frames 720p)"
case_ caps_pocl "" $CAPS ! video/x-raw ! clepsilon device=pocl $F ! video/x-raw
case_ caps_cuda caps_pocl $CAPS ! "$CUDA" ! clepsilon device=nvidia $F ! video/x-raw
case_ caps_cudaout caps_pocl $CAPS ! "$CUDA" ! clepsilon device=nvidia $F ! "$CUDA" ! cudadownload ! video/x-raw
echo "== flushing seek after 10 frames, then EOS"
timeout 120 "$B/tests/gpu/cl-cuda-seek" "$H264 ! $CUDA ! clepsilon device=nvidia $F ! video/x-raw ! fakesink name=sink" 10 || fails=$((fails + 1))
timeout 120 "$B/tests/gpu/cl-cuda-seek" "$H264 ! $CUDA ! clepsilon device=nvidia $F ! $CUDA ! cudadownload ! video/x-raw ! fakesink name=sink" 10 || fails=$((fails + 1))
echo "== the 5th wait for a copy into or out of the element fails (cuda-wait-fault.c): an ERROR, no hang, no frame from it on"
# frames before it may go out (as the reference's), none from it on
frame=$((1920 * 1080 * 3 / 2))
for out in video/x-raw "$CUDA"; do
  name=waitfault_${out//[^a-zA-Z]/}
  GST_CL_CUDA_LIBRARY=$B/tests/gpu/libcudawaitfault.so CUDA_WAIT_FAULT_NTH=5 \
    timeout 60 gst-launch-1.0 $M2V ! "$CUDA" ! clepsilon device=nvidia strength=auto ! "$out" \
    ! cudadownload ! video/x-raw ! filesink location=/tmp/$name.yuv > "$OUT/$name.log" 2>&1
  rc=$? size=$(stat -c %s /tmp/$name.yuv 2>/dev/null || echo 0)
  if [ $rc = 1 ] && grep -qE "ERROR.*cu(Event|Stream)Synchronize" "$OUT/$name.log" &&
    [ $((size % frame)) = 0 ] &&
    [ "$size" -le $((4 * frame)) ] && cmp -s -n "$size" /tmp/$name.yuv /tmp/mpeg2_pocl.yuv; then
    echo "$name: rc=1, ERROR, $((size / frame)) frames out, as the reference's"
  else
    echo "$name: rc=$rc, $size bytes out: FAILED"; fails=$((fails + 1))
  fi
  grep -m2 -E "ERROR" "$OUT/$name.log" | cut -c1-300
done

}
# class_of RC LOG OUT REF NAMED: how a run with a fault ended (its exit
# status, log and output, the run without a fault's output, and the pattern
# of a named error): right, clean-error, SILENT, HANG, CRASH or UNNAMED.
class_of () {
  if [ "$1" = 0 ] && cmp -s "$3" "$4"; then echo right
  elif [ "$1" = 1 ] && grep -q "ERROR" "$2" && grep -qE "$5" "$2"; then echo clean-error
  elif [ "$1" = 0 ]; then echo SILENT
  elif [ "$1" = 124 ]; then echo HANG
  elif [ "$1" -gt 128 ]; then echo CRASH
  else echo UNNAMED; fi
}
export -f class_of

# sweep RUN FROM CALLS RESULTS: "RUN N" for call N failed, from FROM to
# CALLS (every one of the first 150, then every 5th), four at a time, its
# lines "N class rc [seconds s]" into RESULTS; prints each wrong run as it
# ends (so that a sweep cut short still says them), then the count of each
# class and the wrong runs, which add to the failures.
sweep () {
  local k
  for ((n = $2; n <= $3; n += (n < 150 ? 1 : 5))); do echo $n; done |
    xargs -P "${SWEEP_JOBS:-4}" -I{} bash -c "$1 {}" | tee "$4" |
    grep --line-buffered -vE " (right|clean-error) " | sed -u 's/^/  so far: call /'
  for k in $(cut -d' ' -f2 "$4" | sort | uniq); do
    echo "  $k: $(grep -c " $k " "$4")"
  done
  grep -vE " (right|clean-error) " "$4" | sort -n | sed 's/^/  call /'
  fails=$((fails + $(grep -cvE " (right|clean-error) " "$4")))
}

# The element's kernels in CUDA (GST_CL_CUDA_KERNELS=1), MPEG-2 with
# strength=auto from CUDA memory into CUDA memory (CUDA_FAULTS_OUT=sys: into
# system memory; CUDA_FAULTS_IN=sys: from the decoder in system memory): the
# N-th CUDA call of the element (cuda-wait-fault.c's list: launches, fills,
# copies, reads back, streams, events, waits, module loads) failed, each N in turn (the first 150, then
# every 5th, four at a time), each run classed as right, clean error (an
# ERROR naming the CUDA call), silent, hang or crash.
cuda_faults () {
echo "== CUDA faults, the element's kernels in CUDA (cuda-wait-fault.c, CUDA_CALL_FAULT_NTH)"
local to="$CUDA ! cudadownload ! video/x-raw" from=$CUDA
[ "${CUDA_FAULTS_OUT:-}" = sys ] && to=video/x-raw
[ "${CUDA_FAULTS_IN:-}" = sys ] && from=video/x-raw
CP="$M2V ! $from ! clepsilon device=nvidia strength=auto ! $to ! filesink location=/tmp/cfault.yuv"
echo "   the element's input: $from, output: $to"
# counted without a fault (no wait fails: the 0th)
GST_CL_CUDA_KERNELS=1 GST_CL_CUDA_LIBRARY=$B/tests/gpu/libcudawaitfault.so CUDA_CALL_FAULT_REPORT=1 \
  CUDA_WAIT_FAULT_NTH=0 timeout 120 gst-launch-1.0 $CP > "$OUT/cfault-count.log" 2>&1
local rc=$? ccalls
cp /tmp/cfault.yuv /tmp/cfault-ref.yuv
ccalls=$(grep -oE '^[0-9]+ CUDA calls counted' "$OUT/cfault-count.log" | grep -oE '^[0-9]+' | tail -1)
echo "CUDA calls without a fault: ${ccalls:-?}"
# the run without a fault is right (against PoCL's where the checks made it)
if [ $rc != 0 ] || [ -z "$ccalls" ] || { [ -f /tmp/mpeg2_pocl.yuv ] &&
  ! cmp -s /tmp/cfault-ref.yuv /tmp/mpeg2_pocl.yuv; }; then
  echo "the run without a fault failed (rc=$rc) or differs from mpeg2_pocl: no sweep"
  fails=$((fails + 1))
  return
fi
cfault () {
  local n=$1 log=$OUT/cfault-$1.log k began=$SECONDS
  GST_CL_CUDA_KERNELS=1 GST_CL_CUDA_LIBRARY=$B/tests/gpu/libcudawaitfault.so CUDA_CALL_FAULT_NTH=$n \
    timeout 20 gst-launch-1.0 ${CP/cfault.yuv/cfault-$n.yuv} > "$log" 2>&1
  local rc=$?
  k=$(class_of $rc "$log" /tmp/cfault-$n.yuv /tmp/cfault-ref.yuv "CUDA [A-Za-z_]+.* failed")
  rm -f /tmp/cfault-$n.yuv
  # a wrong run's last log lines on stderr: where it stopped (GST_DEBUG
  # in the environment reaches the runs)
  case $k in right | clean-error) rm -f "$log" ;;
    *) grep -v "XDG_RUNTIME\|GStreamer-WARNING" "$log" | tail -n 2 | sed "s/^/  call $n: /" >&2 ;; esac
  echo "$n $k $rc $((SECONDS - began)) s"
}
export -f cfault
export B OUT CP
sweep cfault ${CUDA_FAULTS_FROM:-1} ${ccalls:-0} "$OUT/cfaults.txt"
}

# CUDA_FAULTS_ONLY=1: the sweep of CUDA faults alone (cuda_faults below)
if [ -n "${CUDA_FAULTS_ONLY:-}" ]; then cuda_faults; echo "checks failed: $fails"; exit $((fails > 0)); fi
[ -n "${FAULTS_ONLY:-}" ] || checks
if [ "${FAULTS:-1}" = 0 ]; then echo "checks failed: $fails"; exit $((fails > 0)); fi

echo "== OpenCL faults, CUDA memory in and out where negotiated (libclfault, clfault-launch)"
# the caps left to negotiation, as a user writes it: a device query that
# fails takes the system-memory path instead of CUDA memory
FP="$H264 ! clepsilon device=nvidia $F ! cudadownload ! video/x-raw ! filesink location=/tmp/fault.yuv"
CLFAULT_REPORT=1 LD_PRELOAD=$B/tests/libclfault.so timeout 120 "$B/tests/clfault-launch" $FP > "$OUT/fault-count.log" 2>&1
cp /tmp/fault.yuv /tmp/fault-ref.yuv
calls=$(grep -oE '[0-9]+ calls counted' "$OUT/fault-count.log" | grep -oE '^[0-9]+' | head -1)
echo "calls without a fault: ${calls:-?}; every one of the first 150 failed in turn, then every 5th, four at a time"
# fault N: runs the pipeline with call N failed, prints N and its class
fault () {
  local n=$1 log=$OUT/fault-$1.log k
  CLFAULT_NTH=$n CLFAULT_ERROR=-5 LD_PRELOAD=$B/tests/libclfault.so \
    timeout 20 "$B/tests/clfault-launch" ${FP/fault.yuv/fault-$n.yuv} > "$log" 2>&1
  local rc=$?
  k=$(class_of $rc "$log" /tmp/fault-$n.yuv /tmp/fault-ref.yuv "cl[A-Z][A-Za-z]+|OpenCL")
  rm -f /tmp/fault-$n.yuv
  case $k in right | clean-error) rm -f "$log" ;; esac
  echo "$n $k $rc"
}
export -f fault
export B OUT FP
sweep fault ${FAULTS_FROM:-1} ${calls:-0} "$OUT/faults.txt"
[ "${CUDA_FAULTS:-0}" = 1 ] && cuda_faults
echo "checks failed: $fails"
