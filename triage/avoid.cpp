// triage: deriving an avoid rule from a reduced reproducer (docs/triage.md, "Avoid rules").
#include "triage/avoid.h"

#include "common/common.h"

#include <algorithm>
#include <cmath>
#include <regex>

namespace cudiff::triage {
namespace {

/// Where in the source a construct is looked for.
enum class Scope {
  inline_ptx,  ///< the text of asm blocks (PTX mnemonics)
  abi,         ///< a program with ABI functions (cudiff_abi_N)
  dense,       ///< a program with a compute-dense kernel (dense_N)
  core,        ///< a program without one (the core generator's kernels)
};

struct Construct {
  const char* needs;
  Scope scope;
  const char* pattern;
  const char* knob;
};

// Narrowest first: a row turns off less of the generator than the rows below it (a PTX
// instruction family inside inline-PTX blocks, an ABI kind, a compute-dense family, a core
// construct, a kernel family's share last). The first row the reduced form matches is its rule.
// The knobs are generator/*/knobs_*.def's and constructs_*.def's (tests/unit/triage checks that
// each exists); a knob's 0 switches its construct off.
constexpr Construct kConstructs[] = {
    {"PTX video instructions (vadd2/vsub4/vabsdiff/vmin/vmax)", Scope::inline_ptx,
     R"(\bv(add|sub|absdiff|min|max)[24]\b)", "ptx.family.video"},
    {"PTX funnel shifts (shf)", Scope::inline_ptx, R"(\bshf\.)", "ptx.family.shf"},
    {"PTX carry chains (add.cc, addc, mad.cc ...)", Scope::inline_ptx,
     R"(\b(add\.cc|addc|sub\.cc|subc|mad\.cc|madc)\b)", "ptx.family.carry"},
    {"PTX prmt", Scope::inline_ptx, R"(\bprmt\.)", "ptx.family.prmt"},
    {"PTX bfe/bfi", Scope::inline_ptx, R"(\b(bfe|bfi)\.)", "ptx.family.bitfield"},
    {"PTX bfind/brev/popc/clz", Scope::inline_ptx, R"(\b(bfind|brev|popc|clz)\.)", "ptx.family.bitscan"},
    {"PTX selp/slct", Scope::inline_ptx, R"(\b(selp|slct)\.)", "ptx.family.select"},
    {"PTX min/max", Scope::inline_ptx, R"(\b(min|max)\.[us](32|64)\b)", "ptx.family.minmax"},
    {"PTX cvt", Scope::inline_ptx, R"(\bcvt\.)", "ptx.family.cvt"},
    {"PTX setp", Scope::inline_ptx, R"(\bsetp\.)", "ptx.family.setp"},
    {"PTX mul/mad", Scope::inline_ptx, R"(\b(mul|mad)\.(lo|hi|wide)\b)", "ptx.family.mul"},
    {"PTX shl/shr", Scope::inline_ptx, R"(\b(shl|shr)\.)", "ptx.family.shift"},
    {"PTX logic (and/or/xor/not/lop3)", Scope::inline_ptx, R"(\b(and|or|xor|not|cnot|lop3)\.)", "ptx.family.logic"},
    {"an ABI function's alignas struct", Scope::abi, R"(\bstruct\s+alignas\s*\()", "abi.kind.alignas_struct"},
    {"an ABI function's __grid_constant__ parameter", Scope::abi, R"(__grid_constant__)", "abi.grid_constant"},
    {"unsigned atomic min/max at block or system scope", Scope::dense, R"(\batomic(Min|Max)_(block|system)\s*\()",
     "dense.atomics.scoped_unsigned_minmax"},
    {"SIMD-in-word intrinsics (__vadd2, __vcmpgeu4 ...)", Scope::dense, R"(\b__v[a-z]+[24]\s*\()",
     "dense.family.dense_simd"},
    {"unsigned __int128", Scope::dense, R"(\b__int128\b)", "dense.family.dense_int128"},
    {"__ldg", Scope::dense, R"(\b__ldg\s*\()", "dense.family.dense_ldg"},
    {"a volatile variable", Scope::dense, R"(\bvolatile\s+[A-Za-z_])", "dense.family.dense_volatile"},
    {"a forward goto", Scope::dense, R"(\bgoto\b)", "dense.family.dense_goto"},
    {"a switch with fallthrough", Scope::dense, R"(\bswitch\s*\()", "dense.family.dense_switch"},
    {"dynamic shared memory", Scope::dense, R"(\bextern\s+__shared__)", "dense.family.dense_dynamic_shared"},
    {"warp shuffles, __reduce_*_sync, __ballot_sync", Scope::dense,
     R"(\b(__shfl\w*_sync|__reduce_\w+_sync|__ballot_sync)\s*\()", "dense.family.dense_collectives"},
    {"vector loads and stores", Scope::dense, R"(\b(uint2|uint4|ulonglong2)\b)", "dense.family.dense_vector_memory"},
    {"64-bit intrinsics", Scope::dense, R"(\b(__umul64hi|__mul64hi|__clzll|__popcll|__ffsll|__brevll)\s*\()",
     "dense.family.dense_wide"},
    {"integer intrinsics (__byte_perm, __funnelshift_*, __popc, __dp4a ...)", Scope::dense,
     R"(\b(__byte_perm|__funnelshift_\w+|__brev|__popc|__clz|__ffs|__mulhi|__umulhi|__u?r?hadd|__u?sad|__dp4a|__dp2a_\w+)\s*\()",
     "dense.family.dense_intrinsics"},
    {"__noinline__/__forceinline__ device functions", Scope::dense, R"(\b(__noinline__|__forceinline__)\b)",
     "dense.family.dense_functions"},
    {"per-thread shared words", Scope::dense, R"(\b__shared__\b)", "dense.family.dense_shared_words"},
    {"a local array", Scope::dense, R"(\bloc\[)", "dense.family.dense_local_array"},
    {"inline PTX", Scope::dense, R"(\basm\b)", "dense.family.dense_inline_ptx"},
    {"exact floating point", Scope::dense, R"(\b(float|double)\b)", "dense.family.dense_fp_exact"},
    {"8- and 16-bit arithmetic", Scope::dense, R"(\b(short|char)\b)", "dense.family.dense_narrow"},
    {"loops", Scope::dense, R"(\bfor\s*\()", "dense.family.dense_loops"},
    {"__managed__ memory", Scope::core, R"(\b__managed__\b)", "construct.managed_memory"},
    {"a __grid_constant__ parameter", Scope::core, R"(\b__grid_constant__\b)", "construct.grid_constant"},
    {"cuda::atomic_ref", Scope::core, R"(\batomic_ref\b)", "construct.atomic_ref"},
    {"atomicCAS loops", Scope::core, R"(\batomicCAS\s*\()", "construct.atomic_cas_loop"},
    {"the last-block-done sum (atomicInc, __threadfence)", Scope::core, R"(\batomicInc\s*\()",
     "construct.last_block_done"},
    {"cooperative_groups::reduce", Scope::core, R"(\b(cg|cooperative_groups)::reduce\b)", "construct.cg_reduce"},
    {"cooperative_groups::tiled_partition", Scope::core, R"(\btiled_partition\b)", "construct.cg_tile"},
    {"cooperative_groups::this_thread_block", Scope::core, R"(\bthis_thread_block\b)", "construct.cg_block"},
    {"__match_any_sync/__match_all_sync", Scope::core, R"(\b__match_(any|all)_sync\b)", "construct.warp_match"},
    {"__reduce_*_sync", Scope::core, R"(\b__reduce_\w+_sync\b)", "construct.warp_reduce"},
    {"__syncthreads_count/_and/_or", Scope::core, R"(\b__syncthreads_(count|and|or)\b)", "construct.syncthreads_count"},
    {"__syncwarp", Scope::core, R"(\b__syncwarp\b)", "construct.syncwarp"},
    {"warp votes (__all_sync, __any_sync, __ballot_sync)", Scope::core, R"(\b__(all|any|ballot)_sync\b)",
     "construct.warp_vote"},
    {"warp shuffles", Scope::core, R"(\b__shfl\w*_sync\b)", "construct.warp_shuffle"},
    {"std::enable_if overloads", Scope::core, R"(\benable_if\w*\b)", "construct.sfinae"},
    {"if constexpr over templates", Scope::core, R"(\bif\s+constexpr\b)", "construct.template_select"},
    {"fold expressions", Scope::core, R"(\.\.\.\s*[-+*/%^&|<>=!]+\s*\w|\w\s*[-+*/%^&|<>=!]+\s*\.\.\.)",
     "construct.variadic_fold"},
    {"a __device__ function pointer", Scope::core, R"(\(\s*\*\s*\w+\s*\)\s*\()", "construct.device_function_pointer"},
    {"extended lambdas", Scope::core, R"(\]\s*(\([^)]*\)\s*)?(__host__\s+)?__device__\b)", "construct.extended_lambda"},
    {"class template specializations", Scope::core, R"(\btemplate\s*<[^>]*>\s*(struct|class)\b)",
     "construct.class_template"},
    {"make_<vector type> values", Scope::core, R"(\bmake_[a-z]+[1-4]\s*\()", "construct.vector_values"},
    {"static local tables", Scope::core, R"(\bstatic\s+const(expr)?\b)", "construct.static_local"},
    {"dynamic shared memory", Scope::core, R"(\bextern\s+__shared__)", "construct.dynamic_shared"},
    {"a shared-memory exchange", Scope::core, R"(\b__shared__\b)", "construct.shared_exchange"},
    {"__constant__ arrays", Scope::core, R"(\b__constant__\b)", "construct.constant_memory"},
    {"inline namespaces", Scope::core, R"(\binline\s+namespace\b)", "construct.inline_namespace"},
    {"__noinline__/__forceinline__ functions", Scope::core, R"(\b(__noinline__|__forceinline__)\b)",
     "construct.inline_qualifiers"},
    {"function templates", Scope::core, R"(\btemplate\s*<)", "construct.function_template"},
    {"atomic reductions", Scope::core, R"(\batomic(Add|And|Or|Xor|Min|Max)\s*\()", "construct.atomic_reduction"},
    {"a switch", Scope::core, R"(\bswitch\s*\()", "construct.switch_statement"},
    {"ABI functions", Scope::abi, R"(\bcudiff_abi_\d+\b)", "abi.share"},
    {"a compute-dense kernel", Scope::dense, R"(\bdense_\d+\b)", "dense.share"},
};

/// The device code: the text before the host's `int main(` (all of it when there is none).
std::string_view device_part(std::string_view source) {
  static const std::regex main_start(R"(\bint\s+main\s*\()");
  std::match_results<std::string_view::const_iterator> match;
  if (std::regex_search(source.begin(), source.end(), match, main_start))
    return source.substr(0, static_cast<std::size_t>(match.position(0)));
  return source;
}

/// The asm blocks' text: from each `asm` to the `);` that ends it, escapes made spaces.
std::string inline_ptx_part(std::string_view device) {
  std::string blocks;
  static const std::regex asm_start(R"(\basm\b)");
  auto begin = device.begin();
  std::match_results<std::string_view::const_iterator> match;
  while (std::regex_search(begin, device.end(), match, asm_start)) {
    const auto from = static_cast<std::size_t>(match[0].second - device.begin());
    const std::size_t end = device.find(");", from);
    const std::size_t to = end == std::string_view::npos ? device.size() : end;
    blocks.append(device.substr(from, to - from)).push_back('\n');
    begin = device.begin() + static_cast<std::ptrdiff_t>(to);
  }
  // The string literals' escapes ("{\n\tvadd2.u32 ...") would glue a mnemonic to a letter.
  static const std::regex escapes(R"(\\[ntr])");
  return std::regex_replace(blocks, escapes, " ");
}

/// Comments say nothing the bug needs; the reducer may have left some.
std::string without_comments(std::string_view source) {
  static const std::regex comments(R"(//[^\n]*|/\*[\s\S]*?\*/)");
  return std::regex_replace(std::string(source), comments, " ");
}

bool matches(const std::string& text, const char* pattern) { return std::regex_search(text, std::regex(pattern)); }

std::string number_text(double value) {
  if (std::floor(value) == value && std::abs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  std::string text = std::to_string(value);
  while (!text.empty() && text.back() == '0') text.pop_back();
  return text;
}

} // namespace

AvoidDerivation derive_avoid(std::string_view source) {
  AvoidDerivation derivation;
  const std::string text = without_comments(source);
  // Only the device code is read, so only it must be reduced: a reduced wrong-code program's
  // host side (its buffers, copies and checksum, thirty lines) is none of what the bug needs.
  const std::string device(device_part(text));
  const std::size_t lines = split_lines(trim(device)).size();
  if (lines > kMaxReducedLines) {
    derivation.why_none = "not reduced (" + std::to_string(lines) + " lines of device code, more than " +
                          std::to_string(kMaxReducedLines) + "): reduce it first (cudiff triage reduce)";
    return derivation;
  }
  const std::string ptx = inline_ptx_part(device);
  const bool abi = matches(device, R"(\bcudiff_abi_\d+\b)");
  const bool dense = matches(device, R"(\bdense_\d+\b)");
  for (const Construct& construct : kConstructs) {
    const bool in_scope = construct.scope == Scope::inline_ptx ? !ptx.empty()
                          : construct.scope == Scope::abi      ? abi
                          : construct.scope == Scope::dense    ? dense
                                                               : !dense;
    if (!in_scope) continue;
    if (!matches(construct.scope == Scope::inline_ptx ? ptx : device, construct.pattern)) continue;
    derivation.found.push_back(std::string(construct.needs) + ": " + construct.knob);
    if (derivation.knobs.empty()) {
      derivation.knobs.push_back({construct.knob, 0});
      derivation.needs = construct.needs;
    }
  }
  if (derivation.knobs.empty())
    derivation.why_none = "no construct of the generator's: its programs do not make this bug";
  return derivation;
}

bool kind_yields_avoid_rule(std::string_view finding_kind) {
  return finding_kind != "missed_diagnostic" && finding_kind != "missed_by_all" && finding_kind != "dialect_difference";
}

std::vector<std::string> avoid_table_knobs() {
  std::vector<std::string> knobs;
  for (const Construct& construct : kConstructs) knobs.emplace_back(construct.knob);
  return knobs;
}

boost::json::object knobs_json(const std::vector<KnobSetting>& knobs) {
  boost::json::object object;
  for (const KnobSetting& setting : knobs) object[setting.knob] = setting.value;
  return object;
}

std::string knobs_text(const std::vector<KnobSetting>& knobs) {
  std::string text;
  for (const KnobSetting& setting : knobs)
    text += (text.empty() ? "" : ",") + setting.knob + "=" + number_text(setting.value);
  return text;
}

std::vector<KnobSetting> parse_knob_settings(std::string_view text) {
  std::vector<KnobSetting> knobs;
  for (const std::string& item : split(text, ',')) {
    const std::string setting(trim(item));
    if (setting.empty()) continue;
    const std::size_t equals = setting.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == setting.size())
      throw_usage("a knob setting is KNOB=VALUE, got '" + setting + "'");
    KnobSetting parsed{std::string(trim(std::string_view(setting).substr(0, equals))), 0};
    const std::string number(trim(std::string_view(setting).substr(equals + 1)));
    std::size_t used = 0;
    try {
      parsed.value = std::stod(number, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != number.size() || !std::isfinite(parsed.value))
      throw_usage("knob '" + parsed.knob + "' needs a number, got '" + number + "'");
    knobs.push_back(std::move(parsed));
  }
  if (knobs.empty()) throw_usage("no knob setting in '" + std::string(text) + "' (KNOB=VALUE,...)");
  return knobs;
}

boost::json::object to_json(const AvoidRule& rule) {
  return {{"cause", rule.cause_key}, {"origin", rule.origin}, {"knobs", knobs_json(rule.knobs)}, {"needs", rule.needs},
          {"reason", rule.reason},   {"time", rule.time},     {"by_hand", rule.by_hand}};
}

AvoidRule avoid_rule_from_json(const boost::json::value& json) {
  const auto* object = json.if_object();
  if (object == nullptr) throw_usage("an avoid rule is a JSON object");
  const auto text = [&](std::string_view key, bool required) {
    const auto* value = object->if_contains(key);
    if (value != nullptr && value->is_string()) return std::string(value->as_string());
    if (required) throw_usage("an avoid rule needs a string \"" + std::string(key) + "\"");
    return std::string();
  };
  AvoidRule rule;
  rule.cause_key = text("cause", true);
  rule.origin = text("origin", false);
  rule.needs = text("needs", false);
  rule.reason = text("reason", false);
  const auto* knobs = object->if_contains("knobs");
  if (knobs == nullptr || !knobs->is_object() || knobs->as_object().empty())
    throw_usage("avoid rule " + rule.cause_key + " needs an object \"knobs\" of knob names to numbers");
  for (const auto& [name, value] : knobs->as_object()) {
    if (!value.is_number())
      throw_usage("avoid rule " + rule.cause_key + ": knob '" + std::string(name) + "' needs a number");
    rule.knobs.push_back({std::string(name), value.to_number<double>()});
  }
  if (const auto* time = object->if_contains("time"); time != nullptr && time->is_number())
    rule.time = time->to_number<double>();
  if (const auto* by_hand = object->if_contains("by_hand"); by_hand != nullptr && by_hand->is_bool())
    rule.by_hand = by_hand->as_bool();
  return rule;
}

std::vector<AvoidRule> merge_avoid_rules(const std::vector<AvoidRule>& stored, const std::vector<AvoidRule>& suite) {
  std::vector<AvoidRule> rules = stored;
  for (const AvoidRule& rule : suite)
    if (std::ranges::none_of(rules, [&](const AvoidRule& have) { return have.cause_key == rule.cause_key; }))
      rules.push_back(rule);
  return rules;
}

} // namespace cudiff::triage
