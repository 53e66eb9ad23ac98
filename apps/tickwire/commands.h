// The seam between the CLI's main and its subcommands: each command file adds one register
// function here, and sets the process exit code through set_exit_code.
#pragma once

#include <CLI/CLI.hpp>

namespace tickwire::cli {

void register_all(CLI::App& app);
void set_exit_code(int code);
int exit_code();

void register_schema(CLI::App& app);
void register_conditioner(CLI::App& app);
void register_keygen(CLI::App& app);
void register_token(CLI::App& app);
void register_contract(CLI::App& app);
void register_map(CLI::App& app);
void register_server(CLI::App& app);
void register_bot(CLI::App& app);
void register_demo(CLI::App& app);
void register_bench(CLI::App& app);
void register_shards(CLI::App& app);
void register_host(CLI::App& app);
void register_fleet(CLI::App& app);
void register_match(CLI::App& app);
void register_replay(CLI::App& app);
void register_lockstep(CLI::App& app);

}  // namespace tickwire::cli
