// gpu-labeled: inline-PTX blocks (generator/inline_ptx/inline_ptx.h) run on the GPU compute exactly what
// run(), the interpreter behind every expected checksum, predicts. 300 blocks, each made with one
// instruction family only (or all of them), on 64 input vectors (edge values first), built
// with nvcc -O3, nvcc -O3 -Xptxas -O0, nvcc -O0 and nvcc -G (and clang++-22 -O3 when
// CUDIFF_CLANG is set). Prints per family the blocks checked and the mismatches; a failure
// names the family, its knob, a block's text and the input. Skipped, with the reason, without
// a GPU.
#include "runners/runners.h"
#include "support/inline_ptx_program.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

namespace {

using namespace cudiff;
namespace ptx = generator::ptx;

struct FamilyCount {
  int blocks = 0;
  int mismatched_blocks = 0;
  std::string first_mismatch;
};

std::string hex(std::uint64_t value) {
  std::ostringstream text;
  text << std::hex << value;
  return text.str();
}

// Compares every printed line with run(); returns the counts per family.
std::map<std::string, FamilyCount> judge(const std::vector<test::PtxProgramBlock>& blocks, const std::string& output,
                                         const std::string& config) {
  std::map<std::string, FamilyCount> counts;
  std::vector<bool> mismatched(blocks.size(), false);
  std::size_t lines = 0;
  for (const std::string& line : split_lines(output)) {
    if (!line.starts_with("block ")) continue;
    ++lines;
    std::istringstream in(line);
    std::string word;
    std::size_t k = 0;
    int call = 0, thread = 0;
    in >> word >> k >> word >> call >> word >> thread >> word;
    if (k >= blocks.size()) {
      ADD_FAILURE() << config << ": unexpected line " << line;
      continue;
    }
    std::vector<std::uint64_t> inputs, outputs;
    while (in >> word && word != "out") inputs.push_back(std::stoull(word, nullptr, 16));
    while (in >> word) outputs.push_back(std::stoull(word, nullptr, 16));
    const std::vector<std::uint64_t> expected = ptx::run(blocks[k].block, inputs);
    if (outputs == expected || mismatched[k]) continue;
    mismatched[k] = true;
    FamilyCount& count = counts[blocks[k].family];
    if (count.first_mismatch.empty()) {
      std::string ins, got, want;
      for (auto v : inputs) ins += " 0x" + hex(v);
      for (auto v : outputs) got += " 0x" + hex(v);
      for (auto v : expected) want += " 0x" + hex(v);
      std::vector<std::string> in_names, out_names;
      for (std::size_t i = 0; i < inputs.size(); ++i) in_names.push_back("i" + std::to_string(i));
      for (std::size_t i = 0; i < expected.size(); ++i) out_names.push_back("o" + std::to_string(i));
      count.first_mismatch = "block " + std::to_string(k) + " (call " + std::to_string(call) + ", thread " +
                             std::to_string(thread) + ")\n  inputs:" + ins + "\n  GPU:" + got + "\n  run():" + want +
                             "\n" + ptx::asm_statement(blocks[k].block, out_names, in_names);
    }
  }
  std::size_t expected_lines = 0;
  for (const auto& entry : blocks)
    expected_lines += static_cast<std::size_t>(entry.called_twice ? 2 : 1) * test::kPtxVectors;
  EXPECT_EQ(lines, expected_lines) << config << ": the program printed " << lines << " block lines";
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    FamilyCount& count = counts[blocks[k].family];
    ++count.blocks;
    count.mismatched_blocks += mismatched[k] ? 1 : 0;
  }
  return counts;
}

TEST(GpuInlinePtx, BlocksComputeWhatTheInterpreterPredicts) {
  CUDIFF_SKIP_WITHOUT_GPU();
  const std::string nvcc = test::nvcc_path();
  ASSERT_FALSE(nvcc.empty()) << "needs nvcc";
  const std::string cuda = std::filesystem::path(nvcc).parent_path().parent_path().string();
  const std::string arch = test::gpu_arch();  // built for the GPU it runs on
  const auto blocks = test::make_ptx_blocks(300, 7);
  TempDir dir("cudiff-gpu-inline-ptx");
  const auto file = dir.path() / "inline_ptx_blocks.cu";
  write_file(file, test::ptx_program(blocks));
  std::vector<std::pair<std::string, std::vector<std::string>>> configs = {
      {"nvcc-O3", {nvcc, "-O3", "-arch=" + arch}},
      {"nvcc-O3-Xptxas-O0", {nvcc, "-O3", "-Xptxas", "-O0", "-arch=" + arch}},
      {"nvcc-O0", {nvcc, "-O0", "-arch=" + arch}},
      {"nvcc-G", {nvcc, "-G", "-arch=" + arch}},
  };
  if (const char* clang = std::getenv("CUDIFF_CLANG"); clang && *clang)
    configs.push_back({"clang-O3",
                       {clang, "-O3", "-x", "cuda", "--cuda-gpu-arch=" + arch, "-Wno-unknown-cuda-version",
                        "--cuda-path=" + cuda, "-L" + cuda + "/lib64", "-Wl,-rpath," + cuda + "/lib64", "-lcudart"}});
  else std::cout << "[ inline ptx ] CUDIFF_CLANG not set: clang-O3 left out\n";
  std::vector<std::string> disagreeing;
  for (auto& [name, argv] : configs) {
    const auto binary = dir.path() / name;
    argv.push_back(file.string());
    argv.push_back("-o");
    argv.push_back(binary.string());
    runners::Command compile;
    compile.argv = argv;
    compile.limits.wall_seconds = 900;
    const auto built = runners::run_subprocess(compile);
    ASSERT_TRUE(built.exited_zero()) << name << ":\n" << shorten(built.err.text + built.out.text, 4000);
    runners::Command execute;
    execute.argv = {binary.string()};
    execute.limits.wall_seconds = 120;
    const auto ran = runners::run_subprocess(execute);
    ASSERT_TRUE(ran.exited_zero()) << name << " run:\n" << shorten(ran.out.text + ran.err.text, 4000);
    const auto counts = judge(blocks, ran.out.text, name);
    std::cout << "[ inline ptx ] " << name << ":\n";
    for (const auto& [family, count] : counts) {
      std::cout << "    " << family << ": " << count.blocks << " blocks checked, " << count.mismatched_blocks
                << " mismatched\n";
      if (count.mismatched_blocks == 0) continue;
      disagreeing.push_back(family);
      ADD_FAILURE() << name << ": family '" << family << "' disagrees with run() in " << count.mismatched_blocks
                    << " of " << count.blocks << " blocks"
                    << (family == "mixed" ? " (blocks of every family: see the single-family lines)"
                                          : "; switch it off with the knob ptx.family." + family + "=0")
                    << "\nfirst mismatch: " << count.first_mismatch;
    }
  }
  if (!disagreeing.empty()) std::cout << "[ inline ptx ] families that disagree: " << join(disagreeing, ", ") << "\n";
}

} // namespace
