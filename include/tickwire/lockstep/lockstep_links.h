// Deterministic mode over the real transport: the relay behind a ReliableServer and a rollback
// session behind a ReliableClient. The welcome and host migration's handshake travel on the
// reliable channel; inputs, relays and checksums on the unreliable one, made reliable by
// redundancy (every message repeats what the other side has not acknowledged), so a lost datagram
// costs nothing. A connection sits at the seat its connect token grants (seat_grant), so a peer
// keeps its seat when the authority moves to another host.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/host_handover.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/transport/reliable_server.h"

namespace tickwire::lockstep {

inline constexpr uint8_t kWelcomeChannel = 0;  // reliable-ordered: the welcome, the handshake (blocks up to 64 KB)
inline constexpr uint8_t kFramesChannel = 1;   // unreliable

// The channel layout both ends of a deterministic match use.
EndpointConfig lockstep_endpoint_config();

// A connect token's user data granting `seat` ("SEAT" and the seat); what a grant names, if any.
netcode::UserData seat_grant(uint8_t seat);
std::optional<uint8_t> granted_seat(const netcode::UserData& user_data);

struct RelayHostCounters {
  uint64_t refused_connections = 0;  // a seat past the seats, taken, or not playing after the start
  uint64_t relays_sent = 0;
  uint64_t relay_bytes = 0;
};

class RelayHost {
 public:
  // `server` (max_clients >= seats) and `relay` must outlive the host; `handover`, if given, is
  // this host's side of a migration away from it; `host_seat` is the seat playing in this host's
  // process (kNoSeat: a dedicated host), never its own successor.
  RelayHost(ReliableServer& server, LockstepRelay& relay, HostHandover* handover = nullptr, uint8_t host_seat = kNoSeat);
  // One iteration: receive, seat newcomers, start once every seat is taken (welcoming each), take
  // every peer's frames, compare and police, drop whom the relay dropped, move the handshake on,
  // relay, send. Once the relay is retired (handed over) every connection is closed.
  void update(MonoTime now, WallTime wall_now);
  const RelayHostCounters& counters() const { return counters_; }
  // The round trip to each seat's peer (0 for a seat with no connection), for ranking candidates.
  std::vector<double> rtt_ms_by_seat() const;

 private:
  void take_events(MonoTime now);
  void seat_connection(uint32_t index, MonoTime now);
  ReliableEndpoint* endpoint_of(uint8_t seat);
  void send_reliable(uint8_t seat, std::span<const uint8_t> bytes);

  void send_successors(MonoTime now);

  ReliableServer& server_;
  LockstepRelay& relay_;
  HostHandover* handover_;
  uint8_t host_seat_;
  std::optional<MonoTime> next_successors_;
  std::array<int32_t, kMaxPeers> client_of_seat_;
  std::vector<int32_t> seat_of_client_;
  bool closed_ = false;
  RelayHostCounters counters_;
  std::vector<OutgoingMessage> outbox_;
  std::array<uint8_t, kMaxPacketPayloadBytes> buffer_{};
};

// What a peer's process does when the authority moves (seed 002: peers re-anchor to the new host
// and re-send what it has not acknowledged, which the session's redundancy does by itself).
class PeerMigration {
 public:
  virtual ~PeerMigration() = default;
  // A fresh connection to the host at `seat` (connecting), or null if there is none to open.
  virtual ReliableClient* connect_to_host(uint8_t seat, MonoTime now) = 0;
  // A connection this link no longer needs (an aborted move); the process closes it.
  virtual void release(ReliableClient& client, MonoTime now) = 0;
  // This peer is the candidate: the old host offers its relay's state.
  virtual void on_offer(std::span<const uint8_t> message, MonoTime now, Duration rtt) = 0;
  // The old host keeps the authority (an attempt aborted).
  virtual void on_stay(MonoTime now) { (void)now; }
  // The host vanished and this peer is the first successor: it rebuilds the authority from what
  // it knows (CandidateHost::take_over); `dead_seat` is the vanished host's seat (kNoSeat: none).
  virtual void take_over(uint8_t dead_seat, MonoTime now) { (void)dead_seat, (void)now; }
};

class PeerLink {
 public:
  // `client` and `session` (and `migration`, if given) must outlive the link.
  PeerLink(ReliableClient& client, RollbackSession& session, PeerMigration* migration = nullptr);
  // One iteration: receive (welcome, relays, the handshake) from the host and, mid-move, from the
  // new one; advance the session; send its frames to both.
  void update(MonoTime now);
  // A message for the current host on the reliable channel (a candidate's accept or done).
  void send_to_host(std::span<const uint8_t> message);
  uint64_t bytes_sent() const { return bytes_sent_; }
  // The longest time between two relays reaching the session, from either host.
  Duration longest_relay_gap() const { return longest_gap_; }
  uint32_t moves() const { return moves_; }
  // Hosts this peer had to find after its host vanished.
  uint32_t host_losses() const { return host_losses_; }
  ReliableClient& host_connection() { return *host_; }

 private:
  void take_messages(ReliableClient& from, RollbackSession::Host host, MonoTime now);
  void take_reliable(std::span<const uint8_t> message, MonoTime now, Duration rtt);
  void send_frames(ReliableClient& to, std::span<const uint8_t> frames);
  void take_successors(std::span<const uint8_t> body);
  void replace_lost_host(MonoTime now);

  ReliableClient* host_;
  ReliableClient* next_ = nullptr;  // the host the authority is moving to
  RollbackSession& session_;
  PeerMigration* migration_;
  uint64_t bytes_sent_ = 0;
  std::optional<MonoTime> last_relay_;
  Duration longest_gap_;
  uint32_t moves_ = 0;
  uint32_t host_losses_ = 0;
  bool host_was_connected_ = false;
  bool looking_ = false;                 // the host vanished and a successor is being found
  uint8_t host_seat_ = kNoSeat;          // the seat playing in the host's process, as it said
  std::vector<uint8_t> successors_;      // who takes over if it vanishes, best first
  std::size_t successor_cursor_ = 0;
  std::array<uint8_t, kMaxPacketPayloadBytes> buffer_{};
};

}  // namespace tickwire::lockstep
