// The seated list's rule and its text at rest (durable/seated_list.h). The reader never trusts the
// text: its length is bounded before anything is read, each id is read by the strict decimal reader,
// and the count is capped as it grows.
#include "tickwire/durable/seated_list.h"

#include <fmt/format.h>

namespace tickwire::durable {
namespace {

bool strictly_ascending_nonzero(std::span<const uint64_t> ids) {
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] == 0 || (i > 0 && ids[i - 1] >= ids[i])) return false;
  }
  return true;
}

}  // namespace

bool seated_list_fits(const DirectoryRoom& room) {
  return room.seated.size() <= room.seats_total && room.seated.size() <= room.seats_taken &&
         strictly_ascending_nonzero(room.seated);
}

std::string format_seated_list(std::span<const uint64_t> seated) { return fmt::format("{}", fmt::join(seated, ",")); }

std::optional<std::vector<uint64_t>> parse_seated_list(std::string_view text) {
  std::vector<uint64_t> ids;
  if (text.empty()) return ids;
  if (text.size() > kMaxSeatedTextBytes) return std::nullopt;
  for (std::size_t at = 0;;) {
    const std::size_t comma = text.find(',', at);
    const std::string_view item = text.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    const auto id = parse_decimal_u64(item);
    if (!id || ids.size() >= kMaxDirectoryRoomSeats) return std::nullopt;
    ids.push_back(*id);
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  if (!strictly_ascending_nonzero(ids)) return std::nullopt;
  return ids;
}

}  // namespace tickwire::durable
