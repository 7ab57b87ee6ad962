#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The clips of gpu-cuda-checks.sh, made here with FFmpeg (Debian 12's) into
# $CLEPSILON_GPU_RUNTIME/clips (README.md): 4K H.264 (30 frames) and HEVC
# Main 10 (20 frames), 1080p MPEG-2 -q:v 12 -g 12 -bf 2 (30 frames) as an
# elementary stream, a program stream and a transport stream, the same
# coded interlaced with field DCT (a pan over a photograph), and an H.264
# stream of 15 frames at 1080p followed by 15 at 720p; for gpu-streams.sh, a
# 1080p MPEG-2 clip coded as broadcast and DVD material is (250 frames) and
# a 4K H.264 clip (300 frames), pans over a photograph. About 28 MB.
set -euo pipefail
rt=${CLEPSILON_GPU_RUNTIME:?"set it to the GPU machine's runtime folder (tests/gpu/README.md)"}
dir=$rt/clips
mkdir -p "$dir"
cd "$dir"
photo=/usr/lib/python3/dist-packages/skimage/data/motorcycle_left.png
command -v ffmpeg > /dev/null && [ -f "$photo" ] ||
  { echo "$0: needs Debian's ffmpeg and python3-skimage (apt-get install ffmpeg python3-skimage)" >&2; exit 2; }
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
src() { echo "testsrc2=size=$1:rate=$2,noise=alls=12:allf=t"; }
ff -f lavfi -i "$(src 3840x2160 30)" -frames:v 30 -c:v libx264 -preset veryfast \
  -crf 30 -pix_fmt yuv420p clip-4k.mp4
ff -f lavfi -i "$(src 3840x2160 30)" -frames:v 20 -c:v libx265 -preset ultrafast \
  -x265-params log-level=error -crf 30 -pix_fmt yuv420p10le clip-4k-p010.mp4
mpeg2=(-frames:v 30 -c:v mpeg2video -q:v 12 -g 12 -bf 2)
ff -f lavfi -i "$(src 1920x1080 25)" "${mpeg2[@]}" clip-1080.m2v
ff -f lavfi -i "$(src 1920x1080 25)" "${mpeg2[@]}" -f vob clip-1080.mpg
ff -f lavfi -i "$(src 1920x1080 25)" "${mpeg2[@]}" -f mpegts clip-1080.ts
# interlaced, coded with field DCT (30 frames woven from 60 of the pan)
ff -loop 1 -framerate 50 -i "$photo" -vf "scale=2880:-2,crop=1920:1080:x='n*2':y=0,interlace=scan=tff,format=yuv420p" \
  "${mpeg2[@]}" -flags +ildct+ilme -top 1 clip-1080i.m2v
h264=(-frames:v 15 -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p -f h264)
ff -f lavfi -i "$(src 1920x1080 30)" "${h264[@]}" a.h264
ff -f lavfi -i "$(src 1280x720 30)" "${h264[@]}" b.h264
cat a.h264 b.h264 > caps-change.h264
rm a.h264 b.h264
# The pans: a photograph of Debian's python3-skimage, enlarged, panned over.
pan() { # WIDTH HEIGHT: a pan across the photograph, scaled to 1.5 x WIDTH
  echo "scale=$(($1 * 3 / 2)):-2,crop=$1:$2:x='mod(n*4,$(($1 / 2)))':y=0,format=yuv420p"
}
ff -loop 1 -framerate 25 -i "$photo" -vf "$(pan 1920 1080)" -frames:v 250 \
  -c:v mpeg2video -b:v 8M -maxrate 15M -bufsize 1835k -g 12 -bf 2 \
  broadcast-1080.m2v
ff -loop 1 -framerate 30 -i "$photo" -vf "$(pan 3840 2160)" -frames:v 300 \
  -c:v libx264 -preset veryfast -b:v 12M -maxrate 15M -bufsize 20M \
  pan-4k.mp4
ls -l
