// The typed Sidecar and its JSON: every kind of generated sidecar survives to_json and back
// unchanged, partial sidecars load, and damaged ones fail with Error(usage) naming the field.
#include "common/rng.h"
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <functional>

namespace {

using namespace cudiff::generator;
using cudiff::test::contains;

/// to_json(sidecar_from_json(to_json(s))) == to_json(s), and the struct read back equals `s`.
void expect_round_trip(const TestCase& test) {
  SCOPED_TRACE(test.name);
  const boost::json::object json = to_json(test.sidecar);
  const Sidecar read = sidecar_from_json(json);
  EXPECT_EQ(to_json(read), json);
  EXPECT_EQ(read, test.sidecar);
  // Through text too, as a sidecar file is read: numbers parsed back keep their values.
  EXPECT_EQ(to_json(sidecar_from_json(boost::json::parse(cudiff::pretty_json(json)))), json);
}

/// What sidecar_from_json says of `json`: "" when it loads, else the message of its Error(usage).
std::string rejection_of(const boost::json::value& json) {
  try {
    static_cast<void>(sidecar_from_json(json));
    return "";
  } catch (const cudiff::Error& error) {
    EXPECT_EQ(error.kind(), cudiff::ErrorKind::usage) << error.what();
    return error.what();
  }
}

std::string rejection(std::string_view text) { return rejection_of(boost::json::parse(text)); }

TEST(Sidecar, GeneratedProgramsRoundTrip) {
  Policy probed = Policy::defaults();
  probed.set("probe.share", 1);
  for (const Policy& policy : {Policy::defaults(), probed})
    for (Size size : {Size::small, Size::medium})
      for (std::uint64_t seed = 1; seed <= 12; ++seed) expect_round_trip(generate_program(policy, seed, size));
  expect_round_trip(generate_program(Policy::defaults(), 3, Size::large));
}

TEST(Sidecar, BatchesEdgeProgramsAndProgramsFromBytesRoundTrip) {
  expect_round_trip(generate_batch(Policy::defaults(), {1, 2, 3, 4, 5, 6, 7, 8}, Size::small));
  expect_round_trip(generate_batch(Policy::defaults(), {40}, Size::medium));
  for (std::uint64_t seed = 1; seed <= 10; ++seed)
    expect_round_trip(generate_edge(Policy::defaults(), seed, Size::small));
  expect_round_trip(violation_alone("R-HOSTEXT-NODEV"));
  cudiff::SeededRng source(77);
  for (std::size_t length : {0, 1, 100, 5000}) {
    std::string bytes;
    for (std::size_t i = 0; i < length; ++i) bytes += static_cast<char>(source.below(256));
    expect_round_trip(generate_from_bytes(Policy::defaults(), bytes, Size::small));
  }
}

TEST(Sidecar, TheJsonHasTheKeysOfEachKind) {
  const boost::json::object program = to_json(generate_program(Policy::defaults(), 5, Size::small).sidecar);
  for (const char* key : {"generator_version", "seed", "policy_hash", "size", "constructs_enabled", "constructs_used",
                          "kernels", "layout_probes", "probes", "expected_verdict"})
    EXPECT_TRUE(program.contains(key)) << key;
  for (const char* key : {"batch", "tests", "edge", "input"}) EXPECT_FALSE(program.contains(key)) << key;
  EXPECT_EQ(program.at("expected_verdict"), "accept");
  EXPECT_EQ(program.at("size"), "small");

  const boost::json::object batch = to_json(generate_batch(Policy::defaults(), {5, 6}, Size::small).sidecar);
  EXPECT_EQ(batch.at("batch"), (boost::json::array{5, 6}));
  const boost::json::object& first = batch.at("tests").as_array().at(0).as_object();
  EXPECT_EQ(first.size(), program.size());  // a test's sidecar is a program's, its names labelled
  EXPECT_EQ(first.at("seed"), 5);
  for (const char* key : {"seed", "constructs_enabled", "constructs_used", "probes"})
    EXPECT_FALSE(batch.contains(key)) << key;

  const boost::json::object edge = to_json(violation_alone("R-HOSTEXT-NODEV").sidecar);
  EXPECT_EQ(edge.size(), 2u);
  EXPECT_EQ(edge.at("expected_verdict"), "reject");
  EXPECT_EQ(edge.at("edge").at("rule"), "R-HOSTEXT-NODEV");
}

TEST(Sidecar, PartialSidecarsLoad) {
  const Sidecar probes_only = sidecar_from_json(boost::json::parse(
      R"({"layout_probes": [{"type": "A", "array": "cudiff_layout_A", "properties": ["sizeof", "offsetof.m0"],
                             "member_kinds": {"m0": "vector"}}]})"));
  ASSERT_TRUE(probes_only.layout_probes);
  ASSERT_EQ(probes_only.layout_probes->size(), 1u);
  EXPECT_EQ(probes_only.layout_probes->front().properties, (std::vector<std::string>{"sizeof", "offsetof.m0"}));
  EXPECT_EQ(probes_only.layout_probes->front().member_kinds,
            (std::vector<std::pair<std::string, std::string>>{{"m0", "vector"}}));
  EXPECT_FALSE(probes_only.kernels || probes_only.expected_verdict || probes_only.seed || probes_only.batch);

  const Sidecar edge = sidecar_from_json(
      boost::json::parse(R"({"expected_verdict": "reject", "edge": {"rule": "R-X"}})"));
  EXPECT_EQ(edge.expected_verdict, Sidecar::Verdict::reject);
  EXPECT_EQ(edge.edge, (Sidecar::Edge{"R-X", 0, ""}));
  EXPECT_FALSE(edge.layout_probes);

  EXPECT_EQ(sidecar_from_json(boost::json::object{}), Sidecar{});
  // Keys it does not know are left alone: a person may keep notes in the file.
  EXPECT_EQ(sidecar_from_json(boost::json::parse(R"({"note": [1, 2], "seed": 4})")).seed, 4u);
  // Absent and empty stay apart: an empty probe list is still a list.
  EXPECT_EQ(to_json(sidecar_from_json(boost::json::parse(R"({"layout_probes": []})"))),
            boost::json::parse(R"({"layout_probes": []})"));
}

TEST(Sidecar, DamagedSidecarsAreUsageErrorsNamingTheField) {
  EXPECT_TRUE(contains(rejection("[1]"), "object"));
  EXPECT_NE(rejection("\"text\""), "");
  EXPECT_NE(rejection("null"), "");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"seed": "1"})", "\"seed\""},
      {R"({"seed": -1})", "\"seed\""},
      {R"({"seed": 1.5})", "\"seed\""},
      {R"({"generator_version": 4})", "\"generator_version\""},
      {R"({"size": "huge"})", "\"size\""},
      {R"({"expected_verdict": "maybe"})", "\"expected_verdict\""},
      {R"({"expected_verdict": true})", "\"expected_verdict\""},
      {R"({"constructs_enabled": ["a", 2]})", "\"constructs_enabled[1]\""},
      {R"({"constructs_used": [{"name": "x", "rule_ids": "V-1"}]})", "\"constructs_used[0].rule_ids\""},
      {R"({"kernels": {}})", "\"kernels\""},
      {R"({"kernels": [{"name": "k", "grid": [1, 1]}]})", "\"kernels[0].grid\""},
      {R"({"kernels": [{"block": [1, 1, 4294967296]}]})", "\"kernels[0].block[2]\""},
      {R"({"kernels": [7]})", "\"kernels[0]\""},
      {R"({"kernels": [{"expected_checksum": 12}]})", "\"kernels[0].expected_checksum\""},
      {R"({"layout_probes": "none"})", "\"layout_probes\""},
      {R"({"layout_probes": [{"type": "B"}]})", "\"layout_probes[0].array\""},
      {R"({"layout_probes": [{"type": "A", "array": 3, "properties": []}]})", "\"layout_probes[0].array\""},
      {R"({"layout_probes": [{"type": "A", "array": "a", "properties": [], "member_kinds": {"m": 1}}]})",
       "\"layout_probes[0].member_kinds.m\""},
      {R"({"probes": [{"space": "both"}]})", "\"probes[0].space\""},
      {R"({"probes": [{"sites": 3000000000}]})", "\"probes[0].sites\""},
      {R"({"edge": "R-X"})", "\"edge\""},
      {R"({"edge": {"line": "7"}})", "\"edge.line\""},
      {R"({"input": {"bytes": -3}})", "\"input.bytes\""},
      {R"({"batch": [1, "2"]})", "\"batch[1]\""},
      {R"({"tests": [{"seed": 1}, 5]})", "\"tests[1]\""},
      {R"({"tests": [{"kernels": [{"name": 1}]}]})", "\"tests[0].kernels[0].name\""},
  };
  for (const auto& [json, field] : cases) {
    const std::string why = rejection(json);
    EXPECT_TRUE(contains(why, field)) << json << " gave: " << (why.empty() ? "no error" : why);
  }
}

TEST(Sidecar, DamagedGeneratedSidecarsThrowOnlyUsageErrors) {
  // Every value of a real sidecar replaced, one at a time, by values of other types.
  const boost::json::object json = to_json(generate_batch(Policy::defaults(), {2, 3}, Size::small).sidecar);
  const std::vector<boost::json::value> replacements = {
      nullptr, true, -1, 1.5, "x", boost::json::array{1}, boost::json::object{{"a", 1}}};
  std::size_t replaced = 0, rejected = 0;
  std::function<void(boost::json::value&)> visit;
  boost::json::value whole = json;
  visit = [&](boost::json::value& node) {
    const boost::json::value original = node;
    for (const boost::json::value& replacement : replacements) {
      node = replacement;
      ++replaced;
      try {
        static_cast<void>(sidecar_from_json(whole));
      } catch (const cudiff::Error& error) {
        EXPECT_EQ(error.kind(), cudiff::ErrorKind::usage) << error.what();
        ++rejected;
      } catch (const std::exception& error) {
        ADD_FAILURE() << "not a cudiff::Error: " << error.what();
      }
    }
    node = original;
    if (node.is_object())
      for (auto& member : node.as_object()) visit(member.value());
    else if (node.is_array() && !node.as_array().empty())
      visit(node.as_array().front());  // one element of each list is enough
  };
  for (auto& member : whole.as_object()) visit(member.value());
  EXPECT_GT(replaced, 300u);
  EXPECT_GT(rejected, replaced / 2);
}

} // namespace
