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

} // namespace

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

std::vector<Rule> rule_catalog() {
  boost::system::error_code error;
  const boost::json::value json = boost::json::parse(detail::rule_catalog_json, error);
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
