// SIGINT and SIGTERM as a count every long-running command's loop reads: the first asks it to stop
// (or to drain), a second during a drain means now. One handler for every command.
#pragma once

#include <csignal>

namespace tickwire::cli {

// Installs the handler; call first in a command, so a signal during start-up is not lost.
void catch_stop_signals();
// How many stop signals have arrived.
std::sig_atomic_t stop_signals();
inline bool stop_requested() { return stop_signals() != 0; }

}  // namespace tickwire::cli
