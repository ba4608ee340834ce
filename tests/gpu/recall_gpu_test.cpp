// gpu-labeled: the whole known-bug suite, run-side cases included, under the default configs and
// under each case's own presets; prints recall per set. It fails only when a case marked
// confirmed is not found: unconfirmed run-side candidates are what this run confirms or not
// (their outcome is printed for the lead to record in their case.json).
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <iostream>

using cudiff::test::run_cudiff;
using cudiff::test::source_dir;

TEST(GpuRecall, WholeSuiteFindsEveryConfirmedCase) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const std::string suite = (source_dir() / "corpus" / "known-bugs").string();
  auto table = run_cudiff({"recall", suite, "--compare", "nvcc-O3,clang-O3;case"}, 3600);
  std::cout << table.out.text << table.err.text;
  EXPECT_EQ(table.exit_code, 0) << "a case marked confirmed was not found (the table above names it)";
}
