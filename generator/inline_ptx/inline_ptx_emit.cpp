// inline_ptx: the text of a block, `asm volatile("{ ... }" : outputs : inputs);`.
#include "generator/inline_ptx/inline_ptx_parts.h"

#include "common/common.h"

#include <algorithm>
#include <cstdio>

namespace cudiff::generator::ptx {
namespace {

std::string hex(std::uint64_t value, int bits) {
  char text[24];
  if (bits > 32) std::snprintf(text, sizeof text, "0x%016llX", static_cast<unsigned long long>(value));
  else std::snprintf(text, sizeof text, "0x%08llX", static_cast<unsigned long long>(value));
  return text;
}

// Registers are spelled with "%%" inside the C string: the asm template's escape of '%'.
std::string spell(const Reg& reg, std::size_t output_count) {
  switch (reg.bank) {
  case Bank::b32: return "%%ct" + std::to_string(reg.index);
  case Bank::b64: return "%%cw" + std::to_string(reg.index);
  case Bank::pred: return "%%cp" + std::to_string(reg.index);
  case Bank::input: return "%" + std::to_string(output_count + static_cast<std::size_t>(reg.index));
  case Bank::output: return "%" + std::to_string(reg.index);
  }
  return "?";
}

std::string spell(const Operand& operand, int bits, std::size_t output_count) {
  if (operand.immediate) return hex(operand.value, bits);
  return (operand.negated ? "!" : "") + spell(operand.reg, output_count);
}

std::string label_name(int label) { return "cudiff_l" + std::to_string(label); }

const char* prmt_mode_suffix(PrmtMode mode) {
  switch (mode) {
  case PrmtMode::generic: return "";
  case PrmtMode::f4e: return ".f4e";
  case PrmtMode::b4e: return ".b4e";
  case PrmtMode::rc8: return ".rc8";
  case PrmtMode::ecl: return ".ecl";
  case PrmtMode::ecr: return ".ecr";
  case PrmtMode::rc16: return ".rc16";
  }
  return "";
}

const char* compare_name(CmpOp op) {
  static const char* const names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
  return names[static_cast<int>(op)];
}

const char* video_name(VideoOp op) {
  static const char* const names[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax"};
  return names[static_cast<int>(op)];
}

// The width an immediate source of this instruction is printed at.
int source_bits(const Instruction& instruction, std::size_t position) {
  switch (instruction.op) {
  case Op::shl:
  case Op::shr: return position == 1 ? 32 : bits_of(instruction.type);
  case Op::bfe: return position == 0 ? bits_of(instruction.type) : 32;
  case Op::bfi: return position <= 1 ? bits_of(instruction.type) : 32;
  case Op::slct: return position == 2 ? 32 : bits_of(instruction.type);
  case Op::cvt: return bits_of(instruction.type2);
  case Op::mul_wide: return 32;
  case Op::mad_wide: return position == 2 ? 64 : 32;
  default: return bits_of(instruction.type) == 64 ? 64 : 32;
  }
}

} // namespace

int bits_of(Type type) {
  switch (type) {
  case Type::u8:
  case Type::s8: return 8;
  case Type::u16:
  case Type::s16: return 16;
  case Type::b32:
  case Type::u32:
  case Type::s32: return 32;
  case Type::b64:
  case Type::u64:
  case Type::s64: return 64;
  case Type::pred: return 1;
  }
  return 32;
}

bool is_signed(Type type) { return type == Type::s8 || type == Type::s16 || type == Type::s32 || type == Type::s64; }

std::string spell(Type type) {
  static const char* const names[] = {"b32", "b64", "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "pred"};
  return std::string(".") + names[static_cast<int>(type)];
}

const std::vector<std::string>& family_names() {
  static const std::vector<std::string> names = {"logic", "shift",  "shf",    "prmt", "bitfield", "bitscan", "carry",
                                                 "mul",   "minmax", "select", "setp", "cvt",      "video"};
  return names;
}

std::string mnemonic(const Instruction& in) {
  const std::string t = spell(in.type);
  switch (in.op) {
  case Op::mov: return "mov" + t;
  case Op::add: return "add" + t;
  case Op::sub: return "sub" + t;
  case Op::and_: return "and" + t;
  case Op::or_: return "or" + t;
  case Op::xor_: return "xor" + t;
  case Op::not_: return "not" + t;
  case Op::cnot: return "cnot" + t;
  case Op::lop3: return "lop3" + t;
  case Op::shl: return "shl" + t;
  case Op::shr: return "shr" + t;
  case Op::shf_l: return std::string("shf.l") + (in.flag ? ".clamp" : ".wrap") + t;
  case Op::shf_r: return std::string("shf.r") + (in.flag ? ".clamp" : ".wrap") + t;
  case Op::prmt: return "prmt" + t + prmt_mode_suffix(static_cast<PrmtMode>(in.mode));
  case Op::bfe: return "bfe" + t;
  case Op::bfi: return "bfi" + t;
  case Op::bfind: return std::string("bfind") + (in.flag ? ".shiftamt" : "") + t;
  case Op::brev: return "brev" + t;
  case Op::popc: return "popc" + t;
  case Op::clz: return "clz" + t;
  case Op::add_cc: return "add.cc" + t;
  case Op::addc: return std::string("addc") + (in.flag ? ".cc" : "") + t;
  case Op::sub_cc: return "sub.cc" + t;
  case Op::subc: return std::string("subc") + (in.flag ? ".cc" : "") + t;
  case Op::mad_cc: return std::string("mad") + (in.mode == 1 ? ".hi" : ".lo") + ".cc" + t;
  case Op::madc: return std::string("madc") + (in.mode == 1 ? ".hi" : ".lo") + (in.flag ? ".cc" : "") + t;
  case Op::mul_lo: return "mul.lo" + t;
  case Op::mul_hi: return "mul.hi" + t;
  case Op::mul_wide: return "mul.wide" + t;
  case Op::mad_lo: return "mad.lo" + t;
  case Op::mad_hi: return "mad.hi" + t;
  case Op::mad_wide: return "mad.wide" + t;
  case Op::min: return "min" + t;
  case Op::max: return "max" + t;
  case Op::selp: return "selp" + t;
  case Op::slct: return "slct" + t + spell(in.type2);
  case Op::setp: {
    std::string text = std::string("setp.") + compare_name(static_cast<CmpOp>(in.mode));
    static const char* const combine[] = {"", ".and", ".or", ".xor"};
    return text + combine[static_cast<int>(in.bool_op)] + t;
  }
  case Op::cvt: return "cvt" + t + spell(in.type2);
  case Op::vop4:
  case Op::vop2:
    return std::string(video_name(static_cast<VideoOp>(in.mode))) + (in.op == Op::vop4 ? "4" : "2") + t +
           spell(in.type2) + spell(in.type3) + (in.flag ? ".sat" : "") + (in.accumulate ? ".add" : "");
  case Op::label: return label_name(in.label) + ":";
  case Op::bra: return in.uniform ? "bra.uni" : "bra";
  }
  return "?";
}

std::string instruction_text(const Instruction& in, std::size_t output_count) {
  if (in.op == Op::label) return mnemonic(in);
  std::string text;
  if (in.guard) text += "@" + spell(*in.guard, 1, output_count) + " ";
  text += mnemonic(in);
  if (in.op == Op::bra) return text + " " + label_name(in.label) + ";";
  text += " ";
  for (std::size_t i = 0; i < in.dests.size(); ++i)
    text += (i == 0 ? "" : (in.op == Op::setp ? "|" : ", ")) + spell(in.dests[i], output_count);
  for (std::size_t i = 0; i < in.sources.size(); ++i) {
    text += ", " + spell(in.sources[i], source_bits(in, i), output_count);
  }
  if (in.op == Op::lop3) {
    char lut[8];
    std::snprintf(lut, sizeof lut, "0x%02X", static_cast<unsigned>(in.mode & 0xff));
    text += std::string(", ") + lut;
  }
  return text + ";";
}

std::string asm_statement(const Block& block, const std::vector<std::string>& outputs,
                          const std::vector<std::string>& inputs) {
  if (outputs.size() != block.outputs.size() || inputs.size() != block.inputs.size())
    throw Error(ErrorKind::internal, "generator defect: asm_statement got " + std::to_string(outputs.size()) +
                                         " outputs and " + std::to_string(inputs.size()) + " inputs for a block of " +
                                         std::to_string(block.outputs.size()) + " and " +
                                         std::to_string(block.inputs.size()));
  // Every register named is declared, read or written: a generated block writes each before
  // reading it, but one the IR reduction cut may read one on a path no thread takes.
  int counts[3] = {0, 0, 0};
  auto count = [&](const Reg& reg) {
    if (reg.bank <= Bank::pred)
      counts[static_cast<int>(reg.bank)] = std::max(counts[static_cast<int>(reg.bank)], reg.index + 1);
  };
  for (const Instruction& in : block.body) {
    for (const Reg& reg : in.dests) count(reg);
    for (const Operand& source : in.sources)
      if (!source.immediate) count(source.reg);
    if (in.guard && !in.guard->immediate) count(in.guard->reg);
  }
  std::string text = "asm volatile(\"{\\n\\t\"\n";
  static const char* const declarations[] = {".reg .b32 %%ct<", ".reg .b64 %%cw<", ".reg .pred %%cp<"};
  for (int bank = 0; bank < 3; ++bank)
    if (counts[bank] > 0)
      text += "    \"" + std::string(declarations[bank]) + std::to_string(counts[bank]) + ">;\\n\\t\"\n";
  for (const Instruction& in : block.body) text += "    \"" + instruction_text(in, block.outputs.size()) + "\\n\\t\"\n";
  text += "    \"}\"\n    :";
  for (std::size_t i = 0; i < outputs.size(); ++i)
    text += std::string(i == 0 ? " " : ", ") + (block.outputs[i] == Width::b32 ? "\"=r\"(" : "\"=l\"(") + outputs[i] +
            ")";
  text += "\n    :";
  for (std::size_t i = 0; i < inputs.size(); ++i)
    text += std::string(i == 0 ? " " : ", ") + (block.inputs[i] == Width::b32 ? "\"r\"(" : "\"l\"(") + inputs[i] + ")";
  return text + ");";
}

} // namespace cudiff::generator::ptx
