// reducer: how a reduction is reported (`cudiff reduce`, `cudiff triage reduce`) — a text's
// size in bytes, lines and tokens, and the pass log, as a table or JSON.
#include "common/common.h"
#include "reducer/reducer.h"

#include <algorithm>

namespace cudiff::reducer {
namespace {

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::ranges::count(text, '\n')) + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

} // namespace

boost::json::object size_json(const std::string& text) {
  return {{"bytes", text.size()}, {"lines", count_lines(text)}, {"tokens", count_tokens(text)}};
}

std::string size_text(const std::string& text) {
  return format_bytes(text.size()) + ", " + std::to_string(count_lines(text)) + " lines, " +
         std::to_string(count_tokens(text)) + " tokens";
}

std::string log_table(const Result& result) {
  TextTable table({"pass", "runs", "tests", "cached", "skipped", "accepted", "saved", "time"});
  for (const PassStats& s : result.log)
    table.add_row({s.pass, std::to_string(s.runs), std::to_string(s.tests), std::to_string(s.cache_hits),
                   std::to_string(s.skipped), std::to_string(s.accepted), format_bytes(s.bytes_saved),
                   format_seconds(s.seconds)});
  return table.render();
}

boost::json::array log_json(const Result& result) {
  boost::json::array passes;
  for (const PassStats& s : result.log)
    passes.push_back({{"pass", s.pass},
                      {"runs", s.runs},
                      {"tests", s.tests},
                      {"cache_hits", s.cache_hits},
                      {"skipped", s.skipped},
                      {"accepted", s.accepted},
                      {"bytes_saved", s.bytes_saved},
                      {"seconds", s.seconds}});
  return passes;
}

} // namespace cudiff::reducer
