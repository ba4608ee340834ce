// dense_run: the interpreter of the compute-dense family. Each thread runs the kernel's text
// as C++ defines it (dense_ops.cpp for every operation); the top-level statements run in
// lockstep over the whole launch so that warp collectives see every lane's value. What it
// returns is the output the host folds into the checksum line.
#include "generator/dense/dense.h"
#include "generator/semantics/warp.h"

#include "common/common.h"

#include <algorithm>

namespace cudiff::generator::dense {
namespace {

/// The shared semantics' name of a dense shuffle (the dense IR keeps its own order of kinds,
/// which the random stream draws by index).
generator::ShuffleKind shuffle_kind(ShuffleKind kind) {
  switch (kind) {
  case ShuffleKind::Idx: return generator::ShuffleKind::Idx;
  case ShuffleKind::Up: return generator::ShuffleKind::Up;
  case ShuffleKind::Down: return generator::ShuffleKind::Down;
  case ShuffleKind::Xor: return generator::ShuffleKind::Xor;
  }
  throw Error(ErrorKind::internal, "dense: a shuffle of an unknown kind");
}

/// The shared semantics' reduction of a dense warp reduction over unsigned words (not Ballot).
ReduceOp reduce_op(WarpReduceKind kind) {
  switch (kind) {
  case WarpReduceKind::Add: return ReduceOp::Add;
  case WarpReduceKind::Min: return ReduceOp::Min;
  case WarpReduceKind::Max: return ReduceOp::Max;
  case WarpReduceKind::And: return ReduceOp::And;
  case WarpReduceKind::Or: return ReduceOp::Or;
  case WarpReduceKind::Xor: return ReduceOp::Xor;
  case WarpReduceKind::Ballot: break;
  }
  throw Error(ErrorKind::internal, "dense: a warp reduction with no reduce operation");
}

enum class Flow { normal, broke, continued, returned };

/// A kernel's or a device function's variables and loop indexes on one thread.
struct Frame {
  const std::vector<Var>* vars = nullptr;
  std::vector<std::uint64_t> values;
  std::uint32_t loops[8] = {};
};

struct Thread {
  std::uint32_t t = 0;          ///< global thread index
  std::uint32_t in_block = 0;   ///< threadIdx.x
  std::uint32_t loc[kLocalWords] = {};
  std::uint32_t* shared = nullptr;  ///< this thread's own shared words
  std::uint8_t bytes[kBytesPerThread] = {};  ///< its own global bytes (Kernel::byte_words)
  Frame frame;
  bool returned = false;
  std::uint32_t bits[3][kBitMembers] = {};  ///< its bit-field structs, by BitPlace (dense_bitfields)
  Padded padded;                            ///< its padded struct (dense_padded_structs)
};

class Runner {
public:
  Runner(const Kernel& kernel)
      : kernel_(kernel), output_(std::size_t(kernel.blocks) * kernel.threads * kOutputWordsPerThread),
        partials_(std::size_t(kernel.blocks) * kernel.threads, 0) {
    for (std::uint32_t i = 0; i < kInputWords; ++i) input_[i] = input_word(kernel.input_salt, i);
    shared_.assign(std::size_t(kernel.blocks) * kernel.threads * kSharedWordsPerThread, 0);
    if (!kernel.atomic_slots.empty())
      for (std::uint32_t i = 0; i < (kernel.blocks + 1) * 4; ++i) {
        atom32_.push_back(initial_atom(false, i));
        atom64_.push_back(initial_atom(true, i));
      }
  }

  std::vector<std::uint64_t> run() {
    const std::uint32_t count = kernel_.blocks * kernel_.threads;
    std::vector<Thread> threads(count);
    for (std::uint32_t g = 0; g < count; ++g) start(threads[g], g);
    for (const Stmt& s : kernel_.body) {
      if (s.kind == StmtKind::Shuffle || s.kind == StmtKind::WarpReduce) {
        collective(s, threads);
        continue;
      }
      for (Thread& thread : threads) {
        if (thread.returned) continue;
        const Flow flow = exec(s, thread, thread.frame);
        if (flow == Flow::broke || flow == Flow::continued)
          throw Error(ErrorKind::internal, "dense: break or continue outside a loop");
      }
    }
    for (Thread& thread : threads)
      if (!thread.returned) write_output(thread);
    // The atomic slots' final words: the same in any order, so one thread after another will do.
    output_.insert(output_.end(), atom32_.begin(), atom32_.end());
    output_.insert(output_.end(), atom64_.begin(), atom64_.end());
    // The fence's results: every partial is there when the last thread folds them.
    const std::vector<std::uint64_t> fences = fence_results(kernel_, partials_);
    output_.insert(output_.end(), fences.begin(), fences.end());
    return std::move(output_);
  }

private:
  std::uint32_t in(std::uint64_t index) const { return input_[index & (kInputWords - 1)]; }

  void start(Thread& thread, std::uint32_t g) {
    thread.t = g;
    thread.in_block = g % kernel_.threads;
    thread.shared = &shared_[std::size_t(g) * kSharedWordsPerThread];
    Frame& f = thread.frame;
    f.vars = &kernel_.vars;
    f.values.assign(kernel_.vars.size(), 0);
    const std::uint32_t t = g;
    if (kernel_.base_words) {
      f.values[0] = in(t);
      f.values[1] = in(t * 7u + 3u);
      f.values[2] = in(t * 13u + 5u);
      f.values[3] = t;
      f.values[4] = (std::uint64_t(f.values[0]) << 32) | f.values[2];
    }
    for (std::size_t i = 5; i < kernel_.vars.size(); ++i) {
      const Var& v = kernel_.vars[i];
      const std::uint32_t k = static_cast<std::uint32_t>(i);
      f.values[i] = !v.from_input ? 0 : narrow(v.type, v.is_volatile ? in(t + 99u) : in(t * (2u * k + 17u) + k));
    }
    for (std::uint32_t k = 0; k < kLocalWords; ++k) thread.loc[k] = in(t + k * 31u);
    for (std::uint32_t k = 0; k < kSharedWordsPerThread; ++k) thread.shared[k] = in(t * 3u + k);
    for (std::uint32_t k = 0; k < kBytesPerThread; ++k) thread.bytes[k] = initial_byte(t, k);
  }

  std::uint64_t fit(std::uint64_t value, bool wide) const { return wide ? value : value & 0xffffffffull; }

  std::uint64_t eval(const Expr& e, Thread& thread, Frame& frame) {
    switch (e.kind) {
    case Expr::Kind::Const: return fit(e.value, e.wide);
    case Expr::Kind::Var: {
      const Var& v = (*frame.vars)[e.var];
      return widen(v.type, frame.values[e.var], e.wide);
    }
    case Expr::Kind::LoopIndex: return frame.loops[e.value];
    case Expr::Kind::ThreadId: return thread.t;
    case Expr::Kind::Input: return in(eval(e.args[0], thread, frame));
    case Expr::Kind::Local: return thread.loc[eval(e.args[0], thread, frame) & (kLocalWords - 1)];
    case Expr::Kind::Shared: return thread.shared[eval(e.args[0], thread, frame) & (kSharedWordsPerThread - 1)];
    case Expr::Kind::Operation: {
      std::uint64_t args[8] = {};
      for (std::size_t i = 0; i < e.args.size(); ++i) args[i] = eval(e.args[i], thread, frame);
      return fit(apply(e.op, args), info(e.op).result64);
    }
    case Expr::Kind::Call: return call(kernel_.functions[e.var], e, thread, frame);
    }
    return 0;
  }

  std::uint64_t call(const Function& fn, const Expr& e, Thread& thread, Frame& caller) {
    Frame callee;
    callee.vars = &fn.vars;
    callee.values.resize(fn.vars.size());
    for (int p = 0; p < fn.params; ++p) callee.values[p] = eval(e.args[p], thread, caller);
    callee.values[fn.params] = callee.values[0] & 0xffffffffull;  // x = (unsigned)p0
    callee.values[fn.params + 1] = callee.values[0];              // y = (unsigned long long)p0
    for (const Stmt& s : fn.body)
      if (exec(s, thread, callee) != Flow::normal)
        throw Error(ErrorKind::internal, "dense: a function body left early");
    return fit(eval(fn.result, thread, callee), fn.result64);
  }

  void assign(const Stmt& s, Thread& thread, Frame& frame) {
    const Var& v = (*frame.vars)[s.var];
    const bool wide = bits_of(v.type) == 64;
    const std::uint64_t value = eval(s.exprs[0], thread, frame);
    std::uint64_t& slot = frame.values[s.var];
    std::uint64_t result = value;
    switch (s.compound) {
    case CompoundOp::None: break;
    case CompoundOp::Add: result = slot + value; break;
    case CompoundOp::Sub: result = slot - value; break;
    case CompoundOp::Xor: result = slot ^ value; break;
    case CompoundOp::Or: result = slot | value; break;
    case CompoundOp::And: result = slot & value; break;
    case CompoundOp::Mul: result = slot * value; break;
    }
    slot = narrow(v.type, fit(result, wide));
  }

  Flow block(const Body& body, Thread& thread, Frame& frame) {
    for (const Stmt& s : body) {
      const Flow flow = exec(s, thread, frame);
      if (flow != Flow::normal) return flow;
    }
    return Flow::normal;
  }

  Flow exec(const Stmt& s, Thread& thread, Frame& frame) {
    switch (s.kind) {
    case StmtKind::Assign: assign(s, thread, frame); return Flow::normal;
    case StmtKind::StoreLocal: {
      const std::uint64_t at = eval(s.exprs[0], thread, frame);
      const std::uint64_t value = eval(s.exprs[1], thread, frame);
      thread.loc[at & (kLocalWords - 1)] = static_cast<std::uint32_t>(value);
      return Flow::normal;
    }
    case StmtKind::StoreShared: {
      const std::uint64_t at = eval(s.exprs[0], thread, frame);
      const std::uint64_t value = eval(s.exprs[1], thread, frame);
      thread.shared[at & (kSharedWordsPerThread - 1)] = static_cast<std::uint32_t>(value);
      return Flow::normal;
    }
    case StmtKind::VectorLoad: {
      const std::uint64_t at = eval(s.exprs[0], thread, frame);
      std::vector<std::uint64_t>& v = frame.values;
      if (s.vector_kind == 0) {
        const std::uint32_t i = static_cast<std::uint32_t>(at & 127u) * 2u;
        v[0] ^= in(i);
        v[1] = (v[1] + in(i + 1)) & 0xffffffffull;
      } else if (s.vector_kind == 1) {
        const std::uint32_t i = static_cast<std::uint32_t>(at & 63u) * 4u;
        v[0] ^= in(i);
        v[1] = (v[1] + in(i + 1)) & 0xffffffffull;
        v[2] ^= in(i + 2);
        v[3] = (v[3] + in(i + 3)) & 0xffffffffull;
      } else {
        const std::uint32_t i = static_cast<std::uint32_t>(at & 63u) * 4u;
        v[4] ^= (std::uint64_t(in(i + 1)) << 32) | in(i);
        v[4] += (std::uint64_t(in(i + 3)) << 32) | in(i + 2);
      }
      return Flow::normal;
    }
    case StmtKind::VectorStore: {
      const std::uint32_t at = static_cast<std::uint32_t>(eval(s.exprs[0], thread, frame) & 1u) * 4u;
      std::uint32_t values[4];
      for (int k = 0; k < 4; ++k) values[k] = static_cast<std::uint32_t>(eval(s.exprs[1 + k], thread, frame));
      for (int k = 0; k < 4; ++k) thread.shared[at + k] = values[k];
      return Flow::normal;
    }
    case StmtKind::StoreBytes: {
      // bytes[t * 2 + (a & 1)]: a uchar4, whose x, y, z, w are bytes 0..3 of it in memory.
      const std::uint32_t at = static_cast<std::uint32_t>(eval(s.exprs[0], thread, frame) & 1u) * 4u;
      if (s.vector_kind < 4) {
        thread.bytes[at + static_cast<std::uint32_t>(s.vector_kind)] = static_cast<std::uint8_t>(
            eval(s.exprs[1], thread, frame));
        return Flow::normal;
      }
      std::uint8_t values[4];
      for (int k = 0; k < 4; ++k) values[k] = static_cast<std::uint8_t>(eval(s.exprs[1 + k], thread, frame));
      for (int k = 0; k < 4; ++k) thread.bytes[at + k] = values[k];
      return Flow::normal;
    }
    case StmtKind::Atomic: {
      const AtomicSlot& slot = kernel_.atomic_slots.at(static_cast<std::size_t>(s.label));
      const std::uint32_t region = slot.per_block ? thread.t / kernel_.threads : kernel_.blocks;
      std::uint64_t& word = (slot.wide ? atom64_ : atom32_)[region * 4u + static_cast<std::uint32_t>(s.label) % 4u];
      word = apply_atomic(slot, word, eval(s.exprs[0], thread, frame));
      return Flow::normal;
    }
    case StmtKind::Generic: {
      const std::uint64_t selector = eval(s.exprs[0], thread, frame);
      const std::uint32_t i = static_cast<std::uint32_t>(eval(s.exprs[1], thread, frame));
      if (s.vector_kind == 0) {
        const std::uint32_t space = static_cast<std::uint32_t>(selector) % 3u;
        const std::uint32_t word = space == 0 ? in(i) : space == 1 ? thread.shared[i & 7u] : thread.loc[i & 7u];
        frame.values[s.var] = narrow((*frame.vars)[s.var].type, frame.values[s.var] ^ word);
        return Flow::normal;
      }
      const std::uint32_t value = static_cast<std::uint32_t>(eval(s.exprs[2], thread, frame));
      ((selector & 1u) ? thread.shared[i & 7u] : thread.loc[i & 7u]) = value;
      return Flow::normal;
    }
    case StmtKind::BitField: {
      std::uint32_t* place = thread.bits[s.label];
      const auto m = static_cast<std::uint32_t>(s.width);
      switch (s.vector_kind) {
      case 0: place[m] = bit_store(m, static_cast<std::uint32_t>(eval(s.exprs[0], thread, frame))); break;
      case 1:
        place[m] = bit_compound(m, s.compound, place[m], static_cast<std::uint32_t>(eval(s.exprs[0], thread, frame)));
        break;
      case 2: frame.values[s.var] = narrow((*frame.vars)[s.var].type, frame.values[s.var] ^ place[m]); break;
      case 3: std::copy(thread.bits[s.lo], thread.bits[s.lo] + kBitMembers, place); break;
      case 4: frame.values[s.var] = narrow((*frame.vars)[s.var].type, frame.values[s.var] ^ bit_fold(place)); break;
      default: throw Error(ErrorKind::internal, "dense: a bit-field statement of no kind");
      }
      return Flow::normal;
    }
    case StmtKind::Padded: {
      const auto value = static_cast<std::uint32_t>(eval(s.exprs[0], thread, frame));
      padded_set(thread.padded, static_cast<std::uint32_t>(s.width), value);
      thread.padded = padded_call(thread.padded, static_cast<std::uint32_t>(eval(s.exprs[1], thread, frame)));
      frame.values[s.var] = narrow((*frame.vars)[s.var].type, frame.values[s.var] ^ padded_fold(thread.padded));
      return Flow::normal;
    }
    case StmtKind::If:
      return eval(s.exprs[0], thread, frame) != 0 ? block(s.body, thread, frame) : block(s.else_body, thread, frame);
    case StmtKind::For: {
      std::uint32_t& i = frame.loops[s.depth];
      for (i = 0;; ++i) {
        const std::uint32_t bound = s.exprs.empty()
                                        ? s.lo
                                        : static_cast<std::uint32_t>(eval(s.exprs[0], thread, frame) & s.mask) + s.lo;
        if (i >= bound) break;
        const Flow flow = block(s.body, thread, frame);
        if (flow == Flow::broke) break;
        if (flow == Flow::returned) return flow;
      }
      return Flow::normal;
    }
    case StmtKind::Break: return eval(s.exprs[0], thread, frame) != 0 ? Flow::broke : Flow::normal;
    case StmtKind::Continue: return eval(s.exprs[0], thread, frame) != 0 ? Flow::continued : Flow::normal;
    case StmtKind::Switch: {
      const auto selector = static_cast<std::uint32_t>(eval(s.exprs[0], thread, frame));
      const std::uint32_t value = s.table != 0 ? selector % s.table + s.lo : selector & 7u;
      std::size_t first = s.cases.size();
      const std::size_t labelled = s.has_default ? s.cases.size() - 1 : s.cases.size();
      for (std::size_t c = 0; c < labelled; ++c)
        if (s.cases[c].label == value) first = c;
      if (first == s.cases.size() && s.has_default) first = s.cases.size() - 1;
      for (std::size_t c = first; c < s.cases.size(); ++c) {
        const Flow flow = block(s.cases[c].body, thread, frame);
        if (flow != Flow::normal) return flow;
        if (!s.cases[c].fallthrough) break;
      }
      return Flow::normal;
    }
    case StmtKind::Goto:
      if (eval(s.exprs[0], thread, frame) != 0) return Flow::normal;
      return block(s.body, thread, frame);
    case StmtKind::Return:
      if (eval(s.exprs[0], thread, frame) == 0) return Flow::normal;
      write_output(thread);
      thread.returned = true;
      return Flow::returned;
    case StmtKind::Asm: {
      std::vector<std::uint64_t> inputs;
      for (const Expr& e : s.exprs) inputs.push_back(eval(e, thread, frame));
      const std::vector<std::uint64_t> outputs = ptx::run(*s.ptx, inputs);
      for (std::size_t k = 0; k < s.targets.size(); ++k) {
        const Var& v = (*frame.vars)[s.targets[k]];
        frame.values[s.targets[k]] = narrow(v.type, outputs[k]);
      }
      return Flow::normal;
    }
    case StmtKind::Shuffle:
    case StmtKind::WarpReduce: throw Error(ErrorKind::internal, "dense: a collective below the kernel's top level");
    }
    return Flow::normal;
  }

  void collective(const Stmt& s, std::vector<Thread>& threads) {
    std::vector<std::uint64_t> values(threads.size()), lanes(threads.size());
    for (std::size_t g = 0; g < threads.size(); ++g) {
      if (threads[g].returned) throw Error(ErrorKind::internal, "dense: a collective after a return");
      values[g] = eval(s.exprs[0], threads[g], threads[g].frame);
      if (s.exprs.size() > 1) lanes[g] = eval(s.exprs[1], threads[g], threads[g].frame);
    }
    for (std::size_t g = 0; g < threads.size(); ++g) {
      Thread& thread = threads[g];
      const std::uint32_t lane = thread.in_block % kWarpLanes;
      const std::size_t warp_base = g - lane;
      std::uint64_t result = values[g];
      if (s.kind == StmtKind::Shuffle) {
        // The emitted call passes the operand masked to the segment (the index as it is, which
        // PTX masks the same way).
        const std::uint32_t operand = static_cast<std::uint32_t>(lanes[g]) & (s.width - 1);
        result = values[warp_base + shuffle_source_lane(shuffle_kind(s.shuffle), lane, operand, s.width)];
      } else if (s.reduce == WarpReduceKind::Ballot) {
        std::uint32_t r = 0;
        for (std::uint32_t l = 0; l < kWarpLanes; ++l)
          r |= (static_cast<std::uint32_t>(values[warp_base + l]) & 1u) << l;
        result = r;
      } else {
        std::vector<Value> warp(kWarpLanes);
        for (std::uint32_t l = 0; l < kWarpLanes; ++l)
          warp[l] = Value::make_unsigned(IntType::UInt, static_cast<std::uint32_t>(values[warp_base + l]));
        result = reduce_values(reduce_op(s.reduce), warp).bits;
      }
      const Var& v = kernel_.vars[s.var];
      thread.frame.values[s.var] = narrow(v.type, result);
    }
  }

  void write_output(const Thread& thread) {
    const std::vector<std::uint64_t>& v = thread.frame.values;
    std::uint64_t h = 1469598103934665603ull;
    for (std::size_t i = 5; i < kernel_.vars.size(); ++i)
      h = (h ^ widen(kernel_.vars[i].type, v[i], true)) * 1099511628211ull;
    if (kernel_.local_words)
      for (std::uint32_t k = 0; k < kLocalWords; ++k) h = (h ^ thread.loc[k]) * 1099511628211ull;
    if (kernel_.shared_words)
      for (std::uint32_t k = 0; k < kSharedWordsPerThread; ++k) h = (h ^ thread.shared[k]) * 1099511628211ull;
    if (kernel_.byte_words)
      for (std::uint32_t k = 0; k < kBytesPerThread; ++k) h = (h ^ thread.bytes[k]) * 1099511628211ull;
    std::uint64_t* out = &output_[std::size_t(thread.t) * kOutputWordsPerThread];
    // Without the base words (a reduced kernel) v[0..4] stay 0 and so do their output words.
    out[0] = (v[0] << 32) | v[1];
    out[1] = (v[2] << 32) | v[3];
    out[2] = v[4];
    out[3] = h;
    partials_[thread.t] = h;
  }

  const Kernel& kernel_;
  std::uint32_t input_[kInputWords] = {};
  std::vector<std::uint32_t> shared_;
  std::vector<std::uint64_t> atom32_, atom64_;  ///< Kernel::atomic_slots' words, region by region
  std::vector<std::uint64_t> output_;
  std::vector<std::uint64_t> partials_;  ///< each thread's 4th word, published to the fence (dense_fences)
};

} // namespace

std::vector<std::uint64_t> run_kernel(const Kernel& kernel) { return Runner(kernel).run(); }

} // namespace cudiff::generator::dense
