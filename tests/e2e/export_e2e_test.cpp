// End-to-end: a real compiler crash found by `cudiff check --db`, exported with `cudiff triage
// export` to a directory a person can send as is: repro.sh reproduces it with the real
// compilers (exit 1) under the limits the check recorded and with only the config that crashed,
// says "fixed" once the program no longer makes the compiler crash (exit 0) and "cannot tell"
// without the compiler (exit 125); recheck, mark --link and bisect keep their verdicts with the
// bucket.
#include "support/test_support.h"

#include <gtest/gtest.h>

using cudiff::read_file;
using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::contains;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace {

/// Runs an exported repro.sh with extra environment; its exit code and what it printed.
cudiff::runners::SubprocessResult run_script(const std::filesystem::path& script,
                                             std::vector<std::pair<std::string, std::string>> env = {}) {
  cudiff::runners::Command command;
  command.argv = {"bash", script.string()};
  command.env_overrides = std::move(env);
  command.limits.wall_seconds = 300;
  return cudiff::runners::run_subprocess(command);
}

class ExportE2E : public ::testing::Test {
protected:
  void SetUp() override {
    // clang-22's NVPTX backend crash on a device thread_local (corpus/known-bugs).
    const auto crash = source_dir() / "corpus/known-bugs/clang-thread-local-device-crash/repro.cu";
    // --no-known: the crash is a known-bug case (corpus/known-bugs), and recheck takes only
    // new and reported buckets; what is tested here is the bucket's life, not the knowledge.
    const auto checked = run_cudiff({"check", crash.string(), "--mode", "ptx", "--db", db_.string(), "--no-known"});
    ASSERT_EQ(checked.exit_code, 1) << checked.out.text << checked.err.text;  // a discrepancy
  }
  TempDir dir_{"cudiff-export-e2e"};
  std::filesystem::path db_ = dir_.path() / "x.db";
};

TEST_F(ExportE2E, ACrashExportsToADirectoryWhoseScriptReproducesIt) {
  const auto out = dir_.path() / "report";
  const auto exported = run_cudiff({"triage", "export", "1", out.string(), "--json", "--db", db_.string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err.text;
  const auto json = boost::json::parse(exported.out.text).as_object();
  EXPECT_EQ(json.at("kind").as_string(), "crash");
  const std::filesystem::path script(std::string(json.at("repro").as_string()));
  const std::filesystem::path reproducer(std::string(json.at("reproducer").as_string()));
  ASSERT_TRUE(std::filesystem::exists(script));
  ASSERT_TRUE(std::filesystem::exists(reproducer));
  EXPECT_EQ(reproducer.parent_path(), out);

  const std::string report = read_file(out / "report.md");
  EXPECT_TRUE(contains(report, "GlobalTLSAddress")) << report;
  EXPECT_TRUE(contains(report, "`./repro.sh`")) << report;
  EXPECT_TRUE(contains(report, "## Guilty stage")) << report;
  EXPECT_TRUE(contains(report, "first bad version")) << report;

  // The limits `cudiff check` ran under (300 s, a timeout confirmed with 3 times it), and only
  // the config that decides the crash.
  const std::string text = read_file(script);
  EXPECT_TRUE(contains(text, "COMPILE_SECONDS=\"${COMPILE_SECONDS:-900}\"")) << text;
  EXPECT_TRUE(contains(text, "RUN_SECONDS=\"${RUN_SECONDS:-60}\"")) << text;
  EXPECT_TRUE(contains(text, "# Built: the configs that decide the signature (clang-O3)")) << text;

  // Present: clang-22 still crashes; nvcc, which does not decide it, need not even be there.
  const auto present = run_script(script, {{"NVCC", (dir_.path() / "no-such-nvcc").string()}});
  EXPECT_EQ(present.exit_code, 1) << present.out.text << present.err.text;
  EXPECT_TRUE(contains(present.out.text, "present: clang-O3 crashed")) << present.out.text;
  // Cannot tell: the compiler is not there.
  const auto missing = run_script(script, {{"CLANG", (dir_.path() / "no-such-clang").string()}});
  EXPECT_EQ(missing.exit_code, 125) << missing.out.text << missing.err.text;
  EXPECT_TRUE(contains(missing.err.text, "clang not found")) << missing.err.text;
  // Fixed: the same directory with a program that no longer crashes clang (what a fixed clang
  // does to the original: no crash).
  std::string source = read_file(reproducer);
  const auto at = source.find("static thread_local int calls");
  ASSERT_NE(at, std::string::npos);
  source.replace(at, std::string("static thread_local").size(), "static");
  write_file(reproducer, source);
  const auto fixed = run_script(script);
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out.text << fixed.err.text;
  EXPECT_TRUE(contains(fixed.out.text, "fixed: no config crashes")) << fixed.out.text;
}

TEST_F(ExportE2E, RecheckMarkLinkAndBisectAreKeptWithTheBucket) {
  const auto rechecked = run_cudiff({"triage", "recheck", "--json", "--db", db_.string()});
  ASSERT_EQ(rechecked.exit_code, 0) << rechecked.err.text;
  const auto list = boost::json::parse(rechecked.out.text).at("rechecked").as_array();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].at("verdict").as_string(), "present");
  EXPECT_FALSE(list[0].at("marked_fixed").as_bool());

  const auto bad_link = run_cudiff({"triage", "mark", "1", "reported", "--link", "not-a-url", "--db", db_.string()});
  EXPECT_EQ(bad_link.exit_code, 2) << bad_link.err.text;
  const auto marked = run_cudiff({"triage", "mark", "1", "reported", "--link",
                                  "https://github.com/llvm/llvm-project/issues/1", "--db", db_.string()});
  ASSERT_EQ(marked.exit_code, 0) << marked.err.text;

  const auto bisected = run_cudiff({"triage", "bisect", "1", "--db", db_.string()}, 600);
  ASSERT_EQ(bisected.exit_code, 0) << bisected.err.text;
  // No other clang release installable beside clang-22 on Debian 12 builds CUDA 13 code.
  EXPECT_TRUE(contains(bisected.out.text, "not bisectable")) << bisected.out.text;

  const auto shown = run_cudiff({"triage", "show", "1", "--json", "--db", db_.string()});
  ASSERT_EQ(shown.exit_code, 0) << shown.err.text;
  const auto bucket = boost::json::parse(shown.out.text).as_object();
  EXPECT_EQ(bucket.at("status").as_string(), "reported");
  EXPECT_EQ(bucket.at("link").as_string(), "https://github.com/llvm/llvm-project/issues/1");
  EXPECT_TRUE(bucket.at("versions").as_string().starts_with("not bisectable"));
  EXPECT_EQ(bucket.at("recheck").at("verdict").as_string(), "present");
  const auto report = dir_.path() / "again";
  ASSERT_EQ(run_cudiff({"triage", "export", "1", report.string(), "--db", db_.string()}).exit_code, 0);
  const std::string md = read_file(report / "report.md");
  EXPECT_TRUE(contains(md, "reported upstream: https://github.com/llvm/llvm-project/issues/1")) << md;
  EXPECT_TRUE(contains(md, "first bad version: not bisectable")) << md;
}

} // namespace
