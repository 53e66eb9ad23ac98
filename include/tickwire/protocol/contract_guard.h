// ContractGuard: the client's check on every authority frame. It holds the hash of the contract
// the client resolved and validated; a frame carrying any other hash (or bytes that are not a
// hash at all) is refused and counted, never guessed at.
#pragma once

#include <cstdint>
#include <span>

#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/contract_hash.h"

namespace tickwire {

enum class ContractVerdict : uint8_t { accept, refuse };

enum class ContractRefusal : uint8_t {
  foreign_hash,    // a well-formed hash of some other contract
  malformed_hash,  // bytes of the wrong length
  count_,
};

class ContractGuard {
 public:
  explicit ContractGuard(const ContractHash& expected) : expected_(expected) {}

  ContractVerdict check(const ContractHash& frame_hash);
  // The hash as it arrived on the wire (hostile: any length).
  ContractVerdict check(std::span<const uint8_t> frame_hash_bytes);
  // A frame carrying the hash's tag (ContractHash::tag) instead of the whole hash.
  ContractVerdict check_tag(uint32_t frame_tag);

  const ContractHash& expected() const { return expected_; }
  uint64_t accepted() const { return accepted_; }
  uint64_t refused() const { return refusals_.total(); }
  const ReasonCounters<ContractRefusal>& refusals() const { return refusals_; }

 private:
  ContractVerdict verdict(bool ours);  // counts the frame either way
  ContractHash expected_;
  uint64_t accepted_ = 0;
  ReasonCounters<ContractRefusal> refusals_;
};

}  // namespace tickwire
