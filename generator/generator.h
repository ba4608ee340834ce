// generator: random CUDA programs with exactly one correct output (docs/architecture.md, "Generated
// programs must be deterministic"), from a seed and a Policy.
//
// Contract: the same seed, policy and generator version give byte-identical files; every
// program is free of undefined behaviour and data races, prints one `checksum <kernel> <hex>`
// line per kernel and then its layout probe lines; every random choice is a named Policy knob.
#pragma once

#include "common/common.h"
#include "common/rng.h"
#include "rules/rules.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudiff::generator {

/// Bumped whenever the same seed and policy would give a different program.
inline constexpr std::string_view kGeneratorVersion = "0.9.0";

enum class Size { small, medium, large };
std::string to_string(Size size);
/// Throws Error(usage) for anything but small, medium, large.
Size parse_size(std::string_view text);

/// One construct the generator can produce, with the rules/spec/rules.md ids it exercises.
struct ConstructInfo {
  std::string name;                   ///< stable, e.g. "managed_variable"
  std::vector<std::string> rule_ids;  ///< e.g. {"V-MANAGED-..."}
  std::string help;
  /// The compiler that rejects every program using it on purpose ("clang"), from
  /// kConstructsRejectedByACompiler; empty for the others.
  std::string rejected_by = {};
};

/// A construct that one compiler rejects on purpose: every program using it is the same known
/// difference (triage/known_differences.json), and a campaign checks such a program alone so
/// that the rejection does not cost its batch the other tests (docs/campaign.md, "Batches").
struct RejectedConstruct {
  std::string_view construct;
  std::string_view compiler;  ///< "clang" or "nvcc"
  std::string_view reason;
};
inline constexpr std::array<RejectedConstruct, 1> kConstructsRejectedByACompiler = {{
    {"managed_memory", "clang",
     "clang-22 ignores __managed__ ('managed' attribute ignored) and rejects device uses as references to a host "
     "variable"},
}};

/// Every construct, from the generator/core/constructs_core.def and generator/layout/constructs_layout.def tables.
std::vector<ConstructInfo> construct_catalog();

/// For each rule id some construct names (ids of rules::rule_catalog()), the constructs
/// (construct_catalog()) that exercise it.
std::map<std::string, std::vector<std::string>> constructs_by_rule();

struct Sidecar;
/// The compilers that reject the program `sidecar` describes on purpose: those of the
/// constructs it uses (kConstructsRejectedByACompiler) and "clang" for a planted probe the
/// rules catalog says clang rejects (rules::RuleProbe::clang_rejects). A batch's sidecar
/// answers for all of its tests. Empty for almost every program.
std::set<std::string> rejecting_compilers(const Sidecar& sidecar);

/// Why a catalog probe's result could depend on an unspecified value (docs/generator.md,
/// "Probes: no unspecified values"): one line per use found in its fragment (a device-side
/// __global__ function address compared or tested, a pointer turned into an integer, the
/// non-zero value of __all_sync/__any_sync/__syncthreads_and/_or used as a number, a clock,
/// timer or scheduling register read), less the uses `waived_unspecified_uses` lists for the
/// rule. Empty: the probe passes. Probes it flags are never planted.
std::vector<std::string> unspecified_value_uses(const std::string& rule_id, const rules::RuleProbe& probe);
/// The reviewed exceptions of that check, by rule id: the use's text and why the result is
/// still the one the probe expects.
const std::map<std::string, std::pair<std::string, std::string>>& waived_unspecified_uses();

/// One named knob: a probability or a count range bound.
struct Knob {
  std::string name;
  double value = 0;
  double min = 0;
  double max = 1;
  std::string help;
};

/// Every random choice of the generator as a named knob (YARPGen's gen_policy, with Csmith's
/// dump/load). Knobs come from the families' knobs_*.def (generator/core/knobs_core.def, ...); each construct also has a knob
/// "construct.<name>": the probability that a program enables it (swarm testing).
class Policy {
public:
  static Policy defaults();
  /// The knob's value; throws Error(internal) for an unknown name (a generator bug).
  double get(std::string_view name) const;
  /// Throws Error(usage) for an unknown name or a value outside [min, max].
  void set(std::string_view name, double value);
  const std::vector<Knob>& knobs() const { return knobs_; }

  /// {"knob": value, ...}, sorted by name, one per line: diffable, loadable.
  std::string dump() const;
  /// Starts from the defaults and applies every knob in `json`; unknown knobs and bad values
  /// are usage errors naming the knob.
  static Policy load(std::string_view json);
  /// fnv1a of dump(): names a policy in sidecars and databases.
  std::string hash() const;

private:
  std::vector<Knob> knobs_;  // sorted by name
};

/// The constructs one program may use: each construct is on with its policy probability
/// (Groce et al., swarm testing), so rare combinations come up.
struct Swarm {
  std::set<std::string> enabled;
  bool on(std::string_view construct) const { return enabled.count(std::string(construct)) != 0; }
};
Swarm sample_swarm(const Policy& policy, Rng& rng);

/// What the generator knows of a test case beyond its text (docs/generator.md, "Sidecar"),
/// written beside it as `<name>.json` by to_json. Each field is one key of that JSON and, as
/// there, optional: a generated program's sidecar sets every field but `batch`, `edge` and
/// `input` (an edge program adds `edge`, one generated from bytes `input`); a batch's sets
/// `generator_version`, `batch`, `policy_hash`, `size`, `kernels`, `layout_probes` and
/// `expected_verdict`; a person's own beside a .cu file may hold only `layout_probes`, or only
/// `expected_verdict` and `edge`.
struct Sidecar {
  enum class Verdict { accept, reject };

  /// A construct the program uses ("constructs_used"), with the rule ids it exercises.
  struct Construct {
    std::string name;
    std::vector<std::string> rule_ids;
    bool operator==(const Construct&) const = default;
  };
  /// One kernel and what the interpreter predicts it prints.
  struct Kernel {
    std::string name;  ///< as its checksum line names it: "kernel_0"; in a batch "s<seed>/kernel_0"
    std::array<std::uint32_t, 3> grid{};
    std::array<std::uint32_t, 3> block{};
    std::uint64_t dynamic_shared_bytes = 0;
    /// 16 hex digits, as the checksum line prints them: compared with program output as text.
    std::string expected_checksum;
    /// The kernel's launch plan ("launch"): runners/launch.h's launch description in its JSON
    /// form, which makes the cubin's kernel print this kernel's checksum line with no host
    /// program (its buffers, the __device__ symbols the harness sets and reads back, the device
    /// stack and the fold). Only kernels whose host side is exactly that have one (compute-dense
    /// kernels); a test whose kernels all have one may run as cubins (docs/pipeline.md, "Build
    /// paths").
    std::optional<boost::json::object> launch = {};
    bool operator==(const Kernel&) const = default;
  };
  /// One probed type (the probe protocol in generator/layout/layout.h): its device array holds the
  /// properties' values in this order, and the host prints `layout <type> <property> <value>`.
  struct LayoutProbe {
    std::string type;  ///< in a batch "s<seed>_<type>"
    std::string array;  ///< "cudiff_layout_<type>"
    std::vector<std::string> properties;  ///< "sizeof", "alignof", "offsetof.<member>", ...
    /// Each named data member's kind ("integer", "bitfield", "long double", ...), in declaration order.
    std::vector<std::pair<std::string, std::string>> member_kinds;
    bool operator==(const LayoutProbe&) const = default;
  };
  /// A V-rule probe planted in the program ("probes"; generator/rules/README.md, "Probes").
  struct Probe {
    std::string rule;
    std::string function;  ///< "cudiff_vp_<rule id>"
    bool host = false;  ///< "space": "host" (called once from host code) or "device"
    int sites = 0;  ///< device probes: the expressions wrapped in a call
    bool operator==(const Probe&) const = default;
  };
  /// The planted violation of an edge program: why it must be rejected.
  struct Edge {
    std::string rule;
    int line = 0;  ///< the offending line, 1-based (0: not known)
    std::string marker;  ///< text on that line
    bool operator==(const Edge&) const = default;
  };
  /// The bytes a program generated from bytes (generate_from_bytes) was made of.
  struct Input {
    std::string fnv1a;  ///< 16 hex digits, as the program's name spells them
    std::uint64_t bytes = 0;
    std::uint64_t byte_decisions = 0;  ///< random decisions taken from the bytes
    std::uint64_t tail_decisions = 0;  ///< and from the seeded tail once they ran out
    bool operator==(const Input&) const = default;
  };
  /// A function of the ABI family (generator/abi/abi_params.cpp; "abi_functions"): what the
  /// parameter-ABI oracle names a differing declaration by.
  struct AbiFunction {
    std::string name;  ///< qualified: "t0::cudiff_abi_0"; in a batch "cudiff_s<seed>::t0::..."
    bool kernel = false;  ///< "function_kind": "kernel" or "device function"
    std::vector<std::string> params;  ///< each parameter's kind ("alignas struct", "vector"...)
    std::string result;  ///< the result's kind; "" for void
    bool operator==(const AbiFunction&) const = default;
  };
  /// What a variant (generate_batch; docs/generator.md, "Variants") derives from: the
  /// original's seed, the variant's index (1-based) and the transforms applied, in order.
  struct VariantOf {
    std::uint64_t seed = 0;
    int index = 0;
    std::vector<std::string> transforms = {};
    bool operator==(const VariantOf&) const = default;
  };
  /// The tests of a batch (generate_batch).
  struct Batch {
    std::vector<std::uint64_t> seeds;  ///< "batch", in the order main runs them
    /// "tests": each seed's own sidecar, in the same order; a seed's variants (with
    /// `variant_of`, the same `seed`) follow it.
    std::vector<Sidecar> tests;
    bool operator==(const Batch&) const = default;
  };

  std::optional<std::string> generator_version;
  std::optional<std::uint64_t> seed;  ///< a single program's
  std::optional<Batch> batch;  ///< "batch" and "tests": a batch's
  std::optional<std::string> policy_hash;
  std::optional<Size> size;
  std::optional<std::vector<std::string>> constructs_enabled;
  std::optional<std::vector<Construct>> constructs_used;
  std::optional<std::vector<Kernel>> kernels;  ///< a batch: all of its tests' kernels
  std::optional<std::vector<LayoutProbe>> layout_probes;  ///< a batch: all of its tests' probes
  std::optional<std::vector<Probe>> probes;
  std::optional<std::vector<AbiFunction>> abi_functions = {};  ///< a batch: all of its tests'
  std::optional<Verdict> expected_verdict;
  std::optional<Edge> edge;
  std::optional<Input> input;
  std::optional<VariantOf> variant_of = {};  ///< "variant_of": a variant's
  bool operator==(const Sidecar&) const = default;
};
std::string to_string(Sidecar::Verdict verdict);

/// The sidecar as JSON: one key per field that is set, named as the field ("batch" holds the
/// seeds, "tests" the per-test sidecars), nested structs as objects, `grid` and `block` as
/// arrays, a probe's `host` as "space": "host" or "device", sizes and verdicts spelled as
/// to_string spells them.
boost::json::object to_json(const Sidecar& sidecar);
/// The sidecar a JSON value holds: the inverse of to_json. Keys it does not know are ignored
/// and absent keys stay unset (a nested object's absent members take their defaults), so a
/// partial sidecar loads. Throws Error(usage) naming the field (e.g. "kernels[2].grid") for a
/// value that is not an object or a field of the wrong type, and nothing else on any input.
Sidecar sidecar_from_json(const boost::json::value& json);

/// A generated program: the .cu text and its sidecar.
struct TestCase {
  std::string name;  ///< e.g. "cudiff_000000000042"
  std::string source;
  Sidecar sidecar;
};

/// Generates the program for `seed` (a SeededRng over it).
TestCase generate_program(const Policy& policy, std::uint64_t seed, Size size);
/// The same from any random source; `seed` is only recorded in the sidecar.
TestCase generate_program(const Policy& policy, Rng& rng, std::uint64_t seed, Size size);

/// The program libFuzzer's input `bytes` name (guided generation, issue 8): generate_program
/// over a ByteRng, so every byte string gives a valid program. Named "cudiff_in_<16 hex digits>"
/// (the fnv1a-64 of the bytes, which is also its "seed" and seeds the probes' stream); the first
/// line of the source and the sidecar's "input" {"fnv1a", "bytes", "byte_decisions",
/// "tail_decisions"} say so. The same bytes, policy and version give the same files.
TestCase generate_from_bytes(const Policy& policy, std::string_view bytes, Size size);
/// "in_<16 hex digits>": how generate_from_bytes names the input of `bytes`.
std::string input_label(std::string_view bytes);

/// An edge program: the program for `seed`, with the violation template of one checkable E rule
/// planted at its end, so that it must be rejected for that one reason. The rule is `rule_id`
/// or, when empty, one of plantable_rules() drawn from the seed (a stream of its own). Named
/// "cudiff_edge_<seed>"; the sidecar is the program's with "expected_verdict": "reject" and
/// "edge": {"rule", "line" (1-based, the offending line), "marker"}. Throws Error(usage) for a
/// rule id without a violation template.
TestCase generate_edge(const Policy& policy, std::uint64_t seed, Size size, const std::string& rule_id = "");
/// The violation of `rule_id` alone after `<cstdio>` and `<cuda_runtime.h>`: an edge test as
/// small as a person would write it (named "edge_<rule id>", sidecar as generate_edge's).
/// Throws Error(usage) like generate_edge.
TestCase violation_alone(const std::string& rule_id);
/// Campaigns: whether the test of `seed` is an edge program, with the policy's "edge.share"
/// (a stream of its own, so the choice never changes the programs).
bool is_edge_seed(const Policy& policy, std::uint64_t seed);
/// The checkable E rules with a violation template, in catalog order.
std::vector<rules::Rule> plantable_rules();
/// `source` with `violation` planted at its end; `line` is set to the offending line.
std::string plant_violation(const std::string& source, const std::string& rule_id,
                            const rules::RuleViolation& violation, int& line);

/// The per-thread device stack a generated program asks for: main() calls
/// cudaDeviceSetLimit(cudaLimitStackSize, bytes) before the first launch (docs/generator.md,
/// "Device stack"). `frame_bounds`: the bound the generator assumed for one frame of each
/// device function and kernel, by name, which ptxas' "bytes stack frame" must never pass.
struct DeviceStack {
  std::uint64_t bytes = 0;  ///< at least the CUDA default (1 KiB), a multiple of 1 KiB
  std::map<std::string, std::uint64_t> frame_bounds;
};
/// The device stack of the program generate_program makes for `seed`.
DeviceStack device_stack_of(const Policy& policy, std::uint64_t seed, Size size);

/// Several seeds' programs in one translation unit (docs/architecture.md, "Speed": one compile and one
/// process for many tests). Each seed's program is the same as generate_program's (same IR,
/// same random choices) inside `namespace cudiff_s<seed>`; its checksum lines read
/// `checksum s<seed>/kernel_N <hex>` and its layout probes are named `s<seed>_<type>`, so
/// every line and probe says which test it belongs to. One main runs the tests in seed order.
/// Named "cudiff_batch_<first seed>_<count>"; the sidecar has "batch": the seeds, "tests":
/// each seed's own sidecar, and "kernels" and "layout_probes" of all of them (so `cudiff
/// check` reads a batch like a single program).
/// With `variants` K > 0, each seed's K variants follow its program in the same translation
/// unit, in `namespace cudiff_s<seed>v<j>`, their lines and probes labelled "s<seed>v<j>"
/// (variant_test_label), their sidecars after the seed's under "tests". A variant is the
/// seed's program rewritten so that it must print the same checksums (EMI and metamorphic
/// variants: dead code under conditions false on every thread, live-code rewrites;
/// docs/generator.md, "Variants"). Variant j draws its transforms from a stream of the seed and
/// j, so it is the same for the same seed, policy, size and version; its sidecar is the
/// original's (the same expected checksums) with "variant_of": {seed, index, transforms}. The
/// interpreter re-runs every variant: a checksum other than the original's is Error(internal)
/// naming the seed, the variant and its transforms.
TestCase generate_batch(const Policy& policy, const std::vector<std::uint64_t>& seeds, Size size, int variants = 0);
/// The name of a batch test's checksum lines and probes: "s<seed>".
std::string batch_test_label(std::uint64_t seed);
/// The label of a seed's variant `index` (1-based) in a batch: "s<seed>v<index>".
std::string variant_test_label(std::uint64_t seed, int index);

/// A generated program or batch shrunk as the generator sees it, before any text pass
/// (docs/reducer.md, "Reducing a generated program"): a batch's tests and variants, whole
/// kernels, the layout probes and the ABI family go first, then what is inside the tests: the
/// ABI functions' parameters; a core kernel's launch, statements, branches, loop trips,
/// collectives, expressions and functions; a compute-dense kernel's launch, functions,
/// statements, loop trips, inline-PTX instructions, subexpressions, variables and its host side. Every candidate is a complete
/// program emitted by the generator, with the interpreter's prediction of its checksums in its
/// sidecar: a reduction keeps judging it against ground truth, so it can neither drift into
/// undefined behaviour nor into another bug's output unnoticed.
///
/// Edits are offered coarse first and numbered on the current program: edit i of one program
/// is not edit i of the next. A reducer tries candidate(i) for increasing i, accepts the first
/// that still shows what it reduces, and starts again from the edit of that number (the edits
/// before it were tried on a program that only differs after them).
class ProgramReduction {
public:
  /// The program generate_program makes for `seed`, or its variant `variant` (1-based), the
  /// program of generate_batch's variant of that index alone. Throws what generation throws.
  ProgramReduction(const Policy& policy, std::uint64_t seed, Size size, int variant = 0);
  /// The batch generate_batch makes of `seeds` with `variants` variants each: current() starts
  /// as its text. Tests of the batch go, variants fold back into their originals, and a batch
  /// of one test becomes its program alone before the edits inside the tests. Throws what
  /// generation throws, and Error(usage) for no seeds.
  ProgramReduction(const Policy& policy, const std::vector<std::uint64_t>& seeds, Size size, int variants);
  ~ProgramReduction();
  ProgramReduction(ProgramReduction&&) noexcept;
  ProgramReduction& operator=(ProgramReduction&&) noexcept;
  /// A copy to go back to: the IR stage keeps an edit before its last step has said yes.
  ProgramReduction(const ProgramReduction& other);
  ProgramReduction& operator=(const ProgramReduction& other);

  /// The current program: text and sidecar (the prediction of its checksums).
  const TestCase& current() const;
  /// How many edits the current program offers.
  std::size_t edits() const;
  /// Edit `index` applied to the current program; none when it changes nothing there.
  std::optional<TestCase> candidate(std::size_t index) const;
  /// What edit `index` does, for logs: "dense_0: delete statement 7 (for)".
  std::string describe(std::size_t index) const;
  /// The kind of edit `index`: what it does without where ("core: delete a statement",
  /// "ptx: delete an instruction"), so that each kind can be checked on its own.
  std::string kind(std::size_t index) const;
  /// Makes candidate(index) the current program. Throws Error(internal) when it is none.
  void accept(std::size_t index);

  struct State;  ///< the program's IR and the edits it offers (generator/reduction/reduction.cpp)

private:
  std::unique_ptr<State> state_;
};

}  // namespace cudiff::generator
