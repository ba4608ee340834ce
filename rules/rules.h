// rules: the CUDA C++ rules catalog (rules/catalog.json, the rules text of rules/spec/rules.md
// as data), compiled into the binary: every rule with its kind, its text and, where there is
// one, the fragment that breaks it (E rules) or exercises it (V rules).
//
// Contract: rule_catalog() is the catalog in rules.md's order, the same on every call; the data
// is read-only and knows nothing about how programs are generated, compiled or scanned (the
// generator plants its fragments, ubscan looks for its U rules, `cudiff rules` lists them).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::rules {

/// E: a violation must be diagnosed; V: a construct valid programs use; U: undefined,
/// unspecified or run-time-only behaviour, which generated programs stay clear of.
enum class RuleKind { must_reject, valid, undefined };
/// "E", "V", "U", as the catalog spells them.
std::string to_string(RuleKind kind);
/// The kind spelled "E", "V" or "U"; none for anything else.
std::optional<RuleKind> parse_rule_kind(std::string_view text);

/// A fragment that breaks one E rule and nothing else: plantable at namespace scope of any
/// translation unit that includes <cstdio> and <cuda_runtime.h>; every name it declares starts
/// with cudiff_edge_; the offending line holds `marker` and ends in `// expected-error: ID`.
struct RuleViolation {
  std::string fragment;
  std::string marker;
  std::string fixed;  ///< the same fragment without the violation; empty where there is none
};

/// A fragment that exercises one V rule, planted by the generator and called on live values
/// (rules/README.md, "Probes"): `unsigned long long <function>(unsigned long long x)` returns x
/// exactly when the construct behaves as the guide says. Every name it declares starts with
/// `function`; it can sit at namespace scope of any namespace, more than once.
struct RuleProbe {
  bool host = false;  ///< a host function called once from host code, else a __device__ one
  std::vector<std::string> headers;  ///< e.g. "<utility>"
  std::string fragment;
  std::string function;       ///< "cudiff_vp_<rule id>"
  std::string clang_rejects;  ///< why clang-22 rejects it on purpose: such probes are off by default
  std::string nvcc_rejects;   ///< nvcc's diagnostic, where nvcc rejects it
};

/// An E rule a compiler relaxes on purpose (its CUDA dialect), with the compiler's own
/// documentation: a missed diagnostic of this rule by that compiler is a dialect difference,
/// not a bug (docs/rules.md, "Dialect").
struct RuleDialect {
  std::string compiler;  ///< "clang" or "nvcc": the compiler that accepts on purpose
  /// "documented": the documentation names the behaviour; "compilation model": the guide ties the
  /// rule to nvcc's split compilation and clang documents its merged parsing as the source of
  /// its differences from nvcc.
  std::string basis;
  std::string reason;  ///< one sentence for people
  std::string documentation_title;
  std::string documentation_url;
  std::string documentation_quote;  ///< verbatim
};

/// One compiler on one E rule's violation, measured (bench/rules/verify_catalog.py) at -O0 and
/// -O3, and, where it does not diagnose the rule, why (catalog key `evidence`, rules/README.md).
struct CompilerEvidence {
  std::string compiler;  ///< "nvcc" or "clang"
  /// Per level: "reject" (an error on the marker's line), "reject_elsewhere", "accept_warns" (a
  /// warning on the marker's line), "accept" or "timeout".
  std::string at_o0, at_o3;
  /// Empty when it rejects at both levels; else "dialect" (the rule's `dialect` entry cites the
  /// relaxation), "rule_wrong", "upstream" (a public issue: `url`), "bug" (none found:
  /// `searched`) or "warning" (its warning on the marker's line, `warning`, is the diagnostic
  /// the guide asks for).
  std::string why;
  std::string reason;    ///< one sentence for people, with every `why`
  std::string url;       ///< upstream: the issue
  std::string searched;  ///< bug: where and for what an issue was looked for
  std::string warning;   ///< warning: the warning's text, verbatim
  /// Rejects at both levels (at the marker's line or elsewhere).
  bool diagnoses() const;
};

/// What each compiler does with an E rule's violation and why: every checkable E rule has it.
struct RuleEvidence {
  std::string measured;  ///< when and with which compiler versions: "2026-11-27, nvcc 13.0.88, clang 22.1.8"
  CompilerEvidence nvcc, clang;
  /// The evidence of "nvcc" or "clang"; null for any other name.
  const CompilerEvidence* of(std::string_view compiler) const;
};

struct Rule {
  std::string id;  ///< e.g. "R-HOSTEXT-COMPLEX", "V-MANAGED-VAR"
  RuleKind kind = RuleKind::valid;
  std::string section;  ///< where the guide says it
  std::string text;
  std::string example;  ///< the guide's own example, if any
  bool checkable = false;               ///< E rules: a compiler can diagnose it at compile time
  std::string why_not_checkable;        ///< E rules that are not
  std::optional<RuleViolation> violation;  ///< checkable E rules
  std::optional<RuleProbe> probe;          ///< V rules the generator exercises through a probe
  std::string not_producible;              ///< V rules no program here can exercise: why
  std::optional<RuleDialect> dialect;      ///< E rules a compiler relaxes on purpose
  std::optional<RuleEvidence> evidence;    ///< checkable E rules (and rules made uncheckable by it)
};

/// Every rule, in the catalog's order. Parses the compiled-in catalog on every call; throws
/// Error(environment) if it is malformed (a build defect: the build checks the catalog with
/// rules/check_catalog.cpp, and tests/unit/rules checks that it never is).
std::vector<Rule> rule_catalog();
/// The catalog in `json` (the text of a catalog.json). Throws Error(environment), naming the
/// rule, for a malformed entry: among others, a checkable E rule without evidence, a compiler
/// that does not diagnose a rule without saying why, a dialect without its citation.
std::vector<Rule> parse_rule_catalog(std::string_view json);
/// The rule with this id, or null: the catalog parsed once (it is compiled in and never changes).
const Rule* find_rule(std::string_view id);

} // namespace cudiff::rules
