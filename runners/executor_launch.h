// runners: cudiff-executor's `launch` request (internal to the cudiff-executor program; the
// protocol is at the top of executor_main.cpp, the description's form in runners/launch.h).
#pragma once

#include <string>

namespace cudiff::executor {

/// What one launch request ended with.
struct LaunchReply {
  std::string line;     ///< the reply, without its newline
  bool poisoned = false;  ///< the context may hold a sticky error: the executor must exit after replying
};

/// Loads `module` (a cubin, or PTX the driver compiles) once, runs the kernels `description`
/// (the file of runners::executor_text: one or several descriptions) names, in order, each with
/// its buffers and scalars, and prints each printed buffer and checksum on stdout. The first
/// kernel that fails ends the request ("kernel NAME: " leads its step when there are several);
/// a failing step prints its CUDA error name on stderr (with the JIT's log for a module that
/// does not load). The driver (libcuda.so.1) is loaded on first use and the
/// device's primary context retained, which is the one the CUDA runtime uses: programs and
/// modules share it.
LaunchReply launch_module(const std::string& module, const std::string& description);

}  // namespace cudiff::executor
