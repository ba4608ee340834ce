// reducer: the pass schedule as data (C-Vise's pass_groups/all.json): the default, and
// reading and writing it as JSON so a user can dump it, edit it and pass it back.
#include "reducer/reducer.h"

#include "common/common.h"

namespace cudiff::reducer {
namespace {

// The focus first (the kernels a failure below the source needs, named by the caller's oracle:
// one test that can take most of a batch); cheap, near-certain wins next (the host side at
// once: a device-side bug never needs it);
// then whole declarations with their uses (a generated
// program's tests, each a namespace and a call in main: the coarsest cut there is); then structure from the outside in (statements by depth,
// unused declarations, blocks, list elements, parameters with their arguments,
// simplifications, an inline-PTX template's dead code and instructions) before the fine-grained lines and tokens, which
// cost a test per unit and pay off only on what the coarse passes left; renaming last, since
// it shrinks bytes but never tokens.
constexpr std::string_view default_schedule_json = R"({
  "first": ["focus", "comments", "whitespace", "host", "includes"],
  "main": ["uses", "hdd", "unused", "asm", "blocks", "commas", "arguments", "simplify", "lines", "constants", "tokens"],
  "last": ["rename", "whitespace"]
})";

std::vector<std::string> phase(const boost::json::object& object, std::string_view key, std::string_view origin) {
  const auto* value = object.if_contains(key);
  if (value == nullptr) return {};
  if (!value->is_array())
    throw_usage(std::string(origin) + ": \"" + std::string(key) + "\" must be a list of pass names");
  std::vector<std::string> names;
  for (const auto& item : value->as_array()) {
    if (!item.is_string())
      throw_usage(std::string(origin) + ": \"" + std::string(key) + "\" must be a list of pass names");
    const std::string name(item.as_string());
    make_pass(name);  // an unknown name is refused here, naming the known ones
    names.push_back(name);
  }
  return names;
}

boost::json::array names_json(const std::vector<std::string>& names) {
  boost::json::array array;
  for (const auto& name : names) array.emplace_back(name);
  return array;
}

}  // namespace

Schedule default_schedule() { return parse_schedule(default_schedule_json, "the default schedule"); }

Schedule parse_schedule(std::string_view json, std::string_view origin) {
  boost::system::error_code error;
  const boost::json::value value = boost::json::parse(json, error);
  if (error) throw_usage(std::string(origin) + " is not JSON: " + error.message());
  if (!value.is_object())
    throw_usage(std::string(origin) + ": a schedule is an object {\"first\", \"main\", \"last\"}");
  for (const auto& [key, _] : value.as_object())
    if (key != "first" && key != "main" && key != "last")
      throw_usage(std::string(origin) + ": unknown phase \"" + std::string(key) + "\" (first, main, last)");
  Schedule schedule;
  schedule.first = phase(value.as_object(), "first", origin);
  schedule.main = phase(value.as_object(), "main", origin);
  schedule.last = phase(value.as_object(), "last", origin);
  return schedule;
}

std::string schedule_json(const Schedule& schedule) {
  return pretty_json(boost::json::object{{"first", names_json(schedule.first)},
                                         {"main", names_json(schedule.main)},
                                         {"last", names_json(schedule.last)}});
}

}  // namespace cudiff::reducer
