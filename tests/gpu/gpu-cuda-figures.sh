#!/usr/bin/env bash
# The CUDA path's figures on the GPU machine (docs/memory.md), with the runtime
# folder $CLEPSILON_GPU_RUNTIME (README.md: GStreamer with the nvcodec
# packages, the bundle of gpu-bundle.sh, and in clips/ clip-4k.mp4 of
# gpu-cuda-clips.sh and clip-4k-20s.mp4, made by docs/memory.md's command):
#   bash tests/gpu/gpu-cuda-figures.sh
# The CUDA context shared with cudadownload, the element's stats, PCIe
# traffic and aggregate frame rates. (gpu-cuda-checks.sh checks the
# output.) Logs to $OUT.
rt=${CLEPSILON_GPU_RUNTIME:?"set it to the GPU machine's runtime folder (tests/gpu/README.md)"}
[ -f "$rt/gst-env.sh" ] || { echo "$0: no gst-env.sh in $rt (tests/gpu/README.md)" >&2; exit 2; }
rt=$(cd "$rt" && pwd)
source "$rt/gst-env.sh" >/dev/null 2>&1
cd "$rt/clips"
seek=$rt/build/tests/gpu/cl-cuda-seek
export GST_PLUGIN_PATH=$rt/build/gst GST_CL_CACHE_DIR=/tmp/clcache
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gst-inspect-1.0 nvcodec >/dev/null 2>&1; gst-inspect-1.0 clepsilon >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
H264="filesrc location=clip-4k.mp4 ! qtdemux ! h264parse ! nvh264dec"
LONG="filesrc location=clip-4k-20s.mp4 ! qtdemux ! h264parse ! nvh264dec"
CUDA="video/x-raw(memory:CUDAMemory)"
F="threshold=20 window-size=9"
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
  for r in 1 2 3; do timeout 120 "$seek" "$2" 0; done > $OUT/dmon-$1.fps
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
  for i in $(seq $2); do timeout 200 "$seek" "$3" 0 > /tmp/agg-$i.txt 2>&1 & done; wait
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
