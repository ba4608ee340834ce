// dense: a compute-dense kernel's launch plan — what its harness runner (run_<name>) does, as a
// runners/launch.h launch description, so that the kernel's cubin prints the runner's checksum
// line with no host program (docs/pipeline.md, "Build paths").
#include "generator/dense/dense.h"
#include "generator/mangle.h"

#include <cstdio>

namespace cudiff::generator::dense {
namespace {

boost::json::value hex_word(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return boost::json::value(text);
}

/// The kernel's parameters as emit_device_code declares them: `const unsigned* __restrict__ in`
/// when it reads its input, then `unsigned long long* __restrict__ out`.
std::vector<MangledParam> kernel_params(bool input) {
  std::vector<MangledParam> params;
  if (input) params.push_back({MangledParam::Kind::pointer_to_const, IntType::UInt});
  params.push_back({MangledParam::Kind::pointer, IntType::ULLong});
  return params;
}

} // namespace

boost::json::object launch_plan(const Kernel& kernel, const std::string& checksum_label, const std::string& scope,
                                std::uint64_t stack_bytes) {
  // emit_device_code: the kernel and its slots' `__device__` variables in `namespace cudiff_dense`.
  const std::vector<std::string> where = scope_namespaces(scope + "cudiff_dense::");
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
  boost::json::object plan{{"kernel", mangled_function(where, kernel.name, kernel_params(input))},
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
      const std::string symbol = mangled_variable(where, kernel.name + (wide ? "_atom64" : "_atom32"));
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
    const std::string count = mangled_variable(where, kernel.name + "_count");
    const std::string results = mangled_variable(where, kernel.name + "_fence");
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
