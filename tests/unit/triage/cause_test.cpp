// Cause keys (triage/cause.cpp, triage/causes.cpp): real PTX of nvcc 13 and clang-22
// (tests/golden/causes, captured by its capture.sh) normalised to its instruction sequence, so
// one bug reached by two programs is one cause and another instruction is another; causes from
// signatures; a bucket whose reduced findings have two causes split into one bucket per cause,
// the same way after a merge; one cause in two buckets shown as one bug.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace cudiff;
using cudiff::test::contains;

namespace {

std::string golden(const std::string& name) { return read_file(test::data("golden/causes/" + name)); }

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

TEST(CauseKeys, PtxKeepsTheInstructionSequenceAndDropsRegistersNumbersAndNames) {
  const std::string ptx = triage::normalize_ptx(golden("vadd2.nvcc.ptx"));
  EXPECT_EQ(ptx, ".entry sym(.param .u64 param) .maxntid N, N, N\n"
                 "ld.param.u64 %rd, [param]\n"
                 "cvta.to.global.u64 %rd, %rd\n"
                 "mov.u32 %r, %ctaid.x\n"
                 "mov.u32 %r, %ntid.x\n"
                 "mov.u32 %r, %tid.x\n"
                 "mad.lo.s32 %r, %r, %r, %r\n"
                 "mov.u32 %r, N\n"
                 "mov.u32 %r, N\n"
                 "add.u16x2 %r, %r, %r\n"
                 "cvt.u64.u32 %rd, %r\n"
                 "cvt.s64.s16 %rd, %rd\n"
                 "mul.lo.s64 %rd, %rd, N\n"
                 "xor.b64 %rd, %rd, N\n"
                 "mul.wide.u32 %rd, %r, N\n"
                 "add.s64 %rd, %rd, %rd\n"
                 "st.global.u64 [%rd], %rd\n"
                 "ret");
}

TEST(CauseKeys, OneBugReachedByTwoProgramsIsOneCauseAndAnotherInstructionAnother) {
  // Other names, another namespace, other constants and a device array beside it.
  const triage::Cause vadd2 = triage::make_cause("ptx", triage::normalize_ptx(golden("vadd2.nvcc.ptx")));
  const triage::Cause renamed = triage::make_cause("ptx", triage::normalize_ptx(golden("vadd2_renamed.nvcc.ptx"),
                                                                                {"s1026020699234/dense_3"}));
  const triage::Cause vsub2 = triage::make_cause("ptx", triage::normalize_ptx(golden("vsub2.nvcc.ptx")));
  EXPECT_EQ(vadd2.key, renamed.key) << vadd2.text << "\n---\n" << renamed.text;
  EXPECT_NE(vadd2.key, vsub2.key);
  EXPECT_EQ(vadd2.key.size(), 32u);
  // clang's PTX of the same program is another instruction sequence (vadd2.u32.u32.u32).
  const std::string clang = triage::normalize_ptx(golden("vadd2.clang.ptx"));
  EXPECT_TRUE(contains(clang, "vadd2.u32.u32.u32 %r, %r, %r, %r")) << clang;
  EXPECT_NE(triage::make_cause("ptx", clang).key, vadd2.key);
  // The basis is part of the key.
  EXPECT_NE(triage::make_cause("signature", vadd2.text).key, vadd2.key);
}

TEST(CauseKeys, TheGuiltyKernelOfABatchAndTheFunctionsItCalls) {
  for (const std::string compiler : {"nvcc", "clang"}) {
    const std::string ptx = golden("batch." + compiler + ".ptx");
    const std::string first = triage::normalize_ptx(ptx, {"s11/kernel_0"});
    const std::string second = triage::normalize_ptx(ptx, {"s12/kernel_0"});
    const std::string both = triage::normalize_ptx(ptx);
    EXPECT_EQ(count_of(first, ".entry"), 1u) << compiler << ":\n" << first;
    EXPECT_EQ(count_of(first, ".func"), 1u) << compiler << ":\n" << first;  // mix, called in the loop
    EXPECT_TRUE(contains(first, "shl.b32")) << first;  // mix's body
    EXPECT_FALSE(contains(first, "mul.hi.u64")) << first;  // fold's is not there
    EXPECT_EQ(count_of(second, ".func"), 1u) << compiler << ":\n" << second;
    EXPECT_TRUE(contains(second, "mul.hi.u64")) << second;
    EXPECT_EQ(count_of(both, ".entry"), 2u) << both;
    // A name no entry has: every entry.
    EXPECT_EQ(triage::normalize_ptx(ptx, {"s99/kernel_7"}), both);
    // Labels numbered in order of appearance; a call's operands, on lines of their own in
    // nvcc's PTX, one statement.
    if (compiler == "nvcc") {
      EXPECT_TRUE(contains(first, "@%p bra L0")) << first;
      EXPECT_TRUE(contains(first, "call.uni (retval), sym, (param, param)")) << first;
    }
    EXPECT_FALSE(contains(first, "_Z")) << first;
    EXPECT_FALSE(contains(first, "%r1")) << first;
  }
}

triage::Signature signature_of(const std::string& kind, const std::string& details,
                               const std::vector<std::string>& configs, const std::string& stderr_text = "") {
  oracle::Finding finding;
  finding.kind = *oracle::parse_finding_kind(kind);
  finding.configs = configs;
  finding.details = boost::json::parse(details).as_object();
  return triage::signature_of(finding, stderr_text);
}

TEST(CauseKeys, FromSignaturesACrashsFramesADiagnosticOrARule) {
  // The same clang error as a false rejection (a generated program) and as a compile-status
  // mismatch (a person's file): two buckets, one cause.
  const std::string rejected = R"("rejected": [{"config": "clang-O3", "compiler": "clang"}],
                                   "rejected_error_ids": ["reference to __host__ variable '_' in __global__ function"])";
  const auto false_rejection = signature_of("false_rejection", "{" + rejected + R"(, "accepted": []})", {"clang-O3"});
  const auto mismatch = signature_of("compile_status_mismatch",
                                     "{" + rejected + R"(, "accepted": [{"config": "nvcc-O3", "compiler": "nvcc"}]})",
                                     {"nvcc-O3", "clang-O3"});
  EXPECT_NE(false_rejection.key, mismatch.key);
  const triage::Cause a = triage::cause_from_signature(false_rejection), b = triage::cause_from_signature(mismatch);
  EXPECT_EQ(a.basis, "diagnostic");
  EXPECT_EQ(a.key, b.key) << a.text << "\n---\n" << b.text;
  EXPECT_EQ(a.text, "compiler clang\nid reference to __host__ variable '_' in __global__ function");
  // A missed diagnostic: the compiler that lets the rule through, and the rule.
  const auto missed = triage::cause_from_signature(
      signature_of("missed_diagnostic",
                   R"({"rule": "R-THREADLOCAL-DEV", "accepted": [{"config": "clang-O3", "compiler": "clang"}]})",
                   {"clang-O3"}));
  EXPECT_EQ(missed.basis, "rule");
  EXPECT_EQ(missed.text, "compiler clang\nrule R-THREADLOCAL-DEV");
  // A crash: where, the masked key line and the top frames.
  const std::string dump = "fatal error: error in backend: Cannot select: 0x55beac378290: i64 = GlobalTLSAddress\n"
                           "Stack dump:\n"
                           " #4 0x00007f3998cb2a87 llvm::SelectionDAGISel::SelectCodeCommon(llvm::SDNode*) (/x+0x1)\n";
  const auto crash = triage::cause_from_signature(
      signature_of("crash", R"({"compiler": "clang", "stage": "device-codegen", "reason": "backend error"})",
                   {"clang-O3"}, dump));
  EXPECT_EQ(crash.basis, "crash");
  EXPECT_TRUE(contains(crash.text, "frame llvm::SelectionDAGISel::SelectCodeCommon")) << crash.text;
  EXPECT_TRUE(contains(crash.text, "at error in backend: Cannot select: 0x_")) << crash.text;
  EXPECT_FALSE(contains(crash.text, "55beac")) << crash.text;
}

TEST(CauseKeys, WhichFindingsAreKeyedByPtx) {
  EXPECT_TRUE(triage::cause_from_ptx("wrong_code", "ptxas"));
  EXPECT_TRUE(triage::cause_from_ptx("metamorphic", "device-codegen"));
  EXPECT_TRUE(triage::cause_from_ptx("run_mismatch", "unknown"));
  EXPECT_TRUE(triage::cause_from_ptx("crash", "ptxas"));
  EXPECT_FALSE(triage::cause_from_ptx("crash", "frontend"));
  EXPECT_FALSE(triage::cause_from_ptx("wrong_code", "host-compiler"));
  EXPECT_FALSE(triage::cause_from_ptx("false_rejection", "ptxas"));
}

// ---- in the database ----------------------------------------------------------------------

triage::Campaign campaign(const std::string& name, const std::string& kind) {
  triage::Campaign c;
  c.id = triage::content_key(name);
  c.kind = kind;
  c.started = 1000;
  c.ended = 2000;
  return c;
}

/// The index-th finding of one synthetic bucket (all of them share it).
triage::NewFinding sighting(const triage::Campaign& c, int index) {
  triage::NewFinding finding = triage::synthetic_finding(c.id, 0, 1, 1000 + index);
  finding.id = triage::content_key(c.id + std::to_string(index));
  finding.source += std::string(static_cast<std::size_t>(index), ' ');
  return finding;
}

/// A reduction of `from` stored (smaller) with `cause`: what `cudiff triage reduce` does.
std::string reduce(triage::Database& db, const triage::Campaign& reductions, const triage::NewFinding& from,
                   const std::string& cause, int index) {
  triage::NewFinding reduced = from;
  reduced.id = triage::content_key(reductions.id + std::to_string(index));
  reduced.campaign_id = reductions.id;
  reduced.source = "// reduced " + std::to_string(index) + "\n";
  std::string now;
  db.transaction([&] {
    db.add_reproducer(reduced);
    now = db.add_cause(reduced.id, from.id, triage::make_cause("ptx", cause));
  });
  return now;
}

TEST(CauseKeys, ABucketWhoseFindingsReduceToTwoCausesSplitsIntoOneBucketPerCause) {
  TempDir dir;
  triage::Database db = triage::Database::open(dir.path() / "t.db");
  const auto fuzz = campaign("fuzz", "fuzz"), reductions = campaign("reduce", "reduce");
  db.put_campaign(fuzz);
  db.put_campaign(reductions);
  std::vector<triage::NewFinding> found;
  for (int i = 0; i < 5; ++i) found.push_back(sighting(fuzz, i));
  db.transaction([&] {
    for (const auto& finding : found) db.add_finding(finding);
  });
  const std::string base = found.front().signature.key;
  ASSERT_EQ(db.bucket(base).count, 5);

  // One cause: nothing moves; the bucket shows it.
  EXPECT_EQ(reduce(db, reductions, found[0], "add.u16x2", 0), base);
  EXPECT_EQ(db.buckets().size(), 1u);
  ASSERT_EQ(db.causes(base).size(), 1u);
  EXPECT_EQ(db.causes(base).front().findings, 2);  // the reduction and its original
  EXPECT_EQ(db.bucket(base).count, 5);

  // A second cause: one bucket per cause, each with its reduction and original; the findings
  // not reduced stay in the signature's bucket.
  const std::string other = reduce(db, reductions, found[1], "sub.u16x2", 1);
  EXPECT_NE(other, base);
  const std::vector<triage::Bucket> buckets = db.buckets();
  ASSERT_EQ(buckets.size(), 3u);
  const std::string first = db.finding(found[0].id)->bucket_key;
  EXPECT_NE(first, base);
  EXPECT_NE(first, other);
  EXPECT_EQ(db.bucket(base).count, 3);
  EXPECT_EQ(db.bucket(first).count, 1);
  EXPECT_EQ(db.bucket(other).count, 1);
  EXPECT_EQ(db.split_from(other), base);
  EXPECT_EQ(db.split_from(base), "");
  EXPECT_TRUE(contains(db.bucket(other).title, "(cause ")) << db.bucket(other).title;
  EXPECT_EQ(db.bucket(other).best_finding, triage::content_key(reductions.id + "1"));  // the smaller one
  EXPECT_EQ(db.findings_of(other, 10).size(), 2u);

  // `triage list` shows each bucket's causes; `show` says where a part came from.
  const std::string listing = triage::render_listing(triage::read_listing(db, {}));
  EXPECT_TRUE(contains(listing, "causes")) << listing;
  EXPECT_TRUE(contains(listing, db.causes(other).front().key.substr(0, 8) + " ptx")) << listing;
  const std::string shown = triage::render_details(triage::read_details(db, db.bucket(other)));
  EXPECT_TRUE(contains(shown, "split from: bucket " + std::to_string(db.bucket(base).id))) << shown;
  EXPECT_TRUE(contains(shown, "sub.u16x2")) << shown;
}

TEST(CauseKeys, CauseSamplingCountsTheReducedSightingsAndListsTheOthersSmallestFirst) {
  TempDir dir;
  triage::Database db = triage::Database::open(dir.path() / "t.db");
  const auto fuzz = campaign("fuzz", "fuzz"), reductions = campaign("reduce", "reduce");
  db.put_campaign(fuzz);
  db.put_campaign(reductions);
  std::vector<triage::NewFinding> found;
  for (int i = 0; i < 4; ++i) found.push_back(sighting(fuzz, i));
  db.transaction([&] {
    for (const auto& finding : found) db.add_finding(finding);
  });
  const std::string base = found.front().signature.key;
  triage::CauseSampling sampling = db.cause_sampling(base);
  EXPECT_EQ(sampling.base, base);
  EXPECT_EQ(sampling.reduced, 0);
  EXPECT_EQ(sampling.open, (std::vector<std::string>{found[0].id, found[1].id, found[2].id, found[3].id}));

  // One reduced: it and its reduction have the cause, the reduction is not a sighting.
  reduce(db, reductions, found[0], "add.u16x2", 0);
  sampling = db.cause_sampling(base);
  EXPECT_EQ(sampling.reduced, 1);
  EXPECT_EQ(sampling.open, (std::vector<std::string>{found[1].id, found[2].id, found[3].id}));

  // A second cause splits the bucket: asked from either part, the signature's sightings.
  const std::string other = reduce(db, reductions, found[2], "sub.u16x2", 1);
  ASSERT_NE(other, base);
  for (const std::string& key : {base, other}) {
    sampling = db.cause_sampling(key);
    EXPECT_EQ(sampling.base, base);
    EXPECT_EQ(sampling.reduced, 2);
    EXPECT_EQ(sampling.open, (std::vector<std::string>{found[1].id, found[3].id}));
  }
}

TEST(CauseKeys, ShardsSplitTheSameWayMergedAndOneCauseInTwoBucketsIsShownAsOne) {
  TempDir dir;
  const auto fuzz = campaign("fuzz", "fuzz"), reductions = campaign("reduce", "reduce");
  std::vector<triage::NewFinding> found;
  for (int i = 0; i < 4; ++i) found.push_back(sighting(fuzz, i));
  // Two hosts each reduce one finding of the same bucket, to different causes: neither splits.
  for (int shard = 0; shard < 2; ++shard) {
    triage::Database db = triage::Database::open(dir.path() / ("s" + std::to_string(shard) + ".db"));
    db.put_campaign(fuzz);
    db.put_campaign(reductions);
    db.transaction([&] {
      for (const auto& finding : found) db.add_finding(finding);
    });
    reduce(db, reductions, found[static_cast<std::size_t>(shard)], shard == 0 ? "add" : "sub", shard);
    EXPECT_EQ(db.buckets().size(), 1u);
  }
  // Merged, the bucket has two causes: split as either host would have split it.
  triage::Database merged = triage::Database::open(dir.path() / "m.db");
  merged.merge_from(dir.path() / "s0.db");
  merged.merge_from(dir.path() / "s1.db");
  EXPECT_EQ(merged.buckets().size(), 3u);
  std::int64_t sightings = 0;
  for (const auto& bucket : merged.buckets()) sightings += bucket.count;
  EXPECT_EQ(sightings, 4);
  merged.merge_from(dir.path() / "s1.db");  // again: nothing changes
  EXPECT_EQ(merged.buckets().size(), 3u);

  // One cause in a bucket of another signature: each names the other.
  triage::NewFinding elsewhere = triage::synthetic_finding(fuzz.id, 1, 2, 3000);
  elsewhere.id = triage::content_key("elsewhere");
  merged.add_finding(elsewhere);
  reduce(merged, reductions, elsewhere, "add", 9);
  const auto causes = merged.causes(elsewhere.signature.key);
  ASSERT_EQ(causes.size(), 1u);
  ASSERT_EQ(causes.front().other_buckets.size(), 1u);
  EXPECT_EQ(merged.causes(causes.front().other_buckets.front()).front().other_buckets,
            std::vector<std::string>{elsewhere.signature.key});
  const std::string listing = triage::render_listing(triage::read_listing(merged, {}));
  EXPECT_TRUE(contains(listing, "(also bucket")) << listing;
}

// ---- the known-bug suite's causes ----------------------------------------------------------

/// Every case.json of the shipped suite that carries a cause key (scripts/known_bug_causes.sh),
/// by case name.
std::map<std::string, std::string> shipped_causes() {
  std::map<std::string, std::string> causes;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "corpus/known-bugs")) {
    if (!std::filesystem::exists(entry.path() / "case.json")) continue;
    const auto json = boost::json::parse(read_file(entry.path() / "case.json")).as_object();
    if (const auto* cause = json.if_contains("cause"); cause != nullptr && !json.contains("does_not_reproduce"))
      causes[entry.path().filename().string()] = std::string(cause->at("key").as_string());
  }
  return causes;
}

TEST(CauseKeys, EveryKnownBugCaseWithACauseKeyIsRecognisedByIt) {
  const auto causes = shipped_causes();
  // The compile-side cases and the reduced ptxas case at least (the script ran on them).
  EXPECT_GE(causes.size(), 10u);
  EXPECT_TRUE(causes.contains("ptxas-vadd2-short-reduced"));
  const triage::KnownDifferences known = triage::KnownDifferences::shipped();
  for (const auto& [name, key] : causes) {
    EXPECT_EQ(key.size(), 32u) << name;
    const triage::KnownDifference* entry = known.match_cause(key);
    ASSERT_NE(entry, nullptr) << name;
    // Two cases may share a cause (one bug, two reproducers): the first one's name is given.
    EXPECT_TRUE(contains(entry->reason, "known bug, corpus/known-bugs/")) << entry->reason;
  }
  EXPECT_EQ(known.match_cause(""), nullptr);
  EXPECT_EQ(triage::KnownDifferences::none().match_cause(causes.begin()->second), nullptr);
}

TEST(CauseKeys, ABucketWhoseReductionHasAKnownBugsCauseBecomesKnown) {
  TempDir dir;
  triage::Database db = triage::Database::open(dir.path() / "t.db");
  const auto fuzz = campaign("fuzz", "fuzz"), reductions = campaign("reduce", "reduce");
  db.put_campaign(fuzz);
  db.put_campaign(reductions);
  const triage::NewFinding found = sighting(fuzz, 0);
  db.add_finding(found);
  const std::string vadd2 = shipped_causes().at("ptxas-vadd2-short-reduced");
  triage::NewFinding reduced = found;
  reduced.id = triage::content_key("reduced");
  reduced.campaign_id = reductions.id;
  reduced.source = "// reduced\n";
  db.transaction([&] {
    db.add_reproducer(reduced);
    db.add_cause(reduced.id, found.id, triage::Cause{vadd2, "ptx", "..."});
  });
  EXPECT_EQ(db.apply_known(triage::KnownDifferences::none()), 0);
  EXPECT_EQ(db.apply_known(triage::KnownDifferences::shipped()), 1);
  const triage::Bucket bucket = db.bucket(found.signature.key);
  EXPECT_EQ(bucket.status, triage::Status::known);
  EXPECT_TRUE(contains(bucket.known_reason, "corpus/known-bugs/ptxas-vadd2-short-reduced")) << bucket.known_reason;
}

} // namespace
