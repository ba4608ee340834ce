// cudiff-libfuzzer: the libFuzzer entry points of guided generation (campaign::GuidedSession). Built with
// `-fsanitize=fuzzer` at link time only: cudiff's own code carries no coverage instrumentation,
// so the only coverage libFuzzer sees is what the compilers did, through the extra counters.
#include "cli/commands.h"

#include <cstdlib>
#include <iostream>
#include <memory>

namespace {

// libFuzzer owns the process and calls plain functions: the session and the counters it
// reads cannot be passed in, so they are the two globals of this file (docs/architecture.md allows none
// elsewhere). The counters must be a non-static array in this section, or the linker drops it.
constexpr std::size_t kCounters = 1u << 16;
std::unique_ptr<cudiff::campaign::GuidedSession> session;

} // namespace

__attribute__((used, section("__libfuzzer_extra_counters"))) std::uint8_t cudiff_feature_counters[kCounters];

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  using namespace cudiff;
  std::vector<std::string> ours;
  for (int i = 1; i < *argc; ++i)
    if (std::string_view((*argv)[i]).rfind("--", 0) == 0) ours.emplace_back((*argv)[i]);
  try {
    const cli::CommandSpec spec = cli::guided_spec();
    const cli::ParsedArgs args = cli::parse_args(spec, ours);
    if (args.has("--help")) {
      std::cout << cli::render_help(spec);
      std::exit(0);
    }
    session = std::make_unique<campaign::GuidedSession>(cli::guided_options(args), std::cerr);
    if (args.has("--baseline-seeds")) std::exit(session->run_baseline());
  } catch (const Error& error) {
    std::cerr << "cudiff-libfuzzer: " << error.what() << "\n";
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudiff;
  campaign::GuidedResult result;
  try {
    result = session->test_bytes(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const Error& error) {
    // cudiff itself cannot go on (the database, the disk): stop, keeping what was filed.
    std::cerr << "cudiff-libfuzzer: " << error.what() << "\n";
    std::exit(2);
  }
  for (const auto& [name, count] : result.features) {
    std::uint8_t& counter = cudiff_feature_counters[fnv1a64(name) % kCounters];
    counter = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, std::max<std::uint32_t>(counter, count)));
  }
  return 0;
}
