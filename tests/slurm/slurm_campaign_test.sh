#!/usr/bin/env bash
# The Slurm test (ctest label slurm): a campaign run as a real Slurm job array.
#
#   tests/slurm/slurm_campaign_test.sh CUDIFF
#
# Starts a single-node Slurm cluster of its own (local_cluster.sh: munged, slurmctld and
# slurmd as root on loopback, ports of their own, no GPU), submits a 2-task array of a short
# compile-only campaign and the merge job after it with `cudiff slurm submit --wait`, and
# checks what came back with sqlite3, not with cudiff:
#   - each shard's database was copied out as one file (no -wal beside it) and has findings;
#   - no seed was tested twice: the shards' seeds are disjoint, and together the campaign's;
#   - the merged database is one campaign holding both shards' tests and findings, with one
#     bucket per signature (both shards found the planted one: one bucket counts them all);
#   - the report was written and `cudiff slurm status` agrees;
#   - sbatch's refusal (a partition that does not exist) is one line and queues nothing.
# Every daemon it started is stopped on the way out, whatever happened. Exits 77 (skipped)
# where Slurm or munge is not installed or it does not run as root.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cudiff=$(realpath "${1:?usage: slurm_campaign_test.sh CUDIFF}")
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 is not installed (apt-get install sqlite3)"; exit 77; }

work=$(mktemp -d /tmp/cudiff-slurm-test.XXXXXX)
cluster=$work/cluster
failed=0
cleanup() {
  "$here/local_cluster.sh" stop "$cluster" >/dev/null 2>&1 || true
  if ((failed)); then echo "kept for a look: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

check() {  # check "what" test-expression...
  local what=$1
  shift
  if "$@"; then
    echo "ok: $what"
  else
    echo "FAILED: $what"
    failed=1
  fi
}

status=0
"$here/local_cluster.sh" start "$cluster" >/dev/null || status=$?
if ((status == 77)); then exit 77; fi
((status == 0)) || { failed=1; echo "FAILED: the local Slurm cluster did not start"; exit 1; }
# shellcheck source=/dev/null
source "$cluster/env.sh"
sinfo --noheader --format="cluster up: partition %P, %D node, %c CPUs, %t"

# Every generated program reads a __managed__ array in a kernel, which clang-22 rejects and
# nvcc accepts: both shards are sure to file findings, all of one signature.
cat >"$work/planted.json" <<'EOF'
{"construct.managed_memory": 1, "edge.share": 0, "probe.share": 0}
EOF

cd "$work"
campaign=$work/campaign
started=$(date +%s)
submit_status=0
"$cudiff" slurm submit --shards 2 --out "$campaign" --wait --poll 1 -- \
  --tests 16 --batch 4 --seed 700 --jobs 1 --gpus none --mode object --no-reduce --policy "$work/planted.json" \
  >"$work/submit.out" 2>"$work/submit.err" || submit_status=$?
echo "cudiff slurm submit --wait: exit $submit_status after $(($(date +%s) - started)) s"
sed 's/^/  | /' "$work/submit.out" "$work/submit.err"
check "submit --wait exits 0" test "$submit_status" -eq 0
check "the merge job reported status 0" test "$(cat "$campaign/merge.status" 2>/dev/null)" = 0

q() { sqlite3 -batch -noheader "$@"; }
for shard in 0 1; do
  db=$campaign/shards/shard-$shard.db
  check "shard $shard's database was copied out" test -s "$db"
  check "shard $shard's copy has no write-ahead log beside it" test ! -e "$db-wal"
  [ -s "$db" ] || continue
  check "shard $shard's copy is in rollback-journal mode" test "$(q "$db" 'PRAGMA journal_mode')" = delete
  check "shard $shard tested 8 programs" test "$(q "$db" 'SELECT count(*) FROM tests')" -eq 8
  check "shard $shard has findings" test "$(q "$db" 'SELECT count(*) FROM findings')" -ge 1
  q "$db" 'SELECT seed FROM tests' | sort >"$work/seeds-$shard"
  echo "  shard $shard: seeds $(tr '\n' ' ' <"$work/seeds-$shard")"
done
check "no seed tested by both shards" test -z "$(comm -12 "$work/seeds-0" "$work/seeds-1" 2>/dev/null)"

merged=$campaign/campaign.db
check "the merged database was written" test -s "$merged"
if [ -s "$merged" ]; then
  sum() { echo $(($(q "$campaign/shards/shard-0.db" "$1") + $(q "$campaign/shards/shard-1.db" "$1"))); }
  check "merged: one campaign" test "$(q "$merged" 'SELECT count(*) FROM campaigns')" -eq 1
  check "merged: the campaign counts 16 tests" test "$(q "$merged" 'SELECT tests FROM campaigns')" -eq 16
  check "merged: 16 tests, each seed once" \
    test "$(q "$merged" 'SELECT count(*) || "/" || count(DISTINCT seed) FROM tests')" = "16/16"
  check "merged: the seeds are 700 to 715" \
    test "$(q "$merged" 'SELECT min(CAST(seed AS INTEGER)) || "-" || max(CAST(seed AS INTEGER)) FROM tests')" = "700-715"
  check "merged: every finding of both shards" \
    test "$(q "$merged" 'SELECT count(*) FROM findings')" -eq "$(sum 'SELECT count(*) FROM findings')"
  check "merged: one bucket per signature" \
    test "$(q "$merged" 'SELECT count(*) FROM buckets')" -eq "$(q "$merged" 'SELECT count(DISTINCT bucket_key) FROM findings')"
  check "merged: the planted signature is one bucket counting both shards' findings" \
    test "$(q "$merged" "SELECT count(*) || ':' || sum(count) FROM buckets WHERE kind = 'false_rejection'")" = \
    "1:$(sum "SELECT count(*) FROM findings WHERE kind = 'false_rejection'")"
  echo "  merged: $(q "$merged" 'SELECT count(*) FROM tests') tests, $(q "$merged" 'SELECT count(*) FROM findings') findings," \
    "buckets: $(q "$merged" "SELECT group_concat(kind || ' x' || count, ', ') FROM buckets")"
fi
check "the report was written" test -s "$campaign/report.html"
check "both shards' logs were written" test -s "$campaign/logs/shard-0.out" -a -s "$campaign/logs/shard-1.out"
check "no write-ahead log anywhere in the shared directory" test -z "$(find "$campaign" -name '*-wal' -o -name '*-shm')"

status_json=$("$cudiff" slurm status "$campaign" --json 2>&1 || true)
# shellcheck disable=SC2016 # $1 is the inner bash's
check "cudiff slurm status agrees: 16 tests, merged" \
  bash -c '[[ $1 == *"\"tests\": 16"* && $1 == *"\"merge_status\": 0"* ]]' _ "$status_json"

# sbatch says no: one line, exit 2, nothing queued.
refused_status=0
refused=$("$cudiff" slurm submit --shards 2 --partition no-such-partition --out "$work/refused" -- --tests 4 2>&1) ||
  refused_status=$?
echo "  refused: $refused"
check "a refused submission exits 2 with one line" test "$refused_status" -eq 2 -a "$(printf '%s\n' "$refused" | wc -l)" -eq 1
# shellcheck disable=SC2016 # $1 is the inner bash's
check "a refused submission names sbatch's reason" bash -c '[[ $1 == *"sbatch refused the array job"*"partition"* ]]' _ "$refused"
check "nothing is left in the queue" test -z "$(squeue --noheader)"
# The refused campaign's directory can be submitted again once the mistake is fixed.
check "the refused directory is not taken for a submitted campaign" test ! -e "$work/refused/jobs.json"

if ((failed)); then
  for log in "$campaign"/logs/*.out; do
    [ -f "$log" ] && { echo "--- $log"; tail -n 30 "$log"; }
  done
  exit 1
fi
echo "slurm campaign test: passed"
