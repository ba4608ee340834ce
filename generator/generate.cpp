// generate: generate_program — the swarm, the layout plan, the kernels (skeleton, then
// expressions with value tracking), validation, emission and the sidecar.
#include "generator/emit.h"
#include "generator/gen_context.h"
#include "generator/generator.h"
#include "generator/kernels.h"
#include "generator/layout.h"
#include "generator/validate.h"

#include <cstdio>

namespace cudiff::generator {
namespace {

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string header_comment(std::uint64_t seed, const Policy& policy, Size size, const Swarm& swarm) {
  std::string enabled;
  for (const std::string& name : swarm.enabled) enabled += (enabled.empty() ? "" : " ") + name;
  return "// cudiff generated program\n"
         "// seed: " + std::to_string(seed) + "\n"
         "// generator version: " + std::string(kGeneratorVersion) + "\n"
         "// policy hash: " + policy.hash() + "\n"
         "// size: " + to_string(size) + "\n"
         "// constructs enabled: " + enabled + "\n";
}

boost::json::array dims(const std::uint32_t d[3]) { return boost::json::array{d[0], d[1], d[2]}; }

} // namespace

TestCase generate_program(const Policy& policy, std::uint64_t seed, Size size) {
  SeededRng rng(seed);
  return generate_program(policy, rng, seed, size);
}

TestCase generate_program(const Policy& policy, Rng& rng, std::uint64_t seed, Size size) {
  const Swarm swarm = sample_swarm(policy, rng);
  LayoutPlan layout = plan_layout(policy, rng, swarm, size);
  GenContext ctx(policy, rng, swarm, size);
  const int kernels = ctx.count("kernels");
  for (int k = 0; k < kernels; ++k) {
    try {
      generate_kernel(ctx, k);
    } catch (const Error& error) {
      throw Error(error.kind(), "seed " + std::to_string(seed) + ": " + error.what());
    }
  }
  validate_program(ctx.program, seed);

  EmitOptions options;
  options.header = header_comment(seed, policy, size, swarm);
  if (ctx.on("restrict_pointers")) {
    options.restrict_pointers = true;
    ctx.use("restrict_pointers");
  }
  if (ctx.on("launch_bounds")) {
    options.launch_bounds = true;
    ctx.use("launch_bounds");
  }

  TestCase test;
  char name[32];
  std::snprintf(name, sizeof name, "cudiff_%012llu", static_cast<unsigned long long>(seed));
  test.name = name;
  test.source = emit_program(ctx.program, layout, options);

  std::set<std::string> used = ctx.constructs_used;
  used.insert(layout.constructs_used.begin(), layout.constructs_used.end());
  boost::json::array enabled, used_json, kernels_json;
  for (const std::string& construct : swarm.enabled) enabled.push_back(boost::json::string(construct));
  for (const ConstructInfo& info : construct_catalog()) {
    if (!used.count(info.name)) continue;
    boost::json::array rules;
    for (const std::string& rule : info.rule_ids) rules.push_back(boost::json::string(trim(rule)));
    used_json.push_back(boost::json::object{{"name", info.name}, {"rule_ids", std::move(rules)}});
  }
  for (const Kernel& k : ctx.program.kernels)
    kernels_json.push_back(boost::json::object{{"name", k.name},
                                               {"grid", dims(k.launch.grid)},
                                               {"block", dims(k.launch.block)},
                                               {"dynamic_shared_bytes", k.launch.dynamic_shared_bytes},
                                               {"expected_checksum", hex64(k.expected_checksum)}});
  test.sidecar = boost::json::object{{"generator_version", std::string(kGeneratorVersion)},
                                     {"seed", seed},
                                     {"policy_hash", policy.hash()},
                                     {"size", to_string(size)},
                                     {"constructs_enabled", std::move(enabled)},
                                     {"constructs_used", std::move(used_json)},
                                     {"kernels", std::move(kernels_json)},
                                     {"layout_probes", layout.probes},
                                     {"expected_verdict", "accept"}};
  return test;
}

} // namespace cudiff::generator
