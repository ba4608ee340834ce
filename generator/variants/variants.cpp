// variants: the EMI / metamorphic variant pass — a seed's program rewritten by a few
// transforms that keep every kernel's checksum (docs/generator.md, "Variants"), checked by the
// interpreter and the validator before it is emitted.
#include "generator/variants/variants.h"
#include "common/common.h"
#include "generator/validate.h"

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

namespace {

/// One attempt: the transforms drawn from `stream`, then the validator (whose fresh
/// interpreter run must give every kernel its original's checksum).
std::vector<std::string> attempt_variant(Program& program, std::uint64_t seed, int index, std::uint64_t stream,
                                         bool dead_code_only) {
  SeededRng rng(stream);
  std::vector<std::string> applied;
  if (!dead_code_only) {
    const auto count = rng.range(kMinTransforms, kMaxTransforms);
    const std::vector<std::string>& names = variant_transform_names();
    for (std::int64_t t = 0; t < count; ++t) apply_variant_transform(program, rng, rng.pick(names), applied);
  }
  // Dead code applies to every program: a variant always differs from its original.
  if (applied.empty()) apply_variant_transform(program, rng, "dead_code", applied);
  derive_dense_variant(program, rng, applied);
  try {
    validate_program(program, seed);
  } catch (const Error& error) {
    throw Error(ErrorKind::internal, "seed " + std::to_string(seed) + " variant " + std::to_string(index) + " (" +
                                         joined(applied) + "): " + error.what());
  }
  return applied;
}

} // namespace

std::vector<std::string> derive_variant(Program& program, std::uint64_t seed, int index) {
  const std::uint64_t stream = seed ^ kVariantStream ^ (static_cast<std::uint64_t>(index) * 0x9E3779B97F4A7C15ull);
  // A combination of transforms the validator refuses (a transform's defect, found in a
  // campaign: "variable used out of scope" after inline + loop_peel) is drawn again from the
  // next stream rather than stopping the campaign; the last attempt is dead code alone.
  constexpr int kAttempts = 4;
  const Program original = program;
  for (int attempt = 0;; ++attempt) {
    try {
      return attempt_variant(program, seed, index, stream + static_cast<std::uint64_t>(attempt) * 0x2545F4914F6CDD1Dull,
                             attempt + 1 == kAttempts);
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::internal || attempt + 1 == kAttempts) throw;
      program = original;
    }
  }
}

} // namespace cudiff::generator
