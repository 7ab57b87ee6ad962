#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Interlaced MPEG-2: clepsilon field by field (what it does on interlaced
# frames) against frame by frame (what it did before, forced here by
# declaring the frames progressive with capssetter), on MPEG-2 coded with
# field DCT (-flags +ildct+ilme) and with frame DCT, at strength=auto and
# strength=medium; beside them FFmpeg's spp (quality 6, frame by frame) at
# its best fixed qp over the files of each coding (an oracle: these fixed-qp
# streams' QP tables are refused by spp). Measured per field: luma PSNR of
# each field of each frame against the pristine interlaced frame, gain over
# the decoded one.
#
# Content: pans across three photographs of Debian's python3-skimage
# (astronaut, coffee, chelsea), 50 progressive frames at 50 fps woven into
# 25 interlaced frames, top field first (FFmpeg's interlace filter).
#
# Usage: tests/quality/interlaced.py [--build build] [--out out/interlaced]
# Needs ffmpeg, gst-plugins-good (capssetter), gst-libav (the decoder).
import argparse
import os
import sys

import numpy as np

from quality import fetch_images, run  # noqa: E402 (this folder)

W, H, N = 320, 240, 50
PICTURES = [("astronaut", "astronaut.png", 40, 60, 2, 1),
            ("coffee", "coffee.png", 60, 40, 3, 1),
            ("chelsea", "chelsea.png", 10, 10, 2, 1)]
ENCODINGS = {"field-dct": ["-flags", "+ildct+ilme"], "frame-dct": ["-flags", "+ilme"]}
SETTINGS = ["strength=auto", "strength=medium"]
SPP_QPS = [2, 4, 6, 8]


def images():
    """skimage's pictures: installed, or from its Debian package."""
    data = "/usr/lib/python3/dist-packages/skimage/data"
    if os.path.isdir(data):
        return data
    return fetch_images(os.path.expanduser("~/.cache/gst-clfilters/skimage"))


def luma(path):
    frame = W * H * 3 // 2
    raw = np.fromfile(path, np.uint8)
    assert raw.size % frame == 0, path
    return raw.reshape(-1, frame)[:, :W * H].reshape(-1, H, W).astype(float)


def field_psnr(a, b):
    """PSNR of each field of each frame: [frames, 2]."""
    out = np.zeros((a.shape[0], 2))
    for f in range(2):
        mse = ((a[:, f::2] - b[:, f::2]) ** 2).mean(axis=(1, 2))
        out[:, f] = 10 * np.log10(255.0 ** 2 / np.maximum(mse, 1e-10))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="out/interlaced")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ, GST_PLUGIN_PATH=os.path.abspath(a.build + "/gst"))
    data = images()
    rows = {}
    for name, png, x, y, dx, dy in PICTURES:
        pristine = os.path.join(a.out, name + ".yuv")
        run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate", "50",
             "-i", os.path.join(data, png), "-vf",
             "crop=%d:%d:%d+%d*n:%d+%d*n,interlace=scan=tff,format=yuv420p"
             % (W, H, x, dx, y, dy), "-frames:v", str(N // 2),
             "-f", "rawvideo", pristine])
        ref = luma(pristine)
        for enc, flags in ENCODINGS.items():
            coded = os.path.join(a.out, "%s-%s.m2v" % (name, enc))
            run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt",
                 "yuv420p", "-s", "%dx%d" % (W, H), "-r", "25", "-i",
                 pristine, "-c:v", "mpeg2video", "-q:v", "12", "-g", "12",
                 "-bf", "2", "-top", "1"] + flags + [coded])
            src = ["filesrc", "location=" + coded, "!", "decodebin"]
            sink = ["!", "video/x-raw,format=I420", "!", "filesink"]
            decoded = coded + ".yuv"
            run(["gst-launch-1.0", "-q"] + src + sink +
                ["location=" + decoded], env=env)
            before = field_psnr(luma(decoded), ref)
            for setting in SETTINGS:
                for mode in ("fields", "frames"):
                    out = "%s.%s.%s.yuv" % (coded, setting, mode)
                    force = [] if mode == "fields" else [
                        "!", "capssetter", "join=true", "caps=video/x-raw,"
                        "interlace-mode=progressive"]
                    run(["gst-launch-1.0", "-q"] + src + force +
                        ["!", "clepsilon", setting] + sink +
                        ["location=" + out], env=env)
                    gain = field_psnr(luma(out), ref) - before
                    rows.setdefault((enc, setting, mode), []).append(gain)
            for qp in SPP_QPS:
                out = "%s.spp%d.yuv" % (coded, qp)
                run(["ffmpeg", "-v", "error", "-y", "-threads", "1", "-i",
                     coded, "-vf", "spp=quality=6:qp=%d" % qp, "-f",
                     "rawvideo", "-pix_fmt", "yuv420p", out])
                gain = field_psnr(luma(out), ref) - before
                rows.setdefault((enc, qp), []).append(gain)
    print("| MPEG-2 coded with | setting | now: mean gain per field, dB "
          "(worst field) | frame by frame, as before: mean (worst) |")
    print("| --- | --- | --- | --- |")
    for enc in ENCODINGS:
        for setting in SETTINGS:
            cells = []
            for mode in ("fields", "frames"):
                g = np.concatenate([x.ravel() for x in
                                    rows[(enc, setting, mode)]])
                cells.append("%+.3f (%+.3f)" % (g.mean(), g.min()))
            print("| %s | `%s` | %s | %s |" % (enc.replace("-", " "),
                                               setting, cells[0], cells[1]))
        gains = {qp: np.concatenate([x.ravel() for x in rows[(enc, qp)]])
                 for qp in SPP_QPS}
        best = max(SPP_QPS, key=lambda qp: gains[qp].mean())
        print("| %s | FFmpeg `spp=quality=6:qp=%d` (best fixed qp) | | "
              "%+.3f (%+.3f) |" % (enc.replace("-", " "), best,
                                   gains[best].mean(), gains[best].min()))


if __name__ == "__main__":
    sys.exit(main())
