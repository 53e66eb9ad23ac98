// The candidate's side of host migration (seed 002, steps 3 and 4): given the old host's relay
// state, it runs a relay restored from it on its own server, accepts only once its own game has
// confirmed the agreed frame with the agreed checksum (its state matches the match's), and tells
// the old host it is done once every playing peer has reached it. Until the old host retires, both
// relay: the peers take either's inputs, which are the same canonical ones.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "tickwire/clock/time.h"
#include "tickwire/lockstep/peer_link.h"
#include "tickwire/lockstep/relay_host.h"
#include "tickwire/lockstep/lockstep_relay.h"
#include "tickwire/lockstep/rollback_session.h"

namespace tickwire::lockstep {

struct CandidateCounters {
  uint64_t offers = 0;
  uint64_t offers_refused = 0;  // a state that does not read or breaks a rule
  uint64_t accepted = 0;
  uint64_t completed = 0;
  uint64_t takeovers = 0;  // authorities rebuilt here after a host vanished
};

class CandidateHost {
 public:
  // `server` is this process's own (listening), `session` and `link` its peer's; all outlive this.
  // A relay rebuilt after the host vanished waits at most `recovery_timeout` for the survivors.
  CandidateHost(ReliableServer& server, RollbackSession& session, PeerLink& link,
                Duration recovery_timeout = Duration::seconds(2));

  // The old host's HandoverOffer (envelope included), `rtt` the link to it.
  void offer(std::span<const uint8_t> message, MonoTime now, Duration rtt);
  // The old host keeps the authority: the restored relay is dropped.
  void stay();
  // The host vanished and this peer is its first successor: the authority is rebuilt from what
  // this peer knows (RollbackSession::recovery_state) and recovers what the survivors hold.
  void take_over(uint8_t dead_seat, MonoTime now);
  // Serves the restored relay, and sends the accept and the done when their conditions hold.
  void update(MonoTime now, WallTime wall_now);

  bool hosting() const { return host_.has_value(); }
  LockstepRelay* relay() { return relay_ ? &*relay_ : nullptr; }
  const LockstepRelay* relay() const { return relay_ ? &*relay_ : nullptr; }
  const CandidateCounters& counters() const { return counters_; }

 private:
  bool state_matches() const;

  ReliableServer& server_;
  RollbackSession& session_;
  PeerLink& link_;
  Duration recovery_timeout_;
  std::optional<LockstepRelay> relay_;
  std::optional<RelayHost> host_;
  uint32_t handover_ = 0;
  uint32_t agreed_frame_ = 0;
  uint32_t agreed_checksum_ = 0;
  bool accepted_ = false;
  bool done_ = false;
  CandidateCounters counters_;
};

}  // namespace tickwire::lockstep
