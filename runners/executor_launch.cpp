// cudiff-executor: a module and a launch description in, a kernel run, its buffers printed
// (runners/executor_launch.h). Built without CUDA headers, like executor_main.cpp: the driver is
// loaded by name and called through the few entry points below, by their stable C ABI.
#include "runners/executor_launch.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

namespace cudiff::executor {
namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;
constexpr int kJitErrorLogBuffer = 5;           // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogBufferBytes = 6;      // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
constexpr int kMaxDynamicSharedBytes = 8;       // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr unsigned kDefaultSharedBytes = 48 << 10;  // above it a kernel must opt in
constexpr std::size_t kPrintedElements = 8;
constexpr int kLimitStackSize = 0;              // CU_LIMIT_STACK_SIZE

struct Driver {
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*device_get)(int*, int) = nullptr;
  CUresult (*primary_retain)(void**, int) = nullptr;
  CUresult (*set_current)(void*) = nullptr;
  CUresult (*load)(void**, const void*, unsigned, int*, void**) = nullptr;
  CUresult (*unload)(void*) = nullptr;
  CUresult (*get_function)(void**, void*, const char*) = nullptr;
  CUresult (*param_info)(void*, std::size_t, std::size_t*, std::size_t*) = nullptr;  // CUDA 12.4+
  CUresult (*set_attribute)(void*, int, int) = nullptr;
  CUresult (*alloc)(CUdeviceptr*, std::size_t) = nullptr;
  CUresult (*free)(CUdeviceptr) = nullptr;
  CUresult (*to_device)(CUdeviceptr, const void*, std::size_t) = nullptr;
  CUresult (*to_host)(void*, CUdeviceptr, std::size_t) = nullptr;
  CUresult (*launch)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                     void**) = nullptr;
  CUresult (*synchronize)() = nullptr;
  CUresult (*error_name)(CUresult, const char**) = nullptr;
  CUresult (*get_global)(CUdeviceptr*, std::size_t*, void*, const char*) = nullptr;
  CUresult (*set_limit)(int, std::size_t) = nullptr;
  CUresult (*get_limit)(std::size_t*, int) = nullptr;
  std::string problem;  ///< why the driver cannot be used; empty once it is ready
  bool tried = false;
};

template <typename F>
bool bind(void* library, const char* name, F& function) {
  function = reinterpret_cast<F>(::dlsym(library, name));
  return function != nullptr;
}

Driver& driver() {
  static Driver d;
  if (d.tried) return d;
  d.tried = true;
  void* library = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) {
    d.problem = std::string("no CUDA driver: ") + ::dlerror();
    return d;
  }
  if (!bind(library, "cuInit", d.init) || !bind(library, "cuDeviceGet", d.device_get) ||
      !bind(library, "cuDevicePrimaryCtxRetain", d.primary_retain) ||
      !bind(library, "cuCtxSetCurrent", d.set_current) || !bind(library, "cuModuleLoadDataEx", d.load) ||
      !bind(library, "cuModuleUnload", d.unload) || !bind(library, "cuModuleGetFunction", d.get_function) ||
      !bind(library, "cuFuncSetAttribute", d.set_attribute) || !bind(library, "cuMemAlloc_v2", d.alloc) ||
      !bind(library, "cuMemFree_v2", d.free) || !bind(library, "cuMemcpyHtoD_v2", d.to_device) ||
      !bind(library, "cuMemcpyDtoH_v2", d.to_host) || !bind(library, "cuLaunchKernel", d.launch) ||
      !bind(library, "cuCtxSynchronize", d.synchronize) || !bind(library, "cuGetErrorName", d.error_name) ||
      !bind(library, "cuModuleGetGlobal_v2", d.get_global) || !bind(library, "cuCtxSetLimit", d.set_limit) ||
      !bind(library, "cuCtxGetLimit", d.get_limit)) {
    d.problem = "the CUDA driver lacks an expected entry point";
    return d;
  }
  bind(library, "cuFuncGetParamInfo", d.param_info);  // optional: older drivers lack it
  int device = 0;
  void* context = nullptr;
  CUresult status = d.init(0);
  if (status == 0) status = d.device_get(&device, 0);
  // The primary context: the one the runtime made for the programs this executor runs.
  if (status == 0) status = d.primary_retain(&context, device);
  if (status == 0) status = d.set_current(context);
  if (status != 0) d.problem = "no CUDA context (CUresult " + std::to_string(status) + ")";
  return d;
}

std::string error_text(CUresult status) {
  const char* name = nullptr;
  if (driver().error_name(status, &name) != 0 || name == nullptr) name = "CUDA_ERROR_UNKNOWN";
  return std::string(name) + " (" + std::to_string(status) + ")";
}

struct Buffer {
  std::string name;
  unsigned element_bytes = 4;
  std::uint64_t count = 0;
  bool print = false;
  std::vector<std::uint64_t> fill;
  CUdeviceptr device = 0;
};

/// A __device__ variable of the module (a symbol line), and a checksum line's fold.
struct Symbol {
  std::string name;
  unsigned element_bytes = 4;
  std::uint64_t count = 0;
  std::vector<std::uint64_t> fill;
  CUdeviceptr device = 0;
};

struct Checksum {
  std::string label;
  std::vector<std::string> fold;
};

struct Param {
  bool buffer = false;
  std::size_t index = 0;  ///< into buffers
  unsigned bytes = 0;
  std::uint64_t bits = 0;
  std::vector<unsigned char> raw;  ///< a bytes parameter's (a struct by value); empty for the others
};

struct Description {
  std::string kernel;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, shared = 0;
  std::vector<Buffer> buffers;
  std::vector<Param> params;
  unsigned long stack = 0;
  std::vector<Symbol> symbols;
  std::vector<Checksum> checksums;
};

/// "N WORD..." of a buffer or symbol line, in hex after the count.
bool read_fill(std::istringstream& words, std::uint64_t count, std::vector<std::uint64_t>& fill) {
  std::size_t given = 0;
  words >> given >> std::hex;
  for (std::size_t i = 0; i < given; ++i) {
    std::uint64_t w = 0;
    words >> w;
    fill.push_back(w);
  }
  words >> std::dec;
  return !fill.empty() && (fill.size() == 1 || fill.size() == count);
}

/// Reads runners::executor_text's lines, one description from each `kernel` line; false with
/// `why` on anything else (cudiff wrote it).
bool read_descriptions(const std::string& path, std::vector<Description>& all, std::string& why) {
  std::ifstream in(path);
  if (!in) return why = "cannot read " + path, false;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string what;
    words >> what;
    if (what == "kernel") all.emplace_back();
    else if (!what.empty() && all.empty()) return why = "no kernel named before: " + line, false;
    if (what.empty()) continue;
    Description& d = all.back();
    if (what == "kernel") words >> d.kernel;
    else if (what == "grid") words >> d.grid[0] >> d.grid[1] >> d.grid[2];
    else if (what == "block") words >> d.block[0] >> d.block[1] >> d.block[2];
    else if (what == "shared") words >> d.shared;
    else if (what == "stack") words >> d.stack;
    else if (what == "symbol") {
      Symbol symbol;
      words >> symbol.name >> symbol.element_bytes >> symbol.count;
      if (!read_fill(words, symbol.count, symbol.fill)) return why = "bad fill of " + symbol.name, false;
      d.symbols.push_back(std::move(symbol));
    } else if (what == "checksum") {
      Checksum checksum;
      std::size_t parts = 0;
      words >> checksum.label >> parts;
      for (std::size_t i = 0; i < parts && words; ++i) {
        std::string part;
        words >> part;
        checksum.fold.push_back(part);
      }
      d.checksums.push_back(std::move(checksum));
    } else if (what == "buffer") {
      Buffer b;
      std::size_t words_given = 0;
      int print = 0;
      words >> b.name >> b.element_bytes >> b.count >> print >> words_given >> std::hex;
      b.print = print != 0;
      for (std::size_t i = 0; i < words_given; ++i) {
        std::uint64_t w = 0;
        words >> w;
        b.fill.push_back(w);
      }
      if (b.fill.empty() || (b.fill.size() != 1 && b.fill.size() != b.count))
        return why = "bad fill of " + b.name, false;
      d.params.push_back({true, d.buffers.size(), 8, 0, {}});
      d.buffers.push_back(std::move(b));
    } else if (what == "scalar") {
      std::string name;
      Param p;
      words >> name >> p.bytes >> std::hex >> p.bits;
      d.params.push_back(p);
    } else if (what == "bytes") {
      std::string name, hex;
      Param p;
      words >> name >> p.bytes >> hex;
      if (p.bytes == 0 || hex.size() != 2 * std::size_t{p.bytes} ||
          hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        return why = "bad bytes of " + name, false;
      for (std::size_t i = 0; i < p.bytes; ++i)
        p.raw.push_back(static_cast<unsigned char>(std::strtoul(hex.substr(2 * i, 2).c_str(), nullptr, 16)));
      d.params.push_back(std::move(p));
    } else if (!what.empty()) return why = "unknown line: " + line, false;
    if (words.fail()) return why = "bad line: " + line, false;
  }
  if (all.empty()) return why = "no kernel named", false;
  for (const Description& d : all)
    if (d.kernel.empty()) return why = "no kernel named", false;
  return true;
}

std::string element_hex(const unsigned char* bytes, unsigned element_bytes) {
  std::uint64_t value = 0;
  std::memcpy(&value, bytes, element_bytes);  // little-endian, as the device wrote it
  char text[24];
  std::snprintf(text, sizeof text, "%0*llx", static_cast<int>(element_bytes * 2),
                static_cast<unsigned long long>(value));
  return text;
}

/// `NAME[0..COUNT) fnv1a64 HASH: first elements` (runners/launch.h).
void print_buffer(const Buffer& b, const std::vector<unsigned char>& host) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char byte : host) hash = (hash ^ byte) * 0x100000001b3ull;
  std::string line = b.name + "[0.." + std::to_string(b.count) + ") fnv1a64 ";
  char text[24];
  std::snprintf(text, sizeof text, "%016llx:", static_cast<unsigned long long>(hash));
  line += text;
  for (std::size_t i = 0; i < b.count && i < kPrintedElements; ++i)
    line += " " + element_hex(host.data() + i * b.element_bytes, b.element_bytes);
  std::printf("%s\n", line.c_str());
}

/// Every element of `bytes` (elements of `element_bytes`), zero-extended, appended to `words`.
void append_words(const std::vector<unsigned char>& bytes, unsigned element_bytes, std::vector<std::uint64_t>& words) {
  for (std::size_t at = 0; at + element_bytes <= bytes.size(); at += element_bytes) {
    std::uint64_t value = 0;
    std::memcpy(&value, bytes.data() + at, element_bytes);  // little-endian
    words.push_back(value);
  }
}

/// The fill of `count` elements of `element_bytes` as bytes.
std::vector<unsigned char> filled(const std::vector<std::uint64_t>& fill, std::uint64_t count, unsigned element_bytes) {
  std::vector<unsigned char> host(count * element_bytes);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t w = fill.size() == 1 ? fill.front() : fill[i];
    std::memcpy(host.data() + i * element_bytes, &w, element_bytes);
  }
  return host;
}

/// A step that failed: its CUDA error on stderr (the output oracle reads it), and the reply.
LaunchReply failed(const std::string& step, CUresult status, const std::string& detail, bool poisoned) {
  const std::string error = status == 0 ? "" : error_text(status);
  std::fprintf(stderr, "cudiff-executor: %s failed: %s%s%s\n", step.c_str(), error.c_str(),
               error.empty() || detail.empty() ? "" : ": ", detail.c_str());
  return {"launch-failed\t" + step + "\t" + std::to_string(status) + "\t" + (error.empty() ? detail : error) + "\t" +
              (poisoned ? "1" : "0"),
          poisoned};
}

/// One kernel of the loaded module, run as `desc` says: its lines printed, or the failing step.
LaunchReply launch_kernel(Driver& d, void* loaded, Description& desc) {
  void* function = nullptr;
  if (const CUresult status = d.get_function(&function, loaded, desc.kernel.c_str()); status != 0)
    return failed("kernel lookup", status, desc.kernel, false);
  // The kernel's own parameter list, where the driver tells it: a description that does not
  // match would make the launch read past the values given.
  if (d.param_info != nullptr) {
    std::size_t n = 0, offset = 0, size = 0;
    for (; d.param_info(function, n, &offset, &size) == 0; ++n)
      if (n < desc.params.size() && size != desc.params[n].bytes)
        return failed("parameters", 0,
                      "parameter " + std::to_string(n) + " is " + std::to_string(size) +
                          " bytes, the description gives " + std::to_string(desc.params[n].bytes),
                      false);
    if (n != desc.params.size())
      return failed("parameters", 0,
                    desc.kernel + " takes " + std::to_string(n) + " parameters, the description gives " +
                        std::to_string(desc.params.size()),
                    false);
  }
  if (desc.shared > kDefaultSharedBytes)
    d.set_attribute(function, kMaxDynamicSharedBytes, static_cast<int>(desc.shared));
  // The device stack a generated program's main asks for before its first launch. The context is
  // shared with the programs this executor runs, each of which sets its own.
  if (desc.stack != 0) {
    std::size_t current = 0;
    if (d.get_limit(&current, kLimitStackSize) != 0 || current != desc.stack)
      if (const CUresult status = d.set_limit(kLimitStackSize, desc.stack); status != 0)
        return failed("stack limit", status, std::to_string(desc.stack) + " bytes", false);
  }
  // The module's __device__ variables, as a program's cudaMemcpyToSymbol sets them.
  for (Symbol& symbol : desc.symbols) {
    std::size_t bytes = 0;
    if (const CUresult status = d.get_global(&symbol.device, &bytes, loaded, symbol.name.c_str()); status != 0)
      return failed("symbol lookup", status, symbol.name, false);
    if (bytes != symbol.count * symbol.element_bytes)
      return failed("symbol lookup", 0,
                    symbol.name + " is " + std::to_string(bytes) + " bytes, the description gives " +
                        std::to_string(symbol.count * symbol.element_bytes),
                    false);
    const std::vector<unsigned char> host = filled(symbol.fill, symbol.count, symbol.element_bytes);
    if (const CUresult status = d.to_device(symbol.device, host.data(), host.size()); status != 0)
      return failed("copy to the device", status, symbol.name, true);
  }

  struct Frees {
    Driver& d;
    std::vector<Buffer>& buffers;
    ~Frees() {
      for (Buffer& b : buffers)
        if (b.device != 0) d.free(b.device);
    }
  } frees{d, desc.buffers};
  for (Buffer& b : desc.buffers) {
    const std::size_t bytes = b.count * b.element_bytes;
    if (const CUresult status = d.alloc(&b.device, bytes); status != 0)
      return failed("allocation", status, b.name, false);
    const std::vector<unsigned char> host = filled(b.fill, b.count, b.element_bytes);
    if (const CUresult status = d.to_device(b.device, host.data(), bytes); status != 0)
      return failed("copy to the device", status, b.name, true);
  }
  std::vector<std::uint64_t> slots(desc.params.size());
  std::vector<void*> arguments;
  for (std::size_t i = 0; i < desc.params.size(); ++i) {
    const Param& p = desc.params[i];
    slots[i] = p.buffer ? desc.buffers[p.index].device : p.bits;  // little-endian: the low bytes
    // A struct by value: the driver copies its size (checked above) from the bytes as given.
    arguments.push_back(p.raw.empty() ? static_cast<void*>(&slots[i]) : static_cast<void*>(desc.params[i].raw.data()));
  }
  if (const CUresult status = d.launch(function, desc.grid[0], desc.grid[1], desc.grid[2], desc.block[0], desc.block[1],
                                       desc.block[2], desc.shared, nullptr, arguments.data(), nullptr);
      status != 0)
    return failed("launch", status, "", true);
  // A hang stays here: the parent's time limit ends the executor.
  if (const CUresult status = d.synchronize(); status != 0) return failed("kernel", status, "", true);
  for (const Buffer& b : desc.buffers) {
    if (!b.print) continue;
    std::vector<unsigned char> host(b.count * b.element_bytes);
    if (const CUresult status = d.to_host(host.data(), b.device, host.size()); status != 0)
      return failed("copy to the host", status, b.name, true);
    print_buffer(b, host);
  }
  // The harness's checksum lines: cudiff_fold over the named buffers' and symbols' elements.
  for (const Checksum& checksum : desc.checksums) {
    std::vector<std::uint64_t> words;
    for (const std::string& part : checksum.fold) {
      struct Part {
        CUdeviceptr device = 0;
        std::uint64_t count = 0;
        unsigned element_bytes = 0;
      } found;
      for (const Buffer& b : desc.buffers)
        if (b.name == part) found = {b.device, b.count, b.element_bytes};
      for (const Symbol& symbol : desc.symbols)
        if (symbol.name == part) found = {symbol.device, symbol.count, symbol.element_bytes};
      if (found.device == 0)
        return failed("description", 0, "checksum " + checksum.label + " folds unknown " + part, false);
      std::vector<unsigned char> host(found.count * found.element_bytes);
      if (const CUresult status = d.to_host(host.data(), found.device, host.size()); status != 0)
        return failed("copy to the host", status, part, true);
      append_words(host, found.element_bytes, words);
    }
    std::uint64_t hash = 1469598103934665603ull;  // cudiff_fold (runners/launch.h)
    for (std::uint64_t w : words) hash = (hash ^ w) * 1099511628211ull;
    std::printf("checksum %s %016llx\n", checksum.label.c_str(), static_cast<unsigned long long>(hash));
  }
  return {"launched", false};
}

} // namespace

LaunchReply launch_module(const std::string& module, const std::string& description) {
  Driver& d = driver();
  if (!d.problem.empty()) return failed("driver", 0, d.problem, false);
  std::vector<Description> descriptions;
  std::string why;
  if (!read_descriptions(description, descriptions, why)) return failed("description", 0, why, false);
  std::ifstream in(module, std::ios::binary);
  std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return failed("module", 0, "cannot read " + module, false);
  image.push_back('\0');  // PTX text must end with one; a cubin ignores it

  // The JIT's error log says why PTX does not load; ptxas's stderr says it for a cubin's build.
  std::vector<char> log(16 << 10, '\0');
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferBytes};
  void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(log.size()))};
  void* loaded = nullptr;
  if (const CUresult status = d.load(&loaded, image.data(), 2, options, values); status != 0) {
    if (log[0] != '\0') std::fprintf(stderr, "%s\n", log.data());
    return failed("module load", status, "", false);
  }
  struct Unload {
    Driver& d;
    void* module;
    ~Unload() { d.unload(module); }
  } unload{d, loaded};

  // The kernels in order on the one load, as a program's main launches them; the first that
  // fails ends the request, named in the step when there are several.
  for (Description& desc : descriptions) {
    LaunchReply reply = launch_kernel(d, loaded, desc);
    if (reply.line == "launched") continue;
    if (descriptions.size() > 1) {
      const std::string tag = "launch-failed\t";
      reply.line.insert(tag.size(), "kernel " + desc.kernel + ": ");
    }
    return reply;
  }
  return {"launched", false};
}

} // namespace cudiff::executor
