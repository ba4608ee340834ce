// `cudiff fuzz --variants K / --no-variants`: variants are on by default where binaries run
// (a GPU) and off compile-only, bounded, and kept in the stored campaign for --resume.
#include "campaign/campaign.h"
#include "cli/commands.h"
#include "cli/options.h"

#include <gtest/gtest.h>

namespace cudiff::cli {
namespace {

campaign::FuzzParams params_of(std::vector<std::string> args, bool gpu) {
  args.insert(args.end(), {"--tests", "4", "--seed", "1"});
  return new_fuzz_params(parse_args(fuzz_subcommand().spec, args), gpu);
}

TEST(FuzzVariants, OnWithAGpuOffCompileOnly) {
  EXPECT_EQ(params_of({}, true).variants, 2u);
  EXPECT_EQ(params_of({}, false).variants, 0u);
  EXPECT_EQ(params_of({"--no-variants"}, true).variants, 0u);
  EXPECT_EQ(params_of({"--variants", "5"}, false).variants, 5u);
  EXPECT_THROW(params_of({"--variants", "9"}, true), Error);
  EXPECT_THROW(params_of({"--variants", "1", "--no-variants"}, true), Error);
}

TEST(FuzzVariants, StoredWithTheCampaign) {
  campaign::FuzzParams params = params_of({"--variants", "3"}, true);
  const boost::json::object json = campaign::fuzz_params_json(params);
  EXPECT_EQ(campaign::fuzz_params_from_json(json).variants, 3u);
  // A record without the key (compile-only, or from before variants) has none.
  params.variants = 0;
  const boost::json::object none = campaign::fuzz_params_json(params);
  EXPECT_FALSE(none.contains("variants"));
  EXPECT_EQ(campaign::fuzz_params_from_json(none).variants, 0u);
}

} // namespace
} // namespace cudiff::cli
