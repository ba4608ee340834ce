// `cudiff triage ACTION`: list, show, mark, note, export, merge and report over the triage
// database; `synthetic` writes generated findings (for tests and benchmarks).
#include "cli/commands.h"
#include "common/common.h"
#include "pipeline/pipeline.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <ostream>

namespace cudiff::cli {
namespace {

/// triage's own defaults for the shared flags.
Defaults defaults() {
  Defaults d;
  d.db = "cudiff.db";
  d.db_created = false;
  d.json = "list, show: print JSON";
  d.known = "apply a known-differences file first (new buckets that match become known)";
  return d;
}

std::filesystem::path db_path(const ParsedArgs& args) { return *read_db(args, defaults()); }

/// An existing database (upgraded in place when older), with --known applied.
triage::Database open_existing(const ParsedArgs& args) {
  triage::Database db = triage::Database::open(db_path(args), triage::OpenOptions{.create = false});
  if (auto known = args.value("--known")) db.apply_known(triage::KnownDifferences::load(*known));
  return db;
}

void need(const ParsedArgs& args, std::size_t count, std::string_view usage) {
  if (args.positionals.size() != count + 1) throw_usage("usage: cudiff triage " + std::string(usage));
}

int list(const ParsedArgs& args, std::ostream& out) {
  need(args, 0, "list [--status S] [--kind K] [--class C] [--json [--by-class]]");
  triage::Database db = open_existing(args);
  triage::ListFilter filter;
  if (auto status = args.value("--status")) filter.status = triage::parse_status(*status);
  filter.kind = args.value("--kind");
  if (auto name = args.value("--class")) filter.finding_class = triage::parse_finding_class(*name);
  const triage::Listing listing = triage::read_listing(db, filter);
  out << (args.has("--json") ? pretty_json(triage::to_json(listing, args.has("--by-class")))
                             : triage::render_listing(listing));
  return 0;
}

int show(const ParsedArgs& args, std::ostream& out) {
  need(args, 1, "show ID");
  triage::Database db = open_existing(args);
  const triage::BucketDetails details = triage::read_details(db, db.bucket(args.positionals[1]));
  out << (args.has("--json") ? pretty_json(triage::to_json(details)) : triage::render_details(details));
  return 0;
}

int mark(const ParsedArgs& args, std::ostream& out) {
  need(args, 2, "mark ID STATUS [--link URL]");
  const triage::Status status = triage::parse_status(args.positionals[2]);
  const std::optional<std::string> link = args.value("--link");
  if (link && !link->starts_with("https://") && !link->starts_with("http://"))
    throw_usage("--link takes the upstream report's URL (http:// or https://), got '" + *link + "'");
  triage::Database db = open_existing(args);
  const triage::Bucket b = db.bucket(args.positionals[1]);
  db.transaction([&] {
    db.set_status(b.key, status);
    if (link) db.set_link(b.key, *link);
  });
  out << "bucket " << b.id << " (" << b.key.substr(0, 12) << ") is now " << triage::to_string(status)
      << (link ? ", reported at " + *link : "") << "\n";
  return 0;
}

int note(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.size() < 3) throw_usage("usage: cudiff triage note ID TEXT");
  triage::Database db = open_existing(args);
  const triage::Bucket b = db.bucket(args.positionals[1]);
  const std::string text = join({args.positionals.begin() + 2, args.positionals.end()}, " ");
  db.add_note(b.key, text, unix_seconds());
  out << "note added to bucket " << b.id << " (" << b.key.substr(0, 12) << ")\n";
  return 0;
}

/// DIR/report.md, DIR/repro.sh, the reproducer, and for a ptxas, device-codegen or nvvm bucket the
/// PTX or LLVM IR of its guilty config (built here when the compilers are found).
int export_bucket(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  need(args, 2, "export ID DIR [--json]");
  triage::Database db = open_existing(args);
  const triage::Bucket b = db.bucket(args.positionals[1]);
  const std::filesystem::path directory = args.positionals[2];
  std::vector<std::filesystem::path> attachments;
  std::vector<std::string> notes;
  if (const auto best = db.finding(b.best_finding);
      best && (b.stage == "ptxas" || b.stage == "device-codegen" || b.stage == "nvvm")) {
    // The reproducer first, so the attachment is built from the very file the report names.
    const std::filesystem::path reproducer = directory / triage::exported_reproducer_name(*best);
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    write_file(reproducer, best->source);
    try {
      attachments = pipeline::stage_attachments(b, *best, reproducer, read_toolchain(args), notes);
    } catch (const Error& error) {
      notes.push_back(std::string("no PTX or IR attached: ") + error.what());
    }
  }
  const triage::ExportedReport exported = triage::export_bucket(db, b, directory, attachments);
  if (args.has("--json")) {
    out << pretty_json(triage::to_json(b, exported, notes));
    return 0;
  }
  for (const auto& note : notes) err << "note: " << note << "\n";
  out << triage::render_exported(exported);
  return 0;
}

/// Every open bucket (new or reported), or the one named, checked again with the compilers
/// installed now: present, fixed (marked so), or cannot tell.
int recheck(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.size() > 2) throw_usage("usage: cudiff triage recheck [ID] [--json]");
  triage::Database db = open_existing(args);
  std::vector<triage::Bucket> buckets;
  if (args.positionals.size() == 2) {
    buckets.push_back(db.bucket(args.positionals[1]));
  } else {
    for (const triage::Status status : {triage::Status::fresh, triage::Status::reported}) {
      triage::BucketQuery query;
      query.status = status;
      for (auto& bucket : db.buckets(query)) buckets.push_back(std::move(bucket));
    }
  }
  const runners::Toolchain toolchain = read_toolchain(args);
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  std::vector<pipeline::Recheck> results;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    if (!args.has("--json"))
      err << "recheck " << i + 1 << "/" << buckets.size() << ": bucket " << buckets[i].id << " ("
          << buckets[i].key.substr(0, 12) << ")\n";
    results.push_back(pipeline::recheck_bucket(db, buckets[i], toolchain, gpus));
  }
  if (args.has("--json")) {
    boost::json::array list;
    for (const auto& r : results)
      list.push_back(boost::json::object{{"id", r.bucket.id},
                                         {"key", r.bucket.key},
                                         {"kind", r.bucket.kind},
                                         {"verdict", r.verdict},
                                         {"marked_fixed", r.marked_fixed},
                                         {"compilers", r.compilers}});
    out << pretty_json(boost::json::object{{"rechecked", std::move(list)}});
    return 0;
  }
  TextTable table({"id", "key", "kind", "verdict", "title"});
  std::size_t present = 0, fixed = 0;
  for (const auto& r : results) {
    table.add_row({std::to_string(r.bucket.id), r.bucket.key.substr(0, 12), r.bucket.kind,
                   r.verdict + (r.marked_fixed ? " (marked fixed)" : ""), shorten(r.bucket.title, 80)});
    present += r.verdict == "present";
    fixed += r.verdict.starts_with("fixed");
  }
  out << table.render() << results.size() << " rechecked with " << (results.empty() ? "" : results.front().compilers)
      << ": " << present << " present, " << fixed << " fixed, " << results.size() - present - fixed << " cannot tell\n";
  return 0;
}

/// Since when a clang bug exists, from the clang releases installed side by side.
int bisect(const ParsedArgs& args, std::ostream& out) {
  need(args, 1, "bisect ID");
  triage::Database db = open_existing(args);
  const triage::Bucket b = db.bucket(args.positionals[1]);
  const runners::Toolchain toolchain = read_toolchain(args);
  const auto releases = pipeline::probe_clang_releases(toolchain);
  out << "bucket " << b.id << " (" << b.key.substr(0, 12)
      << "): " << pipeline::bisect_bucket(db, b, toolchain, runners::discover_gpus(), releases) << "\n";
  return 0;
}

/// The cause keys a reduction to FILE would file (docs/triage.md, "Cause keys"): of each finding
/// of FILE checked with --config and --mode; with --guilty CONFIG, the PTX cause of that config
/// alone (a run finding's, known without a GPU), normalised to --kernel's kernels.
int cause(const ParsedArgs& args, std::ostream& out) {
  need(args, 1, "cause FILE [--config LIST] [--mode MODE] | cause FILE --guilty CONFIG [--kernel K,...] [--json]");
  const std::filesystem::path file = args.positionals[1];
  const runners::Toolchain toolchain = read_toolchain(args);
  boost::json::array list;
  const auto entry = [&](const std::string& kind, const std::string& stage, const std::string& title,
                         const triage::Cause& c, const std::string& note) {
    list.push_back(boost::json::object{{"kind", kind},
                                       {"stage", stage},
                                       {"title", title},
                                       {"key", c.key},
                                       {"basis", c.basis},
                                       {"text", c.text},
                                       {"note", note}});
  };
  if (const auto guilty = args.value("--guilty")) {
    const std::vector<runners::Config> configs = runners::parse_configs(*guilty);
    if (configs.size() != 1) throw_usage("--guilty takes one config, got '" + *guilty + "'");
    if (!std::filesystem::is_regular_file(file)) throw_environment("no such file: " + file.string());
    std::vector<std::string> kernels;
    if (const auto names = args.value("--kernel"))
      for (const std::string& name : split(*names, ','))
        if (!name.empty()) kernels.push_back(name);
    std::string note;
    const auto found = pipeline::ptx_cause(std::filesystem::absolute(file), configs.front(), kernels, toolchain,
                                           pipeline::kFileCompileSeconds, note);
    if (!found) throw_environment(file.string() + ": " + note);
    entry("", "", "the PTX of " + configs.front().name, *found, "");
  } else {
    pipeline::CheckRequest request;
    request.input = pipeline::file_input(file);
    request.mode = read_mode(args);
    const runners::GpuDiscovery gpus = runners::discover_gpus();
    request.configs = read_configs(args, defaults(), binaries_run(args, !gpus.gpus.empty()));
    for (const pipeline::FileCause& found : pipeline::causes_of_file(request, toolchain, gpus))
      entry(oracle::to_string(found.finding.kind), found.signature.stage, found.signature.title, found.cause,
            found.note);
  }
  if (args.has("--json")) {
    out << pretty_json(boost::json::object{{"file", file.string()}, {"causes", std::move(list)}});
    return 0;
  }
  if (list.empty()) out << file.string() << ": no finding, no cause\n";
  for (const auto& item : list) {
    const auto& c = item.as_object();
    const auto text = [&](const char* key) { return std::string(c.at(key).as_string()); };
    out << text("key") << " " << text("basis") << (text("kind").empty() ? "" : " " + text("kind")) << ": "
        << text("title") << (text("note").empty() ? "" : " (" + text("note") + ")") << "\n";
    for (const std::string& line : split_lines(text("text"))) out << "  " << line << "\n";
  }
  return 0;
}

int merge(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.size() < 3) throw_usage("usage: cudiff triage merge OUT.db IN.db...");
  // Every shard is checked before OUT is created or changed: a typo costs nothing.
  for (std::size_t i = 2; i < args.positionals.size(); ++i)
    triage::Database::open(args.positionals[i], triage::OpenOptions{.create = false, .read_only = true});
  triage::Database db = triage::Database::open(args.positionals[1]);
  for (std::size_t i = 2; i < args.positionals.size(); ++i) {
    out << triage::describe_merge(args.positionals[i], db.merge_from(args.positionals[i]));
  }
  const auto totals = db.totals();
  out << args.positionals[1] << ": " << totals.buckets << " buckets, " << totals.findings << " findings\n";
  return 0;
}

int snapshot(const ParsedArgs& args, std::ostream& out) {
  need(args, 1, "snapshot DEST.db");
  triage::Database db = open_existing(args);
  db.snapshot_to(args.positionals[1]);
  out << args.positionals[1] << "\n";
  return 0;
}

int report(const ParsedArgs& args, std::ostream& out) {
  need(args, 0, "report --html OUT.html");
  const auto html = args.value("--html");
  if (!html) throw_usage("report needs --html OUT.html");
  triage::Database db = open_existing(args);
  write_file(*html, triage::render_html_report(db, unix_seconds()));
  out << *html << "\n";
  return 0;
}

/// Writes COUNT synthetic findings and prints "committed N" after each commit, flushed: a
/// test that kills this process knows which findings must be in the database.
int synthetic(const ParsedArgs& args, std::ostream& out) {
  need(args, 1, "synthetic COUNT [--buckets B] [--batch K]");
  const auto count = static_cast<std::int64_t>(std::stoll(args.positionals[1]));
  const auto buckets = static_cast<std::int64_t>(args.positive_number("--buckets").value_or(100));
  const auto batch = static_cast<std::int64_t>(args.positive_number("--batch").value_or(1));
  triage::Database db = triage::Database::open(db_path(args));
  triage::write_synthetic_campaign(db, count, buckets, batch, [&](const std::vector<std::string>& ids) {
    for (const auto& id : ids) out << "committed " << id << "\n";
    out.flush();
  });
  return 0;
}

int run_triage(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.empty())
    throw_usage(
        "triage needs an action: list, show, mark, note, export, recheck, bisect, merge, snapshot, report, reduce, "
        "invalid, cause, avoid");
  const std::string& action = args.positionals.front();
  if (action == "list") return list(args, out);
  if (action == "show") return show(args, out);
  if (action == "mark") return mark(args, out);
  if (action == "note") return note(args, out);
  if (action == "export") return export_bucket(args, out, err);
  if (action == "recheck") return recheck(args, out, err);
  if (action == "bisect") return bisect(args, out);
  if (action == "merge") return merge(args, out);
  if (action == "report") return report(args, out);
  if (action == "snapshot") return snapshot(args, out);
  if (action == "invalid") {
    need(args, 0, "invalid [--json [--full]] [--limit N]");
    const triage::Database db = open_existing(args);
    const triage::InvalidListing listing = triage::read_invalid_listing(db,
                                                                        args.unsigned_number("--limit").value_or(0));
    out << (args.has("--json") ? pretty_json(triage::to_json(listing, args.has("--full")))
                               : triage::render_invalid_listing(listing));
    return 0;
  }
  if (action == "synthetic") return synthetic(args, out);
  if (action == "reduce") return triage_reduce(args, out, err);  // cli/reduce_command.cpp
  if (action == "cause") return cause(args, out);
  if (action == "avoid") return triage_avoid(args, db_path(args), out);  // cli/avoid_command.cpp
  throw_usage("unknown triage action '" + action +
              "' (list, show, mark, note, export, recheck, bisect, merge, snapshot, report, reduce, invalid, cause, "
              "avoid)");
}

} // namespace

Subcommand triage_subcommand() {
  CommandSpec spec{
      "triage",
      "cudiff triage list [--status S] [--kind K] [--class C] [--json [--by-class]] | show ID |\n"
      "                     mark ID STATUS [--link URL] | note ID TEXT | export ID DIR [--json] |\n"
      "                     recheck [ID] [--json] | bisect ID | merge OUT.db IN.db... | snapshot DEST.db |\n"
      "                     report --html OUT.html | reduce ID [--jobs N] | invalid [--json [--full]] [--limit N] |\n"
      "                     cause FILE [--config LIST] [--mode MODE] [--guilty CONFIG [--kernel K,...]] [--json]\n"
      "                     avoid [list] [--json] | avoid derive FILE [--json] |\n"
      "                     avoid set CAUSE KNOB=VALUE[,...] [--reason TEXT] | avoid drop CAUSE\n"
      "                     [--db FILE]",
      "Work with the triage database: findings deduplicated into buckets (docs/triage.md).\n"
      "list groups the buckets by class (wrong code, crash, rejects valid, missed diagnostic,\n"
      "dialect difference; the invalid tests by cause) with the engines and configs that found them.\n"
      "ID is a bucket's local number or a prefix of its key; STATUS is new, known, reported,\n"
      "fixed or invalid. export writes DIR/report.md (a Markdown bug report), DIR/repro.sh (exit\n"
      "1 while the bug is there, 0 once fixed, 125 when it cannot tell), the smallest reproducer\n"
      "and, for a ptxas or device-codegen bug, its PTX or LLVM IR. recheck checks every new or\n"
      "reported bucket again with the compilers installed now and marks the gone ones fixed;\n"
      "bisect names the first clang release that shows a clang bug, or why it cannot. merge\n"
      "unions shards into OUT.db (idempotent; the shards of one campaign become one campaign);\n"
      "snapshot writes a consistent one-file copy without a write-ahead log, the form for a\n"
      "network filesystem (a Slurm shard's way out); report writes one offline HTML page. reduce\n"
      "shrinks the bucket's best reproducer while it keeps the bucket's signature (as cudiff\n"
      "reduce does) and stores the result as its best reproducer when smaller.\n"
      "invalid lists the tests the sanitizer gate rejected (their runs fault under\n"
      "compute-sanitizer: invalid programs, never filed as compiler bugs), with counts by cause.\n"
      "cause prints the cause key a reduction to FILE would file (docs/triage.md, \"Cause keys\"):\n"
      "of each finding FILE shows, or with --guilty the PTX cause of that config alone.\n"
      "avoid lists the avoid rules cudiff fuzz applies (docs/triage.md, \"Avoid rules\"): each\n"
      "confirmed cause (a bucket marked known, reported or fixed with a reduced cause, derived anew\n"
      "here; a known-bug suite case unless --no-known) turns off the generator knob of the narrowest\n"
      "construct its reduced form needs; derive prints the rule FILE would yield; set stores one by\n"
      "hand (checked against the generator's knobs), drop removes one.\n"
      "`synthetic COUNT` writes generated findings (tests and benchmarks).",
      shared_options({Flag::db}, defaults())};
  for (auto& option : std::vector<OptionSpec>{{"--status", "STATUS", "list: only buckets with this status"},
                                              {"--kind", "KIND", "list: only buckets of this finding kind"},
                                              {"--class", "CLASS",
                                               "list: only this class (wrong-code, crash, rejects-valid, "
                                               "missed-diagnostic, dialect-difference, invalid-tests)"}})
    spec.options.push_back(option);
  spec.options.push_back(shared_option(Flag::json, defaults()));
  spec.options.push_back({"--by-class", "", "list --json: an object of classes with their counts and buckets"});
  spec.options.push_back({"--html", "FILE", "report: write the HTML report here"});
  spec.options.push_back({"--link", "URL", "mark: the upstream bug report's URL, kept with the bucket"});
  spec.options.push_back({"--full", "", "invalid --json: with each sanitizer report and program"});
  spec.options.push_back({"--limit", "N", "invalid: the N newest only (default all)"});
  spec.options.push_back(shared_option(Flag::known, defaults()));
  spec.options.push_back(
      {"--no-known", "",
       "reduce: do not label a reproducer whose cause is a known-bug case's known; avoid: leave the suite's rules out"});
  spec.options.push_back({"--buckets", "N", "synthetic: spread the findings over N buckets (default 100)"});
  spec.options.push_back({"--batch", "N", "synthetic: findings per transaction (default 1)"});
  for (auto& option : reduce_options()) spec.options.push_back(option);  // reduce: --jobs, --schedule...
  spec.options.push_back({"--finding", "FID",
                          "reduce: this finding of the bucket instead of its best reproducer (another sighting: "
                          "its cause splits the bucket when it is another bug)"});
  spec.options.push_back({"--text-only", "",
                          "reduce: no IR reduction first for a generated program (the text passes alone, as a "
                          "baseline)"});
  for (auto& option : shared_options({Flag::config, Flag::mode}, defaults())) {
    option.help = "cause: " + option.help;
    spec.options.push_back(option);
  }
  spec.options.push_back({"--reason", "TEXT", "avoid set: the bug the rule avoids, in a line"});
  spec.options.push_back({"--guilty", "CONFIG", "cause: the PTX cause of this config alone (no check, no GPU)"});
  spec.options.push_back({"--kernel", "K,...", "cause --guilty: the guilty kernels (checksum names, s12/dense_0)"});
  for (auto& option : shared_options({Flag::nvcc, Flag::clang}, defaults())) spec.options.push_back(option);
  return {spec, run_triage};
}

} // namespace cudiff::cli
