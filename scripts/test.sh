#!/usr/bin/env bash
# Checks that the C++ is formatted (scripts/format.sh --check), runs every test (labels unit,
# compilers, gpu, slurm) from the build tree made by scripts/setup.sh, then the parser
# harnesses (label fuzz: libFuzzer with ASan and UBSan, a minute each, in a build tree of their
# own; scripts/fuzz_parsers.sh). On a machine without a GPU the
# gpu-labeled tests are reported as skipped, not passed. Arguments go to ctest (e.g. -L unit)
# and then only ctest runs. The harnesses get 20 s each here (CUDIFF_FUZZ_SECONDS overrides):
# a smoke run of every parser on its seed corpus; long fuzzing is `scripts/fuzz_parsers.sh 600`,
# a benchmark (bench/RESULTS.md, "Parser harnesses").
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# == 0)); then
  scripts/format.sh --check || { echo "test: run scripts/format.sh to format the files above" >&2; exit 1; }
fi
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
if (($# == 0)); then
  scripts/fuzz_parsers.sh "${CUDIFF_FUZZ_SECONDS:-20}"
fi
