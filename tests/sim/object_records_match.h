// How a sim judges a client's object records against the server's: a record thinned against the
// rest table carries only what differs and the client fills the rest from the table, so a client's
// record matches when every field it carries equals the server's record of the same tick.
#pragma once

#include "tickwire/protocol/record_batch.h"

namespace tickwire::test {

inline bool same_fields(const protocol::ObjectRecord& client, const protocol::ObjectRecord& server) {
  if (client.flags != server.flags) return false;
  for (const protocol::ComponentSection& c : client.sections) {
    const protocol::ComponentSection* s = nullptr;
    for (const auto& candidate : server.sections) s = candidate.wire_id == c.wire_id ? &candidate : s;
    if (s == nullptr) return false;
    for (int ch = 0; ch < 4; ++ch)
      if ((c.dirty & (1u << ch)) != 0 && c.channel[ch] != s->channel[ch]) return false;
    if ((c.dirty & (1u << 4)) != 0 && c.channel_count != s->channel_count) return false;
    if ((c.dirty & (1u << 5)) != 0 && c.bits != s->bits) return false;
  }
  return true;
}

}  // namespace tickwire::test
