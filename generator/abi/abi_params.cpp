// abi_params: the ABI family planted into a built program — which functions, which kinds of
// parameters and results, which kernel calls each — and the values the emitted code computes,
// exactly, so the interpreter's checksums stay right (docs/generator.md, "ABI family").
//
// The family draws from a random stream of its own (seeded from the program's seed), after the
// main stream and the probes': a program that carries none is the one it was before.
#include "generator/abi/abi.h"
#include "generator/core/interpreter.h"
#include "generator/validate.h"

#include <array>

namespace cudiff::generator {
namespace {

constexpr std::uint64_t kFnvPrime = 1099511628211ull;
constexpr std::uint64_t kWholeMask = 0xfffff;  // floating pieces of a result: below 2^20
constexpr int kLargeLengthMax = 256;            // 1 KiB: far below the 4 KiB kernel-parameter limit

struct VectorShape {
  const char* name;
  IntType component;  ///< for integer vectors
  const char* floating;  ///< "float"/"double", or nullptr
  int lanes;
};

// CUDA 13 deprecates the 4-lane 64-bit vectors (longlong4, double4...): none here.
constexpr std::array<VectorShape, 11> kVectors = {{{"int2", IntType::Int, nullptr, 2},
                                                   {"uint4", IntType::UInt, nullptr, 4},
                                                   {"int3", IntType::Int, nullptr, 3},
                                                   {"longlong2", IntType::LLong, nullptr, 2},
                                                   {"ulonglong2", IntType::ULLong, nullptr, 2},
                                                   {"char3", IntType::SChar, nullptr, 3},
                                                   {"uchar4", IntType::UChar, nullptr, 4},
                                                   {"short2", IntType::Short, nullptr, 2},
                                                   {"ushort4", IntType::UShort, nullptr, 4},
                                                   {"float4", IntType::Int, "float", 4},
                                                   {"double2", IntType::Int, "double", 2}}};

constexpr const char* kLanes[] = {"x", "y", "z", "w"};

Value random_value(Rng& rng, IntType type) {
  if (type == IntType::Bool) return Value::make_unsigned(type, rng.below(2));
  return Value::make_unsigned(type, rng.next_u64());
}

AbiField int_field(Rng& rng, std::string name, IntType type) {
  AbiField field;
  field.name = std::move(name);
  field.value = random_value(rng, type);
  return field;
}

AbiField whole_field(Rng& rng, std::string name, std::string float_type) {
  AbiField field;
  field.name = std::move(name);
  field.floating = true;
  field.float_type = std::move(float_type);
  field.whole = static_cast<std::uint32_t>(rng.below(kWholeMask + 1));
  return field;
}

/// A value type of `kind` named (when it is a struct of its own) `name`.
AbiType make_type(Rng& rng, AbiKind kind, const std::string& name) {
  AbiType type;
  type.kind = kind;
  switch (kind) {
  case AbiKind::AlignasStruct: {
    static const IntType members[] = {IntType::Int, IntType::UChar, IntType::Short, IntType::LLong, IntType::UInt};
    const int count = 1 + static_cast<int>(rng.below(3));
    for (int m = 0; m < count; ++m)
      type.fields.push_back(int_field(rng, "m" + std::to_string(m), members[rng.below(std::size(members))]));
    const int alignment = 8 << rng.below(3);  // 8, 16, 32: never below the members' own
    type.name = name;
    type.definition = "struct alignas(" + std::to_string(alignment) + ") " + name + " {";
    for (const AbiField& f : type.fields) type.definition += " " + f.type_name() + " " + f.name + ";";
    type.definition += " };";
    break;
  }
  case AbiKind::Vector: {
    const VectorShape& shape = kVectors[rng.below(kVectors.size())];
    type.name = shape.name;
    type.maker = std::string("make_") + shape.name;
    for (int lane = 0; lane < shape.lanes; ++lane)
      type.fields.push_back(shape.floating ? whole_field(rng, kLanes[lane], shape.floating)
                                           : int_field(rng, kLanes[lane], shape.component));
    break;
  }
  case AbiKind::Scalar64:
  case AbiKind::Scalar16:
  case AbiKind::Bool:
  case AbiKind::Char: {
    IntType scalar = IntType::Bool;
    if (kind == AbiKind::Scalar64) scalar = rng.chance(0.5) ? IntType::LLong : IntType::ULLong;
    if (kind == AbiKind::Scalar16) scalar = rng.chance(0.5) ? IntType::Short : IntType::UShort;
    if (kind == AbiKind::Char) scalar = std::array{IntType::Char, IntType::SChar, IntType::UChar}[rng.below(3)];
    type.fields.push_back(int_field(rng, "", scalar));
    type.name = type_name(scalar);
    break;
  }
  case AbiKind::EmptyStruct:
    type.name = name;
    type.definition = "struct " + name + " {};";
    break;
  case AbiKind::DoublePair:
    type.name = name;
    type.fields = {whole_field(rng, "re", "double"), whole_field(rng, "im", "double")};
    type.definition = "struct " + name + " { double re; double im; };";
    break;
  case AbiKind::LargeStruct:
    type.name = name;
    type.array_length = 64 + static_cast<int>(rng.below(kLargeLengthMax - 64 + 1));
    type.array_base = static_cast<std::uint32_t>(rng.next_u64());
    type.array_step = static_cast<std::uint32_t>(rng.next_u64()) | 1u;
    type.definition = "struct " + name + " { unsigned int v[" + std::to_string(type.array_length) + "]; };";
    break;
  case AbiKind::Pointer:
  case AbiKind::Reference: break;  // not value kinds: make_param draws the pointee
  }
  return type;
}

std::uint64_t piece_of(const AbiField& field) {
  return field.floating ? field.whole : convert(field.value, IntType::ULLong).bits;
}

std::uint64_t large_element(const AbiType& type, int i) {
  return static_cast<std::uint32_t>(type.array_base + static_cast<std::uint32_t>(i) * type.array_step);
}

AbiKind draw_kind(Rng& rng, const Policy& policy, bool with_indirect, bool with_large) {
  static const std::pair<AbiKind, const char*> kinds[] = {{AbiKind::AlignasStruct, "abi.kind.alignas_struct"},
                                                          {AbiKind::Vector, "abi.kind.vector"},
                                                          {AbiKind::Scalar64, "abi.kind.scalar64"},
                                                          {AbiKind::Scalar16, "abi.kind.scalar16"},
                                                          {AbiKind::Bool, "abi.kind.bool"},
                                                          {AbiKind::Char, "abi.kind.char"},
                                                          {AbiKind::EmptyStruct, "abi.kind.empty_struct"},
                                                          {AbiKind::DoublePair, "abi.kind.double_pair"},
                                                          {AbiKind::LargeStruct, "abi.kind.large_struct"},
                                                          {AbiKind::Pointer, "abi.kind.pointer"},
                                                          {AbiKind::Reference, "abi.kind.reference"}};
  std::vector<double> weights;
  for (const auto& [kind, knob] : kinds) {
    const bool allowed = (with_indirect || (kind != AbiKind::Pointer && kind != AbiKind::Reference)) &&
                         (with_large || kind != AbiKind::LargeStruct);
    weights.push_back(allowed ? policy.get(knob) : 0.0);
  }
  double total = 0;
  for (double w : weights) total += w;
  if (total <= 0) return AbiKind::Scalar64;  // every weight zero: the plainest kind
  return kinds[rng.weighted(weights)].first;
}

/// The Xor of the call's value into one output word of the kernel: a WriteOut, chosen among
/// all of the kernel's (outputs are never read back, so no other value changes).
void collect_writes(Block& block, std::vector<Stmt*>& writes) {
  for (Stmt& s : block) {
    if (s.kind == StmtKind::WriteOut) writes.push_back(&s);
    collect_writes(s.body, writes);
    collect_writes(s.else_body, writes);
    for (SwitchCase& c : s.cases) collect_writes(c.body, writes);
  }
}

ExprP xor_call(const ExprP& inner, const AbiFunction& function, const std::string& call_text) {
  auto named = std::make_shared<Expr>();
  named->kind = ExprKind::Named;
  named->type = IntType::ULLong;
  named->constant = Value::make_unsigned(IntType::ULLong, function.folded);
  named->text = call_text;
  auto xored = std::make_shared<Expr>();
  xored->kind = ExprKind::Binary;
  xored->binary = BinaryOp::BitXor;
  xored->type = result_type(BinaryOp::BitXor, inner->type, IntType::ULLong);
  xored->kids = {inner, named};
  return xored;
}

} // namespace

std::string abi_call_text(const AbiFunction& function) {
  std::string args;
  for (const AbiParam& p : function.params)
    args += (args.empty() ? "" : ", ") + std::string(p.kind == AbiKind::Pointer ? "&" : "") + p.kernel_param;
  return function.name + "_result(" + function.name + "(" + args + "))";
}

std::string to_string(AbiKind kind) {
  switch (kind) {
  case AbiKind::AlignasStruct: return "alignas struct";
  case AbiKind::Vector: return "vector";
  case AbiKind::Scalar64: return "64-bit integer";
  case AbiKind::Scalar16: return "16-bit integer";
  case AbiKind::Bool: return "bool";
  case AbiKind::Char: return "char";
  case AbiKind::EmptyStruct: return "empty struct";
  case AbiKind::DoublePair: return "pair of doubles";
  case AbiKind::LargeStruct: return "large struct";
  case AbiKind::Pointer: return "pointer";
  case AbiKind::Reference: return "reference";
  }
  return "?";
}

std::uint64_t abi_fold(const AbiType& type) {
  if (type.kind == AbiKind::EmptyStruct) return 7;
  std::uint64_t sum = 0;
  if (type.kind == AbiKind::LargeStruct) {
    for (int i = 0; i < type.array_length; ++i) sum += large_element(type, i) * static_cast<std::uint64_t>(2 * i + 3);
    return sum;
  }
  for (std::size_t j = 0; j < type.fields.size(); ++j) sum += piece_of(type.fields[j]) * (2 * j + 3);
  return sum;
}

AbiType abi_result_of(const AbiType& result, std::uint64_t h) {
  AbiType out = result;
  if (out.kind == AbiKind::LargeStruct) {
    // v[i] = (unsigned int)(h + i * 7919): base and step of the same formula.
    out.array_base = static_cast<std::uint32_t>(h);
    out.array_step = 7919u;
    return out;
  }
  for (std::size_t j = 0; j < out.fields.size(); ++j) {
    AbiField& field = out.fields[j];
    const std::uint64_t shifted = h >> (8 * j);
    if (field.floating) {
      field.whole = static_cast<std::uint32_t>(shifted & kWholeMask);
    } else if (field.value.type == IntType::Bool) {
      field.value = Value::make_unsigned(IntType::Bool, shifted & 1);
    } else {
      // Masked to the type's non-negative range: the conversion is exact for every type.
      const int bits = bit_width(field.value.type) - (is_signed(field.value.type) ? 1 : 0);
      const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
      field.value = Value::make_unsigned(field.value.type, shifted & mask);
    }
  }
  return out;
}

std::uint64_t abi_call_value(const AbiFunction& function) {
  std::uint64_t h = function.salt;
  for (const AbiParam& p : function.params) h = h * kFnvPrime ^ abi_fold(p.type);
  return abi_fold(abi_result_of(function.result, h));
}

void plant_abi(Program& program, const Policy& policy, std::uint64_t seed) {
  SeededRng rng(seed ^ 0x6162695f70617231ull);  // "abi_par1": a stream of its own
  if (program.kernels.empty() || !rng.chance(policy.get("abi.share"))) return;
  const int count = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(policy.get("abi.functions.max"))));
  std::vector<bool> has_large(program.kernels.size(), false);
  std::vector<bool> touched(program.kernels.size(), false);
  for (int n = 0; n < count; ++n) {
    AbiFunction function;
    function.name = "cudiff_abi_" + std::to_string(n);
    function.kernel = static_cast<int>(rng.below(program.kernels.size()));
    function.salt = rng.next_u64();
    Kernel& kernel = program.kernels[static_cast<std::size_t>(function.kernel)];
    std::vector<Stmt*> writes;
    collect_writes(kernel.body, writes);
    if (writes.empty()) continue;
    const int params = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(policy.get("abi.params.max"))));
    for (int j = 0; j < params; ++j) {
      AbiParam param;
      param.kind = draw_kind(rng, policy, true, !has_large[function.kernel]);
      AbiKind value_kind = param.kind;
      if (param.kind == AbiKind::Pointer || param.kind == AbiKind::Reference)
        value_kind = draw_kind(rng, policy, false, !has_large[function.kernel]);
      param.type = make_type(rng, value_kind, function.name + "_p" + std::to_string(j));
      if (value_kind == AbiKind::LargeStruct) has_large[function.kernel] = true;
      param.kernel_param = "abi" + std::to_string(n) + "_" + std::to_string(j);
      param.grid_constant = rng.chance(policy.get("abi.grid_constant"));
      function.params.push_back(std::move(param));
    }
    function.result = make_type(rng, draw_kind(rng, policy, false, true), function.name + "_r");
    function.folded = abi_call_value(function);
    Stmt* write = writes[static_cast<std::size_t>(rng.below(writes.size()))];
    write->expr = xor_call(write->expr, function, abi_call_text(function));
    touched[static_cast<std::size_t>(function.kernel)] = true;
    program.abi.push_back(std::move(function));
  }
  const Interpreter interpreter(program);
  for (std::size_t k = 0; k < program.kernels.size(); ++k) {
    if (!touched[k]) continue;
    const Interpreter::KernelRun run = interpreter.run(program.kernels[k]);
    if (!run.problem.empty())
      throw Error(ErrorKind::internal, "generator defect: the ABI family's kernel has " + run.problem);
    program.kernels[k].expected_checksum = run.checksum;
  }
  if (!program.abi.empty()) validate_program(program, seed);
}

} // namespace cudiff::generator
