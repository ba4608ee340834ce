// gpu-labeled: a binary runs on the GPU it was given even when cudiff itself was given a
// list of GPUs (a Slurm job's CUDA_VISIBLE_DEVICES): the child's CUDA_VISIBLE_DEVICES names
// the parent's entry, not the driver's ordinal. On a host of several GPUs the test hands
// cudiff the last one, so the old ordinal ("0") would put the binary on another GPU.
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

using cudiff::test::run_cudiff;

namespace {

/// Prints the PCI address of the one device the process sees, after running a kernel on it.
constexpr const char* bus_program = R"(#include <cstdio>
#include <cuda_runtime.h>
__global__ void touch(int* p) { *p = 1; }
int main() {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) { std::printf("no device\n"); return 1; }
  int* p = nullptr;
  if (cudaMalloc(&p, sizeof(int)) != cudaSuccess) { std::printf("no memory\n"); return 1; }
  touch<<<1, 1>>>(p);
  if (cudaDeviceSynchronize() != cudaSuccess) { std::printf("kernel failed\n"); return 1; }
  std::printf("bus %08x:%02x:%02x.0\n", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
  return 0;
}
)";

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

} // namespace

TEST(GpuPinning, ABinaryRunsOnTheGpuCudiffWasGivenThroughItsOwnDeviceList) {
  CUDIFF_SKIP_WITHOUT_GPU();
  cudiff::runners::Command smi;
  smi.argv = {"nvidia-smi", "--query-gpu=index,pci.bus_id", "--format=csv,noheader"};
  const auto listed = cudiff::runners::run_subprocess(smi);
  if (!listed.exited_zero()) CUDIFF_GPU_TEST_CANNOT_RUN("nvidia-smi cannot list the GPUs: " + listed.status_text());
  const auto lines = cudiff::split_lines(std::string(cudiff::trim(listed.out.text)));
  ASSERT_FALSE(lines.empty());
  const auto last = cudiff::split(lines.back(), ',');
  ASSERT_EQ(last.size(), 2u) << lines.back();
  const std::string index(cudiff::trim(last[0])), bus = lower(std::string(cudiff::trim(last[1])));

  cudiff::TempDir dir("cudiff-gpu-pinning");
  cudiff::write_file(dir.path() / "bus.cu", bus_program);
  // PCI order: the order nvidia-smi numbers the GPUs in.
  const auto result = run_cudiff({"check", (dir.path() / "bus.cu").string(), "--mode", "run", "--config", "nvcc-O3",
                                  "--json"},
                                 300, {{"CUDA_VISIBLE_DEVICES", index}, {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}});
  ASSERT_EQ(result.exit_code, 0) << result.out.text << result.err.text;
  const auto json = boost::json::parse(result.out.text);
  const auto& gpus = json.at("gpus").as_array();
  ASSERT_EQ(gpus.size(), 1u) << "cudiff was given one GPU: " << result.out.text;
  EXPECT_EQ(gpus[0].at("index").to_number<int>(), 0);
  EXPECT_EQ(gpus[0].at("visible_device").as_string(), index);
  const auto& run = json.at("configs").as_array().at(0).at("run");
  ASSERT_EQ(run.at("output_lines").as_array().size(), 1u) << boost::json::serialize(run);
  EXPECT_EQ(std::string(run.at("output_lines").as_array()[0].as_string()), "bus " + bus)
      << "the binary ran on another GPU than GPU " << index << " (" << lines.size() << " on this host)";
  std::cout << "GPU " << index << " of " << lines.size() << " (" << bus << "): the binary ran there\n";
}
