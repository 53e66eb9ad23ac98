// The contract's canonical JSON, its hash, and the revision key: each one canonical-JSON walk of a
// field table (the contract's, or the policy's), so a field added to a table reaches all three.
#include <string_view>

#include "tickwire/protocol/canonical_json.h"
#include "tickwire/protocol/contract_json_walker.h"
#include "tickwire/protocol/netcode_contract.h"

namespace tickwire {
namespace {

// Domain tag of the revision key's JSON, so a key can never equal a contract hash by construction.
constexpr std::string_view kRevisionKeyDomain = "tickwire.netcode_contract.revision_key.v1";

}  // namespace

std::string contract_canonical_json(const NetcodeContract& contract) { return contract_json_object(contract).text(); }

ContractHash contract_hash(const NetcodeContract& contract) {
  return ContractHash::of(contract_canonical_json(contract));
}

std::string contract_revision_key_json(const RoomPolicy& policy) {
  CanonicalJsonObject root = contract_json_object(policy);
  root.string("domain", kRevisionKeyDomain);
  return root.text();
}

ContractHash contract_revision_key(const RoomPolicy& policy) {
  return ContractHash::of(contract_revision_key_json(policy));
}

}  // namespace tickwire
