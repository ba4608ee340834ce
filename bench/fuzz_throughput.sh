#!/usr/bin/env bash
# Campaign throughput: the batched pipeline against the naive one (one test per
# compile and per process, one after another) in the same run, the marginal compile cost of one
# test inside a batch against each compiler's floor (an empty file), and the campaign's memory
# over time (sampled VmRSS of the cudiff process).
#
#   bench/fuzz_throughput.sh [NAIVE_TESTS=24] [BATCHED_TESTS=320] [BATCH=32] [OUT=/tmp/cudiff-bench-fuzz]
#
# Environment: CUDIFF_BIN (default build/cudiff); FUZZ_ARGS adds options to both campaigns
# (e.g. "--gpus none" for compile-only on a GPU host).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff="${CUDIFF_BIN:-$here/build/cudiff}"
naive_tests="${1:-24}" batched_tests="${2:-320}" batch="${3:-32}" out="${4:-/tmp/cudiff-bench-fuzz}"
rm -rf "$out" && mkdir -p "$out"
extra=(${FUZZ_ARGS:-})

now() { date +%s.%N; }
campaign() {  # NAME TESTS BATCH JOBS: runs one campaign, sampling its memory; prints the JSON summary path
  local name="$1" tests="$2" size="$3" jobs="$4"
  "$cudiff" fuzz --tests "$tests" --batch "$size" ${jobs:+--jobs "$jobs"} --seed 7000 --no-reduce --quiet --json \
    --db "$out/$name.db" "${extra[@]}" > "$out/$name.json" 2> "$out/$name.err" &
  local pid=$!
  : > "$out/$name.rss"
  while kill -0 "$pid" 2>/dev/null; do
    awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null >> "$out/$name.rss" || true
    sleep 1
  done
  wait "$pid"
}

campaign naive "$naive_tests" 1 1
campaign batched "$batched_tests" "$batch" ""

# The floor and the marginal cost: one compile of an empty program, of a batch of one, and of
# a batch of BATCH, per compiler (binary mode, one at a time).
printf 'int main() { return 0; }\n' > "$out/empty.cu"
"$cudiff" generate --seed 7000 --count 1 --batch 2 --out "$out/one" > /dev/null   # a batch of one seed
"$cudiff" generate --seed 7000 --count "$batch" --batch "$batch" --out "$out/many" > /dev/null
one="$(ls "$out"/one/*.cu)" many="$(ls "$out"/many/*.cu)"
cuda="${CUDA_HOME:-/usr/local/cuda}" clang="${CUDIFF_CLANG:-clang++-22}"
compile_seconds() {  # CONFIG FILE: the config's own command line (runners/configs.cpp), timed
  local start end
  start=$(now)
  case "$1" in
    nvcc-O3) "$cuda/bin/nvcc" -std=c++17 --extended-lambda -arch=sm_90 -O3 -o "$out/a.out" "$2" ;;
    clang-O3) "$clang" -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$cuda" -isystem "$cuda/include/cccl" -Wno-unknown-cuda-version -std=c++17 -O3 \
                -o "$out/a.out" "$2" -L"$cuda/lib64" -lcudart_static -ldl -lrt -lpthread ;;
  esac > /dev/null 2>&1
  end=$(now)
  python3 -c "print($end - $start)"
}
for config in nvcc-O3 clang-O3; do
  echo "$config $(compile_seconds "$config" "$out/empty.cu") $(compile_seconds "$config" "$one") $(compile_seconds "$config" "$many")"
done > "$out/compile.txt"

python3 - "$out" "$batch" <<'PY'
import json, sys, os
out, batch = sys.argv[1], int(sys.argv[2])
def summary(name):
    s = json.load(open(os.path.join(out, name + ".json")))
    rss = [int(x) for x in open(os.path.join(out, name + ".rss")).read().split()]
    return s, rss
naive, naive_rss = summary("naive")
batched, batched_rss = summary("batched")
rate = lambda s: s["tests"] / s["seconds"]
print("| pipeline | tests | seconds | tests/s | tests/hour | findings | mode |")
print("|---|---|---|---|---|---|---|")
for name, s in (("naive (batch 1, 1 job)", naive), ("batched (batch %d, default jobs)" % batch, batched)):
    print("| %s | %d | %.1f | %.2f | %.0f | %d | %s |" % (name, s["tests"], s["seconds"], rate(s), 3600 * rate(s),
          s["findings"], "compile-only" if s["compile_only"] else "GPU"))
print("\nspeed-up: %.1fx" % (rate(batched) / rate(naive)))
print("\n| compiler | empty file (s) | batch of 1 (s) | batch of %d (s) | marginal per test (s) | marginal / floor |" % batch)
print("|---|---|---|---|---|---|")
for line in open(os.path.join(out, "compile.txt")):
    config, empty, one, many = line.split()
    empty, one, many = float(empty), float(one), float(many)
    marginal = (many - one) / (batch - 1)
    print("| %s | %.2f | %.2f | %.2f | %.3f | %.1f%% |" % (config, empty, one, many, marginal, 100 * marginal / empty))
def mib(kib): return kib / 1024.0
if batched_rss:
    third = max(1, len(batched_rss) // 3)
    print("\ncudiff RSS during the batched campaign: first third max %.1f MiB, last third max %.1f MiB, %d samples"
          % (mib(max(batched_rss[:third])), mib(max(batched_rss[-third:])), len(batched_rss)))
PY
