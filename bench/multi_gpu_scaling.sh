#!/usr/bin/env bash
# Multi-GPU scaling (docs/campaign.md, "Several GPUs"), on a host with several GPUs: the same
# campaign (same seeds, default configs and policy, same jobs and batch size) on 1 GPU, 2, 4 ...
# and all of them, then once more on all of them with the last GPU's executors killed from
# outside every KILL_EVERY seconds. Reports per campaign: seeds and programs per second, the
# speed-up over one GPU, each GPU's batches and busy share (cudiff's: the time at least one binary
# ran on it), each GPU's mean utilization as nvidia-smi samples it (kernels running), the
# executors' runs, fallbacks and restarts, and whether the findings (every seed's outcome and
# each finding's bucket) are identical to the one-GPU campaign's.
#
#   bench/multi_gpu_scaling.sh [TESTS=128] [BATCH=8] [JOBS=default] [OUT=/tmp/cudiff-bench-multi-gpu]
#
# Environment: CUDIFF_BIN (default build/cudiff; cudiff-executor beside it or $CUDIFF_EXECUTOR),
# CUDIFF_CLANG; KILL_EVERY (default 2); EXTRA adds options to every campaign.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff="${CUDIFF_BIN:-$here/build/cudiff}"
tests="${1:-128}" batch="${2:-8}" jobs="${3:-}" out="${4:-/tmp/cudiff-bench-multi-gpu}"
kill_every="${KILL_EVERY:-2}"
rm -rf "$out" && mkdir -p "$out"
extra=(${EXTRA:-})
count=$(nvidia-smi -L | grep -c '^GPU ')
if [ "$count" -lt 1 ]; then echo "no GPU" >&2; exit 1; fi
victim=$((count - 1))

# The GPU counts to measure: 1, 2, 4, ... and all.
sizes=()
for ((g = 1; g < count; g *= 2)); do sizes+=("$g"); done
sizes+=("$count")

campaign() {  # NAME GPU-COUNT
  local name="$1" g="$2" list
  list=$(seq -s, 0 $((g - 1)))
  nvidia-smi --query-gpu=index,utilization.gpu --format=csv,noheader,nounits -lms 500 > "$out/$name.util" &
  local sampler=$!
  "$cudiff" fuzz --tests "$tests" --batch "$batch" ${jobs:+--jobs "$jobs"} --seed 9000 --no-reduce --json \
    --gpus "$list" --db "$out/$name.db" "${extra[@]}" > "$out/$name.json" 2> "$out/$name.err"
  kill "$sampler" 2> /dev/null || true
  wait "$sampler" 2> /dev/null || true
}

for g in "${sizes[@]}"; do campaign "gpus$g" "$g"; done

# All GPUs again, the last one's executors killed from outside while the campaign runs.
(
  while :; do
    for pid in $(pgrep -x cudiff-executor || true); do
      # Its stderr is its log, in its GPU's executor directory (its cwd is each run's own).
      if [[ "$(readlink "/proc/$pid/fd/2" 2> /dev/null)" == */executor-gpu$victim/executor*.log ]] &&
        kill -9 "$pid" 2> /dev/null; then
        echo "$(date +%s.%N) $pid" >> "$out/kills.txt"
      fi
    done
    sleep "$kill_every"
  done
) &
killer=$!
campaign "killed" "$count"
kill "$killer" 2> /dev/null || true
wait "$killer" 2> /dev/null || true

python3 - "$out" "$count" "$victim" "${sizes[*]}" <<'PY'
import json, os, sqlite3, sys
out, count, victim, sizes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), [int(s) for s in sys.argv[4].split()]

def summary(name):
    text = open(os.path.join(out, name + ".json")).read()
    return json.loads(text[text.index("{"):])

def findings(name):
    # Every seed's outcome and each finding's bucket: what must not depend on the GPUs.
    db = sqlite3.connect(os.path.join(out, name + ".db"))
    outcomes = sorted(db.execute("SELECT name, outcome FROM tests"))
    found = sorted(db.execute("SELECT t.name, f.bucket_key FROM findings f JOIN tests t ON t.id = f.test_id"))
    return outcomes, found

def utilization(name):
    per = {}
    for line in open(os.path.join(out, name + ".util")):
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 2 and parts[1].isdigit():
            per.setdefault(int(parts[0]), []).append(int(parts[1]))
    return {i: sum(v) / len(v) for i, v in per.items()}

kills = len(open(os.path.join(out, "kills.txt")).read().splitlines()) if os.path.exists(os.path.join(out, "kills.txt")) else 0
names = ["gpus%d" % g for g in sizes] + ["killed"]
base = summary("gpus1")
base_rate = base["tests"] / base["seconds"]
base_findings = findings("gpus1")
print("| campaign | GPUs | seeds | programs | seconds | seeds/s | programs/s | vs 1 GPU | per GPU: batches, busy (cudiff), utilization (nvidia-smi) | executor runs / ran as processes / started / lost | findings | buckets | identical to 1 GPU |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for name in names:
    s = summary(name)
    rate = s["tests"] / s["seconds"]
    util = utilization(name)
    per = []
    runs = fell = started = lost = 0
    for g in s.get("gpus", []):
        per.append("%d: %d, %.0f%%, %.0f%%" % (g["index"], g["batches"], 100 * g["busy"], util.get(g["index"], 0)))
        ex = g.get("executor")
        if ex:
            runs += ex["runs"]; fell += ex["ran_as_processes"]; started += ex["executors_started"]; lost += ex["executors_lost"]
    same = findings(name) == base_findings
    buckets = len(set(b for _, b in findings(name)[1]))
    print("| %s | %d | %d | %d | %.1f | %.3f | %.3f | %.2fx | %s | %d / %d / %d / %d | %d | %d | %s |" % (
        name, len(s.get("gpus", [])), s["tests"], s["programs"], s["seconds"], rate, s["programs"] / s["seconds"],
        rate / base_rate, "; ".join(per), runs, fell, started, lost, s["findings"], buckets,
        "yes" if same else "NO"))
print()
print("executor kills from outside (GPU %d, every few seconds during 'killed'): %d" % (victim, kills))
k = summary("killed")
for g in k.get("gpus", []):
    if g["index"] == victim and g.get("executor"):
        print("GPU %d executor fallback reasons: %s" % (victim, json.dumps(g["executor"]["fallback_reasons"])))
print("dropped batches in 'killed': %d" % k["dropped_batches"])
PY
