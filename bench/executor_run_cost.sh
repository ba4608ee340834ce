#!/usr/bin/env bash
# What one run costs on each path, on a GPU host: the same generated batches (8 seeds, 2
# variants each: 24 programs per translation unit) built by nvcc -O3 as executables and as
# shared objects, then run one after another as processes (execute()'s way) and in one
# cudiff-executor (the executor path; driven here through its line protocol), and the outputs
# compared byte for byte.
#
#   bench/executor_run_cost.sh [BATCHES=16] [OUT=/tmp/cudiff-bench-run-cost]
#
# Environment: CUDIFF_BIN (default build/cudiff), CUDIFF_EXECUTOR (default beside it),
# CUDA_HOME (default /usr/local/cuda).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cudiff="${CUDIFF_BIN:-$here/build/cudiff}"
executor="${CUDIFF_EXECUTOR:-$(dirname "$cudiff")/cudiff-executor}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
batches="${1:-16}" out="${2:-/tmp/cudiff-bench-run-cost}"
rm -rf "$out" && mkdir -p "$out/src" "$out/bin" "$out/run"
now() { date +%s.%N; }

"$cudiff" generate --seed 9000 --count $((batches * 8)) --batch 8 --variants 2 --out "$out/src" > /dev/null
nvcc=("$cuda/bin/nvcc" -std=c++17 --extended-lambda -arch=sm_90 -O3)
build() {  # FILE: the executable and the shared object, as runners/configs.cpp builds them
  local stem; stem="$(basename "$1" .cu)"
  "${nvcc[@]}" -o "$out/bin/$stem" "$1" 2> /dev/null
  "${nvcc[@]}" -shared -Xcompiler -fPIC -Xcompiler -fno-gnu-unique -cudart shared -o "$out/bin/$stem.so" "$1" 2> /dev/null
}
export -f build; export out cuda
start=$(now)
ls "$out"/src/*.cu | xargs -P "$(nproc)" -I{} bash -c "$(declare -p nvcc); build {}"
echo "built $batches batches both ways in $(python3 -c "print(round($(now) - $start, 1))") s"

# Processes, one after another.
start=$(now)
for binary in "$out"/bin/*[0-9]; do
  CUDA_CACHE_DISABLE=1 "$binary" > "$out/run/$(basename "$binary").process" 2>&1
done
process_seconds=$(python3 -c "print($(now) - $start)")

# One executor, one request after another.
coproc EXECUTOR { CUDA_CACHE_DISABLE=1 "$executor" --cudart "$cuda/lib64/libcudart.so"; }
read -r -u "${EXECUTOR[0]}" ready
echo "executor: $ready"
start=$(now)
for library in "$out"/bin/*.so; do
  stem="$(basename "$library" .so)"
  printf 'run\t%s\t%s\t%s\t%s\n' "$library" "$out/run" "$out/run/$stem.executor" "$out/run/$stem.executor.err" \
    >&"${EXECUTOR[1]}"
  read -r -u "${EXECUTOR[0]}" reply
  [[ "$reply" == done$'\t'0$'\t'0$'\t'0* ]] || echo "not clean: $stem: $reply"
done
executor_seconds=$(python3 -c "print($(now) - $start)")
eval "exec ${EXECUTOR[1]}>&-"
wait "$EXECUTOR_PID" || true

same=0 differ=0
for binary in "$out"/bin/*[0-9]; do
  stem="$(basename "$binary")"
  if cmp -s "$out/run/$stem.process" "$out/run/$stem.executor"; then same=$((same + 1)); else differ=$((differ + 1)); fi
done
python3 - "$batches" "$process_seconds" "$executor_seconds" "$same" "$differ" <<'PY'
import sys
batches, process, executor, same, differ = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
print("| path | batches run | seconds | ms per batch |")
print("|---|---|---|---|")
print("| a process each | %d | %.2f | %.0f |" % (batches, process, 1000 * process / batches))
print("| one executor | %d | %.2f | %.1f |" % (batches, executor, 1000 * executor / batches))
print("\nexecutor / process: %.1fx faster per run; outputs byte-identical: %d of %d" % (process / executor, same, same + differ))
PY
