// triage (internal): what the signature files share — reading a finding's details, and the
// Builder that collects a symptom's lines, its side, stage, ids and title.
#pragma once

#include "triage/triage.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::triage::detail {

using boost::json::object;

inline std::string text_of(const object& details, std::string_view field) {
  const auto* value = details.if_contains(field);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
}

inline std::vector<std::string> strings_of(const boost::json::value* value) {
  std::vector<std::string> strings;
  if (value == nullptr || !value->is_array()) return strings;
  for (const auto& item : value->as_array())
    if (item.is_string()) strings.emplace_back(item.as_string());
  return strings;
}

inline const boost::json::array& array_of(const object& details, std::string_view field) {
  static const boost::json::array empty;  // a constant, not state
  const auto* value = details.if_contains(field);
  return value != nullptr && value->is_array() ? value->as_array() : empty;
}

inline std::string joined(const std::set<std::string>& items, std::string_view separator) {
  return join(std::vector<std::string>(items.begin(), items.end()), separator);
}

/// "nvcc-O3" -> "nvcc": configs are named after their compiler.
inline std::string compiler_of_config(std::string_view config) {
  return std::string(config.substr(0, config.find('-')));
}

struct Builder {
  Signature signature;
  std::vector<std::string> lines;
  void add(std::string_view field, std::string_view value) {
    lines.push_back(std::string(field) + " " + std::string(value));
  }
  void id(const std::string& value) {
    add("id", value);
    signature.ids.push_back(value);
  }
};

/// The signature rules of the run, expected-output, stage-aware, compile-time and other
/// oracles' kinds (signature_kinds.cpp).
void run_mismatch(const object& details, Builder& b);
void wrong_code(const object& details, Builder& b, bool common);
void metamorphic(const object& details, Builder& b);
void late_rejection(const object& details, Builder& b);
void slow_compile(const object& details, const oracle::Finding& finding, Builder& b);
void generic(const oracle::Finding& finding, Builder& b);

} // namespace cudiff::triage::detail
