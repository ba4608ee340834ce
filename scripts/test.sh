#!/usr/bin/env bash
# Runs every test (labels unit, compilers, gpu) from the build tree made by scripts/setup.sh.
# On a machine without a GPU the gpu-labeled tests are reported as skipped, not passed.
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
