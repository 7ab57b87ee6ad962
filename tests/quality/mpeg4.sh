#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A check of clepsilon's strength levels on MPEG-4 Part 2 (DivX, Xvid), which
# the quality harness (run.sh) does not encode: the six photographs of
# quality.py's crops, each as 12 frames of a still (-g 12 -bf 2) through
# FFmpeg's mpeg4 encoder at -q:v 6 and 10, decoded by FFmpeg, then through
# clepsilon at each level; mean and worst luma PSNR gain against the
# pristine crop. Prints one line per level and quality (about 30 s on 2
# cores). Needs ffmpeg, python3-numpy and python3-skimage's photographs.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$top/tools/packages.sh"
install_packages ffmpeg python3-numpy python3-skimage
export GST_PLUGIN_PATH=$top/build/gst
data=/usr/lib/python3/dist-packages/skimage/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# name, file, left, top: the crops of quality.py's STILLS
stills="astronaut:astronaut:64:112 camera:camera:64:112 chelsea:chelsea:33:6
  coffee:coffee:108:56 coins:coins:0:7 motorcycle:motorcycle_left:178:106"
levels="auto medium strong light"
for s in $stills; do
  IFS=: read -r name file x y <<< "$s"
  ffmpeg -v error -i "$data/$file.png" -vf "crop=384:288:$x:$y,format=yuv420p" \
    -f rawvideo "$name.yuv"
  for q in 6 10; do
    ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s 384x288 -stream_loop 11 \
      -i "$name.yuv" -c:v mpeg4 -q:v $q -g 12 -bf 2 "$name-q$q.avi"
    ffmpeg -v error -i "$name-q$q.avi" -f rawvideo -pix_fmt yuv420p \
      "$name-q$q.dec"
    for level in $levels; do
      gst-launch-1.0 -q filesrc location="$name-q$q.dec" ! rawvideoparse \
        width=384 height=288 format=i420 framerate=25/1 ! clepsilon \
        strength=$level ! filesink location="$name-q$q-$level.out"
    done
  done
done

/usr/bin/python3 - $levels <<'PY'
import sys
import numpy as np
W, H = 384, 288
FRAME = W * H * 3 // 2
NAMES = "astronaut camera chelsea coffee coins motorcycle".split()

def luma(path):
    a = np.fromfile(path, np.uint8)
    return a.reshape(-1, FRAME)[:, :W * H].reshape(-1, H, W).astype(float)

def psnr(ref, f):
    return 10 * np.log10(255 ** 2 / ((ref[None] - f) ** 2).mean())

for q in (6, 10):
    dec = {n: luma("%s-q%d.dec" % (n, q)) for n in NAMES}
    src = {n: luma(n + ".yuv")[0] for n in NAMES}
    print("mpeg4 -q:v %d: decoded %.2f dB" % (
        q, np.mean([psnr(src[n], dec[n]) for n in NAMES])))
    for level in sys.argv[1:]:
        gains = [psnr(src[n], luma("%s-q%d-%s.out" % (n, q, level)))
                 - psnr(src[n], dec[n]) for n in NAMES]
        worst = int(np.argmin(gains))
        print("  strength=%-6s mean %+.3f dB, worst %+.3f (%s)" % (
            level, np.mean(gains), gains[worst], NAMES[worst]))
PY
