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
      !bind(library, "cuCtxSynchronize", d.synchronize) || !bind(library, "cuGetErrorName", d.error_name)) {
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

struct Param {
  bool buffer = false;
  std::size_t index = 0;  ///< into buffers
  unsigned bytes = 0;
  std::uint64_t bits = 0;
};

struct Description {
  std::string kernel;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, shared = 0;
  std::vector<Buffer> buffers;
  std::vector<Param> params;
};

/// Reads runners::executor_text's lines; false with `why` on anything else (cudiff wrote it).
bool read_description(const std::string& path, Description& d, std::string& why) {
  std::ifstream in(path);
  if (!in) return why = "cannot read " + path, false;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string what;
    words >> what;
    if (what == "kernel") words >> d.kernel;
    else if (what == "grid") words >> d.grid[0] >> d.grid[1] >> d.grid[2];
    else if (what == "block") words >> d.block[0] >> d.block[1] >> d.block[2];
    else if (what == "shared") words >> d.shared;
    else if (what == "buffer") {
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
      d.params.push_back({true, d.buffers.size(), 8, 0});
      d.buffers.push_back(std::move(b));
    } else if (what == "scalar") {
      std::string name;
      Param p;
      words >> name >> p.bytes >> std::hex >> p.bits;
      d.params.push_back(p);
    } else if (!what.empty()) return why = "unknown line: " + line, false;
    if (words.fail()) return why = "bad line: " + line, false;
  }
  return d.kernel.empty() ? (why = "no kernel named", false) : true;
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

/// A step that failed: its CUDA error on stderr (the output oracle reads it), and the reply.
LaunchReply failed(const std::string& step, CUresult status, const std::string& detail, bool poisoned) {
  const std::string error = status == 0 ? "" : error_text(status);
  std::fprintf(stderr, "cudiff-executor: %s failed: %s%s%s\n", step.c_str(), error.c_str(),
               error.empty() || detail.empty() ? "" : ": ", detail.c_str());
  return {"launch-failed\t" + step + "\t" + std::to_string(status) + "\t" + (error.empty() ? detail : error) + "\t" +
              (poisoned ? "1" : "0"),
          poisoned};
}

} // namespace

LaunchReply launch_module(const std::string& module, const std::string& description) {
  Driver& d = driver();
  if (!d.problem.empty()) return failed("driver", 0, d.problem, false);
  Description desc;
  std::string why;
  if (!read_description(description, desc, why)) return failed("description", 0, why, false);
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
    std::vector<unsigned char> host(bytes);
    for (std::size_t i = 0; i < b.count; ++i) {
      const std::uint64_t w = b.fill.size() == 1 ? b.fill.front() : b.fill[i];
      std::memcpy(host.data() + i * b.element_bytes, &w, b.element_bytes);
    }
    if (const CUresult status = d.to_device(b.device, host.data(), bytes); status != 0)
      return failed("copy to the device", status, b.name, true);
  }
  std::vector<std::uint64_t> slots(desc.params.size());
  std::vector<void*> arguments;
  for (std::size_t i = 0; i < desc.params.size(); ++i) {
    const Param& p = desc.params[i];
    slots[i] = p.buffer ? desc.buffers[p.index].device : p.bits;  // little-endian: the low bytes
    arguments.push_back(&slots[i]);
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
  return {"launched", false};
}

} // namespace cudiff::executor
