// InteractRequest: a client asks to act on an entity it names by EntityRef. The generation in the
// ref is checked against the slot's before any state changes, so a request aimed at an entity that
// has since despawned can never land on the slot's next occupant.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

struct InteractRequest {
  static constexpr std::string_view wire_name = "InteractRequest";
  static constexpr std::string_view message_name = "interactRequest";
  static constexpr uint8_t wire_id = 18;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;

  uint64_t target_ref = 0;  // EntityRef (raw): handle, generation, flags
  uint8_t action = 0;       // the game's verb (use, pick up...)

  template <class W>
  void fields(W& w) {
    w.u64("targetRef", target_ref);
    w.u8("action", action);
  }
};

}  // namespace tickwire::protocol
