// runners: a launch description — how to run one kernel of a cubin or a PTX module with no host
// program (the executor's `launch` request; docs/runners.md, "Launching a module").
//
// Why a description rather than a host program: a PTX module a person or another fuzzer gives
// (a ptxas reproducer) has no host side, and building one per level would test the host
// compiler and the runtime too. The description says what a host program would have said.
//
// The JSON form (`cudiff check FILE.ptx --launch DESC.json`):
//
//   {
//     "kernel": "fuzz_kernel",           // the entry's name, as in the module (mangled if it is)
//     "grid": [1, 1, 1],                 // 1 to 3 numbers, or one number; missing ones are 1
//     "block": [32],
//     "shared_bytes": 0,                 // dynamic shared memory; optional, default 0
//     "params": [                        // the kernel's parameters, in order
//       {"buffer": "out_ptr", "element_bytes": 4, "count": 128, "fill": 0, "print": true},
//       {"buffer": "in_ptr", "element_bytes": 4, "count": 4, "fill": [1, 2, "0xffffffff", 4]},
//       {"scalar": "n", "type": "u32", "value": 32},
//       {"bytes": "gc", "size": 12, "data": "0100000002000000ffff0000"}
//     ],
//     "stack_bytes": 4096,               // optional: the device stack per thread (cuCtxSetLimit)
//     "symbols": [                       // optional: __device__ variables set before the launch
//       {"symbol": "dense_0_atom32", "element_bytes": 4, "count": 8, "fill": [...]}
//     ],
//     "checksums": [                     // optional: lines a generated program's harness prints
//       {"label": "dense_0", "fold": ["out_ptr", "dense_0_atom32"]}
//     ]
//   }
//
// A buffer is device memory of `count` elements of `element_bytes` (1, 2, 4 or 8) bytes, passed
// as its 64-bit address. `fill` is one word every element gets, or a list of exactly `count`
// words; a word is a JSON integer or a "0x..." string, and must fit the element. `print`
// (default false) prints the buffer after the run. A scalar is passed by value: `type` is one
// of u8 u16 u32 u64 s8 s16 s32 s64 f32 f64; `value` a number (or a "0x..." string: the raw
// bits). A bytes parameter is passed by value as raw bytes: a struct by value (a generated
// kernel's `__grid_constant__` struct), `size` bytes, `data` their 2 * size hex digits in memory
// order (padding included). Anything else (an unknown key, a value out of range, a block over 1024 threads, more
// than 1 GiB of buffers) is refused with one line naming the place.
//
// A symbol is a `__device__` variable of the module (its name as in the module: mangled when it
// is), found with cuModuleGetGlobal; it must be exactly `count` elements of `element_bytes`, and
// gets `fill` as a buffer does before the kernel runs.
//
// What a run prints (the executor; the output oracle compares it between configs), one line per
// printed buffer: `NAME[0..COUNT) fnv1a64 <16 hex digits>: <first 8 elements in hex>`, the hash
// over the buffer's bytes as the device left them; then one line per checksum:
// `checksum LABEL <16 hex digits>`, the generated programs' `cudiff_fold` (FNV-1a over 64-bit
// words: hash ^= word, hash *= 0x100000001b3, from 0xcbf29ce484222325) over the elements of the
// buffers and symbols `fold` names, in order, each zero-extended to 64 bits, as the device left
// them: the line the program's harness prints for that kernel (a generated kernel's launch plan,
// docs/pipeline.md, "Build paths").
#pragma once

#include "common/common.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff::runners {

/// One kernel parameter.
struct LaunchParam {
  enum class Kind { buffer, scalar, bytes };
  Kind kind = Kind::buffer;
  std::string name;
  // A buffer's:
  std::uint32_t element_bytes = 4;
  std::uint64_t count = 0;
  std::vector<std::uint64_t> fill;  ///< one word for every element, or `count` words
  bool print = false;
  // A scalar's:
  std::string type;        ///< "u32", "f64", ...
  std::uint64_t bits = 0;  ///< the value as the kernel receives it, in the type's bytes
  // A bytes parameter's: what the kernel receives, in memory order.
  std::vector<std::uint8_t> data;
  /// The bytes the kernel gets: a buffer's address, the scalar's type, or a bytes parameter's size.
  std::uint32_t param_bytes() const;
  bool operator==(const LaunchParam&) const = default;
};

/// A `__device__` variable of the module, set before the launch.
struct LaunchSymbol {
  std::string name;
  std::uint32_t element_bytes = 4;
  std::uint64_t count = 0;
  std::vector<std::uint64_t> fill;  ///< one word for every element, or `count` words
  bool operator==(const LaunchSymbol&) const = default;
};

/// A `checksum LABEL HASH` line: cudiff_fold over the named buffers' and symbols' elements.
struct LaunchChecksum {
  std::string label;
  std::vector<std::string> fold;  ///< names of buffers or symbols, in fold order
  bool operator==(const LaunchChecksum&) const = default;
};

struct LaunchDescription {
  std::string kernel;
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint32_t shared_bytes = 0;
  std::vector<LaunchParam> params;
  std::uint32_t stack_bytes = 0;  ///< 0: the context's limit as it is
  std::vector<LaunchSymbol> symbols;
  std::vector<LaunchChecksum> checksums;
  bool operator==(const LaunchDescription&) const = default;
};

/// cudiff_fold of the generated programs' harness: FNV-1a over 64-bit words.
std::uint64_t cudiff_fold(const std::vector<std::uint64_t>& words);
/// `checksum LABEL <16 lowercase hex digits>`, as the harness's printf("checksum ... %016llx") prints it.
std::string checksum_line(std::string_view label, std::uint64_t hash);

/// Parses the JSON form above. Throws Error(usage) with one line ("launch description: params[1]
/// (in_ptr): fill has 3 words, count is 4") for anything that is not a valid description.
LaunchDescription parse_launch(std::string_view json);
/// The same from a file; a file that cannot be read is Error(environment).
LaunchDescription read_launch(const std::filesystem::path& file);
/// The JSON form, which parse_launch reads back to the same description.
boost::json::value to_json(const LaunchDescription& launch);
/// The form cudiff-executor reads (it links no JSON library): one line per item, numbers in
/// decimal, words in hex ("kernel NAME", "grid X Y Z", "block X Y Z", "shared N", "buffer NAME
/// ELEMENT_BYTES COUNT PRINT FILL_WORDS WORD...", "scalar NAME BYTES BITS", "bytes NAME SIZE HEX",
/// "stack BYTES",
/// "symbol NAME ELEMENT_BYTES COUNT FILL_WORDS WORD...", "checksum LABEL PARTS NAME...").
std::string executor_text(const LaunchDescription& launch);
/// Several descriptions in one file, each from its `kernel` line: the executor loads the module
/// once and launches them in order.
std::string executor_text(const std::vector<LaunchDescription>& launches);

} // namespace cudiff::runners
