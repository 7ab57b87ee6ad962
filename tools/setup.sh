#!/usr/bin/env bash
# Installs what the project needs that is missing (Debian 12 packages), then
# configures and builds into ./build. Sourced by demo.sh and test.sh; run as
# root (or with sudo available).
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc libc6-dev python3 locales
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
if [ -f build/build.ninja ]; then
  meson setup --reconfigure build >/dev/null
else
  meson setup build >/dev/null
fi
meson compile -C build >/dev/null
echo "Built build/gst/libgstclfilters.so"
