// probes: V-rule probes (rules/catalog.json "probe") planted into a program after its
// IR is built and validated. A device probe wraps some expressions in a call that returns its
// argument, so the interpreter's checksums stay right and a compiler that rejects or
// miscompiles the construct shows as a false rejection or a wrong checksum; a host probe is
// checked once before the kernels run and prints a line only when it fails.
//
// Probes draw from a random stream of their own (seeded from the program's seed), after the
// main stream is done: a program that carries none is the same as before probes existed.
#include "generator/probes/probes.h"

#include <algorithm>

namespace cudiff::generator {
namespace {

/// The probes a program may carry: every catalog probe whose result depends on no unspecified
/// value (unspecified_value_uses, checked here once since the catalog is compiled in), less
/// those clang rejects on purpose unless the policy asks for them and the program uses no
/// construct a compiler rejects (one known rejection per program, so one bucket per cause).
std::vector<std::pair<std::string, rules::RuleProbe>> available_probes(const Policy& policy,
                                                                       bool uses_rejected_construct) {
  static const std::vector<std::pair<std::string, rules::RuleProbe>> all = [] {
    std::vector<std::pair<std::string, rules::RuleProbe>> probes;
    for (const rules::Rule& rule : rules::rule_catalog())
      if (rule.probe && unspecified_value_uses(rule.id, *rule.probe).empty()) probes.emplace_back(rule.id, *rule.probe);
    return probes;
  }();
  const bool with_clang_rejects = policy.get("probe.clang_rejects") >= 0.5 && !uses_rejected_construct;
  std::vector<std::pair<std::string, rules::RuleProbe>> usable;
  for (const auto& entry : all)
    if (with_clang_rejects || entry.second.clang_rejects.empty()) usable.push_back(entry);
  return usable;
}

bool uses_rejected_construct(const std::set<std::string>& constructs_used) {
  return std::ranges::any_of(kConstructsRejectedByACompiler, [&](const RejectedConstruct& rejected) {
    return constructs_used.count(std::string(rejected.construct)) != 0;
  });
}

/// Expression nodes a probe may wrap, counted in preorder. Spelled nodes (folds, templates...)
/// are wrapped whole: their kids are part of their spelling.
int eligible_nodes(const Expr& e) {
  int count = 1;
  if (e.spell == Expr::Spell::Plain)
    for (const ExprP& kid : e.kids) count += eligible_nodes(*kid);
  return count;
}

ExprP probe_call(const ExprP& inner, int probe_index) {
  auto call = std::make_shared<Expr>();
  call->kind = ExprKind::Cast;
  call->type = inner->type;
  call->kids = {inner};
  call->spell = Expr::Spell::Probe;
  call->spell_index = probe_index;
  return call;
}

/// `e` with its `target`-th eligible node (preorder) wrapped; nodes are immutable, so the path
/// down to it is copied.
ExprP wrap_node(const ExprP& e, int& target, int probe_index) {
  if (target == 0) return probe_call(e, probe_index);
  --target;
  if (e->spell != Expr::Spell::Plain) return e;
  for (std::size_t i = 0; i < e->kids.size(); ++i) {
    const int size = eligible_nodes(*e->kids[i]);
    if (target >= size) {
      target -= size;
      continue;
    }
    auto copy = std::make_shared<Expr>(*e);
    copy->kids[i] = wrap_node(e->kids[i], target, probe_index);
    return copy;
  }
  return e;
}

/// Every statement expression of the program's kernels and device functions, by slot.
void collect_slots(Block& block, std::vector<ExprP*>& slots) {
  for (Stmt& s : block) {
    if (s.expr) slots.push_back(&s.expr);
    collect_slots(s.body, slots);
    collect_slots(s.else_body, slots);
    for (SwitchCase& c : s.cases) collect_slots(c.body, slots);
  }
}

std::vector<ExprP*> expression_slots(Program& program) {
  std::vector<ExprP*> slots;
  for (Kernel& kernel : program.kernels) collect_slots(kernel.body, slots);
  for (Function& function : program.functions) {
    collect_slots(function.body, slots);
    if (function.result_expr) slots.push_back(&function.result_expr);
  }
  return slots;
}

} // namespace

void plant_probes(Program& program, const Policy& policy, std::uint64_t seed,
                  const std::set<std::string>& constructs_used) {
  SeededRng rng(seed ^ 0x70726f6265735f31ull);  // "probes_1": a stream of its own
  if (!rng.chance(policy.get("probe.share"))) return;
  std::vector<std::pair<std::string, rules::RuleProbe>> candidates = available_probes(policy, uses_rejected_construct(
                                                                                                  constructs_used));
  std::vector<ExprP*> slots = expression_slots(program);
  const int wanted = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(policy.get("probe.count.max"))));
  for (int n = 0; n < wanted && !candidates.empty(); ++n) {
    const std::size_t pick = static_cast<std::size_t>(rng.below(candidates.size()));
    PlantedProbe planted{candidates[pick].first, candidates[pick].second, rng.next_u64(), 0};
    candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(pick));
    // One probe clang rejects is the program's whole story on clang's side: no second one.
    if (!planted.probe.clang_rejects.empty())
      std::erase_if(candidates, [](const auto& candidate) { return !candidate.second.clang_rejects.empty(); });
    if (!planted.probe.host) {
      if (slots.empty()) continue;  // nothing to wrap: a device probe needs a call site
      const int index = static_cast<int>(program.probes.size());
      const int sites = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(policy.get("probe.sites.max"))));
      for (int i = 0; i < sites; ++i) {
        ExprP* slot = slots[static_cast<std::size_t>(rng.below(slots.size()))];
        int target = static_cast<int>(rng.below(static_cast<std::uint64_t>(eligible_nodes(**slot))));
        *slot = wrap_node(*slot, target, index);
        ++planted.sites;
      }
    }
    program.probes.push_back(std::move(planted));
  }
}

std::string probe_includes(const std::vector<PlantedProbe>& probes) {
  std::vector<std::string> headers;
  for (const PlantedProbe& planted : probes)
    for (const std::string& header : planted.probe.headers)
      if (std::ranges::find(headers, header) == headers.end()) headers.push_back(header);
  std::string text;
  for (const std::string& header : headers) text += "#include " + header + "\n";
  return text;
}

std::string probe_definitions(const std::vector<PlantedProbe>& probes) {
  std::string text;
  for (const PlantedProbe& planted : probes) {
    std::string fragment = planted.probe.fragment;
    if (!fragment.empty() && fragment.back() != '\n') fragment += "\n";
    text += "// cudiff probe " + planted.rule_id + " begin\n" + fragment + "// cudiff probe " + planted.rule_id +
            " end\n";
  }
  return text;
}

std::string probe_call_text(const PlantedProbe& planted, const std::string& type, const std::string& argument) {
  return "((" + type + ")" + planted.probe.function + "((unsigned long long)" + argument + "))";
}

} // namespace cudiff::generator
