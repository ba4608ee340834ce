// dense_gen: making the compute-dense kernels of one program from the seed's own stream. No
// value tracking: every operation is defined for every operand (dense_ops.def), so the only
// constraints here are structural — loops terminate and stay within an iteration budget,
// break/continue only in loops (never directly in a switch), collectives only at a kernel's
// top level before any early return (so every lane of the warp is there), goto only forward
// within one block.
#include "generator/dense/dense.h"

#include "common/common.h"

#include <algorithm>

namespace cudiff::generator::dense {
namespace {

constexpr std::uint64_t kStreamSalt = 0xD3E5C0DE5EEDull;

const char* const kFamilies[] = {"dense_arith",
                                 "dense_select",
                                 "dense_mixed_sign",
                                 "dense_narrow",
                                 "dense_bitfield",
                                 "dense_intrinsics",
                                 "dense_simd",
                                 "dense_wide",
                                 "dense_int128",
                                 "dense_fp_exact",
                                 "dense_loops",
                                 "dense_switch",
                                 "dense_goto",
                                 "dense_local_array",
                                 "dense_shared_words",
                                 "dense_dynamic_shared",
                                 "dense_vector_memory",
                                 "dense_ldg",
                                 "dense_functions",
                                 "dense_volatile",
                                 "dense_collectives",
                                 "dense_early_return",
                                 "dense_inline_ptx",
                                 "dense_fp_float",
                                 "dense_half",
                                 "dense_byte_store",
                                 "dense_wide_mixed",
                                 "dense_jump_table",
                                 "dense_atomics",
                                 "dense_generic_pointers",
                                 "dense_bitfield_structs",
                                 "dense_padded_structs",
                                 "dense_fences",
                                 "dense_cache_hints"};

std::string size_prefix(Size size) { return to_string(size) + "."; }

/// One kernel's (or device function's) generation.
class Maker {
public:
  Maker(const Policy& policy, Rng& rng, const std::set<std::string>& families, Kernel& kernel)
      : policy_(policy), rng_(rng), families_(families), kernel_(kernel) {
    for (const OpInfo& op : op_table())
      if (families_.count(op.family)) (op.result64 ? ops64_ : ops32_).push_back(op.op);
  }

  bool on(const char* family) const { return families_.count(family) != 0; }
  void use(const char* family) {
    if (std::find(kernel_.families.begin(), kernel_.families.end(), family) == kernel_.families.end())
      kernel_.families.push_back(family);
  }

  /// Generates `count` statements into `body`. `vars` are the variables in scope.
  void statements(Body& body, int count, const std::vector<Var>& vars, bool top_level) {
    vars_ = &vars;
    for (int i = 0; i < count; ++i) body.push_back(statement(top_level));
  }

  Expr expression(bool wide, int depth) {
    if (depth <= 0 || rng_.chance(policy_.get("dense.leaf"))) return leaf(wide);
    if (!in_function_ && !kernel_.functions.empty() && rng_.chance(policy_.get("dense.call"))) {
      const int f = static_cast<int>(rng_.below(kernel_.functions.size()));
      const Function& fn = kernel_.functions[f];
      if (fn.result64 == wide) {
        Expr call;
        call.kind = Expr::Kind::Call;
        call.wide = wide;
        call.var = f;
        for (int p = 0; p < fn.params; ++p) call.args.push_back(expression(fn.vars[p].type == VarType::u64, depth - 1));
        use("dense_functions");
        return call;
      }
    }
    const std::vector<Op>& ops = wide ? ops64_ : ops32_;
    if (ops.empty()) return leaf(wide);
    const OpInfo& op = info(rng_.pick(ops));
    Expr e;
    e.kind = Expr::Kind::Operation;
    e.wide = wide;
    e.op = op.op;
    // Operations of three or more operands shrink faster, so an expression stays tens of nodes.
    const int child = depth - (op.args.size() >= 3 ? 2 : 1);
    for (char width : op.args) e.args.push_back(expression(width == '8', child));
    use(op.family);
    return e;
  }

  // What a function body may do: set by make_function.
  bool in_function_ = false;

private:
  Expr constant(bool wide) {
    static const std::uint64_t special[] = {0,          1,          2,          3,         7,      8,      15,
                                            16,         31,         32,         33,        63,     64,     0x7f,
                                            0x80,       0xff,       0x100,      0x7fff,    0x8000, 0xffff, 0x10000,
                                            0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};
    Expr e;
    e.wide = wide;
    const std::uint64_t pick = rng_.below(4);
    if (pick == 0) e.value = special[rng_.below(std::size(special))];
    else if (pick == 1) e.value = rng_.below(64);
    else e.value = rng_.next_u64();
    if (wide && rng_.chance(0.3)) e.value |= 0xffffffff00000000ull;
    if (!wide) e.value &= 0xffffffffull;
    return e;
  }

  Expr leaf(bool wide) {
    std::vector<double> weights = {
        5,                                                   // variable
        2,                                                   // constant
        loops_ > 0 ? 2.0 : 0.0,                              // loop index
        1,                                                   // thread id
        in_function_ ? 0.8 : 1.5,                            // input
        !in_function_ && on("dense_local_array") ? 1.0 : 0,  // local array
        !in_function_ && on("dense_shared_words") ? 0.8 : 0, // shared words
    };
    const std::size_t choice = rng_.weighted(weights);
    Expr e;
    e.wide = wide;
    switch (choice) {
    case 0:
      e.kind = Expr::Kind::Var;
      e.var = static_cast<int>(rng_.below(vars_->size()));
      return e;
    case 2:
      e.kind = Expr::Kind::LoopIndex;
      e.value = rng_.below(static_cast<std::uint64_t>(loops_));
      return e;
    case 3: e.kind = Expr::Kind::ThreadId; return e;
    case 4:
      e.kind = Expr::Kind::Input;
      e.ldg = on("dense_ldg") && rng_.chance(0.5);
      if (e.ldg) use("dense_ldg");
      else if (on("dense_cache_hints") && rng_.chance(0.5)) {
        e.hint = static_cast<std::uint8_t>(1 + rng_.below(5));
        use("dense_cache_hints");
      }
      break;
    case 5:
      e.kind = Expr::Kind::Local;
      use("dense_local_array");
      break;
    case 6:
      e.kind = Expr::Kind::Shared;
      use("dense_shared_words");
      break;
    default: return constant(wide);
    }
    // An element's index is a shallow expression of its own.
    e.args.push_back(expression(false, 1));
    return e;
  }

  Expr condition() {
    if (rng_.chance(0.7) && on("dense_select")) {
      static const Op compares[] = {Op::ULt, Op::ULe, Op::Eq, Op::Ne, Op::SLt, Op::SGe};
      Expr e;
      e.kind = Expr::Kind::Operation;
      e.op = compares[rng_.below(std::size(compares))];
      e.args.push_back(expression(false, 2));
      e.args.push_back(expression(false, 2));
      use("dense_select");
      return e;
    }
    return expression(false, 3);
  }

  int depth() { return static_cast<int>(rng_.range(1, static_cast<std::int64_t>(policy_.get("dense.depth.max")))); }

  Body block(int count, bool top_level = false) {
    Body body;
    ++nesting_;
    for (int i = 0; i < count; ++i) body.push_back(statement(top_level));
    --nesting_;
    return body;
  }

  Stmt statement(bool top_level) {
    const bool nest = nesting_ < static_cast<int>(policy_.get("dense.nesting.max"));
    const bool loop_ok = nest && on("dense_loops") && budget_ >= 2;
    const bool collective_ok = top_level && !in_function_ && !returned_ && on("dense_collectives");
    std::vector<double> weights = {
        policy_.get("dense.stmt.assign"),
        on("dense_local_array") && !in_function_ ? policy_.get("dense.stmt.store_local") : 0,
        on("dense_shared_words") && !in_function_ ? policy_.get("dense.stmt.store_shared") : 0,
        on("dense_vector_memory") && !in_function_ ? policy_.get("dense.stmt.vector_load") : 0,
        on("dense_vector_memory") && on("dense_shared_words") && !in_function_ ? policy_.get("dense.stmt.vector_store")
                                                                               : 0,
        nest ? policy_.get("dense.stmt.if") : 0,
        loop_ok ? policy_.get("dense.stmt.for") : 0,
        loops_ > 0 && switches_in_loop_ == 0 ? policy_.get("dense.stmt.break") : 0,
        loops_ > 0 ? policy_.get("dense.stmt.continue") : 0,
        nest && on("dense_switch") ? policy_.get("dense.stmt.switch") : 0,
        nest && on("dense_goto") ? policy_.get("dense.stmt.goto") : 0,
        top_level && !in_function_ && on("dense_early_return") ? policy_.get("dense.stmt.return") : 0,
        on("dense_inline_ptx") ? policy_.get("dense.stmt.asm") : 0,
        collective_ok ? policy_.get("dense.stmt.shuffle") : 0,
        collective_ok ? policy_.get("dense.stmt.warp_reduce") : 0,
        on("dense_byte_store") && !in_function_ ? policy_.get("dense.stmt.store_bytes") : 0,
        nest && on("dense_jump_table") ? policy_.get("dense.stmt.jump_table") : 0,
        on("dense_atomics") && !in_function_ ? policy_.get("dense.stmt.atomic") : 0,
        on("dense_generic_pointers") && !in_function_ ? policy_.get("dense.stmt.generic_pointer") : 0,
        on("dense_bitfield_structs") && !in_function_ ? policy_.get("dense.stmt.bitfield_struct") : 0,
        on("dense_padded_structs") && !in_function_ ? policy_.get("dense.stmt.padded_struct") : 0,
    };
    Stmt s;
    const std::size_t choice = rng_.weighted(weights);
    switch (choice) {
    case 0: return assignment();
    case 1:
      s.kind = StmtKind::StoreLocal;
      s.exprs = {expression(false, 2), expression(false, depth())};
      use("dense_local_array");
      return s;
    case 2:
      s.kind = StmtKind::StoreShared;
      s.exprs = {expression(false, 2), expression(false, depth())};
      use("dense_shared_words");
      return s;
    case 3:
      s.kind = StmtKind::VectorLoad;
      s.vector_kind = static_cast<int>(rng_.below(3));
      s.exprs = {expression(false, 2)};
      s.compound = on("dense_ldg") && rng_.chance(0.5) ? CompoundOp::Add : CompoundOp::None;  // Add: through __ldg
      use("dense_vector_memory");
      return s;
    case 4:
      s.kind = StmtKind::VectorStore;
      s.exprs = {expression(false, 1), expression(false, depth()), expression(false, depth()),
                 expression(false, depth()), expression(false, depth())};
      use("dense_vector_memory");
      use("dense_shared_words");
      return s;
    case 5:
      s.kind = StmtKind::If;
      s.exprs = {condition()};
      s.body = block(static_cast<int>(rng_.range(1, 3)));
      if (rng_.chance(0.5)) s.else_body = block(static_cast<int>(rng_.range(1, 3)));
      return s;
    case 6: return loop();
    case 7:
    case 8:
      s.kind = weights[7] > 0 && choice == 7 ? StmtKind::Break : StmtKind::Continue;
      s.exprs = {condition()};
      use("dense_loops");
      return s;
    case 9: return switch_statement();
    case 10:
      s.kind = StmtKind::Goto;
      s.exprs = {condition()};
      s.label = labels_++;
      s.body = block(static_cast<int>(rng_.range(1, 3)));
      use("dense_goto");
      return s;
    case 11:
      s.kind = StmtKind::Return;
      s.exprs = {condition()};
      returned_ = true;
      use("dense_early_return");
      return s;
    case 12: return inline_ptx();
    case 13: {
      s.kind = StmtKind::Shuffle;
      s.shuffle = static_cast<ShuffleKind>(rng_.below(4));
      s.width = 2u << rng_.below(5);
      const bool wide = rng_.chance(0.3);
      s.var = pick_var(wide ? VarType::u64 : VarType::u32);
      // exprs: the value, then the lane (Idx: any value; Up/Down: a delta; Xor: a lane mask),
      // masked to the width for Up/Down/Xor by the text (see dense_emit.cpp).
      s.exprs = {expression(wide, depth()), expression(false, 2)};
      use("dense_collectives");
      return s;
    }
    case 14:
      s.kind = StmtKind::WarpReduce;
      s.reduce = static_cast<WarpReduceKind>(rng_.below(7));
      s.var = pick_var(VarType::u32);
      s.exprs = {expression(false, depth())};
      use("dense_collectives");
      return s;
    case 15:
      s.kind = StmtKind::StoreBytes;
      s.vector_kind = static_cast<int>(rng_.below(6));  // x, y, z, w, the whole uchar4, through __stwt
      s.exprs = {expression(false, 2)};
      for (int k = 0; k < (s.vector_kind < 4 ? 1 : 4); ++k) s.exprs.push_back(expression(false, depth()));
      use("dense_byte_store");
      return s;
    case 16: return jump_table();
    case 17: return atomic();
    case 18: return generic_pointer();
    case 19: return bitfield_struct();
    case 20: return padded_struct();
    default: return assignment();
    }
  }

  /// A variable of this type in scope (the first one if several), else any variable.
  int pick_var(VarType type) {
    std::vector<int> matching;
    for (std::size_t i = 0; i < vars_->size(); ++i)
      if ((*vars_)[i].type == type && !(*vars_)[i].is_volatile) matching.push_back(static_cast<int>(i));
    if (matching.empty()) return 0;
    return rng_.pick(matching);
  }

  /// An inline-PTX block reading 1 to 3 expressions and writing 1 or 2 unsigned variables.
  Stmt inline_ptx() {
    Stmt s;
    s.kind = StmtKind::Asm;
    std::vector<ptx::Width> inputs, outputs;
    const int reads = static_cast<int>(rng_.range(1, 3));
    for (int i = 0; i < reads; ++i) {
      const bool wide = rng_.chance(0.3);
      inputs.push_back(wide ? ptx::Width::b64 : ptx::Width::b32);
      s.exprs.push_back(expression(wide, std::min(depth(), 2)));
    }
    const int writes = static_cast<int>(rng_.range(1, 2));
    for (int i = 0; i < writes; ++i) {
      const bool wide = rng_.chance(0.3);
      const int target = pick_var(wide ? VarType::u64 : VarType::u32);
      if (std::find(s.targets.begin(), s.targets.end(), target) != s.targets.end()) continue;
      s.targets.push_back(target);
      outputs.push_back(bits_of((*vars_)[target].type) == 64 ? ptx::Width::b64 : ptx::Width::b32);
    }
    s.ptx = std::make_shared<const ptx::Block>(ptx::make_block(rng_, policy_, inputs, outputs));
    use("dense_inline_ptx");
    return s;
  }

  Stmt assignment() {
    Stmt s;
    s.kind = StmtKind::Assign;
    s.var = static_cast<int>(rng_.below(vars_->size()));
    const Var& target = (*vars_)[s.var];
    const bool wide = bits_of(target.type) == 64;
    const bool unsigned_wide = target.type == VarType::u32 || target.type == VarType::u64;
    if (unsigned_wide && !target.is_volatile && rng_.chance(0.4))
      s.compound = static_cast<CompoundOp>(rng_.range(1, 6));
    s.exprs = {expression(wide, depth())};
    if (bits_of(target.type) < 32) use("dense_narrow");
    if (target.is_volatile) use("dense_volatile");
    return s;
  }

  Stmt loop() {
    Stmt s;
    s.kind = StmtKind::For;
    s.depth = loops_;
    std::uint32_t most;
    if (rng_.chance(policy_.get("dense.loop.constant_trips"))) {
      s.lo = static_cast<std::uint32_t>(rng_.range(1, std::min<std::int64_t>(16, budget_)));
      most = s.lo;
      const std::uint64_t pragma = rng_.below(4);
      s.unroll = pragma == 0 ? 0 : pragma == 1 ? kFullUnroll : pragma == 2 ? 1 : 4;
    } else {
      static const std::uint32_t masks[] = {1, 3, 7, 15};
      do s.mask = masks[rng_.below(4)];
      while (s.mask > 1 && s.mask + 3 > static_cast<std::uint32_t>(budget_));
      s.lo = static_cast<std::uint32_t>(rng_.range(0, 2));
      most = s.mask + s.lo;
      s.exprs = {expression(false, 2)};
      static const std::uint32_t pragmas[] = {0, 0, 1, 2, 4, 8};
      s.unroll = pragmas[rng_.below(std::size(pragmas))];
    }
    most = std::max<std::uint32_t>(most, 1);
    const int saved_budget = budget_;
    const int saved_switches = switches_in_loop_;
    budget_ = std::max(1, budget_ / static_cast<int>(most));
    switches_in_loop_ = 0;
    ++loops_;
    s.body = block(static_cast<int>(rng_.range(1, 4)));
    --loops_;
    budget_ = saved_budget;
    switches_in_loop_ = saved_switches;
    use("dense_loops");
    return s;
  }

  /// A switch whose N consecutive labels (8 to 16, from lo) are all there and whose selector,
  /// (a) % N + lo, is always one of them: dense enough that a backend may lower it to a jump
  /// table (NVPTX: brx.idx) rather than a compare chain. Each case does different work, so
  /// SimplifyCFG cannot turn it into a lookup table of constants instead. Mostly break, a little
  /// fallthrough; a default only sometimes (never taken, but kept: a bound check to elide).
  Stmt jump_table() {
    Stmt s;
    s.kind = StmtKind::Switch;
    s.exprs = {expression(false, depth())};
    s.table = static_cast<std::uint32_t>(rng_.range(8, 16));
    s.lo = static_cast<std::uint32_t>(rng_.below(6));
    ++switches_in_loop_;
    for (std::uint32_t c = 0; c < s.table; ++c) {
      SwitchCase sc;
      sc.label = s.lo + c;
      sc.fallthrough = rng_.chance(0.15);
      sc.body = block(1);
      s.cases.push_back(std::move(sc));
    }
    if (rng_.chance(0.3)) {
      SwitchCase fallback;
      fallback.body = block(1);
      s.cases.push_back(std::move(fallback));
      s.has_default = true;
    }
    --switches_in_loop_;
    use("dense_jump_table");
    return s;
  }

  /// One update of a random atomic slot (Kernel::atomic_slots): block scope only on a slot of
  /// the thread's own block, device or system scope on any.
  Stmt atomic() {
    Stmt s;
    s.kind = StmtKind::Atomic;
    s.label = static_cast<int>(rng_.below(kAtomicSlots));
    const AtomicSlot& slot = kernel_.atomic_slots.at(static_cast<std::size_t>(s.label));
    s.exprs = {expression(slot.wide, depth())};
    static const AtomicScope grid[] = {AtomicScope::Device, AtomicScope::System};
    static const AtomicScope block_region[] = {AtomicScope::Device, AtomicScope::Block, AtomicScope::System};
    s.vector_kind = static_cast<int>(slot.per_block ? block_region[rng_.below(3)] : grid[rng_.below(2)]);
    s.cas = rng_.chance(0.3);
    // clang-22 emits atom.cta/sys.max.s32 (signed) for the unsigned built-ins at block and system
    // scope (docs/generator.md, "Atomics"): every such program would show that one bug, so the
    // built-in is rare there and the CAS loop spells the same update otherwise.
    const bool min_max = slot.op == AtomicOp::Min || slot.op == AtomicOp::Max;
    if (!s.cas && min_max && !slot.is_signed && s.vector_kind != static_cast<int>(AtomicScope::Device) &&
        !rng_.chance(policy_.get("dense.atomics.scoped_unsigned_minmax")))
      s.cas = true;
    use("dense_atomics");
    return s;
  }

  /// A read through a pointer into global, shared or local memory, or a write through one into
  /// shared or local memory, the space chosen by a computed selector (Generic).
  Stmt generic_pointer() {
    Stmt s;
    s.kind = StmtKind::Generic;
    s.vector_kind = static_cast<int>(rng_.below(2));
    s.exprs = {expression(false, 2), expression(false, 2)};
    if (s.vector_kind == 0) s.var = pick_var(VarType::u32);
    else s.exprs.push_back(expression(false, depth()));
    use("dense_generic_pointers");
    return s;
  }

  /// One access to a bit-field struct of the thread (Kernel::bit_members): a store, a compound
  /// update (a signed member only by &, |, ^ of a value that fits), a load, a copy of the whole
  /// struct from another place, or the fold of every member.
  Stmt bitfield_struct(int action = -1) {
    Stmt s;
    s.kind = StmtKind::BitField;
    s.label = static_cast<int>(rng_.below(3));
    s.width = static_cast<std::uint32_t>(rng_.below(kBitMembers));
    s.vector_kind = action >= 0 ? action : static_cast<int>(rng_.weighted({3, 2, 2, 1, 0.5}));
    const BitMember& m = bit_member(s.width);
    switch (s.vector_kind) {
    case 1: {
      static const CompoundOp any[] = {CompoundOp::Add, CompoundOp::Sub, CompoundOp::Xor,
                                       CompoundOp::Or,  CompoundOp::And, CompoundOp::Mul};
      static const CompoundOp fitting[] = {CompoundOp::Xor, CompoundOp::Or, CompoundOp::And};
      s.compound = m.is_signed ? fitting[rng_.below(3)] : any[rng_.below(6)];
      s.exprs = {expression(false, depth())};
      break;
    }
    case 0: s.exprs = {expression(false, depth())}; break;
    case 3: s.lo = static_cast<std::uint32_t>((s.label + 1 + static_cast<int>(rng_.below(2))) % 3); break;
    default: s.var = pick_var(VarType::u32); break;
    }
    use("dense_bitfield_structs");
    return s;
  }

  /// The thread's padded struct: a member set, the struct through the __noinline__ function by
  /// value and back into global memory, its members folded into a variable.
  Stmt padded_struct() {
    Stmt s;
    s.kind = StmtKind::Padded;
    s.width = static_cast<std::uint32_t>(rng_.below(kPaddedMembers));
    s.vector_kind = static_cast<int>(rng_.below(2));
    s.exprs = {expression(false, depth()), expression(false, 2)};
    s.var = pick_var(VarType::u32);
    use("dense_padded_structs");
    return s;
  }

  Stmt switch_statement() {
    Stmt s;
    s.kind = StmtKind::Switch;
    s.exprs = {expression(false, depth())};
    std::vector<std::uint32_t> labels = {0, 1, 2, 3, 4, 5, 6, 7};
    const int cases = static_cast<int>(rng_.range(1, 4));
    ++switches_in_loop_;
    for (int c = 0; c < cases; ++c) {
      SwitchCase sc;
      const std::size_t at = rng_.below(labels.size());
      sc.label = labels[at];
      labels.erase(labels.begin() + static_cast<std::ptrdiff_t>(at));
      sc.fallthrough = rng_.chance(0.35);
      sc.body = block(static_cast<int>(rng_.range(1, 2)));
      s.cases.push_back(std::move(sc));
    }
    std::sort(s.cases.begin(), s.cases.end(),
              [](const SwitchCase& a, const SwitchCase& b) { return a.label < b.label; });
    if (rng_.chance(0.5)) {
      SwitchCase fallback;
      fallback.body = block(1);
      s.cases.push_back(std::move(fallback));
      s.has_default = true;
    }
    --switches_in_loop_;
    use("dense_switch");
    return s;
  }

  const Policy& policy_;
  Rng& rng_;
  const std::set<std::string>& families_;
  Kernel& kernel_;
  std::vector<Op> ops32_, ops64_;
  const std::vector<Var>* vars_ = nullptr;
  int nesting_ = 0;
  int loops_ = 0;
  int switches_in_loop_ = 0;  // switches between here and the innermost loop: no break there
  int labels_ = 0;
  bool returned_ = false;
  int budget_ = 256;

public:
  void set_budget(int budget) { budget_ = budget; }
  void set_label_base(int base) { labels_ = base; }
  Stmt jump_table_statement() { return jump_table(); }
  Stmt atomic_statement() { return atomic(); }
  Stmt generic_pointer_statement() { return generic_pointer(); }
  /// The fold of the bit-field struct in `place`.
  Stmt bitfield_fold(int place) {
    Stmt s = bitfield_struct(4);
    s.label = place;
    return s;
  }
  Stmt padded_struct_statement() { return padded_struct(); }
};

/// a, b, c, d, w, then 2 to 6 more (8- and 16-bit ones only with the narrow family), then the
/// volatile one.
std::vector<Var> kernel_variables(Rng& rng, const std::set<std::string>& families) {
  std::vector<Var> vars = {
      {"a", VarType::u32}, {"b", VarType::u32}, {"c", VarType::u32}, {"d", VarType::u32}, {"w", VarType::u64}};
  static const VarType wide[] = {VarType::s32, VarType::u64, VarType::s64, VarType::u32};
  static const VarType narrow_types[] = {VarType::u8, VarType::s8, VarType::u16, VarType::s16};
  const bool narrow_on = families.count("dense_narrow") != 0;
  const int more = static_cast<int>(rng.range(2, 6));
  for (int i = 0; i < more; ++i) {
    const VarType type = narrow_on && rng.chance(0.5) ? narrow_types[rng.below(4)] : wide[rng.below(4)];
    vars.push_back({"v" + std::to_string(i), type});
  }
  if (families.count("dense_volatile")) vars.push_back({"vol", VarType::u32, true});
  return vars;
}

Function make_function(const Policy& policy, Rng& rng, const std::set<std::string>& families, Kernel& kernel,
                       int index) {
  Function fn;
  fn.name = kernel.name + "_f" + std::to_string(index);
  fn.noinline = rng.chance(0.6);
  fn.result64 = rng.chance(0.3);
  fn.params = static_cast<int>(rng.range(1, 3));
  for (int p = 0; p < fn.params; ++p)
    fn.vars.push_back({"p" + std::to_string(p), rng.chance(0.3) ? VarType::u64 : VarType::u32});
  fn.vars.push_back({"x", VarType::u32});
  fn.vars.push_back({"y", VarType::u64});
  Maker maker(policy, rng, families, kernel);
  maker.in_function_ = true;
  maker.set_budget(64);
  maker.statements(fn.body, static_cast<int>(rng.range(1, 5)), fn.vars, false);
  fn.result = maker.expression(fn.result64, 3);
  return fn;
}

} // namespace

std::vector<Kernel> make_kernels(const Policy& policy, const Swarm& swarm, Size size, std::uint64_t seed) {
  (void)swarm;
  SeededRng rng(seed ^ kStreamSalt);
  std::vector<Kernel> kernels;
  if (!rng.chance(policy.get("dense.share"))) return kernels;
  // Swarm testing within the family: each family is on for this program with its knob's
  // probability, so rare combinations come up.
  std::set<std::string> families;
  for (const char* family : kFamilies)
    if (rng.chance(policy.get(std::string("dense.family.") + family))) families.insert(family);
  families.insert("dense_arith");  // the leaves need an operation to combine them
  const std::string prefix = size_prefix(size);
  const int count = static_cast<int>(rng.range(1, static_cast<std::int64_t>(policy.get(prefix + "dense.kernels.max"))));
  for (int k = 0; k < count; ++k) {
    Kernel kernel;
    kernel.name = "dense_" + std::to_string(k);
    kernel.blocks = static_cast<std::uint32_t>(rng.range(1, 2));
    kernel.threads = rng.chance(0.5) ? 64 : 128;
    kernel.input_salt = static_cast<std::uint32_t>(rng.next_u64());
    kernel.dynamic_shared = families.count("dense_dynamic_shared") && families.count("dense_shared_words");
    kernel.byte_words = families.count("dense_byte_store") != 0;
    if (families.count("dense_atomics"))
      for (std::uint32_t k = 0; k < kAtomicSlots; ++k) {
        AtomicSlot slot;
        slot.op = static_cast<AtomicOp>(rng.below(5));
        slot.wide = k >= kAtomicSlots / 2;
        slot.is_signed = (slot.op == AtomicOp::Min || slot.op == AtomicOp::Max) && rng.chance(0.5);
        slot.per_block = rng.chance(0.5);
        kernel.atomic_slots.push_back(slot);
      }
    // A random order of the struct's members: where the padding falls differs.
    const auto order = [&](std::uint32_t count) {
      std::vector<std::uint8_t> members(count);
      for (std::uint32_t i = 0; i < count; ++i) members[i] = static_cast<std::uint8_t>(i);
      for (std::uint32_t i = count; i-- > 1;) std::swap(members[i], members[rng.below(i + 1)]);
      return members;
    };
    if (families.count("dense_bitfield_structs")) kernel.bit_members = order(kBitMembers);
    if (families.count("dense_padded_structs")) kernel.padded_members = order(kPaddedMembers);
    if (families.count("dense_fences")) kernel.fence = static_cast<FenceKind>(1 + rng.below(kFenceKinds));
    if (families.count("dense_cache_hints")) kernel.store_hint = static_cast<std::uint8_t>(1 + rng.below(4));
    kernel.vars = kernel_variables(rng, families);
    if (families.count("dense_functions")) {
      const int functions = static_cast<int>(
          rng.range(1, static_cast<std::int64_t>(policy.get("dense.functions.max"))));
      for (int f = 0; f < functions; ++f) kernel.functions.push_back(make_function(policy, rng, families, kernel, f));
    }
    Maker maker(policy, rng, families, kernel);
    maker.set_label_base(1000);
    const int statements = static_cast<int>(
        rng.range(static_cast<std::int64_t>(policy.get(prefix + "dense.statements.min")),
                  static_cast<std::int64_t>(policy.get(prefix + "dense.statements.max"))));
    maker.set_budget(static_cast<int>(policy.get("dense.loop.iterations.max")));
    maker.statements(kernel.body, statements, kernel.vars, true);
    // A family that is on shows in every kernel: one jump table at least, at the end.
    if (families.count("dense_jump_table") &&
        std::ranges::find(kernel.families, "dense_jump_table") == kernel.families.end())
      kernel.body.push_back(maker.jump_table_statement());
    if (!kernel.atomic_slots.empty() && std::ranges::find(kernel.families, "dense_atomics") == kernel.families.end())
      kernel.body.push_back(maker.atomic_statement());
    if (families.count("dense_generic_pointers") &&
        std::ranges::find(kernel.families, "dense_generic_pointers") == kernel.families.end())
      kernel.body.push_back(maker.generic_pointer_statement());
    // The bit-field structs' every member reaches the output: each place folded at the end.
    if (!kernel.bit_members.empty())
      for (int place = 0; place < 3; ++place) kernel.body.push_back(maker.bitfield_fold(place));
    if (!kernel.padded_members.empty() &&
        std::ranges::find(kernel.families, "dense_padded_structs") == kernel.families.end())
      kernel.body.push_back(maker.padded_struct_statement());
    if (kernel.fence != FenceKind::None) maker.use("dense_fences");
    if (kernel.store_hint != 0) maker.use("dense_cache_hints");
    if (kernel.dynamic_shared) maker.use("dense_dynamic_shared");
    if (kernel.byte_words) maker.use("dense_byte_store");
    std::sort(kernel.families.begin(), kernel.families.end());
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

} // namespace cudiff::generator::dense
