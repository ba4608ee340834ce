#!/usr/bin/env python3
"""Curves of what guided (libFuzzer) and plain seeded generation reached over time.

    bench/guided/plot.py OUTDIR MINUTES [ARM...]     (default arms: guided plain)

Reads OUTDIR/<arm>.jsonl (one line per program, written by cudiff-libfuzzer --features-log,
possibly by several processes at once) and writes OUTDIR/report.html (one SVG plot per measure, in
the style of the triage HTML report: inline, no scripts) and OUTDIR/summary.md (the table that
goes into bench/RESULTS.md). Standard library only.
"""
import html
import json
import sys
from pathlib import Path

LABELS = {"guided": ("libFuzzer, guided by the compilers", "#d62728"),
          "guided-short": ("libFuzzer, 512-byte inputs, seeded tail", "#ff7f0e"),
          "plain": ("seeds in order", "#1f77b4")}
ARMS = []  # (arm, label, colour), from the command line
MEASURES = [
    ("diag", "distinct diagnostic ids"),
    ("ptx", "distinct PTX instruction kinds"),
    ("buckets", "distinct buckets (findings)"),
    ("features", "distinct features (all kinds)"),
]


def keys_of(record):
    """The measured things one program showed, per measure."""
    found = {"diag": set(), "ptx": set(), "buckets": set(record.get("new_buckets", [])), "features": set()}
    for name in record["features"]:
        words = name.split(" ")
        found["features"].add(name)
        if words[0] == "diag" and len(words) >= 5:
            found["diag"].add(" ".join(words[2:]))  # tool, severity, id: whichever config printed it
        elif words[0] == "ptx" and len(words) == 3:
            found["ptx"].add(words[2])
        elif words[0] == "bucket" and len(words) == 2:
            found["buckets"].add(words[1])
    return found


def curve(path):
    """[(seconds since start, programs, {measure: distinct count})], one point per program."""
    records = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    if not records:
        return []
    records.sort(key=lambda record: record["time"])  # several processes append to one file
    start = min(record["time"] - record["seconds"] for record in records)
    seen = {m: set() for m, _ in MEASURES}
    points = []
    for n, record in enumerate(records, 1):
        for measure, keys in keys_of(record).items():
            seen[measure] |= keys
        points.append((record["time"] - start, n, {m: len(seen[m]) for m, _ in MEASURES}))
    return points


def at(points, seconds):
    """The point reached at `seconds` (the last one before it)."""
    best = None
    for point in points:
        if point[0] <= seconds:
            best = point
    return best


def svg_plot(title, measure, curves, horizon):
    width, height, left, bottom, top, right = 640, 300, 60, 40, 30, 20
    top_value = max([1] + [p[2][measure] for pts in curves.values() for p in pts])
    x = lambda s: left + (width - left - right) * s / horizon
    y = lambda v: height - bottom - (height - bottom - top) * v / top_value
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">',
             f'<text x="{left}" y="18" font-size="14" font-weight="bold">{html.escape(title)}</text>',
             f'<line x1="{left}" y1="{y(0)}" x2="{width - right}" y2="{y(0)}" stroke="#444"/>',
             f'<line x1="{left}" y1="{y(0)}" x2="{left}" y2="{top}" stroke="#444"/>']
    for i in range(5):
        value = top_value * i / 4
        parts.append(f'<text x="{left - 6}" y="{y(value) + 4}" font-size="11" text-anchor="end">{value:.0f}</text>')
        minute = horizon / 60 * i / 4
        parts.append(f'<text x="{x(minute * 60)}" y="{height - bottom + 16}" font-size="11" text-anchor="middle">{minute:.0f} min</text>')
    for arm, label, colour in ARMS:
        pts = curves.get(arm, [])
        if not pts:
            continue
        path = [f"{x(0):.1f},{y(0):.1f}"]
        last = 0
        for seconds, _, values in pts:
            path.append(f"{x(seconds):.1f},{y(last):.1f}")  # a step: the count holds until it grows
            last = values[measure]
            path.append(f"{x(seconds):.1f},{y(last):.1f}")
        path.append(f"{x(horizon):.1f},{y(last):.1f}")
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(path)}"/>')
    for i, (arm, label, colour) in enumerate(ARMS):
        parts.append(f'<rect x="{left + 10}" y="{top + 6 + 16 * i}" width="12" height="3" fill="{colour}"/>')
        parts.append(f'<text x="{left + 28}" y="{top + 10 + 16 * i}" font-size="11">{html.escape(arm)}: {html.escape(label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def main():
    out, minutes = Path(sys.argv[1]), float(sys.argv[2])
    for arm in sys.argv[3:] or ["guided", "plain"]:
        label, colour = LABELS.get(arm, (arm, "#2ca02c"))
        ARMS.append((arm, label, colour))
    horizon = minutes * 60
    curves = {arm: curve(out / f"{arm}.jsonl") for arm, _, _ in ARMS if (out / f"{arm}.jsonl").exists()}
    checkpoints = [m for m in (1, 5, 10, 15, 20, 30, 45, 60) if m <= minutes]
    if minutes not in checkpoints:
        checkpoints.append(minutes)
    rows = ["| minute | arm | programs | " + " | ".join(label for _, label in MEASURES) + " |",
            "|---|---|---|" + "---|" * len(MEASURES)]
    for minute in checkpoints:
        for arm, _, _ in ARMS:
            point = at(curves.get(arm, []), minute * 60 + 1e-6)
            values = point[2] if point else {m: 0 for m, _ in MEASURES}
            rows.append(f"| {minute:g} | {arm} | {point[1] if point else 0} | " +
                        " | ".join(str(values[m]) for m, _ in MEASURES) + " |")
    final = {arm: (pts[-1] if pts else None) for arm, pts in curves.items()}
    ratio = []
    for arm, _, _ in ARMS:
        if arm == "plain" or not final.get(arm) or not final.get("plain"):
            continue
        for measure, label in MEASURES:
            g, p = final[arm][2][measure], final["plain"][2][measure]
            ratio.append(f"{label}: {arm}/plain = {g}/{p}" + (f" = {g / p:.2f}" if p else ""))
        ratio.append(f"programs: {arm}/plain = {final[arm][1]}/{final['plain'][1]}")
    summary = "\n".join(rows) + "\n\n" + "\n".join(f"- {line}" for line in ratio) + "\n"
    (out / "summary.md").write_text(summary)
    body = "\n".join(f"<figure>{svg_plot(label, measure, curves, horizon)}</figure>" for measure, label in MEASURES)
    table = "<pre>" + html.escape(summary) + "</pre>"
    (out / "report.html").write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>cudiff: guided vs plain generation</title>"
        "<style>body{font-family:sans-serif;margin:2em;max-width:60em}figure{margin:1em 0}</style></head><body>"
        f"<h1>Guided vs plain generation, {minutes:g} minutes each</h1>"
        "<p>The arms ran at once on the same machine, with as many processes each, every program built by "
        "nvcc-O3 and clang-O3 (compile-only). Each curve counts what the programs checked so far made the "
        "compilers show.</p>"
        f"{body}<h2>Table</h2>{table}</body></html>")
    print(summary)


if __name__ == "__main__":
    main()
