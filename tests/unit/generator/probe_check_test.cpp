// No probe result depends on an unspecified value: every probe of the rules catalog passes the
// check (generator/probes/probe_check.cpp), the check catches each kind of use it claims to, and every
// waiver still waives something.
#include "generator/generator.h"
#include "rules/rules.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff::generator;

cudiff::rules::RuleProbe device_probe(std::string fragment) {
  cudiff::rules::RuleProbe probe;
  probe.fragment = std::move(fragment);
  probe.function = "cudiff_vp_test";
  return probe;
}

TEST(ProbeCheck, NoCatalogProbeDependsOnAnUnspecifiedValue) {
  int probes = 0;
  for (const cudiff::rules::Rule& rule : cudiff::rules::rule_catalog()) {
    if (!rule.probe) continue;
    ++probes;
    for (const std::string& use : unspecified_value_uses(rule.id, *rule.probe)) ADD_FAILURE() << rule.id << ": " << use;
  }
  EXPECT_GT(probes, 0);
}

TEST(ProbeCheck, EveryWaiverStillWaivesAUse) {
  for (const auto& [rule_id, waiver] : waived_unspecified_uses()) {
    const cudiff::rules::Rule* rule = cudiff::rules::find_rule(rule_id);
    ASSERT_TRUE(rule && rule->probe) << rule_id << " has no probe: drop its waiver";
    // The same fragment under another name is not waived: the check must see the use.
    const std::vector<std::string> uses = unspecified_value_uses("X-UNWAIVED", *rule->probe);
    EXPECT_TRUE(std::ranges::any_of(uses, [&](const std::string& use) { return use.ends_with(waiver.first); }))
        << rule_id << ": the waived use '" << waiver.first << "' is gone: drop the waiver";
  }
}

// The V-KERNEL-CLOSURE-DEVFN probe before it was fixed: a device-side kernel address is 0 at run
// time on the GPU, and the comparison is folded to true at -O3.
TEST(ProbeCheck, FlagsADeviceSideKernelAddressComparedWithNull) {
  const auto uses = unspecified_value_uses(
      "V-KERNEL-CLOSURE-DEVFN",
      device_probe("template <typename T>\n__global__ void k(T in, unsigned long long* out) { out[0] = in(1ull); }\n"
                   "__device__ unsigned long long f(unsigned long long x) {\n"
                   "  auto l1 = [](unsigned long long v) { return v + 1ull; };\n"
                   "  void (*k1)(decltype(l1), unsigned long long*) = k<decltype(l1)>;\n"
                   "  return l1(x) - ((k1 != nullptr) ? 1ull : 2ull);\n}\n"));
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_NE(uses.front().find("line 6"), std::string::npos) << uses.front();
  EXPECT_NE(uses.front().find("'k1'"), std::string::npos) << uses.front();
  EXPECT_EQ(
      unspecified_value_uses("T", device_probe("__global__ void k() {}\n__device__ bool f() { return !k; }\n")).size(),
      1u);
}

TEST(ProbeCheck, TheFixedClosureProbeFormsTheAddressWithoutReadingIt) {
  const cudiff::rules::Rule* rule = cudiff::rules::find_rule("V-KERNEL-CLOSURE-DEVFN");
  ASSERT_TRUE(rule && rule->probe);
  EXPECT_TRUE(unspecified_value_uses(rule->id, *rule->probe).empty());
  EXPECT_EQ(rule->probe->fragment.find("nullptr"), std::string::npos);
}

TEST(ProbeCheck, FlagsVoteValuesUsedAsNumbers) {
  EXPECT_EQ(unspecified_value_uses("T",
                                   device_probe("__device__ int f(int x) { return x ^ __all_sync(0xffffffffu, x); }"))
                .size(),
            1u);
  EXPECT_EQ(unspecified_value_uses("T",
                                   device_probe("__device__ int f(int x) { int v = __syncthreads_or(x); return v; }"))
                .size(),
            1u);
  // Only the truth is used: specified.
  EXPECT_TRUE(unspecified_value_uses("T", device_probe("__device__ int f(int x) {\n"
                                                       "  int a = __any_sync(0xffffffffu, x) != 0;\n"
                                                       "  if (__all_sync(0xffffffffu, x)) a += 2;\n"
                                                       "  return a + (!__syncthreads_and(x) ? 4 : 0);\n}\n"))
                  .empty());
}

TEST(ProbeCheck, FlagsAddressesAsIntegersAndClocks) {
  EXPECT_EQ(unspecified_value_uses(
                "T", device_probe(
                         "__device__ unsigned long long f(int* p) { return reinterpret_cast<unsigned long long>(p); }"))
                .size(),
            1u);
  EXPECT_EQ(unspecified_value_uses("T",
                                   device_probe("__device__ unsigned long long f(int* p) { return (uintptr_t)p; }"))
                .size(),
            1u);
  EXPECT_EQ(unspecified_value_uses("T", device_probe("__device__ long long f() { return clock64(); }")).size(), 1u);
  EXPECT_EQ(unspecified_value_uses(
                "T", device_probe(
                         "__device__ unsigned f() { unsigned s; asm(\"mov.u32 %0, %%smid;\" : \"=r\"(s)); return s; }"))
                .size(),
            1u);
  // A pointer cast to another pointer type keeps no address in the result.
  EXPECT_TRUE(
      unspecified_value_uses("T", device_probe("__device__ int f(int* p) { return *reinterpret_cast<int*>(p); }"))
          .empty());
}

} // namespace
