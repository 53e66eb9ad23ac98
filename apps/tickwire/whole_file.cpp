// Writing a file through a temporary one renamed into place.
#include "whole_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tickwire::cli {

bool write_whole_file(const std::string& path, std::span<const uint8_t> bytes, std::string& error) {
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      error = partial + ": " + std::strerror(errno);
      std::error_code ignored;
      std::filesystem::remove(partial, ignored);
      return false;
    }
  }
  std::error_code renamed;
  std::filesystem::rename(partial, path, renamed);
  if (renamed) {
    error = path + ": " + renamed.message();
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    return false;
  }
  return true;
}

}  // namespace tickwire::cli
