// Presentation: plain-text tables and indented JSON.
#include "common/common.h"

#include <algorithm>

namespace cudiff {
namespace {

/// Columns a cell takes on a terminal: UTF-8 code points, not bytes ("§", "→" are one).
std::size_t display_width(const std::string& cell) {
  return static_cast<std::size_t>(
      std::ranges::count_if(cell, [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

} // namespace

std::string TextTable::render() const {
  std::vector<std::size_t> widths(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], display_width(row[i]));
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);

  auto render_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      std::string cell = i < row.size() ? row[i] : "";
      if (i + 1 < widths.size()) cell.append(widths[i] - std::min(widths[i], display_width(cell)), ' ');
      line += cell;
      if (i + 1 < widths.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };
  std::string out = render_row(header_);
  std::vector<std::string> rule;
  for (std::size_t width : widths) rule.emplace_back(width, '-');
  out += render_row(rule);
  for (const auto& row : rows_) out += render_row(row);
  return out;
}

namespace {

void pretty(std::string& out, const boost::json::value& value, int indent) {
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  const std::string inner(static_cast<std::size_t>(indent + 1) * 2, ' ');
  if (const auto* object = value.if_object()) {
    if (object->empty()) {
      out += "{}";
      return;
    }
    out += "{\n";
    bool first = true;
    for (const auto& [key, member] : *object) {
      if (!first) out += ",\n";
      first = false;
      out += inner + boost::json::serialize(boost::json::string(key)) + ": ";
      pretty(out, member, indent + 1);
    }
    out += "\n" + pad + "}";
  } else if (const auto* array = value.if_array()) {
    if (array->empty()) {
      out += "[]";
      return;
    }
    out += "[\n";
    for (std::size_t i = 0; i < array->size(); ++i) {
      if (i != 0) out += ",\n";
      out += inner;
      pretty(out, (*array)[i], indent + 1);
    }
    out += "\n" + pad + "]";
  } else {
    out += boost::json::serialize(value);
  }
}

} // namespace

std::string pretty_json(const boost::json::value& value) {
  std::string out;
  pretty(out, value, 0);
  return out + "\n";
}

} // namespace cudiff
