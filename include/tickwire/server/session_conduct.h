// SessionConduct: what one admitted session did that an honest client never does, and when that
// is enough to end it. Every offence (a message past its rate, a body that does not decode, a
// message a client may not send, inputs past the queue, a malformed packet on its own link) is
// counted by reason and takes a token from a bucket of the contract's kickAfterOffences refilled at
// offencesForgivenPerSecond; the session that empties it is kicked, the reason named in the
// server's stats. Bounded work per offence.
#pragma once

#include <cstdint>
#include <optional>

#include "tickwire/clock/token_bucket.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/protocol/room_policy.h"

namespace tickwire {

// How fast a session's input sequences may advance, from the contract's tick rate: a client makes
// one input a tick (its clock runs within +-2%), and a link that stalled delivers a stall's worth
// at once (mobile-bad stalls 250 ms; a burst-host delivers 83 ms at a time).
inline constexpr double kInputRateSlack = 1.25;    // sequences a second, per tick a second
inline constexpr double kInputBurstSeconds = 2.0;  // a stall's worth of sequences arriving at once

TW_REASONS(Offence,
           input_rate,         // an input frame whose new sequences outran the tick rate (a client makes one a tick)
           interact_rate,      // interactions past the contract's rate
           fire_rate,          // shots past the contract's rate
           fire_malformed,     // a shot with non-finite numbers or no aim
           relay_refused,      // an addressed message the relay gate refused (rate, self, reserved type)
           ping_rate,          // pings past the contract's rate
           edit_unauthorized,  // a scene edit from a session admitted without world authority
           edit_rate,          // scene edit gestures past the contract's rate
           undecodable,        // a body that does not decode as its message's shape
           malformed_packet,   // a packet inside its link's encryption that broke the transport's rules
           unexpected)         // a message a client never sends

// Why the server ended a session itself.
TW_REASONS(KickReason,
           flood)  // its offences emptied the contract's bucket

class SessionConduct {
 public:
  explicit SessionConduct(const InteractionLimits& limits = {})
      : bucket_(static_cast<double>(limits.offences_forgiven_per_second), static_cast<double>(limits.kick_after_offences)) {}

  // Counts `count` offences of one kind at `now`; true once the session has emptied its bucket (kick it). At most `count` bucket takes.
  bool offend(Offence offence, uint64_t count, MonoTime now) {
    offences_.add(offence, count);
    for (uint64_t i = 0; i < count && !kick_; ++i)
      if (!bucket_.take(now)) kick_ = KickReason::flood;
    return kick_.has_value();
  }
  bool offend(Offence offence, MonoTime now) { return offend(offence, 1, now); }
  const std::optional<KickReason>& kick() const { return kick_; }
  const ReasonCounters<Offence>& offences() const { return offences_; }

 private:
  TokenBucket bucket_;
  ReasonCounters<Offence> offences_;
  std::optional<KickReason> kick_;
};

}  // namespace tickwire
