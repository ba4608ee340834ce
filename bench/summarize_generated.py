#!/usr/bin/env python3
"""Summarizes bench/generated_programs.sh: acceptance, disagreements, coverage, speed (Markdown)."""
import collections
import glob
import json
import os
import sys


def main():
    out, check_seconds, mode = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    gen = json.load(open(os.path.join(out, "generate.json")))
    sidecars = sorted(glob.glob(os.path.join(out, "programs", "*.json")))
    n = len(sidecars)
    coverage = collections.Counter()
    sizes = []
    agree = 0
    both_accept = 0
    problems = []
    runs = runs_as_predicted = 0
    for sidecar_path in sidecars:
        name = os.path.basename(sidecar_path)[:-5]
        sidecar = json.load(open(sidecar_path))
        for construct in sidecar.get("constructs_used", []):
            coverage[construct["name"] if isinstance(construct, dict) else construct] += 1
        sizes.append(os.path.getsize(os.path.join(out, "programs", name + ".cu")))
        check_path = os.path.join(out, "checks", name + ".json")
        exit_code = int(open(os.path.join(out, "checks", name + ".exit")).read().strip() or 2)
        try:
            check = json.load(open(check_path))
        except (OSError, ValueError):
            problems.append((name, "cudiff error: " + open(os.path.join(out, "checks", name + ".err")).read().strip()))
            continue
        outcomes = [c["observation"]["outcome"] for c in check["configs"]]
        # The generator's own prediction: a third opinion that catches its own defects.
        predicted = [f"checksum {k['name']} {k['expected_checksum']}" for k in sidecar.get("kernels", [])]
        for config in check["configs"]:
            if "run" in config:
                runs += 1
                printed = [l for l in config["run"]["output_lines"] if l.startswith("checksum ")]
                if printed == predicted:
                    runs_as_predicted += 1
                else:
                    problems.append((name, f"{config['config']} printed {printed}, generator predicted {predicted}"))
        if all(o == "accepted" for o in outcomes):
            both_accept += 1
        if exit_code == 0 and all(o == "accepted" for o in outcomes):
            agree += 1
        else:
            problems.append((name, check["verdict"].get("headline", "")))
    print(f"programs: {n}, mode: {mode}")
    print(f"accepted by both compilers: {both_accept}/{n} = {100.0 * both_accept / max(n, 1):.1f}%")
    print(f"accepted by both and agreeing (incl. run checksums in run mode): {agree}/{n} = {100.0 * agree / max(n, 1):.1f}%")
    if runs:
        print(f"runs printing the generator's predicted checksums: {runs_as_predicted}/{runs}")
    print(f"generation: {n / gen['seconds']:.1f} programs/s ({gen['seconds']:.2f} s for {n}); "
          f"mean size {sum(sizes) / max(n, 1) / 1024:.1f} KiB")
    print(f"checking: {check_seconds:.0f} s, {n / check_seconds:.2f} programs/s")
    print("\n| construct | programs using it |\n|---|---|")
    for construct, count in sorted(coverage.items()):
        print(f"| {construct} | {count} |")
    if problems:
        print("\nnot accepted by both or disagreeing:")
        for name, what in problems:
            print(f"- {name}: {what}")


if __name__ == "__main__":
    main()
