// Candidates of every kind of IR-reduction edit (generator::ProgramReduction::kind) over many
// seeds: lone programs and batches with variants, at their start and after the coarse edits
// that open the other kinds (no core kernels: the smallest host side; the compact host side;
// one test of a batch left: the program alone). What the unit test checks the kinds of and the
// compilers test builds with nvcc and clang.
#pragma once

#include "generator/generator.h"
#include "support/test_support.h"

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace cudiff::test {

/// Every kind of edit the IR reduction offers. A kind no sample shows fails the tests, so a
/// new kind must be added here (and is then built by both compilers).
inline const std::set<std::string>& ir_edit_kinds() {
  static const std::set<std::string> kinds = {
      // a batch's tests
      "delete a test of the batch", "fold a variant back into its original", "one program instead of a batch",
      // whole parts of a test
      "delete the core kernels", "delete a dense kernel", "delete the layout probes", "delete the ABI functions",
      "delete a core kernel", "the smallest host side", "the device code alone",
      // the ABI family
      "abi: delete a function", "abi: delete a parameter",
      // core kernels and their functions
      "core: one block", "core: one warp", "core: delete a statement", "core: keep the then branch of an if",
      "core: keep the else branch of an if", "core: drop the else branch of an if",
      "core: keep the first trip of a loop", "core: one trip of a loop", "core: keep one case of a switch",
      "core: keep the default of a switch", "core: a collective's results as 0", "core: an expression as its operand",
      "core: an expression as 0", "core: delete an uncalled function",
      // compute-dense kernels
      "dense: one block", "dense: one warp", "dense: delete a function", "dense: delete top-level statements",
      "dense: delete a statement", "dense: keep the then branch of a statement",
      "dense: keep the else branch of a statement", "dense: drop the else branch of a statement",
      "dense: keep the body of a statement", "dense: keep the first trip of a statement",
      "dense: one trip of a statement", "dense: no unroll pragma on a statement",
      "dense: keep only case of a statement", "dense: delete case of a statement",
      "dense: a plain assignment for a statement", "dense: an operation as its operand", "dense: an expression as 0",
      "dense: delete a variable", "dense: a variable starts at 0", "dense: delete the base words",
      "dense: delete the local words", "dense: delete the shared words", "dense: static shared words",
      "dense: delete the global bytes", "dense: delete the atomic slots", "dense: delete the bit-field structs",
      "dense: delete the padded structs", "dense: delete the fence", "dense: plain loads and stores",
      // inline PTX
      "ptx: delete dead instructions", "ptx: an output as 0", "ptx: delete instructions", "ptx: delete an instruction",
      "ptx: an instruction's result as 0", "ptx: drop a guard"};
  return kinds;
}

/// One candidate: its edit's kind and description, and the program.
struct IrSample {
  std::string kind;
  std::string what;
  generator::TestCase program;
};

/// The generator's policy for the samples: every family on (dense kernels with inline PTX and
/// every other family, the ABI family, the core constructs the edits look into), two core
/// kernels at least, nothing a compiler rejects on purpose.
inline generator::Policy ir_sample_policy() {
  generator::Policy policy = accepted_by_both(generator::Policy::defaults());
  policy.set("dense.share", 1);
  policy.set("abi.share", 1);
  policy.set("small.kernels.min", 2);
  for (const char* family :
       {"dense_inline_ptx", "dense_switch", "dense_goto", "dense_collectives", "dense_dynamic_shared",
        "dense_shared_words", "dense_functions", "dense_loops", "dense_byte_store", "dense_bitfield_structs",
        "dense_padded_structs", "dense_fences", "dense_cache_hints"})
    policy.set(std::string("dense.family.") + family, 1);
  policy.set("dense.family.dense_early_return", 0);  // collectives come only before a return
  for (const char* construct : {"switch_statement", "device_functions", "for_loop", "if_else", "shared_exchange",
                                "warp_shuffle", "warp_vote", "warp_match", "warp_reduce", "cg_tile", "atomic_loop"})
    policy.set(std::string("construct.") + construct, 1);
  return policy;
}

namespace detail {

/// Up to one candidate of each kind `reduction` offers (a random one of its edits of that
/// kind, else the first that changes something), while a kind has fewer than `per_kind`.
inline void sample_kinds(const generator::ProgramReduction& reduction, std::mt19937_64& stream, std::size_t per_kind,
                         std::map<std::string, std::size_t>& taken, std::vector<IrSample>& samples) {
  std::map<std::string, std::vector<std::size_t>> by_kind;
  for (std::size_t i = 0; i < reduction.edits(); ++i) by_kind[reduction.kind(i)].push_back(i);
  for (auto& [kind, edits] : by_kind) {
    if (taken[kind] >= per_kind) continue;
    std::optional<generator::TestCase> found;
    std::size_t chosen = 0;
    for (int attempt = 0; attempt < 6 && !found; ++attempt) {
      chosen = edits[stream() % edits.size()];
      found = reduction.candidate(chosen);
    }
    for (std::size_t k = 0; k < edits.size() && !found; ++k) found = reduction.candidate(chosen = edits[k]);
    if (!found) continue;
    ++taken[kind];
    samples.push_back({kind, reduction.describe(chosen), std::move(*found)});
  }
}

/// Accepts the first edit of `kind` that changes something; false when there is none.
inline bool accept_kind(generator::ProgramReduction& reduction, const std::string& kind) {
  for (std::size_t i = 0; i < reduction.edits(); ++i)
    if (reduction.kind(i) == kind && reduction.candidate(i)) {
      reduction.accept(i);
      return true;
    }
  return false;
}

} // namespace detail

/// Whether a kind edits inside a test (not whole tests, kernels or the host side).
inline bool fine_kind(const std::string& kind) {
  return kind.starts_with("core: ") || kind.starts_with("dense: ") || kind.starts_with("abi: ") ||
         kind.starts_with("ptx: ");
}

/// Candidates of every kind over `seeds`, at most `per_kind` of each kind.
inline std::vector<IrSample> ir_samples(const std::vector<std::uint64_t>& seeds, std::size_t per_kind) {
  const generator::Policy policy = ir_sample_policy();
  std::vector<IrSample> samples;
  std::map<std::string, std::size_t> taken;
  for (std::uint64_t seed : seeds) {
    std::mt19937_64 stream(seed);
    // A lone program along a random walk of the edits inside it (kernels shrink until their
    // variables, words and functions are unused); then with only its dense kernels; then on
    // the compact host side.
    generator::ProgramReduction lone(policy, seed, generator::Size::small);
    detail::sample_kinds(lone, stream, per_kind, taken, samples);
    for (int step = 1; step <= 120; ++step) {
      for (int attempt = 0; attempt < 20; ++attempt) {
        const std::size_t edit = stream() % lone.edits();
        if (!fine_kind(lone.kind(edit)) || !lone.candidate(edit)) continue;
        lone.accept(edit);
        break;
      }
      if (step % 40 == 0) detail::sample_kinds(lone, stream, per_kind, taken, samples);
    }
    if (detail::accept_kind(lone, "delete the core kernels")) {
      detail::sample_kinds(lone, stream, per_kind, taken, samples);
      if (detail::accept_kind(lone, "the smallest host side")) {
        // Greedily to the end (the first edit that changes something, each time), through the
        // states where nothing reads the base words or the input any more. Sampled at every
        // step: a kernel-wide part's edit comes early in the list, so the walk takes it in the
        // step after it is first offered.
        for (;;) {
          detail::sample_kinds(lone, stream, per_kind, taken, samples);
          std::size_t edit = 0;
          while (edit < lone.edits() && !lone.candidate(edit)) ++edit;
          if (edit == lone.edits()) break;
          lone.accept(edit);
        }
        detail::sample_kinds(lone, stream, per_kind, taken, samples);
      }
    }
    // A batch of the seed with two variants; then its last test alone.
    generator::ProgramReduction batch(policy, std::vector<std::uint64_t>{seed}, generator::Size::small, 2);
    detail::sample_kinds(batch, stream, per_kind, taken, samples);
    while (detail::accept_kind(batch, "delete a test of the batch")) {
    }
    detail::sample_kinds(batch, stream, per_kind, taken, samples);
  }
  return samples;
}

} // namespace cudiff::test
