// Encoding of connect-token server address lists. IPv6 groups are written as eight uint16 values
// (group value little-endian), matching the standard's [a:b:c:d:e:f:g:h] field order.
#include "tickwire/transport/server_address_list.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire::netcode {
namespace {

constexpr uint8_t kTypeIpv4 = 1;
constexpr uint8_t kTypeIpv6 = 2;

void write_address(ByteWriter& w, const Address& a) {
  const auto& b = a.bytes();
  if (a.family() == Address::Family::ipv4) {
    w.u8(kTypeIpv4);
    for (int i = 0; i < 4; ++i) w.u8(b[static_cast<std::size_t>(i)]);
  } else {
    w.u8(kTypeIpv6);
    for (std::size_t g = 0; g < 8; ++g) w.u16(static_cast<uint16_t>((b[2 * g] << 8) | b[2 * g + 1]));
  }
  w.u16(a.port());
}

bool read_address(ByteReader& r, Address& out) {
  const uint8_t type = r.u8();
  if (type == kTypeIpv4) {
    uint8_t q[4];
    for (auto& v : q) v = r.u8();
    const uint16_t port = r.u16();
    out = Address::ipv4(q[0], q[1], q[2], q[3], port);
  } else if (type == kTypeIpv6) {
    std::array<uint16_t, 8> groups{};
    for (auto& g : groups) g = r.u16();
    const uint16_t port = r.u16();
    out = Address::ipv6(groups, port);
  } else {
    return false;
  }
  return r.ok();
}

}  // namespace

bool ServerAddressList::add(const Address& address) {
  if (count_ >= kMaxServersPerConnect || !address.valid()) return false;
  items_[count_++] = address;
  return true;
}

const Address& ServerAddressList::operator[](uint32_t i) const {
  TW_ASSERT(i < count_, "server address index out of range");
  return items_[i];
}

bool ServerAddressList::contains(const Address& address) const {
  const auto list = items();
  return std::find(list.begin(), list.end(), address) != list.end();
}

void ServerAddressList::write(ByteWriter& w) const {
  TW_ASSERT(count_ >= 1 && count_ <= kMaxServersPerConnect, "a token needs 1..32 server addresses");
  w.u32(count_);
  for (const Address& a : items()) write_address(w, a);
}

bool ServerAddressList::read(ByteReader& r) {
  count_ = 0;
  const uint32_t n = r.u32();
  if (!r.ok() || n < 1 || n > kMaxServersPerConnect) return false;
  for (uint32_t i = 0; i < n; ++i) {
    if (!read_address(r, items_[i])) {
      count_ = 0;
      return false;
    }
  }
  count_ = n;
  return true;
}

bool operator==(const ServerAddressList& a, const ServerAddressList& b) {
  const auto x = a.items();
  const auto y = b.items();
  return std::equal(x.begin(), x.end(), y.begin(), y.end());
}

}  // namespace tickwire::netcode
