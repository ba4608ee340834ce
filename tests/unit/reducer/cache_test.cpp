// reducer: a property test against random predicates — the reducer never tests a text twice,
// always ends, and returns a text the predicate accepts (syzkaller's minimizer contract).
#include "reducer/reducer.h"

#include "common/common.h"

#include <gtest/gtest.h>

#include <mutex>
#include <random>
#include <set>

using namespace cudiff::reducer;

namespace {

/// A random program-like text: declarations, functions with statements, nested blocks.
std::string random_program(std::mt19937& random) {
  auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  std::string text = "#include <cstdio>\n";
  const int functions = 2 + pick(6);
  for (int f = 0; f < functions; ++f) {
    text += "// function " + std::to_string(f) + "\n";
    text += "__device__ int fn" + std::to_string(f) + "(int a, int b) {\n";
    const int statements = 1 + pick(6);
    for (int s = 0; s < statements; ++s) {
      switch (pick(4)) {
      case 0: text += "  int v" + std::to_string(s) + " = a * " + std::to_string(pick(100)) + " + b;\n"; break;
      case 1:
        text += "  if (a < " + std::to_string(pick(9)) + ") { b = b + " + std::to_string(pick(9)) + "; }\n";
        break;
      case 2:
        text += "  b = fn" + std::to_string(pick(functions)) + "(b, " + std::to_string(2 * pick(8)) + ");\n";
        break;
      default: text += "  for (int i = 0; i < 4; ++i) { a += i; }\n"; break;
      }
    }
    text += "  return a + b;\n}\n";
  }
  return text;
}

/// Interesting: the marker tokens stay, and a hash of the text decides the rest (so the
/// answers look random but are a function of the text, as a real test's are).
struct RandomPredicate {
  std::vector<std::string> markers;
  std::uint64_t salt = 0;
  std::mutex mutex;
  std::multiset<std::uint64_t> seen;  // every text tested, by hash
  std::set<std::string> seen_texts;
  std::size_t calls = 0;

  bool decide(const std::string& text) const {
    for (const auto& marker : markers)
      if (text.find(marker) == std::string::npos) return false;
    return (cudiff::fnv1a64(text) ^ salt) % 3 != 0;
  }

  bool operator()(const std::string& text) {
    {
      std::lock_guard lock(mutex);
      ++calls;
      seen.insert(cudiff::fnv1a64(text));
      seen_texts.insert(text);
    }
    return decide(text);
  }
};

} // namespace

TEST(ReducerProperty, NeverTestsATextTwiceAlwaysEndsAndTheResultIsInteresting) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    std::mt19937 random(seed);
    const std::string input = random_program(random);
    RandomPredicate predicate;
    predicate.markers = {"return", "fn0"};
    predicate.salt = seed * 0x9e3779b97f4a7c15ull;
    if (!predicate.decide(input)) predicate.salt ^= 1;  // the original must be interesting
    if (!predicate.decide(input)) predicate.salt ^= 2;
    ASSERT_TRUE(predicate.decide(input));

    Options options;
    options.jobs = 1 + seed % 3;
    const Result result = reduce(input, [&](const std::string& t) { return predicate(t); }, options);

    EXPECT_TRUE(predicate.decide(result.text)) << "seed " << seed;
    EXPECT_LE(result.text.size(), input.size());
    // No text twice: as many distinct texts as calls.
    EXPECT_EQ(predicate.seen_texts.size(), predicate.calls) << "seed " << seed;
    EXPECT_EQ(result.tests, predicate.calls) << "seed " << seed;
    // Each accepted text is smaller than the one before.
    for (std::size_t i = 1; i < result.accepted.size(); ++i)
      EXPECT_LT(result.accepted[i].size(), result.accepted[i - 1].size());
    EXPECT_EQ(result.accepted.back(), result.text);
  }
}

TEST(ReducerProperty, AnAlwaysYesTestEndsWithAnEmptyishText) {
  std::mt19937 random(7);
  const Result result = reduce(random_program(random), [](const std::string&) { return true; }, Options{});
  EXPECT_LE(result.text.size(), 1u) << result.text;
}

TEST(ReducerProperty, AnAlwaysNoTestIsRefusedForTheOriginal) {
  EXPECT_THROW(reduce("int x;\n", [](const std::string&) { return false; }, Options{}), cudiff::Error);
}

TEST(ReducerCache, ASecondRunOverTheSameTextIsAnsweredFromTheCache) {
  Options options;
  options.schedule = Schedule{{"lines", "lines"}, {}, {}};
  std::size_t calls = 0;
  const Result result = reduce(
      "a\nb\nc\n",
      [&](const std::string& t) {
        ++calls;
        return t == "a\nb\nc\n";
      },
      options);
  EXPECT_EQ(result.text, "a\nb\nc\n");
  // The original, then chunks of 2 (without "a b", without "c") and of 1 (without a, b, c):
  // "without c" comes twice, so the first run tests 4 texts; the second run asks all 5 again.
  EXPECT_EQ(calls, 5u);
  EXPECT_EQ(result.tests, 5u);
  EXPECT_EQ(result.cache_hits, 6u);
  ASSERT_EQ(result.log.size(), 1u);
  EXPECT_EQ(result.log[0].runs, 2u);
  EXPECT_EQ(result.log[0].tests, 4u);
  EXPECT_EQ(result.log[0].cache_hits, 6u);
}
