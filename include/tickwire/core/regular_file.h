// Reading a small file a user named (a key, a map, a saved token) without trusting what the path
// is: a FIFO with no writer would block open() forever, a device or a directory reads nonsense or
// never ends, and a huge file would be read whole. Only a regular file up to a stated cap is read.
#pragma once

#include <cstddef>
#include <filesystem>
#include <cstdint>
#include <string>

namespace tickwire {

enum class FileProblem : uint8_t { none, cannot_open, not_a_regular_file, too_large, read_failed };

struct FileText {
  std::string text;
  FileProblem problem = FileProblem::none;
  std::string error;  // names the path and the problem; empty when there is none
  explicit operator bool() const { return problem == FileProblem::none; }
};

// The file's bytes, or the problem: it cannot be opened, it is not a regular file, it is over
// `max_bytes`, or reading it failed.
FileText read_regular_file(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace tickwire
