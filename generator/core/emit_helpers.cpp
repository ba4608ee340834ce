// emit_helpers: the fixed text of a generated program — includes, the host's runtime helpers —
// and the helper templates that spelled expressions call (folds, select, the class template,
// the SFINAE overloads, the vector folds).
#include "generator/core/emit_parts.h"

namespace cudiff::generator {
namespace {

const char* const kHelpers = R"(static void cudiff_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::printf("CUDA error %s: %s\n", what, cudaGetErrorString(status));
    std::fflush(stdout);
    std::exit(1);
  }
}

static unsigned long long cudiff_input(unsigned int index, unsigned int salt, unsigned int mode) {
  unsigned long long x = (index + 1ull) * 0x9E3779B97F4A7C15ull ^ salt;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  if (mode == 1) return (x & 63) - 32;
  if (mode == 2) return x & 0xffff;
  return x;
}

static unsigned long long cudiff_fold(const unsigned long long* words, size_t count) {
  unsigned long long hash = 1469598103934665603ull;
  for (size_t i = 0; i < count; ++i) {
    hash ^= words[i];
    hash *= 1099511628211ull;
  }
  return hash;
}
)";

const char* const kBinopNames[] = {"+", "-", "*", "&", "|", "^"};

// cudiff_binop<T, OP>(a).apply(b): a class template declared once and partially specialized
// per operator, with a constructor and a const member function (V-SAMPLE-CLASSTMPL).
std::string binop_template() {
  std::string text = "template <typename T, int Op> struct cudiff_binop;\n";
  for (int op = 0; op < 6; ++op)
    text += "template <typename T> struct cudiff_binop<T, " + std::to_string(op) +
            "> {\n"
            "  T lhs;\n"
            "  __device__ explicit cudiff_binop(T value) : lhs(value) {}\n"
            "  __device__ T apply(T rhs) const { return lhs " +
            kBinopNames[op] +
            " rhs; }\n"
            "};\n";
  return text;
}

std::string spelled_helpers(const std::set<std::string>& used) {
  std::string text;
  if (used.count("binop")) text += binop_template();
  if (used.count("sfinae"))
    text += "template <typename T, std::enable_if_t<std::is_signed<T>::value, int> = 0>\n"
            "__device__ T cudiff_tweak(T x) { return x ^ T(5); }\n"
            "template <typename T, std::enable_if_t<std::is_unsigned<T>::value, int> = 0>\n"
            "__device__ T cudiff_tweak(T x) { return x ^ T(10); }\n";
  static const std::pair<const char*, const char*> vector_ops[] = {{"add", "+"}, {"or", "|"}, {"xor", "^"}};
  for (const auto& [name, op] : vector_ops)
    for (int n = 2; n <= 4; ++n) {
      if (!used.count(std::string("v") + name + std::to_string(n))) continue;
      const std::string o = std::string(" ") + op + " ";
      const std::string body = n == 2   ? "v.x" + o + "v.y"
                               : n == 3 ? "(v.x" + o + "v.y)" + o + "v.z"
                                        : "(v.x" + o + "v.y)" + o + "(v.z" + o + "v.w)";
      text += "template <typename V> __device__ auto cudiff_v" + std::string(name) + std::to_string(n) +
              "(V v) { return " + body + "; }\n";
    }
  return text;
}

} // namespace

std::string fold_helper_name(bool right, BinaryOp op) {
  std::string name = right ? "fold_right_" : "fold_left_";
  switch (op) {
  case BinaryOp::Add: return name + "add";
  case BinaryOp::Sub: return name + "sub";
  case BinaryOp::Mul: return name + "mul";
  case BinaryOp::BitAnd: return name + "and";
  case BinaryOp::BitOr: return name + "or";
  case BinaryOp::BitXor: return name + "xor";
  default: return name + "?";
  }
}

std::string vector_family(IntType type) {
  switch (type) {
  case IntType::UInt: return "uint";
  case IntType::LLong: return "longlong";
  case IntType::ULLong: return "ulonglong";
  default: return "int";
  }
}

std::string prelude_text() {
  // <cstddef> (offsetof) and <type_traits> (layout probes, SFINAE) are cheap next to cuda_runtime.h.
  return "#include <cstddef>\n#include <cstdint>\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <type_traits>\n";
}

std::string runtime_helpers_text() { return kHelpers; }

std::string helper_templates(const std::set<std::string>& used) {
  std::string text;
  static const std::pair<const char*, const char*> ops[] = {{"add", "+"}, {"sub", "-"}, {"mul", "*"},
                                                            {"and", "&"}, {"or", "|"},  {"xor", "^"}};
  for (bool right : {true, false})
    for (const auto& [name, op] : ops) {
      const std::string helper = std::string(right ? "fold_right_" : "fold_left_") + name;
      if (!used.count(helper)) continue;
      const std::string fold = right ? std::string("(xs ") + op + " ...)" : std::string("(... ") + op + " xs)";
      text += "template <typename... Ts> __device__ auto cudiff_" + helper + "(Ts... xs) { return " + fold + "; }\n";
    }
  if (used.count("select"))
    text += "template <typename T> constexpr T cudiff_scale = T(3);\n"
            "template <typename T> using cudiff_same_t = T;\n"
            "template <typename T> __device__ cudiff_same_t<T> cudiff_select(T x) {\n"
            "  if constexpr (sizeof(T) >= 4) return x ^ cudiff_scale<T>;\n"
            "  else return x;\n"
            "}\n";
  text += spelled_helpers(used);
  return text;
}

} // namespace cudiff::generator
