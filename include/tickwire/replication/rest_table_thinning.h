// Which clients get thinned snapshots (seed 000, "The rest table"): only a client whose wire schema
// lists the mapRestTable message is sent the table and snapshots stated against it; any other keeps
// receiving every record with restRevision 0. Decided once per session, when its schema is known.
#pragma once

#include "tickwire/protocol/peer_schema.h"
#include "tickwire/protocol/schema_cache.h"
#include "tickwire/wire/schema.h"

namespace tickwire {

// Whether `schema` lists mapRestTable travelling server to client.
bool schema_lists_rest_table(const wire::Schema& schema);

// Whether the server should thin snapshots for this session: false until the peer's side is ready;
// our own build lists the message; another build is read from the schema the cache learned for it.
bool peer_takes_rest_table(const PeerSchema& peer, SchemaCache& cache);

}  // namespace tickwire
