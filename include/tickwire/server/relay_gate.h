// RelayGate: the authority's rule for a client's addressed message (seed 002, NetChannel::SendTo:
// "the Authority relays without inspecting the payload"). A game message goes on, unread, to its
// target when the target is another admitted client and the sender is within its relay rate (a
// token bucket per sender, from the contract); anything else is refused by name and counted.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "tickwire/clock/token_bucket.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/relay_refused.h"
#include "tickwire/transport/message_envelope.h"

namespace tickwire {

class RelayGate {
 public:
  // `per_second` per sender, sustained, and as a burst (at least one).
  explicit RelayGate(uint32_t per_second);

  // Whether `from` may relay `type` to `to` at `now` (spends one token when it may); the refusal
  // is counted. `target_admitted`: `to` is an admitted client.
  std::optional<protocol::RelayRefusal> admit(OwnerId from, OwnerId to, MessageType type, bool target_admitted,
                                              MonoTime now);
  // The transport refused the relayed message.
  void target_full() { refusals_.add(protocol::RelayRefusal::target_full); }
  // A session left: its bucket starts full again for whoever takes its owner id.
  void forget(OwnerId owner) { buckets_[owner] = fresh(); }

  uint64_t relayed() const { return relayed_; }
  const ReasonCounters<protocol::RelayRefusal>& refusals() const { return refusals_; }

 private:
  TokenBucket fresh() const { return TokenBucket(per_second_, std::max(1.0, per_second_)); }

  double per_second_;
  std::array<TokenBucket, kOwnerIdCount> buckets_;  // by sender owner id
  uint64_t relayed_ = 0;
  ReasonCounters<protocol::RelayRefusal> refusals_;
};

}  // namespace tickwire
