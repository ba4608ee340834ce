// reduction: ProgramReduction — a generated program or batch shrunk at the level of the
// generator's IR (generator.h). Here: the program being reduced (one or more tests, each a
// seed's program or one of its variants), how it is emitted, the edits on whole tests and
// kernels, and how a candidate is made and checked. The edits inside a test are by family:
// reduction_core.cpp, reduction_abi.cpp, reduction_dense.cpp, reduction_ptx.cpp.
#include "generator/reduction/reduction.h"
#include "generator/core/interpreter.h"
#include "generator/core/stack.h"
#include "generator/generate_parts.h"
#include "generator/validate.h"

#include <algorithm>
#include <functional>
#include <set>

namespace cudiff::generator {

/// The program being reduced: what an edit changes and a candidate copies.
struct ReducedProgram {
  Policy policy;
  Size size = Size::small;
  /// Emitted as generate_batch emits (each test in its namespace, its lines labelled), else as
  /// generate_program emits the one test.
  bool batch = false;
  std::vector<BatchTest> tests;
  /// The host side is emit_compact_program's: one test, only compute-dense kernels left.
  bool compact = false;
  /// No host side at all: the compact program's device code alone. It runs nothing and prints
  /// nothing, so only a finding of the compilers can keep it (a crash, a rejection).
  bool device_only = false;
  int accepted = 0;
  TestCase current;
};

struct ProgramReduction::State {
  ReducedProgram program;
  struct Edit {
    std::string what;
    std::string kind;
    std::function<bool(ReducedProgram&)> apply;
    /// The test whose IR the edit changes (its predictions are made again), if one.
    std::optional<std::size_t> test;
    /// It changes the test's core kernels or functions: the interpreter and the validator
    /// must accept them again.
    bool core = false;
  };
  /// The edits `program` offers, in order.
  std::vector<Edit> edits;
};

namespace {

using State = ProgramReduction::State;

std::string label_of(const BatchTest& test) {
  return test.index == 0 ? batch_test_label(test.seed) : variant_test_label(test.seed, test.index);
}

std::string origin_of(const ReducedProgram& state) {
  std::string tests;
  for (const BatchTest& test : state.tests)
    tests += (tests.empty() ? "" : ", ") + ("seed " + std::to_string(test.seed)) +
             (test.index > 0 ? " variant " + std::to_string(test.index) : "");
  return tests + ", generator " + std::string(kGeneratorVersion) + ", " + std::to_string(state.accepted) + " IR edits";
}

/// The text and sidecar of the state's program, with the interpreter's predictions. The start
/// (no edit accepted yet) is the generated text byte for byte, so that a reduction can check
/// it is reducing its reproducer; every candidate says what it was reduced from.
TestCase emit(const ReducedProgram& state) {
  const bool reduced = state.accepted > 0;
  if (state.batch) {
    TestCase test = emit_batch(state.policy, state.size, state.tests);
    if (!reduced) return test;
    test.name += "_reduced";
    // Below the batch's own header lines (seeds, version, policy hash, size).
    std::size_t at = 0;
    for (int line = 0; line < 5 && at != std::string::npos; ++line) at = test.source.find('\n', at) + 1;
    test.source.insert(at, "// reduced from " + origin_of(state) + "\n");
    return test;
  }
  const BatchTest& only = state.tests.front();
  const Built& built = only.built;
  TestCase test;
  test.name = "cudiff_" + std::to_string(only.seed) + (only.index > 0 ? "_v" + std::to_string(only.index) : "") +
              "_reduced";
  test.sidecar = sidecar_of(built, state.policy, only.seed, state.size, "", "");
  test.sidecar.variant_of = only.variant_of;
  if (state.device_only) {
    test.sidecar.kernels.emplace();  // nothing runs, so nothing is predicted
    test.source = "// cudiff: reduced from " + origin_of(state) + "\n" + dense::includes(built.program.dense);
    for (const dense::Kernel& kernel : built.program.dense) {
      const std::string code = dense::emit_device_code(kernel, true);
      test.source += code.substr(code.find('\n') + 1);  // without the families' comment line
    }
    return test;
  }
  if (state.compact) {
    test.source = "// cudiff: reduced from " + origin_of(state) + "\n" +
                  dense::emit_compact_program(built.program.dense);
    // Its host side is not the runners' the plans describe (one word a thread, no slots' symbols).
    for (Sidecar::Kernel& kernel : *test.sidecar.kernels) kernel.launch.reset();
    return test;
  }
  EmitOptions options = built.options;
  options.checksum_label.clear();
  options.header = header_comment(only.seed, state.policy, state.size, built.swarm) +
                   (reduced || only.index > 0 ? "// reduced from " + origin_of(state) + "\n" : "");
  test.source = emit_program(built.program, built.layout, options);
  return test;
}

/// Every core kernel goes, with what only they use: their functions, arrays, constants,
/// helper templates, the V-rule probes planted in them and the ABI family beside them.
bool drop_core_kernels(Program& program) {
  if (program.kernels.empty()) return false;
  Program kept;
  kept.dense = std::move(program.dense);
  program = std::move(kept);
  return true;
}

/// Test `t`'s Program in a state (edits hold the index, not a reference: they apply to copies).
Program& program_of(ReducedProgram& s, std::size_t t) { return s.tests.at(t).built.program; }

/// The edits on whole tests of a batch: each goes, each variant becomes its original again, and
/// a batch of one test becomes that test's program alone.
void test_edits(const ReducedProgram& state, std::vector<State::Edit>& edits) {
  if (state.tests.size() > 1)
    for (std::size_t t = 0; t < state.tests.size(); ++t)
      edits.push_back({"delete test " + label_of(state.tests[t]), "delete a test of the batch",
                       [t, label = label_of(state.tests[t])](ReducedProgram& s) {
                         if (t >= s.tests.size() || s.tests.size() < 2 || label_of(s.tests[t]) != label) return false;
                         s.tests.erase(s.tests.begin() + static_cast<std::ptrdiff_t>(t));
                         return true;
                       },
                       std::nullopt});
  for (std::size_t t = 0; t < state.tests.size(); ++t)
    if (state.tests[t].index > 0 && !state.tests[t].variant_of->transforms.empty())
      edits.push_back({"fold " + label_of(state.tests[t]) + " back into its original",
                       "fold a variant back into its original",
                       [t](ReducedProgram& s) {
                         BatchTest& test = s.tests.at(t);
                         if (test.index == 0 || test.variant_of->transforms.empty()) return false;
                         // The original's program under the variant's label: what the seed's
                         // test is before the variant pass rewrites it.
                         SeededRng rng(test.seed);
                         const std::string label = label_of(test);
                         const std::string ns = "cudiff_" + label;
                         Built original = build(s.policy, rng, test.seed, s.size, s.batch ? label + "_" : "",
                                                s.batch ? ns + "::" : "");
                         original.options.checksum_label = test.built.options.checksum_label;
                         test.built = std::move(original);
                         test.variant_of->transforms.clear();
                         return true;
                       },
                       std::nullopt});
  if (state.batch && state.tests.size() == 1)
    edits.push_back({"the program alone, not a batch", "one program instead of a batch",
                     [](ReducedProgram& s) {
                       if (!s.batch || s.tests.size() != 1) return false;
                       // A batch's layout probes name their types by the batch's namespaces.
                       s.tests.front().built.layout = LayoutPlan{};
                       s.batch = false;
                       return true;
                     },
                     std::nullopt});
}

/// The coarse edits of test `t`: its core kernels, each dense kernel, its layout probes, its ABI
/// functions, each core kernel, the smallest host side.
void coarse_edits(const ReducedProgram& state, std::size_t t, std::vector<State::Edit>& edits) {
  const Program& program = state.tests[t].built.program;
  const LayoutPlan& layout = state.tests[t].built.layout;
  const std::string prefix = state.tests.size() > 1 ? label_of(state.tests[t]) + ": " : "";
  auto add = [&](std::string what, std::string kind, std::function<bool(ReducedProgram&)> apply, bool core = false) {
    edits.push_back({prefix + what, std::move(kind), std::move(apply), t, core});
  };
  add("delete the core kernels", "delete the core kernels",
      [t](ReducedProgram& s) { return drop_core_kernels(program_of(s, t)); });
  for (std::size_t k = 0; k < program.dense.size(); ++k)
    add("delete " + program.dense[k].name, "delete a dense kernel", [t, k](ReducedProgram& s) {
      auto& dense = program_of(s, t).dense;
      if (k >= dense.size() || (dense.size() == 1 && program_of(s, t).kernels.empty())) return false;
      dense.erase(dense.begin() + static_cast<std::ptrdiff_t>(k));
      return true;
    });
  if (!layout.probes.empty() || !layout.definitions.empty())
    add("delete the layout probes", "delete the layout probes", [t](ReducedProgram& s) {
      s.tests.at(t).built.layout = LayoutPlan{};
      return true;
    });
  if (!program.abi.empty())
    add(
        "delete the ABI functions with their calls", "delete the ABI functions",
        [t](ReducedProgram& s) {
          Program& p = program_of(s, t);
          if (p.abi.empty()) return false;
          while (!p.abi.empty()) remove_abi_function(p, p.abi.size() - 1);
          return true;
        },
        true);
  if (program.kernels.size() > 1)
    for (std::size_t k = 0; k < program.kernels.size(); ++k)
      add(
          "delete " + program.kernels[k].name, "delete a core kernel",
          [t, k, name = program.kernels[k].name](ReducedProgram& s) {
            Program& p = program_of(s, t);
            return k < p.kernels.size() && p.kernels[k].name == name && remove_core_kernel(p, k);
          },
          true);
  if (!state.compact && state.tests.size() == 1 && program.kernels.empty() && !program.dense.empty())
    add("the smallest host side", "the smallest host side", [t](ReducedProgram& s) {
      if (s.tests.size() != 1 || !program_of(s, t).kernels.empty() || s.compact) return false;
      s.tests.at(t).built.layout = LayoutPlan{};
      s.batch = false;
      s.compact = true;
      return true;
    });
  if (state.compact && !state.device_only)
    add("the device code alone", "the device code alone",
        [](ReducedProgram& s) { return !std::exchange(s.device_only, true); });
}

/// The fine edits of test `t`: what is inside its ABI functions, its core kernels and functions,
/// and each dense kernel.
void fine_edits(const ReducedProgram& state, std::size_t t, std::vector<State::Edit>& edits) {
  const Program& program = state.tests[t].built.program;
  const std::string prefix = state.tests.size() > 1 ? label_of(state.tests[t]) + ": " : "";
  auto add = [&](std::string what, std::string kind, std::function<bool(ReducedProgram&)> apply, bool core = false) {
    edits.push_back({prefix + what, std::move(kind), std::move(apply), t, core});
  };
  for (std::vector<ProgramEdit> family : {abi_edits(program), core_edits(program)})
    for (ProgramEdit& edit : family)
      add(
          std::move(edit.what), std::move(edit.kind),
          [t, apply = std::move(edit.apply)](ReducedProgram& s) { return apply(program_of(s, t)); }, true);
  for (std::size_t k = 0; k < program.dense.size(); ++k)
    for (dense::KernelEdit& edit : dense::kernel_edits(program.dense[k]))
      add(program.dense[k].name + ": " + edit.what, std::move(edit.kind),
          [t, k, apply = std::move(edit.apply)](ReducedProgram& s) {
            auto& dense = program_of(s, t).dense;
            return k < dense.size() && apply(dense[k]);
          });
}

std::vector<State::Edit> edits_of(const ReducedProgram& state) {
  std::vector<State::Edit> edits;
  // Coarse first, over every test, so that whole tests and kernels go before any is looked into.
  test_edits(state, edits);
  for (std::size_t t = 0; t < state.tests.size(); ++t) coarse_edits(state, t, edits);
  for (std::size_t t = 0; t < state.tests.size(); ++t) fine_edits(state, t, edits);
  return edits;
}

/// Whether a block (or one inside it) declares one variable twice at one level: a spliced
/// branch or loop trip must not meet a sibling declaration of the same variable (the
/// validator's scopes are sets, C++'s are not).
bool declares_twice(const Block& block) {
  std::set<int> declared;
  for (const Stmt& s : block) {
    const bool declares = s.kind == StmtKind::Decl || s.kind == StmtKind::Exchange || s.kind == StmtKind::Shuffle ||
                          s.kind == StmtKind::Vote || s.kind == StmtKind::SyncCount || s.kind == StmtKind::WarpReduce ||
                          s.kind == StmtKind::Tile || s.kind == StmtKind::WarpMatch ||
                          (s.kind == StmtKind::AtomicLoop && s.array >= 0);
    if (declares && !declared.insert(s.var).second) return true;
    if (s.kind == StmtKind::WarpMatch && s.pred_var >= 0 && !declared.insert(s.pred_var).second) return true;
    if (declares_twice(s.body) || declares_twice(s.else_body)) return true;
    for (const SwitchCase& c : s.cases)
      if (declares_twice(c.body)) return true;
  }
  return false;
}

/// The core kernels' predictions made again; false when the interpreter or the validator
/// refuses the program (undefined behaviour, a variable out of scope, a collective below the
/// top level...).
bool predict_core(Program& program, std::uint64_t seed) {
  for (const Kernel& k : program.kernels)
    if (declares_twice(k.body)) return false;
  for (const Function& f : program.functions)
    if (declares_twice(f.body)) return false;
  const Interpreter interpreter(program);
  for (Kernel& kernel : program.kernels) {
    const Interpreter::KernelRun run = interpreter.run(kernel);
    if (!run.problem.empty()) return false;
    kernel.expected_checksum = run.checksum;
  }
  validate_program(program, seed);  // Error(internal) for what the run does not see
  return true;
}

/// The program after `edit`, or none when it changes nothing or leaves a program the
/// interpreter or the validator refuses (Error(internal): a break outside its loop, a
/// collective after a return, a variable read after its declaration went).
std::optional<ReducedProgram> applied(const State& state, std::size_t index) {
  if (index >= state.edits.size()) return std::nullopt;
  const State::Edit& edit = state.edits[index];
  ReducedProgram next = state.program;
  ++next.accepted;
  try {
    if (!edit.apply(next)) return std::nullopt;
    if (edit.test && *edit.test < next.tests.size()) {
      BatchTest& test = next.tests[*edit.test];
      Program& program = test.built.program;
      if (edit.core && !predict_core(program, test.seed)) return std::nullopt;
      // The interpreter's prediction, in the output layout of the host side it has.
      for (dense::Kernel& kernel : program.dense) {
        const std::vector<std::uint64_t> words = dense::run_kernel(kernel);
        kernel.expected_checksum = fold_checksum(next.compact ? dense::compact_words(words) : words);
      }
      test.built.options.stack_bytes = plan_device_stack(program).bytes;
    }
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::internal) throw;
    return std::nullopt;
  }
  next.current = emit(next);
  if (next.current.source == state.program.current.source) return std::nullopt;
  return next;
}

} // namespace

ProgramReduction::ProgramReduction(const Policy& policy, std::uint64_t seed, Size size, int variant)
    : state_(std::make_unique<State>()) {
  ReducedProgram& program = state_->program;
  program.policy = policy;
  program.size = size;
  SeededRng rng(seed);
  BatchTest test{seed, variant, build(policy, rng, seed, size, "", ""), std::nullopt};
  if (variant > 0) test.variant_of = Sidecar::VariantOf{seed, variant, make_variant(test.built, seed, variant)};
  program.tests.push_back(std::move(test));
  program.current = emit(program);
  state_->edits = edits_of(program);
}

ProgramReduction::ProgramReduction(const Policy& policy, const std::vector<std::uint64_t>& seeds, Size size,
                                   int variants)
    : state_(std::make_unique<State>()) {
  if (seeds.empty()) throw Error(ErrorKind::usage, "a batch needs at least one seed");
  ReducedProgram& program = state_->program;
  program.policy = policy;
  program.size = size;
  program.batch = true;
  for (std::uint64_t seed : seeds)
    for (int index = 0; index <= variants; ++index)
      program.tests.push_back(build_batch_test(policy, seed, size, index));
  program.current = emit(program);
  state_->edits = edits_of(program);
}

ProgramReduction::~ProgramReduction() = default;
ProgramReduction::ProgramReduction(ProgramReduction&&) noexcept = default;
ProgramReduction& ProgramReduction::operator=(ProgramReduction&&) noexcept = default;
// The edits hold indices, not references (they apply to copies), so a copy of the state is one.
ProgramReduction::ProgramReduction(const ProgramReduction& other) : state_(std::make_unique<State>(*other.state_)) {}
ProgramReduction& ProgramReduction::operator=(const ProgramReduction& other) {
  if (this != &other) state_ = std::make_unique<State>(*other.state_);
  return *this;
}

const TestCase& ProgramReduction::current() const { return state_->program.current; }

std::size_t ProgramReduction::edits() const { return state_->edits.size(); }

std::optional<TestCase> ProgramReduction::candidate(std::size_t index) const {
  std::optional<ReducedProgram> next = applied(*state_, index);
  if (!next) return std::nullopt;
  return std::move(next->current);
}

std::string ProgramReduction::describe(std::size_t index) const {
  return index < state_->edits.size() ? state_->edits[index].what : "no such edit";
}

std::string ProgramReduction::kind(std::size_t index) const {
  return index < state_->edits.size() ? state_->edits[index].kind : "no such edit";
}

void ProgramReduction::accept(std::size_t index) {
  std::optional<ReducedProgram> next = applied(*state_, index);
  if (!next) throw Error(ErrorKind::internal, "IR reduction: edit " + std::to_string(index) + " changes nothing");
  state_->program = std::move(*next);
  state_->edits = edits_of(state_->program);
}

} // namespace cudiff::generator
