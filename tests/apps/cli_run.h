// Runs the tickwire CLI (TICKWIRE_CLI_PATH) to its exit for the command tests: its wait status and
// everything it printed on stdout.
#pragma once

#include <sys/wait.h>

#include <string>
#include <vector>

#include "child_process.h"

namespace tickwire::test {

struct CliRun {
  int status = -1;
  std::string output;
  bool exited_with(int code) const { return WIFEXITED(status) && WEXITSTATUS(status) == code; }
};

inline CliRun run_cli(const std::vector<std::string>& args, int timeout_ms = 120000) {
  ChildProcess cli;
  CliRun run;
  if (!cli.spawn(TICKWIRE_CLI_PATH, args)) return run;
  (void)cli.wait_for_output("\x01never printed\x01", timeout_ms);  // reads until it exits (or the timeout)
  run.status = cli.stop();
  run.output = cli.output();
  return run;
}

}  // namespace tickwire::test
