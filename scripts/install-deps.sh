#!/usr/bin/env bash
# Installs the Debian packages Orrery builds and tests against.
# Idempotent and quiet when everything is already there. Needs root (or sudo) only
# when something is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ make python3
  clang-22 clang-tools-22 libclang-22-dev libclang-cpp22-dev llvm-22-dev llvm-22-tools
  libclang-rt-22-dev
  libsimgrid-dev
  libfabric-dev libfabric-bin
  openmpi-bin libopenmpi-dev libpmix-dev
  libyaml-cpp-dev nlohmann-json3-dev
  googletest libgtest-dev
  pkg-config valgrind
  autoconf
  python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
((${#missing[@]} == 0)) && exit 0

echo "orrery: installing missing Debian packages: ${missing[*]}" >&2
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "orrery: error: packages missing (${missing[*]}) and not root; install them with apt-get" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >/dev/null
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
