// Fuzzes the schema walker with bytes walked against our own schema: the first byte picks the
// message (its id, as the envelope does), the rest is the body. The walker must agree with the
// typed reader on every verdict and error name; what it decodes must re-encode to bytes the typed
// reader accepts and that re-encode to themselves.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/dyn_encoder.h"
#include "tickwire/wire/schema_parser.h"
#include "tickwire/wire/schema_walker.h"

namespace {

const tickwire::wire::Schema& our_schema() {
  static const tickwire::wire::Schema schema =
      std::move(tickwire::wire::parse_schema(tickwire::protocol::protocol_messages().schema_text()).value());
  return schema;
}

void check_message(const tickwire::wire::MessageEntry& entry, std::span<const uint8_t> body) {
  using namespace tickwire;
  static wire::DynTree tree;
  const wire::SchemaMessage* message = our_schema().find_message(entry.name);
  if (!message) __builtin_trap();
  const Status typed = entry.check(body);
  const Status dynamic = wire::decode_message(our_schema(), *message, body, tree);
  if (dynamic.error() == Error::walk_budget_exceeded) return;
  if (typed.error() != dynamic.error()) __builtin_trap();
  if (!dynamic) return;
  std::vector<uint8_t> first;
  if (!wire::encode_dynamic(tree.root(), first).ok() || !entry.check(first).ok()) __builtin_trap();
  std::vector<uint8_t> second;
  if (!wire::decode_message(our_schema(), *message, first, tree).ok()) __builtin_trap();
  if (!wire::encode_dynamic(tree.root(), second).ok() || second != first) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tickwire;
  if (size == 0) return 0;
  const auto& registry = protocol::protocol_messages();
  const std::span<const uint8_t> body(data + 1, size - 1);
  auto walked = wire::walk_message(our_schema(), data[0], wire::Direction::both, body);
  (void)walked;
  for (auto direction : {wire::Direction::client_to_server, wire::Direction::server_to_client}) {
    const wire::MessageEntry* entry = registry.find(data[0], direction);
    if (entry) check_message(*entry, body);
  }
  return 0;
}
