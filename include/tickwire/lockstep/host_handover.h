// The old host's side of host migration (seed 002, "Handshake Protocol", "Candidate Election",
// "Handshake Timeout and Candidate Failure"). The host keeps simulating and relaying throughout;
// it offers its relay's state to the best-ranked candidate, tells every peer to move once the
// candidate has accepted, and retires only when the candidate confirms every peer reached it. A
// candidate lost or silent past the timeout aborts the attempt (the peers are told to stay) and
// the next candidate is tried. The messages to send come out of update(); the host sends them on
// the reliable channel.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/lockstep/lockstep_relay.h"

namespace tickwire::lockstep {

TW_REASONS(HandoverAbort,
  candidate_left,  // the candidate's connection closed mid-handshake
  not_accepted,    // no accept within the timeout (the candidate could not match the agreed frame)
  not_moved        // not every peer reached the candidate within the timeout
)

enum class HandoverPhase : uint8_t { idle, offered, moving, complete, failed };

// Candidates, best first: every playing seat but the host's, by round trip (10 ms buckets), ties
// to the freshest (the furthest frame reported).
std::vector<uint8_t> rank_candidates(const LockstepRelay& relay, std::span<const double> rtt_ms_by_seat, uint8_t host_seat);

struct OutgoingMessage {
  uint8_t seat = 0;
  std::vector<uint8_t> bytes;  // envelope included
};

struct HandoverStats {
  uint32_t attempts = 0;
  uint32_t new_host_seat = kNoFrame;  // kNoFrame until complete
  ReasonCounters<HandoverAbort> aborts;
};

class HostHandover {
 public:
  // `relay` must outlive this; `timeout` bounds each of the two waits (accept, every peer moved).
  HostHandover(LockstepRelay& relay, Duration timeout);

  // Starts a handover to the first of `ranked` (and on failure the next ones).
  void begin(std::span<const uint8_t> ranked, MonoTime now);
  // A message a peer sent on the reliable channel (its accept or done; anything else is ignored).
  void receive(uint8_t seat, std::span<const uint8_t> message);
  void seat_left(uint8_t seat);
  // Moves the handshake on; what to send is appended to `out`.
  void update(MonoTime now, std::vector<OutgoingMessage>& out);

  HandoverPhase phase() const { return phase_; }
  // Begun, and neither complete nor failed (a candidate is offered, the peers are moving, or the
  // next offer goes out at the next update).
  bool under_way() const;
  const HandoverStats& stats() const { return stats_; }

 private:
  void offer_next(MonoTime now, std::vector<OutgoingMessage>& out);
  void abort(HandoverAbort why, MonoTime now, std::vector<OutgoingMessage>& out);
  template <class M>
  void to_every_playing_seat(const M& message, std::vector<OutgoingMessage>& out) const;

  LockstepRelay& relay_;
  Duration timeout_;
  HandoverPhase phase_ = HandoverPhase::idle;
  std::vector<uint8_t> candidates_;
  std::size_t next_candidate_ = 0;
  uint8_t candidate_ = 0;
  uint32_t handover_ = 0;
  MonoTime deadline_;
  bool accepted_ = false;
  bool done_ = false;
  bool candidate_left_ = false;
  HandoverStats stats_;
};

}  // namespace tickwire::lockstep
