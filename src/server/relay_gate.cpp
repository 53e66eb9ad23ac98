// The relay rule: game types only, to another admitted client, within the sender's token bucket.
#include "tickwire/server/relay_gate.h"

namespace tickwire {

RelayGate::RelayGate(uint32_t per_second) : per_second_(static_cast<double>(per_second)) { buckets_.fill(fresh()); }

std::optional<protocol::RelayRefusal> RelayGate::admit(OwnerId from, OwnerId to, MessageType type,
                                                      bool target_admitted, MonoTime now) {
  std::optional<protocol::RelayRefusal> refusal;
  if (type < kFirstGameMessageType) {
    refusal = protocol::RelayRefusal::not_game_type;
  } else if (to == from) {
    refusal = protocol::RelayRefusal::to_sender;
  } else if (to == kAuthorityOwner || !target_admitted) {
    refusal = protocol::RelayRefusal::target_absent;
  } else if (!buckets_[from].take(now)) {
    refusal = protocol::RelayRefusal::rate_limited;
  }
  if (refusal) {
    refusals_.add(*refusal);
  } else {
    ++relayed_;
  }
  return refusal;
}

}  // namespace tickwire
