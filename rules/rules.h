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
};

/// Every rule, in the catalog's order. Parses the compiled-in catalog on every call; throws
/// Error(environment) if it is malformed (a build defect: tests/unit/rules checks it never is).
std::vector<Rule> rule_catalog();
/// The rule with this id, or null: the catalog parsed once (it is compiled in and never changes).
const Rule* find_rule(std::string_view id);

} // namespace cudiff::rules
