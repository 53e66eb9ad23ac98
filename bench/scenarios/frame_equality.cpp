// Frame and owner-detail equality for the harness's exactness check.
#include "frame_equality.h"

#include <array>

#include "tickwire/wire/codec.h"

namespace tickwire::bench {
namespace {

constexpr std::size_t kOwnerDetailMaxBytes = 128;  // an OwnerDetail is under 64 bytes on the wire

bool encode_owner(const protocol::OwnerDetail& owner, std::array<uint8_t, kOwnerDetailMaxBytes>& out, std::size_t& size) {
  const auto written = wire::encode(owner, out);
  if (!written) return false;
  size = *written;
  return true;
}

}  // namespace

bool same_owner(const std::optional<protocol::OwnerDetail>& a, const std::optional<protocol::OwnerDetail>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  std::array<uint8_t, kOwnerDetailMaxBytes> bytes_a{}, bytes_b{};
  std::size_t size_a = 0, size_b = 0;
  if (!encode_owner(*a, bytes_a, size_a) || !encode_owner(*b, bytes_b, size_b)) return false;
  return size_a == size_b && bytes_a == bytes_b;
}

bool same_frame(const ReplicaFrame& a, const ReplicaFrame& b) {
  return a.tick == b.tick && a.states == b.states && same_owner(a.owner, b.owner);
}

}  // namespace tickwire::bench
