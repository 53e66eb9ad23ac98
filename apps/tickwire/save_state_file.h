// A room's save state on disk, for `tickwire server --save-state FILE` (written when the server
// stops) and `--initial-state FILE` (a server started from one): read bounded, from a regular file
// only (written whole or not at all by write_whole_file, whole_file.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tickwire::cli {

inline constexpr std::size_t kMaxSaveStateFileBytes = std::size_t{256} << 20;  // a room's whole state, far past any map's

// The file's bytes, or nullopt with `error` set.
std::optional<std::vector<uint8_t>> read_save_state_file(const std::string& path, std::string& error);

}  // namespace tickwire::cli
