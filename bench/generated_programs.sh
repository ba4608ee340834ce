#!/usr/bin/env bash
# Benchmark of the generator (issue 3): generates N consecutive seeds, checks each with both
# compilers, and prints the acceptance share, every disagreement, the construct coverage,
# generation speed and mean program size (bench/summarize_generated.py).
#
#   bench/generated_programs.sh [N=500] [FIRST_SEED=0] [SIZE=small] [MODE=binary] [JOBS=1] [OUT=/tmp/cudiff-bench-gen]
#
# MODE run (on a GPU host) also compares the binaries' checksums; JOBS checks run at once
# (each check already builds with both compilers in parallel, so 1 suits a 2-core machine).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff="${CUDIFF_BIN:-$here/build/cudiff}"
n="${1:-500}" first="${2:-0}" size="${3:-small}" mode="${4:-binary}" jobs="${5:-1}" out="${6:-/tmp/cudiff-bench-gen}"
rm -rf "$out" && mkdir -p "$out/programs" "$out/checks"

"$cudiff" generate --seed "$first" --count "$n" --size "$size" --out "$out/programs" --json > "$out/generate.json"
start=$(date +%s.%N)
ls "$out"/programs/*.cu | xargs -P "$jobs" -I{} sh -c \
  'f="{}"; b=$(basename "$f" .cu); "$0" check "$f" --mode "$1" --json --run-timeout 60 > "$2/$b.json" 2> "$2/$b.err"; echo $? > "$2/$b.exit"' \
  "$cudiff" "$mode" "$out/checks"
end=$(date +%s.%N)
python3 "$here/bench/summarize_generated.py" "$out" "$(python3 -c "print($end - $start)")" "$mode"
