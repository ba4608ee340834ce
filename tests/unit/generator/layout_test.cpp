// The layout generator: determinism, knobs honoured (a construct off is absent), and the
// sidecar's probes matching the emitted device arrays and host rows.
#include "generator/layout/layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>

using namespace cudiff::generator;

namespace {

const char* const kLayoutConstructs[] = {"struct_types",
                                         "class_types",
                                         "constructors",
                                         "delegating_constructors",
                                         "member_functions",
                                         "inheritance",
                                         "multiple_inheritance",
                                         "empty_bases",
                                         "alignas_types",
                                         "alignas_members",
                                         "bit_fields",
                                         "zero_width_bit_fields",
                                         "vector_members",
                                         "array_members",
                                         "nested_aggregates",
                                         "unions",
                                         "enums",
                                         "float_members"};

/// Every layout construct on (long double stays at its default, off), many types.
Policy everything() {
  Policy policy = Policy::defaults();
  for (const char* construct : kLayoutConstructs) policy.set(std::string("construct.") + construct, 1.0);
  policy.set("large.types.max", 12);
  return policy;
}

LayoutPlan plan(const Policy& policy, std::uint64_t seed, Size size = Size::large) {
  cudiff::SeededRng rng(seed);
  const Swarm swarm = sample_swarm(policy, rng);
  return plan_layout(policy, rng, swarm, size);
}

std::string text(const LayoutPlan& p) {
  Sidecar probes;
  probes.layout_probes = p.probes;
  return p.definitions + p.device_probes + p.host_probe_function + boost::json::serialize(to_json(probes));
}

bool any_kind(const LayoutPlan& p, const std::string& kind) {
  for (const Aggregate& aggregate : p.aggregates)
    for (const AggregateMember& member : aggregate.members)
      if (member.kind == kind) return true;
  return false;
}

} // namespace

TEST(LayoutGenerator, SameSeedSameTextDifferentSeedsDiffer) {
  const Policy policy = everything();
  EXPECT_EQ(text(plan(policy, 7)), text(plan(policy, 7)));
  EXPECT_NE(text(plan(policy, 7)), text(plan(policy, 8)));
}

TEST(LayoutGenerator, AllConstructsOnUsesThemAll) {
  const Policy policy = everything();
  std::set<std::string> used;
  for (std::uint64_t seed = 1; seed <= 200; ++seed)
    for (const std::string& construct : plan(policy, seed).constructs_used) used.insert(construct);
  for (const char* construct : kLayoutConstructs) EXPECT_TRUE(used.count(construct)) << construct;
  EXPECT_TRUE(used.count("long_double_members"));  // on by default since 0.6.0 (a known difference)
  // Every construct used is in the catalog, with rule ids.
  for (const std::string& construct : used) {
    bool found = false;
    for (const ConstructInfo& info : construct_catalog())
      if (info.name == construct) found = !info.rule_ids.empty();
    EXPECT_TRUE(found) << construct;
  }
}

TEST(LayoutGenerator, ConstructSwitchedOffIsAbsent) {
  struct Case {
    const char* construct;
    std::function<bool(const LayoutPlan&)> present;
  };
  const std::vector<Case> cases = {
      {"bit_fields",
       [](const LayoutPlan& p) {
         return any_kind(p, "bitfield") || std::regex_search(p.definitions, std::regex(R"(\w : \d+;)"));
       }},
      {"vector_members", [](const LayoutPlan& p) { return any_kind(p, "vector"); }},
      {"unions", [](const LayoutPlan& p) { return p.definitions.find("union ") != std::string::npos; }},
      {"enums", [](const LayoutPlan& p) { return p.definitions.find("enum ") != std::string::npos; }},
      {"alignas_types",
       [](const LayoutPlan& p) {
         return std::regex_search(p.definitions, std::regex(R"((struct|class|union) alignas)"));
       }},
      {"alignas_members", [](const LayoutPlan& p) { return p.definitions.find("  alignas(") != std::string::npos; }},
      {"inheritance", [](const LayoutPlan& p) { return p.definitions.find(" : public ") != std::string::npos; }},
      {"constructors", [](const LayoutPlan& p) { return p.definitions.find("() = default;") != std::string::npos; }},
      {"member_functions", [](const LayoutPlan& p) { return p.definitions.find("const {") != std::string::npos; }},
      {"array_members", [](const LayoutPlan& p) { return any_kind(p, "array"); }},
      {"class_types", [](const LayoutPlan& p) { return p.definitions.find("\nclass ") != std::string::npos; }},
  };
  for (const Case& c : cases) {
    Policy policy = everything();
    policy.set(std::string("construct.") + c.construct, 0.0);
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      const LayoutPlan p = plan(policy, seed);
      EXPECT_FALSE(c.present(p)) << c.construct << " seed " << seed << "\n" << p.definitions;
      EXPECT_FALSE(p.constructs_used.count(c.construct)) << c.construct;
    }
    // And with it on, it shows up in some program (the check above can see it).
    Policy on = everything();
    bool seen = false;
    for (std::uint64_t seed = 1; seed <= 60 && !seen; ++seed) seen = c.present(plan(on, seed));
    EXPECT_TRUE(seen) << c.construct;
  }
}

TEST(LayoutGenerator, LongDoubleOnlyWhenEnabledAndNeverADeviceValueType) {
  Policy policy = everything();
  policy.set("construct.long_double_members", 0);
  for (std::uint64_t seed = 1; seed <= 40; ++seed) EXPECT_FALSE(any_kind(plan(policy, seed), "long double"));
  policy.set("construct.long_double_members", 1.0);
  policy.set("layout.member.long_double", 1.0);
  bool seen = false;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const LayoutPlan p = plan(policy, seed);
    for (const Aggregate& aggregate : p.aggregates)
      for (const AggregateMember& member : aggregate.members)
        if (member.kind == "long double") {
          seen = true;
          EXPECT_FALSE(aggregate.device_value_type) << aggregate.name;
        }
  }
  EXPECT_TRUE(seen);
}

TEST(LayoutGenerator, ZeroTypesKnobGivesNoTypesAndAnEmptyHostFunction) {
  Policy policy = everything();
  policy.set("small.types.max", 0);
  const LayoutPlan p = plan(policy, 3, Size::small);
  EXPECT_TRUE(p.aggregates.empty());
  EXPECT_TRUE(p.probes.empty());
  EXPECT_TRUE(p.device_probes.empty());
  EXPECT_NE(p.host_probe_function.find("static void cudiff_print_layout()"), std::string::npos);
}

TEST(LayoutGenerator, SidecarProbesMatchTheEmittedArraysAndHostRows) {
  const Policy policy = everything();
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const LayoutPlan p = plan(policy, seed);
    ASSERT_EQ(p.probes.size(), p.aggregates.size());
    for (std::size_t i = 0; i < p.probes.size(); ++i) {
      const std::string& type = p.probes[i].type;
      const std::string& array = p.probes[i].array;
      EXPECT_EQ(type, p.aggregates[i].name);
      EXPECT_EQ(array, "cudiff_layout_" + type);
      const std::vector<std::string>& properties = p.probes[i].properties;
      // The device array: `extern "C" { __device__ unsigned long long <array>[] = {...}; }`
      const std::string head = "extern \"C\" { __device__ unsigned long long " + array + "[] = {";
      const std::size_t at = p.device_probes.find(head);
      ASSERT_NE(at, std::string::npos) << array;
      const std::size_t end = p.device_probes.find("}; }", at);
      const std::string values = p.device_probes.substr(at + head.size(), end - at - head.size());
      std::size_t position = 0;
      for (const std::string& name : properties) {
        const std::string expression = name == "sizeof"    ? "sizeof(" + type + ")"
                                       : name == "alignof" ? "alignof(" + type + ")"
                                                           : "offsetof(" + type + ", " + name.substr(9) + ")";
        const std::size_t found = values.find(expression, position);
        EXPECT_EQ(found, position) << type << " " << name << " in " << values;
        position = found + expression.size() + 2;
        // The host prints the same property, with the same expression.
        EXPECT_NE(p.host_probe_function.find("{\"" + type + "\", \"" + name + "\", " + expression + "}"),
                  std::string::npos)
            << type << " " << name;
        if (name.rfind("offsetof.", 0) == 0)
          EXPECT_TRUE(std::ranges::any_of(p.probes[i].member_kinds, [&](const auto& kind) {
            return kind.first == name.substr(9);
          })) << name;
      }
      EXPECT_GE(position, values.size()) << "extra values in " << values;
    }
  }
}

TEST(LayoutGenerator, OffsetofOnlyOnAssertedStandardLayoutTypesAndNeverOnBitFields) {
  const Policy policy = everything();
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const LayoutPlan p = plan(policy, seed);
    for (const Sidecar::LayoutProbe& probe : p.probes) {
      const std::string& type = probe.type;
      const std::map<std::string, std::string> kinds(probe.member_kinds.begin(), probe.member_kinds.end());
      bool offsets = false;
      for (const std::string& name : probe.properties) {
        if (name.rfind("offsetof.", 0) != 0) continue;
        offsets = true;
        EXPECT_NE(kinds.at(name.substr(9)), "bitfield") << type << " " << name;
      }
      if (offsets) EXPECT_NE(p.definitions.find("std::is_standard_layout_v<" + type + ">"), std::string::npos) << type;
    }
  }
}
