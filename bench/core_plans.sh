#!/usr/bin/env bash
# How many kernels carry a launch plan, and how many programs take the device path where their
# binaries run (docs/pipeline.md, "Build paths"): COUNT programs of each size from SEED on, of
# POLICY (the default policy when none), generated with `cudiff generate` and read from their
# sidecars. No compiler or GPU needed.
#
#   bench/core_plans.sh CUDIFF [COUNT] [SEED] [POLICY]
#
# Prints, per size and in all: the core kernels and those with a plan, the compute-dense kernels
# (always planned), the programs whose kernels are all planned, and of those the programs with no
# host side besides the harness (pipeline/device_build.cpp's host_side_of, and no __managed__):
# the ones `--build-path device` runs as cubins. "before" is the same without core kernels' plans
# (only compute-dense kernels had one).
set -euo pipefail
cudiff=$1 count=${2:-100} seed=${3:-9000} policy=${4:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for size in small medium; do
  "$cudiff" generate --seed "$seed" --count "$count" --size "$size" ${policy:+--policy "$policy"} \
    --out "$out/$size" > /dev/null
done
python3 - "$out" <<'PY'
import glob, json, os, sys
root = sys.argv[1]
host_side = {"extended_lambda", "managed_memory"}
totals = {}
for size in ("small", "medium"):
    t = dict(programs=0, core=0, core_planned=0, dense=0, all_planned=0, all_before=0, device=0, device_before=0)
    for path in sorted(glob.glob(os.path.join(root, size, "*.json"))):
        sidecar = json.load(open(path))
        source = open(path[:-5] + ".cu").read()
        kernels = sidecar.get("kernels", [])
        t["programs"] += 1
        core = [k for k in kernels if not k["name"].split("/")[-1].startswith("dense_")]
        t["core"] += len(core)
        t["core_planned"] += sum(1 for k in core if "launch" in k)
        t["dense"] += len(kernels) - len(core)
        planned = all("launch" in k for k in kernels)
        before = planned and not core
        harness = not (sidecar.get("layout_probes") or sidecar.get("probes") or sidecar.get("edge")
                       or any(c["name"] in host_side for c in sidecar.get("constructs_used", []))
                       or "__managed__" in source)
        t["all_planned"] += planned
        t["all_before"] += before
        t["device"] += planned and harness
        t["device_before"] += before and harness
    totals[size] = t
totals["all"] = {key: sum(t[key] for t in list(totals.values())) for key in totals["small"]}
for size, t in totals.items():
    print(f"{size:6} programs {t['programs']:4}  core kernels {t['core']:5}, planned {t['core_planned']:5} (before 0)"
          f"  dense kernels {t['dense']:4}  all kernels planned: {t['all_planned']:4} programs (before {t['all_before']})"
          f"  device path: {t['device']:4} (before {t['device_before']})")
PY
