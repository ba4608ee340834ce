// The collectives of generator/collectives/collectives_gen.cpp build with the real compilers (label
// compilers; no GPU needed): a batch of programs with every new construct forced on, each
// construct used by at least two of them, goes through `cudiff check --mode object` under
// nvcc -O3 and clang -O3, which must both accept it. This is also what shows that clang-22 finds
// CUDA 13's <cuda/std/...> headers (cooperative groups, cuda::atomic_ref) through the runners.
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <iostream>
#include <map>

namespace {

using namespace cudiff;

const std::vector<std::string>& new_constructs() {
  static const std::vector<std::string> names = {"shuffle_width", "warp_match",      "warp_reduce",
                                                 "cg_block",      "cg_tile",         "cg_reduce",
                                                 "atomic_loop",   "atomic_cas_loop", "atomic_ref"};
  return names;
}

generator::Policy forced_policy() {
  generator::Policy policy = test::accepted_by_both(generator::Policy::defaults());
  for (const std::string& construct : new_constructs()) policy.set("construct." + construct, 1);
  for (const char* knob : {"stmt.match", "stmt.warp_reduce", "stmt.tile", "stmt.atomic_loop", "stmt.shuffle"})
    policy.set(knob, 3);
  return policy;
}

bool used(const generator::TestCase& test, const std::string& construct) {
  for (const auto& entry : test.sidecar.constructs_used.value())
    if (entry.name == construct) return true;
  return false;
}

} // namespace

TEST(CollectivesCompile, EveryNewConstructBuildsWithNvccAndClang) {
  const generator::Policy policy = forced_policy();
  // Seeds in order, each kept while some construct has fewer than two programs.
  std::map<std::string, int> programs;
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t seed = 4000; seed < 4100 && seeds.size() < 12; ++seed) {
    const generator::TestCase test = generator::generate_program(policy, seed, generator::Size::small);
    bool needed = false;
    for (const std::string& construct : new_constructs())
      needed = needed || (used(test, construct) && programs[construct] < 2);
    if (!needed) continue;
    seeds.push_back(seed);
    for (const std::string& construct : new_constructs()) programs[construct] += used(test, construct) ? 1 : 0;
  }
  for (const std::string& construct : new_constructs()) {
    EXPECT_GE(programs[construct], 2) << construct;
    std::cout << construct << ": " << programs[construct] << " programs\n";
  }
  const generator::TestCase batch = generator::generate_batch(policy, seeds, generator::Size::small);
  TempDir dir("cudiff-collectives-compile");
  const auto source = dir.path() / (batch.name + ".cu");
  write_file(source, batch.source);
  write_file(dir.path() / (batch.name + ".json"), pretty_json(generator::to_json(batch.sidecar)));
  auto result = test::run_cudiff({"check", source.string(), "--mode", "object", "--json", "--config",
                                  "nvcc-O3,clang-O3"},
                                 1800);
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto json = boost::json::parse(result.out.text);
  EXPECT_TRUE(json.at("verdict").at("findings").as_array().empty()) << result.out.text;
  for (const auto& config : json.at("configs").as_array())
    std::cout << std::string(config.at("config").as_string()) << ": compiled " << seeds.size()
              << " programs in one batch\n";
}
