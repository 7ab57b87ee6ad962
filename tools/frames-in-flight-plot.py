#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""fps against frames in flight, from the logs of tools/gpu-frames-in-flight.sh.

    python3 tools/frames-in-flight-plot.py LOGDIR OUT.svg

LOGDIR holds the clepsilon-bench outputs the script keeps (4k-pool-R-new.log,
4k-pool-R-old.log, 4k-system-*.log, 1080-pool-*.log). For each case, the
median over its rounds of each run's median ms a frame, as fps, at 1, 3 and
6 frames in flight and at the default (0: auto); the old build as a dashed
line. A plain SVG, so that no plotting library is needed."""
import glob
import os
import re
import statistics
import sys

CASES = [("4k-pool", "4K NV12 from the pool", "#1f77b4"),
         ("4k-system", "4K NV12 from system memory", "#d62728"),
         ("1080-pool", "1080p NV12 from the pool", "#2ca02c")]
DEPTHS = [1, 3, 6]


def runs(path):
    """(frames in flight or 0 for the default, ms a frame) of each run."""
    out = []
    for line in open(path):
        if not line.startswith("clepsilon ") or "device:" in line:
            continue
        m = re.search(r"frames-in-flight=(\d+)", line)
        ms = float(line.split()[-5])
        out.append((int(m.group(1)) if m else 0, ms))
    return out


def figures(logdir):
    res = {}
    for key, _, _ in CASES:
        new, old = {}, []
        for path in glob.glob(os.path.join(logdir, key + "*-new.log")):
            for depth, ms in runs(path):
                new.setdefault(depth, []).append(ms)
        for path in glob.glob(os.path.join(logdir, key + "*-old.log")):
            old += [ms for _, ms in runs(path)]
        res[key] = ({d: 1000 / statistics.median(v) for d, v in new.items()},
                    1000 / statistics.median(old) if old else None)
    return res


def svg(res, out):
    w, h, left, bottom, top, right = 640, 400, 70, 50, 30, 230
    ymax = max(max(list(n.values()) + [o or 0]) for n, o in res.values())
    ymax = (int(ymax / 1000) + 1) * 1000
    X = lambda d: left + (DEPTHS.index(d) + 0.5) * (w - left - right) / len(DEPTHS)
    Y = lambda f: h - bottom - f / ymax * (h - bottom - top)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
         'font-family="sans-serif" font-size="12">',
         f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="{left}" y="18">clepsilon 9x9 on an NVIDIA H100: fps against '
         'frames in flight</text>']
    for f in range(0, ymax + 1, 1000):
        s.append(f'<line x1="{left}" x2="{w - right}" y1="{Y(f)}" y2="{Y(f)}" '
                 'stroke="#ddd"/>')
        s.append(f'<text x="{left - 8}" y="{Y(f) + 4}" text-anchor="end">{f}</text>')
    for d in DEPTHS:
        s.append(f'<text x="{X(d)}" y="{h - bottom + 18}" text-anchor="middle">{d}</text>')
    s.append(f'<text x="{(left + w - right) / 2}" y="{h - 12}" text-anchor="middle">'
             'frames-in-flight</text>')
    for i, (key, label, color) in enumerate(CASES):
        new, old = res[key]
        pts = " ".join(f"{X(d)},{Y(new[d])}" for d in DEPTHS if d in new)
        s.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
        for d in DEPTHS:
            if d in new:
                s.append(f'<circle cx="{X(d)}" cy="{Y(new[d])}" r="3" fill="{color}"/>')
        if old:
            s.append(f'<line x1="{left}" x2="{w - right}" y1="{Y(old)}" y2="{Y(old)}" '
                     f'stroke="{color}" stroke-dasharray="5,4"/>')
        ly = top + 20 + 36 * i
        s.append(f'<line x1="{w - right + 12}" x2="{w - right + 32}" y1="{ly}" '
                 f'y2="{ly}" stroke="{color}" stroke-width="2"/>')
        s.append(f'<text x="{w - right + 38}" y="{ly + 4}">{label}</text>')
        if 0 in new:
            s.append(f'<text x="{w - right + 38}" y="{ly + 18}" fill="#555">default '
                     f'{new[0]:.0f} fps; before {old or 0:.0f}</text>')
    s.append(f'<text x="{w - right + 12}" y="{top + 20 + 36 * 3 + 4}" fill="#555">'
             'dashed: the build before</text>')
    s.append("</svg>")
    open(out, "w").write("\n".join(s) + "\n")


if __name__ == "__main__":
    res = figures(sys.argv[1])
    for key, (new, old) in res.items():
        print(key, {d: round(f) for d, f in sorted(new.items())},
              "before", round(old) if old else None)
    svg(res, sys.argv[2])
