#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# How often dct_strips can skip a column of coefficients (kernels/dct.cl,
# dct_columns) on a plane: for the pass at offset (0, 0) and each column
# frequency u, the share of the strip kernel's groups of 16 side-by-side
# blocks whose column u keeps no AC coefficient at the threshold (the
# inverse is skipped), and the share that the test on the sums of |R|
# finds empty before the forward transform (which the kernel runs on a
# column that was empty the last time).
#
#   /usr/bin/python3 tools/quality/empty_columns.py PLANE.y WIDTH HEIGHT THRESHOLD

import sys

import numpy as np

import dctmodel as dm

LANES = 16


def main():
    path, w, h, threshold = sys.argv[1], *map(int, sys.argv[2:5])
    y = np.fromfile(path, np.uint8, w * h).reshape(h, w)
    b, _, nbx = dm.blocks(y, 0, 0)
    r = dm.fdct_rows(b - 128)
    x = dm.fdct_columns(r)
    kept = np.abs(x) >= threshold
    kept[..., 0, 0] = False
    groups = nbx // LANES * LANES

    def lanes(a):
        a = a[:, :groups]
        return a.reshape(a.shape[0], -1, LANES, *a.shape[2:])

    empty = ~lanes(kept).any(axis=(2, 3))
    l1_max = (4096 * threshold - 2049) // 2009
    tested = np.abs(lanes(r)).sum(axis=3).max(axis=2) <= l1_max
    print("u  empty after the threshold  found empty by the test")
    for u in range(8):
        print("%d  %.2f  %.2f" % (u, empty[..., u].mean(), tested[..., u].mean()))


if __name__ == "__main__":
    main()
