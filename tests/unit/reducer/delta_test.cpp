// reducer: delta debugging at shrinking granularity — finds what matters in few tests and
// leaves a result from which no single unit can be removed (1-minimal).
#include "reducer/reducer.h"

#include <gtest/gtest.h>

#include <set>

using namespace cudiff::reducer;

namespace {

std::string numbered_lines(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "line" + std::to_string(i) + "\n";
  return text;
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(ReducerDelta, FindsTwoNeededLinesOutOf64InFewTests) {
  std::size_t tests = 0;
  auto interesting = [&](const std::string& t) {
    ++tests;
    return has(t, "line3\n") && has(t, "line17\n");
  };
  EXPECT_EQ(run_pass(*make_pass("lines"), numbered_lines(64), interesting), "line3\nline17\n");
  // ddmin needs O(k log n) tests for k needed units; a line at a time would need 62.
  EXPECT_LE(tests, 40u);
}

TEST(ReducerDelta, TokenResultIsOneMinimal) {
  // No brackets: the tokens pass leaves those to the blocks pass.
  const std::string input = "int a = 1 ; int b = a + 2 ; return b * 3 ;\n";
  // Interesting: an 'a' before a '+' and a '3' somewhere after it.
  auto interesting = [](const std::string& t) {
    const auto a = t.find(" a "), plus = t.find('+'), three = t.find('3');
    return a != std::string::npos && plus != std::string::npos && three != std::string::npos && a < plus &&
           plus < three;
  };
  const std::string result = run_pass(*make_pass("tokens"), input, interesting);
  EXPECT_TRUE(interesting(result)) << result;
  const auto tokens = tokenize(result);
  EXPECT_EQ(tokens.size(), 3u) << result;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::string without = result;
    without.erase(tokens[i].begin, tokens[i].end - tokens[i].begin);
    EXPECT_FALSE(interesting(without)) << "token " << i << " of '" << result << "' is not needed";
  }
}

TEST(ReducerDelta, HierarchicalLevelsGoOutermostFirst) {
  // Level 0 removes whole functions, so the inner statements of removed functions are never
  // tried one by one.
  std::string input;
  for (int f = 0; f < 16; ++f) {
    input += "void f" + std::to_string(f) + "() {\n";
    for (int s = 0; s < 8; ++s) input += "  int v" + std::to_string(f) + "_" + std::to_string(s) + ";\n";
    input += "}\n";
  }
  std::size_t tests = 0;
  auto interesting = [&](const std::string& t) {
    ++tests;
    return has(t, "int v9_4;");
  };
  EXPECT_EQ(run_pass(*make_pass("hdd"), input, interesting), "void f9() {\n  int v9_4;\n}\n");
  EXPECT_LE(tests, 20u);
}

TEST(ReducerDelta, CursorsWalkChunksThenHalveThem) {
  const auto pass = make_pass("lines");
  const std::string text = numbered_lines(8);
  auto cursor = pass->start(text);
  std::vector<std::pair<std::size_t, std::size_t>> walk;  // (chunk, index) while nothing is accepted
  while (cursor) {
    walk.emplace_back(cursor->chunk, cursor->index);
    cursor = pass->advance(text, *cursor);
  }
  EXPECT_EQ(walk, (std::vector<std::pair<std::size_t, std::size_t>>{{4, 0},
                                                                    {4, 4},
                                                                    {2, 0},
                                                                    {2, 2},
                                                                    {2, 4},
                                                                    {2, 6},
                                                                    {1, 0},
                                                                    {1, 1},
                                                                    {1, 2},
                                                                    {1, 3},
                                                                    {1, 4},
                                                                    {1, 5},
                                                                    {1, 6},
                                                                    {1, 7}}));
}
