#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The GPU machine's runtime folder (README.md) with Debian 13's GStreamer 1.26
# instead of Debian 12's 1.22: the GPU machine (another distribution, an older
# C library) runs Debian 13's programs under Debian 13's own loader and C
# library. Run as root on the development machine from the tree's root:
#   CLEPSILON_GPU_RUNTIME=.gpu-runtime-1.26 bash tests/gpu/fetch-runtime-trixie.sh
# In the Debian 13 root of tools/test.sh --debian13 (made if missing) it
# builds this tree against 1.26 and runs gpu-bundle.sh, then writes into the
# runtime folder:
#   gst-1.26.tar.xz  gst-launch-1.0, gst-inspect-1.0, the plugins the GPU
#                    scripts use (core, base, good's isomp4, bad's nvcodec,
#                    parsers and demuxers) and every library they and this
#                    build load, Debian 13's C library and loader included;
#   build/, suites.sh  gpu-bundle.sh's, built against 1.26;
#   clips/           gpu-cuda-clips.sh's (FFmpeg of this machine);
#   gst-env.sh       sourced there: unpacks gst-1.26.tar.xz into /opt/gst-1.26
#                    once and sets the variables.
# Every program of it (the two tools, the programs of build/) has its ELF
# interpreter set to /opt/gst-1.26/lib/ld-linux-x86-64.so.2 and an RPATH to
# /opt/gst-1.26/lib first, so that it runs with Debian 13's C library while
# the machine's own programs (bash, timeout, md5sum) keep theirs; the NVIDIA
# driver's libraries (libcuda, libnvcuvid, libnvidia-opencl) and PoCL come
# from the machine, found after those. GST_REGISTRY_FORK=no: plugins are
# scanned in the process itself, not by gst-plugin-scanner.
# Then, on the GPU machine, from the tree's root with the folder carried:
#   CLEPSILON_GPU_RUNTIME=.gpu-runtime-1.26 bash tests/gpu/gpu-cuda-checks.sh
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
rt=${CLEPSILON_GPU_RUNTIME:-.gpu-runtime-1.26}
mkdir -p "$rt"
rt=$(cd "$rt" && pwd)
source scripts/debian-root.sh
install_packages patchelf xz-utils ffmpeg
root=${CLEPSILON_DEBIAN13_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/gst-clfilters-roots/trixie}
prefix=/opt/gst-1.26
plugins=(coreelements app typefindfunctions videoconvertscale videotestsrc
  isomp4 nvcodec videoparsersbad mpegpsdemux mpegtsdemux)

echo "==> Building against GStreamer 1.26 in $root, gpu-bundle.sh"
root_lock "$root"
debian_root "$root" trixie gstreamer1.0-plugins-bad gstreamer1.0-plugins-good
copy_tree "$top" "$root/root/gst-clfilters"
rm -rf "$root/root/gpu-runtime"
in_root "$root" bash -c 'cd /root/gst-clfilters && bash tools/setup.sh &&
  CLEPSILON_GPU_RUNTIME=/root/gpu-runtime bash tests/gpu/gpu-bundle.sh' >/dev/null
rm -rf "$rt/build" "$rt/suites.sh" "$rt/deb"
mv "$root/root/gpu-runtime/build" "$root/root/gpu-runtime/suites.sh" "$rt/"

echo "==> The programs, plugins and libraries they load"
sysroot=$(mktemp -d)
trap 'rm -rf "$sysroot"' EXIT
mkdir -p "$sysroot/bin" "$sysroot/lib/gstreamer-1.0"
multiarch=usr/lib/x86_64-linux-gnu
cp "$root/usr/bin/gst-launch-1.0" "$root/usr/bin/gst-inspect-1.0" "$sysroot/bin/"
for p in "${plugins[@]}"; do
  cp "$root/$multiarch/gstreamer-1.0/libgst$p.so" "$sysroot/lib/gstreamer-1.0/"
done
# ELF files of the bundle (programs and shared objects), as paths in the root.
mapfile -t elves < <(cd "$rt" && find build -type f -exec sh -c \
  'head -c 4 "$1" | grep -q ELF' sh {} \; -print)
mkdir -p "$root/root/gpu-runtime"
cp -r "$rt/build" "$root/root/gpu-runtime/"
seeds=(/usr/bin/gst-launch-1.0 /usr/bin/gst-inspect-1.0 /$multiarch/libgstcuda-1.0.so.0)
for p in "${plugins[@]}"; do seeds+=("/$multiarch/gstreamer-1.0/libgst$p.so"); done
for f in "${elves[@]}"; do seeds+=("/root/gpu-runtime/$f"); done
# ldd inside the root: every library each of them loads, resolved there.
in_root "$root" bash -c 'for f in "$@"; do
    ldd "$f" | awk "/=> \\//{ print \$3 } /^[[:space:]]*\\/lib64/{ print \$1 }"
  done | grep -v "^/root/gpu-runtime/" | sort -u' sh "${seeds[@]}" >"$sysroot/libs.txt"
rm -rf "$root/root/gpu-runtime"
while read -r lib; do
  cp -L "$root$lib" "$sysroot/lib/$(basename "$lib")"
done <"$sysroot/libs.txt"
cp -L "$root/$multiarch/libgstcuda-1.0.so.0" "$sysroot/lib/"
rm "$sysroot/libs.txt"
echo "    $(ls "$sysroot/lib" | wc -l) libraries, ${#plugins[@]} plugins"

echo "==> ELF interpreter $prefix/lib/ld-linux-x86-64.so.2 and RPATH $prefix/lib"
# patch FILE: the loader and libraries of Debian 13 for FILE, meson's own
# run paths ($ORIGIN/...) kept after them.
patch() {
  local old
  old=$(patchelf --print-rpath "$1")
  patchelf --set-interpreter "$prefix/lib/ld-linux-x86-64.so.2" \
    --force-rpath --set-rpath "$prefix/lib${old:+:$old}" "$1"
}
for f in "$sysroot"/bin/*; do patch "$f"; done
for f in "${elves[@]}"; do
  if patchelf --print-interpreter "$rt/$f" >/dev/null 2>&1; then patch "$rt/$f"; fi
  strip --strip-debug "$rt/$f"
done
strip --strip-debug "$sysroot"/lib/*.so* "$sysroot"/lib/gstreamer-1.0/*.so 2>/dev/null || true
tar -C "$sysroot" -cJf "$rt/gst-1.26.tar.xz" .

echo "==> gst-env.sh, clips"
cat >"$rt/gst-env.sh" <<EOF
# Written by tests/gpu/fetch-runtime-trixie.sh. Source it on the GPU machine:
# Debian 13's GStreamer 1.26 under its own loader (programs patched to
# $prefix/lib/ld-linux-x86-64.so.2), the NVIDIA driver's OpenCL registered
# with the ICD loader beside the machine's own vendors.
_rt=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
if [ ! -e $prefix/.unpacked ] || [ "\$_rt/gst-1.26.tar.xz" -nt $prefix/.unpacked ]; then
  rm -rf $prefix && mkdir -p $prefix && tar -C $prefix -xJf "\$_rt/gst-1.26.tar.xz" &&
    touch $prefix/.unpacked
fi
mkdir -p /tmp/ocl-vendors /tmp/gio-none
for icd in /etc/OpenCL/vendors/*.icd; do [ -e "\$icd" ] && cp "\$icd" /tmp/ocl-vendors/; done
echo libnvidia-opencl.so.1 > /tmp/ocl-vendors/nvidia.icd
export OCL_ICD_VENDORS=/tmp/ocl-vendors
export PATH=$prefix/bin:\$PATH
export GST_PLUGIN_SYSTEM_PATH=$prefix/lib/gstreamer-1.0
export GST_REGISTRY=/tmp/gst-registry-1.26.bin GST_REGISTRY_FORK=no
# GLib 2.84 must not load the machine's GIO modules.
export GIO_MODULE_DIR=/tmp/gio-none
unset _rt
EOF
[ -f "$rt/clips/caps-change.h264" ] || CLEPSILON_GPU_RUNTIME=$rt bash tests/gpu/gpu-cuda-clips.sh >/dev/null
du -sh "$rt"/* | sed 's/^/    /'
echo "    $(du -sh "$rt" | cut -f1) in all, in $rt"
