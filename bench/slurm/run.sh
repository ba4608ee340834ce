#!/usr/bin/env bash
# What running a campaign as a Slurm job array costs, against the obvious alternative: the
# same campaign run directly on the node. Starts a single-node Slurm of its own
# (tests/slurm/local_cluster.sh; root, slurm-wlm and munge), then, alternately, ROUNDS times:
#   direct   cudiff fuzz --jobs CORES                               (one process, all cores)
#   slurm    cudiff slurm submit --shards CORES --wait -- --jobs 1  (one shard per core)
# with the same seeds, compile-only. Prints each arm's wall time from start to merged
# result, and the ratio; the merged campaign must have as many tests and findings as the
# direct one (checked).
#
#   bench/slurm/run.sh [TESTS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
tests=${1:-48}
rounds=${2:-2}
cudiff=$(realpath "${CUDIFF_BIN:-build/cudiff}")
cores=$(nproc)
work=$(mktemp -d /tmp/cudiff-slurm-bench.XXXXXX)
trap 'tests/slurm/local_cluster.sh stop "$work/cluster" >/dev/null 2>&1; rm -rf "$work"' EXIT
tests/slurm/local_cluster.sh start "$work/cluster" >/dev/null
# shellcheck source=/dev/null
source "$work/cluster/env.sh"
fuzz=(--tests "$tests" --seed 4100 --gpus none --mode object --no-reduce)
q() { sqlite3 -batch -noheader "$@"; }
echo "machine: $(nproc) cores, $(sinfo --noheader --format='Slurm %v')"
echo "round arm     seconds tests findings"
for ((round = 1; round <= rounds; round++)); do
  start=$(date +%s.%N)
  "$cudiff" fuzz --jobs "$cores" "${fuzz[@]}" --db "$work/direct-$round.db" --quiet >/dev/null
  direct=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
  echo "$round     direct  $direct  $(q "$work/direct-$round.db" 'SELECT tests || "  " || findings FROM campaigns')"
  start=$(date +%s.%N)
  (cd "$work" && "$cudiff" slurm submit --shards "$cores" --out "$work/slurm-$round" --wait --poll 1 -- --jobs 1 "${fuzz[@]}" \
    >/dev/null 2>&1)
  slurm=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
  echo "$round     slurm   $slurm  $(q "$work/slurm-$round/campaign.db" 'SELECT tests || "  " || findings FROM campaigns')"
  [ "$(q "$work/direct-$round.db" 'SELECT tests, findings FROM campaigns')" = \
    "$(q "$work/slurm-$round/campaign.db" 'SELECT tests, findings FROM campaigns')" ] ||
    { echo "the merged campaign differs from the direct one" >&2; exit 1; }
  python3 -c "print(f'round $round: slurm/direct wall time {$slurm / $direct:.2f}')"
done
