// Save-state files: a bounded read of a regular file, and a write that renames a finished file
// into place.
#include "save_state_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tickwire/core/regular_file.h"

namespace tickwire::cli {

std::optional<std::vector<uint8_t>> read_save_state_file(const std::string& path, std::string& error) {
  const FileText file = read_regular_file(path, kMaxSaveStateFileBytes);
  if (!file) {
    error = file.error;
    return std::nullopt;
  }
  return std::vector<uint8_t>(file.text.begin(), file.text.end());
}

bool write_save_state_file(const std::string& path, const std::vector<uint8_t>& bytes, std::string& error) {
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      error = partial + ": " + std::strerror(errno);
      std::filesystem::remove(partial);
      return false;
    }
  }
  std::error_code renamed;
  std::filesystem::rename(partial, path, renamed);
  if (renamed) {
    error = path + ": " + renamed.message();
    std::filesystem::remove(partial);
    return false;
  }
  return true;
}

}  // namespace tickwire::cli
