# SPDX-License-Identifier: LGPL-2.1-or-later
# install_packages PKG...: installs those of the Debian packages that are
# missing, with apt-get (as root, or through sudo). Sourced by setup.sh and
# through it by every script that needs packages; returns apt-get's status.
install_packages() {
  local missing=() p sudo=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
      --no-install-recommends "${missing[@]}" >/dev/null
}
