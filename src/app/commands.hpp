// Subcommands of the streamcfd executable. Each add_*_command registers its CLI11 subcommand and
// the function that runs it; the function returns the process exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace scfd::app {

using Command = std::function<int()>;

Command add_info_command(CLI::App& app);
Command add_run_command(CLI::App& app);
Command add_partition_command(CLI::App& app);
Command add_check_kernels_command(CLI::App& app);
Command add_bench_command(CLI::App& app);

}  // namespace scfd::app
