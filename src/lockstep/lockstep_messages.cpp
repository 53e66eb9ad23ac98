// The list of deterministic mode's messages, built once.
#include "tickwire/lockstep/lockstep_messages.h"

#include "tickwire/lockstep/migration_messages.h"

namespace tickwire::lockstep {

const wire::WireMessages& lockstep_messages() {
  static const wire::WireMessages messages = wire::WireMessages::of<LockstepWelcome, PeerFrames, RelayFrames, HandoverOffer, HandoverAccept, HostMove,
                                                                       HandoverDone, HostStay, Successors>();
  return messages;
}

}  // namespace tickwire::lockstep
