#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Turns the real-client matrix's output (the "matrix:" lines that
build/tests/elements_clepsilonclients prints) into a Markdown table: a row per
client, a column per I420 setting and per other format (its three
configurations: defaults and chroma from appsrc, defaults from videotestsrc).
A cell says "ok", "n/a" (the client does not take that format), "FAIL" with
the count, or "skip" (the client's elements are not installed).

    build/tests/elements_clepsilonclients | python3 scripts/clients-table.py
"""
import re
import sys

cells, skipped, order = {}, set(), []
for line in sys.stdin:
    m = re.match(r"matrix: (\S+)\s+([^/\s]+)/([^/\s]+)/([^/\s]+)(/interlaced)?"
                 r"\s+(.*)$", line.rstrip())
    if m:
        client, fmt, setting, source, interlaced, verdict = m.groups()
        if client not in order:
            order.append(client)
        col = "interlaced" if interlaced else setting if fmt == "I420" else fmt
        cells.setdefault((client, col), []).append(verdict)
        continue
    m = re.match(r"matrix: (\S+)\s+SKIPPED", line)
    if m:
        skipped.add(m.group(1))
        if m.group(1) not in order:
            order.append(m.group(1))

cols = ["defaults", "chroma", "kernel", "kernel-only", "passthrough", "NV12",
        "YV12", "NV21", "GRAY8", "Y444", "Y42B", "YUY2", "UYVY", "I420_10LE",
        "P010_10LE",
        "I422_10LE", "Y444_10LE", "interlaced"]


def cell(verdicts):
    if not verdicts:
        return ""
    bad = [v for v in verdicts if v not in ("ok", "n/a")]
    if bad:
        return "FAIL %d/%d" % (len(bad), len(verdicts))
    if all(v == "n/a" for v in verdicts):
        return "n/a"
    return "ok"


print("| client | " + " | ".join("I420 " + c if i < 5 else c
                                   for i, c in enumerate(cols)) + " |")
print("|" + " --- |" * (len(cols) + 1))
for client in order:
    if client in skipped:
        row = ["skip"] * len(cols)
    else:
        row = [cell(cells.get((client, c), [])) for c in cols]
    print("| `%s` | %s |" % (client, " | ".join(row)))
