// repro.sh (triage/repro_script*.cpp): it waits for a compile and a run as long as the finding's
// check did (the limits recorded with it), builds only the configs that decide the signature,
// and checks metamorphic findings variant against original. The scripts run here against fake
// compilers whose "binaries" print what each test wants, and a fake nvidia-smi: the script's
// logic is tested without a GPU (tests/gpu runs one exported from a real finding).
#include "runners/runners.h"
#include "support/test_support.h"
#include "triage/triage.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>

using namespace cudiff;
using cudiff::test::contains;

namespace {

/// A compiler that writes, at its `-o`, a program printing FAKE/CONFIG.prints (CONFIG: the
/// output's directory, as repro.sh names it); FAKE/CONFIG.sleep makes it take that long,
/// FAKE/CONFIG.reject makes it reject the program.
constexpr std::string_view fake_compiler = R"sh(#!/usr/bin/env bash
out=""
while [ $# -gt 0 ]; do if [ "$1" = -o ]; then out="$2"; shift; fi; shift; done
config="$(basename "$(dirname "$out")")"
[ -f "$FAKE/$config.sleep" ] && sleep "$(cat "$FAKE/$config.sleep")"
if [ -f "$FAKE/$config.reject" ]; then echo "repro.cu(3): error: this config rejects it" >&2; exit 1; fi
printf '#!/usr/bin/env bash\ncat "%s"\n' "$FAKE/$config.prints" > "$out"
chmod +x "$out"
)sh";

class ReproScript : public ::testing::Test {
protected:
  void SetUp() override {
    std::filesystem::create_directories(bin_);
    write_file(bin_ / "fakecc", std::string(fake_compiler));
    write_file(bin_ / "nvidia-smi", "#!/usr/bin/env bash\necho 'GPU 0: Fake GPU (UUID: GPU-0)'\n");
    for (const char* tool : {"fakecc", "nvidia-smi"})
      std::filesystem::permissions(bin_ / tool, std::filesystem::perms::owner_all, std::filesystem::perm_options::add);
    write_file(dir_.path() / "repro.cu", "int main() {}\n");
  }

  /// The script of a `kind` finding with `details`, `configs` (name, compiler, outcome, status)
  /// recorded in `mode` with `limits` (none: an older finding), written beside repro.cu.
  std::filesystem::path script(const std::string& kind, const std::string& details,
                               const std::vector<std::array<std::string, 4>>& configs, const std::string& mode,
                               const std::string& limits = "") {
    triage::Bucket bucket;
    bucket.key = "0123456789abcdef0123456789abcdef";
    bucket.kind = kind;
    bucket.title = "a " + kind + " finding";
    triage::StoredFinding finding;
    finding.kind = kind;
    finding.source_name = "repro.cu";
    finding.details = boost::json::parse(details);
    boost::json::array recorded, names;
    for (const auto& [name, compiler, outcome, status] : configs) {
      const std::string output = mode == "ptx" ? "/tmp/x/" + name + "/repro.ptx" : "/tmp/x/" + name + "/repro";
      boost::json::object entry{{"config", name},
                                {"compiler", compiler},
                                {"outcome", outcome},
                                {"status", status},
                                {"command",
                                 "LC_ALL=C /usr/bin/" + compiler + " -O3 -o " + output + " /tmp/x/repro.cu"}};
      if (mode == "run") entry["run"] = boost::json::object{{"status", "exit 0"}};
      recorded.push_back(std::move(entry));
      names.push_back(boost::json::value(name));
    }
    boost::json::object outputs{{"file", "/tmp/x/repro.cu"},
                                {"mode", mode},
                                {"toolchain", boost::json::object{{"nvcc", {{"path", "/usr/bin/nvcc"}}},
                                                                  {"clang", {{"path", "/usr/bin/clang"}}},
                                                                  {"cuda_home", "/usr/local/cuda"}}},
                                {"configs", std::move(recorded)}};
    if (!limits.empty()) outputs["limits"] = boost::json::parse(limits);
    finding.outputs = std::move(outputs);
    finding.configs = std::move(names);
    text_ = triage::render_repro_script(bucket, finding, "repro.cu");
    const auto path = dir_.path() / "repro.sh";
    write_file(path, text_);
    return path;
  }

  /// Runs the script with the fake compilers (clang: `clang`, else missing) and nvidia-smi.
  runners::SubprocessResult run(const std::filesystem::path& path, const std::string& clang = "") {
    runners::Command command;
    command.argv = {"bash", path.string()};
    command.env_overrides = {{"PATH", bin_.string() + ":" + std::string(std::getenv("PATH"))},
                             {"FAKE", fake_.string()},
                             {"NVCC", (bin_ / "fakecc").string()},
                             {"CLANG", clang.empty() ? (bin_ / "no-such-clang").string() : clang}};
    command.limits.wall_seconds = 60;
    return runners::run_subprocess(command);
  }

  /// What CONFIG's program prints; `file` "prints", "sleep" or "reject".
  void set(const std::string& config, const std::string& file, const std::string& text = "") {
    std::filesystem::create_directories(fake_);
    write_file(fake_ / (config + "." + file), text);
  }

  TempDir dir_{"cudiff-repro-script"};
  std::filesystem::path bin_ = dir_.path() / "bin", fake_ = dir_.path() / "fake";
  std::string text_;
};

TEST_F(ReproScript, WaitsForACompileAsLongAsTheRecordedCheckDidBeforeCallingItAHang) {
  // The campaign's check gave a compile 1 s, then 2 s (its confirmation) before calling it hung.
  const auto path = script("hang", R"({"compiler": "nvcc", "stage": "compile"})",
                           {{"nvcc-O3", "nvcc", "hung", "timed out after 2 s"}}, "ptx",
                           R"({"compile_seconds": 1, "run_seconds": 60, "hang_confirmation_factor": 2})");
  EXPECT_TRUE(contains(text_, "COMPILE_SECONDS=\"${COMPILE_SECONDS:-2}\"")) << text_;
  EXPECT_TRUE(contains(text_, "RUN_SECONDS=\"${RUN_SECONDS:-60}\"")) << text_;
  EXPECT_TRUE(contains(text_, "a compile past its 1 s was given 2 s before it was called a hang")) << text_;
  EXPECT_FALSE(contains(text_, "600")) << text_;
  set("nvcc-O3", "sleep", "3");
  set("nvcc-O3", "prints");
  const auto hung = run(path);
  EXPECT_EQ(hung.exit_code, 1) << hung.out.text << hung.err.text;
  EXPECT_TRUE(contains(hung.out.text, "present: nvcc-O3 hung")) << hung.out.text;
  // A compile that ends within the recorded limit is no hang: the bug is gone. (Before the
  // limits were recorded, repro.sh waited 600 s, so a 400 s compile a campaign called hung read
  // as fixed.)
  const auto longer = script("hang", R"({"compiler": "nvcc", "stage": "compile"})",
                             {{"nvcc-O3", "nvcc", "hung", "timed out after 18 s"}}, "ptx",
                             R"({"compile_seconds": 6, "run_seconds": 60, "hang_confirmation_factor": 3})");
  EXPECT_TRUE(contains(text_, "COMPILE_SECONDS=\"${COMPILE_SECONDS:-18}\"")) << text_;
  const auto finished = run(longer);
  EXPECT_EQ(finished.exit_code, 0) << finished.out.text << finished.err.text;
  EXPECT_TRUE(contains(finished.out.text, "fixed: no config hangs")) << finished.out.text;
}

TEST_F(ReproScript, AnOlderFindingWithoutLimitsWaitsAsLongAsItsHungConfigWasWaitedFor) {
  script("hang", R"({})", {{"nvcc-O3", "nvcc", "hung", "timed out after 360.2 s"}}, "ptx");
  EXPECT_TRUE(contains(text_, "COMPILE_SECONDS=\"${COMPILE_SECONDS:-361}\"")) << text_;
  EXPECT_TRUE(contains(text_, "not recorded with this finding")) << text_;
  script("crash", R"({})", {{"nvcc-O3", "nvcc", "crashed", "signal 11 (SIGSEGV)"}}, "ptx");
  EXPECT_TRUE(contains(text_, "COMPILE_SECONDS=\"${COMPILE_SECONDS:-600}\"")) << text_;
  EXPECT_TRUE(contains(text_, "RUN_SECONDS=\"${RUN_SECONDS:-120}\"")) << text_;
}

TEST_F(ReproScript, BuildsOnlyTheConfigsThatDecideTheSignature) {
  // A crash of clang-O3: nvcc's configs are not built, and a missing nvcc does not matter.
  script("crash", R"({"compiler": "clang"})",
         {{"nvcc-O3", "nvcc", "rejected", "exit 1"}, {"clang-O3", "clang", "crashed", "exit 1"}}, "ptx");
  EXPECT_TRUE(contains(text_, "# Built: the configs that decide the signature (clang-O3)")) << text_;
  EXPECT_TRUE(contains(text_, "$(outcome clang-O3 clang_O3)")) << text_;
  EXPECT_FALSE(contains(text_, "$(outcome nvcc-O3")) << text_;
  EXPECT_FALSE(contains(text_, "nvcc not found")) << text_;
  // A run mismatch of nvcc-O3 against nvcc-O3-ptxas0: clang, which did not build the program
  // when it was found, is neither built nor needed.
  const auto path = script("run_mismatch",
                           R"({"groups": [{"configs": ["nvcc-O3-ptxas0"]}, {"configs": ["nvcc-O3"]}],
                               "matching": ["nvcc-O3-ptxas0"], "differing": ["nvcc-O3"]})",
                           {{"nvcc-O3", "nvcc", "accepted", "exit 0"},
                            {"clang-O3", "clang", "rejected", "exit 1"},
                            {"nvcc-O3-ptxas0", "nvcc", "accepted", "exit 0"}},
                           "run", R"({"compile_seconds": 120, "run_seconds": 60, "hang_confirmation_factor": 3})");
  EXPECT_FALSE(contains(text_, "clang not found")) << text_;
  EXPECT_FALSE(contains(text_, "outcome clang-O3")) << text_;
  set("nvcc-O3", "prints", "checksum k 01\n");
  set("nvcc-O3-ptxas0", "prints", "checksum k 02\n");
  const auto present = run(path);
  EXPECT_EQ(present.exit_code, 1) << present.out.text << present.err.text;
  EXPECT_TRUE(contains(present.out.text, "present: nvcc-O3 print other output than nvcc-O3-ptxas0"))
      << present.out.text;
  set("nvcc-O3", "prints", "checksum k 02\n");
  const auto fixed = run(path);
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out.text << fixed.err.text;
  // A config that decides the finding and does not build now: one line says which and why.
  set("nvcc-O3-ptxas0", "reject");
  const auto broken = run(path);
  EXPECT_EQ(broken.exit_code, 125) << broken.out.text << broken.err.text;
  EXPECT_EQ(broken.err.text, "cannot tell: nvcc-O3-ptxas0, which decides this finding, does not build now "
                             "(rejected): repro.cu(3): error: this config rejects it\n");
}

TEST_F(ReproScript, ARunMismatchInHowARunEndsIsComparedNotACannotTell) {
  const auto path = script("run_mismatch", R"({"groups": [{"configs": ["nvcc-O3"]}, {"configs": ["clang-O3"]}]})",
                           {{"nvcc-O3", "nvcc", "accepted", "exit 0"}, {"clang-O3", "clang", "accepted", "exit 0"}},
                           "run");
  set("nvcc-O3", "prints", "checksum k 01\n");
  // clang-O3's program prints nothing and fails: its prints file is missing, so `cat` exits 1.
  const auto present = run(path, (bin_ / "fakecc").string());
  EXPECT_EQ(present.exit_code, 1) << present.out.text << present.err.text;
  EXPECT_TRUE(contains(present.out.text, "present: clang-O3 print other output than nvcc-O3")) << present.out.text;
}

TEST_F(ReproScript, AMetamorphicFindingComparesEachVariantWithItsOriginal) {
  const std::string details =
      R"({"variants": [{"kernel": "s1v1/kernel_0", "original": "s1/kernel_0", "expected": "aa"}],
      "matching": ["clang-O3"], "differing": ["nvcc-O3"], "differing_kernels": ["s1v1/kernel_0"]})";
  const auto path = script("metamorphic", details,
                           {{"nvcc-O3", "nvcc", "accepted", "exit 0"}, {"clang-O3", "clang", "accepted", "exit 0"}},
                           "run");
  EXPECT_FALSE(contains(text_, "repro.sh does not rebuild variants")) << text_;
  const std::string clang = (bin_ / "fakecc").string();
  set("clang-O3", "prints", "checksum s1/kernel_0 aa\nchecksum s1v1/kernel_0 aa\n");
  set("nvcc-O3", "prints", "checksum s1/kernel_0 aa\nchecksum s1v1/kernel_0 bb\n");
  const auto present = run(path, clang);
  EXPECT_EQ(present.exit_code, 1) << present.out.text << present.err.text;
  EXPECT_TRUE(contains(present.out.text, "nvcc-O3: variant s1v1/kernel_0 bb, its original s1/kernel_0 aa"))
      << present.out.text;
  EXPECT_TRUE(contains(present.out.text,
                       "present: nvcc-O3 print another checksum for a variant than for its original; clang-O3 "
                       "print the same"))
      << present.out.text;
  // Fixed: the variant prints its original's checksum under every config.
  set("nvcc-O3", "prints", "checksum s1/kernel_0 aa\nchecksum s1v1/kernel_0 aa\n");
  const auto fixed = run(path, clang);
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out.text << fixed.err.text;
  // The original off the generator's prediction: wrong code, another finding.
  set("nvcc-O3", "prints", "checksum s1/kernel_0 cc\nchecksum s1v1/kernel_0 bb\n");
  const auto other = run(path, clang);
  EXPECT_EQ(other.exit_code, 125) << other.out.text << other.err.text;
  EXPECT_TRUE(contains(other.err.text, "wrong code now, another finding")) << other.err.text;
  // clang-O3 breaking the relation too: neither the recorded split nor fixed.
  set("nvcc-O3", "prints", "checksum s1/kernel_0 aa\nchecksum s1v1/kernel_0 bb\n");
  set("clang-O3", "prints", "checksum s1/kernel_0 aa\nchecksum s1v1/kernel_0 dd\n");
  const auto split = run(path, clang);
  EXPECT_EQ(split.exit_code, 125) << split.out.text << split.err.text;
}

TEST_F(ReproScript, WrongCodeAgainstThePredictionNeedsOnlyTheConfigsItNames) {
  // clang-O0 did not build the program when it was found: the finding neither names nor needs it.
  const auto path = script("wrong_code",
                           R"({"expected": {"k": "01"}, "matching": ["nvcc-O3-ptxas0"], "differing": ["nvcc-O3"],
                               "differing_kernels": ["k"]})",
                           {{"nvcc-O3", "nvcc", "accepted", "exit 0"},
                            {"nvcc-O3-ptxas0", "nvcc", "accepted", "exit 0"},
                            {"clang-O0", "clang", "rejected", "exit 1"}},
                           "run");
  set("nvcc-O3", "prints", "checksum k 02\n");
  set("nvcc-O3-ptxas0", "prints", "checksum k 01\n");
  const auto present = run(path);
  EXPECT_EQ(present.exit_code, 1) << present.out.text << present.err.text;
  EXPECT_TRUE(contains(present.out.text, "present: nvcc-O3 print another checksum than the generator"))
      << present.out.text;
}

} // namespace
