// generate: generate_program and generate_batch — the swarm, the layout plan, the kernels
// (skeleton, then expressions with value tracking), validation, emission and the sidecar.
#include "generator/abi/abi.h"
#include "generator/core/emit.h"
#include "generator/core/gen_context.h"
#include "generator/core/interpreter.h"
#include "generator/core/kernels.h"
#include "generator/core/stack.h"
#include "generator/dense/dense.h"
#include "generator/generate_parts.h"
#include "generator/generator.h"
#include "generator/layout/layout.h"
#include "generator/probes/probes.h"
#include "generator/validate.h"
#include "generator/variants/variants.h"

#include <algorithm>
#include <cstdio>

namespace cudiff::generator {
namespace {

/// The compute-dense kernels of the seed, each with the checksum its interpreter predicts.
void plant_dense(Program& program, const Policy& policy, const Swarm& swarm, Size size, std::uint64_t seed) {
  program.dense = dense::make_kernels(policy, swarm, size, seed);
  for (dense::Kernel& kernel : program.dense) kernel.expected_checksum = fold_checksum(dense::run_kernel(kernel));
}

std::string padded_seed(std::uint64_t seed) {
  char text[32];
  std::snprintf(text, sizeof text, "%012llu", static_cast<unsigned long long>(seed));
  return text;
}

std::array<std::uint32_t, 3> dims(const std::uint32_t d[3]) { return {d[0], d[1], d[2]}; }

} // namespace

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string header_comment(std::uint64_t seed, const Policy& policy, Size size, const Swarm& swarm) {
  std::string enabled;
  for (const std::string& name : swarm.enabled) enabled += (enabled.empty() ? "" : " ") + name;
  return "// cudiff generated program\n"
         "// seed: " +
         std::to_string(seed) +
         "\n"
         "// generator version: " +
         std::string(kGeneratorVersion) +
         "\n"
         "// policy hash: " +
         policy.hash() +
         "\n"
         "// size: " +
         to_string(size) +
         "\n"
         "// constructs enabled: " +
         enabled + "\n";
}

Built build(const Policy& policy, Rng& rng, std::uint64_t seed, Size size, const std::string& probe_prefix,
            const std::string& type_qualifier) {
  Built built;
  built.swarm = sample_swarm(policy, rng);
  built.layout = plan_layout(policy, rng, built.swarm, size, probe_prefix, type_qualifier);
  GenContext ctx(policy, rng, built.swarm, size);
  const int kernels = ctx.count("kernels");
  for (int k = 0; k < kernels; ++k) {
    try {
      generate_kernel(ctx, k);
    } catch (const Error& error) {
      throw Error(error.kind(), "seed " + std::to_string(seed) + ": " + error.what());
    }
  }
  validate_program(ctx.program, seed);
  plant_probes(ctx.program, policy, seed, ctx.constructs_used);
  plant_abi(ctx.program, policy, seed);
  plant_dense(ctx.program, policy, built.swarm, size, seed);
  if (ctx.on("restrict_pointers")) {
    built.options.restrict_pointers = true;
    ctx.use("restrict_pointers");
  }
  if (ctx.on("launch_bounds")) {
    built.options.launch_bounds = true;
    ctx.use("launch_bounds");
  }
  built.options.stack_bytes = plan_device_stack(ctx.program).bytes;
  built.used = ctx.constructs_used;
  built.used.insert(built.layout.constructs_used.begin(), built.layout.constructs_used.end());
  built.program = std::move(ctx.program);
  return built;
}

Sidecar sidecar_of(const Built& built, const Policy& policy, std::uint64_t seed, Size size,
                   const std::string& kernel_label, const std::string& scope) {
  Sidecar sidecar;
  sidecar.generator_version = std::string(kGeneratorVersion);
  sidecar.seed = seed;
  sidecar.policy_hash = policy.hash();
  sidecar.size = size;
  sidecar.constructs_enabled.emplace(built.swarm.enabled.begin(), built.swarm.enabled.end());
  sidecar.constructs_used.emplace();
  for (const ConstructInfo& info : construct_catalog()) {
    if (!built.used.count(info.name)) continue;
    Sidecar::Construct& used = sidecar.constructs_used->emplace_back(Sidecar::Construct{info.name, {}});
    for (const std::string& rule : info.rule_ids) used.rule_ids.emplace_back(trim(rule));
  }
  sidecar.kernels.emplace();
  for (std::size_t i = 0; i < built.program.kernels.size(); ++i) {
    const Kernel& k = built.program.kernels[i];
    sidecar.kernels->push_back(Sidecar::Kernel{kernel_label + k.name, dims(k.launch.grid), dims(k.launch.block),
                                               k.launch.dynamic_shared_bytes, hex64(k.expected_checksum),
                                               core_launch_plan(built.program, static_cast<int>(i), kernel_label, scope,
                                                                built.options.stack_bytes)});
  }
  for (const dense::Kernel& k : built.program.dense) {
    sidecar.kernels->push_back(Sidecar::Kernel{kernel_label + k.name,
                                               {k.blocks, 1, 1},
                                               {k.threads, 1, 1},
                                               dense::dynamic_shared_bytes(k),
                                               hex64(k.expected_checksum),
                                               dense::launch_plan(k, kernel_label, scope, built.options.stack_bytes)});
    for (const std::string& family : k.families)
      if (std::find(sidecar.constructs_enabled->begin(), sidecar.constructs_enabled->end(), family) ==
          sidecar.constructs_enabled->end())
        sidecar.constructs_enabled->push_back(family);
  }
  sidecar.layout_probes = built.layout.probes;
  sidecar.probes.emplace();
  for (const PlantedProbe& planted : built.program.probes)
    sidecar.probes->push_back(
        Sidecar::Probe{planted.rule_id, planted.probe.function, planted.probe.host, planted.sites});
  sidecar.abi_functions = abi_sidecar(built.program, scope);
  sidecar.expected_verdict = Sidecar::Verdict::accept;
  return sidecar;
}

// The transforms rewrite the IR and the device stack is planned again (outlined functions
// add frames).
std::vector<std::string> make_variant(Built& built, std::uint64_t seed, int index) {
  std::vector<std::string> transforms = derive_variant(built.program, seed, index);
  built.options.stack_bytes = plan_device_stack(built.program).bytes;
  return transforms;
}

std::string batch_test_label(std::uint64_t seed) { return "s" + std::to_string(seed); }

std::string variant_test_label(std::uint64_t seed, int index) {
  return batch_test_label(seed) + "v" + std::to_string(index);
}

Program built_program(const Policy& policy, std::uint64_t seed, Size size) {
  SeededRng rng(seed);
  return build(policy, rng, seed, size, "", "").program;
}

TestCase generate_program(const Policy& policy, std::uint64_t seed, Size size) {
  SeededRng rng(seed);
  return generate_program(policy, rng, seed, size);
}

TestCase generate_program(const Policy& policy, Rng& rng, std::uint64_t seed, Size size) {
  Built built = build(policy, rng, seed, size, "", "");
  built.options.header = header_comment(seed, policy, size, built.swarm);
  TestCase test;
  test.name = "cudiff_" + padded_seed(seed);
  test.source = emit_program(built.program, built.layout, built.options);
  test.sidecar = sidecar_of(built, policy, seed, size, "", "");
  return test;
}

DeviceStack device_stack_of(const Policy& policy, std::uint64_t seed, Size size) {
  SeededRng rng(seed);
  return plan_device_stack(build(policy, rng, seed, size, "", "").program);
}

std::string input_label(std::string_view bytes) { return "in_" + fnv1a_hex(bytes); }

TestCase generate_from_bytes(const Policy& policy, std::string_view bytes, Size size) {
  ByteRng rng(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  const std::string label = input_label(bytes);
  TestCase test = generate_program(policy, rng, rng.input_hash(), size);
  test.name = "cudiff_" + label;
  const std::string first_line = "// cudiff generated program\n";
  if (test.source.rfind(first_line, 0) == 0)
    test.source = "// cudiff generated program, from input " + label.substr(3) + " (" + std::to_string(bytes.size()) +
                  " bytes; cudiff generate --input FILE)\n" + test.source.substr(first_line.size());
  test.sidecar.input = Sidecar::Input{label.substr(3), bytes.size(), rng.byte_decisions(), rng.tail_decisions()};
  return test;
}

BatchTest build_batch_test(const Policy& policy, std::uint64_t seed, Size size, int index) {
  SeededRng rng(seed);
  const std::string label = index == 0 ? batch_test_label(seed) : variant_test_label(seed, index);
  const std::string ns = "cudiff_" + label;
  BatchTest test{seed, index, build(policy, rng, seed, size, label + "_", ns + "::"), std::nullopt};
  if (index > 0) test.variant_of = Sidecar::VariantOf{seed, index, make_variant(test.built, seed, index)};
  test.built.options.checksum_label = label + "/";
  return test;
}

TestCase emit_batch(const Policy& policy, Size size, const std::vector<BatchTest>& tests) {
  if (tests.empty()) throw Error(ErrorKind::usage, "a batch needs at least one seed");
  std::string body, seed_list;
  std::vector<std::uint64_t> seeds;
  std::vector<PlantedProbe> all_probes;  // of every test: their headers go once, at global scope
  std::vector<std::string> namespaces;
  Sidecar::Batch batch;
  std::vector<Sidecar::Kernel> kernels;
  std::vector<Sidecar::LayoutProbe> probes;
  std::vector<Sidecar::AbiFunction> abi;
  std::uint64_t stack_bytes = 0;  // one limit for the whole process: the largest test's
  bool cooperative_groups = false, atomic_ref = false;  // headers any test needs, included once
  std::vector<dense::Kernel> dense_kernels;  // every test's: their headers and helpers (dense::includes) go once
  for (const BatchTest& test : tests) {
    const Built& built = test.built;
    const std::string label = test.index == 0 ? batch_test_label(test.seed) : variant_test_label(test.seed, test.index);
    const std::string ns = "cudiff_" + label;
    stack_bytes = std::max(stack_bytes, built.options.stack_bytes);
    body += "\n// ---- seed " + std::to_string(test.seed) +
            (test.index == 0 ? "" : " variant " + std::to_string(test.index)) + " ----\nnamespace " + ns + " {\n" +
            emit_test_body(built.program, built.layout, built.options) + "} // namespace " + ns + "\n" +
            built.layout.device_probes;
    namespaces.push_back(ns);
    cooperative_groups = cooperative_groups || uses_cooperative_groups(built.program);
    atomic_ref = atomic_ref || uses_atomic_ref(built.program);
    dense_kernels.insert(dense_kernels.end(), built.program.dense.begin(), built.program.dense.end());
    all_probes.insert(all_probes.end(), built.program.probes.begin(), built.program.probes.end());
    Sidecar sidecar = sidecar_of(built, policy, test.seed, size, label + "/", ns + "::");
    sidecar.variant_of = test.variant_of;
    kernels.insert(kernels.end(), sidecar.kernels->begin(), sidecar.kernels->end());
    abi.insert(abi.end(), sidecar.abi_functions->begin(), sidecar.abi_functions->end());
    probes.insert(probes.end(), sidecar.layout_probes->begin(), sidecar.layout_probes->end());
    batch.tests.push_back(std::move(sidecar));
    if (std::ranges::find(seeds, test.seed) == seeds.end()) {
      seeds.push_back(test.seed);
      seed_list += (seed_list.empty() ? "" : " ") + std::to_string(test.seed);
    }
  }
  batch.seeds = seeds;
  TestCase test;
  test.name = "cudiff_batch_" + padded_seed(seeds.front()) + "_" + std::to_string(seeds.size());
  test.source = "// cudiff generated batch\n"
                "// seeds: " +
                seed_list +
                "\n"
                "// generator version: " +
                std::string(kGeneratorVersion) +
                "\n"
                "// policy hash: " +
                policy.hash() +
                "\n"
                "// size: " +
                to_string(size) + "\n" + emit_preamble() + probe_includes(all_probes) +
                collective_includes(cooperative_groups, atomic_ref) + dense::includes(dense_kernels) + body +
                emit_main(namespaces, stack_bytes);
  test.sidecar.generator_version = std::string(kGeneratorVersion);
  test.sidecar.batch = std::move(batch);
  test.sidecar.policy_hash = policy.hash();
  test.sidecar.size = size;
  test.sidecar.kernels = std::move(kernels);
  test.sidecar.layout_probes = std::move(probes);
  test.sidecar.abi_functions = std::move(abi);
  test.sidecar.expected_verdict = Sidecar::Verdict::accept;
  return test;
}

TestCase generate_batch(const Policy& policy, const std::vector<std::uint64_t>& seeds, Size size, int variants) {
  if (seeds.empty()) throw Error(ErrorKind::usage, "a batch needs at least one seed");
  // The seed's program, then its variants: each rebuilt from the seed under its own label.
  std::vector<BatchTest> tests;
  for (std::uint64_t seed : seeds)
    for (int index = 0; index <= variants; ++index) tests.push_back(build_batch_test(policy, seed, size, index));
  return emit_batch(policy, size, tests);
}

} // namespace cudiff::generator
