// `cudiff fuzz --reduce-share SHARE`: a fraction or a percentage, bounded, the default when
// absent, and kept in the stored campaign for --resume.
#include "campaign/campaign.h"
#include "cli/commands.h"
#include "cli/options.h"

#include <gtest/gtest.h>

namespace cudiff::cli {
namespace {

campaign::FuzzParams params_of(std::vector<std::string> args) {
  args.insert(args.end(), {"--tests", "4", "--seed", "1"});
  return new_fuzz_params(parse_args(fuzz_subcommand().spec, args), false);
}

TEST(FuzzReduceShare, AFractionOrAPercentageWithADefault) {
  EXPECT_EQ(params_of({}).reduce_share, campaign::kDefaultReduceShare);
  EXPECT_EQ(params_of({"--reduce-share", "0.4"}).reduce_share, 0.4);
  EXPECT_EQ(params_of({"--reduce-share", "40%"}).reduce_share, 0.4);
  EXPECT_EQ(params_of({"--reduce-share", "0"}).reduce_share, 0);
  for (const char* bad : {"0.95", "95%", "-0.1", "a quarter", "0.25x", "", "%"})
    EXPECT_THROW(params_of({"--reduce-share", bad}), Error) << bad;
}

TEST(FuzzReduceShare, StoredWithTheCampaign) {
  const campaign::FuzzParams params = params_of({"--reduce-share", "10%"});
  EXPECT_EQ(campaign::fuzz_params_from_json(campaign::fuzz_params_json(params)).reduce_share, 0.1);
}

} // namespace
} // namespace cudiff::cli
