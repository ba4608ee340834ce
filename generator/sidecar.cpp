// sidecar: the typed Sidecar to JSON and back — the one reader of sidecar files, so every user
// reads fields rather than keys and a damaged file fails once, naming the field.
#include "generator/generator.h"

#include <limits>

namespace cudiff::generator {
namespace {

using boost::json::array;
using boost::json::object;
using boost::json::value;

template <typename T, typename F>
array array_of(const std::vector<T>& items, F&& item_json) {
  array json;
  for (const T& item : items) json.push_back(item_json(item));
  return json;
}

array strings_json(const std::vector<std::string>& strings) {
  return array_of(strings, [](const std::string& text) { return value(boost::json::string(text)); });
}

array dims_json(const std::array<std::uint32_t, 3>& dims) { return array{dims[0], dims[1], dims[2]}; }

object kernel_json(const Sidecar::Kernel& kernel) {
  object json{{"name", kernel.name},
              {"grid", dims_json(kernel.grid)},
              {"block", dims_json(kernel.block)},
              {"dynamic_shared_bytes", kernel.dynamic_shared_bytes},
              {"expected_checksum", kernel.expected_checksum}};
  if (kernel.launch) json["launch"] = *kernel.launch;
  return json;
}

object layout_probe_json(const Sidecar::LayoutProbe& probe) {
  object kinds;
  for (const auto& [member, kind] : probe.member_kinds) kinds[member] = kind;
  return object{{"type", probe.type},
                {"array", probe.array},
                {"properties", strings_json(probe.properties)},
                {"member_kinds", std::move(kinds)}};
}

// ---- reading: each reader names the field it reads, so an error says where ---------------

[[noreturn]] void wrong(const std::string& field, const std::string& expected) {
  throw_usage("sidecar field \"" + field + "\" is not " + expected);
}

const object& object_at(const value& json, const std::string& field) {
  if (!json.is_object()) wrong(field, "an object");
  return json.as_object();
}

const array& array_at(const value& json, const std::string& field) {
  if (!json.is_array()) wrong(field, "an array");
  return json.as_array();
}

std::string string_at(const value& json, const std::string& field) {
  if (!json.is_string()) wrong(field, "a string");
  return std::string(json.as_string());
}

std::uint64_t unsigned_at(const value& json, const std::string& field) {
  if (json.is_uint64()) return json.as_uint64();
  if (json.is_int64() && json.as_int64() >= 0) return static_cast<std::uint64_t>(json.as_int64());
  wrong(field, "a non-negative integer");
}

template <typename Int>
Int bounded_at(const value& json, const std::string& field) {
  const std::uint64_t number = unsigned_at(json, field);
  if (number > static_cast<std::uint64_t>(std::numeric_limits<Int>::max()))
    wrong(field, "an integer up to " + std::to_string(std::numeric_limits<Int>::max()));
  return static_cast<Int>(number);
}

std::string element(const std::string& field, std::size_t index) { return field + "[" + std::to_string(index) + "]"; }

template <typename F>
auto vector_at(const value& json, const std::string& field, F&& read_item) {
  std::vector<decltype(read_item(json, field))> items;
  const array& entries = array_at(json, field);
  for (std::size_t i = 0; i < entries.size(); ++i) items.push_back(read_item(entries[i], element(field, i)));
  return items;
}

std::vector<std::string> strings_at(const value& json, const std::string& field) {
  return vector_at(json, field, string_at);
}

/// Calls `read(member_value, "field.member")` for each member of `fields` that is present.
template <typename F>
void if_present(const object& fields, const std::string& field, std::string_view member, F&& read) {
  if (const value* found = fields.if_contains(member))
    read(*found, field.empty() ? std::string(member) : field + "." + std::string(member));
}

std::array<std::uint32_t, 3> dims_at(const value& json, const std::string& field) {
  const array& entries = array_at(json, field);
  if (entries.size() != 3) wrong(field, "an array of 3 integers");
  return {bounded_at<std::uint32_t>(entries[0], element(field, 0)),
          bounded_at<std::uint32_t>(entries[1], element(field, 1)),
          bounded_at<std::uint32_t>(entries[2], element(field, 2))};
}

Sidecar::Construct construct_at(const value& json, const std::string& field) {
  Sidecar::Construct construct;
  const object& fields = object_at(json, field);
  if_present(fields, field, "name", [&](const value& v, const std::string& f) { construct.name = string_at(v, f); });
  if_present(fields, field, "rule_ids",
             [&](const value& v, const std::string& f) { construct.rule_ids = strings_at(v, f); });
  return construct;
}

Sidecar::Kernel kernel_at(const value& json, const std::string& field) {
  Sidecar::Kernel kernel;
  const object& fields = object_at(json, field);
  if_present(fields, field, "name", [&](const value& v, const std::string& f) { kernel.name = string_at(v, f); });
  if_present(fields, field, "grid", [&](const value& v, const std::string& f) { kernel.grid = dims_at(v, f); });
  if_present(fields, field, "block", [&](const value& v, const std::string& f) { kernel.block = dims_at(v, f); });
  if_present(fields, field, "dynamic_shared_bytes",
             [&](const value& v, const std::string& f) { kernel.dynamic_shared_bytes = unsigned_at(v, f); });
  if_present(fields, field, "expected_checksum",
             [&](const value& v, const std::string& f) { kernel.expected_checksum = string_at(v, f); });
  // Kept as it is: runners::parse_launch reads it where it is used, and says what is wrong.
  if_present(fields, field, "launch", [&](const value& v, const std::string& f) { kernel.launch = object_at(v, f); });
  return kernel;
}

/// A layout probe is read by its array and properties: without them it probes nothing, so
/// they are required, where other nested members default.
Sidecar::LayoutProbe layout_probe_at(const value& json, const std::string& field) {
  Sidecar::LayoutProbe probe;
  const object& fields = object_at(json, field);
  for (std::string_view required : {"type", "array", "properties"})
    if (!fields.contains(required)) wrong(field + "." + std::string(required), "present");
  if_present(fields, field, "type", [&](const value& v, const std::string& f) { probe.type = string_at(v, f); });
  if_present(fields, field, "array", [&](const value& v, const std::string& f) { probe.array = string_at(v, f); });
  if_present(fields, field, "properties",
             [&](const value& v, const std::string& f) { probe.properties = strings_at(v, f); });
  if_present(fields, field, "member_kinds", [&](const value& v, const std::string& f) {
    for (const auto& [member, kind] : object_at(v, f))
      probe.member_kinds.emplace_back(std::string(member), string_at(kind, f + "." + std::string(member)));
  });
  return probe;
}

Sidecar::Probe probe_at(const value& json, const std::string& field) {
  Sidecar::Probe probe;
  const object& fields = object_at(json, field);
  if_present(fields, field, "rule", [&](const value& v, const std::string& f) { probe.rule = string_at(v, f); });
  if_present(fields, field, "function",
             [&](const value& v, const std::string& f) { probe.function = string_at(v, f); });
  if_present(fields, field, "space", [&](const value& v, const std::string& f) {
    const std::string space = string_at(v, f);
    if (space != "host" && space != "device") wrong(f, "\"host\" or \"device\"");
    probe.host = space == "host";
  });
  if_present(fields, field, "sites",
             [&](const value& v, const std::string& f) { probe.sites = bounded_at<int>(v, f); });
  return probe;
}

Sidecar::AbiFunction abi_function_at(const value& json, const std::string& field) {
  Sidecar::AbiFunction function;
  const object& fields = object_at(json, field);
  if_present(fields, field, "name", [&](const value& v, const std::string& f) { function.name = string_at(v, f); });
  if_present(fields, field, "function_kind", [&](const value& v, const std::string& f) {
    const std::string kind = string_at(v, f);
    if (kind != "kernel" && kind != "device function") wrong(f, "\"kernel\" or \"device function\"");
    function.kernel = kind == "kernel";
  });
  if_present(fields, field, "params",
             [&](const value& v, const std::string& f) { function.params = strings_at(v, f); });
  if_present(fields, field, "result", [&](const value& v, const std::string& f) { function.result = string_at(v, f); });
  return function;
}

Sidecar::Edge edge_at(const value& json, const std::string& field) {
  Sidecar::Edge edge;
  const object& fields = object_at(json, field);
  if_present(fields, field, "rule", [&](const value& v, const std::string& f) { edge.rule = string_at(v, f); });
  if_present(fields, field, "line", [&](const value& v, const std::string& f) { edge.line = bounded_at<int>(v, f); });
  if_present(fields, field, "marker", [&](const value& v, const std::string& f) { edge.marker = string_at(v, f); });
  return edge;
}

Sidecar::VariantOf variant_of_at(const value& json, const std::string& field) {
  Sidecar::VariantOf variant;
  const object& fields = object_at(json, field);
  if_present(fields, field, "seed", [&](const value& v, const std::string& f) { variant.seed = unsigned_at(v, f); });
  if_present(fields, field, "index",
             [&](const value& v, const std::string& f) { variant.index = bounded_at<int>(v, f); });
  if_present(fields, field, "transforms",
             [&](const value& v, const std::string& f) { variant.transforms = strings_at(v, f); });
  return variant;
}

Sidecar::Input input_at(const value& json, const std::string& field) {
  Sidecar::Input input;
  const object& fields = object_at(json, field);
  if_present(fields, field, "fnv1a", [&](const value& v, const std::string& f) { input.fnv1a = string_at(v, f); });
  if_present(fields, field, "bytes", [&](const value& v, const std::string& f) { input.bytes = unsigned_at(v, f); });
  if_present(fields, field, "byte_decisions",
             [&](const value& v, const std::string& f) { input.byte_decisions = unsigned_at(v, f); });
  if_present(fields, field, "tail_decisions",
             [&](const value& v, const std::string& f) { input.tail_decisions = unsigned_at(v, f); });
  return input;
}

Sidecar sidecar_at(const value& json, const std::string& field);

Sidecar::Verdict verdict_at(const value& json, const std::string& field) {
  const std::string text = string_at(json, field);
  if (text == "accept") return Sidecar::Verdict::accept;
  if (text == "reject") return Sidecar::Verdict::reject;
  wrong(field, "\"accept\" or \"reject\"");
}

Size size_at(const value& json, const std::string& field) {
  const std::string text = string_at(json, field);
  for (Size size : {Size::small, Size::medium, Size::large})
    if (text == to_string(size)) return size;
  wrong(field, "small, medium or large");
}

/// `field` is where this sidecar sits ("" at the top, "tests[3]" in a batch).
Sidecar sidecar_at(const value& json, const std::string& field) {
  if (!json.is_object())
    throw_usage(field.empty() ? "a sidecar is a JSON object" : "sidecar field \"" + field + "\" is not an object");
  const object& fields = json.as_object();
  Sidecar sidecar;
  const auto set = [&](std::string_view member, auto& target, auto&& read) {
    if_present(fields, field, member, [&](const value& v, const std::string& f) { target = read(v, f); });
  };
  set("generator_version", sidecar.generator_version, string_at);
  set("seed", sidecar.seed, unsigned_at);
  if_present(fields, field, "batch", [&](const value& v, const std::string& f) {
    if (!sidecar.batch) sidecar.batch.emplace();
    sidecar.batch->seeds = vector_at(v, f, unsigned_at);
  });
  if_present(fields, field, "tests", [&](const value& v, const std::string& f) {
    if (!sidecar.batch) sidecar.batch.emplace();
    sidecar.batch->tests = vector_at(v, f, sidecar_at);
  });
  set("policy_hash", sidecar.policy_hash, string_at);
  set("size", sidecar.size, size_at);
  set("constructs_enabled", sidecar.constructs_enabled, strings_at);
  set("constructs_used", sidecar.constructs_used,
      [](const value& v, const std::string& f) { return vector_at(v, f, construct_at); });
  set("kernels", sidecar.kernels, [](const value& v, const std::string& f) { return vector_at(v, f, kernel_at); });
  set("layout_probes", sidecar.layout_probes,
      [](const value& v, const std::string& f) { return vector_at(v, f, layout_probe_at); });
  set("probes", sidecar.probes, [](const value& v, const std::string& f) { return vector_at(v, f, probe_at); });
  set("abi_functions", sidecar.abi_functions,
      [](const value& v, const std::string& f) { return vector_at(v, f, abi_function_at); });
  set("expected_verdict", sidecar.expected_verdict, verdict_at);
  set("edge", sidecar.edge, edge_at);
  set("input", sidecar.input, input_at);
  set("variant_of", sidecar.variant_of, variant_of_at);
  return sidecar;
}

} // namespace

std::string to_string(Sidecar::Verdict verdict) { return verdict == Sidecar::Verdict::reject ? "reject" : "accept"; }

object to_json(const Sidecar& sidecar) {
  object json;
  if (sidecar.generator_version) json["generator_version"] = *sidecar.generator_version;
  if (sidecar.seed) json["seed"] = *sidecar.seed;
  // The keys in the order the generator has always written them, so that files stay the same.
  if (sidecar.batch) json["batch"] = array_of(sidecar.batch->seeds, [](std::uint64_t seed) { return value(seed); });
  if (sidecar.policy_hash) json["policy_hash"] = *sidecar.policy_hash;
  if (sidecar.size) json["size"] = to_string(*sidecar.size);
  if (sidecar.batch)
    json["tests"] = array_of(sidecar.batch->tests, [](const Sidecar& test) { return value(to_json(test)); });
  if (sidecar.constructs_enabled) json["constructs_enabled"] = strings_json(*sidecar.constructs_enabled);
  if (sidecar.constructs_used)
    json["constructs_used"] = array_of(*sidecar.constructs_used, [](const Sidecar::Construct& construct) {
      return value(object{{"name", construct.name}, {"rule_ids", strings_json(construct.rule_ids)}});
    });
  if (sidecar.kernels) json["kernels"] = array_of(*sidecar.kernels, kernel_json);
  if (sidecar.layout_probes) json["layout_probes"] = array_of(*sidecar.layout_probes, layout_probe_json);
  if (sidecar.probes)
    json["probes"] = array_of(*sidecar.probes, [](const Sidecar::Probe& probe) {
      return value(object{{"rule", probe.rule},
                          {"function", probe.function},
                          {"space", probe.host ? "host" : "device"},
                          {"sites", probe.sites}});
    });
  if (sidecar.abi_functions)
    json["abi_functions"] = array_of(*sidecar.abi_functions, [](const Sidecar::AbiFunction& function) {
      return value(object{{"name", function.name},
                          {"function_kind", function.kernel ? "kernel" : "device function"},
                          {"params", strings_json(function.params)},
                          {"result", function.result}});
    });
  if (sidecar.expected_verdict) json["expected_verdict"] = to_string(*sidecar.expected_verdict);
  if (sidecar.edge)
    json["edge"] = object{{"rule", sidecar.edge->rule}, {"line", sidecar.edge->line}, {"marker", sidecar.edge->marker}};
  if (sidecar.input)
    json["input"] = object{{"fnv1a", sidecar.input->fnv1a},
                           {"bytes", sidecar.input->bytes},
                           {"byte_decisions", sidecar.input->byte_decisions},
                           {"tail_decisions", sidecar.input->tail_decisions}};
  if (sidecar.variant_of)
    json["variant_of"] = object{{"seed", sidecar.variant_of->seed},
                                {"index", sidecar.variant_of->index},
                                {"transforms", strings_json(sidecar.variant_of->transforms)}};
  return json;
}

Sidecar sidecar_from_json(const value& json) { return sidecar_at(json, ""); }

} // namespace cudiff::generator
