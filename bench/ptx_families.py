#!/usr/bin/env python3
"""Which PTX instruction families generated programs reach in clang's NVPTX backend (issue 38's
bar: at least 28 of the first 30 families below in clang++-22 -O3's device PTX of 50 default
programs; the next 3 are generator 0.8.0's, the last 3 0.9.0's; bench/RESULTS.md, "PTX instruction
families").

Generates COUNT programs (`cudiff generate --seed FIRST --count COUNT`, default policy unless
--policy), compiles each with clang++-22 -O3 --cuda-device-only -S for sm_90 (and, with --nvcc,
nvcc -O3 -ptx), and reports per family how many programs' PTX holds one of its opcodes, plus the
distinct typed opcodes (`cvt.rn.f32.s32`) of each compiler, mean lines per program and mean
compile times (wall, so only comparable on the same machine under the same load). An opcode is the first token of an
instruction line, guards (`@%p1`) and inline-asm braces (`{add.f16 ...`) stripped: header inline
asm (cuda_fp16.h) counts, as it is PTX the program hands to ptxas.
Usage: ptx_families.py --cudiff BIN --out DIR [--first 9000] [--count 50] [--policy FILE]
                       [--jobs 2] [--nvcc] [--label NAME]
Prints one JSON object (also written to DIR/families.json); exit 0.
"""
import argparse, concurrent.futures, json, os, re, subprocess, sys, time

CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")
CLANG = os.environ.get("CUDIFF_CLANG", "clang++-22")

INT = r"[bsu](?:8|16|32|64)"
FLOAT = r"f(?:32|64)"
# One regex per family, matched against a whole typed opcode. The first 22 are what default
# programs reached before issue 38; the last 8 are the families it names as missing.
FAMILIES = [
    ("integer add/sub", rf"^(add|sub|addc|subc)(\.cc)?\.{INT}$"),
    ("integer mul.lo/mad.lo", rf"^(mul|mad)\.lo\.{INT}$"),
    ("mul.wide/mul.hi/mad.hi", rf"^(mul|mad)\.(wide|hi)\.{INT}$"),
    ("integer div/rem", rf"^(div|rem)\.{INT}$"),
    ("shifts (shl/shr/shf)", rf"^((shl|shr)\.{INT}|shf\..*)$"),
    ("logic (and/or/xor/not)", r"^(and|or|xor|not|cnot)\.(b16|b32|b64|pred)$"),
    ("integer setp", rf"^setp\.[a-z]+\.{INT}$"),
    ("integer selp", rf"^selp\.{INT}$"),
    ("integer cvt (extend/truncate)", rf"^cvt\.{INT}\.{INT}$"),
    ("integer min/max/abs", rf"^(min|max|abs)\.{INT}$"),
    ("bit counting (popc/clz/brev/bfind)", r"^(popc|clz|brev|bfind)\..*$"),
    ("bit fields and byte permute (bfe/bfi/prmt)", r"^(bfe|bfi|prmt)\..*$"),
    ("global loads", r"^ld\.global\..*$"),
    ("global stores", r"^st\.global\..*$"),
    ("shared memory", r"^(ld|st)\.shared(::cta)?\..*$"),
    ("local memory", r"^(ld|st)\.local\..*$"),
    ("atomics and reductions", r"^(atom|red)\..*$"),
    ("barriers", r"^(bar|barrier)\..*$"),
    ("warp shuffle", r"^shfl\..*$"),
    ("warp vote/match/redux", r"^(vote|match|redux)\..*$"),
    ("fma", rf"^fma\.(rn|rz|rm|rp)(\.ftz)?(\.sat)?\.{FLOAT}$"),
    ("cvt float<->integer", rf"^cvt(\.\w+)?(\.ftz)?(\.sat)?\.({FLOAT}\.{INT}|{INT}\.{FLOAT})$"),
    # -- the 8 families issue 38 found missing
    ("half and bfloat16", r"^.*\.(f16|f16x2|bf16|bf16x2)(\.|$)"),
    ("float div/sqrt/rcp", rf"^(div|sqrt|rcp)\.(rn|rz|rm|rp|approx|full)(\.ftz)?\.{FLOAT}$"),
    ("float setp", rf"^setp\.[a-z]+(\.ftz)?\.{FLOAT}$"),
    ("byte stores to global", r"^st\.global(\.v[24])?\.(u8|s8|b8)$"),
    ("float to double (cvt.f64.f32)", r"^cvt\.f64\.f32$"),
    ("float selp", rf"^selp\.{FLOAT}$"),
    ("float abs/neg", rf"^(abs|neg)(\.ftz)?\.{FLOAT}$"),
    ("float classification (testp/copysign)", rf"^(testp\.\w+|copysign)\.{FLOAT}$"),
    # -- generator 0.8.0's families (dense_jump_table, dense_atomics, dense_generic_pointers)
    ("jump tables (brx.idx)", r"^brx\.idx$"),
    ("scoped atomics (atom.cta/atom.sys)", r"^atom(\.[a-z0-9]+)*?\.(cta|sys)\..*$"),
    ("generic loads/stores", rf"^(ld|st)(\.v[24])?\.({INT}|{FLOAT})$"),
    # -- generator 0.9.0's (dense_fences, dense_cache_hints, dense_padded_structs)
    ("fences (membar/fence)", r"^(membar|fence)\..*$"),
    ("cache-hinted global loads/stores", r"^(ld|st)\.global\.(cs|cg|lu|ca|cv|wt|wb)\..*$"),
    ("sub-word .param (aggregates by value)", r"^(ld|st)\.param(\.v[24])?\.[bsu](8|16)$"),
]


def opcodes(ptx):
    """Distinct typed opcodes of a PTX text: `ld.global.nc.u32`, `cvt.rn.f32.s32`."""
    found = set()
    for line in ptx.splitlines():
        line = line.strip().lstrip("{").strip()
        if line.startswith("@"):
            line = line.split(None, 1)[1] if " " in line else ""
        token = line.split(None, 1)[0].rstrip(";") if line else ""
        if token and re.match(r"^[a-z][a-z0-9]*\.", token) and not token.endswith(":"):
            found.add(token)
        elif token in ("ret", "exit", "trap", "call", "bra"):
            found.add(token)
    return found


def families_of(ops):
    return {name for name, pattern in FAMILIES if any(re.match(pattern, op) for op in ops)}


def compile_ptx(argv):
    start = time.monotonic()
    result = subprocess.run(argv, capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None, result.stderr[-400:], time.monotonic() - start


def one(source, args):
    row = {"program": os.path.basename(source), "lines": open(source).read().count("\n")}
    ptx, err, row["clang_s"] = compile_ptx([CLANG, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + CUDA, "-I" + CUDA + "/include/cccl",
                            "-Wno-unknown-cuda-version", "-std=c++17", "-O3", "--cuda-device-only", "-S", source, "-o", "-"])
    row["clang"] = sorted(opcodes(ptx)) if ptx is not None else None
    if ptx is None:
        row["clang_error"] = err
    if args.nvcc:
        out = source[:-3] + ".nvcc.ptx"
        start = time.monotonic()
        result = subprocess.run([CUDA + "/bin/nvcc", "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3", "-ptx", source,
                                 "-o", out], capture_output=True, text=True)
        row["nvcc_s"] = time.monotonic() - start
        row["nvcc"] = sorted(opcodes(open(out).read())) if result.returncode == 0 else None
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cudiff", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--first", type=int, default=9000)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--policy")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--nvcc", action="store_true", help="also nvcc -O3 -ptx, for its typed opcodes")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    gen = [args.cudiff, "generate", "--seed", str(args.first), "--count", str(args.count), "--out", args.out]
    if args.policy:
        gen += ["--policy", args.policy]
    subprocess.run(gen, check=True, capture_output=True)
    sources = sorted(os.path.join(args.out, f) for f in os.listdir(args.out) if f.endswith(".cu"))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda s: one(s, args), sources))
    built = [r for r in rows if r["clang"] is not None]
    programs_with = {name: 0 for name, _ in FAMILIES}
    for r in built:
        for name in families_of(r["clang"]):
            programs_with[name] += 1
    clang_ops = set().union(*(r["clang"] for r in built)) if built else set()
    summary = {
        "label": args.label,
        "programs": len(rows),
        "built_by_clang": len(built),
        "families_present": sum(1 for n in programs_with.values() if n),
        "first_30_present": sum(1 for name, _ in FAMILIES[:30] if programs_with[name]),
        "families": len(FAMILIES),
        "missing": [name for name, n in programs_with.items() if not n],
        "programs_with_family": programs_with,
        "clang_typed_opcodes": len(clang_ops),
        "mean_lines": round(sum(r["lines"] for r in rows) / max(len(rows), 1), 1),
        "mean_clang_device_s": round(sum(r["clang_s"] for r in rows) / max(len(rows), 1), 2),
    }
    if args.nvcc:
        nvcc_rows = [r for r in rows if r.get("nvcc") is not None]
        nvcc_ops = set().union(*(r["nvcc"] for r in nvcc_rows)) if nvcc_rows else set()
        summary["built_by_nvcc"] = len(nvcc_rows)
        summary["nvcc_typed_opcodes"] = len(nvcc_ops)
        summary["nvcc_families_present"] = len(families_of(nvcc_ops))
        summary["mean_nvcc_ptx_s"] = round(sum(r["nvcc_s"] for r in rows) / max(len(rows), 1), 2)
    json.dump({"summary": summary, "clang_opcodes": sorted(clang_ops), "rows": rows},
              open(os.path.join(args.out, "families.json"), "w"), indent=1)
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
