// reducer: the walk of a delta-debugging pass and of an edit-list pass over their cursors.
#include "reducer/passes.h"

#include <algorithm>

namespace cudiff::reducer {

// ---- ChunkPass --------------------------------------------------------------------------

ChunkPass::ChunkPass(std::string name, Units units, Levels levels, std::size_t max_chunk)
    : name_(std::move(name)), units_(std::move(units)), levels_(std::move(levels)), max_chunk_(max_chunk) {}

ChunkPass::Units one_range_each(std::function<std::vector<Range>(std::string_view text, std::size_t level)> ranges) {
  return [ranges = std::move(ranges)](std::string_view text, std::size_t level) {
    std::vector<std::vector<Range>> units;
    for (const Range& range : ranges(text, level)) units.push_back({range});
    return units;
  };
}

std::size_t ChunkPass::first_chunk(std::size_t units) const {
  const std::size_t half = std::max<std::size_t>(1, (units + 1) / 2);
  return max_chunk_ == 0 ? half : std::min(half, max_chunk_);
}

std::optional<Cursor> ChunkPass::level_from(std::string_view text, std::size_t level) const {
  const std::size_t levels = levels_(text);
  for (; level < levels; ++level) {
    const std::size_t units = units_(text, level).size();
    if (units > 0) return Cursor{level, first_chunk(units), 0};
  }
  return std::nullopt;
}

std::optional<Cursor> ChunkPass::next_sweep(std::string_view text, const Cursor& cursor) const {
  if (cursor.chunk > 1) return Cursor{cursor.level, cursor.chunk / 2, 0};
  return level_from(text, cursor.level + 1);
}

std::optional<Cursor> ChunkPass::start(std::string_view text) const { return level_from(text, 0); }

std::optional<std::string> ChunkPass::apply(std::string_view text, const Cursor& cursor) const {
  const std::vector<std::vector<Range>> units = units_(text, cursor.level);
  if (cursor.index >= units.size()) return std::nullopt;
  const std::size_t end = std::min(units.size(), cursor.index + cursor.chunk);
  std::vector<Range> ranges;
  for (std::size_t unit = cursor.index; unit < end; ++unit)
    ranges.insert(ranges.end(), units[unit].begin(), units[unit].end());
  return remove_ranges(text, std::move(ranges));
}

std::optional<Cursor> ChunkPass::advance(std::string_view text, const Cursor& cursor) const {
  const std::size_t units = units_(text, cursor.level).size();
  if (cursor.index + cursor.chunk < units) return Cursor{cursor.level, cursor.chunk, cursor.index + cursor.chunk};
  return next_sweep(text, cursor);
}

std::optional<Cursor> ChunkPass::advance_on_success(std::string_view text, const Cursor& cursor) const {
  // The units after the removed chunk slid into its place: try the same index again.
  const std::size_t units = units_(text, cursor.level).size();
  if (cursor.index < units) return Cursor{cursor.level, std::min(cursor.chunk, units), cursor.index};
  return next_sweep(text, cursor);
}

// ---- EditListPass -----------------------------------------------------------------------

namespace {

/// Where an edit starts: the first byte it touches.
std::size_t start_of(const Edit& edit) {
  if (edit.anchor) return *edit.anchor;
  std::size_t start = std::string_view::npos;
  for (const Range& range : edit.remove) start = std::min(start, range.begin);
  for (const Replacement& replacement : edit.replacements) start = std::min(start, replacement.begin);
  return start;
}

/// The pass's edits in the order of where they start (stable: a pass's own order breaks ties).
std::vector<Edit> by_start(std::vector<Edit> edits) {
  // (start, index) keys and a plain sort: libstdc++ 12's stable_sort trips -Wdeprecated.
  std::vector<std::pair<std::size_t, std::size_t>> keys;
  for (std::size_t i = 0; i < edits.size(); ++i) keys.emplace_back(start_of(edits[i]), i);
  std::ranges::sort(keys);
  std::vector<Edit> sorted;
  sorted.reserve(edits.size());
  for (const auto& [start, index] : keys) sorted.push_back(std::move(edits[index]));
  return sorted;
}

} // namespace

EditListPass::EditListPass(std::string name, Edits edits)
    : name_(std::move(name)),
      edits_([edits = std::move(edits)](std::string_view text) { return by_start(edits(text)); }) {}

std::optional<Cursor> EditListPass::start(std::string_view text) const {
  const std::vector<Edit> edits = edits_(text);
  if (edits.empty()) return std::nullopt;
  return Cursor{0, 1, 0, start_of(edits.front())};
}

std::optional<std::string> EditListPass::apply(std::string_view text, const Cursor& cursor) const {
  const std::vector<Edit> edits = edits_(text);
  if (cursor.index >= edits.size()) return std::nullopt;
  std::string candidate = reducer::apply(text, edits[cursor.index]);
  if (candidate == text) return std::nullopt;
  return candidate;
}

std::optional<Cursor> EditListPass::advance(std::string_view text, const Cursor& cursor) const {
  const std::vector<Edit> edits = edits_(text);
  if (cursor.index + 1 < edits.size()) return Cursor{0, 1, cursor.index + 1, start_of(edits[cursor.index + 1])};
  return std::nullopt;
}

std::optional<Cursor> EditListPass::advance_on_success(std::string_view text, const Cursor& cursor) const {
  // An edit changes nothing before where it starts, so the edits that start earlier are the
  // ones already tried; one statement may give several edits, so indices do not say this.
  const std::vector<Edit> edits = edits_(text);
  for (std::size_t i = 0; i < edits.size(); ++i)
    if (start_of(edits[i]) >= cursor.position) return Cursor{0, 1, i, start_of(edits[i])};
  return std::nullopt;
}

} // namespace cudiff::reducer
