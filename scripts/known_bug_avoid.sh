#!/usr/bin/env bash
# Writes each known-bug case's avoid rule into its case.json: "avoid": {"knobs", "needs", "how"}
# (docs/triage.md, "Avoid rules"). cudiff compiles the rules in with the cases, and a campaign
# that applies the shipped knowledge (no --no-known, no --rediscover) turns those generator
# knobs off, so that it does not find the suite's bugs again.
#
# A case yields a rule when it is confirmed, reproduces, has a cause key (known_bug_causes.sh
# writes it) and one of its expected kinds is not a diagnostic kind; the rule is what
# `cudiff triage avoid derive repro.cu` derives from its reproducer (none for one longer than a
# reduced form, or one that uses no construct of the generator's: the "avoid" entry is removed).
#
# Usage: scripts/known_bug_avoid.sh [CASE...]   (from the repository root; CUDIFF= the binary,
# default build/cudiff; every case when none is named). Needs jq. Re-run it after a change of the
# derivation's table (triage/avoid.cpp) or of a case's reproducer; tests/unit/triage checks that
# every case.json holds what the derivation gives now.
set -euo pipefail
cudiff="${CUDIFF:-build/cudiff}"
suite=corpus/known-bugs
[ -x "$cudiff" ] || { echo "known_bug_avoid.sh: no cudiff at $cudiff (set CUDIFF=)" >&2; exit 2; }
command -v jq > /dev/null || { echo "known_bug_avoid.sh: needs jq" >&2; exit 2; }

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for dir in "$suite"/*/; do cases+=("$(basename "$dir")"); done
fi
status=0
for name in "${cases[@]}"; do
  json="$suite/$name/case.json"
  [ -f "$json" ] || { echo "$name: no $json" >&2; status=2; continue; }
  drop() {
    jq 'del(.avoid)' "$json" > "$json.tmp" && mv "$json.tmp" "$json"
    echo "$name: no rule ($1)"
  }
  if [ "$(jq -r '.confirmed == true and (.does_not_reproduce // "") == "" and (.cause.key // "") != ""' "$json")" != true ]; then
    drop "not confirmed, does not reproduce, or no cause key"; continue
  fi
  if [ "$(jq -r '[.expect.kind] | flatten | map(select(. != "missed_diagnostic" and . != "missed_by_all" and . != "dialect_difference")) | length' "$json")" = 0 ]; then
    drop "a diagnostic kind: made on purpose by an invalid program"; continue
  fi
  file="$suite/$name/$(jq -r '.file' "$json")"
  if ! out="$("$cudiff" triage avoid derive "$file" --json)"; then
    echo "$name: cudiff triage avoid derive failed" >&2; status=1; continue
  fi
  if [ "$(jq -r '.knobs | length' <<< "$out")" = 0 ]; then
    drop "$(jq -r '.why_none' <<< "$out")"; continue
  fi
  jq --argjson knobs "$(jq -c '.knobs' <<< "$out")" --arg needs "$(jq -r '.needs' <<< "$out")" \
    --arg how "cudiff triage avoid derive $(basename "$file")" \
    '.avoid = {knobs: $knobs, needs: $needs, how: $how}' "$json" > "$json.tmp" && mv "$json.tmp" "$json"
  echo "$name: $(jq -c '.knobs' <<< "$out") ($(jq -r '.needs' <<< "$out"))"
done
exit $status
