// Layout views: reading cudiff_layout_* arrays from real PTX of both compilers (golden files
// from tests/golden/ptx/capture.sh), host `layout` lines, and sidecar probes.
#include "oracle/oracle.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

using namespace cudiff::oracle;
using cudiff::runners::CompilerKind;
using cudiff::test::data;
using Values = std::vector<std::uint64_t>;

namespace {

std::string golden(const std::string& name) { return cudiff::read_file(data("golden/ptx/" + name)); }

void expect_common_arrays(const std::map<std::string, Values>& arrays) {
  EXPECT_EQ(arrays.at("cudiff_layout_LayS0"), (Values{16, 8, 0, 4, 8}));
  EXPECT_EQ(arrays.at("cudiff_layout_LayS1"), (Values{16, 16, 0, 2}));
  EXPECT_EQ(arrays.at("cudiff_layout_LayS3"), (Values{8, 4, 4}));
  EXPECT_EQ(arrays.at("cudiff_layout_Zero"), (Values{0, 0, 0}));  // no initializer in the PTX
  EXPECT_EQ(arrays.at("cudiff_layout_Wide"), (Values{300, 70000, 0x123456789abcdef0ull}));
}

std::vector<LayoutProbe> probes() {
  return {{"LayS2",
           "cudiff_layout_LayS2",
           {"sizeof", "alignof", "offsetof.m5", "offsetof.m6", "offsetof.m7"},
           {{"m6", "long double"}}},
          {"Gone", "cudiff_layout_Gone", {"sizeof"}, {}}};
}

} // namespace

TEST(PtxLayout, ReadsNvccPtx) {
  const auto arrays = read_ptx_layout(golden("layout_probes.nvcc.ptx"));
  EXPECT_EQ(arrays.size(), 6u);
  expect_common_arrays(arrays);
  // nvcc's device side keeps the host's 16-byte, 16-aligned long double.
  EXPECT_EQ(arrays.at("cudiff_layout_LayS2"), (Values{48, 16, 0, 16, 32}));
}

TEST(PtxLayout, ReadsClangPtx) {
  const auto arrays = read_ptx_layout(golden("layout_probes.clang.ptx"));
  EXPECT_EQ(arrays.size(), 6u);
  expect_common_arrays(arrays);
  // clang's NVPTX target makes long double a double.
  EXPECT_EQ(arrays.at("cudiff_layout_LayS2"), (Values{24, 8, 0, 8, 16}));
}

TEST(PtxLayout, IgnoresDebugSectionReferencesUnderG) {
  const auto arrays = read_ptx_layout(golden("layout_probes.nvcc-G.ptx"));
  EXPECT_EQ(arrays.size(), 6u);
  expect_common_arrays(arrays);
}

TEST(PtxLayout, ReadsWideElementsMultiLineInitializersAndSkipsExterns) {
  const std::string ptx = ".visible .global .align 8 .u64 cudiff_layout_T[5] = {16, 8, 0, 4, 8};\n"
                          ".global .align 4 .b32 cudiff_layout_U[4] = {24, 0,\n  8, 0};\n"
                          ".extern .global .align 8 .b8 cudiff_layout_X[8];\n"
                          "\tld.global.u64 %rd1, [cudiff_layout_T+8];\n"
                          ".global .align 8 .b8 not_cudiff_layout_Y[8] = {1};\n";
  const auto arrays = read_ptx_layout(ptx);
  EXPECT_EQ(arrays.size(), 2u);
  EXPECT_EQ(arrays.at("cudiff_layout_T"), (Values{16, 8, 0, 4, 8}));
  EXPECT_EQ(arrays.at("cudiff_layout_U"), (Values{24, 8}));
}

TEST(PtxLayout, GarbageNeverThrows) {
  for (const std::string text :
       {"", "cudiff_layout_", ".global .b8 cudiff_layout_A[", ".global .b8 cudiff_layout_A[2] = {1, x};",
        ".global .b8 cudiff_layout_A[99999999999999999999];", "\xff\xfe cudiff_layout_B[3] = {"})
    EXPECT_NO_THROW(read_ptx_layout(text)) << text;
  EXPECT_TRUE(read_ptx_layout(".global .b8 cudiff_layout_A[2] = {1, x};").empty());
}

TEST(PtxLayout, DeviceViewMapsArrayValuesToProbeProperties) {
  const LayoutView view = device_layout_view("clang-O3", CompilerKind::clang, golden("layout_probes.clang.ptx"),
                                             probes());
  EXPECT_EQ(view.side, LayoutSide::device);
  EXPECT_EQ(view.values.at("LayS2").at("offsetof.m6"), 8u);
  EXPECT_EQ(view.values.at("LayS2").at("sizeof"), 24u);
  EXPECT_EQ(view.values.count("Gone"), 0u);
  EXPECT_NE(view.problem.find("cudiff_layout_Gone"), std::string::npos) << view.problem;
}

TEST(PtxLayout, HostViewReadsLayoutLinesOnly) {
  const LayoutView view = host_layout_view("nvcc-O3", CompilerKind::nvcc,
                                           "checksum k0 1f\nlayout LayS2 sizeof 48\nlayout LayS2 offsetof.m6 16\r\n"
                                           "layout broken\nlayout LayS2 alignof notanumber\n");
  EXPECT_EQ(view.side, LayoutSide::host);
  ASSERT_EQ(view.values.size(), 1u);
  EXPECT_EQ(view.values.at("LayS2").size(), 2u);
  EXPECT_EQ(view.values.at("LayS2").at("offsetof.m6"), 16u);
}
