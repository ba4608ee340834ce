// pipeline: the IR stage of a reduction (docs/reducer.md, "Reducing a generated program"): which
// generated program or batch a reproducer is, and the loop that shrinks it with the generator's
// edits (generator::ProgramReduction) under any test, before the text passes.
#pragma once

#include "generator/generator.h"
#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace cudiff::pipeline {

/// What the generator needs to make a reproducer's program again.
struct GeneratedOrigin {
  generator::Policy policy = generator::Policy::defaults();
  /// A batch (generate_batch) of `seeds` with `variants` variants each; else one seed's
  /// program (generate_program), `seeds` holding that seed.
  bool batch = false;
  std::vector<std::uint64_t> seeds;
  int variants = 0;
  generator::Size size = generator::Size::small;
  /// A wrong-code finding reduces one test of the batch alone: the seed and the variant its
  /// differing kernel belongs to (0: the seed's own program).
  std::uint64_t seed = 0;
  int variant = 0;
};

/// The origin of `source` when it is a program or batch that today's generator makes again
/// byte for byte with `policy` (a batch's variants are counted from its text). Otherwise none,
/// and `why_not` says why.
std::optional<GeneratedOrigin> generated_origin_of(const std::string& source, const generator::Policy& policy,
                                                   std::string& why_not);
/// The same for a stored finding's reproducer, with the policy stored with its campaign (the
/// defaults when it stored none), or `given` (`--policy FILE`) when the program's header names
/// its hash; `seed` and `variant` name the test its differing kernel is in
/// (`s<seed>v<j>/kernel_0`), or the batch's only seed.
std::optional<GeneratedOrigin> generated_origin(const triage::Database& db, const triage::StoredFinding& finding,
                                                std::string& why_not,
                                                const std::optional<generator::Policy>& given = std::nullopt);

/// The IR reduction of the whole origin: its batch (every seed and variant) or its program.
/// current() starts as the text generated_origin_of compared.
generator::ProgramReduction program_reduction(const GeneratedOrigin& origin);

/// How the IR stage runs.
struct IrOptions {
  std::size_t jobs = 1;
  double time_limit_seconds = 0;  ///< 0: none
  std::function<void(const generator::TestCase&)> on_improvement;
  /// The test's last step, run only for the edit the stage is about to keep (the first kept one
  /// in order), one at a time: false, and the edit is not kept. For a step too costly to run
  /// for the tests a kept edit leaves behind (the sanitizer: 8 s a candidate on an H100, where
  /// the builds and runs before it take 4). None: the test alone decides.
  std::function<bool(const generator::TestCase&)> confirm;
};

struct IrReduction {
  generator::TestCase program;  ///< the smallest program kept, with its prediction
  std::size_t original_lines = 0;
  std::size_t tests = 0, accepted = 0, rounds = 0;
  /// Edits kept at once that the confirm step then refused: the reduction went back from each.
  std::size_t refused = 0;
  double seconds = 0;
  bool stopped_early = false;
  std::vector<std::string> log;  ///< the edits accepted, in order
};

/// The IR stage's test of one candidate. Its stop token is requested once the result can no
/// longer be used (another edit was kept, or the time is spent): a test of several steps may
/// then end early with false instead of building and running the rest for nothing.
using IrTest = std::function<bool(const generator::TestCase& candidate, std::stop_token unused)>;

/// Reduces `reduction` while `test` keeps its candidates: edits are tried `jobs` at a time as a
/// pipeline (a slot that ends takes the next edit), their results read in order, so the first
/// kept one in order wins (as a sequential run would take it); `tests` counts every test
/// started, those of a program already left behind included (their stop tokens are requested).
/// Rounds repeat until one keeps nothing or the time is spent. The start is not tested here.
/// Progress lines ("ir-reduce: ...") and the kept edits go to `err`. `test` must be thread-safe.
IrReduction reduce_ir(generator::ProgramReduction& reduction, const IrTest& test, const IrOptions& options,
                      std::ostream& err);

} // namespace cudiff::pipeline
