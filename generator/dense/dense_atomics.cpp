// dense_atomics: the family dense_atomics — atomic min, max, and, or and xor on 32- and 64-bit
// words, signed and unsigned, at device, block and system scope, as built-ins and as atomicCAS
// loops. Each slot takes one operation only, so its final word is the same whatever order the
// threads update it in; a block-scope update only touches its own block's region, where every
// thread that updates the word is in the scope. The host sets the words, and reads them after
// the kernel.
#include "generator/dense/dense.h"

namespace cudiff::generator::dense {
namespace {

std::uint32_t region_words(const Kernel& kernel) { return (kernel.blocks + 1) * 4; }

const char* type_of(const AtomicSlot& slot, bool for_cas) {
  const bool is_signed = slot.is_signed && !for_cas;
  if (slot.wide) return is_signed ? "long long" : "unsigned long long";
  return is_signed ? "int" : "unsigned";
}

const char* op_name(AtomicOp op) {
  switch (op) {
  case AtomicOp::Min: return "Min";
  case AtomicOp::Max: return "Max";
  case AtomicOp::And: return "And";
  case AtomicOp::Or: return "Or";
  case AtomicOp::Xor: return "Xor";
  }
  return "Or";
}

const char* suffix(AtomicScope scope) {
  switch (scope) {
  case AtomicScope::Device: return "";
  case AtomicScope::Block: return "_block";
  case AtomicScope::System: return "_system";
  }
  return "";
}

} // namespace

std::uint64_t initial_atom(bool wide, std::uint32_t index) {
  if (wide) return (index + 1ull) * 0x9E3779B97F4A7C15ull ^ 0xC2B2AE3D27D4EB4Full;
  return static_cast<std::uint32_t>((index + 1u) * 2654435761u ^ 0x5bd1e995u);
}

std::uint64_t apply_atomic(const AtomicSlot& slot, std::uint64_t old, std::uint64_t value) {
  const std::uint64_t mask = slot.wide ? ~0ull : 0xffffffffull;
  old &= mask;
  value &= mask;
  // Signed order: flipping the sign bit maps it onto unsigned order.
  const std::uint64_t sign = slot.is_signed ? (slot.wide ? 1ull << 63 : 1ull << 31) : 0;
  switch (slot.op) {
  case AtomicOp::Min: return ((old ^ sign) <= (value ^ sign)) ? old : value;
  case AtomicOp::Max: return ((old ^ sign) >= (value ^ sign)) ? old : value;
  case AtomicOp::And: return old & value;
  case AtomicOp::Or: return old | value;
  case AtomicOp::Xor: return old ^ value;
  }
  return old;
}

std::uint32_t atomic_words(const Kernel& kernel) { return kernel.atomic_slots.empty() ? 0 : region_words(kernel) * 2; }

std::string atomic_globals(const Kernel& kernel) {
  if (kernel.atomic_slots.empty()) return "";
  const std::string n = std::to_string(region_words(kernel));
  return "__device__ unsigned " + kernel.name + "_atom32[" + n + "];\n__device__ unsigned long long " + kernel.name +
         "_atom64[" + n + "];\n";
}

std::string atomic_text(const Kernel& kernel, const Stmt& s, const std::string& value) {
  const std::uint32_t k = static_cast<std::uint32_t>(s.label);
  const AtomicSlot& slot = kernel.atomic_slots.at(k);
  const std::string region = slot.per_block ? "blockIdx.x" : std::to_string(kernel.blocks) + "u";
  const std::string word = "&" + kernel.name + (slot.wide ? "_atom64[" : "_atom32[") + region + " * 4u + " +
                           std::to_string(k % 4) + "u]";
  const auto scope = static_cast<AtomicScope>(s.vector_kind);
  if (!s.cas) {
    const std::string type = type_of(slot, false);
    const std::string pointer = slot.is_signed ? "(" + type + "*)" + word : word;
    return std::string("atomic") + op_name(slot.op) + suffix(scope) + "(" + pointer + ", (" + type + ")(" + value +
           "));";
  }
  // Read atomically (a CAS of 0 by 0 changes nothing), then retry until no other thread wrote
  // between the read and the CAS: the update is applied exactly once.
  const std::string type = type_of(slot, true);
  const std::string cas = std::string("atomicCAS") + suffix(scope);
  const std::string as = slot.wide ? "(long long)" : "(int)";
  const std::string cmp_want = slot.is_signed ? as + "cudiff_want" : "cudiff_want";
  const std::string cmp_v = slot.is_signed ? as + "cudiff_v" : "cudiff_v";
  std::string next;
  switch (slot.op) {
  case AtomicOp::Min: next = cmp_want + " < " + cmp_v + " ? cudiff_want : cudiff_v"; break;
  case AtomicOp::Max: next = cmp_want + " > " + cmp_v + " ? cudiff_want : cudiff_v"; break;
  case AtomicOp::And: next = "cudiff_want & cudiff_v"; break;
  case AtomicOp::Or: next = "cudiff_want | cudiff_v"; break;
  case AtomicOp::Xor: next = "cudiff_want ^ cudiff_v"; break;
  }
  return "{ " + type + "* const cudiff_p = " + word + "; const " + type + " cudiff_v = (" + type + ")(" + value +
         "); " + type + " cudiff_seen = " + cas + "(cudiff_p, (" + type + ")0, (" + type + ")0), cudiff_want; do { " +
         "cudiff_want = cudiff_seen; cudiff_seen = " + cas + "(cudiff_p, cudiff_want, " + next +
         "); } while (cudiff_seen != cudiff_want); }";
}

std::string atomic_host_before(const Kernel& kernel, bool checked) {
  if (kernel.atomic_slots.empty()) return "";
  const std::string n = std::to_string(region_words(kernel));
  const auto call = [&](const std::string& text, const char* what) {
    return checked ? "cudiff_check(" + text + ", \"" + what + "\");\n" : text + ";\n";
  };
  return "static unsigned host_atom32[" + n + "];\nstatic unsigned long long host_atom64[" + n + "];\n" +
         "for (unsigned i = 0; i < " + n + "u; ++i) {\n" +
         "  host_atom32[i] = (i + 1u) * 2654435761u ^ 0x5bd1e995u;\n" +
         "  host_atom64[i] = (i + 1ull) * 0x9E3779B97F4A7C15ull ^ 0xC2B2AE3D27D4EB4Full;\n}\n" +
         call("cudaMemcpyToSymbol(" + kernel.name + "_atom32, host_atom32, sizeof(host_atom32))",
              "cudaMemcpyToSymbol") +
         call("cudaMemcpyToSymbol(" + kernel.name + "_atom64, host_atom64, sizeof(host_atom64))", "cudaMemcpyToSymbol");
}

std::string atomic_host_after(const Kernel& kernel, std::uint32_t words, bool checked, bool compact) {
  if (kernel.atomic_slots.empty()) return "";
  const std::string n = std::to_string(region_words(kernel));
  const auto call = [&](const std::string& text, const char* what) {
    return checked ? "cudiff_check(" + text + ", \"" + what + "\");\n" : text + ";\n";
  };
  std::string text = call("cudaMemcpyFromSymbol(host_atom32, " + kernel.name + "_atom32, sizeof(host_atom32))",
                          "cudaMemcpyFromSymbol") +
                     call("cudaMemcpyFromSymbol(host_atom64, " + kernel.name + "_atom64, sizeof(host_atom64))",
                          "cudaMemcpyFromSymbol");
  if (compact)
    return text + "for (unsigned i = 0; i < " + n +
           "u; i += 4u) h = (h ^ (host_atom32[i] ^ host_atom32[i + 1] ^ host_atom32[i + 2] ^ host_atom32[i + 3])) * "
           "1099511628211ull;\n" +
           "for (unsigned i = 0; i < " + n +
           "u; i += 4u) h = (h ^ (host_atom64[i] ^ host_atom64[i + 1] ^ host_atom64[i + 2] ^ host_atom64[i + 3])) * "
           "1099511628211ull;\n";
  const std::string at = std::to_string(words);
  return text + "for (unsigned i = 0; i < " + n + "u; ++i) {\n  host_out[" + at + "u + i] = host_atom32[i];\n" +
         "  host_out[" + at + "u + " + n + "u + i] = host_atom64[i];\n}\n";
}

} // namespace cudiff::generator::dense
