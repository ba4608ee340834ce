#!/usr/bin/env bash
# Runs both compilers' binaries of N generated programs under compute-sanitizer (memcheck,
# racecheck, initcheck, synccheck) on a GPU host and counts the reports (target: 0).
#
#   bench/sanitize_generated.sh [N=50] [FIRST_SEED=0] [JOBS=8] [OUT=/tmp/cudiff-sanitize]
# Environment: POLICY=FILE generates with that policy (e.g. every construct switched on).
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff="${CUDIFF_BIN:-$here/build/cudiff}"
sanitizer="${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}"
n="${1:-50}" first="${2:-0}" jobs="${3:-8}" out="${4:-/tmp/cudiff-sanitize}"
rm -rf "$out" && mkdir -p "$out/programs" "$out/keep" "$out/logs"
policy_args=()
[ -n "${POLICY:-}" ] && policy_args=(--policy "$POLICY")
"$cudiff" generate --seed "$first" --count "$n" --out "$out/programs" "${policy_args[@]}" >/dev/null
ls "$out"/programs/*.cu | xargs -P "$jobs" -I{} sh -c \
  '"$0" check "$1" --mode binary --keep "$2/$(basename "$1" .cu)" >/dev/null 2>&1' "$cudiff" {} "$out/keep"
for dir in "$out"/keep/*/; do
  name=$(basename "$dir")
  for config in nvcc-O3 clang-O3; do
    [ -x "$dir/$config/$name" ] && echo "$dir$config/$name"
  done
done > "$out/binaries.txt"
# One sanitizer run: its log, and "<exit> <tool> <binary>" appended to results.txt.
run_one() {
  local bin="$1" tool="$2"
  local log="$logs/$(basename "$(dirname "$bin")")_$(basename "$bin")_$tool.log"
  "$sanitizer" --tool "$tool" --error-exitcode 99 "$bin" > "$log" 2>&1
  echo "$? $tool $bin" >> "$logs/results.txt"
}
export -f run_one
export sanitizer logs="$out/logs"
while read -r bin; do
  for tool in memcheck racecheck initcheck synccheck; do echo "$bin $tool"; done
done < "$out/binaries.txt" | xargs -P "$jobs" -L1 bash -c 'run_one "$@"' _
total=$(wc -l < "$out/logs/results.txt")
flagged=$(awk '$1 == 99' "$out/logs/results.txt" | wc -l)
failed=$(awk '$1 != 0 && $1 != 99' "$out/logs/results.txt" | wc -l)
echo "binaries: $(wc -l < "$out/binaries.txt"), sanitizer runs: $total, reports: $flagged, other failures: $failed"
awk '$1 != 0' "$out/logs/results.txt" | head -20
