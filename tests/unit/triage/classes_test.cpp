// triage classes: every finding kind has exactly the class docs/triage.md gives it (a kind
// added to the oracle without one fails here), class names round-trip, the engine of each
// campaign kind, and buckets grouped by class.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <map>

using namespace cudiff;
using oracle::FindingKind;
using triage::FindingClass;

namespace {

/// Every FindingKind: the enum's values are 0, 1, ... and to_string names each ("unknown" past
/// the last), so this finds a kind added later without a list to keep up to date.
std::vector<FindingKind> all_kinds() {
  std::vector<FindingKind> kinds;
  for (int value = 0; value < 256; ++value) {
    const auto kind = static_cast<FindingKind>(value);
    if (oracle::to_string(kind) == "unknown") break;
    kinds.push_back(kind);
  }
  return kinds;
}

} // namespace

TEST(TriageClasses, EveryFindingKindHasTheDocumentedClass) {
  // docs/triage.md, "Classes and engines": one row per kind. A new kind must be added here
  // with the class it belongs to.
  const std::map<std::string, FindingClass> documented = {
      {"run_mismatch", FindingClass::wrong_code},
      {"wrong_code", FindingClass::wrong_code},
      {"common_wrong_code", FindingClass::wrong_code},
      {"layout_mismatch", FindingClass::layout_abi},
      {"abi_mismatch", FindingClass::layout_abi},
      {"metamorphic", FindingClass::wrong_code},
      {"crash", FindingClass::crash},
      {"hang", FindingClass::crash},
      {"slow_compile", FindingClass::crash},
      {"false_rejection", FindingClass::rejects_valid},
      {"compile_status_mismatch", FindingClass::rejects_valid},
      {"late_rejection", FindingClass::missed_diagnostic},
      {"missed_diagnostic", FindingClass::missed_diagnostic},
      {"missed_by_all", FindingClass::missed_diagnostic},
      {"warning_mismatch", FindingClass::missed_diagnostic},
      {"dialect_difference", FindingClass::dialect_difference},
  };
  const auto kinds = all_kinds();
  ASSERT_GE(kinds.size(), 16u);
  EXPECT_EQ(kinds.size(), documented.size()) << "a kind without a documented class, or one the oracle lost";
  for (FindingKind kind : kinds) {
    const std::string name = oracle::to_string(kind);
    ASSERT_EQ(oracle::parse_finding_kind(name), kind) << name;
    const auto expected = documented.find(name);
    ASSERT_NE(expected, documented.end()) << "no documented class for the finding kind " << name;
    EXPECT_EQ(triage::class_of(kind), expected->second) << name;
    EXPECT_EQ(triage::class_of_kind(name), expected->second) << name;
    EXPECT_NE(triage::class_of(kind), FindingClass::invalid_tests) << name << ": invalid tests are no buckets";
  }
  EXPECT_EQ(triage::class_of_kind("a_kind_from_a_newer_cudiff"), std::nullopt);
}

TEST(TriageClasses, NamesInOrderRoundTripAndUnknownIsRefused) {
  std::vector<std::string> names;
  for (FindingClass finding_class : triage::finding_classes) names.push_back(triage::to_string(finding_class));
  EXPECT_EQ(names, (std::vector<std::string>{"wrong code", "crash", "rejects valid", "missed diagnostic",
                                             "layout and ABI", "dialect difference", "invalid tests"}));
  for (FindingClass finding_class : triage::finding_classes)
    EXPECT_EQ(triage::parse_finding_class(triage::to_string(finding_class)), finding_class);
  EXPECT_EQ(triage::parse_finding_class("wrong-code"), FindingClass::wrong_code);
  EXPECT_EQ(triage::parse_finding_class("missed_diagnostic"), FindingClass::missed_diagnostic);
  EXPECT_EQ(triage::parse_finding_class("invalid-tests"), FindingClass::invalid_tests);
  const std::string error = test::error_message_of([] { triage::parse_finding_class("bugs"); });
  EXPECT_TRUE(test::contains(error, "unknown class 'bugs'")) << error;
  EXPECT_TRUE(test::contains(error, "rejects-valid")) << error;
  EXPECT_EQ(triage::class_name(std::nullopt), "other kinds");
}

TEST(TriageClasses, EngineOfCampaignAndFindingKinds) {
  EXPECT_EQ(triage::engine_of("fuzz", "run_mismatch"), "random");
  EXPECT_EQ(triage::engine_of("baseline", "crash"), "random") << "the guided engine's unguided arm";
  EXPECT_EQ(triage::engine_of("guided", "crash"), "guided");
  EXPECT_EQ(triage::engine_of("check", "compile_status_mismatch"), "check");
  EXPECT_EQ(triage::engine_of("fuzz", "metamorphic"), "metamorphic");
  EXPECT_EQ(triage::engine_of("synthetic", "crash"), "synthetic");
  EXPECT_EQ(triage::engine_of("", "crash"), "unknown");
  EXPECT_EQ(triage::engine_of("reduce", "crash"), std::nullopt);
  EXPECT_EQ(triage::engine_of("reduce", "metamorphic"), std::nullopt) << "a reproducer is not a sighting";
}

TEST(TriageClasses, GroupsKeepEveryClassInOrderAndUnknownKindsLast) {
  auto bucket = [](std::int64_t id, const std::string& kind, std::int64_t count) {
    triage::Bucket b;
    b.id = id;
    b.kind = kind;
    b.count = count;
    return b;
  };
  const auto groups = triage::group_by_class({bucket(1, "crash", 9), bucket(2, "wrong_code", 7),
                                              bucket(3, "future_kind", 5), bucket(4, "hang", 3),
                                              bucket(5, "late_rejection", 2)});
  ASSERT_EQ(groups.size(), 8u);
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(groups[i].finding_class, triage::finding_classes[i]);
  EXPECT_EQ(groups[7].finding_class, std::nullopt);
  ASSERT_EQ(groups[1].buckets.size(), 2u);
  EXPECT_EQ(groups[1].buckets[0].id, 1) << "the order given is kept";
  EXPECT_EQ(groups[1].buckets[1].id, 4);
  EXPECT_EQ(groups[1].findings, 12);
  EXPECT_EQ(groups[0].findings, 7);
  EXPECT_TRUE(groups[2].buckets.empty());
  EXPECT_EQ(groups[3].buckets.size(), 1u);
  EXPECT_TRUE(groups[6].buckets.empty());
  EXPECT_EQ(groups[7].buckets.front().id, 3);
  EXPECT_EQ(triage::group_by_class({}).size(), 7u) << "no bucket of an unknown kind: no such group";
}

TEST(BugTally, NewBugsByClassThenKnownThenDialect) {
  const auto bucket = [](std::string kind, triage::Status status) {
    triage::Bucket b;
    b.kind = std::move(kind);
    b.status = status;
    return b;
  };
  using triage::Status;
  const std::vector<triage::Bucket> buckets = {bucket("wrong_code", Status::fresh),
                                               bucket("crash", Status::fresh),
                                               bucket("hang", Status::fresh),
                                               bucket("missed_diagnostic", Status::fresh),
                                               bucket("layout_mismatch", Status::known),
                                               bucket("false_rejection", Status::reported),
                                               bucket("dialect_difference", Status::known),
                                               bucket("dialect_difference", Status::fresh),
                                               bucket("run_mismatch", Status::invalid)};
  const triage::BugTally tally = triage::tally_bugs(buckets);
  EXPECT_EQ(tally.total_new(), 4);
  EXPECT_EQ(tally.known_or_reported, 2);
  EXPECT_EQ(tally.dialect, 2) << "a dialect difference is never a bug, whatever its status";
  EXPECT_EQ(triage::describe(tally), "4 new bugs (1 wrong code, 2 crashes, 1 missed diagnostic), 2 known or "
                                     "reported, 2 dialect, 1 marked invalid");
  const auto json = triage::to_json(tally);
  EXPECT_EQ(json.at("new_bugs").as_int64(), 4);
  EXPECT_EQ(json.at("new_by_class").at("crash").as_int64(), 2);
  EXPECT_EQ(triage::describe(triage::tally_bugs({})), "no new bugs, 0 known or reported, 0 dialect");
}
