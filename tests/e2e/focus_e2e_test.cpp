// End-to-end: the `focus` pass on a real ptxas crash (the known-bug case's reduced kernel, the
// one way to make ptxas crash on demand) inside a file with other kernels and host code: one
// PTX compile, ptxas on fewer entries, and one candidate with the crashing kernel alone.
#include "support/test_support.h"

#include "common/common.h"

#include <gtest/gtest.h>

using cudiff::read_file;
using cudiff::TempDir;
using cudiff::write_file;
using cudiff::test::contains;
using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

TEST(FocusE2E, APtxasCrashKeepsOnlyTheCrashingKernelInOneStep) {
  TempDir dir("cudiff-focus-e2e");
  const std::string crashing = read_file(source_dir() /
                                         "corpus/known-bugs/ptxas-crash-dense-batch-s1026020699322/reduced.cu");
  // Another kernel of the same name in another namespace: the map back from the PTX goes by
  // the qualified name.
  const std::string source = "#include <cstdio>\n"
                             "namespace crash {\n" +
                             crashing +
                             "} // namespace crash\n"
                             "namespace calm {\n"
                             "__device__ __noinline__ unsigned twice(unsigned x) { return 2 * x; }\n"
                             "__global__ void dense_0(unsigned* out) { out[threadIdx.x] = twice(threadIdx.x); }\n"
                             "__global__ void fill(int* out, int v) { out[blockIdx.x] = v; }\n"
                             "} // namespace calm\n"
                             "static void run_all(unsigned* out) {\n"
                             "  crash::dense_0<<<1, 64>>>(out, out);\n"
                             "  calm::dense_0<<<1, 64>>>(out);\n"
                             "  calm::fill<<<1, 1>>>(nullptr, 3);\n"
                             "  std::printf(\"%d\\n\", (int)cudaDeviceSynchronize());\n"
                             "}\n"
                             "int main() {\n"
                             "  run_all(nullptr);\n"
                             "  return 0;\n"
                             "}\n";
  const auto file = dir.path() / "two_kernels.cu";
  write_file(file, source);
  const auto schedule = dir.path() / "focus.json";
  write_file(schedule, R"({"first": ["focus"], "main": [], "last": []})");
  const auto out = dir.path() / "focused.cu";
  auto result = run_cudiff({"reduce", file.string(), "--mode", "cubin", "--config", "nvcc-O3,nvcc-O3-ptxas0", "--jobs",
                            "2", "--schedule", schedule.string(), "--no-format", "--out", out.string(), "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  // The oracle found the one entry by ptxas alone, and named it as the source does.
  EXPECT_TRUE(contains(result.err.text, "focus: 1 of 3 kernels in the PTX make ptxas fail alone")) << result.err.text;
  EXPECT_TRUE(contains(result.err.text, "): crash::dense_0\n")) << result.err.text;
  const auto report = boost::json::parse(result.out.text);
  const auto& focus = report.at("passes").as_array().at(0);
  EXPECT_EQ(focus.at("pass").as_string(), "focus");
  EXPECT_EQ(focus.at("tests").as_int64(), 1);  // one full test: the candidate was kept
  EXPECT_EQ(focus.at("accepted").as_int64(), 1);
  EXPECT_TRUE(report.at("confirmed").as_bool());
  const std::string reduced = read_file(out);
  EXPECT_TRUE(contains(reduced, "namespace crash {")) << reduced;
  EXPECT_TRUE(contains(reduced, "@%%cp5 bra cudiff_l7;")) << reduced;
  for (std::string_view gone : {"namespace calm {", "twice", "fill", "run_all", "main", "printf"})
    EXPECT_FALSE(contains(reduced, std::string(gone))) << gone << " in\n" << reduced;
}
