// The collectives of generator/collectives/collectives_gen.cpp: each semantic of the interpreter on
// hand-worked inputs (shuffle lanes with a width, match, __reduce_*_sync, tiles, cg::reduce,
// atomics in loops), and generated programs with every new construct forced on: they validate
// (the interpreter reruns every kernel), stay deterministic and include the headers they need.
#include "generator/collectives/collectives.h"
#include "generator/generator.h"

#include <gtest/gtest.h>

#include <climits>
#include <map>

namespace {

using namespace cudiff::generator;

ExprP var(int id, IntType type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Var;
  e->id = id;
  e->type = type;
  return e;
}

ExprP constant(Value value) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Const;
  e->type = value.type;
  e->constant = value;
  return e;
}

ExprP binary(BinaryOp op, ExprP a, ExprP b) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::Binary;
  e->binary = op;
  e->type = result_type(op, a->type, b->type);
  e->kids = {std::move(a), std::move(b)};
  return e;
}

ExprP tid() { return var(0, IntType::UInt); }
ExprP uint_const(std::uint32_t v) { return constant(Value{IntType::UInt, v}); }

/// A launch of 2 blocks of 64 threads, run statement by statement on every thread.
struct Launched {
  Program program;
  Launch launch;
  std::vector<ThreadCtx> threads;
  std::vector<Env> envs;
  Launched() {
    launch.grid[0] = 2;
    launch.block[0] = 64;
    threads = make_threads(launch);
    Kernel kernel;
    kernel.launch = launch;
    kernel.vars = {Var{"tid", IntType::UInt}, Var{"gtid", IntType::UInt}};
    envs = kernel_envs(kernel, threads);
  }
  void run(const Stmt& stmt) {
    Interpreter interpreter(program);
    ASSERT_EQ(interpreter.exec_collective(stmt, envs, launch, nullptr), UB::None);
  }
  std::uint64_t at(std::size_t thread, int var) const { return envs[thread].vars.at(var)->bits; }
};

TEST(Collectives, ShuffleLanesFollowPtxWithAWidth) {
  // __shfl_sync(mask, v, b, 8) from lane 13 (segment 8..15): b modulo 8, negative b included.
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Idx, 13, 3, 8), 11u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Idx, 13, 0xffffffffu, 8), 15u);  // -1
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Idx, 13, 35, 8), 11u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Idx, 13, 40, 32), 8u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Idx, 30, 5, 2), 31u);
  // Up: a source before the segment's start keeps the lane's own value.
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Up, 12, 3, 8), 9u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Up, 9, 3, 8), 9u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Up, 2, 3, 32), 2u);
  // Down: past the segment's end, the own value.
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Down, 5, 1, 4), 6u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Down, 7, 1, 4), 7u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Down, 20, 11, 32), 31u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Down, 21, 11, 32), 21u);
  // Xor: inside the segment; a mask of the width or more reads an earlier segment, never a later.
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Xor, 10, 5, 8), 15u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Xor, 10, 8, 8), 2u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Xor, 2, 8, 8), 2u);
  EXPECT_EQ(shuffle_source_lane(ShuffleKind::Xor, 2, 17, 32), 19u);
}

TEST(Collectives, ReductionsAndAtomicUpdatesComputeByTheType) {
  const Value int_min = min_value(IntType::Int);
  EXPECT_EQ(reduce_values(ReduceOp::Min, {Value::make(IntType::Int, -5), Value::make(IntType::Int, 3), int_min}),
            int_min);
  EXPECT_EQ(reduce_values(ReduceOp::Max, {Value::make(IntType::Int, -5), Value::make(IntType::Int, -3)}),
            Value::make(IntType::Int, -3));
  // Unsigned: 0xffffffff is the largest, and a sum wraps.
  EXPECT_EQ(reduce_values(ReduceOp::Max, {Value{IntType::UInt, 1}, Value{IntType::UInt, 0xffffffffu}}).bits,
            0xffffffffu);
  EXPECT_EQ(reduce_values(ReduceOp::Add, {Value{IntType::UInt, 0xffffffffu}, Value{IntType::UInt, 2}}).bits, 1u);
  EXPECT_EQ(reduce_values(ReduceOp::Xor, {Value{IntType::UInt, 6}, Value{IntType::UInt, 3}}).bits, 5u);
  EXPECT_FALSE(sum_never_overflows({max_value(IntType::Int), Value::make(IntType::Int, 1)}));
  EXPECT_TRUE(sum_never_overflows({Value::make(IntType::Int, INT_MAX - 1), Value::make(IntType::Int, 1)}));
  EXPECT_FALSE(sum_never_overflows({Value::make(IntType::Int, -5), Value::make(IntType::Int, INT_MAX - 2)}));
  EXPECT_TRUE(sum_never_overflows({Value{IntType::UInt, 0xffffffffu}, Value{IntType::UInt, 0xffffffffu}}));
  EXPECT_EQ(atomic_identity(AtomicKind::Min, IntType::Int), max_value(IntType::Int));
  EXPECT_EQ(atomic_identity(AtomicKind::Max, IntType::LLong), min_value(IntType::LLong));
  EXPECT_EQ(atomic_identity(AtomicKind::And, IntType::UInt).bits, 0xffffffffu);
  EXPECT_EQ(atomic_update(AtomicKind::Min, Value::make(IntType::LLong, -1), Value::make(IntType::LLong, 7)),
            Value::make(IntType::LLong, -1));
  EXPECT_EQ(atomic_update(AtomicKind::Min, Value{IntType::ULLong, ~0ull}, Value{IntType::ULLong, 7}).bits, 7u);
}

TEST(Collectives, MatchAndWarpReduceOverALaunch) {
  Launched l;
  Stmt any;
  any.kind = StmtKind::WarpMatch;
  any.expr = binary(BinaryOp::BitAnd, tid(), uint_const(3));
  any.var = 2;
  any.target_type = IntType::UInt;
  l.run(any);
  Stmt all = any;
  all.match = MatchKind::All;
  all.var = 3;
  all.pred_var = 4;
  all.expr = binary(BinaryOp::Shr, tid(), uint_const(5));  // the warp's index: the same on every lane
  l.run(all);
  Stmt differ = all;
  differ.var = 5;
  differ.pred_var = 6;
  differ.expr = tid();
  l.run(differ);
  Stmt sum;
  sum.kind = StmtKind::WarpReduce;
  sum.reduce = ReduceOp::Add;
  sum.expr = tid();
  sum.var = 7;
  sum.target_type = IntType::UInt;
  l.run(sum);
  for (std::size_t t = 0; t < l.threads.size(); ++t) {
    const std::uint32_t id = l.threads[t].linear_tid;
    EXPECT_EQ(l.at(t, 2), 0x11111111u << (id & 3)) << t;
    EXPECT_EQ(l.at(t, 3), 0xffffffffu);
    EXPECT_EQ(l.at(t, 4), 1u);
    EXPECT_EQ(l.at(t, 5), 0u);
    EXPECT_EQ(l.at(t, 6), 0u);
    const std::uint32_t warp = id / 32;
    EXPECT_EQ(l.at(t, 7), 32u * 32u * warp + 496u) << t;  // sum of 32w .. 32w + 31
  }
}

TEST(Collectives, TilesShuffleVoteAndReduceWithinTheirRanks) {
  Launched l;
  Stmt ballot;
  ballot.kind = StmtKind::Tile;
  ballot.tile = TileOp::Ballot;
  ballot.width = 8;
  ballot.expr = binary(BinaryOp::BitAnd, tid(), uint_const(1));
  ballot.var = 2;
  ballot.target_type = IntType::UInt;
  l.run(ballot);
  Stmt max = ballot;
  max.tile = TileOp::Reduce;
  max.reduce = ReduceOp::Max;
  max.width = 4;
  max.expr = tid();
  max.var = 3;
  l.run(max);
  Stmt shfl = max;
  shfl.tile = TileOp::Shfl;
  shfl.lane = binary(BinaryOp::Add, tid(), uint_const(1));  // rank + 1, taken modulo 4
  shfl.expr = binary(BinaryOp::Mul, tid(), uint_const(10));
  shfl.var = 4;
  l.run(shfl);
  Stmt all = ballot;
  all.tile = TileOp::All;
  all.width = 2;
  all.expr = binary(BinaryOp::Lt, tid(), uint_const(3));  // tiles {0,1} all, {2,3} not
  all.var = 5;
  all.target_type = IntType::Bool;
  l.run(all);
  Stmt up;
  up.kind = StmtKind::Shuffle;
  up.shuffle = ShuffleKind::Up;
  up.width = 8;
  up.param = 3;
  up.expr = tid();
  up.var = 6;
  up.target_type = IntType::UInt;
  l.run(up);
  for (std::size_t t = 0; t < l.threads.size(); ++t) {
    const std::uint32_t id = l.threads[t].linear_tid;
    EXPECT_EQ(l.at(t, 2), 0xaau) << t;
    EXPECT_EQ(l.at(t, 3), id | 3u) << t;
    EXPECT_EQ(l.at(t, 4), 10u * ((id & ~3u) | ((id + 1) & 3u))) << t;
    EXPECT_EQ(l.at(t, 5), id < 2 ? 1u : 0u) << t;
    EXPECT_EQ(l.at(t, 6), id % 8 >= 3 ? id - 3 : id) << t;
  }
}

TEST(Collectives, ASignedTileSumThatCouldOverflowIsUndefined) {
  Launched l;
  Stmt sum;
  sum.kind = StmtKind::Tile;
  sum.tile = TileOp::Reduce;
  sum.reduce = ReduceOp::Add;
  sum.width = 2;
  sum.expr = constant(Value::make(IntType::Int, INT_MAX / 2 + 1));  // two of them pass INT_MAX
  sum.var = 2;
  sum.target_type = IntType::Int;
  Interpreter interpreter(l.program);
  EXPECT_EQ(interpreter.exec_collective(sum, l.envs, l.launch, nullptr), UB::SignedOverflow);
  sum.expr = constant(Value::make(IntType::Int, INT_MAX / 2));
  EXPECT_EQ(interpreter.exec_collective(sum, l.envs, l.launch, nullptr), UB::None);
}

TEST(Collectives, AtomicLoopsGiveTheOrderIndependentWord) {
  // kernel: shared signed max of (i - tid) for i in 0..3, per block; a global sum of i * tid.
  Program program;
  Array word;
  word.name = "acc";
  word.elem = IntType::Int;
  word.length = 1;
  word.kind = ArrayKind::SharedStatic;
  program.arrays.push_back(word);
  Kernel kernel;
  kernel.launch.grid[0] = 2;
  kernel.launch.block[0] = 64;
  kernel.vars = {Var{"tid", IntType::UInt}, Var{"gtid", IntType::UInt}, Var{"i", IntType::Int}, Var{"c", IntType::Int},
                 Var{"j", IntType::Int}};
  kernel.slots = 1;
  kernel.reductions = {AtomicKind::Add};
  Stmt max;
  max.kind = StmtKind::AtomicLoop;
  max.atomic = AtomicKind::Max;
  max.array = 0;
  max.var = 3;
  max.loop_var = 2;
  max.target_type = IntType::Int;
  max.start = 0;
  max.trips = 4;
  max.step = 1;
  auto as_int = std::make_shared<Expr>();
  as_int->kind = ExprKind::Cast;
  as_int->type = IntType::Int;
  as_int->kids = {tid()};
  max.expr = binary(BinaryOp::Sub, var(2, IntType::Int), as_int);
  Stmt sum;
  sum.kind = StmtKind::AtomicLoop;
  sum.atomic = AtomicKind::Add;
  sum.slot = 0;
  sum.loop_var = 4;
  sum.target_type = IntType::ULLong;
  sum.start = 1;
  sum.trips = 3;
  sum.step = 2;  // 1, 3, 5
  auto wide = std::make_shared<Expr>();
  wide->kind = ExprKind::Cast;
  wide->type = IntType::ULLong;
  wide->kids = {binary(BinaryOp::Mul, var(4, IntType::Int), as_int)};
  sum.expr = wide;
  Stmt write;
  write.kind = StmtKind::WriteOut;
  write.expr = var(3, IntType::Int);
  kernel.body = {max, sum, write};
  const Interpreter::KernelRun run = Interpreter(program).run(kernel);
  ASSERT_TRUE(run.problem.empty()) << run.problem;
  ASSERT_EQ(run.words.size(), 129u);
  for (std::size_t t = 0; t < 128; ++t) EXPECT_EQ(run.words[t], 3u) << t;  // i = 3, tid = 0
  // 9 * (sum of tid over both blocks) = 9 * 2 * 2016
  EXPECT_EQ(run.words[128], 9u * 2u * 2016u);
}

std::vector<std::string> new_constructs() {
  return {"shuffle_width", "warp_match",  "warp_reduce",     "cg_block",  "cg_tile",
          "cg_reduce",     "atomic_loop", "atomic_cas_loop", "atomic_ref"};
}

Policy forced_policy() {
  Policy policy = Policy::defaults();
  for (const std::string& construct : new_constructs()) policy.set("construct." + construct, 1);
  for (const char* knob : {"stmt.match", "stmt.warp_reduce", "stmt.tile", "stmt.atomic_loop", "stmt.shuffle"})
    policy.set(knob, 3);
  policy.set("small.kernel.statements.min", 10);
  policy.set("small.kernel.statements.max", 14);
  return policy;
}

bool used(const TestCase& test, const std::string& construct) {
  for (const Sidecar::Construct& entry : test.sidecar.constructs_used.value())
    if (entry.name == construct) return true;
  return false;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Collectives, ForcedOnTheyValidateOverManySeedsAndIncludeOnlyWhatTheyUse) {
  const Policy policy = forced_policy();
  std::map<std::string, int> seen;
  int with_cg = 0, with_atomic = 0;
  for (int seed = 0; seed < 120; ++seed) {
    const Size size = seed % 6 == 0 ? Size::medium : Size::small;
    // generate_program validates: the interpreter reruns every kernel and must give its checksum.
    TestCase test;
    ASSERT_NO_THROW(test = generate_program(policy, 3000 + seed, size)) << "seed " << seed;
    EXPECT_EQ(test.source, generate_program(policy, 3000 + seed, size).source) << "seed " << seed;
    for (const std::string& construct : new_constructs()) seen[construct] += used(test, construct) ? 1 : 0;
    const bool cg = used(test, "cg_block") || used(test, "cg_tile") || used(test, "cg_reduce");
    EXPECT_EQ(contains(test.source, "#include <cooperative_groups.h>"), cg) << "seed " << seed;
    // A dense kernel's cuda::atomic_thread_fence (dense_fences) includes it too.
    EXPECT_EQ(contains(test.source, "#include <cuda/atomic>"),
              used(test, "atomic_ref") || contains(test.source, "cuda::atomic_thread_fence("))
        << "seed " << seed;
    with_cg += cg ? 1 : 0;
    with_atomic += used(test, "atomic_ref") ? 1 : 0;
  }
  for (const std::string& construct : new_constructs()) EXPECT_GE(seen[construct], 30) << construct;
  EXPECT_GT(with_cg, 0);
  EXPECT_GT(with_atomic, 0);
}

// A tile's shfl, shfl_xor and reduce bind their value to a forwarding reference; a value such
// as `c ? blockDim.z : blockDim.y` is an lvalue of a built-in variable, which nvcc refuses to
// bind in some contexts ("identifier "blockDim" is undefined in device code"). Every such value
// goes in as a prvalue of the result's type.
TEST(Collectives, ATilesValueIsAlwaysAPrvalue) {
  const Policy policy = forced_policy();
  int calls = 0;
  for (int seed = 0; seed < 60; ++seed) {
    const std::string source = generate_program(policy, 3000 + seed, Size::small).source;
    // The value is the first argument of shfl and shfl_xor, the second of reduce(TILE, ...).
    for (const std::string call : {"_tile.shfl(", "_tile.shfl_xor(", "cooperative_groups::reduce("}) {
      for (std::size_t at = source.find(call); at != std::string::npos; at = source.find(call, at + 1)) {
        std::size_t value = at + call.size();
        if (call.ends_with("reduce(")) value = source.find(", ", value) + 2;
        ++calls;
        EXPECT_EQ(source.compare(value, 12, "static_cast<"), 0)
            << "seed " << 3000 + seed << ": " << source.substr(at, 80);
      }
    }
  }
  EXPECT_GT(calls, 20);
}

TEST(Collectives, ABatchIncludesTheHeadersOnceForEveryTest) {
  const TestCase batch = generate_batch(forced_policy(), {3001, 3002, 3003, 3004}, Size::small);
  EXPECT_EQ(batch.source.find("#include <cooperative_groups.h>"),
            batch.source.rfind("#include <cooperative_groups.h>"));
  EXPECT_TRUE(contains(batch.source, "#include <cooperative_groups.h>"));
  // Every test's kernels are predicted the same as alone.
  for (std::size_t t = 0; t < 4; ++t) {
    const TestCase alone = generate_program(forced_policy(), 3001 + t, Size::small);
    ASSERT_EQ(batch.sidecar.batch->tests[t].kernels->size(), alone.sidecar.kernels->size());
    for (std::size_t k = 0; k < alone.sidecar.kernels->size(); ++k)
      EXPECT_EQ(batch.sidecar.batch->tests[t].kernels->at(k).expected_checksum,
                alone.sidecar.kernels->at(k).expected_checksum);
  }
}

} // namespace
