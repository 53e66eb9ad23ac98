// The thinning decision: the peer's schema, ours or learned, either lists mapRestTable or not.
#include "tickwire/replication/rest_table_thinning.h"

#include "tickwire/protocol/rest_table_chunk.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/message_registry.h"

namespace tickwire {

bool schema_lists_rest_table(const wire::Schema& schema) {
  const wire::SchemaMessage* message = schema.find_message(protocol::RestTableChunk::message_name);
  return message != nullptr && wire::direction_allows(message->direction, wire::Direction::server_to_client);
}

bool peer_takes_rest_table(const PeerSchema& peer, SchemaCache& cache) {
  if (!peer.ready()) return false;
  if (peer.same_build()) {
    const wire::MessageEntry* ours = protocol::protocol_messages().find(protocol::RestTableChunk::message_name);
    return ours != nullptr && wire::direction_allows(ours->direction, wire::Direction::server_to_client);
  }
  const std::shared_ptr<PeerBuild> build = cache.find(*peer.peer_hash());
  return build != nullptr && schema_lists_rest_table(build->plan.peer_schema());
}

}  // namespace tickwire
