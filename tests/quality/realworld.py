#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# The real-world evaluation set: what clepsilon does to the files people
# have, rate-controlled DVD, VCD, broadcast and Xvid-like streams, MJPEG
# from cameras and low-bitrate H.264, coded with FFmpeg's encoders and rate
# control from pristine sequences made of natural pictures (pans, zooms,
# rotation, scene cuts, film grain on some).
#
# The set's definition is tests/quality/realworld.json: the pictures (Debian
# package, version, file and its sha256), the motion of every sequence, the
# grain's seeds, the codings and the FIT/REPORT split (a source picture is in
# one split only). `freeze` wrote the hashes of the sources and of every
# pristine sequence into it once, before anything was fitted on the set;
# `check` makes the pristine sequences again and fails where a hash differs.
#
#   realworld.py freeze            fill in the hashes (done once; never again)
#   realworld.py check             make the pristine sequences, compare hashes
#
# The pictures come from the packages' .deb files, downloaded with
# `apt-get download` (not installed) into OUT/debs.

import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heldout import (FPS, ffmpeg_filter, gst_filter, pict_types,  # noqa: E402
                     psnr, raw_in, sha256)
from quality import log, run  # noqa: E402 (this folder)
import heldout  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FROZEN = os.path.join(TOP, "tests", "quality", "realworld.json")


# ---- sources ---------------------------------------------------------------

def fetch_sources(doc, cache):
    """Each source picture's path under CACHE, from its package's .deb
    (apt-get download PACKAGE=VERSION, extracted with dpkg-deb)."""
    debs = os.path.join(cache, "debs")
    root = os.path.join(debs, "root")
    os.makedirs(root, exist_ok=True)
    paths = {}
    for name, s in doc["sources"].items():
        p = os.path.join(root, s["path"].lstrip("/"))
        if not os.path.exists(p):
            pkg = "%s=%s" % (s["package"], s["version"])
            log("downloading", pkg)
            run(["apt-get", "download", pkg], cwd=debs)
            deb = [f for f in os.listdir(debs) if f.startswith(
                s["package"] + "_") and f.endswith(".deb")]
            if not deb:
                sys.exit("no .deb of %s in %s" % (pkg, debs))
            run(["dpkg-deb", "-x", os.path.join(debs, deb[0]), root])
        if not os.path.exists(p):
            sys.exit("%s has no %s" % (s["package"], s["path"]))
        paths[name] = p
    return paths


# ---- pristine sequences -------------------------------------------------------

def base_picture(path, scale):
    """The source, RGB, resized by SCALE with LANCZOS once: the motion then
    resamples it near 1:1 (bicubic), so that no frame aliases."""
    from PIL import Image
    im = Image.open(path).convert("RGB")
    size = (int(round(im.size[0] * scale)), int(round(im.size[1] * scale)))
    return im.resize(size, Image.LANCZOS)


def shot_affine(shot, base_size, out_size, t):
    """PIL's AFFINE coefficients of the shot at time T (frames, fractional
    for the second field): output pixel (x, y) samples the base picture at
    centre + R(angle) (x - w/2, y - h/2) / magnification, where the centre
    moves by `velocity` base pixels a frame, the magnification is
    zoom^t and the angle rotate * t degrees."""
    bw, bh = base_size
    w, h = out_size
    cx = shot["centre"][0] * bw + shot["velocity"][0] * t
    cy = shot["centre"][1] * bh + shot["velocity"][1] * t
    m = shot["zoom"] ** t
    a = np.radians(shot["rotate"] * t)
    ca, sa = np.cos(a) / m, np.sin(a) / m
    A, B, D, E = ca, -sa, sa, ca
    C = cx - A * w / 2 - B * h / 2
    F = cy - D * w / 2 - E * h / 2
    for x, y in ((0, 0), (w, 0), (0, h), (w, h)):
        bx, by = A * x + B * y + C, D * x + E * y + F
        if not (0 <= bx <= bw and 0 <= by <= bh):
            sys.exit("shot over %s leaves its picture at t=%.1f (%.0f, %.0f "
                     "of %dx%d)" % (shot["source"], t, bx, by, bw, bh))
    return (A, B, C, D, E, F)


def grain(rng, shape, sigma):
    """Film-like grain: gaussian noise correlated over about a pixel
    (gaussian blur of 0.7), scaled back to SIGMA, the same on R, G and
    B."""
    from scipy.ndimage import gaussian_filter
    n = gaussian_filter(rng.standard_normal(shape), 0.7)
    return n * (sigma / n.std())


def render(content, paths, out_size, interlaced):
    """The content's pristine frames as RGB arrays (uint8, h x w x 3). An
    interlaced sequence is rendered at twice the frame rate and woven, top
    field first: the bottom field is half a frame later."""
    from PIL import Image
    w, h = out_size
    frames = []
    for shot in content["shots"]:
        base = base_picture(paths[shot["source"]], shot["scale"])
        for n in range(shot["frames"]):
            times = (n, n + 0.5) if interlaced else (n,)
            fields = [np.asarray(base.transform(
                (w, h), Image.AFFINE, shot_affine(shot, base.size, (w, h), t),
                resample=Image.BICUBIC)) for t in times]
            f = fields[0].copy()
            if interlaced:
                f[1::2] = fields[1][1::2]
            frames.append(f)
    g = content["grain"]
    if g:
        rng = np.random.default_rng(g["seed"])
        frames = [np.clip(np.rint(f + grain(rng, (h, w), g["sigma"])[
            :, :, None]), 0, 255).astype(np.uint8) for f in frames]
    return frames


def variants(doc):
    """{(content, size, interlaced, range)} that the codings use."""
    v = set()
    for c in doc["codings"]:
        for e in doc["contents"]:
            if e["size"] == c["size"]:
                v.add((e["name"], c["size"], c["interlaced"], c["range"]))
    return sorted(v)


def variant_key(content, size, interlaced, rng):
    return "%s %s%s %s" % (content, size, " interlaced" if interlaced else "",
                           rng)


def pristine_file(cache, content, size, interlaced, rng):
    return os.path.join(cache, "pristine", "%s-%s%s-%s.yuv" % (
        content, size, "i" if interlaced else "p", rng))


def make_pristine(doc, cache, paths):
    """Writes every variant's pristine frames as raw yuv420p (BT.601,
    limited range: tv) or yuvj420p (full range: pc), converted from the
    RGB frames by FFmpeg's swscale; returns {key: path}."""
    os.makedirs(os.path.join(cache, "pristine"), exist_ok=True)
    contents = {e["name"]: e for e in doc["contents"]}
    out = {}
    for name, size, interlaced, rng in variants(doc):
        dst = pristine_file(cache, name, size, interlaced, rng)
        w, h = doc["sizes"][size]
        if not os.path.exists(dst):
            log("rendering", variant_key(name, size, interlaced, rng))
            rgb = dst + ".rgb"
            with open(rgb, "wb") as f:
                for fr in render(contents[name], paths, (w, h), interlaced):
                    f.write(fr.tobytes())
            run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt",
                 "rgb24", "-s", "%dx%d" % (w, h), "-i", rgb, "-vf",
                 "scale=out_color_matrix=bt601:out_range=%s%s,format=%s" % (
                     rng, ":interl=1" if interlaced else "",
                     "yuv420p" if rng == "tv" else "yuvj420p"),
                 "-f", "rawvideo", dst + ".tmp"])
            os.rename(dst + ".tmp", dst)
            os.unlink(rgb)
        out[variant_key(name, size, interlaced, rng)] = dst
    return out


def freeze(cache):
    doc = json.load(open(FROZEN))
    if "pristine_sha256" in doc:
        sys.exit("%s is frozen already" % FROZEN)
    paths = fetch_sources(doc, cache)
    for name, s in doc["sources"].items():
        s["sha256"] = sha256(paths[name])
    doc["pristine_sha256"] = {k: sha256(p) for k, p in
                              make_pristine(doc, cache, paths).items()}
    with open(FROZEN, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    log("wrote", FROZEN)


def check(cache):
    """The set as realworld.json defines it: sources and pristine
    sequences made and compared with their hashes; returns (doc,
    {variant key: pristine path})."""
    doc = json.load(open(FROZEN))
    paths = fetch_sources(doc, cache)
    bad = [name for name, s in doc["sources"].items()
           if sha256(paths[name]) != s["sha256"]]
    prist = make_pristine(doc, cache, paths)
    bad += [k for k, p in prist.items()
            if sha256(p) != doc["pristine_sha256"].get(k)]
    if bad:
        sys.exit("the real-world set differs from realworld.json: " +
                 ", ".join(bad))
    log("real-world set: %d sources, %d pristine sequences match "
        "realworld.json" % (len(paths), len(prist)))
    return doc, prist


# ---- coding ----------------------------------------------------------------

def pix_fmt(coding):
    return "yuv420p" if coding["range"] == "tv" else "yuvj420p"


def code(doc, coding, content, prist, cdir):
    """Codes the pristine sequence as CODING says (FFmpeg's encoder and rate
    control, one thread: the same bits every run) and decodes it with
    FFmpeg; returns the coded file, the decoded frames' file and each
    frame's type (ffprobe's pict_type)."""
    size = tuple(doc["sizes"][coding["size"]])
    coded = os.path.join(cdir, "%s.%s" % (content, coding["container"]))
    dec = os.path.join(cdir, content + ".decoded.yuv")
    fmt = pix_fmt(coding)
    if not os.path.exists(dec):
        run(["ffmpeg", "-v", "error", "-y"] + raw_in(fmt, size) +
            ["-i", prist] + coding["args"] + ["-threads", "1", coded])
        run(["ffmpeg", "-v", "error", "-y", "-threads", "1", "-i", coded,
             "-f", "rawvideo", "-pix_fmt", fmt, dec + ".tmp"])
        os.rename(dec + ".tmp", dec)
    if os.path.getsize(dec) != os.path.getsize(prist):
        sys.exit("%s: decoded %d bytes, pristine %d" % (
            dec, os.path.getsize(dec), os.path.getsize(prist)))
    n = os.path.getsize(prist) * 2 // (3 * size[0] * size[1])
    return coded, dec, pict_types(coded, n)


# ---- measures ----------------------------------------------------------------

def read_planes(path, size):
    """Y, U and V of every frame of a raw 4:2:0 file: three arrays of
    [frames, height, width]."""
    w, h = size
    a = np.fromfile(path, np.uint8).reshape(-1, w * h * 3 // 2)
    q = w * h // 4
    return (a[:, :w * h].reshape(-1, h, w),
            a[:, w * h:w * h + q].reshape(-1, h // 2, w // 2),
            a[:, w * h + q:].reshape(-1, h // 2, w // 2))


def ssim(a, b):
    """SSIM of two planes (Wang et al. 2004: gaussian window of sigma 1.5,
    11 taps, K1 0.01, K2 0.03, L 255), mean over the samples whose window
    lies inside the plane."""
    from scipy.ndimage import gaussian_filter
    a, b = a.astype(np.float64), b.astype(np.float64)

    def g(x):
        return gaussian_filter(x, 1.5, truncate=3.5)
    ma, mb = g(a), g(b)
    va, vb, cab = g(a * a) - ma * ma, g(b * b) - mb * mb, g(a * b) - ma * mb
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    m = ((2 * ma * mb + c1) * (2 * cab + c2)) / \
        ((ma * ma + mb * mb + c1) * (va + vb + c2))
    return float(m[5:-5, 5:-5].mean())


def measures(ref, out, size, frames, with_ssim):
    """Per frame of OUT, against frame FRAMES[i] of REF: luma and chroma
    PSNR (psnr_y, psnr_u, psnr_v) and, WITH_SSIM, SSIM (ssim_y, ...)."""
    r, o = read_planes(ref, size), read_planes(out, size)
    if o[0].shape[0] != len(frames):
        sys.exit("%s: %d frames, expected %d" % (out, o[0].shape[0],
                                                  len(frames)))
    m = {}
    for name, rp, op in zip("yuv", r, o):
        rp = rp[frames]
        d = rp.astype(np.float64) - op
        m["psnr_" + name] = psnr((d * d).mean(axis=(1, 2)))
        if with_ssim:
            m["ssim_" + name] = np.array([ssim(x, y) for x, y in zip(rp, op)])
    return m


# ---- the filters ---------------------------------------------------------------

SPP_QPS = [1, 2, 3, 4, 6, 8, 11]  # spp's fixed qp, swept (oracle)
DECODEBIN = "decodebin alone"
# run only these methods (realworld.py --method; None: all)
ONLY = os.environ.get("REALWORLD_METHODS", "").split("|") if \
    os.environ.get("REALWORLD_METHODS") else None
NLMEANS_EVERY = 4


def methods(coding, device):
    """(key, kind, argument) of every filter measured on CODING: decodebin
    alone (the frames the element gets after decodebin: GStreamer's decoder
    need not give FFmpeg's frames; jpegdec does not); the element with
    nothing set and with strength=auto, each on the decoded
    frames alone ("gst": nothing tells their types) and after decodebin on
    the coded file ("gst-coded": as a user runs it); each preset named for
    the coding and strength=medium (the default before), after decodebin;
    spp fed the decoder's QP table; spp at each fixed qp; nlmeans."""
    dev = ["device=" + device] if device else []
    m = [(DECODEBIN, "gst-coded", ["identity"]),
         ("nothing set", "gst", ["clepsilon"] + dev),
         ("nothing set from the coded file", "gst-coded", ["clepsilon"] + dev),
         ("auto", "gst", ["clepsilon", "strength=auto"] + dev),
         ("auto from the coded file", "gst-coded",
          ["clepsilon", "strength=auto"] + dev),
         ("medium from the coded file", "gst-coded",
          ["clepsilon", "strength=medium"] + dev)]
    m += [("preset " + p, "gst-coded", ["clepsilon", "@preset=" + p] + dev)
          for p in coding["presets"]]
    m += [("spp QP table", "spp-table", None)]
    m += [("spp qp=%d" % q, "ffmpeg", "spp=quality=6:qp=%d" % q)
          for q in SPP_QPS]
    m += [("nlmeans", "ffmpeg", "select='not(mod(n,%d))',setpts=N/(%d*TB),"
           "nlmeans" % (NLMEANS_EVERY, FPS))]
    return m


def gst_coded_filter(coded, dst, element, env):
    """ELEMENT as a user runs it on the coded file: filesrc ! decodebin !
    ELEMENT, the frames written raw, 4:2:0 as the decoded file's (where the
    decoder tells each frame's coding, the element reads it there)."""
    run(["gst-launch-1.0", "-q", "filesrc", "location=" + coded, "!",
         "decodebin", "!"] + element + ["!", "videoconvert", "!",
                                        "video/x-raw,format=I420", "!",
                                        "filesink", "location=" + dst],
        env=env)


def spp_table(coded, dst, fmt, side_data):
    """spp=quality=6 as FFmpeg runs it on a coded file, with the decoder's
    per-macroblock QP table where SIDE_DATA (-export_side_data
    venc_params); without a table spp has no quantizer. Returns FFmpeg's
    error where it fails (the H.264 decoder's table is of a kind spp
    refuses), else None."""
    r = subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-threads", "1", "-filter_threads",
         "1"] + (["-export_side_data", "venc_params"] if side_data else []) +
        ["-i", coded, "-vf", "spp=quality=6", "-f", "rawvideo", "-pix_fmt",
         fmt, dst], capture_output=True, text=True)
    if r.returncode != 0:
        return r.stderr.strip().splitlines()[0]
    return None


def job(a):
    """Every filter on one coded sequence, measured against its pristine
    frames; cached in CDIR/CONTENT.npz (and .json: frame types, spp
    checks). Returns the content's name."""
    doc, coding, content, prist, cdir, device = a
    size = tuple(doc["sizes"][coding["size"]])
    fmt = pix_fmt(coding)
    store, info_path = (os.path.join(cdir, content + e)
                        for e in (".npz", ".json"))
    data = dict(np.load(store)) if os.path.exists(store) else {}
    info = json.load(open(info_path)) if os.path.exists(info_path) else {}
    coded, dec, types = code(doc, coding, content, prist, cdir)
    info["types"] = types
    n = len(types)
    every = list(range(0, n, NLMEANS_EVERY))
    tmp = os.path.join(cdir, content + ".tmp.yuv")

    def keep(key, frames, with_ssim):
        for k, v in measures(prist, tmp, size, frames, with_ssim).items():
            data[key + " " + k] = v
        os.unlink(tmp)
        np.savez(store, **data)
    if "decoded psnr_y" not in data:
        shutil.copy(dec, tmp)
        keep("decoded", list(range(n)), True)
    if "spp untouched without table" not in info:
        if spp_table(coded, tmp, fmt, False):
            sys.exit("spp failed on " + coded)
        info["spp untouched without table"] = sha256(tmp) == sha256(dec)
        os.unlink(tmp)
    env = dict(os.environ, GST_PRESET_PATH=os.path.join(TOP, "gst",
                                                        "presets"))
    for key, kind, arg in methods(coding, device):
        if key + " psnr_y" in data or key + " error" in info or (
                ONLY and key not in ONLY):
            continue
        frames = every if key == "nlmeans" else list(range(n))
        if kind == "gst":
            gst_filter(dec, tmp, arg, size, coding["interlaced"], env)
        elif kind == "gst-coded":
            gst_coded_filter(coded, tmp, arg, env)
        elif kind == "spp-table":
            err = spp_table(coded, tmp, fmt, True)
            if err:
                info[key + " error"] = err
                if os.path.exists(tmp):
                    os.unlink(tmp)
                continue
            changed = read_planes(tmp, size)[0] != read_planes(dec, size)[0]
            info["spp frames changed with table"] = int(
                changed.any(axis=(1, 2)).sum())
        else:
            ffmpeg_filter(dec, tmp, arg, fmt, size)
        if kind in ("gst", "gst-coded"):
            info["sha256 " + key] = sha256(tmp)
        keep(key, frames, not key.startswith("spp qp="))
        json.dump(info, open(info_path, "w"))
    json.dump(info, open(info_path, "w"))
    return "%s %s" % (coding["name"], content)


def run_set(doc, prist, cache, split, device, jobs):
    """Every coding of every content of SPLIT, JOBS at a time (the largest
    frames first)."""
    todo = []
    for c in doc["codings"]:
        cdir = os.path.join(cache, "cells", c["name"])
        os.makedirs(cdir, exist_ok=True)
        for e in doc["contents"]:
            if e["size"] == c["size"] and split in ("all", e["split"]):
                todo.append((doc, c, e["name"], prist[variant_key(
                    e["name"], c["size"], c["interlaced"], c["range"])],
                    cdir, device))
    todo.sort(key=lambda a: -np.prod(doc["sizes"][a[1]["size"]]))
    t0 = time.time()
    with multiprocessing.Pool(jobs) as pool:
        for i, name in enumerate(pool.imap_unordered(job, todo)):
            log("%3d/%d %-40s %6.0f s" % (i + 1, len(todo), name,
                                          time.time() - t0))


# ---- report ----------------------------------------------------------------

BELOW = -0.10       # a frame made visibly worse, dB


def gather(doc, cache, coding, split):
    """{measure key: array over the SPLIT frames of CODING}, the frame types
    (string), each frame's sequence and index, the checks (info)."""
    cdir = os.path.join(cache, "cells", coding["name"])
    cols, types, where, infos = {}, "", [], []
    for e in doc["contents"]:
        if e["size"] != coding["size"] or split not in ("all", e["split"]):
            continue
        data = dict(np.load(os.path.join(cdir, e["name"] + ".npz")))
        info = json.load(open(os.path.join(cdir, e["name"] + ".json")))
        for k, v in data.items():
            cols.setdefault(k, []).append(v)
        types += info["types"]
        where += [(e["name"], i) for i in range(len(info["types"]))]
        infos.append((e["name"], info))
    return {k: np.concatenate(v) for k, v in cols.items()}, types, where, \
        infos


def gain(cols, key, metric="psnr_y"):
    """Per frame gain of KEY over the frames it filtered: decodebin's where
    it runs after decodebin (the element on the coded file), FFmpeg's
    decoded frames otherwise (nlmeans: on the frames it was run on)."""
    dec = cols["decoded " + metric]
    if after_decodebin(key) and DECODEBIN + " " + metric in cols:
        dec = cols[DECODEBIN + " " + metric]
    if key == "nlmeans":
        dec = dec[cols["nlmeans frame"]]
    return cols["%s %s" % (key, metric)] - dec


def pooled_gain(cols, key, metric):
    """KEY's gain as FFmpeg's psnr filter averages: the PSNR of the mean
    squared error over the frames, less the decoded frames' (gain()'s).
    A mean of per-frame dB weighs a frame whose plane is nearly exact
    (grey chroma: 80 dB against 148 for an exact one) as much as a whole
    sequence's noise; the pooled error does not."""
    dec = cols["decoded " + metric]
    if after_decodebin(key) and DECODEBIN + " " + metric in cols:
        dec = cols[DECODEBIN + " " + metric]
    if key == "nlmeans":
        dec = dec[cols["nlmeans frame"]]
    out = cols["%s %s" % (key, metric)]
    return psnr((255.0 ** 2 * 10 ** (-out / 10)).mean()) - \
        psnr((255.0 ** 2 * 10 ** (-dec / 10)).mean())


def summary(g):
    return "%+.2f (%+.2f; %d of %d below %.2f)" % (
        g.mean(), g.min(), int((g < BELOW).sum()), g.size, BELOW)


def best_qp(cols):
    return max(SPP_QPS, key=lambda q: gain(cols, "spp qp=%d" % q).mean())


NOTHING, AUTO = "nothing set from the coded file", "auto from the coded file"
MEDIUM = "medium from the coded file"


def after_decodebin(key):
    """Whether method KEY is the element after decodebin on the coded
    file."""
    return key.endswith(" from the coded file") or key.startswith("preset ")


def report(doc, cache, split):
    """The SPLIT's tables (markdown): per coding the element as a user runs
    it (decodebin on the coded file) with nothing set, with strength=auto
    and with each preset named for the coding, auto on the decoded frames
    alone, and the anchors; by frame type; chroma; SSIM; spp's check; and
    each coding against issue 38's bar (mean >= 0 and no frame below BELOW,
    as much as spp with the QP table and nlmeans)."""
    L = []
    rows, chroma, types_rows, ssim_rows, checks, bar = [], [], [], [], [], []
    for c in doc["codings"]:
        cols, types, where, infos = gather(doc, cache, c, split)
        # nlmeans' frames: every NLMEANS_EVERY-th of each sequence
        idx, first = [], 0
        for name, info in infos:
            k = len(info["types"])
            idx += list(range(first, first + k, NLMEANS_EVERY))
            first += k
        cols["nlmeans frame"] = np.array(idx)
        q = best_qp(cols)
        spp = "spp qp=%d" % q
        keys = [NOTHING, AUTO] + ["preset " + p for p in c["presets"]]
        sha = {k: [i.get("sha256 " + k) for _, i in infos] for k in keys}
        presets = []
        for p in c["presets"]:
            same = [k for k in (AUTO, NOTHING)
                    if sha["preset " + p] == sha[k]]
            presets.append("`%s`: %s" % (p, "= `auto` (same output)"
                                         if same else
                                         summary(gain(cols, "preset " + p))))
        err = [i["spp QP table error"] for _, i in infos
               if "spp QP table error" in i]
        failed = "fails: \"%s\"" % err[0] if err else None
        dec_y = cols["decoded psnr_y"].mean()
        ga, gn = gain(cols, AUTO), gain(cols, NOTHING)
        # a frame auto leaves as it is gains exactly 0 over the frames it
        # was given (decodebin's: needs that method measured)
        if DECODEBIN + " psnr_y" not in cols:
            sys.exit("%s: no \"%s\" figures (REALWORLD_METHODS left it "
                     "out?)" % (c["name"], DECODEBIN))
        acts = int((ga != 0).sum())
        rows.append("| %s | %d | %.2f | %s | **%s** | %d of %d | %s | %s | "
                    "%s | %s | %s (qp %d) | %s |" % (
                        c["label"], len(types), dec_y, summary(gn),
                        summary(ga), acts, len(types),
                        "; ".join(presets) or "-",
                        summary(gain(cols, MEDIUM)),
                        summary(gain(cols, "auto")),
                        failed or summary(gain(cols, "spp QP table")),
                        summary(gain(cols, spp)), q,
                        summary(gain(cols, "nlmeans"))))
        tr = []
        for t in "IPB":
            sel = np.array([x == t for x in types])
            tr.append("%+.2f (%+.2f; %d of %d below)" % (
                ga[sel].mean(), ga[sel].min(), int((ga[sel] < BELOW).sum()),
                sel.sum()) if sel.any() else "-")
        w = int(np.argmin(ga))
        types_rows.append("| %s | %s | %s %d (%s) |" % (
            c["name"], " | ".join(tr), where[w][0], where[w][1], types[w]))
        cr = []
        for k in (NOTHING, AUTO, "spp QP table", spp, "nlmeans"):
            if failed and k == "spp QP table":
                cr.append("-")
                continue
            gu, gv = gain(cols, k, "psnr_u"), gain(cols, k, "psnr_v")
            cr.append("%+.2f / %+.2f" % (gu.mean(), gv.mean()))
        # nothing set's worst plane of a frame, and the planes below BELOW
        guv = np.concatenate([gain(cols, NOTHING, "psnr_u"),
                              gain(cols, NOTHING, "psnr_v")])
        cr.insert(1, "%+.2f; %d of %d" % (guv.min(), int((guv < BELOW).sum()),
                                          guv.size))
        for k in (AUTO, "spp QP table"):
            cr.append("-" if failed and k == "spp QP table" else
                      "%+.2f / %+.2f" % (pooled_gain(cols, k, "psnr_u"),
                                         pooled_gain(cols, k, "psnr_v")))
        chroma.append("| %s | %s |" % (c["name"], " | ".join(cr)))
        sr = []
        for k in (NOTHING, AUTO, "spp QP table", "nlmeans"):
            if failed and k == "spp QP table":
                sr.append("-")
                continue
            sr.append(" / ".join("%+.4f" % gain(cols, k, "ssim_" + p).mean()
                                 for p in "yuv"))
        ssim_rows.append("| %s | %.4f | %s |" % (
            c["name"], cols["decoded ssim_y"].mean(), " | ".join(sr)))
        checks.append("| %s | %d of %d | %s | %s |" % (
            c["name"], sum(i["spp untouched without table"]
                           for _, i in infos), len(infos),
            failed or "%d of %d" % (sum(i["spp frames changed with table"]
                                        for _, i in infos), len(types)),
            " / ".join("%+.3f" % (cols[DECODEBIN + " psnr_" + p] -
                                  cols["decoded psnr_" + p]).mean()
                       for p in "yuv")))
        # nlmeans on its frames only, auto on the same frames
        nl = cols["nlmeans frame"]
        bar.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            c["name"], yes(gn.mean() >= 0 and gn.min() >= BELOW),
            yes(ga.mean() >= 0 and ga.min() >= BELOW),
            "-" if failed else yes(ga.mean() >= gain(cols, "spp QP table")
                                   .mean()),
            yes(ga[nl].mean() >= gain(cols, "nlmeans").mean()),
            yes(gain(cols, AUTO, "psnr_u").mean() >= 0 and
                gain(cols, AUTO, "psnr_v").mean() >= 0),
            "-" if failed else yes(all(
                pooled_gain(cols, AUTO, m) >= pooled_gain(cols,
                                                          "spp QP table", m)
                for m in ("psnr_u", "psnr_v")))))
    L.append("Luma PSNR gain over the decoded frames against the pristine "
             "ones, dB: mean over the %s frames (worst frame; frames below "
             "%.2f dB). The element after `decodebin` on the coded file, as "
             "a user runs it, against decodebin's own frames, except "
             "\"decoded frames alone\" (raw frames: nothing tells their "
             "types), FFmpeg's filters and \"decoded, luma dB\", on FFmpeg's "
             "decoded frames. nlmeans on every %dth frame.\n" % (
                 split.upper(), BELOW, NLMEANS_EVERY))
    L.append("| coding | frames | decoded, luma dB | nothing set | "
             "`strength=auto` | frames whose luma `auto` changes | presets "
             "named for it | `strength=medium` | `auto`, decoded frames alone "
             "| `spp=6`, QP table | `spp=6` best fixed qp (oracle) | "
             "`nlmeans` |")
    L.append("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | "
             "---: | ---: | ---: |")
    L += rows
    L.append("\n`strength=auto` by frame type (ffprobe pict_type): mean gain "
             "(worst; frames below %.2f dB of frames)\n" % BELOW)
    L.append("| coding | I | P | B | worst frame |")
    L.append("| --- | --- | --- | --- | --- |")
    L += types_rows
    L.append("\nChroma PSNR gain, U / V, mean dB (nothing set: also its worst "
             "chroma plane of a frame, and the U and V planes of frames below "
             "%.2f dB; pooled: the PSNR of the mean squared error over the "
             "frames, as FFmpeg's psnr filter averages)\n" % BELOW)
    L.append("| coding | nothing set | nothing set: worst; below | `auto` | "
             "`spp` QP table | `spp` best fixed | `nlmeans` | `auto`, "
             "pooled | `spp` QP table, pooled |")
    L.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    L += chroma
    L.append("\nSSIM change over the decoded frames, Y / U / V, mean\n")
    L.append("| coding | decoded, luma SSIM | nothing set | `auto` | `spp` "
             "QP table | `nlmeans` |")
    L.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    L += ssim_rows
    L.append("\n`spp=quality=6` on the coded file: without `-export_side_data "
             "venc_params` (output identical to the decoded frames, "
             "sequences) and with it (frames changed); decodebin's frames "
             "against FFmpeg's decoded ones, PSNR Y / U / V, mean dB\n")
    L.append("| coding | untouched without | changed with | decodebin - "
             "FFmpeg |")
    L.append("| --- | ---: | ---: | ---: |")
    L += checks
    L.append("\nThe bar: mean >= 0 and no frame below %.2f dB; `auto` at "
             "least `spp` with the QP table and `nlmeans` (on nlmeans' "
             "frames); chroma mean >= 0, and at least `spp` with the QP table "
             "pooled\n" % BELOW)
    L.append("| coding | nothing set: no harm | `auto`: no harm | `auto` >= "
             "`spp` QP table | `auto` >= `nlmeans` | `auto` chroma >= 0 | "
             "`auto` chroma >= `spp` QP table, pooled |")
    L.append("| --- | --- | --- | --- | --- | --- | --- |")
    L += bar
    return "\n".join(L) + "\n"


def yes(ok):
    return "yes" if ok else "**no**"


def plot(doc, cache, split, path):
    """Per frame luma gain of every coding's SPLIT frames (sequences one
    after the other): the element after decodebin (nothing set, which is
    strength=auto), auto on the decoded frames alone, and spp with the
    decoder's QP table; the -0.10 dB bar dashed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 4, figsize=(14, 5.6), sharey=True)
    for ax, c in zip(axes.flat, doc["codings"]):
        cols, types, where, infos = gather(doc, cache, c, split)
        for key, style, label in ((AUTO, "C0-", "nothing set = auto"),
                                  ("auto", "C7-", "auto, decoded frames "
                                   "alone"),
                                  ("spp QP table", "C1-", "spp, QP table")):
            if key + " psnr_y" in cols:
                ax.plot(np.clip(gain(cols, key), -1.5, 1.5), style, lw=0.8,
                        label=label, alpha=1.0 if key == AUTO else 0.6)
        ax.axhline(0, color="k", lw=0.6)
        ax.axhline(BELOW, color="k", lw=0.6, ls="--")
        ax.set_title(c["name"], fontsize=9)
        ax.set_xlabel("frame (%s split, sequences in turn)" % split,
                      fontsize=8)
    axes[0][0].set_ylabel("luma PSNR gain, dB (clipped at 1.5)")
    axes[1][0].set_ylabel("luma PSNR gain, dB (clipped at 1.5)")
    axes[0][0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=70)
    plt.close(fig)


# ---- the fit -------------------------------------------------------------------
# strength=auto's parameters on the FIT split: each frame's histogram and its
# luma MSE through the stage at fixed thresholds (STAGE_GRID), measured once;
# then any parameters' thresholds (cl-dct decide, the element's own decision
# on the host) are scored by interpolating those MSEs. The stage runs on
# whole frames, interlaced ones too, as the element runs it.

FIT_PASSES = "16"   # the element's GST_CL_DCT_MAX_PASSES


def fit_job(a):
    """One FIT sequence of one coding: its frames' histograms (.hist.bin)
    and the luma MSE of the decoded frames and of the stage at each
    STAGE_GRID threshold (.fit.npz)."""
    doc, coding, content, prist, cdir, device = a
    size = tuple(doc["sizes"][coding["size"]])
    coded, dec, types = code(doc, coding, content, prist, cdir)
    base = os.path.join(cdir, content)
    store = base + ".fit.npz"
    data = dict(np.load(store)) if os.path.exists(store) else {}
    usize, units = size, dec
    rl = read_planes(prist, usize)[0]

    def mse(path):
        d = rl.astype(np.float64) - read_planes(path, usize)[0]
        return (d * d).mean(axis=(1, 2))
    if "decoded" not in data:
        data["decoded"] = mse(units)
    hist = base + ".hist.bin"
    if not os.path.exists(hist):
        run([heldout.CL_DCT, "hist", device, str(usize[0]), str(usize[1]),
             units, hist])
    tmp = base + ".fit.yuv"
    for t in heldout.STAGE_GRID:
        if "stage t=%d" % t not in data:
            run([heldout.CL_DCT, "filter", device, str(usize[0]),
                 str(usize[1]), units, tmp, FIT_PASSES, str(t)])
            data["stage t=%d" % t] = mse(tmp)
            os.unlink(tmp)
            np.savez(store, **data)
    np.savez(store, **data)
    return "%s %s" % (coding["name"], content)


def coded_frames(coded, n):
    """Each frame's picture type and mean quantiser, in display order, as
    FFmpeg's decoder reports them (-debug qp: it prints each frame's type
    and its macroblocks' quantisers, two characters each, as it outputs the
    frame; the last one, flushed at the end, is not printed: it takes the
    quantiser of the one before and ffprobe's type)."""
    import re
    r = subprocess.run(["ffmpeg", "-v", "debug", "-debug", "qp", "-threads",
                        "1", "-i", coded, "-f", "null", "-"],
                       capture_output=True, text=True).stderr
    frames = []
    for line in r.splitlines():
        m = re.search(r"New frame, type: (\w)", line)
        if m:
            frames.append([m.group(1), []])
            continue
        m = re.match(r"^\[\w+ @ 0x[0-9a-f]+\] ((?:[ 0-9]\d)+)\s*$", line)
        if frames and m:
            q = m.group(1)
            frames[-1][1] += [int(q[i:i + 2]) for i in range(0, len(q) - 1, 2)]
    out = [(t, float(np.mean(q)) if q else 0.0) for t, q in frames]
    return out[:n]


def coding_file(coded, types, path):
    """PATH: a line "TYPE QUANTISER" per frame (cl-dct decide's
    CL_DCT_CODING), from coded_frames() and ffprobe's TYPES."""
    if not os.path.exists(path):
        frames = coded_frames(coded, len(types))
        while len(frames) < len(types):
            frames.append((types[len(frames)], frames[-1][1] if frames
                           else 0.0))
        if "".join(t for t, _ in frames) != types:
            sys.exit("%s: FFmpeg's frame types differ from ffprobe's" % coded)
        with open(path + ".tmp", "w") as f:
            for t, q in frames:
                f.write("%s %.3f\n" % (t, q))
        os.rename(path + ".tmp", path)
    return path


def fit_data(doc, prist, cache, device, jobs):
    """fit_job() on every FIT sequence of every coding; returns, per coding,
    its sequences (name, units, frame types) and their data."""
    todo = []
    for c in doc["codings"]:
        cdir = os.path.join(cache, "cells", c["name"])
        os.makedirs(cdir, exist_ok=True)
        for e in doc["contents"]:
            if e["size"] == c["size"] and e["split"] == "fit":
                todo.append((doc, c, e["name"], prist[variant_key(
                    e["name"], c["size"], c["interlaced"], c["range"])],
                    cdir, device))
    t0 = time.time()
    with multiprocessing.Pool(jobs) as pool:
        for i, name in enumerate(pool.imap_unordered(fit_job, todo)):
            log("%3d/%d %-40s %6.0f s" % (i + 1, len(todo), name,
                                          time.time() - t0))
    cells = {}
    for doc_, c, content, prist_, cdir, device_ in todo:
        base = os.path.join(cdir, content)
        data = dict(np.load(base + ".fit.npz"))
        coded, _, types = code(doc, c, content, prist_, cdir)
        cells.setdefault(c["name"], []).append(
            (content, len(data["decoded"]), types, data,
             base + ".hist.bin", coding_file(coded, types,
                                             base + ".coding.txt")))
    return cells


def fit_gains(seqs, params, coded):
    """Per frame luma gain (dB) of strength=auto with PARAMS (the tuple of
    CL_DCT_PARAMS; None: the element's defaults) over SEQS, and the frame
    types; where CODED, with each frame's type and quantiser as the coded
    stream tells them (CL_DCT_CODING); the stage's MSE interpolated between
    its fixed thresholds."""
    env = dict(os.environ)
    if params is not None:
        env["CL_DCT_PARAMS"] = ",".join(str(v) for v in params)
    cat = os.path.join(os.path.dirname(seqs[0][4]), "fit-hist.bin")
    with open(cat, "wb") as f:
        for s in seqs:
            f.write(open(s[4], "rb").read())
    if coded:
        env["CL_DCT_CODING"] = cat + ".coding.txt"
        with open(env["CL_DCT_CODING"], "w") as f:
            for s in seqs:
                f.write(open(s[5]).read())
    r = run([heldout.CL_DCT, "decide", cat,
             ",".join(str(s[1]) for s in seqs)], env=env)
    thr = np.array([int(l.split()[-1]) for l in r.stdout.splitlines()])
    gains, types, first = [], "", 0
    for content, n, t, data, _, _ in seqs:
        data = dict(data, thr=thr[first:first + n])
        m = heldout.interp_mse(data, data["thr"])
        dec = data["decoded"]
        gains.append(psnr(m) - psnr(dec))
        types += t
        first += n
    return np.concatenate(gains), types




def fit(doc, prist, cache, device, jobs, trials, coded):
    """Scores TRIALS (parameter tuples) on the FIT split: per coding the
    mean luma gain, the worst frame and the frames below BELOW, by frame
    type; prints one line per trial. CODED: each frame's type and
    quantiser from the coded stream (fit_gains())."""
    cells = fit_data(doc, prist, cache, device, jobs)
    for par in trials:
        cols, worst = [], 0.0
        for name, seqs in cells.items():
            g, t = fit_gains(seqs, par, coded)
            by = " ".join("%s%+.2f" % (k, g[[c == k for c in t]].mean())
                          for k in "IPB" if k in t)
            cols.append("%s %+.3f (%+.2f; %d) [%s]" % (
                name, g.mean(), g.min(), int((g < BELOW).sum()), by))
            worst = min(worst, g.min())
        log("%s worst %+.3f | %s" % (",".join(map(str, par)) if par else
                                      "defaults", worst, " | ".join(cols)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", nargs="?", default="run",
                    choices=["freeze", "check", "run", "report", "fit"])
    ap.add_argument("--out", default=os.path.join(TOP, "out", "realworld"))
    ap.add_argument("--split", default="report",
                    choices=["report", "fit", "all"])
    ap.add_argument("--device", default=None,
                    help="clepsilon's device property (default: not set)")
    ap.add_argument("--jobs", type=int, default=2,
                    help="sequences filtered at once")
    ap.add_argument("--params", action="append",
                    help="fit: a comma list of CL_DCT_PARAMS to score "
                    "(repeatable; default: the element's)")
    ap.add_argument("--coded", action="store_true",
                    help="fit: each frame's type and quantiser from the "
                    "coded stream (as the element reads them where the "
                    "pipeline carries them)")
    ap.add_argument("--coding", action="append",
                    help="only this coding (repeatable; default: all)")
    args = ap.parse_args()
    cache = os.path.abspath(args.out)
    if args.what == "freeze":
        return freeze(cache)
    doc, prist = check(cache)
    if args.what == "check":
        return
    if args.coding:
        doc["codings"] = [c for c in doc["codings"]
                          if c["name"] in args.coding]
    if doc["fps"] != FPS:
        sys.exit("realworld.json's rate differs from heldout.py's FPS")
    t0 = time.time()
    if args.what == "fit":
        trials = [tuple(int(v) for v in p.split(",")) for p in args.params] \
            if args.params else [None]
        return fit(doc, prist, cache, args.device or "pocl", args.jobs, trials,
                   args.coded)
    if args.what == "run":
        run_set(doc, prist, cache, args.split, args.device, args.jobs)
    md = report(doc, cache, args.split)
    path = os.path.join(cache, "realworld-%s.md" % args.split)
    open(path, "w").write(md)
    plot(doc, cache, args.split, path[:-3] + ".png")
    print(md)
    log("wrote %s (%.0f s)" % (path, time.time() - t0))


if __name__ == "__main__":
    main()
