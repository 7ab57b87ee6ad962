#!/usr/bin/env bash
# Issue 29 on the GPU machine (docs/memory.md), from a carried folder holding
# device/ (the runtime packages with nvcodec, ../shared/device/README.md),
# plugin/libgstclfilters.so, bin/cl-cuda-seek and the clips:
#   bash gpu-cuda-figures.sh
# Bit-exactness of CUDA-memory input and output against PoCL, EOS, a
# flushing seek, two elements chained, the CUDA context shared with
# cudadownload; then the measures. Logs to $OUT.
cd "$(dirname "$0")"
source device/gst-env.sh >/dev/null 2>&1
export GST_PLUGIN_PATH=$PWD/plugin GST_CL_CACHE_DIR=/tmp/clcache
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gst-inspect-1.0 nvcodec >/dev/null 2>&1; gst-inspect-1.0 clepsilon >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
H264="filesrc location=clip-4k.mp4 ! qtdemux ! h264parse ! nvh264dec"
H265="filesrc location=clip-4k-p010.mp4 ! qtdemux ! h265parse ! nvh265dec"
LONG="filesrc location=clip-4k-20s.mp4 ! qtdemux ! h264parse ! nvh264dec"
CUDA="video/x-raw(memory:CUDAMemory)"
F="threshold=20 window-size=9"
F2="threshold=10 window-size=5 chroma-threshold=6"
# case NAME PIPELINE-WITHOUT-SINK: writes /tmp/NAME.yuv, prints md5, stats
case_ () {
  local name=$1; shift
  timeout 120 gst-launch-1.0 -v $@ ! filesink location=/tmp/$name.yuv > $OUT/$name.log 2>&1
  local rc=$?
  local st=$(grep -o 'stats = [^;]*' $OUT/$name.log | head -2 | sed -E 's/.*(host-copy-bytes=\(guint64\)[0-9]+).*(upload-bytes=\(guint64\)[0-9]+).*(download-bytes=\(guint64\)[0-9]+).*(device-copy-bytes=\(guint64\)[0-9]+).*(cuda-copy-bytes=\(guint64\)[0-9]+).*(memory-path=\(string\)[a-z-]+).*/\1 \2 \3 \4 \5 \6/' | sed 's/(guint64)//g;s/(string)//g' | tr '\n' '|')
  local caps=$(grep -o 'clepsilon0.GstPad:sink: caps = [^,]*' $OUT/$name.log | head -1 | sed 's/.*caps = //')
  printf "%-16s rc=%d md5=%s frames=%s in=%s %s\n" $name $rc "$(md5sum < /tmp/$name.yuv | cut -c1-12)" $(( $(stat -c %s /tmp/$name.yuv) )) "$caps" "$st"
  grep -m3 -E "ERROR|WARN|erro" $OUT/$name.log | cut -c1-300
}
echo "== bit-exact: H.264 NV12 (clip-4k.mp4, 30 frames)"
case_ h264_pocl     $H264 ! video/x-raw ! clepsilon device=pocl $F ! video/x-raw
case_ h264_cuda     $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! video/x-raw
case_ h264_sys_nv   $H264 ! video/x-raw ! clepsilon device=nvidia $F ! video/x-raw
case_ h264_cudaout  $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! "$CUDA" ! cudadownload ! video/x-raw
case_ h264_auto     $H264 ! clepsilon device=nvidia $F ! video/x-raw
echo "== two chained (2nd: $F2)"
case_ chain_pocl    $H264 ! video/x-raw ! clepsilon device=pocl $F ! clepsilon device=pocl $F2 ! video/x-raw
case_ chain_cuda    $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! clepsilon device=nvidia $F2 ! video/x-raw
case_ chain_cudaout $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! "$CUDA" ! clepsilon device=nvidia $F2 ! "$CUDA" ! cudadownload ! video/x-raw
echo "== bit-exact: H.265 Main 10 P010 (clip-4k-p010.mp4, 20 frames)"
case_ h265_pocl     $H265 ! video/x-raw,format=P010_10LE ! clepsilon device=pocl $F ! video/x-raw
case_ h265_cuda     $H265 ! "$CUDA,format=P010_10LE" ! clepsilon device=nvidia $F ! video/x-raw
case_ h265_cudaout  $H265 ! "$CUDA,format=P010_10LE" ! clepsilon device=nvidia $F ! "$CUDA" ! cudadownload ! video/x-raw
echo "== other device: CUDA caps not offered for device=pocl"
GST_DEBUG=clepsilon:4 timeout 60 gst-launch-1.0 -v $H264 ! clepsilon device=pocl threshold=2 window-size=3 ! fakesink 2>&1 | grep -E "CUDAMemory|clepsilon0.GstPad:sink: caps" | cut -c1-250 | head -3
echo "== flushing seek after 10 frames, EOS"
timeout 120 bin/cl-cuda-seek "$LONG ! $CUDA ! clepsilon device=nvidia $F ! video/x-raw ! fakesink name=sink" 10
timeout 120 bin/cl-cuda-seek "$LONG ! $CUDA ! clepsilon device=nvidia $F ! $CUDA ! cudadownload ! video/x-raw ! fakesink name=sink" 10
echo "== GstContext: one CUDA context for nvh264dec, clepsilon, cudadownload"
GST_DEBUG=clsharing:6,cudacontext:6 timeout 60 gst-launch-1.0 $H264 ! "$CUDA" ! clepsilon device=nvidia $F ! "$CUDA" ! cudadownload ! fakesink > $OUT/context.log 2>&1
echo "rc=$? CUDA contexts created: $(grep -c 'Created CUDA context' $OUT/context.log)"
grep -E "clsharing.*(CUDA|answering)|Created CUDA context|Got context" $OUT/context.log | sed 's/.*INFO\|.*DEBUG\|.*LOG//' | cut -c1-200 | sort | uniq -c | head -12
echo "== stats: 4K H.264 (clip-4k-20s.mp4), CUDA memory in"
timeout 120 gst-launch-1.0 -v $LONG ! clepsilon device=nvidia $F ! fakesink sync=false 2>&1 | grep -E "stats =|clepsilon0.GstPad:sink: caps" | cut -c1-900 | tee $OUT/stats.log
echo "== PCIe (nvidia-smi dmon -s t, MB/s each second) and fps"
dmon () { # NAME PIPELINE
  nvidia-smi dmon -s t -d 1 > $OUT/dmon-$1.log 2>&1 & local p=$!
  sleep 1.5
  for r in 1 2 3; do timeout 120 bin/cl-cuda-seek "$2" 0; done > $OUT/dmon-$1.fps
  sleep 1.2; kill $p; wait $p 2>/dev/null
  awk -v n="$1" '$1 ~ /^[0-9]+$/ {rx+=$2; tx+=$3; s++} END {printf "%-12s samples %d rx %d MB tx %d MB (sum of MB/s samples)\n", n, s, rx, tx}' $OUT/dmon-$1.log
  cat $OUT/dmon-$1.fps
}
dmon dec-cuda "$LONG ! $CUDA ! fakesink name=sink sync=false"
dmon eps-cuda "$LONG ! $CUDA ! clepsilon device=nvidia $F ! fakesink name=sink sync=false"
dmon dec-sys  "$LONG ! video/x-raw ! fakesink name=sink sync=false"
dmon eps-sys  "$LONG ! video/x-raw ! clepsilon device=nvidia $F ! fakesink name=sink sync=false"
echo "== aggregate fps, N concurrent chains"
agg () { # NAME N PIPELINE
  for i in $(seq $2); do timeout 200 bin/cl-cuda-seek "$3" 0 > /tmp/agg-$i.txt 2>&1 & done; wait
  cat /tmp/agg-*.txt >> $OUT/agg.log
  awk -v n="$1" -v N=$2 '/^frames/ {f+=$2; if (!mn || $4<mn) mn=$4; if ($6>mx) mx=$6} END {printf "%-10s N=%d frames %d fps %.1f\n", n, N, f, f*1e6/(mx-mn)}' /tmp/agg-*.txt
  rm -f /tmp/agg-*.txt
}
for N in 1 2 4; do
  agg dec-cuda $N "$LONG ! $CUDA ! fakesink name=sink sync=false"
  agg eps-cuda $N "$LONG ! $CUDA ! clepsilon device=nvidia $F ! fakesink name=sink sync=false"
  agg dec-sys  $N "$LONG ! video/x-raw ! fakesink name=sink sync=false"
  agg eps-sys  $N "$LONG ! video/x-raw ! clepsilon device=nvidia $F ! fakesink name=sink sync=false"
done
