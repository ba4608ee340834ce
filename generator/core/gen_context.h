// gen_context: what every part of the core generator shares while making one program — the
// policy, the random source, the swarm, the program under construction. Internal.
#pragma once

#include "generator/core/interpreter.h"
#include "generator/generator.h"
#include "generator/ir.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::generator {

class GenContext {
public:
  GenContext(const Policy& policy, Rng& rng, const Swarm& swarm, Size size)
      : policy(policy), rng(rng), swarm(swarm), size(size), interpreter(program) {}
  GenContext(const GenContext&) = delete;
  GenContext& operator=(const GenContext&) = delete;

  const Policy& policy;
  Rng& rng;
  const Swarm& swarm;
  Size size;
  Program program;
  Interpreter interpreter;
  std::set<std::string> constructs_used;

  /// A knob's value.
  double knob(std::string_view name) const { return policy.get(name); }
  /// True with the knob's probability.
  bool chance(std::string_view name) { return rng.chance(policy.get(name)); }
  /// Uniform in ["<size>.<what>.min", "<size>.<what>.max"].
  int count(std::string_view what);
  /// An index by the weights of the knobs "<prefix><name>" for each name.
  std::size_t weighted(std::string_view prefix, const std::vector<std::string>& names);
  /// Whether the swarm enabled a construct.
  bool on(std::string_view construct) const { return swarm.on(construct); }
  /// Records that the program uses a construct (it must be enabled).
  void use(std::string_view construct);
  /// A fresh identifier with this prefix.
  std::string fresh(std::string_view prefix) { return std::string(prefix) + std::to_string(next_name_++); }

private:
  int next_name_ = 0;
};

/// A value of a type with the distribution of the "const.*" knobs.
Value random_value(GenContext& ctx, IntType type);
/// A random integer type by the "type.*" knobs.
IntType random_type(GenContext& ctx);

} // namespace cudiff::generator
