#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs what is missing (Debian 12 packages), builds, and shows what
# clepsilon does to codec ringing: about 35 s on two CPU cores with PoCL once
# installed and built.
# The content is fixed: three natural photographs of Debian's python3-skimage
# package (rocket.jpg, coins.png, chelsea.png), each panned over for 12
# frames of 384x288. FFmpeg codes them the way such files are met (MPEG-2
# -q:v 12, MJPEG -q:v 20, MPEG-4 Part 2 -q:v 10); clepsilon runs at the
# setting recommended for each source (below) after decodebin on the coded
# file, as a player or a transcoder runs it, FFmpeg's spp=quality=6:qp=8 and
# hqdn3d on FFmpeg's decoded frames (tools/demo.py). Prints
# per source and as a mean the luma PSNR and SSIM gains against the pristine
# frames and each filter's time per frame, and writes to out/:
#   before-after.png   per source, where it rings most, enlarged: pristine,
#                      decoded (before) and clepsilon (after), their errors
#                      below with the window's PSNR
#   denoised-*.y4m     clepsilon's output (mpv or ffplay play it)
#   demo-*.avi         the coded sources
# Fails, saying why, when no OpenCL device is found or a file holds a frame
# too many or too few. Environment: DEVICE (clepsilon's device, default
# auto). Arguments go to tools/demo.py: --ceiling adds, per source, the DCT
# stage at the best of the fixed thresholds 8, 16, .. 160 and each frame at
# its own best of them (only the pristine frames tell which).
set -euo pipefail

# The setting each source runs through: the element's preset for that kind
# of file (gst/presets/GstClEpsilon.prs, docs/properties.md says what each
# is and which measurements chose it), not one tuned for the demo.
mpeg2_setting="@preset=dvd-rip"
mjpeg_setting="@preset=mjpeg-camera"
mpeg4_setting="@preset=divx-xvid"

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$top/tools/setup.sh"
# ffmpeg: the codecs, spp and hqdn3d; GStreamer's libav and bad plugins:
# the decoders and parsers decodebin runs before clepsilon; python3-skimage:
# the photographs and SSIM; numpy, scipy, PIL: the measures and the picture.
install_packages ffmpeg gstreamer1.0-libav gstreamer1.0-plugins-bad \
  python3-skimage python3-numpy python3-scipy python3-pil
cd "$top"

out=$top/out
mkdir -p "$out"
export GST_PLUGIN_PATH=$top/build/gst
# The presets of this tree, before any installed ones.
export GST_PRESET_PATH=$top/gst/presets
device=${DEVICE:-auto}

# One frame first, so that a machine without an OpenCL device hears it at
# once and plainly.
if ! gst-launch-1.0 videotestsrc num-buffers=1 ! clepsilon device="$device" \
    ! fakesink >"$out/demo.log" 2>&1; then
  echo "FAILED: clepsilon cannot run here:" >&2
  grep -e '^ERROR' -e '^WARNING' "$out/demo.log" >&2 || cat "$out/demo.log" >&2
  if grep -q 'No OpenCL platform' "$out/demo.log"; then
    echo "It needs an OpenCL device: apt-get install pocl-opencl-icd (the CPU)," \
      "or a GPU vendor's OpenCL driver (docs/devices.md)." >&2
  fi
  exit 1
fi

# Debian's python3 packages are for /usr/bin/python3, whatever else is first
# on PATH.
/usr/bin/python3 tools/demo.py --out "$out" --device "$device" \
  --source "mpeg2:MPEG-2:mpeg2video:12:$mpeg2_setting" \
  --source "mjpeg:MJPEG:mjpeg:20:$mjpeg_setting" \
  --source "mpeg4:MPEG-4 Part 2:mpeg4:10:$mpeg4_setting" "$@"
