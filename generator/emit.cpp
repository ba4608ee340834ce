// emit: C++/CUDA text for expressions, statements, device functions, kernels and the host driver.
#include "generator/emit.h"

#include "generator/interpreter.h"

#include <algorithm>

namespace cudiff::generator {
namespace {

struct Writer {
  std::string text;
  int indent = 0;
  void line(const std::string& content) { text += std::string(indent * 2, ' ') + content + "\n"; }
};

class Emitter {
public:
  Emitter(const Program& program, const std::vector<Var>& vars) : program_(program), vars_(vars) {}

  std::string expr(const Expr& e) const { return emit_expr(e, program_, vars_); }

  void block(const Block& statements, Writer& w) const {
    for (const Stmt& stmt : statements) statement(stmt, w);
  }

  void statement(const Stmt& s, Writer& w) const {
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
      w.line(array.name + "[tid] = " + expr(*s.expr) + ";");
      w.line(s.warp_scope ? "__syncwarp();" : "__syncthreads();");
      std::string index;
      const std::string combine = s.rotate ? "(tid + " + k + ")" : "(tid ^ " + k + ")";
      if (s.warp_scope) index = "(tid & ~31u) | (" + combine + " & 31u)";
      else index = combine + " & " + std::to_string(array.length - 1) + "u";
      w.line(type_name(s.target_type) + " " + name + " = " + array.name + "[" + index + "];");
      return;
    }
    case StmtKind::Shuffle: {
      static const char* const names[] = {"__shfl_sync", "__shfl_xor_sync", "__shfl_up_sync", "__shfl_down_sync"};
      const std::string type = type_name(s.target_type);
      w.line(type + " " + name + " = " + names[static_cast<int>(s.shuffle)] + "(0xffffffffu, (" + type + ")(" +
             expr(*s.expr) + "), " + std::to_string(s.param) + ");");
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
      static const char* const names[] = {"atomicAdd", "atomicAnd", "atomicOr", "atomicXor", "atomicMin", "atomicMax"};
      w.line(std::string(names[static_cast<int>(s.atomic)]) + "(&out[" + std::to_string(reduction_base_ + s.slot) +
             "u], (unsigned long long)(" + expr(*s.expr) + "));");
      return;
    }
    }
  }

  int slots_ = 1;
  std::uint32_t reduction_base_ = 0;

private:
  void nested(const Block& statements, Writer& w) const {
    w.indent++;
    block(statements, w);
    w.indent--;
  }

  const Program& program_;
  const std::vector<Var>& vars_;
};

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

// The global helper templates, in a fixed order, only those the program calls.
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
  return text;
}

std::string join_values(const std::vector<Value>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + literal(values[i]);
  return out;
}

std::string dim3_text(const std::uint32_t d[3]) {
  return "dim3(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

void emit_function(const Program& program, const Function& f, Writer& w) {
  std::string params;
  for (int p = 0; p < f.param_count; ++p)
    params += (p ? ", " : "") + (p == f.template_param ? std::string("TArg") : type_name(f.vars[p].type)) + " " + f.vars[p].name;
  if (f.recursive) params += std::string(f.param_count ? ", " : "") + "int cudiff_depth";
  const char* inlining = f.inlining == Inlining::NoInline ? "__noinline__ " : f.inlining == Inlining::ForceInline ? "__forceinline__ " : "";
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

void emit_kernel(const Program& program, const Kernel& k, const EmitOptions& options, Writer& w) {
  const std::string restrict_ = options.restrict_pointers ? " __restrict__" : "";
  const Array* input = k.input_array >= 0 ? &program.arrays[k.input_array] : nullptr;
  std::vector<const ScalarParam*> grid_constant;
  for (const ScalarParam& p : k.params)
    if (p.grid_constant) grid_constant.push_back(&p);
  const std::string gc_type = k.name + "_constants";
  if (!grid_constant.empty()) {
    w.line("struct " + gc_type + " {");
    for (const ScalarParam* p : grid_constant)
      w.line("  " + type_name(p->value.type) + " " + k.vars[p->var].name.substr(3) + ";");
    w.line("};");
  }
  std::string params = "unsigned long long*" + restrict_ + " out";
  if (input) params += ", const " + type_name(input->elem) + "*" + restrict_ + " in";
  for (const ScalarParam& p : k.params)
    if (!p.grid_constant) params += ", " + type_name(p.value.type) + " " + k.vars[p.var].name;
  if (!grid_constant.empty()) params += ", const __grid_constant__ " + gc_type + " gc";
  const std::string bounds = options.launch_bounds ? "__launch_bounds__(" + std::to_string(k.launch.threads_per_block()) + ") " : "";
  w.line("__global__ void " + bounds + k.name + "(" + params + ") {");
  w.indent++;
  w.line("const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);");
  w.line("const unsigned int gtid = tid + blockDim.x * blockDim.y * blockDim.z * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));");
  bool dynamic = false;
  for (int id : k.shared_arrays) {
    const Array& a = program.arrays[id];
    if (a.kind == ArrayKind::SharedStatic) {
      w.line("__shared__ " + type_name(a.elem) + " " + a.name + "[" + std::to_string(a.length) + "];");
      continue;
    }
    if (!dynamic) w.line("extern __shared__ unsigned long long cudiff_dynamic_shared[];");
    dynamic = true;
    // Carved at offsets aligned to the element type (U-SHARED-MISALIGNED).
    w.line(type_name(a.elem) + "* " + a.name + " = reinterpret_cast<" + type_name(a.elem) +
           "*>(reinterpret_cast<unsigned char*>(cudiff_dynamic_shared) + " + std::to_string(a.dynamic_offset) + ");");
  }
  Emitter emitter(program, k.vars);
  emitter.slots_ = k.slots;
  emitter.reduction_base_ = k.launch.threads() * k.slots;
  emitter.block(k.body, w);
  w.indent--;
  w.line("}");
  w.line("");

  // Host runner.
  const std::uint32_t words = k.output_words();
  w.line("static void run_" + k.name + "() {");
  w.indent++;
  w.line("const size_t words = " + std::to_string(words) + ";");
  w.line("unsigned long long* out = nullptr;");
  w.line("cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), \"cudaMalloc\");");
  w.line("cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), \"cudaMemset\");");
  if (!k.reductions.empty()) {
    std::string init;
    for (std::size_t r = 0; r < k.reductions.size(); ++r)
      init += (r ? ", " : "") + std::to_string(reduction_identity(k.reductions[r])) + "ull";
    w.line("static const unsigned long long reduction_init[" + std::to_string(k.reductions.size()) + "] = {" + init + "};");
    w.line("cudiff_check(cudaMemcpy(out + " + std::to_string(k.launch.threads() * k.slots) +
           ", reduction_init, sizeof(reduction_init), cudaMemcpyHostToDevice), \"cudaMemcpy\");");
  }
  std::string args = "out";
  if (input) {
    const std::string t = type_name(input->elem);
    const std::string n = std::to_string(input->length);
    w.line("static " + t + " host_in[" + n + "];");
    w.line("for (unsigned int i = 0; i < " + n + "u; ++i) host_in[i] = (" + t + ")cudiff_input(i, " +
           std::to_string(input->input_salt) + "u, " + std::to_string(input->input_mode) + "u);");
    w.line(t + "* in = nullptr;");
    w.line("cudiff_check(cudaMalloc(&in, sizeof(host_in)), \"cudaMalloc\");");
    w.line("cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), \"cudaMemcpy\");");
    args += ", in";
  }
  for (std::size_t i = 0; i < program.arrays.size(); ++i) {
    const Array& a = program.arrays[i];
    if (a.kind == ArrayKind::Constant && program.array_ns[i] == k.ns)
      w.line("cudiff_check(cudaMemcpyToSymbol(" + a.name + ", " + a.name + "_init, sizeof(" + a.name +
             "_init)), \"cudaMemcpyToSymbol\");");
  }
  for (const ScalarParam& p : k.params)
    if (!p.grid_constant) args += ", " + literal(p.value);
  if (!grid_constant.empty()) {
    std::string members;
    for (std::size_t i = 0; i < grid_constant.size(); ++i) members += (i ? ", " : "") + literal(grid_constant[i]->value);
    args += ", " + gc_type + "{" + members + "}";
  }
  w.line(k.name + "<<<" + dim3_text(k.launch.grid) + ", " + dim3_text(k.launch.block) + ", " +
         std::to_string(k.launch.dynamic_shared_bytes) + ">>>(" + args + ");");
  w.line("cudiff_check(cudaGetLastError(), \"cudaLaunchKernel\");");
  w.line("cudiff_check(cudaDeviceSynchronize(), \"cudaDeviceSynchronize\");");
  w.line("static unsigned long long host_out[" + std::to_string(words) + "];");
  w.line("cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), \"cudaMemcpy\");");
  w.line("cudiff_check(cudaFree(out), \"cudaFree\");");
  if (input) w.line("cudiff_check(cudaFree(in), \"cudaFree\");");
  w.line("std::printf(\"checksum " + k.name + " %016llx\\n\", cudiff_fold(host_out, words));");
  w.indent--;
  w.line("}");
}

const char* const kPrelude = R"(#include <cstdio>
#include <cstdlib>
#include <cstring>
)";

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
  if (e.spell == Expr::Spell::Select) return "cudiff_select(" + kid(0) + ")";
  switch (e.kind) {
  case ExprKind::Const: return literal(e.constant);
  case ExprKind::Named: return e.text;
  case ExprKind::Var: return vars[e.id].name;
  case ExprKind::Builtin: return builtin_text(static_cast<Builtin>(e.id));
  case ExprKind::Unary: return "(" + op_text(e.unary) + kid(0) + ")";
  case ExprKind::Binary: return "(" + kid(0) + " " + op_text(e.binary) + " " + kid(1) + ")";
  case ExprKind::Cond: return "(" + kid(0) + " ? " + kid(1) + " : " + kid(2) + ")";
  case ExprKind::Cast: return "((" + type_name(e.type) + ")" + kid(0) + ")";
  case ExprKind::Load: return program.arrays[e.id].name + "[" + kid(0) + "]";
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

std::string emit_program(const Program& program, const LayoutPlan& layout, const EmitOptions& options) {
  Writer w;
  w.text = options.header + kPrelude + "\n";
  if (!layout.definitions.empty()) w.text += layout.definitions + "\n";
  if (!layout.device_probes.empty()) w.text += layout.device_probes + "\n";
  w.text += kHelpers;
  if (!program.helpers.empty()) w.text += "\n" + helper_templates(program.helpers);
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
      }
    }
    // A callee is always created after its caller: reverse order defines callees first.
    for (std::size_t i = program.functions.size(); i-- > 0;)
      if (program.function_ns[i] == k.ns) emit_function(program, program.functions[i], w);
    emit_kernel(program, k, options, w);
    if (k.inline_ns) w.line("} // inline namespace v1");
    w.line("} // namespace " + k.ns);
  }
  w.line("");
  if (!layout.host_probe_function.empty()) w.text += layout.host_probe_function + "\n";
  else w.line("static void cudiff_print_layout() {}");
  w.line("");
  w.line("int main(int argc, char** argv) {");
  w.indent++;
  w.line("if (argc == 2 && std::strcmp(argv[1], \"--layout\") == 0) {");
  w.line("  cudiff_print_layout();");
  w.line("  return 0;");
  w.line("}");
  for (const Kernel& k : program.kernels) w.line(k.ns + "::run_" + k.name + "();");
  w.line("cudiff_print_layout();");
  w.line("return 0;");
  w.indent--;
  w.line("}");
  return w.text;
}

} // namespace cudiff::generator
