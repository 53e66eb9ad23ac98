// A file written whole or not at all: the bytes go to PATH.partial, which is renamed over PATH once
// they are all on it, so a reader (a server started from a save, a bot resuming, a server loading a
// map) never finds half a file. Used by `server --save-state`, `map crowd` and the bots' resume files.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tickwire::cli {

// False with `error` set (naming the path) when it could not be written; nothing half-written is left.
bool write_whole_file(const std::string& path, std::span<const uint8_t> bytes, std::string& error);
inline bool write_whole_file(const std::string& path, std::string_view text, std::string& error) {
  return write_whole_file(path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()), error);
}

}  // namespace tickwire::cli
