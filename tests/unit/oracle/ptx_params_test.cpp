// read_ptx_functions (oracle/ptx_params.cpp): the headers of PTX functions as nvcc and clang
// print them, and its contract on text that is not PTX.
#include "oracle/oracle.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace cudiff {
namespace {

using oracle::PtxFunction;
using oracle::PtxLinkage;
using oracle::read_ptx_functions;

const PtxFunction& only(const std::vector<PtxFunction>& functions) {
  EXPECT_EQ(functions.size(), 1u);
  return functions.front();
}

TEST(PtxParams, NvccForwardDeclarationThenDefinitionIsOneDefinedFunction) {
  const std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64

	// .globl	_Z5k_allPi
.func  (.param .b32 func_retval0) _Z5f_a163A16(
	.param .align 4 .b8 _Z5f_a163A16_param_0[16]
)
;
.visible .entry _Z5k_allPi(
	.param .u64 _Z5k_allPi_param_0
)
{
	.reg .b32 	%r<3>;
	{ // callseq 0, 0
	.param .align 4 .b8 param0[16];
	st.param.b32 	[param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), _Z5f_a163A16, (param0);
	} // callseq 0
	ret;
}
.func  (.param .b32 func_retval0) _Z5f_a163A16(
	.param .align 4 .b8 _Z5f_a163A16_param_0[16]
)
{
	ret;
}
)";
  const std::vector<PtxFunction> functions = read_ptx_functions(ptx);
  ASSERT_EQ(functions.size(), 2u);
  const PtxFunction& f = functions[0];
  EXPECT_EQ(f.name, "_Z5f_a163A16");
  EXPECT_FALSE(f.kernel);
  EXPECT_TRUE(f.defined);
  EXPECT_EQ(f.linkage, PtxLinkage::internal);
  ASSERT_EQ(f.returns.size(), 1u);
  EXPECT_EQ(f.returns[0].name, "func_retval0");
  EXPECT_EQ(f.returns[0].declaration, ".param .b32");
  EXPECT_EQ(f.returns[0].bytes(), 4u);
  ASSERT_EQ(f.params.size(), 1u);
  EXPECT_EQ(f.params[0].declaration, ".param .align 4 .b8 [16]");
  EXPECT_TRUE(f.params[0].array);
  EXPECT_EQ(f.params[0].count, 16u);
  EXPECT_EQ(f.params[0].alignment, 4u);
  EXPECT_TRUE(f.params[0].explicit_alignment);
  const PtxFunction& k = functions[1];
  EXPECT_TRUE(k.kernel);
  EXPECT_EQ(k.linkage, PtxLinkage::visible);
  ASSERT_EQ(k.params.size(), 1u);  // the call site's param0 and retval0 are not parameters
  EXPECT_EQ(k.params[0].type, ".u64");
  EXPECT_EQ(k.params[0].alignment, 8u);
  EXPECT_FALSE(k.params[0].explicit_alignment);
}

TEST(PtxParams, ClangHeadersWithPointerAttributesAndAlignedReturns) {
  const std::string ptx = R"(
.extern .func  (.param .b32 func_retval0) _Z6ext_fni
(
	.param .b32 _Z6ext_fni_param_0
)
;
.visible .func  (.param .align 4 .b8 func_retval0[16]) _Z5f_a163A16(
	.param .align 16 .b8 _Z5f_a163A16_param_0[16]
)                                       // @_Z5f_a163A16
{
	ret;
}
.weak .entry _Z6k_tmplIiEvT_PS0_(
	.param .u32 _Z6k_tmplIiEvT_PS0__param_0,
	.param .u64 .ptr .global .align 16 _Z6k_tmplIiEvT_PS0__param_1
)
.maxntid 128, 1, 1
{
	prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _);
	ret;
}
)";
  const std::vector<PtxFunction> functions = read_ptx_functions(ptx);
  ASSERT_EQ(functions.size(), 3u);
  EXPECT_EQ(functions[0].linkage, PtxLinkage::external);
  EXPECT_FALSE(functions[0].defined);
  ASSERT_EQ(functions[0].params.size(), 1u);
  EXPECT_EQ(functions[1].returns.at(0).alignment, 4u);
  EXPECT_EQ(functions[1].params.at(0).alignment, 16u);
  const PtxFunction& k = functions[2];
  EXPECT_EQ(k.linkage, PtxLinkage::weak);
  EXPECT_TRUE(k.defined);
  ASSERT_EQ(k.params.size(), 2u);
  // `.align 16` after `.ptr` is the pointee's: an attribute, not the parameter's alignment.
  EXPECT_EQ(k.params[1].alignment, 8u);
  EXPECT_EQ(k.params[1].attributes, (std::vector<std::string>{".ptr", ".global", ".align 16"}));
  EXPECT_EQ(k.params[1].declaration, ".param .u64 .ptr .global .align 16");
}

TEST(PtxParams, TypesVectorsUnsizedArraysAndRegisterParameters) {
  const auto functions = read_ptx_functions(
      ".func f(.param .v2 .u32 a, .param .f16x2 b, .param .bf16 c, .param .b128 d, .param .b8 e[], .reg .pred p)\n{ret;}");
  const PtxFunction& f = only(functions);
  ASSERT_EQ(f.params.size(), 6u);
  EXPECT_EQ(f.params[0].bytes(), 8u);
  EXPECT_EQ(f.params[1].bytes(), 4u);
  EXPECT_EQ(f.params[2].bytes(), 2u);
  EXPECT_EQ(f.params[3].bytes(), 16u);
  EXPECT_TRUE(f.params[4].array);
  EXPECT_EQ(f.params[4].count, 0u);
  EXPECT_EQ(f.params[5].space, ".reg");
  EXPECT_EQ(f.params[5].bytes(), 1u);
}

TEST(PtxParams, CommentsAndStringsDoNotMakeFunctions) {
  const auto functions = read_ptx_functions(
      "// .visible .entry fake(\n/* .func also_fake() */\n.file 1 \".func x(\"\n.visible .entry real(\n"
      "\t.param .u32 /* comment */ real_param_0 // trailing\n)\n{\n\tret;\n}\n");
  const PtxFunction& f = only(functions);
  EXPECT_EQ(f.name, "real");
  ASSERT_EQ(f.params.size(), 1u);
  EXPECT_EQ(f.params[0].name, "real_param_0");
}

TEST(PtxParams, NeverThrowsOnBrokenText) {
  for (const std::string& text :
       {std::string(), std::string(".func"), std::string(".entry ("), std::string(".func (.param"),
        std::string(".func (.param .align"), std::string(".visible .func ( ) ( ) ( {"), std::string("}}}} .entry e(}"),
        std::string(".func f(.param .b8 x[99999999999999999999999])"), std::string("\0\xff.func\x80(", 9),
        std::string(".entry k(.param .align 18446744073709551617 .b8 p[4294967297])\n{")}) {
    std::vector<PtxFunction> functions;
    EXPECT_FALSE(test::error_kind_of([&] { functions = read_ptx_functions(text); })) << text;
  }
  const auto huge = read_ptx_functions(".func f(.param .b64 x[99999999999999999999999])\n;");
  EXPECT_EQ(only(huge).params.at(0).count, std::uint64_t{1} << 32);
}

TEST(PtxParams, IsLinearOnManyHeadersAndUnclosedLists) {
  for (const std::string& ptx :
       {test::repeated(".func f(.param .b32 x)\n;\n", 100000), test::repeated(".func (", 100000),
        test::repeated(".visible .entry k(", 100000), ".func f(" + test::repeated(".param .b32 x,", 100000)}) {
    std::vector<PtxFunction> functions;
    EXPECT_LT(test::seconds_of([&] { functions = read_ptx_functions(ptx); }), test::kRegressionSecondsBound);
    EXPECT_LE(functions.size(), 100000u);
  }
}

TEST(PtxParams, ReadsEveryHeaderOfTheGoldenPtx) {
  const auto nvcc = read_ptx_functions(read_file(test::data("golden/abi/separate.nvcc-O3-rdc.ptx")));
  const auto clang = read_ptx_functions(read_file(test::data("golden/abi/separate.clang-O3-rdc.ptx")));
  auto count = [](const std::vector<PtxFunction>& functions, PtxLinkage linkage, bool kernel) {
    return std::ranges::count_if(functions,
                                 [&](const PtxFunction& f) { return f.linkage == linkage && f.kernel == kernel; });
  };
  // params.cu: 21 external device functions (20 C++ and one extern "C"), 6 kernels and 2
  // template instances (.weak), a static function and one extern declaration.
  EXPECT_EQ(count(nvcc, PtxLinkage::visible, false), 21);
  EXPECT_EQ(count(clang, PtxLinkage::visible, false), 21);
  EXPECT_EQ(count(nvcc, PtxLinkage::visible, true), 6);
  EXPECT_EQ(count(nvcc, PtxLinkage::weak, true), 2);
  EXPECT_EQ(count(clang, PtxLinkage::external, false), 1);
}

} // namespace
} // namespace cudiff
