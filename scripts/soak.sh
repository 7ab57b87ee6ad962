#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Soak: FRAMES frames (default 100000) of 1080p NV12 through clepsilon while
# its properties change every 20 ms; prints the resident memory after a
# warm-up, every 10% and at the end, the GStreamer objects the leaks tracer
# still counts after NULL, and the OpenCL objects still held. Fails if any
# object is left or an error was posted.
#
#   scripts/soak.sh [FRAMES [WIDTH HEIGHT [FORMAT]]]
#
# 100000 frames of 1080p take about two hours on PoCL on two CPU cores.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -f "$top/build/build.ninja" ] || meson setup "$top/build" >/dev/null
ninja -C "$top/build" tests/clepsilon-soak >/dev/null
ninja -C "$top/build" >/dev/null
export GST_PLUGIN_PATH="$top/build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
export GST_TRACERS="${GST_TRACERS:-leaks}"
exec "$top/build/tests/clepsilon-soak" "$@"
