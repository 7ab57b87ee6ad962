#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Per-region strength for strength=auto, tried in the numpy model
(docs/quality.md, "Per-region strength: a trial in the model").

    /usr/bin/python3 tools/quality/per_region.py      # after run.sh --quick

Reads the pristine and decoded sequences that tools/quality/auto.py leaves
in out/quality-auto/work, and runs the 16-pass stage of dctmodel.py with one
threshold a frame (what the element does) and with a threshold a block:
the frame's threshold T times a factor from the activity of the codec's own
block under the shifted block's centre (the number of its AC coefficients
at least half the frame's step: the levels the quantizer kept), LO for
blocks with no AC level kept, HI for more than A, 1 otherwise. Prints the
mean luma PSNR gain over the judged encodes on the FIT and on the other
sequences, the worst sequence of those, and mpeg2-q8. Not part of the
element: a trial of the route."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dctmodel as dm  # noqa: E402
import quality as q  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
ENCODES = ["mpeg2-q14", "mjpeg-q30", "mjpeg-q15", "mpeg2-q8"]
JUDGED = ENCODES[:3]
# (A, HI, LO)
VARIANTS = [(2, .75, 1), (8, .75, 1), (8, .5, 1), (16, .5, 1),
            (4, 1.25, 1), (8, 1.25, 1), (16, 1.25, 1),
            (99, 1, 1.25), (99, 1, .75), (99, 1, .5), (8, 1.25, .75)]


def psnr(a, b):
    return 10 * np.log10(255.0 ** 2 / np.mean((a.astype(np.float64) - b) ** 2))


def activity(y, step):
    """AC levels kept by the quantizer, a block of Y's own grid."""
    b, _, _ = dm.blocks(y, 0, 0)
    X = dm.fdct(b - 128)
    kept = np.abs(X) * 2 >= step
    kept[..., 0, 0] = False
    return kept.sum(axis=(-1, -2))


def stage(y, thresholds, passes=16):
    """dctmodel.dct_threshold with a threshold a block: THRESHOLDS (sx, sy,
    nby, nbx) gives them for one pass."""
    h, w = y.shape
    acc = np.zeros((h, w), np.int64)
    for sx, sy in dm.SHIFTS[passes]:
        b, nby, nbx = dm.blocks(y, sx, sy)
        X = dm.fdct(b - 128)
        keep = np.abs(X) >= thresholds(sx, sy, nby, nbx)[..., None, None]
        keep[..., 0, 0] = True
        r = dm.idct(np.where(keep, X, 0))
        acc += r.transpose(0, 2, 1, 3).reshape(nby * 8, nbx * 8)[
            sy:sy + h, sx:sx + w]
    out = (acc + (514 * passes << 12)) >> (14 + passes.bit_length() - 1)
    return np.clip(out, 0, 255).astype(np.uint8)


def per_block(y, step, a_max, hi, lo):
    t0 = dm.auto_threshold(step, 10)
    act = activity(y, step)

    def thresholds(sx, sy, nby, nbx):
        cy = np.clip((np.arange(nby) * 8 - sy + 4) // 8, 0, act.shape[0] - 1)
        cx = np.clip((np.arange(nbx) * 8 - sx + 4) // 8, 0, act.shape[1] - 1)
        a = act[cy][:, cx]
        f = np.where(a > a_max, hi, np.where(a == 0, lo, 1.0))
        return np.round(t0 * f).astype(np.int64)
    return stage(y, thresholds)


def main():
    work = os.path.join(TOP, "out", "quality-auto", "work")
    data = q.fetch_images(os.path.join(TOP, "out", "quality-auto", "cache"))
    seqs = q.make_pristine(data, work)
    layout, first = [], 0
    for name, _, n in seqs:
        layout.append((name, first))
        first += n
    ref = q.read_luma(os.path.join(work, "pristine.yuv")).astype(np.float64)
    names = ["one a frame"] + ["A=%d hi=%.2f lo=%.2f" % v for v in VARIANTS]
    gain = {}
    for c in ENCODES:
        dec = q.read_luma(os.path.join(work, "decoded-%s.yuv" % c))
        for seq, f0 in layout:
            y = dec[f0]
            step = dm.estimate(y)
            base = psnr(y, ref[f0])
            for k, name in enumerate(names):
                if step == 0:
                    out = y
                elif k == 0:
                    out = dm.dct_threshold(y, dm.auto_threshold(step, 10), 16)
                else:
                    out = per_block(y, step, *VARIANTS[k - 1])
                gain[c, seq, name] = psnr(out, ref[f0]) - base
    seqnames = [s for s, _ in layout]
    rep = [s for s in seqnames if s not in q.FIT]
    print("| threshold | FIT mean | judged mean | worst judged sequence "
          "| mpeg2-q8 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in names:
        fit = np.mean([np.mean([gain[c, s, name] for s in q.FIT])
                       for c in JUDGED])
        judged = np.mean([np.mean([gain[c, s, name] for s in rep])
                          for c in JUDGED])
        worst = min(gain[c, s, name] for c in JUDGED for s in rep)
        q8 = np.mean([gain["mpeg2-q8", s, name] for s in rep])
        print("| %s | %+.3f | %+.3f | %+.3f | %+.3f |" % (name, fit, judged,
                                                         worst, q8))


if __name__ == "__main__":
    main()
