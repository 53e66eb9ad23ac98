// Minting a development token: the standard's params, the server's key, its bytes.
#include "dev_token.h"

#include "tickwire/transport/connect_token.h"

namespace tickwire {

std::optional<std::vector<uint8_t>> mint_dev_token(const DevTokenTerms& terms, const Address& server,
                                                   const netcode::Key& key, WallTime now) {
  netcode::ConnectTokenParams params;
  params.protocol_id = terms.protocol_id;
  params.client_id = terms.client_id;
  params.server_addresses.add(server);
  params.timeout_seconds = static_cast<int32_t>(terms.timeout_seconds);
  params.expire_seconds = terms.expire_seconds;
  params.user_data = terms.user_data;
  const auto minted = netcode::generate_connect_token(params, key, now);
  if (!minted.ok()) return std::nullopt;
  netcode::ConnectTokenBytes bytes{};
  netcode::write_connect_token(minted.value(), bytes);
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

}  // namespace tickwire
