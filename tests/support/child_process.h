// The tests' handle on a child process: the CLI's own (apps/tickwire/child_process.h), shared.
#pragma once

#include "../../apps/tickwire/child_process.h"

namespace tickwire::test {
using ChildProcess = cli::ChildProcess;
}  // namespace tickwire::test
