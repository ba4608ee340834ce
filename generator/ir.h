// ir: the program IR of the core generator — expressions, statements, device functions,
// kernels, arrays and the launch of each kernel. Internal to generator/.
#pragma once

#include "generator/abi/abi_types.h"
#include "generator/dense/dense.h"
#include "generator/generator.h"
#include "generator/semantics/warp.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudiff::generator {

/// Read-only built-in variables (threadIdx.x ... gridDim.z), all unsigned int.
enum class Builtin : std::uint8_t {
  ThreadIdxX,
  ThreadIdxY,
  ThreadIdxZ,
  BlockIdxX,
  BlockIdxY,
  BlockIdxZ,
  BlockDimX,
  BlockDimY,
  BlockDimZ,
  GridDimX,
  GridDimY,
  GridDimZ
};
std::string builtin_text(Builtin builtin);

enum class ExprKind : std::uint8_t { Const, Var, Builtin, Unary, Binary, Cond, Cast, Load, Call, Named };

struct Expr;
using ExprP = std::shared_ptr<const Expr>;

/// One expression node; `type` is its C++ type after the operator's conversions.
struct Expr {
  ExprKind kind = ExprKind::Const;
  IntType type = IntType::Int;
  Value constant;           ///< Const, and Named (the named constant's value)
  int id = -1;              ///< Var: variable; Builtin: Builtin; Load: array; Call: function
  UnaryOp unary = UnaryOp::Plus;
  BinaryOp binary = BinaryOp::Add;
  std::string text;         ///< Named: how the constant is spelled (constexpr host variable...)
  std::vector<ExprP> kids;  ///< operands, the index of a Load, the arguments of a Call
  /// How the node is spelled; the IR (and so the interpreter) sees the plain node. FoldRight/
  /// FoldLeft: the head of a chain of `fold_count - 1` Binary nodes of one operator, nested to
  /// the right (`x1 op (x2 op x3)`) or to the left, emitted as a call of a variadic fold
  /// template. Select: a Binary `x ^ T(3)` (T of 4 or 8 bytes) or a same-type Cast (smaller
  /// T), emitted as `cudiff_select(x)`, whose `if constexpr` picks the same branch.
  /// ClassTemplate: a Binary +, -, *, &, |, ^ whose type T is the operands' common type,
  /// emitted as `cudiff_binop<T, OP>(a).apply(b)` (a class template's partial specialization).
  /// Sfinae: a Binary `x ^ T(5)` (signed T) or `x ^ T(10)` (unsigned T) of 4 or 8 bytes, emitted
  /// as `cudiff_tweak(x)`, the overload `enable_if` keeps for T's signedness. Vector: a Binary
  /// +, |, ^ of a 4- or 8-byte T, emitted as `cudiff_v<op><n>(make_<T><n>(a, b, 0...))` with
  /// `spell_index` = n components. Lambda: a Binary `x op c` of the kernel's lambda or functor
  /// `spell_index` (Kernel::lambdas), emitted as `f<index>(x)`. Probe: a same-type Cast, emitted
  /// as a call of the device probe Program::probes[spell_index], which returns its argument.
  enum class Spell : std::uint8_t {
    Plain,
    FoldRight,
    FoldLeft,
    Select,
    ClassTemplate,
    Sfinae,
    Vector,
    Lambda,
    Probe
  } spell = Spell::Plain;
  int fold_count = 0;
  int spell_index = 0;
};

enum class StmtKind : std::uint8_t {
  Decl,
  Assign,
  If,
  For,
  Switch,
  WriteOut,
  Return,
  // Collectives: only at the top level of a kernel, in block-uniform control flow.
  Exchange,
  Shuffle,
  Vote,
  SyncCount,
  Atomic,
  // generator/collectives/collectives_gen.cpp: match, __reduce_*_sync, cooperative-groups tiles, atomics
  // in loops (built-in, atomicCAS loops, cuda::atomic_ref).
  WarpMatch,
  WarpReduce,
  Tile,
  AtomicLoop
};

/// How an Assign combines: plain `=`, or `op=`.
struct AssignOp {
  bool compound = false;
  BinaryOp op = BinaryOp::Add;
};

enum class VoteKind : std::uint8_t { All, Any, Ballot };
enum class SyncCountKind : std::uint8_t { Count, And, Or };
enum class AtomicKind : std::uint8_t { Add, And, Or, Xor, Min, Max };
enum class MatchKind : std::uint8_t { Any, All };
/// What a cooperative-groups tile statement calls on `cg::tiled_partition<N>(block)`.
enum class TileOp : std::uint8_t { Shfl, ShflXor, Any, All, Ballot, Reduce };
/// How each update of an AtomicLoop is spelled: atomicAdd..., an atomicCAS loop computing the
/// same update, or `cuda::atomic_ref<T, scope>::fetch_<op>(v, order)`.
enum class AtomicSpelling : std::uint8_t { Builtin, CasLoop, AtomicRef };
enum class MemoryOrder : std::uint8_t { Relaxed, AcqRel, SeqCst };

struct Stmt;
using Block = std::vector<Stmt>;

struct SwitchCase {
  Value label;
  Block body;
};

struct Stmt {
  StmtKind kind = StmtKind::Decl;
  int var = -1;        ///< Decl/Assign target, For induction variable, collective result
  IntType target_type = IntType::Int;  ///< the type of `var`: assignments convert to it
  AssignOp assign;
  ExprP expr;          ///< initializer, value, condition, subject, collective operand
  Block body;          ///< If then, For body, Switch default
  Block else_body;
  std::vector<SwitchCase> cases;
  std::int64_t start = 0, trips = 0, step = 1;  ///< For: i = start; i < start + trips*step
  int slot = 0;        ///< WriteOut: output slot; Atomic: reduction word
  int array = -1;      ///< Exchange: the shared array
  std::uint32_t param = 0;  ///< Exchange permutation constant; Shuffle lane/mask/delta
  bool warp_scope = false;  ///< Exchange through __syncwarp instead of __syncthreads
  bool rotate = false;      ///< Exchange: (tid + k) instead of (tid ^ k)
  ShuffleKind shuffle = ShuffleKind::Xor;
  VoteKind vote = VoteKind::Any;
  SyncCountKind sync_count = SyncCountKind::Count;
  AtomicKind atomic = AtomicKind::Add;
  /// Atomic Add through the guide's last-block-done pattern: a block sum in shared memory, one
  /// partial per block in global memory, __threadfence, atomicInc on a ticket; the last block
  /// adds the partials into the reduction word. Same result as a plain atomicAdd.
  bool last_block = false;
  // ---- the collectives of generator/collectives/collectives_gen.cpp (defaults keep the older kinds) ----
  /// Shuffle, Tile: the segment (tile) width, a power of two from 2 to 32.
  std::uint32_t width = 32;
  /// Shuffle Idx, Tile Shfl: the source lane as a computed value (any tracked value; the
  /// hardware takes it modulo `width`); null: the constant `param`.
  ExprP lane = {};
  /// Exchange: spelled with cg::this_thread_block(): `.thread_rank()` and `.sync()`.
  bool cg_block = false;
  MatchKind match = MatchKind::Any;
  int pred_var = -1;  ///< WarpMatch All: the bool that says whether every lane matched
  ReduceOp reduce = ReduceOp::Add;  ///< WarpReduce, Tile Reduce
  TileOp tile = TileOp::Shfl;
  /// AtomicLoop: `for (int loop_var = start; ...) update(word, expr)`; the word is the shared
  /// array `array` (one element, read into `var` after a barrier) or, with `array` -1, the
  /// global reduction word `slot` (read by the host). `target_type` is the word's type.
  int loop_var = -1;
  AtomicSpelling spelling = AtomicSpelling::Builtin;
  MemoryOrder order = MemoryOrder::Relaxed;
};

struct Var {
  std::string name;
  IntType type = IntType::Int;
};

/// StaticLocal: a constant table that is a `static const` local of a `__device__` accessor
/// function (V-STATIC-LOCAL-IMPLICIT); a Load from it calls the accessor.
enum class ArrayKind : std::uint8_t { Input, Constant, DeviceGlobal, SharedStatic, SharedDynamic, StaticLocal };

struct Array {
  std::string name;
  IntType elem = IntType::Int;
  int length = 0;
  ArrayKind kind = ArrayKind::Constant;
  std::vector<Value> values;       ///< Input, Constant, DeviceGlobal: the contents
  std::uint32_t input_salt = 0;    ///< Input: the host fills in[i] = cudiff_input(i, salt, mode)
  std::uint32_t input_mode = 0;
  std::uint32_t dynamic_offset = 0;  ///< SharedDynamic: byte offset into the dynamic buffer
};

enum class Inlining : std::uint8_t { Default, NoInline, ForceInline };

struct Function {
  std::string name;
  IntType result = IntType::Int;
  int param_count = 0;   ///< vars[0 .. param_count) are the parameters
  std::vector<Var> vars;
  Block body;
  ExprP result_expr;
  Inlining inlining = Inlining::Default;
  bool via_pointer = false;  ///< called through a `__device__` function pointer variable
  /// A function template over the type of parameter `template_param` (-1: not a template);
  /// `template_default_result`: the result type is a second template parameter defaulted to
  /// `result`; `template_explicit`: calls name the template argument instead of deducing it.
  int template_param = -1;
  bool template_default_result = false;
  bool template_explicit = false;
  /// Bounded recursion: a last `int` parameter `depth` (the call's last argument, 0..4);
  /// for depth > 0 the function returns `(R)(f(args, depth - 1) ^ recursion_xor)`.
  bool recursive = false;
  Value recursion_xor;
  /// The deepest depth argument its one call site passes (0..4): the call stacks this many
  /// frames of the function on top of its first (generator/core/stack.cpp).
  int recursion_depth_max = 0;
  int arg_count() const { return param_count + (recursive ? 1 : 0); }
};

struct Launch {
  std::uint32_t grid[3] = {1, 1, 1};
  std::uint32_t block[3] = {32, 1, 1};
  std::uint32_t dynamic_shared_bytes = 0;
  std::uint32_t threads_per_block() const { return block[0] * block[1] * block[2]; }
  std::uint32_t blocks() const { return grid[0] * grid[1] * grid[2]; }
  std::uint32_t threads() const { return threads_per_block() * blocks(); }
};

/// A scalar kernel parameter with the value the host passes.
struct ScalarParam {
  int var = -1;
  Value value;
  bool grid_constant = false;  ///< passed as a member of the __grid_constant__ struct
};

/// How a kernel's callable argument is made on the host (V-EXTLAM-*, V-THISCAP-STAR,
/// V-SAMPLE-FUNCTOR): a by-value capture, an init-capture, `*this` capture inside a member
/// function of a launcher struct, or a functor class. Only by-value lambdas may be
/// `__host__ __device__` (R-EXTLAM-12-INITCAP, R-THISCAP-CONTEXT).
enum class Capture : std::uint8_t { ByValue, InitCapture, ThisCapture, Functor };

/// `[captures] __device__ (T x) -> T { return x op c; }`, passed to a `__global__` template.
struct LambdaFn {
  BinaryOp op = BinaryOp::Add;
  Value constant;  ///< c, of the lambda's type T
  Capture capture = Capture::ByValue;
  bool host_device = false;
};

struct Kernel {
  std::string name;
  std::string ns;       ///< the namespace its test lives in
  bool inline_ns = false;
  Launch launch;
  std::vector<Var> vars;  ///< vars[0] = tid, vars[1] = gtid, then parameters and locals
  std::vector<ScalarParam> params;
  int input_array = -1;
  std::vector<int> shared_arrays;
  Block body;
  int slots = 1;  ///< output words per thread
  std::vector<AtomicKind> reductions;  ///< one word each, after the per-thread slots
  std::uint64_t expected_checksum = 0;
  std::vector<LambdaFn> lambdas;  ///< template arguments F0, F1...: parameters f0, f1...
  bool managed = false;           ///< input and output live in __managed__ arrays
  std::uint32_t output_words() const {
    return launch.threads() * slots + static_cast<std::uint32_t>(reductions.size());
  }
};

/// A constexpr host variable, read from device code (V-CONSTEXPR-VAR-DEV).
struct NamedConstant {
  std::string name;
  std::string ns;
  Value value;
};

/// A V-rule probe planted in the program (generator/probes/probes.cpp); host probes are checked
/// once before the kernels run, with `host_check` as the argument.
struct PlantedProbe {
  std::string rule_id;
  rules::RuleProbe probe;
  std::uint64_t host_check = 0;
  int sites = 0;  ///< device probes: the expressions wrapped in a call
};

struct Program {
  std::vector<PlantedProbe> probes;
  std::vector<Array> arrays;
  std::vector<Function> functions;  ///< a callee always comes after its callers
  std::vector<Kernel> kernels;
  std::vector<dense::Kernel> dense;  ///< the compute-dense kernels (generator/dense/dense.h), after the core ones
  std::vector<NamedConstant> constants;
  std::vector<std::string> function_ns;  ///< namespace of each function
  std::vector<std::string> array_ns;     ///< namespace of each array
  std::set<std::string> helpers;         ///< global helper templates the emitted code calls
  std::vector<AbiFunction> abi = {};     ///< the ABI family's functions (generator/abi/abi_params.cpp)
};

/// Initial value of an output reduction word for this atomic (the identity of the operation).
std::uint64_t reduction_identity(AtomicKind kind);
/// The host's input formula, mirrored by the emitted `cudiff_input`.
std::uint64_t input_word(std::uint32_t index, std::uint32_t salt, std::uint32_t mode);

} // namespace cudiff::generator
