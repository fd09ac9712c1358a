// Stop requests from signals (see stop.hpp).
#include "core/stop.hpp"

#include <csignal>

namespace scfd {
namespace {

volatile std::sig_atomic_t g_stop = 0;      // 0, or the signal that asked (SIGINT when none did)
volatile std::sig_atomic_t g_honoured = 0;  // 1 once the run ends because of the request

// The first signal is the one the exit code names; later ones change nothing.
extern "C" void on_stop_signal(int signal) {
  if (g_stop == 0) g_stop = signal;
}

}  // namespace

void install_stop_handlers() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

void remove_stop_handlers() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

bool stop_requested() {
  return g_stop != 0 && g_honoured == 0;
}

void honour_stop_request() {
  if (g_stop != 0) g_honoured = 1;
}

void request_stop() {
  g_stop = SIGINT;
}

int stop_signal() {
  return g_stop;
}

void clear_stop_request() {
  g_stop = 0;
  g_honoured = 0;
}

}  // namespace scfd
