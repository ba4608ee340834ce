// kernels: the program skeleton — how many kernels, their namespaces, launch configurations,
// parameters and global arrays — then phase two for each kernel body, and its interpreter run.
#include "generator/core/kernels.h"

#include "generator/core/body_gen.h"

namespace cudiff::generator {
namespace {

/// Splits a power of two into three power-of-two factors (x, y, z), x first.
void split_dims(GenContext& ctx, std::uint32_t total, std::uint32_t out[3], bool multi) {
  out[0] = total;
  out[1] = out[2] = 1;
  if (!multi) return;
  for (int d = 1; d < 3; ++d) {
    while (out[0] > 1 && out[0] % 2 == 0 && ctx.rng.chance(0.35)) {
      out[0] /= 2;
      out[d] *= 2;
    }
  }
}

Launch make_launch(GenContext& ctx) {
  Launch launch;
  static const std::uint32_t sizes[] = {32, 64, 128};
  const std::uint32_t per_block = sizes[ctx.weighted("launch.block_threads.", {"32", "64", "128"})];
  const bool multi = ctx.on("multi_dim_launch") && ctx.chance("launch.multi_dim");
  split_dims(ctx, per_block, launch.block, multi);
  const auto blocks = static_cast<std::uint32_t>(ctx.count("launch.blocks"));
  launch.grid[0] = blocks;
  if (multi && blocks % 2 == 0 && ctx.rng.chance(0.5)) {
    launch.grid[0] = blocks / 2;
    launch.grid[ctx.rng.chance(0.5) ? 1 : 2] = 2;
  }
  if (multi) ctx.use("multi_dim_launch");
  return launch;
}

int add_array(GenContext& ctx, const std::string& ns, ArrayKind kind, const std::string& prefix, int length) {
  Array array;
  array.name = ctx.fresh(prefix);
  array.kind = kind;
  array.elem = random_type(ctx);
  array.length = length;
  if (kind == ArrayKind::Input) {
    array.input_salt = static_cast<std::uint32_t>(ctx.rng.below(1u << 31));
    array.input_mode = static_cast<std::uint32_t>(ctx.rng.below(3));
    for (int i = 0; i < length; ++i)
      array.values.push_back(
          convert(Value{IntType::ULLong, input_word(i, array.input_salt, array.input_mode)}, array.elem));
  } else {
    for (int i = 0; i < length; ++i) array.values.push_back(random_value(ctx, array.elem));
  }
  ctx.program.arrays.push_back(std::move(array));
  ctx.program.array_ns.push_back(ns);
  return static_cast<int>(ctx.program.arrays.size()) - 1;
}

} // namespace

void generate_kernel(GenContext& ctx, int index) {
  Kernel kernel;
  kernel.name = "kernel_" + std::to_string(index);
  kernel.ns = "cudiff_test_" + std::to_string(index);
  if (ctx.on("inline_namespace") && ctx.chance("kernel.inline_namespace")) {
    kernel.inline_ns = true;
    ctx.use("inline_namespace");
  }
  kernel.launch = make_launch(ctx);
  kernel.slots = ctx.count("kernel.slots");

  // Globals of this test: the input (a kernel parameter), __constant__ and __device__ arrays.
  constexpr int kInputLength = 512;  // >= the most threads a launch has; a power of two
  kernel.input_array = add_array(ctx, kernel.ns, ArrayKind::Input, "in", kInputLength);
  ctx.program.arrays[kernel.input_array].name = "in";
  if (ctx.on("managed_memory")) {
    // The kernel reads the __managed__ input by name, as device code may (V-MANAGED-USE).
    kernel.managed = true;
    ctx.program.arrays[kernel.input_array].name = kernel.name + "_in";
    ctx.use("managed_memory");
  }
  const int global_length = 1 << static_cast<int>(ctx.rng.range(2, 4));
  if (ctx.on("constant_memory"))
    for (int i = ctx.count("constant_arrays"); i > 0; --i)
      add_array(ctx, kernel.ns, ArrayKind::Constant, "cmem", global_length);
  if (ctx.on("device_global_array"))
    for (int i = ctx.count("global_arrays"); i > 0; --i)
      add_array(ctx, kernel.ns, ArrayKind::DeviceGlobal, "gmem", global_length);
  if (ctx.on("static_local"))
    for (int i = ctx.count("static_tables"); i > 0; --i)
      add_array(ctx, kernel.ns, ArrayKind::StaticLocal, "table", global_length);

  kernel.vars = {Var{"tid", IntType::UInt}, Var{"gtid", IntType::UInt}};
  if (ctx.on("kernel_parameters") || ctx.on("grid_constant")) {
    for (int p = ctx.count("kernel.params"); p > 0; --p) {
      ScalarParam param;
      const IntType type = random_type(ctx);
      param.value = random_value(ctx, type);
      param.grid_constant = ctx.on("grid_constant") &&
                            (!ctx.on("kernel_parameters") || ctx.chance("kernel.grid_constant"));
      param.var = static_cast<int>(kernel.vars.size());
      const std::string name = ctx.fresh("p");
      kernel.vars.push_back(Var{param.grid_constant ? "gc." + name : name, type});
      kernel.params.push_back(param);
      ctx.use(param.grid_constant ? "grid_constant" : "kernel_parameters");
    }
  }

  const std::vector<ThreadCtx> threads = make_threads(kernel.launch);
  BodyGen gen(ctx, kernel_envs(kernel, threads), true, 0, kernel.ns);
  gen.vars = kernel.vars;
  for (std::size_t v = 0; v < kernel.vars.size(); ++v)
    gen.visible.push_back(VarState{static_cast<int>(v), true, false, false});
  gen.launch = kernel.launch;
  gen.slots = kernel.slots;
  gen.lambdas = &kernel.lambdas;
  const Skeleton skeleton = make_skeleton(ctx, ctx.count("kernel.statements"),
                                          static_cast<int>(ctx.knob(to_string(ctx.size) + ".nesting.max")), true);
  kernel.body = gen.fill(skeleton, true);
  Block outputs = gen.write_outputs(kernel.slots);
  kernel.body.insert(kernel.body.end(), outputs.begin(), outputs.end());
  gen.lambdas = nullptr;
  kernel.vars = std::move(gen.vars);
  kernel.reductions = std::move(gen.reductions);
  kernel.shared_arrays = std::move(gen.shared_arrays);
  kernel.launch.dynamic_shared_bytes = gen.dynamic_shared_bytes;

  const Interpreter::KernelRun run = ctx.interpreter.run(kernel);
  if (!run.problem.empty()) throw Error(ErrorKind::internal, "generator defect: the interpreter finds " + run.problem);
  kernel.expected_checksum = run.checksum;
  ctx.program.kernels.push_back(std::move(kernel));
}

} // namespace cudiff::generator
