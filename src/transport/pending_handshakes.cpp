// Pending-handshake table: fixed node pool, an intrusive recency list (oldest..newest) and a fixed
// hash index by address. No allocation after construction.
#include "tickwire/transport/pending_handshakes.h"

#include "tickwire/core/assert.h"

namespace tickwire::netcode {

PendingHandshakes::PendingHandshakes(std::size_t capacity) : nodes_(capacity), index_(capacity) {
  TW_ASSERT(capacity > 0 && capacity < kNone, "pending handshake capacity out of range");
  free_.reserve(capacity);
  for (std::size_t i = capacity; i > 0; --i) free_.push_back(static_cast<uint32_t>(i - 1));
}

void PendingHandshakes::unlink(uint32_t i) {
  Node& n = nodes_[i];
  if (n.prev != kNone) nodes_[n.prev].next = n.next; else oldest_ = n.next;
  if (n.next != kNone) nodes_[n.next].prev = n.prev; else newest_ = n.prev;
  n.prev = n.next = kNone;
}

void PendingHandshakes::link_newest(uint32_t i) {
  Node& n = nodes_[i];
  n.prev = newest_;
  n.next = kNone;
  if (newest_ != kNone) nodes_[newest_].next = i; else oldest_ = i;
  newest_ = i;
}

void PendingHandshakes::release(uint32_t i) {
  unlink(i);
  index_.erase(nodes_[i].entry.address);
  wipe(nodes_[i].entry.client_to_server_key);
  wipe(nodes_[i].entry.server_to_client_key);
  free_.push_back(i);
}

PendingHandshake& PendingHandshakes::upsert(const PendingHandshake& entry, MonoTime now) {
  if (auto found = index_.find(entry.address)) {
    Node& n = nodes_[*found];
    if (n.entry.token_mac != entry.token_mac || n.entry.expire_at <= now) n.entry = entry;
    unlink(*found);
    link_newest(*found);
    return n.entry;
  }
  if (free_.empty()) {
    TW_ASSERT(oldest_ != kNone, "a full table has an oldest entry");
    release(oldest_);
    ++evictions_;
  }
  const uint32_t i = free_.back();
  free_.pop_back();
  nodes_[i].entry = entry;
  const bool indexed = index_.insert(entry.address, i);
  TW_ASSERT(indexed, "index capacity matches the node pool");
  link_newest(i);
  return nodes_[i].entry;
}

PendingHandshake* PendingHandshakes::find(const Address& address, MonoTime now) {
  const auto found = index_.find(address);
  if (!found) return nullptr;
  if (nodes_[*found].entry.expire_at <= now) {
    release(*found);
    return nullptr;
  }
  unlink(*found);
  link_newest(*found);
  return &nodes_[*found].entry;
}

void PendingHandshakes::remove(const Address& address) {
  if (const auto found = index_.find(address)) release(*found);
}

std::size_t PendingHandshakes::expire(MonoTime now) {
  std::size_t dropped = 0;
  for (uint32_t i = oldest_; i != kNone;) {
    const uint32_t next = nodes_[i].next;
    if (nodes_[i].entry.expire_at <= now) {
      release(i);
      ++dropped;
    }
    i = next;
  }
  return dropped;
}

void PendingHandshakes::clear() {
  while (oldest_ != kNone) release(oldest_);
}

}  // namespace tickwire::netcode
