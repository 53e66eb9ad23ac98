// The tickwire CLI: one binary, one subcommand per job. Each command lives in its own file and
// registers itself through commands.h. Logs go to stderr, results to stdout.
#include <CLI/CLI.hpp>
#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "commands.h"

int main(int argc, char** argv) {
  // Logs go to stderr: stdout carries the commands' JSON lines and reports, one per line.
  spdlog::set_default_logger(spdlog::stderr_color_mt("tickwire"));
  spdlog::cfg::load_env_levels();  // SPDLOG_LEVEL=warn quiets a command (`tickwire fleet` sets it for its processes)
  CLI::App app{"tickwire: netcode engine for server-authoritative multiplayer games"};
  app.require_subcommand(1);
  tickwire::cli::register_all(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; a usage error (an unknown option, a value that does not convert
    // or check) exits 2, as every command's own refusal of its options does.
    return app.exit(e) == 0 ? 0 : 2;
  }
  return tickwire::cli::exit_code();
}
