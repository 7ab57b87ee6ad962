#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Mutation testing: does the test suite notice a small change of the code?

Each mutant of the list file (scripts/mutants.txt) is one textual change: a
file, its exact original text (found once in the file), the replacement,
and the tests that should notice it. For each mutant this script applies
the change in a scratch copy of the tree (never in the working tree),
rebuilds, runs the mutant's tests in order until one fails, and puts the
file back. A mutant is "killed" when a test fails (or runs past its time
limit), "survived" when every test passes; it is "invalid" when its
original text is not found exactly once, or the tree does not build with
it. Prints a table and the kill ratio (killed / (killed + survived)).

Before the mutants, every test named in the list runs once on the
unchanged copy: a test that fails there would kill every mutant for
nothing, so the run stops.

  scripts/mutate.py [--list FILE] [--scratch DIR] [--only ID,ID...]
                  [--jobs N] [--test-timeout S] [--report FILE]

A test is a meson test name (meson test -C build --list), optionally
followed by ":" and gst-check test cases separated by commas, which are
then the only ones it runs (GST_CHECKS).
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_list(path):
    """The mutants of @path: blocks of "key = value" lines, each starting
    with "[id]"; "#" starts a comment line. Values keep their spaces after
    "= " (the original text and its replacement are exact)."""
    mutants, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                cur = {"id": line[1:-1], "line": n}
                mutants.append(cur)
                continue
            key, sep, value = line.partition(" = ")
            if not sep or cur is None:
                sys.exit("%s:%d: expected [id] or 'key = value'" % (path, n))
            cur[key.strip()] = value
    for m in mutants:
        for key in ("file", "what", "from", "to", "tests"):
            if key not in m:
                sys.exit("%s:%d: mutant %s has no %s" % (path, m["line"],
                                                         m["id"], key))
        m["tests"] = m["tests"].split()
    ids = [m["id"] for m in mutants]
    if len(set(ids)) != len(ids):
        sys.exit("%s: an id is used twice" % path)
    return mutants


def run(cmd, cwd, timeout=None, env=None, log=None):
    """Runs @cmd in its own process group; returns (exit status, output),
    status None when it ran past @timeout (the group is killed)."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        status = None
    out = out.decode("utf-8", "replace")
    if log:
        log.write("$ %s\n%s\n" % (" ".join(cmd), out))
        log.flush()
    return status, out


def copy_tree(scratch):
    """The working tree's files (tracked, and untracked ones git does not
    ignore) into @scratch/src."""
    src = os.path.join(scratch, "src")
    names = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=TOP, check=True, stdout=subprocess.PIPE).stdout.split(b"\0")
    for name in names:
        if not name:
            continue
        name = name.decode()
        if not os.path.isfile(os.path.join(TOP, name)):
            continue
        dest = os.path.join(src, name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(os.path.join(TOP, name), dest)
    return src


def run_test(spec, build, timeout, log):
    """Runs one test spec; returns "pass", "fail" or "timeout"."""
    name, _, cases = spec.partition(":")
    env = dict(os.environ)
    env.pop("GST_CHECKS", None)
    if cases:
        env["GST_CHECKS"] = cases
    status, _ = run(["meson", "test", "-C", build, "--no-rebuild",
                     "--print-errorlogs", name], cwd=build,
                    timeout=timeout, env=env, log=log)
    if status is None:
        return "timeout"
    return "pass" if status == 0 else "fail"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", default=os.path.join(TOP, "scripts",
                                                   "mutants.txt"))
    ap.add_argument("--scratch", help="scratch folder (default: a new one "
                    "in $TMPDIR, removed at the end)")
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--jobs", type=int, default=2, help="ninja -j")
    ap.add_argument("--test-timeout", type=int, default=300)
    ap.add_argument("--build-timeout", type=int, default=900)
    ap.add_argument("--report", help="also write the table here "
                    "(Markdown)")
    args = ap.parse_args()

    mutants = parse_list(args.list)
    if args.only:
        only = args.only.split(",")
        unknown = set(only) - {m["id"] for m in mutants}
        if unknown:
            sys.exit("unknown mutant ids: %s" % ", ".join(sorted(unknown)))
        mutants = [m for m in mutants if m["id"] in only]

    scratch = args.scratch or tempfile.mkdtemp(prefix="clepsilon-mutants-")
    keep = args.scratch is not None
    os.makedirs(scratch, exist_ok=True)
    log = open(os.path.join(scratch, "mutate.log"), "w")
    print("scratch copy and log in %s" % scratch, flush=True)
    src = copy_tree(scratch)
    build = os.path.join(scratch, "build")
    if not os.path.isdir(build):
        status, out = run(["meson", "setup", build, "-Dexamples=disabled",
                           "-Dtools=disabled"], cwd=src, log=log)
        if status != 0:
            sys.exit("meson setup failed:\n" + out)
    ninja = ["ninja", "-C", build, "-j", str(args.jobs)]
    status, out = run(ninja, cwd=src, timeout=args.build_timeout, log=log)
    if status != 0:
        sys.exit("the unchanged tree does not build:\n" + out[-3000:])

    # Every test once on the unchanged tree.
    specs = []
    for m in mutants:
        specs += [t for t in m["tests"] if t not in specs]
    for spec in specs:
        result = run_test(spec, build, args.test_timeout, log)
        print("baseline %-60s %s" % (spec, result), flush=True)
        if result != "pass":
            sys.exit("%s does not pass on the unchanged tree: see %s" %
                     (spec, log.name))

    rows = []
    for m in mutants:
        path = os.path.join(src, m["file"])
        with open(path, encoding="utf-8") as f:
            original = f.read()
        started = time.monotonic()
        killer = ""
        if original.count(m["from"]) != 1:
            result = "invalid (text found %d times)" % original.count(
                m["from"])
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(m["from"], m["to"]))
            try:
                status, out = run(ninja, cwd=src, timeout=args.build_timeout,
                                  log=log)
                if status != 0:
                    result = "invalid (does not build)"
                else:
                    result = "survived"
                    for spec in m["tests"]:
                        outcome = run_test(spec, build, args.test_timeout, log)
                        if outcome != "pass":
                            result = "killed"
                            killer = spec + (" (timeout)" if outcome ==
                                             "timeout" else "")
                            break
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(original)
        seconds = time.monotonic() - started
        rows.append((m["id"], m["file"], m["what"], result, killer, seconds))
        print("%-28s %-28s %-10s %s (%.0f s)" % (m["id"], m["file"],
                                                 result, killer, seconds),
              flush=True)

    # Leave the scratch build matching the tree again.
    run(ninja, cwd=src, timeout=args.build_timeout, log=log)
    killed = sum(1 for r in rows if r[3] == "killed")
    survived = sum(1 for r in rows if r[3] == "survived")
    invalid = len(rows) - killed - survived
    ratio = "%d of %d killed (%.1f %%)" % (
        killed, killed + survived,
        100.0 * killed / max(1, killed + survived))
    if invalid:
        ratio += ", %d invalid" % invalid
    table = ["| mutant | file | change | result | killed by |",
             "|---|---|---|---|---|"]
    for r in rows:
        table.append("| %s | %s | %s | %s | %s |" % (
            r[0], r[1], r[2].replace("|", "\\|"), r[3],
            r[4].replace("|", "\\|")))
    print("\n".join(table))
    print(ratio)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("\n".join(table) + "\n\n" + ratio + "\n")
    log.close()
    if not keep:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0 if survived == 0 and invalid == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
