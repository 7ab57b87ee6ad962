#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs what the project needs that is missing (Debian 12 packages), then
# configures and builds into ./build. Sourced by demo.sh and test.sh; run as
# root (or with sudo available).
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc libc6-dev python3 locales
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
)

source "$(dirname "${BASH_SOURCE[0]}")/packages.sh"
install_packages "${packages[@]}"

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
if [ -f build/build.ninja ]; then
  meson setup --reconfigure build >/dev/null
else
  meson setup build >/dev/null
fi
meson compile -C build >/dev/null
echo "Built build/gst/libgstclfilters.so"
