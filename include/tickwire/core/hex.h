// Hex text for hashes, keys and golden-packet diffs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tickwire {

std::string to_hex(std::span<const uint8_t> bytes);
// Parses an even-length hex string (upper or lower case); nullopt on any other character.
std::optional<std::vector<uint8_t>> from_hex(std::string_view text);

}  // namespace tickwire
