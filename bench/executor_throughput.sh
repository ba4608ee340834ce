#!/usr/bin/env bash
# The executor path against the process path (docs/pipeline.md, "Executor"), on a GPU host: the
# same seeds, the same jobs and batch size, once with a process per run and once with
# long-lived executors, for two config sets: nvcc-O3,clang-O3 and the default cross-level set
# (nvcc-O3, clang-O3, nvcc-O3-ptxas0, clang-O0). Reports per campaign: seeds and programs (a
# seed's program and its variants, each built with every config) per second, compiles per
# second, the workers' and the GPU's busy shares (from the last progress line), findings and
# bucket keys (which must be the same on both paths), and the executor's own figures.
#
#   bench/executor_throughput.sh [TESTS=192] [BATCH=8] [JOBS=default] [OUT=/tmp/cudiff-bench-executor]
#
# The cross-level campaigns test CROSS_TESTS seeds (default TESTS / 2: four configs cost twice
# the compiles).
#
# Environment: CUDIFF_BIN (default build/cudiff; cudiff-executor beside it or $CUDIFF_EXECUTOR),
# CUDIFF_CLANG; EXTRA adds options to every campaign (e.g. "--executors 1").
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff="${CUDIFF_BIN:-$here/build/cudiff}"
tests="${1:-192}" batch="${2:-8}" jobs="${3:-}" out="${4:-/tmp/cudiff-bench-executor}"
cross_tests="${CROSS_TESTS:-$((tests / 2))}"
rm -rf "$out" && mkdir -p "$out"
extra=(${EXTRA:-})

campaign() {  # NAME PATH CONFIGS TESTS
  local name="$1" path="$2" configs="$3" count="$4"
  local start end
  start=$(date +%s.%N)
  "$cudiff" fuzz --tests "$count" --batch "$batch" ${jobs:+--jobs "$jobs"} --seed 9000 --no-reduce --json \
    --run-path "$path" ${configs:+--config "$configs"} --db "$out/$name.db" "${extra[@]}" \
    > "$out/$name.json" 2> "$out/$name.err"
  end=$(date +%s.%N)
  echo "$name $start $end" >> "$out/wall.txt"
  "$cudiff" triage list --db "$out/$name.db" --json > "$out/$name.buckets.json" 2> /dev/null || true
}

for path in process executor; do campaign "two-$path" "$path" "nvcc-O3,clang-O3" "$tests"; done
for path in process executor; do campaign "cross-$path" "$path" "" "$cross_tests"; done

python3 - "$out" <<'PY'
import json, os, re, sys
out = sys.argv[1]
def load(name):
    text = open(os.path.join(out, name + ".json")).read()
    s = json.loads(text[text.index("{"):])  # reduction lines, if any, come first
    err = open(os.path.join(out, name + ".err")).read()
    lines = [l for l in err.splitlines() if l.startswith("tests ")]
    last = lines[-1] if lines else ""
    def pick(pattern):
        m = re.search(pattern, last)
        return m.group(1) if m else "?"
    try:
        buckets = json.load(open(os.path.join(out, name + ".buckets.json")))
        keys = sorted(b.get("key", "") for b in (buckets if isinstance(buckets, list) else buckets.get("buckets", [])))
    except Exception:
        keys = []
    return s, pick(r"([\d.]+) compiles/s"), pick(r"workers busy (\d+%)"), pick(r"GPU busy (\d+%)"), keys
print("| configs | path | seeds | programs | seconds | seeds/s | programs/s | compiles/s | workers busy | GPU busy | findings | executor runs / fell back |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
rates = {}
keys = {}
for set in ("two", "cross"):
    for path in ("process", "executor"):
        s, compiles, workers, gpu, bucket_keys = load(set + "-" + path)
        keys[(set, path)] = bucket_keys
        seconds = s["seconds"]
        rates[(set, path)] = s["programs"] / seconds
        ex = s.get("executor")
        ex_text = "%d / %d" % (ex["runs"], ex["ran_as_processes"]) if ex else "-"
        print("| %s | %s | %d | %d | %.1f | %.2f | %.2f | %s | %s | %s | %d | %s |" % (
            "nvcc-O3,clang-O3" if set == "two" else "cross-level (4)", path, s["tests"], s["programs"], seconds,
            s["tests"] / seconds, s["programs"] / seconds, compiles, workers, gpu, s["findings"], ex_text))
print()
for set in ("two", "cross"):
    same = keys[(set, "process")] == keys[(set, "executor")]
    print("%s: executor / process = %.2fx programs/s; bucket keys %s (%d vs %d)" % (
        set, rates[(set, "executor")] / rates[(set, "process")], "identical" if same else "DIFFER",
        len(keys[(set, "process")]), len(keys[(set, "executor")])))
PY
