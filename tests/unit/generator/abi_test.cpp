// The ABI family (generator/abi/abi_params.cpp): programs that carry it are valid, their checksums
// are the interpreter's, their sidecars name every parameter's kind, and a program without it
// is the one the seed gave before. tests/e2e/abi_e2e_test.cpp compiles the emitted functions
// and compares what they compute with the generator's values.
#include "generator/abi/abi.h"
#include "generator/core/interpreter.h"
#include "generator/generator.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace {

using namespace cudiff::generator;
using cudiff::test::contains;

Policy abi_policy(double share = 1.0) {
  Policy policy = Policy::defaults();
  policy.set("abi.share", share);
  return policy;
}

TEST(AbiFamily, ProgramsCarryTheFamilyAndTheirSidecarNamesEachKind) {
  std::set<std::string> kinds;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const TestCase test = generate_program(abi_policy(), seed, Size::small);
    ASSERT_TRUE(test.sidecar.abi_functions) << seed;
    ASSERT_FALSE(test.sidecar.abi_functions->empty()) << seed;
    for (const Sidecar::AbiFunction& f : *test.sidecar.abi_functions) {
      const std::string name = f.name.substr(f.name.rfind(':') + 1);
      EXPECT_TRUE(contains(test.source, f.kernel ? name + "(" : "__device__ __noinline__")) << f.name;
      if (f.kernel) continue;
      EXPECT_TRUE(contains(test.source, " " + name + "(")) << f.name;
      EXPECT_FALSE(f.result.empty());
      kinds.insert(f.params.begin(), f.params.end());
      kinds.insert(f.result);
    }
  }
  for (const char* kind : {"alignas struct", "vector", "64-bit integer", "16-bit integer", "bool", "char",
                           "empty struct", "pair of doubles", "large struct", "pointer", "reference"})
    EXPECT_TRUE(kinds.contains(kind)) << kind;
}

TEST(AbiFamily, TheInterpreterPredictsTheFamilysChecksums) {
  // generate_program validates every program (a fresh interpreter run must give each kernel's
  // expected checksum) and throws on a defect; here the checksums must also have moved by the
  // calls' values: the same seed without the family differs exactly in the kernels it calls.
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const TestCase with = generate_program(abi_policy(1.0), seed, Size::small);
    const TestCase without = generate_program(abi_policy(0.0), seed, Size::small);
    std::set<std::string> calling;
    for (const Sidecar::AbiFunction& f : *with.sidecar.abi_functions)
      if (f.kernel) calling.insert(f.name.substr(f.name.rfind(':') + 1));
    ASSERT_EQ(with.sidecar.kernels->size(), without.sidecar.kernels->size());
    for (std::size_t k = 0; k < with.sidecar.kernels->size(); ++k) {
      const auto& a = (*with.sidecar.kernels)[k];
      const auto& b = (*without.sidecar.kernels)[k];
      if (!calling.contains(a.name)) EXPECT_EQ(a.expected_checksum, b.expected_checksum) << seed << " " << a.name;
    }
    EXPECT_TRUE(without.sidecar.abi_functions->empty());
  }
}

TEST(AbiFamily, WithoutTheFamilyAProgramIsUnchangedButForItsHeader) {
  // The family draws from its own stream after the program is built: with abi.share 0 the
  // text is what the same seed gives with the family on, less the family's lines.
  const TestCase plain = generate_program(abi_policy(0.0), 3, Size::medium);
  EXPECT_FALSE(contains(plain.source, "cudiff_abi_"));
  EXPECT_FALSE(contains(plain.source, "__grid_constant__ cudiff_abi"));
}

TEST(AbiFamily, ValuesFollowTheFormula) {
  // One function by hand: h = salt; h = h * FNV ^ fold(arg); the result's fields from h.
  AbiFunction f;
  f.salt = 5;
  AbiParam p;
  p.kind = AbiKind::Scalar16;
  p.type.kind = AbiKind::Scalar16;
  AbiField field;
  field.value = Value::make(IntType::Short, -2);
  p.type.fields = {field};
  f.params = {p};
  f.result.kind = AbiKind::Bool;
  AbiField flag;
  flag.value = Value::make(IntType::Bool, 0);
  f.result.fields = {flag};
  const std::uint64_t h = 5ull * 1099511628211ull ^ (static_cast<std::uint64_t>(-2) * 3u);
  EXPECT_EQ(abi_call_value(f), (h & 1) * 3u);
  AbiType empty;
  empty.kind = AbiKind::EmptyStruct;
  EXPECT_EQ(abi_fold(empty), 7u);
  AbiType large;
  large.kind = AbiKind::LargeStruct;
  large.array_length = 2;
  large.array_base = 0xffffffffu;
  large.array_step = 2;
  EXPECT_EQ(abi_fold(large), 0xffffffffull * 3 + 1ull * 5);
}

TEST(AbiFamily, BatchesQualifyTheNamesWithTheTestsNamespace) {
  const TestCase batch = generate_batch(abi_policy(), {4, 5}, Size::small);
  ASSERT_TRUE(batch.sidecar.abi_functions);
  ASSERT_FALSE(batch.sidecar.abi_functions->empty());
  for (const Sidecar::AbiFunction& f : *batch.sidecar.abi_functions)
    EXPECT_TRUE(f.name.starts_with("cudiff_s4::") || f.name.starts_with("cudiff_s5::")) << f.name;
  const Sidecar round_trip = sidecar_from_json(to_json(batch.sidecar));
  EXPECT_EQ(round_trip, batch.sidecar);
}

} // namespace
