#!/usr/bin/env bash
# Stage attribution on a directory of bare PTX ptxas reproducers (DIR/<case>/reduced.ptx, as a
# public PTX fuzzer files them): for each, a launch description in that fuzzer's convention, then
# `cudiff check reduced.ptx --launch DESC --json` (every ptxas level and, with a GPU, the
# driver's JIT, each module launched in an executor), JOBS at a time; then one line per case
# (finding, stage, the levels that differ from -O0 or fail) and the tally. Nothing is fetched:
# point DIR at a copy of the collection (bench/RESULTS.md, "PTX reproducers", says which).
#
# The convention (the fuzzer's harness and its reduced cases' notes): one block; each `.u64`
# parameter is a buffer of 32 * 4 words of 32 bits, an output (printed, zero-filled) unless its
# name says "in" (an input: 32 words of a fixed pattern); each 32-bit parameter is the harness's
# thread count, n = 32; 512 bytes of dynamic shared memory when the module declares `.extern
# .shared`. The block has the fuzzer's 32 threads (its notes: "launched with 32 threads"); the
# reduced cases that need more than thread 0 store each thread's value at its own address
# (out + tid * 16), so the block's threads do not race. THREADS=1 launches one thread, as
# several cases' standalone reproducers do.
#
#   [THREADS=32] bench/attribution/check_ptx_repros.sh DIR OUT [JOBS]
set -uo pipefail
dir="${1:?usage: check_ptx_repros.sh DIR OUT [JOBS]}"
out="${2:?usage: check_ptx_repros.sh DIR OUT [JOBS]}"
jobs="${3:-4}"
cudiff="${CUDIFF_BIN:-build/cudiff}"
mkdir -p "$out"
python3 - "$dir" "$out" "${THREADS:-32}" <<'PY'
import json, pathlib, re, sys
dir, out, block = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
THREADS, OUTPUTS = 32, 4
for ptx in sorted(dir.glob("*/reduced.ptx")):
    text = ptx.read_text(errors="replace")
    entry = re.search(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\((.*?)\)", text, re.S)
    case = ptx.parent.name
    if not entry:
        (out / f"{case}.launch.err").write_text("no .entry in reduced.ptx\n")
        continue
    params = []
    for kind, name in re.findall(r"\.param\s+\.(\w+)\s+([\w$%]+)", entry.group(2)):
        if kind in ("u64", "b64", "s64"):
            if "in" in name.lower() and "out" not in name.lower():
                fill = [(i * 2654435761 + 1) & 0xFFFFFFFF for i in range(THREADS)]
                params.append({"buffer": name, "element_bytes": 4, "count": THREADS, "fill": fill})
            else:
                params.append({"buffer": name, "element_bytes": 4, "count": THREADS * OUTPUTS, "fill": 0,
                               "print": True})
        else:
            width = {"u8": 1, "s8": 1, "b8": 1, "u16": 2, "s16": 2, "b16": 2, "u32": 4, "s32": 4,
                     "b32": 4, "u64": 8, "s64": 8}.get(kind, 4)
            params.append({"scalar": name, "type": "u" + str(width * 8), "value": THREADS})
    launch = {"kernel": entry.group(1), "grid": [1], "block": [block],
              "shared_bytes": 512 if ".extern .shared" in text else 0, "params": params}
    (out / f"{case}.launch.json").write_text(json.dumps(launch, indent=1) + "\n")
PY
ls "$out"/*.launch.json 2>/dev/null | xargs -r -P "$jobs" -I{} sh -c \
  'd="{}"; n=$(basename "$d" .launch.json); timeout 900 "$0" check "$1/$n/reduced.ptx" --launch "$d" --json > "$2/$n.json" 2> "$2/$n.err"; echo $? > "$2/$n.rc"' \
  "$cudiff" "$dir" "$out"
python3 - "$out" <<'PY'
import json, pathlib, sys, collections
out = pathlib.Path(sys.argv[1])
tally = collections.Counter()
print("case\tfinding\tstage\tlevels that differ")
for path in sorted(out.glob("*.launch.*")):
    name = path.name.split(".launch.")[0]
    report = out / f"{name}.json"
    try:
        check = json.loads(report.read_text())
    except Exception as error:  # no description, or a check that printed no JSON: say so, count it
        why = (out / f"{name}.err").read_text().strip().splitlines() if (out / f"{name}.err").exists() else []
        print(f"{name}\tno report\t-\t{why[-1] if why else error.__class__.__name__}")
        tally["no report"] += 1
        continue
    findings = check["verdict"]["findings"]
    if not findings:
        print(f"{name}\tagree ({check['mode']})\t-\t-")
        tally[f"agree ({check['mode']})"] += 1
        continue
    first = findings[0]
    stage = first["details"].get("stage", "none")
    levels = first["details"].get("departing") or first["details"].get("failing") or first.get("configs", [])
    print(f"{name}\t{first['kind']}\t{stage}\t{','.join(levels)}")
    tally[f"{first['kind']} at {stage}"] += 1
print()
for key, count in sorted(tally.items()):
    print(f"{count}\t{key}")
print(f"{sum(tally.values())}\ttotal")
PY
