#!/usr/bin/env bash
# Writes each known-bug case's cause key into its case.json: "cause": {"key", "basis", "how"}
# (docs/triage.md, "Cause keys"). cudiff compiles the keys in with the cases, and a reduced
# finding whose cause key is a case's is labelled known with that case (triage reduce).
#
# A case is checked as its case.json says (`cudiff triage cause repro.cu --config CONFIGS --mode
# MODE`) and the cause of its first finding of an expected kind (in the expected stage, where
# one is) is kept. A run-side case (a
# ptxas wrong-code bug needs a GPU to show) may say instead which config's PTX is its cause:
# "cause_from": {"guilty": "nvcc-O3", "kernels": ["dense_0"]}; its key needs no GPU. Cases that
# no longer reproduce, and run-side cases without "cause_from" on a host without a GPU, are
# skipped with a line saying so.
#
# Usage: scripts/known_bug_causes.sh [CASE...]   (from the repository root; CUDIFF= the binary,
# default build/cudiff; every case when none is named). Needs jq. Re-run it after a change of
# the cause normalization (triage::cause_version) or of a case's reproducer.
set -euo pipefail
cudiff="${CUDIFF:-build/cudiff}"
suite=corpus/known-bugs
[ -x "$cudiff" ] || { echo "known_bug_causes.sh: no cudiff at $cudiff (set CUDIFF=)" >&2; exit 2; }
command -v jq > /dev/null || { echo "known_bug_causes.sh: needs jq" >&2; exit 2; }
gpu=0
if command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | grep -q '^GPU'; then gpu=1; fi

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for dir in "$suite"/*/; do cases+=("$(basename "$dir")"); done
fi
status=0
for name in "${cases[@]}"; do
  json="$suite/$name/case.json"
  [ -f "$json" ] || { echo "$name: no $json" >&2; status=2; continue; }
  if [ -n "$(jq -r '.does_not_reproduce // empty' "$json")" ]; then
    echo "$name: skipped (does not reproduce)"
    continue
  fi
  file="$suite/$name/$(jq -r '.file' "$json")"
  guilty="$(jq -r '.cause_from.guilty // empty' "$json")"
  if [ -n "$guilty" ]; then
    kernels="$(jq -r '(.cause_from.kernels // []) | join(",")' "$json")"
    how="cudiff triage cause $(basename "$file") --guilty $guilty${kernels:+ --kernel $kernels}"
    if ! out="$("$cudiff" triage cause "$file" --guilty "$guilty" ${kernels:+--kernel "$kernels"} --json)"; then
      echo "$name: cudiff triage cause failed" >&2; status=1; continue
    fi
    cause="$(jq -c '.causes[0]' <<< "$out")"
  else
    if [ "$(jq -r '.needs_gpu' "$json")" = true ] && [ $gpu -eq 0 ]; then
      echo "$name: skipped (a run-side case without \"cause_from\", and no GPU here)"
      continue
    fi
    configs="$(jq -r '.configs | join(",")' "$json")"
    mode="$(jq -r '.mode // empty' "$json")"
    how="cudiff triage cause $(basename "$file") --config $configs${mode:+ --mode $mode}"
    if ! out="$("$cudiff" triage cause "$file" --config "$configs" ${mode:+--mode "$mode"} --json)"; then
      echo "$name: cudiff triage cause failed" >&2; status=1; continue
    fi
    # Its first finding of an expected kind, in the expected stage where one is.
    cause="$(jq -c --argjson kinds "$(jq -c '.expect.kind | if type == "array" then . else [.] end' "$json")" \
      --arg stage "$(jq -r '.expect.stage // empty' "$json")" \
      '[.causes[] | select(.kind as $k | $kinds | index($k))] | (map(select(.stage == $stage)) + .)[0]' <<< "$out")"
  fi
  if [ "$cause" = null ] || [ -z "$cause" ]; then
    echo "$name: no finding of its expected kind: no cause written" >&2; status=1; continue
  fi
  key="$(jq -r '.key' <<< "$cause")"
  basis="$(jq -r '.basis' <<< "$cause")"
  jq --arg key "$key" --arg basis "$basis" --arg how "$how" '.cause = {key: $key, basis: $basis, how: $how}' \
    "$json" > "$json.tmp" && mv "$json.tmp" "$json"
  echo "$name: $key ($basis)"
done
exit $status
