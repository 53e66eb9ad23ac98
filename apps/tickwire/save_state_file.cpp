// Save-state files: a bounded read of a regular file (whole_file.h writes them).
#include "save_state_file.h"

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

}  // namespace tickwire::cli
