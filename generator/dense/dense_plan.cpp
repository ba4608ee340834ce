// dense: a compute-dense kernel's launch plan — what its harness runner (run_<name>) does, as a
// runners/launch.h launch description, so that the kernel's cubin prints the runner's checksum
// line with no host program (docs/pipeline.md, "Build paths").
#include "generator/dense/dense.h"

#include <cstdio>

namespace cudiff::generator::dense {
namespace {

boost::json::value hex_word(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return boost::json::value(text);
}

/// `scope` ("a::b::") as its namespaces.
std::vector<std::string> namespaces_of(const std::string& scope) {
  std::vector<std::string> names;
  for (std::size_t at = 0; at < scope.size();) {
    const std::size_t end = scope.find("::", at);
    if (end == std::string::npos) {
      names.push_back(scope.substr(at));
      break;
    }
    if (end > at) names.push_back(scope.substr(at, end - at));
    at = end + 2;
  }
  return names;
}

} // namespace

std::string mangled_name(const std::string& scope, const std::string& name, const std::string& params) {
  const std::vector<std::string> names = namespaces_of(scope);
  if (names.empty()) return params.empty() ? name : "_Z" + std::to_string(name.size()) + name + params;
  std::string text = "_ZN";
  for (const std::string& ns : names) text += std::to_string(ns.size()) + ns;
  return text + std::to_string(name.size()) + name + "E" + params;
}

boost::json::object launch_plan(const Kernel& kernel, const std::string& checksum_label, const std::string& scope,
                                std::uint64_t stack_bytes) {
  // emit_device_code: `namespace cudiff_dense { ... kernel(const unsigned* __restrict__ in,
  // unsigned long long* __restrict__ out) }`, the restrict qualifiers not part of the type.
  const std::string where = scope + "cudiff_dense::";
  const bool input = reads_input(kernel);
  boost::json::array params;
  std::vector<std::string> fold;
  if (input) {
    boost::json::array words;
    for (std::uint32_t i = 0; i < kInputWords; ++i) words.push_back(hex_word(input_word(kernel.input_salt, i)));
    params.push_back(boost::json::object{
        {"buffer", "in"}, {"element_bytes", 4}, {"count", kInputWords}, {"fill", std::move(words)}});
  }
  // cudaMemset(out, 0, ...), then the threads' words: the first part of host_out.
  params.push_back(boost::json::object{{"buffer", "out"}, {"element_bytes", 8}, {"count", output_words(kernel)}});
  fold.push_back("out");
  boost::json::object plan{{"kernel", mangled_name(where, kernel.name, input ? "PKjPy" : "Py")},
                           {"grid", boost::json::array{kernel.blocks, 1, 1}},
                           {"block", boost::json::array{kernel.threads, 1, 1}},
                           {"shared_bytes", dynamic_shared_bytes(kernel)},
                           {"params", std::move(params)}};
  if (stack_bytes != 0) plan["stack_bytes"] = stack_bytes;
  if (!kernel.atomic_slots.empty()) {
    // atomic_host_before: each slot region's initial words copied to the symbols; after the
    // launch, the 32-bit then the 64-bit words appended to host_out (atomic_host_after).
    const std::uint32_t n = atomic_words(kernel) / 2;
    boost::json::array symbols;
    for (const bool wide : {false, true}) {
      boost::json::array words;
      for (std::uint32_t i = 0; i < n; ++i) words.push_back(hex_word(initial_atom(wide, i)));
      const std::string symbol = mangled_name(where, kernel.name + (wide ? "_atom64" : "_atom32"), "");
      symbols.push_back(boost::json::object{
          {"symbol", symbol}, {"element_bytes", wide ? 8 : 4}, {"count", n}, {"fill", std::move(words)}});
      fold.push_back(symbol);
    }
    plan["symbols"] = std::move(symbols);
  }
  if (fence_words(kernel) != 0) {
    // fence_host_before: the count and the result words zeroed; fence_host_after: the result
    // words appended to host_out after the atomic words. The partials need no set-up: every
    // thread writes its own before the fence.
    boost::json::array& symbols = plan["symbols"].is_array() ? plan["symbols"].as_array()
                                                             : plan["symbols"].emplace_array();
    const std::string count = mangled_name(where, kernel.name + "_count", "");
    const std::string results = mangled_name(where, kernel.name + "_fence", "");
    symbols.push_back(boost::json::object{{"symbol", count}, {"element_bytes", 4}, {"count", 1}, {"fill", 0}});
    symbols.push_back(
        boost::json::object{{"symbol", results}, {"element_bytes", 8}, {"count", fence_words(kernel)}, {"fill", 0}});
    fold.push_back(results);
  }
  boost::json::array parts;
  for (const std::string& part : fold) parts.emplace_back(part);
  plan["checksums"] = boost::json::array{
      boost::json::object{{"label", checksum_label + kernel.name}, {"fold", std::move(parts)}}};
  return plan;
}

} // namespace cudiff::generator::dense
