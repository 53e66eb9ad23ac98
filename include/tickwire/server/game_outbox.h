// GameOutbox: one client's game messages from the server waiting for room on the reliable channel.
// A big download (a map, a voxel volume, a 2 MB block) goes in as many messages as the game likes
// and leaves as the channel takes them, so the send queue never overflows and the pacer keeps the
// snapshots beside it flowing (unreliable messages go first in every packet). Capped: a push past
// kGameOutboxMaxBytes is refused, and the game hears so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "tickwire/transport/message_envelope.h"
#include "tickwire/transport/net_channel.h"

namespace tickwire {

inline constexpr std::size_t kGameOutboxMaxBytes = 8u << 20;  // per client, waiting for the channel

class GameOutbox {
 public:
  // False when it would pass the cap (nothing queued).
  bool push(MessageType type, std::span<const uint8_t> payload);
  // Hands the channel what it accepts now, oldest first; stops at the first refusal.
  void flush(NetChannel& net, uint8_t channel);
  std::size_t bytes() const { return bytes_; }
  bool empty() const { return queue_.empty(); }

 private:
  struct Pending {
    MessageType type = 0;
    std::vector<uint8_t> payload;
  };
  std::deque<Pending> queue_;
  std::size_t bytes_ = 0;
};

}  // namespace tickwire
