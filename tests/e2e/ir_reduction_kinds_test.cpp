// compilers-labeled: every kind of IR-reduction edit (generator::ProgramReduction::kind) leaves
// valid CUDA. Candidates of each kind over many seeds (tests/support/ir_kinds.h: lone programs
// and batches with variants, at their start and after the coarse edits that open the other
// kinds) are built with both real compilers: nvcc to a cubin at -O0 (its front end, cicc and
// ptxas: what the inline-PTX edits change reaches ptxas) and clang++-22 -fsyntax-only (host and
// device front ends). A candidate either compiler rejects fails the test, naming its edit's kind.
#include "runners/runners.h"
#include "support/ir_kinds.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>

namespace {

using namespace cudiff;

struct Built {
  bool ok = false;
  std::string error;
};

Built build(const runners::Toolchain& toolchain, const runners::Config& config, runners::Mode mode,
            const std::filesystem::path& file, const std::filesystem::path& workdir) {
  runners::Limits limits;
  limits.wall_seconds = 300;
  const runners::CompileResult result = runners::compile(toolchain, config, mode, file, workdir, limits);
  return {result.process.exited_zero(), result.process.err.text};
}

TEST(IrReductionKinds, EveryKindOfEditLeavesCudaBothCompilersAccept) {
  static const runners::Toolchain toolchain = runners::Toolchain::from(
      runners::discover_toolchain(test::toolchain_search()));
  // One candidate of each kind, drawn over six seeds (the random walks differ per seed, so the
  // kinds' candidates come from different programs). Two per kind doubled the test's 200 s for
  // little: a kind's edit is the same code on every program; the unit tests walk many seeds.
  const std::vector<test::IrSample> samples = test::ir_samples({1, 2, 3, 4, 5, 6}, 1);
  std::set<std::string> kinds;
  for (const test::IrSample& sample : samples) kinds.insert(sample.kind);
  for (const std::string& kind : test::ir_edit_kinds())
    EXPECT_TRUE(kinds.contains(kind)) << "no candidate of kind '" << kind << "' in the samples";
  for (const std::string& kind : kinds)
    EXPECT_TRUE(test::ir_edit_kinds().contains(kind)) << "a kind tests/support/ir_kinds.h does not list: " << kind;

  const runners::Config nvcc = runners::parse_configs("nvcc-O0").front();
  const runners::Config clang = runners::parse_configs("clang-O0").front();
  TempDir dir("cudiff-ir-kinds");
  // Two builds at a time (one per core of the build machine): about 2 s a candidate.
  const std::size_t lanes = std::max(2u, std::thread::hardware_concurrency());
  std::vector<std::future<std::pair<Built, Built>>> pending;
  std::vector<std::pair<Built, Built>> results;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto file = dir.path() / ("c" + std::to_string(i)) / (samples[i].program.name + ".cu");
    std::filesystem::create_directories(file.parent_path());
    write_file(file, samples[i].program.source);
    pending.push_back(std::async(std::launch::async, [&, file] {
      return std::pair{build(toolchain, nvcc, runners::Mode::cubin, file, file.parent_path()),
                       build(toolchain, clang, runners::Mode::syntax, file, file.parent_path())};
    }));
    if (pending.size() >= lanes || i + 1 == samples.size()) {
      for (auto& done : pending) results.push_back(done.get());
      pending.clear();
    }
  }
  std::map<std::string, int> failed;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto& [by_nvcc, by_clang] = results[i];
    if (by_nvcc.ok && by_clang.ok) continue;
    if (failed[samples[i].kind]++ > 0) continue;  // one report per kind
    ADD_FAILURE() << "edit kind '" << samples[i].kind << "' (" << samples[i].what << ") made CUDA that "
                  << (by_nvcc.ok ? "" : "nvcc -O0 -cubin ") << (by_clang.ok ? "" : "clang -fsyntax-only ")
                  << "rejects:\n"
                  << shorten(by_nvcc.ok ? by_clang.error : by_nvcc.error, 2000);
  }
  EXPECT_TRUE(failed.empty()) << failed.size() << " kinds of edit made invalid CUDA";
  EXPECT_GE(samples.size(), test::ir_edit_kinds().size());
}

} // namespace
