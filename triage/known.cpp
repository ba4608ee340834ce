// triage: the known-differences file — deliberate divergences between the compilers, which
// mark matching buckets `known` (docs/triage.md, "Known differences").
#include "triage/triage.h"

#include "rules/rules.h"

#include <algorithm>

namespace cudiff::triage {
namespace {

std::string field(const boost::json::object& entry, std::string_view name, std::string_view origin, std::size_t index,
                  bool required) {
  const auto* value = entry.if_contains(name);
  if (value == nullptr || !value->is_string()) {
    if (!required) return {};
    throw_usage(std::string(origin) + ": entry " + std::to_string(index + 1) + " needs a string \"" +
                std::string(name) + "\"");
  }
  return std::string(value->as_string());
}

} // namespace

KnownDifferences KnownDifferences::parse(std::string_view text, std::string_view origin) {
  boost::json::parse_options options;
  options.allow_comments = true;  // entries carry their verification as comments
  options.allow_trailing_commas = true;
  boost::system::error_code ec;
  boost::json::value root = boost::json::parse(text, ec, {}, options);
  if (ec) throw_usage(std::string(origin) + ": not valid JSON (" + ec.message() + ")");
  const auto* object = root.if_object();
  const auto* list = object != nullptr ? object->if_contains("known") : nullptr;
  if (list == nullptr || !list->is_array())
    throw_usage(std::string(origin) + ": expected an object with a \"known\" array (docs/triage.md)");
  KnownDifferences known;
  const auto& entries = list->as_array();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].is_object())
      throw_usage(std::string(origin) + ": entry " + std::to_string(i + 1) + " is not an object");
    const auto& entry = entries[i].as_object();
    KnownDifference difference{field(entry, "kind", origin, i, true),
                               field(entry, "side", origin, i, false),
                               field(entry, "id", origin, i, true),
                               field(entry, "reason", origin, i, true),
                               {},
                               {},
                               {},
                               {}};
    if (difference.side.empty()) difference.side = "*";
    known.entries_.push_back(std::move(difference));
  }
  return known;
}

namespace detail {
extern const std::string_view shipped_known_json;    // known_data.cpp, generated
extern const std::string_view known_bug_cases_json;  // the same
} // namespace detail

namespace {

std::vector<std::string> strings_of(const boost::json::value* value) {
  std::vector<std::string> out;
  if (value == nullptr) return out;
  if (value->is_string()) out.emplace_back(value->as_string());
  if (value->is_array())
    for (const auto& item : value->as_array())
      if (item.is_string()) out.emplace_back(item.as_string());
  return out;
}

/// One entry per expected kind of each known-bug case that still reproduces. The suite's own
/// reader (campaign/recall_suite.cpp) validates the cases; here only what matching needs.
std::vector<KnownDifference> known_bug_entries(std::string_view text) {
  boost::json::parse_options options;
  options.allow_comments = true;
  boost::system::error_code ec;
  const boost::json::value root = boost::json::parse(text, ec, {}, options);
  if (ec || !root.is_array()) throw Error(ErrorKind::internal, "the compiled-in known-bug cases are not a JSON array");
  std::vector<KnownDifference> entries;
  for (const auto& item : root.as_array()) {
    const auto* name = item.is_object() ? item.as_object().if_contains("case") : nullptr;
    const auto* body = item.is_object() ? item.as_object().if_contains("body") : nullptr;
    if (name == nullptr || !name->is_string() || body == nullptr || !body->is_object())
      throw Error(ErrorKind::internal, "a compiled-in known-bug case is malformed");
    const auto& bug = body->as_object();
    if (const auto* gone = bug.if_contains("does_not_reproduce");
        gone && gone->is_string() && !gone->as_string().empty())
      continue;
    const auto* expect = bug.if_contains("expect");
    if (expect == nullptr || !expect->is_object()) continue;
    const auto text_of = [&](std::string_view key) {
      const auto* value = expect->as_object().if_contains(key);
      return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
    };
    const auto* title = bug.if_contains("title");
    const std::string reason = "known bug, corpus/known-bugs/" + std::string(name->as_string()) +
                               (title && title->is_string() ? ": " + std::string(title->as_string()) : "");
    // Its cause key (scripts/known_bug_causes.sh) and its upstream report, where it has them.
    const auto* cause = bug.if_contains("cause");
    const auto* cause_key = cause != nullptr && cause->is_object() ? cause->as_object().if_contains("key") : nullptr;
    const auto* link = bug.if_contains("link");
    const std::string key = cause_key != nullptr && cause_key->is_string() ? std::string(cause_key->as_string()) : "";
    const std::string url = link != nullptr && link->is_string() ? std::string(link->as_string()) : "";
    for (const std::string& kind : strings_of(expect->as_object().if_contains("kind"))) {
      // A wrong output's title names the configs that differ, and "crash in ptxas" the tool:
      // every ptxas miscompile of nvcc -O3 has the same. Such a case would label every new bug
      // of that shape known; it is recognised by its reduced cause only.
      const bool generic = kind == "wrong_code" || kind == "common_wrong_code" || kind == "run_mismatch" ||
                           kind == "metamorphic" || (kind == "crash" && text_of("stage") == "ptxas");
      KnownDifference entry{
          kind, "*", "", reason, text_of("title_contains"), text_of("key_prefix"), key, url, text_of("stage")};
      entry.cause_only = generic && text_of("key_prefix").empty();
      if (entry.cause_only && key.empty()) continue;
      entries.push_back(std::move(entry));
    }
  }
  return entries;
}

/// The rules catalog's own verdicts (rules/catalog.json, each E rule's `evidence`): a compiler
/// that lets a rule's violation through for a reason the catalog records — its bug, measured
/// here and searched for upstream without a report; its bug reported upstream; or the rule
/// wrong as the guide states it — misses that rule's diagnostic knowingly: such a finding is
/// not new (a documented dialect relaxation is the judge's own kind, dialect_difference).
std::vector<KnownDifference> catalog_entries() {
  std::vector<KnownDifference> entries;
  for (const rules::Rule& rule : rules::rule_catalog()) {
    if (!rule.evidence) continue;
    for (const rules::CompilerEvidence* evidence : {&rule.evidence->nvcc, &rule.evidence->clang}) {
      std::string what;
      if (evidence->why == "bug") what = evidence->compiler + " bug, no upstream report found";
      else if (evidence->why == "upstream") what = evidence->compiler + " bug, reported upstream: " + evidence->url;
      else if (evidence->why == "rule_wrong")
        what = "the rule as the guide states it is wrong for " + evidence->compiler;
      else continue;
      KnownDifference entry;
      entry.kind = "missed_diagnostic";
      entry.side = evidence->compiler;
      entry.id = rule.id;
      entry.reason = "rules catalog " + rule.id + ": " + evidence->reason + " (" + what + "; measured " +
                     rule.evidence->measured + ")";
      entry.link = evidence->url;
      entries.push_back(std::move(entry));
    }
  }
  return entries;
}

/// The avoid rule of each confirmed, reproducing known-bug case that has one ("avoid":
/// {"knobs": {...}, "needs": "..."}; a case without one yields none).
std::vector<AvoidRule> known_bug_avoid_rules(std::string_view text) {
  boost::json::parse_options options;
  options.allow_comments = true;
  const boost::json::value root = boost::json::parse(text, {}, options);  // known_bug_entries checked it
  std::vector<AvoidRule> rules;
  for (const auto& item : root.as_array()) {
    const std::string name(item.as_object().at("case").as_string());
    const auto& bug = item.as_object().at("body").as_object();
    const auto* avoid = bug.if_contains("avoid");
    const auto* confirmed = bug.if_contains("confirmed");
    const auto* gone = bug.if_contains("does_not_reproduce");
    const auto* cause = bug.if_contains("cause");
    if (avoid == nullptr || !avoid->is_object() || confirmed == nullptr || !confirmed->is_bool() ||
        !confirmed->as_bool() || (gone != nullptr && gone->is_string() && !gone->as_string().empty()) ||
        cause == nullptr || !cause->is_object() || !cause->as_object().contains("key"))
      continue;
    boost::json::object rule = avoid->as_object();
    rule["cause"] = cause->as_object().at("key");
    rule["origin"] = "case " + name;
    if (const auto* title = bug.if_contains("title"); title != nullptr && title->is_string())
      rule["reason"] = "known bug, corpus/known-bugs/" + name + ": " + std::string(title->as_string());
    try {
      rules.push_back(avoid_rule_from_json(rule));
    } catch (const Error& error) {
      throw Error(ErrorKind::internal, "known-bug case " + name + ": " + error.what());
    }
  }
  return rules;
}

} // namespace

KnownDifferences KnownDifferences::shipped() {
  KnownDifferences known;
  try {
    known = parse(detail::shipped_known_json, "the shipped known differences (triage/known_differences.json)");
  } catch (const Error& error) {
    throw Error(ErrorKind::internal, error.what());
  }
  for (KnownDifference& entry : known_bug_entries(detail::known_bug_cases_json))
    known.entries_.push_back(std::move(entry));
  for (KnownDifference& entry : catalog_entries()) known.entries_.push_back(std::move(entry));
  known.avoid_rules_ = known_bug_avoid_rules(detail::known_bug_cases_json);
  return known;
}

KnownDifferences KnownDifferences::none() {
  KnownDifferences known;
  known.dialect_ = false;
  return known;
}

void KnownDifferences::add(const KnownDifferences& more) {
  entries_.insert(entries_.end(), more.entries_.begin(), more.entries_.end());
  avoid_rules_ = merge_avoid_rules(avoid_rules_, more.avoid_rules_);
}

KnownDifferences KnownDifferences::load(const std::filesystem::path& file) {
  return parse(read_file(file), file.string());
}

const KnownDifference* KnownDifferences::match(const Signature& signature) const {
  for (const KnownDifference& entry : entries_) {
    if (entry.kind != signature.kind || entry.cause_only) continue;
    if (!entry.title_contains.empty() || !entry.key_prefix.empty()) {  // a known-bug case
      if ((!entry.title_contains.empty() && signature.title.find(entry.title_contains) != std::string::npos) ||
          (!entry.key_prefix.empty() && signature.key.starts_with(entry.key_prefix)))
        return &entry;
      continue;
    }
    if (entry.side != "*" && entry.side != signature.side) continue;
    if (entry.id == "*" || std::ranges::find(signature.ids, entry.id) != signature.ids.end()) return &entry;
    // "R-EXTLAM-*": a family of rules (ids of the rules catalog) that differ for one reason.
    if (entry.id.size() > 1 && entry.id.back() == '*') {
      const std::string_view prefix(entry.id.data(), entry.id.size() - 1);
      if (std::ranges::any_of(signature.ids, [&](const std::string& id) { return id.starts_with(prefix); }))
        return &entry;
    }
  }
  // Known unless --no-known, with or without a file: a dialect difference is a rule the
  // accepting compiler documents as relaxed (the finding cites its documentation).
  static const KnownDifference dialect{"dialect_difference",
                                       "*",
                                       "*",
                                       "a documented dialect difference: the accepting compiler relaxes this rule on "
                                       "purpose (the finding cites its documentation)",
                                       {},
                                       {},
                                       {},
                                       {}};
  if (dialect_ && signature.kind == dialect.kind) return &dialect;
  return nullptr;
}

const KnownDifference* KnownDifferences::match_cause(std::string_view cause_key) const {
  if (cause_key.empty()) return nullptr;
  for (const KnownDifference& entry : entries_)
    if (entry.cause_key == cause_key) return &entry;
  return nullptr;
}

const KnownDifference* KnownDifferences::match_idiom(std::string_view kind, std::string_view stage,
                                                     std::string_view reduced_source) const {
  const AvoidDerivation derived = derive_avoid(reduced_source);
  // A whole family (dense.share, abi.share) is what every bug found in it needs.
  if (derived.knobs.size() != 1 || derived.knobs.front().knob.ends_with(".share")) return nullptr;
  for (const AvoidRule& rule : avoid_rules_) {
    if (rule.knobs != derived.knobs || rule.cause_key.empty()) continue;
    for (const KnownDifference& entry : entries_)
      if (entry.cause_key == rule.cause_key && entry.kind == kind && (entry.stage.empty() || entry.stage == stage))
        return &entry;
  }
  return nullptr;
}

} // namespace cudiff::triage
