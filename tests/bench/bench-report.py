#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# gst-clfilters: turns what tests/bench/bench-table.sh measured (the CSV
# that clepsilon-bench and tests/bench/bench-ffmpeg-conv.sh append to, and
# their logs)
# into Markdown tables, PNG plots and the MACHINE section of
# docs/benchmarks.md, between "<!-- bench:MACHINE:begin -->" and
# "<!-- bench:MACHINE:end -->" (appended at the end when the file has none).
"""Tables, plots and a docs/benchmarks.md section from bench.csv and logs."""

import argparse
import csv
import datetime
import glob
import math
import os
import platform
import re
import subprocess
import sys


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def load(path):
    """Rows grouped by case label, in the order they were run."""
    groups = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            groups.setdefault(row["label"], []).append(row)
    return groups


def read_logs(folder):
    """Per case label: the commands ("$ ..." lines) and notable lines."""
    logs = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
        label = None
        for line in open(path, errors="replace"):
            line = line.rstrip("\n")
            if line.startswith("machine: "):
                logs.setdefault("", {"commands": [], "notes": [line[9:]]})
            elif line.startswith("== "):
                label = line[3:]
                logs.setdefault(label, {"commands": [], "notes": []})
            elif label is None:
                continue
            elif line.startswith("$ "):
                logs[label]["commands"].append(line[2:])
            elif ("skipped:" in line or "failed:" in line) and not line.startswith(" "):
                # The same message comes on stderr and in the results table.
                note = re.sub(r":?\s+(skipped|failed):", r": \1:", line.strip())
                if note not in logs[label]["notes"]:
                    logs[label]["notes"].append(note)
            elif (line.lstrip().startswith("outputs (")
                  or line.startswith("warning")
                  or line.startswith("load average")
                  or line.startswith("FFmpeg ")
                  or "not found" in line):
                logs[label]["notes"].append(line.strip())
    return logs


def main_clepsilon(rows):
    for r in rows:
        if r["element"] == "clepsilon" and r["status"] == "ok" and num(r["median_ms"]):
            return r
    return None


def fmt(v, digits=None):
    if v is None:
        return ""
    if digits is None:
        digits = 3 if abs(v) < 10 else 2 if abs(v) < 100 else 1
    return "%.*f" % (digits, v)


def table(rows):
    ref = main_clepsilon(rows)
    ref_med = num(ref["median_ms"]) if ref else None
    ref_net = num(ref["minus_identity_ms"]) if ref else None
    out = ["| contender | input | median ms/frame | min–max | fps | net ms/frame "
           "| vs clepsilon | vs clepsilon, net | kernels ms/frame | in element ms/frame "
           "| kernels run | memory path |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    for r in rows:
        # The case's own properties are in its command, above the table.
        name = r["contender"]
        if r["element"] == "clepsilon":
            name = short(name) or "clepsilon"
        name = name.replace("|", "\\|")
        if r["status"] != "ok" or num(r["median_ms"]) is None:
            out.append("| %s | | %s | | | | | | | | | |"
                       % (name, "not run: " + r["status"].replace("|", "\\|")))
            continue
        med, net = num(r["median_ms"]), num(r["minus_identity_ms"])
        lo, hi = num(r["min_ms"]), num(r["max_ms"])
        baseline = r["element"] == "identity" or r["contender"] == "ffmpeg null"
        ratio = ("%.2f×" % (med / ref_med)
                 if ref_med and r is not ref and not baseline else "")
        ratio_net = ("%.2f×" % (net / ref_net)
                     if ref_net and net and net > 0 and ref_net > 0 and r is not ref
                     else "")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, r["input"], fmt(med),
            "%s–%s" % (fmt(lo), fmt(hi)) if lo is not None else "",
            fmt(num(r["fps"]), 1), fmt(net), ratio, ratio_net,
            fmt(num(r["kernel_ms"])), fmt(num(r["element_ms"])),
            r.get("launch", ""), r["memory_path"]))
    return "\n".join(out)


def short(name):
    """A contender's name without what every contender of its case shares."""
    for pattern in (r'kernel="[^"]*"', r"threshold=0\b", r"device=\S+",
                    r"threshold=20 window-size=9"):
        name = re.sub(pattern, "", name)
    return re.sub(r"\s+", " ", name).strip()[:48]


def plot(groups, labels, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = []          # (case header or None, contender, ms)
    for label in labels:
        first = True
        for r in groups[label]:
            med = num(r["median_ms"])
            if (r["status"] != "ok" or med is None or r["element"] == "identity"
                    or r["contender"] == "ffmpeg null"):
                continue
            if first:
                rows.append((label, None, None, None, None))
                first = False
            rows.append((None, short(r["contender"]), med,
                         num(r["min_ms"]), num(r["max_ms"])))
    values = [ms for _, _, ms, _, _ in rows if ms is not None]
    if not values:
        return False
    colours = {"clepsilon": "tab:blue", "smooth": "tab:orange", "ffmpeg": "tab:green"}
    fig, ax = plt.subplots(figsize=(9, 0.36 * len(rows) + 1.4))
    log = max(values) / min(values) > 20
    left = 10 ** math.floor(math.log10(min(values))) if log else 0
    names = []
    top = max(v for row in rows for v in (row[2], row[4]) if v is not None)
    for y, (case, name, med, lo, hi) in enumerate(rows):
        if case is not None:
            names.append(case)
            continue
        names.append(name + "  ")
        colour = next((c for k, c in colours.items() if name.startswith(k)), "tab:gray")
        err = None
        if lo is not None and hi is not None:
            err = [[med - lo], [hi - med]]
        ax.barh(y, med - left, left=left, color=colour, height=0.7, xerr=err,
                error_kw={"ecolor": "black", "elinewidth": 0.8, "capsize": 2})
        end = hi if hi is not None else med
        ax.text(end * (1.06 if log else 1) + (0 if log else top * 0.015), y,
                "%s ms" % fmt(med), va="center", fontsize=8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(names, fontsize=8)
    for tick, (case, _, _, _, _) in zip(ax.get_yticklabels(), rows):
        if case is not None:
            tick.set_fontweight("bold")
    ax.invert_yaxis()
    if log:
        ax.set_xscale("log")
        ax.set_xlim(left, top * 4)
    else:
        ax.set_xlim(0, top * 1.2)
    ax.set_xlabel("median ms per frame, min–max whiskers%s; shorter is faster"
                  % (" (log scale)" if log else ""))
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def machine_line(groups, logs):
    """Where the cases ran: the line tests/bench/bench-table.sh logged there, else
    this machine's description (the report is written where it ran)."""
    devices = sorted({r["device"] for rows in groups.values() for r in rows if r["device"]
                      and r["element"] == "clepsilon"})
    if "" in logs:
        line = logs[""]["notes"][0]
        line = re.sub(r"; run as: (.*)$", r"; run as `\1`", line)
        return "%s; OpenCL device: %s" % (line, ", ".join(devices) or "none")
    cpu = ""
    if os.path.exists("/proc/cpuinfo"):
        m = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read())
        cpu = m.group(1) if m else ""
    gst = run(["gst-launch-1.0", "--gst-version"]).replace("GStreamer Core Library version ", "")
    ff = run(["ffmpeg", "-version"]).split("\n")[0]
    ff = ff.split(" Copyright")[0].replace("ffmpeg version ", "FFmpeg ") if ff else "FFmpeg absent"
    tree = run(["git", "describe", "--always", "--dirty"])
    return ("(no machine line in the logs; this is where the report was written) "
            "%s, %d CPUs (%s); OpenCL device: %s; GStreamer %s; %s; tree %s."
            % (cpu or platform.processor(), os.cpu_count() or 0, platform.platform(terse=True),
               ", ".join(devices) or "none", gst or "?", ff, tree or "?")).rstrip(".")


def section(args, groups, logs, plots):
    now = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    lines = ["<!-- bench:%s:begin -->" % args.machine,
             "<!-- Written by tests/bench/bench-report.py from tests/bench/bench-table.sh; "
             "edits here are overwritten. -->",
             "",
             "Run: %s (report written %s)" % (machine_line(groups, logs), now),
             ""]
    for rel, alt in plots:
        lines += ["![%s](%s)" % (alt, rel), ""]
    for label, rows in groups.items():
        lines += ["### %s" % label, ""]
        log = logs.get(label, {"commands": [], "notes": []})
        if log["commands"]:
            lines += ["```sh"] + log["commands"] + ["```", ""]
        lines += [table(rows), ""]
        notes = [n for n in log["notes"] if not n.startswith("$")]
        if notes:
            lines += ["    " + n for n in notes] + [""]
    lines.append("<!-- bench:%s:end -->" % args.machine)
    return "\n".join(lines)


def write_doc(path, machine, text):
    begin, end = "<!-- bench:%s:begin -->" % machine, "<!-- bench:%s:end -->" % machine
    doc = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    if begin in doc and end in doc:
        a = doc.index(begin)
        b = doc.index(end) + len(end)
        doc = doc[:a] + text + doc[b:]
    else:
        doc = doc.rstrip("\n") + "\n\n## %s\n\n%s\n" % (machine, text)
    with open(path, "w") as f:
        f.write(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--machine", default="pocl")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--logs", required=True)
    ap.add_argument("--doc", default="docs/benchmarks.md")
    ap.add_argument("--img", default="docs/img")
    ap.add_argument("--no-plots", action="store_true")
    args = ap.parse_args()

    if not os.path.exists(args.csv):
        sys.exit("%s: no results" % args.csv)
    groups = load(args.csv)
    logs = read_logs(args.logs)
    plots = []
    if not args.no_plots:
        os.makedirs(args.img, exist_ok=True)
        docdir = os.path.dirname(os.path.abspath(args.doc))
        eps = [l for l in groups if not l.startswith("conv")]
        conv = [l for l in groups if l.startswith("conv")]
        for name, labels, title in (
                ("epsilon", eps, "Epsilon filter, ms per frame (%s)" % args.machine),
                ("conv", conv, "Convolution of 1080p luma, ms per frame (%s)"
                 % args.machine)):
            path = os.path.join(args.img, "bench-%s-%s.png" % (args.machine, name))
            if labels and plot(groups, labels, path, title):
                plots.append((os.path.relpath(path, docdir), title))
    text = section(args, groups, logs, plots)
    write_doc(args.doc, args.machine, text)
    print(text)
    print("\nwrote the %s section of %s" % (args.machine, args.doc))


if __name__ == "__main__":
    main()
