// ContractHash: the 16-byte BLAKE2b digest (libsodium crypto_generichash, 16-byte output, no key)
// of a netcode contract's canonical JSON. It rides on every authority frame; a client that holds a
// different one refuses the frame. Equal to `b2sum -l 128` of the same text.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tickwire {

class ContractHash {
 public:
  static constexpr std::size_t kBytes = 16;

  constexpr ContractHash() = default;  // all zero: "no contract"
  explicit ContractHash(const std::array<uint8_t, kBytes>& bytes) : bytes_(bytes) {}

  // BLAKE2b-128 of `text`.
  static ContractHash of(std::string_view text);
  // Hostile-input constructors: nullopt on a wrong length or a non-hex character.
  static std::optional<ContractHash> from_span(std::span<const uint8_t> bytes);
  static std::optional<ContractHash> from_hex(std::string_view hex);

  const std::array<uint8_t, kBytes>& bytes() const { return bytes_; }
  std::string hex() const;
  bool is_zero() const;
  // The hash's first four bytes, little-endian: the SnapshotDelta's per-frame tag (a frame a tick
  // cannot afford 16 bytes of hash on; a different contract still fails 2^32 to 1).
  uint32_t tag() const {
    return static_cast<uint32_t>(bytes_[0]) | static_cast<uint32_t>(bytes_[1]) << 8 |
           static_cast<uint32_t>(bytes_[2]) << 16 | static_cast<uint32_t>(bytes_[3]) << 24;
  }
  friend bool operator==(const ContractHash&, const ContractHash&) = default;

 private:
  std::array<uint8_t, kBytes> bytes_{};
};

}  // namespace tickwire
