// A compute-dense kernel's launch plan (generator/dense/dense_plan.cpp): the sidecar carries one
// per dense kernel (core kernels' plans: core_plan_test.cpp); it is a launch description runners read; its names
// are the kernel's and slots' as the module has them; its buffers and symbols start as the
// harness sets them; and its checksum line, folded over the interpreter's words, is the line the
// harness prints with the predicted checksum.
#include "generator/dense/dense.h"
#include "generator/generator.h"
#include "generator/mangle.h"
#include "generator/variants/variants.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

using namespace cudiff;
using namespace cudiff::generator;

/// bench/policies/dense_only.json: programs of compute-dense kernels alone, harness only.
Policy dense_only() {
  std::ifstream in(cudiff::test::source_dir() / "bench" / "policies" / "dense_only.json");
  std::stringstream text;
  text << in.rdbuf();
  return Policy::load(text.str());
}

const runners::LaunchParam* buffer(const runners::LaunchDescription& plan, const std::string& name) {
  for (const runners::LaunchParam& param : plan.params)
    if (param.name == name) return &param;
  return nullptr;
}

/// The namespaces a dense kernel and its `__device__` slots sit in: a batch's `scope`, then
/// cudiff_dense (emit_device_code).
std::vector<std::string> dense_namespaces(const std::string& scope) {
  std::vector<std::string> namespaces = scope_namespaces(scope);
  namespaces.push_back("cudiff_dense");
  return namespaces;
}

/// The kernel's Itanium name for the parameters its text declares: `const unsigned* in` when it
/// reads its input, then `unsigned long long* out` (said again here, not taken from the plan).
std::string kernel_symbol(const std::string& scope, const std::string& name, bool input) {
  std::vector<MangledParam> params;
  if (input) params.push_back({MangledParam::Kind::pointer_to_const, IntType::UInt});
  params.push_back({MangledParam::Kind::pointer, IntType::ULLong});
  return mangled_function(dense_namespaces(scope), name, params);
}

std::string slot_symbol(const std::string& scope, const std::string& name) {
  return mangled_variable(dense_namespaces(scope), name);
}

/// What the plan's checksum folds, taking the interpreter's words in its order: `out`'s words,
/// then each symbol's; every name must be a buffer or a symbol of the plan.
std::size_t folded_words(const runners::LaunchDescription& plan) {
  std::size_t words = 0;
  for (const std::string& part : plan.checksums.at(0).fold) {
    if (const runners::LaunchParam* param = buffer(plan, part)) words += param->count;
    for (const runners::LaunchSymbol& symbol : plan.symbols)
      if (symbol.name == part) words += symbol.count;
  }
  return words;
}

void expect_plans_print_the_predictions(const TestCase& test, const std::vector<dense::Kernel>& kernels,
                                        const std::string& label, const std::string& scope) {
  ASSERT_TRUE(test.sidecar.kernels);
  ASSERT_EQ(test.sidecar.kernels->size(), kernels.size());
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    const dense::Kernel& kernel = kernels[k];
    const Sidecar::Kernel& entry = (*test.sidecar.kernels)[k];
    ASSERT_TRUE(entry.launch) << entry.name;
    const runners::LaunchDescription plan = runners::parse_launch(boost::json::serialize(*entry.launch));
    EXPECT_EQ(plan.grid, entry.grid);
    EXPECT_EQ(plan.block, entry.block);
    EXPECT_EQ(plan.shared_bytes, entry.dynamic_shared_bytes);
    const bool input = dense::reads_input(kernel);
    EXPECT_EQ(plan.kernel, kernel_symbol(scope, kernel.name, input));
    // The text declares the kernel with exactly those parameters.
    const std::string declared = kernel.name + "(" + (input ? "const unsigned* __restrict__ in, " : "") +
                                 "unsigned long long* __restrict__ out) {";
    EXPECT_NE(test.source.find(declared), std::string::npos) << declared;
    if (input) {
      const runners::LaunchParam* in = buffer(plan, "in");
      ASSERT_NE(in, nullptr);
      ASSERT_EQ(in->count, 256u);
      for (std::uint32_t i = 0; i < 256; ++i) ASSERT_EQ(in->fill[i], dense::input_word(kernel.input_salt, i));
    }
    // The slots as atomic_host_before's loop sets them (its text, computed here); a fence's
    // count and result words zeroed as fence_host_before does.
    const std::string fence_count = slot_symbol(scope, kernel.name + "_count");
    const std::string fence_results = slot_symbol(scope, kernel.name + "_fence");
    std::size_t fence_symbols = 0;
    for (const runners::LaunchSymbol& symbol : plan.symbols) {
      if (symbol.name == fence_count || symbol.name == fence_results) {
        ++fence_symbols;
        EXPECT_EQ(symbol.count, symbol.name == fence_count ? 1u : dense::fence_words(kernel));
        for (std::uint64_t word : symbol.fill) EXPECT_EQ(word, 0u) << symbol.name;
        continue;
      }
      const bool wide = symbol.element_bytes == 8;
      EXPECT_EQ(symbol.name, slot_symbol(scope, kernel.name + (wide ? "_atom64" : "_atom32")));
      for (std::uint32_t i = 0; i < symbol.count; ++i)
        ASSERT_EQ(symbol.fill[i], wide ? ((i + 1ull) * 0x9E3779B97F4A7C15ull ^ 0xC2B2AE3D27D4EB4Full)
                                       : std::uint64_t{(i + 1u) * 2654435761u ^ 0x5bd1e995u});
    }
    EXPECT_EQ(fence_symbols, dense::fence_words(kernel) == 0 ? 0u : 2u);
    EXPECT_EQ(plan.symbols.empty(), kernel.atomic_slots.empty() && dense::fence_words(kernel) == 0);
    // The fold over the interpreter's words is the harness's line with the prediction.
    const std::vector<std::uint64_t> words = dense::run_kernel(kernel);
    EXPECT_EQ(folded_words(plan), words.size());
    ASSERT_EQ(plan.checksums.size(), 1u);
    EXPECT_EQ(plan.checksums[0].label, label + kernel.name);
    EXPECT_EQ(runners::checksum_line(plan.checksums[0].label, runners::cudiff_fold(words)),
              "checksum " + entry.name + " " + entry.expected_checksum);
    EXPECT_NE(test.source.find("std::printf(\"checksum " + label + kernel.name + " %016llx\\n\""), std::string::npos);
    EXPECT_GT(plan.stack_bytes, 0u);
    EXPECT_NE(test.source.find("cudaDeviceSetLimit(cudaLimitStackSize, " + std::to_string(plan.stack_bytes) + ")"),
              std::string::npos);
  }
}

TEST(DensePlan, NamesAreTheModulesItaniumNames) {
  EXPECT_EQ(kernel_symbol("", "dense_0", true), "_ZN12cudiff_dense7dense_0EPKjPy");
  EXPECT_EQ(kernel_symbol("cudiff_s12::", "dense_1", false), "_ZN10cudiff_s1212cudiff_dense7dense_1EPy");
  EXPECT_EQ(slot_symbol("", "dense_0_atom32"), "_ZN12cudiff_dense14dense_0_atom32E");
  // The same shapes outside any namespace: a function keeps its parameters, a variable its name.
  EXPECT_EQ(mangled_function({}, "k", {{MangledParam::Kind::pointer, IntType::ULLong}}), "_Z1kPy");
  EXPECT_EQ(mangled_variable({}, "g"), "g");
}

TEST(DensePlan, EveryDenseKernelOfAProgramHasAPlanThatPrintsItsPrediction) {
  const Policy policy = dense_only();
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const TestCase test = generate_program(policy, seed, Size::small);
    const Program program = built_program(policy, seed, Size::small);
    EXPECT_TRUE(program.kernels.empty());
    expect_plans_print_the_predictions(test, program.dense, "", "");
    // The plan survives the sidecar's file.
    EXPECT_EQ(sidecar_from_json(to_json(test.sidecar)), test.sidecar);
  }
}

TEST(DensePlan, ABatchsPlansNameItsNamespacesAndLabels) {
  const Policy policy = dense_only();
  const TestCase batch = generate_batch(policy, {21, 22}, Size::small, 1);
  ASSERT_TRUE(batch.sidecar.batch);
  std::size_t at = 0;
  for (const Sidecar& test : batch.sidecar.batch->tests) {
    const std::string label = "s" + std::to_string(*test.seed) + (test.variant_of ? "v1" : "");
    for (const Sidecar::Kernel& kernel : *test.kernels) {
      // The batch's own list is its tests' kernels in order, plans and all.
      ASSERT_LT(at, batch.sidecar.kernels->size());
      EXPECT_EQ((*batch.sidecar.kernels)[at++], kernel);
      ASSERT_TRUE(kernel.launch);
      const runners::LaunchDescription plan = runners::parse_launch(boost::json::serialize(*kernel.launch));
      EXPECT_TRUE(
          plan.kernel.starts_with("_ZN" + std::to_string(label.size() + 7) + "cudiff_" + label + "12cudiff_dense"))
          << plan.kernel;
      EXPECT_EQ(plan.checksums.at(0).label, kernel.name);
      EXPECT_TRUE(kernel.name.starts_with(label + "/")) << kernel.name;
    }
  }
  EXPECT_EQ(at, batch.sidecar.kernels->size());
}

} // namespace
