// A UDP endpoint, IPv4 or IPv6, as a value: comparable, hashable, printable, and encodable in the
// netcode 1.02 address format. Sockets, tokens and SimNetwork all speak this one type.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tickwire {

class Address {
 public:
  enum class Family : uint8_t { none = 0, ipv4 = 1, ipv6 = 2 };

  Address() = default;
  static Address ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port);
  static Address ipv6(const std::array<uint16_t, 8>& groups, uint16_t port);
  // 16 bytes in network order (as in sockaddr_in6 and the netcode address format).
  static Address ipv6_from_bytes(const std::array<uint8_t, 16>& bytes, uint16_t port);
  // ::ffff:a.b.c.d for an IPv4 address (what a dual-stack socket sees); an IPv6 address unchanged.
  static Address ipv4_mapped(const Address& v4);
  // Parses "1.2.3.4:5", "[::1]:5", "localhost:5" (loopback only; no DNS), or without a port when
  // default_port is given. nullopt on anything else.
  static std::optional<Address> parse(std::string_view text, std::optional<uint16_t> default_port = std::nullopt);

  Family family() const { return family_; }
  bool valid() const { return family_ != Family::none; }
  uint16_t port() const { return port_; }
  void set_port(uint16_t port) { port_ = port; }
  // IPv4: bytes[0..3]; IPv6: 16 bytes in network order.
  const std::array<uint8_t, 16>& bytes() const { return bytes_; }
  // "1.2.3.4:5" or "[::1]:5" (RFC 5952 form: lowercase, zero runs compressed, ::ffff:1.2.3.4 for
  // IPv4-mapped); "none" for an invalid address. parse(to_string()) gives the address back.
  std::string to_string() const;

  bool is_loopback() const;     // 127.0.0.0/8 or ::1
  bool is_unspecified() const;  // 0.0.0.0 or ::
  bool is_ipv4_mapped() const;  // ::ffff:0:0/96
  // The IPv4 address inside an IPv4-mapped IPv6 address; nullopt for any other address.
  std::optional<Address> unmapped_ipv4() const;

  friend bool operator==(const Address&, const Address&) = default;
  // A total order (family, bytes, port) so addresses can key ordered maps deterministically.
  friend auto operator<=>(const Address&, const Address&) = default;

 private:
  Family family_ = Family::none;
  std::array<uint8_t, 16> bytes_{};
  uint16_t port_ = 0;
};

struct AddressHash {
  std::size_t operator()(const Address& a) const noexcept;
};

}  // namespace tickwire
