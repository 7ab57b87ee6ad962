#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# gst-clfilters quality harness: does clepsilon remove codec ringing?
#
# Pristine photographs from Debian's python3-skimage package (fetched with
# apt-get download at run time, never committed) are cropped, encoded at low
# quality with real codecs (MPEG-2 and H.264 through FFmpeg, MJPEG through
# GStreamer's jpegenc), decoded, and filtered with clepsilon over a grid of
# thresholds and window sizes, with GStreamer's smooth and FFmpeg's hqdn3d as
# references. Reported against the pristine luma: PSNR, SSIM, and a
# "mosquito" PSNR over the flat pixels near strong edges (see mosquito_mask).
#
# Run through tests/quality/run.sh, which installs what is missing and builds.
# Writes OUT/results.json, OUT/report.md, OUT/psnr-gain.png, OUT/crop-*.png.

import argparse
import itertools
import json
import os
import subprocess
import sys
import time

import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage
from skimage.metrics import structural_similarity

W, H = 384, 288                 # every sequence is cropped to this
FRAME = W * H * 3 // 2          # I420
FPS = 25

# (name, file in skimage/data, left, top of the crop)
STILLS = [
    ("astronaut", "astronaut.png", 64, 112),
    ("camera", "camera.png", 64, 112),
    ("chelsea", "chelsea.png", 33, 6),
    ("coffee", "coffee.png", 108, 56),
    ("coins", "coins.png", 0, 7),
    ("motorcycle", "motorcycle_left.png", 178, 106),
    # For the fit/report split: textures and a different
    # view, never used to fit anything.
    ("brick", "brick.png", 64, 112),
    ("gravel", "gravel.png", 64, 112),
    ("moon", "moon.png", 64, 112),
    ("motorcycle-right", "motorcycle_right.png", 300, 150),
]
# The automatic mode's parameters are fitted on these sequences and reported
# on the others (REPORT); the figures that judge it are the REPORT ones.
FIT = ["astronaut", "camera", "coffee", "motorcycle-pan"]
# A clip: the crop window pans over one photograph, 3 px right and 1 px down
# per frame, so the inter-frame codecs predict from moved content.
CLIP = ("motorcycle-pan", "motorcycle_left.png", 150, 100, 3, 1, 12)

# name, family, quality setting (see encode_decode). The low-quality encodes
# are the ones the filter is for, and the ones the defaults are chosen on
# (LOW_QUALITY); the two moderate ones are measured and reported as a check
# of what the defaults do where there is less ringing.
CODECS = [
    ("mpeg2-q14", "mpeg2", 14),     # FFmpeg mpeg2video -q:v 14
    ("mjpeg-q30", "mjpeg", 30),     # GStreamer jpegenc quality=30
    ("mjpeg-q15", "mjpeg", 15),
    ("h264-crf36", "h264", 36),     # FFmpeg libx264 -crf 36
    ("mpeg2-q8", "mpeg2", 8),
    ("h264-crf30", "h264", 30),
]
LOW_QUALITY = ["mpeg2-q14", "mjpeg-q30", "mjpeg-q15", "h264-crf36"]

THRESHOLDS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32]
WINDOWS = [3, 5, 7, 9, 11, 13, 15]
SMOOTH_TOLERANCES = [4, 6, 8, 12, 16, 24]
SMOOTH_SIZES = [1, 2, 3, 4]
HQDN3D_LUMA = [2, 4, 8, 12, 16, 24]

# clepsilon's output is checked sample by sample against the formula, so
# that the figures are known to be the filter's: the first frame of every
# setting, and every frame of these.
EXACT_CHECKS = [(10, 3), (8, 9)]

# The defaults must never lower PSNR by more than this on any sequence/codec.
WORST_ALLOWED_DB = -0.03


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, check=True, capture_output=True, text=True,
                              **kw)
    except subprocess.CalledProcessError as e:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), e.stdout, e.stderr))


def log(*a):
    print(*a, flush=True)


# ---- inputs ---------------------------------------------------------------

def fetch_images(cache):
    """Extracts skimage's data folder from the Debian package; returns it."""
    data = os.path.join(cache, "usr/lib/python3/dist-packages/skimage/data")
    if os.path.isdir(data):
        return data
    os.makedirs(cache, exist_ok=True)
    run(["apt-get", "download", "python3-skimage"], cwd=cache)
    deb = [f for f in os.listdir(cache) if f.endswith(".deb")][0]
    run(["dpkg-deb", "-x", os.path.join(cache, deb), cache])
    return data


def package_version(cache):
    debs = [f for f in os.listdir(cache) if f.endswith(".deb")]
    return debs[0] if debs else "?"


def make_pristine(data, work):
    """Writes each sequence as raw I420 (FFmpeg's BT.601 limited-range
    conversion of the PNG); returns [(name, path, frames)]."""
    seqs = []
    for name, png, x, y in STILLS:
        path = os.path.join(work, "%s.yuv" % name)
        run(["ffmpeg", "-v", "error", "-y", "-i", os.path.join(data, png),
             "-vf", "crop=%d:%d:%d:%d,format=yuv420p" % (W, H, x, y),
             "-frames:v", "1", "-f", "rawvideo", path])
        seqs.append((name, path, 1))
    name, png, x, y, dx, dy, n = CLIP
    path = os.path.join(work, "%s.yuv" % name)
    run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate", str(FPS),
         "-i", os.path.join(data, png), "-vf",
         "crop=%d:%d:%d+%d*n:%d+%d*n,format=yuv420p" % (W, H, x, dx, y, dy),
         "-frames:v", str(n), "-f", "rawvideo", path])
    seqs.append((name, path, n))
    for name, path, n in seqs:
        assert os.path.getsize(path) == n * FRAME, path
    return seqs


RAW_IN = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "%dx%d" % (W, H),
          "-r", str(FPS)]


def gst_raw_src(path):
    return ["filesrc", "location=" + path, "!", "rawvideoparse",
            "width=%d" % W, "height=%d" % H, "format=i420",
            "framerate=%d/1" % FPS]


def encode_decode(family, q, src, dst, work):
    """Encodes SRC (raw I420) with the codec and decodes it into DST."""
    if family == "mpeg2":
        enc = os.path.join(work, "enc.m2v")
        run(["ffmpeg", "-v", "error", "-y"] + RAW_IN + ["-i", src,
             "-c:v", "mpeg2video", "-q:v", str(q), "-g", "12", "-bf", "2",
             "-threads", "1", enc])
    elif family == "h264":
        enc = os.path.join(work, "enc.h264")
        run(["ffmpeg", "-v", "error", "-y"] + RAW_IN + ["-i", src,
             "-c:v", "libx264", "-crf", str(q), "-preset", "medium",
             "-threads", "1", enc])
    else:
        enc = None
        run(["gst-launch-1.0", "-q"] + gst_raw_src(src) +
            ["!", "jpegenc", "quality=%d" % q, "!", "jpegdec", "!",
             "video/x-raw,format=I420", "!", "filesink", "location=" + dst])
    if enc:
        run(["ffmpeg", "-v", "error", "-y", "-i", enc, "-f", "rawvideo",
             "-pix_fmt", "yuv420p", dst])
        os.unlink(enc)
    assert os.path.getsize(dst) == os.path.getsize(src), dst


# ---- filters ----------------------------------------------------------------

def gst_filter(src, dst, element):
    run(["gst-launch-1.0", "-q"] + gst_raw_src(src) + ["!"] + element +
        ["!", "filesink", "location=" + dst])
    assert os.path.getsize(dst) == os.path.getsize(src), (dst, element)


def repair_last_row(src, dst):
    """GStreamer 1.22's smooth writes zeros into the last luma row; copy that
    row from its input so that the figures measure the filter, not that
    defect."""
    a = np.fromfile(src, np.uint8).reshape(-1, FRAME)
    b = np.fromfile(dst, np.uint8).reshape(-1, FRAME)
    b[:, (H - 1) * W:H * W] = a[:, (H - 1) * W:H * W]
    b.tofile(dst)


def hqdn3d(src, dst, luma, frames_per_seq):
    """hqdn3d on each sequence alone (its temporal part must not blend one
    photograph into the next), luma only; the outputs are concatenated."""
    tmp = dst + ".part"
    with open(src, "rb") as f, open(dst, "wb") as out:
        for n in frames_per_seq:
            with open(tmp, "wb") as t:
                t.write(f.read(n * FRAME))
            part = tmp + ".out"
            run(["ffmpeg", "-v", "error", "-y"] + RAW_IN + ["-i", tmp, "-vf",
                 "hqdn3d=luma_spatial=%g:chroma_spatial=0:luma_tmp=%g:"
                 "chroma_tmp=0" % (luma, 1.5 * luma),
                 "-f", "rawvideo", "-pix_fmt", "yuv420p", part])
            with open(part, "rb") as p:
                out.write(p.read())
            os.unlink(part)
    os.unlink(tmp)


def epsilon_reference(y, threshold, window):
    """docs/filters.md stage 1 in numpy: the rounded mean of the window's
    samples within threshold of the centre, replicate border."""
    r = window // 2
    y = y.astype(np.int32)
    p = np.pad(y, r, mode="edge")
    s = np.zeros_like(y)
    n = np.zeros_like(y)
    for dy in range(window):
        for dx in range(window):
            q = p[dy:dy + y.shape[0], dx:dx + y.shape[1]]
            m = np.abs(q - y) <= threshold
            s += q * m
            n += m
    return (s + n // 2) // n


def check_exact(decoded, filtered, threshold, window, frames=None):
    """Fails the run unless clepsilon's luma equals the formula exactly, on
    the given frames (default all)."""
    a, b = read_luma(decoded), read_luma(filtered)
    for i in (range(a.shape[0]) if frames is None else frames):
        bad = np.count_nonzero(epsilon_reference(a[i], threshold, window) !=
                               b[i])
        if bad:
            sys.exit("clepsilon threshold=%d window-size=%d: frame %d of %s "
                     "differs from the formula in %d samples" % (
                         threshold, window, i, decoded, bad))


# ---- metrics ----------------------------------------------------------------

def read_luma(path):
    raw = np.fromfile(path, np.uint8).reshape(-1, FRAME)
    return raw[:, :W * H].reshape(-1, H, W)


def mosquito_mask(y):
    """Flat pixels within 8 pixels of a strong edge of the source luma Y.

    Gradient: the Sobel magnitude divided by 8, in levels per pixel (a ramp
    of slope s reads s; a sharp step of height h reads about h/2 beside it).
    Strong edge: gradient >= 20 (steps of about 40 levels or more).
    Flat: gradient < 3. Near: Euclidean distance to the nearest strong-edge
    pixel between 1 and 8."""
    f = y.astype(np.float64)
    grad = np.hypot(ndimage.sobel(f, axis=1), ndimage.sobel(f, axis=0)) / 8
    edge = grad >= 20
    if not edge.any():
        return np.zeros_like(edge)
    dist = ndimage.distance_transform_edt(~edge)
    return (dist >= 1) & (dist <= 8) & (grad < 3)


def psnr(mse):
    return 10 * np.log10(255.0 ** 2 / mse) if mse > 0 else 99.0


class Scorer:
    def __init__(self, seqs, pristine):
        self.seqs = seqs                    # [(name, first frame, frames)]
        self.ref = read_luma(pristine).astype(np.float64)
        self.masks = np.stack([mosquito_mask(f) for f in read_luma(pristine)])

    def score(self, path, with_ssim=True):
        """{sequence: (psnr, ssim, mosquito psnr)}; SSIM as Wang et al.
        (Gaussian sigma 1.5, data range 255), the mean over frames."""
        test = read_luma(path)
        out = {}
        for name, first, n in self.seqs:
            r = self.ref[first:first + n]
            t = test[first:first + n].astype(np.float64)
            m = self.masks[first:first + n]
            err = (r - t) ** 2
            s = float("nan")
            if with_ssim:
                s = float(np.mean([structural_similarity(
                    r[i], t[i], data_range=255, gaussian_weights=True,
                    sigma=1.5, use_sample_covariance=False)
                    for i in range(n)]))
            out[name] = (float(psnr(err.mean())), s,
                         float(psnr(err[m].mean())))
        return out


# ---- the run ----------------------------------------------------------------

def passes(means, worst):
    """The rule for the defaults, on the low-quality encodes: no sequence
    loses more than WORST_ALLOWED_DB, every MPEG-2 and MJPEG mean gains."""
    return worst[0] >= WORST_ALLOWED_DB and min(
        means[c] for c in LOW_QUALITY if not c.startswith("h264")) > 0


def target_gain(means):
    """What the defaults maximise: the mean gain over the low-quality MPEG-2
    and MJPEG encodes."""
    return float(np.mean([means[c] for c in LOW_QUALITY
                          if not c.startswith("h264")]))


def choose_defaults(res, seq_names):
    """Among (threshold, window) pairs that pass the rule, the one with the
    largest target gain; ties go to the smaller window. Returns it (or None)
    and, per pair, (mean gain per codec, worst low-quality sequence, worst
    sequence of all)."""
    best = None
    table = {}
    for t, w in itertools.product(THRESHOLDS, WINDOWS):
        key = "clepsilon t=%d w=%d" % (t, w)
        gains = {c: [res[c][key][s][0] - res[c]["decoded"][s][0]
                     for s in seq_names] for c, _, _ in CODECS}
        worst = min((g[i], "%s %s" % (c, seq_names[i]))
                    for c, g in gains.items() if c in LOW_QUALITY
                    for i in range(len(g)))
        worst_all = min((g[i], "%s %s" % (c, seq_names[i]))
                        for c, g in gains.items() for i in range(len(g)))
        means = {c: float(np.mean(g)) for c, g in gains.items()}
        table[(t, w)] = (means, worst, worst_all)
        ok = passes(means, worst)
        score = (target_gain(means), -w)
        if ok and (best is None or score > best[0]):
            best = (score, t, w)
    return (best[1], best[2]) if best else None, table


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="out/quality")
    ap.add_argument("--device", default="auto",
                    help="clepsilon's device property")
    ap.add_argument("--report-only", action="store_true",
                    help="redo the report, plot and crops from the last "
                    "run's results.json and work files")
    args = ap.parse_args()
    started = time.time()
    if args.report_only:
        return report_only(os.path.abspath(args.out), args.device)

    out = os.path.abspath(args.out)
    work = os.path.join(out, "work")
    cache = os.path.join(out, "cache")
    os.makedirs(work, exist_ok=True)
    data = fetch_images(cache)
    log("images from", package_version(cache))

    seqs = make_pristine(data, work)
    pristine = os.path.join(work, "pristine.yuv")
    layout, first = [], 0
    with open(pristine, "wb") as f:
        for name, path, n in seqs:
            f.write(open(path, "rb").read())
            layout.append((name, first, n))
            first += n
    frames_per_seq = [n for _, _, n in seqs]
    seq_names = [name for name, _, _ in seqs]
    scorer = Scorer(layout, pristine)
    log("sequences:", ", ".join("%s (%d frame%s, %d mosquito pixels)" % (
        name, n, "s" if n > 1 else "", scorer.masks[f0:f0 + n].sum())
        for name, f0, n in layout))

    res = {}
    filtered = os.path.join(work, "filtered.yuv")
    for cname, family, q in CODECS:
        t0 = time.time()
        decoded = os.path.join(work, "decoded-%s.yuv" % cname)
        parts = []
        for name, path, n in seqs:
            part = os.path.join(work, "dec-%s-%s.yuv" % (cname, name))
            encode_decode(family, q, path, part, work)
            parts.append(part)
        with open(decoded, "wb") as f:
            for p in parts:
                f.write(open(p, "rb").read())
                os.unlink(p)
        r = res[cname] = {"decoded": scorer.score(decoded)}

        for t, w in itertools.product(THRESHOLDS, WINDOWS):
            gst_filter(decoded, filtered, ["clepsilon", "device=" +
                       args.device, "threshold=%d" % t, "window-size=%d" % w])
            r["clepsilon t=%d w=%d" % (t, w)] = scorer.score(filtered)
            check_exact(decoded, filtered, t, w,
                        None if (t, w) in EXACT_CHECKS else [0])
        # The element as built, no properties: checks the defaults in use.
        gst_filter(decoded, filtered, ["clepsilon", "device=" + args.device])
        r["clepsilon defaults"] = scorer.score(filtered)
        for t, s in itertools.product(SMOOTH_TOLERANCES, SMOOTH_SIZES):
            gst_filter(decoded, filtered, ["smooth", "tolerance=%d" % t,
                       "filter-size=%d" % s, "luma-only=true"])
            repair_last_row(decoded, filtered)
            r["smooth tolerance=%d filter-size=%d" % (t, s)] = \
                scorer.score(filtered)
        for ls in HQDN3D_LUMA:
            hqdn3d(decoded, filtered, ls, frames_per_seq)
            r["hqdn3d luma_spatial=%g" % ls] = scorer.score(filtered)
        log("%-10s %3d settings scored in %5.1f s; decoded PSNR %s" % (
            cname, len(r), time.time() - t0, " ".join(
                "%.2f" % r["decoded"][s][0] for s in seq_names)))

    json.dump({"sequences": layout, "codecs": CODECS, "results": res},
              open(os.path.join(out, "results.json"), "w"), indent=1)
    chosen, table = choose_defaults(res, seq_names)
    report(out, res, seq_names, chosen, table, package_version(cache))
    plot(out, res, seq_names, chosen)
    crops(out, work, scorer, layout, chosen, args.device, res)
    log("wrote %s/report.md, psnr-gain.png, crop-*.png in %.0f s" % (
        out, time.time() - started))


def report_only(out, device):
    work = os.path.join(out, "work")
    saved = json.load(open(os.path.join(out, "results.json")))
    layout = [tuple(l) for l in saved["sequences"]]
    res = saved["results"]
    seq_names = [l[0] for l in layout]
    scorer = Scorer(layout, os.path.join(work, "pristine.yuv"))
    chosen, table = choose_defaults(res, seq_names)
    report(out, res, seq_names, chosen, table,
           package_version(os.path.join(out, "cache")))
    plot(out, res, seq_names, chosen)
    crops(out, work, scorer, layout, chosen, device, res)


# ---- outputs ----------------------------------------------------------------

def best_of(r, prefix, seq_names):
    """The setting of a filter with the best mean PSNR over the sequences."""
    keys = [k for k in r if k.startswith(prefix)]
    return max(keys, key=lambda k: np.mean([r[k][s][0] for s in seq_names]))


def gains(r, key, seq_names, metric=0):
    """Per sequence, filtered minus decoded, for one metric."""
    return [r[key][s][metric] - r["decoded"][s][metric] for s in seq_names]


def report(out, res, seq_names, chosen, table, pkg):
    L = []
    p = L.append
    p("# clepsilon quality report\n")
    p("Images: %s; crops %dx%d; clip %s (%d frames). Gains are dB of luma "
      "PSNR (SSIM: its difference) against the pristine crop, filtered minus "
      "decoded; mosquito = PSNR over the flat pixels near strong edges.\n" % (
          pkg, W, H, CLIP[0], CLIP[6]))

    p("## Decoded, before any filter\n")
    p("Luma PSNR per sequence, and the means of PSNR, SSIM and mosquito "
      "PSNR.\n")
    p("| codec | " + " | ".join(seq_names) + " | mean PSNR | mean SSIM | "
      "mean mosquito |")
    p("| --- |" + " --- |" * (len(seq_names) + 3))
    for c, _, _ in CODECS:
        d = res[c]["decoded"]
        p("| %s | " % c + " | ".join("%.2f" % d[s][0] for s in seq_names) +
          " | %.2f | %.4f | %.2f |" % tuple(
              np.mean([d[s][m] for s in seq_names]) for m in range(3)))

    p("\n## Summary: gains per codec\n")
    p("Mean over the %d sequences of the PSNR, SSIM and mosquito-PSNR gains; "
      "worst = the lowest PSNR gain of one sequence. smooth and hqdn3d at "
      "their setting with the best mean PSNR for that codec; \"clepsilon "
      "best\" likewise over the whole grid. \"element defaults\" ran with "
      "no property set.\n" % len(seq_names))
    p("| codec | filter | PSNR | worst | SSIM | mosquito |")
    p("| --- | --- | --- | --- | --- | --- |")
    for c, _, _ in CODECS:
        r = res[c]
        rows = [("clepsilon t=%d w=%d (chosen)" % chosen,
                 "clepsilon t=%d w=%d" % chosen)] if chosen else []
        rows += [("clepsilon element defaults", "clepsilon defaults"),
                 ("clepsilon t=8 w=9", "clepsilon t=8 w=9")]
        for name in ("clepsilon t=", "smooth", "hqdn3d"):
            k = best_of(r, name, seq_names)
            rows.append(((k + " (best)").replace("t=", "t=", 1), k))
        for label, k in rows:
            g = gains(r, k, seq_names)
            i = int(np.argmin(g))
            p("| %s | %s | %+.3f | %+.3f (%s) | %+.4f | %+.2f |" % (
                c, label, np.mean(g), g[i], seq_names[i],
                np.mean(gains(r, k, seq_names, 1)),
                np.mean(gains(r, k, seq_names, 2))))

    p("\n## Candidates for the defaults\n")
    p("Mean PSNR gain per codec. Rule, on the low-quality encodes (%s): no "
      "sequence loses more than %.2f dB (worst, low), and the mean gain of "
      "every MPEG-2 and MJPEG encode is positive; among the pairs that pass, "
      "the largest mean gain over those MPEG-2 and MJPEG encodes. The "
      "moderate-quality encodes are a check, not part of the rule (worst, "
      "all). First the 10 best pairs that pass, then the 10 best that "
      "fail.\n" % (", ".join(LOW_QUALITY), WORST_ALLOWED_DB))
    p("| threshold | window | " + " | ".join(c for c, _, _ in CODECS) +
      " | worst, low | worst, all |")
    p("| --- | --- |" + " --- |" * (len(CODECS) + 2))
    rows = sorted(table.items(), key=lambda kv: -target_gain(kv[1][0]))
    ok = [r for r in rows if passes(r[1][0], r[1][1])]
    for (t, w), (means, worst, worst_all) in ok[:10] + \
            [r for r in rows if r not in ok][:10]:
        mark = " **chosen**" if chosen == (t, w) else ""
        p("| %d | %d%s | " % (t, w, mark) + " | ".join(
            "%+.3f" % means[c] for c, _, _ in CODECS) +
            " | %+.3f (%s) | %+.3f (%s) |" % (worst + worst_all))
    p("\nChosen: %s\n" % ("threshold=%d window-size=%d" % chosen
                          if chosen else "none satisfies the rule"))

    if chosen:
        k = "clepsilon t=%d w=%d" % chosen
        p("## Chosen setting per sequence\n")
        p("PSNR / SSIM / mosquito-PSNR gains of %s.\n" % k)
        p("| codec | " + " | ".join(seq_names) + " |")
        p("| --- |" + " --- |" * len(seq_names))
        for c, _, _ in CODECS:
            p("| %s | " % c + " | ".join(
                "%+.2f / %+.4f / %+.2f" % tuple(
                    a - b for a, b in zip(res[c][k][s], res[c]["decoded"][s]))
                for s in seq_names) + " |")

    p("\n## Grid: mean PSNR gain over the sequences, worst sequence in "
      "brackets; threshold in rows, window-size in columns\n")
    for c, _, _ in CODECS:
        p("### %s\n" % c)
        p("| t \\ w | " + " | ".join(str(w) for w in WINDOWS) + " |")
        p("| --- |" + " --- |" * len(WINDOWS))
        for t in THRESHOLDS:
            cells = []
            for w in WINDOWS:
                g = gains(res[c], "clepsilon t=%d w=%d" % (t, w), seq_names)
                cells.append("%+.3f (%+.3f)" % (np.mean(g), min(g)))
            p("| %d | " % t + " | ".join(cells) + " |")
        p("")
    open(os.path.join(out, "report.md"), "w").write("\n".join(L) + "\n")
    print("\n".join(L))


def plot(out, res, seq_names, chosen):
    """PSNR gain against threshold at the chosen window and at window 5:
    mean over the sequences (solid) and worst sequence (dotted)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    windows = [chosen[1] if chosen else 9]
    windows.append(9 if windows[0] != 9 else 5)
    ts = [t for t in THRESHOLDS if t <= 24]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), dpi=90, sharey=True)
    for ax, w in zip(axes, windows):
        for c, _, _ in CODECS:
            mean, worst = [], []
            for t in ts:
                g = [res[c]["clepsilon t=%d w=%d" % (t, w)][s][0] -
                     res[c]["decoded"][s][0] for s in seq_names]
                mean.append(np.mean(g))
                worst.append(min(g))
            line, = ax.plot(ts, mean, marker="o", ms=3, label=c)
            ax.plot(ts, worst, ls=":", color=line.get_color())
        ax.axhline(0, color="black", lw=0.8)
        if chosen and w == chosen[1]:
            ax.axvline(chosen[0], color="grey", ls="--", lw=0.8)
        ax.set_xlabel("threshold, window-size %d" % w)
        ax.set_ylim(-1.0, 0.7)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("luma PSNR gain, dB")
    axes[0].legend(fontsize=7, ncol=2, loc="lower left")
    fig.suptitle("clepsilon: PSNR gain against threshold (solid: mean over "
                 "the sequences; dotted: worst sequence)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "psnr-gain.png"))


def save_panels(path, panels, x, y, cw, ch, zoom, gap=6, label_h=14):
    """Writes to @path the (cw x ch) window at (x, y) of each (label, luma
    plane) of @panels, enlarged @zoom times, side by side; below each, its
    |difference| x 4 against the first panel, with that window's PSNR."""
    ref = panels[0][1][y:y + ch, x:x + cw].astype(np.float64)
    pw, ph = cw * zoom, ch * zoom
    img = Image.new("L", (len(panels) * (pw + gap) - gap,
                          2 * (ph + label_h) + gap), 255)
    draw = ImageDraw.Draw(img)
    for i, (label, plane) in enumerate(panels):
        crop = plane[y:y + ch, x:x + cw].astype(np.float64)
        err = np.clip(np.abs(crop - ref) * 4, 0, 255)
        label2 = "error x4 (none)" if i == 0 else \
            "error x4, PSNR here %.2f dB" % psnr(np.mean((crop - ref) ** 2))
        for row, (tile, text) in enumerate(((crop, label), (err, label2))):
            top = row * (ph + label_h + gap)
            im = Image.fromarray(np.clip(tile, 0, 255).astype(np.uint8))
            img.paste(im.resize((pw, ph), Image.NEAREST),
                      (i * (pw + gap), top + label_h))
            draw.text((i * (pw + gap) + 2, top + 1), text, fill=0)
    img.save(path, optimize=True)


def stack_panels(rows, heading, titles, path, gap=10, head=16):
    """Writes to @path the pictures @rows (PIL images, as save_panels()
    writes them) one above the other, @heading on top and each row's title
    (@titles) above it."""
    img = Image.new("L", (max(r.width for r in rows), head + sum(
        r.height + head + gap for r in rows)), 255)
    draw = ImageDraw.Draw(img)
    draw.text((2, 2), heading, fill=0)
    top = head + gap
    for title, r in zip(titles, rows):
        draw.text((2, top + 2), title, fill=0)
        img.paste(r, (0, top + head))
        top += r.height + head + gap
    img.save(path, optimize=True)


def crops(out, work, scorer, layout, chosen, device, res):
    """For the low-quality encode of each codec family, the 64x48 window of a
    still with the largest decoded error over its mosquito pixels, enlarged
    4x: pristine, decoded, clepsilon at the chosen settings and at the
    setting with the best mean PSNR for that encode; below each, its error
    against the pristine luma, |difference| x 4 (black = no error)."""
    cw, ch, zoom = 64, 48, 4
    t, w = chosen if chosen else (8, 9)
    stills = [l for l in layout if l[2] == 1]
    seq_names = [l[0] for l in layout]
    for cname, family, _ in CODECS:
        if cname not in LOW_QUALITY or cname == "mjpeg-q30":
            continue                    # one encode per family
        decoded = os.path.join(work, "decoded-%s.yuv" % cname)
        strong = best_of(res[cname], "clepsilon t=", seq_names)
        st, sw = [int(v.split("=")[1]) for v in strong.split()[1:]]
        filt = os.path.join(work, "crop-filtered.yuv")
        gst_filter(decoded, filt, ["clepsilon", "device=" + device,
                   "threshold=%d" % t, "window-size=%d" % w])
        fil = read_luma(filt)
        gst_filter(decoded, filt, ["clepsilon", "device=" + device,
                   "threshold=%d" % st, "window-size=%d" % sw])
        fil2 = read_luma(filt)
        dec = read_luma(decoded)
        best = None
        for name, f0, _ in stills:
            err = (scorer.ref[f0] - dec[f0]) ** 2 * scorer.masks[f0]
            for y in range(0, H - ch + 1, 8):
                for x in range(0, W - cw + 1, 8):
                    e = err[y:y + ch, x:x + cw].sum()
                    if best is None or e > best[0]:
                        best = (e, name, f0, x, y)
        _, name, f0, x, y = best
        panels = [("pristine (%s)" % name, scorer.ref[f0]),
                  ("decoded, " + cname, dec[f0]),
                  ("clepsilon t=%d w=%d (default)" % (t, w), fil[f0]),
                  ("clepsilon t=%d w=%d" % (st, sw), fil2[f0])]
        path = os.path.join(out, "crop-%s.png" % family)
        save_panels(path, panels, x, y, cw, ch, zoom)
        log("%s: %s at (%d, %d), %dx%d, from %s" % (path, name, x, y, cw, ch,
                                                    cname))


if __name__ == "__main__":
    main()
