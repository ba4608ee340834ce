// dense_emit: the text of a compute-dense kernel — its device functions, the __global__
// function and its host runner. The prologue and the output words mirror dense_run.cpp
// exactly; the two change together.
#include "generator/core/emit_parts.h"
#include "generator/dense/dense.h"

#include "common/common.h"

#include <algorithm>
#include <cstdio>

namespace cudiff::generator::dense {
namespace {

std::string hex(std::uint64_t value, bool wide) {
  char text[32];
  if (wide) std::snprintf(text, sizeof text, "0x%llxull", static_cast<unsigned long long>(value));
  else std::snprintf(text, sizeof text, "0x%xu", static_cast<unsigned>(value));
  return text;
}

class Emitter {
public:
  /// `one_word`: each thread writes the xor of its 4 output words to out[t] (compact_words).
  Emitter(const Kernel& kernel, const std::vector<Var>& vars, bool one_word = false)
      : kernel_(kernel), vars_(vars), one_word_(one_word) {}

  std::string expr(const Expr& e) const {
    switch (e.kind) {
    case Expr::Kind::Const: return hex(e.value, e.wide);
    case Expr::Kind::Var: {
      const Var& v = vars_[e.var];
      const bool own = e.wide ? v.type == VarType::u64 : v.type == VarType::u32;
      if (own && !v.is_volatile) return v.name;
      return std::string(e.wide ? "(unsigned long long)" : "(unsigned)") + v.name;
    }
    case Expr::Kind::LoopIndex: return widen_text("i" + std::to_string(e.value), e.wide);
    case Expr::Kind::ThreadId: return widen_text("t", e.wide);
    case Expr::Kind::Input: {
      const std::string at = "(" + expr(e.args[0]) + ") & 255u";
      static const char* const hints[] = {"", "__ldcs", "__ldcg", "cudiff_ldlu", "cudiff_ldca", "__ldcv"};
      if (e.ldg) return widen_text("__ldg(&in[" + at + "])", e.wide);
      if (e.hint != 0) return widen_text(std::string(hints[e.hint]) + "(&in[" + at + "])", e.wide);
      return widen_text("in[" + at + "]", e.wide);
    }
    case Expr::Kind::Local: return widen_text("loc[(" + expr(e.args[0]) + ") & 7u]", e.wide);
    case Expr::Kind::Shared: return widen_text("sh[sb + ((" + expr(e.args[0]) + ") & 7u)]", e.wide);
    case Expr::Kind::Operation: {
      const std::string pattern = info(e.op).text;
      std::string out;
      for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] >= '0' && pattern[i + 1] <= '9') {
          out += expr(e.args[pattern[i + 1] - '0']);
          ++i;
        } else {
          out += pattern[i];
        }
      }
      return out;
    }
    case Expr::Kind::Call: {
      const Function& fn = kernel_.functions[e.var];
      std::string out = fn.name + "(in, t";
      for (const Expr& arg : e.args) out += ", " + expr(arg);
      return out + ")";
    }
    }
    return "0u";
  }

  void block(const Body& body, Writer& w) const {
    for (const Stmt& s : body) statement(s, w);
  }

  /// The thread's output words (the same text at an early return and at the end).
  void write_output(Writer& w) const {
    if (vars_.size() == 5 && !kernel_.local_words && !kernel_.shared_words && !kernel_.byte_words) {
      // Nothing to hash (only a reduced kernel): the hash's start value.
      write_words(w, "1469598103934665603ull");
      return;
    }
    w.line("{");
    w.indent++;
    w.line("unsigned long long h = 1469598103934665603ull;");
    for (std::size_t i = 5; i < vars_.size(); ++i)
      w.line("h = (h ^ (unsigned long long)" + vars_[i].name + ") * 1099511628211ull;");
    if (kernel_.local_words) w.line("for (unsigned k = 0; k < 8u; ++k) h = (h ^ loc[k]) * 1099511628211ull;");
    if (kernel_.shared_words) w.line("for (unsigned k = 0; k < 8u; ++k) h = (h ^ sh[sb + k]) * 1099511628211ull;");
    if (kernel_.byte_words)
      w.line("for (unsigned k = 0; k < 8u; ++k) h = (h ^ reinterpret_cast<const unsigned char*>(" + kernel_.name +
             "_bytes + t * 2u)[k]) * 1099511628211ull;");
    write_words(w, "h");
    w.indent--;
    w.line("}");
  }

private:
  void write_words(Writer& w, const std::string& hash) const {
    const bool base = kernel_.base_words;
    if (one_word_) {
      store(w, "t",
            std::string(base ? "(((unsigned long long)a << 32) | b) ^ (((unsigned long long)c << 32) | d) ^ w ^ "
                             : "") +
                hash);
    } else {
      store(w, "t * 4u + 0u", base ? "((unsigned long long)a << 32) | b" : "0ull");
      store(w, "t * 4u + 1u", base ? "((unsigned long long)c << 32) | d" : "0ull");
      store(w, "t * 4u + 2u", base ? "w" : "0ull");
      store(w, "t * 4u + 3u", hash);
    }
    lines(w, fence_publish(kernel_, hash));
  }

  /// out[at] = value, plainly or through the kernel's store hint (dense_cache_hints).
  void store(Writer& w, const std::string& at, const std::string& value) const {
    static const char* const hints[] = {"", "cudiff_stcs", "__stwt", "cudiff_stcg", "cudiff_stwb"};
    if (kernel_.store_hint == 0) w.line("out[" + at + "] = " + value + ";");
    else w.line(std::string(hints[kernel_.store_hint]) + "(&out[" + at + "], " + value + ");");
  }

  static void lines(Writer& w, const std::string& text) {
    std::size_t start = 0;
    for (std::size_t end = text.find('\n'); end != std::string::npos; start = end + 1, end = text.find('\n', start))
      w.line(text.substr(start, end - start));
  }

  static bool is_constant(const Expr& e) {
    if (e.kind == Expr::Kind::Const) return true;
    if (e.kind != Expr::Kind::Operation) return false;
    for (const Expr& arg : e.args)
      if (!is_constant(arg)) return false;
    return true;
  }

  static std::string widen_text(const std::string& text, bool wide) {
    return wide ? "(unsigned long long)" + text : text;
  }

  void nested(const Body& body, Writer& w) const {
    w.line("{");
    w.indent++;
    block(body, w);
    w.indent--;
    w.line("}");
  }

  void statement(const Stmt& s, Writer& w) const {
    switch (s.kind) {
    case StmtKind::Assign: {
      const Var& v = vars_[s.var];
      static const char* const ops[] = {"=", "+=", "-=", "^=", "|=", "&=", "*="};
      const std::string value = expr(s.exprs[0]);
      if (s.compound != CompoundOp::None) w.line(v.name + " " + ops[static_cast<int>(s.compound)] + " " + value + ";");
      else if (v.type == VarType::u32 || v.type == VarType::u64) w.line(v.name + " = " + value + ";");
      else w.line(v.name + " = (" + type_name(v.type) + ")(" + value + ");");
      return;
    }
    case StmtKind::StoreLocal: w.line("loc[(" + expr(s.exprs[0]) + ") & 7u] = " + expr(s.exprs[1]) + ";"); return;
    case StmtKind::StoreShared:
      w.line("sh[sb + ((" + expr(s.exprs[0]) + ") & 7u)] = " + expr(s.exprs[1]) + ";");
      return;
    case StmtKind::VectorLoad: {
      static const char* const types[] = {"uint2", "uint4", "ulonglong2"};
      static const char* const masks[] = {"127u", "63u", "63u"};
      const std::string type = types[s.vector_kind];
      const std::string at = "(" + expr(s.exprs[0]) + ") & " + masks[s.vector_kind];
      const std::string base = "reinterpret_cast<const " + type + "*>(in)";
      const bool ldg = s.compound == CompoundOp::Add;
      w.line("{");
      w.indent++;
      w.line("const " + type + " q = " + (ldg ? "__ldg(" + base + " + (" + at + "))" : base + "[" + at + "]") + ";");
      if (s.vector_kind == 0) w.line("a ^= q.x; b += q.y;");
      else if (s.vector_kind == 1) w.line("a ^= q.x; b += q.y; c ^= q.z; d += q.w;");
      else w.line("w ^= q.x; w += q.y;");
      w.indent--;
      w.line("}");
      return;
    }
    case StmtKind::VectorStore:
      w.line("reinterpret_cast<uint4*>(sh + sb)[(" + expr(s.exprs[0]) + ") & 1u] = make_uint4(" + expr(s.exprs[1]) +
             ", " + expr(s.exprs[2]) + ", " + expr(s.exprs[3]) + ", " + expr(s.exprs[4]) + ");");
      return;
    case StmtKind::StoreBytes: {
      const std::string at = kernel_.name + "_bytes[t * 2u + ((" + expr(s.exprs[0]) + ") & 1u)]";
      if (s.vector_kind < 4) {
        static const char* const members[] = {".x", ".y", ".z", ".w"};
        w.line(at + members[s.vector_kind] + " = (unsigned char)(" + expr(s.exprs[1]) + ");");
        return;
      }
      const std::string value = "make_uchar4((unsigned char)(" + expr(s.exprs[1]) + "), (unsigned char)(" +
                                expr(s.exprs[2]) + "), (unsigned char)(" + expr(s.exprs[3]) + "), (unsigned char)(" +
                                expr(s.exprs[4]) + "))";
      // 5: the same value through the write-through store hint (clang-22 has __stwt but not __stcs,
      // __stcg or __stwb: those would be a dialect difference, not a test).
      if (s.vector_kind == 4) w.line(at + " = " + value + ";");
      else w.line("__stwt(&" + at + ", " + value + ");");
      return;
    }
    case StmtKind::Atomic: w.line(atomic_text(kernel_, s, expr(s.exprs[0]))); return;
    case StmtKind::BitField:
    case StmtKind::Padded: {
      std::vector<std::string> texts;
      for (const Expr& e : s.exprs) texts.push_back(expr(e));
      w.line(memory_text(kernel_, s, texts, s.var >= 0 ? vars_[s.var].name : "",
                         !s.exprs.empty() && is_constant(s.exprs[0])));
      return;
    }
    case StmtKind::Generic: {
      // One pointer for three (or two) state spaces: the compilers must keep it generic
      // (cvta to it, ld/st through it) unless they prove which one it is.
      const std::string index = "const unsigned cudiff_i = " + expr(s.exprs[1]) + ";";
      if (s.vector_kind == 0) {
        w.line("{ const unsigned cudiff_s = (" + expr(s.exprs[0]) + ") % 3u; " + index);
        w.line("  const unsigned* const cudiff_g = cudiff_s == 0u ? &in[cudiff_i & 255u] : cudiff_s == 1u ? "
               "&sh[sb + (cudiff_i & 7u)] : &loc[cudiff_i & 7u];");
        w.line("  " + vars_[s.var].name + " ^= *cudiff_g; }");
      } else {
        w.line("{ const unsigned cudiff_s = (" + expr(s.exprs[0]) + ") & 1u; " + index);
        w.line("  unsigned* const cudiff_g = cudiff_s ? &sh[sb + (cudiff_i & 7u)] : &loc[cudiff_i & 7u];");
        w.line("  *cudiff_g = " + expr(s.exprs[2]) + "; }");
      }
      return;
    }
    case StmtKind::If:
      w.line("if (" + expr(s.exprs[0]) + ") {");
      w.indent++;
      block(s.body, w);
      w.indent--;
      if (s.else_body.empty()) {
        w.line("}");
        return;
      }
      w.line("} else {");
      w.indent++;
      block(s.else_body, w);
      w.indent--;
      w.line("}");
      return;
    case StmtKind::For: {
      if (s.unroll == kFullUnroll) w.line("#pragma unroll");
      else if (s.unroll != 0) w.line("#pragma unroll " + std::to_string(s.unroll));
      const std::string i = "i" + std::to_string(s.depth);
      const std::string bound = s.exprs.empty() ? std::to_string(s.lo) + "u"
                                                : "((" + expr(s.exprs[0]) + ") & " + std::to_string(s.mask) + "u) + " +
                                                      std::to_string(s.lo) + "u";
      w.line("for (unsigned " + i + " = 0; " + i + " < " + bound + "; ++" + i + ") {");
      w.indent++;
      block(s.body, w);
      w.indent--;
      w.line("}");
      return;
    }
    case StmtKind::Break: w.line("if (" + expr(s.exprs[0]) + ") break;"); return;
    case StmtKind::Continue: w.line("if (" + expr(s.exprs[0]) + ") continue;"); return;
    case StmtKind::Switch: {
      if (s.table != 0)
        w.line("switch ((" + expr(s.exprs[0]) + ") % " + std::to_string(s.table) + "u + " + std::to_string(s.lo) +
               "u) {");
      else w.line("switch ((" + expr(s.exprs[0]) + ") & 7u) {");
      for (std::size_t c = 0; c < s.cases.size(); ++c) {
        const SwitchCase& sc = s.cases[c];
        const bool is_default = s.has_default && c + 1 == s.cases.size();
        w.line(is_default ? "default:" : "case " + std::to_string(sc.label) + "u:");
        w.indent++;
        nested(sc.body, w);
        if (sc.fallthrough && c + 1 < s.cases.size()) w.line("[[fallthrough]];");
        else w.line("break;");
        w.indent--;
      }
      w.line("}");
      return;
    }
    case StmtKind::Goto: {
      const std::string label = "skip_" + std::to_string(s.label);
      w.line("if (" + expr(s.exprs[0]) + ") goto " + label + ";");
      nested(s.body, w);
      w.line(label + ":;");
      return;
    }
    case StmtKind::Return:
      w.line("if (" + expr(s.exprs[0]) + ") {");
      w.indent++;
      write_output(w);
      w.line("return;");
      w.indent--;
      w.line("}");
      return;
    case StmtKind::Asm: {
      std::vector<std::string> outputs, inputs;
      for (int target : s.targets) outputs.push_back(vars_[target].name);
      for (const Expr& e : s.exprs) inputs.push_back(expr(e));
      w.line(ptx::asm_statement(*s.ptx, outputs, inputs));
      return;
    }
    case StmtKind::Shuffle: {
      const std::string width = std::to_string(s.width);
      const std::string value = expr(s.exprs[0]), operand = "(" + expr(s.exprs[1]) + ")";
      const std::string masked = "(" + operand + " & " + std::to_string(s.width - 1) + "u)";
      std::string call;
      switch (s.shuffle) {
      case ShuffleKind::Idx:
        call = "__shfl_sync(0xffffffffu, " + value + ", (int)" + operand + ", " + width + ")";
        break;
      case ShuffleKind::Up: call = "__shfl_up_sync(0xffffffffu, " + value + ", " + masked + ", " + width + ")"; break;
      case ShuffleKind::Down:
        call = "__shfl_down_sync(0xffffffffu, " + value + ", " + masked + ", " + width + ")";
        break;
      case ShuffleKind::Xor:
        call = "__shfl_xor_sync(0xffffffffu, " + value + ", (int)" + masked + ", " + width + ")";
        break;
      }
      w.line(vars_[s.var].name + " = " + call + ";");
      return;
    }
    case StmtKind::WarpReduce: {
      static const char* const names[] = {"add", "min", "max", "and", "or", "xor"};
      const std::string value = expr(s.exprs[0]);
      if (s.reduce == WarpReduceKind::Ballot)
        w.line(vars_[s.var].name + " = __ballot_sync(0xffffffffu, (int)((" + value + ") & 1u));");
      else
        w.line(vars_[s.var].name + " = __reduce_" + names[static_cast<int>(s.reduce)] + "_sync(0xffffffffu, " + value +
               ");");
      return;
    }
    }
  }

  const Kernel& kernel_;
  const std::vector<Var>& vars_;
  bool one_word_ = false;
};

void emit_function(const Kernel& kernel, const Function& fn, std::string& text) {
  Writer w;
  std::string params = "const unsigned* __restrict__ in, unsigned t";
  for (int p = 0; p < fn.params; ++p) params += std::string(", ") + type_name(fn.vars[p].type) + " " + fn.vars[p].name;
  w.line(std::string("__device__ ") + (fn.noinline ? "__noinline__ " : "__forceinline__ ") +
         (fn.result64 ? "unsigned long long " : "unsigned ") + fn.name + "(" + params + ") {");
  w.indent++;
  w.line("unsigned x = (unsigned)p0;");
  w.line("unsigned long long y = (unsigned long long)p0;");
  Emitter emitter(kernel, fn.vars);
  emitter.block(fn.body, w);
  w.line("return " + emitter.expr(fn.result) + ";");
  w.indent--;
  w.line("}");
  text += w.text;
}

/// Multi-line text into `w`, line by line at its indentation.
void lines(Writer& w, const std::string& text) {
  std::size_t start = 0;
  for (std::size_t end = text.find('\n'); end != std::string::npos; start = end + 1, end = text.find('\n', start))
    w.line(text.substr(start, end - start));
}

} // namespace

std::uint32_t output_words(const Kernel& kernel) { return kernel.blocks * kernel.threads * kOutputWordsPerThread; }

std::uint32_t dynamic_shared_bytes(const Kernel& kernel) {
  return kernel.dynamic_shared && kernel.shared_words ? kernel.threads * kSharedWordsPerThread * 4u : 0u;
}

namespace {

/// `name<<<blocks, threads, shared>>>(in, out);` (no `in` for a kernel that does not read it)
std::string launch(const Kernel& kernel) {
  return kernel.name + "<<<" + std::to_string(kernel.blocks) + ", " + std::to_string(kernel.threads) + ", " +
         std::to_string(dynamic_shared_bytes(kernel)) + ">>>(" + (reads_input(kernel) ? "in, " : "") + "out);";
}

bool reads_input(const Expr& e) {
  if (e.kind == Expr::Kind::Input) return true;
  for (const Expr& arg : e.args)
    if (reads_input(arg)) return true;
  return false;
}

bool reads_input(const Body& body) {
  for (const Stmt& s : body) {
    if (s.kind == StmtKind::VectorLoad || (s.kind == StmtKind::Generic && s.vector_kind == 0)) return true;
    for (const Expr& e : s.exprs)
      if (reads_input(e)) return true;
    if (reads_input(s.body) || reads_input(s.else_body)) return true;
    for (const SwitchCase& c : s.cases)
      if (reads_input(c.body)) return true;
  }
  return false;
}

/// Whether an expression loads through a hint helper (cudiff_ldlu, cudiff_ldca).
bool helper_loads(const Expr& e) {
  if (e.kind == Expr::Kind::Input && !e.ldg && (e.hint == 3 || e.hint == 4)) return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const Expr& arg) { return helper_loads(arg); });
}

bool helper_loads(const Body& body) {
  for (const Stmt& s : body) {
    for (const Expr& e : s.exprs)
      if (helper_loads(e)) return true;
    if (helper_loads(s.body) || helper_loads(s.else_body)) return true;
    for (const SwitchCase& c : s.cases)
      if (helper_loads(c.body)) return true;
  }
  return false;
}

} // namespace

bool reads_input(const Kernel& kernel) {
  // A function takes `in` whether or not it reads it.
  if (kernel.base_words || kernel.local_words || kernel.shared_words || !kernel.functions.empty()) return true;
  for (std::size_t i = 5; i < kernel.vars.size(); ++i)
    if (kernel.vars[i].from_input) return true;
  return reads_input(kernel.body);
}

std::string includes(const std::vector<Kernel>& kernels) {
  const auto any = [&](const char* family) {
    return std::any_of(kernels.begin(), kernels.end(), [&](const Kernel& k) {
      return std::find(k.families.begin(), k.families.end(), family) != k.families.end();
    });
  };
  // The hint helpers by use, not by family: a reduced kernel may have lost its hinted loads.
  const bool helpers = std::any_of(kernels.begin(), kernels.end(), [](const Kernel& k) {
    return k.store_hint == 1 || k.store_hint == 3 || k.store_hint == 4 || helper_loads(k.body) ||
           std::any_of(k.functions.begin(), k.functions.end(),
                       [](const Function& fn) { return helper_loads(fn.body) || helper_loads(fn.result); });
  });
  // cuda::atomic_thread_fence (dense_fences) is libcu++'s.
  const bool libcu = std::any_of(kernels.begin(), kernels.end(), [](const Kernel& k) {
    return k.fence == FenceKind::CudaDevice || k.fence == FenceKind::CudaSystem || k.fence == FenceKind::CudaBlock;
  });
  return (any("dense_half") ? half_precision_includes() : "") + (helpers ? cache_hint_helpers() : "") +
         (libcu ? "#include <cuda/atomic>\n" : "");
}

std::string cache_hint_helpers() {
  // nvcc's headers declare every hinted load and store (sm_32_intrinsics.h); clang-22's declare
  // __ldcg, __ldcs, __ldcv and __stwt only. The other five are spelled under clang as nvcc's
  // headers spell them (inline PTX), and as nvcc's own functions under nvcc.
  std::string text = "#if defined(__clang__)\n";
  for (const char* hint : {"lu", "ca"})
    text += std::string("__device__ __forceinline__ unsigned cudiff_ld") + hint +
            "(const unsigned* p) { unsigned r; asm(\"ld.global." + hint +
            ".u32 %0, [%1];\" : \"=r\"(r) : \"l\"(p) : \"memory\"); return r; }\n";
  for (const char* hint : {"cs", "cg", "wb"})
    text += std::string("__device__ __forceinline__ void cudiff_st") + hint +
            "(unsigned long long* p, unsigned long long v) { asm(\"st.global." + hint +
            ".u64 [%0], %1;\" : : \"l\"(p), \"l\"(v) : \"memory\"); }\n";
  text += "#else\n";
  for (const char* hint : {"lu", "ca"})
    text += std::string("__device__ __forceinline__ unsigned cudiff_ld") + hint + "(const unsigned* p) { return __ld" +
            hint + "(p); }\n";
  for (const char* hint : {"cs", "cg", "wb"})
    text += std::string("__device__ __forceinline__ void cudiff_st") + hint +
            "(unsigned long long* p, unsigned long long v) { __st" + hint + "(p, v); }\n";
  return text + "#endif\n";
}

std::string half_precision_includes() {
  // The 2-vector operations' results as one word (dense_ops.def: H2Add, B2Mul); inline, not
  // static, so that a program that uses only one of them draws no unused-function warning.
  return "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
         "__device__ __forceinline__ unsigned cudiff_half2_bits(__half2 x) {\n"
         "  return (unsigned)__half_as_ushort(__low2half(x)) | ((unsigned)__half_as_ushort(__high2half(x)) << 16);\n"
         "}\n"
         "__device__ __forceinline__ unsigned cudiff_bfloat162_bits(__nv_bfloat162 x) {\n"
         "  return (unsigned)__bfloat16_as_ushort(__low2bfloat16(x)) | ((unsigned)__bfloat16_as_ushort(__high2bfloat16(x)) "
         "<< 16);\n"
         "}\n";
}

std::vector<std::uint64_t> compact_words(const std::vector<std::uint64_t>& words) {
  std::vector<std::uint64_t> compact(words.size() / kOutputWordsPerThread);
  for (std::size_t t = 0; t < compact.size(); ++t)
    for (std::uint32_t k = 0; k < kOutputWordsPerThread; ++k) compact[t] ^= words[t * kOutputWordsPerThread + k];
  return compact;
}

std::string emit_device_code(const Kernel& kernel, bool one_word) {
  std::string text = "// compute-dense kernel " + kernel.name + ": ";
  for (std::size_t i = 0; i < kernel.families.size(); ++i) text += (i ? " " : "") + kernel.families[i];
  text += "\n";
  // A callee may call a later function: define them last to first.
  for (std::size_t f = kernel.functions.size(); f-- > 0;) emit_function(kernel, kernel.functions[f], text);
  const std::uint32_t threads = kernel.threads;
  Writer w;
  // Each thread's 8 bytes: 4-byte aligned uchar4s, so a whole uchar4 store is one vector store.
  if (kernel.byte_words)
    w.line("__device__ uchar4 " + kernel.name + "_bytes[" + std::to_string(kernel.blocks * threads * 2) + "];");
  lines(w, atomic_globals(kernel));
  lines(w, memory_globals(kernel));
  w.line("__global__ void __launch_bounds__(" + std::to_string(threads) + ") " + kernel.name + "(" +
         (reads_input(kernel) ? "const unsigned* __restrict__ in, " : "") + "unsigned long long* __restrict__ out) {");
  w.indent++;
  w.line("const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;");
  if (!kernel.shared_words) {
  } else if (kernel.dynamic_shared) {
    w.line("const unsigned sb = threadIdx.x * 8u;");
    // uint4 elements: 16-byte alignment for the vector stores.
    w.line("extern __shared__ uint4 cudiff_dense_dynamic[];");
    w.line("unsigned* const sh = reinterpret_cast<unsigned*>(cudiff_dense_dynamic);");
  } else {
    w.line("const unsigned sb = threadIdx.x * 8u;");
    w.line("__shared__ uint4 store[" + std::to_string(threads * 2) + "];");
    w.line("unsigned* const sh = reinterpret_cast<unsigned*>(store);");
  }
  if (kernel.base_words) {
    w.line("unsigned a = in[t & 255u], b = in[(t * 7u + 3u) & 255u], c = in[(t * 13u + 5u) & 255u], d = t;");
    w.line("unsigned long long w = ((unsigned long long)a << 32) | c;");
  }
  for (std::size_t i = 5; i < kernel.vars.size(); ++i) {
    const Var& v = kernel.vars[i];
    const std::uint32_t k = static_cast<std::uint32_t>(i);
    const std::string source = !v.from_input   ? "0u"
                               : v.is_volatile ? "in[(t + 99u) & 255u]"
                                               : "in[(t * " + std::to_string(2 * k + 17) + "u + " + std::to_string(k) +
                                                     "u) & 255u]";
    w.line(std::string(v.is_volatile ? "volatile " : "") + type_name(v.type) + " " + v.name + " = (" +
           type_name(v.type) + ")" + source + ";");
  }
  if (kernel.local_words) {
    w.line("unsigned loc[8];");
    w.line("for (unsigned k = 0; k < 8u; ++k) loc[k] = in[(t + k * 31u) & 255u];");
  }
  if (kernel.shared_words) w.line("for (unsigned k = 0; k < 8u; ++k) sh[sb + k] = in[(t * 3u + k) & 255u];");
  // Set on every launch from the thread's index (initial_byte), one byte store each.
  if (kernel.byte_words)
    w.line("for (unsigned k = 0; k < 8u; ++k) reinterpret_cast<unsigned char*>(" + kernel.name +
           "_bytes + t * 2u)[k] = (unsigned char)(t * 8u + k * 29u);");
  lines(w, memory_prologue(kernel));
  Emitter emitter(kernel, kernel.vars, one_word);
  emitter.block(kernel.body, w);
  emitter.write_output(w);
  w.indent--;
  w.line("}");
  return text + w.text;
}

std::string emit_kernel(const Kernel& kernel, const std::string& checksum_label) {
  const std::uint32_t words = output_words(kernel);
  Writer w;
  w.line("");
  w.line("static void run_" + kernel.name + "() {");
  w.indent++;
  w.line("static unsigned host_in[256];");
  w.line("for (unsigned int i = 0; i < 256u; ++i) host_in[i] = (unsigned)cudiff_input(i, " +
         std::to_string(kernel.input_salt) + "u, 0u);");
  w.line("unsigned* in = nullptr;");
  w.line("cudiff_check(cudaMalloc(&in, sizeof(host_in)), \"cudaMalloc\");");
  w.line("cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), \"cudaMemcpy\");");
  w.line("const size_t words = " + std::to_string(words) + ";");
  w.line("unsigned long long* out = nullptr;");
  w.line("cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), \"cudaMalloc\");");
  w.line("cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), \"cudaMemset\");");
  lines(w, atomic_host_before(kernel, true));
  lines(w, fence_host_before(kernel, true));
  w.line(launch(kernel));
  w.line("cudiff_check(cudaGetLastError(), \"cudaLaunchKernel\");");
  w.line("cudiff_check(cudaDeviceSynchronize(), \"cudaDeviceSynchronize\");");
  // The threads' words, then the atomic slots' (dense_atomics), folded as run_kernel lists them.
  // Then the fence's result words (dense_fences).
  const std::uint32_t folded = words + atomic_words(kernel) + fence_words(kernel);
  w.line("static unsigned long long host_out[" + std::to_string(folded) + "];");
  w.line("cudiff_check(cudaMemcpy(host_out, out, words * sizeof(unsigned long long), cudaMemcpyDeviceToHost), "
         "\"cudaMemcpy\");");
  lines(w, atomic_host_after(kernel, words, true, false));
  lines(w, fence_host_after(kernel, words + atomic_words(kernel), true, false));
  w.line("cudiff_check(cudaFree(out), \"cudaFree\");");
  w.line("cudiff_check(cudaFree(in), \"cudaFree\");");
  w.line("std::printf(\"checksum " + checksum_label + kernel.name + " %016llx\\n\", cudiff_fold(host_out, " +
         std::to_string(folded) + "u));");
  w.indent--;
  w.line("}");
  return emit_device_code(kernel) + w.text;
}

std::string emit_compact_program(const std::vector<Kernel>& kernels) {
  Writer w;
  w.line("#include <cstdio>");
  w.text += includes(kernels);
  // Without the families' comment line: what is left of them is the text.
  for (const Kernel& kernel : kernels) {
    const std::string code = emit_device_code(kernel, true);
    w.text += code.substr(code.find('\n') + 1);
  }
  w.line("int main() {");
  w.indent++;
  // The generated programs' stack (generator/core/stack.cpp): unoptimized builds need more than 1 KiB.
  w.line("cudaDeviceSetLimit(cudaLimitStackSize, 4096);");
  // The input in device memory, copied: compute-sanitizer's initcheck sees a kernel read it
  // uninitialized (it does not follow managed memory), as when a reduction deletes the copy.
  const bool input = std::any_of(kernels.begin(), kernels.end(), [](const Kernel& k) { return reads_input(k); });
  if (input) w.line("unsigned host_in[256], *in;");
  std::uint32_t most_threads = 0;
  for (const Kernel& kernel : kernels) most_threads = std::max(most_threads, kernel.blocks * kernel.threads);
  // The output is copied back, not read from managed memory: cudaMemcpy waits for the kernel,
  // where a managed read races with it once a reduction deletes the synchronization. Static,
  // so that deleting the copy leaves zeros, never the stack's leftovers.
  w.line("unsigned long long* out;");
  w.line("static unsigned long long host_out[" + std::to_string(most_threads) + "];");
  if (input) w.line("cudaMalloc(&in, sizeof(host_in));");
  w.line("cudaMalloc(&out, sizeof(host_out));");
  for (const Kernel& kernel : kernels) {
    if (kernels.size() > 1) {
      w.line("{");
      w.indent++;
    }
    if (reads_input(kernel)) {
      // host_in[i]: cudiff_input(i, salt, 0) of the generated programs, truncated to 32 bits.
      w.line("for (unsigned i = 0; i < 256u; ++i) {");
      w.line("  unsigned long long x = (i + 1ull) * 0x9E3779B97F4A7C15ull ^ " + std::to_string(kernel.input_salt) +
             "u;");
      w.line("  x ^= x >> 29;");
      w.line("  x *= 0xBF58476D1CE4E5B9ull;");
      w.line("  host_in[i] = (unsigned)(x ^ (x >> 32));");
      w.line("}");
      w.line("cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice);");
    }
    lines(w, atomic_host_before(kernel, false));
    lines(w, fence_host_before(kernel, false));
    w.line(launch(kernel));
    // A launch or run error prints as the generated programs print it: never a checksum.
    w.line("cudaError_t status = cudaGetLastError();");
    w.line("if (status == cudaSuccess) status = cudaDeviceSynchronize();");
    w.line("if (status != cudaSuccess) return std::printf(\"CUDA error %s\\n\", cudaGetErrorString(status)), 1;");
    const std::string words = std::to_string(kernel.blocks * kernel.threads);
    // Only the words this kernel wrote: the rest of `out` may be uninitialized (initcheck).
    w.line("cudaMemcpy(host_out, out, " + words + " * sizeof(unsigned long long), cudaMemcpyDeviceToHost);");
    w.line("unsigned long long h = 1469598103934665603ull;");
    w.line("for (unsigned i = 0; i < " + words + "u; ++i) h = (h ^ host_out[i]) * 1099511628211ull;");
    lines(w, atomic_host_after(kernel, 0, false, true));
    lines(w, fence_host_after(kernel, 0, false, true));
    w.line("std::printf(\"checksum " + kernel.name + " %016llx\\n\", h);");
    if (kernels.size() > 1) {
      w.indent--;
      w.line("}");
    }
  }
  w.line("return 0;");
  w.indent--;
  w.line("}");
  return w.text;
}

} // namespace cudiff::generator::dense
