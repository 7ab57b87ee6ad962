#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs the pipelines of docs/pipelines.md, headless, and checks each. The
# input is an MPEG-2 + MP2 transport stream with real codec ringing, made by
# FFmpeg from 3 s of moving colour bars and a tone.
#   1a. transcoding: filesrc ! decodebin ! videoconvert ! clepsilon ! x264enc
#       ! mp4mux; the MP4 must hold every frame as H.264; the luma PSNR
#       against the pristine frames with and without clepsilon is printed;
#   1b. the same with the audio carried over (avenc_aac);
#   1c. the same chain with VP8, VP9, MJPEG and MPEG-4 part 2 encoders;
#   2a. live preview: a live source through jpegenc/jpegdec, clepsilon and
#       autovideosink (which falls back to a fake sink with no display);
#   2b. preview of a file (uridecodebin), and 2c. side by side (compositor);
#   3a. playbin video-filter="clepsilon ..." from gst-launch-1.0;
#   3b. the player example (examples/player.c): playbin with clepsilon as its
#       video-filter, the threshold changed three times while it plays
#       (12, then 0 = passthrough, then 8); each change must be read back and
#       the frame counter must stop during passthrough and move again after.
# Installs what is missing and builds first (tools/setup.sh). Environment:
# DEVICE (clepsilon's device, default auto), OUT (default out/pipelines).
# Exits non-zero on the first failed check; about 30 s.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$top/tools/setup.sh"
cd "$top"

extra=(ffmpeg gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav)
install_packages "${extra[@]}"

export GST_PLUGIN_PATH=$top/build/gst
device=${DEVICE:-auto}
out=${OUT:-$top/out/pipelines}
mkdir -p "$out"
cd "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }
say() { printf '\n== %s\n' "$*"; }
show() { echo "\$ ${*}"; }
frames=75
caps="video/x-raw,format=I420,width=640,height=360,framerate=25/1"
# With no display, autovideosink would try dfbvideosink (gst-plugins-bad
# 1.22), which crashes with no framebuffer, and kmssink; skip both so that it
# settles on its fake sink (docs/troubleshooting.md).
headless=()
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  headless=(env GST_PLUGIN_FEATURE_RANK=dfbvideosink:NONE,kmssink:NONE)
fi
# Runs a pipeline, its log in $out/$1.log; fails with the log shown.
run() {
  local name=$1
  shift
  show "$@"
  "${headless[@]}" "$@" >"$name.log" 2>&1 || { cat "$name.log"; fail "$name"; }
}
streams() { ffprobe -v error -show_entries stream=codec_name,nb_frames -of csv=p=0 "$1" | sort -u | tr '\n' ' '; }

say "input: $frames frames of moving colour bars, MPEG-2 at 400 kbit/s + MP2, in MPEG-TS"
gst-launch-1.0 -q videotestsrc pattern=smpte horizontal-speed=4 num-buffers=$frames ! "$caps" \
  ! y4menc ! filesink location=pristine.y4m
# FFmpeg's encoder: avenc_mpeg2video of Debian 12 rejects every frame rate
# (docs/troubleshooting.md).
ffmpeg -v error -y -i pristine.y4m -f lavfi -i sine=frequency=440:sample_rate=48000:duration=3 \
  -c:v mpeg2video -b:v 400k -c:a mp2 -shortest -f mpegts in.ts
echo "in.ts: $(streams in.ts)"

say "1a. transcoding chain (MPEG-2 -> clepsilon -> H.264 in MP4)"
run transcode gst-launch-1.0 filesrc location=in.ts ! decodebin ! videoconvert \
  ! clepsilon device="$device" ! x264enc ! mp4mux ! filesink location=out.mp4
gst-launch-1.0 -q filesrc location=in.ts ! decodebin ! videoconvert \
  ! x264enc ! mp4mux ! filesink location=out-unfiltered.mp4
s=$(streams out.mp4)
[ "$s" = "h264,$frames " ] || fail "out.mp4 holds $s, not $frames frames of H.264"
echo "out.mp4: $s"
# Decoded by FFmpeg: y4menc of GStreamer 1.22 writes the decoders' padded
# rows into the file.
for f in in.ts out.mp4 out-unfiltered.mp4; do
  ffmpeg -v error -y -i "$f" -f yuv4mpegpipe -pix_fmt yuv420p "${f%.*}.y4m"
done
echo "luma PSNR against the pristine frames:"
echo "  MPEG-2 input:                  $("$top/build/tests/quality/y4m-psnr" pristine.y4m in.y4m)"
echo "  transcoded without clepsilon:  $("$top/build/tests/quality/y4m-psnr" pristine.y4m out-unfiltered.y4m)"
echo "  transcoded with clepsilon:     $("$top/build/tests/quality/y4m-psnr" pristine.y4m out.y4m)"

say "1b. transcoding with the audio"
run transcode-av gst-launch-1.0 filesrc location=in.ts ! decodebin name=d \
  d. ! queue ! videoconvert ! clepsilon device="$device" threshold=12 window-size=5 \
  ! x264enc ! queue ! mp4mux name=m ! filesink location=out-av.mp4 \
  d. ! queue ! audioconvert ! audioresample ! avenc_aac ! queue ! m.
s=$(streams out-av.mp4)
[[ "$s" == *"h264,$frames "* && "$s" == *aac* ]] || fail "out-av.mp4 holds $s"
echo "out-av.mp4: $s"

say "1c. other encoders Debian ships"
for enc in "vp8enc ! webmmux" "vp9enc ! webmmux" "jpegenc ! avimux" "avenc_mpeg4 ! mp4mux"; do
  # shellcheck disable=SC2086 # $enc is a pipeline fragment
  run transcode-other gst-launch-1.0 filesrc location=in.ts ! decodebin ! videoconvert \
    ! clepsilon device="$device" ! $enc ! filesink location=out-other
  n=$(ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 out-other)
  [ "$n" = "$frames" ] || fail "$enc: $n frames, not $frames"
  echo "$enc: $n frames"
done

say "2a. live preview"
run preview-live gst-launch-1.0 -v videotestsrc is-live=true num-buffers=50 ! "$caps" \
  ! jpegenc quality=10 ! jpegdec ! clepsilon device="$device" threshold=12 \
  ! videoconvert ! autovideosink
grep -m1 'clepsilon0: device-name' preview-live.log | sed 's/.*GstClEpsilon://'
grep -q "Execution ended" preview-live.log || fail "live preview did not finish"

say "2b. preview of a file"
run preview-file gst-launch-1.0 uridecodebin uri="file://$out/in.ts" ! videoconvert \
  ! clepsilon device="$device" ! videoconvert ! autovideosink

say "2c. before and after, side by side"
run preview-side gst-launch-1.0 uridecodebin uri="file://$out/in.ts" ! videoconvert ! tee name=t \
  t. ! queue ! videoconvert ! compositor name=c sink_1::xpos=640 ! videoconvert ! autovideosink \
  t. ! queue ! clepsilon device="$device" threshold=12 ! videoconvert ! c.

say "3a. playbin video-filter from gst-launch-1.0"
run playbin gst-launch-1.0 -v playbin uri="file://$out/in.ts" \
  video-filter="clepsilon device=$device threshold=12" video-sink=fakesink audio-sink=fakesink
grep -q 'GstClEpsilon:clepsilon.*device-name' playbin.log || fail "clepsilon not in playbin"

say "3b. player example: playbin video-filter, threshold changed while playing"
cmd=("$top/build/examples/clepsilon-player" --device="$device" --video-sink="fakesink sync=true"
  --audio-sink="fakesink sync=true" --change=0.8:12 --change=1.4:0 --change=2.0:8 in.ts)
show "${cmd[@]}"
"${cmd[@]}" </dev/null | tee player.log || fail "player"
frames_at() { sed -n "s/^threshold $1 at .*so far: \([0-9]*\))$/\1/p" player.log; }
f12=$(frames_at 12); f0=$(frames_at 0); f8=$(frames_at 8)
total=$(sed -n 's/^frames filtered: //p' player.log)
[ -n "$f12" ] && [ -n "$f0" ] && [ -n "$f8" ] || fail "a threshold change did not take"
# While the threshold is 0 the element is in passthrough and filters nothing
# (a frame already started may still count); after the change to 8 it
# filters again.
[ "$f0" -gt $((f12 + 5)) ] && [ $((f8 - f0)) -le 1 ] && [ "$total" -gt $((f8 + 5)) ] ||
  fail "frames filtered: $f12 at threshold 12, $f0 at 0, $f8 at 8, $total at the end"
echo "checked: changes read back; $((f0 - f12)) frames filtered at threshold 12," \
  "$((f8 - f0)) at 0 (passthrough), $((total - f8)) at 8"

say "all pipelines passed"
