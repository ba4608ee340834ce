// `cudiff triage avoid`: the avoid rules (docs/triage.md, "Avoid rules") — list them, derive
// one from a file, set one by hand, drop one.
#include "cli/commands.h"
#include "common/common.h"
#include "generator/generator.h"
#include "triage/triage.h"

#include <ostream>

namespace cudiff::cli {
namespace {

std::string short_key(const std::string& key) { return key.substr(0, 12); }

int derive(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.size() != 3) throw_usage("usage: cudiff triage avoid derive FILE [--json]");
  const std::string file = args.positionals[2];
  const triage::AvoidDerivation derivation = triage::derive_avoid(read_file(file));
  if (args.has("--json")) {
    boost::json::array found;
    for (const std::string& line : derivation.found) found.push_back(boost::json::string(line));
    out << pretty_json(boost::json::object{{"file", file},
                                           {"knobs", triage::knobs_json(derivation.knobs)},
                                           {"needs", derivation.needs},
                                           {"found", std::move(found)},
                                           {"why_none", derivation.why_none}});
    return 0;
  }
  if (derivation.knobs.empty()) {
    out << file << ": no rule: " << derivation.why_none << "\n";
    return 0;
  }
  out << file << ": " << triage::knobs_text(derivation.knobs) << " (" << derivation.needs << ")\n";
  for (const std::string& line : derivation.found) out << "  uses " << line << "\n";
  return 0;
}

/// The stored rule whose cause key starts with `prefix` (at least 4 characters, one match).
triage::AvoidRule stored_rule(const triage::Database& db, const std::string& prefix) {
  if (prefix.size() < 4) throw_usage("give at least 4 characters of the cause key, got '" + prefix + "'");
  std::vector<triage::AvoidRule> matching;
  for (triage::AvoidRule& rule : db.avoid_rules())
    if (rule.cause_key.starts_with(prefix)) matching.push_back(std::move(rule));
  if (matching.empty()) throw_usage("no avoid rule of cause " + prefix + " in " + db.path().string());
  if (matching.size() > 1)
    throw_usage("cause " + prefix + " is ambiguous: " + std::to_string(matching.size()) + " rules start with it");
  return matching.front();
}

int list(const ParsedArgs& args, triage::Database& db, std::ostream& out) {
  const triage::AvoidRefresh refresh = db.refresh_avoid_rules(unix_seconds());
  const triage::KnownDifferences known = read_known(args);
  const std::vector<triage::AvoidRule> rules = triage::merge_avoid_rules(db.avoid_rules(), known.avoid_rules());
  if (args.has("--json")) {
    boost::json::array list, without;
    for (const triage::AvoidRule& rule : rules) list.push_back(triage::to_json(rule));
    for (const std::string& line : refresh.without_rule) without.push_back(boost::json::string(line));
    out << pretty_json(boost::json::object{{"rules", std::move(list)}, {"without_rule", std::move(without)}});
    return 0;
  }
  TextTable table({"cause", "knobs", "needs", "from", "bug"});
  for (const triage::AvoidRule& rule : rules)
    table.add_row({short_key(rule.cause_key), triage::knobs_text(rule.knobs), rule.needs, rule.origin,
                   shorten_utf8(rule.reason, 70)});
  out << table.render() << rules.size() << " avoid rule" << (rules.size() == 1 ? "" : "s")
      << ": cudiff fuzz applies them (--rediscover: none)\n";
  for (const std::string& line : refresh.without_rule) out << "no rule for cause " << line << "\n";
  return 0;
}

} // namespace

int triage_avoid(const ParsedArgs& args, const std::filesystem::path& db_path, std::ostream& out) {
  const std::string action = args.positionals.size() > 1 ? args.positionals[1] : "list";
  if (action == "derive") return derive(args, out);
  triage::Database db = triage::Database::open(db_path, triage::OpenOptions{.create = false});
  if (action == "list") {
    if (args.positionals.size() > 2) throw_usage("usage: cudiff triage avoid [list] [--json]");
    return list(args, db, out);
  }
  if (action == "set") {
    if (args.positionals.size() != 4)
      throw_usage("usage: cudiff triage avoid set CAUSE KNOB=VALUE[,...] [--reason TEXT]");
    triage::AvoidRule rule;
    rule.cause_key = args.positionals[2];
    rule.knobs = triage::parse_knob_settings(args.positionals[3]);
    rule.origin = "by hand";
    rule.needs = "set by hand";
    rule.reason = args.value("--reason").value_or("");
    rule.time = unix_seconds();
    rule.by_hand = true;
    // Checked against this generator's knobs before anything is stored.
    generator::Policy policy = generator::Policy::defaults();
    for (const triage::KnobSetting& setting : rule.knobs) policy.set(setting.knob, setting.value);
    db.put_avoid_rule(rule);
    out << "avoid rule of cause " << short_key(rule.cause_key) << ": " << triage::knobs_text(rule.knobs) << "\n";
    return 0;
  }
  if (action == "drop") {
    if (args.positionals.size() != 3) throw_usage("usage: cudiff triage avoid drop CAUSE");
    const triage::AvoidRule rule = stored_rule(db, args.positionals[2]);
    db.drop_avoid_rule(rule.cause_key);
    out << "dropped the avoid rule of cause " << short_key(rule.cause_key) << " (" << triage::knobs_text(rule.knobs)
        << ")" << (rule.by_hand ? "" : "; the next campaign derives it again while its bucket stays confirmed") << "\n";
    return 0;
  }
  throw_usage("unknown triage avoid action '" + action + "' (list, derive, set, drop)");
}

} // namespace cudiff::cli
