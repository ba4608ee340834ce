// interpreter: runs the IR for every simulated thread of a launch, exactly as C++ and CUDA
// define it, and reports the first undefined behaviour instead of a value. The generator uses
// it while generating (value tracking) and after (the expected checksum, and validation).
#pragma once

#include "generator/ir.h"

#include <optional>
#include <string>
#include <vector>

namespace cudiff::generator {

/// The built-in variables of one thread.
struct ThreadCtx {
  std::uint32_t thread[3] = {0, 0, 0};
  std::uint32_t block[3] = {0, 0, 0};
  std::uint32_t block_dim[3] = {1, 1, 1};
  std::uint32_t grid_dim[3] = {1, 1, 1};
  std::uint32_t linear_tid = 0;  ///< index in the block (x fastest): what warps are made of
  std::uint32_t global_id = 0;   ///< block index * threads per block + linear_tid
};

/// Every thread of a launch, in global-id order.
std::vector<ThreadCtx> make_threads(const Launch& launch);

/// One thread's variables in one function (or kernel) frame.
struct Env {
  std::vector<std::optional<Value>> vars;
  const ThreadCtx* thread = nullptr;
  bool returned = false;  ///< a kernel thread that executed `return`
};

/// Where the statements of a kernel write.
struct OutputSink {
  std::vector<std::uint64_t> words;
  std::vector<int> writer;  ///< global id that wrote each word, -1 if none (race detection)
  std::uint32_t slots = 1;
  std::string race;         ///< set at the first word written by two threads
};

class Interpreter {
public:
  explicit Interpreter(const Program& program) : program_(program) {}

  /// The value of `expr` for one thread, or the UB it would hit.
  Outcome eval(const Expr& expr, const Env& env) const;
  /// Runs statements for one thread; the first UB stops it and is returned.
  UB exec(const Block& block, Env& env, OutputSink* sink) const;
  UB exec(const Stmt& stmt, Env& env, OutputSink* sink) const;
  /// Runs a collective statement over all threads of the launch (envs in global-id order).
  UB exec_collective(const Stmt& stmt, std::vector<Env>& envs, const Launch& launch, OutputSink* sink) const;
  /// Calls a device function with argument values.
  Outcome call(int function, const std::vector<Value>& args, const ThreadCtx& thread) const;

  struct KernelRun {
    std::vector<std::uint64_t> words;
    UB ub = UB::None;
    std::string problem;  ///< UB or race, with where; empty when the run is clean
    std::uint64_t checksum = 0;
  };
  /// Runs a whole kernel: what the GPU must compute.
  KernelRun run(const Kernel& kernel) const;

private:
  const Program& program_;
};

/// The fold the host applies to a kernel's output words (FNV-1a over 64-bit words).
std::uint64_t fold_checksum(const std::vector<std::uint64_t>& words);
/// Initial environment of each thread of a kernel: tid, gtid and parameters set.
std::vector<Env> kernel_envs(const Kernel& kernel, const std::vector<ThreadCtx>& threads);
/// True for statements that need the whole launch (barriers, warp operations, atomics).
bool is_collective(StmtKind kind);

} // namespace cudiff::generator
