// Discarding the per-packet ack notices a layer does not read. An endpoint queues a notice for
// every packet the peer acknowledged (capped at kAckNoticeQueueCap; overflow counts
// ack_queue_full). The snapshot stack learns what a client holds from its input frames, and
// deterministic mode from its messages, so neither reads them: each discards them every update,
// and ack_queue_full then counts only a reader that fell behind.
#pragma once

#include "tickwire/transport/reliable_endpoint.h"

namespace tickwire {

void discard_ack_notices(ReliableEndpoint& endpoint);

}  // namespace tickwire
