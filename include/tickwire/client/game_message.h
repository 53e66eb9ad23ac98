// GameMessage: a message of the game's own (type >= kFirstGameMessageType) for this client: from
// another client, relayed by the server unread (`from` is that client's owner id, as the server
// stamped it), or from the server itself (`from` is 0). The engine never reads its payload.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/transport/message_envelope.h"

namespace tickwire {

struct GameMessage {
  OwnerId from = 0;
  MessageType type = 0;
  std::vector<uint8_t> payload;
};

}  // namespace tickwire
