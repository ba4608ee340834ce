// reducer: the size in C tokens and the text units the passes cut (statements, pairs, lists, names);
// the tokens themselves are tested in tests/unit/common/cpp_lexer_test.cpp.
#include "reducer/reducer.h"
#include "reducer/text_units.h"

#include <gtest/gtest.h>

using namespace cudiff::reducer;

namespace {

std::vector<std::string> statement_texts(std::string_view text, std::size_t depth) {
  const auto tokens = tokenize(text);
  std::vector<std::string> out;
  for (const Statement& s : statements_at(text, tokens, depth)) {
    const Range r = range_of(tokens, s.first, s.last);
    out.emplace_back(text.substr(r.begin, r.end - r.begin));
  }
  return out;
}

} // namespace

TEST(ReducerLexer, CountsCTokensWithoutComments) {
  EXPECT_EQ(count_tokens("#include <cstdio>\nint main() { return 0; } // x"), 5u + 9u);
  EXPECT_EQ(count_tokens("/* only a comment */"), 0u);
}

TEST(ReducerUnits, StatementsByDepth) {
  const std::string text = "#include <a>\n"
                           "struct S { int a; float b; };\n"
                           "int g = 1, h = {2};\n"
                           "__global__ void k(int* p) { if (p) { p[0] = 1; } else { p[1] = 2; } for (;;) break; }\n"
                           "namespace n { int v; }\n"
                           "do { g++; } while (g < 3);\n";
  EXPECT_EQ(
      statement_texts(text, 0),
      (std::vector<std::string>{"#include <a>", "struct S { int a; float b; };", "int g = 1, h = {2};",
                                "__global__ void k(int* p) { if (p) { p[0] = 1; } else { p[1] = 2; } for (;;) break; }",
                                "namespace n { int v; }", "do { g++; } while (g < 3);"}));
  EXPECT_EQ(statement_texts(text, 1),
            (std::vector<std::string>{"int a;", "float b;", "2", "if (p) { p[0] = 1; } else { p[1] = 2; }",
                                      "for (;;) break;", "int v;", "g++;"}));
  EXPECT_EQ(statement_texts(text, 2), (std::vector<std::string>{"p[0] = 1;", "p[1] = 2;"}));
}

TEST(ReducerUnits, BalancedPairsIncludeTemplatesAndLaunches) {
  const std::string text = "template <typename T> void f() { g<int, T>(a < b, c); k<<<1, 2>>>(x[0]); }";
  const auto tokens = tokenize(text);
  std::vector<std::string> pairs;
  for (const Pair& pair : balanced_pairs(text, tokens)) {
    const Range r = range_of(tokens, pair.open, pair.close);
    pairs.push_back(std::string(1, pair.kind) + " " + text.substr(r.begin, r.end - r.begin));
  }
  EXPECT_EQ(pairs, (std::vector<std::string>{"< <typename T>", "( ()", "{ { g<int, T>(a < b, c); k<<<1, 2>>>(x[0]); }",
                                             "< <int, T>", "( (a < b, c)", "L <<<1, 2>>>", "( (x[0])", "[ [0]"}));
}

TEST(ReducerUnits, ListElementsSkipNestedCommas) {
  const std::string text = "f(a, g(b, c), {d, e})";
  const auto tokens = tokenize(text);
  const auto pairs = balanced_pairs(text, tokens);
  std::vector<std::string> elements;
  for (const Statement& e : list_elements(text, tokens, pairs.front(), pairs)) {
    const Range r = range_of(tokens, e.first, e.last);
    elements.emplace_back(text.substr(r.begin, r.end - r.begin));
  }
  EXPECT_EQ(elements, (std::vector<std::string>{"a", "g(b, c)", "{d, e}"}));
}

TEST(ReducerUnits, DeclaredNames) {
  auto name = [](std::string_view text) {
    const auto tokens = tokenize(text);
    return declared_name(text, tokens, Statement{0, tokens.size() - 1}).value_or("-");
  };
  EXPECT_EQ(name("__global__ void kernel(int* p) { }"), "kernel");
  EXPECT_EQ(name("template <typename T> __device__ T twice(T x) { return x + x; }"), "twice");
  EXPECT_EQ(name("static const int table[4] = {1, 2, 3, 4};"), "table");
  EXPECT_EQ(name("struct Pair { int a; };"), "Pair");
  EXPECT_EQ(name("enum class Color : int { red };"), "Color");
  EXPECT_EQ(name("using Index = int;"), "Index");
  EXPECT_EQ(name("typedef unsigned long long u64;"), "u64");
  EXPECT_EQ(name("#define WIDTH 32"), "WIDTH");
  EXPECT_EQ(name("int main() { return 0; }"), "-");
  EXPECT_EQ(name("f(x);"), "-");
  EXPECT_EQ(name("x = 3;"), "-");
  EXPECT_EQ(name("std::printf(\"%d\", 1);"), "-");
  EXPECT_EQ(name("return x;"), "-");
}

TEST(ReducerUnits, RemovingAStatementAloneOnItsLineTakesTheLine) {
  const std::string text = "int a;\n  int b;\nint c; int d;\n";
  EXPECT_EQ(remove_ranges(text, {{9, 15}}), "int a;\nint c; int d;\n");
  EXPECT_EQ(remove_ranges(text, {{23, 29}}), "int a;\n  int b;\nint c; \n");
  // Never glue two tokens into one.
  EXPECT_EQ(remove_ranges("a b c", {{2, 3}}), "a  c");
  EXPECT_EQ(remove_ranges("a(b)c", {{1, 4}}), "a c");
  EXPECT_EQ(remove_ranges("a+b+c", {{2, 3}}), "a+ +c");
}
