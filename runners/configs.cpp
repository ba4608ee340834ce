// Build configurations: the presets `--config` names, and the exact command line of each.
#include "runners/runners.h"

#include <algorithm>
#include <filesystem>

namespace cudiff::runners {
namespace {

Config make(std::string name, CompilerKind compiler, std::string opt, std::vector<std::string> extra = {}) {
  Config config;
  config.name = std::move(name);
  config.compiler = compiler;
  config.opt_level = std::move(opt);
  config.extra_flags = std::move(extra);
  return config;
}

Config with_ptxas(Config config, std::string ptxas) {
  config.ptxas_opt_level = std::move(ptxas);
  return config;
}

Config with_cicc(Config config, std::string cicc) {
  config.cicc_opt_level = std::move(cicc);
  return config;
}

/// A compile-only preset for another GPU: `--arch` does not move it.
Config for_arch(Config config, std::string arch) {
  config.arch = std::move(arch);
  config.arch_fixed = true;
  return config;
}

bool has_flag(const Config& config, std::string_view flag) {
  return std::find(config.extra_flags.begin(), config.extra_flags.end(), flag) != config.extra_flags.end();
}

/// nvcc's -O sets the host optimization level only; cicc and ptxas optimize device code
/// unless told otherwise. An -O0 config must be -O0 on both sides to compare with clang's.
/// -G sets the device level itself: cicc refuses a second one ("libnvvm : error: -opt defined
/// more than once"), so a -G config gets the host level alone.
std::vector<std::string> nvcc_optimization(const Config& config) {
  if (has_flag(config, "-G")) return {"-" + config.opt_level};
  if (config.opt_level == "O0") return {"-O0", "-Xcicc", "-O0", "-Xptxas", "-" + ptxas_level(config)};
  std::vector<std::string> flags = {"-" + config.opt_level};
  // nvcc passes cicc no level of its own (cicc's default is -O3) and ptxas none either, so
  // -Xcicc moves NVVM alone (nvcc --dryrun: cicc gets -O0, ptxas no -O, i.e. ptxas's -O3).
  if (!config.cicc_opt_level.empty()) flags.insert(flags.end(), {"-Xcicc", "-" + config.cicc_opt_level});
  if (!config.ptxas_opt_level.empty()) flags.insert(flags.end(), {"-Xptxas", "-" + config.ptxas_opt_level});
  return flags;
}

/// clang passes ptxas its own level first (-O0 at -O0, else -O3); a second one after it wins,
/// and ptxas says so in a warning ("incompatible redefinition for option 'opt-level'").
std::vector<std::string> clang_ptxas(const Config& config) {
  if (config.ptxas_opt_level.empty()) return {};
  return {"-Xcuda-ptxas", "-" + config.ptxas_opt_level};
}

std::vector<std::string> nvcc_mode_flags(Mode mode, const std::filesystem::path& output) {
  switch (mode) {
  // -cuda runs the CUDA front end (cudafe++) over host and device code and stops there:
  // nvcc's closest equivalent of -fsyntax-only.
  case Mode::syntax: return {"-cuda", "-o", "/dev/null"};
  case Mode::ptx: return {"-ptx", "-o", output.string()};
  case Mode::cubin: return {"-cubin", "-o", output.string()};
  case Mode::object: return {"-c", "-o", output.string()};
  case Mode::binary:
  case Mode::run: return {"-o", output.string()};
  }
  return {};
}

std::vector<std::string> clang_mode_flags(Mode mode, const std::filesystem::path& output) {
  switch (mode) {
  case Mode::syntax: return {"-fsyntax-only"};
  case Mode::ptx: return {"--cuda-device-only", "-S", "-o", output.string()};
  case Mode::cubin: return {"--cuda-device-only", "-c", "-o", output.string()};
  case Mode::object: return {"-c", "-o", output.string()};
  case Mode::binary:
  case Mode::run: return {"-o", output.string()};
  }
  return {};
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

} // namespace

std::string to_string(Mode mode) {
  switch (mode) {
  case Mode::syntax: return "syntax";
  case Mode::ptx: return "ptx";
  case Mode::cubin: return "cubin";
  case Mode::object: return "object";
  case Mode::binary: return "binary";
  case Mode::run: return "run";
  }
  return "?";
}

std::optional<Mode> parse_mode(std::string_view text) {
  for (Mode mode : {Mode::syntax, Mode::ptx, Mode::cubin, Mode::object, Mode::binary, Mode::run})
    if (to_string(mode) == text) return mode;
  return std::nullopt;
}

std::vector<Config> default_configs() {
  return {make("nvcc-O3", CompilerKind::nvcc, "O3"), make("clang-O3", CompilerKind::clang, "O3")};
}

std::vector<Config> cross_level_configs() {
  return {make("nvcc-O3", CompilerKind::nvcc, "O3"), make("clang-O3", CompilerKind::clang, "O3"),
          with_ptxas(make("nvcc-O3-ptxas0", CompilerKind::nvcc, "O3"), "O0"),
          make("clang-O0", CompilerKind::clang, "O0")};
}

std::vector<Config> preset_configs() {
  std::vector<Config> presets = default_configs();
  presets.push_back(make("nvcc-O0", CompilerKind::nvcc, "O0"));
  presets.push_back(make("clang-O0", CompilerKind::clang, "O0"));
  // -G turns device optimization off and adds device debug information.
  presets.push_back(make("nvcc-G", CompilerKind::nvcc, "O0", {"-G"}));
  // clang's previous offload driver links with plain ld instead of clang-linker-wrapper.
  presets.push_back(make("clang-O3-old-driver", CompilerKind::clang, "O3", {"--no-offload-new-driver"}));
  // The same front end and optimizer as -O3, ptxas unoptimized: a difference from the -O3
  // config's output is ptxas's (docs/pipeline.md, "Stage attribution").
  presets.push_back(with_ptxas(make("nvcc-O3-ptxas0", CompilerKind::nvcc, "O3"), "O0"));
  presets.push_back(with_ptxas(make("clang-O3-ptxas0", CompilerKind::clang, "O3"), "O0"));
  // The other half of nvcc's device pipeline: NVVM's optimizer (cicc) off, ptxas at -O3 as in
  // nvcc-O3. A wrong nvcc-O3 that this twin gets right, while ptxas -O0 on nvcc-O3's own PTX
  // is still wrong, is NVVM's (docs/pipeline.md, "Stage attribution").
  presets.push_back(with_cicc(make("nvcc-O3-cicc0", CompilerKind::nvcc, "O3"), "O0"));
  // The same front ends at -O3 without fused multiply-add: the PTX holds mul.rn and add.rn,
  // which ptxas may not contract either. Generated float programs are exact by construction, so
  // these agree with the -O3 configs there; a difference is in the unfused code paths. On a
  // program whose result depends on one rounding or two, they are the device code generator's
  // own, controlled difference (tests/gpu/data/attribution).
  presets.push_back(make("nvcc-O3-nofma", CompilerKind::nvcc, "O3", {"--fmad=false"}));
  presets.push_back(make("clang-O3-nofma", CompilerKind::clang, "O3", {"-ffp-contract=off"}));
  // Separate compilation: relocatable device code, linked by nvlink (nvcc) or by
  // clang-linker-wrapper's device link (clang's new offload driver needs nothing more).
  presets.push_back(make("nvcc-O3-rdc", CompilerKind::nvcc, "O3", {"-rdc=true"}));
  presets.push_back(make("clang-O3-rdc", CompilerKind::clang, "O3", {"-fgpu-rdc"}));
  // PTX only (-arch=compute_90 embeds no SASS): the driver's PTX compiler builds the kernels
  // when the program loads. execute() turns the driver's JIT cache off, so that happens on
  // every run rather than once per distinct PTX (the cache would hand back an earlier result).
  Config jit = make("nvcc-O3-jit", CompilerKind::nvcc, "O3");
  jit.arch = "compute_90";
  presets.push_back(jit);
  // Compile-only on an sm_90 GPU: other targets' code generation and ptxas.
  presets.push_back(for_arch(make("nvcc-O3-sm80", CompilerKind::nvcc, "O3"), "sm_80"));
  presets.push_back(for_arch(make("clang-O3-sm80", CompilerKind::clang, "O3"), "sm_80"));
  presets.push_back(for_arch(make("nvcc-O3-sm100", CompilerKind::nvcc, "O3"), "sm_100"));
  presets.push_back(for_arch(make("clang-O3-sm100", CompilerKind::clang, "O3"), "sm_100"));
  return presets;
}

std::vector<Config> parse_configs(std::string_view list) {
  std::vector<Config> presets = preset_configs();
  std::vector<Config> chosen;
  for (const std::string& raw : split(list, ',')) {
    std::string name(trim(raw));
    if (name.empty()) continue;
    auto found = std::find_if(presets.begin(), presets.end(), [&](const Config& c) { return c.name == name; });
    if (found == presets.end()) {
      std::vector<std::string> names;
      for (const Config& c : presets) names.push_back(c.name);
      throw_usage("unknown config '" + name + "' (known: " + join(names, ", ") + ")");
    }
    if (std::find(chosen.begin(), chosen.end(), *found) == chosen.end()) chosen.push_back(*found);
  }
  if (chosen.empty()) throw_usage("--config needs at least one config name");
  return chosen;
}

void set_arch(Config& config, std::string_view arch) {
  if (config.arch_fixed) return;
  if (ptx_only(config) && arch.starts_with("sm_")) {
    config.arch = "compute_" + std::string(arch.substr(3));
    return;
  }
  config.arch = std::string(arch);
}

bool ptx_only(const Config& config) { return config.arch.starts_with("compute_"); }

bool relocatable_device_code(const Config& config) {
  return has_flag(config, "-rdc=true") || has_flag(config, "-fgpu-rdc");
}

std::optional<Config> cicc_lowered_twin(const Config& config) {
  if (config.compiler != CompilerKind::nvcc || config.opt_level == "O0" || has_flag(config, "-G") ||
      !config.cicc_opt_level.empty())
    return std::nullopt;
  Config twin = with_cicc(config, "O0");
  twin.name = config.name == "nvcc-O3" ? "nvcc-O3-cicc0" : config.name + "+cicc-O0";
  return twin;
}

std::string ptxas_level(const Config& config) {
  if (ptx_only(config) || has_flag(config, "-G")) return {};
  if (!config.ptxas_opt_level.empty()) return config.ptxas_opt_level;
  // nvcc's -O0 config passes -Xptxas -O0; clang passes ptxas -O0 at -O0 and -O3 otherwise,
  // and ptxas's own default is -O3.
  return config.opt_level == "O0" ? "O0" : "O3";
}

Command compile_command(const Toolchain& toolchain, const Config& config, Mode mode,
                        const std::filesystem::path& source, const std::filesystem::path& output,
                        const std::filesystem::path& scratch, Linkage linkage) {
  Command command;
  const bool links = mode == Mode::binary || mode == Mode::run;
  const bool shared = links && linkage == Linkage::shared_object;
  const std::string cuda = toolchain.cuda_home.string();
  if (config.compiler == CompilerKind::nvcc) {
    command.argv = {toolchain.nvcc.path.string(), "-std=c++17", "--extended-lambda", "-arch=" + config.arch};
    append(command.argv, nvcc_optimization(config));
    append(command.argv, config.extra_flags);
    append(command.argv, nvcc_mode_flags(mode, output));
    // A shared object for the executor: position-independent host code, the shared runtime
    // (the executor's, whose context is already made), and no STB_GNU_UNIQUE symbols, which
    // would keep dlclose from unloading it.
    if (shared)
      append(command.argv, {"-shared", "-Xcompiler", "-fPIC", "-Xcompiler", "-fno-gnu-unique", "-cudart", "shared"});
    command.argv.push_back(source.string());
  } else {
    command.argv = {toolchain.clang.path.string(), "-x", "cuda", "--cuda-gpu-arch=" + config.arch,
                    "--cuda-path=" + cuda, "-Wno-unknown-cuda-version", "-std=c++17", "-" + config.opt_level,
                    // Crash reproducers land in the private scratch dir, never in /tmp.
                    "-fcrash-diagnostics-dir=" + scratch.string()};
    // CUDA 13 keeps libcu++ and cooperative groups' <cuda/std/...> headers under include/cccl,
    // which nvcc adds to its include path itself and clang-22 does not: without it clang
    // rejects every program that includes <cooperative_groups.h> or <cuda/atomic>.
    if (std::filesystem::is_directory(toolchain.cuda_home / "include" / "cccl"))
      append(command.argv, {"-isystem", (toolchain.cuda_home / "include" / "cccl").string()});
    append(command.argv, clang_ptxas(config));
    append(command.argv, config.extra_flags);
    append(command.argv, clang_mode_flags(mode, output));
    if (shared) append(command.argv, {"-fPIC", "-shared"});
    command.argv.push_back(source.string());
    if (links)  // libraries after the sources
      append(command.argv,
             {"-L" + cuda + "/lib64", shared ? "-lcudart" : "-lcudart_static", "-ldl", "-lrt", "-lpthread"});
  }
  // Both compilers put intermediate files in TMPDIR; a private one is removed with the
  // workdir, so a killed compile leaves nothing behind. LC_ALL=C keeps messages parseable.
  command.env_overrides = {{"TMPDIR", scratch.string()}, {"LC_ALL", "C"}};
  return command;
}

} // namespace cudiff::runners
