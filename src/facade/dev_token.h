// A development connect token, minted in the client's own process with the server's key (a
// shipped client gets its tokens from the game's backend): one statement for every facade that
// offers the shortcut (Client, DeterministicPlayer).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/transport/address.h"
#include "tickwire/transport/connect_token_private.h"
#include "tickwire/transport/netcode_constants.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tickwire {

struct DevTokenTerms {
  uint64_t protocol_id = 0;
  uint64_t client_id = 0;
  uint32_t timeout_seconds = 10;  // a silent connection lasts this long
  uint32_t expire_seconds = 3600;
  netcode::UserData user_data{};
};

// The token's bytes for `server`, or nullopt when minting failed.
std::optional<std::vector<uint8_t>> mint_dev_token(const DevTokenTerms& terms, const Address& server,
                                                   const netcode::Key& key, WallTime now);

}  // namespace tickwire
