// The compute-dense family's floating-point, half-precision, byte-store and mixed 64-bit families against the
// real compilers (label compilers; issue 38): each family alone builds under nvcc -O3 and clang-22
// at -O3 and -O0, and clang's PTX holds the instructions the family is there for; and every
// floating-point operation, intrinsics and cuda_fp16.h/cuda_bf16.h included (their host
// implementations, through nvcc), computes what the generator predicts (dense::apply).
#include "generator/generator.h"
#include "runners/runners.h"
#include "support/dense_ops_harness.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

namespace {

using namespace cudiff;
using generator::dense::Op;

std::vector<Op> operations_of(const std::vector<std::string>& families) {
  std::vector<Op> ops;
  for (const generator::dense::OpInfo& info : generator::dense::op_table())
    if (std::find(families.begin(), families.end(), info.family) != families.end()) ops.push_back(info.op);
  return ops;
}

} // namespace

TEST(DenseFloatCompile, EachNewFamilyAloneBuildsAndReachesItsInstructions) {
  const std::string clang = test::clang_path(), nvcc = test::nvcc_path();
  ASSERT_FALSE(clang.empty() || nvcc.empty()) << "needs clang++-22 and nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  // What clang -O3's PTX of a program with the family must hold (bench/ptx_families.py).
  const std::vector<std::pair<std::string, std::string>> families = {
      {"dense_fp_float", R"((div|rcp|sqrt)\.rn\.f(32|64)|setp\.[a-z]+\.f(32|64)|cvt\.f64\.f32|copysign\.f32)"},
      {"dense_half", R"(\.(f16|bf16|f16x2|bf16x2)[ ;])"},
      {"dense_byte_store", R"(st\.global(\.wt)?(\.v[24])?\.[bsu]8)"},
      {"dense_wide_mixed", ""},  // built only: which operations a program draws varies
  };
  TempDir dir("cudiff-dense-float");
  for (const auto& [family, instructions] : families) {
    const generator::Policy policy = test::only_family(family);
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      const generator::TestCase test = generator::generate_program(policy, seed, generator::Size::small);
      const std::string label = family + " seed " + std::to_string(seed);
      ASSERT_NE(test.source.find(" " + family), std::string::npos) << label << ": no kernel uses the family";
      const auto file = dir.path() / (test.name + ".cu");
      write_file(file, test.source);
      const auto by_nvcc = test::run_tool({nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3", "-c",
                                           file.string(), "-o", (dir.path() / "nvcc.o").string()});
      EXPECT_TRUE(by_nvcc.exited_zero()) << label << ": " << by_nvcc.err.text << by_nvcc.out.text;
      for (const char* level : {"-O3", "-O0"}) {
        const auto ptx = dir.path() / (test.name + level + ".ptx");
        const auto by_clang = test::run_tool({clang, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + cuda,
                                              "-Wno-unknown-cuda-version", "-isystem", cuda + "/include/cccl",
                                              "-std=c++17", level, "--cuda-device-only", "-S", file.string(), "-o",
                                              ptx.string()});
        ASSERT_TRUE(by_clang.exited_zero()) << label << " " << level << ": " << by_clang.err.text;
        if (std::string(level) == "-O3" && !instructions.empty())
          EXPECT_TRUE(std::regex_search(read_file(ptx), std::regex(instructions)))
              << label << ": clang -O3's PTX has none of " << instructions;
      }
    }
  }
}

TEST(DenseFloatCompile, FloatingOperationsOnTheHostComputeWhatTheGeneratorPredicts) {
  const std::string nvcc = test::nvcc_path();
  ASSERT_FALSE(nvcc.empty()) << "needs nvcc";
  const std::vector<Op> ops = operations_of({"dense_fp_float", "dense_half", "dense_fp_exact"});
  ASSERT_GT(ops.size(), 30u);
  // The host has cuda_fp16.h's and cuda_bf16.h's host implementations; the few device-only
  // intrinsics the operations use get host equivalents that are exact where they are used
  // (a square root of a perfect square, a bit cast; __hfma's operands and result are small
  // whole numbers, so float arithmetic is exact too).
  const std::string shims =
      "#include <cmath>\n#include <cstring>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
      "static float host_uint_as_float(unsigned x) { float f; std::memcpy(&f, &x, 4); return f; }\n"
      "static double host_longlong_as_double(long long x) { double f; std::memcpy(&f, &x, 8); return f; }\n"
      "static __half host_hfma(__half a, __half b, __half c) {\n"
      "  return __float2half_rn(__half2float(a) * __half2float(b) + __half2float(c));\n}\n"
      "#define __uint_as_float host_uint_as_float\n#define __longlong_as_double host_longlong_as_double\n"
      "#define __fsqrt_rn sqrtf\n#define __hfma host_hfma\n"
      "static unsigned cudiff_half2_bits(__half2 x) {\n"
      "  return (unsigned)__half_as_ushort(__low2half(x)) | ((unsigned)__half_as_ushort(__high2half(x)) << 16);\n}\n"
      "static unsigned cudiff_bfloat162_bits(__nv_bfloat162 x) {\n"
      "  return (unsigned)__bfloat16_as_ushort(__low2bfloat16(x)) | "
      "((unsigned)__bfloat16_as_ushort(__high2bfloat16(x)) << 16);\n}\n"
      "using std::isnan; using std::isinf; using std::isfinite; using std::signbit;\n";
  TempDir dir("cudiff-dense-float-host");
  write_file(dir.path() / "ops.cu", shims + test::dense_ops_program(ops, false));
  const auto binary = dir.path() / "ops";
  const auto built = test::run_tool(
      {nvcc, "-std=c++17", "-O2", (dir.path() / "ops.cu").string(), "-o", binary.string()});
  ASSERT_TRUE(built.exited_zero()) << built.err.text;
  const auto ran = test::run_tool({binary.string()});
  ASSERT_TRUE(ran.exited_zero()) << ran.status_text();
  std::size_t lines = 0;
  const auto mismatches = test::dense_mismatches(ops, ran.out.text, lines);
  EXPECT_EQ(lines, ops.size() * 256);
  EXPECT_TRUE(mismatches.empty()) << test::describe(mismatches);
  std::cout << ops.size() << " operations x 256 operand vectors, " << mismatches.size() << " disagree\n";
}
