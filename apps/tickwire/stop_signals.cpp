// The one stop-signal counter.
#include "stop_signals.h"

namespace tickwire::cli {
namespace {

volatile std::sig_atomic_t g_stop_signals = 0;
void count_stop_signal(int) { g_stop_signals = g_stop_signals + 1; }

}  // namespace

void catch_stop_signals() {
  std::signal(SIGINT, count_stop_signal);
  std::signal(SIGTERM, count_stop_signal);
}

std::sig_atomic_t stop_signals() { return g_stop_signals; }

}  // namespace tickwire::cli
