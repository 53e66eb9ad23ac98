// A listen-server deterministic match through the facade (seed 002, "Host migration";
// docs/deterministic-mode.md): every player's process is a DeterministicPlayer, its peer plus a
// server of its own, so the authority can run in any of them. One hosts first; its
// begin_handover() moves the authority to the best candidate without losing a frame, and when the
// host's process vanishes its first successor rebuilds the authority from what the survivors hold.
//
//   tickwire::DeterministicPlayerConfig config;   // its seat, every player's server address, the key
//   auto player = tickwire::DeterministicPlayer::open(config, my_game, my_input);
//   while (running) { player.player->update(); render(my_game); sleep_until_next_frame(); }
//   if (leaving && player.player->hosting()) player.player->begin_handover();
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/deterministic_game.h"
#include "tickwire/lockstep/rollback_stats.h"
#include "tickwire/protocol/room_policy.h"
#include "tickwire/stats.h"
#include "tickwire/transport/netcode_constants.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tickwire {

class DatagramSocket;
class HostTimer;

struct DeterministicPlayerConfig {
  uint8_t seat = 0;             // this player's seat
  uint8_t first_host_seat = 0;  // whose process hosts the authority first
  RoomPolicy policy;            // its mode must be deterministic (seats, window, delay, lag policy); the
                                // first host's relay runs it, and every player checks it is one
  // Each seat's server as tokens list it (its public HOST:PORT), by seat: where this player
  // connects when the authority is there.
  std::vector<std::string> player_servers;
  std::string bind = "127.0.0.1:0";  // this player's own server (port 0: any); its public address is player_servers[seat]
  netcode::Key private_key{};        // every player's server's, shared with the backend
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  // Tokens for each seat's server (by seat, each granting this player's seat: lockstep::seat_grant),
  // from the game's backend; empty: this player mints its own with private_key (development only).
  std::vector<std::vector<uint8_t>> host_tokens;
  uint64_t client_id = 0;         // a development token's client id (0: 7000 + seat)
  uint32_t token_timeout_s = 5;   // a connection silent this long is over: how soon a vanished host is noticed
  Duration handshake_timeout = Duration::seconds(2);  // each wait of a planned handover
  // Injected instead of the real ones (simulations, tests); all must outlive the player.
  DatagramSocket* server_socket = nullptr;
  std::array<DatagramSocket*, 2> client_sockets{};
  HostTimer* timer = nullptr;
  WallTime wall_at_start;  // with an injected timer: the wall time at its now()
};

struct DeterministicPlayerStats {
  lockstep::RollbackStats peer;     // this player's session: frames, rollbacks, waits
  bool hosting = false;             // its process serves the authority now
  uint32_t moves = 0;               // times its peer followed the authority to a new host
  uint32_t host_losses = 0;         // hosts it had to find after one vanished
  uint64_t takeovers = 0;           // authorities its process rebuilt after a host vanished
  uint64_t handovers_completed = 0; // planned moves its process completed as the candidate
  double longest_relay_gap_ms = 0;  // the longest time between two relays reaching its peer
  // While hosting: the relay it serves.
  uint32_t clock_frame = 0;
  uint64_t frames_compared = 0;
  uint32_t desync_frame = 0xffff'ffffu;
  // "lockstep.handover.abort.*" (its planned handovers that failed, by why), "lockstep.drop.*",
  // "lockstep.refused.*" and the far-future inputs and checksums (the relay it serves, as
  // DeterministicHost counts them), "netcode.reject.*" (its own server).
  std::vector<ReasonCount> reasons;
};

class DeterministicPlayer;
struct DeterministicPlayerOpen {
  std::unique_ptr<DeterministicPlayer> player;
  std::string error;
  explicit operator bool() const { return player != nullptr; }
};

class DeterministicPlayer {
 public:
  // Opens its server and its client sockets and connects to the first host. Refused, by name, for
  // a policy that is not deterministic, a seat outside it, or a server address or token missing.
  // `game` and `input` outlive the player; `game` holds the match's initial state.
  static DeterministicPlayerOpen open(const DeterministicPlayerConfig& config, lockstep::DeterministicGame& game,
                                      lockstep::LocalInputSource& input);
  ~DeterministicPlayer();
  DeterministicPlayer(const DeterministicPlayer&) = delete;
  DeterministicPlayer& operator=(const DeterministicPlayer&) = delete;

  // One frame at the timer's now: the authority (if this process serves it), then the peer.
  void update();
  // The first host hands the authority over to the best candidate (by RTT, then freshness; the
  // next ones if it fails). False when this process does not serve the first relay or a handover
  // is under way.
  bool begin_handover();
  bool hosting() const;
  bool seated() const;
  uint32_t next_frame() const;
  DeterministicPlayerStats stats() const;
  std::string server_address() const;  // its own server's bound HOST:PORT

  struct Parts;

 private:
  explicit DeterministicPlayer(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace tickwire
