// oracle: layout judging — every probed property must have one value across the views
// (host and device, of every config). One finding per type that disagrees.
#include "oracle/judge_parts.h"

#include <set>

namespace cudiff::oracle::detail {
namespace {

using boost::json::array;
using boost::json::object;

struct Reading {
  const LayoutView* view;
  std::uint64_t value;
};

std::vector<Reading> readings(const std::string& type, const std::string& property,
                              const std::vector<LayoutView>& views) {
  std::vector<Reading> out;
  for (const LayoutView& view : views) {
    auto by_type = view.values.find(type);
    if (by_type == view.values.end()) continue;
    auto by_property = by_type->second.find(property);
    if (by_property != by_type->second.end()) out.push_back({&view, by_property->second});
  }
  return out;
}

bool differ(const std::vector<Reading>& values) {
  for (const Reading& reading : values)
    if (reading.value != values.front().value) return true;
  return false;
}

std::string view_name(const LayoutView& view) { return view.config + " " + to_string(view.side); }

std::string member_of(const std::string& property) {
  const std::string prefix = "offsetof.";
  return property.rfind(prefix, 0) == 0 ? property.substr(prefix.size()) : "";
}

std::string kind_of(const LayoutProbe& probe, const std::string& member) {
  auto found = probe.member_kinds.find(member);
  return found == probe.member_kinds.end() ? "" : found->second;
}

object property_entry(const LayoutProbe& probe, const std::string& property, const std::vector<Reading>& values) {
  array views;
  for (const Reading& reading : values)
    views.push_back(object{{"config", reading.view->config},
                           {"compiler", runners::to_string(reading.view->compiler)},
                           {"side", to_string(reading.view->side)},
                           {"value", reading.value}});
  const std::string member = member_of(property);
  return object{{"property", property}, {"member", member}, {"member_kind", kind_of(probe, member)}, {"views", views}};
}

// The property a finding names: the first member whose offset differs is the most telling
// (a long double member moves, and everything after it moves with it); sizeof or alignof
// only when no offset differs.
std::size_t named_index(const std::vector<std::string>& differing) {
  for (std::size_t i = 0; i < differing.size(); ++i)
    if (!member_of(differing[i]).empty()) return i;
  return 0;
}

Finding type_finding(const LayoutProbe& probe, const std::vector<std::string>& differing,
                     const std::vector<LayoutView>& views) {
  const std::string& property = differing[named_index(differing)];
  const std::vector<Reading> values = readings(probe.type, property, views);
  const std::string member = member_of(property);
  std::string summary = "layout of " + probe.type + " differs in " + property;
  if (!member.empty()) summary += " (" + kind_of(probe, member) + " member " + member + ")";
  std::vector<std::string> parts;
  std::vector<std::string> configs;
  for (const Reading& reading : values) {
    parts.push_back(view_name(*reading.view) + " " + std::to_string(reading.value));
    if (std::find(configs.begin(), configs.end(), reading.view->config) == configs.end())
      configs.push_back(reading.view->config);
  }
  summary += ": " + join(parts, ", ");
  if (differing.size() > 1) summary += " (+" + std::to_string(differing.size() - 1) + " more properties)";
  array all;
  for (const std::string& each : differing)
    all.push_back(property_entry(probe, each, readings(probe.type, each, views)));
  std::set<std::string> kinds;
  for (const auto& [name, kind] : probe.member_kinds) kinds.insert(kind);
  array kind_list;
  for (const std::string& kind : kinds) kind_list.push_back(boost::json::string(kind));
  object details = property_entry(probe, property, values);
  details["type"] = probe.type;
  details["differing"] = std::move(all);
  details["type_member_kinds"] = std::move(kind_list);
  return make_finding(FindingKind::layout_mismatch, std::move(configs), summary, std::move(details));
}

} // namespace

std::vector<Finding> layout_findings(const std::vector<LayoutProbe>& probes, const std::vector<LayoutView>& views) {
  std::vector<Finding> findings;
  for (const LayoutProbe& probe : probes) {
    std::vector<std::string> differing;
    for (const std::string& property : probe.properties)
      if (differ(readings(probe.type, property, views))) differing.push_back(property);
    if (!differing.empty()) findings.push_back(type_finding(probe, differing, views));
  }
  return findings;
}

std::string layout_agreement(const std::vector<LayoutProbe>& probes, const std::vector<LayoutView>& views) {
  if (views.empty() || probes.empty()) return {};
  std::size_t with_values = 0;
  for (const LayoutView& view : views)
    if (!view.values.empty()) ++with_values;
  return std::to_string(with_values) + " layout views agree on " + std::to_string(probes.size()) +
         (probes.size() == 1 ? " type" : " types");
}

} // namespace cudiff::oracle::detail
