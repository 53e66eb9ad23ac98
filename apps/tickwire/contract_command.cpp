// `tickwire contract`: resolves a room's netcode contract from a policy given on the command line
// and prints its canonical JSON, its hash, the policy's revision key and the prediction admission
// (what the server grants the pawn's movement, and why a requested prediction was demoted), so any
// process (or a person) can check that the same content gives the same contract everywhere.
#include <cstdio>
#include <string>

#include "commands.h"
#include "pawn_body_option.h"
#include "tickwire/protocol/netcode_contract.h"

namespace tickwire::cli {

void register_contract(CLI::App& app) {
  auto* cmd = app.add_subcommand("contract", "resolve a room policy's netcode contract; print its JSON and hash");
  static RoomPolicy policy;
  policy.identity = {"room", "tickwire", "local", "dev", "dev", "", ""};
  cmd->add_option("--room", policy.identity.room_id, "room id");
  cmd->add_option("--game", policy.identity.game, "game name");
  cmd->add_option("--content", policy.identity.content_version, "content version");
  cmd->add_option("--tick-rate", policy.cadence.tick_rate_hz, "simulation ticks per second");
  static uint32_t snapshot_rate_hz = 0;
  cmd->add_option("--snapshot-rate", snapshot_rate_hz, "snapshots per second, a divisor of the tick rate (default: the tick rate)");
  cmd->add_option("--forgiveness", policy.input.forgiveness, "1.0: the server's answer always stands");
  cmd->add_option("--time-scale", policy.cadence.time_scale, "world seconds a tick advances, in tick lengths");
  static std::string pawn_body;
  add_pawn_body_option(cmd, pawn_body);
  cmd->callback([] {
    policy.cadence.snapshot_rate_hz = snapshot_rate_hz == 0 ? policy.cadence.tick_rate_hz : snapshot_rate_hz;
    // A room whose client asks to predict its pawn, as the reference game's (kinematic unless --pawn-body says).
    policy.prediction = {pawn_body_of(pawn_body), MovementAuthority::client_predicted};
    const ContractResolution resolved = resolve_netcode_contract(policy);
    if (!resolved.ok()) {
      std::fprintf(stderr, "tickwire contract: %s in %.*s\n", std::string(reason_name(resolved.issue.error)).c_str(),
                   static_cast<int>(resolved.issue.field.size()), resolved.issue.field.data());
      set_exit_code(2);
      return;
    }
    std::printf("%s\nhash %s\nrevision %s\nprediction %s\n", contract_canonical_json(*resolved.contract).c_str(),
                contract_hash(*resolved.contract).hex().c_str(), contract_revision_key(policy).hex().c_str(),
                describe_prediction_admission(resolved.contract->prediction).c_str());
  });
}

}  // namespace tickwire::cli
