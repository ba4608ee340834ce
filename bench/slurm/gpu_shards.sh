#!/usr/bin/env bash
# A GPU campaign split into shards against the same campaign unsharded, on one host of two
# GPUs: two `cudiff fuzz --campaign C --shard I/2` processes, each given one GPU through
# CUDA_VISIBLE_DEVICES (what two Slurm tasks with --gres=gpu:1 get), merged with `cudiff
# triage merge`, then `cudiff fuzz` over both GPUs with the same seeds and as many workers.
# compare.py then checks that the merged shards are the unsharded campaign (seeds, buckets,
# counts) and gives each arm's rate.
#
#   bench/slurm/gpu_shards.sh [TESTS] [JOBS_PER_SHARD] [WORKDIR]
#
# Needs cudiff built (CUDIFF_BIN, default build/cudiff), the compilers, two GPUs, python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
tests=${1:-480}
jobs=${2:-8}
work=${3:-/tmp/cudiff-gpu-shards}
cudiff=${CUDIFF_BIN:-build/cudiff}
rm -rf "$work"
mkdir -p "$work"
common=(--tests "$tests" --seed 7000 --no-reduce --known triage/known_differences.json)
CUDA_VISIBLE_DEVICES=0 "$cudiff" fuzz --campaign gpu-night --shard 0/2 --jobs "$jobs" "${common[@]}" --db "$work/s0.db" \
  --quiet >"$work/s0.out" &
CUDA_VISIBLE_DEVICES=1 "$cudiff" fuzz --campaign gpu-night --shard 1/2 --jobs "$jobs" "${common[@]}" --db "$work/s1.db" \
  --quiet >"$work/s1.out" &
wait
"$cudiff" triage merge "$work/merged.db" "$work/s0.db" "$work/s1.db"
"$cudiff" fuzz --jobs "$((2 * jobs))" "${common[@]}" --db "$work/whole.db" --quiet >"$work/whole.out"
python3 bench/slurm/compare.py "$work"
