#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs what is missing, builds, and runs the main job: a test pattern is
# encoded as MJPEG at low quality and decoded again, which leaves real
# block-transform ringing; clepsilon de-noises the decoded stream on the
# default OpenCL device and writes it to out/denoised.y4m. Prints the device
# used and the luma PSNR against the pristine frames before and after, and
# writes out/before-after.png: one frame's ringing region, enlarged, decoded
# (left) and de-noised (right). Fails if a file holds a frame too many or too
# few. Environment: DEVICE (clepsilon's device, default auto), FRAMES
# (default 60).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$top/tools/setup.sh"
cd "$top"

out=$top/out
mkdir -p "$out"
export GST_PLUGIN_PATH=$top/build/gst
frames=${FRAMES:-60}
src="videotestsrc pattern=smpte num-buffers=$frames ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1"
codec="jpegenc quality=10 ! jpegdec"

gst-launch-1.0 -q $src ! y4menc ! filesink location="$out/pristine.y4m"
gst-launch-1.0 -q $src ! $codec ! y4menc ! filesink location="$out/decoded.y4m"
gst-launch-1.0 -v $src ! $codec ! clepsilon device="${DEVICE:-auto}" \
  ! y4menc ! filesink location="$out/denoised.y4m" >"$out/demo.log" 2>&1 ||
  { cat "$out/demo.log"; exit 1; }

device=$(sed -n 's/.*clepsilon0: device-name = //p' "$out/demo.log" | head -n 1)
echo "clepsilon ran on: $device"
before=$(build/tools/y4m-psnr "$out/pristine.y4m" "$out/decoded.y4m")
after=$(build/tools/y4m-psnr "$out/pristine.y4m" "$out/denoised.y4m")
echo "luma PSNR of the decoded MJPEG (quality 10) against the pristine frames:"
echo "  before clepsilon: $before"
echo "  after clepsilon:  $after"
for result in "$before" "$after"; do
  case $result in
    *"($frames frames)") ;;
    *) echo "FAILED: $frames frames went in, but: $result" >&2; exit 1 ;;
  esac
done

# One frame, half way: the SMPTE bars' edge at x = 183 and the strip below
# them at y = 480, where MJPEG rings most; 80x60 samples enlarged 4x
# (nearest neighbour), the decoded frame on the left, de-noised on the right.
crop="videocrop left=143 right=1057 top=440 bottom=220 ! videoscale method=nearest-neighbour ! video/x-raw,width=320,height=240"
rm -f "$out"/before-after-*.png
gst-launch-1.0 -q videotestsrc pattern=smpte num-buffers=$((frames / 2)) \
  ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! $codec \
  ! tee name=t t. ! queue ! $crop ! comp.sink_0 \
  t. ! queue ! clepsilon device="${DEVICE:-auto}" ! $crop ! comp.sink_1 \
  compositor name=comp background=white sink_1::xpos=328 ! videoconvert \
  ! pngenc snapshot=false ! multifilesink max-files=1 \
    location="$out/before-after-%04d.png"
mv "$(ls "$out"/before-after-*.png | tail -n 1)" "$out/before-after.png"
echo "Wrote $out/denoised.y4m (YUV4MPEG2; players such as mpv or ffplay open it)"
echo "Wrote $out/before-after.png (frame $((frames / 2)), enlarged 4x: decoded left, de-noised right)"
