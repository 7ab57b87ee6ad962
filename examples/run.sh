#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs the examples headless on the default OpenCL device (PoCL's CPU on a
# machine without a GPU): installs what they need beyond tools/setup.sh (the
# Python example's python3-gi, gir1.2-gstreamer-1.0 and
# gir1.2-gst-plugins-base-1.0), builds, makes a short MJPEG clip, and runs
# examples/stats.py and clepsilon-player on it. Exits non-zero on a failure.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$top/tools/setup.sh"
install_packages python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
cd "$top"
export GST_PLUGIN_PATH="$top/build/gst" GST_PRESET_PATH="$top/gst/presets"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gst-launch-1.0 -q videotestsrc num-buffers=30 pattern=zone-plate kx2=20 \
  ky2=20 kt=1 ! video/x-raw,width=320,height=240 ! jpegenc quality=30 \
  ! avimux ! filesink location="$tmp/clip.avi"
/usr/bin/python3 examples/stats.py --preset mjpeg-camera "$tmp/clip.avi"
build/examples/clepsilon-player --video-sink=fakesink --audio-sink=fakesink \
  --change=0.5:12 "$tmp/clip.avi"
