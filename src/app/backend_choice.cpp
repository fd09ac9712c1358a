// Which backend a run uses (see backend_choice.hpp), from the table of backend/registry.hpp.
#include "app/backend_choice.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdint>
#include <functional>

#include "backend/registry.hpp"
#include "core/collectives.hpp"
#include "core/error.hpp"

namespace scfd::app {
namespace {

// `auto`: the first backend of the table that every rank can run. `why` gives the reason of the
// winner when it is the first entry, else why the first entry lost (the GPU the user hoped for).
std::string choose_auto(const backend::BackendOptions& options, std::string& why) {
  std::string lost;
  for (const backend::BackendEntry& e : backend::backend_table()) {
    std::string reason;
    const bool here = e.detect(options, reason);
    if (all_ranks(here)) {
      why = "auto: " + (lost.empty() ? reason : lost);
      return std::string(e.name);
    }
    if (lost.empty()) lost = here ? "another rank cannot run " + std::string(e.name) : reason;
  }
  why = "auto: " + lost;
  agree_on_input_error(
      fmt::format("precision {} needs a GPU backend, and {}", options.precision, why));
  return {};
}

}  // namespace

ChosenBackend make_chosen_backend(const BackendRequest& request) {
  std::string name = request.name;
  std::string why = "as requested";
  if (name == "auto") name = choose_auto(request.options, why);
  ChosenBackend chosen;
  std::string error;
  try {
    chosen.backend = backend::make_backend(name, request.options);
  } catch (const InputError& e) {
    error = e.what();
  }
  agree_on_input_error(error);
  if (name == "cpu") why += ", the reference backend";
  chosen.description =
      fmt::format("{} ({}), {}; {}", chosen.backend->name(), chosen.backend->precision(),
                  chosen.backend->device_info().description, why);
  chosen.rank_devices = all_gather(std::vector<int>{chosen.backend->device_info().index});
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const std::vector<std::int64_t> hosts = all_gather(std::vector<std::int64_t>{
      static_cast<std::int64_t>(std::hash<std::string>{}(std::string(host)))});
  for (std::size_t r = 0; r < hosts.size(); ++r)
    for (std::size_t q = 0; q < r; ++q)
      if (!chosen.backend->device_info().software && chosen.rank_devices[r] >= 0 &&
          hosts[q] == hosts[r] && chosen.rank_devices[q] == chosen.rank_devices[r]) {
        chosen.sharing_ranks.push_back(static_cast<int>(r));
        break;
      }
  return chosen;
}

}  // namespace scfd::app
