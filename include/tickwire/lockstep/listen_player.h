// ListenPlayer: one player's process in a listen-server deterministic match (seed 002, "Host
// migration"): its rollback session behind a PeerLink, its own listening server (any player may be
// asked to host), and its connections to whichever process hosts the authority. The first host
// also runs the relay, with a HostHandover for a planned move; any other player takes the
// authority over through its CandidateHost: offered it in a planned handover, or as the first
// successor when the host vanishes. Transport-agnostic: the sockets and the tokens come in, so the
// tests run it on SimNetwork and the facade (tickwire::DeterministicPlayer) on UDP.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/candidate_host.h"
#include "tickwire/lockstep/deterministic_game.h"
#include "tickwire/lockstep/host_handover.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/lockstep_settings.h"
#include "tickwire/lockstep/peer_link.h"
#include "tickwire/lockstep/relay_host.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/netcode_client.h"
#include "tickwire/transport/netcode_server.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/transport/reliable_server.h"

namespace tickwire::lockstep {

// A connect token for this player to the server of the process seated at `seat` (its user data
// granting this player's seat: seat_grant); empty when there is none.
using HostTokenSource = std::function<std::vector<uint8_t>(uint8_t seat)>;

struct ListenPlayerConfig {
  uint8_t seat = 0;                            // this player's seat
  uint8_t first_host_seat = 0;                 // whose process hosts the authority first
  LockstepSettings settings;                   // the first host's relay (read by that process only)
  NetcodeServerConfig server;                  // its own server: the backend's key, its public address
  Duration handshake_timeout = Duration::seconds(2);  // each wait of a planned handover
};

class ListenPlayer : public PeerMigration {
 public:
  // Every reference outlives the player. `client_sockets`: two, so a move can connect to the new
  // host while the old connection still runs.
  ListenPlayer(const ListenPlayerConfig& config, DatagramSocket& server_socket,
               std::array<DatagramSocket*, 2> client_sockets, HostTokenSource tokens, DeterministicGame& game,
               LocalInputSource& input, MonoTime now);
  ~ListenPlayer() override;
  ListenPlayer(const ListenPlayer&) = delete;
  ListenPlayer& operator=(const ListenPlayer&) = delete;

  // One iteration: the authority it serves (if any), then its peer.
  void update(MonoTime now, WallTime wall_now);
  // The first host hands the authority over: to the best candidate by RTT, then freshness
  // (rank_candidates), the next ones if it fails. False when this process does not serve the first
  // relay or a handover is under way.
  bool begin_handover(MonoTime now);

  // Whether this process serves the authority now (the first host until it hands over; another
  // once its candidate hosts), and that relay.
  bool hosting() const;
  const LockstepRelay* serving_relay() const;
  const RollbackSession& session() const { return *session_; }
  const PeerLink& link() const { return *link_; }
  const CandidateHost& candidate() const { return *candidate_; }
  // The first host's relay and handover (null elsewhere).
  const LockstepRelay* first_relay() const { return first_relay_ ? &*first_relay_ : nullptr; }
  const HostHandover* handover() const { return handover_ ? &*handover_ : nullptr; }
  const NetcodeServer& server() const { return *netcode_server_; }

  // PeerMigration: the process's side of a move.
  ReliableClient* connect_to_host(uint8_t seat, MonoTime now) override;
  void release(ReliableClient& client, MonoTime now) override;
  void on_offer(std::span<const uint8_t> message, MonoTime now, Duration rtt) override;
  void on_stay(MonoTime now) override;
  void take_over(uint8_t dead_seat, MonoTime now) override;

 private:
  ReliableClient* open_connection(std::size_t socket, uint8_t host_seat, MonoTime now);

  uint8_t seat_;
  std::array<DatagramSocket*, 2> client_sockets_;
  HostTokenSource tokens_;
  std::unique_ptr<NetcodeServer> netcode_server_;
  std::unique_ptr<ReliableServer> reliable_server_;
  std::array<std::unique_ptr<NetcodeClient>, 2> netcodes_;
  std::array<std::unique_ptr<ReliableClient>, 2> clients_;
  std::unique_ptr<RollbackSession> session_;
  std::unique_ptr<PeerLink> link_;
  std::unique_ptr<CandidateHost> candidate_;
  std::optional<LockstepRelay> first_relay_;
  std::optional<HostHandover> handover_;
  std::optional<RelayHost> first_host_;
};

}  // namespace tickwire::lockstep
