// The reference game's contract at a tick rate: the reference policy resolved (asserted to resolve).
#include "tickwire/world/reference_contract.h"

#include <string>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/room_policy.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::world {

NetcodeContract reference_contract(std::string_view room, uint32_t tick_rate_hz, std::string_view environment) {
  RoomPolicy policy;
  policy.identity = {std::string(room), "tickwire-reference", std::string(environment), "1", std::string(environment), "", ""};
  policy.cadence.tick_rate_hz = tick_rate_hz;
  policy.cadence.snapshot_rate_hz = tick_rate_hz;
  apply_reference_policy(policy);
  const ContractResolution resolved = resolve_netcode_contract(policy);
  TW_ASSERT(resolved.ok(), "the reference policy resolves");
  return *resolved.contract;
}

}  // namespace tickwire::world
