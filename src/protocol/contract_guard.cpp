// The contract guard's verdicts and refusal counts.
#include "tickwire/protocol/contract_guard.h"

namespace tickwire {

ContractVerdict ContractGuard::check(const ContractHash& frame_hash) { return verdict(frame_hash == expected_); }

ContractVerdict ContractGuard::check_tag(uint32_t frame_tag) { return verdict(frame_tag == expected_.tag()); }

ContractVerdict ContractGuard::verdict(bool ours) {
  if (!ours) {
    refusals_.add(ContractRefusal::foreign_hash);
    return ContractVerdict::refuse;
  }
  ++accepted_;
  return ContractVerdict::accept;
}

ContractVerdict ContractGuard::check(std::span<const uint8_t> frame_hash_bytes) {
  const auto hash = ContractHash::from_span(frame_hash_bytes);
  if (!hash) {
    refusals_.add(ContractRefusal::malformed_hash);
    return ContractVerdict::refuse;
  }
  return check(*hash);
}

}  // namespace tickwire
