#!/usr/bin/env bash
# Campaign throughput with every construct on by default: one compile-only campaign (the
# default configs nvcc-O3 and clang-O3, --gpus none) over the same seeds, per cudiff binary and
# policy named on the command line, and what each filed (buckets, known or new).
#
#   bench/defaults_throughput.sh OUT TESTS LABEL=BINARY[:POLICY] ...
#
# e.g. before and after a change of the defaults, with a third run of the old binary under the
# new defaults (what the new constructs cost without batching apart):
#   bench/defaults_throughput.sh /tmp/cudiff-bench-defaults 200 \
#     before=/work/main/build/cudiff after=build/cudiff \
#     old-binary-new-defaults=/work/main/build/cudiff:bench/policies/defaults_on.json
# Each campaign starts at seed 7000 with --batch 8 and --no-reduce; --known marks the shipped
# known differences (triage/known_differences.json) in each database.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$1" tests="$2"
shift 2
rm -rf "$out" && mkdir -p "$out"
for run in "$@"; do
  label="${run%%=*}" spec="${run#*=}"
  binary="${spec%%:*}" policy=""
  [[ "$spec" == *:* ]] && policy="${spec#*:}"
  start=$(date +%s.%N)
  "$binary" fuzz --tests "$tests" --batch 8 --seed 7000 --gpus none --no-reduce --quiet --json \
    --known "$here/triage/known_differences.json" ${policy:+--policy "$policy"} --db "$out/$label.db" \
    > "$out/$label.json" 2> "$out/$label.err"
  end=$(date +%s.%N)
  "$binary" triage list --db "$out/$label.db" --json > "$out/$label.buckets.json" 2>> "$out/$label.err" || true
  echo "$label $start $end" >> "$out/times.txt"
done

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
print("| run | tests | seconds | tests/s | findings | buckets | known | new |")
print("|---|---|---|---|---|---|---|---|")
for line in open(os.path.join(out, "times.txt")):
    label, start, end = line.split()
    s = json.load(open(os.path.join(out, label + ".json")))
    try:
        buckets = json.load(open(os.path.join(out, label + ".buckets.json")))
        if isinstance(buckets, dict): buckets = buckets.get("buckets", [])
    except (OSError, ValueError):
        buckets = []
    known = sum(1 for b in buckets if b.get("status") == "known")
    fresh = sum(1 for b in buckets if b.get("status") == "new")
    print("| %s | %d | %.1f | %.2f | %d | %d | %d | %d |" % (label, s["tests"], s["seconds"], s["tests"] / s["seconds"],
          s["findings"], len(buckets), known, fresh))
    for b in buckets:
        print("|   | bucket | %s | %s | count %s | %s | | |" % (b.get("status"), b.get("kind"), b.get("count"),
              str(b.get("title", ""))[:110].replace("|", "/")))
PY
