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

// A test's kernels go to the executor in one request (one load of the module): each description
// from its own kernel line, in order, so the executor starts a new one at every `kernel`.
TEST(LaunchDescription, SeveralDescriptionsAreOneFileEachFromItsKernelLine) {
  runners::LaunchDescription first = runners::parse_launch(
      R"({"kernel": "a", "params": [{"scalar": "n", "type": "u8", "value": 1}]})");
  runners::LaunchDescription second = runners::parse_launch(R"({"kernel": "b", "grid": 3})");
  EXPECT_EQ(runners::executor_text(std::vector{first, second}),
            runners::executor_text(first) + runners::executor_text(second));
  EXPECT_EQ(runners::executor_text(std::vector{first, second}),
            "kernel a\ngrid 1 1 1\nblock 1 1 1\nshared 0\nscalar n 1 1\n"
            "kernel b\ngrid 3 1 1\nblock 1 1 1\nshared 0\n");
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

// A struct by value (a core kernel's __grid_constant__ struct): its bytes as the kernel receives
// them, padding included, in the JSON form and the executor's line.
TEST(LaunchDescription, ABytesParameterIsAStructByValue) {
  const runners::LaunchDescription launch = runners::parse_launch(
      R"({"kernel": "k", "params": [{"bytes": "gc", "size": 12, "data": "01000000ffff0000020000ab"}]})");
  ASSERT_EQ(launch.params.size(), 1u);
  const runners::LaunchParam& gc = launch.params[0];
  EXPECT_EQ(gc.kind, runners::LaunchParam::Kind::bytes);
  EXPECT_EQ(gc.name, "gc");
  EXPECT_EQ(gc.param_bytes(), 12u);
  EXPECT_EQ(gc.data, (std::vector<std::uint8_t>{1, 0, 0, 0, 0xff, 0xff, 0, 0, 2, 0, 0, 0xab}));
  EXPECT_EQ(runners::parse_launch(boost::json::serialize(runners::to_json(launch))), launch);
  EXPECT_EQ(runners::executor_text(launch),
            "kernel k\ngrid 1 1 1\nblock 1 1 1\nshared 0\nbytes gc 12 01000000ffff0000020000ab\n");
  const std::pair<const char*, const char*> cases[] = {
      {R"({"kernel": "k", "params": [{"bytes": "gc", "data": "00"}]})", "params[0] (gc): needs a size"},
      {R"({"kernel": "k", "params": [{"bytes": "gc", "size": 2, "data": "00"}]})",
       "data has 2 hex digits, size 2 needs 4"},
      {R"({"kernel": "k", "params": [{"bytes": "gc", "size": 1, "data": "zz"}]})", "data is not hex digits"},
      {R"({"kernel": "k", "params": [{"bytes": "gc", "size": 1}]})", "needs data"},
      {R"({"kernel": "k", "params": [{"bytes": "gc", "size": 0, "data": ""}]})", "0 is outside"},
      {R"({"kernel": "k", "params": [{"bytes": "gc", "size": 1, "data": "00", "fill": 0}]})", "unknown key \"fill\""},
      {R"({"kernel": "k", "params": [{"bytes": "gc", "scalar": "n", "size": 1, "data": "00"}]})",
       "needs exactly one of"},
  };
  for (const auto& [json, expected] : cases) {
    const std::string message = test::error_message_of([&] { runners::parse_launch(json); });
    EXPECT_TRUE(test::contains(message, expected)) << json << " -> " << message;
  }
}

// A generated kernel's launch plan: symbols set before the launch, the device stack, and a
// checksum line folded over a buffer and the symbols.
constexpr const char* kPlan = R"({
  "kernel": "_ZN12cudiff_dense7dense_0EPy",
  "grid": [2, 1, 1],
  "block": [64, 1, 1],
  "params": [{"buffer": "out", "element_bytes": 8, "count": 512}],
  "stack_bytes": 4096,
  "symbols": [{"symbol": "_ZN12cudiff_dense14dense_0_atom32E", "element_bytes": 4, "count": 2, "fill": [1, "0x2"]}],
  "checksums": [{"label": "s7/dense_0", "fold": ["out", "_ZN12cudiff_dense14dense_0_atom32E"]}]
})";

TEST(LaunchDescription, APlanReadsItsSymbolsStackAndChecksums) {
  const runners::LaunchDescription plan = runners::parse_launch(kPlan);
  EXPECT_EQ(plan.stack_bytes, 4096u);
  ASSERT_EQ(plan.symbols.size(), 1u);
  EXPECT_EQ(plan.symbols[0].name, "_ZN12cudiff_dense14dense_0_atom32E");
  EXPECT_EQ(plan.symbols[0].element_bytes, 4u);
  EXPECT_EQ(plan.symbols[0].fill, (std::vector<std::uint64_t>{1, 2}));
  ASSERT_EQ(plan.checksums.size(), 1u);
  EXPECT_EQ(plan.checksums[0].label, "s7/dense_0");
  EXPECT_EQ(plan.checksums[0].fold, (std::vector<std::string>{"out", "_ZN12cudiff_dense14dense_0_atom32E"}));
  EXPECT_EQ(runners::parse_launch(boost::json::serialize(runners::to_json(plan))), plan);
  EXPECT_EQ(runners::executor_text(plan), "kernel _ZN12cudiff_dense7dense_0EPy\n"
                                          "grid 2 1 1\n"
                                          "block 64 1 1\n"
                                          "shared 0\n"
                                          "buffer out 8 512 0 1 0\n"
                                          "stack 4096\n"
                                          "symbol _ZN12cudiff_dense14dense_0_atom32E 4 2 2 1 2\n"
                                          "checksum s7/dense_0 2 out _ZN12cudiff_dense14dense_0_atom32E\n");
  // A description without the extensions is written as it always was.
  const runners::LaunchDescription plain = runners::parse_launch(kDescription);
  EXPECT_FALSE(test::contains(boost::json::serialize(runners::to_json(plain)), "stack_bytes"));
  EXPECT_FALSE(test::contains(boost::json::serialize(runners::to_json(plain)), "checksums"));
}

TEST(LaunchDescription, TheFoldIsTheHarnessesCudiffFoldAndItsLine) {
  // cudiff_fold of the generated programs' preamble (generator/core/emit_helpers.cpp), by hand.
  std::uint64_t hash = 1469598103934665603ull;
  const std::vector<std::uint64_t> words = {0, 1, 0xffffffffffffffffull, 0x5bd1e995u};
  for (std::uint64_t w : words) {
    hash ^= w;
    hash *= 1099511628211ull;
  }
  EXPECT_EQ(runners::cudiff_fold(words), hash);
  EXPECT_EQ(runners::cudiff_fold({}), 1469598103934665603ull);
  // printf("checksum dense_0 %016llx\n", ...): 16 lowercase digits, zero-padded.
  EXPECT_EQ(runners::checksum_line("dense_0", 0xabcull), "checksum dense_0 0000000000000abc");
  EXPECT_EQ(runners::checksum_line("s9/dense_1", 0xFEDCBA9876543210ull), "checksum s9/dense_1 fedcba9876543210");
}

TEST(LaunchDescription, BadPlansAreOneLineNamingTheirPlace) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"kernel": "k", "symbols": {}})", "symbols: expected a list"},
      {R"({"kernel": "k", "symbols": [{"count": 1}]})", "symbols[0]: needs the symbol's name"},
      {R"({"kernel": "k", "symbols": [{"symbol": "s"}]})", "symbols[0] (s): needs a count"},
      {R"({"kernel": "k", "symbols": [{"symbol": "s", "count": 2, "fill": [1]}]})", "fill has 1 words, count is 2"},
      {R"({"kernel": "k", "symbols": [{"symbol": "s", "count": 1, "print": true}]})", "unknown key \"print\""},
      {R"({"kernel": "k", "params": [{"buffer": "s", "count": 1}], "symbols": [{"symbol": "s", "count": 1}]})",
       "the name s is taken"},
      {R"({"kernel": "k", "checksums": [{"label": "x", "fold": ["nothing"]}]})",
       "fold names \"nothing\", which is no buffer or symbol"},
      {R"({"kernel": "k", "checksums": [{"label": "a b", "fold": []}]})", "the label must have no blanks"},
      {R"({"kernel": "k", "checksums": [{"fold": []}]})", "needs a label"},
      {R"({"kernel": "k", "stack_bytes": -1})", "stack_bytes: expected a whole number"},
  };
  for (const auto& [json, expected] : cases) {
    const std::string message = test::error_message_of([&] { runners::parse_launch(json); });
    EXPECT_TRUE(test::contains(message, expected)) << json << " -> " << message;
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
