// EntityEvent (seed 000, "Interaction channel"): the server's reliable answer to a client, the
// counterpart gameplay uses to announce an authoritative result: which entity it concerns (its
// entity id, as snapshots name it), what happened (the game's event kind: a Use taken, a Use
// refused...) and a kind payload (the state it left, or a reason in the bits). The meaning of the
// kind and the payload is the game's; the wire carries the values only.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/protocol/record_batch.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

struct EntityEvent {
  static constexpr std::string_view wire_name = "EntityEvent";
  static constexpr std::string_view message_name = "entityEvent";
  static constexpr uint8_t wire_id = 22;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t source_id = 0;  // the entity id the event concerns
  uint8_t event_kind = 0;  // the game's EntityEventKind
  KindPayload payload;

  template <class W>
  void fields(W& w) {
    w.varu32("sourceId", source_id);
    w.u8("eventKind", event_kind);
    w.shape("payload", payload);
  }
};

}  // namespace tickwire::protocol
