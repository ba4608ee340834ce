#!/usr/bin/env bash
# The device path against the whole-program build (docs/pipeline.md, "Build paths"): one
# compile-only campaign of TESTS tests with the four cross-level configs through
# `--build-path device`, then the same through `--build-path whole`, one after the other in one
# run; wall time, tests/s and the ratio, the load (uptime) before and after each, and each
# campaign's findings (both paths must file the same buckets).
#
#   bench/build_paths.sh CUDIFF [OUT] [TESTS] [POLICY] [SEED]
#
# POLICY defaults to bench/policies/harness_only.json: programs whose host side is only the
# generator's harness (no layout probes, planted probes, extended lambdas or managed memory),
# the tests the device path builds; the default policy's programs all carry layout probes and
# are built whole by either path. Its 10% of edge programs are checked whole (object mode) by
# both paths; bench/policies/harness_only_no_edges.json leaves them out. --no-reduce, --jobs 1
# (one batch at a time, each building its configs in parallel), batches of 8, no variants
# (compile-only).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff=$1 out=${2:-/tmp/cudiff-bench-build-paths} tests=${3:-24}
policy=${4:-$here/bench/policies/harness_only.json} seed=${5:-5000}
rm -rf "$out" && mkdir -p "$out"
configs=nvcc-O3,clang-O3,nvcc-O3-ptxas0,clang-O0
for path in device whole; do
  uptime > "$out/$path.load"
  start=$(date +%s.%N)
  "$cudiff" fuzz --tests "$tests" --batch 8 --seed "$seed" --gpus none --no-reduce --jobs 1 --json \
    --config "$configs" --build-path "$path" --policy "$policy" --db "$out/$path.db" \
    > "$out/$path.json" 2> "$out/$path.err"
  end=$(date +%s.%N)
  uptime >> "$out/$path.load"
  "$cudiff" triage list --db "$out/$path.db" --json > "$out/$path.buckets.json" 2>> "$out/$path.err" || true
  echo "$path $start $end" >> "$out/times.txt"
done

python3 - "$out" "$tests" <<'PY'
import json, os, sys
out, tests = sys.argv[1], int(sys.argv[2])
seconds = {}
for line in open(os.path.join(out, "times.txt")):
    path, start, end = line.split()
    seconds[path] = float(end) - float(start)
def keys(path):
    try:
        listed = json.load(open(os.path.join(out, path + ".buckets.json")))
    except (OSError, ValueError):
        return None
    buckets = listed.get("buckets", listed) if isinstance(listed, dict) else listed
    return sorted(b.get("key", "") for b in buckets) if isinstance(buckets, list) else None
print("| path | tests | seconds | tests/s | load before -> after |")
print("|---|---|---|---|---|")
for path in ("device", "whole"):
    load = [l.split("load average:")[1].split(",")[0].strip() for l in open(os.path.join(out, path + ".load"))]
    print(f"| {path} | {tests} | {seconds[path]:.1f} | {tests / seconds[path]:.3f} | {load[0]} -> {load[-1]} |")
print(f"\ndevice / whole: {seconds['device'] / seconds['whole']:.3f} (the bar: at most 0.55)")
d, w = keys("device"), keys("whole")
print("same buckets through both paths:", "yes" if d == w else f"NO (device {d}, whole {w})")
PY
