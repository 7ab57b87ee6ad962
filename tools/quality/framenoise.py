#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which per-frame coding-noise measure could scale strength=auto's held
threshold on frames without a lattice (P and B frames)? On the FIT pans of
tools/quality/heldout.py (cached cells of 'heldout.py run --refs all'; FIT
only, the REPORT entries are never read), for every frame without a lattice:
the oracle ratio (the stage's best fixed threshold on that frame over the
threshold of its GOP's I frame), its mean by kind and place in the GOP, the
headroom (mean gain at the oracle threshold against the element's held one), and,
for each candidate measure m, the correlation of log(m / m at the I frame)
with the log of the oracle ratio. A measure worth a kernel needs a
correlation near 1 across families.

  /usr/bin/python3 tools/quality/framenoise.py [--out out/heldout]
"""
import argparse
import json
import os
import sys

import numpy as np
from scipy import ndimage as nd

sys.path.insert(0, os.path.dirname(__file__))
import heldout as ho  # noqa: E402

C = np.array([[np.sqrt((1 if u == 0 else 2) / 8) *
               np.cos((2 * n + 1) * u * np.pi / 16) for n in range(8)]
              for u in range(8)])
AC = np.ones((8, 8), bool)
AC[0, 0] = False
UU, VV = np.meshgrid(range(8), range(8), indexing="ij")


def blocks(y, s):
    """Orthonormal 8x8 DCT (quarter levels) of the grid shifted by s."""
    y = y[s:ho.H - 8 + s if s else ho.H, s:ho.W - 8 + s if s else ho.W]
    h, w = y.shape
    b = y.reshape(h // 8, 8, w // 8, 8).transpose(0, 2, 1, 3) - 128
    return np.abs(np.einsum("um,ijmn,vn->ijuv", C, b, C) * 4)


def measures(y, hist, t_i):
    m = {}
    x0, x4 = blocks(y, 0), blocks(y, 4)
    m["grid HF |X| (u+v>=6)"] = (x0 * ((UU + VV) >= 6)).sum((2, 3)).mean()
    for s, x in ((0, x0), (4, x4)):
        a = x[:, :, AC]
        small = (a >= 4) & (a < t_i)
        m["grid+%d small AC energy" % s] = np.sqrt((a ** 2 * small).mean())
    g = np.maximum(np.abs(np.diff(y, axis=1, append=y[:, -1:])),
                   np.abs(np.diff(y, axis=0, append=y[-1:])))
    strong = g > 32
    near = nd.binary_dilation(strong, iterations=3) & \
        ~nd.binary_dilation(strong, iterations=1)
    flat = near & (nd.maximum_filter(g, 3) < 12)
    lap = np.abs(4 * y - np.roll(y, 1, 0) - np.roll(y, -1, 0) -
                 np.roll(y, 1, 1) - np.roll(y, -1, 1))
    m["flat-near-edge |laplacian|"] = lap[flat].mean() if flat.any() else 0
    h = hist.reshape(3, -1)
    m["hist share |X|<6"] = h[:, :6].sum() / h.sum()
    m["hist mean |X|"] = (h * np.arange(h.shape[1])).sum() / h.sum()
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ho.TOP, "out", "heldout"))
    args = ap.parse_args()
    fit = {n for n, _, s, _ in ho.CONTENT if s == "fit"}
    grid = [0] + ho.STAGE_GRID
    rows = []    # (cell, kind, place, ratio, gain oracle, gain held, meas)
    for cell, family, enc, qarg, qv in ho.cells():
        if cell not in ("mpeg2", "mpeg4", "mpeg4-mq"):
            continue
        cdir = os.path.join(args.out, "cells", "%s-%s" % (cell, qv))
        lay = json.load(open(os.path.join(cdir, "layout.json")))
        data = dict(np.load(os.path.join(cdir, "data.npz")))
        thr = np.load(os.path.join(cdir, "thr-auto.npy"))
        mse = np.stack([data["decoded"]] + [data["stage t=%d" % t]
                                            for t in ho.STAGE_GRID])
        Y = ho.read_luma(os.path.join(cdir, "dec.yuv")).astype(float)
        hist = np.fromfile(os.path.join(cdir, "hist.bin"),
                           np.uint32).reshape(len(Y), -1).astype(float)
        for name, first, k, types in lay:
            if name not in fit or not name.startswith("pan-"):
                continue
            ref, t_i, place = None, 0, 0
            for i in range(k):
                f = first + i
                if types[i] == "I" or ref is None:
                    t_i = max(int(thr[f]), 1)
                    ref = measures(Y[f], hist[f], t_i)
                    place = 0
                    continue
                place += 1
                best = grid[int(np.argmin(mse[:, f]))]
                m = measures(Y[f], hist[f], t_i)
                held = ho.interp_mse(data, np.array([thr[f]] * len(thr)))[f]
                dec = data["decoded"][f]
                rows.append((cell, types[i], place, best / t_i,
                             float(ho.psnr(mse[:, f].min()) - ho.psnr(dec)),
                             float(ho.psnr(held) - ho.psnr(dec)),
                             {key: m[key] / max(ref[key], 1e-9)
                              for key in m}))
    print("oracle threshold / I frame's, by kind and place after the I frame"
          " (FIT pans, MPEG-2 and MPEG-4 both quantizations, both qualities)")
    for kind, place in sorted({(r[1], r[2]) for r in rows},
                              key=lambda kp: kp[1]):
        s = [r for r in rows if r[1] == kind and r[2] == place]
        print("  %s at +%d: ratio %.2f (%.2f..%.2f), gain held %+.3f, "
              "oracle %+.3f dB, %d frames" % (
                  kind, place, np.mean([r[3] for r in s]),
                  min(r[3] for r in s), max(r[3] for r in s),
                  np.mean([r[5] for r in s]), np.mean([r[4] for r in s]),
                  len(s)))
    lr = np.log([r[3] for r in rows])
    print("correlation of log(measure / I frame's) with log(oracle ratio), "
          "all frames without a lattice, and per family:")
    for key in rows[0][6]:
        v = np.log(np.maximum([r[6][key] for r in rows], 1e-9))
        per = []
        for cell in ("mpeg2", "mpeg4", "mpeg4-mq"):
            idx = [i for i, r in enumerate(rows) if r[0] == cell]
            per.append("%s %+.2f" % (cell, np.corrcoef(v[idx], lr[idx])[0, 1]))
        print("  %-28s %+.2f  (%s)" % (key, np.corrcoef(v, lr)[0, 1],
                                       ", ".join(per)))


if __name__ == "__main__":
    main()
