// Avoid rules (triage/avoid.cpp, triage/avoid_rules.cpp, campaign/avoid.cpp): derived from the
// known-bug suite's real reduced reproducers, narrowest knob first; every knob the derivation
// names is the generator's; each case.json holds what the derivation gives now; the database
// keeps the rules across a reopen, derives them from confirmed causes and drops them when the
// cause is no longer confirmed; a rule naming an unknown knob is refused with one line.
#include "campaign/campaign.h"
#include "generator/generator.h"
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <set>

using namespace cudiff;
using cudiff::test::contains;

namespace {

std::filesystem::path known_bug(const std::string& name) { return test::source_dir() / "corpus/known-bugs" / name; }

std::string reproducer(const std::string& name) { return read_file(known_bug(name) / "repro.cu"); }

TEST(AvoidRules, TheVadd2CaseTurnsOffTheSimdInWordFamilyNotTheNarrowOnesItAlsoUses) {
  // Its reduced form needs __vadd2 and a short: the SIMD family is the narrower of the two.
  const triage::AvoidDerivation rule = triage::derive_avoid(reproducer("ptxas-vadd2-short-reduced"));
  ASSERT_EQ(rule.knobs.size(), 1u) << rule.why_none;
  EXPECT_EQ(rule.knobs.front(), (triage::KnobSetting{"dense.family.dense_simd", 0}));
  EXPECT_TRUE(contains(rule.needs, "__vadd2")) << rule.needs;
  ASSERT_GE(rule.found.size(), 3u);
  EXPECT_TRUE(contains(rule.found[0], "dense.family.dense_simd"));
  EXPECT_TRUE(contains(rule.found[1], "dense.family.dense_narrow")) << rule.found[1];
  EXPECT_TRUE(contains(rule.found.back(), "dense.share")) << rule.found.back();  // the broadest, last
}

TEST(AvoidRules, AReductionOfAKnownBugWithAnotherCauseKeyIsKnownByTheConstructItNeeds) {
  // cudiff's own 44-line reduction of the scoped unsigned atomicMax bug: its harness is not the
  // hand-written case's, so its PTX (and cause key) differ; what it needs is the same.
  const std::string reduced = read_file(test::source_dir() / "tests/golden/causes/scoped_atomic_reduced.cu");
  const triage::KnownDifferences known = triage::KnownDifferences::shipped();
  const triage::KnownDifference* entry = known.match_idiom("wrong_code", "device-codegen", reduced);
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(contains(entry->reason, "clang-scoped-atomic-unsigned-minmax-signed")) << entry->reason;
  // Another kind or stage is another bug, and --no-known knows none.
  EXPECT_EQ(known.match_idiom("wrong_code", "ptxas", reduced), nullptr);
  EXPECT_EQ(known.match_idiom("crash", "device-codegen", reduced), nullptr);
  EXPECT_EQ(triage::KnownDifferences::none().match_idiom("wrong_code", "device-codegen", reduced), nullptr);
  // The vadd2 bug in another program (other names and constants): the SIMD family, at ptxas.
  const std::string renamed = read_file(test::source_dir() / "tests/golden/causes/vadd2_renamed.cu");
  entry = known.match_idiom("wrong_code", "ptxas", renamed);
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(contains(entry->reason, "ptxas-vadd2-short-reduced")) << entry->reason;
  // A rule that names only a whole family (a dense kernel with nothing narrower) matches none.
  const std::string plain =
      "__global__ void dense_0(unsigned long long* out) { out[threadIdx.x] = threadIdx.x * 3u; }\n";
  ASSERT_EQ(triage::derive_avoid(plain).knobs.front().knob, "dense.share");
  EXPECT_EQ(known.match_idiom("wrong_code", "ptxas", plain), nullptr);
}

TEST(AvoidRules, AnUnreducedCaseYieldsNoRule) {
  // 2,207 lines: nearly everything in it is incidental.
  const triage::AvoidDerivation rule = triage::derive_avoid(reproducer("ptxas-crash-dense-batch-s1026020699322"));
  EXPECT_TRUE(rule.knobs.empty());
  EXPECT_TRUE(contains(rule.why_none, "not reduced")) << rule.why_none;
  EXPECT_TRUE(triage::derive_avoid(reproducer("ptxas-integer-chain-p1029-k8")).knobs.empty());
}

TEST(AvoidRules, AReducedCaseOfAConstructTheGeneratorNeverMakesYieldsNoRule) {
  // A computed goto crashes clang; the generator has no computed goto, so nothing to turn off.
  const triage::AvoidDerivation rule = triage::derive_avoid(reproducer("clang-computed-goto-crash"));
  EXPECT_TRUE(rule.knobs.empty()) << triage::knobs_text(rule.knobs);
  EXPECT_TRUE(contains(rule.why_none, "no construct")) << rule.why_none;
}

TEST(AvoidRules, ACoreProgramsConstructAndAnInlinePtxInstructionFamily) {
  // clang ignores __managed__: the core generator's managed-memory construct is that bug.
  const triage::AvoidDerivation managed = triage::derive_avoid(reproducer("clang-managed-variable-ignored"));
  ASSERT_EQ(managed.knobs.size(), 1u) << managed.why_none;
  EXPECT_EQ(managed.knobs.front().knob, "construct.managed_memory");
  // The same vadd2 in an inline-PTX block of a dense kernel: the PTX video family, narrower than
  // the dense family of inline PTX, and no SIMD intrinsic is involved.
  std::string asm_form = reproducer("ptxas-vadd2-short-reduced");
  const std::string call = "v1 = __vadd2(0, 0x6cd7b644u);";
  ASSERT_NE(asm_form.find(call), std::string::npos);
  asm_form.replace(asm_form.find(call), call.size(),
                   "unsigned r;\n  asm volatile(\"{\\n\\tvadd2.u32.u32.u32 %0, %1, %2, %3;\\n\\t}\" : \"=r\"(r) : "
                   "\"r\"(0u), \"r\"(0x6cd7b644u), \"r\"(0u));\n  v1 = r;");
  const triage::AvoidDerivation video = triage::derive_avoid(asm_form);
  ASSERT_EQ(video.knobs.size(), 1u) << video.why_none;
  EXPECT_EQ(video.knobs.front().knob, "ptx.family.video");
  EXPECT_TRUE(std::ranges::any_of(video.found, [](const std::string& f) { return contains(f, "dense_inline_ptx"); }));
  EXPECT_FALSE(std::ranges::any_of(video.found, [](const std::string& f) { return contains(f, "dense_simd"); }));
}

TEST(AvoidRules, EveryKnobTheDerivationNamesIsAGeneratorPolicyKnobThatZeroSwitchesOff) {
  generator::Policy policy = generator::Policy::defaults();
  for (const std::string& knob : triage::avoid_table_knobs()) {
    EXPECT_NO_THROW(policy.set(knob, 0)) << knob;  // exists, and 0 is in its range
    EXPECT_EQ(policy.get(knob), 0) << knob;
  }
}

TEST(AvoidRules, EveryKnownBugCaseHoldsTheRuleTheDerivationGivesNow) {
  // scripts/known_bug_avoid.sh wrote them; a change of the table or a reproducer needs it re-run.
  std::size_t with_rule = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "corpus/known-bugs")) {
    if (!entry.is_directory()) continue;
    const std::string name = entry.path().filename().string();
    const auto json = boost::json::parse(read_file(entry.path() / "case.json")).as_object();
    const auto* cause = json.if_contains("cause");
    const auto* gone = json.if_contains("does_not_reproduce");
    bool yields = json.contains("confirmed") && json.at("confirmed").as_bool() && cause != nullptr &&
                  (gone == nullptr || gone->as_string().empty());
    bool some_kind = false;
    const auto& kinds = json.at("expect").at("kind");
    for (const auto& kind : kinds.is_array() ? kinds.as_array() : boost::json::array{kinds})
      some_kind = some_kind || triage::kind_yields_avoid_rule(kind.as_string());
    yields = yields && some_kind;
    const triage::AvoidDerivation derived = yields ? triage::derive_avoid(read_file(
                                                         entry.path() / std::string(json.at("file").as_string())))
                                                   : triage::AvoidDerivation{};
    const auto* avoid = json.if_contains("avoid");
    if (derived.knobs.empty()) {
      EXPECT_EQ(avoid, nullptr) << name << ": no rule derives from it now";
      continue;
    }
    ++with_rule;
    ASSERT_NE(avoid, nullptr) << name << ": derives " << triage::knobs_text(derived.knobs);
    std::vector<triage::KnobSetting> stored;
    for (const auto& [knob, value] : avoid->at("knobs").as_object())
      stored.push_back({std::string(knob), value.to_number<double>()});
    EXPECT_EQ(stored, derived.knobs) << name;
    EXPECT_EQ(avoid->at("needs").as_string(), derived.needs) << name;
  }
  EXPECT_GE(with_rule, 2u);  // vadd2 and managed memory at least
  // The shipped knowledge carries them, by cause key; none() carries none.
  const auto shipped = triage::KnownDifferences::shipped().avoid_rules();
  EXPECT_EQ(shipped.size(), with_rule);
  const bool vadd2 = std::ranges::any_of(shipped, [](const triage::AvoidRule& rule) {
    return rule.origin == "case ptxas-vadd2-short-reduced" && rule.cause_key == "9b1a6ddda03df7e1701491e554dacd57" &&
           rule.knobs == std::vector<triage::KnobSetting>{{"dense.family.dense_simd", 0}};
  });
  EXPECT_TRUE(vadd2);
  EXPECT_TRUE(triage::KnownDifferences::none().avoid_rules().empty());
}

// ---- in the database ----------------------------------------------------------------------

triage::Campaign campaign_row(const std::string& name, const std::string& kind) {
  triage::Campaign c;
  c.id = triage::content_key(name);
  c.kind = kind;
  c.started = 1000;
  c.ended = 2000;
  return c;
}

TEST(AvoidRules, TheDatabaseKeepsARuleAcrossAReopenAndReplacesItByCause) {
  TempDir dir;
  const auto path = dir.path() / "t.db";
  const triage::AvoidRule rule{"0123456789abcdef0123456789abcdef",
                               "by hand",
                               {{"dense.family.dense_simd", 0}, {"ptx.family.video", 0.5}},
                               "set by hand",
                               "a bug",
                               1234.5,
                               true};
  {
    triage::Database db = triage::Database::open(path);
    EXPECT_EQ(db.version(), 7);
    EXPECT_TRUE(db.avoid_rules().empty());
    db.put_avoid_rule(rule);
  }
  triage::Database db = triage::Database::open(path, triage::OpenOptions{.create = false, .read_only = true});
  const auto rules = db.avoid_rules();
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].cause_key, rule.cause_key);
  EXPECT_EQ(rules[0].knobs, rule.knobs);
  EXPECT_EQ(rules[0].origin, "by hand");
  EXPECT_EQ(rules[0].reason, "a bug");
  EXPECT_EQ(rules[0].time, 1234.5);
  EXPECT_TRUE(rules[0].by_hand);
  // Through its JSON too (how a campaign keeps its rules for --resume).
  const triage::AvoidRule again = triage::avoid_rule_from_json(triage::to_json(rule));
  EXPECT_EQ(again.knobs, rule.knobs);
  EXPECT_EQ(again.cause_key, rule.cause_key);
}

TEST(AvoidRules, AnOlderDatabaseIsUpgradedWithAnEmptyRuleTable) {
  TempDir dir;
  const auto path = dir.path() / "t.db";
  {
    triage::Database::open(path, triage::OpenOptions{.upgrade_to = 6});
  }
  triage::Database db = triage::Database::open(path);
  EXPECT_EQ(db.version(), triage::schema_version);
  EXPECT_TRUE(db.avoid_rules().empty());
}

TEST(AvoidRules, AConfirmedCauseYieldsARuleFromItsReducedReproducerUntilItIsNoLongerConfirmed) {
  TempDir dir;
  triage::Database db = triage::Database::open(dir.path() / "t.db");
  const auto fuzz = campaign_row("fuzz", "fuzz"), reductions = campaign_row("reduce", "reduce");
  db.put_campaign(fuzz);
  db.put_campaign(reductions);
  const triage::NewFinding found = triage::synthetic_finding(fuzz.id, 0, 1, 1000);
  db.add_finding(found);
  triage::NewFinding reduced = found;
  reduced.id = triage::content_key("reduced");
  reduced.campaign_id = reductions.id;
  reduced.source = reproducer("ptxas-vadd2-short-reduced");
  const std::string cause = "fedcba9876543210fedcba9876543210";
  db.transaction([&] {
    db.add_reproducer(reduced);
    db.add_cause(reduced.id, found.id, triage::Cause{cause, "ptx", "..."});
  });
  const std::string bucket = db.finding(reduced.id)->bucket_key;
  // A new bucket is no confirmed cause.
  EXPECT_EQ(db.refresh_avoid_rules(2000).added, 0u);
  EXPECT_TRUE(db.avoid_rules().empty());
  db.set_status(bucket, triage::Status::reported);
  EXPECT_EQ(db.refresh_avoid_rules(2000).added, 1u);
  auto rules = db.avoid_rules();
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].cause_key, cause);
  EXPECT_EQ(rules[0].knobs, (std::vector<triage::KnobSetting>{{"dense.family.dense_simd", 0}}));
  EXPECT_EQ(rules[0].origin, "bucket " + bucket.substr(0, 12));
  EXPECT_TRUE(contains(rules[0].reason, "reported")) << rules[0].reason;
  EXPECT_EQ(db.refresh_avoid_rules(2001).added, 0u);  // nothing new: unchanged
  // The database's rule comes first; the suite's rule of the same cause would not be added twice.
  EXPECT_EQ(triage::merge_avoid_rules(rules, rules).size(), 1u);
  // A rule set by hand stays whatever the buckets say.
  db.put_avoid_rule({"0000aaaa", "by hand", {{"construct.warp_vote", 0}}, "set by hand", "", 5, true});
  db.set_status(bucket, triage::Status::fresh);
  const triage::AvoidRefresh refresh = db.refresh_avoid_rules(2002);
  EXPECT_EQ(refresh.dropped, 1u);
  rules = db.avoid_rules();
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].cause_key, "0000aaaa");
  EXPECT_TRUE(db.drop_avoid_rule("0000aaaa"));
  EXPECT_FALSE(db.drop_avoid_rule("0000aaaa"));
}

TEST(AvoidRules, ACampaignsPolicyHasTheRulesKnobsButAPolicyFilesOwnAndAnUnknownKnobIsRefused) {
  const triage::AvoidRule simd{"9b1a6ddda03df7e1701491e554dacd57",
                               "case ptxas-vadd2-short-reduced",
                               {{"dense.family.dense_simd", 0}},
                               "SIMD",
                               "",
                               0,
                               false};
  const triage::AvoidRule managed{"dd18061ba171218c113bb7c41da353a1",
                                  "case clang-managed-variable-ignored",
                                  {{"construct.managed_memory", 0}},
                                  "managed",
                                  "",
                                  0,
                                  false};
  const triage::AvoidRule grid{
      "0123456789abcdef0123456789abcdef", "by hand", {{"abi.grid_constant", 0}}, "", "", 0, true};
  generator::Policy policy = generator::Policy::defaults();
  policy.set("abi.grid_constant", 1);  // what a --policy file asked for
  std::vector<std::string> notes;
  const auto applied = campaign::apply_avoid_rules(policy, {simd, grid}, notes);
  EXPECT_EQ(policy.get("dense.family.dense_simd"), 0);
  EXPECT_EQ(policy.get("abi.grid_constant"), 1);  // the file's choice wins
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_EQ(applied[0].cause_key, simd.cause_key);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_TRUE(contains(notes[0], "abi.grid_constant as --policy sets it")) << notes[0];

  // clang lacking __managed__ is a known difference by design: the rule the suite's case derives
  // is not applied, and managed-memory programs stay tests of nvcc.
  generator::Policy by_design = generator::Policy::defaults();
  notes.clear();
  EXPECT_TRUE(campaign::apply_avoid_rules(by_design, {managed}, notes).empty());
  EXPECT_EQ(by_design.get("construct.managed_memory"), generator::Policy::defaults().get("construct.managed_memory"));
  EXPECT_TRUE(notes.empty());

  const triage::AvoidRule unknown{"abcdef0123456789", "by hand", {{"dense.family.no_such_family", 0}}, "", "", 0, true};
  generator::Policy untouched = generator::Policy::defaults();
  try {
    campaign::apply_avoid_rules(untouched, {simd, unknown}, notes);
    FAIL() << "an unknown knob was applied";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::usage);
    const std::string what = error.what();
    EXPECT_TRUE(contains(what, "avoid rule abcdef012345")) << what;
    EXPECT_TRUE(contains(what, "no_such_family")) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_EQ(untouched.hash(), generator::Policy::defaults().hash());  // checked before any change
  EXPECT_THROW(triage::parse_knob_settings("dense.share"), Error);
  EXPECT_THROW(triage::parse_knob_settings("dense.share=x"), Error);
  EXPECT_EQ(triage::parse_knob_settings("a=0, b=0.5"), (std::vector<triage::KnobSetting>{{"a", 0}, {"b", 0.5}}));
}

} // namespace

namespace {

TEST(AvoidRules, ACampaignKeepsItsRulesForResumeAndItsStartSaysWhatItAvoids) {
  campaign::FuzzParams params;
  params.tests = 8;
  params.policy = generator::Policy::defaults().dump();
  params.configs = {"nvcc-O3"};
  params.avoided = {{"9b1a6ddda03df7e1701491e554dacd57",
                     "case ptxas-vadd2-short-reduced",
                     {{"dense.family.dense_simd", 0}},
                     "SIMD-in-word intrinsics",
                     "known bug",
                     0,
                     false}};
  const campaign::FuzzParams again = campaign::fuzz_params_from_json(
      boost::json::parse(boost::json::serialize(campaign::fuzz_params_json(params))));
  ASSERT_EQ(again.avoided.size(), 1u);
  EXPECT_EQ(again.avoided[0].knobs, params.avoided[0].knobs);
  EXPECT_EQ(again.avoided[0].origin, "case ptxas-vadd2-short-reduced");
  EXPECT_FALSE(again.rediscover);
  const std::string lines = campaign::avoid_lines(again, "c.db");
  EXPECT_TRUE(contains(lines, "avoiding 1 known cause (cudiff triage avoid --db c.db lists them")) << lines;
  EXPECT_TRUE(contains(lines, "  dense.family.dense_simd=0: SIMD-in-word intrinsics (case ptxas-vadd2-short-reduced, "
                              "cause 9b1a6ddda03d)\n"))
      << lines;
  // Many rules: the first ones, then how many more.
  params.avoided.resize(11, params.avoided[0]);
  EXPECT_TRUE(contains(campaign::avoid_lines(params, "c.db", 8), "  ... and 3 more\n"));
  params.avoided.clear();
  EXPECT_EQ(campaign::avoid_lines(params, "c.db"), "");
  params.rediscover = true;
  EXPECT_TRUE(contains(campaign::avoid_lines(params, "c.db"), "avoiding no known cause (--rediscover)"));
  // An older record has neither.
  boost::json::object old = campaign::fuzz_params_json(params);
  old.erase("avoided");
  old.erase("rediscover");
  EXPECT_TRUE(campaign::fuzz_params_from_json(old).avoided.empty());
}

} // namespace
