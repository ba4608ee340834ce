// ubscan barriers: barrier and warp-synchronization checks: U-SYNC-DIVERGENT and
// U-SYNCWARP-MASK (a barrier only where every thread of the block or warp reaches it).
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ============================================================================================
// U-SYNC-DIVERGENT, U-SYNCWARP-MASK: barriers only where every thread of the block (warp)
// reaches them.
// ============================================================================================

namespace {

enum BarrierBits : unsigned { kBlockBarrier = 1, kWarpBarrier = 2 };

unsigned barrier_of_name(std::string_view name) {
  if (in_list(name, {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__barrier_sync",
                     "__barrier_sync_count"}))
    return kBlockBarrier;
  return name == "__syncwarp" ? kWarpBarrier : 0;
}

/// Barriers written as inline PTX: `asm volatile("bar.sync 0;")`.
unsigned barrier_of_asm(const Model& m, std::size_t k) {
  if (!in_list(m.text(k), {"asm", "__asm__", "__asm"})) return 0;
  std::size_t open = k + 1;
  while (m.identifier(open)) ++open;  // volatile, goto
  if (!m.is(open, "(")) return 0;
  unsigned bits = 0;
  for (std::size_t j = open + 1; j < std::min(m.size(), m.partner(open)); ++j) {
    if (m.tokens[j].kind != TokenKind::string) continue;
    const std::string_view s = m.text(j);
    if (s.find("bar.warp.sync") != std::string_view::npos) bits |= kWarpBarrier;
    else if (s.find("bar.sync") != std::string_view::npos || s.find("barrier.sync") != std::string_view::npos ||
             s.find("bar.red") != std::string_view::npos || s.find("barrier.red") != std::string_view::npos ||
             s.find("barrier.cta") != std::string_view::npos)
      bits |= kBlockBarrier;
  }
  return bits;
}

/// For each unit, the barriers it reaches: its own and those of the device functions it calls.
std::vector<unsigned> barriers_reached(const Analysis& a) {
  const Model& m = a.m;
  std::vector<unsigned> bits(m.units.size(), 0);
  std::vector<std::vector<int>> callees(m.units.size());
  for (const Call& call : a.calls) {
    if (call.unit < 0) continue;
    if (call.qualifier.empty() && !call.member) bits[call.unit] |= barrier_of_name(call.name);
    for (int callee : a.callees(call))
      if (device_side(m.units[callee].space)) callees[call.unit].push_back(callee);
  }
  for (std::size_t k = 0; k < m.size(); ++k)
    if (m.unit_of[k] >= 0) bits[m.unit_of[k]] |= barrier_of_asm(m, k);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t u = 0; u < m.units.size(); ++u)
      for (int callee : callees[u])
        if ((bits[u] | bits[callee]) != bits[u]) {
          bits[u] |= bits[callee];
          changed = true;
        }
  }
  return bits;
}

/// Whether a __syncwarp argument is the full mask (no argument is too).
bool full_warp_mask(const Analysis& a, std::size_t open) {
  const std::size_t close = a.m.partner(open);
  if (close == open + 1) return true;
  const auto value = a.constant(open + 1, close);
  return value && (static_cast<unsigned long long>(*value) & 0xffffffffull) == 0xffffffffull;
}

/// Walks one device-side body statement by statement, knowing whether the threads that get
/// somewhere may be a subset of the block: inside if/for/while/do/switch, after a return in
/// such code, or on the conditional side of ?:, && and ||. `if constexpr` is decided at
/// compile time and is not divergent.
class BarrierWalker {
public:
  BarrierWalker(const Scan& scan, int unit, const std::vector<unsigned>& reached,
                const std::unordered_map<std::size_t, const Call*>& calls_at)
      : s_(scan), m_(scan.m), unit_(unit), reached_(reached), calls_at_(calls_at) {}

  void run() {
    const Unit& u = m_.units[unit_];
    std::size_t i = u.body_begin;
    while (i < u.body_end) {
      const std::size_t before = i;
      statement(i, u.body_end, false);
      if (i <= before) i = before + 1;
    }
  }

private:
  /// The bracket's partner, or `end` for one that is unmatched or points backwards (damaged
  /// input): the walk only ever moves forward.
  std::size_t group_end(std::size_t open, std::size_t end) const {
    const std::size_t partner = m_.partner(open);
    return partner <= open ? end : std::min(end, partner);
  }

  /// Nesting deeper than any real program (damaged input: `do do do ...`) is read as plain
  /// statements, so the recursion stays bounded.
  static constexpr int kMaxNesting = 256;

  void statement(std::size_t& i, std::size_t end, bool divergent) {
    if (nesting_ >= kMaxNesting) return simple_statement(i, end, divergent);
    ++nesting_;
    compound_or_simple(i, end, divergent);
    --nesting_;
  }

  void compound_or_simple(std::size_t& i, std::size_t end, bool divergent) {
    const std::string_view t = m_.text(i);
    if (t == "{") {
      const std::size_t close = group_end(i, end);
      ++i;
      while (i < close) {
        const std::size_t before = i;
        statement(i, close, divergent);
        if (i <= before) i = before + 1;
      }
      i = close + 1;
    } else if (t == "if") {
      if_statement(i, end, divergent);
    } else if (t == "for" && m_.is(i + 1, "(")) {
      for_statement(i, end, divergent);
    } else if ((t == "while" || t == "switch") && m_.is(i + 1, "(")) {
      const std::size_t close = group_end(i + 1, end);
      expression(i + 2, close, divergent || t == "while");
      i = close + 1;
      statement(i, end, true);
    } else if (t == "do") {
      ++i;
      statement(i, end, true);
      if (m_.is(i, "while") && m_.is(i + 1, "(")) {
        const std::size_t close = group_end(i + 1, end);
        expression(i + 2, close, true);
        i = close + 1;
      }
      if (m_.is(i, ";")) ++i;
    } else if (t == "case" || t == "default") {
      while (i < end && !m_.is(i, ":")) ++i;
      ++i;
    } else if (t == "else") {
      ++i;  // a stray else: its statement follows
    } else {
      simple_statement(i, end, divergent);
    }
  }

  void if_statement(std::size_t& i, std::size_t end, bool divergent) {
    ++i;
    const bool compile_time = m_.is(i, "constexpr") || m_.is(i, "consteval");
    if (compile_time) ++i;
    if (m_.is(i, "!") && m_.is(i + 1, "consteval")) i += 2;
    const bool branch_divergent = divergent || !compile_time;
    if (m_.is(i, "(")) {
      const std::size_t close = group_end(i, end);
      expression(i + 1, close, divergent);
      i = close + 1;
    }
    statement(i, end, branch_divergent);
    if (m_.is(i, "else")) {
      ++i;
      statement(i, end, branch_divergent);
    }
  }

  void for_statement(std::size_t& i, std::size_t end, bool divergent) {
    const std::size_t close = group_end(i + 1, end);
    std::size_t first_semicolon = close;
    for (std::size_t j = i + 2; j < close; j = (m_.is(j, "(") || m_.is(j, "[") || m_.is(j, "{")) ? m_.after(j) : j + 1)
      if (m_.is(j, ";")) {
        first_semicolon = j;
        break;
      }
    expression(i + 2, first_semicolon, divergent);  // the init runs once, on every thread
    if (first_semicolon < close) expression(first_semicolon + 1, close, true);
    i = close + 1;
    statement(i, end, true);
  }

  void simple_statement(std::size_t& i, std::size_t end, bool divergent) {
    std::size_t j = i;
    while (j < end && !m_.is(j, ";") && !m_.is(j, "}"))
      j = (m_.is(j, "(") || m_.is(j, "[") || m_.is(j, "{")) ? std::min(end, m_.after(j)) : j + 1;
    const bool is_return = (m_.is(i, "return") || m_.is(i, "co_return")) &&
                           m_.tokens[i].branch != ArchBranch::host_only;
    expression(i, j, divergent);
    if (is_return && divergent) returned_divergently_ = true;
    i = m_.is(j, ";") ? j + 1 : j;
  }

  void expression(std::size_t from, std::size_t to, bool divergent) {
    std::vector<int> conditional_depths;
    int depth = 0;
    for (std::size_t k = from; k < to && k < m_.size(); ++k) {
      if (m_.unit_of[k] != unit_) continue;
      const std::string_view t = m_.text(k);
      if (m_.tokens[k].branch == ArchBranch::host_only) continue;  // the device pass never sees it
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") {
        --depth;
        std::erase_if(conditional_depths, [&](int d) { return d > depth; });
      }
      if (t == ",") std::erase_if(conditional_depths, [&](int d) { return d >= depth; });
      if (t == "?" || t == "&&" || t == "||") conditional_depths.push_back(depth);
      const bool conditional = divergent || returned_divergently_ || !conditional_depths.empty();
      check(k, conditional);
    }
  }

  void check(std::size_t k, bool conditional) {
    unsigned bits = barrier_of_asm(m_, k);
    const auto found = calls_at_.find(k);
    if (found != calls_at_.end()) {
      const Call& call = *found->second;
      const unsigned direct = call.qualifier.empty() && !call.member ? barrier_of_name(call.name) : 0;
      bits |= direct;
      if (direct == kWarpBarrier && !full_warp_mask(s_.a, call.open)) s_.hit("U-SYNCWARP-MASK", k);
      for (int callee : s_.a.callees(call))
        if (device_side(m_.units[callee].space)) bits |= reached_[callee];
    }
    if (!conditional) return;
    if (bits & kBlockBarrier) s_.hit("U-SYNC-DIVERGENT", k);
    if (bits & kWarpBarrier) s_.hit("U-SYNCWARP-MASK", k);
  }

  const Scan& s_;
  const Model& m_;
  int unit_;
  const std::vector<unsigned>& reached_;
  const std::unordered_map<std::size_t, const Call*>& calls_at_;
  bool returned_divergently_ = false;
  int nesting_ = 0;
};

} // namespace

void check_barriers(const Scan& s) {
  const std::vector<unsigned> reached = barriers_reached(s.a);
  std::unordered_map<std::size_t, const Call*> calls_at;
  for (const Call& call : s.a.calls) calls_at[call.token] = &call;
  for (std::size_t u = 0; u < s.m.units.size(); ++u)
    if (s.m.units[u].has_body && device_side(s.m.units[u].space))
      BarrierWalker(s, static_cast<int>(u), reached, calls_at).run();
}

} // namespace cudiff::ubscan::detail
