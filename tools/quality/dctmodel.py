#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# numpy model of the two new stages (docs/quality.md, "Automatic strength"):
#
#  - the coding-noise estimate: the 8x8 integer DCT of the picture on its own
#    block grid, a histogram of a few low-frequency coefficients, and the
#    quantizer step read from the comb those coefficients form (a decoded
#    block-DCT picture has them on multiples of the step);
#  - the shifted-DCT thresholding stage (the family of FFmpeg's spp): the
#    8x8 integer DCT at SHIFTS positions, AC coefficients below a threshold
#    zeroed, the inverse DCTs averaged.
#
# Every formula is integer, the same as kernels/dct.cl, gst/gstcldct.c and
# tests/check/reference.c (ref_dct_*), so the model's output is the device's
# output; tools/quality/quality.py checks that on the first frame it filters.

import numpy as np

# round (4096 * c(k) * cos ((2n + 1) k pi / 16)), c(0) = sqrt (1/8), else 1/2:
# the orthonormal 8-point DCT-II basis, 12 fractional bits.
DCT = np.array([
    [1448, 1448, 1448, 1448, 1448, 1448, 1448, 1448],
    [2009, 1703, 1138, 400, -400, -1138, -1703, -2009],
    [1892, 784, -784, -1892, -1892, -784, 784, 1892],
    [1703, -400, -2009, -1138, 1138, 2009, 400, -1703],
    [1448, -1448, -1448, 1448, 1448, -1448, -1448, 1448],
    [1138, -2009, 400, 1703, -1703, -400, 2009, -1138],
    [784, -1892, 1892, -784, -784, 1892, -1892, 784],
    [400, -1138, 1703, -2009, 2009, -1703, 1138, -400]], np.int64)

# Block offsets (x, y) of the passes, by number of passes: the pattern of
# FFmpeg's spp for its quality 1 to 4 (offsets spread over the 8x8 cell so
# that no two passes share a row or column phase where it can be helped).
SHIFTS = {
    1: [(0, 0)],
    2: [(0, 0), (4, 4)],
    4: [(0, 0), (2, 2), (6, 4), (4, 6)],
    8: [(0, 0), (5, 1), (2, 2), (7, 3), (4, 4), (1, 5), (6, 6), (3, 7)],
    16: [(0, 0), (4, 0), (1, 1), (5, 1), (3, 2), (7, 2), (2, 3), (6, 3),
         (0, 4), (4, 4), (3, 5), (7, 5), (1, 6), (5, 6), (2, 7), (6, 7)],
}

# The coefficients (u = column frequency, v = row frequency) whose histogram
# the estimator reads, and its histogram size (|X| in quarter levels).
EST_POS = [(1, 0), (0, 1), (1, 1)]
EST_BINS = 1024


def blocks(y, sx, sy):
    """Blocks of the plane Y (h, w) for offset (sx, sy): the block grid starts
    at (-sx, -sy); samples outside the plane replicate its edge. Returns
    (nby, nbx, 8, 8) int64 and the padding (top, left)."""
    h, w = y.shape
    nbx = (w + sx + 7) // 8
    nby = (h + sy + 7) // 8
    p = np.pad(y.astype(np.int64), ((sy, nby * 8 - h - sy),
                                    (sx, nbx * 8 - w - sx)), mode="edge")
    return p.reshape(nby, 8, nbx, 8).transpose(0, 2, 1, 3), nby, nbx


def fdct_rows(b):
    """The row transforms R[..., m, u] of blocks b[..., m, n] (samples -
    128), rounded back to 2 fractional bits."""
    return (np.einsum("...mn,un->...mu", b, DCT) + 512) >> 10


def fdct_columns(r):
    """The column transforms of row transforms r: the coefficients X[..., v, u]
    in quarter levels."""
    return (np.einsum("vm,...mu->...vu", DCT, r) + 2048) >> 12


def fdct(b):
    """Forward DCT of blocks b[..., m, n] (samples - 128): rows then
    columns, each sum rounded back to 2 fractional bits."""
    return fdct_columns(fdct_rows(b))


def idct(X):
    """Inverse DCT of coefficients X[..., v, u]: columns, rounded back to 2
    fractional bits, then rows, not rounded (12 more fractional bits)."""
    p = (np.einsum("vm,...vu->...mu", DCT, X) + 2048) >> 12
    return np.einsum("un,...mu->...mn", DCT, p)


def dct_threshold(y, threshold, shifts=4):
    """The stage on one 8-bit plane Y (h, w): THRESHOLD in quarter levels
    of orthonormal DCT coefficients (AC coefficients with |X| < threshold
    become 0; the DC term is always kept); 0 returns the plane unchanged."""
    if threshold <= 0:
        return y.copy()
    h, w = y.shape
    acc = np.zeros((h, w), np.int64)
    for sx, sy in SHIFTS[shifts]:
        b, nby, nbx = blocks(y, sx, sy)
        X = fdct(b - 128)
        keep = np.abs(X) >= threshold
        keep[..., 0, 0] = True
        r = idct(np.where(keep, X, 0))
        full = r.transpose(0, 2, 1, 3).reshape(nby * 8, nbx * 8)
        acc += full[sy:sy + h, sx:sx + w]
    s = len(SHIFTS[shifts])
    out = (acc + ((512 * s + 2 * s) << 12)) >> (14 + s.bit_length() - 1)
    return np.clip(out, 0, 255).astype(np.uint8)


def histogram(y):
    """EST_BINS-bin histograms of |X| (quarter levels, clamped to the last
    bin) of the EST_POS coefficients over the blocks of Y's own 8x8 grid
    that lie wholly inside it: shape (len (EST_POS), EST_BINS), int64."""
    h, w = y.shape
    nby, nbx = h // 8, w // 8
    b = y[:nby * 8, :nbx * 8].astype(np.int64).reshape(
        nby, 8, nbx, 8).transpose(0, 2, 1, 3)
    X = fdct(b - 128)
    out = np.zeros((len(EST_POS), EST_BINS), np.int64)
    for i, (u, v) in enumerate(EST_POS):
        a = np.minimum(np.abs(X[..., v, u]).ravel(), EST_BINS - 1)
        out[i] = np.bincount(a, minlength=EST_BINS)
    return out


# The comb's parameters. Values below EST_MIN quarter levels are rounding
# noise around a zeroed coefficient and are left out. A step D fits when at
# least EST_FIT / 64 of the other values lie within EST_TOL of a nonzero
# multiple of D: a quantizer of step D never gives a value between EST_MIN
# and D - EST_TOL, so those count against it. Steps are tried from
# EST_STEP_MAX down to EST_STEP_MIN (quarter levels); a random spread fits a
# step D by chance with about (2 EST_TOL + 1) / D, which EST_STEP_MIN keeps
# well below EST_FIT / 64. A histogram needs EST_MIN_COUNT such values.
EST_MIN = 6
EST_TOL = 2
EST_FIT = 40
EST_MIN_COUNT = 64
EST_STEP_MIN = 24
EST_STEP_MAX = 255


def comb_step(hist):
    """The largest step D (quarter levels) that HIST's values fit (above);
    0 if none, or too few values."""
    h = [int(x) for x in hist]
    n = sum(h[EST_MIN:EST_BINS - 1])
    if n < EST_MIN_COUNT:
        return 0
    for d in range(EST_STEP_MAX, EST_STEP_MIN - 1, -1):
        near = 0
        for k in range(d, EST_BINS - 1 + EST_TOL, d):
            near += sum(h[max(k - EST_TOL, EST_MIN):min(k + EST_TOL + 1,
                                                      EST_BINS - 1)])
        if near * 64 >= EST_FIT * n:
            return d
    return 0


def estimate(y):
    """The frame's quantizer step (quarter levels): the median of the steps
    found at EST_POS, 0 where fewer than two are found."""
    steps = sorted(comb_step(hh) for hh in histogram(y))
    found = [s for s in steps if s > 0]
    if len(found) < 2:
        return 0
    return found[len(found) // 2]


def auto_threshold(step, gain):
    """The stage's threshold (quarter levels) for a quantizer STEP:
    GAIN / 16 times it."""
    return (step * gain + 8) >> 4
