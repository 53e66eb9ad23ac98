// WireMessages: every message id and direction mapped to its shape. The schema text is built from
// it, so the registry is the one list of what may cross the wire. A message type declares
// wire_id, wire_direction, message_name and (as a shape) wire_name and its field table.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/wire/codec.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/shape_defaults.h"
#include "tickwire/wire/types.h"

namespace tickwire::wire {

struct MessageEntry {
  uint8_t id;
  Direction direction;
  std::string_view name;        // the message's name in the schema
  std::string_view shape_name;  // its shape's name
  void (*describe)(SchemaBuilder&);
  // Decodes a body with the typed codec and discards it: the reader every fuzz target drives.
  Status (*check)(std::span<const uint8_t> body);
};

template <class M>
MessageEntry message_entry() {
  return MessageEntry{
      M::wire_id, M::wire_direction, M::message_name, M::wire_name,
      [](SchemaBuilder& b) { b.template add_message<M>(M::wire_id, M::wire_direction, M::message_name); },
      [](std::span<const uint8_t> body) -> Status {
        M value{};
        return decode(body, value);
      }};
}

// Whether a message registered for `registered` may arrive travelling `travelling`.
constexpr bool direction_allows(Direction registered, Direction travelling) {
  return (static_cast<uint8_t>(registered) & static_cast<uint8_t>(travelling)) != 0;
}

class WireMessages {
 public:
  explicit WireMessages(std::vector<MessageEntry> entries);
  template <class... Ms>
  static WireMessages of() {
    return WireMessages({message_entry<Ms>()...});
  }

  std::span<const MessageEntry> all() const { return entries_; }
  // The entry for an id travelling in `direction`, or nullptr.
  const MessageEntry* find(uint8_t id, Direction direction) const;
  const MessageEntry* find(std::string_view name) const;
  // Reads a packet's envelope byte and checks its body with the typed codec; an unknown id (for
  // this direction) or a malformed body is refused and counted under its error.
  Status check_packet(std::span<const uint8_t> packet, Direction travelling, DecodeErrorCounters& counters) const;
  const std::string& schema_text() const { return schema_text_; }
  const Hash16& schema_hash() const { return schema_hash_; }
  // What each registered shape holds before a walk: a plan reading another build (PlanOptions::
  // our_defaults) gives these to the fields only we have.
  const ShapeDefaults& shape_defaults() const { return shape_defaults_; }

 private:
  std::vector<MessageEntry> entries_;
  std::string schema_text_;
  ShapeDefaults shape_defaults_;
  Hash16 schema_hash_;
};

}  // namespace tickwire::wire
