// Guided generation on the real compilers (label compilers), compile-only: `cudiff fuzz
// --engine libfuzzer` runs libFuzzer and files into one campaign; an input whose program
// clang rejects is filed with its bytes, which `cudiff generate --input` turns back into the
// same program; the unguided baseline logs the features of seeds in order; bad setups fail
// with one line.
#include "generator/generator.h"
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

namespace {

using cudiff::test::contains;
using cudiff::test::run_cudiff;
namespace fs = std::filesystem;

fs::path libfuzzer_binary() { return cudiff::test::cudiff_binary().parent_path() / "cudiff-libfuzzer"; }

/// Runs cudiff-libfuzzer in `cwd` (libFuzzer writes its artifacts into the working directory).
cudiff::runners::SubprocessResult run_libfuzzer(const fs::path& cwd, const std::vector<std::string>& args,
                                                double wall_seconds = 300) {
  cudiff::runners::Command command;
  command.cwd = cwd;
  command.argv = {libfuzzer_binary().string()};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.limits.wall_seconds = wall_seconds;
  return cudiff::runners::run_subprocess(command);
}

/// __managed__ arrays in every program (clang-22 rejects a kernel reading one: a false
/// rejection, filed like any finding); no probes, so the kernel text scan below stays simple.
fs::path managed_policy(const fs::path& dir) {
  const fs::path file = dir / "managed.json";
  cudiff::write_file(file, "{\"construct.managed_memory\": 1, \"edge.share\": 0, \"probe.share\": 0}");
  return file;
}

cudiff::triage::Database open_read_only(const fs::path& db) {
  return cudiff::triage::Database::open(db, {.create = false, .read_only = true});
}

} // namespace

TEST(GuidedE2E, EngineRunsLibFuzzerIntoOneCampaignAndKeepsACorpus) {
  cudiff::TempDir dir("cudiff-guided-e2e");
  const fs::path db = dir.path() / "guided.db", corpus = dir.path() / "corpus";
  auto result = run_cudiff({"fuzz", "--engine", "libfuzzer", "--tests", "4", "--seed", "1", "--db", db.string(),
                            "--corpus", corpus.string(), "--no-reduce", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto summary = boost::json::parse(result.out.text).as_object();
  EXPECT_EQ(summary.at("engine").as_string(), "libfuzzer");
  EXPECT_TRUE(summary.at("compile_only").as_bool());
  // libFuzzer's -runs=4 counts executions; each distinct input is one program in the database.
  const std::int64_t tests = summary.at("tests").as_int64();
  EXPECT_GE(tests, 2);
  EXPECT_LE(tests, 4);
  auto database = open_read_only(db);
  const auto campaigns = database.campaigns();
  ASSERT_EQ(campaigns.size(), 1u);
  EXPECT_EQ(campaigns[0].kind, "guided");
  EXPECT_EQ(campaigns[0].tests, tests);
  EXPECT_GT(campaigns[0].ended, campaigns[0].started);
  EXPECT_EQ(database.tested_seeds(campaigns[0].id).size(), static_cast<std::size_t>(tests));
  for (const std::string& seed : database.tested_seeds(campaigns[0].id)) EXPECT_TRUE(contains(seed, "in_")) << seed;
  // Every new program shows the compilers something new (a PTX kind, a diagnostic), so
  // libFuzzer keeps inputs: the corpus is not empty.
  std::size_t kept = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(corpus)) ++kept;
  EXPECT_GE(kept, 1u) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "Extra Counters")) << result.err.text;  // libFuzzer saw the feature counters
}

TEST(GuidedE2E, AFindingKeepsItsInputAndGenerateInputRebuildsTheProgram) {
  cudiff::TempDir dir("cudiff-guided-e2e");
  const fs::path policy_file = managed_policy(dir.path());
  const auto policy = cudiff::generator::Policy::load(cudiff::read_file(policy_file));
  // An input whose program reads a __managed__ array in a kernel: clang rejects it.
  cudiff::SeededRng source(5);
  std::string bytes;
  for (int attempt = 0; attempt < 200 && bytes.empty(); ++attempt) {
    std::string candidate(64, '\0');
    for (char& c : candidate) c = static_cast<char>(source.below(256));
    if (cudiff::test::reads_managed_on_device(
            cudiff::generator::generate_from_bytes(policy, candidate, cudiff::generator::Size::small).source))
      bytes = candidate;
  }
  ASSERT_FALSE(bytes.empty()) << "no input in 200 reads __managed__ in a kernel";
  const fs::path input = dir.path() / "input.bin", db = dir.path() / "guided.db";
  cudiff::write_file(input, bytes);

  // libFuzzer given files (not directories) runs each once: the program of exactly these bytes.
  auto result = run_libfuzzer(dir.path(), {input.string(), "--db=" + db.string(), "--policy=" + policy_file.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err.text;
  auto database = open_read_only(db);
  const auto buckets = database.buckets();
  ASSERT_EQ(buckets.size(), 1u) << result.err.text;
  EXPECT_EQ(buckets[0].kind, "false_rejection");
  EXPECT_EQ(buckets[0].side, "clang");
  const auto findings = database.findings_of(buckets[0].key, 10);
  ASSERT_EQ(findings.size(), 1u);
  const auto& stored_input = findings[0].outputs.as_object().at("input").as_object();
  EXPECT_EQ(stored_input.at("bytes").as_int64(), 64);

  // The stored hex, back to bytes, names the stored program.
  const std::string hex(stored_input.at("hex").as_string());
  std::string decoded;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    decoded += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  EXPECT_EQ(decoded, bytes);
  const fs::path again = dir.path() / "again.bin", out = dir.path() / "out";
  cudiff::write_file(again, decoded);
  auto generated = run_cudiff(
      {"generate", "--input", again.string(), "--policy", policy_file.string(), "--out", out.string()});
  ASSERT_EQ(generated.exit_code, 0) << generated.err.text;
  EXPECT_EQ(cudiff::read_file(out / findings[0].source_name), findings[0].source);
}

TEST(GuidedE2E, BaselineChecksSeedsInOrderAndLogsTheirFeatures) {
  cudiff::TempDir dir("cudiff-guided-e2e");
  const fs::path db = dir.path() / "plain.db", log = dir.path() / "plain.jsonl";
  auto result = run_libfuzzer(dir.path(), {"--db=" + db.string(), "--features-log=" + log.string(),
                                           "--baseline-seeds=40", "--baseline-tests=2"});
  ASSERT_EQ(result.exit_code, 0) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "2 programs")) << result.err.text;
  const auto lines = cudiff::split_lines(cudiff::read_file(log));
  ASSERT_EQ(lines.size(), 2u);
  std::set<std::string> programs;
  for (const std::string& line : lines) {
    const auto record = boost::json::parse(line).as_object();
    programs.insert(std::string(record.at("program").as_string()));
    std::set<std::string> features;
    for (const auto& feature : record.at("features").as_array()) features.insert(std::string(feature.as_string()));
    EXPECT_TRUE(features.count("outcome nvcc-O3 accepted")) << line;
    EXPECT_TRUE(features.count("outcome clang-O3 accepted")) << line;
    std::size_t ptx_kinds = 0;
    for (const std::string& feature : features)
      if (feature.rfind("ptx nvcc-O3 ", 0) == 0 && std::count(feature.begin(), feature.end(), ' ') == 2) ++ptx_kinds;
    EXPECT_GE(ptx_kinds, 10u) << line;  // a kernel is dozens of instructions of many kinds
  }
  EXPECT_EQ(programs, (std::set<std::string>{"cudiff_000000000040", "cudiff_000000000041"}));
  auto database = open_read_only(db);
  ASSERT_EQ(database.campaigns().size(), 1u);
  EXPECT_EQ(database.campaigns()[0].kind, "baseline");
  const auto seeds = database.tested_seeds(database.campaigns()[0].id);
  EXPECT_EQ(std::set<std::string>(seeds.begin(), seeds.end()), (std::set<std::string>{"40", "41"}));
}

TEST(GuidedE2E, BadSetupsFailWithOneLineAndTouchNothing) {
  cudiff::TempDir dir("cudiff-guided-e2e");
  auto missing = run_cudiff({"fuzz", "--engine", "libfuzzer", "--tests", "1", "--db", (dir.path() / "a.db").string()},
                            60, {{"CUDIFF_LIBFUZZER", (dir.path() / "no-such-binary").string()}});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err.text, "not found")) << missing.err.text;
  EXPECT_FALSE(fs::exists(dir.path() / "a.db"));

  auto engine = run_cudiff({"fuzz", "--engine", "afl"});
  EXPECT_EQ(engine.exit_code, 2);
  EXPECT_TRUE(contains(engine.err.text, "--engine")) << engine.err.text;
  auto batch = run_cudiff({"fuzz", "--engine", "libfuzzer", "--batch", "4"});
  EXPECT_EQ(batch.exit_code, 2);
  EXPECT_TRUE(contains(batch.err.text, "--batch")) << batch.err.text;

  const fs::path not_a_db = dir.path() / "notes.db";
  cudiff::write_file(not_a_db, "these are notes, not a database\n");
  auto refused = run_libfuzzer(dir.path(), {"--db=" + not_a_db.string(), "-runs=1"}, 60);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_TRUE(contains(refused.err.text, "cudiff-libfuzzer: ")) << refused.err.text;
  EXPECT_EQ(cudiff::read_file(not_a_db), "these are notes, not a database\n");
  auto unknown = run_libfuzzer(dir.path(), {"--no-such-flag=1", "-runs=1"}, 60);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err.text, "--no-such-flag")) << unknown.err.text;
}
