// Internals of make_block (generator/inline_ptx/inline_ptx.h): the generator of one block. Its structure
// (registers, scopes, loops, ifs, guards) is in inline_ptx_gen.cpp, one function per
// instruction family in inline_ptx_families.cpp.
#pragma once

#include "generator/inline_ptx/inline_ptx_parts.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudiff::generator::ptx {

class BlockGen {
public:
  BlockGen(Rng& rng, const Policy& policy, Block& block);
  void generate();

private:
  // ---- registers (inline_ptx_gen.cpp) ----
  static Operand reg_operand(const Reg& reg) { return Operand{false, reg, 0, false}; }
  static Operand imm_operand(std::uint64_t value) { return Operand{true, Reg{}, value, false}; }
  static Instruction make(Op op, Type type, std::vector<Reg> dests, std::vector<Operand> sources);

  std::vector<int>& defined(Bank bank) { return defined_[static_cast<int>(bank)]; }
  bool is_defined(const Reg& reg);
  bool is_readonly(const Reg& reg) const;
  void define(const Reg& reg);
  /// A destination: now and then a fresh register (under the cap), else any declared one that
  /// is not a live loop's counter or predicate. Writing never needs the old value.
  Reg fresh_or_any(Bank bank);
  Reg fresh(Bank bank);
  /// Makes sure some register of the bank holds a value in this scope.
  void ensure(Bank bank);
  /// A register of the bank that holds a value on every path to here.
  Operand source(Bank bank);
  std::uint64_t edge_value(int bits);
  /// A source that is an immediate with probability "ptx.immediate".
  Operand immediate_or(Bank bank, int bits);
  /// A shift amount, bit position or length (a .u32) for a value of `bits`: an immediate, a
  /// register masked into a small range (so amounts below, at and above the width all come
  /// up), or a register as it is (mostly far above the width: the clamped case).
  Operand amount(int bits);
  /// A bit position or length below `bits` (an immediate, or a register masked with bits - 1).
  Operand in_range_amount(int bits);
  Reg output_source(Bank bank, const std::vector<Reg>& used);

  // ---- emission and structure (inline_ptx_gen.cpp) ----
  /// Appends the instruction. `may_guard`: a single instruction that "ptx.predicated" may put
  /// under @p / @!p; a guarded write leaves an undefined destination undefined.
  void emit(Instruction in, bool may_guard = false);
  void emit_label(int label);
  void emit_branch(int label, std::optional<Operand> guard, bool uniform);
  void items(int count);
  void item();
  /// Runs `body` one nesting level deeper; what it defines is forgotten after it.
  template <typename Body>
  void scoped(Body body);
  void loop();
  void branch();

  // ---- one item of a family (inline_ptx_families.cpp) ----
  void family_item();
  void logic();
  void shift();
  void funnel_shift();
  void permute();
  void bitfield();
  void bitscan();
  void carry_chain();
  void multiply();
  void minmax();
  void select();
  void compare();
  void convert();
  void video();
  Type random_type(int bits, bool allow_bit_type);

  Rng& rng_;
  const Policy& policy_;
  Block& block_;
  std::vector<double> weights_;
  int next_[3] = {0, 0, 0};
  std::vector<int> defined_[3];
  std::vector<Reg> readonly_;
  std::vector<Reg> recent_[2];
  std::set<std::string> features_;
  std::string family_;
  int labels_ = 0;
  int depth_ = 0;
};

} // namespace cudiff::generator::ptx
