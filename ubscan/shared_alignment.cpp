// ubscan shared_alignment: U-SHARED-MISALIGNED: pointers carved from extern __shared__
// memory at byte offsets are aligned for what they point to.
#include "ubscan/parts.h"

namespace cudiff::ubscan::detail {

// ============================================================================================
// U-SHARED-MISALIGNED: a pointer carved from extern __shared__ memory at a byte offset is
// aligned for its pointee. Offsets are followed through casts, `+ constant`, `&p[constant]`
// and pointer variables; the buffer's own start counts as aligned for every type (the guide's
// examples carve float after short from its start).
// ============================================================================================

namespace {

struct Carve {
  std::string buffer;
  long long offset = 0;  ///< bytes from the buffer's start
  std::string pointee;
};

class CarveTracker {
public:
  CarveTracker(const Scan& s, int unit) : s_(s), m_(s.m), unit_(unit) {
    for (const Variable& v : m_.units[unit].locals)
      if (v.space == MemorySpace::shared && v.is_extern) buffers_[v.name] = v.type;
    for (const Variable& g : m_.globals)
      if (g.space == MemorySpace::shared && g.is_extern) buffers_.emplace(g.name, g.type);
  }

  void run() {
    if (buffers_.empty()) return;
    const Unit& u = m_.units[unit_];
    std::map<std::size_t, const Variable*> declared_at;
    for (const Variable& v : u.locals) declared_at[v.name_token] = &v;
    for (std::size_t k = u.body_begin; k < u.body_end; ++k) {
      if (m_.unit_of[k] != unit_) continue;
      if (const auto found = declared_at.find(k); found != declared_at.end() && found->second->pointer) {
        const Variable& v = *found->second;
        if (auto c = carve(v.init_begin, v.init_end)) pointers_[v.name] = Carve{c->buffer, c->offset, v.type};
      }
      check_cast(k);
    }
  }

private:
  /// A cast at k to `T*`: the pointee and the operand's tokens.
  struct Cast {
    std::string pointee;
    std::size_t operand_begin = 0, operand_end = 0;
    std::size_t end = 0;  ///< just past the whole cast expression
  };

  std::optional<Cast> cast_at(std::size_t k) const {
    if ((m_.is(k, "reinterpret_cast") || m_.is(k, "static_cast")) && m_.is(k + 1, "<")) {
      std::size_t close = k + 2;
      while (close < m_.size() && !m_.is(close, ">") && !m_.is(close, ";")) ++close;
      if (!m_.is(close, ">") || !m_.is(close + 1, "(")) return std::nullopt;
      const auto pointee = pointee_of(k + 2, close);
      if (!pointee) return std::nullopt;
      const std::size_t operand_end = std::min(m_.size(), m_.partner(close + 1));
      return Cast{*pointee, close + 2, operand_end, operand_end + 1};
    }
    if (!m_.is(k, "(") || m_.partner(k) == npos || (k > 0 && ends_operand(m_, k - 1))) return std::nullopt;
    const std::size_t close = m_.partner(k);
    const auto pointee = pointee_of(k + 1, close);
    if (!pointee) return std::nullopt;
    const std::size_t end = unary_end(close + 1);
    return Cast{*pointee, close + 1, end, end};
  }

  /// `T *` (cv-qualifiers allowed) in [a, b): T; nothing for any other type.
  std::optional<std::string> pointee_of(std::size_t a, std::size_t b) const {
    if (b <= a + 1 || !m_.is(b - 1, "*")) return std::nullopt;
    std::string type;
    for (std::size_t j = a; j + 1 < b; ++j) {
      const std::string_view t = m_.text(j);
      if (!m_.identifier(j) && t != "::") return std::nullopt;
      if (t == "const" || t == "volatile" || t == "struct" || t == "::") continue;
      type += (type.empty() ? "" : " ") + std::string(t);
    }
    return type.empty() ? std::nullopt : std::optional<std::string>(type);
  }

  /// The end of the unary expression starting at j (a C-style cast's operand).
  std::size_t unary_end(std::size_t j) const {
    while (m_.is(j, "&") || m_.is(j, "*")) ++j;
    if (m_.is(j, "(")) {
      j = m_.after(j);
    } else if (m_.identifier(j)) {
      const bool named_cast = m_.text(j).ends_with("_cast") && m_.is(j + 1, "<");
      ++j;
      if (named_cast) {
        while (j < m_.size() && !m_.is(j, ">")) ++j;
        if (m_.is(j + 1, "(")) j = m_.after(j + 1);
      }
    } else {
      return j;
    }
    while (m_.is(j, "[") || (m_.is(j, ".") && m_.identifier(j + 1)) || (m_.is(j, "->") && m_.identifier(j + 1)))
      j = m_.is(j, "[") ? m_.after(j) : j + 2;
    return j;
  }

  std::optional<long long> element_size(const std::string& pointee) const {
    const auto sa = size_and_alignment(pointee);
    return sa ? std::optional<long long>(sa->first) : std::nullopt;
  }

  std::optional<Carve> carve(std::size_t a, std::size_t b) const {
    while (b > a + 1 && m_.is(a, "(") && m_.partner(a) == b - 1) ++a, --b;
    if (a >= b) return std::nullopt;
    // pointer + constant (the last binary + or - at the top level)
    std::size_t split = npos;
    for (std::size_t j = a; j < b; j = (m_.is(j, "(") || m_.is(j, "[")) ? m_.after(j) : j + 1)
      if ((m_.is(j, "+") || m_.is(j, "-")) && j > a && ends_operand(m_, j - 1)) split = j;
    if (split != npos) return offset_by(carve(a, split), s_.a.constant(split + 1, b), m_.is(split, "-"));
    if (m_.is(a, "&") && m_.is(b - 1, "]") && m_.partner(b - 1) != npos && m_.partner(b - 1) > a + 1) {
      const std::size_t bracket = m_.partner(b - 1);
      return offset_by(carve(a + 1, bracket), s_.a.constant(bracket + 1, b - 1), false);
    }
    if (const auto cast = cast_at(a); cast && cast->end == b) {
      auto inner = carve(cast->operand_begin, cast->operand_end);
      if (inner) inner->pointee = cast->pointee;
      return inner;
    }
    if (b == a + 1 && m_.identifier(a)) {
      const std::string name(m_.text(a));
      if (const auto found = pointers_.find(name); found != pointers_.end()) return found->second;
      if (const auto found = buffers_.find(name); found != buffers_.end()) return Carve{name, 0, found->second};
    }
    return std::nullopt;
  }

  std::optional<Carve> offset_by(std::optional<Carve> base, std::optional<long long> count, bool minus) const {
    if (!base || !count) return std::nullopt;
    const auto size = element_size(base->pointee);
    if (!size) return std::nullopt;
    base->offset += (minus ? -1 : 1) * *count * *size;
    return base;
  }

  void check_cast(std::size_t k) const {
    const auto cast = cast_at(k);
    if (!cast) return;
    const auto target = size_and_alignment(cast->pointee);
    const auto operand = carve(cast->operand_begin, cast->operand_end);
    if (target && operand && operand->offset % target->second != 0) s_.hit("U-SHARED-MISALIGNED", k);
  }

  const Scan& s_;
  const Model& m_;
  int unit_;
  std::map<std::string, std::string> buffers_;  ///< extern __shared__ arrays: name -> element type
  std::map<std::string, Carve> pointers_;       ///< pointer variables into them
};

} // namespace

void check_shared_alignment(const Scan& s) {
  for (std::size_t u = 0; u < s.m.units.size(); ++u)
    if (s.m.units[u].has_body && device_side(s.m.units[u].space)) CarveTracker(s, static_cast<int>(u)).run();
}

} // namespace cudiff::ubscan::detail
