#!/usr/bin/env bash
# The device path in run mode against the whole-program path, on a GPU host (issue 37; docs/pipeline.md,
# "Build paths"): one campaign of TESTS tests through `--build-path device`, then the same seeds
# through `--build-path whole`, one after the other in one run, each with the default run-mode
# configs, no reductions, on one GPU. For each: wall time, tests/s, the GPU's utilisation as
# nvidia-smi samples it every 500 ms (the share of samples above 0%, the issue's measure, and the
# mean), the executor's requests and their seconds, and the findings (both paths should file the
# same buckets).
#
#   bench/device_run_paths.sh CUDIFF OUT [TESTS] [POLICY] [SEED] [GPU]
#
# POLICY defaults to bench/policies/dense_only.json (tests made only of compute-dense kernels,
# which carry launch plans: every kernel runs from its config's cubin), SEED to 41041, GPU to 0.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff=$1 out=$2 tests=${3:-32}
policy=${4:-$here/bench/policies/dense_only.json} seed=${5:-41041} gpu=${6:-0}
rm -rf "$out" && mkdir -p "$out"
for path in device whole; do
  nvidia-smi -i "$gpu" --query-gpu=utilization.gpu --format=csv,noheader,nounits -lms 500 > "$out/$path.util" &
  sampler=$!
  start=$(date +%s.%N)
  "$cudiff" fuzz --tests "$tests" --seed "$seed" --gpus "$gpu" --no-reduce --json --build-path "$path" \
    --policy "$policy" --db "$out/$path.db" > "$out/$path.json" 2> "$out/$path.err" || true
  end=$(date +%s.%N)
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  "$cudiff" triage list --db "$out/$path.db" --json > "$out/$path.buckets.json" 2>> "$out/$path.err" || true
  echo "$path $start $end" >> "$out/times.txt"
done

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
print("| path | tests | wall | tests/s | GPU busy (samples > 0%) | mean utilisation | executor requests | request seconds | ran as processes | findings | buckets |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
keys = {}
for line in open(os.path.join(out, "times.txt")):
    path, start, end = line.split()
    wall = float(end) - float(start)
    s = json.load(open(os.path.join(out, path + ".json")))
    util = [int(x) for x in open(os.path.join(out, path + ".util")).read().split() if x.strip().isdigit()]
    busy = sum(1 for u in util if u > 0) / len(util) if util else 0
    mean = sum(util) / len(util) if util else 0
    ex = s.get("executor") or {}
    try:
        buckets = json.load(open(os.path.join(out, path + ".buckets.json")))
        if isinstance(buckets, dict): buckets = buckets.get("buckets", [])
    except (OSError, ValueError):
        buckets = []
    keys[path] = sorted(b.get("key", b.get("id")) for b in buckets)
    print(f"| {path} | {s['tests']} | {wall:.1f} s | {s['tests'] / wall:.2f} | {100 * busy:.0f}% of {len(util)} | "
          f"{mean:.1f}% | {ex.get('runs', '-')} | {ex.get('run_seconds', 0):.1f} | {ex.get('ran_as_processes', '-')} | "
          f"{s['findings']} | {len(buckets)} |")
if "device" in keys and "whole" in keys:
    print(f"\nsame buckets through both paths: {keys['device'] == keys['whole']}")
PY
