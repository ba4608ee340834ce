// pipeline: the IR stage of a reduction — which generated program or batch a reproducer is
// (the generator must make it again byte for byte), and the loop that applies the generator's
// edits under a test, `jobs` candidates at a time.
#include "pipeline/ir_reduce.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <future>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>

#include <unistd.h>

namespace cudiff::pipeline {
namespace {

/// The value of a `// key: value` line of a generated program's header; "" when absent.
std::string header_value(const std::string& source, const std::string& key) {
  std::istringstream lines(source);
  std::string line;
  const std::string prefix = "// " + key + ": ";
  for (int n = 0; n < 8 && std::getline(lines, line); ++n)
    if (line.starts_with(prefix)) return line.substr(prefix.size());
  return "";
}

/// How many variants each seed of a batch has: the largest J of its `// ---- seed S variant J
/// ----` lines (generate_batch writes one before each test).
int variants_in(const std::string& source) {
  int variants = 0;
  const std::string marker = "\n// ---- seed ";
  for (std::size_t at = source.find(marker); at != std::string::npos; at = source.find(marker, at + 1)) {
    const std::size_t end = source.find('\n', at + 1);
    const std::string line = source.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    const std::size_t word = line.find(" variant ");
    if (word == std::string::npos) continue;
    try {
      variants = std::max(variants, std::stoi(line.substr(word + 9)));
    } catch (const std::exception&) {
    }
  }
  return variants;
}

std::vector<std::uint64_t> parse_seeds(const std::string& list) {
  std::vector<std::uint64_t> seeds;
  std::istringstream words(list);
  std::string word;
  while (words >> word) seeds.push_back(std::stoull(word));
  return seeds;
}

/// The test a finding's first differing kernel belongs to: "s<seed>v<j>/kernel_0" gives (seed,
/// j), "s<seed>/kernel_0" (seed, 0); none for a finding that names no batch kernel.
std::optional<std::pair<std::uint64_t, int>> test_of_finding(const triage::StoredFinding& finding) {
  const auto* object = finding.details.if_object();
  const auto* kernels = object == nullptr ? nullptr : object->if_contains("differing_kernels");
  if (kernels == nullptr || !kernels->is_array() || kernels->as_array().empty() ||
      !kernels->as_array().front().is_string())
    return std::nullopt;
  const std::string label(kernels->as_array().front().as_string());
  const std::size_t slash = label.find('/');
  if (!label.starts_with("s") || slash == std::string::npos) return std::nullopt;
  const std::string test = label.substr(1, slash - 1);
  const std::size_t v = test.find('v');
  try {
    return std::pair<std::uint64_t, int>{std::stoull(test.substr(0, v)),
                                         v == std::string::npos ? 0 : std::stoi(test.substr(v + 1))};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

/// The generator policy stored with a finding's campaign, if one was.
std::optional<generator::Policy> campaign_policy(const triage::Database& db, const std::string& campaign_id) {
  const std::optional<std::string> text = db.campaign_params(campaign_id);
  if (!text) return std::nullopt;
  boost::system::error_code ec;
  const boost::json::value json = boost::json::parse(*text, ec);
  const auto* object = ec ? nullptr : json.if_object();
  if (object == nullptr) return std::nullopt;
  if (const auto* policy = object->if_contains("policy"); policy != nullptr && policy->is_string())
    return generator::Policy::load(policy->as_string());
  return std::nullopt;
}

/// What names a program among those a reduction has been at: its text without the header line
/// that counts the edits kept (which every step changes).
std::uint64_t program_key(const std::string& source) {
  const std::size_t at = source.find("reduced from ");
  if (at == std::string::npos) return fnv1a64(source);
  const std::size_t start = source.rfind('\n', at), end = source.find('\n', at);
  std::string text = source;
  text.erase(start == std::string::npos ? 0 : start, end == std::string::npos ? std::string::npos : end - start);
  return fnv1a64(text);
}

std::size_t line_count(const std::string& text) { return static_cast<std::size_t>(std::ranges::count(text, '\n')); }

} // namespace

std::optional<GeneratedOrigin> generated_origin_of(const std::string& source, const generator::Policy& policy,
                                                   std::string& why_not) {
  const std::string version = header_value(source, "generator version");
  if (version.empty()) {
    why_not = "not a generated program";
    return std::nullopt;
  }
  if (version != generator::kGeneratorVersion) {
    why_not = "made by generator " + version + ", this is " + std::string(generator::kGeneratorVersion);
    return std::nullopt;
  }
  GeneratedOrigin origin;
  origin.policy = policy;
  origin.batch = source.starts_with("// cudiff generated batch");
  try {
    origin.seeds = parse_seeds(header_value(source, origin.batch ? "seeds" : "seed"));
    if (origin.seeds.empty() || (!origin.batch && origin.seeds.size() != 1)) {
      why_not = "its header names no seed";
      return std::nullopt;
    }
    origin.seed = origin.seeds.front();
    origin.size = generator::parse_size(header_value(source, "size"));
    if (policy.hash() != header_value(source, "policy hash")) {
      why_not = "its policy is not stored with its campaign (give it with --policy FILE)";
      return std::nullopt;
    }
    origin.variants = origin.batch ? variants_in(source) : 0;
    // Only a program the generator makes again byte for byte is reduced from its IR.
    const std::string again = origin.batch
                                  ? generator::generate_batch(policy, origin.seeds, origin.size, origin.variants).source
                                  : generator::generate_program(policy, origin.seed, origin.size).source;
    if (again != source) {
      why_not = "the generator does not make the same program again";
      return std::nullopt;
    }
  } catch (const Error& error) {
    why_not = error.what();
    return std::nullopt;
  } catch (const std::exception&) {
    why_not = "its header names no seed";
    return std::nullopt;
  }
  return origin;
}

std::optional<GeneratedOrigin> generated_origin(const triage::Database& db, const triage::StoredFinding& finding,
                                                std::string& why_not, const std::optional<generator::Policy>& given) {
  generator::Policy policy = generator::Policy::defaults();
  try {
    policy = campaign_policy(db, finding.campaign_id).value_or(policy);
  } catch (const Error& error) {
    why_not = error.what();
    return std::nullopt;
  }
  // A policy given by hand is the one when the program's header names its hash.
  if (given && given->hash() == header_value(finding.source, "policy hash")) policy = *given;
  std::optional<GeneratedOrigin> origin = generated_origin_of(finding.source, policy, why_not);
  if (!origin) return std::nullopt;
  if (const auto test = test_of_finding(finding)) {
    if (std::ranges::find(origin->seeds, test->first) == origin->seeds.end()) {
      why_not = "its finding names a kernel of seed " + std::to_string(test->first) + ", which the batch does not hold";
      return std::nullopt;
    }
    origin->seed = test->first;
    origin->variant = test->second;
  }
  return origin;
}

generator::ProgramReduction program_reduction(const GeneratedOrigin& origin) {
  if (origin.batch) return {origin.policy, origin.seeds, origin.size, origin.variants};
  return {origin.policy, origin.seeds.front(), origin.size};
}

IrReduction reduce_ir(generator::ProgramReduction& reduction, const IrTest& test, const IrOptions& options,
                      std::ostream& err) {
  IrReduction result;
  result.original_lines = line_count(reduction.current().source);
  const double started = unix_seconds();
  auto elapsed = [&] { return unix_seconds() - started; };
  auto out_of_time = [&] { return options.time_limit_seconds > 0 && elapsed() >= options.time_limit_seconds; };
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  double last_progress = -1e9;
  auto progress = [&](std::size_t edit) {
    if (!terminal && elapsed() - last_progress < 10) return;
    last_progress = elapsed();
    const std::string line = "ir-reduce: " + std::to_string(result.original_lines) + " -> " +
                             std::to_string(line_count(reduction.current().source)) + " lines | edit " +
                             std::to_string(edit) + "/" + std::to_string(reduction.edits()) + " | " +
                             std::to_string(result.accepted) + " accepted, " + std::to_string(result.tests) +
                             " tests | " + format_seconds(elapsed());
    if (terminal) err << "\r" << line << "\x1b[K" << std::flush;
    else err << line << "\n" << std::flush;
  };
  const std::size_t jobs = std::max<std::size_t>(1, options.jobs);
  // Every program the reduction has been at: an edit that leads back to one (two edits that
  // undo each other) is not tested, so the reduction never cycles.
  std::set<std::uint64_t> visited = {program_key(reduction.current().source)};
  // And every candidate a test failed, by the same key: two edits may make one program (a
  // kernel's dead parts are offered twice, before and after its statements), and a test gives
  // the same answer again. Only answers read are here: a test told to stop is never read.
  std::set<std::uint64_t> failed;
  // The candidates of the current program in flight, by the same key: one that is there already
  // is not started again, since the first in edit order decides.
  std::set<std::uint64_t> launched;
  // The edits are tested `jobs` at a time as a pipeline, not in windows: a slot that ends
  // takes the next edit at once, and the results are read in edit order, so the first kept
  // edit in order wins, as a sequential run would take it. A window waited for its slowest
  // candidate (one that keeps the bug is four builds, four runs and the sanitizer; one that
  // loses it, a build) while the other slots stood idle.
  struct InFlight {
    std::size_t edit = 0;
    std::shared_ptr<const generator::TestCase> candidate;  // for options.confirm and `failed`
    std::future<bool> verdict;
  };
  std::deque<InFlight> in_flight;          // tests of the current program, in edit order
  std::vector<std::future<bool>> stale;    // tests of a program left behind: they end unread
  std::stop_source current;                // stopped when the current program is left behind
  const auto slots_taken = [&] {
    std::erase_if(stale, [](const std::future<bool>& f) {
      return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    });
    return in_flight.size() + stale.size();
  };
  const auto leave_current = [&] {
    for (InFlight& later : in_flight) stale.push_back(std::move(later.verdict));
    in_flight.clear();
    launched.clear();
    current.request_stop();
    current = std::stop_source{};
  };
  // The confirm step of the edit kept last, still running. The edit is kept at once and the
  // next edits are tested on top of it: the confirm step (the sanitizer, 5 to 8 s on an H100)
  // nearly always says yes, and waiting for it left every slot idle for that long, once per
  // kept edit (27 times for 25 edits: 150 s of a 321 s stage). A no goes back to `before`
  // and on with the next edit, which is what a sequential run does.
  struct Unconfirmed {
    generator::ProgramReduction before;
    std::size_t edit = 0;
    std::future<bool> verdict;
  };
  std::optional<Unconfirmed> unconfirmed;
  std::size_t next = 0;
  // Waits for the confirm step, if one runs (`wait`; else only when it has ended). False when
  // it said no: the reduction is back where it was and `next` after the refused edit.
  const auto settle = [&](bool wait) {
    if (!unconfirmed) return true;
    if (!wait && unconfirmed->verdict.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return true;
    const bool yes = unconfirmed->verdict.get();
    if (yes) {
      if (options.on_improvement) options.on_improvement(reduction.current());
    } else {
      leave_current();
      reduction = std::move(unconfirmed->before);
      next = unconfirmed->edit + 1;
      result.log.pop_back();
      --result.accepted;
      ++result.refused;
    }
    unconfirmed.reset();
    return yes;
  };
  for (bool progressed = true; progressed && !out_of_time();) {
    progressed = false;
    ++result.rounds;
    for (next = 0; !out_of_time();) {
      settle(false);
      while (next < reduction.edits() && slots_taken() < jobs) {
        std::optional<generator::TestCase> candidate = reduction.candidate(next);
        const std::uint64_t key = candidate ? program_key(candidate->source) : 0;
        if (candidate && !visited.contains(key) && !failed.contains(key) && launched.insert(key).second) {
          ++result.tests;
          auto shared = std::make_shared<const generator::TestCase>(std::move(*candidate));
          in_flight.push_back(
              {next, shared, std::async(std::launch::async, [&test, shared, token = current.get_token()] {
                 return test(*shared, token);
               })});
        }
        ++next;
      }
      if (in_flight.empty()) {
        if (next >= reduction.edits()) {
          if (settle(true)) break;  // the round is over
          continue;                 // the last kept edit was refused: on after it
        }
        stale.front().wait();  // every slot is a stale test's: wait for one
        continue;
      }
      InFlight first = std::move(in_flight.front());
      in_flight.pop_front();
      const bool passed = first.verdict.get();
      progress(first.edit);
      if (!passed) {
        failed.insert(program_key(first.candidate->source));
        continue;
      }
      // A test of a program the confirm step may still refuse: it counts once that said yes.
      if (!settle(true)) continue;
      std::optional<generator::ProgramReduction> before;
      if (options.confirm) before = reduction;
      leave_current();
      result.log.push_back(reduction.describe(first.edit));
      reduction.accept(first.edit);
      visited.insert(program_key(reduction.current().source));
      ++result.accepted;
      progressed = true;
      next = first.edit;  // the same number names the next edit now
      if (before)
        unconfirmed = Unconfirmed{std::move(*before), first.edit,
                                  std::async(std::launch::async, [&options, candidate = first.candidate] {
                                    return options.confirm(*candidate);
                                  })};
      else if (options.on_improvement) options.on_improvement(reduction.current());
    }
  }
  // A confirm step still running decides its edit: it is not stopped, as it takes seconds.
  settle(true);
  // Out of time: the tests still running end before this returns (their futures wait), told to
  // stop, since none of their results will be read.
  current.request_stop();
  in_flight.clear();
  stale.clear();
  if (terminal) err << "\n";
  for (const std::string& edit : result.log) err << "ir-reduce: kept " << edit << "\n";
  if (result.refused > 0)
    err << "ir-reduce: the confirm step refused " << result.refused << " edit(s) kept before it ended: went back\n";
  result.stopped_early = out_of_time();
  result.seconds = elapsed();
  result.program = reduction.current();
  return result;
}

} // namespace cudiff::pipeline
