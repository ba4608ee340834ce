// Policy: the named knobs (from the knobs_*.def and constructs_*.def tables), dump and load.
#include "generator/generator.h"

#include <algorithm>
#include <cmath>

namespace cudiff::generator {
namespace {

std::vector<Knob> default_knobs() {
  std::vector<Knob> knobs;
#define KNOB(name, value, min, max, help) knobs.push_back(Knob{name, value, min, max, help});
#include "generator/abi/knobs_abi.def"
#include "generator/core/knobs_core.def"
#include "generator/dense/knobs_dense.def"
#include "generator/inline_ptx/knobs_ptx.def"
#include "generator/layout/knobs_layout.def"
#undef KNOB
#define CONSTRUCT(name, probability, rules, help)                                                                      \
  knobs.push_back(Knob{std::string("construct.") + name, probability, 0, 1, "probability a program enables: " help});
#include "generator/core/constructs_core.def"
#include "generator/layout/constructs_layout.def"
#undef CONSTRUCT
  std::sort(knobs.begin(), knobs.end(), [](const Knob& a, const Knob& b) { return a.name < b.name; });
  return knobs;
}

} // namespace

std::string to_string(Size size) {
  switch (size) {
  case Size::small: return "small";
  case Size::medium: return "medium";
  case Size::large: return "large";
  }
  return "?";
}

Size parse_size(std::string_view text) {
  for (Size size : {Size::small, Size::medium, Size::large})
    if (to_string(size) == text) return size;
  throw_usage("unknown size '" + std::string(text) + "' (small, medium, large)");
}

std::vector<ConstructInfo> construct_catalog() {
  std::vector<ConstructInfo> catalog;
#define CONSTRUCT(name, probability, rules, help) catalog.push_back(ConstructInfo{name, split(rules, ';'), help});
#include "generator/core/constructs_core.def"
#include "generator/layout/constructs_layout.def"
#undef CONSTRUCT
  for (auto& construct : catalog) {
    std::erase_if(construct.rule_ids, [](const std::string& id) { return trim(id).empty(); });
    for (const RejectedConstruct& rejected : kConstructsRejectedByACompiler)
      if (rejected.construct == construct.name) construct.rejected_by = std::string(rejected.compiler);
  }
  return catalog;
}

std::map<std::string, std::vector<std::string>> constructs_by_rule() {
  std::map<std::string, std::vector<std::string>> by_rule;
  for (const ConstructInfo& construct : construct_catalog())
    for (const std::string& id : construct.rule_ids) by_rule[id].push_back(construct.name);
  return by_rule;
}

Policy Policy::defaults() {
  Policy policy;
  policy.knobs_ = default_knobs();
  return policy;
}

double Policy::get(std::string_view name) const {
  auto found = std::lower_bound(knobs_.begin(), knobs_.end(), name,
                                [](const Knob& knob, std::string_view n) { return knob.name < n; });
  if (found == knobs_.end() || found->name != name)
    throw Error(ErrorKind::internal, "the generator asked for an unknown policy knob '" + std::string(name) + "'");
  return found->value;
}

void Policy::set(std::string_view name, double value) {
  auto found = std::lower_bound(knobs_.begin(), knobs_.end(), name,
                                [](const Knob& knob, std::string_view n) { return knob.name < n; });
  if (found == knobs_.end() || found->name != name) throw_usage("unknown policy knob '" + std::string(name) + "'");
  if (!std::isfinite(value) || value < found->min || value > found->max)
    throw_usage("policy knob '" + std::string(name) + "' must be in [" + std::to_string(found->min) + ", " +
                std::to_string(found->max) + "], got " + std::to_string(value));
  found->value = value;
}

std::string Policy::dump() const {
  std::string out = "{\n";
  for (std::size_t i = 0; i < knobs_.size(); ++i) {
    out += "  " + boost::json::serialize(boost::json::string(knobs_[i].name)) + ": " +
           boost::json::serialize(boost::json::value(knobs_[i].value));
    out += i + 1 < knobs_.size() ? ",\n" : "\n";
  }
  return out + "}\n";
}

Policy Policy::load(std::string_view json) {
  boost::system::error_code ec;
  boost::json::value parsed = boost::json::parse(json, ec);
  if (ec || !parsed.is_object()) throw_usage("a policy file must be a JSON object of knob names to numbers");
  Policy policy = defaults();
  for (const auto& [name, value] : parsed.as_object()) {
    if (!value.is_number()) throw_usage("policy knob '" + std::string(name) + "' must be a number");
    policy.set(name, value.to_number<double>());
  }
  return policy;
}

std::string Policy::hash() const { return fnv1a_hex(dump()); }

Swarm sample_swarm(const Policy& policy, Rng& rng) {
  Swarm swarm;
  for (const ConstructInfo& construct : construct_catalog())
    if (rng.chance(policy.get("construct." + construct.name))) swarm.enabled.insert(construct.name);
  return swarm;
}

} // namespace cudiff::generator
