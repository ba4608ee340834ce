// core_plan: a core kernel's launch plan — what its host runner (run_<name>, emit_kernel.cpp)
// does, as a runners/launch.h launch description, so that the kernel's cubin prints the runner's
// checksum line with no host program (docs/pipeline.md, "Build paths").
#include "generator/abi/abi.h"
#include "generator/core/emit.h"
#include "generator/mangle.h"

#include <cstdio>

namespace cudiff::generator {
namespace {

std::uint32_t type_bytes(IntType type) {
  const int bits = bit_width(type);
  return bits <= 8 ? 1u : static_cast<std::uint32_t>(bits / 8);
}

/// A word as the plan writes it: 0 as a number (an output buffer is mostly zeros), else hex.
boost::json::value word(std::uint64_t value) {
  if (value == 0) return 0;
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return boost::json::value(text);
}

/// launch.h's scalar type of a by-value integer parameter (bool is one byte, 0 or 1).
std::string scalar_type(IntType type) {
  const bool is_signed_type = type != IntType::Bool && is_signed(type);
  return (is_signed_type ? "s" : "u") + std::to_string(8 * type_bytes(type));
}

/// The `__grid_constant__` struct's bytes as the host passes it: the members in order, each at
/// its natural alignment, the size rounded up to the largest (padding zero: never read).
std::vector<std::uint8_t> struct_bytes(const std::vector<const ScalarParam*>& members) {
  std::vector<std::uint8_t> bytes;
  std::uint32_t align = 1;
  for (const ScalarParam* p : members) {
    const std::uint32_t size = type_bytes(p->value.type);
    align = std::max(align, size);
    bytes.resize((bytes.size() + size - 1) / size * size, 0);
    for (std::uint32_t i = 0; i < size; ++i) bytes.push_back(static_cast<std::uint8_t>(p->value.bits >> (8 * i)));
  }
  bytes.resize((bytes.size() + align - 1) / align * align, 0);
  return bytes;
}

std::string hex_bytes(const std::vector<std::uint8_t>& bytes) {
  std::string text;
  char pair[4];
  for (std::uint8_t byte : bytes) {
    std::snprintf(pair, sizeof pair, "%02x", byte);
    text += pair;
  }
  return text;
}

boost::json::array words_of(const std::vector<Value>& values) {
  boost::json::array words;
  for (const Value& v : values) words.push_back(word(v.bits));
  return words;
}

} // namespace

std::optional<boost::json::object> core_launch_plan(const Program& program, int kernel,
                                                    const std::string& checksum_label, const std::string& scope,
                                                    std::uint64_t stack_bytes) {
  const Kernel& k = program.kernels[static_cast<std::size_t>(kernel)];
  // A managed kernel's arrays are __managed__ variables the host writes; lambdas and functors
  // make the kernel a template over their closure types; the ABI family's arguments are
  // structs, vectors and pointers the host builds: none of them is what a plan describes.
  if (k.managed || !k.lambdas.empty() || !abi_kernel_params(program, kernel).empty()) return std::nullopt;
  std::vector<std::string> namespaces = scope_namespaces(scope);
  namespaces.push_back(k.ns);
  if (k.inline_ns) namespaces.push_back("v1");  // emit_test_body's `inline namespace v1`

  // Parameters in the order kernel_function declares them: out, in, the scalars, the struct.
  std::vector<MangledParam> types{{MangledParam::Kind::pointer, IntType::ULLong}};
  boost::json::array params;
  const std::uint32_t words = k.output_words();
  {
    // output_setup: cudaMemset 0, then each reduction word at its operation's identity.
    boost::json::object out{{"buffer", "out"}, {"element_bytes", 8}, {"count", words}, {"fill", 0}};
    if (!k.reductions.empty()) {
      boost::json::array fill(words, boost::json::value(0));
      const std::uint32_t base = k.launch.threads() * static_cast<std::uint32_t>(k.slots);
      for (std::size_t r = 0; r < k.reductions.size(); ++r) fill[base + r] = word(reduction_identity(k.reductions[r]));
      out["fill"] = std::move(fill);
    }
    params.push_back(std::move(out));
  }
  if (k.input_array >= 0) {
    // input_setup: host_in[i] = (T)cudiff_input(i, salt, mode), the values the interpreter read.
    const Array& input = program.arrays[static_cast<std::size_t>(k.input_array)];
    types.push_back({MangledParam::Kind::pointer_to_const, input.elem});
    params.push_back(boost::json::object{{"buffer", "in"},
                                         {"element_bytes", type_bytes(input.elem)},
                                         {"count", input.length},
                                         {"fill", words_of(input.values)}});
  }
  std::vector<const ScalarParam*> grid_constant;
  for (const ScalarParam& p : k.params) {
    if (p.grid_constant) {
      grid_constant.push_back(&p);
      continue;
    }
    types.push_back({MangledParam::Kind::value, p.value.type});
    params.push_back(boost::json::object{{"scalar", k.vars[static_cast<std::size_t>(p.var)].name},
                                         {"type", scalar_type(p.value.type)},
                                         {"value", word(p.value.bits)}});
  }
  if (!grid_constant.empty()) {
    types.push_back({MangledParam::Kind::record, IntType::Int, namespaces, k.name + "_constants"});
    const std::vector<std::uint8_t> bytes = struct_bytes(grid_constant);
    params.push_back(boost::json::object{{"bytes", "gc"}, {"size", bytes.size()}, {"data", hex_bytes(bytes)}});
  }
  boost::json::object plan{{"kernel", mangled_function(namespaces, k.name, types)},
                           {"grid", boost::json::array{k.launch.grid[0], k.launch.grid[1], k.launch.grid[2]}},
                           {"block", boost::json::array{k.launch.block[0], k.launch.block[1], k.launch.block[2]}},
                           {"shared_bytes", k.launch.dynamic_shared_bytes},
                           {"params", std::move(params)}};
  if (stack_bytes != 0) plan["stack_bytes"] = stack_bytes;
  // The runner's cudaMemcpyToSymbol of each __constant__ array of its namespace.
  boost::json::array symbols;
  for (std::size_t i = 0; i < program.arrays.size(); ++i) {
    const Array& a = program.arrays[i];
    if (a.kind != ArrayKind::Constant || program.array_ns[i] != k.ns) continue;
    symbols.push_back(boost::json::object{{"symbol", mangled_variable(namespaces, a.name)},
                                          {"element_bytes", type_bytes(a.elem)},
                                          {"count", a.length},
                                          {"fill", words_of(a.values)}});
  }
  if (!symbols.empty()) plan["symbols"] = std::move(symbols);
  plan["checksums"] = boost::json::array{
      boost::json::object{{"label", checksum_label + k.name}, {"fold", boost::json::array{"out"}}}};
  return plan;
}

} // namespace cudiff::generator
