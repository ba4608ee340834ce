// gpu-labeled: programs with their EMI/metamorphic variants in one batch, built by nvcc -O3
// and clang -O3 and run: every variant kernel prints its original's checksum, which is the
// generator's prediction, under both compilers, and the judge agrees (no metamorphic,
// wrong-code or run finding). Skipped, with the reason, where there is no GPU.
#include "generator/generator.h"
#include "pipeline/pipeline.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <iostream>
#include <map>

namespace {

using namespace cudiff;

void expect_variants_agree(const std::vector<std::uint64_t>& seeds, generator::Size size) {
  static const runners::Toolchain toolchain = runners::Toolchain::from(
      runners::discover_toolchain(test::toolchain_search()));
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  TempDir dir("cudiff-gpu-variants");
  const generator::TestCase test = generator::generate_batch(test::accepted_by_both(generator::Policy::defaults()),
                                                             seeds, size, 3);
  pipeline::CheckRequest request;
  request.input = pipeline::TestInput{test.name + ".cu", test.source, std::nullopt, test.sidecar, {}, {}};
  request.mode = runners::Mode::run;
  request.configs = runners::parse_configs("nvcc-O3,clang-O3");
  const pipeline::TestCheck run = pipeline::check_test(request, toolchain, gpus, dir.path());
  std::cout << "[ variants ] seeds " << seeds.front() << ".." << seeds.back() << ": " << run.verdict.headline() << "\n";
  const std::vector<oracle::VariantKernel> pairs = pipeline::variant_kernels_of(test.sidecar);
  ASSERT_FALSE(pairs.empty());
  for (const pipeline::ConfigCheck& config : run.configs) {
    ASSERT_TRUE(config.run) << config.compile.config.name << ": " << run.verdict.headline();
    std::map<std::string, std::string> printed;
    for (const std::string& line : config.run->output_lines) {
      const std::vector<std::string> words = split(line, ' ');
      if (words.size() == 3 && words[0] == "checksum") printed[words[1]] = words[2];
    }
    for (const oracle::VariantKernel& pair : pairs) {
      ASSERT_TRUE(printed.contains(pair.kernel)) << config.compile.config.name << " " << pair.kernel;
      EXPECT_EQ(printed[pair.kernel], printed[pair.original])
          << config.compile.config.name << ": " << pair.kernel << " (" << join(pair.transforms, ", ") << ")";
    }
    for (const generator::Sidecar::Kernel& kernel : test.sidecar.kernels.value())
      EXPECT_EQ(printed[kernel.name], kernel.expected_checksum) << config.compile.config.name << " " << kernel.name;
  }
  EXPECT_TRUE(run.verdict.agree()) << run.verdict.headline();
}

} // namespace

TEST(GpuVariants, SmallProgramsAndTheirVariantsPrintTheSameChecksums) {
  CUDIFF_SKIP_WITHOUT_GPU();
  expect_variants_agree({61, 62, 63, 64}, generator::Size::small);
}

TEST(GpuVariants, MediumProgramsAndTheirVariantsPrintTheSameChecksums) {
  CUDIFF_SKIP_WITHOUT_GPU();
  expect_variants_agree({71, 72}, generator::Size::medium);
}
