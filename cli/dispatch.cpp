// run_cli: picks the subcommand, handles --help, and turns errors into exit status 2.
#include "cli/cli.h"
#include "cli/commands.h"
#include "common/common.h"

#include <ostream>

namespace cudiff::cli {
namespace {

std::vector<Subcommand> subcommands() {
  return {fuzz_subcommand(),  check_subcommand(),      generate_subcommand(), reduce_subcommand(), rules_subcommand(),
          slurm_subcommand(), toolchains_subcommand(), triage_subcommand(),   recall_subcommand()};
}

std::string top_level_help() {
  std::string out = "cudiff: a differential fuzzer for CUDA compilers (nvcc vs clang-cuda)\n\n"
                    "usage: cudiff COMMAND [options]   (cudiff COMMAND --help for details)\n\ncommands:\n";
  for (const Subcommand& command : subcommands()) {
    std::string name = command.spec.name;
    name.resize(12, ' ');
    out += "  " + name + split_lines(command.spec.description).front() + "\n";
  }
  out += "\nexit status: 0 agreement, 1 discrepancy found, 2 usage or environment error, 3 (check) invalid "
         "program\n";
  return out;
}

} // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      out << top_level_help();
      return args.empty() ? 2 : 0;
    }
    for (const Subcommand& command : subcommands()) {
      if (command.spec.name != args[0]) continue;
      ParsedArgs parsed = parse_args(command.spec, {args.begin() + 1, args.end()});
      if (parsed.has("--help")) {
        out << render_help(command.spec);
        return 0;
      }
      return command.run(parsed, out, err);
    }
    throw_usage("unknown command '" + args[0] + "' (see cudiff --help)");
  } catch (const Error& error) {
    err << "cudiff: error: " << error.what() << std::endl;
    return 2;
  } catch (const std::exception& error) {
    err << "cudiff: internal error: " << error.what() << std::endl;
    return 2;
  }
}

} // namespace cudiff::cli
