// Address construction, parsing and printing. Parsing accepts numeric IPv4/IPv6 and "localhost"
// only: no DNS on any path (tests and servers stay deterministic and on loopback).
#include "tickwire/transport/address.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>

namespace tickwire {
namespace {

std::optional<uint16_t> parse_port(std::string_view text) {
  unsigned value = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value > 65535) return std::nullopt;
  return static_cast<uint16_t>(value);
}

std::optional<Address> parse_host(std::string_view host, uint16_t port) {
  if (host == "localhost") return Address::ipv4(127, 0, 0, 1, port);
  if (host.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  char buffer[INET6_ADDRSTRLEN] = {};
  std::memcpy(buffer, host.data(), host.size());
  in_addr v4{};
  if (inet_pton(AF_INET, buffer, &v4) == 1) {
    const auto* b = reinterpret_cast<const uint8_t*>(&v4.s_addr);
    return Address::ipv4(b[0], b[1], b[2], b[3], port);
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, buffer, &v6) == 1) {
    std::array<uint16_t, 8> groups{};
    for (std::size_t g = 0; g < 8; ++g) {
      groups[g] = static_cast<uint16_t>((v6.s6_addr[2 * g] << 8) | v6.s6_addr[2 * g + 1]);
    }
    return Address::ipv6(groups, port);
  }
  return std::nullopt;
}

}  // namespace

Address Address::ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port) {
  Address out;
  out.family_ = Family::ipv4;
  out.bytes_[0] = a;
  out.bytes_[1] = b;
  out.bytes_[2] = c;
  out.bytes_[3] = d;
  out.port_ = port;
  return out;
}

Address Address::ipv6(const std::array<uint16_t, 8>& groups, uint16_t port) {
  Address out;
  out.family_ = Family::ipv6;
  for (std::size_t g = 0; g < 8; ++g) {
    out.bytes_[2 * g] = static_cast<uint8_t>(groups[g] >> 8);
    out.bytes_[2 * g + 1] = static_cast<uint8_t>(groups[g]);
  }
  out.port_ = port;
  return out;
}

std::optional<Address> Address::parse(std::string_view text, std::optional<uint16_t> default_port) {
  if (text.empty()) return std::nullopt;
  if (text.front() == '[') {  // [v6] or [v6]:port
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const auto host = text.substr(1, close - 1);
    const auto rest = text.substr(close + 1);
    std::optional<uint16_t> port = default_port;
    if (!rest.empty()) {
      if (rest.front() != ':') return std::nullopt;
      port = parse_port(rest.substr(1));
    }
    if (!port) return std::nullopt;
    auto a = parse_host(host, *port);
    if (!a || a->family() != Family::ipv6) return std::nullopt;
    return a;
  }
  const auto colon = text.rfind(':');
  const bool one_colon = colon != std::string_view::npos && text.find(':') == colon;
  if (one_colon) {  // v4:port or host:port
    const auto port = parse_port(text.substr(colon + 1));
    if (!port) return std::nullopt;
    return parse_host(text.substr(0, colon), *port);
  }
  if (!default_port) return std::nullopt;  // bare v4/host, or bare v6 (several colons)
  return parse_host(text, *default_port);
}

std::string Address::to_string() const {
  char buffer[INET6_ADDRSTRLEN] = {};
  if (family_ == Family::ipv4) {
    inet_ntop(AF_INET, bytes_.data(), buffer, sizeof(buffer));
    return std::string(buffer) + ":" + std::to_string(port_);
  }
  if (family_ == Family::ipv6) {
    inet_ntop(AF_INET6, bytes_.data(), buffer, sizeof(buffer));
    return "[" + std::string(buffer) + "]:" + std::to_string(port_);
  }
  return "none";
}

std::size_t AddressHash::operator()(const Address& a) const noexcept {
  // FNV-1a over family, the bytes that matter and the port.
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](uint8_t byte) {
    h ^= byte;
    h *= 1099511628211ull;
  };
  mix(static_cast<uint8_t>(a.family()));
  const std::size_t n = a.family() == Address::Family::ipv4 ? 4 : 16;
  for (std::size_t i = 0; i < n; ++i) mix(a.bytes()[i]);
  mix(static_cast<uint8_t>(a.port()));
  mix(static_cast<uint8_t>(a.port() >> 8));
  return static_cast<std::size_t>(h);
}

}  // namespace tickwire
