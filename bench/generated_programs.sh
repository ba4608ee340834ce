#!/usr/bin/env bash
# Benchmark of the generator: generates N consecutive seeds, checks each with both
# compilers, and prints the acceptance share, every disagreement, the construct coverage,
# generation speed and mean program size (bench/summarize_generated.py).
#
#   bench/generated_programs.sh [N=500] [FIRST_SEED=0] [SIZE=small] [MODE=binary] [JOBS=1] [OUT=/tmp/cudiff-bench-gen]
#
# MODE run (on a GPU host) also compares the binaries' checksums; JOBS checks run at once
# (each check already builds with both compilers in parallel, so 1 suits a 2-core machine).
# Environment: POLICY=FILE generates with that policy; CONFIGS=LIST checks with those configs
# (e.g. nvcc-O3,nvcc-O0 for __managed__ programs, which clang-22 does not support).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff="${CUDIFF_BIN:-$here/build/cudiff}"
n="${1:-500}" first="${2:-0}" size="${3:-small}" mode="${4:-binary}" jobs="${5:-1}" out="${6:-/tmp/cudiff-bench-gen}"
rm -rf "$out" && mkdir -p "$out/programs" "$out/checks"

policy_args=() config_args=()
[ -n "${POLICY:-}" ] && policy_args=(--policy "$POLICY")
[ -n "${CONFIGS:-}" ] && config_args=(--config "$CONFIGS")
"$cudiff" generate --seed "$first" --count "$n" --size "$size" --out "$out/programs" --json "${policy_args[@]}" > "$out/generate.json"
start=$(date +%s.%N)
ls "$out"/programs/*.cu | xargs -P "$jobs" -I{} sh -c \
  'f="{}"; b=$(basename "$f" .cu); "$0" check "$f" --mode "$1" --json --run-timeout 60 $3 > "$2/$b.json" 2> "$2/$b.err"; echo $? > "$2/$b.exit"' \
  "$cudiff" "$mode" "$out/checks" "${config_args[*]:-}"
end=$(date +%s.%N)
python3 "$here/bench/summarize_generated.py" "$out" "$(python3 -c "print($end - $start)")" "$mode"
