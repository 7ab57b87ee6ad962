#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""clepsilon-bench's "stats over the timed frames": the element's stats
gained between the reading before the timed batches and the one after.
Counters are differences, means a frame ("...-per-frame", each cause of
"host-waits") are means over the timed frames, and the threshold in force
(auto-threshold) is the one after: a mean a frame times the frames gives
its total, and the causes add up to host-wait-ms-per-frame.
Usage: check-stats.py CLEPSILON_BENCH"""
import re
import subprocess
import sys

FRAMES, REPEAT = 6, 2
out = subprocess.run(
    [sys.argv[1], "--no-smooth", "--format=NV12", "--width=176",
     "--height=144", f"--frames={FRAMES}", f"--repeat={REPEAT}",
     "--warmup=4", "--clepsilon=strength=auto"],
    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    timeout=240, check=False).stdout
line = next((l for l in out.splitlines()
             if "stats over the timed frames:" in l), None)
if line is None:
    sys.exit("no timed stats in the output:\n" + out)


def number(name, text=line):
    m = re.search(r"(?<![\w-])" + re.escape(name)
                  + r"\\?=\\?\((?:guint64|double|uint)\\?\)([-0-9.e+]+)", text)
    if not m:
        sys.exit(f"no {name} in: {text}")
    return float(m.group(1))


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


failed = []
frames = number("frames")
if frames != FRAMES * REPEAT:
    failed.append(f"frames {frames}, not the {FRAMES * REPEAT} timed")
for total in ("transform-ms", "device-ms"):
    mean = number(total + "-per-frame")
    if mean < 0 or not close(mean * frames, number(total)):
        failed.append(f"{total}-per-frame {mean} times {frames} frames is "
                      f"not {total} {number(total)}")
if "host-waits=" not in line:
    sys.exit("no host-waits in: " + line)
waits = line[line.index("host-waits="):]
causes = [float(v) for v in
          re.findall(r"\\?=\\?\(double\\?\)([-0-9.e+]+)", waits)]
wait = number("host-wait-ms-per-frame")
if not causes or min(causes) < 0 or not close(sum(causes), wait):
    failed.append(f"host waits by cause {causes} do not add up to "
                  f"host-wait-ms-per-frame {wait}")
if failed:
    print(line)
    sys.exit("\n".join(failed))
print(f"timed stats right over {frames:.0f} frames: transform "
      f"{number('transform-ms-per-frame'):.3f} ms a frame, host waits "
      f"{wait:.3f}")
