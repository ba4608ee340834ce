#!/usr/bin/env bash
# Reducer benchmark (docs/reducer.md): cudiff reduce --test, C-Vise and C-Reduce on
# every case of bench/reduce/, one after another, with the same C-Reduce-style test script and
# the same number of jobs, each run capped. The final size (C tokens, bench/count_tokens.py)
# and wall time of every run go to a CSV; bench/summarize_reduce.py turns it into the Markdown
# table of bench/RESULTS.md. A run stopped by the cap counts at the cap, with the size it had
# reached (all three tools keep their best result on disk as they go).
#
# usage: bench/reduce_bench.sh [--tools "cudiff cvise creduce"] [--cases "NAME..."] [--jobs N]
#                              [--cap SECONDS] [--out DIR] [--cudiff PATH]
#   defaults: all three tools, every case, jobs = nproc, cap 900 s (15 minutes),
#             out out/reduce-bench (git-ignored), cudiff build/cudiff
#
# C-Vise and C-Reduce are Debian packages: apt-get install cvise creduce. With the default cap
# the whole benchmark takes hours (C-Reduce and C-Vise need many minutes per case on CUDA):
# run it in the background, e.g. `nohup bench/reduce_bench.sh > bench.log 2>&1 &`, never in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

tools="cudiff cvise creduce"
cases=""
jobs=$(nproc)
cap=900
out=out/reduce-bench
cudiff=build/cudiff

while (($#)); do
  case "$1" in
    --tools) tools=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --cap) cap=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --cudiff) cudiff=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "reduce_bench: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

[ -n "$cases" ] || cases=$(cd bench/reduce && ls -d */ | tr -d /)
for tool in $tools; do
  case "$tool" in
    cudiff) [ -x "$cudiff" ] || { echo "reduce_bench: no cudiff at $cudiff (build it, or --cudiff PATH)" >&2; exit 2; } ;;
    cvise|creduce) command -v "$tool" >/dev/null ||
      { echo "reduce_bench: $tool not found (Debian: apt-get install $tool)" >&2; exit 2; } ;;
    *) echo "reduce_bench: unknown tool $tool (cudiff, cvise, creduce)" >&2; exit 2 ;;
  esac
done
cudiff=$(realpath "$cudiff")
mkdir -p "$out"
out=$(realpath "$out")
csv="$out/results.csv"
[ -f "$csv" ] || echo "case,tool,jobs,cap_s,status,seconds,tokens_before,tokens_after,bytes_after,lines_after,verified" > "$csv"
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "host: $(hostname), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "nvcc: $(/usr/local/cuda/bin/nvcc --version | tail -2 | head -1)"
  echo "clang: $(clang++-22 --version | head -1)"
  for tool in $tools; do
    case "$tool" in
      cudiff) echo "cudiff: $cudiff" ;;
      cvise) echo "cvise: $(cvise --version 2>&1 | head -1)" ;;
      creduce) echo "creduce: $(creduce --version 2>&1 | head -1)" ;;
    esac
  done
  echo "jobs: $jobs, cap: $cap s"
} >> "$out/environment.txt"

# The case's test script, run the way every reducer runs it: in a fresh directory holding
# only the file under its own name.
still_interesting() {
  local dir file=$2
  dir=$(mktemp -d)
  cp "$1/test.sh" "$dir/" && cp "$file" "$dir/$3"
  (cd "$dir" && ./test.sh >/dev/null 2>&1) && echo yes || echo no
  rm -rf "$dir"
}

for name in $cases; do
  case_dir="$root/bench/reduce/$name"
  source_file=$(cd "$case_dir" && ls *.cu | head -1)
  before=$(python3 bench/count_tokens.py "$case_dir/$source_file")
  for tool in $tools; do
    work="$out/work/$name/$tool"
    rm -rf "$work"
    mkdir -p "$work"
    cp "$case_dir/$source_file" "$case_dir/test.sh" "$work/"
    echo "reduce_bench: $name with $tool (jobs $jobs, cap $cap s)" >&2
    start=$(date +%s.%N)
    set +e
    case "$tool" in
      cudiff)
        (cd "$work" && timeout -k 30 "$cap" "$cudiff" reduce "$source_file" --test ./test.sh --jobs "$jobs" \
           --out "$source_file.best" > log.txt 2>&1)
        ;;
      cvise)
        (cd "$work" && timeout -k 30 "$cap" cvise --n "$jobs" ./test.sh "$source_file" > log.txt 2>&1) ;;
      creduce)
        (cd "$work" && timeout -k 30 "$cap" creduce --n "$jobs" ./test.sh "$source_file" > log.txt 2>&1) ;;
    esac
    rc=$?
    set -e
    end=$(date +%s.%N)
    case $rc in
      0) status=done ;;
      124|137) status=capped ;;
      *) status="failed-$rc" ;;
    esac
    # cudiff writes its best so far to --out; C-Vise and C-Reduce rewrite the file in place.
    final="$work/$source_file"
    [ "$tool" = cudiff ] && [ -f "$work/$source_file.best" ] && final="$work/$source_file.best"
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    [ "$status" = capped ] && seconds=$cap
    after=$(python3 bench/count_tokens.py "$final")
    bytes=$(wc -c < "$final")
    lines=$(wc -l < "$final")
    verified=$(still_interesting "$case_dir" "$final" "$source_file")
    printf '%s,%s,%s,%s,%s,%.1f,%s,%s,%s,%s,%s\n' "$name" "$tool" "$jobs" "$cap" "$status" "$seconds" "$before" \
      "$after" "$bytes" "$lines" "$verified" >> "$csv"
    echo "reduce_bench: $name $tool: $status in ${seconds%.*} s, $before -> $after tokens, still interesting: $verified" >&2
  done
done
echo "reduce_bench: results in $csv (python3 bench/summarize_reduce.py $csv)" >&2
