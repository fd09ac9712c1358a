// The plugin table of plugin.hpp: a section of the case file -> the plugin that owns it.
#include <fmt/format.h>

#include <array>
#include <string_view>

#include "physics/plugins/plugin.hpp"
#include "physics/plugins/plugin_list.hpp"

namespace scfd::physics {
namespace {

struct Entry {
  std::string_view section;
  std::unique_ptr<Plugin> (*make)(const config::Case&, FlowAccess&, const std::filesystem::path&);
};

constexpr std::array<Entry, 3> kPlugins = {{
    {"probes", make_probes},
    {"forces", make_forces},
    {"output.lines", make_lines},
}};

}  // namespace

std::vector<std::unique_ptr<Plugin>> make_plugins(const config::Case& c, Model& model,
                                                  const std::filesystem::path& output_dir) {
  std::vector<std::unique_ptr<Plugin>> plugins;
  for (const Entry& e : kPlugins) {
    if (!c.has(e.section)) continue;
    FlowAccess* flow = model.flow();
    if (flow == nullptr)
      c.fail(e.section, fmt::format("[{}] needs a Navier–Stokes model (physics.model = "
                                    "\"ns-classical\" or \"ns-exact\"), not \"{}\"",
                                    e.section, model.name()));
    if (std::unique_ptr<Plugin> p = e.make(c, *flow, output_dir)) plugins.push_back(std::move(p));
  }
  return plugins;
}

}  // namespace scfd::physics
