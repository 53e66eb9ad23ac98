// discard_ack_notices: both queues, emptied.
#include "tickwire/transport/ack_notices.h"

namespace tickwire {

void discard_ack_notices(ReliableEndpoint& endpoint) {
  while (endpoint.pop_acked_packet()) {
  }
  while (endpoint.pop_acked_message()) {
  }
}

}  // namespace tickwire
