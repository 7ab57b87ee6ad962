#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The OpenCL fault sweep over real pipelines.

Runs short gst-launch-1.0 style pipelines through clepsilon with libclfault
preloaded, each in a process of its own (clfault-launch, which the build
makes: gst-launch-1.0's main loop can hang after an ERROR at preroll): once without a fault (the reference output, and how many OpenCL
calls a run makes), then once per call index N with the N-th call failing
(or, with --persist, every call from the N-th: a lost device). Real elements
write the output (y4menc ! filesink, or filesink of raw frames); each run is
classified as

  right        exit 0, the output equal to the reference's
  error        a clean error: non-zero exit, an ERROR on the bus naming the
               OpenCL call that failed, and every frame in the output
               right, in order (frames may be missing: filesink writes the
               frames it buffered as far as it can map them, so a frame
               whose data could not be delivered leaves a hole, or a y4m
               frame cut short: its planes shared with the input without
               the element's own), or an ERROR saying that an output
               frame's data could not be delivered
  silent       silent wrong output: exit 0 with other output, or a frame in
               the output that is not the reference's
  unnamed      non-zero exit without an ERROR naming an OpenCL call
  hang         still running at the timeout (normal runs take well under a
               second; slow PoCL runs never reach it)
  crash        killed by a signal

and the sweep fails on anything but the first two. It prints a table of
counts per pipeline.

  tests/clfault/sweep.py --build build                 # the meson test's set
  tests/clfault/sweep.py --build build --full          # every pipeline, both
                                                       # error codes, persist
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

WIDTH, HEIGHT, FRAMES = 64, 48, 4
RAW_CAPS = f"video/x-raw,format=I420,width={WIDTH},height={HEIGHT}"
SYSMEM_SRC = (f"filesrc location={{input}} ! rawvideoparse format=i420 "
              f"width={WIDTH} height={HEIGHT} framerate=30/1")
POOL_SRC = (f"videotestsrc num-buffers={FRAMES} pattern=snow ! "
            f"video/x-raw,format=I420,width={WIDTH},height={HEIGHT}")
Y4M_SINK = "y4menc ! filesink location={output}"
# a coded stream whose decoder writes into the pool the element proposes
# and copies reference frames it still holds (GstVideoDecoder)
DECODED_SRC = ("filesrc location=" + os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "data", "pan-rate.m2v") +
    " ! mpegvideoparse ! avdec_mpeg2video ! identity eos-after=6")
RAW_SINK = "filesink location={output}"

# name, environment, pipeline; the first five are the meson test's.
PIPELINES = [
    ("auto", {},
     f"{SYSMEM_SRC} ! clepsilon strength=auto ! {Y4M_SINK}"),
    ("discrete-sysmem", {"GST_CL_DISCRETE": "1"},
     f"{SYSMEM_SRC} ! clepsilon frames-in-flight=3 chroma-threshold=8 ! "
     f"{Y4M_SINK}"),
    ("discrete-pool", {"GST_CL_DISCRETE": "1"},
     f"{POOL_SRC} ! clepsilon frames-in-flight=3 ! {RAW_SINK}"),
    ("chain-svm", {},
     f"{POOL_SRC} ! clepsilon frames-in-flight=3 ! "
     f"clepsilon threshold=30 ! {RAW_SINK}"),
    ("chain-nosvm", {"GST_CL_SVM": "0"},
     f"{POOL_SRC} ! clepsilon ! clepsilon threshold=30 window-size=5 ! "
     f"{Y4M_SINK}"),
    # --full only
    ("auto-discrete", {"GST_CL_DISCRETE": "1"},
     f"{POOL_SRC} ! clepsilon strength=auto frames-in-flight=3 ! "
     f"{RAW_SINK}"),
    ("chain-discrete", {"GST_CL_DISCRETE": "1"},
     f"{SYSMEM_SRC} ! clepsilon frames-in-flight=3 ! "
     f"clepsilon frames-in-flight=2 threshold=30 ! {Y4M_SINK}"),
    ("nosvm-sysmem", {"GST_CL_SVM": "0"},
     f"{SYSMEM_SRC} ! clepsilon kernel=\"1 2 1; 2 4 2; 1 2 1\" divisor=16 ! "
     f"{Y4M_SINK}"),
    ("inflight-svm", {},
     f"{POOL_SRC} ! clepsilon frames-in-flight=3 chroma-threshold=8 ! "
     f"{Y4M_SINK}"),
    ("decoder-discrete", {"GST_CL_DISCRETE": "1"},
     f"{DECODED_SRC} ! clepsilon strength=auto ! {Y4M_SINK}"),
]
QUICK = 5

OUTCOMES = ["right", "error", "silent", "unnamed", "hang", "crash"]
FAILING = {"silent", "unnamed", "hang", "crash"}
CL_CALL = re.compile(r"\bcl[A-Z][A-Za-z]+")
CALLS = re.compile(r"clfault: (\d+) calls counted")
FRAME_BYTES = WIDTH * HEIGHT * 3 // 2
Y4M_FRAME = b"FRAME\n"
# the debug text of the element's ERROR where a consumer's map found no data
FRAME_LOST = "an output frame's data could not be delivered"


def launch(args, env, pipeline, output, timeout):
    """Runs @pipeline; returns (returncode or 'hang', stderr text)."""
    if os.path.exists(output):
        os.unlink(output)
    cmd = [args.launch] + shlex.split(pipeline)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            errors="replace", start_new_session=True)
    try:
        text, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        text, _ = proc.communicate()
        return "hang", text
    return proc.returncode, text


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


def split_frames(data):
    """The stream header (y4m) and the frames of @data; a y4m frame whose
    data is missing is empty."""
    if data.startswith(b"YUV4MPEG2"):
        parts = data.split(Y4M_FRAME)
        return parts[0], parts[1:]
    return b"", [data[i:i + FRAME_BYTES]
                 for i in range(0, len(data), FRAME_BYTES)]


def frames_right(output, reference):
    """Whether every frame of @output is one of @reference, in order; y4m
    frames cut short (memories filesink could not map) are passed over."""
    if not output:
        return True
    header, frames = split_frames(output)
    ref_header, ref_frames = split_frames(reference)
    if header != ref_header:
        return False
    i = 0
    for frame in frames:
        if header and len(frame) < len(ref_frames[0]):
            continue
        while i < len(ref_frames) and ref_frames[i] != frame:
            i += 1
        if i == len(ref_frames):
            return False
        i += 1
    return True


def classify(rc, text, output, reference):
    if rc == "hang":
        return "hang"
    if rc < 0:
        return "crash"
    if rc == 0:
        return "right" if output == reference else "silent"
    lines = text.splitlines()
    named = False
    for i, line in enumerate(lines):
        # "ERROR: from element ...: text", then the debug text on the line
        # after "Additional debug info:"
        if line.startswith("ERROR: from element"):
            named = named or any(CL_CALL.search(x) for x in lines[i:i + 3])
    if not named:
        return "unnamed"
    if frames_right(output, reference) or FRAME_LOST in text:
        return "error"
    return "silent"


def pipeline_env(args, extra, cache):
    env = dict(os.environ)
    env.update({
        "LD_PRELOAD": args.clfault,
        "GST_PLUGIN_PATH_1_0": args.plugins,
        "GST_CL_CACHE_DIR": cache,
        "GST_REGISTRY_1_0": os.path.join(os.path.dirname(cache), "registry"),
        "CLFAULT_REPORT": "1",
    })
    env.update(extra)
    return env


def reference_run(args, name, env, pipeline, work):
    """Warms the caches, then runs without a fault twice: the output must be
    the same both times (else comparing with it means nothing)."""
    outputs = []
    calls = 0
    for i in range(3):
        out = os.path.join(work, f"{name}.ref{i}")
        rc, text = launch(args, env, pipeline.format(output=out,
                                                     input=args.input), out,
                          args.timeout * 10)
        m = CALLS.search(text)
        if rc != 0 or not m or not os.path.getsize(out):
            sys.exit(f"{name}: the run without a fault failed ({rc}):\n{text}")
        if i > 0:
            # the first run may tune (its calls are not the others')
            calls = max(calls, int(m.group(1)))
        outputs.append(read(out))
    if outputs[1] != outputs[2]:
        sys.exit(f"{name}: two runs without a fault gave different output")
    if args.input and name.endswith("sysmem") and outputs[1] == read(
            args.input):
        sys.exit(f"{name}: the output is the input: nothing was filtered")
    return outputs[1], calls


def fault_run(args, name, env, pipeline, work, reference, nth, persist,
              error):
    out = os.path.join(work, f"{name}.{nth}.{int(persist)}.{error}")
    run_env = dict(env, CLFAULT_NTH=str(nth), CLFAULT_ERROR=str(error))
    if persist:
        run_env["CLFAULT_PERSIST"] = "1"
    rc, text = launch(args, run_env, pipeline.format(output=out,
                                                     input=args.input), out,
                      args.timeout)
    outcome = classify(rc, text, read(out), reference)
    if os.path.exists(out):
        os.unlink(out)
    return nth, outcome, text


def make_input(args, work):
    path = os.path.join(work, "input.yuv")
    rc, text = launch(args, dict(os.environ, GST_REGISTRY_1_0=os.path.join(
                      work, "registry")),
                      f"videotestsrc num-buffers={FRAMES} pattern=snow ! "
                      f"{RAW_CAPS} ! filesink location={path}", path, 60)
    if rc != 0:
        sys.exit(f"making the input failed:\n{text}")
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", required=True, help="the build folder")
    parser.add_argument("--full", action="store_true",
                        help="every pipeline, CL_OUT_OF_HOST_MEMORY too, and "
                        "every call from the N-th failing (CLFAULT_PERSIST)")
    parser.add_argument("--only", help="comma-separated pipeline names")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds after which a run counts as hung")
    parser.add_argument("--launch", help="the pipeline runner (default: "
                        "clfault-launch of the build)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the work folder (and print its path)")
    parser.add_argument("--verbose", action="store_true",
                        help="print the log of every failing run")
    args = parser.parse_args()

    build = os.path.abspath(args.build)
    args.clfault = os.path.join(build, "tests", "libclfault.so")
    args.plugins = os.path.join(build, "gst")
    args.launch = args.launch or os.path.join(build, "tests",
                                              "clfault-launch")
    work = tempfile.mkdtemp(prefix="clfault-sweep-")
    cache = os.path.join(work, "cache")
    args.input = make_input(args, work)

    pipelines = PIPELINES if args.full else PIPELINES[:QUICK]
    if args.only:
        pipelines = [p for p in pipelines if p[0] in args.only.split(",")]
    modes = [(False, -5)]
    if args.full:
        modes += [(False, -6), (True, -6)]

    start = time.monotonic()
    rows = []
    failed = False
    for name, extra, pipeline in pipelines:
        env = pipeline_env(args, extra, cache)
        reference, calls = reference_run(args, name, env, pipeline, work)
        # call counts vary by a few between runs (profiling queries)
        last = calls + 4
        for persist, error in modes:
            counts = dict.fromkeys(OUTCOMES, 0)
            bad = []
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                runs = [pool.submit(fault_run, args, name, env, pipeline,
                                    work, reference, nth, persist, error)
                        for nth in range(1, last + 1)]
                for run in runs:
                    nth, outcome, text = run.result()
                    counts[outcome] += 1
                    if outcome in FAILING:
                        bad.append((nth, outcome, text))
            label = f"{name}{' persist' if persist else ''} {error}"
            rows.append((label, last, counts))
            for nth, outcome, text in bad:
                failed = True
                print(f"FAIL {label}: CLFAULT_NTH={nth}: {outcome}")
                if args.verbose:
                    print(text)
            sys.stdout.flush()

    print(f"\n| pipeline, error | runs | {' | '.join(OUTCOMES)} |")
    print("| --- | --- |" + " --- |" * len(OUTCOMES))
    total = dict.fromkeys(OUTCOMES, 0)
    n = 0
    for label, runs, counts in rows:
        n += runs
        for k in OUTCOMES:
            total[k] += counts[k]
        print(f"| {label} | {runs} | "
              + " | ".join(str(counts[k]) for k in OUTCOMES) + " |")
    print(f"| all | {n} | " + " | ".join(str(total[k]) for k in OUTCOMES)
          + " |")
    print(f"\n{time.monotonic() - start:.0f} s, {args.jobs} runs at a time")
    if args.keep:
        print(f"work folder: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
