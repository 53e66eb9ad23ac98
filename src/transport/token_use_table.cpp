// Token-use history: a ring of records overwritten oldest first, indexed by MAC.
#include "tickwire/transport/token_use_table.h"

#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"

namespace tickwire::netcode {

std::size_t MacHash::operator()(const Mac& mac) const noexcept {
  // The MAC is already uniformly distributed: its first bytes are a fine hash.
  return static_cast<std::size_t>(load_le<uint64_t>(mac.data()));
}

TokenUseTable::TokenUseTable(std::size_t capacity) : records_(capacity), index_(capacity) {
  TW_ASSERT(capacity > 0 && capacity < UINT32_MAX, "token table capacity out of range");
}

bool TokenUseTable::check_and_record(const Mac& token_mac, const Address& from, uint64_t expire_unix,
                                     uint64_t now_unix) {
  if (const auto found = index_.find(token_mac)) {
    Record& r = records_[*found];
    if (r.expire_unix > now_unix && r.address != from) return false;
    r.address = from;
    r.expire_unix = expire_unix;
    return true;
  }
  Record& slot = records_[cursor_];
  if (slot.used) index_.erase(slot.mac);
  slot = Record{token_mac, from, expire_unix, true};
  const bool indexed = index_.insert(token_mac, static_cast<uint32_t>(cursor_));
  TW_ASSERT(indexed, "index capacity matches the record ring");
  cursor_ = (cursor_ + 1) % records_.size();
  return true;
}

void TokenUseTable::clear() {
  for (Record& r : records_) r.used = false;
  index_.clear();
  cursor_ = 0;
}

}  // namespace tickwire::netcode
