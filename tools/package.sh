#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The Debian package, end to end: builds gstreamer1.0-clfilters (debian/) with
# dpkg-buildpackage -us -uc -b from a copy of this tree (the tree stays
# clean), keeps the .deb in out/package/, installs it into the system, runs
# its package test (debian/tests/smoke: gst-inspect-1.0 and a short pipeline,
# no GST_PLUGIN_PATH), then removes it and checks that nothing of it is left.
# Checks the package's fields (the gstreamer:* ones of dh_gstscancodecs) and
# runs lintian on it, which must give no error and no warning. Run as root
# (or with sudo available) on Debian 12; exits non-zero on any failure, and
# removes the package again if it fails after installing it.
# tools/test.sh --package runs it after the test suite.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$top/tools/packages.sh"
cd "$top"

pkg=gstreamer1.0-clfilters
out=$top/out/package
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

step() { echo "==> $*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
installed() { dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; }
remove_package() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -qq "$pkg"; }

# control_packages FILE FIELD: the package names in FIELD of a Debian control
# file: versions dropped, the first of alternatives, no substitutions or '@'.
control_packages() {
  awk -v f="$2" '/^[^ \t#]/ { on = (index($0, f ":") == 1); if (on) sub(/^[^:]*:/, "") }
    on' "$1" | tr ',' '\n' |
    sed -E 's/[(|].*//; s/^[[:space:]]+//; s/[[:space:]]+$//; s/^debhelper-compat$/debhelper/' |
    grep -v -e '^$' -e '^@$' -e '^\$'
}

tmp=$(mktemp -d)
we_installed=0
cleanup() {
  local status=$?
  if [ $we_installed -eq 1 ] && installed; then
    echo "==> Failed with $pkg installed: removing it again"
    remove_package >/dev/null || true
  fi
  rm -rf "$tmp"
  exit $status
}
trap cleanup EXIT
mkdir -p "$tmp/home"
# gst-inspect-1.0 as in a new login shell: no GStreamer variables, a home of
# its own (its registry and ~/.local/share/gstreamer-1.0/plugins).
inspect() { env -i PATH=/usr/bin:/bin HOME="$tmp/home" gst-inspect-1.0 "$@"; }

step "Installing what building and testing the package needs"
mapfile -t needs < <(control_packages debian/control Build-Depends
  control_packages debian/tests/control Depends)
# build-essential: what every Debian build needs and no Build-Depends names
# (a minimal system, such as a fresh Debian 13 root, lacks it).
install_packages build-essential dpkg-dev git lintian "${needs[@]}"

version=$(dpkg-parsechangelog -S Version)
meson_version=$(meson introspect --projectinfo meson.build |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
step "Version $version (meson.build: $meson_version)"
[ "${version%-*}" = "$meson_version" ] ||
  fail "debian/changelog's upstream version ${version%-*} is not meson.build's $meson_version"

if installed; then
  step "Removing the $pkg installed before"
  remove_package >/dev/null
fi
step "Before installing: gst-inspect-1.0 clepsilon must not find it"
if inspect clepsilon >"$tmp/inspect.txt" 2>&1; then
  grep Filename "$tmp/inspect.txt" || true
  fail "clepsilon is found without the package (a meson install into /usr? remove it first)"
fi
echo "    $(head -n 1 "$tmp/inspect.txt")"

# The tracked files and the untracked ones git does not ignore, as they are
# now: no build folders, no out/, no debhelper leftovers.
src=$tmp/gst-clfilters-$meson_version
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || fail "$top is not a git checkout"
step "Copying the tree to $src"
mkdir -p "$src"
git ls-files -z -c -o --exclude-standard |
  tar -c --null --ignore-failed-read -T - 2>/dev/null | tar -x -C "$src"

step "dpkg-buildpackage -us -uc -b (log: out/package/build.log)"
mkdir -p "$out"
rm -f "$out"/*
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 ||
  { tail -n 40 "$out/build.log"; fail "dpkg-buildpackage"; }
grep "^dpkg-deb: building package" "$out/build.log" | sed 's/^/    /'
cp "$tmp"/*.deb "$tmp"/*.buildinfo "$tmp"/*.changes "$out/"
arch=$(dpkg --print-architecture)
deb=$out/${pkg}_${version}_${arch}.deb
[ -f "$deb" ] || fail "no $deb"

step "Fields of $(basename "$deb")"
dpkg-deb -f "$deb" Maintainer Depends Recommends Provides Gstreamer-Version \
  Gstreamer-Elements Gstreamer-Uri-Sources Gstreamer-Uri-Sinks \
  Gstreamer-Encoders Gstreamer-Decoders | sed 's/^/    /'
[ "$(dpkg-deb -f "$deb" Gstreamer-Elements)" = clepsilon ] ||
  fail "Gstreamer-Elements is not 'clepsilon' (dh_gstscancodecs in debian/rules?)"

step "Contents of $(basename "$deb"): the plugin, its presets and its documents only"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $NF }' >"$tmp/contents.txt"
sed 's/^/    /' "$tmp/contents.txt"
if grep -v -e '^\./usr/lib/[^/]*/gstreamer-1\.0/libgstclfilters\.so$' \
    -e '^\./usr/share/gstreamer-1\.0/presets/GstClEpsilon\.prs$' \
    -e "^\./usr/share/lintian/overrides/$pkg$" \
    -e "^\./usr/share/doc/$pkg/" "$tmp/contents.txt"; then
  fail "the package holds more than the plugin (above)"
fi
# The element's presets, once the tree has them: meson installs them, and
# dh_auto_install puts all that meson installs into the package.
if git ls-files -c -o --exclude-standard | grep -q 'GstClEpsilon\.prs$' &&
    ! grep -qx '\./usr/share/gstreamer-1\.0/presets/GstClEpsilon\.prs' "$tmp/contents.txt"; then
  fail "the tree has GstClEpsilon.prs, the package does not install it into /usr/share/gstreamer-1.0/presets"
fi

# lintian's default set (errors and warnings): none may be left.
changes=$(ls "$out"/*.changes)
step "lintian $(basename "$changes") (log: out/package/lintian.log)"
lintian "$changes" >"$out/lintian.log" 2>&1 || true
sed 's/^/    /' "$out/lintian.log"
! grep -q '^[EW]: ' "$out/lintian.log" || fail "lintian: errors or warnings (above)"
echo "    no error, no warning"

step "apt-get install $deb"
we_installed=1
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "apt-get install"; }
installed || fail "$pkg is not installed"
echo "    $(dpkg-query -W -f='${Package} ${Version} ${Status}' "$pkg")"
dpkg-query -L "$pkg" >"$tmp/files.txt"

step "gst-inspect-1.0 clepsilon in a clean environment"
inspect clepsilon >"$tmp/inspect.txt" 2>&1 ||
  { cat "$tmp/inspect.txt"; fail "gst-inspect-1.0 does not find clepsilon"; }
sed -n '/^Plugin Details/,/^$/p' "$tmp/inspect.txt" | sed 's/^/    /'

step "Package test (debian/tests/smoke) in a clean environment"
env -i PATH=/usr/bin:/bin "$top/debian/tests/smoke" 2>&1 | sed 's/^/    /'

step "apt-get remove --purge $pkg"
remove_package >"$tmp/remove.log" 2>&1 || { cat "$tmp/remove.log"; fail "apt-get remove"; }
we_installed=0
! installed || fail "$pkg is still installed"
left=0
while read -r f; do
  if [ -f "$f" ] || [ -L "$f" ]; then echo "    left behind: $f"; left=1; fi
done <"$tmp/files.txt"
[ $left -eq 0 ] || fail "files of $pkg are left"
echo "    no file of the package is left"
step "After removal: gst-inspect-1.0 clepsilon must not find it"
if inspect clepsilon >"$tmp/inspect.txt" 2>&1; then
  grep Filename "$tmp/inspect.txt" || true
  fail "clepsilon is still found after removal"
fi
echo "    $(head -n 1 "$tmp/inspect.txt")"
step "Package $pkg $version: built, installed, tested and removed; the .deb is in out/package/"
