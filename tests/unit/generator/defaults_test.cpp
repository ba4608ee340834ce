// Every construct on by default: no default knob is 0 but the named exceptions, the constructs a
// compiler rejects on purpose are listed and found in sidecars, and a program carries at most one
// such known rejection (one bucket per known difference).
#include "generator/generator.h"
#include "rules/rules.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace {

using namespace cudiff::generator;

Policy with(std::initializer_list<std::pair<const char*, double>> knobs) {
  Policy policy = Policy::defaults();
  for (const auto& [name, value] : knobs) policy.set(name, value);
  return policy;
}

/// Knobs whose default may be 0, and why: each is the least of a count range, where 0 is a
/// legitimate count (a program may have none), not a probability or weight that switches a
/// construct off.
const std::map<std::string, std::string>& zero_by_design() {
  static const std::map<std::string, std::string> knobs = {
      {"small.function.statements.min", "a small device function may be a bare return of its result expression"},
      {"small.kernel.params.min", "a small kernel may take no scalar parameters"},
      {"medium.kernel.params.min", "a medium kernel may take no scalar parameters"},
  };
  return knobs;
}

TEST(Defaults, NoDefaultKnobIsZeroButCountLowerBounds) {
  const Policy policy = Policy::defaults();
  std::set<std::string> names;
  for (const Knob& knob : policy.knobs()) {
    names.insert(knob.name);
    if (zero_by_design().count(knob.name)) continue;
    EXPECT_NE(knob.value, 0.0) << knob.name << " is 0 by default: a construct, probe or weight nobody tests ("
                               << knob.help << ")";
  }
  for (const auto& [name, reason] : zero_by_design()) {
    EXPECT_TRUE(names.count(name)) << name << " is no knob: drop it from the exceptions";
    EXPECT_TRUE(name.ends_with(".min")) << name << ": only a count's lower bound may be 0 (" << reason << ")";
  }
}

TEST(Defaults, EveryConstructIsOnAndTheRejectedOnesAreListed) {
  const Policy policy = Policy::defaults();
  std::set<std::string> constructs;
  for (const ConstructInfo& info : construct_catalog()) {
    constructs.insert(info.name);
    EXPECT_GT(policy.get("construct." + info.name), 0.0) << info.name;
  }
  for (const RejectedConstruct& rejected : kConstructsRejectedByACompiler) {
    EXPECT_TRUE(constructs.count(std::string(rejected.construct))) << rejected.construct;
    EXPECT_TRUE(rejected.compiler == "clang" || rejected.compiler == "nvcc") << rejected.compiler;
    EXPECT_FALSE(rejected.reason.empty());
  }
  for (const ConstructInfo& info : construct_catalog())
    EXPECT_EQ(info.rejected_by, info.name == "managed_memory" ? "clang" : "") << info.name;
}

TEST(Defaults, RejectingCompilersComeFromConstructsAndProbes) {
  // managed_memory on: every program uses it, and clang rejects every one.
  const Policy managed = with({{"construct.managed_memory", 1}, {"probe.share", 0}});
  for (std::uint64_t seed = 1; seed <= 10; ++seed)
    EXPECT_EQ(rejecting_compilers(generate_program(managed, seed, Size::small).sidecar), std::set<std::string>{"clang"})
        << seed;
  // Neither managed memory nor probes: nothing is rejected on purpose.
  const Policy plain = with({{"construct.managed_memory", 0}, {"probe.share", 0}});
  for (std::uint64_t seed = 1; seed <= 10; ++seed)
    EXPECT_TRUE(rejecting_compilers(generate_program(plain, seed, Size::small).sidecar).empty()) << seed;
  // Probes clang rejects: a program carrying one is rejected by clang, and a batch answers for
  // its tests.
  const Policy probes = with({{"construct.managed_memory", 0}, {"probe.share", 1}, {"probe.count.max", 16}});
  int with_clang_probe = 0;
  std::vector<std::uint64_t> rejected_seeds;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Sidecar sidecar = generate_program(probes, seed, Size::small).sidecar;
    bool carries = false;
    for (const Sidecar::Probe& probe : *sidecar.probes)
      carries = carries || !cudiff::rules::find_rule(probe.rule)->probe->clang_rejects.empty();
    EXPECT_EQ(rejecting_compilers(sidecar).count("clang") != 0, carries) << seed;
    if (carries) {
      ++with_clang_probe;
      rejected_seeds.push_back(seed);
    }
  }
  EXPECT_GT(with_clang_probe, 0) << "probe.clang_rejects is on by default: some of 60 programs carry such a probe";
  ASSERT_FALSE(rejected_seeds.empty());
  EXPECT_EQ(rejecting_compilers(generate_batch(probes, {rejected_seeds.front(), 1000001}, Size::small).sidecar),
            std::set<std::string>{"clang"});
}

TEST(Defaults, AProgramCarriesAtMostOneKnownRejection) {
  // Every probe possible, as many as can be: still at most one clang rejects, and none beside
  // managed memory, so the finding of such a program is one known difference (one bucket).
  const auto clang_rejected_probes = [](const Sidecar& sidecar) {
    int count = 0;
    for (const Sidecar::Probe& probe : *sidecar.probes)
      count += cudiff::rules::find_rule(probe.rule)->probe->clang_rejects.empty() ? 0 : 1;
    return count;
  };
  const Policy many = with({{"probe.share", 1}, {"probe.count.max", 16}, {"construct.managed_memory", 0}});
  const Policy managed = with({{"probe.share", 1}, {"probe.count.max", 16}, {"construct.managed_memory", 1}});
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    EXPECT_LE(clang_rejected_probes(generate_program(many, seed, Size::small).sidecar), 1) << seed;
    EXPECT_EQ(clang_rejected_probes(generate_program(managed, seed, Size::small).sidecar), 0) << seed;
  }
}

} // namespace
