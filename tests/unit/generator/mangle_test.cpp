// The one Itanium mangler of the launch plans (generator/mangle.h): the names nvcc and clang write
// in PTX for the shapes the core and compute-dense emitters declare (the plans' own tests check
// their kernels' names: core_plan_test.cpp, dense_plan_test.cpp).
#include "generator/mangle.h"

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace cudiff::generator;
using Kind = MangledParam::Kind;

TEST(Mangling, EachIntegerTypeHasItsBuiltinCode) {
  const std::map<IntType, std::string> codes = {{IntType::Bool, "b"},  {IntType::Char, "c"},  {IntType::SChar, "a"},
                                                {IntType::UChar, "h"}, {IntType::Short, "s"}, {IntType::UShort, "t"},
                                                {IntType::Int, "i"},   {IntType::UInt, "j"},  {IntType::LLong, "x"},
                                                {IntType::ULLong, "y"}};
  for (IntType type : all_int_types()) {
    EXPECT_EQ(builtin_code(type), codes.at(type)) << type_name(type);
    EXPECT_EQ(mangled_function({}, "k", {{Kind::value, type}}), "_Z1k" + codes.at(type));
    EXPECT_EQ(mangled_function({"ns"}, "k", {{Kind::pointer, type}}), "_ZN2ns1kEP" + codes.at(type));
    EXPECT_EQ(mangled_function({"ns"}, "k", {{Kind::pointer_to_const, type}}), "_ZN2ns1kEPK" + codes.at(type));
  }
}

TEST(Mangling, KernelNamesAreTheOnesNvccAndClangWrite) {
  // Both compilers' PTX for these declarations (nvcc 13, clang 22): a batch's scope, the
  // test's namespace and an inline one, restrict and top-level const not mangled, the
  // __grid_constant__ struct named through the substitution of its namespace.
  //   namespace cudiff_s1 { namespace cudiff_test_0 { inline namespace v1 { __global__ void
  //   kernel_0(unsigned long long* __restrict__ out, const signed char* __restrict__ in, int,
  //   const unsigned short, const __grid_constant__ kernel_0_constants gc); }}}
  const std::vector<std::string> nested = {"cudiff_s1", "cudiff_test_0", "v1"};
  EXPECT_EQ(mangled_function(nested, "kernel_0",
                             {{Kind::pointer, IntType::ULLong},
                              {Kind::pointer_to_const, IntType::SChar},
                              {Kind::value, IntType::Int},
                              {Kind::value, IntType::UShort},
                              {Kind::record, IntType::Int, nested, "kernel_0_constants"}}),
            "_ZN9cudiff_s113cudiff_test_02v18kernel_0EPyPKaitNS1_18kernel_0_constantsE");
  //   namespace cudiff_test_1 { __global__ void kernel_1(unsigned long long* out, const bool* in,
  //   char, unsigned char, long long, unsigned long long, short, unsigned, kernel_1_constants); }
  EXPECT_EQ(mangled_function({"cudiff_test_1"}, "kernel_1",
                             {{Kind::pointer, IntType::ULLong},
                              {Kind::pointer_to_const, IntType::Bool},
                              {Kind::value, IntType::Char},
                              {Kind::value, IntType::UChar},
                              {Kind::value, IntType::LLong},
                              {Kind::value, IntType::ULLong},
                              {Kind::value, IntType::Short},
                              {Kind::value, IntType::UInt},
                              {Kind::record, IntType::Int, {"cudiff_test_1"}, "kernel_1_constants"}}),
            "_ZN13cudiff_test_18kernel_1EPyPKbchxysjNS_18kernel_1_constantsE");
  EXPECT_EQ(mangled_function({}, "kernel_0", {{Kind::pointer, IntType::ULLong}}), "_Z8kernel_0Py");
  EXPECT_EQ(mangled_function({"a", "b"}, "k", {{Kind::pointer, IntType::ULLong}}), "_ZN1a1b1kEPy");
  EXPECT_EQ(mangled_function({}, "f", {}), "_Z1fv");
}

TEST(Mangling, RepeatedTypesAreSubstitutions) {
  // void f(int*, int*) and void f(const int*, const int*), as every Itanium compiler names them.
  EXPECT_EQ(mangled_function({}, "f", {{Kind::pointer, IntType::Int}, {Kind::pointer, IntType::Int}}), "_Z1fPiS_");
  EXPECT_EQ(mangled_function({}, "f", {{Kind::pointer_to_const, IntType::Int}, {Kind::pointer_to_const, IntType::Int}}),
            "_Z1fPKiS0_");
  EXPECT_EQ(mangled_function({"ns"}, "f", {{Kind::pointer, IntType::Int}, {Kind::pointer, IntType::Int}}),
            "_ZN2ns1fEPiS0_");
  // A struct at global scope, passed twice: the second is its substitution.
  EXPECT_EQ(mangled_function({}, "f", {{Kind::record, IntType::Int, {}, "S"}, {Kind::record, IntType::Int, {}, "S"}}),
            "_Z1f1SS_");
  // A struct in a namespace the function is not in: written out, then substituted.
  EXPECT_EQ(mangled_function({}, "f",
                             {{Kind::record, IntType::Int, {"n"}, "S"}, {Kind::record, IntType::Int, {"n"}, "S"}}),
            "_Z1fN1n1SES0_");
}

TEST(Mangling, VariablesInNamespaces) {
  EXPECT_EQ(mangled_variable({"cudiff_s1", "cudiff_test_0", "v1"}, "cmem_1"),
            "_ZN9cudiff_s113cudiff_test_02v16cmem_1E");
  EXPECT_EQ(mangled_variable({"cudiff_test_3"}, "cmem_2"), "_ZN13cudiff_test_36cmem_2E");
  EXPECT_EQ(mangled_variable({}, "g"), "g");
}

TEST(Mangling, ScopesAreTheirNamespaces) {
  EXPECT_EQ(scope_namespaces(""), std::vector<std::string>{});
  EXPECT_EQ(scope_namespaces("cudiff_dense::"), std::vector<std::string>{"cudiff_dense"});
  EXPECT_EQ(scope_namespaces("cudiff_s12::cudiff_dense::"), (std::vector<std::string>{"cudiff_s12", "cudiff_dense"}));
  EXPECT_EQ(scope_namespaces("a::b"), (std::vector<std::string>{"a", "b"}));
}

} // namespace
