#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# The held-out evaluation of strength=auto: a content list from
# named public sources installed on a Debian 12 machine, split into a FIT set
# (the only pictures any parameter of the estimate is fitted on) and a REPORT
# set (the figures that judge it), coded by every block-DCT codec family at
# two qualities, plus deblocked codecs (H.264, HEVC) and pristine input.
#
# The list, the split and the sha256 of every source file and of every
# pristine frame made from it are in tests/quality/heldout.json, committed
# before anything was fitted; `heldout.py check` fails if a source or a made
# frame differs from it (another package version, another renderer).
#
#   heldout.py freeze            write heldout.json (done once; never again)
#   heldout.py check             make the pristine content, compare the hashes
#   heldout.py run [--refs]      code, decode, filter, write the report
#   heldout.py fit               the estimate's parameters on FIT (after run)
#   heldout.py held              per kind of video frame (I, P, B, B before
#                                an I), the strength it wants against the
#                                I frame's (after run --refs stage)
#
# Run through tests/quality/run.sh --heldout, which installs what is missing
# and builds. Sizes are CIF (352x288: FFmpeg's H.263 encoder takes it).

import argparse
import hashlib
import json
import os
import sys
import time

import numpy as np
from PIL import Image

from quality import log, run, save_panels, stack_panels  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FROZEN = os.path.join(TOP, "tests", "quality", "heldout.json")
CL_DCT = os.environ.get("CL_DCT", os.path.join(TOP, "build", "tests", "quality",
                                                "cl-dct"))
os.environ.setdefault("GST_PLUGIN_PATH", os.path.join(TOP, "build", "gst"))
SKIMAGE = "/usr/lib/python3/dist-packages/skimage/data"      # python3-skimage
MPLDATA = "/usr/share/matplotlib/mpl-data/sample_data"        # python-matplotlib-data
FONTS = "/usr/share/fonts/truetype/dejavu"                    # fonts-dejavu-core
W, H = 352, 288
FRAME = W * H * 3 // 2
FPS = 25
PAN_FRAMES = 12
PAN_DX, PAN_DY = 4, 2
GOP = ["-g", "6", "-bf", "2"]           # I B B P B B | I ...: B before I

# (name, kind, split, source): kind photo, graphics (flat areas and hard
# edges) or video (a pan of PAN_FRAMES frames over the source, coded as one
# sequence with I, P and B frames). A source is skimage:FILE, mpl:FILE, or
# render:NAME (drawn here with PIL or matplotlib, deterministically).
CONTENT = [
    ("astronaut", "photo", "fit", "skimage:astronaut.png"),
    ("camera", "photo", "fit", "skimage:camera.png"),
    ("coffee", "photo", "fit", "skimage:coffee.png"),
    ("chelsea", "photo", "report", "skimage:chelsea.png"),
    ("coins", "photo", "report", "skimage:coins.png"),
    ("rocket", "photo", "report", "skimage:rocket.jpg"),
    ("grace-hopper", "photo", "report", "mpl:grace_hopper.jpg"),
    ("page", "graphics", "fit", "skimage:page.png"),
    ("slide-a", "graphics", "fit", "render:slide-a"),
    ("chart-bars", "graphics", "fit", "render:chart-bars"),
    ("text", "graphics", "report", "skimage:text.png"),
    ("logo", "graphics", "report", "skimage:logo.png"),
    ("slide-b", "graphics", "report", "render:slide-b"),
    ("chart-lines", "graphics", "report", "render:chart-lines"),
    ("pan-astronaut", "video", "fit", "skimage:astronaut.png"),
    ("pan-coffee", "video", "fit", "skimage:coffee.png"),
    ("pan-slide-a", "video", "fit", "render:slide-a"),
    ("pan-rocket", "video", "report", "skimage:rocket.jpg"),
    ("pan-chelsea", "video", "report", "skimage:chelsea.png"),
    ("pan-slide-b", "video", "report", "render:slide-b"),
]

# (cell, family, encoder settings by quality): FFmpeg's encoders; -q:v is the
# codec's quantizer scale (MJPEG: FFmpeg's scale of the JPEG tables).
CODECS = [
    ("mpeg2", "mpeg2", ["-c:v", "mpeg2video"] + GOP, "-q:v", [8, 14]),
    ("mpeg4", "mpeg4", ["-c:v", "mpeg4"] + GOP, "-q:v", [6, 12]),
    ("mpeg4-mq", "mpeg4-mq", ["-c:v", "mpeg4", "-mpeg_quant", "1"] + GOP,
     "-q:v", [6, 12]),
    ("h263", "h263", ["-c:v", "h263", "-g", "6"], "-q:v", [6, 12]),
    ("mjpeg", "mjpeg", ["-c:v", "mjpeg"], "-q:v", [10, 20]),
    ("mjpeg-tv", "mjpeg-tv", ["-c:v", "mjpeg"], "-q:v", [10, 20]),
    ("h264", "h264", ["-c:v", "libx264", "-preset", "medium"] + GOP, "-crf",
     [30, 36]),
    ("hevc", "hevc", ["-c:v", "libx265", "-preset", "medium",
                      "-x265-params", "keyint=6:bframes=2:log-level=error"],
     "-crf", [32]),
    ("pristine", "pristine", None, None, [0]),
]
RINGING = ["mpeg2", "mpeg4", "mpeg4-mq", "h263", "mjpeg", "mjpeg-tv"]
LABELS = {
    "mpeg2": "MPEG-2 `-q:v` 8, 14",
    "mpeg4": "MPEG-4 Part 2, H.263 quantization, `-q:v` 6, 12",
    "mpeg4-mq": "MPEG-4 Part 2, MPEG quantization, `-q:v` 6, 12",
    "h263": "H.263 `-q:v` 6, 12",
    "mjpeg": "MJPEG full range `-q:v` 10, 20",
    "mjpeg-tv": "MJPEG to limited range `-q:v` 10, 20",
    "h264": "H.264 crf 30, 36",
    "hevc": "HEVC crf 32",
}


def sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def source_path(src):
    kind, name = src.split(":", 1)
    if kind == "skimage":
        return os.path.join(SKIMAGE, name)
    if kind == "mpl":
        return os.path.join(MPLDATA, name)
    return None


# ---- content ---------------------------------------------------------------

def render(name, size):
    """Graphics with flat areas and hard edges, drawn deterministically:
    slides (DejaVu text, boxes, a logo-like disc) and charts (matplotlib,
    Agg)."""
    from PIL import Image, ImageDraw, ImageFont
    w, h = size
    if name.startswith("slide"):
        b = name == "slide-b"
        bg, fg, acc = ((250, 250, 245), (20, 30, 90), (200, 40, 40)) if not b \
            else ((30, 60, 120), (255, 255, 255), (255, 200, 0))
        im = Image.new("RGB", (w, h), bg)
        d = ImageDraw.Draw(im)
        big = ImageFont.truetype(os.path.join(FONTS, "DejaVuSans-Bold.ttf"),
                                 h // 9)
        small = ImageFont.truetype(os.path.join(
            FONTS, "DejaVuSans.ttf" if not b else "DejaVuSerif.ttf"), h // 20)
        d.rectangle([0, 0, w, h // 6], fill=acc)
        d.text((w // 20, h // 40), "Quarterly review" if not b else
               "Mosquito noise", font=big, fill=bg)
        lines = (["- revenue up 12 % on last year", "- new plant opens in May",
                  "- 3 products, 41 markets", "- questions: see page 7"]
                 if not b else ["* ringing next to sharp edges",
                                "* worst on flat areas and text",
                                "* block DCT codecs: MPEG-2, JPEG",
                                "* H.263 and MPEG-4 Part 2"])
        for i, t in enumerate(lines):
            d.text((w // 16, h // 5 + i * h // 9), t, font=small, fill=fg)
        d.ellipse([w * 3 // 4, h * 2 // 3, w * 3 // 4 + h // 4,
                   h * 2 // 3 + h // 4], fill=acc, outline=fg, width=3)
        d.rectangle([w // 16, h * 4 // 5, w // 2, h * 4 // 5 + h // 12],
                    outline=fg, width=2)
        return im
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(w / 100, h / 100), dpi=100)
    ax = fig.add_subplot(111)
    x = np.arange(8)
    if name == "chart-bars":
        ax.bar(x, [3, 7, 4, 8, 5, 2, 6, 7], color="tab:blue")
        ax.bar(x, [1, 2, 2, 3, 1, 1, 2, 3], color="tab:orange")
        ax.set_title("Units sold by quarter")
    else:
        t = np.linspace(0, 4 * np.pi, 200)
        ax.plot(t, np.sin(t), "k-", lw=2, label="sin")
        ax.plot(t, 0.5 * np.cos(2 * t), "r--", lw=2, label="cos")
        ax.legend()
        ax.grid(True)
        ax.set_title("Two signals")
    fig.canvas.draw()
    im = Image.frombuffer("RGBA", fig.canvas.get_width_height(),
                          fig.canvas.buffer_rgba()).convert("RGB")
    plt.close(fig)
    return im


def load(src, size):
    """The source as an RGB picture that covers SIZE (scaled with LANCZOS
    where smaller, alpha over white)."""
    from PIL import Image
    p = source_path(src)
    if p is None:
        return render(src.split(":", 1)[1], size)
    im = Image.open(p)
    if im.mode in ("RGBA", "LA", "P"):
        im = im.convert("RGBA")
        bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
        im = Image.alpha_composite(bg, im)
    im = im.convert("RGB")
    s = max(size[0] / im.size[0], size[1] / im.size[1], 1.0)
    if s > 1.0:
        im = im.resize((int(np.ceil(im.size[0] * s)),
                        int(np.ceil(im.size[1] * s))), Image.LANCZOS)
    return im


def pristine_rgb(kind, src):
    """The frames of one content entry as RGB pictures of W x H: a centre
    crop, or PAN_FRAMES windows moving right and down."""
    if kind != "video":
        im = load(src, (W, H))
        x, y = (im.size[0] - W) // 2, (im.size[1] - H) // 2
        return [im.crop((x, y, x + W, y + H))]
    span = (W + PAN_DX * (PAN_FRAMES - 1), H + PAN_DY * (PAN_FRAMES - 1))
    im = load(src, span)
    x0, y0 = (im.size[0] - span[0]) // 2, (im.size[1] - span[1]) // 2
    return [im.crop((x0 + PAN_DX * n, y0 + PAN_DY * n,
                     x0 + PAN_DX * n + W, y0 + PAN_DY * n + H))
            for n in range(PAN_FRAMES)]


def make_pristine(work):
    """Writes WORK/NAME.rgb (raw RGB24) and NAME.yuv (yuv420p, BT.601
    limited) and NAME.yuvj (yuvj420p, full) for every entry; returns
    {name: frames}."""
    os.makedirs(work, exist_ok=True)
    frames = {}
    for name, kind, split, src in CONTENT:
        fr = pristine_rgb(kind, src)
        rgb = os.path.join(work, name + ".rgb")
        with open(rgb, "wb") as f:
            for im in fr:
                f.write(im.tobytes())
        for ext, fmt in (("yuv", "yuv420p"), ("yuvj", "yuvj420p")):
            run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt",
                 "rgb24", "-s", "%dx%d" % (W, H), "-i", rgb, "-vf",
                 "scale=out_color_matrix=bt601:out_range=%s,format=%s" % (
                     "tv" if ext == "yuv" else "pc", fmt), "-f", "rawvideo",
                 os.path.join(work, "%s.%s" % (name, ext))])
        frames[name] = len(fr)
    return frames


def freeze(work):
    frames = make_pristine(work)
    entries = []
    for name, kind, split, src in CONTENT:
        p = source_path(src)
        entries.append({
            "name": name, "kind": kind, "split": split, "source": src,
            "source_sha256": sha256(p) if p else None,
            "frames": frames[name],
            "pristine_sha256": sha256(os.path.join(work, name + ".yuv")),
        })
    doc = {
        "what": "issue 26's held-out set: fit on split=fit, report on "
                "split=report; frozen before any parameter was fitted",
        "size": [W, H], "pan": [PAN_FRAMES, PAN_DX, PAN_DY],
        "codecs": [[c, fam, enc, qarg, qs] for c, fam, enc, qarg, qs
                   in CODECS],
        "content": entries,
    }
    json.dump(doc, open(FROZEN, "w"), indent=1)
    log("wrote", FROZEN)


def check(work):
    doc = json.load(open(FROZEN))
    make_pristine(work)
    bad = []
    for e in doc["content"]:
        p = source_path(e["source"])
        if p and sha256(p) != e["source_sha256"]:
            bad.append("source of %s (%s)" % (e["name"], p))
        if sha256(os.path.join(work, e["name"] + ".yuv")) != \
                e["pristine_sha256"]:
            bad.append("pristine frames of %s" % e["name"])
    if bad:
        sys.exit("the held-out set differs from heldout.json: " +
                 ", ".join(bad))
    log("held-out set: %d entries match heldout.json" % len(doc["content"]))
    return doc


# ---- coding ----------------------------------------------------------------

def raw_in(fmt, size=(W, H)):
    return ["-f", "rawvideo", "-pix_fmt", fmt, "-s", "%dx%d" % size,
            "-r", str(FPS)]


def code(family, enc, qarg, qv, name, work, dst):
    """Codes the pristine NAME with ENC and decodes it into DST (raw 4:2:0 in
    the range the cell is judged in); returns the pristine file to judge
    against."""
    full = family.startswith("mjpeg")
    src = os.path.join(work, name + (".yuvj" if full else ".yuv"))
    if family == "pristine":
        return src, src
    coded = os.path.join(work, "coded.mkv")
    run(["ffmpeg", "-v", "error", "-y"] + raw_in("yuvj420p" if full else
        "yuv420p") + ["-i", src] + enc + [qarg, str(qv), "-threads", "1",
                                          coded])
    out_fmt = "yuvj420p" if family == "mjpeg" else "yuv420p"
    run(["ffmpeg", "-v", "error", "-y", "-i", coded, "-f", "rawvideo",
         "-pix_fmt", out_fmt, dst])
    ref = src
    if family == "mjpeg-tv":
        # most transcoding chains convert the decoder's full range to
        # limited: the pristine frames go through the same conversion
        ref = os.path.join(work, name + ".tvref")
        run(["ffmpeg", "-v", "error", "-y"] + raw_in("yuvj420p") +
            ["-i", src, "-f", "rawvideo", "-pix_fmt", "yuv420p", ref])
    assert os.path.getsize(dst) == os.path.getsize(src), dst
    return ref, dst


def read_luma(path):
    a = np.fromfile(path, np.uint8).reshape(-1, FRAME)
    return a[:, :W * H].reshape(-1, H, W)


def frame_mse(ref, out):
    d = ref.astype(np.float64) - out.astype(np.float64)
    return (d * d).mean(axis=(1, 2))


def psnr(mse):
    return 10 * np.log10(255.0 ** 2 / np.maximum(mse, 1e-10))


def pict_types(coded_or_none, n):
    if coded_or_none is None:
        return "I" * n
    r = run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries",
             "frame=pict_type", "-of", "csv=p=0", coded_or_none])
    t = "".join(l.strip()[:1] for l in r.stdout.splitlines() if l.strip())
    assert len(t) == n, (coded_or_none, t)
    return t


# ---- filtering ---------------------------------------------------------------

STAGE_GRID = list(range(8, 161, 8))     # fixed thresholds of the stage
QP_GRID = [2, 3, 4, 6, 8, 10, 13, 16]   # spp, fspp, pp7
EPS_GRID = [(t, w) for t in (6, 10, 16) for w in (3, 5)]


def ffmpeg_filter(src, dst, vf, fmt, size=(W, H)):
    run(["ffmpeg", "-v", "error", "-y", "-threads", "1", "-filter_threads",
         "1"] + raw_in(fmt, size) + ["-i", src, "-vf", vf, "-f", "rawvideo",
                                     "-pix_fmt", fmt, dst])


def gst_filter(src, dst, element, size=(W, H), interlaced=False, env=None):
    """ELEMENT on raw I420 frames of SIZE; INTERLACED: caps that say
    interleaved fields, top field first, as a decoder gives them."""
    run(["gst-launch-1.0", "-q", "filesrc", "location=" + src, "!",
         "rawvideoparse", "width=%d" % size[0], "height=%d" % size[1],
         "format=i420", "framerate=%d/1" % FPS] +
        (["interlaced=true", "top-field-first=true"] if interlaced else []) +
        ["!"] + element + ["!", "filesink", "location=" + dst], env=env)


def segments(layout):
    return ",".join(str(k) for _, _, k, _ in layout)


def run_auto(cdir, layout, device, tag):
    """strength=auto as the element runs it (cl-dct auto: the same calls,
    state reset per sequence): per-frame thresholds and the output file."""
    out = os.path.join(cdir, "auto-%s.yuv" % tag)
    r = run([CL_DCT, "auto", device, str(W), str(H),
             os.path.join(cdir, "dec.yuv"), out, "16", segments(layout)])
    thr = np.array([int(l.split()[-1]) for l in r.stdout.splitlines()])
    return thr, out


def prepare_cell(work, cell, family, enc, qarg, qv, device, refs):
    """Codes every entry, filters with every reference; caches per-frame
    luma MSE in CELL/data.npz."""
    cdir = os.path.join(work, "cells", "%s-%s" % (cell, qv))
    os.makedirs(cdir, exist_ok=True)
    data_path = os.path.join(cdir, "data.npz")
    pdir = os.path.join(work, "pristine")
    dec, ref = os.path.join(cdir, "dec.yuv"), os.path.join(cdir, "ref.yuv")
    lay_path = os.path.join(cdir, "layout.json")
    if not os.path.exists(lay_path):
        layout, first = [], 0
        with open(dec, "wb") as fd, open(ref, "wb") as fr:
            for name, kind, split, src in CONTENT:
                part = os.path.join(cdir, "part.yuv")
                rsrc, dsrc = code(family, enc, qarg, qv, name, pdir, part)
                n = os.path.getsize(rsrc) // FRAME
                types = pict_types(None if family == "pristine" else
                                   os.path.join(pdir, "coded.mkv"), n)
                fd.write(open(dsrc, "rb").read())
                fr.write(open(rsrc, "rb").read())
                layout.append((name, first, n, types))
                first += n
        json.dump(layout, open(lay_path, "w"))
    layout = json.load(open(lay_path))
    data = dict(np.load(data_path)) if os.path.exists(data_path) else {}
    rl = read_luma(ref)
    fmt = "yuvj420p" if family == "mjpeg" else "yuv420p"
    tmp = os.path.join(cdir, "tmp.yuv")

    def measure(key, fn):
        if key in data:
            return
        fn()
        data[key] = frame_mse(rl, read_luma(tmp))
        np.savez(data_path, **data)

    def cp():
        import shutil
        shutil.copy(dec, tmp)
    measure("decoded", cp)
    hist = os.path.join(cdir, "hist.bin")
    if not os.path.exists(hist):
        run([CL_DCT, "hist", device, str(W), str(H), dec, hist])
    if refs in ("stage", "all"):
        for t in STAGE_GRID:
            measure("stage t=%d" % t, lambda: run(
                [CL_DCT, "filter", device, str(W), str(H), dec, tmp, "16",
                 str(t)]))
    if refs in ("others", "all"):
        for qp in QP_GRID:
            measure("spp q6 qp=%d" % qp, lambda: ffmpeg_filter(
                dec, tmp, "spp=quality=6:qp=%d" % qp, fmt))
            measure("fspp qp=%d" % qp, lambda: ffmpeg_filter(
                dec, tmp, "fspp=quality=4:qp=%d" % qp, fmt))
            measure("pp7 qp=%d" % qp, lambda: ffmpeg_filter(
                dec, tmp, "pp7=qp=%d" % qp, fmt))
        for t, w in EPS_GRID:
            measure("epsilon t=%d w=%d" % (t, w), lambda: gst_filter(
                dec, tmp, ["clepsilon", "device=" + device, "threshold=%d" % t,
                           "window-size=%d" % w]))
    return cdir, layout, data


def cells():
    for cell, family, enc, qarg, qs in CODECS:
        for qv in qs:
            yield cell, family, enc, qarg, qv


def seq_gain(mse, dec_mse, f, k):
    return float(psnr(mse[f:f + k].mean()) - psnr(dec_mse[f:f + k].mean()))


def summarise(results, split):
    """Per family: for each setting, mean gain over the SPLIT entries of
    every quality, worst entry, worst video frame."""
    names = {n for n, _, s, _ in CONTENT if s == split}
    kinds = {n: k for n, k, _, _ in CONTENT}
    fam = {}
    for (cell, qv), (layout, data, thr) in results.items():
        dec = data["decoded"]
        for key, mse in data.items():
            if key == "decoded":
                continue
            f_ = fam.setdefault(cell, {}).setdefault(key, {
                "gains": [], "worst": (99, ""), "worst_frame": (99, "")})
            for name, first, k, types in layout:
                if name not in names:
                    continue
                g = seq_gain(mse, dec, first, k)
                f_["gains"].append(g)
                f_["worst"] = min(f_["worst"], (g, "%s q%s" % (name, qv)))
                if kinds[name] == "video":
                    fg = psnr(mse[first:first + k]) - psnr(dec[first:first + k])
                    i = int(np.argmin(fg))
                    f_["worst_frame"] = min(f_["worst_frame"], (
                        float(fg[i]), "%s q%s frame %d (%s)" % (
                            name, qv, i, types[i])))
    return fam


def acting(results, cell, key, split):
    names = {n for n, _, s, _ in CONTENT if s == split}
    n = a = 0
    for (c, qv), (layout, data, thr) in results.items():
        if c != cell or key not in thr:
            continue
        for name, first, k, _ in layout:
            if name in names:
                n += k
                a += int((thr[key][first:first + k] > 0).sum())
    return a / max(n, 1)


def report(results, split, out):
    fam = summarise(results, split)
    # the column of a baseline ('run --baseline' with another build) only
    # where one was stored
    base = any("auto-main" in data for _, data, _ in results.values())
    L = []

    def p(row):
        cells = row.split(" | ")
        L.append(row if base else " | ".join(cells[:2] + cells[3:]))
    p("| codec | **`strength=auto`** | before | `spp=quality=6` "
      "| `fspp` | `pp7` | best fixed epsilon | auto, worst picture or "
      "sequence | auto, worst frame | frames auto acts on |")
    p("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |")
    for cell, family, enc, qarg, qs in CODECS:
        f_ = fam.get(cell)
        if not f_:
            continue
        if cell == "pristine":
            # the input is the reference: each filter's lowest PSNR of its
            # output against its input over the entries (99: identical)
            layout, data, thr = results[("pristine", 0)]
            names = {n for n, _, s, _ in CONTENT if s == split}

            def low(prefix):
                ks = [k for k in data if k.startswith(prefix)]
                if not ks:
                    return "-"
                k = max(ks, key=lambda k: min(psnr(data[k][f:f + n].mean())
                                              for e, f, n, _ in layout
                                              if e in names))
                return "%.1f dB" % min(99.0, min(
                    float(psnr(data[k][f:f + n].mean()))
                    for e, f, n, _ in layout if e in names))
            p("| pristine (PSNR of the output against the input, lowest) | "
              "**%s** | %s | %s | %s | %s | %s | - | - | %.0f %% |" % (
                  low("auto"), low("auto-main"), low("spp q6"), low("fspp"),
                  low("pp7"), low("epsilon"),
                  100 * acting(results, cell, "auto", split)))
            continue

        def best(prefix):
            ks = [k for k in f_ if k.startswith(prefix)]
            if not ks:
                return "-"
            k = max(ks, key=lambda k: np.mean(f_[k]["gains"]))
            return "%+.3f (%s)" % (np.mean(f_[k]["gains"]), k.split(" ")[-1]
                                   if prefix != "epsilon" else
                                   k[len("epsilon "):])

        def m(k):
            return "%+.3f" % np.mean(f_[k]["gains"]) if k in f_ else "-"
        a = f_.get("auto", {"worst": (0, "-"), "worst_frame": (0, "-")})
        p("| %s | **%s** | %s | %s | %s | %s | %s | %+.3f %s | %+.3f %s | "
          "%.0f %% |" % (
              LABELS.get(cell, cell), m("auto"), m("auto-main"), best("spp q6"),
              best("fspp"), best("pp7"), best("epsilon"),
              a["worst"][0], a["worst"][1], a["worst_frame"][0],
              a["worst_frame"][1], 100 * acting(results, cell, "auto", split)))
    return "\n".join(L) + "\n"


def plot(results, split, path):
    """Per-frame gain on the moving REPORT sequences of two cells where the
    held threshold matters (MPEG-2 -q:v 14, MPEG-4 -q:v 12): strength=auto
    now and on main, and spp=quality=6 at its best qp for the family."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fam = summarise(results, split)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True)
    for ax, (cell, qv) in zip(axes, [("mpeg2", 14), ("mpeg4", 12)]):
        layout, data, thr = results[(cell, qv)]
        spp = max([k for k in fam[cell] if k.startswith("spp q6")],
                  key=lambda k: np.mean(fam[cell][k]["gains"]))
        dec = psnr(data["decoded"])
        x0, ticks = 0, []
        for name, first, k, types in layout:
            if name not in {n for n, kd, s, _ in CONTENT
                            if s == split and kd == "video"}:
                continue
            xs = np.arange(x0, x0 + k)
            for key, style, label in (("auto", "C0-", "auto"),
                                      ("auto-main", "C7--", "auto (main)"),
                                      (spp, "C1:", spp.replace(" q6", "=6"))):
                if key in data:
                    ax.plot(xs, psnr(data[key][first:first + k]) -
                            dec[first:first + k], style, marker=".",
                            label=label if x0 == 0 else None)
            for i, t in enumerate(types):
                if t == "I":
                    ax.axvline(x0 + i, color="0.85", lw=0.8, zorder=0)
            ticks.append((x0 + k / 2, name))
            x0 += k + 2
        ax.axhline(0, color="k", lw=0.6)
        ax.set_xticks([t for t, _ in ticks], [n for _, n in ticks])
        ax.set_title("%s -q:v %s: gain per frame (I frames: grey lines)" % (
            {"mpeg2": "MPEG-2", "mpeg4": "MPEG-4 Part 2"}[cell], qv),
            fontsize=9)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("luma PSNR gain, dB")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def decide(cdir, layout, params):
    """cl-dct decide: each frame's threshold from its histogram under
    PARAMS (None: the element's defaults), on the host."""
    env = dict(os.environ)
    if params is not None:          # None: the element's defaults
        env["CL_DCT_PARAMS"] = ",".join(str(v) for v in params)
    # (gain, gain_h263, hold_gain, min_count, strong_gain, strong_level,
    # hold_gain_late, late_frames); these raw frames tell no types, so the
    # hold gains given serve as the untold ones (cl-dct.c)
    r = run([CL_DCT, "decide", os.path.join(cdir, "hist.bin"),
             segments(layout)], env=env)
    return np.array([int(l.split()[-1]) for l in r.stdout.splitlines()])


def interp_mse(data, thr):
    """Each frame's MSE at its threshold THR, interpolated on the stage's
    fixed thresholds (STAGE_GRID; 0 is the decoded frame)."""
    grid = np.array([0] + STAGE_GRID, float)
    m = np.stack([data["decoded"]] + [data["stage t=%d" % t]
                                      for t in STAGE_GRID])
    t = np.minimum(thr.astype(float), grid[-1])
    i = np.clip(np.searchsorted(grid, t, side="right") - 1, 0, len(grid) - 2)
    w = (t - grid[i]) / (grid[i + 1] - grid[i])
    f = np.arange(len(t))
    return m[i, f] * (1 - w) + m[i + 1, f] * w


def fit(out, split="fit"):
    """The decision's parameters on the FIT entries (the stage's figures
    interpolated between its fixed thresholds): the threshold of each
    lattice ((gain + strong gain x the share of strong values) x spacing,
    with the level from which a value is strong) on the families that show
    it, then the hold gains (held()) and the count on all; prints the
    candidates by mean gain with the worst sequence and frame, and the
    frames where the neutral cells (H.264, HEVC, pristine) act."""
    names = {n for n, _, s, _ in CONTENT if s == split}
    cellsd = []
    for cell, family, enc, qarg, qv in cells():
        cdir = os.path.join(out, "cells", "%s-%s" % (cell, qv))
        layout = json.load(open(os.path.join(cdir, "layout.json")))
        data = dict(np.load(os.path.join(cdir, "data.npz")))
        cellsd.append((cell, qv, cdir, layout, data))

    def score(par, which):
        fam, worst, wframe, neutral = {}, (99, ""), (99, ""), 0
        for cell, qv, cdir, layout, data in cellsd:
            if cell not in which:
                continue
            thr = decide(cdir, layout, par)
            if cell not in RINGING:
                neutral += sum(int((thr[f:f + k] > 0).sum())
                               for n, f, k, _ in layout if n in names)
                continue
            mse, dec = interp_mse(data, thr), data["decoded"]
            for n, f, k, t in layout:
                if n not in names:
                    continue
                gs = seq_gain(mse, dec, f, k)
                fam.setdefault(cell, []).append(gs)
                worst = min(worst, (gs, "%s-%s %s" % (cell, qv, n)))
                fg = psnr(mse[f:f + k]) - psnr(dec[f:f + k])
                i = int(np.argmin(fg))
                wframe = min(wframe, (float(fg[i]), "%s-%s %s %d %s" % (
                    cell, qv, n, i, t[i])))
        means = {c: float(np.mean(v)) for c, v in fam.items()}
        m = float(np.mean(list(means.values()))) if means else 0.0
        return m, par, means, worst, wframe, neutral

    def show(rows, n=6):
        for m, par, means, worst, wframe, neutral in rows[:n]:
            log("%+.4f %s worst %+.3f (%s) frame %+.3f (%s) neutral %d | %s"
                % (m, par, worst[0], worst[1], wframe[0], wframe[1], neutral,
                   " ".join("%s %+.3f" % kv for kv in means.items())))
    # each lattice's gain on the families that show it (the default hold
    # gains, count 24), then the hold gains from the frames' wanted
    # strength (heldout.py held: not by the mean gain, which prefers one
    # hold gain of 12 and loses 0.19 dB on a REPORT B frame) and the count
    # on every cell; the rows are printed by mean, and the choice read off
    # them is the largest mean with no frame below -0.05 dB and no neutral
    # frame acted on
    mult = ["mpeg2", "mpeg4-mq", "mjpeg", "mjpeg-tv"]
    rows = sorted((score((g, 10, 14, 24, sg, lv), mult)
                   for g in range(4, 13) for sg in range(0, 15, 2)
                   for lv in (5, 7)), key=lambda r: -r[0])
    log("MULTIPLES gain, strong gain, strong level:")
    show(rows)
    g, sg, lv = rows[0][1][0], rows[0][1][4], rows[0][1][5]
    rows = sorted((score((g, gh, 14, 24, sg, lv), ["mpeg4", "h263"])
                   for gh in range(1, 15)), key=lambda r: -r[0])
    log("H263 gain:")
    show(rows)
    gh = rows[0][1][1]
    ratios = wanted_ratios(out)
    hd = int(round(16 * np.median(ratios[("P", split)] +
                                  ratios[("B", split)])))
    hl = int(round(16 * np.median(ratios[("B before I", split)])))
    rows = sorted((score((g, gh, hd, mc, sg, lv, hl, 2),
                         [c for c, *_ in CODECS])
                   for mc in (24, 32, 48, 64)),
                  key=lambda r: -r[0])
    log("hold gains %d/16, late %d/16 (heldout.py held), count (every "
        "cell):" % (hd, hl))
    show(rows, 20)
    return rows


def frame_class(types, i):
    """I, P, B, or "B before I": a B frame whose next frame that is not a
    B frame is an I frame (it is predicted from an intra frame that the
    element has not seen yet)."""
    if types[i] != "B":
        return types[i]
    nxt = next((t for t in types[i + 1:] if t != "B"), "I")
    return "B before I" if nxt == "I" else "B"


def wanted_ratios(out):
    """Per (frame class, split), the ratios of held(), as a list each."""
    grid = np.array([0] + STAGE_GRID)
    split = {n: s for n, _, s, _ in CONTENT}
    ratios = {}
    for cell, family, enc, qarg, qv in cells():
        if cell not in RINGING:
            continue
        cdir = os.path.join(out, "cells", "%s-%s" % (cell, qv))
        layout = json.load(open(os.path.join(cdir, "layout.json")))
        data = dict(np.load(os.path.join(cdir, "data.npz")))
        thr = decide(cdir, layout, None)
        m = np.stack([data["decoded"]] + [data["stage t=%d" % t]
                                          for t in STAGE_GRID])
        for n, f, k, t in layout:
            intra = 0
            for i in range(k if k > 1 else 0):
                if t[i] == "I":
                    intra = int(thr[f + i])
                if intra > 0:
                    best = grid[int(np.argmin(m[:, f + i]))]
                    ratios.setdefault((frame_class(t, i), split[n]),
                                      []).append(best / intra)
    return ratios


def held(out):
    """How much of an intra frame's strength each kind of frame of the
    video sequences wants: per frame class and split, the stage's fixed
    threshold that gains most on the frame (STAGE_GRID) over the threshold
    strength=auto decides on the last I frame (the element's defaults),
    median and quartiles over the ringing cells' frames. The hold gains
    are 16 times FIT's medians: P and B frames, and B frames before an I."""
    ratios = wanted_ratios(out)
    print("| frame | split | frames | best / I threshold: median | "
          "quartiles |\n| --- | --- | --- | --- | --- |")
    for key in sorted(ratios):
        r = np.array(ratios[key])
        print("| %s | %s | %d | %.2f | %.2f-%.2f |" % (
            key + (len(r), np.median(r), np.percentile(r, 25),
                   np.percentile(r, 75))))
    early = ratios[("P", "fit")] + ratios[("B", "fit")]
    late = ratios[("B before I", "fit")]
    print("\nhold gain (P and B frames, FIT): %.1f/16; late (B before I): "
          "%.1f/16" % (16 * np.median(early), 16 * np.median(late)))


def test_frames(out):
    """tests/check/libs/dct-frames: a 128x96 luma crop, at (96, 128) on the
    codecs' 8x8 grid, of the first frame of FIT's astronaut in every cell
    (libs/cldctestimate test_estimate_coded_frames)."""
    dst = os.path.join(TOP, "tests", "check", "libs", "dct-frames")
    os.makedirs(dst, exist_ok=True)
    for cell, family, enc, qarg, qv in cells():
        cdir = os.path.join(out, "cells", "%s-%s" % (cell, qv))
        layout = json.load(open(os.path.join(cdir, "layout.json")))
        first = [f for n, f, k, t in layout if n == "astronaut"][0]
        y = read_luma(os.path.join(cdir, "dec.yuv"))[first]
        y[128:224, 96:224].copy().tofile(os.path.join(
            dst, "astronaut-%s-%s.y" % (cell, qv)))


# The before/after pictures: the families the estimate reads besides MPEG-2
# (cell, quality, kind of REPORT entry).
PICTURES = [("mpeg4", 12, "photo"), ("mpeg4-mq", 12, "photo"),
            ("h263", 12, "photo"), ("mjpeg", 20, "graphics")]
CROP_W, CROP_H, ZOOM = 64, 48, 4


def worst_window(ref, dec, frames):
    """(frame, x, y) of the CROP_W x CROP_H window on the 8x8 grid, among
    FRAMES, where the decoded luma is furthest from the pristine one."""
    best = None
    for f in frames:
        err = (ref[f].astype(np.float64) - dec[f]) ** 2
        for y in range(0, H - CROP_H + 1, 8):
            for x in range(0, W - CROP_W + 1, 8):
                e = err[y:y + CROP_H, x:x + CROP_W].sum()
                if best is None or e > best[0]:
                    best = (e, f, x, y)
    return best[1:]


def pictures(results, out):
    """OUT/heldout-crops.png: for each of PICTURES, the window of a REPORT
    entry of that kind where the decoded picture is furthest from the
    pristine one, among the frames strength=auto acts on, enlarged:
    pristine, decoded, strength=auto, and below each its error with the
    window's PSNR."""
    kinds = {n: (k, s) for n, k, s, _ in CONTENT}
    rows, titles = [], []
    for cell, qv, kind in PICTURES:
        layout, data, thr = results[(cell, qv)]
        cdir = os.path.join(out, "cells", "%s-%s" % (cell, qv))
        ref, dec, auto = (read_luma(os.path.join(cdir, f)) for f in (
            "ref.yuv", "dec.yuv", "auto-auto.yuv"))
        names = {f + i: n for n, f, k, _ in layout for i in range(k)}
        frames = [f for f, n in names.items()
                  if kinds[n] == (kind, "report") and thr["auto"][f] > 0]
        if not frames:
            sys.exit("pictures: strength=auto acts on no REPORT %s of %s-%s"
                     % (kind, cell, qv))
        f, x, y = worst_window(ref, dec, frames)
        path = os.path.join(out, "crop.png")
        save_panels(path, [("pristine: %s" % names[f], ref[f]),
                           ("before: decoded", dec[f]),
                           ("after: strength=auto", auto[f])],
                    x, y, CROP_W, CROP_H, ZOOM)
        rows.append(Image.open(path))
        os.unlink(path)
        titles.append("%s -q:v %d" % (LABELS[cell].split(" `")[0], qv))
    stack_panels(rows, "Held-out REPORT pictures, where each new family "
                 "rings most: %dx%d windows enlarged %dx; error = "
                 "|difference from pristine| x 4" % (CROP_W, CROP_H, ZOOM),
                 titles, os.path.join(out, "heldout-crops.png"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["freeze", "check", "run", "fit",
                                     "held", "test-frames"])
    ap.add_argument("--out", default=os.path.join(TOP, "out", "heldout"))
    ap.add_argument("--device", default="pocl")
    ap.add_argument("--refs", choices=["none", "stage", "others", "all"],
                    default="none", help="also the stage at every fixed "
                    "threshold, or the other filters at every setting, or "
                    "both (cached in OUT/cells/*/data.npz)")
    ap.add_argument("--baseline", action="store_true",
                    help="store this build's strength=auto as 'auto-main'")
    ap.add_argument("--split", default="report")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    work = os.path.join(out, "pristine")
    if args.what == "freeze":
        return freeze(work)
    if args.what == "fit":
        return fit(out)
    if args.what == "held":
        return held(out)
    if args.what == "test-frames":
        return test_frames(out)
    check(work)
    t0 = time.time()
    results = {}
    for cell, family, enc, qarg, qv in cells():
        cdir, layout, data = prepare_cell(out, cell, family, enc, qarg, qv,
                                          args.device, args.refs)
        thr = {}
        tag = "auto-main" if args.baseline else "auto"
        t, path = run_auto(cdir, layout, args.device, tag)
        data[tag] = frame_mse(read_luma(os.path.join(cdir, "ref.yuv")),
                              read_luma(path))
        thr[tag] = t
        if args.baseline:
            np.savez(os.path.join(cdir, "data.npz"), **data)
            np.save(os.path.join(cdir, "thr-main.npy"), t)
        elif os.path.exists(os.path.join(cdir, "thr-main.npy")):
            thr["auto-main"] = np.load(os.path.join(cdir, "thr-main.npy"))
        np.save(os.path.join(cdir, "thr-%s.npy" % tag), t)
        results[(cell, qv)] = (layout, data, thr)
        log("%-9s q%-3s %4.0f s" % (cell, qv, time.time() - t0))
    md = report(results, args.split, out)
    # pristine: output against input (the input is the reference there)
    lay, data, thr = results[("pristine", 0)]
    md += ("\nPristine input: strength=auto's output against its input, "
           "lowest frame %.2f dB (identical frames count as 99).\n" %
           min(99.0, float(min(psnr(data["auto"])))))
    open(os.path.join(out, "heldout-%s.md" % args.split), "w").write(md)
    plot(results, args.split, os.path.join(out, "heldout-%s.png" %
                                            args.split))
    pictures(results, out)
    print(md)


if __name__ == "__main__":
    main()
