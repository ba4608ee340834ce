// variants: the EMI / metamorphic variant pass — a seed's program rewritten by a few
// transforms that keep every kernel's checksum (docs/generator.md, "Variants"), checked by the
// interpreter and the validator before it is emitted.
#include "common/common.h"
#include "generator/validate.h"
#include "generator/variants_parts.h"

namespace cudiff::generator {
namespace {

/// The variant stream: its own, so variants never change the programs they come from.
constexpr std::uint64_t kVariantStream = 0x656d692d76617269ull;  // "emi-vari"

/// Transforms per variant (each at one place), drawn with repetition.
constexpr int kMinTransforms = 2;
constexpr int kMaxTransforms = 5;

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

} // namespace

const std::vector<std::string>& variant_transform_names() {
  static const std::vector<std::string> names = {"dead_code",     "identity", "reassociate", "loop_split", "loop_peel",
                                                 "loop_unswitch", "outline",  "inline",      "reorder"};
  return names;
}

bool apply_variant_transform(Program& program, Rng& rng, std::string_view name, std::vector<std::string>& applied) {
  bool done = false;
  if (name == "loop_unswitch") return unswitch_loop(program, rng, applied);
  if (name == "dead_code") done = dead_code(program, rng);
  else if (name == "identity") done = identity_rewrite(program, rng);
  else if (name == "reassociate") done = reassociate(program, rng);
  else if (name == "loop_split") done = split_loop(program, rng, false);
  else if (name == "loop_peel") done = split_loop(program, rng, true);
  else if (name == "outline") done = outline_expression(program, rng);
  else if (name == "inline") done = inline_call(program, rng);
  else if (name == "reorder") done = reorder_statements(program, rng);
  else throw Error(ErrorKind::internal, "unknown variant transform '" + std::string(name) + "'");
  if (done) applied.emplace_back(name);
  return done;
}

std::vector<std::string> derive_variant(Program& program, std::uint64_t seed, int index) {
  SeededRng rng(seed ^ kVariantStream ^ (static_cast<std::uint64_t>(index) * 0x9E3779B97F4A7C15ull));
  std::vector<std::string> applied;
  const auto count = rng.range(kMinTransforms, kMaxTransforms);
  const std::vector<std::string>& names = variant_transform_names();
  for (std::int64_t t = 0; t < count; ++t) apply_variant_transform(program, rng, rng.pick(names), applied);
  // Dead code applies to every program: a variant always differs from its original.
  if (applied.empty()) apply_variant_transform(program, rng, "dead_code", applied);
  derive_dense_variant(program, rng, applied);

  const std::string what = "seed " + std::to_string(seed) + " variant " + std::to_string(index) + " (" +
                           joined(applied) + ")";
  // Every kernel keeps its original's expected checksum: the validator's fresh interpreter run
  // must give it, and checks the IR's invariants besides.
  try {
    validate_program(program, seed);
  } catch (const Error& error) {
    throw Error(ErrorKind::internal, what + ": " + error.what());
  }
  return applied;
}

} // namespace cudiff::generator
