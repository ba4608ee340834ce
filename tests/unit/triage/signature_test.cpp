// triage signatures on real compiler outputs (tests/golden/signatures/*.case): each case must
// get its key and title; outputs that differ only in file names, lines or identifiers get
// the same key; masking and the other kinds' symptoms.
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

using namespace cudiff;

namespace {

struct Case {
  std::string name, kind, key, title;
  oracle::Finding finding;
  std::string crash_output;
};

runners::CompileResult compile_result(runners::CompilerKind compiler, const std::string& stderr_file, int exit_code) {
  runners::CompileResult result;
  result.config.compiler = compiler;
  result.config.name = compiler == runners::CompilerKind::nvcc ? "nvcc-O3" : "clang-O3";
  result.mode = runners::Mode::binary;
  result.process.started = true;
  result.process.exit_code = exit_code;
  if (stderr_file != "-") result.process.err.text = read_file(test::data("golden/" + stderr_file));
  return result;
}

Case load(const std::filesystem::path& file) {
  Case c;
  c.name = file.stem().string();
  std::map<std::string, runners::CompileResult> results;
  for (const std::string& line : split_lines(read_file(file))) {
    if (line.empty() || line[0] == '#') continue;
    const std::string field = line.substr(0, line.find(' '));
    const std::string rest = line.substr(field.size() + 1);
    if (field == "nvcc" || field == "clang") {
      const auto parts = split(rest, ' ');
      results[field] = compile_result(field == "nvcc" ? runners::CompilerKind::nvcc : runners::CompilerKind::clang,
                                      parts.at(0), std::stoi(parts.at(1)));
    }
    if (field == "kind") c.kind = rest;
    if (field == "key") c.key = rest;
    if (field == "title") c.title = rest;
  }
  oracle::Observations observations;
  for (const char* side : {"nvcc", "clang"}) observations.compiles.push_back(oracle::observe_compile(results.at(side)));
  const oracle::Verdict verdict = oracle::judge(observations, {});
  for (const auto& finding : verdict.findings) {
    if (oracle::to_string(finding.kind) != c.kind) continue;
    c.finding = finding;
    if (c.kind == "crash") c.crash_output = results.at("clang").process.err.text;
    return c;
  }
  ADD_FAILURE() << c.name << ": no " << c.kind << " finding; verdict: " << verdict.headline();
  return c;
}

std::map<std::string, Case> cases() {
  std::map<std::string, Case> all;
  for (const auto& entry : std::filesystem::directory_iterator(test::data("golden/signatures")))
    if (entry.path().extension() == ".case") all[entry.path().stem().string()] = load(entry.path());
  return all;
}

} // namespace

TEST(TriageSignatureGolden, EachRealOutputGetsItsKeyAndTitle) {
  const auto all = cases();
  ASSERT_GE(all.size(), 5u);
  for (const auto& [name, c] : all) {
    const triage::Signature signature = triage::signature_of(c.finding, c.crash_output);
    EXPECT_EQ(signature.key, c.key) << name << "\nsymptom:\n" << signature.symptom;
    EXPECT_EQ(signature.title, c.title) << name;
    EXPECT_EQ(signature.kind, c.kind) << name;
  }
}

TEST(TriageSignatureGolden, OutputsDifferingOnlyInFileLineOrIdentifierShareAKey) {
  const auto all = cases();
  auto key = [&](const std::string& name) {
    return triage::signature_of(all.at(name).finding, all.at(name).crash_output).key;
  };
  EXPECT_EQ(key("managed_in_kernel"), key("managed_renamed"));
  EXPECT_EQ(key("debug_crash"), key("debug_crash_elsewhere"));
  EXPECT_NE(key("debug_crash"), key("debug_fatal_error"));
  EXPECT_NE(key("managed_in_kernel"), key("debug_crash"));
}

TEST(TriageSignature, KeyIsNeverRawMessageText) {
  const auto all = cases();
  const auto signature = triage::signature_of(all.at("managed_renamed").finding);
  EXPECT_EQ(signature.symptom.find("hits"), std::string::npos) << signature.symptom;
  EXPECT_EQ(signature.symptom.find("managed_renamed.cu"), std::string::npos) << signature.symptom;
  EXPECT_EQ(signature.key.size(), 32u);
}

TEST(TriageSignature, CrashMaskingKeepsCompilerSourceDropsTestFileAddressesAndNumbers) {
  EXPECT_EQ(triage::mask_crash_text("/build/llvm/clang/lib/Sema/SemaCUDA.cpp:321: Assertion `Callee' failed."),
            "SemaCUDA.cpp:N: Assertion `Callee' failed.");
  EXPECT_EQ(triage::mask_crash_text("kernel_7.cu:3:2: current parser token 'pragma' at 0x7f3c11ab8786"),
            "<file>:N:N: current parser token '_' at 0x_");
  EXPECT_EQ(triage::mask_crash_text("/tmp/debug_crash-sm_90-7fa1de.s"), "<file>");
}

TEST(TriageSignature, LayoutMismatchKeysOnPropertyAndMemberKindNotNamesOrValues) {
  auto finding = [](const std::string& member, int value) {
    oracle::Finding f;
    f.kind = oracle::FindingKind::layout_mismatch;
    f.configs = {"nvcc-O3", "clang-O3"};
    f.summary = "layout of T differs";
    boost::json::array views;
    for (const char* compiler : {"nvcc", "clang"})
      for (const char* side : {"host", "device"})
        views.push_back(boost::json::object{
            {"compiler", compiler},
            {"side", side},
            {"value", std::string(compiler) == "clang" && std::string(side) == "device" ? value : value * 2}});
    f.details = boost::json::object{{"property", "offsetof." + member},
                                    {"member", member},
                                    {"member_kind", "long double"},
                                    {"views", views},
                                    {"type", "S_" + member}};
    return f;
  };
  const auto a = triage::signature_of(finding("m3", 8));
  const auto b = triage::signature_of(finding("field_9", 24));
  EXPECT_EQ(a.key, b.key) << a.symptom << "\n---\n" << b.symptom;
  EXPECT_EQ(a.side, "clang device");
  EXPECT_NE(a.symptom.find("long double"), std::string::npos);
  EXPECT_EQ(a.symptom.find("m3"), std::string::npos);
  // The title names the member's kind with its article.
  EXPECT_NE(a.title.find("of a long double member differs"), std::string::npos) << a.title;
  oracle::Finding integer = finding("m3", 8);
  integer.details["member_kind"] = "integer";
  const std::string title = triage::signature_of(integer).title;
  EXPECT_NE(title.find("of an integer member differs"), std::string::npos) << title;
}

TEST(TriageSignature, ConfigSplitOfOneCompilerNamesTheConfigs) {
  oracle::Finding f;
  f.kind = oracle::FindingKind::compile_status_mismatch;
  f.details = boost::json::object{
      {"accepted", boost::json::array{boost::json::object{{"config", "nvcc-O0"}, {"compiler", "nvcc"}}}},
      {"rejected", boost::json::array{boost::json::object{{"config", "nvcc-O3"}, {"compiler", "nvcc"}}}},
      {"rejected_error_ids", boost::json::array{"some error"}}};
  const auto signature = triage::signature_of(f);
  EXPECT_EQ(signature.side, "nvcc-O3");
  EXPECT_NE(signature.symptom.find("accepted-by nvcc-O0"), std::string::npos);
}

TEST(TriageHash, Sha256MatchesKnownVectors) {
  EXPECT_EQ(triage::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(triage::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(triage::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(triage::sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
