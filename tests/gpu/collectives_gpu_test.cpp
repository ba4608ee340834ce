// gpu-labeled: the collectives of generator/collectives/collectives_gen.cpp on the GPU. For each new
// construct, programs with it forced on (a batch of the first seeds that use it) are built with
// nvcc -O3, nvcc -O0 and, when CUDIFF_CLANG names a clang, clang -O3; every kernel's checksum
// line must be the sidecar's expected_checksum (the interpreter's prediction). Prints per
// construct: programs, kernels, mismatches. Skipped, with the reason, where there is no GPU.
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>

namespace {

using namespace cudiff;

/// Each construct with the statement-kind knob that places it.
const std::vector<std::pair<std::string, std::string>>& new_constructs() {
  static const std::vector<std::pair<std::string, std::string>> table = {{"shuffle_width", "stmt.shuffle"},
                                                                         {"warp_match", "stmt.match"},
                                                                         {"warp_reduce", "stmt.warp_reduce"},
                                                                         {"cg_block", "stmt.exchange"},
                                                                         {"cg_tile", "stmt.tile"},
                                                                         {"cg_reduce", "stmt.tile"},
                                                                         {"atomic_loop", "stmt.atomic_loop"},
                                                                         {"atomic_cas_loop", "stmt.atomic_loop"},
                                                                         {"atomic_ref", "stmt.atomic_loop"}};
  return table;
}

bool used(const generator::TestCase& test, const std::string& construct) {
  for (const auto& entry : test.sidecar.constructs_used.value())
    if (entry.name == construct) return true;
  return false;
}

struct Tally {
  std::size_t programs = 0, kernels = 0, mismatches = 0;
};

/// Runs a batch of `seeds` under `configs` and compares every checksum line with the sidecar.
Tally run_and_compare(const generator::Policy& policy, const std::vector<std::uint64_t>& seeds,
                      const std::string& configs, const std::string& construct) {
  Tally tally;
  const generator::TestCase batch = generator::generate_batch(policy, seeds, generator::Size::small);
  std::map<std::string, std::string> expected;  // "s<seed>/kernel_N" -> 16 hex digits
  for (const auto& kernel : batch.sidecar.kernels.value()) expected[kernel.name] = kernel.expected_checksum;
  tally.programs = seeds.size();
  tally.kernels = expected.size();
  TempDir dir("cudiff-gpu-collectives");
  const auto source = dir.path() / (batch.name + ".cu");
  write_file(source, batch.source);
  write_file(dir.path() / (batch.name + ".json"), pretty_json(generator::to_json(batch.sidecar)));
  auto result = test::run_cudiff({"check", source.string(), "--mode", "run", "--json", "--config", configs}, 1800);
  // Exit 1 is a finding (a wrong checksum is counted below); anything else is a broken check.
  EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1) << construct << "\n"
                                                              << result.out.text << result.err.text;
  const auto json = boost::json::parse(result.out.text);
  for (const auto& config : json.at("configs").as_array()) {
    const std::string name(config.at("config").as_string());
    if (!config.as_object().contains("run")) {
      ADD_FAILURE() << construct << " " << name << ": no run (did it build?)\n" << result.out.text;
      tally.mismatches += expected.size();
      continue;
    }
    std::map<std::string, std::string> printed;
    for (const auto& line : config.at("run").at("output_lines").as_array()) {
      const std::string text(line.as_string());
      if (!text.starts_with("checksum ")) continue;
      const auto space = text.rfind(' ');
      printed[text.substr(9, space - 9)] = text.substr(space + 1);
    }
    for (const auto& [kernel, checksum] : expected)
      if (printed[kernel] != checksum) {
        ++tally.mismatches;
        ADD_FAILURE() << construct << " " << name << " " << kernel << ": printed '" << printed[kernel]
                      << "', predicted " << checksum;
      }
  }
  return tally;
}

} // namespace

TEST(GpuCollectives, EveryNewConstructPrintsThePredictedChecksums) {
  CUDIFF_SKIP_WITHOUT_GPU();
  std::string configs = "nvcc-O3,nvcc-O0";
  if (const char* clang = std::getenv("CUDIFF_CLANG"); clang && *clang) configs += ",clang-O3";
  std::cout << "configs: " << configs << "\n";
  for (const auto& [construct, knob] : new_constructs()) {
    generator::Policy policy = test::accepted_by_both(generator::Policy::defaults());
    policy.set("construct." + construct, 1);
    policy.set(knob, 4);
    std::vector<std::uint64_t> seeds;
    for (std::uint64_t seed = 5000; seed < 5200 && seeds.size() < 4; ++seed)
      if (used(generator::generate_program(policy, seed, generator::Size::small), construct)) seeds.push_back(seed);
    ASSERT_EQ(seeds.size(), 4u) << construct << " rarely used";
    const Tally tally = run_and_compare(policy, seeds, configs, construct);
    std::cout << construct << ": programs " << tally.programs << ", kernels " << tally.kernels << ", mismatches "
              << tally.mismatches << "\n";
    EXPECT_EQ(tally.mismatches, 0u) << construct;
  }
}
