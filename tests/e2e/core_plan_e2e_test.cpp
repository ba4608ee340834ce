// Core kernels' launch plans against the real nvcc and clang-22 (no GPU needed): for programs of
// the default policy and of bench/policies/harness_only.json, lone and in batches, each plan's
// kernel is an `.entry` of both compilers' PTX with the plan's parameter count and each
// parameter's size, and each symbol is a `.const` or `.global` variable of the plan's size. A plan
// that named anything else would launch a kernel that reads the wrong bytes and print a wrong
// checksum: a false wrong-code finding. (That a plan's values are the ones the interpreter
// predicted from: tests/unit/generator/core_plan_test.cpp.)
#include "generator/generator.h"
#include "oracle/oracle.h"
#include "pipeline/check_parts.h"
#include "pipeline/pipeline.h"
#include "runners/runners.h"
#include "support/harness_only.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace cudiff {
namespace {

using test::harness_only_policy;

/// Bytes of each `.const` or `.global` variable the PTX defines (an array, or a scalar such as
/// a dense kernel's fence count), by name.
std::map<std::string, std::uint64_t> ptx_variables(const std::string& ptx) {
  static const std::regex variable(
      R"((\.const|\.global)[^;\n]*?\.[bsuf](8|16|32|64)\s+([A-Za-z_$][\w$]*)(\[(\d+)\])?\s*[;=])");
  std::map<std::string, std::uint64_t> bytes;
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), variable); it != std::sregex_iterator(); ++it)
    bytes[(*it)[3]] = std::stoull((*it)[2]) / 8 * ((*it)[5].matched ? std::stoull((*it)[5]) : 1);
  return bytes;
}

struct Checked {
  int plans = 0, symbols = 0;
};

/// Every plan of `test` against the PTX of `config`'s front end, counted into `checked`.
void check_plans(const runners::Toolchain& toolchain, const generator::TestCase& test, const std::string& config,
                 const std::filesystem::path& dir, Checked& checked) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path source = dir / (test.name + ".cu");
  write_file(source, test.source);
  const runners::Config front_end = runners::front_end_config(runners::parse_configs(config).front());
  runners::Limits limits;
  limits.wall_seconds = 600;
  const runners::CompileResult compiled = runners::compile(toolchain, front_end, runners::Mode::ptx, source, dir,
                                                           limits);
  EXPECT_EQ(compiled.process.exit_code, 0) << config << ": " << compiled.process.err.text;
  if (compiled.artifact.empty()) return;
  const std::string ptx = read_file(compiled.artifact);
  std::map<std::string, oracle::PtxFunction> entries;
  for (const oracle::PtxFunction& f : oracle::read_ptx_functions(ptx))
    if (f.kernel) entries[f.name] = f;
  const std::map<std::string, std::uint64_t> variables = ptx_variables(ptx);
  for (const generator::Sidecar::Kernel& kernel : *test.sidecar.kernels) {
    if (!kernel.launch) continue;
    const runners::LaunchDescription plan = runners::parse_launch(boost::json::serialize(*kernel.launch));
    SCOPED_TRACE(config + ": " + kernel.name + " as " + plan.kernel);
    ++checked.plans;
    const auto entry = entries.find(plan.kernel);
    if (entry == entries.end()) {
      ADD_FAILURE() << "no such .entry";
      continue;
    }
    const std::vector<oracle::PtxParam>& params = entry->second.params;
    EXPECT_EQ(params.size(), plan.params.size());
    for (std::size_t p = 0; p < params.size() && p < plan.params.size(); ++p)
      EXPECT_EQ(params[p].bytes(), plan.params[p].param_bytes())
          << "parameter " << p << " (" << plan.params[p].name << "): " << params[p].declaration;
    for (const runners::LaunchSymbol& symbol : plan.symbols) {
      ++checked.symbols;
      const auto found = variables.find(symbol.name);
      if (found == variables.end()) ADD_FAILURE() << "no such variable: " << symbol.name;
      else EXPECT_EQ(found->second, symbol.count * symbol.element_bytes) << symbol.name;
    }
  }
}

/// Programs both compilers take: the default policy's __managed__ ones clang rejects (a known
/// difference) are left out, as their kernels have no plan.
bool both_compile(const generator::TestCase& test) { return test.source.find("__managed__") == std::string::npos; }

class CorePlanE2E : public ::testing::TestWithParam<bool> {
protected:
  runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain(test::toolchain_search()));
  TempDir dir{"cudiff-core-plan-e2e"};
  generator::Policy policy = GetParam() ? harness_only_policy() : generator::Policy::defaults();
};

TEST_P(CorePlanE2E, PlansNameEntriesAndSymbolsOfBothCompilersWithTheirSizes) {
  // 40 programs: 4 alone (no scope), 36 in one batch (each in its namespace, with its label).
  const std::uint64_t first = GetParam() ? 9100 : 9000;
  std::vector<std::uint64_t> seeds;
  std::vector<generator::TestCase> lone;
  for (std::uint64_t seed = first; seeds.size() < 36; ++seed) {
    generator::TestCase test = generator::generate_program(policy, seed, generator::Size::small);
    if (!both_compile(test)) continue;
    if (lone.size() < 4) lone.push_back(std::move(test));
    else seeds.push_back(seed);
  }
  std::vector<generator::TestCase> tests = std::move(lone);
  tests.push_back(generator::generate_batch(policy, seeds, generator::Size::small));
  ASSERT_TRUE(both_compile(tests.back()));
  Checked checked;
  for (const char* config : {"nvcc-O3", "clang-O3"})
    for (const generator::TestCase& test : tests)
      check_plans(toolchain, test, config, dir.path() / config / test.name, checked);
  const int plans = checked.plans, symbols = checked.symbols;
  // Enough to mean something: most kernels of these policies have plans, many with constants.
  EXPECT_GT(plans, 2 * 40);
  EXPECT_GT(symbols, 10);
  std::printf("checked %d plans and %d symbols\n", plans, symbols);
}

TEST(CorePlanDevicePath, ABatchOfPlannedCoreKernelsBuildsCubinsInRunMode) {
  // Seeds whose programs need no host side but the harness and whose kernels all have plans.
  const generator::Policy policy = harness_only_policy();
  std::vector<std::uint64_t> seeds;
  std::size_t core = 0;
  for (std::uint64_t seed = 9200; seeds.size() < 4 && seed < 9400; ++seed) {
    const generator::TestCase test = generator::generate_program(policy, seed, generator::Size::small);
    const pipeline::TestInput input{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
    if (!pipeline::whole_build_reason(input, runners::Mode::run, true).empty()) continue;
    seeds.push_back(seed);
    for (const generator::Sidecar::Kernel& kernel : *test.sidecar.kernels) core += kernel.name.starts_with("kernel_");
  }
  ASSERT_EQ(seeds.size(), 4u);
  EXPECT_GT(core, 0u);
  const generator::TestCase batch = generator::generate_batch(policy, seeds, generator::Size::small);
  pipeline::CheckRequest request;
  request.input = {batch.name + ".cu", batch.source, std::nullopt, batch.sidecar, {}, {}};
  EXPECT_EQ(pipeline::device_run_reason(request.input), "");
  request.mode = runners::Mode::run;
  request.configs = runners::cross_level_configs();
  request.build_path = pipeline::BuildPath::device;
  ::setenv("CUDIFF_EXECUTOR", test::executor_binary().c_str(), 1);
  // An sm_80 GPU the check only reads: the runs choose the path, and no config (all sm_90) runs.
  runners::GpuInfo gpu;
  gpu.name = "a GPU the check only reads";
  gpu.cc_major = 8;
  const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain(test::toolchain_search()));
  TempDir dir("cudiff-core-plan-device");
  const pipeline::TestCheck run = pipeline::check_test(request, toolchain, {{gpu}, ""}, dir.path());
  EXPECT_TRUE(std::ranges::any_of(run.notes, [](const std::string& note) {
    return test::contains(note, "every kernel launched from the sidecar's launch plan");
  })) << join(run.notes, "\n");
  ASSERT_EQ(run.configs.size(), 4u);
  for (const pipeline::ConfigCheck& config : run.configs) {
    EXPECT_EQ(config.observation.outcome, oracle::CompileOutcome::accepted) << config.compile.config.name;
    EXPECT_EQ(config.compile.artifact.extension(), ".cubin") << config.compile.config.name;
  }
  EXPECT_TRUE(run.verdict.agree()) << run.verdict.headline();
}

INSTANTIATE_TEST_SUITE_P(Policies, CorePlanE2E, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "HarnessOnly" : "Default";
                         });

} // namespace
} // namespace cudiff
