// The compute-dense families of generator 0.8.0 and 0.9.0 against the real compilers (label
// compilers): programs with one family on (0.9.0's: its four together) build to PTX under nvcc
// -O3 and clang-22 -O3, and the PTX holds the instructions the family is there to reach
// (bench/ptx_families.py counts the same).
#include "generator/generator.h"
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <future>
#include <iostream>
#include <regex>

namespace {

using namespace cudiff;

/// A family, what each compiler's -O3 PTX of every program with it must hold ("": built
/// only), and what each compiler's PTX of some program of the sample must hold (which
/// operations a program draws varies).
struct Reach {
  std::string family;
  std::string clang;
  std::string nvcc;
  std::vector<std::string> clang_sample;
  std::vector<std::string> nvcc_sample;
  /// Of the 6 programs, how many must hold `clang` (the backend may also lower a switch to
  /// a lookup table or a compare tree, or see through a pointer's choice).
  int clang_programs = 6;
};

/// Scoped, signed min/max, CAS and 64-bit bitwise atomics: nvcc spells the state space
/// (atom.global.cta.min.s32), clang leaves it generic (atom.cta.min.s32) and orders its CAS
/// (atom.acquire.sys.global.cas.b32).
std::vector<std::string> atomics() {
  return {R"(atom\.([a-z]+\.)*(cta|sys)\.)", R"(atom\.([a-z]+\.)*(min|max)\.s(32|64))",
          R"(atom\.([a-z]+\.)*cas\.b(32|64))", R"(atom\.([a-z]+\.)*(and|or|xor)\.b64)"};
}

const std::vector<Reach>& reaches() {
  static const std::vector<Reach> table = {
      // clang-22 lowers a dense switch to a jump table; nvcc 13 to a compare tree (measured).
      {"dense_jump_table", R"(brx\.idx)", "", {}, {}, 4},
      {"dense_atomics", R"(atom\.)", R"(atom\.)", atomics(), atomics()},
      // Generic addresses of shared and local words, loads and stores with no state space.
      // Both compilers keep the pointer generic (measured: cvta.shared, cvta.local, ld.u32 and
      // st.u32 in nvcc's PTX of 3 programs of 3).
      {"dense_generic_pointers",
       R"(cvta\.(shared|local)\.u64)",
       "",
       {R"(\sld\.[bu]32\s)", R"(\sst\.[bu]32\s)"},
       {R"(cvta\.(shared|local)\.u64)", R"(\sld\.[bu]32\s)"},
       4},
  };
  return table;
}

} // namespace

TEST(DenseFamiliesCompile, EachFamilyAloneBuildsAndReachesItsInstructions) {
  const std::string clang = test::clang_path(), nvcc = test::nvcc_path();
  ASSERT_FALSE(clang.empty() || nvcc.empty()) << "needs clang++-22 and nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  TempDir dir("cudiff-dense-families");
  for (const Reach& reach : reaches()) {
    const generator::Policy policy = test::only_family(reach.family);
    std::string clang_text, nvcc_text;  // the sample's PTX, every program's
    int reached = 0;                    // programs whose clang PTX holds reach.clang
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const generator::TestCase test = generator::generate_program(policy, seed, generator::Size::small);
      const std::string label = reach.family + " seed " + std::to_string(seed);
      ASSERT_NE(test.source.find(" " + reach.family), std::string::npos) << label << ": no kernel uses the family";
      const auto file = dir.path() / (test.name + ".cu");
      write_file(file, test.source);
      const auto nvcc_ptx = dir.path() / (test.name + ".nvcc.ptx");
      const auto by_nvcc = test::run_tool({nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3", "-ptx",
                                           file.string(), "-o", nvcc_ptx.string()});
      ASSERT_TRUE(by_nvcc.exited_zero()) << label << ": " << by_nvcc.err.text << by_nvcc.out.text;
      if (!reach.nvcc.empty())
        EXPECT_TRUE(std::regex_search(read_file(nvcc_ptx), std::regex(reach.nvcc)))
            << label << ": nvcc -O3's PTX has none of " << reach.nvcc;
      const auto clang_ptx = dir.path() / (test.name + ".clang.ptx");
      const auto by_clang = test::run_tool({clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + cuda,
                                            "-Wno-unknown-cuda-version", "-isystem", cuda + "/include/cccl",
                                            "-std=c++17", "-O3", "--cuda-device-only", "-S", file.string(), "-o",
                                            clang_ptx.string()});
      ASSERT_TRUE(by_clang.exited_zero()) << label << ": " << by_clang.err.text;
      if (!reach.clang.empty() && std::regex_search(read_file(clang_ptx), std::regex(reach.clang))) ++reached;
      clang_text += read_file(clang_ptx);
      nvcc_text += read_file(nvcc_ptx);
    }
    std::cout << reach.family << ": " << reached << " of 6 programs' clang -O3 PTX hold " << reach.clang << "\n";
    if (!reach.clang.empty()) EXPECT_GE(reached, reach.clang_programs) << reach.family;
    for (const std::string& pattern : reach.clang_sample)
      EXPECT_TRUE(std::regex_search(clang_text, std::regex(pattern)))
          << reach.family << ": no program's clang -O3 PTX has " << pattern;
    for (const std::string& pattern : reach.nvcc_sample)
      EXPECT_TRUE(std::regex_search(nvcc_text, std::regex(pattern)))
          << reach.family << ": no program's nvcc -O3 PTX has " << pattern;
  }
}

// Generator 0.9.0's families, all four on in each of 3 programs (one compile per compiler per
// program: CI time), built to PTX by nvcc -O3 and clang-22 -O3 side by side, and at -O0 by
// clang for the first program.
TEST(DenseFamiliesCompile, StructFenceAndHintFamiliesBuildAndReachTheirInstructions) {
  const std::string clang = test::clang_path(), nvcc = test::nvcc_path();
  ASSERT_FALSE(clang.empty() || nvcc.empty()) << "needs clang++-22 and nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  const std::vector<std::string> families = {"dense_bitfield_structs", "dense_padded_structs", "dense_fences",
                                             "dense_cache_hints"};
  generator::Policy policy = test::only_family(families[0]);
  for (const std::string& family : families) policy.set("dense.family." + family, 1);
  // What every program's PTX holds, each compiler's (both spell the hints and fences alike).
  const std::vector<std::string> every = {
      R"(\s(membar\.(gl|sys|cta)|fence\.[a-z_.]*(gpu|sys|cta));)",  // a fence
      R"(\s(ld\.global\.(cs|cg|lu|ca)|st\.global\.(cs|wt|cg|wb))\.)",   // a cache-hinted load or store
      R"(\.param \.align 4 \.b8 func_retval0\[\d+\])",  // the padded struct returned by value
      R"(\s(bfe|bfi)\.[bsu](32|64)\s)",                  // bit-fields read and written
  };
  TempDir dir("cudiff-dense-families-090");
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const generator::TestCase test = generator::generate_program(policy, seed, generator::Size::small);
    const std::string label = "seed " + std::to_string(seed);
    for (const std::string& family : families)
      ASSERT_NE(test.source.find(" " + family), std::string::npos) << label << ": no kernel uses " << family;
    const auto file = dir.path() / (test.name + ".cu");
    write_file(file, test.source);
    const auto nvcc_ptx = dir.path() / (test.name + ".nvcc.ptx");
    auto by_nvcc = std::async(std::launch::async, [&] {
      return test::run_tool({nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3", "-ptx", file.string(), "-o",
                             nvcc_ptx.string()});
    });
    const auto clang_ptx = [&](const std::string& level) {
      const auto ptx = dir.path() / (test.name + ".clang" + level + ".ptx");
      const auto built = test::run_tool({clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + cuda,
                                         "-Wno-unknown-cuda-version", "-isystem", cuda + "/include/cccl", "-std=c++17",
                                         level, "--cuda-device-only", "-S", file.string(), "-o", ptx.string()});
      EXPECT_TRUE(built.exited_zero()) << label << " clang " << level << ": " << built.err.text;
      return built.exited_zero() ? read_file(ptx) : std::string();
    };
    const std::string by_clang = clang_ptx("-O3");
    if (seed == 1) clang_ptx("-O0");
    const auto nvcc_built = by_nvcc.get();
    ASSERT_TRUE(nvcc_built.exited_zero()) << label << ": " << nvcc_built.err.text << nvcc_built.out.text;
    const std::string nvcc_text = read_file(nvcc_ptx);
    for (const std::string& pattern : every) {
      EXPECT_TRUE(std::regex_search(by_clang, std::regex(pattern))) << label << ": clang -O3's PTX has no " << pattern;
      EXPECT_TRUE(std::regex_search(nvcc_text, std::regex(pattern))) << label << ": nvcc -O3's PTX has no " << pattern;
    }
  }
}
