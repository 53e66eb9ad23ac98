// The registry's lookups and the schema text it builds once.
#include "tickwire/wire/message_registry.h"

#include "tickwire/core/assert.h"
#include "tickwire/wire/schema_hash.h"

namespace tickwire::wire {

WireMessages::WireMessages(std::vector<MessageEntry> entries) : entries_(std::move(entries)) {
  SchemaBuilder builder;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    for (std::size_t k = 0; k < i; ++k) {
      TW_ASSERT(!(entries_[k].id == entries_[i].id && direction_allows(entries_[k].direction, entries_[i].direction)),
                "two messages share an id in one direction");
      TW_ASSERT(entries_[k].name != entries_[i].name, "two messages share a name");
    }
    entries_[i].describe(builder);
  }
  schema_text_ = builder.text();
  shape_defaults_ = builder.defaults();
  schema_hash_ = hash_schema_text(schema_text_);
}

const MessageEntry* WireMessages::find(uint8_t id, Direction direction) const {
  for (const auto& e : entries_)
    if (e.id == id && direction_allows(e.direction, direction)) return &e;
  return nullptr;
}

Status WireMessages::check_packet(std::span<const uint8_t> packet, Direction travelling,
                                  DecodeErrorCounters& counters) const {
  const MessageEntry* entry = packet.empty() ? nullptr : find(packet[0], travelling);
  const Status status = entry ? entry->check(packet.subspan(1)) : Status(Error::unknown_message);
  if (!status) counters.add(status.error());
  return status;
}

const MessageEntry* WireMessages::find(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace tickwire::wire
