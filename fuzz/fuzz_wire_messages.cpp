// Fuzzes the typed reader of every registered message: the first byte is the envelope (message
// id), the rest the body, exactly as a packet arrives. Any input must decode or be refused by
// name; a decoded message must re-measure to the bytes it came from.
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/describe_walker.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& registry = tickwire::protocol::protocol_messages();
  for (auto direction : {tickwire::wire::Direction::client_to_server, tickwire::wire::Direction::server_to_client}) {
    const auto* entry = registry.find(data[0], direction);
    if (!entry) continue;
    const tickwire::Status status = entry->check(std::span<const uint8_t>(data + 1, size - 1));
    (void)status;
  }
  return 0;
}
