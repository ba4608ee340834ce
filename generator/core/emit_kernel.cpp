// emit_kernel: one kernel test's device side (its globals, the kernel, a template over its
// lambdas and functors when it takes any) and its host runner (buffers or __managed__ arrays,
// constant memory, the lambdas or the launcher struct whose member function captures *this,
// the launch, the checksum line).
#include "generator/abi/abi.h"
#include "generator/core/emit_parts.h"

namespace cudiff::generator {
namespace {

std::string dim3_text(const std::uint32_t d[3]) {
  return "dim3(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

bool has_capture(const Kernel& k, Capture capture) {
  for (const LambdaFn& fn : k.lambdas)
    if (fn.capture == capture) return true;
  return false;
}

std::string lambda_constant(const Kernel& k, std::size_t i) { return k.name + "_c" + std::to_string(i); }

/// `x op c` in a lambda or functor body of type T.
std::string lambda_body(const LambdaFn& fn, const std::string& constant) {
  const std::string t = type_name(fn.constant.type);
  return "(" + t + " x) -> " + t + " { return x " + op_text(fn.op) + " " + constant + "; }";
}

/// The globals of the last-block-done sums at the kernel's top level: one partial per block
/// and a ticket counter (zero-initialized; atomicInc wraps it back to 0 for the next launch).
void last_block_globals(const Kernel& k, Writer& w) {
  for (const Stmt& s : k.body) {
    if (s.kind != StmtKind::Atomic || !s.last_block) continue;
    const std::string slot = std::to_string(s.slot);
    w.line("__device__ unsigned long long " + k.name + "_partials" + slot + "[" + std::to_string(k.launch.blocks()) +
           "];");
    w.line("__device__ unsigned int " + k.name + "_ticket" + slot + ";");
  }
}

void functor_types(const Kernel& k, Writer& w) {
  for (std::size_t i = 0; i < k.lambdas.size(); ++i) {
    const LambdaFn& fn = k.lambdas[i];
    if (fn.capture != Capture::Functor) continue;
    const std::string t = type_name(fn.constant.type);
    w.line("struct " + k.name + "_fn" + std::to_string(i) + " {");
    w.line("  " + t + " c;");
    w.line("  __device__ " + t + " operator()(" + t + " x) const { return x " + op_text(fn.op) + " c; }");
    w.line("};");
  }
}

/// The lambdas (or functor objects) f0, f1... then the launch that passes them.
void lambdas_and_launch(const Kernel& k, const std::string& launch, Writer& w) {
  std::string args;
  for (std::size_t i = 0; i < k.lambdas.size(); ++i) {
    const LambdaFn& fn = k.lambdas[i];
    const std::string f = "f" + std::to_string(i), c = lambda_constant(k, i), t = type_name(fn.constant.type);
    args += ", " + f;
    switch (fn.capture) {
    case Capture::ByValue:
      // Not const: a const integer initialized by a constant would not be captured at all.
      w.line(t + " " + c + " = " + literal(fn.constant) + ";");
      w.line("auto " + f + " = [=] " + (fn.host_device ? "__host__ __device__ " : "__device__ ") + lambda_body(fn, c) +
             ";");
      break;
    case Capture::InitCapture:
      w.line("auto " + f + " = [" + c + " = (" + t + ")" + literal(fn.constant) + "] __device__ " + lambda_body(fn, c) +
             ";");
      break;
    case Capture::ThisCapture: w.line("auto " + f + " = [*this] __device__ " + lambda_body(fn, c) + ";"); break;
    case Capture::Functor:
      w.line(k.name + "_fn" + std::to_string(i) + " " + f + "{" + literal(fn.constant) + "};");
      break;
    }
  }
  w.line(launch.substr(0, launch.size() - 2) + args + ");");
}

/// A struct whose member function defines the lambdas and launches: `[*this]` copies the
/// struct (holding the constants) into the closure (V-THISCAP-STAR).
void launcher_struct(const Kernel& k, const std::string& in_type, const std::string& launch, Writer& w) {
  w.line("struct " + k.name + "_launcher {");
  w.indent++;
  for (std::size_t i = 0; i < k.lambdas.size(); ++i)
    if (k.lambdas[i].capture == Capture::ThisCapture)
      w.line(type_name(k.lambdas[i].constant.type) + " " + lambda_constant(k, i) + ";");
  w.line("void launch(unsigned long long* out" + (in_type.empty() ? "" : ", " + in_type + "* in") + ") {");
  w.indent++;
  lambdas_and_launch(k, launch, w);
  w.indent--;
  w.line("}");
  w.indent--;
  w.line("};");
}

void kernel_function(const Program& program, const Kernel& k, const EmitOptions& options, Writer& w) {
  const std::string restrict_ = options.restrict_pointers ? " __restrict__" : "";
  const Array* input = k.input_array >= 0 ? &program.arrays[k.input_array] : nullptr;
  const std::string gc_type = k.name + "_constants";
  bool any_grid_constant = false;
  std::string params = "unsigned long long*" + restrict_ + " out";
  // A managed input is not a parameter: the kernel names the __managed__ array itself.
  if (input && !k.managed) params += ", const " + type_name(input->elem) + "*" + restrict_ + " in";
  for (const ScalarParam& p : k.params) {
    if (!p.grid_constant) params += ", " + type_name(p.value.type) + " " + k.vars[p.var].name;
    any_grid_constant = any_grid_constant || p.grid_constant;
  }
  if (any_grid_constant) params += ", const __grid_constant__ " + gc_type + " gc";
  params += abi_kernel_params(program, static_cast<int>(&k - program.kernels.data()));
  std::string lambda_types;
  for (std::size_t i = 0; i < k.lambdas.size(); ++i) {
    lambda_types += std::string(i ? ", " : "") + "typename F" + std::to_string(i);
    params += ", F" + std::to_string(i) + " f" + std::to_string(i);
  }
  if (!k.lambdas.empty()) w.line("template <" + lambda_types + ">");
  const std::string bounds = options.launch_bounds
                                 ? "__launch_bounds__(" + std::to_string(k.launch.threads_per_block()) + ") "
                                 : "";
  w.line("__global__ void " + bounds + k.name + "(" + params + ") {");
  w.indent++;
  w.line("const unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);");
  w.line(
      "const unsigned int gtid = tid + blockDim.x * blockDim.y * blockDim.z * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));");
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
  emitter.kernel_name_ = k.name;
  emitter.block(k.body, w);
  w.indent--;
  w.line("}");
  w.line("");
}

/// The host's output buffer (device memory, or a __managed__ array written directly).
void output_setup(const Kernel& k, Writer& w) {
  const std::uint32_t base = k.launch.threads() * k.slots;
  if (k.managed) {
    w.line("unsigned long long* out = " + k.name + "_out;");
    w.line("for (size_t i = 0; i < words; ++i) out[i] = 0;");
    for (std::size_t r = 0; r < k.reductions.size(); ++r)
      w.line("out[" + std::to_string(base + r) + "] = " + std::to_string(reduction_identity(k.reductions[r])) + "ull;");
    return;
  }
  w.line("unsigned long long* out = nullptr;");
  w.line("cudiff_check(cudaMalloc(&out, words * sizeof(unsigned long long)), \"cudaMalloc\");");
  w.line("cudiff_check(cudaMemset(out, 0, words * sizeof(unsigned long long)), \"cudaMemset\");");
  if (k.reductions.empty()) return;
  std::string init;
  for (std::size_t r = 0; r < k.reductions.size(); ++r)
    init += (r ? ", " : "") + std::to_string(reduction_identity(k.reductions[r])) + "ull";
  w.line("static const unsigned long long reduction_init[" + std::to_string(k.reductions.size()) + "] = {" + init +
         "};");
  w.line("cudiff_check(cudaMemcpy(out + " + std::to_string(base) +
         ", reduction_init, sizeof(reduction_init), cudaMemcpyHostToDevice), \"cudaMemcpy\");");
}

void input_setup(const Kernel& k, const Array& input, Writer& w) {
  const std::string t = type_name(input.elem);
  const std::string n = std::to_string(input.length);
  const std::string fill = "(" + t + ")cudiff_input(i, " + std::to_string(input.input_salt) + "u, " +
                           std::to_string(input.input_mode) + "u);";
  if (k.managed) {
    w.line("for (unsigned int i = 0; i < " + n + "u; ++i) " + input.name + "[i] = " + fill);
    return;
  }
  w.line("static " + t + " host_in[" + n + "];");
  w.line("for (unsigned int i = 0; i < " + n + "u; ++i) host_in[i] = " + fill);
  w.line(t + "* in = nullptr;");
  w.line("cudiff_check(cudaMalloc(&in, sizeof(host_in)), \"cudaMalloc\");");
  w.line("cudiff_check(cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice), \"cudaMemcpy\");");
}

} // namespace

void emit_kernel(const Program& program, const Kernel& k, const EmitOptions& options, Writer& w) {
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
  const std::uint32_t words = k.output_words();
  if (k.managed) {
    // Host and device use them directly, around a synchronized launch (V-MANAGED-USE).
    if (input)
      w.line("__managed__ " + type_name(input->elem) + " " + k.name + "_in[" + std::to_string(input->length) + "];");
    w.line("__managed__ unsigned long long " + k.name + "_out[" + std::to_string(words) + "];");
  }
  last_block_globals(k, w);
  functor_types(k, w);
  kernel_function(program, k, options, w);

  // The launch statement, ending in ");" so the lambdas can be appended.
  std::string args = "out";
  const bool pass_input = input && !k.managed;
  if (pass_input) args += ", in";
  for (const ScalarParam& p : k.params)
    if (!p.grid_constant) args += ", " + literal(p.value);
  if (!grid_constant.empty()) {
    std::string members;
    for (std::size_t i = 0; i < grid_constant.size(); ++i)
      members += (i ? ", " : "") + literal(grid_constant[i]->value);
    args += ", " + gc_type + "{" + members + "}";
  }
  args += abi_launch_args(program, static_cast<int>(&k - program.kernels.data()));
  const std::string launch = k.name + "<<<" + dim3_text(k.launch.grid) + ", " + dim3_text(k.launch.block) + ", " +
                             std::to_string(k.launch.dynamic_shared_bytes) + ">>>(" + args + ");";
  const bool launcher = has_capture(k, Capture::ThisCapture);
  const std::string in_type = pass_input ? type_name(input->elem) : "";
  if (launcher) launcher_struct(k, in_type, launch, w);

  w.line("static void run_" + k.name + "() {");
  w.indent++;
  w.line("const size_t words = " + std::to_string(words) + ";");
  output_setup(k, w);
  if (input) input_setup(k, *input, w);
  for (std::size_t i = 0; i < program.arrays.size(); ++i) {
    const Array& a = program.arrays[i];
    if (a.kind == ArrayKind::Constant && program.array_ns[i] == k.ns)
      w.line("cudiff_check(cudaMemcpyToSymbol(" + a.name + ", " + a.name + "_init, sizeof(" + a.name +
             "_init)), \"cudaMemcpyToSymbol\");");
  }
  if (launcher) {
    std::string constants;
    for (std::size_t i = 0; i < k.lambdas.size(); ++i)
      if (k.lambdas[i].capture == Capture::ThisCapture)
        constants += (constants.empty() ? "" : ", ") + literal(k.lambdas[i].constant);
    w.line(k.name + "_launcher{" + constants + "}.launch(out" + (pass_input ? ", in" : "") + ");");
  } else {
    lambdas_and_launch(k, launch, w);
  }
  w.line("cudiff_check(cudaGetLastError(), \"cudaLaunchKernel\");");
  w.line("cudiff_check(cudaDeviceSynchronize(), \"cudaDeviceSynchronize\");");
  if (k.managed) {
    w.line("std::printf(\"checksum " + options.checksum_label + k.name + " %016llx\\n\", cudiff_fold(out, words));");
  } else {
    w.line("static unsigned long long host_out[" + std::to_string(words) + "];");
    w.line("cudiff_check(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost), \"cudaMemcpy\");");
    w.line("cudiff_check(cudaFree(out), \"cudaFree\");");
    if (input) w.line("cudiff_check(cudaFree(in), \"cudaFree\");");
    w.line("std::printf(\"checksum " + options.checksum_label + k.name +
           " %016llx\\n\", cudiff_fold(host_out, words));");
  }
  w.indent--;
  w.line("}");
}

} // namespace cudiff::generator
