#!/usr/bin/env bash
# Builds cudiff's parser harnesses with libFuzzer, ASan and UBSan in build-fuzz and fuzzes each
# for a bounded time (tests/fuzz; docs in tests/fuzz/CMakeLists.txt and corpus/parsers/README.md).
#
# usage: scripts/fuzz_parsers.sh [SECONDS]   (or CUDIFF_FUZZ_SECONDS=SECONDS; default 60 per harness)
# Exits non-zero when a harness finds a crash, a sanitizer report, a leak or a timeout; the
# failing ctest prints where libFuzzer left the input that shows it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-${CUDIFF_FUZZ_SECONDS:-60}}
build=build-fuzz

cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBUILD_TESTING=OFF -DCUDIFF_FUZZ_PARSERS=ON -DCUDIFF_FUZZ_SECONDS="$seconds" >/dev/null
# Only the harnesses (and the libraries they link): the sanitized build of everything else
# would take far longer and is not run here.
mapfile -t harnesses < <(cmake --build "$build" --target help | sed -n 's/^\([a-z_]*_fuzz\):.*/\1/p')
cmake --build "$build" -j "$(nproc)" --target "${harnesses[@]}"
ctest --test-dir "$build" -L fuzz --output-on-failure -j "$(nproc)"
