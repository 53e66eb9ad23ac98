// The process-wide sequence-stream allocator, started at a random epoch.
#include "tickwire/transport/sequence_streams.h"

#include "tickwire/transport/netcode_crypto.h"

namespace tickwire::netcode {

SequenceStreams& SequenceStreams::process() {
  static SequenceStreams streams(random_u64());
  return streams;
}

}  // namespace tickwire::netcode
