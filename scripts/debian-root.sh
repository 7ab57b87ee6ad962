#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A Debian root folder made with mmdebstrap from the Debian archive, and
# commands run inside it through chroot. Sourced by tools/test.sh --debian13
# and scripts/image.sh; run as root (mmdebstrap and chroot need it).
#
#   debian_root DIR SUITE [PACKAGE...]
#       makes DIR, a root of SUITE (e.g. trixie) with apt, git and the
#       packages named, unless DIR is already one (its .debian-root file
#       says which suite, and the packages are installed into it with
#       apt-get if missing). Made in DIR.new and renamed when complete, so
#       that a root whose making stopped half-way is never taken.
#   root_lock DIR
#       waits until no other command holds DIR's lock, then holds it until
#       the calling shell exits: one command at a time in a root (its mounts,
#       the tree copied into it).
#   copy_tree SRC DEST
#       the tree SRC copied into DEST (below).
#   in_root DIR COMMAND...
#       runs COMMAND inside DIR as root, with /proc, /sys, /dev and /dev/shm
#       mounted (unmounted again when it ends) and the host's resolv.conf,
#       so that apt-get reaches the archive from inside; returns its status.
#
# DEBIAN_MIRROR (default http://deb.debian.org/debian) names the archive.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../tools/packages.sh"

debian_mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

debian_root() {
  local dir=$1 suite=$2
  shift 2
  local include
  include=$(IFS=,; echo "apt,git${*:+,$*}")
  if [ -f "$dir/.debian-root" ]; then
    [ "$(cat "$dir/.debian-root")" = "$suite" ] ||
      { echo "$dir is a root of $(cat "$dir/.debian-root"), not $suite" >&2; return 1; }
    echo "Reusing the $suite root $dir"
    [ $# -eq 0 ] || in_root "$dir" bash -c "$(declare -f install_packages); install_packages $*"
    return 0
  fi
  command -v mmdebstrap >/dev/null || {
    echo "Installing mmdebstrap"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends mmdebstrap >/dev/null
  }
  echo "Making a $suite root in $dir from $debian_mirror (mmdebstrap)"
  rm -rf "$dir.new"
  mkdir -p "$(dirname "$dir")"
  mmdebstrap --variant=apt --include="$include" --quiet \
    "$suite" "$dir.new" "deb $debian_mirror $suite main"
  echo "$suite" >"$dir.new/.debian-root"
  mv "$dir.new" "$dir"
}

root_lock() {
  local lock
  mkdir -p "$(dirname "$1")"
  exec {lock}>"$1.lock"
  flock -n "$lock" || { echo "Waiting for another command in $1"; flock "$lock"; }
}

# The mounts of in_root, undone in reverse order.
root_unmount() {
  local dir=$1 m
  for m in dev/shm dev sys proc; do
    if mountpoint -q "$dir/$m"; then umount -l "$dir/$m"; fi
  done
}

in_root() {
  local dir=$1 status=0
  shift
  [ -f "$dir/.debian-root" ] || { echo "$dir is not a root of debian_root" >&2; return 1; }
  root_unmount "$dir"
  mount -t proc proc "$dir/proc"
  mount --rbind /sys "$dir/sys"
  mount --make-rslave "$dir/sys"
  mount --rbind /dev "$dir/dev"
  mount --make-rslave "$dir/dev"
  mount -t tmpfs -o mode=1777 shm "$dir/dev/shm"
  cp -L /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
  env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    chroot "$dir" "$@" || status=$?
  root_unmount "$dir"
  return $status
}

# copy_tree SRC DEST: the files of the git checkout SRC as they are now
# (tracked, and untracked ones that git does not ignore) into DEST, replacing
# all but DEST/build, with their modification times, so that a build kept
# there rebuilds only what changed.
copy_tree() {
  local src=$1 dest=$2
  mkdir -p "$dest"
  find "$dest" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
  (cd "$src" && git ls-files -z -c -o --exclude-standard |
    tar -c --null --ignore-failed-read -T - 2>/dev/null) |
    tar -x --no-same-owner -C "$dest"
}
