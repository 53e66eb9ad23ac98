// The server's history of connect tokens already used (token MAC -> first source address): a
// token captured on the wire and replayed from another address is ignored. Hard capacity; the
// oldest record is overwritten when full (an evicted token is still bound to its keys, which a
// replayer does not have, so it can never complete a handshake).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickwire/transport/address.h"
#include "tickwire/transport/fixed_hash_index.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tickwire::netcode {

struct MacHash {
  std::size_t operator()(const Mac& mac) const noexcept;
};

class TokenUseTable {
 public:
  explicit TokenUseTable(std::size_t capacity);

  // The standard's step: false when the token was already used from a different address (and its
  // record has not expired); otherwise records token -> address and returns true.
  bool check_and_record(const Mac& token_mac, const Address& from, uint64_t expire_unix, uint64_t now_unix);
  void clear();
  std::size_t size() const { return index_.size(); }
  std::size_t capacity() const { return records_.size(); }

 private:
  struct Record {
    Mac mac{};
    Address address;
    uint64_t expire_unix = 0;
    bool used = false;
  };
  std::vector<Record> records_;
  FixedHashIndex<Mac, MacHash> index_;
  std::size_t cursor_ = 0;  // next record to overwrite (oldest first)
};

}  // namespace tickwire::netcode
