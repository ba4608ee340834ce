// Programs a compiler rejects on purpose are checked alone: which seeds fuzz_batch takes out of
// its batch, for the compilers of the campaign's configs (no compiler runs here).
#include "campaign/batch_parts.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff;

std::vector<runners::Config> configs(std::initializer_list<runners::CompilerKind> kinds) {
  std::vector<runners::Config> list;
  for (runners::CompilerKind kind : kinds) {
    runners::Config config;
    config.compiler = kind;
    config.name = runners::to_string(kind) + "-O3";
    list.push_back(config);
  }
  return list;
}

TEST(RejectedBatching, ManagedProgramsAreCheckedAloneOnlyWhereClangBuildsThem) {
  generator::Policy managed = generator::Policy::defaults();
  managed.set("construct.managed_memory", 1);
  managed.set("probe.share", 0);
  const std::vector<std::uint64_t> seeds = {11, 12, 13, 14};
  const auto both = configs({runners::CompilerKind::nvcc, runners::CompilerKind::clang});
  EXPECT_EQ(campaign::seeds_rejected_on_purpose(managed, generator::Size::small, seeds, both), seeds);
  // nvcc against nvcc: nothing is rejected on purpose, the batch stays whole.
  EXPECT_TRUE(campaign::seeds_rejected_on_purpose(managed, generator::Size::small, seeds,
                                                  configs({runners::CompilerKind::nvcc}))
                  .empty());
  generator::Policy plain = generator::Policy::defaults();
  plain.set("construct.managed_memory", 0);
  plain.set("probe.share", 0);
  EXPECT_TRUE(campaign::seeds_rejected_on_purpose(plain, generator::Size::small, seeds, both).empty());
}

TEST(RejectedBatching, UnderTheDefaultsExactlyTheSeedsWhoseSidecarNamesARejectingCompiler) {
  const generator::Policy defaults = generator::Policy::defaults();
  std::vector<std::uint64_t> seeds, expected;
  for (std::uint64_t seed = 7000; seed < 7200; ++seed) {
    seeds.push_back(seed);
    if (!generator::rejecting_compilers(generator::generate_program(defaults, seed, generator::Size::small).sidecar)
             .empty())
      expected.push_back(seed);
  }
  EXPECT_FALSE(expected.empty()) << "some of 200 default programs use managed memory or a probe clang rejects";
  EXPECT_LT(expected.size(), 40u) << "rare: most programs are batched";
  EXPECT_EQ(campaign::seeds_rejected_on_purpose(defaults, generator::Size::small, seeds,
                                                configs({runners::CompilerKind::nvcc, runners::CompilerKind::clang})),
            expected);
}

} // namespace
