// The list of server addresses both halves of a connect token carry (1 to 32 entries, IPv4 or
// IPv6) and its netcode encoding: type byte (1 = IPv4, 2 = IPv6), address, port, little-endian.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tickwire/transport/address.h"
#include "tickwire/transport/byte_cursor.h"
#include "tickwire/transport/netcode_constants.h"

namespace tickwire::netcode {

class ServerAddressList {
 public:
  // Returns false (and adds nothing) when full or when the address is not IPv4/IPv6.
  bool add(const Address& address);
  uint32_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  const Address& operator[](uint32_t i) const;
  bool contains(const Address& address) const;
  std::span<const Address> items() const { return {items_.data(), count_}; }

  void write(ByteWriter& w) const;
  // Reads a count in [1, 32] and that many addresses; false on any malformed field.
  [[nodiscard]] bool read(ByteReader& r);

  friend bool operator==(const ServerAddressList& a, const ServerAddressList& b);

 private:
  std::array<Address, kMaxServersPerConnect> items_{};
  uint32_t count_ = 0;
};

}  // namespace tickwire::netcode
