#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The container image of Containerfile (docs/deploy.md), built without running
# a container, then checked through chroot. Run as root on Debian 12 from the
# tree's root:
#   1. builds the Debian package (tools/package.sh) in the Debian 13 root of
#      tools/test.sh --debian13 (made if missing);
#   2. makes the image's system with mmdebstrap from the Debian archive:
#      Debian 13, GStreamer's tools and plugins, PoCL and that package, no
#      documentation; `podman import`s it as localhost/gst-clfilters-base;
#   3. builds Containerfile on it (podman build: COPY, ENV, no RUN) into
#      localhost/gst-clfilters:VERSION and saves it to
#      out/image/gst-clfilters-VERSION.tar;
#   4. exports the image's root (podman create + export: nothing runs) and,
#      through chroot with /proc mounted, runs the package's smoke test
#      (debian/tests/smoke) and clfilters-transcode of tests/data/
#      interlaced-tff.m2v, whose .mkv must have as many frames as the input.
# PACKAGE_DEB=FILE takes that .deb instead of step 1. Exits non-zero on any
# failure.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
source scripts/debian-root.sh
install_packages mmdebstrap podman

step() { echo "==> $*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
version=$(sed -n "s/^  version : '\([^']*\)'.*/\1/p" meson.build)
deb_version=$(sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)
arch=$(dpkg --print-architecture)
out=$top/out/image
test_root=${CLEPSILON_DEBIAN13_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/gst-clfilters-roots/trixie}
base=localhost/gst-clfilters-base:$version
image=localhost/gst-clfilters:$version
mkdir -p "$out"

deb=gstreamer1.0-clfilters_${deb_version}_$arch.deb
if [ -n "${PACKAGE_DEB:-}" ]; then
  step "The package: $PACKAGE_DEB (PACKAGE_DEB)"
  cp "$PACKAGE_DEB" "$out/$deb"
else
  step "The package, built and tested in the Debian 13 root $test_root"
  root_lock "$test_root"
  debian_root "$test_root" trixie
  copy_tree "$top" "$test_root/root/gst-clfilters"
  in_root "$test_root" bash -c 'cd /root/gst-clfilters && git init -q && git add -A &&
    bash tools/package.sh' >"$out/package.log" 2>&1 ||
    { tail -n 30 "$out/package.log"; fail "tools/package.sh in the Debian 13 root"; }
  cp "$test_root/root/gst-clfilters/out/package/$deb" "$out/"
  echo "    $out/$deb"
fi

step "The image's system: mmdebstrap trixie, $deb installed (log: out/image/mmdebstrap.log)"
# The .deb at the same path here (apt reads it) and inside the system
# (apt's dpkg runs there).
debs=/tmp/gst-clfilters-image
rm -rf "$debs"
mkdir -p "$debs"
cp "$out/$deb" "$debs/"
packages=(gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
  pocl-opencl-icd "$debs/$deb")
rm -f "$out/system.tar"
mmdebstrap --variant=apt --include="$(IFS=,; echo "${packages[*]}")" \
  --aptopt='APT::Install-Recommends "false"' \
  --setup-hook="mkdir -p \"\$1$debs\" && cp '$out/$deb' \"\$1$debs/\"" \
  --customize-hook="rm -rf \"\$1$debs\"" \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  trixie "$out/system.tar" "deb $debian_mirror trixie main" >"$out/mmdebstrap.log" 2>&1 ||
  { tail -n 30 "$out/mmdebstrap.log"; fail "mmdebstrap"; }
echo "    $(du -h "$out/system.tar" | cut -f1) system.tar"

step "podman import as $base, podman build -f Containerfile as $image"
podman rmi -f "$image" "$base" >/dev/null 2>&1 || true
podman import "$out/system.tar" "$base" >/dev/null
rm -f "$out/system.tar"
rm -rf "$debs"
podman build -q -f Containerfile --build-arg BASE="$base" -t "$image" . >/dev/null
rm -f "$out/gst-clfilters-$version.tar"
podman save -q -o "$out/gst-clfilters-$version.tar" "$image"
podman images --format '    {{.Repository}}:{{.Tag}} {{.Size}}' "$image"

step "The image's root, exported, through chroot"
check=$out/check-root
rm -rf "$check"
mkdir -p "$check"
container=$(podman create "$image")
podman export "$container" | tar -x -C "$check"
podman rm "$container" >/dev/null
echo trixie >"$check/.debian-root"   # what in_root takes
mkdir -p "$check/tmp/check"
cp debian/tests/smoke tests/data/interlaced-tff.m2v "$check/tmp/check/"
echo "    $(in_root "$check" gst-launch-1.0 --version | sed -n 2p)"

step "Package test (debian/tests/smoke) in the image's root"
in_root "$check" sh /tmp/check/smoke 2>&1 | sed 's/^/    /'

step "clfilters-transcode interlaced-tff.m2v (MPEG-2) to .mkv in the image's root"
in_root "$check" bash -c 'cd /tmp/check && clfilters-transcode -o out interlaced-tff.m2v' |
  sed 's/^/    /'
# frames FILE: the frames decodebin gives for FILE inside the image's root.
frames() {
  in_root "$check" gst-launch-1.0 -v filesrc location="/tmp/check/$1" ! decodebin \
    ! fakesink silent=false 2>&1 | grep -c 'fakesink0: last-message = chain' || true
}
frames_in=$(frames interlaced-tff.m2v)
frames_out=$(frames out/interlaced-tff.mkv)
echo "    frames: $frames_in in, $frames_out in the .mkv"
[ "$frames_in" -gt 0 ] && [ "$frames_in" -eq "$frames_out" ] ||
  fail "the .mkv has $frames_out frames, the input $frames_in"
rm -rf "$check"
step "Image $image built and checked; saved to out/image/gst-clfilters-$version.tar"
