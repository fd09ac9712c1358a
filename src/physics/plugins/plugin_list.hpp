// The plugins of plugin.hpp's table, each made from its own section of the case file (null when
// the section asks for nothing). Internal to the plugins; the run loop calls make_plugins.
#pragma once

#include <filesystem>
#include <memory>

#include "config/case.hpp"
#include "physics/flow_access.hpp"
#include "physics/plugins/plugin.hpp"

namespace scfd::physics {

std::unique_ptr<Plugin> make_probes(const config::Case& c, FlowAccess& flow,
                                    const std::filesystem::path& output_dir);
std::unique_ptr<Plugin> make_forces(const config::Case& c, FlowAccess& flow,
                                    const std::filesystem::path& output_dir);
std::unique_ptr<Plugin> make_lines(const config::Case& c, FlowAccess& flow,
                                   const std::filesystem::path& output_dir);

}  // namespace scfd::physics
