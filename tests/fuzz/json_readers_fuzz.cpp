// libFuzzer harness: the JSON files cudiff reads back — sidecars (expectation, layout probes),
// stored campaign parameters, policies, reducer schedules — and the expected-error marker of
// a source file.
//
/// Input: any bytes, parsed as JSON with the non-throwing boost::json::parse, and also read
/// as source text. Contracts: expectation_from_source never throws (oracle/oracle.h);
/// fuzz_params_from_json throws only Error(environment) (campaign/campaign.h); Policy::load,
/// sidecar_from_json and parse_schedule only Error(usage) (generator/generator.h,
/// reducer/reducer.h), and a sidecar read back is written as it was read. Anything else
/// escaping is a bug.
#include "campaign/campaign.h"
#include "generator/generator.h"
#include "oracle/oracle.h"
#include "reducer/reducer.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string_view>

namespace {

/// Runs `body`; a cudiff::Error of the documented kind is the contract, any other kind is a bug.
void expect_only(cudiff::ErrorKind kind, const std::function<void()>& body) {
  try {
    body();
  } catch (const cudiff::Error& error) {
    if (error.kind() == kind) return;
    std::fprintf(stderr, "an Error of the wrong kind: %s\n", error.what());
    __builtin_trap();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudiff;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  static_cast<void>(oracle::expectation_from_source(text));
  expect_only(ErrorKind::usage, [&] { static_cast<void>(generator::Policy::load(text)); });
  expect_only(ErrorKind::usage, [&] { static_cast<void>(reducer::parse_schedule(text, "fuzz")); });

  boost::system::error_code error;
  const boost::json::value json = boost::json::parse(text, error);
  if (error) return 0;
  expect_only(ErrorKind::usage, [&] {
    const generator::Sidecar sidecar = generator::sidecar_from_json(json);
    if (generator::sidecar_from_json(generator::to_json(sidecar)) != sidecar) __builtin_trap();
  });
  expect_only(ErrorKind::environment, [&] { static_cast<void>(campaign::fuzz_params_from_json(json)); });
  return 0;
}
