// `tickwire bench [lights|cubes|bodies|props|all|server-cost|room]`: the scenarios of SCENARIOS.md, printed
// as a table or JSON. The scenarios live in the bench scenario library; this file only parses and prints.
// Exit 2 when the request cannot run (bad trace), 3 when a scenario decoded wrongly or imprecisely.
#include <optional>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bandwidth_bench.h"
#include "commands.h"
#include "room_bench.h"
#include "server_cost.h"
#include "tickwire/replication/replication_server.h"
#include "tickwire/transport/link_model.h"

namespace tickwire::cli {
namespace {

constexpr int kExitBenchRefused = 2;
constexpr int kExitBenchIncorrect = 3;

struct BenchArgs {
  bench::BenchRequest request;
  bool json = false;
  uint32_t ticks = 0;  // 0: each scenario's default
  bool no_verify = false;  // server-cost: skip decoding every body
  std::optional<uint32_t> fit_frames;  // server-cost: the builder's max_fit_frames
  std::vector<uint32_t> clients;       // server-cost: one count (default 255); room: one run per count
  std::string transport = "both";      // room: sim | udp | both
  std::string link;                    // room: the SimNetwork link profile (empty: lossless, at once)
};

// A scenario's report on stdout: its JSON (--json) or its table.
template <class Json, class Table>
void print_report(bool json, Json&& make_json, Table&& make_table) {
  if (json) {
    std::printf("%s\n", make_json().dump(2).c_str());
  } else {
    std::printf("%s", make_table().c_str());
  }
}

// Scenario (d), server cost: ms per tick on one thread, not bytes, so it has its own table.
void run_server_cost_command(const BenchArgs& args) {
  bench::ServerCostRequest request;
  if (args.ticks != 0) request.ticks = args.ticks;
  request.seed = args.request.seed;
  request.verify = !args.no_verify;
  if (args.fit_frames) request.max_fit_frames = *args.fit_frames;
  if (args.clients.size() > 1) {
    std::fprintf(stderr, "bench server-cost: --clients takes one count\n");
    set_exit_code(kExitBenchRefused);
    return;
  }
  if (!args.clients.empty()) request.clients = args.clients.front();
  const bench::ServerCostResult result = bench::run_server_cost(request);
  print_report(args.json, [&] { return bench::server_cost_json(result); }, [&] { return bench::server_cost_table(result); });
  if (!result.correct()) set_exit_code(kExitBenchIncorrect);
}

// Scenario (e), the room, full stack: server CPU per tick against N scripted clients.
void run_room_command(const BenchArgs& args) {
  bench::RoomBenchRequest request;
  if (args.ticks != 0) request.ticks = args.ticks;
  request.seed = args.request.seed;
  if (!args.clients.empty()) request.clients = args.clients;
  if (args.transport == "sim") request.transports = {bench::RoomBenchTransport::sim};
  if (args.transport == "udp") request.transports = {bench::RoomBenchTransport::udp};
  if (!args.link.empty()) request.sim_link = *link_profile(args.link);
  const bench::RoomBenchResult result = bench::run_room_bench(request);
  print_report(args.json, [&] { return bench::room_bench_json(result); }, [&] { return bench::room_bench_table(result); });
  if (!result.correct()) set_exit_code(kExitBenchIncorrect);
}

// The link profiles' names, for --link.
std::vector<std::string> link_profile_names() {
  std::vector<std::string> names;
  for (const LinkProfile& p : link_profiles()) names.emplace_back(p.name);
  return names;
}

}  // namespace

void register_bench(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "bandwidth scenarios (imported map lights, the cube scene, 250 bodies, 200 shoved props), server cost and the full-stack room");
  cmd->add_option("scenario", args->request.which, "lights | cubes | bodies | props | all | server-cost | room")
      ->check(CLI::IsMember({"lights", "cubes", "bodies", "props", "all", "server-cost", "room"}));
  cmd->add_flag("--no-verify", args->no_verify, "server-cost: do not decode and compare every body");
  cmd->add_option("--fit-frames", args->fit_frames, "server-cost: fit predictions over at most this many held frames (0: none)");
  cmd->add_option("--clients", args->clients,
                  "server-cost: clients served (default 256); room: one run per count (default 64,255,1000)")
      ->delimiter(',')
      ->check(CLI::Range(1u, kReplicationMaxClients));
  cmd->add_option("--transport", args->transport, "room: sim (the server's CPU alone) | udp (loopback, the kernel included) | both")
      ->check(CLI::IsMember({"sim", "udp", "both"}));
  cmd->add_option("--link", args->link, "room: the simulated link both ways (a conditioner profile; default lossless)")
      ->check(CLI::IsMember(link_profile_names()));
  cmd->add_flag("--json", args->json, "print JSON instead of tables");
  cmd->add_option("--trace", args->request.trace_path, "cubes: replay this TWCUBES1 trace instead of simulating");
  cmd->add_option("--write-trace", args->request.write_trace_path, "cubes: write the simulated trace (TWCUBES1)");
  cmd->add_option("--cube-spacing", args->request.cube_spacing_m, "cubes: the simulated grid's spacing in metres (default 1.5; 1 to 8)");
  cmd->add_option("--ticks", args->ticks, "ticks per scenario (default: lights 600, cubes 900, bodies 1800, props 1800, server-cost and room 600)");
  cmd->add_option("--seed", args->request.seed, "seed for loss, the cube drive, the bodies' paths and the props' bots");
  cmd->callback([args] {
    if (args->request.which == "server-cost") {
      run_server_cost_command(*args);
      return;
    }
    if (args->request.which == "room") {
      run_room_command(*args);
      return;
    }
    if (args->ticks != 0) args->request.ticks = args->ticks;
    const bench::BenchRun run = bench::run_bandwidth_benches(args->request);
    print_report(args->json, [&] { return bench::bench_json(run); }, [&] { return bench::bench_table(run); });
    if (!run.error.empty()) {
      std::fprintf(stderr, "bench: %s\n", run.error.c_str());
      set_exit_code(kExitBenchRefused);
    } else if (!run.correct()) {
      set_exit_code(kExitBenchIncorrect);
    }
  });
}

}  // namespace tickwire::cli
