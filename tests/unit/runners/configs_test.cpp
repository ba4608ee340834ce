// The presets' exact command lines (docs/runners.md, "Toolchain and configs"), the cross-level
// default, --arch on presets that fix or translate it, and which configs run on which GPU.
#include "runners/runners.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace cudiff::runners {
namespace {

Toolchain fixed_toolchain() {
  Toolchain toolchain;
  toolchain.nvcc.kind = CompilerKind::nvcc;
  toolchain.nvcc.path = "/cuda/bin/nvcc";
  toolchain.clang.kind = CompilerKind::clang;
  toolchain.clang.path = "/usr/bin/clang++-22";
  toolchain.cuda_home = "/cuda";
  return toolchain;
}

Config preset(const std::string& name) { return parse_configs(name).front(); }

std::vector<std::string> argv_of(const std::string& name, Mode mode = Mode::binary) {
  return compile_command(fixed_toolchain(), preset(name), mode, "/w/t.cu", "/w/out/t", "/w/out/tmp").argv;
}

const std::vector<std::string> clang_prefix(const std::string& arch, const std::string& level) {
  return {
      "/usr/bin/clang++-22",       "-x",         "cuda",      "--cuda-gpu-arch=" + arch,           "--cuda-path=/cuda",
      "-Wno-unknown-cuda-version", "-std=c++17", "-" + level, "-fcrash-diagnostics-dir=/w/out/tmp"};
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const std::vector<std::string> clang_link = {"-o",   "/w/out/t", "/w/t.cu",  "-L/cuda/lib64", "-lcudart_static",
                                             "-ldl", "-lrt",     "-lpthread"};

TEST(Configs, NvccPtxasO0PassesTheLevelToPtxasOnly) {
  EXPECT_EQ(argv_of("nvcc-O3-ptxas0"),
            (std::vector<std::string>{"/cuda/bin/nvcc", "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3",
                                      "-Xptxas", "-O0", "-o", "/w/out/t", "/w/t.cu"}));
}

// nvcc 13 passes cicc no level and ptxas none (nvcc --dryrun): -Xcicc -O0 moves NVVM alone,
// and ptxas stays at its default, -O3.
TEST(Configs, NvccCiccO0LowersNvvmAndKeepsPtxas) {
  EXPECT_EQ(argv_of("nvcc-O3-cicc0"),
            (std::vector<std::string>{"/cuda/bin/nvcc", "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3",
                                      "-Xcicc", "-O0", "-o", "/w/out/t", "/w/t.cu"}));
  EXPECT_EQ(ptxas_level(preset("nvcc-O3-cicc0")), "O3");
  const std::optional<Config> twin = cicc_lowered_twin(preset("nvcc-O3"));
  ASSERT_TRUE(twin);
  EXPECT_EQ(twin->name, "nvcc-O3-cicc0");
  Config renamed = *twin;
  renamed.name = preset("nvcc-O3-cicc0").name;
  EXPECT_EQ(renamed, preset("nvcc-O3-cicc0"));
  EXPECT_EQ(cicc_lowered_twin(preset("nvcc-O3-nofma"))->name, "nvcc-O3-nofma+cicc-O0");
  // Nothing to lower: clang, cicc already at -O0 (nvcc-O0, -G) or lowered.
  for (const char* name : {"clang-O3", "nvcc-O0", "nvcc-G", "nvcc-O3-cicc0"})
    EXPECT_FALSE(cicc_lowered_twin(preset(name))) << name;
}

TEST(Configs, ClangPtxasO0GoesThroughXcudaPtxas) {
  EXPECT_EQ(argv_of("clang-O3-ptxas0"),
            concat(concat(clang_prefix("sm_90", "O3"), {"-Xcuda-ptxas", "-O0"}), clang_link));
}

TEST(Configs, RelocatableDeviceCodePresets) {
  EXPECT_EQ(argv_of("nvcc-O3-rdc"),
            (std::vector<std::string>{"/cuda/bin/nvcc", "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O3",
                                      "-rdc=true", "-o", "/w/out/t", "/w/t.cu"}));
  EXPECT_EQ(argv_of("clang-O3-rdc"), concat(concat(clang_prefix("sm_90", "O3"), {"-fgpu-rdc"}), clang_link));
  EXPECT_TRUE(relocatable_device_code(preset("nvcc-O3-rdc")));
  EXPECT_TRUE(relocatable_device_code(preset("clang-O3-rdc")));
  EXPECT_FALSE(relocatable_device_code(preset("nvcc-O3")));
}

TEST(Configs, JitPresetEmbedsPtxOnly) {
  EXPECT_EQ(argv_of("nvcc-O3-jit"), (std::vector<std::string>{"/cuda/bin/nvcc", "-std=c++17", "--extended-lambda",
                                                              "-arch=compute_90", "-O3", "-o", "/w/out/t", "/w/t.cu"}));
  EXPECT_TRUE(ptx_only(preset("nvcc-O3-jit")));
  EXPECT_EQ(ptxas_level(preset("nvcc-O3-jit")), "");
}

TEST(Configs, OtherArchitecturePresets) {
  EXPECT_EQ(argv_of("nvcc-O3-sm100"), (std::vector<std::string>{"/cuda/bin/nvcc", "-std=c++17", "--extended-lambda",
                                                                "-arch=sm_100", "-O3", "-o", "/w/out/t", "/w/t.cu"}));
  EXPECT_EQ(argv_of("nvcc-O3-sm80")[3], "-arch=sm_80");
  EXPECT_EQ(argv_of("clang-O3-sm80"), concat(clang_prefix("sm_80", "O3"), clang_link));
  EXPECT_EQ(argv_of("clang-O3-sm100"), concat(clang_prefix("sm_100", "O3"), clang_link));
}

// nvcc -O0 -Xcicc -O0 -Xptxas -O0 -G fails on every program: "libnvvm : error: -opt defined
// more than once" (-G sets the device level itself).
TEST(Configs, NvccGGetsNoSecondDeviceLevel) {
  EXPECT_EQ(argv_of("nvcc-G"), (std::vector<std::string>{"/cuda/bin/nvcc", "-std=c++17", "--extended-lambda",
                                                         "-arch=sm_90", "-O0", "-G", "-o", "/w/out/t", "/w/t.cu"}));
  EXPECT_EQ(ptxas_level(preset("nvcc-G")), "");
}

TEST(Configs, O0ConfigsStayUnoptimizedOnTheDevice) {
  EXPECT_EQ(argv_of("nvcc-O0"),
            (std::vector<std::string>{"/cuda/bin/nvcc", "-std=c++17", "--extended-lambda", "-arch=sm_90", "-O0",
                                      "-Xcicc", "-O0", "-Xptxas", "-O0", "-o", "/w/out/t", "/w/t.cu"}));
  EXPECT_EQ(ptxas_level(preset("nvcc-O0")), "O0");
  EXPECT_EQ(ptxas_level(preset("clang-O0")), "O0");
  EXPECT_EQ(ptxas_level(preset("nvcc-O3")), "O3");
  EXPECT_EQ(ptxas_level(preset("nvcc-O3-ptxas0")), "O0");
  // A swapped level on an -O0 config replaces the -O0 nvcc would give ptxas.
  Config swapped = preset("nvcc-O0");
  swapped.ptxas_opt_level = "O3";
  const auto argv = compile_command(fixed_toolchain(), swapped, Mode::object, "/w/t.cu", "/w/t.o", "/w/tmp").argv;
  EXPECT_EQ(std::vector<std::string>(argv.begin() + 4, argv.begin() + 9),
            (std::vector<std::string>{"-O0", "-Xcicc", "-O0", "-Xptxas", "-O3"}));
}

TEST(Configs, DefaultsAndTheCrossLevelSet) {
  std::vector<std::string> names;
  for (const Config& config : default_configs()) names.push_back(config.name);
  EXPECT_EQ(names, (std::vector<std::string>{"nvcc-O3", "clang-O3"}));
  names.clear();
  for (const Config& config : cross_level_configs()) names.push_back(config.name);
  EXPECT_EQ(names, (std::vector<std::string>{"nvcc-O3", "clang-O3", "nvcc-O3-ptxas0", "clang-O0"}));
  // Every cross-level config is a preset, built the same way as the preset of its name.
  for (const Config& config : cross_level_configs()) EXPECT_EQ(config, preset(config.name));
}

TEST(Configs, ArchOptionMovesOnlyWhatMayMove) {
  Config plain = preset("clang-O3");
  set_arch(plain, "sm_80");
  EXPECT_EQ(plain.arch, "sm_80");
  Config jit = preset("nvcc-O3-jit");
  set_arch(jit, "sm_80");
  EXPECT_EQ(jit.arch, "compute_80");
  Config fixed = preset("nvcc-O3-sm100");
  set_arch(fixed, "sm_80");
  EXPECT_EQ(fixed.arch, "sm_100");
}

TEST(Configs, WhichConfigsRunOnWhichGpu) {
  GpuInfo hopper;
  hopper.cc_major = 9;
  hopper.cc_minor = 0;
  EXPECT_TRUE(runs_on(preset("nvcc-O3"), hopper));
  EXPECT_TRUE(runs_on(preset("clang-O3-rdc"), hopper));
  EXPECT_TRUE(runs_on(preset("nvcc-O3-jit"), hopper));
  EXPECT_FALSE(runs_on(preset("nvcc-O3-sm80"), hopper));
  EXPECT_FALSE(runs_on(preset("clang-O3-sm100"), hopper));
  GpuInfo blackwell;
  blackwell.cc_major = 10;
  blackwell.cc_minor = 0;
  EXPECT_TRUE(runs_on(preset("nvcc-O3-sm100"), blackwell));
  EXPECT_FALSE(runs_on(preset("nvcc-O3"), blackwell));
  EXPECT_TRUE(runs_on(preset("nvcc-O3-jit"), blackwell));  // compute_90 PTX JITs on newer GPUs
  GpuInfo ampere;
  ampere.cc_major = 8;
  ampere.cc_minor = 0;
  EXPECT_FALSE(runs_on(preset("nvcc-O3-jit"), ampere));  // but not on older ones
}

// A CUDA 13 toolkit keeps <cuda/std/...> (libcu++, cooperative groups) under include/cccl:
// clang gets it as a system include directory, as nvcc adds it by itself; a toolkit without
// one (the fixed "/cuda" above) changes nothing.
TEST(Configs, ClangSeesTheCcclHeadersOfACuda13Toolkit) {
  TempDir cuda("cudiff-cccl");
  std::filesystem::create_directories(cuda.path() / "include" / "cccl");
  Toolchain toolchain = fixed_toolchain();
  toolchain.cuda_home = cuda.path();
  const auto argv = compile_command(toolchain, preset("clang-O3"), Mode::object, "/w/t.cu", "/w/t.o", "/w/tmp").argv;
  const auto at = std::find(argv.begin(), argv.end(), "-isystem");
  ASSERT_NE(at, argv.end());
  EXPECT_EQ(*(at + 1), (cuda.path() / "include" / "cccl").string());
  const auto nvcc = compile_command(toolchain, preset("nvcc-O3"), Mode::object, "/w/t.cu", "/w/t.o", "/w/tmp").argv;
  EXPECT_EQ(std::find(nvcc.begin(), nvcc.end(), "-isystem"), nvcc.end());
}

} // namespace
} // namespace cudiff::runners
