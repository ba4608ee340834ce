// `cudiff generate`: write generated programs and their sidecars for a range of seeds.
#include "cli/commands.h"
#include "generator/generator.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <ostream>

namespace cudiff::cli {
namespace {

/// generate's own defaults for the shared flags.
Defaults defaults() {
  Defaults d;
  d.json = "print what was written as JSON";
  return d;
}

/// --input FILE: the program libFuzzer's input names (a corpus file, or a finding's "input" hex
/// written back to bytes), exactly as cudiff-libfuzzer generated it.
int generate_from_input(const ParsedArgs& args, const generator::Policy& policy, std::ostream& out) {
  for (const char* name : {"--seed", "--count", "--batch", "--edge", "--rule", "--variants"})
    if (args.has(name)) throw_usage(std::string("--input names one program; drop ") + name);
  const std::string bytes = read_file(*args.value("--input"));
  const generator::Size size = read_size(args);
  const std::filesystem::path dir = args.value("--out").value_or(".");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw_environment("cannot create " + dir.string() + ": " + ec.message());
  const generator::TestCase test = generator::generate_from_bytes(policy, bytes, size);
  const auto source = dir / (test.name + ".cu");
  write_file(source, test.source);
  const boost::json::object sidecar = generator::to_json(test.sidecar);
  write_file(dir / (test.name + ".json"), pretty_json(sidecar));
  if (args.has("--json")) {
    out << pretty_json(boost::json::object{{"files", boost::json::array{boost::json::string(source.string())}},
                                           {"policy_hash", policy.hash()},
                                           {"generator_version", std::string(generator::kGeneratorVersion)},
                                           {"input", sidecar.at("input")},  // as the sidecar file has it
                                           {"source_bytes", test.source.size()}});
  } else {
    const generator::Sidecar::Input& input = *test.sidecar.input;
    out << "wrote " << source.string() << " from " << bytes.size() << " input bytes (" << input.byte_decisions
        << " decisions from the bytes, " << input.tail_decisions << " from the seeded tail), "
        << format_bytes(test.source.size()) << " of CUDA\n";
  }
  return 0;
}

int run_generate(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (!args.positionals.empty()) throw_usage("generate takes no file arguments (see --help)");
  const generator::Policy policy = read_policy(args);
  if (args.has("--dump-policy")) {
    out << policy.dump();
    return 0;
  }
  if (args.has("--input")) return generate_from_input(args, policy, out);
  if (!args.has("--seed")) throw_usage("generate needs --seed N (or --input FILE)");
  const std::uint64_t first = args.unsigned_number("--seed").value_or(0);
  const std::uint64_t count = args.unsigned_number("--count").value_or(1);
  if (count == 0) throw_usage("--count must be at least 1");
  if (first > std::numeric_limits<std::uint64_t>::max() - (count - 1)) throw_usage("--seed + --count overflows");
  const generator::Size size = read_size(args);
  const std::filesystem::path dir = args.value("--out").value_or(".");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw_environment("cannot create " + dir.string() + ": " + ec.message());

  const std::uint64_t batch = args.unsigned_number("--batch").value_or(1);
  if (batch == 0) throw_usage("--batch must be at least 1");
  // --rule names the violation to plant, and so implies --edge.
  const std::string rule = args.value("--rule").value_or("");
  const bool edge = args.has("--edge") || !rule.empty();
  if (edge && batch > 1) throw_usage("--edge programs are never batched: a violation rejects the whole file");
  // --variants K: each seed's K variants beside it in its file, judged against it by `check`.
  const std::uint64_t variants = args.unsigned_number("--variants").value_or(0);
  if (variants > 64) throw_usage("--variants must be between 0 and 64");
  if (edge && variants > 0) throw_usage("--edge programs have no variants: they must be rejected, not run");

  const auto start = std::chrono::steady_clock::now();
  std::uint64_t bytes = 0;
  boost::json::array written;
  for (std::uint64_t seed = first; seed < first + count; seed += std::min(batch, first + count - seed)) {
    std::vector<std::uint64_t> seeds;
    for (std::uint64_t s = seed; s < first + count && seeds.size() < batch; ++s) seeds.push_back(s);
    generator::TestCase test = edge ? generator::generate_edge(policy, seed, size, rule)
                               : batch > 1 || variants > 0
                                   ? generator::generate_batch(policy, seeds, size, static_cast<int>(variants))
                                   : generator::generate_program(policy, seed, size);
    const auto source = dir / (test.name + ".cu");
    write_file(source, test.source);
    write_file(dir / (test.name + ".json"), pretty_json(generator::to_json(test.sidecar)));
    bytes += test.source.size();
    written.push_back(boost::json::string(source.string()));
    const std::uint64_t done = seed - first + seeds.size();
    if (!args.has("--json") && count > 1 && done / 100 != (done - seeds.size()) / 100)
      err << "generated " << done << "/" << count << "\n";
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (args.has("--json")) {
    out << pretty_json(boost::json::object{{"files", written},
                                           {"policy_hash", policy.hash()},
                                           {"generator_version", std::string(generator::kGeneratorVersion)},
                                           {"seconds", seconds},
                                           {"source_bytes", bytes}});
  } else {
    out << "wrote " << count << (edge ? " edge" : "") << (count == 1 ? " program" : " programs");
    if (variants > 0) out << ", each with " << variants << (variants == 1 ? " variant" : " variants");
    if (batch > 1 || variants > 0)
      out << " in " << written.size() << (written.size() == 1 ? " batch" : " batches") << " of up to " << batch;
    out << " (seed " << first;
    if (count > 1) out << ".." << first + count - 1;
    out << ", size " << generator::to_string(size) << ", policy " << policy.hash() << ") to " << dir.string() << ": "
        << format_bytes(bytes) << " of CUDA in " << format_seconds(seconds) << "\n";
  }
  return 0;
}

} // namespace

Subcommand generate_subcommand() {
  CommandSpec spec{
      "generate",
      "cudiff generate --seed N [--count K] [--batch B] [--variants V] [--edge [--rule ID]] [--policy FILE] [--size small|medium|large] [--out DIR]\n"
      "cudiff generate --input FILE [--policy FILE] [--size SIZE] [--out DIR]",
      "Write random CUDA programs that have exactly one correct output, each with a JSON\n"
      "sidecar (seed, policy hash, generator version, constructs, kernels, layout probes).\n"
      "With --edge, each program carries one planted violation of a compile-time E rule of the\n"
      "rules catalog (see cudiff rules) and must be rejected; its sidecar names the rule and line.\n"
      "The same seed, policy and generator version give byte-identical files.",
      {shared_option(Flag::seed, defaults()),
       {"--input", "FILE", "the program these bytes name (a cudiff-libfuzzer corpus input), instead of --seed"},
       {"--count", "K", "how many consecutive seeds (default 1)"},
       {"--batch", "B", "up to B seeds per file, each in its own namespace (default 1)"},
       {"--variants", "V",
        "V EMI/metamorphic variants of each program after it in its file (labelled s<seed>v<j>; cudiff check "
        "compares each with its original)"},
       {"--edge", "", "plant one E rule's violation in each program (named cudiff_edge_<seed>)"},
       {"--rule", "ID", "the E rule to plant (implies --edge; default: one drawn from the seed)"},
       shared_option(Flag::policy, defaults()),
       shared_option(Flag::size, defaults()),
       {"--out", "DIR", "where to write NAME.cu and NAME.json (default: .)"},
       {"--dump-policy", "", "print the policy (defaults, or --policy FILE applied) and exit"},
       shared_option(Flag::json, defaults())}};
  return {spec, run_generate};
}

} // namespace cudiff::cli
