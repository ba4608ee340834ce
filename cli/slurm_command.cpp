// `cudiff slurm submit`: writes the campaign's directory (the job scripts, the fuzz options,
// later the shards, logs and the merged result) and submits the array job, one `cudiff fuzz`
// shard per task, and the merge job that runs once every task has ended.
#include "cli/commands.h"
#include "cli/fuzz.h"
#include "cli/fuzz_campaign.h"
#include "cli/slurm.h"
#include "slurm_scripts.h"  // generated from scripts/slurm by cli/embed_slurm_scripts.cmake

#include <cmath>
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

bool sets_time_limit(const std::vector<std::string>& flags) {
  for (const std::string& flag : flags)
    if (flag == "-t" || flag == "--time" || flag.rfind("--time=", 0) == 0 || (flag.rfind("-t", 0) == 0 && flag.size() > 2))
      return true;
  return false;
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

/// The two sbatch command lines; the merge job's dependency names ARRAY_JOB until it is known.
struct Submission {
  runners::Command array, merge;
};

Submission build_submission(const ParsedArgs& args, const SlurmCampaign& campaign, const std::filesystem::path& cudiff,
                            double time_budget) {
  const std::filesystem::path& dir = campaign.directory;
  std::vector<std::string> extra = split_flags(args.value("--sbatch-flags").value_or(""));
  Submission submission;
  auto& array = submission.array.argv;
  array = {"sbatch", "--parsable", "--job-name=cudiff-fuzz", "--array=0-" + std::to_string(campaign.shards - 1),
           "--output=" + (dir / "logs" / "shard-%a.out").string(), "--requeue"};
  if (auto gpus = args.unsigned_number("--gpus-per-task"); gpus && *gpus > 0) array.push_back("--gres=gpu:" + std::to_string(*gpus));
  if (auto cpus = args.unsigned_number("--cpus-per-task"); cpus && *cpus > 0) array.push_back("--cpus-per-task=" + std::to_string(*cpus));
  if (auto limit = args.value("--time-limit")) {
    array.push_back("--time=" + *limit);
  } else if (time_budget > 0 && !sets_time_limit(extra)) {
    // The budget, plus time for the batches in flight, reductions and the copy out.
    array.push_back("--time=" + std::to_string(static_cast<long>(std::ceil(time_budget / 60)) + 30));
  }
  auto& merge = submission.merge.argv;
  merge = {"sbatch", "--parsable", "--job-name=cudiff-merge", "--dependency=afterany:ARRAY_JOB",
           "--kill-on-invalid-dep=yes", "--output=" + (dir / "logs" / "merge.out").string(), "--time=60"};
  if (auto partition = args.value("--partition")) {
    array.push_back("--partition=" + *partition);
    merge.push_back("--partition=" + *partition);
  }
  for (const std::string& flag : extra) {
    array.push_back(flag);
    merge.push_back(flag);
  }
  for (const std::string& part : {(dir / "campaign.sbatch").string(), cudiff.string(), dir.string()}) array.push_back(part);
  for (const std::string& part : {(dir / "merge.sbatch").string(), cudiff.string(), dir.string(), std::to_string(campaign.shards)})
    merge.push_back(part);
  return submission;
}

/// Runs sbatch --parsable; returns the job id ("1234" of "1234" or "1234;cluster").
std::string submit(runners::Command command, const std::filesystem::path& sbatch, const std::string& what) {
  command.limits.wall_seconds = 120;
  command.argv[0] = sbatch.string();
  const runners::SubprocessResult result = runners::run_subprocess(command);
  const std::string reply(trim(result.out.text));
  if (!result.exited_zero() || reply.empty()) {
    const auto lines = split_lines(std::string(trim(result.err.text)));
    throw_environment("sbatch refused the " + what + " (" + result.status_text() + ")" +
                      (lines.empty() ? "" : ": " + lines.front()));
  }
  return reply.substr(0, reply.find(';'));
}

void write_directory(const SlurmCampaign& campaign, const std::vector<std::string>& fuzz_options) {
  const std::filesystem::path& dir = campaign.directory;
  std::error_code ec;
  // A campaign's shards are never overwritten; a submission sbatch refused left none, and its
  // directory can be used again.
  const bool has_shards = std::filesystem::is_directory(dir / "shards", ec) &&
                          std::filesystem::directory_iterator(dir / "shards", ec) != std::filesystem::directory_iterator();
  if (std::filesystem::exists(dir / "jobs.json", ec) || has_shards)
    throw_usage(dir.string() + " holds a submitted campaign already; give another --out");
  for (const char* sub : {"shards", "logs"}) {
    std::filesystem::create_directories(dir / sub, ec);
    if (ec) throw_environment("cannot create " + (dir / sub).string() + ": " + ec.message());
  }
  std::string args;
  for (const std::string& option : fuzz_options) args += option + "\n";
  write_file(dir / "fuzz.args", args);
  write_file(dir / "campaign.sbatch", embedded::campaign_sbatch);
  write_file(dir / "merge.sbatch", embedded::merge_sbatch);
  for (const char* script : {"campaign.sbatch", "merge.sbatch"})
    std::filesystem::permissions(dir / script, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add, ec);
}

double poll_seconds(const ParsedArgs& args) { return args.positive_number("--poll").value_or(15); }

int submit_campaign(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.size() != 1) throw_usage("usage: cudiff slurm submit --shards N [options] -- [fuzz options]");
  SlurmCampaign campaign;
  campaign.shards = args.unsigned_number("--shards").value_or(0);
  if (campaign.shards == 0) throw_usage("submit needs --shards N (array tasks, at least 1)");
  if (campaign.shards > 100000) throw_usage("--shards " + std::to_string(campaign.shards) + " is more than Slurm's arrays take");
  for (const char* name : {"--gpus-per-task", "--cpus-per-task"}) args.unsigned_number(name);
  const double time_budget = check_fuzz_options(args.rest);
  campaign.directory = std::filesystem::absolute(args.value("--out").value_or(default_directory())).lexically_normal();
  const std::filesystem::path cudiff = own_binary(args);
  Submission submission = build_submission(args, campaign, cudiff, time_budget);

  if (args.has("--dry-run")) {
    out << "# would write " << campaign.directory.string() << "/{campaign.sbatch,merge.sbatch,fuzz.args,shards,logs}\n"
        << "# fuzz.args: " << join(args.rest, " ") << "\n"
        << submission.array.display() << "\n"
        << submission.merge.display() << "\n";
    return 0;
  }
  const auto sbatch = find_on_path("sbatch");
  if (!sbatch) throw_environment("sbatch not found on PATH: run cudiff slurm submit where Slurm's commands are");
  write_directory(campaign, args.rest);
  campaign.array_job = submit(submission.array, *sbatch, "array job");
  for (std::string& part : submission.merge.argv)
    if (part == "--dependency=afterany:ARRAY_JOB") part = "--dependency=afterany:" + campaign.array_job;
  try {
    campaign.merge_job = submit(submission.merge, *sbatch, "merge job");
  } catch (const Error& error) {
    throw_environment(std::string(error.what()) + "; the array job " + campaign.array_job + " runs: submit " +
                      (campaign.directory / "merge.sbatch").string() + " with --dependency=afterany:" +
                      campaign.array_job + ", or scancel " + campaign.array_job);
  }
  write_file(campaign.directory / "jobs.json", pretty_json(to_json(campaign)));

  if (args.has("--json") && !args.has("--wait")) {
    out << pretty_json(to_json(campaign));
    return 0;
  }
  if (!args.has("--json")) {
    TextTable table({"array job", "merge job", "shards", "directory"});
    table.add_row({campaign.array_job, campaign.merge_job, std::to_string(campaign.shards), campaign.directory.string()});
    out << table.render() << "follow it: cudiff slurm status " << campaign.directory.string()
        << "   (squeue -j " << campaign.array_job << "," << campaign.merge_job << ")\n";
  }
  if (!args.has("--wait")) return 0;
  out.flush();
  return wait_for_slurm_campaign(campaign, poll_seconds(args), args.has("--json"), out, err);
}

int run_slurm(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.empty()) throw_usage("slurm needs an action: submit or status");
  const std::string& action = args.positionals.front();
  if (action == "submit") return submit_campaign(args, out, err);
  if (!args.rest.empty()) throw_usage("only submit takes fuzz options after '--'");
  if (action == "status") {
    if (args.positionals.size() != 2) throw_usage("usage: cudiff slurm status DIR");
    const SlurmCampaign campaign = read_slurm_campaign(args.positionals[1]);
    if (args.has("--wait"))
      return wait_for_slurm_campaign(campaign, poll_seconds(args), args.has("--json"), out, err);
    return print_slurm_status(campaign, args.has("--json"), out, err);
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
