#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# The demo's measurements, run by tools/demo.sh (which installs what is
# missing and builds first): natural photographs of Debian's python3-skimage
# package, each panned over for a few frames, coded and decoded by FFmpeg the
# way such files are met (one --source each), then de-ringed by clepsilon at
# the source's setting after decodebin on the coded file (as a player or a
# transcoder runs it: the decoder tells it each picture's type), and by
# FFmpeg's spp=quality=6:qp=8 and hqdn3d on FFmpeg's decoded frames. Prints
# per source and as a mean the luma PSNR and SSIM gains
# against the pristine frames and each filter's time per frame; writes the
# coded files, the de-ringed frames and OUT/before-after.png. Exits non-zero
# (with the reason) when a file holds a frame too many or too few, or when
# clepsilon fails (no OpenCL device, for one).
#
#   /usr/bin/python3 tools/demo.py --out out \
#     --source 'NAME:LABEL:ENCODER:QSCALE:CLEPSILON SETTING' ...
#
# --ceiling also runs, per source, the DCT stage that strength=auto runs at
# the fixed thresholds 8, 16, .. 160 (build/tests/quality/cl-dct) and prints
# the gain of the best of them for the source and of each frame at its own
# best of them, which only the pristine frames tell.
#
# --fit NAME:ENCODER:QSCALE measures instead every fixed threshold and window
# of clepsilon on the quality harness's FIT pictures coded that way (the
# pictures the automatic mode was fitted on, none of them the demo's), to
# choose a fixed setting for a source on which strength=auto finds nothing.

import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np
from PIL import Image

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "tests", "quality"))
import quality as q                     # noqa: E402
# the stage's fixed thresholds and the program that runs it at one
from heldout import CL_DCT, STAGE_GRID  # noqa: E402

SKIMAGE_DATA = "/usr/lib/python3/dist-packages/skimage/data"
# The demo's content: (name, file in skimage/data, left, top of the first
# 384x288 window, pixels right and down per frame). Photographs with sharp
# edges next to flat areas, where block codecs ring; none of them is one the
# automatic mode was fitted on (quality.py's FIT).
PHOTOS = [
    ("rocket", "rocket.jpg", 100, 40, 4, 2),        # towers against the sky
    ("coins", "coins.png", 0, 0, 0, 1),             # coins on a dark cloth
    ("chelsea", "chelsea.png", 20, 0, 3, 1),        # a cat, fur and a wall
]
FRAMES_PER_PHOTO = 12
SPP = "spp=quality=6:qp=8"      # docs/quality.md: its best single qp
HQDN3D_LUMA = 8                 # docs/quality.md: hqdn3d's best luma_spatial
CROP_W, CROP_H, ZOOM = 64, 48, 4


def fail(msg):
    sys.exit("FAILED: " + msg)


def frames_in(path):
    """The frames in a raw I420 file of the demo's size; fails unless the file
    holds whole frames."""
    size = os.path.getsize(path)
    if size % q.FRAME:
        fail("%s holds %d bytes, not a whole number of %dx%d I420 frames" % (
            path, size, q.W, q.H))
    return size // q.FRAME


def check_frames(path, expected, what):
    n = frames_in(path)
    if n != expected:
        fail("%s: %d frames went in, %d came out (%s)" % (what, expected, n,
                                                          path))


def pan(data, photo, dst, pix_fmt):
    """Writes FRAMES_PER_PHOTO frames of a 384x288 window panning over one
    photograph, converted by FFmpeg (BT.601) to raw PIX_FMT."""
    name, png, x, y, dx, dy = photo
    q.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate",
           str(q.FPS), "-i", os.path.join(data, png), "-vf",
           "crop=%d:%d:%d+%d*n:%d+%d*n,format=%s" % (q.W, q.H, x, dx, y, dy,
                                                     pix_fmt),
           "-frames:v", str(FRAMES_PER_PHOTO), "-f", "rawvideo", dst])
    check_frames(dst, FRAMES_PER_PHOTO, "the pan over " + png)


def concat(parts, dst):
    with open(dst, "wb") as out:
        for p in parts:
            with open(p, "rb") as f:
                out.write(f.read())


def pix_fmt_of(encoder):
    """MJPEG codes full-range samples: the pristine frames are made in that
    range and the decoder's samples kept as they are, as jpegdec gives them
    to an application, so that no range conversion stands between the
    codec's ringing and the filter."""
    return "yuvj420p" if encoder == "mjpeg" else "yuv420p"


def code(src, coded, dst, encoder, qscale):
    """Codes raw SRC with FFmpeg's ENCODER at -q:v QSCALE into CODED (AVI),
    then decodes CODED into raw DST."""
    pix_fmt = pix_fmt_of(encoder)
    raw_in = ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-s", "%dx%d" % (
        q.W, q.H), "-r", str(q.FPS)]
    q.run(["ffmpeg", "-v", "error", "-y"] + raw_in + ["-i", src, "-c:v",
          encoder, "-q:v", str(qscale), "-threads", "1", coded])
    q.run(["ffmpeg", "-v", "error", "-y", "-i", coded, "-f", "rawvideo",
           "-pix_fmt", pix_fmt, dst])
    check_frames(dst, frames_in(src), "decoding " + coded)


def ffmpeg_filter(src, dst, vf):
    """Runs FFmpeg's filter VF over raw SRC into DST; returns the seconds
    FFmpeg's -benchmark gives the run (rtime: wall time, start-up left
    out)."""
    r = q.run(["ffmpeg", "-hide_banner", "-nostats", "-benchmark", "-y",
               "-threads", "1"] + q.RAW_IN + ["-i", src, "-vf", vf, "-f",
               "rawvideo", "-pix_fmt", "yuv420p", dst])
    check_frames(dst, frames_in(src), "ffmpeg -vf " + vf)
    return float(re.search(r"rtime=([0-9.]+)s", r.stderr).group(1))


def hqdn3d(src, dst, work):
    """hqdn3d on each photograph's frames alone (its temporal part must not
    blend one photograph into the next), luma only; returns the seconds."""
    seconds, parts = 0.0, []
    raw = np.fromfile(src, np.uint8).reshape(-1, q.FRAME)
    for i in range(0, raw.shape[0], FRAMES_PER_PHOTO):
        part = os.path.join(work, "hqdn3d-in.yuv")
        raw[i:i + FRAMES_PER_PHOTO].tofile(part)
        parts.append(os.path.join(work, "hqdn3d-%d.yuv" % i))
        seconds += ffmpeg_filter(part, parts[-1], (
            "hqdn3d=luma_spatial=%g:chroma_spatial=0:luma_tmp=%g:"
            "chroma_tmp=0") % (HQDN3D_LUMA, 1.5 * HQDN3D_LUMA))
    concat(parts, dst)
    return seconds


def gst_filter(src, dst, element, coded=None):
    """Runs ELEMENT (a list of gst-launch-1.0 words) over raw SRC into DST,
    or where CODED is given after decodebin on that coded file, as a player
    or a transcoder runs it (the decoder tells the element each picture's
    type and quantiser; SRC then only counts the frames); returns (the
    seconds gst-launch-1.0 reports from PLAYING to EOS, the device-name
    clepsilon reports or None). Fails with gst-launch-1.0's error when the
    pipeline fails: clepsilon says there why it cannot start."""
    if coded:
        cmd = ["gst-launch-1.0", "-v", "filesrc", "location=" + coded, "!",
               "decodebin", "!"] + element + [
            "!", "videoconvert", "!", "video/x-raw,format=I420", "!",
            "filesink", "location=" + dst]
    else:
        cmd = ["gst-launch-1.0", "-v"] + q.gst_raw_src(src) + ["!"] + \
            element + ["!", "filesink", "location=" + dst]
    # gst-launch-1.0's messages untranslated, so that they can be read;
    # a pipeline that hangs is a failure, not a demo that never ends.
    env = dict(os.environ, LC_ALL="C")
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=300)
    except subprocess.TimeoutExpired:
        fail("%s: no end of stream in 300 s" % " ".join(element))
    if r.returncode != 0:
        errors = [l for l in (r.stdout + r.stderr).splitlines()
                  if l.startswith("ERROR")] or r.stderr.splitlines()[-3:]
        fail("%s:\n  %s" % (" ".join(element), "\n  ".join(errors)))
    check_frames(dst, frames_in(src), " ".join(element))
    device = re.search(r"clepsilon0: device-name = (.*)", r.stdout)
    t = re.search(r"Execution ended after (\d+):(\d+):([0-9.]+)", r.stdout)
    seconds = int(t.group(1)) * 3600 + int(t.group(2)) * 60 + float(
        t.group(3))
    return seconds, device.group(1) if device else None


class Source:
    """One coded source: its decoded frames, filtered three ways, scored."""

    def __init__(self, spec):
        (self.name, self.label, self.encoder, self.qscale,
         setting) = spec.split(":", 4)
        self.setting = setting.split()
        self.decoded_score = None       # (psnr, ssim): FFmpeg's decoder
        self.gst_decoded_score = None   # the same of decodebin's frames
        # (filter, psnr, ssim, ms/frame, the decoded score its gain is over)
        self.results = []


def score(scorer, path):
    """Luma PSNR and SSIM of PATH against the pristine frames: the means over
    the photographs of quality.py's figures (as its reports give them)."""
    per_photo = scorer.score(path).values()
    return (float(np.mean([v[0] for v in per_photo])),
            float(np.mean([v[1] for v in per_photo])))


def run_source(src, pristine, scorer, args, work):
    """clepsilon after decodebin on the coded file, as a player or a
    transcoder runs it, its gain over decodebin's own frames (GStreamer's
    jpegdec does not give FFmpeg's); FFmpeg's filters on FFmpeg's decoded
    frames, their gain over those."""
    coded = os.path.join(args.out, "demo-%s.avi" % src.name)
    decoded = os.path.join(work, "decoded-%s.yuv" % src.name)
    code(pristine, coded, decoded, src.encoder, src.qscale)
    frames = frames_in(decoded)
    src.decoded_score = score(scorer, decoded)

    gst_decoded = os.path.join(work, "decodebin-%s.yuv" % src.name)
    base_gst, _ = gst_filter(decoded, gst_decoded, ["identity"], coded)
    src.gst_decoded_score = score(scorer, gst_decoded)
    base_ff = ffmpeg_filter(decoded, os.path.join(work, "null.yuv"), "null")
    runs = []
    out = os.path.join(work, "clepsilon-%s.yuv" % src.name)
    seconds, src.device = gst_filter(decoded, out, [
        "clepsilon", "device=" + args.device] + src.setting, coded)
    # gst-launch-1.0 times from PLAYING: the first frame went through while
    # the pipeline prerolled.
    runs.append(("clepsilon " + " ".join(src.setting), out,
                 (seconds - base_gst) / (frames - 1), src.gst_decoded_score))
    out = os.path.join(work, "spp-%s.yuv" % src.name)
    seconds = ffmpeg_filter(decoded, out, SPP)
    runs.append((SPP, out, (seconds - base_ff) / frames, src.decoded_score))
    out = os.path.join(work, "hqdn3d-%s.yuv" % src.name)
    seconds = hqdn3d(decoded, out, work)
    runs.append(("hqdn3d=luma_spatial=%g" % HQDN3D_LUMA, out,
                 (seconds - base_ff) / frames, src.decoded_score))
    for label, path, cost, base in runs:
        src.results.append((label,) + score(scorer, path) + (cost * 1000,
                                                             base))
    src.filtered = runs[0][1]
    src.decoded = gst_decoded
    save_y4m(runs[0][1], os.path.join(args.out, "denoised-%s.y4m" % src.name))


def print_ceiling(src, scorer, args, work):
    """The stage at STAGE_GRID on SRC's decoded frames: the gain of
    the best of them (or none) for the whole source, and of each frame at
    its own best (the element sees no pristine frame to choose so)."""
    dec = q.read_luma(src.decoded).astype(np.float64)
    per_frame = [((scorer.ref - dec) ** 2).mean(axis=(1, 2))]
    out = os.path.join(work, "ceiling.yuv")
    for t in STAGE_GRID:
        q.run([CL_DCT, "filter", args.device, str(q.W), str(q.H),
               src.decoded, out, "16", str(t)])
        per_frame.append(((scorer.ref - q.read_luma(out)) ** 2).mean(
            axis=(1, 2)))
    mse = np.array(per_frame)           # [threshold, frame], 0: decoded

    def gain(frame_mse):
        return float(np.mean([q.psnr(frame_mse[f:f + n].mean()) -
                              q.psnr(mse[0, f:f + n].mean())
                              for _, f, n in scorer.seqs]))
    fixed = max(range(mse.shape[0]), key=lambda k: gain(mse[k]))
    print("  the DCT stage at 8, 16, .. 160: the best for the source (%d): "
          "%+.2f dB; each frame at its own best: %+.2f dB" % (
              ([0] + list(STAGE_GRID))[fixed], gain(mse[fixed]),
              gain(mse.min(axis=0))))
    return gain(mse.min(axis=0))


def save_y4m(raw, dst):
    q.run(["ffmpeg", "-v", "error", "-y"] + q.RAW_IN + ["-i", raw, "-f",
          "yuv4mpegpipe", dst])


def print_source(src, photos):
    d = src.decoded_score
    print("\n%s (ffmpeg -c:v %s -q:v %s), %d frames of %s:" % (
        src.label, src.encoder, src.qscale, FRAMES_PER_PHOTO * len(photos),
        ", ".join(photos)))
    print("  %-40s %9s %8s %8s %8s %9s" % ("", "PSNR, dB", "gain", "SSIM",
                                           "gain", "ms/frame"))
    print("  %-40s %9.2f %8s %8.4f" % ("decoded", d[0], "", d[1]))
    g = src.gst_decoded_score
    if abs(g[0] - d[0]) >= 0.005:
        print("  %-40s %9.2f %8s %8.4f" % ("decoded by decodebin", g[0], "",
                                           g[1]))
    for label, p, s, ms, base in src.results:
        print("  %-40s %9.2f %+8.2f %8.4f %+8.4f %9.2f" % (
            label, p, p - base[0], s, s - base[1], ms))


def print_means(sources):
    """Prints each filter's mean gains and time over the sources."""
    print("\nMean over the %d sources:" % len(sources))
    names = ["clepsilon (each source's setting)", SPP,
             "hqdn3d=luma_spatial=%g" % HQDN3D_LUMA]
    for k, name in enumerate(names):
        psnr, ssim, ms = np.mean([(s.results[k][1] - s.results[k][4][0],
                                   s.results[k][2] - s.results[k][4][1],
                                   s.results[k][3]) for s in sources], axis=0)
        print("  %-40s PSNR %+.2f dB  SSIM %+.4f  %7.2f ms/frame" % (
            name, psnr, ssim, ms))
    print("  (ms/frame: wall time a frame on this machine, less that of the "
          "same run without the filter)")


def worst_window(scorer, decoded):
    """(frame, x, y) of the CROP_W x CROP_H window, on the 8x8 grid, with the
    largest decoded error over the flat pixels next to strong edges."""
    dec = q.read_luma(decoded)
    best = None
    for f in range(dec.shape[0]):
        err = (scorer.ref[f] - dec[f]) ** 2 * scorer.masks[f]
        for y in range(0, q.H - CROP_H + 1, 8):
            for x in range(0, q.W - CROP_W + 1, 8):
                e = err[y:y + CROP_H, x:x + CROP_W].sum()
                if best is None or e > best[0]:
                    best = (e, f, x, y)
    return best[1:]


def picture(sources, scorers, photos, out):
    """OUT/before-after.png: per source, the window where it rings most,
    enlarged: pristine, decoded (before), clepsilon (after), and below each
    its error against the pristine frame with the window's PSNR."""
    rows = []
    for src in sources:
        scorer = scorers[src.name]
        f, x, y = worst_window(scorer, src.decoded)
        photo = photos[f // FRAMES_PER_PHOTO]
        path = os.path.join(out, "before-after-%s.png" % src.name)
        q.save_panels(path, [
            ("pristine: %s, frame %d" % (photo, f), scorer.ref[f]),
            ("before: decoded", q.read_luma(src.decoded)[f]),
            ("after: clepsilon", q.read_luma(src.filtered)[f])],
            x, y, CROP_W, CROP_H, ZOOM)
        rows.append(Image.open(path))
        os.unlink(path)
    heading = ("Where each source rings most: a %dx%d window enlarged %dx; "
               "error = |difference from pristine| x 4" % (CROP_W, CROP_H,
                                                           ZOOM))
    titles = ["%s (ffmpeg -c:v %s -q:v %s), clepsilon %s" % (
        s.label, s.encoder, s.qscale, " ".join(s.setting)) for s in sources]
    q.stack_panels(rows, heading, titles, os.path.join(out,
                                                       "before-after.png"))


def demo(args):
    started = time.time()
    work = os.path.join(args.out, "demo-work")
    os.makedirs(work, exist_ok=True)
    sources = [Source(s) for s in args.source]
    photos = [p[0] for p in PHOTOS]
    scorers, pristine, ceilings = {}, {}, []
    for pix_fmt in sorted({pix_fmt_of(s.encoder) for s in sources}):
        parts = []
        for photo in PHOTOS:
            parts.append(os.path.join(work, "%s-%s.yuv" % (photo[0],
                                                           pix_fmt)))
            pan(SKIMAGE_DATA, photo, parts[-1], pix_fmt)
        pristine[pix_fmt] = os.path.join(work, "pristine-%s.yuv" % pix_fmt)
        concat(parts, pristine[pix_fmt])
        layout = [(p, i * FRAMES_PER_PHOTO, FRAMES_PER_PHOTO)
                  for i, p in enumerate(photos)]
        scorers[pix_fmt] = q.Scorer(layout, pristine[pix_fmt])
    for src in sources:
        pix_fmt = pix_fmt_of(src.encoder)
        scorers[src.name] = scorers[pix_fmt]
        run_source(src, pristine[pix_fmt], scorers[pix_fmt], args, work)
        if src is sources[0]:
            print("clepsilon ran on: %s" % src.device)
        print_source(src, photos)
        if args.ceiling:
            ceilings.append(print_ceiling(src, scorers[src.name], args,
                                          work))
    print_means(sources)
    if args.ceiling:
        print("  the DCT stage, each frame at its best of 8, 16, .. 160 "
              "  PSNR %+.2f dB" % np.mean(ceilings))
    picture(sources, scorers, photos, args.out)
    print("\nWrote %s/before-after.png, denoised-*.y4m (YUV4MPEG2: mpv or "
          "ffplay play them), demo-*.avi (the coded sources) in %.0f s" % (
              args.out, time.time() - started))


def fit(args):
    """The best fixed clepsilon setting for one way of coding, on the quality
    harness's FIT sequences (quality.py's pictures and pan)."""
    name, encoder, qscale = args.fit.split(":")
    work = os.path.join(args.out, "demo-fit")
    os.makedirs(work, exist_ok=True)
    seqs = [s for s in q.make_pristine(SKIMAGE_DATA, work) if s[0] in q.FIT]
    layout, parts, first = [], [], 0
    for seq, path, n in seqs:
        parts.append(path)
        layout.append((seq, first, n))
        first += n
    pristine = os.path.join(work, "pristine.yuv")
    concat(parts, pristine)
    decoded = os.path.join(work, "decoded.yuv")
    dec_parts = []
    for seq, path, n in seqs:       # each sequence coded on its own
        dec_parts.append(os.path.join(work, "decoded-%s.yuv" % seq))
        code(path, os.path.join(work, "coded.avi"), dec_parts[-1], encoder,
             qscale)
    concat(dec_parts, decoded)
    scorer = q.Scorer(layout, pristine)
    base = scorer.score(decoded, with_ssim=False)
    out = os.path.join(work, "filtered.yuv")
    rows = []
    settings = [["strength=auto"]] + [
        ["threshold=%d" % t, "window-size=%d" % w]
        for t in q.THRESHOLDS for w in q.WINDOWS]
    for setting in settings:
        gst_filter(decoded, out, ["clepsilon", "device=" + args.device] +
                   setting)
        s = scorer.score(out, with_ssim=False)
        g = [s[k][0] - base[k][0] for k in s]
        rows.append((float(np.mean(g)), min(g), " ".join(setting)))
    print("%s (ffmpeg -c:v %s -q:v %s) on %s: mean luma PSNR gain, worst "
          "sequence" % (name, encoder, qscale, ", ".join(q.FIT)))
    print("  %-36s %+.3f %+.3f" % (rows[0][2], rows[0][0], rows[0][1]))
    for mean, worst, setting in sorted(rows[1:], reverse=True)[:10]:
        print("  %-36s %+.3f %+.3f" % (setting, mean, worst))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=os.path.join(TOP, "out"))
    ap.add_argument("--device", default="auto",
                    help="clepsilon's device property")
    ap.add_argument("--source", action="append", default=[],
                    help="NAME:LABEL:ENCODER:QSCALE:CLEPSILON SETTING")
    ap.add_argument("--ceiling", action="store_true",
                    help="also the DCT stage at every fixed threshold")
    ap.add_argument("--fit", help="NAME:ENCODER:QSCALE")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    if args.fit:
        return fit(args)
    if not args.source:
        ap.error("no --source")
    demo(args)


if __name__ == "__main__":
    main()
