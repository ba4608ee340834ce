#!/usr/bin/env python3
"""The Markdown table of a reducer benchmark (bench/reduce_bench.sh's results.csv).

One row per case: the original size, then each tool's final size (C tokens) and wall time
(a run stopped by the cap counts at the cap, marked "cap"), and whether cudiff met the
issue's target on it: no larger than C-Vise's result, in at most half C-Vise's time. When a
case was run more than once with a tool, the latest run counts.

usage: summarize_reduce.py results.csv
"""
import csv
import sys

TOOLS = [("cudiff", "cudiff"), ("cvise", "C-Vise"), ("creduce", "C-Reduce")]


def cell(run):
    if run is None:
        return "-", "-"
    seconds = float(run["seconds"])
    time = f"{seconds:.0f} s" + (" (cap)" if run["status"] == "capped" else "")
    if run["status"].startswith("failed"):
        time += f" ({run['status']})"
    tokens = run["tokens_after"] + ("" if run["verified"] == "yes" else " (not verified)")
    return tokens, time


def target(runs):
    ours, theirs = runs.get("cudiff"), runs.get("cvise")
    if ours is None or theirs is None:
        return "-"
    small = int(ours["tokens_after"]) <= int(theirs["tokens_after"])
    fast = float(ours["seconds"]) <= float(theirs["seconds"]) / 2
    if small and fast:
        return "met"
    return "missed (" + ", ".join(what for what, ok in (("size", small), ("time", fast)) if not ok) + ")"


def main(path):
    by_case = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            by_case.setdefault(row["case"], {})[row["tool"]] = row
    used = [(key, label) for key, label in TOOLS if any(key in runs for runs in by_case.values())]
    header = ["case", "original tokens"]
    for _, label in used:
        header += [f"{label} tokens", f"{label} time"]
    header.append("target")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name in sorted(by_case):
        runs = by_case[name]
        first = next(iter(runs.values()))
        row = [name, first["tokens_before"]]
        for key, _ in used:
            row += list(cell(runs.get(key)))
        row.append(target(runs))
        print("| " + " | ".join(row) + " |")
    jobs = {r["jobs"] for runs in by_case.values() for r in runs.values()}
    caps = {r["cap_s"] for runs in by_case.values() for r in runs.values()}
    print(f"\njobs {', '.join(sorted(jobs))}; cap {', '.join(sorted(caps))} s per run; sizes in C tokens "
          "(bench/count_tokens.py); \"verified\": the case's test script still accepts the result.")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(sys.argv[1])
