// dense: the compute-dense kernel family — integer kernels built to reach the optimizers and
// ptxas (integer intrinsics, 8/16/64-bit chains, carries, selects, bit-fields, data-dependent
// loops with break and continue, switch fallthrough, goto, local and shared arrays, vector
// loads, __noinline__ functions, inline PTX, warp collectives). Undefined behaviour is
// impossible by construction (arithmetic in unsigned types, masked shift amounts and indexes,
// divisors forced non-zero and positive), so expressions need no value tracking; the
// interpreter (dense_run.cpp) runs every thread to predict the checksum. Drawn from a random
// stream of their own after the core program is built, so the core program of a seed is the
// same with or without them. Internal to generator/ (docs/generator.md, "Compute-dense
// kernels").
#pragma once

#include "common/rng.h"
#include "generator/generator.h"
#include "generator/inline_ptx/inline_ptx.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cudiff::generator::dense {

/// The declared type of a variable; expressions are all 32- or 64-bit unsigned.
enum class VarType : std::uint8_t { u8, s8, u16, s16, u32, s32, u64, s64 };
const char* type_name(VarType type);
int bits_of(VarType type);
bool is_signed(VarType type);
/// The bit pattern of `value` converted to `type` (modular), zero-extended to 64 bits.
std::uint64_t narrow(VarType type, std::uint64_t value);
/// The value of a `type` variable holding `bits` read as unsigned int (32) or unsigned long
/// long (64): signed types sign-extend.
std::uint64_t widen(VarType type, std::uint64_t bits, bool wide);

/// Every operation an expression node can be. The table in dense_ops.cpp gives each its
/// spelling, its operand and result widths, its family and its exact semantics.
enum class Op : std::uint16_t {
#define DENSE_OP(name, family, result64, args, text) name,
#include "generator/dense/dense_ops.def"
#undef DENSE_OP
};

struct OpInfo {
  Op op;
  const char* name;
  const char* family;  ///< the construct that enables it: "dense_intrinsics", "dense_simd"...
  bool result64 = false;
  std::string args;    ///< one char per operand: '4' = 32-bit, '8' = 64-bit
  const char* text;    ///< %0, %1... stand for the operands' text
};
const std::vector<OpInfo>& op_table();
const OpInfo& info(Op op);
/// The exact value (zero-extended) for the operands' values (each 32- or 64-bit as the op says).
std::uint64_t apply(Op op, const std::uint64_t* args);
/// The same for the floating-point operations (families dense_fp_float and dense_half;
/// dense_float_ops.cpp).
std::uint64_t apply_floating(Op op, const std::uint64_t* args);

struct Expr {
  enum class Kind : std::uint8_t { Const, Var, LoopIndex, ThreadId, Input, Local, Shared, Operation, Call };
  Kind kind = Kind::Const;
  bool wide = false;       ///< 64-bit (unsigned long long) rather than 32-bit (unsigned int)
  std::uint64_t value = 0; ///< Const: the value; LoopIndex: the loop's depth
  int var = -1;            ///< Var: the variable; Call: the function
  Op op = Op::Add;
  bool ldg = false;        ///< Input: read through __ldg
  /// Input without ldg (dense_cache_hints): 0 a plain load, 1 __ldcs, 2 __ldcg, 3 __ldlu, 4
  /// __ldca, 5 __ldcv (3 and 4 through cache_hint_helpers())
  std::uint8_t hint = 0;
  std::vector<Expr> args;  ///< Operation/Call operands; Input/Local/Shared: the index
};

struct Stmt;
using Body = std::vector<Stmt>;

enum class StmtKind : std::uint8_t {
  Assign,      ///< var = (T)(expr), or var op= expr for 32/64-bit unsigned variables
  StoreLocal,  ///< loc[a & 7] = b
  StoreShared, ///< the thread's own 8 shared words: sh[base + (a & 7)] = b
  VectorLoad,  ///< uint2/uint4/ulonglong2 from the input: fields xor-ed into variables
  VectorStore, ///< uint4 into the thread's shared words
  If,
  For,         ///< for (i = 0; i < (a & mask) + lo; ++i), or a constant trip count lo
  Break,       ///< if (a) break; (in a loop, never directly in a switch)
  Continue,    ///< if (a) continue;
  Switch,      ///< switch ((a) & 7u) with fallthrough between cases; with `table`, a jump table
  Goto,        ///< if (a) goto skip; body; skip:;
  Return,      ///< if (a) { write the outputs; return; } (kernel top level)
  Asm,         ///< an inline-PTX block: outputs are variables, inputs expressions
  Shuffle,     ///< var = __shfl*_sync(full, a, lane/delta b, width) (kernel top level)
  WarpReduce,  ///< var = __reduce_add/min/max/and/or/xor_sync or __ballot_sync (kernel top level)
  StoreBytes,  ///< the thread's own 8 global bytes (2 uchar4): one byte, bytes[t*2 + (a & 1)].x = b
               ///< (vector_kind 0..3: x, y, z, w), or a whole uchar4 (4: =, 5: __stwt)
  Atomic,      ///< one update of atomic slot `label` by a (dense_atomics): a built-in of the slot's
               ///< operation at scope `vector_kind` (AtomicScope), or (`cas`) a CAS loop
  Generic,     ///< a generic pointer chosen at run time (dense_generic_pointers): vector_kind 0,
               ///< var ^= *p, p into the input (global), the thread's shared or local words as
               ///< (a) % 3 says, index b; 1, *p = c, p into its shared or local words as (a) & 1 says
  BitField,    ///< the thread's bit-field struct in place `label` (BitPlace), member `width`: vector_kind
               ///< 0 store a, 1 compound update by a, 2 var ^= member, 3 copy from place `lo`, 4 var
               ///< ^= the fold of every member (dense_bitfields)
  Padded,      ///< the thread's tail-padded struct in global memory (dense_padded_structs): member
               ///< `width` set from a, passed by value with b to the kernel's __noinline__ function,
               ///< the returned struct stored back; var ^= the fold of its members
};

/// The family dense_atomics: a kernel's atomic slots, 4 32-bit and 4 64-bit words per region
/// (`<name>_atom32`, `<name>_atom64`); a region per block and one for the whole grid. Every
/// update of a slot applies the slot's one operation, which is commutative and associative, so
/// its final value does not depend on the order the threads reach it: min and max (signed or
/// not), and, or, xor. The host sets the words before the launch and folds them into the
/// checksum after the threads' words.
enum class AtomicOp : std::uint8_t { Min, Max, And, Or, Xor };
enum class AtomicScope : std::uint8_t { Device, Block, System };
struct AtomicSlot {
  AtomicOp op = AtomicOp::Or;
  bool wide = false;        ///< slots 4..7: 64-bit
  bool is_signed = false;   ///< Min and Max only: compared as int / long long
  bool per_block = false;   ///< the thread's own block's region (any scope), else the grid's
                            ///< (device or system scope: other blocks update it too)
};
constexpr std::uint32_t kAtomicSlots = 8;  ///< per region: 4 32-bit, then 4 64-bit
/// A slot's word before the kernel runs (region r, slot k of its width).
std::uint64_t initial_atom(bool wide, std::uint32_t index);
/// The slot's operation on its old value and an update's value (32-bit slots: the low halves).
std::uint64_t apply_atomic(const AtomicSlot& slot, std::uint64_t old, std::uint64_t value);

enum class CompoundOp : std::uint8_t { None, Add, Sub, Xor, Or, And, Mul };

/// The family dense_bitfields: one struct type per kernel (`<name>_bf`) of kBitMembers members,
/// signed and unsigned bit-fields of odd widths and plain unsigned char/short/int members, in
/// the order Kernel::bit_members says; each thread has one in a local variable, one in shared
/// memory and one in global memory (BitPlace), all zero at the start. Unsigned members take any
/// value (stores truncate, unsigned arithmetic wraps); signed ones only values that fit, and
/// their compound updates are &, |, ^ of values that fit. The interpreter keeps each member as
/// `(unsigned)s.member` reads it.
struct BitMember {
  const char* name;
  int bits;
  bool is_signed;
  const char* plain;  ///< a plain member's type, else nullptr
};
constexpr std::uint32_t kBitMembers = 12;
enum class BitPlace : std::uint8_t { Local, Shared, Global };
const BitMember& bit_member(std::uint32_t index);
/// A signed member's stored value for an expression's value v: (int)(v & mask) - 2^(bits-1).
/// An unsigned member's: v truncated. Both as (unsigned)s.member then reads it.
std::uint32_t bit_store(std::uint32_t member, std::uint32_t value);
/// The member's value after `s.member op= operand`; `value` is the expression's value (for a
/// signed member first made the operand bit_store makes of it).
std::uint32_t bit_compound(std::uint32_t member, CompoundOp op, std::uint32_t old, std::uint32_t value);
/// The fold of one struct's members in the table's order (StmtKind::BitField, vector_kind 4).
std::uint32_t bit_fold(const std::uint32_t* members);

/// The family dense_padded_structs: one struct type per kernel (`<name>_tp`) of char3, short3,
/// uchar3, float3 (holding whole numbers), int and unsigned char members in the order
/// Kernel::padded_members says, so with padding inside and at its tail; each thread's in a
/// __device__ array, zero at the start. The host mirror of its members:
struct Padded {
  std::int8_t a[3] = {};
  std::int16_t b[3] = {};
  std::uint8_t c[3] = {};
  float f[3] = {};
  std::int32_t i = 0;
  std::uint8_t k = 0;
};
constexpr std::uint32_t kPaddedMembers = 6;
/// Member `member` set from the value v, as the statement's text sets it.
void padded_set(Padded& p, std::uint32_t member, std::uint32_t value);
/// The kernel's __noinline__ function on a copy of p.
Padded padded_call(Padded p, std::uint32_t k);
/// The fold of the members (never the padding).
std::uint32_t padded_fold(const Padded& p);

/// The family dense_fences: each thread publishes its 4th output word (the hash) as a partial,
/// fences, and counts itself in with an atomicAdd; the thread that counts last fences and folds
/// every partial, in index order, into a result word. Device and system scope: all the grid's
/// threads, result word 3; block scope: the block's threads (a __shared__ counter), result word
/// blockIdx.x. The 4 result words follow the atomic words in run_kernel's words. The fence is
/// __threadfence(), __threadfence_system(), __threadfence_block(), or (Cuda*)
/// cuda::atomic_thread_fence at the same scope.
enum class FenceKind : std::uint8_t { None, Device, System, Block, CudaDevice, CudaSystem, CudaBlock };
constexpr int kFenceKinds = 6;
/// Whether the fence's threads are one block's (a __shared__ counter), not the grid's.
inline bool block_fence(FenceKind kind) { return kind == FenceKind::Block || kind == FenceKind::CudaBlock; }
constexpr std::uint32_t kFenceWords = 4;
enum class ShuffleKind : std::uint8_t { Idx, Up, Down, Xor };
enum class WarpReduceKind : std::uint8_t { Add, Min, Max, And, Or, Xor, Ballot };

struct SwitchCase {
  std::uint32_t label = 0;
  bool fallthrough = false;  ///< no break at its end
  Body body;
};

struct Stmt {
  StmtKind kind = StmtKind::Assign;
  int var = -1;                   ///< Assign/Shuffle/WarpReduce target; VectorLoad: the first target
  CompoundOp compound = CompoundOp::None;
  std::vector<Expr> exprs;        ///< the statement's expressions, in the order its text reads them
  Body body, else_body;           ///< If; For/Goto: body
  std::vector<SwitchCase> cases;  ///< Switch; a default is cases.back() when has_default
  bool has_default = false;
  // For: trip count (exprs[0] & mask) + lo, or lo when exprs is empty; unroll 0 = no
  // pragma, 1 = `#pragma unroll 1`, N = `#pragma unroll N`, kFullUnroll = `#pragma unroll`.
  std::uint32_t mask = 0, lo = 0, unroll = 0;
  int depth = 0;                  ///< For: the loop's nesting depth (its index is i<depth>)
  /// Switch: 0, the selector is (a) & 7u; N (8 or more, the family dense_jump_table), it is
  /// (a) % N + lo and cases lo..lo+N-1 are all there, dense enough for a jump table (brx.idx).
  std::uint32_t table = 0;
  int vector_kind = 0;            ///< VectorLoad/VectorStore: 0 uint2, 1 uint4, 2 ulonglong2; StoreBytes: see there
  std::vector<int> targets;       ///< VectorLoad/Asm: the variables written
  ShuffleKind shuffle = ShuffleKind::Idx;
  WarpReduceKind reduce = WarpReduceKind::Add;
  std::uint32_t width = 32;       ///< Shuffle
  int label = 0;                  ///< Goto: its label's number; Atomic: the slot
  bool cas = false;               ///< Atomic: an atomicCAS loop rather than the built-in
  std::shared_ptr<const ptx::Block> ptx;  ///< Asm
};

struct Var {
  std::string name;
  VarType type = VarType::u32;
  bool is_volatile = false;
  /// A kernel variable after the first 5 starts as an input word; only the IR reduction makes
  /// one start at 0, so that a reproducer need not read its input.
  bool from_input = true;
};

/// A device function of the family: parameters are its first variables, all 32- or 64-bit
/// unsigned; the body may loop; it returns `result`.
struct Function {
  std::string name;
  bool noinline = true;  ///< __noinline__, else __forceinline__
  bool result64 = false;
  int params = 0;
  std::vector<Var> vars;
  Body body;
  Expr result;
};

/// The launch is 1-D: `blocks` blocks of `threads` threads. Each thread writes 4 output words.
struct Kernel {
  std::string name;
  std::uint32_t blocks = 2, threads = 128;
  std::uint32_t input_salt = 0;
  bool dynamic_shared = false;  ///< the shared words are extern __shared__
  std::vector<Var> vars;        ///< vars[0..3] = a, b, c, d (u32), vars[4] = w (u64), then more
  std::vector<Function> functions;  ///< callable from this kernel (a callee after its caller)
  Body body;
  std::uint64_t expected_checksum = 0;
  std::vector<std::string> families;  ///< constructs it uses, for the sidecar and measurement
  /// On in every generated kernel: the thread's 8 local words (`loc`) and its 8 shared words
  /// (`sh`) exist, are filled from the input and hashed into its 4th output word. Only the IR
  /// reduction turns one off, once nothing reads or writes it (generator/reduction/reduction_dense.cpp).
  bool local_words = true, shared_words = true;
  /// The family dense_byte_store: the thread's 8 bytes in a __device__ uchar4 array of the
  /// kernel (`<name>_bytes`), set from the thread's index, stored to byte by byte or as uchar4
  /// (StoreBytes) and hashed into its 4th output word after the shared words.
  bool byte_words = false;
  /// The family dense_atomics: kAtomicSlots slots (empty: no atomic words), updated by Atomic
  /// statements. run_kernel's words end with the regions' words: the 32-bit ones, then the
  /// 64-bit ones, region by region ((blocks + 1) * 8 words).
  std::vector<AtomicSlot> atomic_slots;
  /// On in every generated kernel: a, b, c, d and w (vars[0..4]) are declared and are the
  /// thread's first 3 output words. Off (the IR reduction, once nothing uses them), those
  /// words are 0.
  bool base_words = true;
  /// The family dense_bitfields: the order of the bit-field struct's members (empty: no struct).
  std::vector<std::uint8_t> bit_members;
  /// The family dense_padded_structs: the order of the padded struct's members (empty: none).
  std::vector<std::uint8_t> padded_members;
  /// The family dense_fences: how the threads publish their partials (None: they do not).
  FenceKind fence = FenceKind::None;
  /// The family dense_cache_hints: the output words stored plainly (0) or by __stcs, __stwt,
  /// __stcg, __stwb (1..4; all but __stwt through cache_hint_helpers()).
  std::uint8_t store_hint = 0;
};

/// The kernel's struct types, __device__ arrays and functions of the families dense_bitfields,
/// dense_padded_structs and dense_fences (dense_memory.cpp); "" without them.
std::string memory_globals(const Kernel& kernel);
/// The lines at the kernel's start that set the thread's structs (and the fence's counter).
std::string memory_prologue(const Kernel& kernel);
/// The text of a BitField or Padded statement; `exprs` its expressions' text, `var` its
/// variable's name; `constant`: its first expression is a constant (a truncating store of it
/// would draw a warning, so the text masks it first).
std::string memory_text(const Kernel& kernel, const Stmt& s, const std::vector<std::string>& exprs,
                        const std::string& var, bool constant);
/// A thread's partial `hash` published and, by the last thread, folded (dense_fences); "" without.
std::string fence_publish(const Kernel& kernel, const std::string& hash);
/// kFenceWords with the family dense_fences, else 0.
std::uint32_t fence_words(const Kernel& kernel);
/// The fence's result words from the threads' partials (run_kernel's order of threads).
std::vector<std::uint64_t> fence_results(const Kernel& kernel, const std::vector<std::uint64_t>& partials);
/// Host lines as atomic_host_before/after say, for the fence's counters and result words, which
/// follow the atomic words (`words` counts the threads' and the atomic words).
std::string fence_host_before(const Kernel& kernel, bool checked);
std::string fence_host_after(const Kernel& kernel, std::uint32_t words, bool checked, bool compact);

/// The text of one Atomic statement, `value` its operand's text (dense_atomics.cpp).
std::string atomic_text(const Kernel& kernel, const Stmt& s, const std::string& value);
/// The __device__ arrays of the atomic slots; "" without them.
std::string atomic_globals(const Kernel& kernel);
/// Host lines: before the launch, the slots' initial words to the device; after it, the words
/// back and into host_out after `words` (`words` then counts them too). "" without slots.
/// `checked`: each CUDA call through the generated programs' cudiff_check. `compact`: the
/// words folded 4 to 1 as compact_words folds them, into `h` (emit_compact_program).
std::string atomic_host_before(const Kernel& kernel, bool checked);
std::string atomic_host_after(const Kernel& kernel, std::uint32_t words, bool checked, bool compact);
/// The atomic words a kernel adds to its output ((blocks + 1) * 8, or 0).
std::uint32_t atomic_words(const Kernel& kernel);

/// Whether the kernel's text reads its input at all; a kernel that does not takes no `in`.
bool reads_input(const Kernel& kernel);
/// The output words its threads write (blocks × threads × kOutputWordsPerThread).
std::uint32_t output_words(const Kernel& kernel);
/// The dynamic shared memory its launch asks for (0 without).
std::uint32_t dynamic_shared_bytes(const Kernel& kernel);
/// The launch plan of the kernel's harness runner (run_<name>, emit_kernel): runners/launch.h's
/// description in its JSON form, with the kernel's and its atomic slots' names as the module has
/// them (generator/mangle.h: the kernel and symbols sit in `scope`, "cudiff_s1/" style
/// namespaces joined by "::" and ending in it, then cudiff_dense), its `in` and `out` buffers
/// filled as the harness fills them, the slots set as atomic_host_before sets them, `stack_bytes`
/// as the program's main sets it, and the checksum line `checksum <checksum_label><name> HASH`
/// folded as the harness folds host_out: the output words, then the 32-bit slots, then the
/// 64-bit ones (dense_plan.cpp).
boost::json::object launch_plan(const Kernel& kernel, const std::string& checksum_label, const std::string& scope,
                                std::uint64_t stack_bytes);

constexpr std::uint32_t kFullUnroll = 0xffffffffu;
constexpr std::uint32_t kInputWords = 256;
constexpr std::uint32_t kLocalWords = 8;
constexpr std::uint32_t kSharedWordsPerThread = 8;
constexpr std::uint32_t kOutputWordsPerThread = 4;
constexpr std::uint32_t kBytesPerThread = 8;
/// Byte k of thread t's global bytes before the kernel's statements run.
inline std::uint8_t initial_byte(std::uint32_t t, std::uint32_t k) {
  return static_cast<std::uint8_t>(t * 8u + k * 29u);
}

/// The input word i of a kernel with this salt (cudiff_input(i, salt, 0) truncated to 32 bits).
std::uint32_t input_word(std::uint32_t salt, std::uint32_t index);

/// The kernels of one program, from `seed`'s own stream (knobs "dense.*", constructs
/// "dense_*" of the swarm).
std::vector<Kernel> make_kernels(const Policy& policy, const Swarm& swarm, Size size, std::uint64_t seed);

/// Every thread's output words, in the order the host folds them.
std::vector<std::uint64_t> run_kernel(const Kernel& kernel);

/// The kernel's globals, __device__ functions, __global__ function and `static void
/// run_<name>()` host runner printing "checksum <label><name> <hex>".
std::string emit_kernel(const Kernel& kernel, const std::string& checksum_label);
/// The device code alone: the __device__ functions and the __global__ function. `one_word`:
/// each thread writes one output word, out[t], the xor of its 4 (compact_words).
std::string emit_device_code(const Kernel& kernel, bool one_word = false);
/// Each thread's 4 output words (run_kernel's order) folded into one by xor.
std::vector<std::uint64_t> compact_words(const std::vector<std::uint64_t>& words);
/// A whole program of these kernels with the smallest host side that still checks the launch:
/// what a reduced reproducer ends as (generator/reduction/reduction.cpp). The input copied to device
/// memory (none when no kernel reads it), the output copied back from device memory, one word
/// per thread; prints "checksum <name> <hex>" per kernel, in order, the fold of compact_words.
std::string emit_compact_program(const std::vector<Kernel>& kernels);
/// The headers and helpers the kernels' text needs beyond the preamble's: cuda_fp16.h,
/// cuda_bf16.h and the 2-vector bit helpers when one of them uses the family dense_half, the
/// hinted loads' and stores' helpers when one uses dense_cache_hints; else "".
/// Goes once per translation unit, before any namespace.
std::string includes(const std::vector<Kernel>& kernels);
/// That text alone: the half-precision headers and the 2-vector bit helpers.
std::string half_precision_includes();
/// The hinted loads and stores clang-22's headers lack (__ldlu, __ldca, __stcs, __stcg, __stwb)
/// as cudiff_ldlu... : inline PTX under clang, as nvcc's headers spell them; nvcc's own
/// functions under nvcc. Part of includes() when a kernel uses dense_cache_hints.
std::string cache_hint_helpers();

}  // namespace cudiff::generator::dense
