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
import hashlib
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quality import log, run  # noqa: E402 (this folder)

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FROZEN = os.path.join(TOP, "tests", "quality", "realworld.json")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", nargs="?", default="check",
                    choices=["freeze", "check"])
    ap.add_argument("--out", default=os.path.join(TOP, "out", "realworld"))
    args = ap.parse_args()
    cache = os.path.abspath(args.out)
    if args.what == "freeze":
        return freeze(cache)
    check(cache)


if __name__ == "__main__":
    main()
