// A client's waiting game messages, fed to the reliable channel as it takes them.
#include "tickwire/server/game_outbox.h"

namespace tickwire {

bool GameOutbox::push(MessageType type, std::span<const uint8_t> payload) {
  if (bytes_ + payload.size() > kGameOutboxMaxBytes) return false;
  queue_.push_back(Pending{type, {payload.begin(), payload.end()}});
  bytes_ += payload.size();
  return true;
}

void GameOutbox::flush(NetChannel& net, uint8_t channel) {
  while (!queue_.empty()) {
    const Pending& next = queue_.front();
    if (!net.send(channel, next.type, next.payload).ok()) return;  // the channel is full: later
    bytes_ -= next.payload.size();
    queue_.pop_front();
  }
}

}  // namespace tickwire
