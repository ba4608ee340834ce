// reduction: ProgramReduction — a generated program shrunk at the level of the generator's IR
// (generator.h). The program-level edits are here (whole kernels, the probes, the ABI family,
// the host side); a compute-dense kernel's own edits are in reduction_dense.cpp.
#include "generator/reduction/reduction.h"
#include "generator/core/interpreter.h"
#include "generator/core/stack.h"
#include "generator/generate_parts.h"

#include <functional>

namespace cudiff::generator {

/// The program being reduced: what an edit changes and a candidate copies.
struct ReducedProgram {
  Policy policy;
  std::uint64_t seed = 0;
  Size size = Size::small;
  int variant = 0;
  Built built;
  /// The host side is emit_compact_program's: only compute-dense kernels are left.
  bool compact = false;
  int accepted = 0;
  TestCase current;
};

struct ProgramReduction::State {
  ReducedProgram program;
  struct Edit {
    std::string what;
    std::function<bool(ReducedProgram&)> apply;
  };
  /// The edits `program` offers, in order.
  std::vector<Edit> edits;
};

namespace {

using State = ProgramReduction::State;

/// The text and sidecar of the state's program, with the interpreter's prediction.
TestCase emit(const ReducedProgram& state) {
  const Built& built = state.built;
  TestCase test;
  test.name = "cudiff_" + std::to_string(state.seed) + (state.variant > 0 ? "_v" + std::to_string(state.variant) : "") +
              "_reduced";
  test.sidecar = sidecar_of(built, state.policy, state.seed, state.size, "", "");
  if (state.variant > 0) test.sidecar.variant_of = Sidecar::VariantOf{state.seed, state.variant};
  const std::string origin = "seed " + std::to_string(state.seed) +
                             (state.variant > 0 ? " variant " + std::to_string(state.variant) : "") + ", generator " +
                             std::string(kGeneratorVersion) + ", " + std::to_string(state.accepted) + " IR edits";
  if (state.compact) {
    test.source = "// cudiff: reduced from " + origin + "\n" + dense::emit_compact_program(built.program.dense);
    return test;
  }
  EmitOptions options = built.options;
  options.header = header_comment(state.seed, state.policy, state.size, built.swarm) + "// reduced from " + origin +
                   "\n";
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

std::vector<State::Edit> edits_of(const ReducedProgram& state) {
  std::vector<State::Edit> edits;
  const Program& program = state.built.program;
  auto add = [&](std::string what, std::function<bool(ReducedProgram&)> apply) {
    edits.push_back({std::move(what), std::move(apply)});
  };
  add("delete the core kernels", [](ReducedProgram& s) { return drop_core_kernels(s.built.program); });
  for (std::size_t k = 0; k < program.dense.size(); ++k)
    add("delete " + program.dense[k].name, [k](ReducedProgram& s) {
      auto& dense = s.built.program.dense;
      if (k >= dense.size() || (dense.size() == 1 && s.built.program.kernels.empty())) return false;
      dense.erase(dense.begin() + static_cast<std::ptrdiff_t>(k));
      return true;
    });
  if (!state.built.layout.probes.empty() || !state.built.layout.definitions.empty())
    add("delete the layout probes", [](ReducedProgram& s) {
      s.built.layout = LayoutPlan{};
      return true;
    });
  if (!program.abi.empty())
    add("delete the ABI functions", [](ReducedProgram& s) {
      s.built.program.abi.clear();
      return true;
    });
  // A core kernel at a time (its namespace goes with it): only without the ABI family, whose
  // definitions follow the kernels by position.
  if (program.abi.empty() && program.kernels.size() > 1)
    for (std::size_t k = 0; k < program.kernels.size(); ++k)
      add("delete " + program.kernels[k].name, [k](ReducedProgram& s) {
        auto& kernels = s.built.program.kernels;
        if (k >= kernels.size() || !s.built.program.abi.empty()) return false;
        kernels.erase(kernels.begin() + static_cast<std::ptrdiff_t>(k));
        return true;
      });
  if (!state.compact && program.kernels.empty() && !program.dense.empty())
    add("the smallest host side", [](ReducedProgram& s) {
      if (!s.built.program.kernels.empty() || s.compact) return false;
      s.built.layout = LayoutPlan{};
      s.compact = true;
      return true;
    });
  for (std::size_t k = 0; k < program.dense.size(); ++k)
    for (dense::KernelEdit& edit : dense::kernel_edits(program.dense[k]))
      add(program.dense[k].name + ": " + edit.what, [k, apply = std::move(edit.apply)](ReducedProgram& s) {
        auto& dense = s.built.program.dense;
        return k < dense.size() && apply(dense[k]);
      });
  return edits;
}

/// The program after `edit`, or none when it changes nothing or leaves a program the
/// interpreter refuses (Error(internal): a break outside its loop, a collective after a return).
std::optional<ReducedProgram> applied(const State& state, std::size_t index) {
  if (index >= state.edits.size()) return std::nullopt;
  ReducedProgram next = state.program;
  ++next.accepted;
  try {
    if (!state.edits[index].apply(next)) return std::nullopt;
    // The interpreter's prediction, in the output layout of the host side it has.
    for (dense::Kernel& kernel : next.built.program.dense) {
      const std::vector<std::uint64_t> words = dense::run_kernel(kernel);
      kernel.expected_checksum = fold_checksum(next.compact ? dense::compact_words(words) : words);
    }
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::internal) throw;
    return std::nullopt;
  }
  next.built.options.stack_bytes = plan_device_stack(next.built.program).bytes;
  next.current = emit(next);
  if (next.current.source == state.program.current.source) return std::nullopt;
  return next;
}

} // namespace

ProgramReduction::ProgramReduction(const Policy& policy, std::uint64_t seed, Size size, int variant)
    : state_(std::make_unique<State>()) {
  ReducedProgram& program = state_->program;
  program.policy = policy;
  program.seed = seed;
  program.size = size;
  program.variant = variant;
  SeededRng rng(seed);
  program.built = build(policy, rng, seed, size, "", "");
  if (variant > 0) make_variant(program.built, seed, variant);
  program.current = emit(program);
  state_->edits = edits_of(program);
}

ProgramReduction::~ProgramReduction() = default;
ProgramReduction::ProgramReduction(ProgramReduction&&) noexcept = default;
ProgramReduction& ProgramReduction::operator=(ProgramReduction&&) noexcept = default;

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

void ProgramReduction::accept(std::size_t index) {
  std::optional<ReducedProgram> next = applied(*state_, index);
  if (!next) throw Error(ErrorKind::internal, "IR reduction: edit " + std::to_string(index) + " changes nothing");
  state_->program = std::move(*next);
  state_->edits = edits_of(state_->program);
}

} // namespace cudiff::generator
