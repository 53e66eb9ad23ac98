// A rollback session behind a ReliableClient (a deterministic peer on the real transport): the
// welcome, relays and the handshake in, its frames out every iteration; while the authority moves
// it talks to the old host and the new one, and when its host vanishes it finds a successor.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/link_layout.h"
#include "tickwire/lockstep/migration_messages.h"
#include "tickwire/lockstep/rollback_session.h"
#include "tickwire/transport/reliable_client.h"

namespace tickwire::lockstep {

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
