// libFuzzer target: a room's seated list as the fleet directory reads it back from a row (any text:
// a row may have been written around the directory). A text that reads must be the canonical
// spelling of what it read (written back byte for byte), within the seats' cap, strictly ascending
// and without 0.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tickwire/durable/seated_list.h"

using namespace tickwire::durable;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto seated = parse_seated_list(text);
  if (!seated) return 0;
  if (format_seated_list(*seated) != text || seated->size() > kMaxDirectoryRoomSeats) std::abort();
  for (std::size_t i = 0; i < seated->size(); ++i) {
    if ((*seated)[i] == 0 || (i > 0 && (*seated)[i - 1] >= (*seated)[i])) std::abort();
  }
  return 0;
}
