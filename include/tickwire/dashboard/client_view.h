// The bots' dashboard line (tickwire bot --http): per client, what it draws against what the server
// said. Its predicted own pawn against the server's answer (the correction ghost), its remote
// entities as interpolated now against the newest snapshot, its clock regulator's rate and margin,
// and its cumulative held frames, snaps and corrections (the page takes rates over time itself).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tickwire/client.h"
#include "tickwire/protocol/vocabulary.h"

namespace tickwire::dashboard {

// One client as the line shows it: what look_at() reads through the facade.
struct ClientLook {
  uint64_t id = 0;     // the game's client id
  OwnerId owner = 0;   // 0 before the welcome
  ClientPhase phase = ClientPhase::connecting;
  bool predicted = false;         // the room's contract admits predicting the own pawn
  protocol::Vec3 own_m;           // the own pawn as drawn
  std::optional<OwnPawnAnswer> answer;
  std::vector<DrawnEntity> remotes;  // as drawn now
  std::optional<uint32_t> newest_tick;
  std::vector<DrawnEntity> newest;   // the same entities in the newest snapshot
  double rtt_ms = 0;
  double clock_rate = 1;
  double clock_margin_ticks = 0;
  uint64_t clock_holds = 0, held_frames = 0, render_snaps = 0, prediction_snaps = 0, corrections = 0, snapshots = 0;
};

// Fills `look` from `client` (its vectors reused).
void look_at(const Client& client, uint64_t id, ClientLook& look);

class ClientView {
 public:
  // Remote entities a client's entry lists at most (the nearest to its own pawn), in each list.
  static constexpr std::size_t kMaxRemotesPerClient = 64;

  explicit ClientView(GameVocabulary vocabulary) : vocabulary_(std::move(vocabulary)) {}

  // One line: {"type":"bots","time_s":..,"clients":[{"id","owner","phase","predicted","own":{x,y,z},
  // "answer":{tick,x,y,z,correction_m,easing_m}|null,"ghost_m","clock":{rate,margin_ticks,holds},
  // "counters":{held_frames,render_snaps,prediction_snaps,corrections,snapshots},"rtt_ms",
  // "remote_count","newest_tick","remotes":[{id,kind,x,z,extrapolated}],"newest":[{id,x,z}]}..]}.
  // "ghost_m" is the distance from the drawn pawn to the server's answer. Non-finite numbers are
  // written as null (JSON has no NaN).
  std::string render(double now_s, std::span<const ClientLook> looks);

 private:
  GameVocabulary vocabulary_;
  std::vector<std::size_t> order_;  // scratch: one client's remotes, nearest first
};

}  // namespace tickwire::dashboard
