// dense_memory: the text and the exact values of the families dense_bitfields (a struct of
// odd-width signed and unsigned bit-fields in local, shared and global memory),
// dense_padded_structs (a struct of 3-vectors with inner and tail padding, passed by value to a
// __noinline__ function and returned) and dense_fences (partials published with a fence and an
// atomic count, folded by the thread that counts last). The interpreter (dense_run.cpp) calls
// the value functions here; the text and the values change together.
#include "generator/dense/dense.h"

#include "common/common.h"

#include <cstdio>

namespace cudiff::generator::dense {
namespace {

const BitMember kBits[kBitMembers] = {{"u1", 1, false, nullptr},         {"s3", 3, true, nullptr},
                                      {"u7", 7, false, nullptr},         {"s13", 13, true, nullptr},
                                      {"u31", 31, false, nullptr},       {"s7", 7, true, nullptr},
                                      {"u13", 13, false, nullptr},       {"s31", 31, true, nullptr},
                                      {"pc", 8, false, "unsigned char"}, {"ph", 16, false, "unsigned short"},
                                      {"pw", 32, false, "unsigned"},     {"u3", 3, false, nullptr}};

std::uint32_t mask_of(const BitMember& m) { return m.bits >= 32 ? 0xffffffffu : (1u << m.bits) - 1u; }

std::string hex32(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%xu", value);
  return text;
}

/// A signed member's operand text for an expression's text: (int)((v) & mask) - half.
std::string signed_operand(const BitMember& m, const std::string& value) {
  return "(int)((" + value + ") & " + hex32(mask_of(m)) + ") - " + std::to_string(1u << (m.bits - 1));
}

std::string bit_place(const Kernel& kernel, int place) {
  switch (static_cast<BitPlace>(place)) {
  case BitPlace::Local: return "cudiff_bfl";
  case BitPlace::Shared: return "cudiff_bfs[threadIdx.x]";
  case BitPlace::Global: return kernel.name + "_bfg[t]";
  }
  throw Error(ErrorKind::internal, "dense: a bit-field struct in no place");
}

const char* const kPaddedText[kPaddedMembers] = {"char3 a;",  "short3 b;", "uchar3 c;",
                                                 "float3 f;", "int i;",    "unsigned char k;"};

/// The text that sets member `member` of `p` from cudiff_v (padded_set).
std::string padded_set_text(const std::string& p, std::uint32_t member) {
  switch (member) {
  case 0:
    return p + ".a = make_char3((signed char)cudiff_v, (signed char)(cudiff_v >> 8), (signed char)(cudiff_v >> 16));";
  case 1: return p + ".b = make_short3((short)cudiff_v, (short)(cudiff_v >> 16), (short)(cudiff_v >> 5));";
  case 2:
    return p +
           ".c = make_uchar3((unsigned char)cudiff_v, (unsigned char)(cudiff_v >> 8), (unsigned char)(cudiff_v >> 24));";
  case 3:
    return p + ".f = make_float3((float)(cudiff_v & 0xffffu), (float)((cudiff_v >> 16) & 0xffu), (float)(cudiff_v & "
               "0x3ffu));";
  case 4: return p + ".i = (int)cudiff_v;";
  case 5: return p + ".k = (unsigned char)cudiff_v;";
  }
  throw Error(ErrorKind::internal, "dense: a padded struct's member out of range");
}

std::uint32_t fnv(std::uint32_t h, std::uint32_t value) { return (h ^ value) * 16777619u; }

const char* fence_call(FenceKind kind) {
  switch (kind) {
  case FenceKind::Device: return "__threadfence();";
  case FenceKind::System: return "__threadfence_system();";
  case FenceKind::Block: return "__threadfence_block();";
  case FenceKind::CudaDevice:
    return "cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_device);";
  case FenceKind::CudaSystem:
    return "cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_system);";
  case FenceKind::CudaBlock:
    return "cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_block);";
  case FenceKind::None: break;
  }
  return "";
}

} // namespace

const BitMember& bit_member(std::uint32_t index) { return kBits[index]; }

std::uint32_t bit_store(std::uint32_t member, std::uint32_t value) {
  const BitMember& m = kBits[member];
  if (!m.is_signed) return value & mask_of(m);
  return static_cast<std::uint32_t>(static_cast<std::int32_t>(value & mask_of(m)) - (std::int32_t(1) << (m.bits - 1)));
}

std::uint32_t bit_compound(std::uint32_t member, CompoundOp op, std::uint32_t old, std::uint32_t value) {
  const BitMember& m = kBits[member];
  const std::uint32_t operand = m.is_signed ? bit_store(member, value) : value;
  std::uint32_t r = 0;
  switch (op) {
  case CompoundOp::Add: r = old + operand; break;
  case CompoundOp::Sub: r = old - operand; break;
  case CompoundOp::Mul: r = old * operand; break;
  case CompoundOp::Xor: r = old ^ operand; break;
  case CompoundOp::Or: r = old | operand; break;
  case CompoundOp::And: r = old & operand; break;
  case CompoundOp::None: r = operand; break;
  }
  if (m.is_signed) {
    if (op != CompoundOp::Xor && op != CompoundOp::Or && op != CompoundOp::And)
      throw Error(ErrorKind::internal, "dense: a signed bit-field updated by an operation that may not fit");
    return r;  // sign-extended operands: the result is sign-extended and fits
  }
  return r & mask_of(m);
}

std::uint32_t bit_fold(const std::uint32_t* members) {
  std::uint32_t h = 2166136261u;
  for (std::uint32_t k = 0; k < kBitMembers; ++k) h = fnv(h, members[k]);
  return h;
}

void padded_set(Padded& p, std::uint32_t member, std::uint32_t v) {
  switch (member) {
  case 0:
    p.a[0] = static_cast<std::int8_t>(v), p.a[1] = static_cast<std::int8_t>(v >> 8),
    p.a[2] = static_cast<std::int8_t>(v >> 16);
    return;
  case 1:
    p.b[0] = static_cast<std::int16_t>(v), p.b[1] = static_cast<std::int16_t>(v >> 16),
    p.b[2] = static_cast<std::int16_t>(v >> 5);
    return;
  case 2:
    p.c[0] = static_cast<std::uint8_t>(v), p.c[1] = static_cast<std::uint8_t>(v >> 8),
    p.c[2] = static_cast<std::uint8_t>(v >> 24);
    return;
  case 3:
    p.f[0] = static_cast<float>(v & 0xffffu), p.f[1] = static_cast<float>((v >> 16) & 0xffu),
    p.f[2] = static_cast<float>(v & 0x3ffu);
    return;
  case 4: p.i = static_cast<std::int32_t>(v); return;
  case 5: p.k = static_cast<std::uint8_t>(v); return;
  }
  throw Error(ErrorKind::internal, "dense: a padded struct's member out of range");
}

// The device function's text (memory_globals) line by line: C++ arithmetic on the same types.
Padded padded_call(Padded p, std::uint32_t k) {
  p.a[0] = static_cast<std::int8_t>(p.a[0] + static_cast<int>(k & 15u));
  p.a[1] = static_cast<std::int8_t>(p.a[1] ^ static_cast<int>(k >> 4));
  p.a[2] = static_cast<std::int8_t>(p.a[2] - p.a[0]);
  p.b[0] = static_cast<std::int16_t>(p.b[0] + static_cast<int>(k & 0xffu));
  p.b[1] = static_cast<std::int16_t>(p.b[1] ^ static_cast<int>(k >> 8));
  p.b[2] = static_cast<std::int16_t>(p.b[2] * 3);
  p.c[0] = static_cast<std::uint8_t>(p.c[0] + k);
  p.c[1] = static_cast<std::uint8_t>(p.c[1] * 5u);
  p.c[2] = static_cast<std::uint8_t>(p.c[2] ^ p.c[0]);
  p.f[0] = p.f[0] < 65536.0f ? p.f[0] + 1.0f : 0.0f;
  p.f[1] = static_cast<float>(k & 0xffffu);
  p.f[2] = p.f[0] + p.f[1];
  p.i = p.i ^ static_cast<int>(k & 0x7fffffffu);
  p.k = static_cast<std::uint8_t>(p.k + 1u);
  return p;
}

std::uint32_t padded_fold(const Padded& p) {
  std::uint32_t h = 2166136261u;
  for (std::int8_t x : p.a) h = fnv(h, static_cast<std::uint32_t>(x));
  for (std::int16_t x : p.b) h = fnv(h, static_cast<std::uint32_t>(x));
  for (std::uint8_t x : p.c) h = fnv(h, x);
  for (float x : p.f) h = fnv(h, static_cast<std::uint32_t>(x));
  h = fnv(h, static_cast<std::uint32_t>(p.i));
  return fnv(h, p.k);
}

std::string memory_globals(const Kernel& kernel) {
  const std::string n = std::to_string(kernel.blocks * kernel.threads);
  const std::string& k = kernel.name;
  std::string text;
  if (!kernel.bit_members.empty()) {
    text += "struct " + k + "_bf {\n";
    for (std::uint8_t i : kernel.bit_members) {
      const BitMember& m = kBits[i];
      text += m.plain ? std::string("  ") + m.plain + " " + m.name + ";\n"
                      : std::string("  ") + (m.is_signed ? "int " : "unsigned ") + m.name + " : " +
                            std::to_string(m.bits) + ";\n";
    }
    text += "};\n__device__ " + k + "_bf " + k + "_bfg[" + n + "];\n";
    text += "__device__ __forceinline__ unsigned " + k + "_bffold(const " + k + "_bf& s) {\n";
    text += "  unsigned h = 2166136261u;\n";
    for (const BitMember& m : kBits) text += std::string("  h = (h ^ (unsigned)s.") + m.name + ") * 16777619u;\n";
    text += "  return h;\n}\n";
  }
  if (!kernel.padded_members.empty()) {
    text += "struct " + k + "_tp {\n";
    for (std::uint8_t i : kernel.padded_members) text += std::string("  ") + kPaddedText[i] + "\n";
    text += "};\n__device__ " + k + "_tp " + k + "_tpg[" + n + "];\n";
    // padded_call's text: the struct by value in and out of a call the compilers may not inline.
    text += "__device__ __noinline__ " + k + "_tp " + k + "_tpf(" + k + "_tp p, unsigned k) {\n" +
            "  p.a.x = (signed char)(p.a.x + (int)(k & 15u));\n"
            "  p.a.y = (signed char)(p.a.y ^ (int)(k >> 4));\n"
            "  p.a.z = (signed char)(p.a.z - p.a.x);\n"
            "  p.b.x = (short)(p.b.x + (int)(k & 0xffu));\n"
            "  p.b.y = (short)(p.b.y ^ (int)(k >> 8));\n"
            "  p.b.z = (short)(p.b.z * 3);\n"
            "  p.c.x = (unsigned char)(p.c.x + k);\n"
            "  p.c.y = (unsigned char)(p.c.y * 5u);\n"
            "  p.c.z = (unsigned char)(p.c.z ^ p.c.x);\n"
            "  p.f.x = p.f.x < 65536.0f ? p.f.x + 1.0f : 0.0f;\n"
            "  p.f.y = (float)(k & 0xffffu);\n"
            "  p.f.z = p.f.x + p.f.y;\n"
            "  p.i = p.i ^ (int)(k & 0x7fffffffu);\n"
            "  p.k = (unsigned char)(p.k + 1u);\n"
            "  return p;\n}\n";
    text += "__device__ __forceinline__ unsigned " + k + "_tpfold(const " + k + "_tp& p) {\n";
    text += "  unsigned h = 2166136261u;\n";
    for (const char* member :
         {"a.x", "a.y", "a.z", "b.x", "b.y", "b.z", "c.x", "c.y", "c.z", "f.x", "f.y", "f.z", "i", "k"})
      text += std::string("  h = (h ^ (unsigned)p.") + member + ") * 16777619u;\n";
    text += "  return h;\n}\n";
  }
  if (kernel.fence != FenceKind::None)
    text += "__device__ unsigned long long " + k + "_part[" + n + "];\n__device__ unsigned " + k +
            "_count;\n__device__ unsigned long long " + k + "_fence[4];\n";
  return text;
}

std::string memory_prologue(const Kernel& kernel) {
  std::string text;
  if (!kernel.bit_members.empty()) {
    const std::string type = kernel.name + "_bf";
    text += type + " cudiff_bfl = {};\n";
    text += "__shared__ " + type + " cudiff_bfs[" + std::to_string(kernel.threads) + "];\n";
    text += "cudiff_bfs[threadIdx.x] = cudiff_bfl;\n";
    text += kernel.name + "_bfg[t] = cudiff_bfl;\n";
  }
  if (!kernel.padded_members.empty()) text += kernel.name + "_tpg[t] = " + kernel.name + "_tp{};\n";
  if (block_fence(kernel.fence))
    text += "__shared__ unsigned cudiff_fence_count;\nif (threadIdx.x == 0u) cudiff_fence_count = 0u;\n"
            "__syncthreads();\n";
  return text;
}

std::string memory_text(const Kernel& kernel, const Stmt& s, const std::vector<std::string>& exprs,
                        const std::string& var, bool constant) {
  if (s.kind == StmtKind::Padded) {
    const std::string g = kernel.name + "_tpg[t]";
    const std::string head = "{ const unsigned cudiff_v = " + exprs[0] + "; ";
    const std::string tail = " " + var + " ^= " + kernel.name + "_tpfold(" + g + "); }";
    const auto member = static_cast<std::uint32_t>(s.width);
    if (s.vector_kind == 0)
      return head + kernel.name + "_tp cudiff_p = " + g + "; " + padded_set_text("cudiff_p", member) + " const " +
             kernel.name + "_tp cudiff_q = " + kernel.name + "_tpf(cudiff_p, " + exprs[1] + "); " + g + " = cudiff_q;" +
             tail;
    return head + padded_set_text(g, member) + " " + g + " = " + kernel.name + "_tpf(" + g + ", " + exprs[1] + ");" +
           tail;
  }
  const std::string place = bit_place(kernel, s.label);
  const BitMember& m = kBits[s.width];
  const std::string at = place + "." + m.name;
  static const char* const ops[] = {"=", "+=", "-=", "^=", "|=", "&=", "*="};
  switch (s.vector_kind) {
  case 0:
    if (m.is_signed) return at + " = " + signed_operand(m, exprs[0]) + ";";
    // A constant that does not fit draws a truncation warning: masked, it fits.
    if (constant && m.bits < 32) return at + " = (" + exprs[0] + ") & " + hex32(mask_of(m)) + ";";
    return at + " = " + exprs[0] + ";";
  case 1:
    return at + " " + ops[static_cast<int>(s.compound)] + " " + (m.is_signed ? signed_operand(m, exprs[0]) : exprs[0]) +
           ";";
  case 2: return var + " ^= (unsigned)" + at + ";";
  case 3: return place + " = " + bit_place(kernel, static_cast<int>(s.lo)) + ";";
  case 4: return var + " ^= " + kernel.name + "_bffold(" + place + ");";
  }
  throw Error(ErrorKind::internal, "dense: a bit-field statement of no kind");
}

std::string fence_publish(const Kernel& kernel, const std::string& hash) {
  if (kernel.fence == FenceKind::None) return "";
  const std::string& k = kernel.name;
  const std::string fence = fence_call(kernel.fence);
  const bool block = block_fence(kernel.fence);
  const bool system = kernel.fence == FenceKind::System || kernel.fence == FenceKind::CudaSystem;
  const std::string count = block    ? "atomicAdd(&cudiff_fence_count, 1u)"
                            : system ? "atomicAdd_system(&" + k + "_count, 1u)"
                                     : "atomicAdd(&" + k + "_count, 1u)";
  const std::string threads = std::to_string(block ? kernel.threads : kernel.blocks * kernel.threads) + "u";
  const std::string first = block ? "blockIdx.x * " + std::to_string(kernel.threads) + "u + " : "";
  // The partials are read volatile: after the fence, from memory, never from an earlier read.
  return k + "_part[t] = " + hash + ";\n" + fence + "\nif (" + count + " == " + threads + " - 1u) {\n  " + fence +
         "\n  unsigned long long cudiff_r = 1469598103934665603ull;\n  for (unsigned k = 0; k < " + threads +
         "; ++k) cudiff_r = (cudiff_r ^ ((volatile unsigned long long*)" + k + "_part)[" + first +
         "k]) * 1099511628211ull;\n  " + k + "_fence[" + (block ? "blockIdx.x" : "3u") + "] = cudiff_r;\n}\n";
}

std::uint32_t fence_words(const Kernel& kernel) { return kernel.fence == FenceKind::None ? 0 : kFenceWords; }

std::vector<std::uint64_t> fence_results(const Kernel& kernel, const std::vector<std::uint64_t>& partials) {
  if (kernel.fence == FenceKind::None) return {};
  if (block_fence(kernel.fence) && kernel.blocks >= kFenceWords)
    throw Error(ErrorKind::internal, "dense: more blocks than fence result words");
  std::vector<std::uint64_t> words(kFenceWords, 0);
  const auto fold = [&](std::size_t from, std::size_t count) {
    std::uint64_t r = 1469598103934665603ull;
    for (std::size_t i = 0; i < count; ++i) r = (r ^ partials[from + i]) * 1099511628211ull;
    return r;
  };
  if (block_fence(kernel.fence))
    for (std::uint32_t b = 0; b < kernel.blocks; ++b) words[b] = fold(std::size_t(b) * kernel.threads, kernel.threads);
  else words[3] = fold(0, partials.size());
  return words;
}

std::string fence_host_before(const Kernel& kernel, bool checked) {
  if (kernel.fence == FenceKind::None) return "";
  const auto call = [&](const std::string& text) {
    return checked ? "cudiff_check(" + text + ", \"cudaMemcpyToSymbol\");\n" : text + ";\n";
  };
  return "static unsigned long long host_fence[4] = {0, 0, 0, 0};\nstatic unsigned host_count = 0u;\n" +
         call("cudaMemcpyToSymbol(" + kernel.name + "_fence, host_fence, sizeof(host_fence))") +
         call("cudaMemcpyToSymbol(" + kernel.name + "_count, &host_count, sizeof(host_count))");
}

std::string fence_host_after(const Kernel& kernel, std::uint32_t words, bool checked, bool compact) {
  if (kernel.fence == FenceKind::None) return "";
  const std::string copy = "cudaMemcpyFromSymbol(host_fence, " + kernel.name + "_fence, sizeof(host_fence))";
  std::string text = checked ? "cudiff_check(" + copy + ", \"cudaMemcpyFromSymbol\");\n" : copy + ";\n";
  if (compact)
    return text + "h = (h ^ (host_fence[0] ^ host_fence[1] ^ host_fence[2] ^ host_fence[3])) * 1099511628211ull;\n";
  return text + "for (unsigned i = 0; i < 4u; ++i) host_out[" + std::to_string(words) + "u + i] = host_fence[i];\n";
}

} // namespace cudiff::generator::dense
