#!/usr/bin/env bash
# Where the parameter-ABI oracle gets its PTX (docs/pipeline.md, "Parameter ABI"): the cost of
# a campaign's normal build of a batch against (a) a separate PTX compile (nvcc -ptx, clang
# --cuda-device-only -S), (b) a by-product of the normal build (nvcc -keep --keep-dir, clang
# -save-temps). Each figure is the fastest of REPS runs, in seconds.
# usage: bench/abi_ptx_source.sh CUDIFF [REPS] [SEEDS...]
set -euo pipefail
cudiff=$1; reps=${2:-3}; shift 2 || true
seeds=${*:-1000 2000 3000}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cuda=/usr/local/cuda
nvcc=(nvcc -std=c++17 --extended-lambda -arch=sm_90 -O3)
clang=(clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=$cuda -Wno-unknown-cuda-version -std=c++17 -O3)
libs=(-L$cuda/lib64 -lcudart_static -ldl -lrt -lpthread)
fastest() {  # fastest wall time of "$@" over $reps runs, run in a fresh directory each time
  local best=
  for _ in $(seq "$reps"); do
    local d; d=$(mktemp -d -p "$work"); local t0; t0=$(date +%s.%N)
    (cd "$d" && "$@" >/dev/null 2>&1)
    local t; t=$(echo "$(date +%s.%N) - $t0" | bc)
    if [[ -z $best ]] || (( $(echo "$t < $best" | bc) )); then best=$t; fi
  done
  printf '%.2f' "$best"
}
printf '%-6s %8s %8s %8s %8s %8s %8s\n' seed nv-bin nv-ptx nv-keep cl-bin cl-ptx cl-temps
for seed in $seeds; do
  "$cudiff" generate --seed "$seed" --batch 8 --count 8 --out "$work" >/dev/null
  src=$(ls "$work"/cudiff_batch_*"$seed"_8.cu 2>/dev/null || ls "$work"/cudiff_batch_*.cu | tail -1)
  PATH=$cuda/bin:$PATH
  printf '%-6s %8s %8s %8s %8s %8s %8s\n' "$seed" \
    "$(fastest "${nvcc[@]}" -o bin "$src")" \
    "$(fastest "${nvcc[@]}" -ptx -o out.ptx "$src")" \
    "$(fastest "${nvcc[@]}" -keep --keep-dir . -o bin "$src")" \
    "$(fastest "${clang[@]}" -o bin "$src" "${libs[@]}")" \
    "$(fastest "${clang[@]}" --cuda-device-only -S -o out.ptx "$src")" \
    "$(fastest "${clang[@]}" -save-temps -o bin "$src" "${libs[@]}")"
  rm -f "$work"/cudiff_batch_*
done
