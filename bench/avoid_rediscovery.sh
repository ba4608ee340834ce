#!/usr/bin/env bash
# Avoid rules on a GPU host (issue 36's bar): two campaigns of the same length, seeds and
# database, one applying the avoid rules (the default) and one with --rediscover; for each, the
# distinct causes its reduced findings have and how many of its findings rediscover a bug
# already confirmed (a bucket of the base database marked known, reported or fixed, a cause with
# an avoid rule, or a known-bug suite case's cause).
#
#   bench/avoid_rediscovery.sh start OUT [BASE.db]   # copies BASE (default: a new, empty one) twice
#   bench/avoid_rediscovery.sh step OUT              # at most ~9 minutes of campaign; repeat
#   bench/avoid_rediscovery.sh report OUT            # the table for bench/RESULTS.md
#
# `step` fits one 10-minute command: it runs whichever campaign is not finished (avoid first,
# then rediscover) under `timeout`; a killed campaign continues at the next step (both are
# named campaigns, so running their command again resumes them). Repeat `step` until it prints
# "both campaigns finished". BASE is the database of an earlier campaign whose reduced bugs were
# reviewed (`cudiff triage mark ID known|reported|fixed`): its confirmed causes are the rules the
# first campaign applies (`cudiff triage avoid --db BASE` lists them before you start); without
# one, only the known-bug suite's rules apply. CUDIFF= the binary (default build/cudiff);
# MINUTES= each campaign's length (default 30); SEED= the first seed of both (default 36006);
# STEP_MINUTES= how long one step runs a campaign (default 7; a step adds that to it with
# --resume --time, so its reductions get their share of each step; STEP_GRACE= the seconds a
# step's campaign may run past that before it is stopped, default 150). PARALLEL=1 runs both
# campaigns at once in each step, avoid on the first half of the cores, rediscover on the
# second: on a host with two GPUs, avoid on GPU 0 and rediscover on GPU 1 (the same work per
# campaign as two one-GPU hosts, in half the wall time); on a host with one, both share it
# (each campaign then has half the host's cores: say so beside its figures).
set -euo pipefail
cudiff="${CUDIFF:-build/cudiff}"
minutes="${MINUTES:-30}"
seed="${SEED:-36006}"
action="${1:-}" out="${2:-}"
[ -n "$action" ] && [ -n "$out" ] || { sed -n '2,20p' "$0" >&2; exit 2; }
[ -x "$cudiff" ] || { echo "avoid_rediscovery.sh: no cudiff at $cudiff (set CUDIFF=)" >&2; exit 2; }

step_minutes="${STEP_MINUTES:-7}"

elapsed_of() {  # label: the seconds its campaign has run (0 before it starts)
  python3 - "$out/$1.db" "bench-$1" <<'PY'
import json, os, sqlite3, sys
row = None
if os.path.exists(sys.argv[1]):
    db = sqlite3.connect(sys.argv[1])
    row = db.execute("SELECT params FROM campaign_params WHERE params LIKE ?", (f'%"{sys.argv[2]}"%',)).fetchone()
print(int(json.loads(row[0]).get("elapsed", 0)) if row else 0)
PY
}

# Each step is a window of its own: the first starts the named campaign with --time STEP, the
# next ones add STEP with --resume --time, so every step keeps its share for the reductions and
# stores what a reduction cut at the step's end had reached (a campaign killed from outside
# loses the reduction under way, and one longer than a step never finishes).
run_campaign() {  # label, cpu list (or ""), gpu (or ""), flags for its start...
  local label="$1" cpus="$2" gpu="$3"
  shift 3
  local db="$out/$label.db" pin=() where=()
  [ -f "$out/$label.finished" ] && return 0
  [ -n "$cpus" ] && pin=(taskset -c "$cpus")
  [ -n "$gpu" ] && where=(--gpus "$gpu")
  local done_s left step args
  done_s=$(elapsed_of "$label")
  left=$((minutes * 60 - done_s))
  if [ "$left" -gt 30 ]; then
    step=$((step_minutes * 60))
    [ "$left" -lt "$step" ] && step="$left"
    if [ "$done_s" -eq 0 ]; then args=(--campaign "bench-$label" --seed "$seed" --time "${step}s" "$@")
    else args=(--resume --time "${step}s"); fi
    timeout --signal=INT --kill-after=30 $((step + ${STEP_GRACE:-150})) "${pin[@]}" "$cudiff" fuzz "${args[@]}" "${where[@]}" \
      --db "$db" --json > "$out/$label.$(date +%s).json" 2>> "$out/$label.err" || true
    done_s=$(elapsed_of "$label")
  fi
  if [ "$done_s" -ge $((minutes * 60 - 30)) ]; then
    touch "$out/$label.finished"
    echo "$label: finished ($done_s s)"
    return 0
  fi
  echo "$label: $done_s of $((minutes * 60)) s: run step again to continue it"
  return 1
}

case "$action" in
start)
  mkdir -p "$out"
  base="${3:-}"
  for label in avoid rediscover; do
    rm -f "$out/$label.db" "$out/$label.finished"
    if [ -n "$base" ]; then "$cudiff" triage snapshot "$out/$label.db" --db "$base" > /dev/null; fi
  done
  if [ -n "$base" ]; then  # what the first campaign will apply (it stores what it did apply)
    "$cudiff" triage avoid --db "$out/avoid.db" --json > "$out/rules-at-start.json"
    "$cudiff" triage avoid --db "$out/avoid.db"
  fi
  "$cudiff" toolchains > "$out/toolchains.txt" 2>&1 || true
  nvidia-smi -L > "$out/gpus.txt" 2>&1 || true
  echo "ready: run bench/avoid_rediscovery.sh step $out until both campaigns finish"
  ;;
step)
  if [ "${PARALLEL:-0}" = 1 ]; then
    cores=$(nproc)
    half=$((cores / 2))
    run_campaign avoid "0-$((half - 1))" 0 &
    avoid_pid=$!
    second_gpu=1
    [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ] || second_gpu=0
    run_campaign rediscover "$half-$((cores - 1))" "$second_gpu" --rediscover &
    rediscover_pid=$!
    status=0
    wait "$avoid_pid" || status=1
    wait "$rediscover_pid" || status=1
    [ "$status" -eq 0 ] || exit 0
  else
    run_campaign avoid "" "" || exit 0
    run_campaign rediscover "" "" --rediscover || exit 0
  fi
  echo "both campaigns finished: bench/avoid_rediscovery.sh report $out"
  ;;
report)
  python3 - "$out" <<'PY'
import glob, json, os, sqlite3, sys
out = sys.argv[1]
def campaign_of(db, label):
    return db.execute("SELECT c.id, c.tests, c.findings, p.params FROM campaigns c JOIN campaign_params p "
                      "ON p.campaign_id = c.id WHERE p.params LIKE ?", (f'%"bench-{label}"%',)).fetchone()
# The causes the first campaign avoided: the rules its policy applied, as it stored them.
avoid_db = sqlite3.connect(os.path.join(out, "avoid.db"))
avoided_causes = {r["cause"] for r in json.loads(campaign_of(avoid_db, "avoid")[3]).get("avoided", [])}
print("| campaign | tests | findings | buckets | causes | rediscovered findings | rediscovered causes | avoided causes found |")
print("|---|---|---|---|---|---|---|---|")
for label in ("avoid", "rediscover"):
    db = sqlite3.connect(os.path.join(out, label + ".db"))
    cid, tests, findings, _ = campaign_of(db, label)
    buckets = db.execute("SELECT count(DISTINCT bucket_key) FROM findings WHERE campaign_id = ?", (cid,)).fetchone()[0]
    causes = {k for (k,) in db.execute(
        "SELECT DISTINCT c.cause_key FROM causes c JOIN findings f ON f.id = c.finding_id WHERE f.campaign_id = ?", (cid,))}
    confirmed = db.execute(
        "SELECT count(*) FROM findings f JOIN buckets b ON b.key = f.bucket_key WHERE f.campaign_id = ? "
        "AND b.status IN ('known', 'reported', 'fixed')", (cid,)).fetchone()[0]
    print(f"| {label} | {tests} | {findings} | {buckets} | {len(causes)} | {confirmed} | "
          f"{len(causes & avoided_causes)} | {', '.join(sorted(k[:12] for k in causes & avoided_causes)) or '-'} |")
print(f"\n{len(avoided_causes)} avoid rules applied by the first campaign; "
      "rediscovered findings: the campaign's findings in buckets marked known (the shipped known "
      "differences included), reported or fixed; rediscovered causes: its causes that a rule of the first "
      "campaign avoids.")
PY
  ;;
*)
  echo "avoid_rediscovery.sh: unknown action '$action' (start, step, report)" >&2
  exit 2
  ;;
esac
