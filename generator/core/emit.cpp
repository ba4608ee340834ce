// emit: C++/CUDA text for statements, expressions and device functions, and the program's
// frame (namespaces, globals, main). Kernels and host runners: emit_kernel.cpp; fixed text and
// helper templates: emit_helpers.cpp.
#include "generator/abi/abi.h"
#include "generator/core/emit_parts.h"
#include "generator/probes/probes.h"

#include <algorithm>

namespace cudiff::generator {

void Emitter::statement(const Stmt& s, Writer& w) const {
  const std::string name = s.var >= 0 ? vars_[s.var].name : "";
  switch (s.kind) {
  case StmtKind::Decl: w.line(type_name(s.target_type) + " " + name + " = " + expr(*s.expr) + ";"); return;
  case StmtKind::Assign:
    w.line(name + (s.assign.compound ? " " + op_text(s.assign.op) + "= " : " = ") + expr(*s.expr) + ";");
    return;
  case StmtKind::If:
    w.line("if (" + expr(*s.expr) + ") {");
    nested(s.body, w);
    if (!s.else_body.empty()) {
      w.line("} else {");
      nested(s.else_body, w);
    }
    w.line("}");
    return;
  case StmtKind::For: {
    const std::int64_t end = s.start + s.trips * s.step;
    w.line("for (int " + name + " = " + std::to_string(s.start) + "; " + name + " < " + std::to_string(end) + "; " +
           name + " += " + std::to_string(s.step) + ") {");
    nested(s.body, w);
    w.line("}");
    return;
  }
  case StmtKind::Switch:
    w.line("switch (" + expr(*s.expr) + ") {");
    for (const SwitchCase& c : s.cases) {
      w.line("case " + literal(c.label) + ": {");
      nested(c.body, w);
      w.indent++;
      w.line("break;");
      w.indent--;
      w.line("}");
    }
    w.line("default: {");
    nested(s.body, w);
    w.indent++;
    w.line("break;");
    w.indent--;
    w.line("}");
    w.line("}");
    return;
  case StmtKind::WriteOut:
    w.line("out[gtid * " + std::to_string(slots_) + "u + " + std::to_string(s.slot) + "u] = " + expr(*s.expr) + ";");
    return;
  case StmtKind::Return: w.line("return;"); return;
  case StmtKind::Exchange: {
    const Array& array = program_.arrays[s.array];
    const std::string k = std::to_string(s.param) + "u";
    // A cooperative-groups exchange names the thread by its rank in this_thread_block() (the
    // same linear id) and waits with the group's sync() (a __syncthreads).
    const std::string block = name + "_block";
    if (s.cg_block)
      w.line("const cooperative_groups::thread_block " + block + " = cooperative_groups::this_thread_block();");
    const std::string tid = s.cg_block ? block + ".thread_rank()" : "tid";
    w.line(array.name + "[" + tid + "] = " + expr(*s.expr) + ";");
    w.line(s.cg_block ? block + ".sync();" : s.warp_scope ? "__syncwarp();" : "__syncthreads();");
    std::string index;
    const std::string combine = s.rotate ? "(" + tid + " + " + k + ")" : "(" + tid + " ^ " + k + ")";
    if (s.warp_scope) index = "(tid & ~31u) | (" + combine + " & 31u)";
    else index = combine + " & " + std::to_string(array.length - 1) + "u";
    w.line(type_name(s.target_type) + " " + name + " = " + array.name + "[" + index + "];");
    return;
  }
  case StmtKind::Shuffle: {
    static const char* const names[] = {"__shfl_sync", "__shfl_xor_sync", "__shfl_up_sync", "__shfl_down_sync"};
    const std::string type = type_name(s.target_type);
    // A computed source lane is passed as the int __shfl_sync takes; a width below 32 splits
    // the warp into segments.
    const std::string lane = s.lane ? "(int)(" + expr(*s.lane) + ")" : std::to_string(s.param);
    const std::string width = s.width != 32 ? ", " + std::to_string(s.width) : "";
    w.line(type + " " + name + " = " + names[static_cast<int>(s.shuffle)] + "(0xffffffffu, (" + type + ")(" +
           expr(*s.expr) + "), " + lane + width + ");");
    return;
  }
  case StmtKind::Vote: {
    const std::string pred = "(" + expr(*s.expr) + ") != 0";
    if (s.vote == VoteKind::Ballot) w.line("unsigned int " + name + " = __ballot_sync(0xffffffffu, " + pred + ");");
    else
      w.line("bool " + name + " = " + (s.vote == VoteKind::All ? "__all_sync" : "__any_sync") + "(0xffffffffu, " +
             pred + ") != 0;");
    return;
  }
  case StmtKind::SyncCount: {
    const std::string pred = "(" + expr(*s.expr) + ") != 0";
    if (s.sync_count == SyncCountKind::Count) w.line("int " + name + " = __syncthreads_count(" + pred + ");");
    else
      w.line("bool " + name + " = " + (s.sync_count == SyncCountKind::And ? "__syncthreads_and" : "__syncthreads_or") +
             "(" + pred + ") != 0;");
    return;
  }
  case StmtKind::Atomic: {
    if (s.last_block) return last_block_sum(s, w);
    static const char* const names[] = {"atomicAdd", "atomicAnd", "atomicOr", "atomicXor", "atomicMin", "atomicMax"};
    w.line(std::string(names[static_cast<int>(s.atomic)]) + "(&out[" + std::to_string(reduction_base_ + s.slot) +
           "u], (unsigned long long)(" + expr(*s.expr) + "));");
    return;
  }
  case StmtKind::WarpMatch:
  case StmtKind::WarpReduce:
  case StmtKind::Tile:
  case StmtKind::AtomicLoop: return new_collective(s, w);
  }
}

void Emitter::nested(const Block& statements, Writer& w) const {
  w.indent++;
  block(statements, w);
  w.indent--;
}

// The guide's last-block sum (V-FENCE-NOT-VISIBILITY): each block's sum goes to a partial,
// __threadfence orders it before the ticket, and the block that draws the last ticket adds
// the partials through volatile reads.
void Emitter::last_block_sum(const Stmt& s, Writer& w) const {
  const std::string slot = std::to_string(s.slot);
  const std::string partials = kernel_name_ + "_partials" + slot, ticket = kernel_name_ + "_ticket" + slot;
  w.line("{");
  w.indent++;
  w.line("__shared__ unsigned long long block_sum;");
  w.line("__shared__ bool last_block;");
  w.line("const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;");
  w.line("if (tid == 0) block_sum = 0;");
  w.line("__syncthreads();");
  w.line("atomicAdd(&block_sum, (unsigned long long)(" + expr(*s.expr) + "));");
  w.line("__syncthreads();");
  w.line("if (tid == 0) {");
  w.line("  " + partials + "[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)] = block_sum;");
  w.line("  __threadfence();");
  w.line("  const unsigned int drawn = atomicInc(&" + ticket + ", blocks - 1);");
  w.line("  last_block = drawn == blocks - 1;");
  w.line("}");
  w.line("__syncthreads();");
  w.line("if (tid == 0 && last_block) {");
  w.line("  unsigned long long total = 0;");
  w.line("  for (unsigned int b = 0; b < blocks; ++b) total += ((volatile unsigned long long*)" + partials + ")[b];");
  w.line("  out[" + std::to_string(reduction_base_ + s.slot) + "u] = total;");
  w.line("}");
  w.indent--;
  w.line("}");
}

std::string join_values(const std::vector<Value>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + literal(values[i]);
  return out;
}

namespace {

void emit_function(const Program& program, const Function& f, Writer& w) {
  std::string params;
  for (int p = 0; p < f.param_count; ++p)
    params += (p ? ", " : "") + (p == f.template_param ? std::string("TArg") : type_name(f.vars[p].type)) + " " +
              f.vars[p].name;
  if (f.recursive) params += std::string(f.param_count ? ", " : "") + "int cudiff_depth";
  const char* inlining = f.inlining == Inlining::NoInline      ? "__noinline__ "
                         : f.inlining == Inlining::ForceInline ? "__forceinline__ "
                                                               : "";
  std::string result = type_name(f.result);
  if (f.template_param >= 0) {
    // Instantiated with the parameter's own type (V-CXX11-17 for the defaulted result type).
    if (f.template_default_result) {
      w.line("template <typename TArg, typename TResult = " + result + ">");
      result = "TResult";
    } else {
      w.line("template <typename TArg>");
    }
  }
  w.line("__device__ " + std::string(inlining) + result + " " + f.name + "(" + params + ") {");
  Emitter emitter(program, f.vars);
  w.indent++;
  if (f.recursive) {
    std::string args;
    for (int p = 0; p < f.param_count; ++p) args += f.vars[p].name + ", ";
    w.line("if (cudiff_depth > 0) return (" + result + ")(" + f.name + "(" + args + "cudiff_depth - 1) ^ " +
           literal(f.recursion_xor) + ");");
  }
  emitter.block(f.body, w);
  w.line("return " + emitter.expr(*f.result_expr) + ";");
  w.indent--;
  w.line("}");
  if (f.via_pointer) {
    // A mutable __device__ variable, so the call stays indirect (V-FNPTR-DEV).
    std::string types;
    for (int p = 0; p < f.param_count; ++p) types += (p ? ", " : "") + type_name(f.vars[p].type);
    w.line("__device__ " + type_name(f.result) + " (*" + f.name + "_ptr)(" + types + ") = " + f.name + ";");
  }
}

/// A static local's accessor: the table is a constant-initialized `static const` local of a
/// __device__ function, implicitly __device__ (V-STATIC-LOCAL-IMPLICIT).
void emit_static_table(const Array& a, Writer& w) {
  const std::string t = type_name(a.elem);
  w.line("__device__ " + t + " " + a.name + "(unsigned int i) {");
  w.line("  static const " + t + " values[" + std::to_string(a.length) + "] = {" + join_values(a.values) + "};");
  w.line("  return values[i];");
  w.line("}");
}

int binop_code(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return 0;
  case BinaryOp::Sub: return 1;
  case BinaryOp::Mul: return 2;
  case BinaryOp::BitAnd: return 3;
  case BinaryOp::BitOr: return 4;
  default: return 5;
  }
}

std::string vector_expr(const Expr& e, const std::string& a, const std::string& b) {
  const std::string op = e.binary == BinaryOp::Add ? "add" : e.binary == BinaryOp::BitOr ? "or" : "xor";
  const int n = e.spell_index;
  const std::string args = n == 2 ? a + ", " + b : n == 3 ? a + ", 0, " + b : a + ", 0, " + b + ", 0";
  return "cudiff_v" + op + std::to_string(n) + "(make_" + vector_family(e.type) + std::to_string(n) + "(" + args + "))";
}

} // namespace

std::string emit_expr(const Expr& e, const Program& program, const std::vector<Var>& vars) {
  auto kid = [&](int i) { return emit_expr(*e.kids[i], program, vars); };
  if (e.spell == Expr::Spell::FoldRight || e.spell == Expr::Spell::FoldLeft) {
    // Unwind the chain of Binary nodes back into the pack's elements, in order.
    const bool right = e.spell == Expr::Spell::FoldRight;
    std::vector<const Expr*> operands;
    const Expr* n = &e;
    for (int i = 0; i + 1 < e.fold_count; ++i) {
      operands.push_back(n->kids[right ? 0 : 1].get());
      n = n->kids[right ? 1 : 0].get();
    }
    operands.push_back(n);
    if (!right) std::reverse(operands.begin(), operands.end());
    std::string args;
    for (std::size_t i = 0; i < operands.size(); ++i) args += (i ? ", " : "") + emit_expr(*operands[i], program, vars);
    return "cudiff_" + fold_helper_name(right, e.binary) + "(" + args + ")";
  }
  switch (e.spell) {
  case Expr::Spell::Select: return "cudiff_select(" + kid(0) + ")";
  case Expr::Spell::ClassTemplate:
    return "cudiff_binop<" + type_name(e.type) + ", " + std::to_string(binop_code(e.binary)) + ">(" + kid(0) +
           ").apply(" + kid(1) + ")";
  case Expr::Spell::Sfinae: return "cudiff_tweak(" + kid(0) + ")";
  case Expr::Spell::Vector: return vector_expr(e, kid(0), kid(1));
  case Expr::Spell::Lambda: return "f" + std::to_string(e.spell_index) + "(" + kid(0) + ")";
  case Expr::Spell::Probe: return probe_call_text(program.probes[e.spell_index], type_name(e.type), kid(0));
  default: break;
  }
  switch (e.kind) {
  case ExprKind::Const: return literal(e.constant);
  case ExprKind::Named: return e.text;
  case ExprKind::Var: return vars[e.id].name;
  case ExprKind::Builtin: return builtin_text(static_cast<Builtin>(e.id));
  case ExprKind::Unary: return "(" + op_text(e.unary) + kid(0) + ")";
  case ExprKind::Binary: return "(" + kid(0) + " " + op_text(e.binary) + " " + kid(1) + ")";
  case ExprKind::Cond: return "(" + kid(0) + " ? " + kid(1) + " : " + kid(2) + ")";
  case ExprKind::Cast: return "((" + type_name(e.type) + ")" + kid(0) + ")";
  case ExprKind::Load:
    if (program.arrays[e.id].kind == ArrayKind::StaticLocal) return program.arrays[e.id].name + "(" + kid(0) + ")";
    return program.arrays[e.id].name + "[" + kid(0) + "]";
  case ExprKind::Call: {
    std::string args;
    for (std::size_t i = 0; i < e.kids.size(); ++i) args += (i ? ", " : "") + kid(static_cast<int>(i));
    const Function& callee = program.functions[e.id];
    if (callee.template_param >= 0 && callee.template_explicit)
      return callee.name + "<" + type_name(callee.vars[callee.template_param].type) + ">(" + args + ")";
    return callee.name + (callee.via_pointer ? "_ptr(" : "(") + args + ")";
  }
  }
  return "?";
}

std::string emit_test_body(const Program& program, const LayoutPlan& layout, const EmitOptions& options) {
  Writer w;
  if (!layout.definitions.empty()) w.text += layout.definitions + "\n";
  if (!program.helpers.empty()) w.text += helper_templates(program.helpers);
  if (!program.probes.empty()) w.text += probe_definitions(program.probes);
  for (const Kernel& k : program.kernels) {
    w.line("");
    w.line("namespace " + k.ns + " {");
    if (k.inline_ns) w.line("inline namespace v1 {");
    for (const NamedConstant& c : program.constants)
      if (c.ns == k.ns) w.line("constexpr " + type_name(c.value.type) + " " + c.name + " = " + literal(c.value) + ";");
    for (std::size_t i = 0; i < program.arrays.size(); ++i) {
      const Array& a = program.arrays[i];
      if (program.array_ns[i] != k.ns) continue;
      const std::string decl = type_name(a.elem) + " " + a.name + "[" + std::to_string(a.length) + "]";
      if (a.kind == ArrayKind::Constant) {
        w.line("__constant__ " + decl + ";");
        w.line("static const " + type_name(a.elem) + " " + a.name + "_init[" + std::to_string(a.length) + "] = {" +
               join_values(a.values) + "};");
      } else if (a.kind == ArrayKind::DeviceGlobal) {
        w.line("__device__ " + decl + " = {" + join_values(a.values) + "};");
      } else if (a.kind == ArrayKind::StaticLocal) {
        emit_static_table(a, w);
      }
    }
    // A callee is always created after its caller: reverse order defines callees first.
    for (std::size_t i = program.functions.size(); i-- > 0;)
      if (program.function_ns[i] == k.ns) emit_function(program, program.functions[i], w);
    w.text += abi_definitions(program, static_cast<int>(&k - program.kernels.data()));
    emit_kernel(program, k, options, w);
    if (k.inline_ns) w.line("} // inline namespace v1");
    w.line("} // namespace " + k.ns);
  }
  if (!program.dense.empty()) {
    w.line("");
    w.line("namespace cudiff_dense {");
    for (const dense::Kernel& k : program.dense) w.text += dense::emit_kernel(k, options.checksum_label) + "\n";
    w.line("} // namespace cudiff_dense");
  }
  w.line("");
  if (!layout.host_probe_function.empty()) w.text += layout.host_probe_function + "\n";
  else w.line("static void cudiff_print_layout() {}");
  w.line("");
  w.line("static void cudiff_run_tests() {");
  for (const PlantedProbe& planted : program.probes) {
    if (!planted.probe.host) continue;
    const std::string check = std::to_string(planted.host_check) + "ull";
    w.line("  if (" + planted.probe.function + "(" + check + ") != " + check + ") std::printf(\"probe " +
           planted.rule_id + " failed\\n\");");
  }
  for (const Kernel& k : program.kernels) w.line("  " + k.ns + "::run_" + k.name + "();");
  for (const dense::Kernel& k : program.dense) w.line("  cudiff_dense::run_" + k.name + "();");
  w.line("}");
  return w.text;
}

std::string emit_preamble() { return prelude_text() + "\n" + runtime_helpers_text(); }

std::string emit_main(const std::vector<std::string>& test_namespaces, std::uint64_t stack_bytes) {
  auto qualified = [](const std::string& ns, const char* function) { return (ns.empty() ? "" : ns + "::") + function; };
  Writer w;
  w.line("");
  w.line("int main(int argc, char** argv) {");
  w.indent++;
  // --layout prints the probes only and touches no CUDA API (no GPU needed).
  w.line("if (argc == 2 && std::strcmp(argv[1], \"--layout\") == 0) {");
  for (const std::string& ns : test_namespaces) w.line("  " + qualified(ns, "cudiff_print_layout") + "();");
  w.line("  return 0;");
  w.line("}");
  // Before the first launch: the deepest call chain's frames, bounded by the generator
  // (generator/core/stack.cpp); the driver cannot size recursion by itself, and the default 1 KiB
  // overflows under unoptimized builds.
  w.line("cudiff_check(cudaDeviceSetLimit(cudaLimitStackSize, " + std::to_string(stack_bytes) +
         "), \"cudaDeviceSetLimit\");");
  for (const std::string& ns : test_namespaces) w.line(qualified(ns, "cudiff_run_tests") + "();");
  for (const std::string& ns : test_namespaces) w.line(qualified(ns, "cudiff_print_layout") + "();");
  w.line("return 0;");
  w.indent--;
  w.line("}");
  return w.text;
}

std::string emit_program(const Program& program, const LayoutPlan& layout, const EmitOptions& options) {
  return options.header + emit_preamble() + probe_includes(program.probes) +
         collective_includes(uses_cooperative_groups(program), uses_atomic_ref(program)) +
         dense::includes(program.dense) + "\n" + emit_test_body(program, layout, options) + "\n" +
         layout.device_probes + emit_main({""}, options.stack_bytes);
}

} // namespace cudiff::generator
