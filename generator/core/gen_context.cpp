// gen_context: knob helpers and random values shared by the generator's parts.
#include "generator/core/gen_context.h"

namespace cudiff::generator {

int GenContext::count(std::string_view what) {
  const std::string prefix = to_string(size) + "." + std::string(what);
  const auto lo = static_cast<std::int64_t>(knob(prefix + ".min"));
  const auto hi = static_cast<std::int64_t>(knob(prefix + ".max"));
  return static_cast<int>(rng.range(lo, std::max(lo, hi)));
}

std::size_t GenContext::weighted(std::string_view prefix, const std::vector<std::string>& names) {
  std::vector<double> weights;
  for (const std::string& name : names) weights.push_back(knob(std::string(prefix) + name));
  return rng.weighted(weights);
}

void GenContext::use(std::string_view construct) {
  if (!swarm.on(construct))
    throw Error(ErrorKind::internal,
                "the generator used construct '" + std::string(construct) + "' that the swarm disabled");
  constructs_used.insert(std::string(construct));
}

IntType random_type(GenContext& ctx) {
  static const std::vector<std::string> names = {"bool",   "char", "schar", "uchar", "short",
                                                 "ushort", "int",  "uint",  "llong", "ullong"};
  return all_int_types()[ctx.weighted("type.", names)];
}

Value random_value(GenContext& ctx, IntType type) {
  if (ctx.chance("const.special")) {
    switch (ctx.rng.below(6)) {
    case 0: return Value::make(type, 0);
    case 1: return Value::make(type, 1);
    case 2: return Value::make(type, -1);
    case 3: return min_value(type);
    case 4: return max_value(type);
    default: return Value::make_unsigned(type, max_value(type).bits - 1);
    }
  }
  if (ctx.chance("const.small")) return Value::make(type, ctx.rng.range(is_signed(type) ? -16 : 0, 16));
  return Value::make_unsigned(type, ctx.rng.next_u64());
}

} // namespace cudiff::generator
