// A request to stop a run cleanly, made by a signal: Ctrl-C on a terminal (SIGINT), the SIGTERM
// that mpirun sends every rank when it is interrupted (one second before SIGKILL), or a batch
// system at its time limit. The handler only sets a flag (async-signal-safe). The run loop and
// the solvers read it and agree on it over all ranks before acting, so every rank stops at the
// same point: the solvers abandon the step at their next reduction, the run loop writes the
// state of the last finished step.
#pragma once

namespace scfd {

// SIGINT and SIGTERM request a stop. The handlers stay: a second Ctrl-C while the run writes its
// last state changes nothing (users press it twice); SIGKILL or SIGQUIT (Ctrl-backslash) end a run
// at once, and mpirun sends SIGKILL one second after its SIGTERM.
void install_stop_handlers();
// Back to the default actions (the request, if any, stays).
void remove_stop_handlers();
// Whether a stop was requested and not yet honoured.
bool stop_requested();
void request_stop();  // what the handler does for SIGINT; also for tests
// The run ends because of the request: stop_requested() is false from now on, so the solvers
// finish the work of the last state (ns-exact's pressure for the output); stop_signal() still
// names the signal.
void honour_stop_request();
// The signal that requested the stop (SIGINT or SIGTERM; SIGINT after request_stop), 0 if none:
// the run's exit code is 128 + it (130, 143).
int stop_signal();
void clear_stop_request();

}  // namespace scfd
