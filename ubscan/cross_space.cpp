// ubscan cross_space: checks on calls across execution spaces: U-XSPACE-HOST-FROM-DEV and
// U-XSPACE-DEV-FROM-HOST, with the device library and intrinsics device code may call.
#include "ubscan/parts.h"

#include <cctype>

namespace cudiff::ubscan::detail {

// ============================================================================================
// U-XSPACE-HOST-FROM-DEV, U-XSPACE-DEV-FROM-HOST: device code calls __device__ and
// __host__ __device__ functions of the file and CUDA's device library only; host code calls no
// __device__-only function and no device intrinsic.
// ============================================================================================

namespace {

/// The device-side functions of CUDA's headers (crt/math_functions.h, device_functions.h,
/// sm_*_intrinsics.h, device_atomic_functions.h, the device runtime API) that device code may
/// call without defining them.
bool device_library_function(std::string_view name) {
  static const std::unordered_set<std::string_view> names = [] {
    static constexpr std::string_view list =
        "abs acos acosf acosh acoshf asin asinf asinh asinhf atan atan2 atan2f atanf atanh atanhf cbrt cbrtf ceil ceilf "
        "clock clock64 copysign copysignf cos cosf cosh coshf cospi cospif cyl_bessel_i0 cyl_bessel_i0f cyl_bessel_i1 "
        "cyl_bessel_i1f erf erfc erfcf erfcinv erfcinvf erfcx erfcxf erff erfinv erfinvf exp exp10 exp10f exp2 exp2f expf "
        "expm1 expm1f fabs fabsf fdim fdimf fdividef floor floorf fma fmaf fmax fmaxf fmin fminf fmod fmodf frexp frexpf "
        "hypot hypotf ilogb ilogbf isfinite isinf isnan j0 j0f j1 j1f jn jnf labs ldexp ldexpf lgamma lgammaf llabs llmax "
        "llmin llrint llrintf llround llroundf log log10 log10f log1p log1pf log2 log2f logb logbf logf lrint lrintf lround "
        "lroundf max min modf modff nan nanf nearbyint nearbyintf nextafter nextafterf norm norm3d norm3df norm4d norm4df "
        "normcdf normcdff normcdfinv normcdfinvf normf pow powf rcbrt rcbrtf remainder remainderf remquo remquof rhypot "
        "rhypotf rint rintf rnorm rnorm3d rnorm3df rnorm4d rnorm4df rnormf round roundf rsqrt rsqrtf scalbln scalblnf "
        "scalbn scalbnf signbit sin sincos sincosf sincospi sincospif sinf sinh sinhf sinpi sinpif sqrt sqrtf tan tanf tanh "
        "tanhf tgamma tgammaf trunc truncf umax umin ullmax ullmin y0 y0f y1 y1f yn ynf printf vprintf malloc free memcpy "
        "memset assert offsetof alloca dim3 double2int double2ll double2uint double2ull float2double int2double ll2double uint2double "
        "ull2double load_matrix_sync store_matrix_sync mma_sync bmma_sync fill_fragment "
        "cudaDeviceGetAttribute cudaDeviceGetLimit cudaDeviceGetCacheConfig cudaDeviceGetSharedMemConfig "
        "cudaDeviceSynchronize cudaGetLastError cudaPeekAtLastError cudaGetErrorString cudaGetErrorName cudaGetDeviceCount "
        "cudaGetDevice cudaStreamCreateWithFlags cudaStreamDestroy cudaStreamWaitEvent cudaEventCreateWithFlags "
        "cudaEventRecord cudaEventRecordWithFlags cudaEventDestroy cudaFuncGetAttributes cudaMemcpyAsync cudaMemcpy2DAsync "
        "cudaMemcpy3DAsync cudaMemsetAsync cudaMemset2DAsync cudaMemset3DAsync cudaRuntimeGetVersion cudaMalloc cudaFree "
        "cudaLaunchDevice cudaLaunchDeviceV2 cudaGetParameterBuffer cudaGetParameterBufferV2 cudaGraphLaunch "
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags";
    std::unordered_set<std::string_view> set;
    for (std::size_t i = 0; i < list.size();) {
      const std::size_t space = std::min(list.find(' ', i), list.size());
      set.insert(list.substr(i, space - i));
      i = space + 1;
    }
    return set;
  }();
  if (name.starts_with("__") || name.starts_with("atomic") || name.starts_with("make_")) return true;
  for (std::string_view prefix :
       {"tex1D", "tex2D", "tex3D", "texCubemap", "surf1D", "surf2D", "surf3D", "surfCubemap", "cuC"})
    if (name.starts_with(prefix)) return true;
  return names.count(name) != 0;
}

} // namespace

/// Device intrinsics host code cannot call (no host definition).
bool device_only_intrinsic(std::string_view name) {
  if (name.starts_with("__syncthreads") || name.starts_with("__shfl") || name.starts_with("__threadfence") ||
      name.starts_with("__match_") || name.starts_with("__reduce_"))
    return true;
  if (name.starts_with("atomic") && name.size() > 6 && std::isupper(static_cast<unsigned char>(name[6]))) return true;
  return in_list(name, {"__syncwarp",
                        "__ballot_sync",
                        "__all_sync",
                        "__any_sync",
                        "__activemask",
                        "__ldg",
                        "__ldcg",
                        "__ldca",
                        "__ldcs",
                        "__ldlu",
                        "__ldcv",
                        "__stwb",
                        "__stcg",
                        "__stcs",
                        "__stwt",
                        "__nanosleep",
                        "__trap",
                        "__brkpt",
                        "__barrier_sync",
                        "clock64",
                        "__prof_trigger",
                        "__isGlobal",
                        "__isShared",
                        "__isConstant",
                        "__isLocal",
                        "__cvta_generic_to_shared",
                        "__cvta_generic_to_global"});
}

namespace {

/// Whether the file gives the name some meaning (a function, type, variable or macro): then a
/// call to it is not a call into an unknown library.
bool known_name(const Model& m, std::string_view name) {
  const std::string n(name);
  return m.units_by_name.count(n) || m.type_names.count(n) || m.variable_names.count(n) || m.function_macros.count(n) ||
         m.object_macros.count(n) || m.classes_by_name.count(n) || name.ends_with("_t") || is_builtin_type_word(name);
}

} // namespace

void check_cross_space_calls(const Scan& s) {
  for (const Call& call : s.a.calls) {
    if (call.unit < 0) continue;
    const bool device = s.a.device_pass(call.token), host = s.a.host_pass(call.token);
    std::vector<int> targets;
    for (int id : s.a.callees(call))
      if (!s.m.units[id].lambda && s.m.units[id].space != Space::global) targets.push_back(id);
    const auto all = [&](Space space) {
      return std::all_of(targets.begin(), targets.end(), [&](int id) { return s.m.units[id].space == space; });
    };
    if (!targets.empty()) {
      if (device && all(Space::host)) s.hit("U-XSPACE-HOST-FROM-DEV", call.token);
      if (host && all(Space::device)) s.hit("U-XSPACE-DEV-FROM-HOST", call.token);
      continue;
    }
    // A library function: members and qualified names belong to libraries the scan cannot see.
    if (call.member || !call.qualifier.empty() || known_name(s.m, call.name)) continue;
    if (device && !device_library_function(call.name)) s.hit("U-XSPACE-HOST-FROM-DEV", call.token);
    if (host && device_only_intrinsic(call.name)) s.hit("U-XSPACE-DEV-FROM-HOST", call.token);
  }
}

} // namespace cudiff::ubscan::detail
