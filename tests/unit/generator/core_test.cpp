// Generator core: determinism, IR validation over many seeds, construct knobs honoured, and
// the UB guard (expressions rebuilt so no simulated thread hits UB).
#include "generator/core/body_gen.h"
#include "generator/generator.h"

#include <gtest/gtest.h>

#include <climits>
#include <map>

namespace {

using namespace cudiff::generator;

bool used(const TestCase& test, const std::string& construct) {
  for (const Sidecar::Construct& entry : test.sidecar.constructs_used.value())
    if (entry.name == construct) return true;
  return false;
}

// Source text that only the construct produces.
const std::map<std::string, std::vector<std::string>>& markers() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"grid_constant", {"__grid_constant__"}},
      {"restrict_pointers", {"__restrict__"}},
      {"launch_bounds", {"__launch_bounds__"}},
      {"constexpr_host_variable", {"kConst"}},
      {"constant_memory", {"__constant__", "cudaMemcpyToSymbol"}},
      {"device_global_array", {"gmem"}},
      {"for_loop", {"for (int "}},
      {"switch_statement", {"switch ("}},
      {"inline_qualifiers", {"__noinline__", "__forceinline__"}},
      {"device_function_pointer", {"_ptr("}},
      {"function_template", {"typename TArg"}},
      {"variadic_fold", {"cudiff_fold_", "typename... Ts"}},
      {"device_recursion", {"cudiff_depth"}},
      {"template_select", {"cudiff_select", "cudiff_scale", "cudiff_same_t", "if constexpr"}},
      {"dynamic_shared", {"extern __shared__"}},
      {"syncwarp", {"__syncwarp"}},
      {"warp_shuffle", {"__shfl"}},
      {"warp_vote", {"__ballot_sync", "__all_sync", "__any_sync"}},
      {"syncthreads_count", {"__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}},
      {"atomic_reduction", {"atomicAdd(&out", "atomicAnd", "atomicOr", "atomicXor", "atomicMin", "atomicMax"}},
      {"class_template", {"cudiff_binop"}},
      {"sfinae", {"cudiff_tweak", "enable_if_t"}},
      {"vector_values", {"make_int", "make_uint", "make_longlong", "make_ulonglong", "cudiff_v"}},
      {"extended_lambda", {"__device__ (", "[*this]", "_launcher"}},
      {"functor_argument", {"operator()"}},
      {"static_local", {"(unsigned int i) {"}},
      {"last_block_done", {"__threadfence", "atomicInc", "_partials"}},
      {"managed_memory", {"__managed__"}},
      {"warp_match", {"__match_any_sync", "__match_all_sync"}},
      {"warp_reduce", {"__reduce_"}},
      {"cg_block", {".thread_rank()", ".sync();"}},
      {"cg_tile", {"tiled_partition<", "<cooperative_groups.h>"}},
      {"cg_reduce", {"cooperative_groups::reduce", "<cooperative_groups/reduce.h>"}},
      {"atomic_cas_loop", {"atomicCAS"}},
      {"atomic_ref", {"cuda::atomic_ref", "<cuda/atomic>"}},
  };
  return table;
}

// Constructs whose text contains another construct's marker: switched off with it, so the
// markers stay about the construct under test (atomic loops are loops and call atomicOr...,
// a shuffle with a width is a __shfl).
const std::map<std::string, std::vector<std::string>>& same_spelling() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"for_loop", {"atomic_loop", "atomic_cas_loop", "atomic_ref"}},
      {"atomic_reduction", {"atomic_loop", "atomic_cas_loop"}},
      {"warp_shuffle", {"shuffle_width"}},
      {"cg_tile", {"cg_reduce", "cg_block"}},
      {"cg_reduce", {"cg_tile", "cg_block"}},
  };
  return table;
}

std::vector<std::string> core_constructs() {
  std::vector<std::string> names;
#define CONSTRUCT(name, probability, rules, help) names.push_back(name);
#include "generator/core/constructs_core.def"
#undef CONSTRUCT
  return names;
}

} // namespace

TEST(GeneratorCore, SameSeedGivesIdenticalBytesAndSeedsDiffer) {
  const Policy policy = Policy::defaults();
  for (Size size : {Size::small, Size::medium}) {
    const TestCase a = generate_program(policy, 1234, size);
    const TestCase b = generate_program(policy, 1234, size);
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.sidecar, b.sidecar);
    EXPECT_EQ(boost::json::serialize(to_json(a.sidecar)), boost::json::serialize(to_json(b.sidecar)));
    EXPECT_NE(a.source, generate_program(policy, 1235, size).source);
  }
  EXPECT_EQ(generate_program(policy, 42, Size::small).name, "cudiff_000000000042");
}

TEST(GeneratorCore, SidecarCarriesTheContract) {
  const TestCase test = generate_program(Policy::defaults(), 5, Size::medium);
  const Sidecar& sidecar = test.sidecar;
  EXPECT_EQ(sidecar.seed, 5u);
  EXPECT_EQ(sidecar.expected_verdict, Sidecar::Verdict::accept);
  EXPECT_EQ(sidecar.policy_hash, Policy::defaults().hash());
  EXPECT_EQ(sidecar.size, Size::medium);
  EXPECT_TRUE(sidecar.layout_probes);
  EXPECT_FALSE(sidecar.batch || sidecar.edge || sidecar.input);
  ASSERT_TRUE(sidecar.kernels);
  const std::vector<Sidecar::Kernel>& kernels = *sidecar.kernels;
  ASSERT_FALSE(kernels.empty());
  for (const Sidecar::Kernel& kernel : kernels) {
    EXPECT_EQ(kernel.expected_checksum.size(), 16u);
    const std::string line = "checksum " + kernel.name + " %016llx";
    EXPECT_NE(test.source.find(line), std::string::npos) << line;
  }
  EXPECT_EQ(test.source.rfind("// cudiff generated program\n// seed: 5\n", 0), 0u);
  // --layout is handled before any CUDA call.
  const auto main_at = test.source.find("int main(int argc, char** argv) {");
  ASSERT_NE(main_at, std::string::npos);
  EXPECT_LT(test.source.find("--layout", main_at), test.source.find("cuda", main_at));
}

TEST(GeneratorCore, ValidationPassesOnManySeedsOfEverySize) {
  const Policy policy = Policy::defaults();
  for (Size size : {Size::small, Size::medium, Size::large}) {
    // Large programs take about half a second each (every thread simulated): a few suffice.
    const int seeds = size == Size::large ? 4 : size == Size::medium ? 60 : 200;
    for (int seed = 0; seed < seeds; ++seed) {
      // generate_program validates (and throws Error(internal) naming the seed).
      EXPECT_NO_THROW(generate_program(policy, 10000 + seed, size)) << to_string(size) << " seed " << seed;
    }
  }
}

TEST(GeneratorCore, EveryConstructKnobIsHonoured) {
  for (const std::string& construct : core_constructs()) {
    Policy off = Policy::defaults();
    off.set("construct." + construct, 0);
    // V-rule probes are hand-written fragments that may use the same syntax (a probe's own
    // `for` loop or `__constant__` table): the markers are about the generator's constructs.
    off.set("probe.share", 0);
    // So is the ABI family (generator/abi/abi_params.cpp): its functions are __noinline__, its
    // kernel parameters may be __grid_constant__ and its large structs are folded in loops.
    off.set("abi.share", 0);
    // And the compute-dense kernels (generator/dense/dense*.cpp), whose families have knobs of their
    // own (dense_test.cpp, FamiliesSwitchOffWithTheirKnobs).
    off.set("dense.share", 0);
    if (auto alike = same_spelling().find(construct); alike != same_spelling().end())
      for (const std::string& other : alike->second) off.set("construct." + other, 0);
    Policy on = Policy::defaults();
    on.set("construct." + construct, 1);
    // Enough top-level statements that rare statement kinds come up in small programs.
    on.set("small.kernel.statements.min", 12);
    on.set("small.kernel.statements.max", 12);
    int present = 0;
    // Enough seeds that a construct used in a quarter of the programs clears the bar reliably.
    const int seeds = 40;
    for (int seed = 0; seed < seeds; ++seed) {
      const TestCase without = generate_program(off, 500 + seed, Size::small);
      EXPECT_FALSE(used(without, construct)) << construct << " seed " << seed;
      auto found = markers().find(construct);
      if (found != markers().end())
        for (const std::string& marker : found->second)
          EXPECT_EQ(without.source.find(marker), std::string::npos) << construct << " marker " << marker;
      present += used(generate_program(on, 500 + seed, Size::small), construct) ? 1 : 0;
    }
    EXPECT_GE(present, seeds / 5) << construct << " enabled but rarely used";
  }
}

TEST(GeneratorCore, ExpressionsAreRebuiltSoNoThreadHitsUB) {
  // Threads holding the values that break naive arithmetic: INT_MAX, INT_MIN, -1, 0, 65535.
  Policy policy = Policy::defaults();
  for (const std::string& construct : core_constructs()) policy.set("construct." + construct, 1);
  cudiff::SeededRng rng(99);
  const Swarm swarm = sample_swarm(policy, rng);
  GenContext ctx(policy, rng, swarm, Size::large);
  const Launch launch;
  const std::vector<ThreadCtx> threads = make_threads(launch);
  const std::vector<int> specials = {INT_MAX, INT_MIN, -1, 0, 65535, INT_MAX - 1, 1 << 30};
  std::vector<Env> envs(threads.size());
  for (std::size_t i = 0; i < envs.size(); ++i) {
    envs[i].thread = &threads[i];
    envs[i].vars = {Value::make(IntType::Int, specials[i % specials.size()]),
                    Value::make(IntType::UShort, 65535 - static_cast<int>(i)),
                    Value::make(IntType::LLong, i % 2 ? LLONG_MIN : LLONG_MAX)};
  }
  BodyGen gen(ctx, envs, false, 0, "ns");
  for (auto [name, type] : {std::pair{"x", IntType::Int}, {"y", IntType::UShort}, {"z", IntType::LLong}})
    gen.visible.push_back(VarState{gen.add_var(name, type), true, true, false});
  int nontrivial = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Gen built = gen.expr(5);
    ASSERT_EQ(built.values.size(), envs.size());
    nontrivial += built.expr->kind == ExprKind::Binary ? 1 : 0;
    for (std::size_t i = 0; i < envs.size(); ++i) {
      const Outcome outcome = ctx.interpreter.eval(*built.expr, envs[i]);
      ASSERT_TRUE(outcome.ok()) << to_string(outcome.ub) << " on thread " << i;
      ASSERT_EQ(outcome.value, built.values[i]);
    }
  }
  EXPECT_GT(nontrivial, 100);
}

// Templates, folds and recursion: with their constructs forced on (and their knobs raised) they
// appear, programs validate (the interpreter re-runs every kernel) and stay deterministic.
TEST(GeneratorCore, TemplateConstructsAppearAndAreDeterministic) {
  Policy policy = Policy::defaults();
  for (const char* construct :
       {"device_functions", "function_template", "variadic_fold", "device_recursion", "template_select"})
    policy.set(std::string("construct.") + construct, 1);
  policy.set("expr.fold", 0.3);
  policy.set("expr.select", 0.2);
  policy.set("expr.node.call", 3);
  std::map<std::string, int> seen;
  for (int seed = 0; seed < 20; ++seed) {
    const TestCase a = generate_program(policy, 900 + seed, Size::medium);
    EXPECT_EQ(a.source, generate_program(policy, 900 + seed, Size::medium).source) << "seed " << seed;
    for (const char* construct : {"function_template", "variadic_fold", "device_recursion", "template_select"})
      if (used(a, construct)) ++seen[construct];
    if (used(a, "variadic_fold"))
      EXPECT_NE(a.source.find("typename... Ts> __device__ auto cudiff_fold_"), std::string::npos);
    if (used(a, "device_recursion")) EXPECT_NE(a.source.find("if (cudiff_depth > 0) return"), std::string::npos);
  }
  for (const char* construct : {"function_template", "variadic_fold", "device_recursion", "template_select"})
    EXPECT_GE(seen[construct], 5) << construct;
}
