// ConstructCall (seed 002, "ConstructHandle"): a client's RPC to a pure-logic construct (a game
// mode, an AI director) named by its ConstructHandle, with the game's method number and a small
// payload the engine does not read. The room refuses a stale or foreign handle before the game
// acts on it, and counts why.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire::protocol {

inline constexpr std::size_t MaxConstructCallPayloadBytes = 256;

struct ConstructCall {
  static constexpr std::string_view wire_name = "ConstructCall";
  static constexpr std::string_view message_name = "constructCall";
  static constexpr uint8_t wire_id = 30;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;

  uint32_t target = 0;  // a ConstructHandle's raw bits
  uint16_t method = 0;  // the game's
  std::vector<SliceByte> payload;

  template <class W>
  void fields(W& w) {
    w.u32("target", target);
    w.u16("method", method);
    w.list16("payload", payload, 0, MaxConstructCallPayloadBytes);
  }
};

}  // namespace tickwire::protocol
