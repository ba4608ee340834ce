#!/usr/bin/env python3
"""Compile every violation template of the rules catalog with nvcc and clang.

For each checkable E rule of rules/catalog.json that has a "violation", the
fragment is planted at the end of a small valid host file (<cstdio>, <cuda_runtime.h>, a
kernel and main of our own) and compiled with nvcc and with clang++ -x cuda, one compiler
at a time, 60 s each. When the rule also has a "fixed" fragment, that is compiled the same
way and must be accepted by both compilers.

Per rule the JSON output records, for each compiler: accepted or rejected (or timeout), the
first error line, the source lines the errors point at and whether one of them is the
marker's line. Stdout gets a Markdown table and a summary (coverage, reject counts,
disagreements, violations both compilers accept, "fixed" fragments not accepted by both).

usage: verify_catalog.py [--catalog PATH] [--out PATH] [--only ID]... [--keep DIR]
Exit status: 0, or 2 when the catalog is malformed.
"""
import argparse
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


def compilers(nvcc, clang):
    return [
        ("nvcc", [nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-c", "-o", "/dev/null"]),
        ("clang", [clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=/usr/local/cuda",
                   "-Wno-unknown-cuda-version", "-std=c++17", "-c", "-o", "/dev/null"]),
    ]


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
NVCC_LOC_RE = re.compile(r"^(?P<file>[^\s()]+)\((?P<line>\d+)\): (?P<kind>error|catastrophic error|warning)\b")
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


def diagnose(output, path):
    """(first error, first warning, lines of `path` that errors point at); the paths in the
    messages are shortened to their base names."""
    first_error = first_warning = None
    lines = []
    for raw in output.splitlines():
        text = raw.rstrip()
        kind = None
        for regex in (NVCC_LOC_RE, CLANG_LOC_RE):
            m = regex.match(text)
            if m:
                kind = "warning" if m.group("kind") == "warning" else "error"
                if kind == "error" and os.path.basename(m.group("file")) == os.path.basename(path):
                    lines.append(int(m.group("line")))
                break
        if kind is None:
            if TOOL_ERROR_RE.match(text):
                kind = "error"
            elif TOOL_WARNING_RE.match(text):
                kind = "warning"
        short = re.sub(r"(?<![\w.])(?:/[^\s:()/'\"]+)+/", "", text)
        if kind == "error" and first_error is None:
            first_error = short
        elif kind == "warning" and first_warning is None:
            first_warning = short
    return first_error, first_warning, sorted(set(lines))


def run_rule(item, tools, workdir):
    ident = item["id"]
    violation = item["violation"]
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", ident)
    prelude_lines = PRELUDE.count("\n")
    target_line = prelude_lines + marker_line(violation["fragment"], violation["marker"])
    result = {"id": ident, "marker_line": target_line, "violation": {}, "fixed": None}
    variants = [("violation", violation["fragment"])]
    if violation.get("fixed"):
        result["fixed"] = {}
        variants.append(("fixed", violation["fixed"]))
    for variant, fragment in variants:
        path = os.path.join(workdir, f"{safe}.{variant}.cu")
        with open(path, "w") as f:
            f.write(PRELUDE + fragment + ("" if fragment.endswith("\n") else "\n"))
        for name, command in tools:
            status, output, seconds = compile_one(command, path)
            first, warning, lines = diagnose(output, path)
            if status == "reject" and first is None:
                first = next((l.strip() for l in output.splitlines() if l.strip()), "(no output)")
            entry = {"status": status, "first_error": first, "first_warning": warning,
                     "error_lines": lines, "seconds": round(seconds, 2)}
            if variant == "violation":
                entry["at_marker"] = target_line in lines
            result[variant][name] = entry
    fixed = result["fixed"]
    result["fixed_accepted_by_both"] = (None if fixed is None else
                                        all(fixed[name]["status"] == "accept" for name, _ in tools))
    return result


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
    """The first error, or for an accepted fragment the first warning (marked as such)."""
    if entry["first_error"]:
        return strip_location(entry["first_error"])
    return f"(warning: {strip_location(entry['first_warning'])})" if entry.get("first_warning") else ""


def verdict(entry):
    if entry["status"] == "accept":
        return "accept" + (" (warns)" if entry.get("first_warning") else "")
    if entry["status"] == "timeout":
        return "timeout"
    return "reject" + ("" if entry.get("at_marker") else " (elsewhere)")


def report(catalog, results, tools, out):
    e_items = [i for i in catalog if i.get("kind") == "E"]
    checkable = [i for i in e_items if i.get("checkable")]
    with_violation = [i for i in checkable if i.get("violation")]
    names = [name for name, _ in tools]
    print("| rule | nvcc | clang | fixed accepted by both | nvcc first diagnostic | clang first diagnostic |")
    print("|---|---|---|---|---|---|")
    for r in results:
        v = r["violation"]
        fixed = {None: "-", True: "yes", False: "**no**"}[r["fixed_accepted_by_both"]]
        print(f"| {r['id']} | {verdict(v['nvcc'])} | {verdict(v['clang'])} | {fixed} | "
              f"{shorten(first_diagnostic(v['nvcc']))} | {shorten(first_diagnostic(v['clang']))} |")
    print()
    pct = 100.0 * len(with_violation) / len(checkable) if checkable else 0.0
    print(f"E rules: {len(e_items)}; checkable: {len(checkable)}; "
          f"checkable with a violation: {len(with_violation)} ({pct:.1f}%)")
    print(f"violations compiled: {len(results)}")
    for name in names:
        rejected = [r for r in results if r["violation"][name]["status"] == "reject"]
        at = [r for r in rejected if r["violation"][name]["at_marker"]]
        timeouts = [r for r in results if r["violation"][name]["status"] == "timeout"]
        print(f"{name} rejects {len(rejected)}/{len(results)} "
              f"({len(at)} with an error on the marker's line); timeouts: {len(timeouts)}")
    disagree = [r for r in results
                if len({r["violation"][n]["status"] for n in names}) > 1]
    print(f"disagreements ({len(disagree)}):")
    for r in disagree:
        accepting = [n for n in names if r["violation"][n]["status"] == "accept"]
        print(f"  {r['id']}: accepted by {', '.join(accepting) or 'none (timeout)'}")
    both = [r for r in results if all(r["violation"][n]["status"] == "accept" for n in names)]
    print(f"accepted by both ({len(both)}): {', '.join(r['id'] for r in both) or '-'}")
    with_fixed = [r for r in results if r["fixed"] is not None]
    bad_fixed = [r for r in with_fixed if not r["fixed_accepted_by_both"]]
    print(f"fixed fragments: {len(with_fixed)}; not accepted by both ({len(bad_fixed)}):")
    for r in bad_fixed:
        rejecting = [n for n in names if r["fixed"][n]["status"] != "accept"]
        print(f"  {r['id']}: rejected by {', '.join(rejecting)}: "
              f"{shorten(r['fixed'][rejecting[0]]['first_error'], 100)}")
    summary = {
        "e_rules": len(e_items), "checkable": len(checkable),
        "checkable_with_violation": len(with_violation),
        "coverage_percent": round(pct, 1),
        "rejects": {n: sum(r["violation"][n]["status"] == "reject" for r in results) for n in names},
        "rejects_at_marker": {n: sum(bool(r["violation"][n].get("at_marker")) and
                                     r["violation"][n]["status"] == "reject" for r in results)
                              for n in names},
        "disagreements": [{"id": r["id"], "accepted_by": [n for n in names
                                                          if r["violation"][n]["status"] == "accept"]}
                          for r in disagree],
        "accepted_by_both": [r["id"] for r in both],
        "fixed": len(with_fixed),
        "fixed_not_accepted_by_both": [r["id"] for r in bad_fixed],
    }
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"summary": summary, "rules": results}, f, indent=1)
        f.write("\n")
    print(f"wrote {out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--catalog", default=DEFAULT_CATALOG)
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--only", action="append", default=[], metavar="ID",
                        help="verify only this rule (repeatable)")
    parser.add_argument("--keep", metavar="DIR", help="write the test sources here and keep them")
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
    results = []
    with tempfile.TemporaryDirectory(prefix="cudiff-rules-") as tmp:
        workdir = args.keep or tmp
        os.makedirs(workdir, exist_ok=True)
        for n, item in enumerate(selected, 1):
            print(f"[{n}/{len(selected)}] {item['id']}", file=sys.stderr, flush=True)
            results.append(run_rule(item, tools, workdir))
    report(catalog, results, tools, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
