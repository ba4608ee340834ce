// Unit: what the pipeline reads from a program's text to choose how to build and run it —
// defines_main (an executable, or an object file) and executor_can_load (a shared object in an
// executor, or a process of its own).
#include "pipeline/check_parts.h"

#include <gtest/gtest.h>

namespace {

using cudiff::pipeline::defines_main;
using cudiff::pipeline::executor_can_load;

TEST(DefinesMain, AFunctionDefinitionOfMainCounts) {
  EXPECT_TRUE(defines_main("int main() { return 0; }"));
  EXPECT_TRUE(defines_main("int main(int argc, char** argv)\n{\n  return argc;\n}\n"));
  EXPECT_TRUE(defines_main("__global__ void k() {}\nint main ( void ) { k<<<1, 1>>>(); }"));
}

TEST(DefinesMain, ADeclarationACallOrAnotherNameDoesNot) {
  EXPECT_FALSE(defines_main("int main();"));
  EXPECT_FALSE(defines_main("int main(int, char**);\n__global__ void k() {}"));
  EXPECT_FALSE(defines_main("void domain() {}\nvoid main_loop() {}\nint mainly(int x) { return x; }"));
  EXPECT_FALSE(defines_main("int f(S s) { return s.main(); }"));
  EXPECT_FALSE(defines_main("int f(S* s) { return s->main(); }"));
  EXPECT_FALSE(defines_main("int f() { return ns::main(); }"));
  EXPECT_FALSE(defines_main(""));
}

TEST(DefinesMain, CommentsAndStringsAreNotCode) {
  EXPECT_FALSE(defines_main("// int main() { return 0; }\n__global__ void k() {}"));
  EXPECT_FALSE(defines_main("/* int main() { return 0; } */"));
  EXPECT_FALSE(defines_main("const char* text = \"int main() { return 0; }\";"));
}

TEST(ExecutorCanLoad, AProgramWithMainAndNoManagedMemory) {
  EXPECT_TRUE(executor_can_load("__device__ int x;\n__global__ void k() { x = 1; }\nint main() { k<<<1, 1>>>(); }"));
}

TEST(ExecutorCanLoad, NotWithoutMainNorWithManagedMemory) {
  EXPECT_FALSE(executor_can_load("__global__ void k() {}"));
  EXPECT_FALSE(executor_can_load("__managed__ int counter;\n__global__ void k() { ++counter; }\nint main() {}"));
  // A comment that names managed memory does not make the program use it.
  EXPECT_TRUE(executor_can_load("// no __managed__ here\n__global__ void k() {}\nint main() {}"));
}

} // namespace
