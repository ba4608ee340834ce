// Unit: one program's share of its GPU's memory in an executor (runners/device_share.h): the
// memory left after the GPU's executors' contexts, times the executors' share, split evenly
// among them, whatever `--executors` is.
#include "runners/device_share.h"
#include "runners/runners.h"

#include <gtest/gtest.h>

namespace {

using cudiff::runners::program_device_share;

constexpr std::uint64_t kGiB = 1ull << 30;

TEST(ProgramDeviceShare, SplitsWhatTheContextsLeaveAmongTheExecutors) {
  // 80 GiB, contexts of 1 GiB, half for the executors' programs.
  EXPECT_EQ(program_device_share(80 * kGiB, kGiB, 1, 0.5), 79 * kGiB / 2);
  EXPECT_EQ(program_device_share(80 * kGiB, kGiB, 2, 0.5), 78 * kGiB / 4);
  EXPECT_EQ(program_device_share(80 * kGiB, kGiB, 16, 0.5), 64 * kGiB / 32);
  // The programs of every executor together stay within the share, for any count.
  for (std::uint64_t executors = 1; executors <= 16; ++executors) {
    const std::uint64_t each = program_device_share(141 * kGiB, kGiB, executors, 0.5);
    EXPECT_LE(executors * each, (141 - executors) * kGiB / 2) << executors;
  }
  // More executors, a smaller share each.
  EXPECT_GT(program_device_share(141 * kGiB, kGiB, 2, 0.5), program_device_share(141 * kGiB, kGiB, 16, 0.5));
}

TEST(ProgramDeviceShare, TheDefaultsGiveAQuarterOfAGpuWithTwoExecutors) {
  // What the executor's share was before it knew its executors: a quarter, less the contexts.
  const cudiff::runners::ExecutorSetup setup;
  const std::uint64_t share = program_device_share(141 * kGiB, cudiff::pipeline::kExecutorContextBytes, setup.slots,
                                                   setup.device_share);
  EXPECT_EQ(setup.slots, 2u);
  EXPECT_EQ(share, (141 * kGiB - 2 * cudiff::pipeline::kExecutorContextBytes) / 4);
}

TEST(ProgramDeviceShare, ContextsThatLeaveNothingLeaveNoShare) {
  EXPECT_EQ(program_device_share(16 * kGiB, kGiB, 16, 0.5), 0u);
  EXPECT_EQ(program_device_share(8 * kGiB, kGiB, 16, 0.5), 0u);
  EXPECT_EQ(program_device_share(0, kGiB, 2, 0.5), 0u);
  // No overflow on absurd inputs.
  EXPECT_EQ(program_device_share(kGiB, ~0ull, ~0ull, 0.5), 0u);
}

TEST(ProgramDeviceShare, EdgeArguments) {
  // No executor counts as one; the share is clamped to [0, 1].
  EXPECT_EQ(program_device_share(10 * kGiB, kGiB, 0, 1.0), 9 * kGiB);
  EXPECT_EQ(program_device_share(10 * kGiB, kGiB, 1, 3.0), 9 * kGiB);
  EXPECT_EQ(program_device_share(10 * kGiB, kGiB, 1, 0.0), 0u);
  EXPECT_EQ(program_device_share(10 * kGiB, kGiB, 1, -1.0), 0u);
  // No context allowance: the whole memory is shared out.
  EXPECT_EQ(program_device_share(8 * kGiB, 0, 4, 1.0), 2 * kGiB);
  static_assert(program_device_share(4096, 1024, 2, 0.5) == 512);  // a pure, constant function
}

}  // namespace
