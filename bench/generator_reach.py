#!/usr/bin/env python3
"""What generated programs give the optimizers and ptxas to work on (bench/RESULTS.md,
"Generator reach").

For N programs (seeds FIRST..FIRST+N-1, one size, one policy) it records:
  - distinct PTX opcodes in clang-22 -O3's device PTX (base mnemonic, and with type suffixes)
  - distinct SASS opcodes in nvcc -O3's cubin (cuobjdump -sass; needs no GPU)
  - the share of programs using each family: the compute-dense families the sidecar lists
    (dense_*), and markers in the text (integer intrinsics, inline PTX, shuffles, ...)
  - device compile time per program: nvcc -O3 -cubin and clang -O3 --cuda-device-only -S
Usage: generator_reach.py --cudiff BIN --out DIR [--seeds 200] [--first 1] [--size small]
                          [--policy FILE] [--jobs 2] [--label NAME]
Prints one JSON object (also written to DIR/reach.json).
"""
import argparse, collections, concurrent.futures, json, os, re, subprocess, sys, time

CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")
CLANG = os.environ.get("CUDIFF_CLANG", "clang++-22")

CLANG_REJECTED_PROBES = {"V-EXTLAM-MACRO", "V-EXTLAM-TRAITS", "V-DEFAULTED-FIRSTDECL"}

MARKERS = {
    "integer intrinsic": r"__(byte_perm|funnelshift_|brev|popc|clz|ffs|mulhi|umulhi|mul64hi|umul64hi|sad|usad|hadd|rhadd|uhadd|urhadd|dp4a|dp2a_)",
    "SIMD-in-word intrinsic": r"__v(add|sub|absdiff|cmp|max|min|avg|hadd)[a-z0-9]*\(",
    "inline PTX": r"asm volatile",
    "__int128": r"__int128",
    "warp shuffle": r"__shfl",
    "__reduce_*_sync / __match_*": r"__reduce_|__match_",
    "cooperative groups": r"cooperative_groups",
    "atomic": r"atomic[A-Z]|atomic_ref",
    "break/continue": r"\b(break|continue);",
    "#pragma unroll": r"#pragma unroll",
    "goto": r"\bgoto\b",
    "__managed__": r"__managed__",
    "long double": r"long double",
    "8/16-bit arithmetic": r"\(unsigned (char|short)\)\(\(",
}


def run(argv, **kw):
    start = time.monotonic()
    result = subprocess.run(argv, capture_output=True, text=True, **kw)
    return result, time.monotonic() - start


def ptx_opcodes(ptx):
    full, base = set(), set()
    for line in ptx.splitlines():
        line = line.strip()
        if not line or line.startswith(("//", ".", "{", "}", "$", "(", ")")):
            continue
        if line.startswith("@"):  # a guard: @%p1 or @!%p1
            parts = line.split(None, 1)
            line = parts[1] if len(parts) > 1 else ""
        token = line.split(None, 1)[0].rstrip(";") if line else ""
        if not token or token.endswith(":") or not re.match(r"^[a-z]", token):
            continue
        full.add(token)
        base.add(token.split(".")[0])
    return full, base


def sass_opcodes(sass):
    ops = set()
    for match in re.finditer(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", sass):
        ops.add(match.group(1).split(".")[0])
    return ops


def one(seed, args, work):
    out = os.path.join(work, str(seed))
    os.makedirs(out, exist_ok=True)
    gen = [args.cudiff, "generate", "--seed", str(seed), "--size", args.size, "--out", out]
    if args.policy:
        gen += ["--policy", args.policy]
    result, _ = run(gen)
    if result.returncode != 0:
        return {"seed": seed, "error": "generate: " + result.stderr.strip()}
    name = "cudiff_%012d" % seed
    source = os.path.join(out, name + ".cu")
    text = open(source).read()
    sidecar = json.load(open(os.path.join(out, name + ".json")))
    families = sorted(c for c in sidecar.get("constructs_enabled", []) if c.startswith("dense_"))
    markers = sorted(k for k, pattern in MARKERS.items() if re.search(pattern, text))
    ptx, clang_s = run([CLANG, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + CUDA,
                        "-I" + CUDA + "/include/cccl", "-Wno-unknown-cuda-version", "-std=c++17", "-O3",
                        "--cuda-device-only", "-S", source, "-o", "-"])
    cubin_path = os.path.join(out, name + ".cubin")
    cubin, nvcc_s = run([CUDA + "/bin/nvcc", "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3", "-cubin",
                         source, "-o", cubin_path])
    # A program with a construct a compiler rejects on purpose (generator.h,
    # kConstructsRejectedByACompiler; probes marked clang_rejects) is not held to "built by both".
    used = {c["name"] for c in sidecar.get("constructs_used", [])}
    probes = {p["rule"] for p in sidecar.get("probes", [])}
    rejected = "managed_memory" in used or bool(probes & CLANG_REJECTED_PROBES)
    row = {"seed": seed, "families": families, "markers": markers, "lines": text.count("\n"), "rejected_on_purpose": rejected,
           "clang_device_s": round(clang_s, 3), "nvcc_cubin_s": round(nvcc_s, 3),
           "clang_ok": ptx.returncode == 0, "nvcc_ok": cubin.returncode == 0}
    if ptx.returncode == 0:
        full, base = ptx_opcodes(ptx.stdout)
        row["ptx_full"], row["ptx_base"] = sorted(full), sorted(base)
    if cubin.returncode == 0:
        sass, _ = run([CUDA + "/bin/cuobjdump", "-sass", cubin_path])
        row["sass"] = sorted(sass_opcodes(sass.stdout))
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cudiff", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--size", default="small")
    parser.add_argument("--policy")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    seeds = range(args.first, args.first + args.seeds)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda s: one(s, args, args.out), seeds))
    ok = [r for r in rows if "error" not in r]
    ptx_full = set().union(*(r.get("ptx_full", []) for r in ok))
    ptx_base = set().union(*(r.get("ptx_base", []) for r in ok))
    sass = set().union(*(r.get("sass", []) for r in ok))
    share = collections.Counter()
    for r in ok:
        share.update(r["families"])
        share.update(r["markers"])
    n = len(ok)
    summary = {
        "label": args.label, "programs": n, "size": args.size,
        "built_by_both": sum(1 for r in ok if r["clang_ok"] and r["nvcc_ok"]),
        "rejected_on_purpose": sum(1 for r in ok if r["rejected_on_purpose"]),
        "others_built_by_both": sum(1 for r in ok if not r["rejected_on_purpose"] and r["clang_ok"] and r["nvcc_ok"]),
        "ptx_opcodes": len(ptx_base), "ptx_opcodes_with_types": len(ptx_full), "sass_opcodes": len(sass),
        "mean_nvcc_cubin_s": round(sum(r["nvcc_cubin_s"] for r in ok) / max(n, 1), 3),
        "mean_clang_device_s": round(sum(r["clang_device_s"] for r in ok) / max(n, 1), 3),
        "mean_lines": round(sum(r["lines"] for r in ok) / max(n, 1), 1),
        "share": {k: round(v / max(n, 1), 3) for k, v in sorted(share.items())},
        "errors": [r for r in rows if "error" in r][:5],
    }
    json.dump({"summary": summary, "rows": rows}, open(os.path.join(args.out, "reach.json"), "w"), indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    sys.exit(main())
