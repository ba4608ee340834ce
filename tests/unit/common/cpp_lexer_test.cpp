// common: the C++/CUDA tokenizer (common/cpp_lexer.h), read as written (the reducer's cuts and
// size measure) and as the preprocessor reads directives (ubscan).
#include "common/cpp_lexer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace cudiff::cpp;

namespace {

std::vector<std::string> spellings(std::string_view text, const LexOptions& options = {}) {
  std::vector<std::string> out;
  for (const Token& token : tokenize(text, options)) out.emplace_back(token.text(text));
  return out;
}

constexpr LexOptions kPreprocessor{.preprocessor = true};

} // namespace

TEST(CppLexer, SplitsCudaCodeIntoTokens) {
  EXPECT_EQ(spellings("k<<<1, 2>>>(a->b, x >>= 1);"),
            (std::vector<std::string>{"k", "<<<", "1", ",", "2", ">>>", "(", "a", "->", "b", ",", "x", ">>=", "1", ")",
                                      ";"}));
  EXPECT_EQ(spellings("float f = 1.5e-3f + .5; auto s = u8\"x\\\"y\"; char c = '\\'';"),
            (std::vector<std::string>{"float", "f", "=", "1.5e-3f", "+", ".5", ";", "auto", "s", "=", "u8\"x\\\"y\"",
                                      ";", "char", "c", "=", "'\\''", ";"}));
}

TEST(CppLexer, DirectivesAndCommentsAreOneTokenEach) {
  const std::string text = "#include <cstdio>\n#define M(a) \\\n  (a + 1)\nint x; // note\n/* block\n */ int y;";
  const auto tokens = tokenize(text);
  ASSERT_EQ(tokens.size(), 10u);
  EXPECT_EQ(tokens[0].kind, TokenKind::directive);
  EXPECT_EQ(tokens[1].kind, TokenKind::directive);
  EXPECT_EQ(tokens[1].text(text), "#define M(a) \\\n  (a + 1)");
  EXPECT_EQ(tokens[5].kind, TokenKind::comment);
  EXPECT_EQ(tokens[6].kind, TokenKind::comment);
}

TEST(CppLexer, NeverFailsOnBrokenText) {
  EXPECT_EQ(spellings("\"unterminated\nint").size(), 2u);
  EXPECT_EQ(spellings("/* open").size(), 1u);
  EXPECT_EQ(spellings("R\"x(raw )\" still)x\" y"), (std::vector<std::string>{"R\"x(raw )\" still)x\"", "y"}));
  EXPECT_TRUE(spellings("").empty());
}

TEST(CppLexer, EachTokenKnowsItsLine) {
  const std::string text = "int a;\n/* two\nlines */ int b;\n#define M \\\n  1\nR\"(x\ny)\" c;";
  std::vector<std::pair<std::string, int>> lines;
  for (const Token& token : tokenize(text)) lines.emplace_back(token.text(text), token.line);
  EXPECT_EQ(lines, (std::vector<std::pair<std::string, int>>{{"int", 1},
                                                             {"a", 1},
                                                             {";", 1},
                                                             {"/* two\nlines */", 2},
                                                             {"int", 3},
                                                             {"b", 3},
                                                             {";", 3},
                                                             {"#define M \\\n  1", 4},
                                                             {"R\"(x\ny)\"", 6},
                                                             {"c", 7},
                                                             {";", 7}}));
}

TEST(CppLexer, AnOpenLiteralEndsBeforeItsNewline) {
  const std::string text = "#if 0\nit's\n#endif\nint x;";
  const std::vector<Token> tokens = tokenize(text);
  ASSERT_EQ(tokens.size(), 7u);
  EXPECT_EQ(tokens[2].text(text), "'s");
  EXPECT_EQ(tokens[3].kind, TokenKind::directive);
  EXPECT_EQ(tokens[3].line, 3);
}

TEST(CppLexer, AsWrittenADirectiveEndsAtItsFirstNewline) {
  EXPECT_EQ(spellings("#define A /* x\n */ 1"), (std::vector<std::string>{"#define A /* x", "*", "/", "1"}));
  EXPECT_EQ(spellings("/* c */ #define A"), (std::vector<std::string>{"/* c */", "#", "define", "A"}));
  EXPECT_EQ(spellings("p.*q ## r"), (std::vector<std::string>{"p", ".", "*", "q", "#", "#", "r"}));
  EXPECT_EQ(spellings("#a\n#b", LexOptions{.at_line_start = false}), (std::vector<std::string>{"#", "a", "#b"}));
}

TEST(CppLexer, ThePreprocessorsReadingOfDirectives) {
  EXPECT_EQ(spellings("#define A /* x\n */ 1\nint", kPreprocessor),
            (std::vector<std::string>{"#define A /* x\n */ 1", "int"}));
  EXPECT_EQ(spellings("#define A // x\nint", kPreprocessor), (std::vector<std::string>{"#define A // x", "int"}));
  EXPECT_EQ(spellings("#define A \\\r\n 1\r\nint", kPreprocessor),
            (std::vector<std::string>{"#define A \\\r\n 1\r", "int"}));
  EXPECT_EQ(spellings("/* c */ #define A\nint", kPreprocessor),
            (std::vector<std::string>{"/* c */", "#define A", "int"}));
  EXPECT_EQ(spellings("x /* c\n */ #define A", kPreprocessor),
            (std::vector<std::string>{"x", "/* c\n */", "#", "define", "A"}));
  EXPECT_EQ(spellings("p.*q ## r ->* s", kPreprocessor),
            (std::vector<std::string>{"p", ".*", "q", "##", "r", "->*", "s"}));
}

TEST(CppLexer, TokensAreOrderedNonEmptyAndInsideTheText) {
  constexpr std::string_view alphabet = "{}()[]<>;:,.=*&+-!?#\"'/\\ \n\rabcR0129_";
  std::string noise;
  std::uint64_t state = 99;
  for (int i = 0; i < 5000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    noise += alphabet[(state >> 33) % alphabet.size()];
  }
  for (bool preprocessor : {false, true}) {
    std::size_t previous_end = 0;
    int previous_line = 1;
    for (const Token& token : tokenize(noise, LexOptions{.preprocessor = preprocessor})) {
      EXPECT_GE(token.begin, previous_end);
      EXPECT_LT(token.begin, token.end);
      EXPECT_LE(token.end, noise.size());
      EXPECT_GE(token.line, previous_line);
      previous_end = token.end;
      previous_line = token.line;
    }
  }
}
