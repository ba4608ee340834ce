// `cudiff toolchains`: the compilers found, their versions, the CUDA toolkit, the GPUs.
#include "cli/commands.h"

#include <ostream>

namespace cudiff::cli {
namespace {

int run_toolchains(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  runners::ToolchainDiscovery found = runners::discover_toolchain(toolchain_search(args));
  runners::GpuDiscovery gpus = runners::discover_gpus();
  const bool usable = found.nvcc.compiler && found.clang.compiler;

  if (args.has("--json")) {
    boost::json::array gpu_list;
    for (const auto& gpu : gpus.gpus) gpu_list.push_back(runners::to_json(gpu));
    boost::json::object report{{"nvcc", runners::to_json(found.nvcc)},
                               {"clang", runners::to_json(found.clang)},
                               {"cuda_home", found.cuda_home.string()},
                               {"gpus", gpu_list},
                               {"gpu_note", gpus.note}};
    out << pretty_json(report);
  } else {
    TextTable table({"tool", "version", "path"});
    for (const auto* probe : {&found.nvcc, &found.clang}) {
      if (probe->compiler)
        table.add_row(
            {runners::to_string(probe->compiler->kind), probe->compiler->version, probe->compiler->path.string()});
      else table.add_row({probe == &found.nvcc ? "nvcc" : "clang", "MISSING", probe->problem});
    }
    table.add_row({"cuda", "", found.cuda_home.string()});
    out << table.render();
    if (gpus.gpus.empty()) out << "GPUs: none (" << gpus.note << "): checks build but do not run\n";
    for (const auto& gpu : gpus.gpus) out << "GPU " << gpu.describe() << "\n";
  }
  if (!usable) {
    err << "cudiff: error: " << (found.nvcc.compiler ? found.clang.problem : found.nvcc.problem) << "\n";
    return 2;
  }
  return 0;
}

} // namespace

Subcommand toolchains_subcommand() {
  CommandSpec spec{"toolchains", "cudiff toolchains [--nvcc PATH] [--clang PATH] [--json]",
                   "Show the compilers cudiff found, their exact versions, and the GPUs.\n"
                   "Exit status 2 when either compiler is missing or unusable.",
                   shared_options({Flag::nvcc, Flag::clang}, Defaults{})};
  spec.options.push_back({"--json", "", "print JSON instead of a table"});
  return {spec, run_toolchains};
}

} // namespace cudiff::cli
