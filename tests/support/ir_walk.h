// Programs along random walks of the IR reduction (generator::ProgramReduction): each step
// accepts an edit drawn from a seeded stream, so the walks reach the trims, the compact host
// side and small kernels the way a reduction does, without a GPU deciding. What the e2e test
// builds with both compilers and the gpu test runs against each program's prediction.
#pragma once

#include "generator/generator.h"
#include "support/test_support.h"

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace cudiff::test {

/// `samples` programs of the walk from `seed`'s program (dense kernels on): every
/// `steps / samples` accepted edits, and the last one.
inline std::vector<generator::TestCase> ir_walk(std::uint64_t seed, int steps, int samples) {
  generator::Policy policy = accepted_by_both(generator::Policy::defaults());
  policy.set("dense.share", 1);
  generator::ProgramReduction reduction(policy, seed, generator::Size::small);
  std::mt19937_64 stream(seed);
  std::vector<generator::TestCase> programs;
  const int every = std::max(1, steps / samples);
  for (int step = 1; step <= steps && reduction.edits() > 0; ++step) {
    // The coarse edits (they come first) half of the time, as a reduction takes them early.
    const std::size_t span = stream() % 2 == 0 ? std::min<std::size_t>(reduction.edits(), 12) : reduction.edits();
    for (int attempt = 0; attempt < 20; ++attempt) {
      const std::size_t edit = stream() % span;
      // A program without a host side runs nothing: these walks are built and run.
      if (reduction.kind(edit) == "the device code alone" || !reduction.candidate(edit)) continue;
      reduction.accept(edit);
      break;
    }
    if (step % every == 0 || step == steps) programs.push_back(reduction.current());
  }
  return programs;
}

/// Greedy: the first edit whose candidate keeps `keep`, again from the same edit number, until
/// a whole pass over the edits accepts nothing. Returns how many edits were accepted.
inline int reduce_greedily(generator::ProgramReduction& reduction,
                           const std::function<bool(const generator::TestCase&)>& keep) {
  int accepted = 0;
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t i = 0; i < reduction.edits(); ++i) {
      const std::optional<generator::TestCase> candidate = reduction.candidate(i);
      if (!candidate || !keep(*candidate)) continue;
      reduction.accept(i);
      ++accepted;
      progress = true;
      --i;  // the same number names the next edit now
    }
  }
  return accepted;
}

/// The known ptxas bug's seed under generator 0.6 (corpus/known-bugs/ptxas-dense-nvcc-s1026020699234 keeps
/// that program); from 0.7.0 on it is a program like any other.
constexpr std::uint64_t kReductionSeed = 1026020699234ull;

/// The defaults without generator 0.8.0's families (jump tables, atomics, generic pointers) and
/// 0.9.0's (bit-field and padded structs, fences, cache hints): the policy under which
/// kReductionSeed's program is the one the reduction tests describe (a family on draws other
/// statements, and "__ffs((int)0x0u)" then sits inside an input index).
inline generator::Policy reduction_policy() {
  generator::Policy policy = generator::Policy::defaults();
  for (const char* family : {"dense_jump_table", "dense_atomics", "dense_generic_pointers", "dense_bitfield_structs",
                             "dense_padded_structs", "dense_fences", "dense_cache_hints"})
    policy.set(std::string("dense.family.") + family, 0);
  return policy;
}

/// kReductionSeed's program (under reduction_policy()) reduced greedily while its text holds `token` and it predicts a
/// checksum: what a reduction ends at. "__ffs((int)0x0u)" (a statement of constants) ends without
/// the base words and the input; "__vmaxs2(" keeps them.
inline generator::TestCase reduced_keeping(const std::string& token) {
  generator::ProgramReduction reduction(reduction_policy(), kReductionSeed, generator::Size::small);
  reduce_greedily(reduction, [&](const generator::TestCase& test) {
    return test.source.find(token) != std::string::npos && test.sidecar.kernels && !test.sidecar.kernels->empty();
  });
  return reduction.current();
}

} // namespace cudiff::test
