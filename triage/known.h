// triage: known differences — the deliberate divergences between the compilers, read from a
// JSON file, that mark matching buckets known.
#pragma once

#include "triage/avoid.h"
#include "triage/signature.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::triage {

// ---- known differences ------------------------------------------------------------------

/// One deliberate divergence between the compilers (docs/triage.md, "Known differences").
struct KnownDifference {
  std::string kind;    ///< a FindingKind name
  std::string side;    ///< "nvcc", "clang", or "*" for either
  std::string id;      ///< a diagnostic id, rule id or layout property the signature carries;
                       ///< "*" matches any, "R-EXTLAM-*" any id with that prefix
  std::string reason;  ///< why it is deliberate, shown as the bucket's known reason
  /// A known-bug case's own matching (corpus/known-bugs, its case.json's "expect"), in place of
  /// `id`: the signature's title contains this, or its key starts with `key_prefix`.
  std::string title_contains, key_prefix;
  /// A known-bug case's cause key (its case.json's "cause", written by
  /// scripts/known_bug_causes.sh): a reduced finding with this cause is that bug, whatever its
  /// signature (match_cause). `link`: the case's upstream report, where it has one.
  std::string cause_key, link;
  /// A known-bug case's guilty stage (its case.json's "expect": "stage"); empty: any.
  std::string stage = {};
  /// Matched by its cause key only, never by its signature: a case whose title names nothing
  /// but which configs differ (a wrong output, a ptxas crash), which every new bug of that
  /// shape shares.
  bool cause_only = false;
};

class KnownDifferences {
public:
  KnownDifferences() = default;
  /// JSON with comments (docs/triage.md); throws Error(usage) naming the file and the problem.
  static KnownDifferences load(const std::filesystem::path& file);
  static KnownDifferences parse(std::string_view text, std::string_view origin);
  /// The project's own knowledge, compiled in from triage/known_differences.json, the
  /// known-bug suite (corpus/known-bugs: each reproducing case's expected kinds with its
  /// title_contains or key_prefix, the reason naming the case) and the rules catalog's verdicts
  /// (a missed diagnostic of a rule whose evidence says the compiler lets it through as a bug
  /// found here, one reported upstream, or a rule wrong as written): applied by every campaign and
  /// check unless --no-known. Throws Error(internal) if it is malformed (a build defect that
  /// tests/unit/triage rules out).
  static KnownDifferences shipped();
  /// These entries, then `more`'s: the first match wins, so the shipped ones come first.
  void add(const KnownDifferences& more);
  /// No knowledge at all (--no-known): not even the rules catalog's dialect entries, which
  /// every other KnownDifferences, empty ones included, applies.
  static KnownDifferences none();
  /// The first entry whose kind, side and id match the signature, if any.
  const KnownDifference* match(const Signature& signature) const;
  /// The known-bug case whose cause key is `cause_key` (docs/triage.md, "Cause keys"), if any.
  const KnownDifference* match_cause(std::string_view cause_key) const;
  /// The known-bug case whose reduced form needs the construct `reduced_source` needs: the avoid
  /// rule derive_avoid finds in it is one knob, narrower than a whole family's share, and it is
  /// the case's avoid rule; the case expects the finding's `kind`, and its stage is `stage`. Two
  /// reductions of one bug seldom end in the same PTX (their cause keys differ: another
  /// harness, other constants), but what the bug needs is the same construct.
  const KnownDifference* match_idiom(std::string_view kind, std::string_view stage,
                                     std::string_view reduced_source) const;
  const std::vector<KnownDifference>& entries() const { return entries_; }
  /// The known-bug suite's avoid rules (docs/triage.md, "Avoid rules"): each confirmed case's
  /// case.json "avoid" (scripts/known_bug_avoid.sh writes it from its reduced reproducer);
  /// shipped() has them, none() and a loaded file none.
  const std::vector<AvoidRule>& avoid_rules() const { return avoid_rules_; }

private:
  std::vector<KnownDifference> entries_;
  std::vector<AvoidRule> avoid_rules_;
  bool dialect_ = true;  ///< a dialect difference is known
};

} // namespace cudiff::triage
