// What a channel may put into the packet being assembled: the room left in the packet, the
// channel's remaining byte budget for this write, the entry slots left, and where to record what
// went in (so the packet's ack can be traced back to messages and fragments).
#pragma once

#include <cstddef>

#include "tickwire/clock/time.h"
#include "tickwire/transport/byte_cursor.h"
#include "tickwire/transport/sent_content_log.h"

namespace tickwire {

struct PacketRoom {
  ByteWriter& writer;
  SentContentLog& log;
  MonoTime now;
  std::size_t& budget_bytes;   // this channel's bytes left in this write_packets call
  std::size_t& entries_left;   // entries left in this packet
  std::size_t& content_count;  // content records appended for this packet

  bool fits(std::size_t entry_bytes) const {
    return entries_left > 0 && entry_bytes <= writer.remaining() && entry_bytes <= budget_bytes;
  }
  // Accounts for an entry just written (and records its content when it carries any).
  void consumed(std::size_t entry_bytes, const ContentRef& ref) {
    budget_bytes -= entry_bytes;
    --entries_left;
    log.append(ref);
    ++content_count;
  }
};

}  // namespace tickwire
