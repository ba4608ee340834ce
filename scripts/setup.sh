#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for cudiff: installs the build and test dependencies with
# apt, finds the CUDA toolkit, and builds cudiff into build/. Safe to run again (it only
# installs what is missing and rebuilds what changed). Fails with one clear line.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "cudiff setup: $*" >&2; exit 1; }

packages=(
  clang-22 clang-tools-22 lld-22 libclang-rt-22-dev   # clang-cuda; clang-tools-22 has clang-linker-wrapper;
                                                      # libclang-rt-22-dev: libFuzzer, ASan, UBSan
  libboost1.81-dev libboost-filesystem1.81-dev       # Boost.Process v2 (+ the filesystem it uses)
  libsqlite3-dev                                      # the triage database
  cmake ninja-build libgtest-dev                      # build and tests
  chromium                                            # renders the triage HTML report in a test
  clang-format-22                                     # cudiff reduce formats its result
  slurm-wlm munge sqlite3                             # the Slurm test's own cluster, and its checks
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "cudiff setup: installing ${missing[*]}"
  $sudo apt-get update -qq >/dev/null 2>&1 || fail "apt-get update failed (no network or no apt sources?)"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/tmp/cudiff-apt.log 2>&1 ||
    fail "apt-get install failed for: ${missing[*]} (log: /tmp/cudiff-apt.log)"
fi

cuda_home="${CUDA_HOME:-/usr/local/cuda}"
[ -x "$cuda_home/bin/nvcc" ] ||
  fail "no CUDA toolkit: $cuda_home/bin/nvcc not found (install CUDA 13, or set CUDA_HOME)"

cmake -S . -B build -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null ||
  fail "cmake configure failed"
cmake --build build -j "$(nproc)" || fail "build failed"
echo "cudiff setup: built build/cudiff (CUDA at $cuda_home)"
