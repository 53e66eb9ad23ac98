// A room's seated actors (DirectoryRoom::seated) as the fleet directory checks and stores them: the
// rule a report's list must keep, and its text at rest ("7,12,4242": ascending decimal ids, comma
// separated, nothing else), read back strictly and within its caps, since a row may have been
// written by anything that can reach the database.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/core/decimal.h"
#include "tickwire/durable/fleet_listing.h"

namespace tickwire::durable {

// The longest text a list of kMaxDirectoryRoomSeats ids can take (the database's bound too).
inline constexpr std::size_t kMaxSeatedTextBytes = kMaxDirectoryRoomSeats * (kMaxDecimalU64Chars + 1) - 1;

// Whether `room.seated` is a list the directory takes: strictly ascending (so no id twice), no 0
// (netcode's client id 0 is nobody's), at most seats_total and at most seats_taken ids.
bool seated_list_fits(const DirectoryRoom& room);

// The list's text at rest: the ids in decimal, comma separated ("" for none).
std::string format_seated_list(std::span<const uint64_t> seated);
// The list a text states, or nullopt unless it is exactly format_seated_list's spelling of a
// strictly ascending list of nonzero ids, at most kMaxDirectoryRoomSeats of them.
std::optional<std::vector<uint64_t>> parse_seated_list(std::string_view text);

}  // namespace tickwire::durable
