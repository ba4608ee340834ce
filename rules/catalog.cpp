// rules: parsing the compiled-in catalog (rules/catalog.json) into Rule values.
#include "rules/rules.h"

#include "common/common.h"

#include <boost/json.hpp>

namespace cudiff::rules {
namespace detail {
extern const std::string_view rule_catalog_json;
}
namespace {

std::string text_of(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
}

RuleProbe probe_of(const std::string& id, const boost::json::object& object) {
  RuleProbe probe;
  const std::string space = text_of(object, "space");
  if (space != "device" && space != "host")
    throw_environment("rules catalog: probe of " + id + " has space '" + space + "'");
  probe.host = space == "host";
  if (const auto* headers = object.if_contains("headers"); headers != nullptr && headers->is_array())
    for (const auto& header : headers->as_array())
      if (header.is_string()) probe.headers.emplace_back(header.as_string());
  probe.fragment = text_of(object, "fragment");
  probe.function = text_of(object, "function");
  probe.clang_rejects = text_of(object, "clang_rejects");
  probe.nvcc_rejects = text_of(object, "nvcc_rejects");
  if (probe.fragment.empty() || probe.function.empty())
    throw_environment("rules catalog: probe of " + id + " lacks fragment or function");
  return probe;
}

RuleDialect dialect_of(const std::string& id, const boost::json::object& object) {
  RuleDialect dialect;
  dialect.compiler = text_of(object, "compiler");
  dialect.basis = text_of(object, "basis");
  dialect.reason = text_of(object, "reason");
  if (const auto* documentation = object.if_contains("documentation");
      documentation != nullptr && documentation->is_object()) {
    dialect.documentation_title = text_of(documentation->as_object(), "title");
    dialect.documentation_url = text_of(documentation->as_object(), "url");
    dialect.documentation_quote = text_of(documentation->as_object(), "quote");
  }
  // A dialect without its citation would let a bug pass as deliberate: refuse it.
  if ((dialect.compiler != "clang" && dialect.compiler != "nvcc") || dialect.reason.empty() ||
      dialect.documentation_url.empty() || dialect.documentation_quote.empty())
    throw_environment("rules catalog: dialect of " + id + " needs compiler, reason and documentation url and quote");
  return dialect;
}

constexpr std::string_view kOutcomes[] = {"reject", "reject_elsewhere", "accept_warns", "accept", "timeout"};
constexpr std::string_view kWhys[] = {"dialect", "rule_wrong", "upstream", "bug", "warning"};

template <std::size_t N>
bool one_of(const std::string& text, const std::string_view (&list)[N]) {
  for (std::string_view item : list)
    if (text == item) return true;
  return false;
}

/// One compiler's evidence on rule `id`; `dialect` is the rule's (parsed before). Every way the
/// evidence can fail to settle the rule is refused here, naming the rule: an unmeasured level, a
/// compiler that lets the violation through without saying why, or a why without its proof.
CompilerEvidence compiler_evidence_of(const std::string& id, const std::string& compiler,
                                      const boost::json::object& evidence, const std::optional<RuleDialect>& dialect) {
  const auto* value = evidence.if_contains(compiler);
  if (value == nullptr || !value->is_object())
    throw_environment("rules catalog: evidence of " + id + " lacks \"" + compiler + "\"");
  const boost::json::object& object = value->as_object();
  CompilerEvidence e;
  e.compiler = compiler;
  e.at_o0 = text_of(object, "O0");
  e.at_o3 = text_of(object, "O3");
  e.why = text_of(object, "why");
  e.reason = text_of(object, "reason");
  e.url = text_of(object, "url");
  e.searched = text_of(object, "searched");
  e.warning = text_of(object, "warning");
  const std::string where = "rules catalog: evidence of " + id + " for " + compiler;
  if (!one_of(e.at_o0, kOutcomes) || !one_of(e.at_o3, kOutcomes))
    throw_environment(where + ": O0 and O3 must each be reject, reject_elsewhere, accept_warns, accept or timeout");
  if (e.diagnoses()) return e;  // nothing to explain (a why beside it is allowed: a corrected rule says so)
  if (e.why.empty()) throw_environment(where + ": it does not diagnose the rule at every level, and no \"why\"");
  if (!one_of(e.why, kWhys))
    throw_environment(where + ": why '" + e.why + "' (dialect, rule_wrong, upstream, bug or warning)");
  if (e.reason.empty()) throw_environment(where + ": why " + e.why + " without a reason");
  if (e.why == "dialect" && (!dialect || dialect->compiler != compiler))
    throw_environment(where + ": why dialect, but the rule has no dialect entry for " + compiler);
  if (e.why == "upstream" && !e.url.starts_with("https://"))
    throw_environment(where + ": why upstream without the issue's url");
  if (e.why == "bug" && e.searched.empty())
    throw_environment(where + ": why bug without what was searched for an upstream issue");
  if (e.why == "warning" &&
      (e.warning.empty() || (e.at_o0 != "accept_warns" && e.at_o0 != "reject" && e.at_o0 != "reject_elsewhere") ||
       (e.at_o3 != "accept_warns" && e.at_o3 != "reject" && e.at_o3 != "reject_elsewhere")))
    throw_environment(where + ": why warning needs the warning's text and a warning on the marker's line at "
                              "every level it accepts");
  return e;
}

RuleEvidence evidence_of(const std::string& id, const boost::json::object& object,
                         const std::optional<RuleDialect>& dialect) {
  RuleEvidence evidence;
  evidence.measured = text_of(object, "measured");
  if (evidence.measured.empty())
    throw_environment("rules catalog: evidence of " + id + " does not say when it was measured");
  evidence.nvcc = compiler_evidence_of(id, "nvcc", object, dialect);
  evidence.clang = compiler_evidence_of(id, "clang", object, dialect);
  return evidence;
}

} // namespace

bool CompilerEvidence::diagnoses() const {
  auto rejects = [](const std::string& outcome) { return outcome == "reject" || outcome == "reject_elsewhere"; };
  return rejects(at_o0) && rejects(at_o3);
}

const CompilerEvidence* RuleEvidence::of(std::string_view compiler) const {
  if (compiler == "nvcc") return &nvcc;
  if (compiler == "clang") return &clang;
  return nullptr;
}

std::string to_string(RuleKind kind) {
  switch (kind) {
  case RuleKind::must_reject: return "E";
  case RuleKind::valid: return "V";
  case RuleKind::undefined: return "U";
  }
  return "?";
}

std::optional<RuleKind> parse_rule_kind(std::string_view text) {
  for (RuleKind kind : {RuleKind::must_reject, RuleKind::valid, RuleKind::undefined})
    if (to_string(kind) == text) return kind;
  return std::nullopt;
}

std::vector<Rule> rule_catalog() { return parse_rule_catalog(detail::rule_catalog_json); }

std::vector<Rule> parse_rule_catalog(std::string_view text) {
  boost::system::error_code error;
  const boost::json::value json = boost::json::parse(text, error);
  if (error || !json.is_array()) throw_environment("rules catalog: not a JSON array (rules/catalog.json)");
  std::vector<Rule> rules;
  for (const boost::json::value& item : json.as_array()) {
    if (!item.is_object()) throw_environment("rules catalog: an entry is not an object");
    const boost::json::object& object = item.as_object();
    Rule rule;
    rule.id = text_of(object, "id");
    const std::string kind = text_of(object, "kind");
    const std::optional<RuleKind> parsed = parse_rule_kind(kind);
    if (!parsed) throw_environment("rules catalog: rule " + rule.id + " has kind '" + kind + "' (E, V or U)");
    rule.kind = *parsed;
    rule.section = text_of(object, "section");
    rule.text = text_of(object, "text");
    rule.example = text_of(object, "example");
    rule.why_not_checkable = text_of(object, "why_not");
    if (const auto* checkable = object.if_contains("checkable"); checkable != nullptr && checkable->is_bool())
      rule.checkable = checkable->as_bool();
    if (const auto* violation = object.if_contains("violation"); violation != nullptr && violation->is_object()) {
      const boost::json::object& v = violation->as_object();
      rule.violation = RuleViolation{text_of(v, "fragment"), text_of(v, "marker"), text_of(v, "fixed")};
    }
    if (const auto* probe = object.if_contains("probe"); probe != nullptr && probe->is_object())
      rule.probe = probe_of(rule.id, probe->as_object());
    rule.not_producible = text_of(object, "not_producible");
    if (const auto* dialect = object.if_contains("dialect"); dialect != nullptr && dialect->is_object())
      rule.dialect = dialect_of(rule.id, dialect->as_object());
    if (const auto* evidence = object.if_contains("evidence"); evidence != nullptr) {
      if (!evidence->is_object()) throw_environment("rules catalog: evidence of " + rule.id + " is not an object");
      rule.evidence = evidence_of(rule.id, evidence->as_object(), rule.dialect);
    }
    // A checkable rule is planted in edge programs and judged: without evidence, whichever
    // compiler lets it through would be filed as a new bug, however settled the rule is.
    if (rule.kind == RuleKind::must_reject && rule.checkable && !rule.evidence)
      throw_environment("rules catalog: " + rule.id +
                        " is a checkable E rule without evidence (rules/README.md, "
                        "\"Evidence\")");
    rules.push_back(std::move(rule));
  }
  return rules;
}

const Rule* find_rule(std::string_view id) {
  static const std::vector<Rule> catalog = rule_catalog();  // a constant, parsed on first use
  for (const Rule& rule : catalog)
    if (rule.id == id) return &rule;
  return nullptr;
}

} // namespace cudiff::rules
