// streamcfd: the executable. Initialises MPI, dispatches to a subcommand, and turns errors into
// exit codes: 0 success, 1 a run failed (during the set-up: a solver; later: run_loop.hpp),
// 2 bad input (mesh, case file, command line: one line on stderr), 130 interrupted, 3 internal
// check failure (SCFD_CHECK aborts all ranks; so does any other unexpected exception, which
// could not be known to be on every rank).
#include <mpi.h>

#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <exception>
#include <map>
#include <string>

#include "app/commands.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "physics/model.hpp"

namespace {

int run(int argc, char** argv) {
  CLI::App app{"streamcfd: unstructured-mesh CFD with discrete-calculus operators on GPUs"};
  app.set_version_flag("--version", "streamcfd 0.1.0");
  app.require_subcommand(1);
  std::map<CLI::App*, scfd::app::Command> commands;
  auto add = [&](scfd::app::Command (*adder)(CLI::App&)) {
    scfd::app::Command c = adder(app);
    commands[app.get_subcommands({}).back()] = std::move(c);
  };
  add(&scfd::app::add_info_command);
  add(&scfd::app::add_run_command);
  add(&scfd::app::add_partition_command);
  add(&scfd::app::add_check_kernels_command);
  add(&scfd::app::add_bench_command);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (scfd::log::rank() == 0)
      std::fprintf(stderr, "streamcfd: error: %s (see streamcfd --help)\n",
                   scfd::printable(e.what(), 2000).c_str());
    return scfd::kExitInputError;
  }
  for (auto& [sub, command] : commands)
    if (sub->parsed()) return command();
  return scfd::kExitInputError;
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, reported like a full disk,
  // instead of killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  // The set-up runs host threads beside the main thread's MPI calls (core/threads.hpp, the
  // pressure and projection work of ns/flow.cpp and ns/geometry.cpp); only the main thread calls
  // MPI.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scfd::log::set_rank(rank);
  int code = 0;
  // Messages quote user input; whatever a message holds, it stays one line of bounded length
  // (each part that quotes input is made printable where it is written, this is the backstop).
  auto line = [](const std::exception& e) { return scfd::printable(e.what(), 2000); };
  try {
    code = run(argc, argv);
  } catch (const scfd::InputError& e) {
    if (rank == 0) std::fprintf(stderr, "streamcfd: error: %s\n", line(e).c_str());
    code = scfd::kExitInputError;
  } catch (const scfd::physics::SolveError& e) {  // thrown on every rank alike
    if (rank == 0) std::fprintf(stderr, "streamcfd: error: %s\n", line(e).c_str());
    code = 1;
  } catch (const scfd::physics::Interrupted& e) {  // likewise
    if (rank == 0)
      std::fprintf(stderr, "streamcfd: interrupted during the set-up: %s\n", line(e).c_str());
    code = 130;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "streamcfd: error on rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 4);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "streamcfd: internal error on rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return code;
}
