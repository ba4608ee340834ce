#!/usr/bin/env bash
# Stage attribution on a directory of ptxas miscompile reproducers (CUDA files whose inline PTX
# ptxas miscompiles at some levels): `cudiff check FILE --json` with the default configs on a
# GPU host, JOBS at a time, then one line per file (its run findings' stages and why) and the
# tally. The reproducers are not part of this repository: point DIR at a copy of a public
# collection (bench/RESULTS.md, "Stage attribution of public ptxas reproducers", says which).
#
#   bench/attribution/check_ptxas_repros.sh DIR OUT [JOBS]
set -uo pipefail
dir="${1:?usage: check_ptxas_repros.sh DIR OUT [JOBS]}"
out="${2:?usage: check_ptxas_repros.sh DIR OUT [JOBS]}"
jobs="${3:-8}"
cudiff="${CUDIFF_BIN:-build/cudiff}"
mkdir -p "$out"
ls "$dir"/*.cu | xargs -P "$jobs" -I{} sh -c \
  'f="{}"; n=$(basename "$f" .cu); timeout 600 "$0" check "$f" --json > "$1/$n.json" 2> "$1/$n.err"; echo $? > "$1/$n.rc"' \
  "$cudiff" "$out"
python3 - "$out" <<'PY'
import json, pathlib, sys, collections
out = pathlib.Path(sys.argv[1])
tally = collections.Counter()
for path in sorted(out.glob("*.json")):
    name = path.stem
    try:
        findings = json.loads(path.read_text())["verdict"]["findings"]
    except Exception as error:  # a check that printed no JSON: say so, count it
        print(f"{name}\tno report ({error.__class__.__name__})")
        tally["no report"] += 1
        continue
    run = [f for f in findings if f["kind"] in ("run_mismatch", "wrong_code", "common_wrong_code", "metamorphic")]
    if not run:
        kinds = ",".join(sorted({f["kind"] for f in findings})) or "agree"
        print(f"{name}\tno run finding ({kinds})")
        tally["no run finding"] += 1
        continue
    stages = sorted({f["details"].get("stage", "none") for f in run})
    why = run[0]["details"].get("stage_why", "")
    print(f"{name}\t{','.join(stages)}\t{why}")
    tally["ptxas" if stages == ["ptxas"] else "other: " + ",".join(stages)] += 1
print()
for key, count in sorted(tally.items()):
    print(f"{count}\t{key}")
PY
