// emit_collectives: the text of the collectives of collectives_gen.cpp — __match_any/all_sync,
// __reduce_*_sync, cooperative-groups tiles and cg::reduce, atomics in loops (built-in,
// atomicCAS loops, cuda::atomic_ref) — and the headers the programs using them include.
#include "generator/collectives/collectives.h"
#include "generator/core/emit_parts.h"

namespace cudiff::generator {
namespace {

const char* const kCg = "cooperative_groups::";

std::string reduce_functor(ReduceOp op, const std::string& type) {
  static const char* const names[] = {"plus", "less", "greater", "bit_and", "bit_or", "bit_xor"};
  return std::string(kCg) + names[static_cast<int>(op)] + "<" + type + ">()";
}

std::string cas_update(AtomicKind kind, const std::string& type) {
  const std::string a = "cudiff_assumed", v = "cudiff_operand";
  switch (kind) {
  case AtomicKind::Add: return "(" + type + ")(" + a + " + " + v + ")";
  case AtomicKind::And: return "(" + type + ")(" + a + " & " + v + ")";
  case AtomicKind::Or: return "(" + type + ")(" + a + " | " + v + ")";
  case AtomicKind::Xor: return "(" + type + ")(" + a + " ^ " + v + ")";
  case AtomicKind::Min: return "(" + v + " < " + a + " ? " + v + " : " + a + ")";
  case AtomicKind::Max: return "(" + v + " > " + a + " ? " + v + " : " + a + ")";
  }
  return a;
}

bool any_stmt(const Program& program, bool (*wanted)(const Stmt&)) {
  for (const Kernel& k : program.kernels)
    for (const Stmt& s : k.body)  // collectives are only at a kernel's top level
      if (wanted(s)) return true;
  return false;
}

} // namespace

bool uses_cooperative_groups(const Program& program) {
  return any_stmt(program, [](const Stmt& s) { return s.kind == StmtKind::Tile || s.cg_block; });
}

bool uses_atomic_ref(const Program& program) {
  return any_stmt(program, [](const Stmt& s) {
    return s.kind == StmtKind::AtomicLoop && s.spelling == AtomicSpelling::AtomicRef;
  });
}

std::string collective_includes(bool cooperative_groups, bool atomic_ref) {
  std::string text;
  if (cooperative_groups) text += "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n";
  if (atomic_ref) text += "#include <cuda/atomic>\n";
  return text;
}

void Emitter::new_collective(const Stmt& s, Writer& w) const {
  const std::string name = s.var >= 0 ? vars_[s.var].name : "";
  const std::string type = type_name(s.target_type);
  switch (s.kind) {
  case StmtKind::WarpMatch:
    if (s.match == MatchKind::Any) {
      w.line("unsigned int " + name + " = __match_any_sync(0xffffffffu, " + expr(*s.expr) + ");");
    } else {
      const std::string pred = vars_[s.pred_var].name;
      w.line("int " + pred + "_raw = 0;");
      w.line("unsigned int " + name + " = __match_all_sync(0xffffffffu, " + expr(*s.expr) + ", &" + pred + "_raw);");
      w.line("bool " + pred + " = " + pred + "_raw != 0;");
    }
    return;
  case StmtKind::WarpReduce: {
    static const char* const names[] = {"add", "min", "max", "and", "or", "xor"};
    w.line(type + " " + name + " = __reduce_" + names[static_cast<int>(s.reduce)] + "_sync(0xffffffffu, " +
           expr(*s.expr) + ");");
    return;
  }
  case StmtKind::Tile: {
    const std::string tile = name + "_tile", n = std::to_string(s.width);
    w.line("const " + std::string(kCg) + "thread_block_tile<" + n + "> " + tile + " = " + kCg + "tiled_partition<" + n +
           ">(" + kCg + "this_thread_block());");
    const std::string pred = "(" + expr(*s.expr) + ") != 0";
    // shfl, shfl_xor and reduce take their value by forwarding reference; `c ? blockDim.z :
    // blockDim.y` is an lvalue of a built-in variable, whose address nvcc refuses to take
    // ("identifier "blockDim" is undefined in device code"). A prvalue of the result's type
    // binds instead: the shuffle moves the converted value, and reduce's functor works in
    // that type already.
    const std::string value = "static_cast<" + type + ">(" + expr(*s.expr) + ")";
    switch (s.tile) {
    case TileOp::Shfl: {
      // A computed rank is masked into the tile (the interpreter's `mod width` of the same
      // value): thread_block_tile::shfl documents ranks inside the tile only.
      const std::string lane = s.lane ? "((int)(" + expr(*s.lane) + ") & " + std::to_string(s.width - 1) + ")"
                                      : std::to_string(s.param);
      w.line(type + " " + name + " = " + tile + ".shfl(" + value + ", " + lane + ");");
      return;
    }
    case TileOp::ShflXor:
      w.line(type + " " + name + " = " + tile + ".shfl_xor(" + value + ", " + std::to_string(s.param) + "u);");
      return;
    case TileOp::Any: w.line("bool " + name + " = " + tile + ".any(" + pred + ") != 0;"); return;
    case TileOp::All: w.line("bool " + name + " = " + tile + ".all(" + pred + ") != 0;"); return;
    case TileOp::Ballot: w.line("unsigned int " + name + " = " + tile + ".ballot(" + pred + ");"); return;
    case TileOp::Reduce:
      w.line(type + " " + name + " = " + kCg + "reduce(" + tile + ", " + value + ", " + reduce_functor(s.reduce, type) +
             ");");
      return;
    }
    return;
  }
  case StmtKind::AtomicLoop: return atomic_loop(s, w);
  default: return;
  }
}

// The updates commute, so the word's final value is the same in any order; it is read only
// after a barrier (shared) or by the host after the launch (global).
void Emitter::atomic_loop(const Stmt& s, Writer& w) const {
  const bool shared = s.array >= 0;
  const std::string type = type_name(s.target_type);
  const std::string word = shared ? program_.arrays[s.array].name + "[0]"
                                  : "out[" + std::to_string(reduction_base_ + s.slot) + "u]";
  if (shared) {
    w.line("if (tid == 0) " + word + " = " + literal(atomic_identity(s.atomic, s.target_type)) + ";");
    w.line("__syncthreads();");
  }
  const std::string i = vars_[s.loop_var].name;
  w.line("for (int " + i + " = " + std::to_string(s.start) + "; " + i + " < " +
         std::to_string(s.start + s.trips * s.step) + "; " + i + " += " + std::to_string(s.step) + ") {");
  w.indent++;
  static const char* const ops[] = {"add", "and", "or", "xor", "min", "max"};
  const std::string op = ops[static_cast<int>(s.atomic)];
  switch (s.spelling) {
  case AtomicSpelling::Builtin: {
    static const char* const names[] = {"atomicAdd", "atomicAnd", "atomicOr", "atomicXor", "atomicMin", "atomicMax"};
    w.line(std::string(names[static_cast<int>(s.atomic)]) + "(&" + word + ", " + expr(*s.expr) + ");");
    break;
  }
  case AtomicSpelling::CasLoop:
    w.line("const " + type + " cudiff_operand = " + expr(*s.expr) + ";");
    w.line(type + "* const cudiff_word = &" + word + ";");
    // The first guess is read atomically (an or with 0 changes nothing); the loop retries
    // until its update lands on the value it read.
    w.line(type + " cudiff_assumed, cudiff_old = atomicOr(cudiff_word, (" + type + ")0);");
    w.line("do {");
    w.line("  cudiff_assumed = cudiff_old;");
    w.line("  cudiff_old = atomicCAS(cudiff_word, cudiff_assumed, " + cas_update(s.atomic, type) + ");");
    w.line("} while (cudiff_old != cudiff_assumed);");
    break;
  case AtomicSpelling::AtomicRef: {
    static const char* const orders[] = {"relaxed", "acq_rel", "seq_cst"};
    const std::string scope = shared ? "cuda::thread_scope_block" : "cuda::thread_scope_device";
    w.line("cuda::atomic_ref<" + type + ", " + scope + ">(" + word + ").fetch_" + op + "(" + expr(*s.expr) +
           ", cuda::std::memory_order_" + orders[static_cast<int>(s.order)] + ");");
    break;
  }
  }
  w.indent--;
  w.line("}");
  if (shared) {
    w.line("__syncthreads();");
    w.line(type + " " + vars_[s.var].name + " = " + word + ";");
  }
}

} // namespace cudiff::generator
