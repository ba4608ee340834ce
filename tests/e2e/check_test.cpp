// End-to-end: the cudiff binary on real CUDA files with the real nvcc and clang-22.
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <thread>

using cudiff::test::contains;
using cudiff::test::count_lines;
using cudiff::test::data;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

namespace {

std::string example(const std::string& name) { return (source_dir() / "examples" / name).string(); }

} // namespace

TEST(CheckE2E, PlainKernelProgramAgrees) {
  auto result = run_cudiff({"check", example("vector_add.cu"), "--mode", "binary"});
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "nvcc-O3")) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "clang-O3")) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "verdict: agree")) << result.out.text;
}

TEST(CheckE2E, ManagedVariableInKernelIsACompileStatusMismatchNamingClangsError) {
  auto result = run_cudiff({"check", example("managed_counter.cu"), "--mode", "binary"});
  EXPECT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  const std::string& out = result.out.text;
  EXPECT_TRUE(contains(out, "verdict: DISCREPANCY")) << out;
  // clang's own words, from its real stderr, and who accepted.
  EXPECT_TRUE(contains(out, "reference to __host__ variable")) << out;
  EXPECT_TRUE(contains(out, "accepted")) << out;
  EXPECT_TRUE(contains(out, "rejected")) << out;
}

// A real nvcc defect the batching work ran into: its registration stub names an extern "C"
// __device__ variable defined in a namespace as `::probe`. Only nvcc rejects.
TEST(CheckE2E, ExternCDeviceVariableInANamespaceIsRejectedOnlyByNvcc) {
  auto result = run_cudiff({"check", example("extern_c_device_in_namespace.cu"), "--mode", "binary", "--json"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  boost::json::value json = boost::json::parse(result.out.text);
  auto& configs = json.at("configs").as_array();
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].at("observation").at("outcome").as_string(), "rejected") << result.out.text;
  EXPECT_EQ(configs[1].at("observation").at("outcome").as_string(), "accepted") << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "has not been declared")) << result.out.text;
}

// A real clang-22 defect the rules catalog's violation template for R-THREADLOCAL-DEV ran
// into: the backend crashes where nvcc gives the guide's error.
TEST(CheckE2E, ThreadLocalInDeviceCodeCrashesClangWhileNvccRejectsIt) {
  auto result = run_cudiff({"check", example("clang_thread_local_device_crash.cu"), "--mode", "object", "--json"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  boost::json::value json = boost::json::parse(result.out.text);
  auto& configs = json.at("configs").as_array();
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].at("observation").at("outcome").as_string(), "rejected") << result.out.text;
  EXPECT_EQ(configs[1].at("observation").at("outcome").as_string(), "crashed") << result.out.text;
  auto& findings = json.at("verdict").at("findings").as_array();
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(std::string(findings[0].at("kind").as_string()), "crash") << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "Cannot select")) << result.out.text;
}

TEST(CheckE2E, JsonOutputCarriesTheVerdictAndBothCommands) {
  auto result = run_cudiff({"check", example("managed_counter.cu"), "--mode", "syntax", "--json"});
  ASSERT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  boost::json::value json = boost::json::parse(result.out.text);
  EXPECT_FALSE(json.at("agree").as_bool());
  auto& configs = json.at("configs").as_array();
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].at("config").as_string(), "nvcc-O3");
  EXPECT_EQ(configs[1].at("config").as_string(), "clang-O3");
  EXPECT_TRUE(contains(boost::json::serialize(configs[1].at("command")), "-fsyntax-only"));
  auto& findings = json.at("verdict").at("findings").as_array();
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(std::string(findings[0].at("kind").as_string()), "compile_status_mismatch");
}

TEST(CheckE2E, MissingFileIsAnEnvironmentErrorWithOneLine) {
  auto result = run_cudiff({"check", "/nonexistent/dir/kernel.cu"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(count_lines(result.err.text), 1u) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "no such file: /nonexistent/dir/kernel.cu")) << result.err.text;
  EXPECT_TRUE(result.out.text.empty());
}

TEST(CheckE2E, FileThatIsNotCudaIsAgreementBecauseNeitherAccepts) {
  auto result = run_cudiff({"check", data("e2e/data/not_cuda.cu").string()});
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "verdict: agree")) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "none")) << result.out.text;
}

TEST(CheckE2E, MissingCompilerIsAnEnvironmentErrorWithOneLine) {
  auto result = run_cudiff({"check", example("vector_add.cu"), "--nvcc", "/nonexistent/bin/nvcc"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(count_lines(result.err.text), 1u) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "/nonexistent/bin/nvcc")) << result.err.text;

  auto clang = run_cudiff({"check", example("vector_add.cu"), "--clang", "/nonexistent/clang++"});
  EXPECT_EQ(clang.exit_code, 2);
  EXPECT_TRUE(contains(clang.err.text, "/nonexistent/clang++")) << clang.err.text;
}

TEST(CheckE2E, ClangOlderThan22IsRefusedWithItsVersion) {
  if (!std::filesystem::exists("/usr/bin/clang++-14")) GTEST_SKIP() << "no clang++-14 on this machine";
  auto result = run_cudiff({"check", example("vector_add.cu"), "--clang", "/usr/bin/clang++-14"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(contains(result.err.text, "too old")) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "14.")) << result.err.text;
}

TEST(CheckE2E, FileWithoutMainIsCheckedAsAnObject) {
  auto result = run_cudiff({"check", data("e2e/data/device_function_only.cu").string()});
  EXPECT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "mode: object")) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "no main()")) << result.out.text;
}

TEST(CheckE2E, KeepWritesTheCommandsToReRunByHand) {
  cudiff::TempDir dir("cudiff-e2e-keep");
  auto result = run_cudiff({"check", example("vector_add.cu"), "--mode", "ptx", "--keep", dir.path().string()});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  std::string nvcc = cudiff::read_file(dir.path() / "nvcc-O3" / "command.txt");
  std::string clang = cudiff::read_file(dir.path() / "clang-O3" / "command.txt");
  EXPECT_TRUE(contains(nvcc, "-ptx")) << nvcc;
  EXPECT_TRUE(contains(clang, "--cuda-device-only")) << clang;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "nvcc-O3" / "vector_add.ptx"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "check.json"));
}

TEST(CheckE2E, UsageErrorsExitTwo) {
  EXPECT_EQ(run_cudiff({"check"}).exit_code, 2);
  EXPECT_EQ(run_cudiff({"check", example("vector_add.cu"), "--bogus"}).exit_code, 2);
  EXPECT_EQ(run_cudiff({"check", example("vector_add.cu"), "--mode", "fly"}).exit_code, 2);
  EXPECT_EQ(run_cudiff({"check", example("vector_add.cu"), "--config", "gcc-O2"}).exit_code, 2);
  EXPECT_EQ(run_cudiff({"frobnicate"}).exit_code, 2);
}

TEST(CheckE2E, EveryCommandHasHelp) {
  for (const char* command : {"check", "toolchains"}) {
    auto result = run_cudiff({command, "--help"});
    EXPECT_EQ(result.exit_code, 0) << command;
    EXPECT_TRUE(contains(result.out.text, "usage: cudiff " + std::string(command))) << result.out.text;
  }
  auto top = run_cudiff({"--help"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_TRUE(contains(top.out.text, "check")) << top.out.text;
}

TEST(ToolchainsE2E, ListsBothCompilersWithVersions) {
  auto result = run_cudiff({"toolchains", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  boost::json::value json = boost::json::parse(result.out.text);
  EXPECT_TRUE(json.at("nvcc").at("version").as_string().starts_with("13."));
  EXPECT_TRUE(json.at("clang").at("version").as_string().starts_with("22."));
}

// ---- faults the real compilers cannot show on demand, through fake compilers -----------

TEST(CheckFaultsE2E, HangingCompilerIsAHangFindingAndItsProcessGroupIsGone) {
  cudiff::TempDir dir("cudiff-e2e-hang");
  const auto pid_file = dir.path() / "pids.txt";
  auto result = run_cudiff({"check", example("vector_add.cu"), "--mode", "object", "--timeout", "1", "--nvcc",
                            data("fake_compilers/nvcc_that_hangs_fake.sh").string()},
                           120, {{"FAKE_COMPILER_PID_FILE", pid_file.string()}});
  EXPECT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "hung")) << result.out.text;
  // Confirmed once with a 3x longer limit: 1 s + 3 s, not much more.
  EXPECT_LT(result.wall_seconds, 20.0);
  std::ifstream pids(pid_file);
  int pid = 0, seen = 0;
  while (pids >> pid) {
    ++seen;
    bool gone = false;
    for (int i = 0; i < 40 && !gone; ++i) {  // reparented zombies are reaped by init quickly
      gone = ::kill(pid, 0) == -1 && errno == ESRCH;
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(gone) << "process " << pid << " of the fake compiler survived";
  }
  EXPECT_GE(seen, 6) << "two attempts, three processes each";
}

TEST(CheckFaultsE2E, CompilerKilledBySignalIsACrashFinding) {
  auto result = run_cudiff({"check", example("vector_add.cu"), "--mode", "object", "--nvcc",
                            data("fake_compilers/nvcc_that_segfaults_fake.sh").string()});
  EXPECT_EQ(result.exit_code, 1) << result.out.text << result.err.text;
  EXPECT_TRUE(contains(result.out.text, "crash")) << result.out.text;
  EXPECT_TRUE(contains(result.out.text, "signal 11")) << result.out.text;
}
