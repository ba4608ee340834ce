// `cudiff slurm submit|status`: a campaign as a Slurm job array (campaign::submit_slurm_campaign,
// campaign::slurm_status): the fuzz options checked as `cudiff fuzz` would check them, the
// submission, and where the campaign stands, as a table or JSON.
#include "cli/commands.h"

#include <ctime>
#include <ostream>
#include <unistd.h>

namespace cudiff::cli {
namespace {

/// fuzz options that the job scripts set themselves, or that have no meaning for a shard.
constexpr const char* owned_by_the_scripts[] = {"--db", "--report", "--resume", "--shard", "--engine"};

/// The fuzz options after "--", checked here as `cudiff fuzz` would check them: a typo fails
/// now, not after the array waited in the queue. Returns the campaign's time budget.
double check_fuzz_options(const std::vector<std::string>& options) {
  for (const std::string& option : options) {
    if (option.find('\n') != std::string::npos) throw_usage("a fuzz option with a line break cannot be passed on");
    for (const char* owned : owned_by_the_scripts)
      if (option == owned || option.rfind(std::string(owned) + "=", 0) == 0)
        throw_usage(option + " is set by the job scripts (each shard's database is on node-local scratch)");
  }
  const ParsedArgs fuzz = parse_args(fuzz_subcommand().spec, options);
  if (!fuzz.positionals.empty()) throw_usage("fuzz takes no file arguments, got '" + fuzz.positionals.front() + "'");
  if (fuzz.has("--help")) throw_usage("--help after '--': see cudiff fuzz --help");
  for (const char* file : {"--policy", "--known"})
    if (auto path = fuzz.value(file); path && !std::filesystem::is_regular_file(*path))
      throw_usage(std::string(file) + " " + *path + ": no such file");
  if (fuzz.has("--jobs")) fuzz.unsigned_number("--jobs");
  if (auto known = fuzz.value("--known")) triage::KnownDifferences::load(*known);
  return new_fuzz_params(fuzz).time_budget;  // what `cudiff fuzz` checks, checked the same way
}

std::filesystem::path own_binary(const ParsedArgs& args) {
  if (auto path = args.value("--cudiff")) {
    if (::access(path->c_str(), X_OK) != 0) throw_usage("--cudiff " + *path + ": not an executable");
    return std::filesystem::absolute(*path);
  }
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw_environment("cannot find the cudiff binary (" + ec.message() + "); give --cudiff PATH");
  return self;
}

std::string default_directory() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  char name[64];
  std::strftime(name, sizeof name, "cudiff-slurm-%Y%m%d-%H%M%S", &local);
  return name;
}

double poll_seconds(const ParsedArgs& args) { return args.positive_number("--poll").value_or(15); }

/// `cudiff slurm status`'s table or JSON; 0, or 2 when the merge failed or left no status.
int print_slurm_status(const campaign::SlurmStatus& status, bool json, std::ostream& out, std::ostream& err) {
  const campaign::SlurmCampaign& slurm = status.campaign;
  if (json) {
    out << pretty_json(campaign::to_json(status));
  } else {
    TextTable table(
        {"array job", "shards", "running", "pending", "copied out", "merge", "tests", "findings", "buckets"});
    table.add_row({slurm.array_job, std::to_string(slurm.shards), std::to_string(status.running),
                   std::to_string(status.pending), std::to_string(status.copied_out), status.merge_state(),
                   status.merged ? std::to_string(status.merged->tests) : "-",
                   status.merged ? std::to_string(status.totals.findings) : "-",
                   status.merged
                       ? std::to_string(status.totals.buckets) + " (" + std::to_string(status.new_buckets) + " new)"
                       : "-"});
    out << table.render();
    if (status.merged)
      out << "database: " << status.database().string() << "\nreport: " << status.report().string() << "\n";
  }
  if (status.merge_status && *status.merge_status != 0) {
    err << "cudiff: the merge job ended with status " << *status.merge_status << ": see "
        << (slurm.directory / "logs" / "merge.out").string() << "\n";
    return 2;
  }
  if (!status.merge_status && status.queue_empty()) {
    err << "cudiff: the jobs left the queue but the merge job wrote no merge.status: see "
        << (slurm.directory / "logs" / "merge.out").string() << "\n";
    return 2;
  }
  return 0;
}

int submit_campaign(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.size() != 1) throw_usage("usage: cudiff slurm submit --shards N [options] -- [fuzz options]");
  campaign::SlurmSubmitRequest request;
  campaign::SlurmCampaign& slurm = request.campaign;
  slurm.shards = args.unsigned_number("--shards").value_or(0);
  if (slurm.shards == 0) throw_usage("submit needs --shards N (array tasks, at least 1)");
  if (slurm.shards > 100000)
    throw_usage("--shards " + std::to_string(slurm.shards) + " is more than Slurm's arrays take");
  request.gpus_per_task = args.unsigned_number("--gpus-per-task");
  request.cpus_per_task = args.unsigned_number("--cpus-per-task");
  request.fuzz_time_budget = check_fuzz_options(args.rest);
  request.fuzz_options = args.rest;
  slurm.directory = std::filesystem::absolute(args.value("--out").value_or(default_directory())).lexically_normal();
  request.cudiff = own_binary(args);
  request.partition = args.value("--partition");
  request.time_limit = args.value("--time-limit");
  request.sbatch_flags = split_flags(args.value("--sbatch-flags").value_or(""));

  if (args.has("--dry-run")) {
    const campaign::SlurmSubmission submission = campaign::slurm_submission(request);
    out << "# would write " << slurm.directory.string() << "/{campaign.sbatch,merge.sbatch,fuzz.args,shards,logs}\n"
        << "# fuzz.args: " << join(args.rest, " ") << "\n"
        << submission.array.display() << "\n"
        << submission.merge.display() << "\n";
    return 0;
  }
  const campaign::SlurmCampaign submitted = campaign::submit_slurm_campaign(request);
  if (args.has("--json") && !args.has("--wait")) {
    out << pretty_json(campaign::to_json(submitted));
    return 0;
  }
  if (!args.has("--json")) {
    TextTable table({"array job", "merge job", "shards", "directory"});
    table.add_row(
        {submitted.array_job, submitted.merge_job, std::to_string(submitted.shards), submitted.directory.string()});
    out << table.render() << "follow it: cudiff slurm status " << submitted.directory.string() << "   (squeue -j "
        << submitted.array_job << "," << submitted.merge_job << ")\n";
  }
  if (!args.has("--wait")) return 0;
  out.flush();
  return print_slurm_status(campaign::wait_for_slurm_campaign(submitted, poll_seconds(args), err), args.has("--json"),
                            out, err);
}

int run_slurm(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.empty()) throw_usage("slurm needs an action: submit or status");
  const std::string& action = args.positionals.front();
  if (action == "submit") return submit_campaign(args, out, err);
  if (!args.rest.empty()) throw_usage("only submit takes fuzz options after '--'");
  if (action == "status") {
    if (args.positionals.size() != 2) throw_usage("usage: cudiff slurm status DIR");
    const campaign::SlurmCampaign slurm = campaign::read_slurm_campaign(args.positionals[1]);
    const campaign::SlurmStatus status = args.has("--wait")
                                             ? campaign::wait_for_slurm_campaign(slurm, poll_seconds(args), err)
                                             : campaign::slurm_status(slurm);
    return print_slurm_status(status, args.has("--json"), out, err);
  }
  throw_usage("unknown slurm action '" + action + "' (submit, status)");
}

} // namespace

Subcommand slurm_subcommand() {
  CommandSpec spec{
      "slurm",
      "cudiff slurm submit --shards N [--out DIR] [--gpus-per-task G] [--cpus-per-task C] [--partition P]\n"
      "                    [--time-limit T] [--sbatch-flags \"...\"] [--dry-run] [--wait] [--json] -- [fuzz options]\n"
      "cudiff slurm status DIR [--wait] [--json]",
      "Runs a campaign as a Slurm job array: N array tasks, each one shard of the campaign (cudiff\n"
      "fuzz on its node, its database on node-local scratch, copied to DIR/shards when the task\n"
      "ends), then a merge job (after every task, failed ones too) that merges the shards into\n"
      "DIR/campaign.db and writes DIR/report.html. The options after -- go to cudiff fuzz\n"
      "(--tests counts the whole campaign; --time is each task's). Paths must be visible on every\n"
      "node, and so must the compilers (same paths, or --nvcc/--clang). docs/slurm.md has more.\n"
      "Exit status: 0 submitted (with --wait: merged), 2 usage or environment error.",
      {{"--shards", "N", "array tasks, one shard of the campaign each"},
       {"--out", "DIR", "the campaign's directory, shared by all nodes (default ./cudiff-slurm-<date>-<time>)"},
       {"--gpus-per-task", "G", "ask for G GPUs per task (--gres=gpu:G); default none: the nodes' own"},
       {"--cpus-per-task", "C", "ask for C cores per task (--cpus-per-task=C)"},
       {"--partition", "P", "the partition of both jobs"},
       {"--time-limit", "T", "the array's sbatch --time (default with fuzz --time: the budget plus 30 minutes)"},
       {"--sbatch-flags", "\"FLAGS\"", "more sbatch flags for both jobs, space-separated (e.g. \"--account=gpu\")"},
       {"--cudiff", "PATH", "the cudiff binary the jobs run (default: this one)"},
       {"--dry-run", "", "print the sbatch commands, write and submit nothing"},
       {"--wait", "", "follow the jobs until the merge is done, then show the result"},
       {"--poll", "SECONDS", "with --wait: how often to look (default 15)"},
       {"--json", "", "print JSON"}}};
  spec.takes_rest = true;
  return {spec, run_slurm};
}

} // namespace cudiff::cli
