#include "app/backend_choice.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "backend/gl/gl_backend.hpp"
#include "core/error.hpp"
#include "gl/context.hpp"

namespace scfd::app {
namespace {

// The first error (lowest rank) of a collective step, thrown on every rank; no-op if none failed.
void agree_on_error(const std::string& local_error) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const int mine = local_error.empty() ? nranks : rank;
  int first = nranks;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == nranks) return;
  std::string message = local_error;
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  if (nranks > 1 && first != 0) message = fmt::format("rank {}: {}", first, message);
  throw InputError(message);
}

// `auto` on this rank: gl-compute when a hardware GL device exists (with fp64 if asked), else
// cpu; `reason` says why.
bool hardware_gpu_available(const backend::BackendOptions& o, std::string& reason) {
  std::vector<gl::DeviceInfo> devices;
  try {
    devices = gl::list_devices();
  } catch (const InputError& e) {
    reason = fmt::format("no usable EGL device ({})", e.what());
    return false;
  }
  const auto usable = [&](const gl::DeviceInfo& d) {
    return !d.software && (d.fp64 || o.precision == "fp32");
  };
  if (std::any_of(devices.begin(), devices.end(), usable)) {
    reason = "a hardware GPU with OpenGL 4.3+ was found";
    return true;
  }
  reason =
      devices.front().software
          ? fmt::format("the only GL device is a software renderer ({})", devices.front().renderer)
          : "the GPU has no fp64 (set solver.precision = \"fp32\" to use it)";
  return false;
}

}  // namespace

ChosenBackend make_chosen_backend(const BackendRequest& request) {
  std::string name = request.name;
  std::string why = "as requested";
  if (name == "auto") {
    std::string reason;
    int gpu = hardware_gpu_available(request.options, reason) ? 1 : 0, all = 0;
    MPI_Allreduce(&gpu, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (gpu && !all) reason = "another rank has no usable GPU";
    name = all ? "gl-compute" : "cpu";
    why = "auto: " + reason;
    if (name == "cpu" && request.options.precision != "fp64")
      agree_on_error(
          fmt::format("precision {} needs a GPU backend, and {}", request.options.precision, why));
  }
  ChosenBackend chosen;
  std::string error;
  try {
    chosen.backend = backend::make_backend(name, request.options);
  } catch (const InputError& e) {
    error = e.what();
  }
  agree_on_error(error);
  std::string device = "host";
  if (const auto* g = dynamic_cast<const backend::glc::GlBackend*>(chosen.backend.get()))
    device = gl::describe(g->device());
  else
    why += name == "cpu" ? ", the reference backend" : "";
  chosen.description = fmt::format("{} ({}), {}; {}", chosen.backend->name(),
                                   chosen.backend->precision(), device, why);
  return chosen;
}

}  // namespace scfd::app
