#!/usr/bin/env python3
"""Compile every violation template of the rules catalog with nvcc and clang, at -O0 and -O3.

For each checkable E rule of rules/catalog.json that has a "violation", the
fragment is planted at the end of a small valid host file (<cstdio>, <cuda_runtime.h>, a
kernel and main of our own) and compiled with nvcc and with clang++ -x cuda, each at -O0 and
-O3 (the levels of cudiff's nvcc-O0/-O3 and clang-O0/-O3 configs: some diagnostics come from
the optimizer or ptxas), 60 s each, --jobs compiles at a time (default 2). When the rule also
has a "fixed" fragment, that is compiled at -O3 by both compilers and must be accepted.

Per rule and config the JSON output records an outcome: `reject` (an error on the marker's
line), `reject_elsewhere` (errors, none on the marker's line), `accept_warns` (accepted, with a
warning on the marker's line: its text says whether it names the construct), `accept`, or
`timeout`; and the first error, the first warning, the warning on the marker's line and the
lines errors point at. The catalog's `evidence` (rules/README.md) is compared with what was
measured: every difference is listed, so the evidence cannot silently go stale. Stdout gets a
Markdown table and a summary.

With --record, the measured outcomes are written into the catalog's `evidence` (each
compiler's O0 and O3, and when and with which versions), keeping every why already there; the
rules where a compiler now lets the violation through without a why are listed, and the build's
catalog check refuses the catalog until a person settles them (rules/README.md, "Evidence").

usage: verify_catalog.py [--catalog PATH] [--out PATH] [--only ID]... [--keep DIR] [--jobs N] [--record]
Exit status: 0; 1 when the measurement contradicts the catalog's evidence (without --record);
2 when the catalog is malformed.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_CATALOG = os.path.join(ROOT, "rules", "catalog.json")
DEFAULT_OUT = os.path.join(ROOT, "out", "rules", "verify.json")
TIMEOUT_S = 60

PRELUDE = """#include <cstdio>
#include <cuda_runtime.h>

__global__ void cudiff_host_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 3 + 1;
}

int main() {
  int *d = nullptr;
  if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess) return 1;
  cudiff_host_kernel<<<2, 32>>>(d, 64);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%d\\n", h[63]);
  cudaFree(d);
  return 0;
}

// ---- planted fragment ----
"""


COMPILERS = ("nvcc", "clang")
LEVELS = ("O0", "O3")
# Outcomes a compiler "diagnoses" the rule with: it refuses the program (anywhere: a ptxas error
# is a rejection too, the late-rejection oracle says which stage).
REJECTING = ("reject", "reject_elsewhere")


def compilers(nvcc, clang):
    """(config name, command) for nvcc-O0, nvcc-O3, clang-O0, clang-O3. The level flags are
    runners/configs.cpp's: nvcc -O0 lowers cicc and ptxas too (plain -O0 is the host's alone)."""
    nvcc_base = [nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-c", "-o", "/dev/null"]
    clang_base = [clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=/usr/local/cuda",
                  "-Wno-unknown-cuda-version", "-std=c++17", "-c", "-o", "/dev/null"]
    return [
        ("nvcc-O0", nvcc_base + ["-O0", "-Xcicc", "-O0", "-Xptxas", "-O0"]),
        ("nvcc-O3", nvcc_base + ["-O3"]),
        ("clang-O0", clang_base + ["-O0"]),
        ("clang-O3", clang_base + ["-O3"]),
    ]


def version_of(command, pattern):
    """The version a compiler prints (`release 13.0, V13.0.88` -> 13.0.88), or '?'."""
    try:
        text = subprocess.run([command, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    m = re.search(pattern, text)
    return m.group(1) if m else "?"


def check_catalog(catalog):
    """The list of problems that make the catalog malformed (empty when it is fine)."""
    problems = []
    if not isinstance(catalog, list):
        return ["the catalog is not a JSON array"]
    seen = set()
    for n, item in enumerate(catalog):
        where = f"item {n}"
        if not isinstance(item, dict):
            problems.append(f"{where}: not an object")
            continue
        ident = item.get("id")
        if not isinstance(ident, str) or not ident:
            problems.append(f"{where}: no id")
            continue
        where = ident
        if ident in seen:
            problems.append(f"{where}: duplicate id")
        seen.add(ident)
        if item.get("kind") not in ("V", "E", "U"):
            problems.append(f"{where}: kind is not V, E or U")
        for key in ("section", "text"):
            if not isinstance(item.get(key), str) or not item.get(key):
                problems.append(f"{where}: no {key}")
        if "example" in item and not isinstance(item["example"], str):
            problems.append(f"{where}: example is not a string")
        if item.get("kind") != "E":
            for key in ("checkable", "why_not", "violation"):
                if key in item:
                    problems.append(f"{where}: {key} on a non-E item")
            continue
        if not isinstance(item.get("checkable"), bool):
            problems.append(f"{where}: E item without a boolean checkable")
            continue
        if not item["checkable"]:
            if not isinstance(item.get("why_not"), str) or not item["why_not"]:
                problems.append(f"{where}: not checkable but no why_not")
            if "violation" in item:
                problems.append(f"{where}: violation on a rule that is not checkable")
            continue
        violation = item.get("violation")
        if violation is None:
            continue
        if not isinstance(violation, dict):
            problems.append(f"{where}: violation is not an object")
            continue
        fragment, marker = violation.get("fragment"), violation.get("marker")
        if not isinstance(fragment, str) or not fragment:
            problems.append(f"{where}: violation without fragment")
            continue
        if not isinstance(marker, str) or not marker:
            problems.append(f"{where}: violation without marker")
            continue
        if fragment.count(marker) != 1:
            problems.append(f"{where}: marker occurs {fragment.count(marker)} times in the fragment")
        else:
            line = fragment.split("\n")[marker_line(fragment, marker) - 1]
            if f"// expected-error: {ident}" not in line:
                problems.append(f"{where}: the marker's line lacks '// expected-error: {ident}'")
        fixed = violation.get("fixed")
        if fixed is not None and (not isinstance(fixed, str) or not fixed):
            problems.append(f"{where}: fixed is not a non-empty string")
        elif fixed is not None and "expected-error" in fixed:
            problems.append(f"{where}: fixed still carries an expected-error comment")
    return problems


def marker_line(fragment, marker):
    """1-based line of the fragment on which the marker starts."""
    return fragment[: fragment.index(marker)].count("\n") + 1


# Diagnostics with a location: nvcc/EDG "file(12): error: ..." and clang/gcc
# "file:12:5: error: ...". Location-less ones: "ptxas fatal : ...", "ptxas ... error : ...",
# "fatal error: ...", "clang++-22: error: ...". Source echoes (which carry the fragment's
# "// expected-error" comment) never match: they do not start with a location or a tool name.
NVCC_LOC_RE = re.compile(r"^(?P<file>[^\s()]+)\((?P<line>\d+)\): (?P<kind>[Ee]rror|catastrophic error|warning)\b")
CLANG_LOC_RE = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):\d+: (?P<kind>error|fatal error|warning)\b")
TOOL_ERROR_RE = re.compile(r"^(?:(?:ptxas|nvlink|fatbinary|cicc|nvcc|clang(?:\+\+)?(?:-\d+)?|ld)\b.*?\b(?:error|fatal)\b"
                           r"|(?:fatal error|error|Error|catastrophic error)\s*:)")
TOOL_WARNING_RE = re.compile(r"^(?:(?:ptxas|nvlink|cicc|nvcc|clang(?:\+\+)?(?:-\d+)?)\b.*?\bwarning\b|Warning #)")


def compile_one(command, path):
    """(status, output, seconds): status is 'accept', 'reject' or 'timeout'."""
    start = time.monotonic()
    try:
        done = subprocess.run(command + [path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=TIMEOUT_S, text=True, errors="replace")
    except subprocess.TimeoutExpired as expired:
        output = expired.output or ""
        if isinstance(output, bytes):
            output = output.decode("utf-8", "replace")
        return "timeout", output, time.monotonic() - start
    status = "accept" if done.returncode == 0 else "reject"
    return status, done.stdout, time.monotonic() - start


def diagnose(output, path, marker_line_no=0):
    """(first error, first warning, lines of `path` that errors point at, first warning on
    `marker_line_no`); the paths in the messages are shortened to their base names."""
    marker_text = ""
    if marker_line_no > 0 and os.path.exists(path):
        with open(path) as f:
            source_lines = f.read().splitlines()
        if marker_line_no <= len(source_lines):
            marker_text = source_lines[marker_line_no - 1]
    first_error = first_warning = marker_warning = None
    lines = []
    for raw in output.splitlines():
        text = raw.rstrip()
        kind = None
        for regex in (NVCC_LOC_RE, CLANG_LOC_RE):
            m = regex.match(text)
            if m:
                kind = "warning" if m.group("kind") == "warning" else "error"
                here = os.path.basename(m.group("file")) == os.path.basename(path)
                if kind == "error" and here:
                    lines.append(int(m.group("line")))
                if (kind == "warning" and here and marker_warning is None
                        and int(m.group("line")) == marker_line_no):
                    marker_warning = re.sub(r"(?<![\w.])(?:/[^\s:()/'\"]+)+/", "", text)
                break
        if kind is None:
            if TOOL_ERROR_RE.match(text):
                kind = "error"
            elif TOOL_WARNING_RE.match(text):
                kind = "warning"
                # A tool behind the front end (ptxas) names no line: its warning stands for
                # the marker's line when it quotes a name that line declares.
                quoted = re.findall(r"'([A-Za-z_]\w*)'", text)
                if marker_warning is None and marker_text and any(
                        re.search(rf"\b{re.escape(q)}\b", marker_text) for q in quoted):
                    marker_warning = text
        short = re.sub(r"(?<![\w.])(?:/[^\s:()/'\"]+)+/", "", text)
        if kind == "error" and first_error is None:
            first_error = short
        elif kind == "warning" and first_warning is None:
            first_warning = short
    return first_error, first_warning, sorted(set(lines)), marker_warning


def outcome(status, at_marker, marker_warning):
    """One config's outcome on a violation (see the module's docstring)."""
    if status == "timeout":
        return "timeout"
    if status == "reject":
        return "reject" if at_marker else "reject_elsewhere"
    return "accept_warns" if marker_warning else "accept"


def compile_entry(command, path, target_line):
    status, output, seconds = compile_one(command, path)
    first, warning, lines, marker_warning = diagnose(output, path, target_line)
    if status == "reject" and first is None:
        first = next((l.strip() for l in output.splitlines() if l.strip()), "(no output)")
    return {"status": status, "first_error": first, "first_warning": warning,
            "marker_warning": marker_warning, "error_lines": lines, "seconds": round(seconds, 2)}


def plan_rule(item, workdir):
    """The sources of one rule, written to `workdir`: [(variant, path)] and the marker's line."""
    ident = item["id"]
    violation = item["violation"]
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", ident)
    target_line = PRELUDE.count("\n") + marker_line(violation["fragment"], violation["marker"])
    variants = [("violation", violation["fragment"])]
    if violation.get("fixed"):
        variants.append(("fixed", violation["fixed"]))
    paths = []
    for variant, fragment in variants:
        path = os.path.join(workdir, f"{safe}.{variant}.cu")
        with open(path, "w") as f:
            f.write(PRELUDE + fragment + ("" if fragment.endswith("\n") else "\n"))
        paths.append((variant, path))
    return paths, target_line


def measure(selected, tools, workdir, jobs):
    """Every compile of every selected rule, `jobs` at a time; results in catalog order."""
    # A fixed form is compiled at -O3 alone (the default configs): it must be accepted, and the
    # level does not change that; the violation is compiled at every level, since it can.
    fixed_tools = [(name, command) for name, command in tools if name.endswith("-O3")]
    tasks, plans = [], []
    for item in selected:
        paths, target_line = plan_rule(item, workdir)
        plans.append((item, target_line, paths))
        for variant, path in paths:
            for name, command in (tools if variant == "violation" else fixed_tools):
                tasks.append((item["id"], variant, name, command, path, target_line))
    done = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(compile_entry, command, path, line): (ident, variant, name)
                   for ident, variant, name, command, path, line in tasks}
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            done[futures[future]] = future.result()
            if n % 20 == 0 or n == len(tasks):
                print(f"[{n}/{len(tasks)} compiles]", file=sys.stderr, flush=True)
    results = []
    for item, target_line, paths in plans:
        ident = item["id"]
        result = {"id": ident, "marker_line": target_line, "violation": {}, "fixed": None}
        for name, _ in tools:
            entry = done[(ident, "violation", name)]
            entry["at_marker"] = target_line in entry["error_lines"]
            entry["outcome"] = outcome(entry["status"], entry["at_marker"], entry["marker_warning"])
            result["violation"][name] = entry
        if len(paths) > 1:
            result["fixed"] = {name: done[(ident, "fixed", name)] for name, _ in fixed_tools}
        fixed = result["fixed"]
        result["fixed_accepted_by_both"] = (None if fixed is None else
                                            all(e["status"] == "accept" for e in fixed.values()))
        results.append(result)
    return results


def strip_location(text):
    """A diagnostic without its leading 'file(12): ' / 'file:12:5: ' and kind word."""
    text = re.sub(r"^\S+?\.(?:cu|c|cpp|ii)(?:\(\d+\)|:\d+(?::\d+)?):\s*", "", text)
    return re.sub(r"^warning\s*(?:#\S+)?:\s*", "", text)


def shorten(text, limit=70):
    if not text:
        return ""
    text = text.replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def first_diagnostic(entry):
    """The first error, or for an accepted fragment the warning on the marker's line, else the
    first warning (marked as such)."""
    if entry["first_error"]:
        return strip_location(entry["first_error"])
    warning = entry.get("marker_warning") or entry.get("first_warning")
    return f"(warning: {strip_location(warning)})" if warning else ""


def compiler_outcomes(result, compiler):
    """{level: outcome} of one compiler on one rule's violation."""
    return {level: result["violation"][f"{compiler}-{level}"]["outcome"] for level in LEVELS}


def diagnoses(result, compiler):
    return all(o in REJECTING for o in compiler_outcomes(result, compiler).values())


def evidence_differences(catalog, results):
    """Where the catalog's evidence says another outcome than this run measured, or is missing."""
    by_id = {item["id"]: item for item in catalog}
    differences = []
    for r in results:
        evidence = by_id[r["id"]].get("evidence")
        if not isinstance(evidence, dict):
            differences.append(f"{r['id']}: no evidence in the catalog")
            continue
        for compiler in COMPILERS:
            recorded = evidence.get(compiler) or {}
            for level, measured in compiler_outcomes(r, compiler).items():
                if recorded.get(level) != measured:
                    differences.append(f"{r['id']}: {compiler} -{level} measured {measured}, "
                                       f"the catalog says {recorded.get(level)}")
    return differences


def report(catalog, results, tools, out, versions, jobs):
    e_items = [i for i in catalog if i.get("kind") == "E"]
    checkable = [i for i in e_items if i.get("checkable")]
    with_violation = [i for i in checkable if i.get("violation")]
    names = [name for name, _ in tools]
    measured_on = datetime.date.today().isoformat()
    print(f"Measured {measured_on} with nvcc {versions['nvcc']} and clang {versions['clang']}, "
          f"configs {', '.join(names)}, {jobs} compile(s) at a time.")
    print()
    print("| rule | " + " | ".join(names) + " | fixed accepted by both | nvcc first diagnostic | "
          "clang first diagnostic |")
    print("|---|" + "---|" * len(names) + "---|---|---|")
    for r in results:
        v = r["violation"]
        fixed = {None: "-", True: "yes", False: "**no**"}[r["fixed_accepted_by_both"]]
        print(f"| {r['id']} | " + " | ".join(v[n]["outcome"] for n in names) + f" | {fixed} | "
              f"{shorten(first_diagnostic(v['nvcc-O3']))} | {shorten(first_diagnostic(v['clang-O3']))} |")
    print()
    pct = 100.0 * len(with_violation) / len(checkable) if checkable else 0.0
    print(f"E rules: {len(e_items)}; checkable: {len(checkable)}; "
          f"checkable with a violation: {len(with_violation)} ({pct:.1f}%)")
    print(f"violations compiled: {len(results)}")
    outcome_names = ("reject", "reject_elsewhere", "accept_warns", "accept", "timeout")
    for name in names:
        counts = {o: sum(r["violation"][name]["outcome"] == o for r in results) for o in outcome_names}
        print(f"{name}: " + ", ".join(f"{o} {counts[o]}" for o in outcome_names))
    level_split = [r for r in results for c in COMPILERS
                   if len({r["violation"][f"{c}-{l}"]["status"] for l in LEVELS}) > 1]
    print(f"accepted at one level and rejected at the other ({len(level_split)}): "
          f"{', '.join(r['id'] for r in level_split) or '-'}")
    for compiler in COMPILERS:
        missed = [r for r in results if not diagnoses(r, compiler)]
        print(f"not diagnosed by {compiler} at every level ({len(missed)}): "
              f"{', '.join(r['id'] for r in missed) or '-'}")
    both = [r for r in results if not any(diagnoses(r, c) for c in COMPILERS)]
    print(f"diagnosed by neither ({len(both)}): {', '.join(r['id'] for r in both) or '-'}")
    with_fixed = [r for r in results if r["fixed"] is not None]
    bad_fixed = [r for r in with_fixed if not r["fixed_accepted_by_both"]]
    print(f"fixed fragments: {len(with_fixed)}; not accepted by both ({len(bad_fixed)}):")
    for r in bad_fixed:
        rejecting = [n for n, e in r["fixed"].items() if e["status"] != "accept"]
        print(f"  {r['id']}: rejected by {', '.join(rejecting)}: "
              f"{shorten(r['fixed'][rejecting[0]]['first_error'], 100)}")
    differences = evidence_differences(catalog, results)
    print(f"differences from the catalog's evidence ({len(differences)}):")
    for d in differences:
        print(f"  {d}")
    summary = {
        "measured_on": measured_on, "nvcc_version": versions["nvcc"], "clang_version": versions["clang"],
        "configs": names, "jobs": jobs,
        "e_rules": len(e_items), "checkable": len(checkable),
        "checkable_with_violation": len(with_violation),
        "coverage_percent": round(pct, 1),
        "outcomes": {n: {o: sum(r["violation"][n]["outcome"] == o for r in results) for o in outcome_names}
                     for n in names},
        "diagnosed_by": {c: sum(diagnoses(r, c) for r in results) for c in COMPILERS},
        "diagnosed_by_neither": [r["id"] for r in both],
        "level_split": sorted({r["id"] for r in level_split}),
        "fixed": len(with_fixed),
        "fixed_not_accepted_by_both": [r["id"] for r in bad_fixed],
        "evidence_differences": differences,
    }
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"summary": summary, "rules": results}, f, indent=1)
        f.write("\n")
    print(f"wrote {out}")
    return differences


# Key order of a compiler's evidence in the catalog: the measurement, then why and its proof.
EVIDENCE_KEYS = ("O0", "O3", "why", "reason", "url", "searched", "warning")


def record(catalog, results, versions, path):
    """Writes the measured outcomes into the catalog's evidence (keeping the whys); returns the
    rules and compilers that now need a why."""
    by_id = {item["id"]: item for item in catalog}
    measured = f"{datetime.date.today().isoformat()}, nvcc {versions['nvcc']}, clang {versions['clang']}"
    unsettled = []
    for r in results:
        item = by_id[r["id"]]
        old = item.get("evidence") or {}
        evidence = {"measured": measured}
        for compiler in COMPILERS:
            entry = dict(old.get(compiler) or {})
            entry.update(compiler_outcomes(r, compiler))
            evidence[compiler] = {k: entry[k] for k in EVIDENCE_KEYS if k in entry}
            if not diagnoses(r, compiler) and not entry.get("why"):
                unsettled.append(f"{r['id']} ({compiler})")
        item["evidence"] = evidence
    with open(path, "w") as f:
        f.write(json.dumps(catalog, indent=2, ensure_ascii=False) + "\n")
    return unsettled


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--catalog", default=DEFAULT_CATALOG)
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--only", action="append", default=[], metavar="ID",
                        help="verify only this rule (repeatable)")
    parser.add_argument("--keep", metavar="DIR", help="write the test sources here and keep them")
    parser.add_argument("--jobs", type=int, default=2, help="compiles at a time (default 2)")
    parser.add_argument("--record", action="store_true",
                        help="write the measured outcomes into the catalog's evidence")
    parser.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    parser.add_argument("--clang", default="clang++-22")
    args = parser.parse_args()

    try:
        with open(args.catalog) as f:
            catalog = json.load(f)
    except (OSError, ValueError) as err:
        print(f"cannot read the catalog {args.catalog}: {err}", file=sys.stderr)
        return 2
    problems = check_catalog(catalog)
    if problems:
        for p in problems:
            print(f"malformed catalog: {p}", file=sys.stderr)
        return 2

    ids = {item["id"] for item in catalog}
    for ident in args.only:
        if ident not in ids:
            print(f"warning: --only {ident}: no such rule in the catalog", file=sys.stderr)
    selected = [i for i in catalog if i.get("kind") == "E" and i.get("checkable") and i.get("violation")
                and (not args.only or i["id"] in args.only)]
    tools = compilers(args.nvcc, args.clang)
    versions = {"nvcc": version_of(args.nvcc, r"V(\d+\.\d+\.\d+)"),
                "clang": version_of(args.clang, r"clang version (\d+\.\d+\.\d+)")}
    with tempfile.TemporaryDirectory(prefix="cudiff-rules-") as tmp:
        workdir = args.keep or tmp
        os.makedirs(workdir, exist_ok=True)
        results = measure(selected, tools, workdir, max(1, args.jobs))
    differences = report(catalog, results, tools, args.out, versions, max(1, args.jobs))
    if args.record:
        unsettled = record(catalog, results, versions, args.catalog)
        print(f"recorded the measurement in {args.catalog}; not diagnosed and no why ({len(unsettled)}): "
              f"{', '.join(unsettled) or '-'}")
        return 0
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
