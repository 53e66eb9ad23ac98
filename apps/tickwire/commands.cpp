// Registers every subcommand and holds the exit code they report.
#include "commands.h"

#include "number_checks.h"

namespace tickwire::cli {
namespace {
int g_exit_code = 0;
}

void set_exit_code(int code) { g_exit_code = code; }
int exit_code() { return g_exit_code; }

void register_all(CLI::App& app) {
  register_schema(app);
  register_conditioner(app);
  register_keygen(app);
  register_token(app);
  register_contract(app);
  register_map(app);
  register_server(app);
  register_bot(app);
  register_demo(app);
  register_bench(app);
  register_shards(app);
  register_host(app);
  register_fleet(app);
  register_match(app);
  register_replay(app);
  register_lockstep(app);
  require_finite_numbers(app);  // after every option exists
}

}  // namespace tickwire::cli
