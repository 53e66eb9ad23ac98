// Ping: a sequence and send time echoed back, for application-level latency probes.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/wire/describe_walker.h"

namespace tickwire::protocol {

struct Ping {
  static constexpr std::string_view wire_name = "Ping";
  static constexpr std::string_view message_name = "ping";
  static constexpr uint8_t wire_id = 10;
  static constexpr wire::Direction wire_direction = wire::Direction::both;

  uint32_t sequence = 0;
  uint64_t sent_at_us = 0;
  bool is_reply = false;

  template <class W>
  void fields(W& w) {
    w.u32("sequence", sequence);
    w.u64("sentAtUs", sent_at_us);
    w.boolean("isReply", is_reply);
  }
};

}  // namespace tickwire::protocol
