// reducer: each pass on golden input/output pairs (clang_delta's tests/ in spirit): the
// input, the test the candidates must pass, and what the pass leaves when run to its end.
#include "reducer/passes.h"
#include "reducer/reducer.h"

#include "common/common.h"

#include <gtest/gtest.h>

using namespace cudiff::reducer;

namespace {

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

std::string run(std::string_view pass, const std::string& input, const Interesting& interesting) {
  return run_pass(*make_pass(pass), input, interesting);
}

bool always(const std::string&) { return true; }

} // namespace

TEST(ReducerPasses, CommentsGoAllAtOnce) {
  EXPECT_EQ(run("comments", "int a; // x\n/* y */\nint b; /* z */ int c;\n", always), "int a; \nint b;  int c;\n");
}

TEST(ReducerPasses, WhitespaceDropsIndentationAndBlankLinesButKeepsNewlines) {
  EXPECT_EQ(run("whitespace", "int f() {\n    return 1;   \n\n}\n", always), "int f() {\nreturn 1;\n}\n");
}

TEST(ReducerPasses, IncludesThatAreNotNeededGo) {
  const std::string input = "#include <cstdio>\n#include <vector>\n#include \"local.h\"\nstd::vector<int> v;\n";
  EXPECT_EQ(run("includes", input, [](const std::string& t) { return has(t, "<vector>"); }),
            "#include <vector>\nstd::vector<int> v;\n");
}

TEST(ReducerPasses, UsesRemovesADeclarationWithTheStatementsThatUseIt) {
  // A generated program's shape: each test a namespace, called from main.
  const std::string input = "namespace t0 {\nvoid run() { int a; }\n}\nnamespace t1 {\nvoid run() { int b; }\n}\n"
                            "int g;\nint main() {\n  t0::run();\n  t1::run();\n  g = 1;\n  return g;\n}\n";
  EXPECT_EQ(run("uses", input, [](const std::string& t) { return has(t, "int b;") && has(t, "g = 1;"); }),
            "namespace t1 {\nvoid run() { int b; }\n}\nint g;\nint main() {\n  t1::run();\n  g = 1;\n  return g;\n}\n");
  // `g` is used in `return g;` too, which is simple: g goes with all three statements when allowed.
  EXPECT_EQ(run("uses", input, [](const std::string& t) { return has(t, "int b;"); }),
            "namespace t1 {\nvoid run() { int b; }\n}\nint main() {\n  t1::run();\n}\n");
}

TEST(ReducerPasses, UsesLeavesDeclarationsUsedOutsideSimpleStatements) {
  // f is used in an if condition and in another declaration: no group for it.
  const std::string input = "int f();\nint h = f();\nvoid k() {\n  if (f()) {\n    f();\n  }\n}\n";
  const auto groups = declarations_with_uses(input, 0);
  for (const auto& group : groups)
    EXPECT_NE(input.substr(group.front().begin, group.front().end - group.front().begin), "int f();");
  // Nor is the element list of a braced initializer a statement that uses T.
  const std::string probe = "enum T : char { t0 };\nunsigned long long probe[] = {sizeof(T), alignof(T)};\n";
  EXPECT_TRUE(declarations_with_uses(probe, 0).empty());
}

TEST(ReducerPasses, HddRemovesStatementsOutermostFirst) {
  const std::string input = "namespace n {\nint a;\nint b;\nvoid f() {\n  int c;\n  int d;\n}\n}\nint e;\n";
  EXPECT_EQ(run("hdd", input, [](const std::string& t) { return has(t, "int d;"); }),
            "namespace n {\nvoid f() {\n  int d;\n}\n}\n");
}

TEST(ReducerPasses, UnusedDeclarationsAndMacrosGo) {
  const std::string input = "#define N 4\n#define M 5\nint used = M;\nstatic int unused_helper(int x) { return x; }\n"
                            "struct Pair { int a; };\nvoid f() { int local = 1; int kept = used; g(kept); }\n";
  EXPECT_EQ(run("unused", input, [](const std::string& t) { return has(t, "g(kept)"); }),
            "#define M 5\nint used = M;\nvoid f() {  int kept = used; g(kept); }\n");
}

TEST(ReducerPasses, UnusedDeclarationsGoAllAtOnceButKernelsFirst) {
  const std::string input = "static int a[2] = {1, 2};\nstatic int b = 3;\n__global__ void k(int* p) { *p = 1; }\n";
  const std::vector<Edit> edits = unused_declaration_edits(input);
  ASSERT_EQ(edits.size(), 4u);  // the group, then each of a, b and k alone
  EXPECT_EQ(cudiff::reducer::apply(input, edits.front()), "__global__ void k(int* p) { *p = 1; }\n");
  // One unused declaration is no group.
  EXPECT_EQ(unused_declaration_edits("static int b = 3;\n__global__ void k(int* p) { *p = 1; }\n").size(), 2u);
}

TEST(ReducerPasses, BlocksLoseContentsOrBrackets) {
  const std::string input = "int f(int a) { return (a + 1); }\nint g() { return f(2); }\n";
  // A function body never loses just its braces, a call never just its parentheses.
  EXPECT_EQ(run("blocks", input, [](const std::string& t) { return has(t, "a + 1") && has(t, "int f("); }),
            "int f() { return a + 1; }\nint g \n");
  // The body of a control statement may.
  EXPECT_EQ(run("blocks", "void h(int x) { if (x) { k(); } }\n",
                [](const std::string& t) { return has(t, "if (x)") && has(t, "k();") && !has(t, "{ k"); }),
            "void h(int x) { if (x)  k();  }\n");
  // Wrappers unwrap, head and braces together.
  EXPECT_EQ(run("blocks", "namespace n {\nint a;\n}\nextern \"C\" { int b; }\n",
                [](const std::string& t) { return has(t, "int a;") && has(t, "int b;"); }),
            "int a;\n int b; \n");
}

TEST(ReducerPasses, CommasRemoveListElementsWithTheirComma) {
  const std::string input = "void h() { g(a, b, c); int v[] = {1, 2, 3}; k<<<1, 2, 0, s>>>(); }\n";
  // Each element alone first: `{1}` is kept alone before single removals would leave `{3}`.
  EXPECT_EQ(run("commas", input, [](const std::string& t) { return has(t, "b") && has(t, "2") && has(t, "<<<1"); }),
            "void h() { g(b); int v[] = {1}; k<<<1, 2>>>(); }\n");
}

TEST(ReducerPasses, ArgumentsGoWithTheirParameters) {
  const std::string input = "__device__ int f(int a, float b, int c) { return a + c; }\n"
                            "__global__ void k(int* out, int n) { out[0] = f(n, 2.0f, f(1, 0.5f, 3)); }\n"
                            "int main() { k<<<1, 1>>>(nullptr, 4); }\n";
  // Stand-in for a compiler: the parameter list of f and every call of it agree in length.
  auto same_arity = [](const std::string& t) {
    return has(t, "return a + c;") && has(t, "k(int* out") && has(t, "__global__") &&
           ((has(t, "f(int a, int c)") && has(t, "f(n, f(1, 3))")) ||
            (has(t, "f(int a, float b, int c)") && has(t, "f(n, 2.0f, f(1, 0.5f, 3))")));
  };
  EXPECT_EQ(run("arguments", input, same_arity), "__device__ int f(int a, int c) { return a + c; }\n"
                                                 "__global__ void k(int* out) { out[0] = f(n, f(1, 3)); }\n"
                                                 "int main() { k<<<1, 1>>>(nullptr); }\n");
}

TEST(ReducerPasses, SimplifyKeepsABranchOrTheValueOfADeclaration) {
  const std::string input =
      "void f(int n) {\n  if (n > 2) { g(1); } else { g(2); }\n  for (int i = 0; i < n; ++i) h(i);\n"
      "  int unused = k(n);\n}\n";
  EXPECT_EQ(run("simplify", input,
                [](const std::string& t) { return has(t, "g(2)") && has(t, "h(") && has(t, "k(n)"); }),
            "void f(int n) {\n   { g(2); }\n   h(i);\n   k(n);\n}\n");
}

TEST(ReducerPasses, LinesAreDeltaDebugged) {
  EXPECT_EQ(run("lines", "a\nb\nc\nd\ne\nf\ng\n", [](const std::string& t) { return has(t, "b") && has(t, "f"); }),
            "b\nf\n");
}

TEST(ReducerPasses, TokensAreDeltaDebugged) {
  EXPECT_EQ(run("tokens", "int x = (1 + 2) * 3;\n", [](const std::string& t) { return has(t, "2") && has(t, "int"); }),
            "int   (  2)  \n");  // brackets go in pairs, in the blocks pass
}

TEST(ReducerPasses, ConstantsFoldAndShrink) {
  EXPECT_EQ(run("constants", "int a[2 * 16]; int b = 100 + cc; k<<<4, 256>>>(x, 1.5f);\n", always),
            "int a[0]; int b = 0 + 0; k<<<4, 0>>>(x, 0);\n");
  // A use of a name as 0: what unties a declaration from its own initializer.
  // (Only smaller candidates are tested, so only names longer than one character.)
  EXPECT_EQ(run("constants", "long bins;\nvoid b() { int count = (bins, static_cast<long>(count)); }\n",
                [](const std::string& t) { return has(t, "(bins,"); }),
            "long bins;\nvoid b() { int count = (bins, static_cast<long>(0)); }\n");
  EXPECT_EQ(run("constants", "int a[2 * 16];\n", [](const std::string& t) { return !has(t, "[0]") && !has(t, "[1]"); }),
            "int a[32];\n");
  // A launch bound stays: 0 there is no reduction.
  EXPECT_EQ(run("constants", "__global__ void __launch_bounds__(32, 2 * 2) k() { int x = 77; }\n", always),
            "__global__ void __launch_bounds__(32, 2 * 2) k() { int x = 0; }\n");
}

TEST(ReducerPasses, RenameGivesTheFilesOwnNamesShortOnes) {
  const std::string input =
      "struct Point { int xcoord; };\n"
      "__global__ void kernel(Point* points, int count) { points[count].xcoord = threadIdx.x; printf(\"%d\", count); }\n";
  EXPECT_EQ(run("rename", input, always),
            "struct a { int b; };\n"
            "__global__ void c(a* d, int e) { d[e].b = threadIdx.x; printf(\"%d\", e); }\n");
}

TEST(ReducerPasses, HostRemovesEveryHostOnlyFunctionAtOnce) {
  const std::string input = "#include <cstdio>\n"
                            "static void check(int x) { if (x) printf(\"x\"); }\n"
                            "namespace n {\n"
                            "__device__ int f(int a) { return a + 1; }\n"
                            "void run() { check(1); }\n"
                            "struct S { void m() {} };\n"
                            "}\n"
                            "__global__ void __launch_bounds__(64) k(int* p) { *p = n::f(1); }\n"
                            "__host__ __device__ int g() { return 2; }\n"
                            "int main() { n::run(); return 0; }\n";
  const std::vector<Edit> edits = host_function_edits(input);
  ASSERT_EQ(edits.size(), 1u);  // one edit: the host side goes together or not at all
  EXPECT_EQ(run("host", input, always), "#include <cstdio>\n"
                                        "namespace n {\n"
                                        "__device__ int f(int a) { return a + 1; }\n"
                                        "struct S { void m() {} };\n"
                                        "}\n"
                                        "__global__ void __launch_bounds__(64) k(int* p) { *p = n::f(1); }\n"
                                        "__host__ __device__ int g() { return 2; }\n");
  // A test that needs the host side keeps all of it.
  EXPECT_EQ(run("host", input, [](const std::string& t) { return has(t, "int main()"); }), input);
  EXPECT_TRUE(host_function_edits("__global__ void k() {}\n__device__ int g() { return 1; }\n").empty());
}

namespace {

const std::string asm_input = "__global__ void k(int* p) {\n"
                              "  int r;\n"
                              "  asm volatile(\"{\\n\\t\"\n"
                              "               \".reg .b32 %%t<3>;\\n\\t\"\n"
                              "               \".reg .pred %%q;\\n\\t\"\n"
                              "               \"mov.b32 %%t0, %1;\\n\\t\"\n"
                              "               \"add.u32 %%t1, %%t0, 1;\\n\\t\"\n"
                              "               \"lp:\\n\\t\"\n"
                              "               \"mul.lo.u32 %%t2, %%t0, 3;\\n\\t\"\n"
                              "               \"setp.eq.u32 %%q, %%t2, 0;\\n\\t\"\n"
                              "               \"@%%q bra lp;\\n\\t\"\n"
                              "               \"mov.b32 %0, %%t0;\\n\\t\"\n"
                              "               \"}\"\n"
                              "               : \"=r\"(r) : \"r\"(*p));\n"
                              "  *p = r;\n"
                              "}\n";

/// The pass run again until it changes nothing, as the main phase's rounds run it: a cut that
/// takes dead code before it moves the text after it up, and the walk resumes behind.
std::string asm_to_fixpoint(std::string text, const Interesting& interesting) {
  for (std::string next = run("asm", text, interesting); next != text; next = run("asm", text, interesting))
    text = next;
  return text;
}

std::string asm_without(std::initializer_list<std::string_view> lines) {
  std::string out = asm_input;
  for (std::string_view line : lines) {
    const std::size_t at = out.find(line);
    const std::size_t begin = out.rfind('\n', at) + 1;
    out.erase(begin, out.find('\n', at) + 1 - begin);
  }
  return out;
}

} // namespace

TEST(ReducerPasses, AsmRemovesDeadInstructionsInOneEdit) {
  // The first edit is the dead code alone: the add (its result unread); the branch stays (a
  // branch is never dead), so the setp, the mul and the label it names stay too.
  const std::vector<Edit> edits = asm_edits(asm_input);
  ASSERT_FALSE(edits.empty());
  EXPECT_EQ(cudiff::reducer::apply(asm_input, edits.front()), asm_without({"add.u32"}));
  // Each instruction may go; the branch takes the label it names and the `.reg .pred` line,
  // which nothing names any more, with it in the same candidate.
  EXPECT_EQ(asm_to_fixpoint(asm_input,
                            [](const std::string& t) {
                              return has(t, "mov.b32 %0, %%t0") && has(t, "mov.b32 %%t0, %1");
                            }),
            asm_without({"add.u32", "lp:", "mul.lo", "setp.eq", "bra lp", ".reg .pred"}));
  // Dropping the output's write takes everything that only fed it, `.reg` lines included.
  EXPECT_EQ(asm_to_fixpoint(asm_input, [](const std::string& t) { return has(t, "asm volatile"); }),
            asm_without({".reg .b32", "mov.b32 %%t0", "add.u32", "lp:", "mul.lo", "setp.eq", "bra lp", ".reg .pred",
                         "mov.b32 %0"}));
  EXPECT_TRUE(asm_edits("__global__ void k() { asm volatile(\"trap;\"); }\n").size() <= 1);
}

TEST(ReducerPasses, EveryPassInTheTableHasAName) {
  for (const std::string& name : pass_names()) EXPECT_EQ(make_pass(name)->name(), name);
  EXPECT_THROW(make_pass("no-such-pass"), cudiff::Error);
}

TEST(ReducerPasses, APassWithNothingToDoStartsNowhere) {
  for (const std::string& name : pass_names()) EXPECT_FALSE(make_pass(name)->start("").has_value()) << name;
}
