// Policy: knobs from the tables, set/get with bounds, dump/load round trip, hash, swarm.
#include "generator/generator.h"

#include <gtest/gtest.h>

using cudiff::Error;
using cudiff::ErrorKind;
using cudiff::generator::Policy;

TEST(Policy, EveryConstructHasASwarmKnob) {
  const Policy policy = Policy::defaults();
  for (const auto& construct : cudiff::generator::construct_catalog()) {
    double p = policy.get("construct." + construct.name);
    EXPECT_GE(p, 0.0);
    EXPECT_LE(p, 1.0);
  }
  EXPECT_FALSE(cudiff::generator::construct_catalog().empty());
}

TEST(Policy, DumpLoadRoundTripKeepsEveryKnobAndTheHash) {
  Policy policy = Policy::defaults();
  const auto& first = policy.knobs().front();
  policy.set(first.name, first.min);
  Policy loaded = Policy::load(policy.dump());
  EXPECT_EQ(loaded.dump(), policy.dump());
  EXPECT_EQ(loaded.hash(), policy.hash());
  EXPECT_NE(policy.hash(), Policy::defaults().hash());
}

TEST(Policy, LoadRejectsUnknownKnobsAndOutOfRangeValues) {
  try {
    Policy::load(R"({"no.such.knob": 1})");
    FAIL() << "unknown knob accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(error.what()).find("no.such.knob"), std::string::npos);
  }
  const auto knob = Policy::defaults().knobs().front();  // a copy: the Policy is a temporary
  EXPECT_THROW(Policy::load("{\"" + knob.name + "\": " + std::to_string(knob.max + 1) + "}"), Error);
  EXPECT_THROW(Policy::load("not json"), Error);
  EXPECT_THROW(Policy::load(R"({"x": "text"})"), Error);
}

TEST(Policy, UnknownKnobAskedByTheGeneratorIsAnInternalError) {
  try {
    Policy::defaults().get("missing");
    FAIL();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::internal);
  }
}

TEST(Policy, SwarmHonoursZeroAndOneProbabilities) {
  Policy policy = Policy::defaults();
  const auto catalog = cudiff::generator::construct_catalog();
  for (std::size_t i = 0; i < catalog.size(); ++i) policy.set("construct." + catalog[i].name, i % 2 == 0 ? 0.0 : 1.0);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    cudiff::SeededRng rng(seed);
    auto swarm = cudiff::generator::sample_swarm(policy, rng);
    for (std::size_t i = 0; i < catalog.size(); ++i) EXPECT_EQ(swarm.on(catalog[i].name), i % 2 == 1);
  }
}
