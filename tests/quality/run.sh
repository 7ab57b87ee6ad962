#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The quality harness, on demand (not part of meson test): installs what is
# missing (Debian 12 packages), builds, measures clepsilon against codec
# ringing (tests/quality/quality.py), then runs the pipelines of
# docs/pipelines.md (tests/quality/pipelines.sh). About 6-10 minutes on two
# CPU cores with PoCL.
#
# Writes out/quality/report.md (every table of docs/quality.md),
# results.json, psnr-gain.png and crop-{mpeg2,mjpeg,h264}.png; copy the
# pictures to docs/img/ when the figures in docs/quality.md are updated.
# Environment: DEVICE (clepsilon's device, default auto), OUT (default
# out/quality), PIPELINES=0 to skip the pipelines.
#
# Option:
#   --heldout  run only the held-out evaluation (heldout.py: every
#            block-DCT family, H.264, HEVC, pristine; fit/report split
#            frozen in tests/quality/heldout.json); writes
#            out/heldout/heldout-report.md, heldout-report.png and
#            heldout-crops.png (about 25 minutes on two cores the first
#            time, cached after)
#   --realworld [ARGS]  run only the real-world evaluation (realworld.py
#            ARGS, default: its REPORT split: rate-controlled DVD, VCD,
#            Xvid-like, MJPEG, H.264 and HD MPEG-2 codings of natural
#            pictures, frozen in tests/quality/realworld.json); writes
#            out/realworld/realworld-report.md
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$top/tools/setup.sh"
cd "$top"

# ffmpeg: MPEG-2 and H.264 encoders and hqdn3d; plugins-bad: smooth and
# rawvideoparse; libav: the decoders decodebin runs before clepsilon on coded
# files; numpy/scipy/skimage/PIL/matplotlib: the metrics and pictures. The
# test photographs come from python3-skimage's package, downloaded (not
# installed) by quality.py.
packages=(ffmpeg gstreamer1.0-plugins-bad gstreamer1.0-libav python3-numpy
  python3-scipy python3-skimage python3-pil python3-matplotlib python-matplotlib-data
  fonts-dejavu-core)
install_packages "${packages[@]}"

export GST_PLUGIN_PATH=$top/build/gst
heldout=0
if [ "${1:-}" = --realworld ]; then
  shift
  exec nice -n 10 /usr/bin/python3 tests/quality/realworld.py "$@"
fi
for a in "$@"; do
  case $a in
    --heldout) heldout=1 ;;
    *) echo "usage: $0 [--heldout | --realworld [realworld.py's options]]" >&2; exit 2 ;;
  esac
done
if [ $heldout = 1 ]; then
  exec /usr/bin/python3 tests/quality/heldout.py run --refs all \
    --out "${OUT:-$top/out/heldout}" --device "${DEVICE:-pocl}"
fi
# Debian's python3 packages are for /usr/bin/python3, whatever else is first
# on PATH.
/usr/bin/python3 tests/quality/quality.py --out "${OUT:-$top/out/quality}" \
  --device "${DEVICE:-auto}"
if [ "${PIPELINES:-1}" != 0 ]; then
  bash tests/quality/pipelines.sh
fi
