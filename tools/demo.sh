#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job: a test pattern is
# encoded as MJPEG at low quality and decoded again, which leaves real
# block-transform ringing; clepsilon de-noises the decoded stream on the
# default OpenCL device and writes it to out/denoised.y4m. Prints the device
# used and the luma PSNR against the pristine frames before and after.
# Environment: DEVICE (clepsilon's device, default auto), FRAMES (default 60).
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
echo "luma PSNR of the decoded MJPEG (quality 10) against the pristine frames:"
echo "  before clepsilon: $(build/tools/y4m-psnr "$out/pristine.y4m" "$out/decoded.y4m")"
echo "  after clepsilon:  $(build/tools/y4m-psnr "$out/pristine.y4m" "$out/denoised.y4m")"
echo "Wrote $out/denoised.y4m (YUV4MPEG2; players such as mpv or ffplay open it)"
