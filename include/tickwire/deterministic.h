// Deterministic mode through the facade (docs/deterministic-mode.md): a host is a config and a
// loop; a peer is a config, a DeterministicGame, a LocalInputSource and one call per frame.
//
//   auto host = tickwire::DeterministicHost::open(host_config);     // policy.mode.mode = deterministic
//   while (running) { host.host->update(); sleep_until_next_frame(); }
//
//   auto peer = tickwire::DeterministicPeer::open(peer_config, my_game, my_input);  // a token granting a seat
//   while (running) { peer.peer->update(); render(my_game); sleep_until_next_frame(); }
//
// Under them: the socket, netcode 1.02, the reliability layer, the relay (LockstepRelay behind a
// RelayHost) or the rollback session (RollbackSession behind a PeerLink). What they count reaches
// the operator as named reasons, as ServerStats' do.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/deterministic_game.h"
#include "tickwire/lockstep/replay.h"
#include "tickwire/lockstep/rollback_stats.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/room_policy.h"
#include "tickwire/stats.h"
#include "tickwire/transport/netcode_constants.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tickwire {

class DatagramSocket;
class HostTimer;

struct DeterministicHostConfig {
  std::string bind = "127.0.0.1:40000";  // numeric HOST:PORT (port 0: any)
  std::string public_address;            // the HOST:PORT tokens list; empty: the bound address
  netcode::Key private_key{};            // shared with the backend that mints connect tokens
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  RoomPolicy policy;                     // its mode must be deterministic: seats, window, delay, lag policy
  // Injected instead of the real ones (simulations, tests); both must outlive the host.
  DatagramSocket* socket = nullptr;
  HostTimer* timer = nullptr;
  WallTime wall_at_start;  // with an injected timer: the wall time at its now()
};

struct DeterministicHostStats {
  uint32_t clock_frame = 0;
  uint64_t frames_compared = 0;      // frames whose checksums every seated peer reported and agreed on
  uint32_t desync_frame = 0xffff'ffffu;  // the first diverging frame, if one was found
  uint64_t held_at_window_ms = 0;    // time some peer held the others at the window
  uint64_t relay_bytes = 0;
  std::vector<ReasonCount> reasons;  // "lockstep.drop.lagged", "lockstep.refused.truncated", "netcode.reject.*"...
};

class DeterministicHost;
struct DeterministicHostOpen {
  std::unique_ptr<DeterministicHost> host;
  std::string error;
  explicit operator bool() const { return host != nullptr; }
};

class DeterministicHost {
 public:
  // Opens the socket and resolves the policy (refused, by field, unless its mode is deterministic).
  static DeterministicHostOpen open(const DeterministicHostConfig& config);
  ~DeterministicHost();
  DeterministicHost(const DeterministicHost&) = delete;
  DeterministicHost& operator=(const DeterministicHost&) = delete;

  // One iteration at the timer's now: receive, seat, start once every seat is taken, relay, send.
  // Call it at least at the logic rate.
  void update();
  DeterministicHostStats stats() const;
  const NetcodeContract& contract() const;
  std::string address() const;  // the bound HOST:PORT

  struct Parts;

 private:
  explicit DeterministicHost(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

struct DeterministicPeerConfig {
  std::vector<uint8_t> connect_token;  // minted by the backend, its user data granting a seat
  // Injected instead of the real ones (simulations, tests); both must outlive the peer.
  DatagramSocket* socket = nullptr;
  HostTimer* timer = nullptr;
};

class DeterministicPeer;
struct DeterministicPeerOpen {
  std::unique_ptr<DeterministicPeer> peer;
  std::string error;
  explicit operator bool() const { return peer != nullptr; }
};

class DeterministicPeer {
 public:
  // `game` and `input` outlive the peer; `game` holds the match's initial state.
  static DeterministicPeerOpen open(const DeterministicPeerConfig& config, lockstep::DeterministicGame& game,
                                    lockstep::LocalInputSource& input);
  ~DeterministicPeer();
  DeterministicPeer(const DeterministicPeer&) = delete;
  DeterministicPeer& operator=(const DeterministicPeer&) = delete;

  // One frame: receive the welcome and relays, roll back and step the frames the clock asks for,
  // send this peer's inputs and checksums. Call it at least at the logic rate.
  void update();
  bool connected() const;
  bool seated() const;
  uint32_t next_frame() const;
  const lockstep::RollbackStats& stats() const;
  // Every confirmed frame from now on goes to `sink` (a lockstep::ReplayRecorder); attach before
  // the welcome to record the whole match.
  void record_to(lockstep::ConfirmedFrameSink* sink);

  struct Parts;

 private:
  explicit DeterministicPeer(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace tickwire
