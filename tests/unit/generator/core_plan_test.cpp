// A core kernel's launch plan (generator/core/core_plan.cpp): its names are the compilers'
// Itanium names (generator/mangle.h, whose own cases are mangle_test.cpp's; checked against real
// PTX by tests/e2e/core_plan_e2e_test.cpp); a kernel the plan cannot describe (managed, lambdas
// or functors, the ABI family's parameters) has none; and a plan's buffers, scalars, struct bytes
// and symbols are exactly the values the interpreter computed the predicted checksum from.
#include "generator/core/emit.h"
#include "generator/core/interpreter.h"
#include "generator/generator.h"
#include "generator/mangle.h"
#include "generator/variants/variants.h"
#include "runners/runners.h"
#include "support/harness_only.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace cudiff;
using namespace cudiff::generator;
/// Whether core_plan.cpp may describe the kernel: what the test expects, said again here.
bool plannable(const Program& program, int index) {
  const Kernel& k = program.kernels[static_cast<std::size_t>(index)];
  const bool abi = std::ranges::any_of(program.abi,
                                       [&](const AbiFunction& f) { return f.kernel == index && !f.params.empty(); });
  return !k.managed && k.lambdas.empty() && !abi;
}

std::uint32_t type_bytes(IntType type) {
  return bit_width(type) <= 8 ? 1 : static_cast<std::uint32_t>(bit_width(type) / 8);
}

/// `program` with every value a plan could give (inputs, constant arrays, scalar parameters)
/// zeroed, then set from `plan` alone: what the interpreter computes from it must be the
/// prediction, so nothing the kernel reads is missing from the plan or different in it.
Program from_plan(Program program, int index, const runners::LaunchDescription& plan, const std::string& scope) {
  for (Array& a : program.arrays)
    if (a.kind == ArrayKind::Input || a.kind == ArrayKind::Constant)
      for (Value& v : a.values) v.bits = 0;
  for (Kernel& k : program.kernels)
    for (ScalarParam& p : k.params) p.value.bits = 0;
  Kernel& k = program.kernels[static_cast<std::size_t>(index)];
  std::vector<std::string> namespaces;
  if (!scope.empty()) namespaces.push_back(scope.substr(0, scope.size() - 2));
  namespaces.push_back(k.ns);
  if (k.inline_ns) namespaces.push_back("v1");
  std::vector<ScalarParam*> grid_constant;
  for (ScalarParam& p : k.params)
    if (p.grid_constant) grid_constant.push_back(&p);
  for (const runners::LaunchParam& param : plan.params) {
    if (param.name == "in") {
      Array& input = program.arrays[static_cast<std::size_t>(k.input_array)];
      EXPECT_EQ(param.element_bytes, type_bytes(input.elem));
      EXPECT_EQ(param.count, static_cast<std::uint64_t>(input.length));
      for (int i = 0; i < input.length; ++i) {
        input.values[i].bits = param.fill.size() == 1 ? param.fill[0] : param.fill[i];
        // The harness's own fill: host_in[i] = (T)cudiff_input(i, salt, mode).
        EXPECT_EQ(input.values[i],
                  convert(Value{IntType::ULLong, input_word(i, input.input_salt, input.input_mode)}, input.elem));
      }
    } else if (param.kind == runners::LaunchParam::Kind::scalar) {
      for (ScalarParam& p : k.params)
        if (!p.grid_constant && k.vars[p.var].name == param.name) {
          EXPECT_EQ(param.param_bytes(), type_bytes(p.value.type));
          p.value.bits = param.bits;
        }
    } else if (param.kind == runners::LaunchParam::Kind::bytes) {
      // The struct's members at their natural alignments.
      std::size_t at = 0, align = 1;
      for (ScalarParam* p : grid_constant) {
        const std::size_t size = type_bytes(p->value.type);
        align = std::max(align, size);
        at = (at + size - 1) / size * size;
        std::uint64_t bits = 0;
        for (std::size_t b = 0; b < size; ++b) bits |= std::uint64_t{param.data.at(at + b)} << (8 * b);
        p->value.bits = bits;
        at += size;
      }
      EXPECT_EQ(param.data.size(), (at + align - 1) / align * align);
    }
  }
  for (const runners::LaunchSymbol& symbol : plan.symbols) {
    bool found = false;
    for (std::size_t i = 0; i < program.arrays.size(); ++i) {
      Array& a = program.arrays[i];
      if (a.kind != ArrayKind::Constant || program.array_ns[i] != k.ns ||
          mangled_variable(namespaces, a.name) != symbol.name)
        continue;
      found = true;
      EXPECT_EQ(symbol.element_bytes, type_bytes(a.elem));
      EXPECT_EQ(symbol.count, static_cast<std::uint64_t>(a.length));
      for (int e = 0; e < a.length; ++e) a.values[e].bits = symbol.fill.size() == 1 ? symbol.fill[0] : symbol.fill[e];
    }
    EXPECT_TRUE(found) << symbol.name;
  }
  return program;
}

/// Every core kernel of `test` (built as `program`): a plan exactly when plannable, and each
/// plan's inputs give the interpreter the predicted checksum. Counts the kernels planned.
void expect_plans_give_the_predictions(const TestCase& test, const Program& program, const std::string& label,
                                       const std::string& scope, int& planned) {
  for (std::size_t i = 0; i < program.kernels.size(); ++i) {
    const Kernel& k = program.kernels[i];
    const Sidecar::Kernel& entry = test.sidecar.kernels->at(i);
    SCOPED_TRACE(entry.name);
    EXPECT_EQ(entry.launch.has_value(), plannable(program, static_cast<int>(i)));
    if (!entry.launch) continue;
    ++planned;
    const runners::LaunchDescription plan = runners::parse_launch(boost::json::serialize(*entry.launch));
    EXPECT_EQ(plan.grid, entry.grid);
    EXPECT_EQ(plan.block, entry.block);
    EXPECT_EQ(plan.shared_bytes, entry.dynamic_shared_bytes);
    EXPECT_NE(test.source.find("cudaDeviceSetLimit(cudaLimitStackSize, " + std::to_string(plan.stack_bytes) + ")"),
              std::string::npos);
    // out: zeroed, the reduction words at their identities, folded alone.
    ASSERT_FALSE(plan.params.empty());
    const runners::LaunchParam& out = plan.params[0];
    EXPECT_EQ(out.name, "out");
    EXPECT_EQ(out.element_bytes, 8u);
    EXPECT_EQ(out.count, k.output_words());
    const std::uint32_t base = k.launch.threads() * static_cast<std::uint32_t>(k.slots);
    for (std::uint32_t w = 0; w < out.count; ++w) {
      const std::uint64_t expected = w >= base ? reduction_identity(k.reductions[w - base]) : 0;
      ASSERT_EQ(out.fill.size() == 1 ? out.fill[0] : out.fill[w], expected) << "out[" << w << "]";
    }
    ASSERT_EQ(plan.checksums.size(), 1u);
    EXPECT_EQ(plan.checksums[0].label, label + k.name);
    EXPECT_EQ(plan.checksums[0].fold, std::vector<std::string>{"out"});
    EXPECT_NE(test.source.find("std::printf(\"checksum " + label + k.name + " %016llx\\n\""), std::string::npos);
    // The launch statement passes a struct exactly when the plan has its bytes.
    const bool bytes = std::ranges::any_of(plan.params, [](const runners::LaunchParam& p) {
      return p.kind == runners::LaunchParam::Kind::bytes;
    });
    EXPECT_EQ(bytes, test.source.find(k.name + "_constants{") != std::string::npos);
    // Everything the interpreter reads, from the plan alone.
    const Program replayed = from_plan(program, static_cast<int>(i), plan, scope);
    const Interpreter::KernelRun run = Interpreter(replayed).run(replayed.kernels[i]);
    EXPECT_EQ(run.problem, "");
    char hex[24];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(run.checksum));
    EXPECT_EQ(hex, entry.expected_checksum);
  }
}

Policy harness_only() { return test::harness_only_policy(); }

TEST(CorePlan, PlansGiveTheInterpreterItsInputsAndOnlyPlannableKernelsHaveOne) {
  int kernels = 0, planned = 0;
  bool managed = false, lambdas = false, abi = false, grid_constant = false, constants = false, reductions = false;
  for (const Policy& policy : {Policy::defaults(), harness_only()})
    for (std::uint64_t seed = 100; seed < 160; ++seed) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      const TestCase test = generate_program(policy, seed, Size::small);
      const Program program = built_program(policy, seed, Size::small);
      expect_plans_give_the_predictions(test, program, "", "", planned);
      kernels += static_cast<int>(program.kernels.size());
      for (std::size_t i = 0; i < program.kernels.size(); ++i) {
        const Kernel& k = program.kernels[i];
        managed = managed || k.managed;
        lambdas = lambdas || !k.lambdas.empty();
        abi = abi || (!plannable(program, static_cast<int>(i)) && !k.managed && k.lambdas.empty());
        if (!plannable(program, static_cast<int>(i))) continue;
        grid_constant = grid_constant ||
                        std::ranges::any_of(k.params, [](const ScalarParam& p) { return p.grid_constant; });
        reductions = reductions || !k.reductions.empty();
        for (std::size_t a = 0; a < program.arrays.size(); ++a)
          constants = constants || (program.arrays[a].kind == ArrayKind::Constant && program.array_ns[a] == k.ns);
      }
      EXPECT_EQ(sidecar_from_json(to_json(test.sidecar)), test.sidecar);
    }
  // Every case was seen: kernels without plans of each reason, plans of each part.
  EXPECT_TRUE(managed && lambdas && abi);
  EXPECT_TRUE(grid_constant && constants && reductions);
  EXPECT_GT(planned, kernels / 4) << planned << " of " << kernels;
}

TEST(CorePlan, ABatchsPlansNameItsNamespacesAndLabels) {
  const Policy policy = harness_only();
  const TestCase batch = generate_batch(policy, {41, 42}, Size::small, 1);
  ASSERT_TRUE(batch.sidecar.batch);
  std::size_t at = 0;
  int planned = 0;
  for (const Sidecar& test : batch.sidecar.batch->tests) {
    const std::string label = "s" + std::to_string(*test.seed) + (test.variant_of ? "v1" : "");
    for (const Sidecar::Kernel& kernel : *test.kernels) {
      EXPECT_EQ((*batch.sidecar.kernels)[at++], kernel);
      if (!kernel.launch) continue;
      ++planned;
      const runners::LaunchDescription plan = runners::parse_launch(boost::json::serialize(*kernel.launch));
      EXPECT_TRUE(plan.kernel.starts_with("_ZN" + std::to_string(label.size() + 7) + "cudiff_" + label)) << plan.kernel;
      for (const runners::LaunchSymbol& symbol : plan.symbols)
        EXPECT_TRUE(symbol.name.starts_with("_ZN" + std::to_string(label.size() + 7) + "cudiff_" + label))
            << symbol.name;
      EXPECT_EQ(plan.checksums.at(0).label, kernel.name);
      EXPECT_TRUE(kernel.name.starts_with(label + "/")) << kernel.name;
    }
  }
  EXPECT_EQ(at, batch.sidecar.kernels->size());
  EXPECT_GT(planned, 0);
}

TEST(CorePlan, TheSameSeedGivesTheSamePlans) {
  const Policy policy = harness_only();
  for (std::uint64_t seed : {7u, 8u, 9u})
    EXPECT_EQ(to_json(generate_program(policy, seed, Size::small).sidecar),
              to_json(generate_program(policy, seed, Size::small).sidecar));
}

} // namespace
