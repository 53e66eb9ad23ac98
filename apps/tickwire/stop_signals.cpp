// The one stop-signal counter.
#include "stop_signals.h"

#include <atomic>

namespace tickwire::cli {
namespace {

// Atomic, not volatile: the bots' threads (bot_threads.h) read it beside the handler's writes.
std::atomic<int> g_stop_signals{0};
static_assert(std::atomic<int>::is_always_lock_free, "a lock-free atomic is safe in a signal handler");
void count_stop_signal(int) { g_stop_signals.fetch_add(1); }

}  // namespace

void catch_stop_signals() {
  std::signal(SIGINT, count_stop_signal);
  std::signal(SIGTERM, count_stop_signal);
}

std::sig_atomic_t stop_signals() { return static_cast<std::sig_atomic_t>(g_stop_signals.load()); }

}  // namespace tickwire::cli
