#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs every shell block of README.md and docs/*.md, as a user would, and
checks that their links to files of the repository lead somewhere.

Each ```sh block runs in bash (-e -o pipefail), with a time limit, without a
display (DISPLAY and WAYLAND_DISPLAY unset), with GST_PLUGIN_PATH at the
build and a registry of its own, in a scratch folder per page that links the
repository's top-level entries, so that `build/...` and `tools/...` resolve
while the files a page makes (in.mp4, out.mp4...) land in the scratch folder.
The blocks of a page run in order: a block may use what an earlier block of
the same page made. Output blocks (``` with no language) and code in other
languages are not run.

A comment on the line before a block tags it:
  <!-- check-docs: slow -->          minutes: runs with --slow (or --all)
  <!-- check-docs: system -->        installs into the system: --system
  <!-- check-docs: skip REASON -->   never run (a GPU, a display, a camera,
                                     the user's own file), listed with REASON
  <!-- check-docs: timeout=SECONDS -->  (default 120 s, 1800 s for slow)
  <!-- check-docs: exit=N -->        the block shows a failure on purpose:
                                     it passes when it exits with N
Tags combine: <!-- check-docs: slow timeout=900 -->.

Exit status 0 when every block that ran passed. Without --slow and --system
it runs only the cheap blocks (what tools/test.sh runs).
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = re.compile(r"^\s*<!--\s*check-docs:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```\s*([A-Za-z0-9_-]*)")
SHELLS = ("sh", "bash", "shell")

class Block:
    def __init__(self, page, line, text, tags):
        self.page, self.line, self.text = page, line, text
        self.slow = self.system = False
        self.skip = None
        self.timeout = None
        self.exit = 0
        for tag in tags:
            self.tag(tag)
        if self.timeout is None:
            self.timeout = 1800 if self.slow or self.system else 120

    def tag(self, tag):
        if tag.startswith("skip"):
            self.skip = tag[4:].strip() or "no reason given"
        elif tag == "slow":
            self.slow = True
        elif tag == "system":
            self.system = True
        elif tag.startswith("exit="):
            self.exit = int(tag[len("exit="):])
        elif tag.startswith("timeout="):
            self.timeout = int(tag[len("timeout="):])
        else:
            raise SystemExit("%s:%d: unknown check-docs tag %r"
                             % (self.page, self.line, tag))

    def where(self):
        return "%s:%d" % (self.page, self.line)


def split_tags(text):
    """'slow timeout=900' -> ['slow', 'timeout=900']; 'skip A B' stays whole."""
    tags = []
    for word in text.split():
        if tags and tags[-1].startswith("skip"):
            tags[-1] += " " + word
        else:
            tags.append(word)
    return tags


def read_blocks(page):
    """The shell blocks of one page, with their tags."""
    blocks, tags = [], []
    lines = open(os.path.join(TOP, page), encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        f = FENCE.match(lines[i])
        if m:
            tags = split_tags(m.group(1))
        elif f:
            indent, lang, start = f.group(1), f.group(2), i + 1
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i][len(indent):])
                i += 1
            if lang in SHELLS:
                blocks.append(Block(page, start, "\n".join(body) + "\n",
                                    tags))
            tags = []
        elif lines[i].strip():
            tags = []
        i += 1
    return blocks


def broken_links(page):
    """Relative links of a page ([text](path) and images) to files that do
    not exist."""
    text = open(os.path.join(TOP, page), encoding="utf-8").read()
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        path = target.split("#")[0]
        if not path or re.match(r"[a-z]+:", path):
            continue
        if not os.path.exists(os.path.join(TOP, os.path.dirname(page), path)):
            broken.append(target)
    return broken


def scratch_for(root, page):
    """A folder for one page, with the repository's entries linked in."""
    folder = os.path.join(root, page.replace("/", "-").replace(".md", ""))
    os.makedirs(folder)
    for name in os.listdir(TOP):
        if name not in ("out",):
            os.symlink(os.path.join(TOP, name), os.path.join(folder, name))
    return folder


def run_block(block, folder, env, logs):
    log = os.path.join(logs, "%s-%d.log" % (block.page.replace("/", "-"),
                                            block.line))
    start = time.monotonic()
    with open(log, "w") as out:
        proc = subprocess.Popen(["bash", "-e", "-o", "pipefail", "-c",
                                 block.text], cwd=folder, env=env,
                                stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=block.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            rc = "timed out after %d s" % block.timeout
    if isinstance(rc, int) and rc < 0:
        rc = "killed by signal %d" % -rc
    elif isinstance(rc, int) and 128 < rc < 160 and rc != block.exit:
        rc = "exit %d (a signal %d?)" % (rc, rc - 128)
    return rc, time.monotonic() - start, log


def tail(path, n=15):
    with open(path, errors="replace") as f:
        return "".join(f.readlines()[-n:])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("pages", nargs="*",
                    help="pages to check (default: README.md docs/*.md)")
    ap.add_argument("--slow", action="store_true",
                    help="also run blocks tagged slow (builds, suites, harnesses)")
    ap.add_argument("--system", action="store_true",
                    help="also run blocks that install into the system "
                    "(for a throwaway machine)")
    ap.add_argument("--all", action="store_true", help="--slow and --system")
    ap.add_argument("--list", action="store_true",
                    help="list the blocks and their tags, run nothing")
    ap.add_argument("--build", default=os.path.join(TOP, "build"),
                    help="the build folder (default: build)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch folder")
    args = ap.parse_args()
    if args.all:
        args.slow = args.system = True

    pages = args.pages or ["README.md"] + sorted(
        os.path.relpath(p, TOP) for p in glob.glob(os.path.join(TOP, "docs", "*.md")))
    blocks = [b for p in pages for b in read_blocks(p)]

    if args.list:
        for b in blocks:
            kind = " ".join(k for k, on in (("slow", b.slow), ("system", b.system))
                            if on) or "cheap"
            print("%-30s %-11s %4d s  %s%s" % (
                b.where(), "skip" if b.skip else kind, b.timeout,
                b.text.split("\n")[0][:60], " (%s)" % b.skip if b.skip else ""))
        return 0

    plugin = os.path.join(os.path.abspath(args.build), "gst")
    if not glob.glob(os.path.join(plugin, "libgstclfilters.so")):
        sys.exit("no plugin in %s: build first (bash tools/setup.sh)" % plugin)
    root = tempfile.mkdtemp(prefix="check-docs-")
    logs = os.path.join(root, "logs")
    os.makedirs(logs)
    env = dict(os.environ)
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    env["GST_PLUGIN_PATH"] = plugin
    # The presets of this tree, as the docs say to set for a build tree.
    env["GST_PRESET_PATH"] = os.path.join(TOP, "gst", "presets")
    # Presets a user saved would change what the commands do.
    env["XDG_DATA_HOME"] = os.path.join(root, "data")
    env["GST_REGISTRY_1_0"] = os.path.join(root, "registry.bin")

    links = [(p, t) for p in pages for t in broken_links(p)]
    for page, target in links:
        print("FAIL  %s: link to a missing file: %s" % (page, target))

    passed, failed, skipped, not_run = [], [], [], []
    folders = {}
    for b in blocks:
        if b.skip:
            skipped.append(b)
            print("skip  %s: %s" % (b.where(), b.skip))
            continue
        if (b.slow and not args.slow) or (b.system and not args.system):
            not_run.append(b)
            continue
        if b.page not in folders:
            folders[b.page] = scratch_for(root, b.page)
        rc, secs, log = run_block(b, folders[b.page], env, logs)
        if rc == b.exit:
            passed.append(b)
            print("ok    %s (%.1f s)" % (b.where(), secs), flush=True)
        else:
            failed.append(b)
            print("FAIL  %s (%s, %.1f s): %s\n%s" % (b.where(), rc, secs,
                                                      b.text.split("\n")[0], tail(log)),
                  flush=True)

    if not_run:
        print("not run (--slow / --system run them): " +
              ", ".join("%s%s" % (b.where(), " slow" if b.slow else " system")
                        for b in not_run))
    print("%d passed, %d failed, %d skipped, %d not run%s"
          % (len(passed), len(failed), len(skipped), len(not_run),
             ", %d broken links" % len(links) if links else ""))
    if args.keep or failed:
        print("logs and scratch folders in %s" % root)
    else:
        shutil.rmtree(root)
    return 1 if failed or links else 0


if __name__ == "__main__":
    sys.exit(main())
