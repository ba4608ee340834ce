#!/usr/bin/env bash
# Guided (libFuzzer) against plain seeded generation, in the same time budget on the same
# machine. The arms run at once, with the same number of processes each, every
# process checking one program at a time with both compilers, compile-only, so they share the
# cores evenly; the only difference is who picks the programs: libFuzzer, steered by what the
# compilers did, or seeds in order.
#
#   bench/guided/run.sh [MINUTES] [OUTDIR] [PROCESSES] [ARMS]
#
# MINUTES (default 30) per arm; OUTDIR (default bench/guided/out); PROCESSES per arm (default
# 1; the guided arm runs libFuzzer's -fork=N then, the plain arm N seed ranges); ARMS (default
# "guided plain"): "guided" runs as `cudiff fuzz --engine libfuzzer` would (the checked-in
# seed inputs corpus/guided/seeds, full-length inputs: -len_control=0 -max_len=4096);
# "guided-short" the same with -max_len=512 (the first ~300 decisions, swarm and skeleton,
# from the bytes, the rest from the seeded tail); "plain" seeds in order (cudiff-libfuzzer
# --baseline-seeds). Writes OUTDIR/<arm>.jsonl (one line per program: time and features), one
# database per arm, OUTDIR/report.html (curves) and OUTDIR/summary.md (table) through
# bench/guided/plot.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
minutes="${1:-30}"
out="${2:-bench/guided/out}"
procs="${3:-1}"
arms="${4:-guided plain}"
seconds=$((minutes * 60))
bin="$out/bin"
rm -rf "$out" && mkdir -p "$bin"
# A copy of the binary, so a rebuild during the run changes nothing.
cp "${CUDIFF_LIBFUZZER:-build/cudiff-libfuzzer}" "$bin/"
fuzzer="$(cd "$bin" && pwd)/cudiff-libfuzzer"

pids=()
for arm in $arms; do
  common=(--db="$out/$arm.db" --features-log="$out/$arm.jsonl" --gpus=none)
  case "$arm" in
  guided | guided-short)
    max_len=4096
    [ "$arm" = guided-short ] && max_len=512
    fork=()
    ((procs > 1)) && fork=(-fork="$procs")
    mkdir -p "$out/$arm-corpus"
    "$fuzzer" "$out/$arm-corpus" corpus/guided/seeds "${common[@]}" -max_total_time="$seconds" -seed=1 \
      -len_control=0 -max_len="$max_len" -timeout=1200 -report_slow_units=1200 -rss_limit_mb=8192 \
      -artifact_prefix="$out/$arm-" -print_final_stats=1 "${fork[@]}" >"$out/$arm.log" 2>&1 &
    pids+=($!)
    ;;
  plain)
    for ((p = 0; p < procs; ++p)); do
      "$fuzzer" "${common[@]}" --baseline-seeds=$((1000000 * (p + 1))) --baseline-time="${seconds}s" \
        >"$out/$arm-$p.log" 2>&1 &
      pids+=($!)
    done
    ;;
  *) echo "run.sh: unknown arm $arm (guided, guided-short, plain)" >&2; exit 2 ;;
  esac
done
wait "${pids[@]}"
python3 bench/guided/plot.py "$out" "$minutes" $arms
