// gpu-labeled: the compute-dense family on the GPU. Every operation (generator/dense/dense_ops.def),
// intrinsics included, computes on 256 operand vectors exactly what dense::apply predicts under
// nvcc -O3, nvcc -O0 and clang++-22 -O3 (when CUDIFF_CLANG is set); a failure names the
// operation, its text and an operand vector. And programs with every family on print the
// predicted checksums under nvcc -O3, nvcc -O0 and clang -O3. Skipped, with the reason,
// without a GPU.
#include "generator/generator.h"
#include "runners/runners.h"
#include "support/dense_ops_harness.h"
#include "support/test_support.h"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

namespace {

using namespace cudiff;
using generator::dense::Op;

} // namespace

TEST(GpuDense, EveryOperationComputesWhatTheGeneratorPredicts) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const std::string nvcc = test::nvcc_path();
  ASSERT_FALSE(nvcc.empty()) << "needs nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  const std::string arch = test::gpu_arch();  // built for the GPU it runs on
  std::vector<Op> ops;
  for (const generator::dense::OpInfo& info : generator::dense::op_table()) ops.push_back(info.op);
  TempDir dir("cudiff-gpu-dense-ops");
  const auto file = dir.path() / "dense_ops.cu";
  write_file(file, test::dense_ops_program(ops, true));
  std::vector<std::pair<std::string, std::vector<std::string>>> configs = {
      {"nvcc-O3", {nvcc, "-std=c++17", "-O3", "-arch=" + arch}},
      {"nvcc-O0", {nvcc, "-std=c++17", "-O0", "-Xcicc", "-O0", "-Xptxas", "-O0", "-arch=" + arch}},
  };
  if (const char* clang = std::getenv("CUDIFF_CLANG"); clang && *clang)
    configs.push_back(
        {"clang-O3",
         {clang, "-std=c++17", "-O3", "-x", "cuda", "--cuda-gpu-arch=" + arch, "-Wno-unknown-cuda-version",
          "--cuda-path=" + cuda, "-L" + cuda + "/lib64", "-Wl,-rpath," + cuda + "/lib64", "-lcudart"}});
  else std::cout << "[ dense ops ] CUDIFF_CLANG not set: clang-O3 left out\n";
  for (auto& [name, argv] : configs) {
    const auto binary = dir.path() / name;
    argv.insert(argv.end(), {file.string(), "-o", binary.string()});
    const auto built = test::run_tool(argv, 900);
    ASSERT_TRUE(built.exited_zero()) << name << ":\n" << shorten(built.err.text + built.out.text, 4000);
    const auto ran = test::run_tool({binary.string()}, 120);
    ASSERT_TRUE(ran.exited_zero()) << name << " run: " << ran.status_text();
    std::size_t lines = 0;
    const auto mismatches = test::dense_mismatches(ops, ran.out.text, lines);
    EXPECT_EQ(lines, ops.size() * 256) << name;
    std::cout << "[ dense ops ] " << name << ": " << ops.size() << " operations x 256 operand vectors, "
              << mismatches.size() << " disagree\n"
              << test::describe(mismatches);
    EXPECT_TRUE(mismatches.empty()) << name << ":\n" << test::describe(mismatches);
  }
}

TEST(GpuDense, ProgramsWithEveryFamilyPrintThePredictedChecksums) {
  CUDIFF_SKIP_WITHOUT_GPU();
  generator::Policy policy = test::accepted_by_both(generator::Policy::defaults());
  policy.set("dense.share", 1);
  const std::vector<generator::Knob> knobs = policy.knobs();
  for (const generator::Knob& knob : knobs)
    if (knob.name.starts_with("dense.family.")) policy.set(knob.name, 1);
  // clang-22's scoped unsigned atomic min/max are signed (docs/generator.md, "Jump tables,
  // atomics and generic pointers"): a known bug, not what this test checks.
  policy.set("dense.atomics.scoped_unsigned_minmax", 0);
  TempDir dir("cudiff-gpu-dense");
  int kernels = 0, mismatched = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const auto test = generator::generate_program(policy, seed,
                                                  seed == 8 ? generator::Size::large : generator::Size::small);
    const auto source = dir.path() / (test.name + ".cu");
    write_file(source, test.source);
    write_file(dir.path() / (test.name + ".json"), pretty_json(generator::to_json(test.sidecar)));
    std::map<std::string, std::string> expected;  // "checksum <kernel>" -> the predicted value
    for (const generator::Sidecar::Kernel& kernel : test.sidecar.kernels.value())
      expected["checksum " + kernel.name] = kernel.expected_checksum;
    ASSERT_FALSE(expected.empty()) << "seed " << seed << ": the sidecar predicts no kernel";
    auto result = test::run_cudiff({"check", source.string(), "--mode", "run", "--json", "--no-attribution", "--config",
                                    "nvcc-O3,nvcc-O0,clang-O3"});
    ASSERT_NE(result.exit_code, 2) << "seed " << seed << "\n" << result.out.text << result.err.text;
    auto json = boost::json::parse(result.out.text);
    ASSERT_EQ(json.at("configs").as_array().size(), 3u) << "seed " << seed;
    for (const auto& config : json.at("configs").as_array()) {
      const std::string name(config.at("config").as_string());
      ASSERT_TRUE(config.as_object().contains("run")) << "seed " << seed << " " << name << ": not run";
      const auto& run = config.at("run");
      // A binary that crashes or prints nothing must fail here, not pass for want of lines.
      EXPECT_EQ(run.at("exit_code").as_int64(), 0) << "seed " << seed << " " << name << ": " << run.at("status_text");
      std::map<std::string, std::string> printed;
      for (const auto& value : run.at("output_lines").as_array()) {
        const std::string line(value.as_string());
        if (!line.starts_with("checksum ")) continue;
        const std::string key = line.substr(0, line.rfind(' '));
        EXPECT_TRUE(printed.emplace(key, line.substr(line.rfind(' ') + 1)).second)
            << "seed " << seed << " " << name << " prints " << key << " twice";
      }
      for (const auto& [key, predicted] : expected) {
        ++kernels;
        const auto found = printed.find(key);
        if (found != printed.end() && found->second == predicted) continue;
        ++mismatched;
        ADD_FAILURE() << "seed " << seed << " " << name << ": " << key << " "
                      << (found == printed.end() ? std::string("not printed") : found->second) << ", predicted "
                      << predicted;
      }
      EXPECT_EQ(printed.size(), expected.size()) << "seed " << seed << " " << name << ": checksum lines of no kernel";
    }
  }
  std::cout << "[ dense programs ] " << kernels << " kernel runs, " << mismatched << " off the prediction\n";
}
