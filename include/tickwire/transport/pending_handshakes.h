// The server's encryption mappings for addresses that sent a valid connection request but are not
// connected yet: which keys decrypt their response and encrypt our replies. Hard capacity; when
// full, the least recently heard-from entry is evicted (a client retrying every 100 ms stays
// fresh while a flood of one-shot requests churns through); every entry dies at its deadline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/transport/address.h"
#include "tickwire/transport/fixed_hash_index.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tickwire::netcode {

struct PendingHandshake {
  Address address;
  Key client_to_server_key{};
  Key server_to_client_key{};
  Mac token_mac{};
  int32_t timeout_seconds = 0;
  MonoTime expire_at;
  bool awaiting_connect = false;  // its response was verified and waits for a connect (the per-update cap)
};

class PendingHandshakes {
 public:
  explicit PendingHandshakes(std::size_t capacity);

  // Adds a mapping for `entry.address`, or refreshes the existing one (same token: recency only;
  // another token: replaced, with the new deadline). Evicts the least recent entry when full.
  PendingHandshake& upsert(const PendingHandshake& entry, MonoTime now);
  // The live mapping for an address (nullptr when none or past its deadline); marks it recent.
  PendingHandshake* find(const Address& address, MonoTime now);
  void remove(const Address& address);
  // Drops every entry past its deadline; returns how many.
  std::size_t expire(MonoTime now);
  void clear();

  std::size_t size() const { return index_.size(); }
  std::size_t capacity() const { return nodes_.size(); }
  uint64_t evictions() const { return evictions_; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Node {
    PendingHandshake entry;
    uint32_t prev = kNone;  // towards least recent
    uint32_t next = kNone;  // towards most recent
  };
  void unlink(uint32_t i);
  void link_newest(uint32_t i);
  void release(uint32_t i);

  std::vector<Node> nodes_;
  std::vector<uint32_t> free_;
  FixedHashIndex<Address, AddressHash> index_;
  uint32_t oldest_ = kNone;
  uint32_t newest_ = kNone;
  uint64_t evictions_ = 0;
};

}  // namespace tickwire::netcode
