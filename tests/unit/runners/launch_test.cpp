// Unit: the launch description (runners/launch.h) — the JSON form read, written back and put in
// the executor's line form, and every kind of bad input refused with one line naming its place.
#include "runners/runners.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff;

constexpr const char* kDescription = R"({
  "kernel": "fuzz_kernel",
  "grid": 2,
  "block": [32, 2],
  "shared_bytes": 512,
  "params": [
    {"buffer": "out_ptr", "element_bytes": 4, "count": 128, "fill": "0xdeadbeef", "print": true},
    {"buffer": "in_ptr", "element_bytes": 2, "count": 3, "fill": [1, -1, "0x7fff"]},
    {"scalar": "n", "type": "u32", "value": 32},
    {"scalar": "d", "type": "s16", "value": -2},
    {"scalar": "x", "type": "f32", "value": 1.5}
  ]
})";

TEST(LaunchDescription, ReadsEveryField) {
  const runners::LaunchDescription launch = runners::parse_launch(kDescription);
  EXPECT_EQ(launch.kernel, "fuzz_kernel");
  EXPECT_EQ(launch.grid, (std::array<std::uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(launch.block, (std::array<std::uint32_t, 3>{32, 2, 1}));
  EXPECT_EQ(launch.shared_bytes, 512u);
  ASSERT_EQ(launch.params.size(), 5u);
  const runners::LaunchParam& out = launch.params[0];
  EXPECT_EQ(out.kind, runners::LaunchParam::Kind::buffer);
  EXPECT_EQ(out.count, 128u);
  EXPECT_EQ(out.fill, std::vector<std::uint64_t>{0xdeadbeef});
  EXPECT_TRUE(out.print);
  EXPECT_EQ(out.param_bytes(), 8u);
  // A negative word is two's complement in the element's width.
  EXPECT_EQ(launch.params[1].fill, (std::vector<std::uint64_t>{1, 0xffff, 0x7fff}));
  EXPECT_FALSE(launch.params[1].print);
  EXPECT_EQ(launch.params[2].bits, 32u);
  EXPECT_EQ(launch.params[2].param_bytes(), 4u);
  EXPECT_EQ(launch.params[3].bits, 0xfffeu);
  EXPECT_EQ(launch.params[3].param_bytes(), 2u);
  EXPECT_EQ(launch.params[4].bits, 0x3fc00000u);  // 1.5f
}

TEST(LaunchDescription, JsonRoundTripsAndTheExecutorFormIsLines) {
  const runners::LaunchDescription launch = runners::parse_launch(kDescription);
  EXPECT_EQ(runners::parse_launch(boost::json::serialize(runners::to_json(launch))), launch);
  EXPECT_EQ(runners::executor_text(launch), "kernel fuzz_kernel\n"
                                            "grid 2 1 1\n"
                                            "block 32 2 1\n"
                                            "shared 512\n"
                                            "buffer out_ptr 4 128 1 1 deadbeef\n"
                                            "buffer in_ptr 2 3 0 3 1 ffff 7fff\n"
                                            "scalar n 4 20\n"
                                            "scalar d 2 fffe\n"
                                            "scalar x 4 3fc00000\n");
}

TEST(LaunchDescription, DefaultsAreOneThreadAndAZeroFill) {
  const runners::LaunchDescription launch = runners::parse_launch(
      R"({"kernel": "k", "params": [{"buffer": "b", "count": 1}]})");
  EXPECT_EQ(launch.grid, (std::array<std::uint32_t, 3>{1, 1, 1}));
  EXPECT_EQ(launch.block, (std::array<std::uint32_t, 3>{1, 1, 1}));
  EXPECT_EQ(launch.params[0].element_bytes, 4u);
  EXPECT_EQ(launch.params[0].fill, std::vector<std::uint64_t>{0});
}

TEST(LaunchDescription, BadInputIsOneLineNamingItsPlace) {
  const std::pair<const char*, const char*> cases[] = {
      {"not json", "not JSON"},
      {"[]", "expected an object"},
      {R"({"grid": 1})", "kernel: needs the kernel's name"},
      {R"({"kernel": "k", "colour": 1})", "unknown key \"colour\""},
      {R"({"kernel": "k", "grid": [1, 2, 3, 4]})", "grid: expected 1 to 3 numbers"},
      {R"({"kernel": "k", "grid": [0]})", "grid[0]: 0 is outside"},
      {R"({"kernel": "k", "block": [64, 32]})", "block: 2048 threads, more than 1024"},
      {R"({"kernel": "k", "params": {}})", "params: expected a list"},
      {R"({"kernel": "k", "params": [{"count": 1}]})", "params[0]: needs exactly one of"},
      {R"({"kernel": "k", "params": [{"buffer": "b"}]})", "params[0] (b): needs a count"},
      {R"({"kernel": "k", "params": [{"buffer": "b", "count": 4, "fill": [1, 2, 3]}]})",
       "params[0] (b): fill has 3 words, count is 4"},
      {R"({"kernel": "k", "params": [{"buffer": "b", "count": 1, "element_bytes": 3}]})",
       "element_bytes must be 1, 2, 4 or 8"},
      {R"({"kernel": "k", "params": [{"buffer": "b", "count": 1, "element_bytes": 1, "fill": 256}]})",
       "256 does not fit 1 bytes"},
      {R"({"kernel": "k", "params": [{"buffer": "b", "count": 1, "fill": "0xzz"}]})", "is not a hex word"},
      {R"({"kernel": "k", "params": [{"buffer": "b", "count": 1, "print": 1}]})", "print must be true or false"},
      {R"({"kernel": "k", "params": [{"buffer": "b", "count": 1073741824, "element_bytes": 8}]})", "is outside"},
      {R"({"kernel": "k", "params": [{"scalar": "n", "type": "u31", "value": 1}]})", "type must be one of"},
      {R"({"kernel": "k", "params": [{"scalar": "n", "type": "u32"}]})", "params[0] (n): needs a value"},
      {R"({"kernel": "k", "params": [{"scalar": "n", "type": "u32", "value": -1}]})", "negative value"},
      {R"({"kernel": "k", "params": [{"scalar": "n", "type": "s8", "value": -129}]})", "does not fit 1 bytes"},
      {R"({"kernel": "k", "params": [{"scalar": "n", "type": "u32", "value": true}]})", "expected an integer"},
  };
  for (const auto& [json, expected] : cases) {
    EXPECT_EQ(test::error_kind_of([&] { runners::parse_launch(json); }), ErrorKind::usage) << json;
    const std::string message = test::error_message_of([&] { runners::parse_launch(json); });
    EXPECT_TRUE(test::contains(message, expected)) << json << " -> " << message;
    EXPECT_TRUE(message.starts_with("launch description: ")) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(LaunchDescription, AFileThatCannotBeReadIsAnEnvironmentError) {
  EXPECT_EQ(test::error_kind_of([] { runners::read_launch("/nonexistent/launch.json"); }), ErrorKind::environment);
  TempDir dir("cudiff-launch");
  write_file(dir.path() / "bad.json", R"({"kernel": 1})");
  const std::string message = test::error_message_of([&] { runners::read_launch(dir.path() / "bad.json"); });
  EXPECT_TRUE(test::contains(message, "bad.json: launch description: kernel")) << message;
}

} // namespace
