// GPU discovery through the CUDA driver API, loaded at run time so cudiff runs without one.
#include "runners/runners.h"

#include <algorithm>
#include <cctype>
#include <dlfcn.h>

#include <cstdlib>

namespace cudiff::runners {
namespace {

// The few driver entry points needed, by their stable C ABI (cuda.h is not required to build).
using CuInit = int (*)(unsigned int);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuDeviceGetAttribute = int (*)(int*, int, int);
constexpr int kAttributeComputeCapabilityMajor = 75;
constexpr int kAttributeComputeCapabilityMinor = 76;
constexpr int kErrorNoDevice = 100;

/// Closes the driver library when discovery is done, whatever path it took.
struct LibraryHandle {
  void* handle;
  ~LibraryHandle() {
    if (handle != nullptr) ::dlclose(handle);
  }
};

template <typename Function>
Function symbol(void* library, const char* name) {
  return reinterpret_cast<Function>(::dlsym(library, name));
}

} // namespace

std::string GpuInfo::arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }

bool runs_on(const Config& config, const GpuInfo& gpu) {
  const int gpu_level = gpu.cc_major * 10 + gpu.cc_minor;
  if (ptx_only(config)) {
    // compute_90 → 90. The driver JITs PTX of this or an older virtual architecture.
    const std::string digits = config.arch.substr(std::string("compute_").size());
    const bool numeric = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    return numeric && std::stoi(digits) <= gpu_level;
  }
  return config.arch == gpu.arch();
}

std::string GpuInfo::describe() const {
  const std::string text = std::to_string(index) + ": " + name + " (" + arch() + ")";
  return visible_device == std::to_string(index) ? text : text + ", CUDA_VISIBLE_DEVICES=" + visible_device;
}

std::string visible_device(const std::optional<std::string>& parent, int ordinal) {
  if (!parent) return std::to_string(ordinal);
  // The driver numbers the listed devices in the list's order (indices, UUIDs or MIG ids).
  const auto entries = split(*parent, ',');
  const auto at = static_cast<std::size_t>(ordinal);
  return at < entries.size() ? std::string(trim(entries[at])) : std::to_string(ordinal);
}

GpuDiscovery discover_gpus() {
  GpuDiscovery discovery;
  LibraryHandle library{::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)};
  if (library.handle == nullptr) {
    discovery.note = "no CUDA driver on this machine (libcuda.so.1 not found)";
    return discovery;
  }
  auto init = symbol<CuInit>(library.handle, "cuInit");
  auto get_count = symbol<CuDeviceGetCount>(library.handle, "cuDeviceGetCount");
  auto get_device = symbol<CuDeviceGet>(library.handle, "cuDeviceGet");
  auto get_name = symbol<CuDeviceGetName>(library.handle, "cuDeviceGetName");
  auto get_attribute = symbol<CuDeviceGetAttribute>(library.handle, "cuDeviceGetAttribute");
  if (!init || !get_count || !get_device || !get_name || !get_attribute) {
    discovery.note = "the CUDA driver library lacks the expected entry points";
    return discovery;
  }
  if (int status = init(0); status != 0) {
    discovery.note = status == kErrorNoDevice
                         ? "no CUDA device found"
                         : "CUDA driver failed to initialize (CUresult " + std::to_string(status) + ")";
    return discovery;
  }
  int count = 0;
  if (get_count(&count) != 0 || count == 0) {
    discovery.note = "no CUDA device found";
    return discovery;
  }
  std::optional<std::string> parent;
  if (const char* list = std::getenv("CUDA_VISIBLE_DEVICES")) parent = list;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    int device = 0;
    if (get_device(&device, ordinal) != 0) continue;
    GpuInfo gpu;
    gpu.index = ordinal;
    gpu.visible_device = visible_device(parent, ordinal);
    char name[256] = {};
    if (get_name(name, sizeof name, device) == 0) gpu.name = name;
    get_attribute(&gpu.cc_major, kAttributeComputeCapabilityMajor, device);
    get_attribute(&gpu.cc_minor, kAttributeComputeCapabilityMinor, device);
    discovery.gpus.push_back(gpu);
  }
  return discovery;
}

GpuDiscovery choose_gpus(const GpuDiscovery& found, const std::string& wanted) {
  if (wanted == "all") return found;
  GpuDiscovery chosen;
  chosen.note = "--gpus " + wanted;
  if (wanted == "none") return chosen;
  for (const std::string& listed : split(wanted, ',')) {
    const std::string item(trim(listed));
    bool present = false;
    for (const auto& gpu : found.gpus)
      if (std::to_string(gpu.index) == item) {
        chosen.gpus.push_back(gpu);
        present = true;
      }
    if (!present)
      throw_usage("--gpus: no GPU " + item + " here (" + std::to_string(found.gpus.size()) + " found" +
                  (found.gpus.empty() ? ": " + found.note : "") + ")");
  }
  return chosen;
}

boost::json::value to_json(const GpuInfo& gpu) {
  return boost::json::object{{"index", gpu.index},
                             {"name", gpu.name},
                             {"arch", gpu.arch()},
                             {"visible_device", gpu.visible_device}};
}

} // namespace cudiff::runners
